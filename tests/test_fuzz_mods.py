"""Fuzzing mods: any mod is loaded or refused with positioned errors, never a crash.

A mod comes from a stranger's pull request, so ``validate`` must answer every
one with either success or rule errors (exit 1), never an internal error
(exit 3). Hypothesis builds mods of random small changes over the tiny test
ruleset: patches with values of random types, added and replaced entries,
constants, and effect text drawn from a small alphabet of the language's
tokens, including numbers far beyond the integer bound.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook_games import RulebookError, load_ruleset

TINY = Path(__file__).parent / "fixtures" / "tiny"

ENTRIES = {  # what the tiny ruleset declares, by the list a mod addresses
    "cards": ["coupon", "statue", "lamp"], "actions": ["earn", "build", "tower", "famous"],
    "phases": ["work"], "tracks": ["fame"], "resources": ["gold", "cube"],
    "zones": ["deck", "hand", "tableau", "row"], "scoring": ["gold", "fame"],
    "flow": ["setup", "rounds", "tie_breaks"], "procedures": ["none_such"],
}
KEYS = ["id", "name", "cost", "do", "if", "vp", "tags", "copies", "min", "max", "start",
        "rewards", "count", "until", "turns", "play", "requires", "once_per", "free",
        "triggers", "actions", "on", "points", "scope", "params", "returns", "value"]
TOKENS = ["gain", "lose", "pay", "raise", "place", "put", "draw", "let", "set", "repeat",
          "for", "in", "if", "else", "as", "emit", "return", "pass", "gold", "cubes", "fame",
          "tower", "deck", "hand", "row", "you", "this", "players()", "range(1, 9)",
          "count(x in players())", "stock(gold)", "x", "p", "1", "0", "-3", "10000",
          "1000000000000000000", "99999999999999999999", "9" * 40, "(", ")", "[", "]",
          ",", ":", "*", "+", "-", "//", "==", ">", "and", "not", "\n", "\n  ", "\n    "]

effect_text = st.lists(st.sampled_from(TOKENS), max_size=25).map(" ".join)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-2, 2).map(lambda n: n * 10 ** 30),
                    st.text(max_size=12), effect_text)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)),
    max_leaves=8)


@st.composite
def changes(draw):
    section = draw(st.sampled_from(sorted(ENTRIES)))
    ident = draw(st.sampled_from(ENTRIES[section]))
    op = draw(st.sampled_from(["patch", "replace", "add", "remove", "set_constant", "bogus"]))
    change = {"op": op, "in": section, "id": ident}
    if op == "patch":
        change["value"] = draw(st.dictionaries(st.sampled_from(KEYS), values, max_size=3))
    elif op in ("replace", "add"):
        value = draw(st.one_of(effect_text, values,
                               st.dictionaries(st.sampled_from(KEYS), values, max_size=5)))
        if op == "add" and isinstance(value, dict) and draw(st.booleans()):
            value["id"] = draw(st.sampled_from(["new_one", ident]))
        change["value"] = value
        if op == "add":
            change.pop("id")
    elif op == "set_constant":
        change = {"op": op, "id": draw(st.sampled_from(["limit", ident])), "value": draw(values)}
    if draw(st.integers(0, 9)) == 0:  # now and then a key no change has
        change[draw(st.sampled_from(KEYS))] = draw(values)
    return change


mods = st.fixed_dictionaries({"kind": st.just("mod"), "id": st.just("fuzzed"),
                              "target": st.sampled_from(["tiny", "tiny", "mini", "nowhere"]),
                              "changes": st.lists(changes(), min_size=1, max_size=4)})


@settings(max_examples=100)
@given(mods)
def test_any_mod_is_loaded_or_refused_with_positioned_errors(mod):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.yaml"
        path.write_text(yaml.safe_dump(mod, sort_keys=False, allow_unicode=True),
                        encoding="utf-8")
        try:
            load_ruleset(TINY, [str(path)])
        except RulebookError as exc:
            assert exc.diagnostics
            for d in exc.diagnostics:
                assert d.code.startswith("RB") and d.span is not None, d.headline()


@pytest.mark.slow
@settings(max_examples=100)
@given(effect_text)
def test_any_effect_text_as_the_setup_is_loaded_or_refused(text):
    mod = {"kind": "mod", "id": "fuzzed", "target": "tiny",
           "changes": [{"op": "replace", "in": "flow", "id": "setup", "value": text}]}
    test_any_mod_is_loaded_or_refused_with_positioned_errors.hypothesis.inner_test(mod)
