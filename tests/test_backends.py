"""Where simulated games are played: local processes and Ray give the same file, byte for byte.

One real Ray instance (two CPUs) is started for this module and shut down at
its end. The other tests cover what every backend shares: results in seed
order with a bounded window of work in flight, ``--resume`` of a file cut off
in the middle (the same file as one uninterrupted run), a resume with another
configuration refused with what differs, Ctrl-C on a running ``simulate``
(only whole lines kept, and the command that carries on), and the summary
tables counted one game at a time.
"""

from __future__ import annotations

import io
import itertools
import os
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from rulebook_games.cli import main
from rulebook_games.sim import backends, batches
from rulebook_games.sim.simulate import GameSummary
from rulebook_games.sim.stats import Tally, summary_tables

ROOT = Path(__file__).resolve().parents[1]
GAME = "legacy_gears_of_time"


def run(capsys, *args):
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out = capsys.readouterr()
    return info.value.code, out.out, out.err


def simulate_file(capsys, path, *extra, games=8):
    code, out, err = run(capsys, "simulate", GAME, "-n", str(games), "-p", "2", "--seed", "3",
                         "--out", str(path), *extra)
    assert code == 0, out + err
    return path.read_bytes()


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray")
    import logging
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR)
    yield ray
    ray.shutdown()


def test_ray_and_local_write_the_same_file(capsys, tmp_path, ray_instance):
    one = simulate_file(capsys, tmp_path / "one.jsonl", "--workers", "1")
    two = simulate_file(capsys, tmp_path / "two.jsonl", "--workers", "2")
    on_ray = simulate_file(capsys, tmp_path / "ray.jsonl", "--backend", "ray")
    assert one.count(b"\n") == 8
    assert [json.loads(line)["seed"] for line in one.splitlines()] == list(range(3, 11))
    assert two == one
    assert on_ray == one
    assert ray_instance.is_initialized()  # a Ray the run did not start is left running


@pytest.mark.slow
def test_ray_with_a_mod_ships_the_mod_text(capsys, tmp_path, ray_instance):
    mod = ROOT / "rulesets" / GAME / "mods" / "bigger_hands.yaml"
    local = simulate_file(capsys, tmp_path / "local.jsonl", "--mod", str(mod), games=4)
    on_ray = simulate_file(capsys, tmp_path / "ray.jsonl", "--mod", str(mod), "--backend",
                           "ray", games=4)
    plain = simulate_file(capsys, tmp_path / "plain.jsonl", games=4)
    assert on_ray == local and local != plain


def test_resume_of_a_cut_file_gives_the_uninterrupted_file(capsys, tmp_path):
    whole = simulate_file(capsys, tmp_path / "whole.jsonl", "--workers", "2")
    lines = whole.splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:3]) + lines[3][:40])  # an interrupted write
    code, out, err = run(capsys, "simulate", GAME, "-n", "8", "-p", "2", "--seed", "3",
                         "--resume", str(cut), "--workers", "2")
    assert code == 0, out + err
    assert cut.read_bytes() == whole
    assert "last line was cut off" in out and "3 of the 8 games are done" in out
    assert "8 games (3 from before, 5 now" in out  # the summary covers the whole file


def test_resume_of_a_whole_file_plays_nothing_and_summarises_it(capsys, tmp_path):
    whole = simulate_file(capsys, tmp_path / "whole.jsonl")
    code, out, _ = run(capsys, "simulate", GAME, "-n", "8", "-p", "2", "--seed", "3",
                       "--resume", str(tmp_path / "whole.jsonl"))
    assert code == 0 and (tmp_path / "whole.jsonl").read_bytes() == whole
    assert "8 games (8 from before, 0 now" in out


