"""The ruleset cache: a warm load is the same Ruleset as a fresh one, and the cache is safe.

A load that finds its ruleset in the cache must give exactly what a fresh load
gives: the same content hash, the same trees with the same positions and
annotations, the same games for the same seeds, the same positioned errors at
run time. And the cache must never be trusted blindly: a damaged entry, a
folder others may write, an edited file, each sends the load back to the files.
Every test here uses a cache folder of its own (never the user's).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_games import RulebookError, cache, load_ruleset
from rulebook_games.load import loadcache
from rulebook_games.load import ruleset as ruleset_module
from rulebook_games.play.session import GameError, build_game, make_record, run
from rulebook_games.lang import ast
from rulebook_games.lang import types as T
from rulebook_games.paths import find_ruleset
from rulebook_games.load.ruleset import shipped_rulesets
from rulebook_games.span import Span

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "fixtures" / "mini"
TINY = ROOT / "tests" / "fixtures" / "tiny"  # a small playable ruleset


@pytest.fixture
def folder(tmp_path, monkeypatch):
    where = tmp_path / "cache" / "rulebook"
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(where))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    return where


def entries(where: Path) -> list[Path]:
    return sorted(where.glob("ruleset-*.json")) if where.is_dir() else []


def read_entry(path: Path) -> dict:
    """An entry's document: the JSON after its seal line."""
    seal, body = path.read_bytes().split(b"\n", 1)
    assert seal.startswith(cache.FORMAT.encode() + b" ")
    return json.loads(body)


def write_entry(path: Path, document: dict) -> None:
    """Write an entry as the user's own Rulebook would, sealed with the user's key: what
    only someone who holds that key could plant."""
    body = json.dumps(document).encode()
    path.write_bytes(cache.seal(path.stem, body))


@pytest.fixture
def no_parsing(monkeypatch):
    """Within the test, reading YAML, checking schemas or parsing effects fails loudly."""
    def refuse(*args, **kwargs):
        raise AssertionError("a cached load parsed or checked a file")

    def install():
        monkeypatch.setattr("rulebook_games.load.assemble.load_yaml", refuse)
        monkeypatch.setattr("rulebook_games.load.schema.validate", refuse)
        monkeypatch.setattr(ruleset_module, "parse", refuse)
    return install


def warm(path, mods=None, *, no_parsing):
    """A load that must come from the cache: parsing anything would fail it."""
    assert loadcache.lookup(find_ruleset(path), [str(m) for m in mods or []]) is not None
    no_parsing()
    return load_ruleset(path, mods)


