"""A number question with one possible answer is announced, and changes no game (issue 26).

Expectation from the TM playtest: a payment whose range is one number (Deimos
Down with 2 titanium that must all be spent) was taken silently: no line said
so, unlike every other question with one answer, which the terminal shows in
place "→ 2 (the only choice, taken for you)". The engine now tells the seat's
agent through the same hook (``Agent.taken``) and the seat's own log line,
without recording a decision: a game with the same seed and answers is the
same game, told or not.
"""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.base import Agent
from rulebook_games.agents.registry import make_agent
from rulebook_games.play.session import build_game, run


class Told(Agent):
    """An agent that plays as another and notes what was taken for it."""

    def __init__(self, inner):
        self.inner, self.told = inner, []
        self.wants_view = getattr(inner, "wants_view", True)

    def decide(self, decision, view, game):
        return self.inner.decide(decision, view, game)

    def taken(self, decision, game):
        self.told.append(decision)


def _game(keep_log: bool):
    rs = load_ruleset("terraforming_mars")
    agents = [Told(make_agent("greedy", 1)), Told(make_agent("greedy", 2))]
    game = build_game(rs, 2, 5, ["greedy", "greedy"], ("corporate_era",), live_agents=agents)
    game.keep_log = keep_log
    return game, agents


def test_a_number_with_one_answer_is_told_to_the_seat_and_not_recorded():
    game, agents = _game(True)
    record = list(game.record)
    assert game.choose_number(3, 3) == 3
    assert game.record == record
    told = agents[game._acting()].told[-1]
    assert told.is_range and told.low == told.high == 3
    seat = game._acting()
    assert game.log_line_for(len(game.log_lines) - 1, seat).endswith(
        "→ 3 (the only choice, taken for you)")


@pytest.mark.slow
def test_telling_it_changes_no_game():
    quiet, _ = _game(False)
    told, agents = _game(True)
    assert run(quiet).final_hash == run(told).final_hash
    assert any(d.is_range for a in agents for d in a.told)


def test_the_terminal_shows_a_forced_number_in_place_with_its_question():
    import io

    from rich.console import Console

    from rulebook_games.play.terminal import HumanAgent
    out = io.StringIO()
    human = HumanAgent(Console(file=out, width=100), lambda prompt: "1")
    game, _ = _game(True)
    game.agents[0] = human
    game.state.turn_seat = 0
    human.news(game, 0)
    game.context = "Play a card"
    assert game.choose_number(2, 2) == 2
    assert "Play a card: choose a number → 2 (the only choice, taken for you)" in out.getvalue()
