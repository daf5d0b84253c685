"""Choices the flow's own rules ask outside any action: the searching agents weigh them.

Terraforming Mars's last plant conversion ("After the last production phase
everyone, in turn order, may turn plants into greeneries once more") is asked
by the end of the game's own rule, not inside an action. A greenery there is
a point for the tile and a point of TR for 8 plants that are worth nothing once
the game is over, so a seat with 14 plants answers "Pay 8 plants; place a
greenery?" with yes: at least one greenery, at least 21 points (20 TR). The
agents used to answer such a question at random (issue 29: greedy refused with
28 plants, ismcts with 10).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.errors import Diagnostics
from rulebook_games.scenarios.data import Step
from rulebook_games.scenarios.files import load_scenarios
from rulebook_games.scenarios.run import ScenarioRun
from rulebook_games.span import Span

ROOT = Path(__file__).resolve().parents[1]
TM = ROOT / "rulesets" / "terraforming_mars"


@pytest.fixture(scope="module")
def final_conversion():
    rs = load_ruleset(TM)
    diags = Diagnostics()
    scenarios = load_scenarios(rs, TM / "scenarios" / "audit_end_game.yaml", diags)
    sc = next(s for s in scenarios if s.id == "final_greenery_bonus_pays_for_another")
    return rs, sc


def _play_to_the_end(rs, sc, spec: str):
    """The scenario's position (seat 1 with 14 plants, Mars terraformed, the last
    production next), played to the end by ``spec`` in seat 1."""
    step = Step(Span(sc.file, 1, 1), 0, "advance", advance=("game", None),
                agents={0: spec, 1: "passive"})
    run = ScenarioRun(rs, dataclasses.replace(sc, steps=[step]))
    outcome = run.run()
    assert outcome.passed, outcome.message
    return run.game, run.result


@pytest.mark.parametrize("spec", [f"{agent}:{seed}" for agent in ("greedy", "ismcts")
                                  for seed in range(1, 9)])
def test_an_agent_takes_its_last_greeneries(final_conversion, spec):
    rs, sc = final_conversion
    game, result = _play_to_the_end(rs, sc, spec)
    greeneries = sum(1 for live in game.state.spaces.values()
                     if live.get("tile") == "greenery" and live.get("owner") == 0)
    assert greeneries >= 1 and result.scores[0] >= 21, (greeneries, result.scores)
    assert game.state.players[0].stock["plant"] < 8  # nothing left that buys a greenery


def test_a_random_agent_there_does_refuse_sometimes(final_conversion):
    """(The question is a real one: answered at random, some seeds refuse it.)"""
    rs, sc = final_conversion
    refused = 0
    for seed in range(1, 9):
        game, result = _play_to_the_end(rs, sc, f"random:{seed}")
        refused += game.state.players[0].stock["plant"] >= 8
    assert refused


def test_a_resumed_seat_of_a_searching_agent_still_searches_the_rules():
    """A resumed game seats each agent behind the record's answers: the game must still
    keep where a rule started for it (else the last conversion is random again)."""
    from rulebook_games.play.session import build_game
    rs = load_ruleset(TM)
    game = build_game(rs, 2, 1, ["greedy", "random"], (), prefix=[0])
    assert [getattr(a, "searches_rules", False) for a in game.agents] == [True, False]
