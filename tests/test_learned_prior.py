"""A learned value that prices a stock (issue 29): `rulebook train --prior evaluation`.

Expectations from the issue ("the ruleset's hand-written evaluation remains as a fallback
and a prior") and from agenttm's finding (benchmarks/README.md: TM's value priced a M€ at
0.002 points, so buying a card to sell it cost nothing): with the prior, each stock's and
production's weight is held back toward what one unit is worth to the hand-written
evaluation, converted to points at the rate that evaluation predicts the final margin,
instead of toward 0. Where the games say little (a heavy damping) a unit keeps that price;
where they say much, the games win. Without the option nothing changes.
"""

from __future__ import annotations

import random

import pytest

from rulebook_games import load_ruleset
from rulebook_games.lab.train import Sample, fit, marginals, play_and_sample, prior_weights


def _pairs(model):
    names, w, v, b, m, s, lm, ls = model
    return {n: (w[i] / s[i], v[i] / ls[i]) for i, n in enumerate(names)}


def _samples(points_a_unit: float, marginal: float = 3.0, eval_rate: float = 0.5):
    """Positions whose final margin is the score margin now plus ``points_a_unit`` for
    each unit of the stock ``x``; a hand-written evaluation prices a unit at ``marginal``
    of its units, and its margin predicts the final margin at ``eval_rate`` a unit."""
    rng = random.Random(3)
    out = []
    for g in range(40):
        for r in range(1, 9):
            score, other, x = rng.randint(0, 40), rng.randint(0, 40), rng.randint(0, 20)
            margin = score - other + points_a_unit * x + rng.gauss(0, 1)
            ev = margin / eval_rate
            feats = {"score": score, "score of the best other": other, "stock:x": x,
                     "evaluation": ev, "evaluation of the best other": 0.0, "round": r}
            out.append(Sample(g, r, feats, margin, marginals={"stock:x": marginal}))
    return out


def test_the_prior_is_the_evaluations_price_of_a_unit_in_points():
    # the evaluation's margin predicts the final margin at 0.5 a unit, and a unit of x
    # is worth 3 of its units: 1.5 points, early and late alike
    early, late = prior_weights(_samples(0.2), 10.0)["stock:x"]
    assert early == pytest.approx(1.5, abs=0.01)
    assert late == pytest.approx(0.0, abs=0.01)


def test_a_stock_is_held_back_toward_its_prior_not_toward_nothing():
    samples = _samples(0.2)
    for s in samples:  # (the evaluation as a feature would explain it all: left out here)
        s.features.pop("evaluation")
        s.features.pop("evaluation of the best other")
    prior = {"stock:x": (1.5, 0.0)}
    # held back very hard: the prior's price with it, nothing without it
    held = _pairs(fit(samples, 10.0, 1e12, 1.0, False, prior))["stock:x"]
    assert held[0] + held[1] * 0.5 == pytest.approx(1.5, abs=0.01)
    bare = _pairs(fit(samples, 10.0, 1e12, 1.0, False))["stock:x"]
    assert bare[0] + bare[1] * 0.5 == pytest.approx(0.0, abs=0.01)
    # held back lightly: what the games say (0.2 a unit), prior or not
    for given in (prior, None):
        light = _pairs(fit(samples, 10.0, 1e-6, 1.0, False, given))["stock:x"]
        assert light[0] + light[1] * 0.5 == pytest.approx(0.2, abs=0.02)


def test_a_units_price_is_read_from_the_evaluation_and_the_position_is_left_as_it_was():
    # Terraforming Mars's evaluation (flow.yaml, holdings_worth): while production
    # phases remain to spend in, a M€ in stock counts 1 M€, a titanium titanium_worth()
    # (3 M€ unless a card raises it), and a M€ of production what it brings in the
    # production phases whose output can still be spent
    from rulebook_games.agents.features import holdings
    from rulebook_games.engine.flow import FlowRunner
    from rulebook_games.lang.gensupport import reading
    from rulebook_games.play.session import build_game
    rs = load_ruleset("terraforming_mars")
    game = build_game(rs, 2, 4, ["random", "random"])
    game.keep_log = False
    runner = FlowRunner(game)
    with reading(game):
        before = holdings(game.state.players[0])
        now = float(runner.evaluate(0))
        m = marginals(runner, 0, now)
        assert holdings(game.state.players[0]) == before
        assert float(runner.evaluate(0)) == now
    assert game.state.round == 0  # (before the first generation: no step taken yet)
    assert m["stock:mc"] == pytest.approx(1.0)
    assert m["stock:titanium"] == pytest.approx(3.0)
    # spending_thirds: 3 * (13 - 2 players - round 0) = 33 thirds, 11 phases' worth
    assert m["production:mc"] == pytest.approx(11.0)
    assert m["production:titanium"] == pytest.approx(3 * 11.0)


def test_training_with_the_prior_reads_the_prices_and_without_it_does_not():
    rs = load_ruleset("terraforming_mars")
    plain, _, _ = play_and_sample(rs, 2, 5, "random", 0, 0.05)
    priced, _, _ = play_and_sample(rs, 2, 5, "random", 0, 0.05, prior="evaluation")
    assert all(s.marginals is None for s in plain)
    assert priced and all(s.marginals and "stock:mc" in s.marginals for s in priced)
    # the same positions, the same features and labels: the prices only read
    assert [(s.features, s.target) for s in plain] == [(s.features, s.target) for s in priced]
