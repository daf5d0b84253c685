"""Planted cache entries: nothing in the cache can run code or change a rule.

The load cache keeps every checked effect as a JSON tree, and the compiler
writes Python from trees. An entry planted in the cache (the user's own file,
owner-only, stamped with the right key) once carried an operator such as
``+ open(...) +`` that the compiler pasted into the Python it ran, so
``simulate`` wrote a file while ``validate`` still said ok. Three layers stand
in the way now, and each is tested here on its own:

1. every cache file is sealed with a key kept outside the cache folder, so a
   planted, copied or edited file is not used at all;
2. an entry sealed with the user's own key (an attacker who can read it) is
   still decoded node by node against what the parser and the checker make:
   an operator, verb, mode or binding outside the grammar's fixed lists, a
   name that is not a name, an id the ruleset does not declare, all refuse the
   whole entry, and the ruleset is loaded afresh from its files;
3. the Python the compiler writes is checked before it is compiled: only the
   names it makes, a fixed list of attributes, literals and constructs it
   writes; anything else is refused before it can run.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook_games import cache, load_ruleset
from rulebook_games.load import loadcache
from rulebook_games.lang import astjson, pycheck
from rulebook_games.lang.codegen import CodeGen, Source, Unwritable
from rulebook_games.paths import find_ruleset

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny"


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A cache and a key of this test's own, for this process and the commands it runs."""
    folders = {"RULEBOOK_CACHE_DIR": tmp_path / "cache", "RULEBOOK_STATE_DIR": tmp_path / "state"}
    for name, folder in folders.items():
        monkeypatch.setenv(name, str(folder))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    return dict(os.environ)


