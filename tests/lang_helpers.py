"""Helpers to parse, check and compile snippets against a loaded ruleset."""

from __future__ import annotations

from rulebook_games.errors import Diagnostics
from rulebook_games.lang import types as T
from rulebook_games.lang.checker import Checker, Context
from rulebook_games.lang.compiler import Compiler
from rulebook_games.lang.parser import parse
from rulebook_games.span import TextOrigin


def check(ruleset, text: str, *, start="effect", variables=None, effects=True, choices=True,
          expected=None, returns=None):
    diags = Diagnostics()
    tree = parse(text, TextOrigin.at("snippet", 1, 1), start=start)
    ctx = Context("snippet", effects, choices,
                  dict(variables if variables is not None else {"you": T.PLAYER, "this": T.CARD}),
                  returns)
    checker = Checker(ruleset.table, diags)
    if start == "effect":
        checker.effect(tree, ctx)
    elif expected is not None:
        checker.expect(tree, expected, ctx)
    else:
        checker.expr(tree, ctx)
    return tree, diags


def compile_ok(ruleset, text: str, **kw):
    tree, diags = check(ruleset, text, **kw)
    assert not diags, [d.headline() for d in diags]
    comp = Compiler(ruleset.table, ruleset.code)
    if kw.get("start") == "expression":
        return comp.expression(tree)
    return comp.effect(tree)
