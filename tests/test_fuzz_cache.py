"""Fuzzing the load cache: any entry, however made, loads the ruleset or is ignored.

Two attackers. One can write the user's cache folder but not read the key
kept apart from it (a restored CI cache, an unpacked archive, a synced
folder): any change anywhere in an entry (its trees, a file's data, a
position table) makes the entry ignored, and the ruleset is loaded afresh,
exactly as it is. The other can also read the key and seal what they write:
a change anywhere in the checked trees (the part that becomes Python) still
gives a Ruleset, from the entry or afresh, never an exception, and games
played with it end or stop at a positioned rule error, never at an error of
Rulebook's own, and run no Python but the compiler's (the generated source
is checked before it compiles; see test_attacks_cache.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook_games import cache, load_ruleset
from rulebook_games.play.session import GameError, build_game, run

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny"

# values an attacker might put anywhere: the shapes the codec knows, and others
leaves = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-3, 3).map(lambda n: n * 10 ** 19),
    st.text(max_size=20),
    st.sampled_from(["+ open('x') +", "__import__", "local", "track_symbol", "gain", "lose",
                     "rules", "on", "you", "_items", "F1", "rt", "\n", "card", "any", "op"]))
json_values = st.recursive(leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.sampled_from(["N", "S", "T", "D", "Y", "L", "R", "C", "B", "A", "Y0",
                                     "op", "value", "span", "id", "binding", "type", "args"]),
                    inner, max_size=4)), max_leaves=10)


def paths_in(value, prefix=()):
    """Every place in a JSON value: (path, value)."""
    yield prefix, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths_in(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths_in(v, prefix + (i,))


def replaced(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    out = list(value)
    out[head] = replaced(value[head], rest, new)
    return out


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A good entry for the tiny ruleset, its file, and the documents it holds as text."""
    base = tmp_path_factory.mktemp("fuzzcache")
    with pytest.MonkeyPatch.context() as mp:  # a cache and a key of this module's own
        mp.setenv("RULEBOOK_CACHE_DIR", str(base / "cache"))
        mp.setenv("RULEBOOK_STATE_DIR", str(base / "state"))
        mp.delenv("RULEBOOK_NO_CACHE", raising=False)
        load_ruleset(TINY)
        (path,) = (base / "cache").glob("ruleset-*.json")
        document = json.loads(path.read_bytes().split(b"\n", 1)[1])
        # the trees are JSON text inside the entry: open them up so a change can land inside
        document["asts"] = json.loads(document["asts"])
        places = [p for p, _ in paths_in(document) if p and p[0] not in ("format", "key")]
        yield path, document, places


def plant(path, document, where, new, sealed: bool) -> None:
    changed = replaced(document, where, new)
    if not isinstance(changed.get("asts"), str):
        changed["asts"] = json.dumps(changed.get("asts"))
    body = json.dumps(changed).encode()
    if sealed:
        path.write_bytes(cache.seal(path.stem, body))
    else:  # the seal the good entry had, over other contents
        path.write_bytes(path.read_bytes().split(b"\n", 1)[0] + b"\n" + body)


FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_any_change_to_an_entry_without_the_users_seal_is_ignored(good, data):
    path, document, places = good
    where = data.draw(st.sampled_from(places), label="where")
    new = data.draw(json_values, label="new value")
    plant(path, document, where, new, sealed=False)
    assert cache.load(path.stem) is None
    rs = load_ruleset(TINY)
    assert rs.content_hash and set(rs.asts) == set(json_key(k) for k, _ in document["asts"])


def json_key(key):
    return tuple(key["T"])


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_any_change_to_the_trees_of_a_sealed_entry_loads_and_runs_no_code(good, data):
    path, document, places = good
    trees = [p for p in places if p[0] == "asts"]
    where = data.draw(st.sampled_from(trees), label="where")
    new = data.draw(json_values, label="new value")
    plant(path, document, where, new, sealed=True)
    rs = load_ruleset(TINY)  # from the entry or afresh: never an exception
    for seed in (1, 2):
        game = build_game(rs, 2, seed, ["random", "random"])
        try:
            run(game, check=True)
        except GameError as exc:  # a rule error, at a position
            assert exc.message
