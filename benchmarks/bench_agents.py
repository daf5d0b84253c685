"""How strong the ismcts agent is, and how fast: paired games against greedy, solo games.

For each ruleset, ``--games`` two-player games of an agent spec (``--spec``,
the ismcts default unless given) against ``--against`` (greedy), seats
alternating with the seed (odd seeds: the searcher sits first). A win counts
1, a shared win 1/2; the win rate has a Wilson 95 % interval. Solo games
report the share won (a ruleset's solo goal) and the ranks (medals) earned.
The searcher's speed is measured on its own action decisions: iterations
per CPU-second and CPU-seconds per decision. Games run one after another, or
``--workers`` at a time in processes of their own (each game is still timed
in CPU-seconds, so the figures do not depend on how many run at once);
nothing here is asserted anywhere.

    python benchmarks/bench_agents.py --games 20
    python benchmarks/bench_agents.py --games 4 --rulesets legacy_gears_of_time \\
        --spec ismcts:iterations=200:playout=greedy-lite
    python benchmarks/bench_agents.py --games 0 --solo terraforming_mars:solo,timespan:scenario_1
    python benchmarks/bench_agents.py --games 40 --spec greedy --against greedy:eval=written

The last compares the evaluation learned from each ruleset's games (greedy's
default, see docs/agents.md) with the hand-written one. Each duel also
counts the cards that entered play per game for each side (zones that
record 'played'; in Terraforming Mars the corporation is one of them).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulebook_games.agents.ismcts import ISMCTSAgent  # noqa: E402
from rulebook_games.play.session import GameError, build_game, run  # noqa: E402
from rulebook_games.load.ruleset import load_ruleset  # noqa: E402

RULESETS = ["legacy_gears_of_time", "terraforming_mars", "timespan", "lantern_row"]


def wilson(wins: float, n: int, z: float | None = None) -> tuple[float, float]:
    """The Wilson score interval of a share (95 % unless ``z`` says otherwise)."""
    if n == 0:
        return 0.0, 1.0
    if z is None:
        try:
            from scipy.stats import norm
            z = float(norm.ppf(0.975))
        except ImportError:  # the report extra is not installed: the usual constant
            z = 1.959964
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def fault_options(doc: str):
    """The fault counters' options (benchmarks/*_faults.py): ``--games``,
    ``--first-seed``, ``--spec`` (the side measured) and ``--against``."""
    import argparse
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--spec", default="ismcts")
    ap.add_argument("--against", default="greedy")
    return ap


def watched_game(rs, seed: int, kinds: list[str], wrap):
    """One two-seat game of the agents ``kinds``, each seat's agent first passed to
    ``wrap(agent, seat)`` (a counter watching its answers, which it leaves as they
    are), played with no log: the game, its result and the CPU-seconds it took."""
    import time

    from rulebook_games.play.session import build_game, run
    game = build_game(rs, 2, seed, kinds, ())
    game.keep_log = False
    for seat, agent in enumerate(game.agents):
        wrap(agent, seat)
    start = time.process_time()
    result = run(game)
    return game, result, time.process_time() - start


def fault_duels(args, one, rs, keys, line=None) -> None:
    """The duels of the fault counters (benchmarks/*_faults.py): ``args.games`` seeds
    from ``args.first_seed``, seats alternating (odd seeds: ``args.spec`` sits first),
    each game played by ``one(seed, kinds, rs)``, which returns per seat the counts
    named by ``keys`` (and ``winners``, ``spent``). Prints each game's counts (``line``:
    the seat's own words, else each key's count and the other side's) and then the
    measured side's wins with their Wilson interval and each count's mean a game."""
    tot = {k: [0.0, 0.0] for k in keys}
    wins, n = 0.0, 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        me = 0 if seed % 2 == 1 else 1
        kinds = [args.spec, args.against] if me == 0 else [args.against, args.spec]
        out = one(seed, kinds, rs)
        n += 1
        if me in out["winners"]:
            wins += 1 / len(out["winners"])
        for k in keys:
            tot[k][0] += out[k][me] or 0
            tot[k][1] += out[k][1 - me] or 0
        said = line(out, me) if line else ", ".join(
            f"{k} {out[k][me]} ({out[k][1 - me]})" for k in keys)
        print(f"seed {seed}: {args.spec} seat {me + 1}, {said}, {out['spent']:.0f} CPU-s",
              flush=True)
    low, high = wilson(wins, n)
    print(f"{args.spec} against {args.against}: {wins:g} of {n} "
          f"({100 * wins / n:.0f} %, Wilson 95 % {100 * low:.0f}-{100 * high:.0f} %)")
    for k, (a, b) in tot.items():
        print(f"  {k}: {args.spec} {a / n:.2f} a game, {args.against} {b / n:.2f}")


class Clock:
    """Times a searcher's action decisions (CPU) and counts its iterations."""

    def __init__(self):
        self.decisions = 0
        self.seconds = 0.0
        self.iterations = 0

    def wrap(self, agent) -> None:
        inner = agent.decide

        def decide(decision, view, game):
            if decision.kind != "action":
                return inner(decision, view, game)
            start = time.process_time()
            answer = inner(decision, view, game)
            self.seconds += time.process_time() - start
            self.decisions += 1
            self.iterations += agent.last_iterations
            return answer
        agent.decide = decide


class Habits:
    """What each seat chose: its actions by key, its picks in set choices round by round
    (a set choice is a ``choose_some``, asked one pick at a time), and the first card it
    chose outside a set choice (in Terraforming Mars: its corporation)."""

    def __init__(self, players: int):
        self.actions = [Counter() for _ in range(players)]
        self.set_rounds = [set() for _ in range(players)]  # rounds with a set choice asked
        self.pick_rounds = [set() for _ in range(players)]  # ... and with an item picked
        self.picks = [0] * players
        self.first_card: list[str | None] = [None] * players

    def wrap(self, agent, seat: int) -> None:
        inner = agent.decide

        def decide(decision, view, game):
            answer = inner(decision, view, game)
            if decision.kind == "action":
                key = decision.options[answer].key or "?"
                self.actions[seat][
                    "card action" if key.startswith("card:") else key] += 1
            elif decision.some:
                self.set_rounds[seat].add(game.state.round)
                if decision.options[answer].value is not None:
                    self.pick_rounds[seat].add(game.state.round)
                    self.picks[seat] += 1
            elif decision.kind == "card" and self.first_card[seat] is None:
                self.first_card[seat] = decision.options[answer].label
            return answer
        agent.decide = decide

    def summary(self) -> list[dict]:
        return [{"actions": dict(self.actions[p]), "set_rounds": len(self.set_rounds[p]),
                 "pick_rounds": len(self.pick_rounds[p]), "picks": self.picks[p],
                 "first_card": self.first_card[p]} for p in range(len(self.actions))]


def play(rs, players: int, seed: int, kinds: list[str], variants=(), clock=None,
         habits: Habits | None = None):
    game = build_game(rs, players, seed, kinds, tuple(variants))
    game.keep_log = False
    if clock is not None:
        for agent in game.agents:
            if isinstance(agent, ISMCTSAgent):
                clock.wrap(agent)
    if habits is not None:
        for seat, agent in enumerate(game.agents):
            habits.wrap(agent, seat)
    start = time.process_time()
    result = run(game)
    return result, time.process_time() - start, game


def cards_played(game) -> list[int]:
    """How many cards entered play for each seat (zones that record 'played')."""
    out = [0] * game.n
    for (what, seat, _), times in game.state.tally.items():
        if what == "played" and 0 <= seat < game.n:
            out[seat] += times
    return out


def cards_dropped(game) -> list[int]:
    """How many cards each seat gained into a hand (zones that record 'gained') and let
    go unplayed: neither entered play (zones that record 'played') nor still held at the
    end (in Terraforming Mars: the cards sold or discarded)."""
    gained = [Counter() for _ in range(game.n)]
    for (what, seat, ident), times in game.state.tally.items():
        if what == "gained" and 0 <= seat < game.n:
            gained[seat][ident] += times
    for (what, seat, ident), times in game.state.tally.items():
        if what == "played" and 0 <= seat < game.n and ident in gained[seat]:
            gained[seat][ident] -= min(times, gained[seat][ident])
    records = {z: (e.data or {}).get("records") for z, e in game.rs.sections["zones"].items()
               if isinstance(e.data, dict)}
    for (zone, owner), here in game.state.zones.items():
        if records.get(zone) == "gained" and 0 <= owner < game.n:
            for c in here:
                ident = game.state.cards[c].def_id
                if gained[owner][ident]:
                    gained[owner][ident] -= 1
    return [sum(g.values()) for g in gained]


_RULESETS: dict = {}


def one_game(job: tuple) -> dict:
    """Play one game of a job (ruleset, players, seed, agent kinds, variants): what came of it."""
    name, players, seed, kinds, variants = job
    rs = _RULESETS.get(name)
    if rs is None:
        rs = _RULESETS[name] = load_ruleset(str(ROOT / "rulesets" / name))
    clock = Clock()
    habits = Habits(players)
    try:
        result, spent, game = play(rs, players, seed, kinds, variants, clock, habits)
    except GameError as exc:
        return {"seed": seed, "error": str(exc)}
    return {"seed": seed, "scores": result.scores, "winners": result.winners,
            "solo_won": result.solo_won, "rank": result.ranks[0] if result.ranks else None,
            "spent": spent, "clock": (clock.decisions, clock.seconds, clock.iterations),
            "habits": habits.summary(), "played": cards_played(game),
            "dropped": cards_dropped(game), "tracks": dict(game.state.tracks)}


def played(jobs: list[tuple], workers: int, clock: Clock):
    """The outcomes of the jobs in their order, ``workers`` processes at a time."""
    if workers <= 1:
        outcomes = map(one_game, jobs)
    else:
        from concurrent.futures import ProcessPoolExecutor
        pool = ProcessPoolExecutor(workers)
        outcomes = pool.map(one_game, jobs)
    for out in outcomes:
        if "clock" in out:
            decisions, seconds, iterations = out["clock"]
            clock.decisions += decisions
            clock.seconds += seconds
            clock.iterations += iterations
        yield out


def duel(name: str, spec: str, against: str, games: int, clock: Clock, workers: int = 1,
         first_seed: int = 1) -> dict:
    wins, seconds, errors = 0.0, [], 0
    habits = [[], []]  # per side (0: the spec, 1: against), one summary per game
    entered = [0, 0]  # cards entered play: the measured agent's, the other's
    dropped = [0, 0]  # cards gained into a hand and let go unplayed (sold)
    seeds = range(first_seed, first_seed + games)
    jobs = [(name, 2, seed, [spec, against] if seed % 2 == 1 else [against, spec], ())
            for seed in seeds]
    for out in played(jobs, workers, clock):
        seed = out["seed"]
        me = 0 if seed % 2 == 1 else 1
        if "error" in out:
            errors += 1
            print(f"  {name} seed {seed}: {out['error']}", flush=True)
            continue
        seconds.append(out["spent"])
        habits[0].append(out["habits"][me])
        habits[1].append(out["habits"][1 - me])
        entered[0] += out["played"][me]
        entered[1] += out["played"][1 - me]
        dropped[0] += out["dropped"][me]
        dropped[1] += out["dropped"][1 - me]
        if me in out["winners"]:
            wins += 1 / len(out["winners"])
        print(f"  {name} seed {seed}: seat {me + 1} {spec}, scores {out['scores']}, "
              f"winners {[w + 1 for w in out['winners']]}, cards played {out['played']}, "
              f"gained and let go {out['dropped']}, "
              f"set choices picked in {[h['pick_rounds'] for h in out['habits']]} of "
              f"{[h['set_rounds'] for h in out['habits']]} rounds, "
              f"{out['spent']:.1f} CPU-s", flush=True)
    n = len(seconds)
    low, high = wilson(wins, n)
    return {"ruleset": name, "games": n, "wins": wins, "rate": wins / n if n else 0.0,
            "low": low, "high": high, "errors": errors,
            "seconds": sum(seconds) / n if n else 0.0, "max_seconds": max(seconds or [0]),
            "habits": habits, "played": entered[0] / n if n else 0.0,
            "played_other": entered[1] / n if n else 0.0,
            "dropped": dropped[0] / n if n else 0.0, "dropped_other": dropped[1] / n if n else 0.0}


def habits_report(name: str, sides: list[str], habits: list[list[dict]]) -> None:
    """What each side did on average: its most chosen actions per game, the rounds in which
    it picked something in a set choice, and the first cards it chose."""
    for side, games in zip(sides, habits):
        if not games:
            continue
        n = len(games)
        total = Counter()
        for h in games:
            total.update(h["actions"])
        top = ", ".join(f"{k} {v / n:.1f}" for k, v in total.most_common(8))
        asked = sum(h["set_rounds"] for h in games)
        picked = sum(h["pick_rounds"] for h in games)
        picks = sum(h["picks"] for h in games)
        first = Counter(h["first_card"] for h in games if h["first_card"])
        print(f"  {name}, {side}: actions per game: {top}")
        print(f"    set choices: an item picked in {picked} of {asked} rounds with one "
              f"({picks / n:.1f} items a game); first card chosen: "
              + ", ".join(f"{k} {v}" for k, v in first.most_common(5)))


def solo(name: str, variant: str, spec: str, games: int, clock: Clock, workers: int = 1,
         first_seed: int = 1) -> dict:
    won, ranks, n = 0, Counter(), 0
    jobs = [(name, 1, seed, [spec], (variant,) if variant else ())
            for seed in range(first_seed, first_seed + games)]
    for out in played(jobs, workers, clock):
        if "error" in out:
            print(f"  {name} {variant} seed {out['seed']}: {out['error']}", flush=True)
            continue
        n += 1
        won += bool(out["solo_won"])
        ranks[out["rank"] or "none"] += 1
        h = out["habits"][0]
        print(f"  {name} {variant} seed {out['seed']}: score {out['scores'][0]}, won "
              f"{out['solo_won']}, rank {out['rank']}, cards played {out['played'][0]}, "
              f"gained and let go {out['dropped'][0]}, set choices picked in "
              f"{h['pick_rounds']} of {h['set_rounds']} rounds, global tracks at the end "
              f"{out['tracks']}, {out['spent']:.1f} CPU-s", flush=True)
    low, high = wilson(won, n)
    return {"ruleset": name, "variant": variant, "games": n, "won": won, "low": low,
            "high": high, "ranks": dict(ranks)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="two-player games per ruleset")
    ap.add_argument("--rulesets", default=",".join(RULESETS))
    ap.add_argument("--spec", default="ismcts", help="the agent measured (default: ismcts)")
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--solo", default="", help="RULESET:VARIANT,... played solo by --spec")
    ap.add_argument("--solo-games", type=int, default=10)
    ap.add_argument("--workers", type=int, default=1, help="games played at once (processes)")
    ap.add_argument("--first-seed", type=int, default=1)
    args = ap.parse_args(argv)
    wall = time.perf_counter()
    clocks: dict[str, Clock] = {}  # the search's speed in each ruleset
    rows = []
    if args.games:
        for name in [r for r in args.rulesets.split(",") if r]:
            clock = clocks[name] = Clock()
            rows.append(duel(name, args.spec, args.against, args.games, clock, args.workers,
                             args.first_seed))
    solos = []
    for item in [s for s in args.solo.split(",") if s]:
        name, _, variant = item.partition(":")
        clock = clocks[f"{name} {variant} solo"] = Clock()
        solos.append(solo(name, variant, args.spec, args.solo_games, clock, args.workers,
                          args.first_seed))
    print(f"\n{args.spec} against {args.against}, 2 players, seats alternating")
    for r in rows:
        habits_report(r["ruleset"], [args.spec, args.against], r["habits"])
    print("| ruleset | games | wins | win rate | Wilson 95 % | CPU-s per game (max) | "
          "cards played per game (the other's) | cards gained and let go per game (the "
          "other's) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['ruleset']} | {r['games']} | {r['wins']:g} | {100 * r['rate']:.0f} % | "
              f"{100 * r['low']:.0f}–{100 * r['high']:.0f} % | {r['seconds']:.1f} "
              f"({r['max_seconds']:.1f}) | {r['played']:.1f} ({r['played_other']:.1f}) | "
              f"{r['dropped']:.1f} ({r['dropped_other']:.1f}) |"
              + (f" {r['errors']} errors" if r["errors"] else ""))
    if solos:
        print("\n| solo | games | won | Wilson 95 % | ranks |")
        print("|---|---|---|---|---|")
        for s in solos:
            ranks = ", ".join(f"{k} {v}" for k, v in sorted(s["ranks"].items()))
            print(f"| {s['ruleset']} {s['variant']} | {s['games']} | {s['won']} | "
                  f"{100 * s['low']:.0f}–{100 * s['high']:.0f} % | {ranks} |")
    for name, clock in clocks.items():
        if clock.decisions:
            print(f"search in {name}: {clock.decisions} action decisions, "
                  f"{clock.iterations / clock.seconds:.0f} iterations per CPU-second, "
                  f"{clock.seconds / clock.decisions:.3f} CPU-s per decision")
    print(f"wall time {time.perf_counter() - wall:.0f} s with {args.workers} worker(s)")


if __name__ == "__main__":
    main()