@pytest.mark.parametrize("change, says", [
    (["-p", "3"], "made for 2 players; this run is for 3"),
    (["-p", "2", "--agents", "greedy"],
     "made with the agents random, random; this run has greedy, greedy"),
    (["-p", "2", "--mod", str(ROOT / "rulesets" / GAME / "mods" / "three_rounds.yaml")],
     "rule files (with their mods) have changed"),
])
def test_resume_with_another_configuration_is_refused(capsys, tmp_path, change, says):
    made = simulate_file(capsys, tmp_path / "r.jsonl", games=2)
    code, out, err = run(capsys, "simulate", GAME, "-n", "4", "--seed", "3", *change,
                         "--resume", str(tmp_path / "r.jsonl"))
    assert code == 2
    assert "r.jsonl:1: this run cannot carry the file on: " in err and says in err, err
    assert (tmp_path / "r.jsonl").read_bytes() == made  # untouched


def test_resume_names_a_line_that_is_not_a_result(capsys, tmp_path):
    path = tmp_path / "r.jsonl"
    simulate_file(capsys, path, games=2)
    path.write_bytes(path.read_bytes() + b"{not json\n")
    code, _, err = run(capsys, "simulate", GAME, "-n", "4", "-p", "2", "--seed", "3",
                       "--resume", str(path))
    assert code == 2 and "r.jsonl:3: line 3 is not a results line" in err


def test_resume_and_a_different_out_are_refused(capsys, tmp_path):
    path = tmp_path / "r.jsonl"
    simulate_file(capsys, path, games=2)
    code, _, err = run(capsys, "simulate", GAME, "-n", "4", "-p", "2", "--resume", str(path),
                       "--out", str(tmp_path / "other.jsonl"))
    assert code == 2 and "--resume appends to the file it names" in err


def test_ray_missing_is_one_line_naming_the_extra(capsys, monkeypatch):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "ray" else real(name, *a))
    code, out, err = run(capsys, "simulate", GAME, "-n", "2", "--backend", "ray")
    assert code == 2
    assert err.strip() == "Error: Ray is not installed: pip install 'rulebook-games[ray]'"


def test_address_without_ray_is_refused(capsys):
    code, _, err = run(capsys, "simulate", GAME, "-n", "2", "--address", "auto")
    assert code == 2 and "--address is for --backend ray" in err


def _default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_keeps_whole_lines_and_says_how_to_carry_on(tmp_path):
    out = tmp_path / "r.jsonl"
    cmd = [sys.executable, "-m", "rulebook_games", "simulate", GAME, "-n", "300", "-p", "2",
           "--workers", "2", "--out", str(out)]
    # a shell running CI in the background starts its children with SIGINT ignored, and
    # such a Python never turns Ctrl-C into KeyboardInterrupt: give it a terminal's default
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=_default_sigint)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 3:
            break
        time.sleep(0.1)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stdout + stderr
    assert "Traceback" not in stdout + stderr
    data = out.read_bytes()
    kept = data.splitlines()
    assert data.endswith(b"\n") and 3 <= len(kept) < 300
    assert [json.loads(line)["seed"] for line in kept] == list(range(1, len(kept) + 1))
    assert f"stopped by Ctrl-C after {len(kept)} of 300 games" in stderr
    assert f"--resume {out}" in stderr  # the command that carries on
    assert f"{len(kept)} games in" in stdout  # the summary of the finished games


def test_compare_resume_carries_on_both_files(capsys, tmp_path):
    pytest.importorskip("scipy")
    base, mod = tmp_path / "base.jsonl", tmp_path / "mod.jsonl"
    args = ["compare", GAME, "--mod", "three_rounds", "-n", "4", "-p", "2", "--seed", "3",
            "--out-base", str(base), "--out-mod", str(mod)]
    code, out, err = run(capsys, *args)
    assert code == 0, out + err
    whole_base, whole_mod = base.read_bytes(), mod.read_bytes()
    lines = whole_mod.splitlines(keepends=True)
    mod.write_bytes(lines[0] + lines[1][:40])  # cut in the middle of its second line
    code, out, err = run(capsys, *args, "--resume", "--workers", "2")
    assert code == 0, out + err
    assert (base.read_bytes(), mod.read_bytes()) == (whole_base, whole_mod)
    code, _, err = run(capsys, *args[:-4], "--resume")
    assert code == 2 and "--resume carries on the --out-base and --out-mod files" in err


