"""What a keen Legacy player saw the agents do wrong, counted over bench_agents.py's games.

The games are bench_agents.py's duels (the same seeds, seats alternating: odd
seeds, the measured spec sits first), watched as they are played, for each side:

- stored cubes left when the seat's last action of round 1 is done (of 8), and
  of round 2 (stored cubes come back only from succeeding leads);
- draw actions (research) over the whole game;
- technologies the seat established left of their earliest time frame, where
  they can never succeed (``earliest_frame``, see the ruleset's README); the
  names list marks its character's sought technology with ``*`` (its crown
  counts whether it succeeds or not, so that one is no fault);
- cards in hand at the end of the game;
- draw actions in the last round;
- cubes lost on copies discarded at a round's end (the clarification's
  duplicates: their cubes go back to the supply), as last seen at a decision
  before that end (an action after the round's last decision is not seen).

    python benchmarks/legacy_faults.py --games 40 [--spec ismcts] [--against greedy]

Issue 29 (playtest 30): the default agent spent its stored cubes in round 1,
established Computers and Robotics in frame 1 and ended with 17 cards.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_agents  # noqa: E402
from rulebook_games.load.ruleset import load_ruleset  # noqa: E402

NAME = "legacy_gears_of_time"


class Watch:
    def __init__(self, rs, players: int):
        self.rs = rs
        self.stored_r1 = [None] * players
        self.seen: set = set()
        self.hopeless = [0] * players
        self.hopeless_names: list = [[] for _ in range(players)]
        self.last_draws = [0] * players
        self.stored_r2 = [None] * players
        self.draws = [0] * players
        self.wasted = [0] * players
        self.timeline: dict = {}  # card -> {seat: cubes}, at the last scan
        self.round = None

    def scan(self, game) -> None:
        st = game.state
        cards = self.rs.sections["cards"]
        here = {c: dict(st.cards[c].pieces) for n in range(1, 11)
                for c in st.zones.get((f"frame_{n}", -1), ())}
        if self.round is not None and (st.round, st.phase) != self.round:
            # a clarification between (a phase's end; a fate card takes one in its phase)
            for c, pieces in self.timeline.items():
                if c not in here:
                    for seat, k in pieces.items():
                        self.wasted[seat] += k
        self.timeline, self.round = here, (st.round, st.phase)
        for n in range(1, 11):
            for c in st.zones.get((f"frame_{n}", -1), ()):
                if c in self.seen:
                    continue
                card = st.cards[c]
                fields = (cards[card.def_id].data or {}).get("fields", {})
                if not card.pieces or "earliest_frame" not in fields:
                    continue
                self.seen.add(c)
                if n < int(fields["earliest_frame"]):
                    for seat in card.pieces:  # (only the establisher has cubes at first)
                        crown = card.def_id == self.sought(game, seat)
                        self.hopeless[seat] += not crown
                        self.hopeless_names[seat].append(f"{card.def_id}{'*' if crown else ''}@{n}")

    def sought(self, game, seat: int):
        st = game.state
        for c in st.zones.get(("character_card", seat), ()):
            data = self.rs.sections["cards"][st.cards[c].def_id].data or {}
            return data.get("fields", {}).get("sought")
        return None

    def wrap(self, agent, seat: int) -> None:
        inner = agent.decide

        def decide(decision, view, game):
            self.scan(game)
            answer = inner(decision, view, game)
            st = game.state
            if decision.kind == "action":
                if st.round == 1:
                    self.stored_r1[seat] = st.players[seat].stock.get("stored_cube", 0)
                if st.round == 2:
                    self.stored_r2[seat] = st.players[seat].stock.get("stored_cube", 0)
                if decision.options[answer].key == "action:research":
                    self.draws[seat] += 1
                if st.round == 4 and decision.options[answer].key == "action:research":
                    self.last_draws[seat] += 1
            return answer
        agent.decide = decide


def one(seed: int, kinds: list[str], rs) -> dict:
    watch = Watch(rs, 2)
    # the stored cubes after the seat's last action of round 1 are read after its
    # next answer: every seat is watched (the answers are unchanged)
    game, result, spent = bench_agents.watched_game(rs, seed, kinds, watch.wrap)
    watch.scan(game)
    st = game.state
    hands = [len(st.zones[("hand", s)]) for s in range(2)]
    return {"seed": seed, "scores": result.scores, "winners": result.winners,
            "stored_r1": watch.stored_r1, "stored_r2": watch.stored_r2,
            "draws": watch.draws, "hopeless": watch.hopeless,  # (the crown's own left out)
            "hopeless_names": watch.hopeless_names, "hands": hands,
            "last_draws": watch.last_draws, "wasted": watch.wasted, "spent": spent}


def main(argv=None) -> None:
    ap = bench_agents.fault_options(__doc__)
    args = ap.parse_args(argv)
    rs = load_ruleset(str(ROOT / "rulesets" / NAME))

    def line(out, me):
        return (f"scores {out['scores']}, "
                f"stored after r1 {out['stored_r1'][me]} ({out['stored_r1'][1 - me]}), "
                f"r2 {out['stored_r2'][me]} ({out['stored_r2'][1 - me]}), "
                f"draws {out['draws'][me]} ({out['draws'][1 - me]}), "
                f"hopeless {out['hopeless_names'][me]} ({out['hopeless'][1 - me]}), "
                f"hand at end {out['hands'][me]} ({out['hands'][1 - me]}), "
                f"r4 draws {out['last_draws'][me]} ({out['last_draws'][1 - me]}), "
                f"cubes on discarded copies {out['wasted'][me]} ({out['wasted'][1 - me]})")
    bench_agents.fault_duels(args, one, rs, ("stored_r1", "stored_r2", "hopeless", "hands",
                                             "draws", "last_draws", "wasted"), line)


if __name__ == "__main__":
    main()
