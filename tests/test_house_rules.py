"""The example house rules shipped in each ruleset's ``mods/`` folder.

Every ``rulesets/*/mods/*.yaml`` must open (after its editor modeline) with
a comment saying what it changes and why, load cleanly over its ruleset, really change what it says
it changes (each entry, flow part or constant it names holds the mod's value
in the loaded ruleset, and the content hash differs from the base), and let
a seeded two-player game of random agents play to its end with the
invariants checked after every action. The mods folder itself is never part
of the ruleset it lies in.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulebook_games import load_ruleset
from rulebook_games.play.session import build_game, run

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
MODS = sorted(RULESETS.glob("*/mods/*.yaml"))
GAMES = sorted({m.parent.parent.name for m in MODS})


def _id(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.stem}"


def _ruleset_of(mod: Path) -> Path:
    return mod.parent.parent


def test_every_shipped_ruleset_has_house_rules():
    shipped = sorted(p.parent.name for p in RULESETS.glob("*/ruleset.yaml"))
    for game in shipped:
        assert len(list((RULESETS / game / "mods").glob("*.yaml"))) >= 3, game


@pytest.mark.parametrize("mod", MODS, ids=_id)
def test_house_rule_opens_with_a_comment(mod):
    # the editor modeline comes first (every shipped rule file has one), then
    # the house rule's own comment, before any key
    lines = mod.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# yaml-language-server: $schema=")
    head = []
    for line in lines[1:]:
        if not line.startswith("#"):
            break
        head.append(line.lstrip("# "))
    text = " ".join(h for h in head if h)
    assert text.startswith("House rule:") and len(text.split()) >= 30, text
    data = yaml.safe_load(mod.read_text(encoding="utf-8"))
    assert data["kind"] == "mod"
    assert data["target"] == _ruleset_of(mod).name


@pytest.mark.parametrize("mod", MODS, ids=_id)
def test_house_rule_changes_what_it_names(mod):
    base = load_ruleset(_ruleset_of(mod))
    modded = load_ruleset(_ruleset_of(mod), [str(mod)])
    assert modded.content_hash != base.content_hash
    changes = yaml.safe_load(mod.read_text(encoding="utf-8"))["changes"]
    assert changes
    for change in changes:
        op, ident, value = change["op"], change.get("id"), change.get("value")
        if op == "set_constant":
            assert base.constants[ident] != value
            assert modded.constants[ident] == value
            continue
        if change["in"] == "flow":
            old, new = base.singles[ident].data, modded.singles[ident].data
        else:
            old, new = base.sections[change["in"]][ident].data, \
                modded.sections[change["in"]][ident].data
        assert new != old, (change["in"], ident)
        if op == "patch":
            for key, v in value.items():
                assert new[key] == v, (ident, key)


@pytest.mark.parametrize("mod", MODS, ids=_id)
def test_house_rule_plays_to_the_end(mod):
    rs = load_ruleset(_ruleset_of(mod), [str(mod)])
    game = build_game(rs, 2, 11, ["random", "random"])
    result = run(game, check="action")
    assert len(result.scores) == 2
    assert result.winners
    assert result.rounds >= 1
    again = run(build_game(rs, 2, 11, ["random", "random"]))
    assert again.final_hash == result.final_hash


def test_three_rounds_ends_after_round_three():
    game_dir = RULESETS / "legacy_gears_of_time"
    base = run(build_game(load_ruleset(game_dir), 2, 5, ["random", "random"]))
    short = run(build_game(load_ruleset(game_dir, [str(game_dir / "mods" / "three_rounds.yaml")]),
                           2, 5, ["random", "random"]))
    assert base.rounds == 4
    assert short.rounds == 3
    assert short.decisions < base.decisions


@pytest.mark.parametrize("game", GAMES)
def test_mods_folder_is_not_part_of_the_ruleset(game):
    rs = load_ruleset(RULESETS / game)
    assert not any("mods" in Path(f).parts for f in rs.files), rs.files
