"""Start-up: `rulebook --help`, a game's first decision from a cold and a warm cache, and
`rulebook play` at a terminal until it asks its person.

    python benchmarks/bench_startup.py [RULESET] [--players 2] [--runs 7] [--against CHECKOUT]

Each measurement is a new process, as a user's command is, run in turns
(help, cold, warm, help, cold, …) so a busy machine slows all of them alike.
"Cold" loads the ruleset afresh (RULEBOOK_NO_CACHE=1); "warm" finds it in a
private cache folder made for this run, filled by one load first. A first
decision is reached by importing Rulebook, loading the ruleset, setting up a
game of random agents and running it until someone is asked. The table gives
the median wall time and CPU time (user + system) of each, and how many
times faster the warm start is than the cold one. "play" is the command a
person types, `rulebook play RULESET -p N --seed 2`, on a terminal of 80 × 24
(a pseudo-terminal), with its own default opponents, timed until its first
prompt is on the screen; the process is then killed (nothing is saved) and
its CPU time read. The seed is one where the person is asked before any agent
thinks (an agent's search is not start-up). PYTHONDONTWRITEBYTECODE is
dropped from the commands' environment (``--no-bytecode`` keeps it): an
installed package's modules are compiled once, not at every start. With
``--against`` the same commands of another checkout (its ``.venv``, installed
there, and its own copy of the ruleset) are run in the same turns, and each
line gets its ratio. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

FIRST_DECISION = """
import sys
try:
    from rulebook_games import load_ruleset
    from rulebook_games.agents import Agent
    from rulebook_games.play.session import build_game, run
except ImportError:  # a checkout from before the package was renamed and split (--against)
    from interpreter import load_ruleset
    from interpreter.engine.agent_base import Agent
    from interpreter.engine.session import build_game, run

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
    # run from a neutral folder: a checkout's own folder would shadow an older install's package
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# the end of the screen when `rulebook play` waits for its person: "> ", then perhaps
# the line editor's escape sequences
PROMPT = re.compile(rb"\n> (?:\x1b\[[0-9;?]*[A-Za-z])*$")


def until_prompt(args: list[str], env: dict) -> tuple[float, float]:
    """Wall and CPU seconds of `rulebook play` at a terminal until it asks its person."""
    import fcntl
    import pty
    import select
    import signal
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    start = time.perf_counter()
    proc = subprocess.Popen(args, env=dict(env, TERM="xterm"), stdin=slave, stdout=slave,
                            stderr=slave, cwd=tempfile.gettempdir(), start_new_session=True)
    os.close(slave)
    seen = b""
    try:
        while not PROMPT.search(seen[-300:]):
            ready, _, _ = select.select([master], [], [], 120)
            if not ready:
                raise SystemExit(f"{' '.join(args)}: no prompt within 120 s")
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the command ended
                chunk = b""
            if not chunk:
                raise SystemExit(f"{' '.join(args)} ended before it asked anything:\n"
                                 + seen[-2000:].decode(errors="replace"))
            seen += chunk
        wall = time.perf_counter() - start
    finally:
        os.kill(proc.pid, signal.SIGKILL)  # (a polite signal would save the game)
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = -signal.SIGKILL
        os.close(master)
    return wall, usage.ru_utime + usage.ru_stime


def commands(python: str, ruleset: str, players: int,
             seed: int) -> tuple[list[str], list[str], list[str]]:
    """The first-decision command, `rulebook --help` and `rulebook play` of the install
    beside ``python``."""
    rulebook = shutil.which("rulebook", path=os.path.dirname(python)) or "rulebook"
    return ([python, "-c", FIRST_DECISION, ruleset, str(players)], [rulebook, "--help"],
            [rulebook, "play", ruleset, "-p", str(players), "--seed", str(seed)])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ruleset", nargs="?", default="terraforming_mars")
    ap.add_argument("--players", "-p", type=int, default=2)
    ap.add_argument("--runs", "-n", type=int, default=7)
    ap.add_argument("--against", metavar="CHECKOUT",
                    help="another checkout with its own .venv (an older commit's worktree)")
    ap.add_argument("--seed", type=int, default=2,
                    help="the seed of `rulebook play` (2: in TM and Legacy with 2 players the "
                         "person is asked before any agent thinks)")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="keep PYTHONDONTWRITEBYTECODE from the environment (by default it is "
                         "dropped: an installed package has its modules compiled, and "
                         "compiling them again at every start is not start-up)")
    ap.add_argument("--no-play", action="store_true",
                    help="leave out `rulebook play` at a terminal")
    args = ap.parse_args()
    mine = args.ruleset if not os.path.isdir(args.ruleset) else os.path.abspath(args.ruleset)
    if os.path.isdir(os.path.join("rulesets", args.ruleset)):
        mine = os.path.abspath(os.path.join("rulesets", args.ruleset))
    sides = {"this": commands(sys.executable, mine, args.players, args.seed)}
    if args.against:
        other = os.path.abspath(args.against)
        sides["that"] = commands(os.path.join(other, ".venv", "bin", "python"),
                                 os.path.join(other, "rulesets", args.ruleset), args.players,
                                 args.seed)
    folder = tempfile.mkdtemp(prefix="rulebook-bench-cache-")
    runs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    try:
        envs = {}
        for side in sides:
            cache = os.path.join(folder, side)
            dropped = ("RULEBOOK_NO_CACHE",) + (() if args.no_bytecode
                                                else ("PYTHONDONTWRITEBYTECODE",))
            warm = {k: v for k, v in os.environ.items() if k not in dropped}
            warm["RULEBOOK_CACHE_DIR"] = cache
            envs[side] = (dict(warm, RULEBOOK_NO_CACHE="1"), warm)
            timed(sides[side][0], warm)  # fills the cache (and writes the modules' bytecode)
            if not args.no_play:
                until_prompt(sides[side][2], warm)
        for _ in range(args.runs):
            for side, (game, help_cmd, play_cmd) in sides.items():
                cold_env, warm_env = envs[side]
                runs.setdefault((side, "help"), []).append(timed(help_cmd, warm_env))
                runs.setdefault((side, "cold"), []).append(timed(game, cold_env))
                runs.setdefault((side, "warm"), []).append(timed(game, warm_env))
                if not args.no_play:
                    runs.setdefault((side, "play"), []).append(until_prompt(play_cmd, warm_env))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for k, v in runs.items()}
    print(f"{args.ruleset}, {args.players} players, {args.runs} runs each (median)")
    head = f"  {'':34}{'wall s':>9}{'cpu s':>9}"
    if args.against:
        head += f"{'that wall':>11}{'that cpu':>10}{'that/this cpu':>15}"
    print(head)
    for key, label in (("help", "rulebook --help"), ("cold", "first decision, cold (no cache)"),
                       ("warm", "first decision, warm cache"),
                       ("play", "rulebook play to its prompt, warm")):
        if ("this", key) not in med:
            continue
        wall, cpu = med[("this", key)]
        line = f"  {label:34}{wall:9.3f}{cpu:9.3f}"
        if args.against:
            o_wall, o_cpu = med[("that", key)]
            line += f"{o_wall:11.3f}{o_cpu:10.3f}{o_cpu / cpu:14.2f}×"
        print(line)
    cold, warm = med[("this", "cold")], med[("this", "warm")]
    print(f"  warm start is {cold[0] / warm[0]:.1f}x faster than cold (wall), "
          f"{cold[1] / warm[1]:.1f}x (cpu)")


if __name__ == "__main__":
    main()
