"""A learned value that prices a stock (issue 29): `rulebook train --prior evaluation`.

Expectations from the issue ("the ruleset's hand-written evaluation remains as a fallback
and a prior") and from agenttm's finding (benchmarks/README.md: TM's value priced a M€ at
0.002 points, so buying a card to sell it cost nothing): with the prior, the value is the score
margin plus the hand-written evaluation of what is not yet scored, in points at that
evaluation's own price of a point, plus what the other features add (held back toward
nothing). Where the games say little, a M€ or a card in hand keeps the evaluation's price;
a point scored is still a point. Without the option nothing changes.
"""

from __future__ import annotations

import random

import pytest

from rulebook_games import load_ruleset
from rulebook_games.lab.train import (Sample, fit, play_and_sample, point_price, predict,
                                     prior_lines, quality)


def _pairs(model):
    names, w, v, b, m, s, lm, ls = model
    return {n: (w[i] / s[i], v[i] / ls[i]) for i, n in enumerate(names)}


def _samples(price: float = 10.0):
    """Positions of a game whose hand-written evaluation is ``price`` a point plus what
    it makes of the rest (``h``: a stock, a hand), and whose final margin is the score
    margin now plus what that rest brings, at the evaluation's own price: h / price."""
    rng = random.Random(3)
    out = []
    for g in range(40):
        for r in range(1, 9):
            score, other = rng.randint(0, 40), rng.randint(0, 40)
            h, h_other = rng.randint(0, 60), rng.randint(0, 60)
            margin = score - other + (h - h_other) / price + rng.gauss(0, 0.3)
            feats = {"score": score, "score of the best other": other, "stock:x": h,
                     "evaluation": price * score + h,
                     "evaluation of the best other": price * other + h_other, "round": r}
            out.append(Sample(g, r, feats, margin, point_price=price))
    return out


def test_the_prior_prices_a_point_at_one_and_the_rest_at_the_evaluations_price():
    lines = prior_lines(_samples(10.0), 10.0)
    assert lines["evaluation"] == pytest.approx((0.1, 0.0), abs=1e-9)
    assert lines["score"] == pytest.approx((0.0, 0.0), abs=1e-9)  # 1 - 0.1 * 10
    assert prior_lines([Sample(0, 1, {}, 0.0)] * 20, 10.0) is None  # no price read


def test_with_the_prior_what_the_games_say_little_about_keeps_the_evaluations_price():
    samples = _samples(10.0)
    lines = prior_lines(samples, 10.0)
    # held back as hard as can be: nothing is learned but the intercept
    held = fit(samples, 10.0, 1e12, 1.0, False, lines)
    bare = fit(samples, 10.0, 1e12, 1.0, False)
    pairs = _pairs(held)
    assert pairs["evaluation"] == pytest.approx((0.1, 0.0))
    assert pairs["evaluation of the best other"] == pytest.approx((-0.1, 0.0))
    assert pairs["score"] == pytest.approx((0.0, 0.0), abs=1e-9)
    # a point is still a point: the score's weight and the evaluation's price of one
    assert pairs["score"][0] + 10 * pairs["evaluation"][0] == pytest.approx(1.0)
    # and the rest at its price: the margins predicted with nothing fitted on top
    assert quality(predict(held, samples, 10.0), samples)["r2"] > 0.95
    assert _pairs(bare)["score"] == pytest.approx((1.0, 0.0))


def test_a_points_price_is_read_from_the_evaluation_and_the_position_is_left_as_it_was():
    # Terraforming Mars's evaluation (flow.yaml) prices a VP at vp_price() M€:
    # max(6, 15 - generations_left()), and before the first generation of a 2-player
    # game 12 generations are guessed to be left: 6 M€
    from rulebook_games.engine.flow import FlowRunner
    from rulebook_games.lang.gensupport import reading
    from rulebook_games.play.session import build_game
    rs = load_ruleset("terraforming_mars")
    game = build_game(rs, 2, 4, ["random", "random"])
    game.keep_log = False
    runner = FlowRunner(game)
    with reading(game):
        now = float(runner.evaluate(0))
        score = game.score(0)
        assert point_price(runner, 0, now) == pytest.approx(6.0)
        assert "score" not in game.__dict__  # (the game's own score() again)
        assert game.score(0) == score and float(runner.evaluate(0)) == now
    assert game.state.round == 0
    # Lantern Row's (scoring.yaml): 6 * score(you) + stock(coins) + hand_worth()
    rs = load_ruleset("lantern_row")
    game = build_game(rs, 2, 4, ["random", "random"])
    runner = FlowRunner(game)
    with reading(game):
        assert point_price(runner, 0, float(runner.evaluate(0))) == pytest.approx(6.0)


def test_training_with_the_prior_reads_the_prices_and_without_it_does_not():
    rs = load_ruleset("terraforming_mars")
    plain, _, _ = play_and_sample(rs, 2, 5, "random", 0, 0.05)
    priced, _, _ = play_and_sample(rs, 2, 5, "random", 0, 0.05, prior="evaluation")
    assert all(s.point_price is None for s in plain)
    assert priced and all(s.point_price >= 6 for s in priced)
    # the same positions, the same features and labels: the prices only read
    assert [(s.features, s.target) for s in plain] == [(s.features, s.target) for s in priced]