def test_a_worker_plays_from_the_shipped_text_alone(tmp_path):
    import dataclasses
    import shutil

    from rulebook_games.sim import simulate as sim
    from rulebook_games.sim.ray_backend import RuleWorker, rule_files
    rules = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "fixtures" / "tiny", rules)
    jobs = [(seed, 2, ["random", "greedy"], [], "action") for seed in (1, 2, 3)]
    here = [dataclasses.asdict(s) for s in
            sim.simulate(str(rules), [], 3, 2, ["random", "greedy"], [], 1)]
    bundle = rule_files(str(rules), [])
    shutil.rmtree(rules)  # a machine of the cluster does not have the files
    worker = RuleWorker(bundle, sim._init, sim.play_one)
    assert worker.problem() is None
    assert worker.play_chunk(jobs) == here
    other = RuleWorker({**bundle, "version": "0.0.0"}, sim._init, sim.play_one)
    assert "install the same version on every machine" in other.problem()


# --------------------------------------------------------------- shared machinery
def test_ordered_puts_chunks_back_in_order_whatever_order_they_finish():
    sent = []
    finish_order = iter([2, 0, 1, 4, 3, 5])

    def submit(index, chunk):
        sent.append((index, chunk))

    def next_done():
        index = next(finish_order)
        return index, [x * 10 for x in dict(sent)[index]]
    ticks = []
    got = list(batches.ordered(batches.chunked(range(12), 2), submit, next_done, 3,
                               lambda: ticks.append(1)))
    assert got == [x * 10 for x in range(12)] and len(ticks) == 12


def _twice(job):
    return job * 2


def _no_init(path, mods):
    pass


def test_local_processes_read_only_a_window_of_jobs_ahead():
    taken = itertools.count()
    jobs = (next(taken) for _ in range(100_000))
    stream = backends.run("", [], jobs, 100_000, 2, _no_init, _twice, None)
    first = [next(stream) for _ in range(5)]
    stream.close()
    assert first == [0, 2, 4, 6, 8]
    size = batches.chunk_size(100_000, 2)
    assert next(taken) <= 4 * 2 * size + size  # only the window was sent out


# ------------------------------------------------------------------- the tally
def _game(seed, scores, winners, agents=("random", "greedy"), error=None, ranks=None):
    return GameSummary(seed, list(agents), scores, winners, rounds=seed, decisions=10 * seed,
                       error=error, ranks=ranks or [])


def _text(tables):
    console = Console(file=io.StringIO(), width=150)
    for table in tables:
        console.print(table)
    return console.file.getvalue()


def test_tally_tables_from_the_definitions():
    games = [_game(1, [3, 5], [1]), _game(2, [4, 4], [0, 1], ranks=["Sage", None]),
             _game(3, [7, 2], [0]), _game(4, [], [], error="a rule failed")]
    text = _text(summary_tables(games, 2, 2.0))
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
            for line in text.splitlines() if line.startswith("│")}
    # games, errors, unfinished, rounds mean (1+2+3)/3, decisions mean (10+20+30)/3,
    # decisions per second (100 / 2.0)
    assert rows["4"] == ["1", "0", "2.0", "20", "50"]
    # seat 1: wins 1/2 + 1, rate 1.5/3, scores 3 4 7
    assert rows["1"] == ["random", "1.5", "50.0%", "4.7", "3", "7"]
    assert rows["2"] == ["greedy", "1.5", "50.0%", "3.7", "2", "5"]
    assert rows["Sage"] == ["1"]
    assert "4 games in 2.0s (2.0 games/s)" in text


def test_tally_of_file_lines_is_the_tally_of_the_games():
    games = [_game(1, [3, 5], [1]), _game(2, [4, 4], [0, 1]), _game(3, [7, 2], [0])]
    from_lines = Tally(2)
    for g in games:
        from_lines.add(json.loads(json.dumps(g.to_dict())))  # winners numbered from 1
    assert _text(from_lines.tables(1.0)) == _text(summary_tables(games, 2, 1.0))
    older = Tally(2)
    older.add(games[0].to_dict(), fresh=False)
    for g in games[1:]:
        older.add(g)
    text = _text(older.tables(1.0))
    assert "3 games (1 from before, 2 now in 1.0s, 2.0 games/s)" in text


