"""Agents' speed against another checkout: greedy games and ismcts iterations per CPU-second.

    python benchmarks/bench_agent_speed.py --against ../main-old RULESET PLAYERS AGENTS GAMES
    python benchmarks/bench_agent_speed.py --against ../wt-base terraforming_mars 2 greedy 12
    python benchmarks/bench_agent_speed.py --against ../wt-base legacy_gears_of_time 3 \\
        ismcts:iterations=50,greedy 6
    python benchmarks/bench_agent_speed.py --against ../old terraforming_mars 2 \\
        greedy:eval=written 8 --that greedy

Two worker processes, one running this tree's Rulebook and one the tree given
with ``--against`` (a git worktree of another commit), each load the ruleset
once and then play the same seeds in turns: for each seed one game in each,
which goes first alternating with the seed, so whatever slows the machine
down hits both alike. AGENTS are by seat, repeated over the seats, and
rotated by one for even seeds. Each game is timed in CPU-seconds
(``time.process_time``); the report gives games per CPU-second on each side,
the ratio with a bootstrap 95 % interval over the seeds, whether both sides
reached the same final hashes, and, for ismcts seats, iterations per
CPU-second of their action decisions. ``--that AGENTS`` gives the other tree's
agents when their specs differ (an older tree without an option this one has,
such as ``eval=written``: the agents should still play alike). Nothing is
asserted.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# the worker: Rulebook imported from the tree it is given, one game per seed read
WORKER = r'''
import importlib.util, json, sys, time
root, name, players, kinds = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].split(",")
spec = importlib.util.spec_from_file_location("rulebook_games", root + "/interpreter/__init__.py",
                                              submodule_search_locations=[root + "/interpreter"])
module = importlib.util.module_from_spec(spec)
sys.modules["rulebook_games"] = module
spec.loader.exec_module(module)
import os
if os.path.isdir(root + "/interpreter/load"):
    from rulebook_games.load.ruleset import load_ruleset
    from rulebook_games.play.session import build_game, run
    from rulebook_games.agents.ismcts import ISMCTSAgent
else:  # a tree from before the package was split into rooms
    from rulebook_games.ruleset import load_ruleset
    from rulebook_games.engine.session import build_game, run
    from rulebook_games.engine.ismcts import ISMCTSAgent
rs = load_ruleset(root + "/rulesets/" + name)
print("ready", flush=True)
for line in sys.stdin:
    seed = int(line)
    seats = (kinds * players)[:players]
    if seed % 2 == 0:
        seats = seats[1:] + seats[:1]
    game = build_game(rs, players, seed, seats)
    game.keep_log = False
    clock = [0.0, 0]
    for agent in game.agents:
        if isinstance(agent, ISMCTSAgent):
            def decide(decision, view, g, inner=agent.decide, agent=agent):
                if decision.kind != "action":
                    return inner(decision, view, g)
                start = time.process_time()
                answer = inner(decision, view, g)
                clock[0] += time.process_time() - start
                clock[1] += agent.last_iterations
                return answer
            agent.decide = decide
    start = time.process_time()
    result = run(game)
    print(json.dumps({"cpu": time.process_time() - start, "hash": result.final_hash,
                      "clock": clock}), flush=True)
'''


def main() -> None:
    args = sys.argv[1:]
    that = None
    if len(args) == 8 and args[6] == "--that":
        that, args = args[7], args[:6]
    if len(args) != 6 or args[0] != "--against":
        sys.exit(__doc__.split("\n\n")[1])
    _, other, ruleset, players, kinds, games = args
    trees = {"before": os.path.abspath(other), "now": os.path.dirname(HERE)}
    specs = {"before": that or kinds, "now": kinds}
    workers = {side: subprocess.Popen([sys.executable, "-c", WORKER, root, ruleset, players,
                                       specs[side]], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
               for side, root in trees.items()}
    for w in workers.values():
        if w.stdout.readline().strip() != "ready":
            sys.exit("a worker did not start")
    out: dict[str, list] = {"before": [], "now": []}
    for seed in range(1, int(games) + 1):
        for side in (("before", "now") if seed % 2 else ("now", "before")):
            workers[side].stdin.write(f"{seed}\n")
            workers[side].stdin.flush()
            out[side].append(json.loads(workers[side].stdout.readline()))
    for w in workers.values():
        w.stdin.close()
        w.wait()
    n = len(out["now"])
    pairs = list(zip(out["before"], out["now"]))
    same = sum(a["hash"] == b["hash"] for a, b in pairs)
    cpu = {side: sum(r["cpu"] for r in rows) for side, rows in out.items()}
    rng = random.Random(0)
    boots = sorted(sum(a["cpu"] for a, _ in s) / sum(b["cpu"] for _, b in s)
                   for s in ([rng.choice(pairs) for _ in pairs] for _ in range(2000)))
    print(f"{ruleset}, {players} players, {kinds}, {n} seeds: same final hashes {same}/{n}; "
          f"games/CPU-s {n / cpu['before']:.3f} -> {n / cpu['now']:.3f}: "
          f"x{cpu['before'] / cpu['now']:.2f} (95 % {boots[50]:.2f}-{boots[1949]:.2f})")
    rates = []
    for side in ("before", "now"):
        seconds = sum(r["clock"][0] for r in out[side])
        rates.append(sum(r["clock"][1] for r in out[side]) / seconds if seconds else 0.0)
    if rates[0]:
        print(f"  ismcts iterations/CPU-s {rates[0]:.1f} -> {rates[1]:.1f}: "
              f"x{rates[1] / rates[0]:.2f}")


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"  ({time.perf_counter() - start:.0f} s)")
