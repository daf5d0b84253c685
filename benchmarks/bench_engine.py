"""Engine speed: games and decisions per second, the cost of checks, and the hand-written yardstick.

    python benchmarks/bench_engine.py [RULESET] [--games 40] [--players 2,4] [--greedy 4]
    python benchmarks/bench_engine.py [RULESET | --all] --speed [--players 2] [--seconds 3]
    python benchmarks/bench_engine.py --baseline [--players 2] [--pairs 40] [--block 5]
    python benchmarks/bench_engine.py --all          # --speed for every ruleset, then --baseline
    python benchmarks/bench_engine.py [RULESET | --all] --against CHECKOUT [--players 2]
        [--pairs 40] [--agent random]

Sections (choose any; with none, the table, or with ``--all`` speed and baseline):

``--table`` (the default for one ruleset): per player count, random-agent games
without invariant checks (the speed of play, in games and decisions per
wall-clock second and per CPU-second), the same games with checks after
every action and at the end (what ``rulebook simulate`` does by default) and
before every decision (``--check-every-decision``), each as a ratio against
the first, replaying the records (which must reach the same final hashes),
peak memory, and a few games between greedy agents. ``--games`` games each.

``--speed``: random-agent games with no checks and no log (as ``rulebook
simulate`` plays them, checks off) for about ``--seconds`` CPU-seconds per
ruleset and player count: games and decisions per CPU-second
(``time.process_time``). ``--all`` runs every ruleset in ``rulesets/``.

``--baseline``: Legacy: Gears of Time played by the interpreter against the
same game written by hand (``handwritten_legacy.py``), from paired,
interleaved runs: for each seed one Rulebook game and one hand-written game,
which goes first alternating with the seed, each timed on its own with
``time.process_time``, so that whatever slows the machine down hits both
alike. It reports the interpreter / hand-written ratio of the total CPU time,
the median and range of the ratios of blocks of ``--block`` seeds, and a
bootstrap 95 % interval over the seeds, and checks that both sides played the
same games (the same decisions, scores and winners). Loading the ruleset is
left out of both; setting each game up is counted in both.

``--against CHECKOUT``: this checkout against another one (a worktree of an
older commit: ``git worktree add --detach ../old COMMIT``), imported beside
this one in the same process, from paired, interleaved games as for
``--baseline``: for each seed one game on each side, with ``--agent``
agents, no checks and no log. It reports each side's games per CPU-second,
the speed-up (their CPU time / ours) with a bootstrap 95 % interval over the
seeds, and how many seeds reached the same final hash on both sides.

Nothing here is asserted by the tests; figures go into benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
import tracemalloc

from rulebook_games import load_ruleset
from rulebook_games.agents import ScriptedAgent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game
from rulebook_games.play.session import build_game, run

HERE = os.path.dirname(os.path.abspath(__file__))
RULESETS = os.path.join(HERE, os.pardir, "rulesets")
BASELINE_RULESET = "legacy_gears_of_time"


def every_ruleset() -> list[str]:
    return sorted(name for name in os.listdir(RULESETS)
                  if os.path.isfile(os.path.join(RULESETS, name, "ruleset.yaml")))


# ------------------------------------------------------------------ the table
def bench(rs, players: int, games: int, check, agent: str = "random"):
    """Wall time, CPU time, decisions and records of games with seeds 1..games."""
    start, cpu = time.perf_counter(), time.process_time()
    decisions = 0
    records = []
    for seed in range(1, games + 1):
        game = build_game(rs, players, seed, [agent] * players)
        result = run(game, check=check)
        decisions += result.decisions
        records.append((seed, list(game.record), result.final_hash))
    return time.perf_counter() - start, time.process_time() - cpu, decisions, records


def replay_all(rs, players, records):
    start = time.perf_counter()
    for seed, decisions, final in records:
        game = Game(rs, players, seed, [ScriptedAgent(decisions)] * players)
        assert FlowRunner(game).play().final_hash == final
    return time.perf_counter() - start


def table(rs, counts, games: int, greedy_games: int) -> None:
    print(f"{rs.name}: {games} random-agent games and {greedy_games} greedy-agent games "
          "per player count")
    print(f"{'players':>7} {'games/s':>9} {'decisions/s':>12} {'dec/game':>9} "
          f"{'g/CPU-s':>8} {'dec/CPU-s':>10} "
          f"{'checked ×':>10} {'every dec ×':>12} {'replay ×':>9} {'peak MiB':>9} "
          f"{'greedy g/s':>11} {'greedy d/s':>11}")
    for players in counts:
        plain, plain_cpu, decisions, records = bench(rs, players, games, check=False)
        checked, _, _, _ = bench(rs, players, games, check="action")
        every, _, _, _ = bench(rs, players, games, check="decision")
        tracemalloc.start()  # slows Python down: measured on its own, on a few games
        bench(rs, players, 3, check=False)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        replayed = replay_all(rs, players, records)
        greedy = ""
        if greedy_games:
            took, _, g_decisions, _ = bench(rs, players, greedy_games, check=False,
                                            agent="greedy")
            greedy = f" {greedy_games / took:>11.2f} {g_decisions / took:>11.0f}"
        print(f"{players:>7} {games / plain:>9.1f} {decisions / plain:>12.0f} "
              f"{decisions / games:>9.0f} {games / plain_cpu:>8.1f} {decisions / plain_cpu:>10.0f} "
              f"{checked / plain:>10.2f} {every / plain:>12.2f} "
              f"{replayed / plain:>9.2f} {peak / 2**20:>9.1f}{greedy}")
    print("checked ×: time with invariant checks after each action / without; every dec ×: "
          "with checks before every decision / without; replay ×: replay time / play time")


# ------------------------------------------------------------------ speed
def rulebook_game(rs, players: int, seed: int):
    """One random-agent game as simulations play it (no log, no checks): (CPU s, result)."""
    start = time.process_time()
    game = build_game(rs, players, seed, ["random"] * players)
    game.keep_log = False
    result = run(game, check=False)
    return time.process_time() - start, result


def speed(names: list[str], counts_arg: str | None, seconds: float) -> None:
    print(f"random-agent games, no checks and no log, about {seconds:g} CPU-s per line")
    print(f"{'ruleset':<22} {'players':>7} {'games':>6} {'CPU s':>7} {'g/CPU-s':>8} "
          f"{'dec/CPU-s':>10} {'dec/game':>9}")
    for name in names:
        rs = load_ruleset(name)
        counts = [int(n) for n in counts_arg.split(",")] if counts_arg else [2]
        for players in counts:
            if not rs.min_players <= players <= rs.max_players:
                continue
            rulebook_game(rs, players, 0)  # warm up, not counted
            games = decisions = 0
            cpu = 0.0
            while cpu < seconds or games < 3:
                took, result = rulebook_game(rs, players, games + 1)
                cpu += took
                games += 1
                decisions += result.decisions
            print(f"{name:<22} {players:>7} {games:>6} {cpu:>7.2f} {games / cpu:>8.2f} "
                  f"{decisions / cpu:>10.0f} {decisions / games:>9.1f}")


# ------------------------------------------------------------------ against
def other_checkout(path: str, name: str = "rulebook_other"):
    """Another checkout of Rulebook (a worktree of an older commit), imported beside this
    one as the package ``name``: its (load_ruleset, build_game, run)."""
    import importlib
    import importlib.util
    folder = os.path.join(os.path.abspath(path), "interpreter")
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(folder, "__init__.py"), submodule_search_locations=[folder])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    if os.path.isdir(os.path.join(folder, "play")):
        session = importlib.import_module(name + ".play.session")
    else:  # before the package was split into rooms (e45260e and older)
        session = importlib.import_module(name + ".engine.session")
    return module.load_ruleset, session.build_game, session.run


def timed_game(build, play, rs, players: int, seed: int, agent: str):
    """One game as simulations play it (no log, no checks): (CPU s, result)."""
    start = time.process_time()
    game = build(rs, players, seed, [agent] * players)
    game.keep_log = False
    result = play(game, check=False)
    return time.process_time() - start, result


def against(path: str, names: list[str], counts_arg: str | None, pairs: int, agent: str
            ) -> None:
    """This checkout against another, from paired, interleaved games: for each seed one
    game on each side, which goes first alternating with the seed, each timed on its own
    (CPU time), so whatever slows the machine down hits both alike; both must reach the
    same final hash."""
    o_load, o_build, o_run = other_checkout(path)
    print(f"{agent}-agent games, this checkout against {path}, {pairs} paired seeds each, "
          "interleaved, CPU time (no checks, no log)")
    print(f"{'ruleset':<22} {'players':>7} {'this g/CPU-s':>12} {'that g/CPU-s':>12} "
          f"{'speed-up':>9} {'95 % interval':>14} {'same hashes':>12}")
    for name in names:
        # each side plays its own checkout's copy of the ruleset
        rs, o_rs = load_ruleset(name), o_load(os.path.join(os.path.abspath(path), "rulesets", name))
        counts = [int(n) for n in counts_arg.split(",")] if counts_arg else [2]
        for players in counts:
            if not rs.min_players <= players <= rs.max_players:
                continue
            timed_game(build_game, run, rs, players, 0, agent)  # warm up both, not counted
            timed_game(o_build, o_run, o_rs, players, 0, agent)
            rows = []  # (this CPU s, that CPU s, same final hash)
            for seed in range(1, pairs + 1):
                if seed % 2:
                    mine, r = timed_game(build_game, run, rs, players, seed, agent)
                    theirs, o = timed_game(o_build, o_run, o_rs, players, seed, agent)
                else:
                    theirs, o = timed_game(o_build, o_run, o_rs, players, seed, agent)
                    mine, r = timed_game(build_game, run, rs, players, seed, agent)
                rows.append((mine, theirs, r.final_hash == o.final_hash))
            boot = random.Random(12345)
            ratios = []
            for _ in range(2000):
                sample = [rows[boot.randrange(len(rows))] for _ in rows]
                ratios.append(sum(r[1] for r in sample) / sum(r[0] for r in sample))
            ratios.sort()
            low, high = ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]
            mine = sum(r[0] for r in rows)
            theirs = sum(r[1] for r in rows)
            print(f"{name:<22} {players:>7} {pairs / mine:>12.2f} {pairs / theirs:>12.2f} "
                  f"{theirs / mine:>8.2f}× {low:>6.2f}–{high:.2f}× "
                  f"{sum(r[2] for r in rows):>5} of {pairs}")


# ------------------------------------------------------------------ baseline
def baseline(counts_arg: str | None, pairs: int, block: int) -> None:
    sys.path.insert(0, HERE)
    from handwritten_legacy import Game as HandGame, RulesetData

    rs = load_ruleset(BASELINE_RULESET)
    data = RulesetData(os.path.join(RULESETS, BASELINE_RULESET))

    def hand_game(players, seed):
        start = time.process_time()
        result = HandGame(data, players, seed).play()
        return time.process_time() - start, result

    counts = [int(n) for n in counts_arg.split(",")] if counts_arg else [2]
    for players in counts:
        rulebook_game(rs, players, 0)  # warm up both, not counted
        hand_game(players, 0)
        rows = []  # (rulebook CPU s, hand-written CPU s, rulebook decisions, hand decisions, same)
        for seed in range(1, pairs + 1):
            if seed % 2:
                rb, r = rulebook_game(rs, players, seed)
                hw, h = hand_game(players, seed)
            else:
                hw, h = hand_game(players, seed)
                rb, r = rulebook_game(rs, players, seed)
            same = (r.scores == h["scores"] and r.winners == h["winners"]
                    and r.decisions == h["decisions"])
            rows.append((rb, hw, r.decisions, h["decisions"], same))
        rb_total = sum(row[0] for row in rows)
        hw_total = sum(row[1] for row in rows)
        rb_dec = sum(row[2] for row in rows)
        hw_dec = sum(row[3] for row in rows)
        blocks = [sum(r[0] for r in rows[i:i + block]) / sum(r[1] for r in rows[i:i + block])
                  for i in range(0, len(rows) - block + 1, block)]
        boot = random.Random(12345)
        ratios = []
        for _ in range(2000):
            sample = [rows[boot.randrange(len(rows))] for _ in rows]
            ratios.append(sum(r[0] for r in sample) / sum(r[1] for r in sample))
        ratios.sort()
        low, high = ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]
        print(f"Legacy: Gears of Time, {players} players, {pairs} paired random-agent games "
              f"(seeds 1-{pairs}), interleaved, CPU time per game")
        print(f"  {'':<13} {'games/CPU-s':>11} {'dec/CPU-s':>10} {'dec/game':>9}")
        print(f"  {'Rulebook':<13} {pairs / rb_total:>11.1f} {rb_dec / rb_total:>10.0f} "
              f"{rb_dec / pairs:>9.1f}")
        print(f"  {'hand-written':<13} {pairs / hw_total:>11.1f} {hw_dec / hw_total:>10.0f} "
              f"{hw_dec / pairs:>9.1f}")
        print(f"  the same game on both sides: {sum(r[4] for r in rows)} of {pairs} seeds "
              "(decisions, scores and winners)")
        line = f"  interpreter / hand-written: {rb_total / hw_total:.1f}× (total CPU time)"
        if blocks:
            line += (f"; median of {len(blocks)} blocks of {block} seeds "
                     f"{statistics.median(blocks):.1f}× (blocks {min(blocks):.1f}–"
                     f"{max(blocks):.1f}×)")
        print(line + f"; bootstrap 95 % interval {low:.1f}–{high:.1f}×")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", nargs="?", default=None,
                    help=f"a ruleset name or path (default: {BASELINE_RULESET})")
    ap.add_argument("--all", action="store_true", help="every ruleset in rulesets/")
    ap.add_argument("--table", action="store_true", help="the full table per player count")
    ap.add_argument("--speed", action="store_true", help="games and decisions per CPU-second")
    ap.add_argument("--baseline", action="store_true",
                    help="Legacy against the hand-written game, paired and interleaved")
    ap.add_argument("--games", type=int, default=40, help="games per player count (--table)")
    ap.add_argument("--players", help="player counts, e.g. 2,4 (default: all for --table, "
                                      "2 for --speed and --baseline)")
    ap.add_argument("--greedy", type=int, default=4, help="games between greedy agents (--table)")
    ap.add_argument("--seconds", type=float, default=3.0,
                    help="CPU-seconds per ruleset and player count (--speed)")
    ap.add_argument("--pairs", type=int, default=40, help="paired games (--baseline)")
    ap.add_argument("--block", type=int, default=5, help="seeds per block (--baseline)")
    ap.add_argument("--against", metavar="CHECKOUT",
                    help="this checkout against another (a worktree of an older commit), "
                         "paired and interleaved")
    ap.add_argument("--agent", default="random", help="the agents of --against's games")
    args = ap.parse_args()
    if min(args.games, args.pairs, args.block) < 1 or args.greedy < 0 or args.seconds < 0:
        ap.error("--games, --pairs and --block must be at least 1, --greedy and --seconds "
                 "at least 0")
    names = every_ruleset() if args.all else [args.ruleset or BASELINE_RULESET]
    if args.against:
        against(args.against, names, args.players, args.pairs, args.agent)
        return
    chosen = args.table or args.speed or args.baseline
    do_table = args.table or not chosen and not args.all
    do_speed = args.speed or not chosen and args.all
    do_baseline = args.baseline or not chosen and args.all
    if do_table:
        for name in names:
            rs = load_ruleset(name)
            counts = ([int(n) for n in args.players.split(",")] if args.players
                      else range(rs.min_players, rs.max_players + 1))
            table(rs, counts, args.games, args.greedy)
    if do_speed:
        speed(names, args.players, args.seconds)
    if do_baseline:
        baseline(args.players, args.pairs, args.block)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process peak RSS: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
