"""simulate --records DIR (issue 27): every simulated game kept as a record, named in its
results line, replayable, and listed by rulebook serve --records DIR with a link to its
replay. Expectations from the issue: "A results file from simulate --out links each game to
its replay when records were kept"; records are read only from --records DIR."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook_games.cli import main
from rulebook_games.play.record import Record


def run(capsys, *args):
    with pytest.raises(SystemExit) as info:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return info.value.code, " ".join(out.out.split()), " ".join(out.err.split())


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_each_line_names_its_games_record_and_the_record_replays_to_its_end(tmp_path,
                                                                           capsys):
    out, games = tmp_path / "r.jsonl", tmp_path / "games"
    code, text, err = run(capsys, "simulate", "lantern_row", "-n", 3, "--agents",
                          "greedy,random", "--seed", 5, "--out", out, "--records", games)
    assert code == 0, err
    assert f"3 game records kept in {games}" in text
    rows = lines(out)
    assert [r["seed"] for r in rows] == [5, 6, 7]
    for row in rows:
        path = games / row["record"]
        assert Path(row["record"]).name == row["record"]  # a name inside DIR, not a path
        rec = Record.load(path)
        assert (rec.ruleset, rec.seed, rec.players, rec.agents) == \
            ("lantern_row", row["seed"], 2, ["greedy", "random"])
        assert rec.final_hash == row["final_hash"] and rec.scores == row["scores"]
        assert len(rec.decisions) == row["decisions"]
        code, text, err = run(capsys, "replay", path)
        assert code == 0, err
        assert f"final state matches #{row['final_hash'][:12]}" in text
    assert sorted(p.name for p in games.iterdir()) == sorted(r["record"] for r in rows)


def test_without_records_the_lines_are_as_before(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    code, _, err = run(capsys, "simulate", "lantern_row", "-n", 2, "--out", out)
    assert code == 0, err
    assert all("record" not in row for row in lines(out))


def test_records_are_the_same_whatever_the_worker_count(tmp_path, capsys):
    for workers in (1, 2):
        code, _, err = run(capsys, "simulate", "lantern_row", "-n", 4, "--workers", workers,
                           "--out", tmp_path / f"r{workers}.jsonl",
                           "--records", tmp_path / f"g{workers}")
        assert code == 0, err
    one, two = lines(tmp_path / "r1.jsonl"), lines(tmp_path / "r2.jsonl")
    assert [r["record"] for r in one] == [r["record"] for r in two]
    for row in one:
        assert (tmp_path / "g1" / row["record"]).read_text() == \
            (tmp_path / "g2" / row["record"]).read_text()


def test_another_configuration_writes_other_names_and_resume_names_the_rest(tmp_path,
                                                                           capsys):
    out, games = tmp_path / "r.jsonl", tmp_path / "games"
    assert run(capsys, "simulate", "lantern_row", "-n", 2, "--out", out,
               "--records", games)[0] == 0
    code, _, err = run(capsys, "simulate", "lantern_row", "-n", 4, "--out", out,
                       "--records", games, "--resume", out)
    assert code == 0, err
    rows = lines(out)
    assert [r["seed"] for r in rows] == [1, 2, 3, 4]
    assert all((games / r["record"]).is_file() for r in rows)
    # greedy agents in the same folder: other games, other names, nothing overwritten
    assert run(capsys, "simulate", "lantern_row", "-n", 2, "--agents", "greedy",
               "--out", tmp_path / "g.jsonl", "--records", games)[0] == 0
    assert len(list(games.iterdir())) == 6


def test_a_file_that_is_not_that_games_record_is_never_replaced(tmp_path, capsys):
    out, games = tmp_path / "r.jsonl", tmp_path / "games"
    assert run(capsys, "simulate", "lantern_row", "-n", 1, "--out", out,
               "--records", games)[0] == 0
    name = lines(out)[0]["record"]
    (games / name).write_text("my notes\n", encoding="utf-8")
    code, text, err = run(capsys, "simulate", "lantern_row", "-n", 1, "--out",
                          tmp_path / "again.jsonl", "--records", games)
    assert code == 2 and "already exists and is not a record of the game of seed 1" in err
    assert (games / name).read_text() == "my notes\n"
    assert "Traceback" not in text + err
    # the same game's record is written again, the same
    (games / name).unlink()
    assert run(capsys, "simulate", "lantern_row", "-n", 1, "--out", tmp_path / "a.jsonl",
               "--records", games)[0] == 0
    before = (games / name).read_text()
    assert run(capsys, "simulate", "lantern_row", "-n", 1, "--out", tmp_path / "b.jsonl",
               "--records", games)[0] == 0
    assert (games / name).read_text() == before


def test_records_must_be_a_folder(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    code, _, err = run(capsys, "simulate", "lantern_row", "-n", 1, "--records",
                       tmp_path / "file")
    assert code == 2 and "is a file" in err and "--records" in err


def test_serve_lists_the_simulated_games_with_a_link_to_each_replay(tmp_path, capsys):
    pytest.importorskip("starlette")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from rulebook_games.web.app import Server, make_app
    from rulebook_games.web.lobby import Lobby
    out, games = tmp_path / "r.jsonl", tmp_path / "games"
    assert run(capsys, "simulate", "lantern_row", "-n", 3, "--out", out,
               "--records", games)[0] == 0
    rows = lines(out)
    server = Server(Lobby(None, (), games), games)
    with TestClient(make_app(server), base_url="http://127.0.0.1") as c:
        saved = c.get("/api/lobby").json()["saved"]
        by_file = {s["file"]: s for s in saved}
        assert set(by_file) == {r["record"] for r in rows}
        for row in rows:
            s = by_file[row["record"]]
            assert s["over"] and s["seed"] == row["seed"] and s["name"] == "Lantern Row"
            # the replay page's link (its page is the replay's: /replay?record=NAME)
            assert s["replay"] == f"/replay?record={row['record']}"
        server.close_all()


def test_the_command_that_carries_a_stopped_run_on_keeps_its_records():
    from rulebook_games.sim.run import Run
    run = Run("lantern_row", 10, 2, "random", [], [], 1, 1, None, "local", None, "r.jsonl",
              None, records="my games")
    assert run.again().endswith("--records 'my games' --resume r.jsonl")
