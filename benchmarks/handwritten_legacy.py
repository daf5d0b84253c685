"""Legacy: Gears of Time written by hand, as the yardstick for the interpreter's speed.

This module plays Legacy: Gears of Time the way the ruleset in
``rulesets/legacy_gears_of_time`` plays it, written directly in Python: lists,
small classes and plain functions, no interpreter and no generic machinery.
It exists only so that ``bench_engine.py --baseline`` can compare Rulebook with
what a competent engineer would write by hand for speed; the product never
uses it, and it imports nothing from ``interpreter``. The card data (ids,
copies, costs, points, prerequisites, fields) and the starting stocks and
constants are read from the ruleset's YAML files; the rules, including the
completion bonuses and fate effects that the YAML writes as effect code, are
written out below, keyed by card id (loading refuses a ruleset whose cards
with such blocks differ from the ones implemented here).

The agents are uniform random over the legal options of the same decisions
Rulebook asks (the action, then each choice inside it), and a decision with
a single legal answer is taken without asking and not counted, as in
Rulebook. The game's random source and each seat's agent are seeded the way
Rulebook seeds them, and every list is kept in the order Rulebook keeps its
zones, so a seed plays the very same game as ``rulebook simulate`` with random
agents: the same decisions and the same scores (``bench_engine.py`` reports
how many seeds agree).

    python benchmarks/handwritten_legacy.py [--games 200] [--players 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import time

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
RULESET_DIR = os.path.join(HERE, os.pardir, "rulesets", "legacy_gears_of_time")

TECHNOLOGY, FATE, CHARACTER = "technology", "fate", "character"
FRAMES = 10  # time frames on the board
ACTIONS_PER_TURN = 3
TURNS_PER_PHASE = 4
ROUNDS = 4

# the actions, in the order the flow declares them (the order options are offered in)
TRAVEL, ESTABLISH, INFLUENCE, RESEARCH, PLAY_FATE, END = range(6)


# ---------------------------------------------------------------- card data
class CardDef:
    """One card of the ruleset's files: its printed facts."""

    __slots__ = ("id", "type", "deck", "copies", "cost", "points", "prereqs", "fundamental",
                 "lasting", "sought", "crown", "blocks")

    def __init__(self, entry: dict):
        fields = entry.get("fields") or {}
        self.id = entry["id"]
        self.type = entry.get("type")
        self.deck = entry.get("deck")
        self.copies = int(entry.get("copies", 1) or 1)
        self.cost = int(entry.get("cost", 0) or 0)
        self.points = int(fields.get("points", 0))
        self.prereqs = tuple(fields.get("prerequisites", ()))
        self.fundamental = bool(fields.get("fundamental", False))
        self.lasting = bool(fields.get("lasting", False))
        self.sought = fields.get("sought")
        self.crown = int(fields.get("crown", 0))
        self.blocks = set(entry.get("blocks") or ())


class RulesetData:
    """The card definitions, in file order, and the numbers the rules start from."""

    def __init__(self, path: str = RULESET_DIR):
        with open(os.path.join(path, "ruleset.yaml"), encoding="utf-8") as fh:
            manifest = yaml.safe_load(fh)
        self.cards: list[CardDef] = []
        components = {}
        for name in manifest["include"]:
            with open(os.path.join(path, name), encoding="utf-8") as fh:
                doc = yaml.safe_load(fh)
            if doc.get("kind") == "cards":
                self.cards.extend(CardDef(entry) for entry in doc["cards"])
            elif doc.get("kind") == "components":
                components = doc
        resources = {r["id"]: r for r in components["resources"]}
        tracks = {t["id"]: t for t in components["tracks"]}
        constants = components["constants"]
        self.stored_start = int(resources["stored_cube"]["start"])
        self.supply_start = int(resources["supply_cube"]["start"])
        self.present_day_start = int(tracks["present_day"]["start"])
        self.hand_size = int(constants["hand_size"])
        self.frames = int(constants["board_frames"])
        self.min_players = int(manifest["players"]["min"])
        self.max_players = int(manifest["players"]["max"])
        if self.frames != FRAMES:
            raise ValueError(f"this baseline is written for {FRAMES} time frames")
        for block, table in (("completion", COMPLETIONS), ("fate_effect", FATE_EFFECTS)):
            written = {c.id for c in self.cards if block in c.blocks}
            if written != set(table):
                raise ValueError(f"cards with a {block} block differ from the hand-written "
                                 f"ones: {sorted(written ^ set(table))}")


