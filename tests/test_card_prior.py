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


# --- a card's uses (--card-uses) and its requirements (--card-requirements) ---------
# Expectations from the rule text of the cards used: Equatorial Magnetizer ("Action:
# decrease your energy production 1 step to raise your TR 1 step"), Rover Construction
# ("Whenever anyone places a city, gain 2 M€"), Kelp Farming (requires 6 oceans).

def _seen(st):
    return (st.players, st.zones, st.tracks, st.spaces, st.cards, st.history,
            st.rng.getstate())


def _now(game, seat=0):
    runner = FlowRunner(game)
    with reading(game):
        now = float(runner.evaluate(seat))
        return now, point_price(runner, seat, now)


def _changed(game, seat, change):
    """The evaluation's gain, for the seat, of a copy of the position changed by hand."""
    probe = game.__copy__()
    probe.state = game.state.clone()
    change(probe.state.players[seat])
    with reading(probe):
        return float(FlowRunner(probe).evaluate(seat))


def test_an_actions_use_is_what_running_it_once_gains():
    from rulebook_games.lab.train import card_uses
    rs, game = _position()
    c = _put_in_hand(game, 0, "equatorial_magnetizer")
    now, price = _now(game)
    me = game.state.players[0]
    me.production["energy"] = 2
    now, price = _now(game)

    def magnetized(p):
        p.production["energy"] -= 1
        p.tracks["tr"] += 1
    expected = (_changed(game, 0, magnetized) - now) / price
    assert expected > 0  # a step of TR for a step of energy production: worth it early
    before = _seen(game.state.clone())
    assert card_uses(game, 0, c, now, price, []) == pytest.approx(expected)
    assert _seen(game.state) == before  # run on a copy
    # without energy production the action cannot be taken: no use
    me.production["energy"] = 0
    now, price = _now(game)
    assert card_uses(game, 0, c, now, price, []) == 0.0


def test_a_triggers_use_is_its_gain_times_how_often_its_event_came_a_round():
    from rulebook_games.lab.train import SEEN_EVENTS, _watch_events, card_uses
    from rulebook_games.play.session import run
    rs = load_ruleset("terraforming_mars")
    plain = build_game(rs, 2, 3, ["greedy", "greedy"])
    plain.keep_log = False
    run(plain)
    game = build_game(rs, 2, 3, ["greedy", "greedy"])
    game.keep_log = False
    _watch_events(game)
    run(game)
    # watching changes nothing, and records the game's own events only: one placement
    # per tile on the board (the agents' searches placed many more on their copies)
    assert _seen(game.state) == _seen(plain.state)
    events = game.__dict__[SEEN_EVENTS]
    tiles = [v for v in game.state.spaces.values() if v.get("tile")]
    placed = [p for e, _, p in events if e == "tile_placed"]
    assert len(placed) == len(tiles) > 0
    cities = sum(1 for p in placed if p["tile"] == "city")
    assert cities > 0
    # Rover Construction in a hand at the end: its use a round is the cities placed a
    # round (anyone's) times what 2 M€ are worth
    c = _put_in_hand(game, 0, "rover_construction")
    now, price = _now(game)
    two = (_changed(game, 0, lambda p: p.stock.__setitem__("mc", p.stock["mc"] + 2))
           - now) / price
    rounds = game.state.round
    assert card_uses(game, 0, c, now, price, events) == \
        pytest.approx(cities / rounds * two)
    assert card_uses(game, 0, c, now, price, []) == 0.0  # no event seen: no use yet


def test_uses_count_for_the_rounds_left_and_unmet_requirements_count_nothing():
    from rulebook_games.agents.base import RandomAgent
    # a card worth 1 played and 0.5 a round once played, held at round 2 of games of
    # 10 rounds: 1 + 8 rounds of uses; without uses measured, its worth played
    samples = [Sample(0, 2, {}, 0, worths={"a": 1.0}, uses={"a": 0.5}),
               Sample(0, 10, {}, 0, worths={"a": 3.0, "b": 2.0})]
    assert card_prior_weights(samples, 10.0) == {"a": (5.0 + 3.0) / 2, "b": 2.0}
    assert card_prior_weights(samples) == {"a": 2.0, "b": 2.0}
    # Kelp Farming at the start (no ocean yet): worth its production and VP with the
    # requirements aside, 0 with them
    rs, game = _position()
    _put_in_hand(game, 0, "kelp_farming")
    game.agents = [RandomAgent(1)] * 2
    assert game.state.tracks.get("oceans", 0) < 6
    now, _ = _now(game)
    aside = card_worths(game, 0, now, TM)
    counted = card_worths(game, 0, now, dict(TM, requirements=True))
    assert aside["kelp_farming"] > 1
    assert counted["kelp_farming"] == 0.0
    # a card whose requirements hold is measured as before
    assert {k: v for k, v in counted.items() if k != "kelp_farming"} == \
        pytest.approx({k: v for k, v in aside.items() if k != "kelp_farming"
                       and game.meets_requirements(
                           next(c for c in game.state.zones[("hand", 0)]
                                if game.state.cards[c].def_id == k), 0)})


def test_card_uses_and_requirements_need_a_card_prior(capsys):
    from rulebook_games.cli import main
    with pytest.raises(SystemExit) as info:
        main(["train", "terraforming_mars", "-n", "4", "--card-uses"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--card-uses" in err and "--card-prior" in err
    assert "Traceback" not in err
