"""What the invariant checks cost: checked / unchecked CPU time, from paired games.

    python benchmarks/bench_checks.py RULESET [--players N] [--games G] [--checkout DIR]
                                      [--every-decision]

For each seed 1..G, one game without checks and one with the checks simulations
make (after every action, fully after the setup and at the end; with
``--every-decision`` before every decision as well), random agents, no log, in
an order that alternates with the seed; each game timed on its own in CPU time.
One game of each kind is played first and not timed (code compiled when first
used). It prints the unchecked games per CPU-second, checked / unchecked over
all the games with a bootstrap 95 % interval over the seeds, and whether every
seed reached the same final hash both ways.

``--checkout DIR``: play another checkout's engine and rulesets (a worktree of an
older commit), imported from its folder; run this script once for each
checkout, alternating, to compare them on a busy machine (the ratios are each
run's own, so the load cancels out of each).

Nothing here is asserted by the tests; figures go into benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import random
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def engine(checkout: str):
    """(load_ruleset, build_game, run) of the checkout's engine."""
    from bench_engine import other_checkout
    return other_checkout(checkout, "rulebook_checked")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ruleset")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--checkout", default=os.path.join(HERE, os.pardir))
    parser.add_argument("--every-decision", action="store_true")
    args = parser.parse_args()
    load_ruleset, build_game, run = engine(args.checkout)
    path = args.ruleset if os.path.isdir(args.ruleset) else \
        os.path.join(args.checkout, "rulesets", args.ruleset)
    rs = load_ruleset(path)
    mode = "decision" if args.every_decision else True

    def play(seed: int, check) -> tuple[float, str]:
        game = build_game(rs, args.players, seed, ["random"] * args.players)
        game.keep_log = False
        start = time.process_time()
        result = run(game, check=check)
        return time.process_time() - start, result.final_hash

    play(10 ** 6, False)  # (not timed: code compiled when first used)
    play(10 ** 6, mode)
    plain, checked, same = [], [], 0
    for seed in range(1, args.games + 1):
        order = (False, mode) if seed % 2 else (mode, False)
        out = {check: play(seed, check) for check in order}
        plain.append(out[False][0])
        checked.append(out[mode][0])
        same += out[False][1] == out[mode][1]
    ratio = sum(checked) / sum(plain)
    rng = random.Random(0)
    boot = sorted(sum(checked[i] for i in pick) / sum(plain[i] for i in pick)
                  for pick in ([rng.randrange(len(plain)) for _ in plain]
                               for _ in range(2000)))
    print(f"{os.path.abspath(args.checkout)} {rs.name}, {args.players} players, "
          f"{args.games} games: unchecked {args.games / sum(plain):.2f} games/CPU-s; "
          f"checked / unchecked {ratio:.3f} (95 % {boot[50]:.3f}–{boot[1949]:.3f}); "
          f"same final hashes {same} of {args.games}")


if __name__ == "__main__":
    main()
