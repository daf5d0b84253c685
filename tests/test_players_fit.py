"""`players` at a prompt fits an 80×24 terminal, a page at a time (playtest 32,
Terraforming Mars: "players (side-by-side panels) is ~45 lines at 80x24; its top
(M€, steel, ...) scrolls off and it has no paging"). Like `help`, each screen
leaves room for the question printed again under it; what did not fit is one
command away, `players more`, and says so."""

from __future__ import annotations

import io

from rich.console import Console

from rulebook_games import load_ruleset
from rulebook_games.agents.registry import make_agent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game
from rulebook_games.play.terminal import HumanAgent


class _Stop(Exception):
    pass


class _Until:
    """A random player, until the game has had ``most`` decisions."""

    count = 0

    def __init__(self, seed: int, most: int):
        self.agent, self.most = make_agent("random", seed=seed), most

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def decide(self, decision, view, game):
        _Until.count += 1
        if _Until.count >= self.most:
            raise _Stop
        return self.agent.decide(decision, view, game)


def _late_game(ruleset: str, most: int) -> Game:
    _Until.count = 0
    game = Game(load_ruleset(ruleset), 2, 7, [_Until(0, most), _Until(1, most)])
    try:
        FlowRunner(game).play()
    except _Stop:
        pass
    return game


def _typed(game, *lines) -> list[list[str]]:
    human = HumanAgent(Console(file=io.StringIO(), width=80), lambda prompt="": "")
    decision = type("D", (), {"player": 0})()
    shown = []
    for line in lines:
        human.console.file = io.StringIO()
        assert human.command(line, decision, {}, game)
        shown.append(human.console.file.getvalue().rstrip("\n").split("\n"))
    return shown


def test_players_fits_the_screen_a_page_at_a_time():
    game = _late_game("terraforming_mars", 400)
    first, second = _typed(game, "players", "players more")
    for page in (first, second):
        # (the question is printed again under it: room for it and the prompt)
        assert len(page) <= 22, "\n".join(page)
        assert all(len(x) <= 80 for x in page)
    assert any(x.startswith("M€ ") for x in first)  # the stocks stay in view, on top
    assert "players more" in first[-1]  # what did not fit is one command away
    assert any(x.startswith("Played cards") for x in second)
    assert second[1].split() == first[1].split()  # whose column is whose, again