def rulebook(*args, env, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulebook_games", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def entry_file(env) -> Path:
    (path,) = Path(env["RULEBOOK_CACHE_DIR"]).glob("ruleset-*.json")
    return path


def read(path: Path) -> dict:
    return json.loads(path.read_bytes().split(b"\n", 1)[1])


def plant(path: Path, document: dict, sealed: bool = True) -> None:
    body = json.dumps(document).encode()
    path.write_bytes(cache.seal(path.stem, body) if sealed
                     else path.read_bytes().split(b"\n", 1)[0] + b"\n" + body)


def nodes(value):
    """Every node object in a decoded JSON value."""
    if isinstance(value, dict):
        if "N" in value:
            yield value
        for v in value.values():
            yield from nodes(v)
    elif isinstance(value, list):
        for v in value:
            yield from nodes(v)


def payload(marker: Path) -> str:
    """Text that, pasted into generated Python as an operator, opens a file: the builtins
    of any support function's module are one attribute away."""
    return (f"+ _items.__globals__['__builtins__']['open']({str(marker)!r}, 'w').close() "
            "or 0 +")


def poison(document: dict, field: str, value: str) -> dict:
    """The entry with ``field`` of every node that has it set to ``value``."""
    out = copy.deepcopy(document)
    trees = json.loads(out["asts"])
    hit = 0
    for node in nodes(trees):
        if field in node:
            node[field] = value
            hit += 1
    assert hit, f"no node has a {field}"
    out["asts"] = json.dumps(trees)
    return out


# ------------------------------------------------------------------ the whole attack
@pytest.mark.parametrize("sealed", [True, False], ids=["sealed-with-the-users-key", "planted"])
def test_a_planted_operator_runs_nothing_and_the_entry_is_ignored(env, tmp_path, sealed):
    marker = tmp_path / "PWNED"
    first = rulebook("validate", str(TINY), env=env, cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    path = entry_file(env)
    clean = read(path)
    plant(path, poison(clean, "op", payload(marker)), sealed)
    for args in (["simulate", str(TINY), "-n", "3", "-p", "2", "--seed", "1"],
                 ["validate", str(TINY)]):
        proc = rulebook(*args, env=env, cwd=tmp_path)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0, out
        assert "Traceback" not in out and "internal error" not in out, out
        assert not marker.exists()
    # the entry was not used: the load went back to the files and kept a good one
    assert read(entry_file(env))["asts"] == clean["asts"]


@pytest.mark.parametrize("field,value", [
    ("op", "+ 1 +"), ("op", "is"), ("op", "** 99 **"),
    ("verb", "gain'); open('x', 'w'); ('"), ("verb", "steal"),
    ("mode", "on'), open('x', 'w'), ('"), ("mode", "everywhere"),
    ("id", "__import__('os')"), ("id", "you\n"), ("func", "open\n"),
    ("value", [1, 2]), ("value", 10 ** 19), ("value", 'say "hi"'), ("production", "yes"),
])
def test_the_decoder_refuses_what_the_parser_could_not_have_made(env, field, value):
    load_ruleset(TINY)
    manifest = find_ruleset(TINY)
    path = entry_file(env)
    document = read(path)
    try:
        document = poison(document, field, value)
    except AssertionError:
        pytest.skip(f"tiny has no node with a {field}")
    plant(path, document)
    found = loadcache.lookup(manifest, [])
    assert found is not None  # the files fit the entry; its trees are what is refused
    _, cached = found
    with pytest.raises(ValueError):
        cached.trees()


@pytest.mark.parametrize("note,value", [
    ("binding", "local"), ("binding", "__class__"), ("type", "int"),
    ("resource_id", "gold"), ("target", {"B": "stock"}), ("canonical", "gold"),
])
def test_an_entry_carries_no_conclusion_of_the_checker(env, note, value):
    # the checker's notes (types, bindings, ids, call targets) are never kept: a load from
    # the cache checks its trees again, so an entry that carries one is not the cache's
    load_ruleset(TINY)
    path = entry_file(env)
    document = read(path)
    trees = json.loads(document["asts"])
    for node in nodes(trees):
        node[note] = value
    document["asts"] = json.dumps(trees)
    plant(path, document)
    found = loadcache.lookup(find_ruleset(TINY), [])
    assert found is not None
    with pytest.raises(ValueError):
        found[1].trees()


def _first_call(trees, func: str):
    for node in nodes(trees):
        if node.get("N") == "Call" and node.get("func") == func:
            return node
    raise AssertionError(f"no call of {func}")


def _plant_trees(env, change) -> dict:
    """Change the trees of the tiny ruleset's entry with ``change`` and seal it with the
    user's own key; the entry as it was is returned."""
    path = entry_file(env)
    clean = read(path)
    document = copy.deepcopy(clean)
    trees = json.loads(document["asts"])
    change(trees)
    document["asts"] = json.dumps(trees)
    plant(path, document)
    return clean


def test_a_sealed_tree_the_checker_refuses_sends_the_load_back_to_the_files(env, tmp_path):
    # a shape the parser could make but the checker never lets through: a call given one
    # argument more than its builtin takes. Taken on trust, it ended in exit 3 when the
    # game ran; checked again, it is refused and the ruleset loaded from its files
    first = rulebook("validate", str(TINY), env=env, cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr

    def one_more_argument(trees):
        call = _first_call(trees, "size")
        call["args"].append(copy.deepcopy(call["args"][0]))
    clean = _plant_trees(env, one_more_argument)
    for args in (["simulate", str(TINY), "-n", "3", "-p", "2", "--seed", "1"],
                 ["validate", str(TINY)], ["compile", str(TINY)]):
        proc = rulebook(*args, env=env, cwd=tmp_path)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 0, out
        assert "Traceback" not in out and "internal error" not in out, out
    assert read(entry_file(env))["asts"] == clean["asts"]  # made again from the files


def test_a_sealed_tree_that_checks_but_gives_none_for_points_is_a_rule_error(env, tmp_path):
    # 'none' is a value the types allow where a number goes (a function may give none);
    # as a scoring entry's points it once reached the engine's own sum and ended in exit
    # 3. It is a rule error at the expression now, from a rule file or from the cache
    first = rulebook("validate", str(TINY), env=env, cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr

    def no_points(trees):
        for key, tree in trees:
            if key["T"][0] == "scoring":
                tree.clear()
                tree.update({"N": "Literal", "span": [2, 30, 36, 30, 40], "value": None})
                return
        raise AssertionError("no scoring entry")
    _plant_trees(env, no_points)
    proc = rulebook("simulate", str(TINY), "-n", "2", "-p", "2", "--seed", "1", env=env,
                    cwd=tmp_path)
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out and "internal error" not in out, out
    assert proc.returncode == 1, out
    assert "flow.yaml:30:36: this should be a number, but it is none" in " ".join(out.split())


@settings(max_examples=200, deadline=None)
@given(op=st.text(min_size=1, max_size=30))
def test_any_operator_outside_the_grammars_list_is_refused_by_the_decoder(op):
    known = {"+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "has",
             "lacks"}
    text = json.dumps({"N": "Binary", "span": [0, 1, 1, 1, 2], "op": op,
                       "left": {"N": "Literal", "span": [0, 1, 1, 1, 2], "value": 1},
                       "right": {"N": "Literal", "span": [0, 1, 1, 1, 2], "value": 2}})
    if op in known:
        assert astjson.loads(text, ["f"]).op == op
    else:
        with pytest.raises(ValueError):
            astjson.loads(text, ["f"])


# ------------------------------------------------------------------ the generator
def test_the_generator_writes_no_operator_it_has_no_fixed_python_for(mini):
    from rulebook_games.lang import ast
    from rulebook_games.span import Span
    sp = Span("f", 1, 1, 1, 2)
    for op in ("+ 1 +", "**", "is", "@"):
        tree = ast.Binary(sp, op, ast.Literal(sp, 1), ast.Literal(sp, 2))
        gen = CodeGen(mini.table, Source())
        with pytest.raises(Unwritable):
            gen.function("F1", tree, "expression")
    tree = ast.Unary(sp, "~", ast.Literal(sp, 1))
    with pytest.raises(Unwritable):
        CodeGen(mini.table, Source()).function("F1", tree, "expression")


@pytest.mark.parametrize("source", [
    "def F1(rt, B, d, V):\n    return _items.__globals__\n",
    "def F1(rt, B, d, V):\n    return rt._game\n",
    "def F1(rt, B, d, V):\n    return open('x')\n",
    "import os\n",
    "def F1(rt, B, d, V):\n    return [].__class__\n",
    "def F1(rt, B, d, V):\n    global K1\n",
    "class K1: pass\n",
    "def F1(rt, B, d, V):\n    return b'x'\n",
    "def F1(rt, B, d, V):\n    return 1.5\n",
    "def F1(rt, B, d, V):\n    return (yield 1)\n",
    "def F1(rt, B, d, V):\n    return V.items()\n",
    "def F1(rt, B, d, V):\n    return rt.stock.__self__\n",
    "def F1(rt, B, d, V, eval=None):\n    return 1\n",
    "def F1(rt, B, d, V):\n    with _F: pass\n",
    "def F1(rt, B, d, V):\n    return lambda __x: 1\n",
    "def F1(rt, B, d, V):\n    return sum(x for x in [])\n",
])
def test_the_python_check_refuses_anything_the_generator_does_not_write(source):
    with pytest.raises(pycheck.Refused):
        pycheck.check(source, "<test>")


@pytest.mark.parametrize("name", ["terraforming_mars", "legacy_gears_of_time", "timespan",
                                  "lantern_row"])
def test_everything_the_generator_writes_for_the_shipped_games_passes_the_check(name):
    from rulebook_games.lang.compiler import source_of
    source = source_of(load_ruleset(ROOT / "rulesets" / name))
    assert source.count("\ndef ") > 50
    pycheck.check(source, "<all>")  # also checked chunk by chunk as it was compiled


def test_a_pipe_planted_in_the_cache_is_not_waited_on(env, tmp_path):
    first = rulebook("validate", str(TINY), env=env, cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    path = entry_file(env)
    path.unlink()
    os.mkfifo(path, 0o600)
    proc = rulebook("validate", str(TINY), env=env, cwd=tmp_path)  # times out if it waits
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
