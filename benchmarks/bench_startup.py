"""Start-up: `rulebook --help`, and a game's first decision from a cold and a warm cache.

    python benchmarks/bench_startup.py [RULESET] [--players 2] [--runs 7]

Each measurement is a new process, as a user's command is, run in turns
(help, cold, warm, help, cold, …) so a busy machine slows all of them alike.
"Cold" loads the ruleset afresh (RULEBOOK_NO_CACHE=1); "warm" finds it in a
private cache folder made for this run, filled by one load first. A first
decision is reached by importing Rulebook, loading the ruleset, setting up a
game of random agents and running it until someone is asked. The table gives
the median wall time and CPU time (user + system) of each, and how many
times faster the warm start is than the cold one. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

FIRST_DECISION = """
import sys
from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.play.session import build_game, run

class Asked(Exception):
    pass

class Stop(Agent):
    def decide(self, decision, view, game):
        raise Asked

rs = load_ruleset(sys.argv[1])
players = int(sys.argv[2])
game = build_game(rs, players, 1, ["random"] * players, live_agents=[Stop()] * players)
try:
    run(game)
except Asked:
    pass
"""


def timed(args: list[str], env: dict) -> tuple[float, float]:
    """Wall and CPU seconds of one run of a command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ruleset", nargs="?", default="terraforming_mars")
    ap.add_argument("--players", "-p", type=int, default=2)
    ap.add_argument("--runs", "-n", type=int, default=7)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="rulebook-bench-cache-")
    try:
        warm_env = {k: v for k, v in os.environ.items() if k != "RULEBOOK_NO_CACHE"}
        warm_env["RULEBOOK_CACHE_DIR"] = folder
        cold_env = dict(warm_env, RULEBOOK_NO_CACHE="1")
        game = [sys.executable, "-c", FIRST_DECISION, args.ruleset, str(args.players)]
        rulebook = shutil.which("rulebook", path=os.path.dirname(sys.executable)) or "rulebook"
        help_cmd = [rulebook, "--help"]
        timed(game, warm_env)  # fills the cache
        runs: dict[str, list[tuple[float, float]]] = {"help": [], "cold": [], "warm": []}
        for _ in range(args.runs):
            runs["help"].append(timed(help_cmd, warm_env))
            runs["cold"].append(timed(game, cold_env))
            runs["warm"].append(timed(game, warm_env))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for k, v in runs.items()}
    print(f"{args.ruleset}, {args.players} players, {args.runs} runs each (median)")
    print(f"  {'':34}{'wall s':>9}{'cpu s':>9}")
    for key, label in (("help", "rulebook --help"), ("cold", "first decision, cold (no cache)"),
                       ("warm", "first decision, warm cache")):
        print(f"  {label:34}{med[key][0]:9.3f}{med[key][1]:9.3f}")
    print(f"  warm start is {med['cold'][0] / med['warm'][0]:.1f}x faster than cold (wall), "
          f"{med['cold'][1] / med['warm'][1]:.1f}x (cpu)")


if __name__ == "__main__":
    main()