class Card:
    """A physical technology or fate card in one game: its cubes and markers."""

    __slots__ = ("d", "id", "cubes", "failed", "doomed", "willed", "secured")

    def __init__(self, d: CardDef, players: int):
        self.d = d
        self.id = d.id
        self.cubes = [0] * players
        self.failed = self.doomed = self.willed = self.secured = False


# ---------------------------------------------------------------- the game
class Game:
    """One game from setup to final scoring, its decisions answered at random."""

    def __init__(self, data: RulesetData, players: int, seed: int):
        if not data.min_players <= players <= data.max_players:
            raise ValueError(f"{players} players: the game is for "
                             f"{data.min_players}-{data.max_players}")
        self.data = data
        self.n = players
        self.rng = random.Random(seed)
        # seeded like Rulebook's random agents, one per seat
        self.agents = [random.Random(seed * 1_000_003 + seat * 7919 + 17)
                       for seat in range(players)]
        self.decisions = 0
        self.deck: list[Card] = []
        self.characters: list[CardDef] = []
        for d in data.cards:
            if d.type == CHARACTER:
                self.characters.extend([d] * d.copies)
            else:
                self.deck.extend(Card(d, players) for _ in range(d.copies))
        self.discard: list[Card] = []
        self.frames: list[list[Card]] = [[] for _ in range(FRAMES + 1)]  # 1..10 used
        self.fates_in_play: list[Card] = []
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.character: list[CardDef | None] = [None] * players
        self.stored = [data.stored_start] * players
        self.supply = [data.supply_start] * players
        self.score = [0] * players
        self.slot = [0] * players
        self.present_day = data.present_day_start
        self.frame = [self.present_day] * players
        self.turn_order = list(range(players))
        self.round = 0

    # ------------------------------------------------------------ decisions
    def ask(self, seat: int, options: list):
        """The seat's agent picks one option; a single option is taken unasked."""
        k = len(options)
        if k == 1:
            return options[0]
        if k == 0:
            raise RuntimeError("a choice with nothing to choose from")
        self.decisions += 1
        return options[self.agents[seat].randrange(k)]

    def ask_number(self, seat: int, low: int, high: int) -> int:
        if high == low:
            return low
        self.decisions += 1
        return self.agents[seat].randint(low, high)

    # ------------------------------------------------------------- cards
    def draw(self, count: int, target: list) -> None:
        """Draw from the top of the deck; an empty deck is refilled from the discard pile."""
        deck = self.deck
        for _ in range(count):
            if not deck:
                deck.extend(self.discard)
                self.discard = []
                self.rng.shuffle(deck)
                if not deck:
                    return
            target.append(deck.pop(0))

    def draw_two_keep_one(self, seat: int) -> None:
        looking: list[Card] = []
        self.draw(2, looking)
        if looking:
            keep = self.ask(seat, looking)
            looking.remove(keep)
            self.hands[seat].append(keep)
        self.discard.extend(looking)

    def free_travel(self, seat: int) -> None:
        self.frame[seat] = self.ask_number(seat, 1, self.frame[seat])

    def store_from_supply(self, seat: int, n: int) -> None:
        moved = min(n, self.supply[seat])
        self.supply[seat] -= moved
        self.stored[seat] += moved

    # ------------------------------------------------------------ timeline
    def timeline(self) -> list[tuple[int, Card]]:
        """Every technology on the timeline with its frame, left to right."""
        return [(z, c) for z in range(1, FRAMES + 1) for c in self.frames[z]]

    def succeeds(self, card: Card, where: int) -> bool:
        if card.willed:
            return True
        if card.doomed:
            return False
        if card.d.fundamental:
            return True
        for need in card.d.prereqs:
            if not self.succeeded_before(need, where):
                return False
        return True

    def succeeded_before(self, need: str, before: int) -> bool:
        """Whether a copy of ``need`` succeeds in a frame strictly left of ``before``."""
        frames = self.frames
        for z in range(1, before):
            for c in frames[z]:
                if c.id == need and self.succeeds(c, z):
                    return True
        return False

    def mark_failures(self) -> None:
        frames = self.frames
        for z in range(1, FRAMES + 1):
            for c in frames[z]:
                c.failed = not self.succeeds(c, z)

    def leaders(self, card: Card) -> list[int]:
        cubes = card.cubes
        best = max(cubes)
        if best == 0:
            return []
        return [p for p in range(self.n) if cubes[p] == best]

    def frames_with_cubes(self, p: int) -> list[int]:
        frames = self.frames
        return [z for z in range(1, FRAMES + 1) if any(c.cubes[p] > 0 for c in frames[z])]

    def can_establish(self, seat: int, card: Card, discount: int) -> bool:
        if card.d.type != TECHNOLOGY:
            return False
        f = self.frame[seat]
        if f >= self.present_day:
            return False
        here = self.frames[f]
        if len(here) >= self.present_day - f:
            return False
        cid = card.id
        for c in here:
            if c.id == cid:
                return False
        return len(self.hands[seat]) - 1 >= max(0, card.d.cost - discount)

    def meets_requirement(self, seat: int, card: Card) -> bool:
        test = FATE_REQUIREMENTS.get(card.id)
        return True if test is None else test(self, seat)

    # ------------------------------------------------------------ actions
    def turn(self, seat: int) -> None:
        taken = 0
        frames = self.frames
        while True:
            hand = self.hands[seat]
            options = []
            if taken < ACTIONS_PER_TURN:
                f = self.frame[seat]
                if f > 1:
                    options.append(TRAVEL)
                if f < self.present_day and len(frames[f]) < self.present_day - f and \
                        any(self.can_establish(seat, c, 0) for c in hand):
                    options.append(ESTABLISH)
                if self.stored[seat] > 0 and frames[f]:
                    options.append(INFLUENCE)
                options.append(RESEARCH)
            if any(c.d.type == FATE and self.meets_requirement(seat, c) for c in hand):
                options.append(PLAY_FATE)
            if taken >= ACTIONS_PER_TURN:
                options.append(END)
            pick = self.ask(seat, options)
            if pick == END:
                return
            if pick == TRAVEL:
                self.frame[seat] = self.ask_number(seat, 1, self.frame[seat] - 1)
            elif pick == ESTABLISH:
                self.establish(seat, 0)
            elif pick == INFLUENCE:
                tech = self.ask(seat, frames[self.frame[seat]])
                n = self.ask_number(seat, 1, self.stored[seat])
                self.stored[seat] -= n
                tech.cubes[seat] += n
            elif pick == RESEARCH:
                self.draw_two_keep_one(seat)
            else:
                self.play_fate(seat)
                continue  # a free action
            taken += 1

    def establish(self, seat: int, discount: int) -> None:
        hand = self.hands[seat]
        tech = self.ask(seat, [c for c in hand if self.can_establish(seat, c, discount)])
        hand.remove(tech)
        self.frames[self.frame[seat]].append(tech)
        for _ in range(max(0, tech.d.cost - discount)):
            paid = self.ask(seat, hand)
            hand.remove(paid)
            self.discard.append(paid)
        n = min(tech.d.cost, self.supply[seat])
        self.supply[seat] -= n
        tech.cubes[seat] += n
        self.mark_failures()
        if not tech.failed and tech.id in COMPLETIONS:
            COMPLETIONS[tech.id](self, seat, tech)

    def play_fate(self, seat: int) -> None:
        hand = self.hands[seat]
        played = self.ask(seat, [c for c in hand
                                 if c.d.type == FATE and self.meets_requirement(seat, c)])
        hand.remove(played)
        self.fates_in_play.append(played)  # out of the hand first: it cannot pay for itself
        FATE_EFFECTS[played.id](self, seat)
        if not played.d.lasting:
            self.fates_in_play.remove(played)
            self.discard.append(played)

    # ------------------------------------------------------------ round end
    def discard_tech(self, card: Card, where: int) -> None:
        cubes = card.cubes
        for p in range(self.n):
            self.supply[p] += cubes[p]
            cubes[p] = 0
        card.failed = card.doomed = card.willed = card.secured = False
        self.frames[where].remove(card)
        self.discard.append(card)

    def kept_copy(self, cid: str) -> Card | None:
        copies = [c for _, c in self.timeline() if c.id == cid]
        for c in copies:
            if c.secured:
                return c
        for c in copies:
            if not c.failed:
                return c
        return copies[-1] if copies else None

    def clarify(self) -> None:
        self.frame = [self.present_day] * self.n
        for z, c in self.timeline():
            if sum(c.cubes) == 0 and not c.secured:
                self.discard_tech(c, z)
        self.mark_failures()
        for z, c in self.timeline():
            if self.kept_copy(c.id) is not c:
                self.discard_tech(c, z)
        self.mark_failures()

    def score_technologies(self) -> None:
        line = self.timeline()
        for _, c in line:
            if c.failed:
                continue
            leading = self.leaders(c)
            if not leading:
                continue
            cid = c.id
            dependants = sum(1 for _, d in line if cid in d.d.prereqs and not d.failed)
            share = c.d.points * (1 + dependants) // len(leading)
            for p in leading:
                self.score[p] += share
        for p in range(self.n):
            hero = self.character[p]
            if hero is None:
                continue
            sought = next((c for _, c in line if c.id == hero.sought), None)
            if sought is None:
                continue
            leading = self.leaders(sought)
            if p in leading:
                self.score[p] += hero.crown // len(leading)

    def return_cubes(self) -> None:
        for _, c in self.timeline():
            for p in self.leaders(c):
                c.cubes[p] -= 1
                if c.failed:
                    self.supply[p] += 1
                else:
                    self.stored[p] += 1

    def prepare_next_round(self) -> None:
        self.discard.extend(self.fates_in_play)
        self.fates_in_play = []
        for _, c in self.timeline():
            c.doomed = c.willed = c.secured = False
        self.mark_failures()
        for p in range(self.n):
            self.draw(max(0, self.data.hand_size - len(self.hands[p])), self.hands[p])
        self.present_day = min(FRAMES, self.present_day + 1)
        self.frame = [self.present_day] * self.n
        self.choose_turn_order()

    def choose_turn_order(self) -> None:
        """The fewest stored cubes choose a place first (ties in the previous order)."""
        self.slot = [0] * self.n
        for p in sorted(self.turn_order, key=self.stored.__getitem__):
            free = [s for s in range(1, self.n + 1) if s not in self.slot]
            self.slot[p] = self.ask(p, free)
        self.turn_order = sorted(range(self.n), key=self.slot.__getitem__)

    # ------------------------------------------------------------ the game
    def setup(self) -> None:
        n = self.n
        self.rng.shuffle(self.deck)
        self.present_day = min(FRAMES, self.present_day + n - 2)
        first = self.rng.randint(1, n)
        self.frame = [self.present_day] * n
        self.slot = [(seat + 1 - first + n) % n + 1 for seat in range(n)]
        self.turn_order = sorted(range(n), key=self.slot.__getitem__)
        for place, p in enumerate(self.turn_order, 1):
            extra = 1 if place in (2, 3) else 2 if place == 4 else 0
            self.draw(self.data.hand_size + extra, self.hands[p])
        for p in reversed(self.turn_order):
            hero = self.ask(p, self.characters)
            self.characters.remove(hero)
            self.character[p] = hero

    def play(self) -> dict:
        self.setup()
        for number in range(1, ROUNDS + 1):
            self.round = number
            for _ in range(TURNS_PER_PHASE):
                for seat in list(self.turn_order):
                    self.turn(seat)
            self.clarify()
            self.score_technologies()
            self.return_cubes()
            if number < ROUNDS:
                self.prepare_next_round()
        return self.result()

    def ahead_of(self, p: int, q: int) -> bool:
        if self.score[p] != self.score[q]:
            return self.score[p] > self.score[q]
        if self.stored[p] != self.stored[q]:
            return self.stored[p] > self.stored[q]
        return self.slot[p] < self.slot[q]

    def result(self) -> dict:
        places = [1 + sum(1 for q in range(self.n) if q != p and self.ahead_of(q, p))
                  for p in range(self.n)]
        keyed = [(self.score[p], -places[p]) for p in range(self.n)]
        best = max(keyed)
        return {"scores": list(self.score), "winners": [p for p in range(self.n)
                                                        if keyed[p] == best],
                "decisions": self.decisions, "rounds": self.round}


