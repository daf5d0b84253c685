"""Where simulated games run: Ray against local processes, and memory over many games.

``--ray`` plays the same seeds with ``--backend local --workers W`` and with
``--backend ray`` (a Ray started for the run, one worker per CPU), in the same
run, prints both wall times and their ratio, and checks that the two results
files are the same byte for byte. Ray's time includes starting Ray and each
worker's load of the ruleset, which is what a user waits for.

``--memory`` runs ``rulebook simulate`` in this process with ``--out`` and
prints the peak resident memory of this process (the one that gathers the
results, writes the file and counts the summary) and of the largest worker:
run it at 1,000 and at 10,000 games to see that neither grows with the
number of games.

``--startup`` runs ``rulebook simulate --workers W`` in this process and
reports, for each worker process, how long it took from its start to its
first game (wall clock) and the CPU it used before that, and the CPU of the
whole run (this process and its workers) per game. Run it twice in turns
to compare two trees.

    python benchmarks/bench_backends.py --ray --games 200
    python benchmarks/bench_backends.py --startup --games 8 --workers 2
    python benchmarks/bench_backends.py --memory --games 1000
    python benchmarks/bench_backends.py --memory --games 10000
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time


def simulate(args: list[str]) -> float:
    from rulebook_games.cli import main
    start = time.perf_counter()
    stdout = sys.stdout
    sys.stdout = open(os.devnull, "w")
    try:
        main(["simulate", *args])
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise
    finally:
        sys.stdout.close()
        sys.stdout = stdout
    return time.perf_counter() - start


def _resident_now() -> str:
    """This process's resident memory now, in MiB (Linux), or '?' elsewhere."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return f"{int(line.split()[1]) / 1024:.1f}"
    except OSError:
        pass
    return "?"


def _since_start() -> float:
    """Wall seconds since this process started (Linux), else -1."""
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            started = int(fh.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as fh:
            now = float(fh.read().split()[0])
    except (OSError, ValueError, IndexError):
        return -1.0
    return now - started / os.sysconf("SC_CLK_TCK")


_MARKS = ""  # where each worker notes its first game (set by startup)
_PLAYED = None  # the real play_one


def _timed_play(job):
    """Play one game; a worker's first notes how long it waited and the CPU it used."""
    mark = os.path.join(_MARKS, str(os.getpid()))
    if not os.path.exists(mark):
        with open(mark, "w") as fh:
            fh.write(f"{_since_start()} {time.process_time()}")
    return _PLAYED(job)


def startup(base: list[str], workers: int) -> None:
    """Each worker's wait and CPU before its first game, and the run's CPU per game."""
    global _MARKS, _PLAYED
    import rulebook_games.sim.simulate as sim
    _PLAYED = sim.play_one
    with tempfile.TemporaryDirectory() as tmp:
        _MARKS = tmp
        sim.play_one = _timed_play
        before = os.times()
        try:
            wall = simulate([*base, "--workers", str(workers), "--no-check"])
        finally:
            sim.play_one = _PLAYED
        after = os.times()
        cpu = sum(after[:4]) - sum(before[:4])
        firsts = []
        for name in os.listdir(tmp):
            with open(os.path.join(tmp, name)) as fh:
                firsts.append(tuple(map(float, fh.read().split())))
    games = int(base[base.index("-n") + 1])
    print(f"{workers} workers, {games} games of {base[0]}: {wall:.2f} s wall, "
          f"{cpu:.2f} CPU-s in all ({cpu / games:.3f} a game)")
    for waited, used in sorted(firsts):
        print(f"  a worker started playing {waited:.3f} s after it started, "
              f"having used {used:.3f} CPU-s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="legacy_gears_of_time")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--ray", action="store_true")
    what.add_argument("--memory", action="store_true")
    what.add_argument("--startup", action="store_true")
    opts = parser.parse_args()
    base = [opts.ruleset, "-n", str(opts.games), "-p", str(opts.players)]
    if opts.startup:
        startup(base, opts.workers)
        return
    with tempfile.TemporaryDirectory() as tmp:
        local_file, ray_file = os.path.join(tmp, "local.jsonl"), os.path.join(tmp, "ray.jsonl")
        local = simulate([*base, "--workers", str(opts.workers), "--out", local_file])
        if opts.memory:
            own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            now = _resident_now()
            print(f"{opts.games} games, {opts.workers} workers: {local:.1f} s; main process: "
                  f"{now} MiB resident at the end, peak {own:.1f} MiB; largest worker "
                  f"peak {workers:.1f} MiB")
            return
        on_ray = simulate([*base, "--backend", "ray", "--out", ray_file])
        with open(local_file, "rb") as a, open(ray_file, "rb") as b:
            same = a.read() == b.read()
    print(f"{opts.games} games of {opts.ruleset}, {opts.players} players:")
    print(f"  local, {opts.workers} workers: {local:6.1f} s")
    print(f"  ray (started for the run):  {on_ray:6.1f} s  ({on_ray / local:.2f}x local)")
    print(f"  results files identical: {same}")


if __name__ == "__main__":
    main()
