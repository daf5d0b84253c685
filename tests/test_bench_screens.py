"""The screen-height benchmark measures the real terminal seat (its figures are not asserted)."""

import io
import sys
from pathlib import Path

from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from bench_screens import MeasuredSeat  # noqa: E402

from rulebook_games import load_ruleset  # noqa: E402
from rulebook_games.agents.registry import make_agent  # noqa: E402
from rulebook_games.play.session import build_game, run  # noqa: E402


def test_each_screen_holds_its_question_and_options_and_the_answer_is_the_agents():
    console = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    seat = MeasuredSeat(console, make_agent("first", 1))
    rs = load_ruleset("lantern_row")
    game = build_game(rs, 2, 3, ["human", "first"], live_agents=[seat, make_agent("first", 2)])
    assert run(game).finished
    for screen in seat.screens:
        assert screen.endswith("> ")
        assert " 1. " in screen or "enter" in screen  # the options were on it
    # the first agent typed "1" each time: the record holds the first option throughout
    first = make_agent("first", 3)
    again = build_game(rs, 2, 3, ["first", "first"], live_agents=[first, make_agent("first", 2)])
    run(again)
    assert again.record == game.record
