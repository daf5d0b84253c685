"""The hand check of a weights file (schema.surely_valid) against jsonschema.

Issue 28 (start-up): a weights file is checked on every start without
jsonschema, by reading the schema's plain keywords by hand. The check may send
a file it is unsure of to jsonschema (which then says what is wrong, and
where), but it must never pass a file jsonschema refuses. The expectation is
JSON Schema's: every shipped file is valid, and each change below either
breaks the schema (jsonschema finds errors, and the hand check must say
False) or keeps it (both agree, or the hand check is merely unsure).
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from rulebook_games.load.schema import file_validator, surely_valid

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(ROOT.glob("rulesets/*/learned.json"))
SCHEMA = "learned.schema.json"


def _valid(data) -> bool:
    return not any(True for _ in file_validator(SCHEMA).iter_errors(data))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.parent.name)
def test_every_shipped_weights_file_is_surely_valid(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert _valid(data)
    assert surely_valid(data, SCHEMA)


BAD_VALUES = [True, False, None, "1", [], {}, 1e10, -1e10, 1e-13, 0, float("inf"),
              float("-inf"), 1.0, 2 ** 63, "x" * 501, ["a"], [1, "a"], [None], {"a": []}]


def _changes(data, rng):
    """Random changes of a valid file: a value replaced, a key removed, a key added."""
    for _ in range(400):
        new = copy.deepcopy(data)
        fits = [new] + list(new.get("fits") or ())
        target = rng.choice(fits)
        key = rng.choice(sorted(target))
        kind = rng.randrange(4)
        if kind == 0:
            target[key] = rng.choice(BAD_VALUES)
        elif kind == 1:
            del target[key]
        elif kind == 2:
            target[rng.choice(["extra", key + "_", "fit"])] = rng.choice(BAD_VALUES)
        elif isinstance(target[key], list) and target[key]:
            target[key][rng.randrange(len(target[key]))] = rng.choice(BAD_VALUES)
        else:
            target[key] = rng.choice(BAD_VALUES)
        yield new


@pytest.mark.parametrize("path", SHIPPED[:2], ids=lambda p: p.parent.name)
def test_the_hand_check_never_passes_what_jsonschema_refuses(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    data["fits"] = [{k: copy.deepcopy(data[k]) for k in
                     ("players", "games", "seed", "agent", "rounds", "intercept", "features",
                      "weights", "late_weights", "mean", "scale", "fit") if k in data}]
    data["fits"][0]["players"] = 3
    assert _valid(data) and surely_valid(data, SCHEMA)
    rng = random.Random(28)
    refused = 0
    for changed in _changes(data, rng):
        if not _valid(changed):
            refused += 1
            assert not surely_valid(changed, SCHEMA), changed
    assert refused > 200  # the changes did test refusals


@pytest.mark.parametrize("value, expected", [
    ({"format": 1.0}, "unsure"),  # 1.0 is 1 to JSON Schema: jsonschema decides
    ({"players": True}, False),
    ({"players": 1.5}, False),
    ({"intercept": float("nan")}, "unsure"),  # (jsonschema lets NaN by; the reader refuses it)
    ({"mods": ["a", None]}, True),
    ({"mods": [3]}, False),
    ({"target": "score"}, False),
    ({"fit": {"r2": 0.5, "note": "ok", "bad": [1]}}, False),
])
def test_one_field_at_a_time(value, expected):
    data = json.loads(SHIPPED[0].read_text(encoding="utf-8"))
    data.update(value)
    got = surely_valid(data, SCHEMA)
    if expected == "unsure":
        assert not got
    else:
        assert got is expected
        assert _valid(data) is expected


def test_reading_a_shipped_weights_file_imports_no_schema_checker():
    """A game seated with the learned evaluation reads its file at every start: the
    hand check does it without importing jsonschema (about 0.05 CPU-s)."""
    import os
    import subprocess
    import sys
    path = SHIPPED[0]
    code = ("import sys\n"
            "from rulebook_games.load.learned import read_learned\n"
            "class RS:\n"
            f"    id = {path.parent.name!r}; mods = []; mod_info = []; content_hash = ''\n"
            "    name = 'x'\n"
            f"read_learned({str(path)!r}, RS())\n"
            "print(' '.join(m for m in ('jsonschema', 'referencing') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []
