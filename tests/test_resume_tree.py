"""benchmarks/resume_tree.py: a record's action decisions asked again of ismcts.

Issue 29 (playtest 32): the tree at a decision of a played game says why the agent
chose what it chose. Every option the search tried is printed with its visits, and
the visits of the options add up to the iterations of the search; a decision that
asks no action is skipped, and the record's answers carry the game on unchanged."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

from rulebook_games import load_ruleset
from rulebook_games.play.session import build_game, run

ROOT = Path(__file__).resolve().parent.parent


def _module():
    spec = importlib.util.spec_from_file_location(
        "resume_tree", ROOT / "benchmarks" / "resume_tree.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tree_at_a_records_action_decisions(tmp_path, capsys):
    rs = load_ruleset("lantern_row")
    game = build_game(rs, 2, 5, ["greedy", "greedy"], ())
    run(game)
    record = {"ruleset": "lantern_row", "players": 2, "seed": 5,
              "agents": ["greedy", "greedy"], "decisions": list(game.record),
              "mods": [], "variants": []}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    _module().main([str(path), "1,2,3,4,5,6", "--spec", "ismcts:iterations=40"])
    out = capsys.readouterr().out
    heads = re.findall(r"^decision (\d+): seat (\d), (\d+) iterations$", out, re.M)
    assert heads, out
    for block in re.split(r"^decision \d+: .*$", out, flags=re.M)[1:]:
        top = [int(v) for v in re.findall(r"^  \S+\s+visits\s+(\d+)\s+mean", block, re.M)]
        assert top and sum(top) == 40, block