# ------------------------------------------------------------ the same ruleset
def same(a, b, where="tree") -> None:
    """Two trees are alike in every attribute, span, type and target (without the codec)."""
    assert type(a) is type(b), where
    if isinstance(a, ast.Node):
        assert vars(a).keys() == vars(b).keys(), where
        for key in vars(a):
            same(getattr(a, key), getattr(b, key), f"{where}.{key}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            same(a[key], b[key], f"{where}[{key!r}]")
    elif type(a) is T.Type:
        named = any(a is t for t in vars(T).values())
        assert (a is b) if named else (a == b), where
    elif hasattr(a, "name") and not isinstance(a, (str, Span, T.Type)):
        assert a.name == b.name, where  # a builtin, an aggregate or a declared procedure
    else:
        assert a == b, where


def play(rs, seed: int, players: int) -> tuple:
    kinds = ["random"] * players
    game = build_game(rs, players, seed, kinds)
    try:
        result = run(game, check=True)
    except GameError as exc:
        return ("error", exc.message, str(exc.span))
    return make_record(game, rs, kinds, result, list(rs.mods)).to_dict()


@pytest.mark.parametrize("name", shipped_rulesets())
def test_a_cached_load_is_the_same_ruleset_and_plays_the_same_games(name, folder, no_parsing):
    cold = load_ruleset(name)
    assert entries(folder), "a clean load is kept"
    hot = warm(name, no_parsing=no_parsing)
    assert hot.content_hash == cold.content_hash
    assert hot.files == cold.files and hot.mods == cold.mods and hot.root == cold.root
    assert list(hot.asts) == list(cold.asts) and list(hot.code) == list(cold.code)
    for key in cold.asts:
        same(cold.asts[key], hot.asts[key], str(key))
    same(cold.table.needs_acting, hot.table.needs_acting, "needs_acting")
    assert hot.constants == cold.constants and hot.adjacency == cold.adjacency
    for section, items in cold.sections.items():
        assert list(hot.sections[section]) == list(items), section
        for ident, entry in items.items():
            other = hot.sections[section][ident]
            assert other.data == entry.data and other.span() == entry.span(), (section, ident)
    players = min(max(2, cold.min_players), cold.max_players)
    for seed in (1, 2, 3):
        assert play(hot, seed, players) == play(cold, seed, players), seed


@pytest.mark.parametrize("name", shipped_rulesets())
def test_cards_read_the_same_from_a_cached_load(name, folder, no_parsing):
    from rulebook_games.lang.words import catalogue_entry
    cold = load_ruleset(name)
    hot = warm(name, no_parsing=no_parsing)
    for ident in cold.cards:
        assert catalogue_entry(hot, ident) == catalogue_entry(cold, ident), ident


def test_an_error_at_run_time_points_at_the_same_place(tmp_path, folder, no_parsing):
    rules = tmp_path / "rules"
    shutil.copytree(TINY, rules)
    flow = rules / "flow.yaml"
    flow.write_text(flow.read_text(encoding="utf-8").replace(
        "  shuffle(deck)\n", '  shuffle(deck)\n  require 1 > 2 else "the rules stop here"\n'),
        encoding="utf-8")

    def failure(rs):
        with pytest.raises(GameError) as info:
            run(build_game(rs, 2, 1, ["random", "random"]))
        return info.value.message, str(info.value.span)

    first = failure(load_ruleset(rules))
    assert "the rules stop here" in first[0] and first[1].endswith("flow.yaml:5:3"), first
    assert failure(warm(rules, no_parsing=no_parsing)) == first


def test_a_cached_load_with_mods_is_the_same(tmp_path, folder, no_parsing):
    mod = tmp_path / "mod.yaml"
    mod.write_text("kind: mod\nid: house\ntarget: tiny\nchanges:\n"
                   "  - {op: patch, in: cards, id: statue, value: {cost: 1}}\n"
                   "  - op: add\n    in: cards\n"
                   "    value: {id: bell, name: Bell, type: gadget, cost: 2, play: gain 2 gold}\n",
                   encoding="utf-8")
    cold = load_ruleset(TINY, [str(mod)])
    hot = warm(TINY, [str(mod)], no_parsing=no_parsing)
    assert hot.content_hash == cold.content_hash and hot.mods == cold.mods
    assert hot.cards["statue"].data["cost"] == 1
    assert hot.cards["statue"].span("cost") == cold.cards["statue"].span("cost")
    assert Path(hot.cards["statue"].span("cost").file).resolve() == mod.resolve()
    same(cold.asts[("card", "bell", "play")], hot.asts[("card", "bell", "play")])
    for seed in (1, 2):
        assert play(hot, seed, 2) == play(cold, seed, 2)
    # the mod is part of the key: the ruleset alone is another entry
    assert loadcache.lookup(find_ruleset(TINY), []) is None


def test_files_are_named_from_where_the_load_runs(tmp_path, folder, monkeypatch, no_parsing):
    monkeypatch.chdir(ROOT)
    cold = load_ruleset("tests/fixtures/tiny")
    monkeypatch.chdir(TINY)
    hot = warm(str(TINY), no_parsing=no_parsing)
    assert cold.files[0] == os.path.join("tests", "fixtures", "tiny", "ruleset.yaml")
    assert hot.files[0] == "ruleset.yaml"
    tree = hot.asts[("flow", "setup")]
    assert tree.span.file == "flow.yaml" and tree.span.line == cold.asts[("flow", "setup")].span.line


# ------------------------------------------------------------ never trusted blindly
@pytest.mark.parametrize("damage", ["", "{", "[]", '{"format": "rulebook-cache/1"}',
                                    "truncate", "not json at all \x00"])
def test_a_damaged_entry_is_ignored_and_made_again(folder, damage):
    first = load_ruleset(MINI)
    (entry,) = entries(folder)
    text = entry.read_text(encoding="utf-8")
    entry.write_text(text[: len(text) // 2] if damage == "truncate" else damage,
                     encoding="utf-8")
    assert loadcache.lookup(find_ruleset(MINI), []) is None
    again = load_ruleset(MINI)
    assert again.content_hash == first.content_hash
    assert read_entry(entry)["content_hash"] == first.content_hash
    assert loadcache.lookup(find_ruleset(MINI), []) is not None


def test_an_entry_that_does_not_fit_the_files_is_ignored(folder):
    first = load_ruleset(MINI)
    (entry,) = entries(folder)
    document = read_entry(entry)
    sha = document["files"][0]["sha"]
    document["files"][0]["sha"] = "0" * 64  # says it was made from another manifest
    write_entry(entry, document)
    assert loadcache.lookup(find_ruleset(MINI), []) is None
    # the files fit, but the trees are not ones this code could have written
    document["files"][0]["sha"] = sha
    document["asts"] = '[[{"T":["card","comet","play"]},{"N":"NoSuchNode"}]]'
    write_entry(entry, document)
    assert loadcache.lookup(find_ruleset(MINI), []) is not None
    again = load_ruleset(MINI)  # goes on from the files
    assert list(again.asts) == list(first.asts)


def test_a_pointer_never_leads_out_of_the_folder(folder, tmp_path):
    load_ruleset(MINI)
    (where,) = folder.glob("where-*.json")
    (entry,) = entries(folder)
    outside = tmp_path / "outside.json"
    shutil.copy(entry, outside)
    os.chmod(outside, 0o600)
    pointer = read_entry(where)
    pointer["entry"] = os.path.relpath(outside.with_suffix(""), folder)  # '../../outside'
    write_entry(where, pointer)
    assert loadcache.lookup(find_ruleset(MINI), []) is None
    assert cache.load(pointer["entry"]) is None
    assert not cache.store("../escape-" + "0" * 40, {"a": 1})
    assert not (folder.parent / ("escape-" + "0" * 40 + ".json")).exists()


def test_the_cache_is_private_and_holds_json(folder):
    load_ruleset(MINI)
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    files = list(folder.iterdir())
    assert files and not [p for p in files if p.name.startswith(".tmp")]
    for path in files:
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, path
        if path.suffix == ".json":
            assert isinstance(read_entry(path), dict)


@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777])
def test_a_folder_others_may_write_is_not_used(folder, mode):
    load_ruleset(MINI)
    assert loadcache.lookup(find_ruleset(MINI), []) is not None
    os.chmod(folder, mode)
    try:
        assert loadcache.lookup(find_ruleset(MINI), []) is None
        for path in entries(folder):
            path.unlink()
        assert load_ruleset(MINI).content_hash  # loads, silently without the cache
        assert not entries(folder)  # and writes nothing there
    finally:
        os.chmod(folder, 0o700)


