"""The game: state built from a checked ruleset, and the runtime effects run against.

:class:`Game` owns a :class:`State` (plain data: players, tracks, zones, cards,
spaces, the random source) and implements the runtime interface that compiled
effects call (:class:`interpreter.lang.runtime.Runtime`). It asks players
questions only through :meth:`Game.decide`, which hands a Decision to the
seat's agent together with that seat's view, and appends every answer to the
game record.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from ..lang.runtime import Budget, Frame, RequirementFailed, RuleRuntimeError
from ..ruleset import Ruleset
from .decisions import ActionRefused, Decision, IllegalAnswer, Option

BIG = 10 ** 9
NO_OWNER = -1


class CardRef(int):
    """A card instance as effects see it: its instance number."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"CardRef({int(self)})"

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self


@dataclass
class CardState:
    def_id: str
    zone: str
    zone_owner: int = NO_OWNER
    owner: int = NO_OWNER
    markers: set = field(default_factory=set)
    resources: dict = field(default_factory=dict)
    pieces: dict = field(default_factory=dict)  # seat -> count


@dataclass
class PlayerState:
    seat: int
    name: str
    stock: dict = field(default_factory=dict)
    production: dict = field(default_factory=dict)
    tracks: dict = field(default_factory=dict)


@dataclass
class State:
    """Everything that changes during a game; deep-copyable and hashable."""

    players: list
    tracks: dict
    zones: dict  # (zone id, owner seat or -1) -> list of card numbers
    cards: dict  # card number -> CardState
    spaces: dict  # space id -> {"tile", "owner", "card"}
    rng: random.Random
    turn_order: list
    round: int = 0
    phase: str = ""
    turn_seat: int = NO_OWNER
    history: Counter = field(default_factory=Counter)
    used: set = field(default_factory=set)  # (what, seat, scope key)
    claimed: set = field(default_factory=set)  # one-time rewards taken
    passed: set = field(default_factory=set)
    over: bool = False
    turn_number: int = 0
    # cards this State may change in place; others are shared with snapshots and
    # are copied on their first change (see card_w)
    _owned: set = field(default_factory=set, repr=False, compare=False)

    def card_w(self, number: int) -> CardState:
        """The card's state, ready to be changed without touching any snapshot."""
        if number not in self._owned:
            c = self.cards[number]
            self.cards[number] = CardState(c.def_id, c.zone, c.zone_owner, c.owner,
                                           set(c.markers), dict(c.resources), dict(c.pieces))
            self._owned.add(number)
        return self.cards[number]

    def _share_cards(self) -> dict:
        self._owned = set()  # from now on both states copy a card before changing it
        return dict(self.cards)

    def clone(self) -> "State":
        """A deep copy, written out by hand: snapshots happen at every action.

        Card states are shared until one side changes them (copy on write)."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return State(
            players=[PlayerState(p.seat, p.name, dict(p.stock), dict(p.production),
                                 dict(p.tracks)) for p in self.players],
            tracks=dict(self.tracks),
            zones={k: list(v) for k, v in self.zones.items()},
            cards=self._share_cards(),
            spaces={k: dict(v) for k, v in self.spaces.items()},
            rng=rng, turn_order=list(self.turn_order), round=self.round, phase=self.phase,
            turn_seat=self.turn_seat, history=Counter(self.history), used=set(self.used),
            claimed=set(self.claimed), passed=set(self.passed), over=self.over,
            turn_number=self.turn_number)

    def digest(self) -> str:
        """A hash of the whole state, stable across machines."""
        data = {
            "players": [[p.seat, sorted(p.stock.items()), sorted(p.production.items()),
                         sorted(p.tracks.items())] for p in self.players],
            "tracks": sorted(self.tracks.items()),
            "zones": sorted([f"{z}@{o}", [int(c) for c in cards]]
                            for (z, o), cards in self.zones.items()),
            "cards": sorted([n, c.def_id, c.zone, c.zone_owner, c.owner, sorted(c.markers),
                             sorted(c.resources.items()), sorted(c.pieces.items())]
                            for n, c in self.cards.items()),
            "spaces": sorted([k, v.get("tile"), v.get("owner"), v.get("claim"),
                              None if v.get("card") is None else int(v["card"])]
                             for k, v in self.spaces.items()),
            "turn_order": self.turn_order, "round": self.round, "over": self.over,
            "claimed": sorted(map(str, self.claimed)),
        }
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()


class GameOver(Exception):
    pass


def _same_line(last: str, new: str) -> bool:
    return last == new or (last.endswith(")") and " (×" in last
                           and last[:last.rindex(" (×")] == new)


def _repeated(line: str) -> str:
    if line.endswith(")") and " (×" in line:
        head, n = line[:line.rindex(" (×")], int(line[line.rindex(" (×") + 3:-1])
        return f"{head} (×{n + 1})"
    return f"{line} (×2)"


def _text(t) -> str:
    return t if isinstance(t, str) else str(t())


class Game:
    """One game of a ruleset: state, runtime for effects, decisions to agents."""

    def __init__(self, ruleset: Ruleset, players: int, seed: int, agents: list,
                 variants: tuple[str, ...] = (), names: list[str] | None = None):
        self.rs = ruleset
        self.n = players
        self.seed = seed
        self.agents = agents
        self.variants = set(variants)
        self.record: list[int] = []
        self.deciders: list[int] = []  # the seat that gave each answer of the record
        self.reveals = 0  # cards taken out of hidden places so far (undo may not cross one)
        self.dry_run = 0
        self.listeners: list[Callable[[str], None]] = []
        self.log_lines: list[str] = []
        # line number -> {seat: that seat's own version} (names of cards only it may see)
        self.private_lines: dict[int, dict[int, str]] = {}
        self.keep_log = True  # write the log even when nobody listens (simulations turn it off)
        self._hidden_moves = 0  # inside a draw: hidden cards are told as one line
        self._last_stock = None  # (what, amount, line) of the last stock line, to add to it
        self.held: list[str] | None = None  # lines of an action still running
        self._modifier_index: dict[str, dict[str, list[int]]] = {}
        self.decision_count = 0
        self.last_forced: Decision | None = None  # the last decision taken for its only answer
        self.decider: int | None = None  # who answers choices made inside effects
        self.choice_kind = ""  # the type of what the next choice picks, for its labels
        self.context = ""  # what is being done (an action's label), for prompts
        self.context_cards: list[int] = []  # the cards being played or resolved, for prompts
        self.asking = None  # (statement, choice node, frame) of the next choice, for prompts
        self.hand_prompt = None  # an action's hand-written prompt, for its first question
        self.check_invariants = False  # check them before every decision (--check-every-decision)
        self.check_actions = False  # check them after every action and at the end (simulations)
        self.budget = Budget()  # the work effects may do per effect run and per decision
        comp = ruleset
        self.zone_decl = {zid: (e.data if isinstance(e.data, dict) else {"id": zid})
                          for zid, e in comp.sections["zones"].items()}
        self.track_decl = {tid: e.data for tid, e in comp.sections["tracks"].items()}
        self.resource_decl = {rid: (e.data if isinstance(e.data, dict) else {"id": rid})
                              for rid, e in comp.sections["resources"].items()}
        self.tile_decl = {tid: (e.data if isinstance(e.data, dict) else {"id": tid})
                          for tid, e in comp.sections["tiles"].items()}
        self.space_decl: dict[str, dict] = {}
        self.space_label: dict[str, str] = {}  # short labels for maps and choices
        self.board_item_names: dict[str, str] = {}  # space types and bonuses, by id
        for board in comp.sections["boards"].values():
            for i, space in enumerate(board.data["spaces"], 1):
                self.space_decl[space["id"]] = space
                self.space_label[space["id"]] = str(space.get("label", i))
            for item in board.data.get("space_types", []) or []:
                if isinstance(item, dict):
                    self.board_item_names[item["id"]] = item.get("name") or item["id"]
            for item in board.data.get("bonuses", []) or []:
                if isinstance(item, dict):
                    self.board_item_names.setdefault(item["id"], item.get("name") or item["id"])
        self.card_fields_default = {fid: e.data.get("default")
                                    for fid, e in comp.sections["card_fields"].items()}
        self.in_play_zones = {z for z, d in self.zone_decl.items() if d.get("in_play")}
        self.state = self._initial_state(names)

    # ------------------------------------------------------------------ setup
    def _initial_state(self, names) -> State:
        players = []
        for seat in range(self.n):
            p = PlayerState(seat, names[seat] if names and seat < len(names)
                            else f"Player {seat + 1}")
            for rid, decl in self.resource_decl.items():
                p.stock[rid] = int(decl.get("start", 0))
                prod = decl.get("production")
                if prod:
                    p.production[rid] = int(prod.get("start", 0)) if isinstance(prod, dict) else 0
            for tid, decl in self.track_decl.items():
                if decl.get("scope") == "player":
                    p.tracks[tid] = int(decl.get("start", decl.get("min", 0)))
            players.append(p)
        tracks = {tid: int(d.get("start", d.get("min", 0))) for tid, d in self.track_decl.items()
                  if d.get("scope", "global") == "global"}
        zones: dict = {}
        for zid, decl in self.zone_decl.items():
            if decl.get("scope", "shared") == "player":
                for seat in range(self.n):
                    zones[(zid, seat)] = []
            else:
                zones[(zid, NO_OWNER)] = []
        default_zone = next((z for z, d in self.zone_decl.items()
                             if d.get("scope", "shared") == "shared"), None)
        cards: dict = {}
        number = 0
        for cid, entry in self.rs.cards.items():
            zone = entry.data.get("deck") or default_zone
            if zone is None:
                raise RuleRuntimeError("the ruleset declares cards but no shared zone to hold "
                                       "them", entry.span("id"))
            owner = NO_OWNER if self.zone_decl[zone].get("scope", "shared") == "shared" else 0
            for _ in range(int(entry.data.get("copies", 1) or 1)):
                number += 1
                cards[number] = CardState(cid, zone, owner)
                zones[(zone, owner)].append(CardRef(number))
        spaces = {sid: {"tile": None, "owner": None, "card": None} for sid in self.space_decl}
        return State(players, tracks, zones, cards, spaces, random.Random(self.seed),
                     list(range(self.n)), _owned=set(cards))

    # ----------------------------------------------------------- frames, code
    def frame(self, you: int | None = None, **extra) -> Frame:
        variables = {"you": you}
        variables.update(extra)
        return Frame(self, variables, 0, self.budget)

    def __copy__(self) -> "Game":
        """A shallow copy (for lookahead) with a work budget of its own."""
        clone = Game.__new__(Game)
        clone.__dict__.update(self.__dict__)
        clone.budget = type(self.budget)(self.budget.effect_steps, self.budget.decision_steps)
        return clone

    def run_code(self, key: tuple, frame: Frame):
        code = self.rs.code.get(key)
        if code is None:
            return None
        return code(frame)

    def card_code(self, card: int, *part):
        return self.rs.code.get(("card", self.state.cards[card].def_id) + part)

    def card_data(self, card: int) -> dict:
        return self.rs.cards[self.state.cards[card].def_id].data

    # -------------------------------------------------------------- decisions
    def decide(self, decision: Decision) -> int:
        """Ask the deciding seat's agent; validate and record the answer."""
        if decision.count() == 0:
            raise ActionRefused(f"nothing can be chosen for: {decision.prompt}")
        if self.dry_run:
            return decision.low if decision.is_range else 0
        if self.hand_prompt and decision.kind != "action":  # the author's own words
            decision.prompt_text = self._prompt(str(self.hand_prompt))  # for the first one,
            self.hand_prompt = None  # asked or not
        if decision.count() == 1:
            # one rule everywhere: a decision with a single legal answer is not asked,
            # and the record does not hold it
            self.last_forced = decision
            if not decision.is_range:
                self._log_choice(decision, decision.options[0], only=True)
            elif self.logging:  # the one who would have answered is told
                self.log("", {decision.player: f"  {decision.prompt} → {decision.low} "
                                               "(the only choice, taken for you)"})
            return decision.low if decision.is_range else 0
        if self.check_invariants:
            from .invariants import check_invariants
            check_invariants(self)
        agent = self.agents[decision.player]
        self.decision_count += 1
        while True:
            view = self.view(decision.player) if getattr(agent, "wants_view", True) else None
            answer = agent.decide(decision, view, self)
            problem = decision.check(answer)
            if problem is None:
                break
            if getattr(agent, "scripted", False):
                raise IllegalAnswer(decision, problem)
            agent.refused(decision, problem)
        self.record.append(int(answer))
        self.deciders.append(decision.player)
        self.budget.new_decision()
        if decision.kind != "action" and not decision.is_range:
            self._log_choice(decision, decision.options[int(answer)])
        return int(answer)

    def _log_choice(self, decision: Decision, option: Option, only: bool = False) -> None:
        """Log a choice made inside an action when everyone may know it.

        A choice the engine took because it was the only one says so, to the one
        who would have made it even when it is not public."""
        value = option.value
        who = self.state.players[decision.player].name
        if only and decision.kind != "action":
            if not self.logging:
                return
            private = {decision.player: f"  {decision.prompt} → {option.label} (the only "
                                        "choice, taken for you)"}
            if self._public_choice(decision, option):
                self.log(f"  {who} takes {option.label} (the only choice)", private)
            else:
                self.log(f"  {who} makes the only choice there is", private)
            return
        if self._public_choice(decision, option):
            self.log(f"  {who} chooses {option.label}")

    def _public_choice(self, decision: Decision, option: Option) -> bool:
        value = option.value
        if isinstance(value, CardRef):
            c = self.state.cards[value]
            if self.zone_decl[c.zone].get("visibility", "public") != "public":
                return False  # a hidden card: its name is nobody else's business
        elif decision.kind not in ("option", "item") or value is None:
            return False  # yes/no and numbers say nothing without their question
        elif isinstance(value, str) and value in self.space_decl:
            return False  # spaces are logged where tiles are placed
        return True

    # ------------------------------------------------------------------ words
    def say(self, stmts, frame) -> str:
        """Statements in words, with the values they have now ('pay 3 coins; put Quarry …')."""
        from ..lang.words import Ctx
        return self.rs.words.block(stmts, Ctx(frame=frame))

    def why_not(self, node, frame) -> str:
        """Why a condition fails now, in words and with its numbers."""
        return self.rs.words.why_not(node, frame)

    def value_name(self, value, typ=None) -> str | None:
        """How a person calls a card, a player or a space (None: not one of those)."""
        from ..lang import types as T
        if isinstance(value, CardRef):
            return self.card_name(value)
        if typ is T.PLAYER and isinstance(value, int) and 0 <= value < self.n:
            return self.state.players[value].name
        if isinstance(value, str) and value in self.space_decl:
            return self.space_name(value)
        return None

    def _ask_prompt(self, ask, fallback: str, where: str = "") -> str:
        """The prompt of a choice: the statement it belongs to, in words, now."""
        if ask is None or ask[0] is None:
            return where + fallback
        from ..lang import ast
        from ..lang.words import ASK, Ctx, sentence
        stmt, node, frame = ask
        w = self.rs.words
        try:
            if isinstance(stmt, ast.Set) and stmt.name in self.track_decl:
                # 'set frame = choose_number(…)': the new value of a track
                decl = self.track_decl[stmt.name]
                whose = "your " if decl.get("scope") == "player" else "the "
                name = w.thing("track", stmt.name)
                text = f"choose the new value of {whose}{name}"
                if isinstance(node, ast.Comprehension) or isinstance(node, ast.AnyOf):
                    text = "choose " + w.choice(node, Ctx(frame)) + f" as {whose}{name}"
            elif isinstance(stmt, ast.Let):
                purpose = getattr(stmt, "purpose", None)
                if isinstance(node, ast.Call) and node.func == "choose_number":
                    text = w.stmt(purpose, Ctx(frame, {stmt.name: ASK})) if purpose else ""
                    text = (text + "?") if text else fallback
                else:
                    text = "choose " + w.choice(node, Ctx(frame))
                    if purpose is not None and not isinstance(purpose, (ast.If, ast.For)):
                        then = w.stmt(purpose, Ctx(frame, {stmt.name: w.chosen(node)}))
                        if then:
                            text += f", to {then}"
            else:  # the statement, asking: 'Put which card into your hand? (among …)'
                text = w.stmt(stmt, Ctx(frame, ask=node))
                if text and isinstance(node, ast.Comprehension):
                    among = w.choice(node, Ctx(frame)).split(" among ", 1)
                    text += f" (among {among[1]})?" if len(among) == 2 else "?"
                elif text:
                    text += "?"
                else:
                    text = fallback
        except Exception:  # words must never stop a game
            text = fallback
        return where + (sentence(text) if not text.endswith("?") else
                        text[0].upper() + text[1:])

    def _label(self, value: Any, kind: str = "") -> str:
        if value is None:
            return "none"
        if isinstance(value, CardRef):
            return self.card_name(value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int):
            if kind == "player" or not kind and 0 <= value < self.n:
                return self.state.players[value].name
            return str(value)
        if isinstance(value, str):
            if value in self.space_decl:
                return self.space_name(value)
            return self.rs.words.value_words(value, None, self)
        return str(value)

    def card_summary(self, card: int) -> str:
        """Cost, tags, printed facts and the card's text, for people choosing it."""
        from ..cardtext import catalogue_entry, facts_line
        c = self.state.cards[card]
        cache = self.__dict__.setdefault("_card_text", {})
        if c.def_id not in cache:
            entry = catalogue_entry(self.rs, c.def_id)
            cache[c.def_id] = " · ".join(p for p in [facts_line(entry)] + entry["lines"] if p)
        return cache[c.def_id]

    def space_name(self, space: str) -> str:
        """How a space is called: its name, its map label ('#13'), or both."""
        decl = self.space_decl[space]
        if "label" in decl:
            tag = f"#{decl['label']}"
            return f"{decl['name']} {tag}" if decl.get("name") else tag
        return decl.get("name") or space

    def space_summary(self, space: str) -> str:
        """Kind, bonus, tile and occupied neighbours of a space, for people choosing it."""
        decl, live = self.space_decl[space], self.state.spaces[space]
        kind = decl.get("type", "")
        parts = [self.board_item_names.get(kind, kind)]
        if decl.get("bonus"):
            counts: dict[str, int] = {}
            for b in decl["bonus"]:
                counts[b] = counts.get(b, 0) + 1
            parts.append("bonus " + ", ".join(f"{n} {self.thing_name(b)}"
                                             for b, n in counts.items()))
        if live.get("tile") is not None:
            parts.append("has " + self.tile_text(space))
        near = [self.tile_text(n) for n in self.rs.adjacency.get(space, [])
                if self.state.spaces[n].get("tile") is not None]
        if near:
            parts.append("next to " + ", ".join(near))
        return " · ".join(parts)

    def tile_text(self, space: str) -> str:
        live = self.state.spaces[space]
        tile = live["tile"]
        text = self.tile_decl.get(tile, {}).get("name") or tile.replace("_", " ")
        if live.get("owner") is not None and live["owner"] != NO_OWNER:
            text += f" ({self.state.players[live['owner']].name})"
        return text

    def thing_name(self, ident: str) -> str:
        """The printed name of a resource or bonus id."""
        decl = self.resource_decl.get(ident)
        if decl is not None:
            return decl.get("name") or ident
        return self.board_item_names.get(ident, ident.replace("_", " "))

    def phase_name(self, pid: str) -> str:
        """How a phase is called ('Production'); setup and the end have names of their own."""
        if pid == "setup":
            return "Setup"
        if pid == "end":
            return "End of the game"
        entry = self.rs.sections["phases"].get(pid)
        if entry is not None and entry.data.get("name"):
            return str(entry.data["name"])
        text = pid.replace("_", " ")
        return text[:1].upper() + text[1:]

    def card_name(self, card: int) -> str:
        return self.card_data(card).get("name", self.state.cards[card].def_id)

    def _acting(self) -> int:
        if self.decider is not None:
            return self.decider
        return self.state.turn_seat if self.state.turn_seat >= 0 else 0

    def _prompt(self, text: str) -> str:
        """'Build · Quarry: pay how many gold?': what is done, then the question."""
        where = [self.context] if self.context else []
        for card in self.context_cards:
            name = self.card_name(card)
            if name not in where and self.card_visible_to(card, self._acting()):
                where.append(name)
        return f"{' · '.join(where)}: {text}" if where else text

    def card_visible_to(self, card, seat) -> bool:
        c = self.state.cards[card]
        return self.visible_to(c.zone, c.zone_owner, seat) == "all" or c.owner == seat

    def choose_one(self, options: list, optional: bool, prompt: str | None = None,
                   player: int | None = None) -> Any:
        what, self.choice_kind = self.choice_kind, ""
        ask, self.asking = self.asking, None
        if prompt is None:
            noun = {"card": "a card", "player": "a player", "space": "a space",
                    "number": "a number"}.get(what, "one")
            where = self._prompt("")  # what is being done, as it is now
            prompt = (lambda: self._ask_prompt(ask, f"choose {noun}", where)) if ask else \
                self._prompt(f"choose {noun}")
        if not options and not optional:
            text = prompt if isinstance(prompt, str) else prompt()
            raise ActionRefused(f"{text}: there is nothing to choose")
        # an id (a space, a zone, a resource) is the option's key: scripts may name it
        opts = [Option(self._label(v, what), v, v if isinstance(v, str) else "")
                for v in options]
        if optional:
            opts.append(Option("none", None, "none"))
        kind = "card" if options and isinstance(options[0], CardRef) else "item"
        seat = self._acting() if player is None else player
        i = self.decide(Decision(seat, kind, prompt, opts, optional=optional))
        return opts[i].value

    def choose_number(self, low: int, high: int) -> int:
        ask, self.asking = self.asking, None
        where = self._prompt("")
        if high < low:
            raise ActionRefused(f"no number between {low} and {high}")
        if high == low:
            return low
        return self.decide(Decision(self._acting(), "number",
                                    lambda: self._ask_prompt(ask, "choose a number", where),
                                    low=low, high=high))

    def choose_order(self, items: list) -> list:
        remaining, out = list(items), []
        while len(remaining) > 1:
            pick = self.choose_one(remaining, False, "Choose what comes next")
            remaining.remove(pick)
            out.append(pick)
        return out + remaining

    def choose_option(self, labels: list, probes: list) -> int:
        """'choose one': only the options that can be carried out are offered."""
        why = [self.why_not_effect(probe) for probe in probes]
        usable = [i for i, reason in enumerate(why) if reason is None]
        if not usable:
            raise ActionRefused("none of the options can be carried out: "
                                + " / ".join(_text(t) for t in labels))
        opts = [Option(labels[i], i) for i in usable]

        def refused():
            return {_text(labels[i]): why[i] or "it cannot be carried out now"
                    for i in range(len(labels)) if i not in usable}
        i = self.decide(Decision(self._acting(), "option", self._prompt("choose one"), opts,
                                 refused_text=refused))
        return opts[i].value

    def confirm(self, label, about=()) -> bool:
        """'may': yes or no, the question saying what would be done (and to which cards)."""
        if not self.try_effect(lambda: None):
            return False
        seat = self._acting()
        cards = [c for c in about if isinstance(c, CardRef) and self.card_visible_to(c, seat)]
        prompt = self._prompt("")

        def question():
            text = _text(label)
            return f"{prompt}{text[:1].upper()}{text[1:]}?" if prompt else \
                f"{text[:1].upper()}{text[1:]}?"
        i = self.decide(Decision(seat, "confirm", question,
                                 [Option("yes", True, "yes"), Option("no", False, "no")],
                                 about=cards))
        return i == 0

    def choose_from(self, noun: str, player) -> Any:
        self.choice_kind = "player" if noun in ("player", "opponent") else "space"
        if noun == "player":
            return self.choose_one(list(range(self.n)), False, "Choose a player", player)
        if noun == "opponent":
            return self.choose_one([p for p in range(self.n) if p != player], False,
                                   "Choose an opponent", player)
        if noun == "space":
            return self.choose_one(list(self.space_decl), False, "Choose a space", player)
        raise RuleRuntimeError(f"cannot choose any {noun}")

    # -------------------------------------------------------- snapshots
    def snapshot(self):
        return self.state.clone()

    def restore(self, snap) -> None:
        self.state = snap

    def try_effect(self, fn: Callable[[], Any]) -> bool:
        """Whether ``fn`` can run to the end; the state is left untouched."""
        return self.why_not_effect(fn) is None

    def why_not_effect(self, fn: Callable[[], Any]) -> str | None:
        """Why ``fn`` cannot run to the end (None: it can); the state is left untouched."""
        snap = self.snapshot()
        record_len = len(self.record)
        self.dry_run += 1
        try:
            fn()
            return None
        except RequirementFailed as exc:
            return exc.message
        except ActionRefused as exc:
            return exc.reason
        finally:
            self.dry_run -= 1
            self.state = snap
            del self.record[record_len:]
            del self.deciders[record_len:]

    # ------------------------------------------------------------ reading
    def players(self) -> list:
        return list(range(self.n))

    def turn_order(self) -> list:
        return list(self.state.turn_order)

    def seat_neighbours(self, player) -> list:
        out = []
        for other in ((player - 1) % self.n, (player + 1) % self.n):
            if other != player and other not in out:
                out.append(other)
        return out

    def stock(self, player, resource):
        if player is None:
            raise RuleRuntimeError("no player to read the stock of")
        return self.state.players[player].stock.get(resource, 0)

    def production(self, player, resource):
        return self.state.players[player].production.get(resource, 0)

    def capacity(self, player, resource):
        code = self.rs.code.get(("resource", resource, "capacity"))
        if code is None:
            return BIG
        return code(self.frame(player))

    def track(self, track, player):
        decl = self.track_decl.get(track, {})
        if decl.get("scope") == "player":
            if player is None:
                raise RuleRuntimeError(f"'{track}' is a per-player track and there is no "
                                       "acting player here")
            return self.state.players[player].tracks[track]
        return self.state.tracks[track]

    def resources_on(self, card, resource):
        return self.state.cards[card].resources.get(resource, 0)

    def pieces_on(self, card, player):
        return self.state.cards[card].pieces.get(player, 0)

    def _zone_key(self, zone, player):
        scope = self.zone_decl[zone].get("scope", "shared")
        if scope == "player":
            if player is None or player < 0:
                raise RuleRuntimeError(f"zone '{zone}' belongs to a player; say whose")
            return (zone, player)
        return (zone, NO_OWNER)

    def cards_in(self, zone, player):
        return list(self.state.zones[self._zone_key(zone, player)])

    def all_cards_in(self, zone):
        if self.zone_decl[zone].get("scope", "shared") == "player":
            return [c for seat in range(self.n) for c in self.state.zones[(zone, seat)]]
        return list(self.state.zones[(zone, NO_OWNER)])

    def score(self, player):
        total = 0
        for sid in self.rs.sections["scoring"]:
            total += self.run_code(("scoring", sid), self.frame(player))
        return total

    def zone_of(self, card):
        return self.state.cards[card].zone

    def slot_of(self, card):
        c = self.state.cards[card]
        return self.state.zones[(c.zone, c.zone_owner)].index(card) + 1

    def card_field(self, card, name):
        c = self.state.cards[card]
        data = self.rs.cards[c.def_id].data
        if name == "id":
            return c.def_id
        if name == "owner":
            return None if c.owner == NO_OWNER else c.owner
        if name == "tags":
            return list(data.get("tags", []) or [])
        if name in ("name", "number", "type", "holds"):
            return data.get(name)
        if name == "cost":
            return data.get("cost", 0)
        fields = data.get("fields") or {}
        if name in fields:
            return fields[name]
        return self.card_fields_default.get(name)

    def space_field(self, space, name):
        decl = self.space_decl[space]
        live = self.state.spaces[space]
        if name in ("tile", "owner", "card"):
            return live[name]
        if name == "claimed_by":
            return live.get("claim")
        if name == "bonus":
            return list(decl.get("bonus", []) or [])
        return decl.get(name)

    def player_field(self, player, name):
        if name == "seat":
            return player + 1
        return self.state.players[player].name

    def is_marked(self, card, marker):
        return marker in self.state.cards[card].markers

    def meets_requirements(self, card, player):
        code = self.card_code(card, "requires")
        return True if code is None else bool(code(self.frame(player, this=card)))

    def explain_requirements(self, card, player) -> str:
        """Why the player does not meet the card's requirement, in the card's own terms."""
        key = ("card", self.state.cards[card].def_id, "requires")
        return f"{self.card_name(card)} {self.rs.explainer(key)(self.frame(player, this=card))}"

    def can_run(self, card, block, player) -> bool:
        code = self.card_code(card, *(("play",) if block == "play" else ("block", block)))
        if code is None:
            return False
        return self.why_not_effect(lambda: code(self.frame(player, this=card))) is None

    def has_block(self, card, block):
        data = self.card_data(card)
        if block == "play":
            return data.get("play") is not None
        return block in (data.get("blocks") or {})

    def vp_of(self, card):
        code = self.card_code(card, "vp")
        if code is None:
            return 0
        owner = self.state.cards[card].owner
        return code(self.frame(None if owner == NO_OWNER else owner, this=card))

    def spaces(self):
        return list(self.space_decl)

    def neighbours(self, space):
        return list(self.rs.adjacency.get(space, []))

    def space_of(self, card):
        for sid, live in self.state.spaces.items():
            if live["card"] == card:
                return sid
        return None

    def placement_ok(self, tile, space, player) -> bool:
        code = self.rs.code.get(("tile", tile, "placement"))
        if self.state.spaces[space]["tile"] is not None:
            return False
        if code is None:
            return True
        return bool(code(self.frame(player, space=space)))

    def can_place(self, tile, player):
        return any(self.placement_ok(tile, s, player) for s in self.space_decl)

    def modifier(self, modifier, player, card, values=None):
        total = 0
        params = self.rs.table.modifier_params.get(modifier, [])
        values = dict(values or {})
        zones, cards = self.state.zones, self.state.cards
        for zone in self.in_play_zones:
            for owner in (player, NO_OWNER):
                for src in zones.get((zone, owner), ()):
                    c = cards[src]
                    if c.owner != player:
                        continue
                    mine = self._modifiers_of(c.def_id).get(modifier)
                    if mine:
                        total += self._modifier_total(src, mine, player, card, values, params)
        return total

    def _modifiers_of(self, def_id: str) -> dict[str, list[int]]:
        """Which of a card's modifiers are of each kind (by index), computed once per card."""
        known = self._modifier_index.get(def_id)
        if known is None:
            known = {}
            data = self.rs.cards[def_id].data if def_id in self.rs.cards else {}
            for i, mod in enumerate(data.get("modifiers", []) or []):
                known.setdefault(mod["modifier"], []).append(i)
            self._modifier_index[def_id] = known
        return known

    def _modifier_total(self, src, indices, player, card, values, params) -> int:
        total = 0
        for i in indices:
            extra = {name: values.get(name, card if name == "card" else None)
                     for name, _ in params}
            f = self.frame(player, this=src, **extra)
            cond = self.card_code(src, "modifier", i, "if")
            if cond is not None and not cond(f):
                continue
            total += self.card_code(src, "modifier", i, "amount")(f)
        return total

    def count_history(self, event, player, scope):
        key = {"round": self.state.round, "turn": self.state.turn_number, "game": 0}.get(scope, 0)
        return self.state.history.get((event, player, scope, key), 0)

    def round_number(self):
        return self.state.round

    def variant_active(self, name):
        return name in self.variants

    def constant(self, name):
        return self.rs.constants[name]

    def limit_error(self, message):
        return RuleRuntimeError(message)

    # ------------------------------------------------------------ changing
    def change_stock(self, player, resource, amount, verb):
        p = self.state.players[player]
        if resource not in self.resource_decl:
            raise RuleRuntimeError(f"'{resource}' is not a resource players hold")
        have = p.stock.get(resource, 0)
        floor = int(self.resource_decl[resource].get("min", 0))
        if verb == "gain" and amount < 0:
            verb, amount = "lose", -amount
        if verb == "gain":
            cap = self.capacity(player, resource)
            p.stock[resource] = min(have + amount, max(cap, have))
        elif verb == "pay":
            if have - amount < floor:
                raise ActionRefused(f"needs {self.amount_words(resource, amount)} to pay; "
                                    f"{self._you_have(player)} {have}")
            p.stock[resource] = have - amount
        else:
            p.stock[resource] = max(floor, have - amount)
        if self.logging and (p.stock[resource] != have or verb == "gain" and amount > 0):
            moved = abs(p.stock[resource] - have)
            key = ("stock", player, resource, verb)
            last = self._last_stock if not self.listeners else None  # printed lines stay
            if last is not None and last[0] == key and self._last_line() == last[2]:
                moved += last[1]  # 1 gold and 1 gold more, in a row: one line, '2 gold'
            words = {"gain": "gains", "pay": "pays", "lose": "loses"}[verb]
            lost = amount - (p.stock[resource] - have) if verb == "gain" else 0
            room = f"; {lost} more did not fit" if lost > 0 else ""  # over the capacity
            line = f"  {p.name} {words} {self.amount_words(resource, moved)} " \
                   f"(now {p.stock[resource]}{room})"
            if last is not None and last[0] == key and self._last_line() == last[2]:
                self._replace_last_line(line)
            else:
                self.log(line)
            self._last_stock = (key, moved, line)

    @property
    def logging(self) -> bool:
        """Whether log lines are worth making now (someone listens, and this is no trial)."""
        return not self.dry_run and (self.keep_log or bool(self.listeners))

    def amount_words(self, resource, n) -> str:
        """'3 apples', '1 apple', '18 coins'."""
        return f"{n} {self.rs.words.thing('resource', resource, n)}"

    def _you_have(self, player) -> str:
        return "you have" if player == self._acting() else \
            f"{self.state.players[player].name} has"

    def _res_name(self, resource):
        return self.rs.words.thing("resource", resource, 2)

    def change_production(self, player, resource, amount):
        p = self.state.players[player]
        prod = self.resource_decl[resource].get("production")
        floor = prod.get("min", 0) if isinstance(prod, dict) else 0
        now = p.production.get(resource, 0)
        if now + amount < floor:
            who = "your" if player == self._acting() else f"{p.name}'s"
            name = self.rs.words.thing("resource", resource, 1)
            raise ActionRefused(f"needs {who} {name} production to go down by {-amount}; "
                                f"it is {now} and cannot go below {floor}")
        p.production[resource] = now + amount
        if self.logging and amount:
            name = self.rs.words.thing("resource", resource, 1)
            self.log(f"  {p.name}: {name} production {'+' if amount > 0 else '−'}"
                     f"{abs(amount)} (now {now + amount})")

    def move_track(self, track, steps, player):
        decl = self.track_decl[track]
        step = int(decl.get("step", 1))
        lo, hi = decl.get("min", -BIG), decl.get("max", BIG)
        per_player = decl.get("scope") == "player"
        if per_player and player is None:
            raise RuleRuntimeError(f"'{track}' is a per-player track and no player is "
                                   "acting here")
        holder = self.state.players[player].tracks if per_player else self.state.tracks
        if self.logging:  # told first, so what the steps give follows the move itself
            target = holder[track]
            for _ in range(abs(steps)):
                nxt = target + (step if steps > 0 else -step)
                if nxt > hi or nxt < lo:
                    break
                target = nxt
            if target != holder[track]:
                self._log_track(track, holder[track], target, player)
        moved = 0
        for _ in range(abs(steps)):
            now = holder[track]
            nxt = now + (step if steps > 0 else -step)
            if nxt > hi or nxt < lo:
                break
            holder[track] = nxt
            moved += 1 if steps > 0 else -1
            if steps > 0:
                self._rewards(track, nxt, player)
        if moved and decl.get("emits"):
            self.emit(decl["emits"], {"player": player, "track": track, "steps": moved})
        return moved

    def _rewards(self, track, value, player):
        for i, reward in enumerate(self.track_decl[track].get("rewards", []) or []):
            if reward["at"] != value or reward.get("when", "immediate") != "immediate":
                continue
            if reward.get("once"):
                key = (track, i)
                if key in self.state.claimed:
                    continue
                self.state.claimed.add(key)
            self.run_code(("track", track, "reward", i), self.frame(player))

    def set_track(self, track, value, player):
        decl = self.track_decl[track]
        value = max(decl.get("min", -BIG), min(decl.get("max", BIG), value))
        holder = self.state.players[player].tracks if decl.get("scope") == "player" \
            else self.state.tracks
        before = holder[track]
        holder[track] = value
        if before != value and self.logging:
            self._log_track(track, before, value, player)

    def _log_track(self, track, before, after, player):
        decl = self.track_decl[track]
        name = decl.get("name") or track.replace("_", " ")
        unit = f" {decl['unit']}" if decl.get("unit") else ""
        whose = f"{self.state.players[player].name}: " if decl.get("scope") == "player" \
            and player is not None else ""
        self.log(f"  {whose}{name} {before}{unit} → {after}{unit}")

    def tiles_left(self, tile) -> int:
        supply = self.tile_decl.get(tile, {}).get("supply")
        if supply is None:
            return BIG
        return supply - sum(1 for v in self.state.spaces.values() if v["tile"] == tile)

    def place_tile(self, tile, player, mode, target, source=None):
        tname = self.tile_decl.get(tile, {}).get("name") or tile.replace("_", " ")
        if self.tiles_left(tile) <= 0:
            self.log(f"  no {tname} tiles are left: none is placed")
            return None
        if mode == "on":
            if target is None or self.state.spaces[target]["tile"] is not None:
                raise ActionRefused(f"{self._label(target)} is not free for {tname}")
            space = target
        else:
            legal = [s for s in self.space_decl
                     if not self.space_decl[s].get("off_board")
                     and (mode == "anywhere" and self.state.spaces[s]["tile"] is None
                          or mode != "anywhere" and self.placement_ok(tile, s, player))
                     and (target is None or target(s))]
            if not legal:
                raise ActionRefused(f"there is no legal space for {tname}")
            self.choice_kind = "space"
            space = self.choose_one(legal, False, self._prompt(f"where do you place {tname}?"),
                                    player)
        live = self.state.spaces[space]
        live["tile"] = tile
        if self.tile_decl.get(tile, {}).get("owned"):
            live["owner"] = player
        who = self.state.players[player].name if player is not None else "The game"
        self.log(f"  {who} places {tname} on {self._label(space)}")
        if source is not None:
            live["card"] = source
        self.run_code(("tile", tile, "on_place"), self.frame(player, space=space))
        return space

    def transfer(self, verb, resource, amount, up_to, source, dest, player):
        cards = self.state.cards
        if verb == "add":
            if dest is None:
                raise ActionRefused("there is no card to add to")
            r = self.state.card_w(dest).resources
            r[resource] = r.get(resource, 0) + amount
            if self.logging and amount:
                self.log(f"  {self.card_name(dest)}: +{self._card_res(resource, amount)} "
                         f"(now {r[resource]})")
            return
        if verb == "steal":
            dest, verb = player, "move"
        if source is None:
            if up_to:
                return
            raise ActionRefused("there is nothing to take from")
        card_source = isinstance(source, CardRef)
        have = (cards[source].resources.get(resource, 0) if card_source
                else self.state.players[source].stock.get(resource, 0))
        what = self.card_name(source) if card_source else self.state.players[source].name
        if up_to:
            most = min(amount, have)
            if most > 0:
                self.asking = None
                noun = self._card_res(resource, 2).split(" ", 1)[1]
                doing = "move" if verb == "move" else "remove"
                amount = self.decide(Decision(
                    self._acting(), "number",
                    self._prompt(f"{doing} how many {noun} from {what}? (up to {most})"),
                    low=0, high=most)) if most > 0 else 0
            else:
                amount = 0
        elif have < amount:
            raise ActionRefused(f"needs {self._card_res(resource, amount)} on {what}; "
                                f"there {'is' if have == 1 else 'are'} {have}")
        if amount <= 0:
            return
        if card_source:
            self.state.card_w(source).resources[resource] = have - amount
        else:
            self.state.players[source].stock[resource] = have - amount
        if self.logging:
            self.log(f"  {what}: −{self._card_res(resource, amount)} (now {have - amount})")
        if verb == "move" and dest is not None:
            if isinstance(dest, CardRef):
                r = self.state.card_w(dest).resources
                r[resource] = r.get(resource, 0) + amount
            else:
                self.change_stock(dest, resource, amount, "gain")

    def _card_res(self, resource, n) -> str:
        w = self.rs.words
        kind = "card_resource" if resource not in self.resource_decl else "resource"
        return f"{n} {w.thing(kind, resource, n)}"

    def emit(self, event, payload):
        who = payload.get("player")
        self.budget.charge(1, None)  # and one step per card whose triggers are looked at
        for scope, key in (("round", self.state.round), ("turn", self.state.turn_number),
                           ("game", 0)):
            self.state.history[(event, who, scope, key)] += 1
        for tid, entry in self.rs.sections["triggers"].items():
            if entry.data["on"] != event:
                continue
            f = self.frame(who, event=payload)
            cond = self.rs.code.get(("trigger", tid, "if"))
            if cond is None or cond(f):
                self.run_code(("trigger", tid, "do"), f)
        for zone, owner in list(self.state.zones):
            if zone not in self.in_play_zones:
                continue
            cards = list(self.state.zones.get((zone, owner), []))
            self.budget.charge(len(cards), None)
            for card in cards:
                self._card_triggers(card, event, payload, who)

    def _card_triggers(self, card, event, payload, who):
        c = self.state.cards[card]
        for i, trig in enumerate(self.card_data(card).get("triggers", []) or []):
            if trig["on"] != event:
                continue
            scope = trig.get("scope", "you")
            owner = c.owner
            if scope == "you" and who != owner or scope == "opponents" and who == owner:
                continue
            if payload.get("card") == card and not trig.get("include_self"):
                continue
            f = self.frame(owner, this=card, event=payload)
            cond = self.card_code(card, "trigger", i, "if")
            if cond is None or cond(f):
                code = self.card_code(card, "trigger", i, "do")
                if code is not None:
                    self.about_card(card, code, f)

    def about_card(self, card, body, frame):
        """Run ``body`` with the card named in the prompts it asks ('Quarry: …')."""
        self.context_cards.append(card)
        try:
            return body(frame)
        finally:
            self.context_cards.pop()

    def run_block(self, card, block, player):
        code = self.card_code(card, *(("play",) if block == "play" else ("block", block)))
        if code is None:
            raise ActionRefused(f"{self.card_name(card)} has no {block}")
        self.about_card(card, code, self.frame(player, this=card))

    def draw(self, count, from_zone, to_zone, player):
        drawn = []
        self._hidden_moves += 1  # one line for the lot instead of one per hidden card
        try:
            for _ in range(count):
                key = self._zone_key(from_zone, player)
                if not self.state.zones[key]:
                    refill = self.zone_decl[from_zone].get("refill_from")
                    if refill:
                        rkey = self._zone_key(refill, player)
                        if self.state.zones[rkey] and self.logging:
                            self.log(f"  {self.zone_words(refill, rkey[1])} is shuffled to "
                                     f"form {self.zone_words(from_zone, key[1])} again")
                        self.state.zones[key].extend(self.state.zones[rkey])
                        for c in self.state.zones[rkey]:
                            moved = self.state.card_w(c)
                            moved.zone, moved.zone_owner = from_zone, key[1]
                        self.state.zones[rkey] = []
                        self.state.rng.shuffle(self.state.zones[key])
                if not self.state.zones[key]:
                    break
                card = self.state.zones[key][0]
                self.put(card, to_zone, player, 0)
                drawn.append(card)
        finally:
            self._hidden_moves -= 1
        to_decl = self.zone_decl[to_zone]
        if drawn and self.logging and to_decl.get("visibility", "public") != "public":
            to_key = self._zone_key(to_zone, player)
            n = len(drawn)
            source = self.zone_words(from_zone, self._zone_key(from_zone, player)[1])
            private = None
            if to_decl.get("visibility") == "owner" and to_key[1] != NO_OWNER:
                names = ", ".join(self.card_name(c) for c in drawn)
                private = {to_key[1]: f"  {n} card{'s' if n != 1 else ''} from {source} → "
                                      f"your {self._zone_noun(to_zone)}: {names}"}
            self.log(f"  {n} card{'s' if n != 1 else ''} from {source} → "
                     f"{self.zone_words(to_zone, to_key[1])}", private)

    def _zone_noun(self, zone) -> str:
        from ..lang.words import lower_name
        return lower_name(self.zone_decl[zone].get("name") or zone.replace("_", " "))

    def zone_words(self, zone, owner) -> str:
        """'Discard pile', "Ann's hand": a zone as the log names it."""
        name = self.zone_decl[zone].get("name") or zone.replace("_", " ")
        from ..lang.words import lower_name
        if owner is None or owner == NO_OWNER:
            return name
        return f"{self.state.players[owner].name}'s {lower_name(name)}"

    def put(self, card, zone, player, slot):
        c = self.state.card_w(card)
        was = self.zone_decl[c.zone].get("visibility", "public")
        was_public = was == "public"
        if was in ("hidden", "count"):
            self.reveals += 1
        self.state.zones[(c.zone, c.zone_owner)].remove(card)
        key = self._zone_key(zone, player)
        cards = self.state.zones[key]
        if slot and slot > 0:
            cards.insert(min(slot - 1, len(cards)), card)
        else:
            cards.append(card)
        c.zone, c.zone_owner = zone, key[1]
        if key[1] != NO_OWNER:
            c.owner = key[1]
        decl = self.zone_decl[zone]
        if self.logging:
            now_public = decl.get("visibility", "public") == "public"
            if was_public or now_public:  # everyone saw the card: say which and where
                self.log(f"  {self.card_name(card)} → {self.zone_words(zone, key[1])}")
            elif not self._hidden_moves:
                private = None
                if decl.get("visibility") == "owner" and key[1] != NO_OWNER:
                    private = {key[1]: f"  {self.card_name(card)} → your "
                                       f"{self._zone_noun(zone)}"}
                self.log(f"  a card → {self.zone_words(zone, key[1])}", private)
        limit = decl.get("slots")
        while limit and len(cards) > limit:
            pushed = cards[-1]
            if decl.get("overflow"):
                self.put(pushed, decl["overflow"], None if key[1] == NO_OWNER else key[1], 0)
            else:
                raise ActionRefused(f"{zone} is full ({limit} cards)")

    def random_number(self, low, high):
        return self.state.rng.randint(low, high)

    def shuffle(self, zone, player):
        self.state.rng.shuffle(self.state.zones[self._zone_key(zone, player)])

    def set_marker(self, card, marker, value):
        markers = self.state.card_w(card).markers
        if value:
            markers.add(marker)
        else:
            markers.discard(marker)

    def place_pieces(self, count, card, player, stock):
        if count <= 0:
            return
        if stock is not None:
            have = self.state.players[player].stock.get(stock, 0)
            if have < count:
                raise ActionRefused(f"needs {self.amount_words(stock, count)}; "
                                    f"{self._you_have(player)} {have}")
            self.state.players[player].stock[stock] = have - count
        pieces = self.state.card_w(card).pieces
        pieces[player] = pieces.get(player, 0) + count
        if self.logging:
            what = self.amount_words(stock, count) if stock is not None else \
                f"{count} piece{'s' if count != 1 else ''}"
            self.log(f"  {self.state.players[player].name}: {what} → {self.card_name(card)} "
                     f"(now {pieces[player]} there)")

    def take_pieces(self, count, card, player, stock):
        pieces = self.state.card_w(card).pieces
        count = min(count, pieces.get(player, 0))
        if count <= 0:
            return
        pieces[player] -= count
        left = pieces[player]
        if not pieces[player]:
            del pieces[player]
        if self.logging:
            back = f" back to {self.rs.words.thing('resource', stock, 2)}" if stock else ""
            self.log(f"  {self.state.players[player].name}: {count} "
                     f"piece{'s' if count != 1 else ''} off {self.card_name(card)}{back} "
                     f"({left} left there)")
        if stock is not None:
            self.state.players[player].stock[stock] = \
                self.state.players[player].stock.get(stock, 0) + count

    def claim(self, space, player):
        self.state.spaces[space]["claim"] = player

    def set_turn_order(self, order):
        if sorted(order) != list(range(self.n)):
            raise RuleRuntimeError(f"a turn order must list every player once, got {order}")
        self.state.turn_order = list(order)

    def log(self, message, private: dict | None = None):
        """Add a public line; ``private`` gives some seats their own version of it."""
        if not self.logging:
            return
        if self.held is not None:
            self.held.append((message, private))
            return
        n = len(self.log_lines)
        if n and message and not private and n - 1 not in self.private_lines \
                and not self.listeners and _same_line(self.log_lines[-1], message):
            self.log_lines[-1] = _repeated(self.log_lines[-1])  # '… (×3)'
            return
        self.log_lines.append(message)  # '' is a line only the seats in 'private' see
        if private:
            self.private_lines[n] = dict(private)
        if message:
            for listener in self.listeners:
                listener(message)

    def _last_line(self):
        if self.held is not None:
            return self.held[-1][0] if self.held else None
        return self.log_lines[-1] if self.log_lines else None

    def _replace_last_line(self, line: str) -> None:
        if self.held is not None:
            self.held[-1] = (line, self.held[-1][1])
        else:
            self.log_lines[-1] = line

    def log_line_for(self, i: int, seat: int) -> str:
        """Line i of the log as this seat reads it (its own cards by name)."""
        return self.private_lines.get(i, {}).get(seat, self.log_lines[i])

    def hold_log(self) -> None:
        """Keep log lines back until the running action succeeds (or is undone)."""
        self.held = []

    def release_log(self, keep: bool) -> None:
        lines, self.held = self.held or [], None
        if keep:
            for line, private in lines:
                self.log(line, private)

    def end_game(self):
        self.state.over = True

    # ------------------------------------------------------------- views
    def visible_to(self, zone, owner, seat) -> str:
        """'all' (cards shown), or 'count' (only how many) for this seat."""
        vis = self.zone_decl[zone].get("visibility", "public")
        if vis == "public":
            return "all"
        if vis == "owner" and owner == seat:
            return "all"
        return "count"

    def view(self, seat: int) -> dict:
        """What one player may see: public state and their own hidden zones only."""
        st = self.state
        zones = {}
        for (zone, owner), cards in st.zones.items():
            name = zone if owner == NO_OWNER else f"{zone}@{owner + 1}"
            if self.visible_to(zone, owner, seat) == "all":
                zones[name] = [self._card_view(c) for c in cards]
            else:
                zones[name] = {"count": len(cards)}
        return {
            "you": seat, "round": st.round, "phase": st.phase,
            "turn_order": [p + 1 for p in st.turn_order],
            "tracks": dict(st.tracks),
            "players": [{"seat": p.seat + 1, "name": p.name, "stock": dict(p.stock),
                         "production": dict(p.production), "tracks": dict(p.tracks)}
                        for p in st.players],
            "zones": zones,
            "spaces": {k: v for k, v in st.spaces.items() if v["tile"] is not None},
        }

    def _card_view(self, card: int) -> dict:
        c = self.state.cards[card]
        out = {"card": int(card), "id": c.def_id, "name": self.card_name(card)}
        if c.markers:
            out["markers"] = sorted(c.markers)
        if c.resources:
            out["resources"] = {k: v for k, v in c.resources.items() if v}
        if c.pieces:
            out["pieces"] = {str(k + 1): v for k, v in c.pieces.items()}
        return out
