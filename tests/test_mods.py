"""Mods and house rules: overlays on a ruleset, with errors pointing into the mod."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rulebook_games import RulebookError, load_ruleset

BASE = Path(__file__).parent / "fixtures" / "mini"


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def errors(tmp_path, mods):
    with pytest.raises(RulebookError) as info:
        load_ruleset(BASE, mods)
    return [(os.path.basename(d.span.file), d.span.line, d.span.col, d.code)
            for d in info.value.diagnostics]


MOD_HEAD = "kind: mod\nid: house\ntarget: mini\nchanges:\n"


def test_add_card(tmp_path):
    mod = write(tmp_path, "mod.yaml", MOD_HEAD + """\
  - op: add
    in: cards
    value:
      id: heat_wave
      name: Heat Wave
      cost: 3
      play: gain 2 heat
""")
    rs = load_ruleset(BASE, [mod])
    assert "heat_wave" in rs.cards
    assert ("card", "heat_wave", "play") in rs.code
    assert [Path(m).resolve() for m in rs.mods] == [Path(mod).resolve()]


def test_patch_changes_only_named_keys(tmp_path):
    mod = write(tmp_path, "mod.yaml", MOD_HEAD + """\
  - op: patch
    in: cards
    id: comet
    value: {cost: 18}
""")
    rs = load_ruleset(BASE, [mod])
    comet = rs.cards["comet"].data
    assert comet["cost"] == 18 and comet["name"] == "Comet" and "play" in comet


def test_replace_and_remove(tmp_path):
    mod = write(tmp_path, "mod.yaml", MOD_HEAD + """\
  - op: replace
    in: cards
    id: comet
    value: {id: comet, name: Small Comet, cost: 10, play: raise temperature}
  - op: remove
    in: cards
    id: decomposers
""")
    rs = load_ruleset(BASE, [mod])
    assert set(rs.cards) == {"comet"} and rs.cards["comet"].data["cost"] == 10


def test_content_hash_changes_with_mods(tmp_path):
    mod = write(tmp_path, "mod.yaml", MOD_HEAD + "  - {op: patch, in: cards, id: comet, "
                "value: {cost: 18}}\n")
    assert load_ruleset(BASE).content_hash != load_ruleset(BASE, [mod]).content_hash
    assert load_ruleset(BASE).content_hash == load_ruleset(BASE).content_hash


def test_effect_error_in_mod_points_into_the_mod(tmp_path):
    mod = write(tmp_path, "mod.yaml", MOD_HEAD + """\
  - op: patch
    in: cards
    id: comet
    value:
      play: |
        raise temperature
        gain 2 plnts
""")
    assert errors(tmp_path, [mod]) == [("mod.yaml", 11, 16, "RB301")]


def test_schema_error_in_mod_value_points_into_the_mod(tmp_path):
    mod = write(tmp_path, "mod.yaml", MOD_HEAD + """\
  - op: add
    in: cards
    value: {id: x, name: X, cots: 3}
