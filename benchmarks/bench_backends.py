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

    python benchmarks/bench_backends.py --ray --games 200
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="legacy_gears_of_time")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--ray", action="store_true")
    what.add_argument("--memory", action="store_true")
    opts = parser.parse_args()
    base = [opts.ruleset, "-n", str(opts.games), "-p", str(opts.players)]
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
