"""How much of the work budget real games use, per effect, per decision and per game.

    python benchmarks/bench_budget.py [RULESET ...] [--games 10] [--greedy-games 3]
                                      [--ismcts-games 0] [--players 2,4]
                                      [--agents random,greedy]
    python benchmarks/bench_budget.py --all      # every shipped ruleset and player count

Plays the games as `rulebook simulate` does (invariant checks on) with a
budget that records, besides enforcing the limits, the largest number of
steps any top-level effect run took and the largest number taken between
two decisions (the copies that greedy and ismcts agents look ahead on
included), and for each game the steps it took in all, the decisions it
asked and the cards it holds. For the agents that look ahead, the most steps
one search took (the copies played to answer one decision) and the most one
seat's searches took in a game. The log is kept as `play` keeps it (a
listener, so lines are not folded): the longest line, the most text in one
game, and the most text the rules wrote with ``log()``. It prints one line
per ruleset, player count and agent, then the largest figure of each kind
against its limit.
"""

from __future__ import annotations

import argparse
import os
import time

from rulebook_games import load_ruleset
from rulebook_games.agents import ismcts as ismcts_module
from rulebook_games.agents import lookahead
from rulebook_games.engine import gamelog
from rulebook_games.play.session import build_game, run
from rulebook_games.lang import runtime as R
from rulebook_games.lang.runtime import Budget, SearchBudget

RULESETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "rulesets")


class _Measuring:
    """Settles the run before each top-level run and each decision (see ``settle``)."""

    __slots__ = ()
    # compiled code opens a top-level run by setting effect_start (inline, for speed):
    # that is when the run before it is settled
    _slot = Budget.effect_start

    @property
    def effect_start(self):
        return _Measuring._slot.__get__(self)

    @effect_start.setter
    def effect_start(self, value):
        try:
            self.settle()
        except AttributeError:  # still being set up
            pass
        _Measuring._slot.__set__(self, value)

    def new_decision(self) -> None:
        self.settle()
        super().new_decision()

    def settle(self) -> None:
        cls = MeasuringBudget
        cls.peak_effect = max(cls.peak_effect, self.used - self.effect_start)
        cls.peak_decision = max(cls.peak_decision, self.used - self.decision_start)


class MeasuringBudget(_Measuring, Budget):
    """A budget that remembers the largest use per effect run and per decision."""

    __slots__ = ()
    peak_effect = 0
    peak_decision = 0


class MeasuringSearch(_Measuring, SearchBudget):
    """A search's budget that remembers the largest use per effect run and per decision
    of its copies, with the game's (see MeasuringBudget)."""

    __slots__ = ()

    def settle(self) -> None:
        if self.owner is None or self.effect_start < self.begun:
            return  # a refusal's trial budget, or no copy has run yet
        super().settle()


# the agents' searches run on measuring budgets
lookahead.SearchBudget = ismcts_module.SearchBudget = MeasuringSearch


def every_ruleset() -> list[str]:
    return sorted(name for name in os.listdir(RULESETS)
                  if os.path.isfile(os.path.join(RULESETS, name, "ruleset.yaml")))


def measure(rs, players: int, agent: str, games: int, seed: int) -> dict:
    """The largest figures over ``games`` games of ``agent`` against itself."""
    MeasuringBudget.peak_effect = MeasuringBudget.peak_decision = 0
    most = dict.fromkeys(("steps", "decisions", "cards", "search", "searches", "line", "log",
                          "logged"), 0)
    start = time.perf_counter()
    for s in range(seed, seed + games):
        game = build_game(rs, players, s, [agent] * players)
        budget = game.budget = MeasuringBudget()
        game.budget.where = game._flow_span()
        for seated in {id(a): a for a in game.agents}.values():
            _measure_searches(seated, most)
        text = [0]

        def listen(line: str) -> None:  # as play prints the log
            text[0] += len(line) + 1
            most["line"] = max(most["line"], len(line))
        game.listeners.append(listen)
        run(game, check=True)
        budget.settle()
        most["steps"] = max(most["steps"], budget.used)
        most["decisions"] = max(most["decisions"], len(game.record))
        most["cards"] = max(most["cards"], len(game.state.cards))
        most["searches"] = max([most["searches"], *budget.searched.values()])
        private = [line for lines in game.private_lines.values() for line in lines.values()]
        most["line"] = max([most["line"], *map(len, private)])
        most["log"] = max(most["log"], text[0])
        most["logged"] = max(most["logged"], budget.logged)
    most["effect"] = MeasuringBudget.peak_effect
    most["decision"] = MeasuringBudget.peak_decision
    most["seconds"] = time.perf_counter() - start
    return most


