"""What a keen Timespan player saw the agents do wrong, counted over bench_agents.py's games.

The games are bench_agents.py's duels (the same seeds, seats alternating: odd
seeds, the measured spec sits first), watched as they are played, for each side:

- workers left idle: the population a seat still had when it ended the
  actions phase, in the last round and in the rounds before it;
- steps on the air and space tracks at the end (the exploration visions and
  first arrivals sit there), and on the ocean track;
- the final scores and the winner.

    python benchmarks/timespan_faults.py --games 30 [--spec ismcts] [--against greedy]

Issue 29 (playtest 31): the default agent placed 4 of its 7 workers in the last
round holding 13 coins, and never climbed air or space.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_agents  # noqa: E402
from rulebook_games.load.ruleset import load_ruleset  # noqa: E402

NAME = "timespan"
LAST_ROUND = 5


class Watch:
    def __init__(self, players: int):
        self.idle_last = [0] * players
        self.idle_before = [0] * players

    def wrap(self, agent, seat: int) -> None:
        inner = agent.decide

        def decide(decision, view, game):
            answer = inner(decision, view, game)
            st = game.state
            if decision.kind == "action" and st.phase == "actions" \
                    and decision.options[answer].key == "end":
                left = st.players[seat].stock.get("population", 0)
                if st.round == LAST_ROUND:
                    self.idle_last[seat] += left
                else:
                    self.idle_before[seat] += left
            return answer
        agent.decide = decide


def one(seed: int, kinds: list[str], rs) -> dict:
    watch = Watch(2)
    game, result, spent = bench_agents.watched_game(rs, seed, kinds, watch.wrap)
    st = game.state
    tracks = [{t: st.players[s].tracks.get(t, 0) for t in ("ocean", "air", "spaceflight")}
              for s in range(2)]
    return {"seed": seed, "scores": result.scores, "winners": result.winners,
            "idle_last": watch.idle_last, "idle_before": watch.idle_before,
            "air": [t["air"] for t in tracks], "space": [t["spaceflight"] for t in tracks],
            "ocean": [t["ocean"] for t in tracks], "spent": spent}


def main(argv=None) -> None:
    ap = bench_agents.fault_options(__doc__)
    ap.add_argument("--ruleset", default=str(ROOT / "rulesets" / NAME),
                    help="the ruleset's folder (another copy of Timespan: other weights)")
    args = ap.parse_args(argv)
    rs = load_ruleset(args.ruleset)
    keys = ("scores", "idle_last", "idle_before", "air", "space", "ocean")
    bench_agents.fault_duels(args, one, rs, keys)


if __name__ == "__main__":
    main()
