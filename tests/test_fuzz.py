"""Fuzzing: any input ends in success or a positioned error, never an uncaught exception."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook_games import RulebookError, load_ruleset
from rulebook_games.errors import Diagnostics
from rulebook_games.lang.parser import EffectSyntaxError, parse
from rulebook_games.span import TextOrigin
from rulebook_games.load.yamlload import parse_yaml
from lang_helpers import check

MINI = Path(__file__).parent / "fixtures" / "mini"
ORIGIN = TextOrigin.at("fuzz.yaml", 3, 7)

TOKENS = ["gain", "lose", "pay", "raise", "lower", "place", "add", "remove", "move", "steal",
          "let", "set", "return", "require", "emit", "run", "pass", "if", "elif", "else",
          "for", "in", "repeat", "may", "choose", "one", "up", "to", "from", "on", "where",
          "anywhere", "by", "as", "of", "production", "and", "or", "not", "has", "lacks",
          "true", "false", "none", "any", "player", "this", "you", "event", "space", "plants",
          "heat", "mc", "microbe", "temperature", "ocean", "x", "p", "c", "players", "stock",
          "count", "sum", "leaders", "choose", "1", "3", "-2", "0", '"text"', "(", ")", "[",
          "]", ",", ":", ";", ".", "+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=",
          "=", "\n", "\n  ", "\n    ", "#c\n", " - "]

token_text = st.lists(st.sampled_from(TOKENS), max_size=40).map(" ".join)
any_text = st.text(max_size=200)


def assert_positioned(diags):
    for d in diags:
        assert d.span is not None and d.span.line >= 1 and d.span.col >= 1, d.headline()
        assert d.code.startswith("RB")


@settings(max_examples=400)
@given(st.one_of(token_text, any_text))
def test_parser_never_crashes(text):
    for start in ("effect", "expression"):
        try:
            parse(text, ORIGIN, start=start)
        except EffectSyntaxError as exc:
            assert_positioned([exc.diagnostic])


@settings(max_examples=400)
@given(token_text)
def test_checker_never_crashes_on_parsed_input(mini, text):
    for start in ("effect", "expression"):
        try:
            _, diags = check(mini, text, start=start)
        except EffectSyntaxError:
            continue
        assert_positioned(diags)


@settings(max_examples=300)
@given(st.one_of(any_text, st.text(alphabet=":-[]{}&*!|>'\"#%@`,? \n\tab1", max_size=200)))
def test_yaml_text_never_crashes(text):
    diags = Diagnostics()
    doc = parse_yaml(text, "fuzz.yaml", diags)
    if doc is None:
        assert diags
    assert_positioned(diags)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 100) | st.text(max_size=20) | token_text,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["id", "name", "cost", "tags", "play", "requires", "vp",
                                       "type", "actions", "do", "if", "triggers", "on", "scope",
                                       "blocks", "fields", "copies", "junk"]),
                      children, max_size=6),
    max_leaves=25)

card = st.fixed_dictionaries(
    {"id": st.sampled_from(["a", "b", "comet", "Bad Id"]), "name": st.text(max_size=10)},
    optional={"cost": st.integers(-5, 50) | st.text(max_size=3), "tags": json_values,
              "play": token_text, "requires": token_text, "vp": token_text,
              "triggers": json_values, "actions": json_values, "junk": json_values})


@pytest.mark.slow
@settings(max_examples=150)
@given(st.one_of(st.lists(card, max_size=4).map(lambda cs: {"kind": "cards", "cards": cs}),
                 json_values.map(lambda v: {"kind": "cards", "cards": v}), json_values))
def test_whole_pipeline_never_crashes(document):
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "rs"
        shutil.copytree(MINI, work)
        (work / "cards.yaml").write_text(yaml.safe_dump(document, allow_unicode=True),
                                         encoding="utf-8")
        try:
            load_ruleset(work)
        except RulebookError as exc:
            assert exc.diagnostics
            assert_positioned(exc.diagnostics)
