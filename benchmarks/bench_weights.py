"""Two weights files of one ruleset compared: how well each predicts fresh games, and who wins.

``rulebook train`` reports how well its value predicted the margins of its own
held-out games, which differ from one training run to the next; this script
puts two weights files (``--a`` and ``--b``, default ``--b``: the ruleset's
shipped ``learned.json``) on the same footing:

- ``--fit N``: N fresh two-player games (seeds from 900,000, alternately
  played by ``greedy`` with the ruleset's shipped values and by
  ``greedy:eval=written``), positions sampled as training samples them; each
  file's R² on their final margins, and how often its sign named the seat
  ahead.
- ``--games N``: N games of the same agent spec (``--spec``, greedy by
  default) with file A in one seat and file B in the other, seats
  alternating with the seed (odd seeds: A first); A's win rate with a Wilson
  95 % interval, and the cards each side played.

    python benchmarks/bench_weights.py terraforming_mars --a /tmp/tm120.json --fit 10
    python benchmarks/bench_weights.py terraforming_mars --a /tmp/tm120.json --games 10
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import rulebook_games.agents.learned as learned  # noqa: E402
from rulebook_games.load.learned import read_learned  # noqa: E402
from rulebook_games.load.ruleset import load_ruleset  # noqa: E402
from rulebook_games.play.session import build_game, run  # noqa: E402
from bench_agents import cards_played, wilson  # noqa: E402


def fit(rs, values: dict, games: int) -> None:
    import numpy as np
    from rulebook_games.lab.train import play_and_sample, quality
    samples = []
    shipped = learned.learned_value(rs)
    for i in range(games):
        kind = "greedy:eval=written" if i % 2 else "greedy"
        rs.__dict__["_learned_value"] = shipped
        taken, _, _ = play_and_sample(rs, 2, 900_000 + i, kind, i, 0.08)
        samples += taken
    rs.__dict__.pop("_learned_value", None)
    print(f"{len(samples):,} positions of {games} fresh games")
    for name, whole in values.items():
        value = whole.fit_for(2)
        pred = []
        for s in samples:
            t = min(1.0, s.round / value.rounds)
            total = value.const
            for feature, x in s.features.items():
                pair = value.pairs.get(feature)
                if pair is not None:
                    total += x * (pair[0] + pair[1] * t)
            pred.append(total)
        q = quality(np.array(pred), samples)
        print(f"  {name} ({whole.path}): R² {q['r2']:.2f}, sign right in "
              f"{100 * q['sign']:.0f} % of positions")


def duel(rs, values: dict, spec: str, games: int, first_seed: int) -> None:
    a, b = values["A"], values["B"]
    current = [a]
    real = learned.learned_value
    learned.learned_value = lambda r, players=None: current[0]  # the seat's own file
    wins, played, seconds = 0.0, [0, 0], 0.0
    try:
        for seed in range(first_seed, first_seed + games):
            a_seat = 0 if seed % 2 else 1
            game = build_game(rs, 2, seed, [spec, spec], ())
            game.keep_log = False
            for seat, agent in enumerate(game.agents):
                inner = agent.decide

                def decide(d, view, g, inner=inner, v=a if seat == a_seat else b):
                    current[0] = v
                    return inner(d, view, g)
                agent.decide = decide
            start = time.process_time()
            result = run(game)
            spent = time.process_time() - start
            seconds += spent
            counts = cards_played(game)
            played[0] += counts[a_seat]
            played[1] += counts[1 - a_seat]
            if a_seat in result.winners:
                wins += 1 / len(result.winners)
            print(f"  seed {seed}: A in seat {a_seat + 1}, scores {result.scores}, winners "
                  f"{[w + 1 for w in result.winners]}, cards played {counts}, "
                  f"{spent:.1f} CPU-s", flush=True)
    finally:
        learned.learned_value = real
    low, high = wilson(wins, games)
    print(f"{spec}: A won {wins:g} of {games} ({100 * wins / games:.0f} %, Wilson 95 % "
          f"{100 * low:.0f}–{100 * high:.0f} %); cards played per game A {played[0] / games:.1f}, "
          f"B {played[1] / games:.1f}; {seconds / games:.1f} CPU-s a game")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ruleset")
    ap.add_argument("--a", required=True, help="a weights file")
    ap.add_argument("--b", default=None, help="another (default: the ruleset's learned.json)")
    ap.add_argument("--fit", type=int, default=0, help="fresh games to predict")
    ap.add_argument("--games", type=int, default=0, help="games of A against B")
    ap.add_argument("--spec", default="greedy")
    ap.add_argument("--first-seed", type=int, default=1)
    args = ap.parse_args(argv)
    rs = load_ruleset(str(ROOT / "rulesets" / args.ruleset))
    b = args.b or str(Path(rs.root) / "learned.json")
    values = {"A": learned.LearnedValue(read_learned(Path(args.a), rs), rs),
              "B": learned.LearnedValue(read_learned(Path(b), rs), rs)}
    if args.fit:
        fit(rs, values, args.fit)
    if args.games:
        duel(rs, values, args.spec, args.games, args.first_seed)


if __name__ == "__main__":
    main()
