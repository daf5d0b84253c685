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
