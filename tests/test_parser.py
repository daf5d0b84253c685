"""Stage 3: effect text parses into an AST with file positions, or a positioned error."""

from __future__ import annotations

import pytest

from rulebook_games.lang import ast
from rulebook_games.lang.parser import EffectSyntaxError, parse
from rulebook_games.span import TextOrigin

ORIGIN = TextOrigin.at("f.yaml", 10, 5)


def stmts(text):
    return parse(text, ORIGIN).body


def test_card_text_statements():
    body = stmts("raise temperature\nplace ocean\nremove up to 3 plants from any player\n")
    assert [type(s).__name__ for s in body] == ["Raise", "Place", "Transfer"]
    remove = body[2]
    assert remove.verb == "remove" and remove.up_to and remove.resource == "plants"
    assert isinstance(remove.source, ast.AnyOf) and remove.source.noun == "player"


def test_gain_production_for_player():
    (g,) = stmts("lose 2 energy production for p")
    assert (g.verb, g.resource, g.production) == ("lose", "energy", True)
    assert isinstance(g.player, ast.Name) and g.player.id == "p"


def test_semicolons_and_blocks():
    body = stmts("gain 1 a; gain 2 b\nif x > 1:\n  gain 3 c\nelif y:\n  pass\nelse:\n  gain 4 d\n")
    assert len(body) == 3
    cond = body[2]
    assert isinstance(cond, ast.If) and len(cond.branches) == 2 and cond.orelse


def test_choose_one_options():
    (c,) = stmts("choose one:\n  - gain 3 plants\n  - add 3 microbes to this; gain 1 mc\n")
    assert isinstance(c, ast.Choose) and [len(o) for o in c.options] == [1, 2]


def test_place_forms():
    a, b, c, d = stmts("place city\nplace city on noctis\nplace city where space.tile == none\n"
                       "place marker anywhere where true as s\n")
    assert [x.mode for x in (a, b, c, d)] == ["rules", "on", "where", "anywhere"]
    assert d.bind == "s"


def test_expression_precedence():
    e = parse("1 + 2 * 3 >= 7 and not false", ORIGIN, start="expression")
    assert isinstance(e, ast.Binary) and e.op == "and"
    assert e.left.op == ">=" and e.left.left.op == "+"


def test_comprehension_and_conditional():
    e = parse("3 if count(c in cards where c.cost > 2) >= 1 else 0", ORIGIN, start="expression")
    assert isinstance(e, ast.Conditional)
    comp = e.cond.left
    assert isinstance(comp, ast.Comprehension) and comp.func == "count" and comp.var == "c"


def test_spans_point_into_the_file():
    (r, p) = stmts("raise temperature\nplace ocean\n")
    assert (r.span.line, r.span.col) == (10, 5)
    assert (r.track_span.line, r.track_span.col) == (10, 11)
    # lines after the first start at column 1 of the following file lines
    assert (p.tile_span.line, p.tile_span.col) == (11, 7)


@pytest.mark.parametrize("text, line, col", [
    ("gain 3", 10, 11),
    ("gain plants 3", 10, 17),
    ("raise temperature by", 10, 25),
    ("gain 1 @", 10, 12),
    ("if x\n  gain 1 y", 10, 9),
])
def test_syntax_errors_are_positioned(text, line, col):
    with pytest.raises(EffectSyntaxError) as info:
        parse(text, ORIGIN)
    d = info.value.diagnostic
    assert d.code == "RB300"
    assert (d.span.line, d.span.col) == (line, col)


def test_unexpected_token_lists_what_was_expected():
    with pytest.raises(EffectSyntaxError) as info:
        parse("gain plants 3", ORIGIN)
    assert "unexpected '3'" in info.value.diagnostic.message


def test_tabs_and_huge_text_are_refused():
    with pytest.raises(EffectSyntaxError):
        parse("if x:\n\tgain 1 y", ORIGIN)
    with pytest.raises(EffectSyntaxError):
        parse("gain 1 x\n" * 5000, ORIGIN)


def test_deep_nesting_is_an_error_not_a_crash():
    with pytest.raises(EffectSyntaxError):
        parse("[" * 500 + "1" + "]" * 500, ORIGIN, start="expression")


def test_redundant_parentheses_are_fine():
    e = parse("(" * 300 + "1" + ")" * 300, ORIGIN, start="expression")
    assert isinstance(e, ast.Literal) and e.value == 1


def test_a_misspelt_verb_is_named_at_its_place_with_the_verb_meant():
    for text, word, meant, col in [("gian 2 gold", "gian", "gain", 5),
                                   ("gain 1 gold; lsoe 2 gold", "lsoe", "lose", 18),
                                   ("if x > 1: raize temperature", "raize", "raise", 15)]:
        with pytest.raises(EffectSyntaxError) as info:
            parse(text, ORIGIN)
        d = info.value.diagnostic
        assert d.code == "RB300"
        assert f"'{word}' is not a verb" in d.message
        assert (d.span.line, d.span.col) == (10, col)
        assert f"'{meant}'" in d.hint


def test_a_word_far_from_every_verb_gets_the_general_hint_and_brackets_are_not_statements():
    with pytest.raises(EffectSyntaxError) as info:
        parse("frobnicate now", ORIGIN)
    assert "a statement starts with a verb" in info.value.diagnostic.hint
    # after a ':' inside brackets the word is part of an expression, not a statement
    with pytest.raises(EffectSyntaxError) as info:
        parse("let y = sum(c in xs : foo 3)", ORIGIN)
    assert "is not a verb" not in info.value.diagnostic.message
