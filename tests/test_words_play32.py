"""What players read in Legacy and Lantern Row, from playtest 32 (issues 26/29)."""

from __future__ import annotations

import io

from rich.console import Console

from rulebook_games import load_ruleset
from rulebook_games.engine.decisions import Decision, Option
from rulebook_games.play.session import build_game
from rulebook_games.play.terminal import HumanAgent


def _human_game(ruleset: str, width: int = 80):
    out = io.StringIO()
    human = HumanAgent(Console(file=out, width=width), lambda prompt: "1")
    game = build_game(load_ruleset(ruleset), 2, 3, ["human", "random"])
    game.agents[0] = human
    game.keep_log = True
    human.news(game, 0)  # everything before is seen
    out.truncate(0)
    out.seek(0)
    return game, human, out


def test_a_long_phase_cut_before_an_answer_taken_for_you_is_headed_once():
    """Playtest 32: between rounds 3 and 4 '· V. Prepare the next round' was printed
    twice: the news before the turn order place taken for the player was cut to its
    last lines, the phase's headline among those left out, and the screen after the
    answer headed the phase again. A phase cut at the top keeps its headline, once."""
    game, human, out = _human_game("legacy_gears_of_time")
    game.log("Player 2 (random): Draw two, keep one")
    game.log("· V. Prepare the next round")
    for i in range(12):
        game.log(f"  Frame {i} is cleared for your next round")
    only = Decision(0, "item", "Which place do you take?", [Option("1st", "1st", "1st")])
    assert game._ask(only) == 0
    game.log("  Player 1 (human): Place in turn order 2 → 1")
    human.news(game, 0)
    shown = out.getvalue()
    assert shown.count("· V. Prepare the next round") == 1, shown
    assert shown.index("· V. Prepare the next round") < shown.index("Frame 11 is cleared")
    assert "Place in turn order 2 → 1" in shown