def _load_noted(marks):
    """load_ruleset, noting in ``marks`` (a folder) the process each load ran in."""
    from rulebook_games import load_ruleset

    def load(path, mods=()):
        (marks / str(__import__("os").getpid())).touch()
        return load_ruleset(path, mods)
    return load


def test_local_workers_share_one_load_and_play_the_same_games(tmp_path, monkeypatch):
    """Workers are forked from the process that loaded the ruleset (Linux): only that
    process loads it, and a ruleset handed over by the caller is not loaded again; the
    games are those of one process, whatever the worker count."""
    import dataclasses
    import os

    from rulebook_games import load_ruleset
    from rulebook_games.sim import simulate as sim
    if backends.forking() is None or (os.cpu_count() or 1) < 2:
        pytest.skip("workers are forked from a loaded process only on Linux, with 2 CPUs")
    path = str(ROOT / "rulesets" / GAME)
    marks = tmp_path / "loads"
    marks.mkdir()
    monkeypatch.setattr(sim, "load_ruleset", _load_noted(marks))
    agents = ["greedy", "random"]
    one = [dataclasses.asdict(s) for s in sim.simulate(path, [], 6, 2, agents, [], 5)]
    assert [m.name for m in marks.iterdir()] == [str(os.getpid())]
    (marks / str(os.getpid())).unlink()
    two = [dataclasses.asdict(s) for s in sim.simulate(path, [], 6, 2, agents, [], 5, 2)]
    assert [m.name for m in marks.iterdir()] == [str(os.getpid())]  # no worker loaded it
    (marks / str(os.getpid())).unlink()
    handed = [dataclasses.asdict(s) for s in sim.simulate(
        path, [], 6, 2, agents, [], 5, 2, loaded=load_ruleset(path))]
    assert list(marks.iterdir()) == []  # nobody loaded it again
    assert two == one and handed == one


def test_a_forked_worker_compiles_nothing(tmp_path, monkeypatch):
    """The rules are compiled whole in the process that loaded them, before the workers
    are forked: a worker writes no rule's Python of its own (it starts playing at once)."""
    import os

    from rulebook_games.lang import compiler
    if backends.forking() is None or (os.cpu_count() or 1) < 2:
        pytest.skip("workers are forked from a loaded process only on Linux, with 2 CPUs")
    from rulebook_games.sim import simulate as sim
    marks = tmp_path / "compiled"
    marks.mkdir()
    generate = compiler._Unit.generate

    def noted(unit, p):
        if p.real is None:
            (marks / str(os.getpid())).touch()
        return generate(unit, p)
    monkeypatch.setattr(compiler._Unit, "generate", noted)
    list(sim.simulate(str(ROOT / "rulesets" / GAME), [], 4, 2, ["greedy", "random"], [], 1, 2))
    assert [m.name for m in marks.iterdir()] == [str(os.getpid())]


def test_a_stopped_pool_leaves_the_exit_handler_no_pipe_to_write_to():
    # Python before 3.12 writes at exit to the wake-up pipe of every pool it still knows;
    # a pool ended early must not be among them, or Ctrl-C ends with a traceback
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures import process as futures_process

    # a worker forked with SIGTERM ignored (a handler of the program that runs the pool,
    # as a test runner's or an application's can be) is ended all the same
    before = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        pool = ProcessPoolExecutor(1)
        pool.submit(time.sleep, 30)
    finally:
        signal.signal(signal.SIGTERM, before)
    thread = pool._executor_manager_thread
    assert thread is not None
    started = time.monotonic()
    backends._stop(pool)
    assert time.monotonic() - started < 20  # the sleeping worker was ended, not awaited
    thread.join(timeout=10)  # Python 3.14's own stop may still be closing it
    assert not thread.is_alive()
    assert thread not in getattr(futures_process, "_threads_wakeups", {})
