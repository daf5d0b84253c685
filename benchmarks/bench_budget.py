"""How much of the work budget real games use, per effect, per decision and per game.

    python benchmarks/bench_budget.py [RULESET ...] [--games 10] [--greedy-games 3]
                                      [--players 2,4] [--agents random,greedy]
    python benchmarks/bench_budget.py --all      # every shipped ruleset and player count

Plays the games as `rulebook simulate` does (invariant checks on) with a
budget that records, besides enforcing the limits, the largest number of
steps any top-level effect run took and the largest number taken between
two decisions (lookahead copies of greedy agents included), and for each
game the steps it took in all, the decisions it asked and the cards it
holds. It prints one line per ruleset, player count and agent, then the
largest figure of each kind against its limit in ``interpreter/lang/runtime.py``.
"""

from __future__ import annotations

import argparse
import os
import time

from rulebook_games import load_ruleset
from rulebook_games.play.session import build_game, run
from rulebook_games.lang import runtime as R
from rulebook_games.lang.runtime import Budget

RULESETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "rulesets")


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


def every_ruleset() -> list[str]:
    return sorted(name for name in os.listdir(RULESETS)
                  if os.path.isfile(os.path.join(RULESETS, name, "ruleset.yaml")))


def measure(rs, players: int, agent: str, games: int, seed: int) -> dict:
    """The largest figures over ``games`` games of ``agent`` against itself."""
    MeasuringBudget.peak_effect = MeasuringBudget.peak_decision = 0
    most = {"steps": 0, "decisions": 0, "cards": 0}
    start = time.perf_counter()
    for s in range(seed, seed + games):
        game = build_game(rs, players, s, [agent] * players)
        game.budget = MeasuringBudget()
        run(game, check=True)
        game.budget.settle()
        most["steps"] = max(most["steps"], game.budget.used)
        most["decisions"] = max(most["decisions"], len(game.record))
        most["cards"] = max(most["cards"], len(game.state.cards))
    most["effect"] = MeasuringBudget.peak_effect
    most["decision"] = MeasuringBudget.peak_decision
    most["seconds"] = time.perf_counter() - start
    return most


LIMITS = {  # figure -> (what it is, the limit's name in runtime.py)
    "effect": ("steps in one effect run", "EFFECT_STEPS"),
    "decision": ("steps between two decisions", "DECISION_STEPS"),
    "steps": ("steps in one game", "GAME_STEPS"),
    "decisions": ("decisions in one game", "MAX_DECISIONS"),
    "cards": ("cards in one game", "MAX_CARDS"),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("rulesets", nargs="*")
    ap.add_argument("--all", action="store_true", help="every shipped ruleset")
    ap.add_argument("--games", "-n", type=int, default=10, help="random-agent games per line")
    ap.add_argument("--greedy-games", type=int, default=3, help="greedy-agent games per line")
    ap.add_argument("--players", "-p", default=None, help="player counts (default: all)")
    ap.add_argument("--agents", default="random,greedy")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    names = every_ruleset() if args.all or not args.rulesets else args.rulesets
    agents = [a.strip() for a in args.agents.split(",")]
    overall = dict.fromkeys(LIMITS, 0)
    print(f"{'ruleset':<22} {'pl':>2} {'agent':<7} {'games':>5} {'effect':>8} {'decision':>9} "
          f"{'game steps':>11} {'decisions':>9} {'cards':>6} {'s':>6}")
    for name in names:
        rs = load_ruleset(name)
        counts = ([int(p) for p in args.players.split(",")] if args.players
                  else range(rs.min_players, rs.max_players + 1))
        for players in counts:
            if not rs.min_players <= players <= rs.max_players:
                continue
            for agent in agents:
                games = args.greedy_games if agent == "greedy" else args.games
                if games <= 0:
                    continue
                m = measure(rs, players, agent, games, args.seed)
                for key in overall:
                    overall[key] = max(overall[key], m[key])
                print(f"{name:<22} {players:>2} {agent:<7} {games:>5} {m['effect']:>8,} "
                      f"{m['decision']:>9,} {m['steps']:>11,} {m['decisions']:>9,} "
                      f"{m['cards']:>6,} {m['seconds']:>6.0f}", flush=True)
    print()
    for key, (what, limit_name) in LIMITS.items():
        limit = getattr(R, limit_name, None)
        if limit is None:
            print(f"most {what}: {overall[key]:,} (no limit)")
            continue
        print(f"most {what}: {overall[key]:,} (limit {limit:,}, "
              f"{limit / max(overall[key], 1):.0f}× that)")


if __name__ == "__main__":
    main()
