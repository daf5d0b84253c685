"""Names that could make one rule stand for another: each id is one id, each parameter its own.

Rule ids become Python names in generated code, and declared parameters become
the variables of a body. Two holes let a rule silently change another:

- an id ending in a line break passed the schema (Python's ``$`` matches
  before a final line break) and was then spelled in hex, the same Python
  name as a plain procedure called ``x666f6f0a``: one body replaced the other;
- a parameter named ``you`` (or another name the language binds itself) was
  accepted, and writing the function out where it is called then replaced it
  with the caller's ``you``.

Now every id pattern is matched whole, the mapping from rule names to Python
names is one-to-one, and such parameters are refused at their position.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook_games import RulebookError, load_ruleset
from rulebook_games.load import schema
from rulebook_games.lang import ast, pycheck
from rulebook_games.lang import types as T
from rulebook_games.lang.codegen import CodeGen, Scope, Source, pyname
from rulebook_games.lang.symbols import Callable_
from rulebook_games.span import Span

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny"


def game_with(tmp_path: Path, flow: str) -> Path:
    rules = tmp_path / "rules"
    shutil.copytree(TINY, rules)
    (rules / "extra.yaml").write_text("kind: flow\n" + flow, encoding="utf-8")
    manifest = rules / "ruleset.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "cards.yaml]", "cards.yaml, extra.yaml]"), encoding="utf-8")
    return rules


def errors(rules: Path) -> list:
    with pytest.raises(RulebookError) as info:
        load_ruleset(rules)
    return list(info.value.diagnostics)


# ------------------------------------------------------------------ ids matched whole
def test_an_id_ending_in_a_line_break_is_not_an_id(tmp_path):
    rules = game_with(tmp_path, 'procedures:\n  - id: x666f6f0a\n    do: gain 1 gold\n'
                                '  - id: "foo\\n"\n    do: lose 1 gold\n')
    (err,) = errors(rules)
    assert err.code == "RB204" and "not a valid id" in err.message
    assert (err.span.file.endswith("extra.yaml"), err.span.line, err.span.col) == (True, 5, 9)


@pytest.mark.parametrize("pattern,good,bad", [
    ("^[a-z][a-z0-9_]*$", ["a", "foo_2"], ["foo\n", "Foo", "foo\n\n", "\nfoo", "fo o"]),
    ("^[1-9][0-9]*$", ["1", "12"], ["1\n", "0", "1٣", "²"]),
])
def test_every_schema_pattern_is_matched_as_json_schema_means_it(pattern, good, bad):
    for text in good:
        assert schema.whole(pattern).search(text), text
    for text in bad:
        assert not schema.whole(pattern).search(text), text


def test_the_shipped_schemas_use_only_patterns_read_whole():
    import json
    for path in sorted((ROOT / "schemas").glob("*.schema.json")):
        for pattern in _patterns(json.loads(path.read_text(encoding="utf-8"))):
            assert pattern.startswith("^") and pattern.endswith("$"), (path.name, pattern)
            assert r"\Z" in schema.whole(pattern).pattern


def _patterns(value):
    if isinstance(value, dict):
        for key, v in value.items():
            if key == "pattern":
                yield v
            else:
                yield from _patterns(v)
    elif isinstance(value, list):
        for v in value:
            yield from _patterns(v)


# ------------------------------------------------------------------ Python names
@settings(max_examples=500, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12), min_size=2, max_size=2, unique=True),
       st.sampled_from(["procedure", "function"]))
def test_rule_names_map_to_python_names_one_to_one(names, kind):
    a, b = (pyname(kind, n) for n in names)
    assert a != b
    for made in (a, b):
        assert made.isidentifier() and made.isascii()
        pycheck.check(f"{made} = F1\n", "<test>")


@pytest.mark.parametrize("name", ["foo\n", "x666f6f0a", "FOO", "foo bar", "ﬁ", "x_66",
                                  "n_foo", "if", "None"])
def test_hostile_names_never_meet_another_names_python(name):
    others = ["foo", "x666f6f0a", "x_66", "n_foo", "foo\n", "fi", "if_", "none"]
    assert sum(pyname("function", o) == pyname("function", name) for o in others) \
        == (name in others)


def test_a_procedure_named_like_the_hex_of_another_keeps_its_own_body(tmp_path):
    # both ids valid: the plain id must not take the place of anything else
    rules = game_with(tmp_path, 'procedures:\n  - id: x666f6f0a\n    do: gain 1 gold\n'
                                '  - id: foo\n    do: lose 1 gold\n')
    rs = load_ruleset(rules)
    assert pyname("procedure", "x666f6f0a") != pyname("procedure", "foo")
    assert rs.asts[("procedure", "x666f6f0a")].body[0].verb == "gain"
    assert rs.asts[("procedure", "foo")].body[0].verb == "lose"


# ------------------------------------------------------------------ parameters
@pytest.mark.parametrize("name", ["you", "this", "event", "space"])
@pytest.mark.parametrize("section", ["functions", "procedures"])
def test_a_parameter_may_not_take_a_name_the_language_binds(tmp_path, name, section):
    body = "value: 1\n    returns: int" if section == "functions" else "do: pass"
    rules = game_with(tmp_path, f"{section}:\n  - id: f\n    params: {{{name}: player}}\n"
                                f"    {body}\n")
    (err,) = errors(rules)
    assert err.code == "RB305" and f"'{name}' is reserved" in err.message
    assert (err.span.line, err.span.col) == (4, 14)  # at the parameter's name


def test_writing_a_function_out_keeps_its_parameters_bound_to_the_arguments(mini):
    # a declaration that could only come from outside the checker: a parameter 'you'
    sp = Span("f", 1, 1, 1, 2)
    table = type(mini.table)(**vars(mini.table))
    table.callables = dict(table.callables)
    decl = table.callables["pick"] = Callable_("pick", "function", [("you", T.PLAYER, None)],
                                               T.PLAYER)
    body = ast.Name(sp, "you")
    body.binding, body.type = "local", T.PLAYER
    arg = ast.Name(sp, "other")
    arg.binding, arg.type = "local", T.PLAYER
    call = ast.Call(sp, "pick", [arg], {})
    call.target, call.type = decl, T.PLAYER
    gen = CodeGen(table, Source(), {("function", "pick"): body})
    gen.buf, gen.deferred, gen.indent, gen.blocks, gen.edepth = [], [], 1, 0, 0
    code = gen.expr(call, Scope())
    assert code == "(V['other'])"


@pytest.mark.parametrize("section,name", [("functions", "stock"), ("procedures", "shuffle"),
                                          ("functions", "count")])
def test_a_procedure_or_function_may_not_take_a_builtins_name(tmp_path, section, name):
    # calls name a declared procedure before a builtin: 'stock' declared by a mod once made
    # every stock(…) of the ruleset answer what the mod said, with no word from validate
    body = "value: 100\n    returns: int" if section == "functions" else "do: pass"
    rules = game_with(tmp_path, f"{section}:\n  - id: {name}\n    {body}\n")
    (err,) = errors(rules)
    assert err.code == "RB400" and f"'{name}' is a builtin" in err.message
    assert (err.span.line, err.span.col) == (3, 9)  # at the id


def test_a_mod_may_not_put_a_function_in_a_builtins_place(tmp_path):
    mod = tmp_path / "mod.yaml"
    mod.write_text("kind: mod\nid: evil\ntarget: tiny\nchanges:\n  - op: add\n"
                   "    in: functions\n    value: {id: stock, params: {r: resource}, "
                   "returns: number, value: 100}\n", encoding="utf-8")
    with pytest.raises(RulebookError) as info:
        load_ruleset(TINY, [str(mod)])
    (err,) = list(info.value.diagnostics)
    assert err.code == "RB400" and "'stock' is a builtin" in err.message
    assert err.span.file.endswith("mod.yaml")
