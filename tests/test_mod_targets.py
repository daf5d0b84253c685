"""`rulebook validate MOD`: which ruleset a mod file is checked against, and errors about it.

A mod's ``target:`` is a ruleset id. It may name the ruleset the mod file
lies in, a ruleset given as a PATH in the same command, a ruleset of the
current folder, or a shipped ruleset; anything else is an error that points
at the ``target:`` line, with the closest name as a hint. A target is never
taken as a path.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_games.cli import main

MINI = Path(__file__).parent / "fixtures" / "mini"
# removes a card that does not exist: an error only a check against 'mini' can find
MOD = "kind: mod\nid: m\ntarget: {target}\nchanges:\n  - {{op: remove, in: cards, id: comit}}\n"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Run from the mods' folder, so files are shown by their relative names."""
    monkeypatch.chdir(tmp_path)


def validate(capsys, *args):
    with pytest.raises(SystemExit) as info:
        main(["validate", "-q", *args])
    return info.value.code, capsys.readouterr().out


def errors_at(out: str, place: str) -> list[str]:
    """The error lines of the output that start at ``place`` (``file:line:``)."""
    return [line for line in out.splitlines() if line.startswith(place) and ": error[" in line]


def write_mod(target: str, name: str = "mod.yaml") -> str:
    path = Path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(MOD.format(target=target), encoding="utf-8")
    return name


def test_unknown_target_is_an_error_at_the_target_line_with_a_hint(capsys):
    mod = write_mod("terraforming_mras")
    code, out = validate(capsys, mod)
    assert code == 1
    assert f"{mod}:3:9: error[RB500]: this mod targets 'terraforming_mras'" in out
    assert "did you mean 'terraforming_mars'?" in out


def test_target_may_name_a_ruleset_given_as_a_path(capsys):
    mod = write_mod("mini")
    code, out = validate(capsys, mod)
    assert code == 1 and f"{mod}:3:9: error[RB500]: this mod targets 'mini'" in out
    code, out = validate(capsys, str(MINI), mod)
    # now checked against mini: the removed card does not exist there
    assert code == 1 and "this mod targets" not in out
    assert errors_at(out, f"{mod}:5:") and "did you mean 'comet'?" in out


def test_target_may_name_the_ruleset_the_mod_lies_in(capsys, tmp_path):
    shutil.copytree(MINI, tmp_path / "game")
    mod = write_mod("mini", "game/mods/house.yaml")
    code, out = validate(capsys, mod)
    assert code == 1 and "this mod targets" not in out
    assert errors_at(out, f"{mod}:5:") and "did you mean 'comet'?" in out


def test_a_good_mod_for_a_shipped_ruleset_passes(capsys):
    Path("mod.yaml").write_text("kind: mod\nid: m\ntarget: terraforming_mars\nchanges:\n"
                                "  - {op: patch, in: cards, id: comet, value: {cost: 18}}\n",
                                encoding="utf-8")
    code, out = validate(capsys, "mod.yaml")
    assert code == 0, out


def test_a_target_is_never_taken_as_a_path(capsys):
    mod = write_mod(str(MINI.resolve()))
    code, out = validate(capsys, mod)
    assert code == 1
    assert f"{mod}:3:9: error[RB500]: this mod targets '{MINI.resolve()}'" in out
    assert "comet" not in out  # mini was not loaded


def test_a_mod_without_target_says_how_to_check_it(capsys):
    Path("mod.yaml").write_text("kind: mod\nid: m\nchanges: []\n", encoding="utf-8")
    code, out = validate(capsys, "mod.yaml")
    assert code == 1
    assert "mod.yaml:1:1: error[RB500]: this mod has no 'target:'" in out and "--mod" in out