# ------------------------------------------- effects the YAML writes as code
def _place_one_from_supply(g: Game, seat: int, tech: Card) -> None:
    n = min(1, g.supply[seat])
    g.supply[seat] -= n
    tech.cubes[seat] += n


def _travel_and_draw(n: int):
    def bonus(g: Game, seat: int, tech: Card) -> None:
        g.free_travel(seat)
        g.draw(n, g.hands[seat])
    return bonus


def _draw(n: int):
    def bonus(g: Game, seat: int, tech: Card) -> None:
        g.draw(n, g.hands[seat])
    return bonus


def _store(n: int):
    def bonus(g: Game, seat: int, tech: Card) -> None:
        g.store_from_supply(seat, n)
    return bonus


# completion bonuses: (game, seat, the technology) when it succeeds as it is established
COMPLETIONS = {
    "agriculture": _place_one_from_supply,
    "writing": _draw(1),
    "currency": _store(1),
    "cartography": _travel_and_draw(1),
    "banking": _store(2),
    "printing_press": lambda g, seat, tech: g.draw_two_keep_one(seat),
    "navigation": _travel_and_draw(2),
    "telephone": _draw(1),
    "internet": _draw(2),
}


def _frames_where(g: Game, test) -> list[int]:
    frames = g.frames
    return [z for z in range(1, FRAMES + 1) if any(test(c) for c in frames[z])]


