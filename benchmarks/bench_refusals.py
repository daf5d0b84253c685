"""How often a player picks an option the game then refuses (issue 26: nothing offered
that cannot be carried out).

    python benchmarks/bench_refusals.py [RULESET ...] [--random 20] [--greedy 5] [--players 2]

Plays ``--random`` games between random agents and ``--greedy`` games between greedy
agents for each ruleset (all shipped ones by default), and counts, over every answer a
seat gave:

- ``picks``: answers given to a question (asked, not taken because it had one answer);
- ``actions``: those that chose an action;
- ``refused``: actions refused after they were picked (the agent was told
  ``action_failed``): the option was on offer, yet could not be carried out;
- ``overtaken``: actions chosen at once with the others (simultaneous turns) and refused
  when their turn came because another seat's went first: not counted as refused;
- ``not available``: options listed as not available (with a reason) at the action
  questions asked, on average per question.

The share that matters is refused / actions: the target is 0. Nothing here is
asserted by the tests; figures go into benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent, agent_seed, make_agent
from rulebook_games.play.session import build_game, run

HERE = os.path.dirname(os.path.abspath(__file__))
RULESETS = os.path.join(HERE, os.pardir, "rulesets")


class Counting(Agent):
    """A seat's agent that counts what it is asked and what is refused after it picked."""

    def __init__(self, inner: Agent, counts: Counter, reasons: Counter):
        self.inner = inner
        self.name = inner.name
        self.wants_view = getattr(inner, "wants_view", True)
        self.counts = counts
        self.reasons = reasons

    def decide(self, decision, view, game):
        self.game = game
        self.counts["picks"] += 1
        if decision.kind == "action":
            self.counts["actions"] += 1
            self.counts["listed not available"] += len(decision.refused)
        return self.inner.decide(decision, view, game)

    def action_failed(self, label, reason):
        g = self.game
        entry = g.rs.sections["phases"].get(g.state.phase)
        if entry is not None and (entry.data.get("turns") or {}).get("style") == "simultaneous":
            # chosen at once, carried out in turn: another seat may take it first (the
            # rules say so), which no one could know when it was picked
            self.counts["overtaken"] += 1
            self.inner.action_failed(label, reason)
            return
        self.counts["refused"] += 1
        self.reasons[reason.split(":")[0][:70]] += 1
        self.inner.action_failed(label, reason)


def measure(name: str, kind: str, games: int, players: int) -> tuple[Counter, Counter, float]:
    rs = load_ruleset(os.path.join(RULESETS, name))
    counts, reasons = Counter(), Counter()
    start = time.process_time()
    for seed in range(1, games + 1):
        seats = [Counting(make_agent(kind, agent_seed(seed, s)), counts, reasons)
                 for s in range(players)]
        game = build_game(rs, players, seed, [kind] * players, live_agents=seats)
        game.keep_log = False
        run(game)
        counts["games"] += 1
    return counts, reasons, time.process_time() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*")
    ap.add_argument("--random", type=int, default=20)
    ap.add_argument("--greedy", type=int, default=5)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--reasons", type=int, default=5, help="most common reasons shown")
    args = ap.parse_args(argv)
    names = args.rulesets or sorted(n for n in os.listdir(RULESETS)
                                    if os.path.exists(os.path.join(RULESETS, n, "ruleset.yaml")))
    print(f"{'ruleset':24} {'agent':7} {'games':>5} {'picks':>7} {'actions':>7} "
          f"{'refused':>7} {'overtkn':>7} {'share':>7} {'n/a per q':>9} {'cpu s':>6}")
    for name in names:
        for kind, games in (("random", args.random), ("greedy", args.greedy)):
            if games <= 0:
                continue
            c, reasons, cpu = measure(name, kind, games, args.players)
            share = c["refused"] / c["actions"] if c["actions"] else 0.0
            per_q = c["listed not available"] / c["actions"] if c["actions"] else 0.0
            print(f"{name:24} {kind:7} {c['games']:5} {c['picks']:7} {c['actions']:7} "
                  f"{c['refused']:7} {c['overtaken']:7} {share:7.2%} {per_q:9.1f} {cpu:6.1f}")
            for reason, n in reasons.most_common(args.reasons):
                print(f"    {n:5}  {reason}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
