"""How much of the work budget real games use: the most steps per effect and per decision.

    python benchmarks/bench_budget.py [RULESET] [--games 20] [--players 4] [--agents greedy]

Plays the games as `rulebook simulate` does (invariant checks on) with a
budget that records, besides enforcing the limits, the largest number of
steps any top-level effect run took and the largest number taken between
two decisions, lookahead copies of greedy agents included. The limits in
``interpreter/lang/runtime.py`` are set 20-50 times above these figures.
"""

from __future__ import annotations

import argparse
import time

from interpreter import load_ruleset
from interpreter.engine.session import build_game, run
from interpreter.lang.runtime import DECISION_STEPS, EFFECT_STEPS, Budget


class MeasuringBudget(Budget):
    """A budget that remembers the largest use per effect run and per decision."""

    __slots__ = ()
    peak_effect = 0
    peak_decision = 0

    # compiled code opens a top-level run by setting effect_start (inline, for speed):
    # that is when the run before it is settled
    _slot = Budget.effect_start

    @property
    def effect_start(self):
        return MeasuringBudget._slot.__get__(self)

    @effect_start.setter
    def effect_start(self, value):
        try:
            self.settle()
        except AttributeError:  # still being set up
            pass
        MeasuringBudget._slot.__set__(self, value)

    def new_decision(self) -> None:
        self.settle()
        super().new_decision()

    def settle(self) -> None:
        cls = MeasuringBudget
        cls.peak_effect = max(cls.peak_effect, self.used - self.effect_start)
        cls.peak_decision = max(cls.peak_decision, self.used - self.decision_start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ruleset", nargs="?", default="legacy_gears_of_time")
    ap.add_argument("--games", "-n", type=int, default=20)
    ap.add_argument("--players", "-p", type=int, default=None)
    ap.add_argument("--agents", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rs = load_ruleset(args.ruleset)
    players = args.players or rs.max_players
    kinds = [k.strip() for k in args.agents.split(",")]
    kinds = kinds * players if len(kinds) == 1 else kinds
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        game = build_game(rs, players, seed, kinds)
        game.budget = MeasuringBudget()
        run(game, check=True)
        game.budget.settle()
    took = time.perf_counter() - start
    effect, decision = MeasuringBudget.peak_effect, MeasuringBudget.peak_decision
    print(f"{rs.name}, {args.games} games, {players} players, agents {','.join(kinds)} "
          f"({took:.0f} s)")
    print(f"  most steps in one effect run:      {effect:>9,}  (limit {EFFECT_STEPS:,}, "
          f"{EFFECT_STEPS / max(effect, 1):.0f}× that)")
    print(f"  most steps between two decisions:  {decision:>9,}  (limit {DECISION_STEPS:,}, "
          f"{DECISION_STEPS / max(decision, 1):.0f}× that)")


if __name__ == "__main__":
    main()
