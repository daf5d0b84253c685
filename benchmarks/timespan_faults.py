"""What a keen Timespan player saw the agents do wrong, counted over bench_agents.py's games.

The games are bench_agents.py's duels (the same seeds, seats alternating: odd
seeds, the measured spec sits first), watched as they are played, for each side:

- workers left idle: the population a seat still had when it ended the
  actions phase, in the last round and in the rounds before it;
- steps on the air and space tracks at the end (the exploration visions and
  first arrivals sit there), and on the ocean track;
- coins lost to the cap: coins a gain brought that did not fit under the seat's
  coin limit (the keen player's game of 2026-12-06: the agent sat at 10 coins from
  round 2 on, and each income and Trade above it was lost);
- first-arrival bonuses taken: the one-time rewards of the tracks ("8 VP for the
  first to get here") each seat won, and the VP they gave;
- the final scores and the winner.

    python benchmarks/timespan_faults.py --games 30 [--spec ismcts] [--against greedy]

Only the game played counts: the searches' copies of it are other objects, and
what they gain or lose is not counted.

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


class Losses:
    """Counts, in the game played only (``real``, set once it is built), the coins
    each seat's gains lost to the cap, and the one-time track rewards each seat won
    (with their VP), by watching the engine's own gain and reward calls."""

    def __init__(self, players: int):
        self.real = None
        self.coins_lost = [0] * players
        self.firsts = [0] * players
        self.first_vp = [0] * players

    def __enter__(self):
        from rulebook_games.engine.game import Game
        self.saved = Game.change_stock, Game._rewards
        change, rewards = self.saved
        watch = self

        def change_stock(game, player, resource, amount, verb):
            if game is not watch.real or resource != "coin" or verb != "gain":
                return change(game, player, resource, amount, verb)
            have = game.state.players[player].stock.get(resource, 0)
            change(game, player, resource, amount, verb)
            now = game.state.players[player].stock.get(resource, 0)
            if isinstance(amount, int) and amount > 0:
                watch.coins_lost[player] += amount - (now - have)

        def _rewards(game, track, value, player):
            if game is not watch.real or player is None:  # (a track of the game's)
                return rewards(game, track, value, player)
            before = set(game.state.claimed)
            vp = game.state.players[player].stock.get("vp", 0)
            rewards(game, track, value, player)
            new = set(game.state.claimed) - before
            if new:
                watch.firsts[player] += len(new)
                watch.first_vp[player] += game.state.players[player].stock.get("vp", 0) - vp

        Game.change_stock, Game._rewards = change_stock, _rewards
        return self

    def __exit__(self, *exc):
        from rulebook_games.engine.game import Game
        Game.change_stock, Game._rewards = self.saved


def one(seed: int, kinds: list[str], rs) -> dict:
    watch = Watch(2)
    with Losses(2) as losses:
        def wrap(agent, seat):
            watch.wrap(agent, seat)
            inner = agent.decide

            def decide(decision, view, game):
                if losses.real is None:  # the game played: the first asked is it
                    losses.real = game
                return inner(decision, view, game)
            agent.decide = decide
        game, result, spent = bench_agents.watched_game(rs, seed, kinds, wrap)
    st = game.state
    tracks = [{t: st.players[s].tracks.get(t, 0) for t in ("ocean", "air", "spaceflight")}
              for s in range(2)]
    return {"seed": seed, "scores": result.scores, "winners": result.winners,
            "idle_last": watch.idle_last, "idle_before": watch.idle_before,
            "air": [t["air"] for t in tracks], "space": [t["spaceflight"] for t in tracks],
            "ocean": [t["ocean"] for t in tracks], "spent": spent,
            "coins_lost": losses.coins_lost, "firsts": losses.firsts,
            "first_vp": losses.first_vp}


def main(argv=None) -> None:
    ap = bench_agents.fault_options(__doc__)
    ap.add_argument("--ruleset", default=str(ROOT / "rulesets" / NAME),
                    help="the ruleset's folder (another copy of Timespan: other weights)")
    args = ap.parse_args(argv)
    rs = load_ruleset(args.ruleset)
    keys = ("scores", "idle_last", "idle_before", "air", "space", "ocean", "coins_lost",
            "firsts", "first_vp")
    bench_agents.fault_duels(args, one, rs, keys)


if __name__ == "__main__":
    main()
