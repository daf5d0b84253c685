"""How well each fit of a weights file predicts the final margins of fresh games.

    python benchmarks/bench_fits.py RULESET [--weights FILE] [--players 3] [--games 20]
                                    [--seed 777000] [--rate 0.1]

Plays ``--games`` fresh games of ``--players`` (seeds from ``--seed``) with
``greedy:eval=written`` in every seat, samples positions as ``rulebook
train`` does (a share ``--rate`` of the decisions; each seat's features read
on a copy dealt for that seat), labels them with the seat's final margin,
and prints, for every fit of the weights file (the ruleset's own learned.json
by default), the share of the margins' variance its value explains (R²) and
how often the sign of its value named the seat ahead. docs/agents.md
(Player counts) gives what it measured on Legacy.
"""

from __future__ import annotations

import argparse


def main() -> None:
    import numpy as np

    from rulebook_games import load_ruleset
    from rulebook_games.agents.learned import LearnedValue
    from rulebook_games.lab.train import play_and_sample, quality
    from rulebook_games.load.learned import learned_path, read_learned

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--weights", default=None)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=777_000)
    ap.add_argument("--rate", type=float, default=0.1)
    args = ap.parse_args()
    rs = load_ruleset(args.ruleset)
    path = args.weights or learned_path(rs)[0]
    if path is None:
        raise SystemExit(f"{rs.name} has no weights file: give one with --weights")
    value = LearnedValue(read_learned(path, rs), rs)
    rs.__dict__["_learned_value"] = None  # the games are played by the written evaluation
    samples = []
    for i in range(args.games):
        taken, _, _ = play_and_sample(rs, args.players, args.seed + i, "greedy:eval=written", i,
                                      args.rate)
        samples += taken
    for fit in value.fits:
        predicted = []
        for s in samples:
            t = min(1.0, s.round / fit.rounds)
            predicted.append(fit.const + sum(x * (fit.pairs[n][0] + fit.pairs[n][1] * t)
                                             for n, x in s.features.items() if n in fit.pairs))
        q = quality(np.array(predicted), samples)
        print(f"{rs.name}, {args.games} games of {args.players} players: the fit of "
              f"{fit.players} players: R² {q['r2']:.3f}, sign right in "
              f"{100 * q['sign']:.1f} % of {q['samples']:,} positions")


if __name__ == "__main__":
    main()
