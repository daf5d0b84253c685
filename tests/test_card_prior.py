"""A card in hand valued by what it does (issue 29): `rulebook train --card-prior ZONE:RESOURCE`.

Expectations from the issue's part for Terraforming Mars ("the value of a card is what it
does": a card's worth in hand is the evaluation's gain from playing it, its effects run
on a copy with the cost and requirements aside, measured by the engine for any card
definition; stored in the weights file as data) and from the rules of the cards used
(Colonizer Training Camp: no effect, 2 VP, cost 8; Lake Marineris: two oceans, 2 VP):
- a card's worth is what its `play` effect gains the seat's hand-written evaluation, in
  points at that evaluation's price of a point, plus its VP, less its printed cost at the
  evaluation's price of the cost's resource, and never below 0; measuring it changes
  nothing in the game;
- the fit weighs the worth of the cards held as one feature and folds it into each card's
  weight: the value reads the same features and predicts the same numbers as with the
  feature; without the option nothing changes.
"""

from __future__ import annotations

import random

import pytest

from rulebook_games import load_ruleset
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.lab.train import (CARD_PRIOR, Sample, _card_lines, card_prior_weights,
                                     card_worths, fit, play_and_sample, point_price, predict)
from rulebook_games.lang.gensupport import reading
from rulebook_games.play.session import build_game

TM = {"zones": ["hand"], "cost": "mc"}


def _pairs(model):
    names, w, v, b, m, s, lm, ls = model
    return {n: (w[i] / s[i], v[i] / ls[i]) for i, n in enumerate(names)}


def _samples(beta: float, worth: dict):
    """Positions whose final margin is the score margin plus ``beta`` times the worth of
    the cards in hand (the worths ``worth`` gives), plus noise."""
    rng = random.Random(5)
    out = []
    for g in range(60):
        for r in range(1, 9):
            feats = {"score": rng.randint(0, 30), "round": r, "size:hand": 0}
            held = 0.0
            for ident in rng.sample(sorted(worth), 3):
                feats[f"card:hand:{ident}"] = 1
                feats["size:hand"] += 1
                held += worth[ident]
            out.append(Sample(g, r, feats, feats["score"] + beta * held + rng.gauss(0, 0.1)))
    return out


def test_the_worth_of_the_cards_held_is_fitted_and_folded_into_each_cards_weight():
    worth = {"a": 6.0, "b": 0.5, "c": 2.0, "d": 0.0, "e": 4.0, "f": 1.0}
    samples = _samples(0.5, worth)
    lines = _card_lines(worth, ["hand"])
    model = fit(samples, 8.0, 1.0, 0.0, False, None, lines)
    assert CARD_PRIOR not in model[0]  # folded away: the value reads no new feature
    pairs = _pairs(model)
    # the card features left out (card factor 0): each card's weight is half its worth
    # (lightly held back, as the evaluation is: a little less), early and late alike
    for ident, w in worth.items():
        early, late = pairs[f"card:hand:{ident}"]
        assert early + late == pytest.approx(0.5 * w, rel=0.06, abs=0.01)
        assert early == pytest.approx(0.5 * w, rel=0.1, abs=0.01)
    # folded exactly: what it predicts is the margins (the noise aside)
    pred = predict(model, samples, 8.0)
    assert max(abs(p - s.target) for p, s in zip(pred, samples)) < 0.5
    # without the prior, the cards say nothing (left out) and the fit is as before
    bare = fit(samples, 8.0, 1.0, 0.0, False)
    assert bare[0] == [n for n in bare[0]]
    assert all(not n.startswith("card:") for n in _pairs(bare)) or \
        all(p == (0.0, 0.0) for n, p in _pairs(bare).items() if n.startswith("card:"))
    assert card_prior_weights([Sample(0, 1, {}, 0, worths={"a": 2.0}),
                               Sample(0, 2, {}, 0, worths={"a": 4.0, "b": 1.0})]) == \
        {"a": 3.0, "b": 1.0}


def _position(seed=4):
    rs = load_ruleset("terraforming_mars")
    game = build_game(rs, 2, seed, ["random", "random"])
    game.keep_log = False
    return rs, game


def _put_in_hand(game, seat, ident):
    """The first copy of card ``ident`` moved into the seat's hand (a test position)."""
    st = game.state
    c = next(n for n, card in st.cards.items() if card.def_id == ident)
    card = st.card_w(c)
    st.zones[(card.zone, card.zone_owner)].remove(c)
    card.zone, card.zone_owner, card.owner = "hand", seat, seat
    st.zones[("hand", seat)].append(c)
    return c


def test_a_cards_worth_is_what_playing_it_gains_plus_its_vp_less_its_cost():
    from rulebook_games.agents.base import RandomAgent
    rs, game = _position()
    _put_in_hand(game, 0, "colonizer_training_camp")
    _put_in_hand(game, 0, "lake_marineris")
    game.agents = [RandomAgent(1)] * 2
    runner = FlowRunner(game)
    with reading(game):
        now = float(runner.evaluate(0))
        price = point_price(runner, 0, now)
    def seen(st):
        return (st.players, st.zones, st.tracks, st.spaces, st.cards, st.rng.getstate())
    before = seen(game.state.clone())
    worths = card_worths(game, 0, now, TM)
    assert seen(game.state) == before  # measured on copies: the game is as it was
    # Colonizer Training Camp does nothing when played: 2 VP less 8 M€ at the
    # evaluation's price of a M€ (read as card_worths reads it: 10 M€ more)
    probe = game.__copy__()
    probe.state = game.state.clone()
    probe.state.players[0].stock["mc"] += 10
    with reading(probe):
        per_mc = (float(FlowRunner(probe).evaluate(0)) - now) / 10
    assert per_mc > 0
    assert worths["colonizer_training_camp"] == pytest.approx(max(0.0, 2 - 8 * per_mc / price))
    # Lake Marineris (two oceans, two terraforming steps, and 2 VP) is worth more
    assert worths["lake_marineris"] > worths["colonizer_training_camp"]
    assert worths["lake_marineris"] > 2
    # every card in the hand is measured, and only those
    hand = {game.state.cards[c].def_id for c in game.state.zones[("hand", 0)]}
    assert set(worths) == hand
    assert all(w >= 0 for w in worths.values())


def test_training_with_the_card_prior_measures_the_hand_and_changes_nothing_else():
    rs = load_ruleset("terraforming_mars")
    plain, _, _ = play_and_sample(rs, 2, 5, "random", 0, 0.05)
    measured, _, _ = play_and_sample(rs, 2, 5, "random", 0, 0.05, card_prior=TM)
    assert all(s.worths is None for s in plain)
    assert any(s.worths for s in measured)
    # the same positions, features and labels: the worths only read
    assert [(s.features, s.target) for s in plain] == \
        [(s.features, s.target) for s in measured]
    for s in measured:
        held = {n.split(":")[2] for n in s.features if n.startswith("card:hand:")}
        assert set(s.worths or {}) <= held


def test_a_card_prior_names_a_zone_and_a_resource_of_the_ruleset(tmp_path, capsys):
    from rulebook_games.cli import main
    for bad, says in (("pocket:mc", "no zone 'pocket'"), ("hand:gold", "no resource 'gold'")):
        with pytest.raises(SystemExit) as info:
            main(["train", "terraforming_mars", "-n", "4", "--card-prior", bad,
                  "--out", str(tmp_path / "x.json")])
        assert info.value.code == 2
        assert says in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()
