"""How tall the terminal screen is before each decision a person makes.

    python benchmarks/bench_screens.py RULESET [--players 2] [--games 1] [--seed 1]
                                       [--width 80] [--agent greedy] [--variant V ...]
                                       [--show-tallest 0]

Seat 1 is the terminal seat as `rulebook play` draws it (the real
:class:`~rulebook_games.play.terminal.HumanAgent`, into a console of
``--width`` columns), answered by an agent (``--agent``, greedy by default)
that types its answer as a person would; the other seats are the same kind
of agent. For every decision seat 1 is asked, the screen is everything
printed since the answer before: the news since the last decision, the
status lines, the question and its options, and the input line. It prints
the distribution of those heights (median, 90th percentile, the most, how
many exceed 24 and 40 lines), which the view issue measures against an
80x24 terminal. ``--show-tallest N`` prints the N tallest screens.
"""

from __future__ import annotations

import argparse
import io
import statistics

from rich.console import Console

from rulebook_games import load_ruleset
from rulebook_games.agents.registry import make_agent
from rulebook_games.play.session import agent_seed, build_game, run
from rulebook_games.play.terminal import HumanAgent


class MeasuredSeat(HumanAgent):
    """The terminal seat, its answers typed by an agent, each screen's height kept."""

    def __init__(self, console: Console, brain):
        super().__init__(console, input_fn=self._type)
        self.brain = brain
        self.helped = True  # the one-time help line is not part of a typical screen
        self.screens: list[str] = []
        self._typed = ""
        self._asked = 0

    def decide(self, decision, view, game):
        answer = self.brain.decide(decision, view, game)
        self._asked = 0
        if decision.is_range:
            self._typed = str(answer)
        elif decision.kind == "number":
            self._typed = decision.options[answer].key
        else:  # the option's own key where it has one: a number may name another option
            from rulebook_games.engine.keys import short_keys
            keys = short_keys(game, decision)
            self._typed = keys[answer] if keys else str(answer + 1)
        return super().decide(decision, view, game)

    def _type(self, prompt: str) -> str:
        self._asked += 1
        if self._asked > 1:  # (typing it again would loop for ever)
            raise RuntimeError(f"the answer typed, {self._typed!r}, was refused: "
                               + self.console.export_text(clear=False)[-300:])
        screen = self.console.export_text(clear=True)
        self.screens.append(screen + prompt)
        return self._typed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--width", type=int, default=80)
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--show-tallest", type=int, default=0)
    args = ap.parse_args()
    rs = load_ruleset(args.ruleset)
    heights: list[int] = []
    screens: list[str] = []
    for seed in range(args.seed, args.seed + args.games):
        console = Console(file=io.StringIO(), width=args.width, record=True, highlight=False,
                          emoji=False, color_system=None)
        kinds = [args.agent] * args.players
        seat = MeasuredSeat(console, make_agent(args.agent, agent_seed(seed, 0)))
        others = [make_agent(k, agent_seed(seed, s)) for s, k in enumerate(kinds) if s]
        game = build_game(rs, args.players, seed, ["human"] + kinds[1:], tuple(args.variant),
                          live_agents=[seat] + others)
        run(game)
        for screen in seat.screens:
            heights.append(screen.count("\n") + 1)
            screens.append(screen)
    if not heights:
        print("seat 1 was asked nothing")
        return
    ordered = sorted(heights)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    print(f"{args.ruleset}, {args.players} players, {args.games} game(s) from seed "
          f"{args.seed}, {args.agent} answering, {args.width} columns")
    print(f"decisions of seat 1: {len(heights)}")
    print(f"screen height: median {statistics.median(heights):g}, 90th percentile {p90}, "
          f"most {ordered[-1]}")
    print(f"taller than 24 lines: {sum(h > 24 for h in heights)} "
          f"({100 * sum(h > 24 for h in heights) / len(heights):.0f} %); taller than 40: "
          f"{sum(h > 40 for h in heights)}")
    buckets = [(1, 12), (13, 24), (25, 40), (41, 80), (81, 10 ** 9)]
    print("  " + "  ".join(f"{lo}-{hi if hi < 10 ** 9 else ''}: {sum(lo <= h <= hi for h in heights)}"
                           for lo, hi in buckets))
    for screen in sorted(screens, key=lambda s: -s.count("\n"))[:args.show_tallest]:
        print("-" * args.width)
        print(screen)


if __name__ == "__main__":
    main()