def test_an_entry_others_may_write_or_a_link_is_not_used(folder, tmp_path):
    load_ruleset(MINI)
    (entry,) = entries(folder)
    os.chmod(entry, 0o622)
    assert loadcache.lookup(find_ruleset(MINI), []) is None
    os.chmod(entry, 0o600)
    assert loadcache.lookup(find_ruleset(MINI), []) is not None
    elsewhere = tmp_path / "elsewhere.json"
    os.replace(entry, elsewhere)
    entry.symlink_to(elsewhere)
    assert loadcache.lookup(find_ruleset(MINI), []) is None


def test_a_shared_temporary_folder_is_not_used(monkeypatch):
    if not os.path.isdir("/tmp") or not os.stat("/tmp").st_mode & 0o002:
        pytest.skip("no world-writable /tmp here")
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", "/tmp")
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    assert not cache.store(cache.key_for("test", "x"), {"a": 1})
    assert cache.load(cache.key_for("test", "x")) is None


def test_turning_the_cache_off(folder, monkeypatch):
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    load_ruleset(MINI)
    assert not folder.exists()
    monkeypatch.delenv("RULEBOOK_NO_CACHE")
    env = dict(os.environ, RULEBOOK_CACHE_DIR=str(folder))
    done = subprocess.run([sys.executable, "-m", "rulebook_games", "--no-cache", "validate",
                           str(MINI)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not entries(folder)
    done = subprocess.run([sys.executable, "-m", "rulebook_games", "validate", str(MINI)],
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert entries(folder)  # the same command without the flag keeps it


def test_a_changed_file_changes_the_key(tmp_path, folder):
    rules = tmp_path / "rules"
    shutil.copytree(TINY, rules)
    first = load_ruleset(rules)
    assert loadcache.lookup(find_ruleset(rules), []) is not None
    cards = rules / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("cost: 3", "cost: 4"),
                     encoding="utf-8")
    assert loadcache.lookup(find_ruleset(rules), []) is None
    second = load_ruleset(rules)
    assert second.content_hash != first.content_hash
    assert second.cards["statue"].data["cost"] == 4
    keys = {p.name for p in entries(folder)}
    assert keys == {f"{cache.key_for('ruleset', h)}.json"
                    for h in (first.content_hash, second.content_hash)}
    assert loadcache.lookup(find_ruleset(rules), []) is not None


def test_a_file_a_glob_now_finds_is_not_missed(tmp_path, folder):
    rules = tmp_path / "rules"
    shutil.copytree(TINY, rules)
    (rules / "cards").mkdir()
    shutil.move(rules / "cards.yaml", rules / "cards" / "a.yaml")
    manifest = rules / "ruleset.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "cards.yaml]", "'cards/*.yaml']"), encoding="utf-8")
    load_ruleset(rules)
    (rules / "cards" / "b.yaml").write_text(
        "kind: cards\ncards:\n  - {id: bell, name: Bell, type: gadget, cost: 2}\n",
        encoding="utf-8")
    assert loadcache.lookup(find_ruleset(rules), []) is None
    assert "bell" in load_ruleset(rules).cards


