"""``rulebook export``: results files as long-format CSV and Parquet (issue 30, item 2).

What the issue asks, written before the command existed: one row per player
and game, card names beside ids, a pandas user loads the Parquet in one line,
and a results file is untrusted input (a hostile one gives a positioned error,
never a traceback). The results are made by the real ``simulate`` once.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAME = "lantern_row"
GAMES = 3

pytestmark = pytest.mark.xdist_group("export")  # one simulate shared by the module


def rulebook(*args, cwd: Path, missing: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="400")
    env.pop("GITHUB_ACTIONS", None)
    if missing:  # an install without that extra
        script = textwrap.dedent(f"""
            import sys
            class _Missing:
                def find_spec(self, name, path=None, target=None):
                    if name.partition(".")[0] in {set(missing)!r}:
                        raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            sys.meta_path.insert(0, _Missing())
            from rulebook_games.cli import main
            main()
        """)
        command = [sys.executable, "-c", script, *map(str, args)]
    else:
        command = [sys.executable, "-m", "rulebook_games", *map(str, args)]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def clean(proc, code: int) -> str:
    out = proc.stdout + proc.stderr
    assert proc.returncode == code, out
    assert "Traceback" not in out and "internal error" not in out, out
    return out


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("export")
    clean(rulebook("simulate", GAME, "-n", GAMES, "--players", 2, "--out", "games.jsonl",
                   cwd=folder), 0)
    return folder / "games.jsonl"


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_csv_has_a_row_per_player_and_game_and_names_beside_ids(results, tmp_path):
    out = tmp_path / "t.csv"
    said = clean(rulebook("export", results, "--to", "csv", "--out", out, cwd=tmp_path), 0)
    assert "wrote" in said
    games = lines_of(results)
    with out.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == GAMES * 2
    for game in games:
        for seat in (1, 2):
            row = next(r for r in rows if int(r["seed"]) == game["seed"]
                       and int(r["seat"]) == seat)
            assert float(row["score"]) == game["scores"][seat - 1]
            assert row["won"] == ("true" if seat in game["winners"] else "false")
            assert row["ruleset"] == GAME and int(row["players"]) == 2
            assert row["agent"] == "random" and int(row["rounds"]) == game["rounds"]
            for entry, points in game["score_parts"][seat - 1].items():
                assert float(row[f"points.{entry}"]) == points
            for feature, value in game["features"][seat - 1].items():
                if isinstance(value, (int, float)):
                    assert float(row[f"feature.{feature}"]) == value
            assert int(row["played"]) == sum(game["played"][seat - 1].values())
    items = tmp_path / "t.items.csv"
    with items.open(newline="") as fh:
        item_rows = list(csv.DictReader(fh))
    played = [r for r in item_rows if r["kind"] == "played"]
    assert len(played) == sum(len(seat) for g in games for seat in g["played"])
    # a card's name beside its id: the ruleset's own name, not the id
    assert all(r["name"] and r["name"] != r["id"] for r in played), played[:3]
    assert {r["kind"] for r in item_rows} >= {"played", "gained", "actions"}


def test_a_pandas_user_loads_the_parquet_in_one_line(results, tmp_path):
    pd = pytest.importorskip("pandas")
    clean(rulebook("export", results, "--to", "parquet", "--out", tmp_path / "t.parquet",
                   cwd=tmp_path), 0)
    frame = pd.read_parquet(tmp_path / "t.parquet")
    assert len(frame) == GAMES * 2
    assert frame["score"].dtype.kind in "if" and frame["won"].dtype == bool
    assert frame.groupby("seat")["won"].mean().between(0, 1).all()
    items = pd.read_parquet(tmp_path / "t.items.parquet")
    assert set(items.columns) >= {"line", "seat", "kind", "id", "name", "times"}
    joined = items.merge(frame, on=["line", "seat"])
    assert len(joined) == len(items)


def test_default_paths_and_a_second_export_replaces_the_first(results, tmp_path):
    local = tmp_path / "r.jsonl"
    local.write_bytes(results.read_bytes())
    clean(rulebook("export", local, cwd=tmp_path), 0)
    assert (tmp_path / "r.csv").is_file() and (tmp_path / "r.items.csv").is_file()
    clean(rulebook("export", local, cwd=tmp_path), 0)  # its own output is written again


def test_a_file_of_the_users_is_never_replaced(results, tmp_path):
    mine = tmp_path / "notes.csv"
    mine.write_text("my own notes\n")
    out = clean(rulebook("export", results, "--out", mine, cwd=tmp_path), 2)
    assert "already exists" in out and mine.read_text() == "my own notes\n"


def test_parquet_without_pyarrow_says_which_extra(results, tmp_path):
    out = clean(rulebook("export", results, "--to", "parquet", cwd=tmp_path,
                         missing=("pyarrow",)), 2)
    assert "pip install 'rulebook-games[export]'" in out
    assert not list(tmp_path.glob("*.parquet"))


@pytest.mark.parametrize("line, says", [
    ("not json at all", ":2: "),
    ('{"seed": 5, "players": 2, "agents": ["a", "b"], "scores": [1e400, 2], "winners": []}',
     ":2: "),
    ('{"seed": 5, "players": 2, "agents": ["a"], "scores": [1, 2], "winners": [1]}',
     ":2: 'agents' lists 1 seats"),
])
def test_a_hostile_results_file_is_a_positioned_error(results, tmp_path, line, says):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(results.read_text().splitlines()[0] + "\n" + line + "\n")
    out = clean(rulebook("export", bad, cwd=tmp_path), 1)
    assert f"{bad}{says}" in out
    assert not (tmp_path / "bad.csv").exists()


def test_a_feature_of_mixed_kinds_becomes_text_and_configurations_mix(results, tmp_path):
    """An export takes whatever the lines say: each row names its own ruleset; a column
    whose values are numbers on one line and text on another is text, never an error."""
    pd = pytest.importorskip("pandas")
    games = lines_of(results)
    other = dict(games[0], seed=99, ruleset={"id": "elsewhere", "name": "Elsewhere"},
                 features=[{"f": "x"}, {"f": 2}], played=[{"=cmd|x": 1}, {}])
    path = tmp_path / "mixed.jsonl"
    path.write_text(json.dumps(games[0]) + "\n" + json.dumps(other) + "\n")
    clean(rulebook("export", path, "--to", "parquet", cwd=tmp_path), 0)
    frame = pd.read_parquet(tmp_path / "mixed.parquet")
    assert list(frame["ruleset"]) == [GAME, GAME, "elsewhere", "elsewhere"]
    assert list(frame["feature.f"].iloc[2:]) == ["x", "2"]
    items = pd.read_parquet(tmp_path / "mixed.items.parquet")
    # names come from the first line's ruleset, for its rows only
    assert items[items["seed"] == 99]["name"].isna().all()
    clean(rulebook("export", path, cwd=tmp_path), 0)
    # a text cell a spreadsheet would read as a formula is written with a ' in front
    assert "'=cmd|x" in (tmp_path / "mixed.items.csv").read_text()


def test_a_pipe_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    out = clean(rulebook("export", fifo, cwd=tmp_path), 2)
    assert "not a results file" in out
