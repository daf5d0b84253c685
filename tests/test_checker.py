"""Stage 4: names resolve and types fit, or the checker says where and why."""

from __future__ import annotations

import pytest

from rulebook_games.lang import types as T
from lang_helpers import check


def codes(diags):
    return [d.code for d in diags]


def test_card_text_checks_clean(mini):
    _, diags = check(mini, "raise temperature\nplace ocean\nremove up to 3 plants from any player\n")
    assert codes(diags) == []


def test_plural_and_singular_resolve_to_the_same_resource(mini):
    tree, diags = check(mini, "gain 1 plant\ngain 2 plants")
    assert codes(diags) == []
    assert [s.resource_id for s in tree.body] == ["plant", "plant"]


def test_unknown_name_suggests_the_closest(mini):
    _, diags = check(mini, "gain 3 plnats")
    assert codes(diags) == ["RB301"]
    assert "plants" in diags[0].hint


def test_unknown_function_suggests_builtin(mini):
    _, diags = check(mini, "stok(heat) > 1", start="expression")
    assert codes(diags) == ["RB301"] and "stock" in diags[0].hint


def test_same_word_as_tag_and_resource_picks_by_place(mini):
    _, diags = check(mini, "has_tag(this, plant) and stock(plant) > 0", start="expression")
    assert codes(diags) == []


def test_ambiguous_word_without_context_is_reported(mini):
    _, diags = check(mini, "let x = plant")
    assert codes(diags) == ["RB302"] and "both" in diags[0].message


def test_resource_vs_card_resource(mini):
    _, diags = check(mini, "add 1 heat to this")
    assert codes(diags) == ["RB302"]
    assert "card resource" in diags[0].message


def test_argument_types_and_arity(mini):
    _, diags = check(mini, "stock(this) > 1", start="expression")
    assert codes(diags) == ["RB302"]
    _, diags = check(mini, "stock() > 1", start="expression")
    assert codes(diags) == ["RB303"]
    _, diags = check(mini, "stock(heat, you, 3) > 1", start="expression")
    assert codes(diags) == ["RB303"]
    _, diags = check(mini, "stock(heat, playr=you) > 1", start="expression")
    assert codes(diags) == ["RB303"] and "player" in diags[0].hint


def test_requirement_must_be_a_condition(mini):
    _, diags = check(mini, "stock(heat)", start="expression", expected=T.BOOL)
    assert codes(diags) == ["RB302"]


def test_effects_and_choices_are_refused_where_only_values_belong(mini):
    _, diags = check(mini, "gain 1 heat", effects=False, choices=False)
    assert codes(diags) == ["RB304"]
    _, diags = check(mini, "choose_number(1, 3)", start="expression", effects=False,
                     choices=False)
    assert codes(diags) == ["RB304"]
    _, diags = check(mini, "may:\n  gain 1 heat", choices=False)
    assert "RB304" in codes(diags)


def test_no_acting_player_in_global_flow(mini):
    _, diags = check(mini, "gain 1 heat", variables={})
    assert codes(diags) == ["RB304"]
    _, diags = check(mini, "for p in players():\n  gain 1 heat for p", variables={})
    assert codes(diags) == []


def test_fields_are_checked(mini):
    _, diags = check(mini, "this.cost + this.cots", start="expression")
    assert codes(diags) == ["RB301"] and "cost" in diags[0].hint
    _, diags = check(mini, "count(s in spaces() where s.tile == ocean)", start="expression")
    assert codes(diags) == []


def test_comprehension_binds_and_types(mini):
    _, diags = check(mini, "sum(p in players() : stock(heat, p))", start="expression")
    assert codes(diags) == []
    _, diags = check(mini, "sum(p in players())", start="expression")
    assert codes(diags) == ["RB303"]
    _, diags = check(mini, "cnt(p in players())", start="expression")
    assert codes(diags) == ["RB301"] and "count" in diags[0].hint


def test_variables_scope_and_reserved_names(mini):
    _, diags = check(mini, "let x = 3\ngain x heat")
    assert codes(diags) == []
    _, diags = check(mini, "let this = 3")
    assert codes(diags) == ["RB305"]
    _, diags = check(mini, "if true:\n  let y = 1\ngain y heat")
    assert codes(diags) == ["RB301"]


def test_return_only_in_functions(mini):
    _, diags = check(mini, "return 3")
    assert codes(diags) == ["RB304"]
    _, diags = check(mini, "return 3", effects=False, choices=False, returns=T.INT)
    assert codes(diags) == []
    _, diags = check(mini, "return true", effects=False, choices=False, returns=T.INT)
    assert codes(diags) == ["RB302"]


def test_events_are_checked_against_their_declaration(mini):
    _, diags = check(mini, "emit card_played(you, this)")
    assert codes(diags) == []
    _, diags = check(mini, "emit card_played(this, you)")
    assert codes(diags) == ["RB302", "RB302"]
    _, diags = check(mini, "emit card_playd(you, this)")
    assert codes(diags) == ["RB301"] and "card_played" in diags[0].hint


def test_every_error_names_its_place(mini):
    _, diags = check(mini, "gain 1 heat\nraise tempreature")
    (d,) = diags
    assert (d.span.line, d.span.col) == (2, 7)
    assert "temperature" in d.hint


@pytest.mark.parametrize("text", [
    "gain x plants", "lose 1 heat production for 3", "place cty", "raise oxygen",
    "add 1 microbe to you", "move 1 microbe from this to you", "steal 2 heat from this",
])
def test_statement_argument_errors(mini, text):
    _, diags = check(mini, text)
    assert diags and all(d.code in ("RB301", "RB302") for d in diags)


# issue 24, item 9: an amount written out below zero turns the statement around
@pytest.mark.parametrize("text, verb, value, col", [
    ("lose -2 plants", "lose", -2, 6),
    ("pay -1 mc", "pay", -1, 5),
    ("gain -3 heat", "gain", -3, 6),
    ("gain 2 - 5 heat production", "gain", -3, 6),
    ("lose -1 mc production", "lose", -1, 6),
    ("add -1 microbe to this", "add", -1, 5),
    ("remove up to -4 plants from any player", "remove", -4, 14),
    ("steal -(2 * 3) plants from any opponent", "steal", -6, 7),
    ("raise temperature by -2", "raise", -2, 22),
])
def test_a_negative_amount_written_out_is_refused_at_the_amount(mini, text, verb, value, col):
    _, diags = check(mini, text)
    assert codes(diags) == ["RB307"], diags
    assert diags[0].message == f"'{verb}' needs an amount of 0 or more, but this is {value}"
    assert diags[0].span.col == col


def test_a_negative_amount_says_how_to_go_the_other_way(mini):
    _, diags = check(mini, "lose -2 plants\ngain -1 heat production\nlower temperature by -1")
    assert [d.hint for d in diags] == ["write 'gain 2 plants' instead",
                                       "write 'lose 1 heat production' instead",
                                       "write 'raise temperature by 1' instead"]


def test_amounts_worked_out_while_the_game_runs_are_left_to_the_game(mini):
    _, diags = check(mini, "let n = stock(heat) - 5\npay n mc\ngain 0 heat\nlose 0 - 0 mc")
    assert codes(diags) == []
