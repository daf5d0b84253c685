"""Engine speed: random-agent games/s and decisions/s per player count, and peak memory.

    python benchmarks/bench_engine.py [RULESET] [--games 40] [--players 2,4] [--greedy 4]

Each figure comes from the same run: games without invariant checks (the
speed of play), the same games with checks after every action and at the
end (what `rulebook simulate` does by default) and before every decision
(`--check-every-decision`), each as a ratio against the first, and
replaying the records (which must reach the same final hashes). A few games
between greedy agents give their speed too (each greedy decision plays the
action's options out on copies of the game).
"""

from __future__ import annotations

import argparse
import resource
import time
import tracemalloc

from interpreter import load_ruleset
from interpreter.engine.agents import ScriptedAgent
from interpreter.engine.flow import FlowRunner
from interpreter.engine.game import Game
from interpreter.engine.session import build_game, run


def bench(rs, players: int, games: int, check: bool, agent: str = "random"):
    start = time.perf_counter()
    decisions = 0
    records = []
    for seed in range(1, games + 1):
        game = build_game(rs, players, seed, [agent] * players)
        result = run(game, check=check)
        decisions += result.decisions
        records.append((seed, list(game.record), result.final_hash))
    return time.perf_counter() - start, decisions, records


def replay_all(rs, players, records):
    start = time.perf_counter()
    for seed, decisions, final in records:
        game = Game(rs, players, seed, [ScriptedAgent(decisions)] * players)
        assert FlowRunner(game).play().final_hash == final
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ruleset", nargs="?", default="legacy_gears_of_time")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", help="player counts, e.g. 2,4 (default: all)")
    ap.add_argument("--greedy", type=int, default=4, help="games between greedy agents")
    args = ap.parse_args()
    rs = load_ruleset(args.ruleset)
    counts = ([int(n) for n in args.players.split(",")] if args.players
              else range(rs.min_players, rs.max_players + 1))
    print(f"{rs.name}: {args.games} random-agent games and {args.greedy} greedy-agent games "
          "per player count")
    print(f"{'players':>7} {'games/s':>9} {'decisions/s':>12} {'dec/game':>9} "
          f"{'checked ×':>10} {'every dec ×':>12} {'replay ×':>9} {'peak MiB':>9} {'greedy g/s':>11} "
          f"{'greedy d/s':>11}")
    for players in counts:
        plain, decisions, records = bench(rs, players, args.games, check=False)
        checked, _, _ = bench(rs, players, args.games, check="action")
        every, _, _ = bench(rs, players, args.games, check="decision")
        tracemalloc.start()  # slows Python down: measured on its own, on a few games
        bench(rs, players, 3, check=False)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        replayed = replay_all(rs, players, records)
        greedy = ""
        if args.greedy:
            took, g_decisions, _ = bench(rs, players, args.greedy, check=False, agent="greedy")
            greedy = f" {args.greedy / took:>11.2f} {g_decisions / took:>11.0f}"
        print(f"{players:>7} {args.games / plain:>9.1f} {decisions / plain:>12.0f} "
              f"{decisions / args.games:>9.0f} {checked / plain:>10.2f} {every / plain:>12.2f} "
              f"{replayed / plain:>9.2f} {peak / 2**20:>9.1f}{greedy}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process peak RSS: {rss:.0f} MiB")
    print("checked ×: time with invariant checks after each action / without; every dec ×: "
          "with checks before every decision / without; replay ×: replay time / play time")


if __name__ == "__main__":
    main()
