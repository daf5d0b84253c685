"""Timespan medals (end.ranks with if: solo_won()): only solo, only with both visions."""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import RandomAgent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game
from rulebook_games.lang import types as T
from lang_helpers import compile_ok

RULESET = "timespan"

BOTH_VISIONS = """\
for v in cards_in(visions):
  put(v, vision_deck)
put(find_card(vision_merchants), visions)
put(find_card(vision_storehouses), visions)
for r in [food, wood, stone, ore]:
  gain 3 r
lose stock(coin) coins
gain 10 coins
"""


@pytest.fixture(scope="module")
def timespan():
    return load_ruleset(RULESET)


def final_ranks(rs, players, variants, position, vp):
    g = Game(rs, players, 1, [RandomAgent(i) for i in range(players)], variants)
    g.run_code(("flow", "setup"), g.frame(None))
    if position:
        compile_ok(rs, position, variables={"you": T.PLAYER})(g.frame(0))
    g.state.players[0].stock["vp"] = g.state.players[0].stock.get("vp", 0) + vp
    result = FlowRunner(g).score()
    return result.scores[0], result.ranks, result.solo_won


@pytest.mark.parametrize("vp, medal", [(0, None), (100, "Bronze medal"), (125, "Silver medal"),
                                       (150, "Gold medal"), (175, "Platinum medal")])
def test_solo_medal_by_score_with_both_visions(timespan, vp, medal):
    score, ranks, won = final_ranks(timespan, 1, ("scenario_1",), BOTH_VISIONS, 0)
    score, ranks, won = final_ranks(timespan, 1, ("scenario_1",), BOTH_VISIONS, vp - score if vp else 0)
    assert won and ranks == [medal]


def test_no_medal_without_both_visions(timespan):
    score, ranks, won = final_ranks(timespan, 1, ("scenario_1",), "gain 10 coins", 300)
    assert score >= 175 and not won and ranks == [None]


def test_no_medal_with_several_players(timespan):
    score, ranks, won = final_ranks(timespan, 2, (), BOTH_VISIONS, 300)
    assert score >= 175 and ranks == [None, None]