""")
    assert errors(tmp_path, [mod]) == [("mod.yaml", 7, 29, "RB201")]


def test_unknown_target_entry(tmp_path):
    mod = write(tmp_path, "mod.yaml", MOD_HEAD + "  - {op: remove, in: cards, id: commet}\n")
    assert errors(tmp_path, [mod]) == [("mod.yaml", 5, 33, "RB500")]


def test_add_existing_is_refused(tmp_path):
    mod = write(tmp_path, "mod.yaml", MOD_HEAD + "  - {op: add, in: cards, value: "
                "{id: comet, name: Comet}}\n")
    assert errors(tmp_path, [mod])[0][3] == "RB502"


def test_wrong_target_ruleset(tmp_path):
    mod = write(tmp_path, "mod.yaml", "kind: mod\nid: x\ntarget: chess\nchanges: []\n")
    assert errors(tmp_path, [mod]) == [("mod.yaml", 3, 9, "RB502")]


def test_conflicting_mods_are_reported(tmp_path):
    a = write(tmp_path, "a.yaml", MOD_HEAD + "  - {op: patch, in: cards, id: comet, "
              "value: {cost: 18}}\n")
    b = write(tmp_path, "b.yaml", MOD_HEAD + "  - {op: patch, in: cards, id: comet, "
              "value: {cost: 25}}\n")
    (err,) = errors(tmp_path, [a, b])
    assert err[:1] == ("b.yaml",) and err[3] == "RB501"


def test_compatible_mods_combine(tmp_path):
    a = write(tmp_path, "a.yaml", MOD_HEAD + "  - {op: patch, in: cards, id: comet, "
              "value: {cost: 18}}\n")
    b = write(tmp_path, "b.yaml", MOD_HEAD + "  - {op: patch, in: cards, id: comet, "
              "value: {tags: [space]}}\n")
    comet = load_ruleset(BASE, [a, b]).cards["comet"].data
    assert comet["cost"] == 18 and comet["tags"] == ["space"]


def test_remove_against_patch_conflicts(tmp_path):
    a = write(tmp_path, "a.yaml", MOD_HEAD + "  - {op: remove, in: cards, id: comet}\n")
    b = write(tmp_path, "b.yaml", MOD_HEAD + "  - {op: patch, in: cards, id: comet, "
              "value: {cost: 25}}\n")
    assert [e[3] for e in errors(tmp_path, [a, b])] == ["RB501"]


def test_set_constant(tmp_path):
    work = tmp_path / "rs"
    shutil.copytree(BASE, work)
    with open(work / "components.yaml", "a", encoding="utf-8") as fh:
        fh.write("constants:\n  hand_limit: 10\n")
    mod = write(tmp_path, "mod.yaml", MOD_HEAD + "  - {op: set_constant, id: hand_limit, "
                "value: 12}\n")
    assert load_ruleset(work, [mod]).constants["hand_limit"] == 12
    bad = write(tmp_path, "bad.yaml", MOD_HEAD + "  - {op: set_constant, id: hand_limt, "
                "value: 12}\n")
    with pytest.raises(RulebookError) as info:
        load_ruleset(work, [bad])
    assert info.value.diagnostics[0].code == "RB500"
    assert "hand_limit" in info.value.diagnostics[0].hint


def test_a_mod_is_not_a_ruleset_file(tmp_path):
    mod = write(tmp_path, "mod.yaml", "kind: cards\ncards: []\n")
    assert [e[3] for e in errors(tmp_path, [mod])] == ["RB204"]


def test_a_mod_changes_the_flows_single_parts(tmp_path):
    mod = write(tmp_path, "mod.yaml", MOD_HEAD + """\
  - {op: patch, in: flow, id: rounds, value: {count: 5, name: Season}}
  - {op: add, in: flow, id: evaluation, value: "2 * stock(mc)"}
""")
    rs = load_ruleset(BASE, [mod])
    assert rs.singles["rounds"].data == {"count": 5, "name": "Season"}
    assert ("flow", "evaluation") in rs.code
    # errors in a flow part point into the mod, with did-you-mean for a wrong part
    bad = write(tmp_path, "bad.yaml", MOD_HEAD + """\
  - {op: patch, in: flow, id: round, value: {count: 5}}
  - {op: patch, in: flow, id: rounds, value: {count: zero}}
  - {op: add, in: flow, id: rounds, value: {count: 2}}
  - {op: replace, in: flow, id: end, value: {winner: lowest}}
  - {op: add, in: flow, id: evaluation, value: "stock(mcc)"}
""")
    assert errors(tmp_path, [bad]) == [
        ("bad.yaml", 5, 31, "RB500"), ("bad.yaml", 6, 54, "RB203"),
        ("bad.yaml", 7, 29, "RB502"), ("bad.yaml", 8, 33, "RB500"),
        ("bad.yaml", 9, 55, "RB301")]


@pytest.mark.parametrize("given, said", [
    ('"twelve"', "constant 'hand_limit' is a whole number (10); the mod gives the text twelve"),
    ("true", "constant 'hand_limit' is a whole number (10); the mod gives yes/no (true)"),
    ("1.5", "constant 'hand_limit' is a whole number (10); the mod gives a number with a "
            "fraction (1.5)"),
])
def test_a_constant_set_to_another_kind_of_value_says_both_kinds_in_words(tmp_path, given, said):
    work = tmp_path / "rs"
    shutil.copytree(BASE, work)
    with open(work / "components.yaml", "a", encoding="utf-8") as fh:
        fh.write("constants:\n  hand_limit: 10\n")
    mod = write(tmp_path, "mod.yaml", MOD_HEAD + "  - {op: set_constant, id: hand_limit, "
                f"value: {given}}}\n")
    with pytest.raises(RulebookError) as info:
        load_ruleset(work, [mod])
    (d,) = info.value.diagnostics
    assert d.code == "RB502" and d.message == said