def _not_what_we_hoped_for(g: Game, seat: int) -> None:
    era = g.ask(seat, _frames_where(g, lambda c: not c.d.fundamental))
    target = g.ask(seat, [c for c in g.frames[era] if not c.d.fundamental])
    target.willed = False  # the later of this card and Will Into Existence counts
    target.doomed = True
    g.mark_failures()


def _will_into_existence(g: Game, seat: int) -> None:
    era = g.ask(seat, _frames_where(g, lambda c: c.failed))
    target = g.ask(seat, [c for c in g.frames[era] if c.failed])
    target.willed = True
    g.mark_failures()


def _perfectly_laid_plans(g: Game, seat: int) -> None:
    era = g.ask(seat, g.frames_with_cubes(seat))
    target = g.ask(seat, [c for c in g.frames[era] if c.cubes[seat] > 0])
    target.secured = True


def _lost_to_history(g: Game, seat: int) -> None:
    rival = g.ask(seat, [p for p in range(g.n) if p != seat and g.frames_with_cubes(p)])
    era = g.ask(seat, g.frames_with_cubes(rival))
    target = g.ask(seat, [c for c in g.frames[era] if c.cubes[rival] > 0])
    n = min(2, target.cubes[rival])
    target.cubes[rival] -= n
    g.supply[rival] += n


