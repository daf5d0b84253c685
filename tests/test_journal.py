"""The undo journal: a mark, every change after it journaled, a rollback in place.

Expectations from issue 28, step 1 and docs/engine.md ("The undo journal"): a
rollback brings back exactly the position at its mark (every kind of change,
the random source too), marks nest, what is kept stays, a copy can be had of
the position at a mark while the state moves on, and whole games played with
every rollback checked against a copy reach the same final hashes as without.
"""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.engine.state import CardRef
from rulebook_games.play.session import build_game, run

RULESETS = ["terraforming_mars", "legacy_gears_of_time", "timespan", "lantern_row"]


@pytest.fixture(scope="module", params=RULESETS)
def game(request):
    rs = load_ruleset(request.param)
    g = build_game(rs, 2, 7, ["random", "random"])
    g.keep_log = False
    return g


def same(a, b) -> bool:
    return a.same_as(b) and a.tally == b.tally and a.digest() == b.digest()


def change_everything(g) -> None:
    """One change of every kind the engine makes, through the engine where it can."""
    st = g.state
    res = next(iter(g.resource_decl))
    g.change_stock(0, res, 3, "gain")
    st.set_player(1, "production", res, 5)
    for tid, decl in g.track_decl.items():
        if decl.get("scope") == "player":
            st.set_player(0, "tracks", tid, st.players[0].tracks[tid] + 1)
        else:
            st.set_track(tid, st.tracks[tid] + 1)
    key, cards = next((k, v) for k, v in st.zones.items() if len(v) > 2)
    card = cards[1]
    target = next(z for z, d in g.zone_decl.items() if d.get("scope") == "player")
    g.put(card, target, 1, 0)
    st.set_marker(card, "journal-test", True)
    st.set_on_card(card, "resources", "journal-test", 2)
    st.set_on_card(card, "pieces", 0, 1)
    st.move(cards[0], key, 1, st.cards[cards[0]].owner)  # within its zone
    st.place_card(cards[-1], st.cards[cards[-1]].zone, st.cards[cards[-1]].zone_owner, 1)
    g.shuffle(key[0], None if key[1] < 0 else key[1])
    g.random_number(1, 6)
    if st.spaces:
        space = next(iter(st.spaces))
        st.set_space(space, "tile", "journal-test")
        st.set_space(space, "claim", 1)
    st.count("history", ("journal-test", 0, "game", 0))
    st.count("tally", ("played", 0, "journal-test"))
    st.add_to("used", ("journal-test", 0, ("game", 0)))
    st.add_to("claimed", ("journal-test", 0))
    st.add_to("passed", 1)
    st.set_attr("passed", {0, 1})
    st.set_attr("round", st.round + 2)
    st.set_attr("phase", "journal-test")
    st.set_attr("turn_seat", 1)
    st.set_attr("turn_number", st.turn_number + 4)
    st.set_attr("turn_round", 2)
    st.set_attr("turn_order", list(reversed(st.turn_order)))
    st.set_attr("over", True)


def test_a_rollback_brings_back_every_kind_of_change(game):
    before = game.state.clone()
    mark = game.snapshot()
    change_everything(game)
    assert not same(game.state, before)
    game.restore(mark)
    assert same(game.state, before)
    assert game.state.rng.random() == before.rng.random()  # the random source too
    assert not game.state.marks and not game.state.journal


def test_marks_nest_and_what_is_kept_stays(game):
    st = game.state
    res = next(iter(game.resource_decl))
    start = st.clone()
    outer = game.snapshot()
    game.change_stock(0, res, 1, "gain")
    after_one = st.clone()
    inner = game.snapshot()
    change_everything(game)
    game.restore(inner)  # the inner rollback keeps what was done before it
    assert same(st, after_one)
    kept = game.snapshot()
    game.change_stock(1, res, 2, "gain")
    game.keep(kept)
    assert st.players[1].stock[res] == start.players[1].stock[res] + 2
    assert st.marks and st.journal  # still journaled for the outer mark
    game.restore(outer)  # and the outer one undoes everything
    assert same(st, start)


def test_nothing_is_journaled_without_a_mark_and_keeping_the_last_empties_it(game):
    st = game.state
    res = next(iter(game.resource_decl))
    game.change_stock(0, res, 1, "gain")
    assert st.journal == []
    mark = game.snapshot()
    game.change_stock(0, res, 1, "gain")
    assert st.journal
    game.keep(mark)
    assert st.journal == [] and st.marks == []


def test_a_mark_used_after_it_is_gone_is_an_error(game):
    outer = game.snapshot()
    inner = game.snapshot()
    game.restore(outer)
    with pytest.raises(RuntimeError):
        game.restore(inner)


def test_the_position_at_a_mark_while_the_state_moves_on(game):
    st = game.state
    before = st.clone()
    mark = game.snapshot()
    change_everything(game)
    now = st.clone()
    past = st.as_at(mark)
    assert same(past, before)
    assert same(st, now)  # the state itself is left as it is
    game.restore(mark)
    assert same(st, before) and same(past, before)  # nothing shared between them


def test_a_mark_costs_the_budget_what_a_copy_did(game):
    used = game.budget.used
    mark = game.snapshot()
    assert game.budget.used - used == len(game.state.cards) + len(game.state.spaces)
    game.restore(mark)


def test_a_card_moved_and_moved_back_lies_where_it_lay(game):
    st = game.state
    key, cards = next((k, v) for k, v in st.zones.items() if len(v) > 3)
    card = CardRef(cards[2])
    order = list(cards)
    mark = game.snapshot()
    target = next(z for z, d in game.zone_decl.items() if d.get("scope") == "player")
    game.put(card, target, 0, 0)
    game.put(card, key[0], None if key[1] < 0 else key[1], 1)  # back, but on top
    assert st.zones[key] != order
    game.restore(mark)
    assert st.zones[key] == order and st.cards[card].zone == key[0]


@pytest.mark.slow
@pytest.mark.parametrize("name,players", [("terraforming_mars", 2), ("legacy_gears_of_time", 3),
                                          ("timespan", 2), ("lantern_row", 2),
                                          ("timespan", 1)])
def test_games_with_every_rollback_checked(name, players):
    """Every rollback of whole games checked against a copy taken at its mark; the same
    final hash as the game played without the checks."""
    rs = load_ruleset(name)
    for seed in (1, 2, 3):
        checked = build_game(rs, players, seed, ["random"] * players)
        checked.check_journal = True
        a = run(checked, check=True)
        assert not checked.state.marks and not checked.state.journal
        b = run(build_game(rs, players, seed, ["random"] * players), check=False)
        assert a.final_hash == b.final_hash
