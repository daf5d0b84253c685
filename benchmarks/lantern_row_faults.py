"""What keen Lantern Row players saw the agents do wrong, counted over bench_agents.py's games.

The games are bench_agents.py's duels (the same seeds, seats alternating: odd
seeds, the measured spec sits first), with the weights file given (``--weights``,
the ruleset's own by default) on both sides, counted for each side:

- hangs skipped: "end turn" chosen while a hang was offered;
- draws and buys in the last hour, and of them those after the seat's own hang
  of that turn (a lantern bought then can no longer score);
- lanterns left in hand at the end;
- festivals ended (the hour made the last by the seat's own move: its sixth
  lantern, or the row emptied) and of them those the seat then lost (issue 29:
  "ismcts ended the game while behind");
- big lanterns within reach: turns that began with a 6-cost lantern in the row the
  seat could pay for within the turn (its coins, and 2 from the till or 3 from a
  Lucky Coin in its hand or the row, with room in its hand), and of them those
  that ended with none bought, and of those the lanterns the other seat then took
  (a keen player, 2026-12-06: "a keen player beats it by buying the big lanterns
  it won't");
- draws unseen, in all.

With ``--oracle`` the measured side's searches see the true deck and hands (every
copy it plays is the real game, nothing dealt again): a player no person can be,
for how much of the game is luck (issue 29, the 90 % target).

    python benchmarks/lantern_row_faults.py --games 60 [--weights FILE] [--oracle]
    python benchmarks/lantern_row_faults.py --games 40 --spec ismcts --against ismcts
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_agents import wilson  # noqa: E402

import rulebook_games.agents.learned as learned  # noqa: E402
import rulebook_games.agents.lookahead as lookahead  # noqa: E402
from rulebook_games.agents.features import Features  # noqa: E402
from rulebook_games.load.learned import read_learned  # noqa: E402
from rulebook_games.load.ruleset import load_ruleset  # noqa: E402
from rulebook_games.play.session import build_game, run  # noqa: E402

FAULTS = ("skipped hangs", "last-hour draws and buys", "of them after the turn's hang",
          "lanterns left in hand", "festivals ended", "of them lost",
          "big lanterns within reach", "of them passed up", "and the other seat took",
          "draws unseen")
BIG = 6  # the cost of the big lanterns (Crimson Pagoda, Sun Wheel, Willow Spirit)


def within_reach(rs, st, seat) -> list[int]:
    """The 6-cost lanterns of the row the seat can pay for this turn (see the docstring)."""
    kind = lambda c: rs.cards[st.cards[c].def_id]  # noqa: E731
    hand = st.zones[("hand", seat)]
    row = st.zones.get(("row", -1), [])
    coins = st.players[seat].stock.get("coin", 0)
    lucky = any(st.cards[c].def_id == "lucky_coin" for c in hand) or (
        len(hand) < 4 and any(st.cards[c].def_id == "lucky_coin" for c in row))
    if len(hand) >= 5 or coins + max(2, 3 * lucky) < BIG:
        return []
    return [c for c in row if kind(c).data.get("type") == "lantern"
            and kind(c).data.get("cost") == BIG]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--spec", default="ismcts")
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--weights", default=None, help="a weights file for both sides")
    ap.add_argument("--oracle", action="store_true",
                    help="the measured side's searches see the true deck and hands")
    args = ap.parse_args()
    rs = load_ruleset(str(ROOT / "rulesets" / "lantern_row"))
    if args.weights:
        value = learned.LearnedValue(read_learned(Path(args.weights), rs), rs)
        learned.learned_value = lambda r, players=None: value
    oracle: set = set()
    dealt = lookahead.determinise

    def determinise(game, seat, rng, search=None, dealing=None):
        if seat in oracle:  # nothing dealt again: the copy is the real game
            dealing = lookahead.Dealing.__new__(lookahead.Dealing)
            dealing.pools, dealing.unordered = [], []
        return dealt(game, seat, rng, search, dealing)
    lookahead.determinise = determinise
    reader = Features(rs)
    wins, first_wins, cpu = 0.0, 0.0, 0.0
    count = {k: [0, 0] for k in FAULTS}  # [the measured side, the other]
    for seed in range(args.first_seed, args.first_seed + args.games):
        me = 0 if seed % 2 else 1
        kinds = [args.spec, args.against] if me == 0 else [args.against, args.spec]
        oracle.clear()
        if args.oracle:
            oracle.add(me)
        game = build_game(rs, 2, seed, kinds, ())
        game.keep_log = False
        hung: dict = {}
        reach: dict = {}  # seat -> (turn number, the big lanterns within reach then)
        passed: list = []  # (the seat, the lanterns it passed up)
        last = {"seat": None, "round": None, "last": False, "ender": None}
        for seat, agent in enumerate(game.agents):
            side = 0 if seat == me else 1

            def decide(d, view, g, inner=agent.decide, side=side, seat=seat):
                now = reader.last_round(g)
                if now and not last["last"] and last["round"] == g.state.round \
                        and last["ender"] is None:
                    last["ender"] = last["seat"]  # the move before made this hour the last
                last.update(last=now, round=g.state.round, seat=seat)
                st = g.state
                if d.kind == "action" and reach.get(seat, (None,))[0] != st.turn_number:
                    close(seat, st)
                    reach[seat] = (st.turn_number, within_reach(rs, st, seat))
                    count["big lanterns within reach"][side] += bool(reach[seat][1])
                answer = inner(d, view, g)
                if d.kind == "action" and not d.is_range:
                    keys = [o.key for o in d.options]
                    key = d.options[answer].key or ""
                    if key == "end" and "action:hang" in keys:
                        count["skipped hangs"][side] += 1
                    if key == "action:hang":
                        hung[seat] = g.state.turn_number
                    if key == "action:scout":
                        count["draws unseen"][side] += 1
                    if (key == "action:scout" or key.startswith("action:buy")) and now:
                        count["last-hour draws and buys"][side] += 1
                        if hung.get(seat) == g.state.turn_number:
                            count["of them after the turn's hang"][side] += 1
                return answer
            agent.decide = decide

        def close(seat, st):
            """The seat's turn with big lanterns within reach is over: bought or not?"""
            if seat not in reach or not reach[seat][1]:
                return
            mine = st.zones[("hand", seat)] + st.zones[("stall", seat)]
            if not any(c in mine for c in reach[seat][1]):
                count["of them passed up"][0 if seat == me else 1] += 1
                passed.append((seat, reach[seat][1]))
            reach.pop(seat)
        start = time.process_time()
        result = run(game)
        cpu += time.process_time() - start
        st = game.state
        for seat in range(2):
            close(seat, st)
        for seat, cards in passed:  # the other seat bought one of them later
            other = st.zones[("hand", 1 - seat)] + st.zones[("stall", 1 - seat)]
            count["and the other seat took"][0 if seat == me else 1] += any(
                c in other for c in cards)
        for seat in range(2):
            side = 0 if seat == me else 1
            count["lanterns left in hand"][side] += sum(
                1 for c in st.zones[("hand", seat)]
                if rs.cards[st.cards[c].def_id].data.get("type") == "lantern")
        if last["ender"] is not None:
            side = 0 if last["ender"] == me else 1
            count["festivals ended"][side] += 1
            count["of them lost"][side] += last["ender"] not in result.winners
        wins += (me in result.winners) / len(result.winners)
        first_wins += (0 in result.winners) / len(result.winners)
        ended = "" if last["ender"] is None else f", festival ended by seat {last['ender'] + 1}"
        print(f"seed {seed}: seat {me + 1} {args.spec}, scores {result.scores}, "
              f"winners {[w + 1 for w in result.winners]}{ended}", flush=True)
    n = args.games
    low, high = wilson(wins, n)
    print(f"{args.spec}{' (oracle)' if args.oracle else ''} against {args.against}, "
          f"weights {args.weights or 'shipped'}, seeds {args.first_seed}-"
          f"{args.first_seed + n - 1}: won {wins:g} of {n} ({100 * wins / n:.0f} %, "
          f"{100 * low:.0f}-{100 * high:.0f} %); seat 1 won {first_wins:g}; "
          f"{cpu / n:.2f} CPU-s a game")
    for k in FAULTS:
        print(f"  {k}: {args.spec} {count[k][0]}, {args.against} {count[k][1]}")


if __name__ == "__main__":
    main()