def test_a_ruleset_with_errors_is_never_kept(tmp_path, folder):
    rules = tmp_path / "rules"
    shutil.copytree(TINY, rules)
    flow = rules / "flow.yaml"
    flow.write_text(flow.read_text(encoding="utf-8").replace("gain 2 gold", "gain 2 gould"),
                    encoding="utf-8")
    reports = []
    for _ in range(2):
        with pytest.raises(RulebookError) as info:
            load_ruleset(rules)
        reports.append([(d.code, str(d.span), d.message) for d in info.value.diagnostics])
    assert reports[0] == reports[1] and any("gould" in m for _, _, m in reports[0])
    assert not entries(folder)


# ------------------------------------------------------------ what a start imports
HEAVY = ("jsonschema", "lark", "yaml", "referencing")


def _imported(code: str, env: dict) -> list[str]:
    probe = code + "\nimport sys\nprint(' '.join(sorted(m for m in sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_help_imports_no_parser_no_schema_checker_and_no_engine(folder):
    modules = _imported("from rulebook_games.cli import main", dict(os.environ))
    assert not [m for m in modules if m in HEAVY + ("rich",) or m.startswith("rulebook_games.engine")]


def test_a_warm_load_imports_no_parser_and_no_schema_checker(folder):
    load_ruleset(TINY)
    code = (f"from rulebook_games import load_ruleset\nimport rulebook_games.play.session\n"
            f"load_ruleset({str(TINY)!r})")
    assert not [m for m in _imported(code, dict(os.environ)) if m in HEAVY]
    cold = _imported(code, dict(os.environ, RULEBOOK_NO_CACHE="1"))
    assert {"jsonschema", "lark", "yaml"} <= set(cold)  # what the check above would catch
