"""Small things a player reads (issue 29, words left over from the playtests).

Each expectation was written from what the player should read, before looking
at what the engine says:
- the end of the game said "Player 1: 1 points (1 Lanterns)": a number agrees
  with its noun ("1 point"), and a scoring category is named before its points,
  as the score panel and the final table name them ("Lanterns 1"), since the
  number counts points, not lanterns;
- a space's neighbours read "next to Greenery (Player 1 (human)), Greenery
  (Player 1 (human)), Greenery (Player 1 (human)), City (Player 2 (greedy))":
  the same tiles of the same owner are counted, and the player choosing reads
  their own as "yours";
- a resumed game's first news was every replayed move since the start: it
  starts after the player's last own decision, as it does in a live game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent, RandomAgent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game

TINY = Path(__file__).parent / "fixtures" / "tiny"


@pytest.fixture(scope="module")
def tiny():
    return load_ruleset(TINY)


def test_the_final_scores_say_point_for_one_and_name_each_category_first(tiny):
    g = Game(tiny, 2, 1, [RandomAgent(0), RandomAgent(1)])
    g.state.players[0].stock["gold"] = 1
    g.state.players[1].stock["gold"] = 4
    g.state.players[1].tracks["fame"] = 3
    runner = FlowRunner(g)
    runner.tell_scores(runner.score())
    first, second = (line.strip() for line in g.log_lines[-2:])
    assert first == "Player 1: 1 point (Gold 1)", first
    assert second == "Player 2: 7 points (Gold 4, Fame 3)", second


def test_the_final_scores_of_a_whole_game_never_say_1_points():
    lr = load_ruleset("lantern_row")
    from rulebook_games.play.session import run
    g = Game(lr, 2, 3, [RandomAgent(0), RandomAgent(1)])
    result = run(g)
    tail = g.log_lines[g.log_lines.index("— End of the game —"):]
    told = [line.strip() for line in tail if line.startswith("  Player ")][-2:]
    assert len(told) == 2, tail
    for seat, line in enumerate(told):
        total = result.scores[seat]
        assert line.startswith(f"Player {seat + 1}: {total} point{'' if total == 1 else 's'}")
        for name, points in result.breakdown[seat].items():
            assert (f"{name} {points}" in line) == bool(points), line


@pytest.fixture(scope="module")
def tm():
    return load_ruleset("terraforming_mars")


def _around(game, tiles):
    """A land space with as many neighbours as ``tiles`` (tile, owner) asks, each laid."""
    land = next(s for s, d in game.space_decl.items() if d.get("type") == "land"
                and len(game.rs.adjacency.get(s, [])) >= len(tiles)
                and not d.get("bonus"))
    for near, (tile, owner) in zip(game.rs.adjacency[land], tiles):
        game.state.set_space(near, "tile", tile)
        if owner is not None:
            game.state.set_space(near, "owner", owner)
    return land


def test_a_spaces_neighbours_are_counted_and_yours_are_said_so(tm):
    game = Game(tm, 2, 1, [Agent(), Agent()], names=["Player 1 (human)", "Player 2 (greedy)"])
    land = _around(game, [("greenery", 0), ("city", 1), ("greenery", 0), ("ocean", None),
                          ("greenery", 0), ("ocean", None)])
    assert game.space_summary(land, 0) == (
        "Land · next to 3 of your greeneries, 2 oceans and a city of Player 2 (greedy)")
    # to the other player (or to nobody in particular) the same greeneries are Player 1's
    assert game.space_summary(land, 1) == (
        "Land · next to your city, 2 oceans and 3 greeneries of Player 1 (human)")
    assert game.space_summary(land) == ("Land · next to 2 oceans, 3 greeneries of Player 1 "
                                        "(human) and a city of Player 2 (greedy)")
    # short enough to read beside an option at 80 columns
    assert len(game.space_summary(land, 0)) < 80


def test_a_tile_on_the_space_is_said_whose_it_is(tm):
    game = Game(tm, 2, 1, [Agent(), Agent()], names=["Player 1 (human)", "Player 2 (greedy)"])
    land = _around(game, [("city", 0)])
    game.state.set_space(land, "tile", "greenery")
    game.state.set_space(land, "owner", 0)
    assert game.space_summary(land, 0) == "Land · has your greenery · next to your city"
    assert game.space_summary(land, 1) == ("Land · has a greenery of Player 1 (human) · "
                                           "next to a city of Player 1 (human)")


class _Stop(Exception):
    """The person's first decision after the point looked at: stop there."""


