"""Compiled rules read the state's own layout (issue 28, step 3).

The issue asks that a card's fixed facts be read without a method call and two or
three dict lookups each, that a zone be read without copying it unless the rule
may move cards while going over it, that tracks be read as slots, and that all of
it leave what the rules compute, and what they are charged, as it was.
"""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.lang import pycheck
from rulebook_games.lang.compiler import Compiler
from rulebook_games.lang.runtime import RuleRuntimeError
from rulebook_games.play.session import build_game
from lang_helpers import check, compile_ok


@pytest.fixture(scope="module")
def legacy():
    return load_ruleset("legacy_gears_of_time")


@pytest.fixture(scope="module")
def tm():
    return load_ruleset("terraforming_mars")


def _game(rs, players=2):
    return build_game(rs, players, 1, ["random"] * players)


def _with_hand(rs, cards=4):
    game = _game(rs)
    game.draw(cards, "deck", "hand", 0)
    return game


def _source(rs, text):
    tree, diags = check(rs, text, start="expression")
    assert not diags, [d.headline() for d in diags]
    comp = Compiler(rs.table, dict(rs.code))
    comp.expression(tree)
    comp.ready_all()
    return "".join(chunk for unit in comp._units for chunk in unit.chunks)


def _steps(game, code, frame):
    before = game.budget.used
    value = code(frame)
    return value, game.budget.used - before


@pytest.mark.parametrize("name", ["legacy", "tm"])
def test_a_cards_facts_are_what_card_field_answers(name, request):
    rs = request.getfixturevalue(name)
    game = _game(rs)
    fields = [f for f in rs.table.card_fields if f != "owner"]
    for number in game.state.cards:
        for field in fields:
            want = game.card_field(number, field)
            got = game.card_facts[field][number]
            assert (list(got) if field == "tags" else got) == want, (number, field)


def test_a_card_field_in_a_rule_calls_no_method(legacy):
    game = _with_hand(legacy)
    hand = game.cards_in("hand", 0)
    want = sum(legacy.cards[game.state.cards[c].def_id].data.get("cost", 0) for c in hand)
    code = compile_ok(legacy, "sum(c in cards_in(hand) : c.cost)", start="expression")

    def no_call(card, name):
        raise AssertionError(f"card_field({card}, {name!r}) called")
    game.card_field = no_call
    assert code(game.frame(0)) == want


def test_a_cards_tags_are_a_copy_charged_a_step_each(tm):
    game = _game(tm)
    card = next(c for c, s in game.state.cards.items()
                if len(tm.cards[s.def_id].data.get("tags") or []) >= 2)
    code = compile_ok(tm, "size(this.tags)", start="expression")
    value, steps = _steps(game, code, game.frame(0, this=card))
    tags = tm.cards[game.state.cards[card].def_id].data["tags"]
    assert value == len(tags)
    # the run, the size and the field, and a step per tag handed out (as card_field
    # charged: the same count as before the table)
    assert steps == 2 + len(tags)
    assert game.card_facts["tags"][card] == tuple(tags)  # the table's own is untouched


def test_a_comprehension_over_a_zone_copies_nothing_and_is_charged_as_before(legacy):
    game = _with_hand(legacy)
    hand = game.cards_in("hand", 0)
    assert len(hand) >= 2
    copies = []
    real = game.cards_in
    game.cards_in = lambda zone, player: copies.append(zone) or real(zone, player)
    code = compile_ok(legacy, "count(c in cards_in(hand) where c.cost >= 0)",
                      start="expression")
    value, steps = _steps(game, code, game.frame(0))
    assert value == len(hand) and copies == []
    # a step for the run and one for the comprehension, a step per card read from the
    # zone, and two per card for the condition (the comparison and the field): as when
    # the zone was copied
    assert steps == 2 + len(hand) + 2 * len(hand)


def test_a_loop_that_moves_the_cards_goes_over_a_copy(legacy):
    game = _with_hand(legacy)
    hand = game.cards_in("hand", 0)
    assert len(hand) >= 2
    code = compile_ok(legacy, "for c in cards_in(hand):\n    put(c, discard)")
    code(game.frame(0))
    assert game.cards_in("hand", 0) == []  # every card went, none skipped
    assert all(c in game.cards_in("discard", 0) for c in hand)


def test_a_comprehension_that_tries_an_effect_goes_over_a_copy(tm):
    # can_run tries the block on the game and rolls it back; a zone may be put back as
    # another list meanwhile, so the comprehension must not go over the zone's own
    text = _source(tm, "count(c in cards_in(hand) where can_run(c, play))")
    assert "_items(" in text and "_seen(" not in text
    text = _source(tm, "count(c in cards_in(hand) where c.cost > 3)")
    assert "_seen(B" in text and "rt.zone_cards(" in text and "rt.cards_in(" not in text


def test_tracks_and_spaces_read_from_the_state_as_the_runtime_reads_them(tm):
    game = _game(tm)
    for track, decl in game.track_decl.items():
        scope = decl.get("scope", "global")
        if scope not in ("global", "player"):
            continue
        code = compile_ok(tm, track, start="expression")
        assert code(game.frame(1)) == game.track(track, 1 if scope == "player" else None)
    spaces = list(game.space_decl)
    game.state.spaces[spaces[3]]["tile"] = "city"
    game.state.spaces[spaces[3]]["owner"] = 1
    for field in ("type", "tile", "owner", "row", "column"):
        code = compile_ok(tm, f"map(s in spaces() : s.{field})", start="expression")
        assert code(game.frame(0)) == [game.space_field(s, field) for s in spaces], field


def test_a_player_track_with_no_one_acting_is_the_runtimes_error(tm):
    game = _game(tm)
    track = next(t for t, d in game.track_decl.items() if d.get("scope") == "player")
    code = compile_ok(tm, track, start="expression")
    with pytest.raises(RuleRuntimeError, match="per-player track"):
        code(game.frame(None))


def test_generated_code_reads_only_the_states_named_parts():
    ok = "def F1(rt, B, d, V):\n    return rt.state.tracks['t'] + rt.state.players[0].tracks['u']\n"
    pycheck.check(ok, "<t>")
    for bad in ("rt.state.cards", "rt.state.rng", "rt.state.players[0].stock",
                "rt.state.tracks.clear", "V.state.tracks", "rt.state.spaces.pop"):
        with pytest.raises(pycheck.Refused):
            pycheck.check(f"def F1(rt, B, d, V):\n    return {bad}\n", "<t>")