def _measure_searches(agent, most: dict) -> None:
    """Record the steps each search of ``agent`` takes (what Budget.searched grows by)."""
    inner = agent.decide

    def decide(decision, view, game):
        searched = game.budget.searched
        before = sum(searched.values())
        try:
            return inner(decision, view, game)
        finally:
            most["search"] = max(most["search"], sum(searched.values()) - before)
    agent.decide = decide


LIMITS = {  # figure -> (what it is, the limit: its module and name)
    "effect": ("steps in one effect run", R, "EFFECT_STEPS"),
    "decision": ("steps between two decisions", R, "DECISION_STEPS"),
    "steps": ("steps in one game", R, "GAME_STEPS"),
    "decisions": ("decisions in one game", R, "MAX_DECISIONS"),
    "cards": ("cards in one game", R, "MAX_CARDS"),
    "logged": ("characters the rules log() in one game", R, "MAX_LOG_TEXT"),
    "line": ("characters in one log line", gamelog, "MAX_LOG_LINE"),
    "log": ("characters of log in one game", gamelog, "MAX_LOG_KEPT"),
}
# the agents' searches have allowances of their own, by agent (at default settings)
SEARCH_LIMITS = {
    "greedy": (lookahead, "GREEDY_SEARCH_STEPS", "GREEDY_GAME_STEPS"),
    "ismcts": (ismcts_module, "ISMCTS_SEARCH_STEPS", "ISMCTS_GAME_STEPS"),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("rulesets", nargs="*")
    ap.add_argument("--all", action="store_true", help="every shipped ruleset")
    ap.add_argument("--games", "-n", type=int, default=10, help="random-agent games per line")
    ap.add_argument("--greedy-games", type=int, default=3, help="greedy-agent games per line")
    ap.add_argument("--ismcts-games", type=int, default=0, help="ismcts-agent games per line")
    ap.add_argument("--players", "-p", default=None, help="player counts (default: all)")
    ap.add_argument("--agents", default="random,greedy")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    names = every_ruleset() if args.all or not args.rulesets else args.rulesets
    agents = [a.strip() for a in args.agents.split(",")]
    if args.ismcts_games and "ismcts" not in agents:
        agents.append("ismcts")
    per_game = {"greedy": args.greedy_games, "ismcts": args.ismcts_games}
    overall = dict.fromkeys(LIMITS, 0)
    searches = {agent: [0, 0] for agent in SEARCH_LIMITS}
    print(f"{'ruleset':<22} {'pl':>2} {'agent':<7} {'games':>5} {'effect':>8} {'decision':>9} "
          f"{'game steps':>11} {'decisions':>9} {'cards':>6} {'search':>10} "
          f"{'searches':>12} {'line':>5} {'log':>8} {'logged':>6} {'s':>6}")
    for name in names:
        rs = load_ruleset(name)
        counts = ([int(p) for p in args.players.split(",")] if args.players
                  else range(rs.min_players, rs.max_players + 1))
        for players in counts:
            if not rs.min_players <= players <= rs.max_players:
                continue
            for agent in agents:
                games = per_game.get(agent, args.games)
                if games <= 0:
                    continue
                m = measure(rs, players, agent, games, args.seed)
                for key in overall:
                    overall[key] = max(overall[key], m[key])
                if agent in searches:
                    searches[agent][0] = max(searches[agent][0], m["search"])
                    searches[agent][1] = max(searches[agent][1], m["searches"])
                print(f"{name:<22} {players:>2} {agent:<7} {games:>5} {m['effect']:>8,} "
                      f"{m['decision']:>9,} {m['steps']:>11,} {m['decisions']:>9,} "
                      f"{m['cards']:>6,} {m['search']:>10,} {m['searches']:>12,} "
                      f"{m['line']:>5,} {m['log']:>8,} {m['logged']:>6,} "
                      f"{m['seconds']:>6.0f}", flush=True)
    print()
    for key, (what, module, limit_name) in LIMITS.items():
        _against(what, overall[key], getattr(module, limit_name, None))
    for agent, (module, search_name, game_name) in SEARCH_LIMITS.items():
        if per_game.get(agent, args.games) > 0 and agent in agents:
            _against(f"steps in one {agent} search", searches[agent][0],
                     getattr(module, search_name))
            _against(f"steps in one seat's {agent} searches in a game", searches[agent][1],
                     getattr(module, game_name))


def _against(what: str, most: int, limit: int | None) -> None:
    if limit is None:
        print(f"most {what}: {most:,}")
    else:
        print(f"most {what}: {most:,} (limit {limit:,}, {limit / max(most, 1):.0f}× that)")


if __name__ == "__main__":
    main()
