"""Ask ismcts again at a record's action decisions: its tree, visits and values per option.

The record is replayed answer by answer; at each decision named (numbered from 1,
as ``rulebook replay`` and a playtest's decisions.txt number them) that is an
action decision, the agent searches the position as the seat asked saw it and the
root's options are printed with their visits, mean reward and backed-up value
(and, for the most visited inner choices, theirs). The record's own answer is then
given, so the game goes on as it was played.

    python benchmarks/resume_tree.py RECORD.json 21,23,37 [--spec ismcts:shrink=10]

Issue 29 (playtest 32, Legacy): why the agent kept its stored cubes.
"""

from __future__ import annotations

import argparse
import json

from rulebook_games import load_ruleset
from rulebook_games.agents.base import Agent
from rulebook_games.agents.ismcts import identity
from rulebook_games.agents.registry import agent_seed, make_agent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.play.session import new_game


class _Done(Exception):
    pass


class _Asker(Agent):
    name = "replay"
    wants_view = False

    def __init__(self, answers: list, want: set[int], spec: str, seed: int, depth: int):
        self.answers, self.want, self.spec, self.seed = answers, want, spec, seed
        self.depth = depth
        self.i = 0

    def decide(self, decision, view, game):
        n = self.i + 1
        if n in self.want and decision.kind == "action":
            self.show(n, decision, game)
        if n >= max(self.want):
            raise _Done
        self.i += 1
        return self.answers[n - 1]

    def show(self, n, decision, game) -> None:
        agent = make_agent(self.spec, agent_seed(self.seed, decision.player))
        root = agent.search(game, decision)
        print(f"decision {n}: seat {decision.player + 1}, {root.visits} iterations")
        for a, option in enumerate(decision.options):
            key = f"{decision.player}|{decision.kind}|{identity(decision, a, game)}"
            child = root.children.get(key)
            if child is None or not child.visits:
                continue
            print(f"  {option.key:24} visits {child.visits:4}  mean "
                  f"{child.total / child.visits:8.2f}  value {child.value:8.2f}")
            self.inner(child, 2)

    def inner(self, node, indent: int) -> None:
        if indent > 2 * self.depth:
            return
        for key, child in sorted(node.children.items(), key=lambda kv: -kv[1].visits)[:5]:
            print(f"  {' ' * indent}{key.split('|', 2)[-1]:{24 - indent}} visits "
                  f"{child.visits:4}  value {child.value:8.2f}")
            self.inner(child, indent + 2)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("record")
    ap.add_argument("decisions", help="comma-separated decision numbers (from 1)")
    ap.add_argument("--spec", default="ismcts")
    ap.add_argument("--depth", type=int, default=2, help="levels of inner choices shown")
    args = ap.parse_args(argv)
    rec = json.load(open(args.record, encoding="utf-8"))
    if rec.get("mods") or rec.get("variants"):
        raise SystemExit("resume_tree.py: records with mods or variants are not supported")
    rs = load_ruleset(rec["ruleset"])
    want = {int(x) for x in args.decisions.split(",")}
    asker = _Asker(rec["decisions"], want, args.spec, rec["seed"], args.depth)
    names = [f"Player {i + 1} ({kind})" for i, kind in enumerate(rec["agents"])]
    game = new_game(rs, rec["players"], rec["seed"], [asker] * rec["players"], (), names)
    try:
        FlowRunner(game).play()
    except _Done:
        pass


if __name__ == "__main__":
    main()