def _person(answers, stop_at):
    """A person at a terminal typing the record's answers, who stops at decision
    ``stop_at`` and keeps the news they read there."""
    import io

    from rich.console import Console

    from rulebook_games.play.terminal import HumanAgent

    class Person(HumanAgent):
        def __init__(self):
            super().__init__(console=Console(file=io.StringIO(), width=80),
                             input_fn=lambda prompt: self.typed)
            self.news_at = None

        def decide(self, decision, view, game):
            at = len(game.record)
            if at >= stop_at:
                self.news_at = self.news_groups(game, view["you"])
                raise _Stop
            self.typed = str(answers[at] if decision.is_range else answers[at] + 1)
            return super().decide(decision, view, game)
    return Person()


class _FromRecord(Agent):
    def __init__(self, answers):
        self.answers = answers

    def decide(self, decision, view, game):
        return self.answers[len(game.record)]


def test_a_resumed_game_shows_the_news_since_your_last_decision_as_a_live_game_does():
    from rulebook_games.play.session import build_game, run
    lr = load_ruleset("lantern_row")
    played = Game(lr, 2, 5, [RandomAgent(0), RandomAgent(1)])
    run(played)
    answers, deciders = list(played.record), list(played.deciders)
    # a decision of the person's, well into the game, after the other player moved
    at = next(i for i in range(len(answers) // 2, len(answers))
              if deciders[i] == 0 and deciders[i - 1] == 1)
    seen = {}
    for prefix in (None, answers[:at]):
        person = _person(answers, at)
        game = build_game(lr, 2, 5, ["human", "random"], prefix=prefix,
                          live_agents=[person, _FromRecord(answers)])
        with pytest.raises(_Stop):
            run(game)
        seen["resumed" if prefix else "live"] = person.news_at
    assert seen["live"], "the other player moved since"
    assert seen["resumed"] == seen["live"]


def test_a_resumed_game_says_where_it_carries_on(tmp_path):
    import os
    import subprocess
    import sys

    from rulebook_games.play.record import Record

    def play(*args, typed):
        return subprocess.run([sys.executable, "-m", "rulebook_games", "play", str(TINY),
                               *args], cwd=tmp_path, input=typed, capture_output=True,
                              text=True, timeout=120, env={**os.environ, "COLUMNS": "100"})
    first = play("-p", "2", "--seed", "3", "--agents", "human,random", "--save", "g.json",
                 typed="1\n1\n")  # two answers, then the end of the input: saved
    assert first.returncode == 0, first.stdout + first.stderr
    made = len(Record.load(tmp_path / "g.json").decisions)
    again = play("--resume", "g.json", typed="")
    assert again.returncode == 0, again.stdout + again.stderr
    head = again.stdout.splitlines()[0]
    assert head.endswith(f"· resumed after decision {made}"), head


def test_a_tile_with_nowhere_to_go_is_refused_in_the_games_words(tm):
    """'there is no legal space for City' named the tile as a label: in a sentence it is
    the tile's declared name in lower case, with its article."""
    from rulebook_games.engine.decisions import ActionRefused
    game = Game(tm, 2, 1, [Agent(), Agent()])
    for space, decl in game.space_decl.items():  # every area a city may go taken
        if decl.get("type") in ("land", "volcanic") and not decl.get("off_board"):
            game.state.set_space(space, "tile", "greenery")
    with pytest.raises(ActionRefused) as refused:
        game.place_tile("city", 0, "anywhere_legal", None)
    assert refused.value.reason == "there is no space where a city may go"
