"""A phase's or a move's headline printed right above a question is not printed
again under the answer (playtests 30 and 31, Legacy: "· V. Prepare the next round"
once above the turn-order question, then again right after the answer)."""

from __future__ import annotations

import io

from rich.console import Console

from rulebook_games.agents import RandomAgent
from rulebook_games.load.ruleset import load_ruleset
from rulebook_games.play.session import build_game, run
from rulebook_games.play.terminal import HumanAgent


class _Enough(Exception):
    pass


def _screen(seed: int) -> str:
    out = io.StringIO()
    rounds = []

    def typed(prompt=""):
        text = out.getvalue()
        if text.count("— Round 3 —"):
            raise _Enough
        return "1"
    human = HumanAgent(Console(file=out, width=80), typed)
    game = build_game(load_ruleset("legacy_gears_of_time"), 2, seed, ["human", "random"],
                      live_agents=[human, RandomAgent(seed)])
    game.keep_log = True
    try:
        run(game)
    except (_Enough, KeyboardInterrupt):
        pass
    return out.getvalue()


def test_the_phase_headline_above_your_question_is_not_printed_again_under_it():
    asked = 0
    for seed in range(1, 8):
        shown = _screen(seed)
        for part in shown.split("— Round ")[1:3]:  # rounds 1 and 2 (then round 3 starts)
            if "Which place do you take in the next turn order?\n   1." not in part:
                continue  # (asked, not taken for you)
            asked += 1
            assert part.count("· V. Prepare the next round") <= 1, part[-2500:]
    assert asked >= 2
