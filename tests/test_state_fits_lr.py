"""Lantern Row's `state` stays short at 80 columns late in a game (issues 26/29
follow-ups: "state is ~40 lines late in a game", aim 30; the end condition, the nearest
stall's count and the warning said the same thing three times). It was 40 lines at
its tallest over these games; it is 35 now (the rest is the row's and the hand's card
texts and the panels, each said once)."""

from __future__ import annotations

import io
import random

from rich.console import Console

from rulebook_games.agents import Agent
from rulebook_games.load.ruleset import load_ruleset
from rulebook_games.play.render import render_view
from rulebook_games.play.session import build_game, run


class _Look(Agent):
    wants_view = False

    def __init__(self, seed, heights):
        self.rng, self.heights = random.Random(seed), heights

    def decide(self, decision, view, game):
        if decision.player == 0:
            out = io.StringIO()
            Console(file=out, width=80).print(render_view(game.view_model(0), game))
            self.heights.append((len(out.getvalue().rstrip("\n").split("\n")),
                                 out.getvalue()))
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))


def test_state_stays_short_all_game():
    rs = load_ruleset("lantern_row")
    heights = []
    for seed in range(1, 6):
        run(build_game(rs, 2, seed, ["random"] * 2,
                       live_agents=[_Look(seed, heights), _Look(seed + 50, [])]))
    tallest = max(heights)
    assert tallest[0] <= 35, tallest[1]
    assert "Lanterns hung" in tallest[1] and "The festival ends" in tallest[1]