def _slip_through_time(g: Game, seat: int) -> None:
    g.free_travel(seat)
    g.draw_two_keep_one(seat)


FATE_EFFECTS = {
    "not_what_we_hoped_for": _not_what_we_hoped_for,
    "will_into_existence": _will_into_existence,
    "perfectly_laid_plans": _perfectly_laid_plans,
    "flash_of_insight": lambda g, seat: g.establish(seat, 1),
    "lost_to_history": _lost_to_history,
    "slip_through_time": _slip_through_time,
}

# when each fate card may be played (a card missing here may always be played)
FATE_REQUIREMENTS = {
    "not_what_we_hoped_for": lambda g, seat: any(not c.d.fundamental for _, c in g.timeline()),
    "will_into_existence": lambda g, seat: any(c.failed for _, c in g.timeline()),
    "perfectly_laid_plans": lambda g, seat: len(g.frames_with_cubes(seat)) > 0,
    "flash_of_insight": lambda g, seat: any(g.can_establish(seat, c, 0) for c in g.hands[seat]),
    "lost_to_history": lambda g, seat: any(len(g.frames_with_cubes(p)) > 0
                                           for p in range(g.n) if p != seat),
}


def play_game(data: RulesetData, players: int, seed: int) -> dict:
    return Game(data, players, seed).play()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1, help="the first seed")
    args = ap.parse_args()
    data = RulesetData()
    decisions = 0
    start = time.process_time()
    for seed in range(args.seed, args.seed + args.games):
        decisions += play_game(data, args.players, seed)["decisions"]
    took = time.process_time() - start
    print(f"hand-written Legacy, {args.players} players, {args.games} random games: "
          f"{args.games / took:.1f} games/s, {decisions / args.games:.1f} decisions/game, "
          f"{decisions / took:.0f} decisions/s (CPU time)")


if __name__ == "__main__":
    main()
