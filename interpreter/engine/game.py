"""The game: state built from a checked ruleset, and the runtime effects run against.

:class:`Game` owns a :class:`~.state.State` (plain data: players, tracks,
zones, cards, spaces, the random source) and implements the runtime
interface that compiled effects call (:class:`rulebook_games.lang.runtime.Runtime`).
It asks players questions only through :meth:`Game.decide`, which hands a
Decision to the seat's agent together with that seat's view, and appends
every answer to the game record.

This module is the core: building the game and its first state from the
ruleset, frames and running compiled code, snapshots and copies, the view
each seat may see, and the few facts about seats and rounds. Each other
responsibility is a mixin of its own module, all on the one object: cards and
zones (:mod:`.cards`), stocks and pieces (:mod:`.stocks`), tracks
(:mod:`.tracks`), the board (:mod:`.board`), events and triggers
(:mod:`.events`), modifiers (:mod:`.modifiers`), decisions (:mod:`.asking`),
the words of prompts (:mod:`.prompts`) and the log (:mod:`.gamelog`).
"""

from __future__ import annotations

import random
from typing import Callable

from ..lang.runtime import MAX_CARDS, MAX_INT, Budget, Frame, RuleRuntimeError, shown_number
from ..load.ruleset import Ruleset
from .asking import AskingMixin
from .board import BoardMixin, SpaceFacts
from .cards import CardFacts, CardsMixin
from .decisions import Decision
from .events import EventsMixin
from .gamelog import LogMixin
from .modifiers import ModifiersMixin
from .prompts import PromptsMixin
from .refusals import Refusals
from .state import BIG, MAX_ROUNDS, NO_OWNER, CardRef, CardState, PlayerState, State
from .stocks import StocksMixin
from .tracks import TracksMixin
from .viewmodel import ViewModelMixin

# the data types live in state.py; they are named here too, where callers find them
__all__ = ["BIG", "NO_OWNER", "CardRef", "CardState", "Game", "GameOver", "PlayerState",
           "State"]


_SCORE = object()  # a player's score, kept while the engine only reads (Game.score)


class GameOver(Exception):
    pass


class Game(CardsMixin, StocksMixin, TracksMixin, BoardMixin, EventsMixin, ModifiersMixin,
           AskingMixin, PromptsMixin, LogMixin, ViewModelMixin):
    """One game of a ruleset: state, runtime for effects, decisions to agents."""

    # on a copy an agent's search plays: what it shares with the other copies of its
    # position (agents/across.py), while its state is the one watched
    kept_across = None

    def __init__(self, ruleset: Ruleset, players: int, seed: int, agents: list,
                 variants: tuple[str, ...] = (), names: list[str] | None = None):
        self.rs = ruleset
        self.n = players
        self.seed = seed
        self.agents = agents
        self.variants = set(variants)
        self.record: list[int] = []
        self.deciders: list[int] = []  # the seat that gave each answer of the record
        # seat -> len(deciders) when the log last told it that nothing else can be done
        self.told_stuck: dict[int, int] = {}
        self.reveals = 0  # cards taken out of hidden places so far (undo may not cross one)
        self.dry_run = 0
        self.trial_questions = 0  # real questions met by trial runs (AskingMixin._idle)
        self.listeners: list[Callable[[str], None]] = []
        self.log_lines: list[str] = []
        # line number -> {seat: that seat's own version} (names of cards only it may see)
        self.private_lines: dict[int, dict[int, str]] = {}
        self.keep_log = True  # write the log even when nobody listens (simulations turn it off)
        self.log_kept = 0  # characters the log holds (see gamelog.MAX_LOG_KEPT)
        self._hidden_moves = 0  # inside a draw: hidden cards are told as one line
        self._last_stock = None  # (what, amount, line, lost) of the last stock line, to add to it
        self.held: list[str] | None = None  # lines of an action still running
        self.held_moves: dict = {}  # card → its move's line in held (gamelog.log_move)
        # a flow step's heading, written before its first effect line (none if it has none)
        self.pending_heading: str | None = None
        # where the flow goes on once the turn being played ends (a FlowRunner Cursor),
        # so a search can play a copy of the game past it; None outside turns or in a
        # simultaneous phase, where everyone's choices resolve together
        self.after_turn = None
        # while an action runs: (position before it, record length then, the action, seat)
        self.action_start = None
        # while the flow runs a rule of its own outside any action (a phase's do or after,
        # the setup, the end's then) and a seat's agent searches such choices: (the
        # position before the rule, as a state of its own; the record's length then; the
        # rule's code key), so a search can run the rule again on a copy (FlowRunner.rule)
        self.rule_start = None
        self.ended = False  # the flow has reached the final scoring (a copy that finished)
        self._modifier_index: dict[str, dict[str, list[int]]] = {}
        self.decision_count = 0
        self.refusals = Refusals()  # what was refused at this position, not offered again
        self.replaying = None  # (dry-run depth, answers) of a trial of other answers
        self.last_forced: Decision | None = None  # the last decision taken for its only answer
        self.decider: int | None = None  # who answers choices made inside effects
        self.choice_kind = ""  # the type of what the next choice picks, for its labels
        self.context = ""  # what is being done (words, or the action), for prompts
        self.showing = None  # the view's 'alongside' entry of the action running (see view)
        view = self.rs.singles.get("view")
        view = view.data if view is not None and isinstance(view.data, dict) else {}
        # action id -> its entry in the view's 'alongside' and 'actions'
        self.alongside_of = {str(a.get("action")): i
                             for i, a in enumerate(view.get("alongside") or [])}
        self.action_notes = {str(a.get("action")): i
                             for i, a in enumerate(view.get("actions") or [])}
        self.context_cards: list[int] = []  # the cards being played or resolved, for prompts
        self.asking = None  # (statement, choice node, frame) of the next choice, for prompts
        self.hand_prompt = None  # an action's hand-written prompt, for its first question
        # the procedures running that say what the cards they offer cost ('price:'),
        # innermost last, each with its variables; and while a question of cards is asked
        # in one, that procedure and the cards offered (see ViewModelMixin.card_price)
        self.pricing: list = []
        self.offered: tuple | None = None
        # what pure rules read, kept while the engine only reads (gensupport.reading)
        # and, for rules that read only where the cards lie (and the spaces), until a
        # card moves (or a space changes), and for rules that read only the spaces,
        # until a space changes
        self.memo = self.zmemo = self.bmemo = None
        # the cards in play with modifiers, per kind and player, and with actions, per
        # seat (engine/menus.py)
        self.smemo = None
        self.check_invariants = False  # check them before every decision (--check-every-decision)
        self.check_actions = False  # check them after every action and at the end (simulations)
        # check every rollback of the undo journal against a copy taken at its mark
        # (tests: slow, a copy per mark)
        self.check_journal = False
        self._journal_copies: dict = {}
        # the work effects may do per effect run, per decision and per game
        self.budget = Budget()
        self.budget.where = self._flow_span()
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
        # what simulation results record when a card moves into each zone
        self.zone_records = {z: d.get("records", "played" if d.get("in_play") else "none")
                             for z, d in self.zone_decl.items()}
        # read at every effect step: worked out once from the declarations (never changed)
        self.zone_scope = {z: d.get("scope", "shared") for z, d in self.zone_decl.items()}
        self.player_tracks = {t for t, d in self.track_decl.items() if d.get("scope") == "player"}
        # card id -> its fields (see card_field): the ruleset's, the same in every game
        self._field_tables: dict[str, dict] = ruleset.__dict__.setdefault(
            "_card_field_tables", {})
        self.state = self._initial_state(names)
        # the same by field and card number, for compiled rules (see CardFacts)
        self.card_facts = CardFacts(self, ruleset.__dict__.setdefault("_card_facts", {}),
                                    len(self.state.cards))
        self.space_facts = SpaceFacts(self)  # the spaces' declared fields, for rules

    # the declared numbers a game starts from and keeps within: (section, path in an entry)
    _DECLARED_NUMBERS = (("resources", ("start",)), ("resources", ("min",)),
                         ("resources", ("production", "start")),
                         ("resources", ("production", "min")), ("tracks", ("start",)),
                         ("tracks", ("min",)), ("tracks", ("max",)), ("tracks", ("step",)))

    def _check_declared_numbers(self) -> None:
        """Stocks and tracks start, and are kept, within the bound rules compute in."""
        for section, path in self._DECLARED_NUMBERS:
            for entry in self.rs.sections[section].values():
                value = entry.data
                for key in path:
                    value = value.get(key) if isinstance(value, dict) else None
                if isinstance(value, int) and not -MAX_INT <= value <= MAX_INT:
                    raise RuleRuntimeError(f"the number {shown_number(value)} is beyond the "
                                           f"limit of {MAX_INT:,} (10^18) in magnitude",
                                           entry.span(*path))

    def _initial_state(self, names) -> State:
        self._check_declared_numbers()
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
            copies = int(entry.data.get("copies", 1) or 1)
            if number + copies > MAX_CARDS:  # checked before any is made
                where = entry.span("copies") if "copies" in entry.data else entry.span("id")
                raise RuleRuntimeError(
                    f"the ruleset's cards come to more than {MAX_CARDS:,} in one game with "
                    f"this card's {copies} cop{'y' if copies == 1 else 'ies'} ({number:,} "
                    "before it; the limit per game)", where)
            for _ in range(copies):
                number += 1
                cards[number] = CardState(cid, zone, owner)
                zones[(zone, owner)].append(CardRef(number))
        spaces = {sid: {"tile": None, "owner": None, "card": None} for sid in self.space_decl}
        return State(players, tracks, zones, cards, spaces, random.Random(self.seed),
                     list(range(self.n)), _owned=set(cards))

    def _flow_span(self):
        """Where a game that goes on too long is reported: the flow's rounds, else its
        first phase with turns, else nowhere in particular."""
        rounds = self.rs.singles.get("rounds")
        if rounds is not None:
            return rounds.key_span()
        for entry in self.rs.sections["phases"].values():
            if isinstance(entry.data, dict) and entry.data.get("turns"):
                return entry.span("turns")
        return None

    def frame(self, you: int | None = None, **extra) -> Frame:
        variables = {"you": you}
        variables.update(extra)
        return Frame(self, variables, 0, self.budget)

    def __copy__(self) -> "Game":
        """A shallow copy (for lookahead): it carries on the game's count of work and
        decisions, with allowances of its own for an effect and a decision."""
        clone = Game.__new__(Game)
        clone.__dict__.update(self.__dict__)
        clone.budget = self.budget.carried_on()
        clone.refusals = self.refusals.copy()  # it asks what the game asks, refusals its own
        clone._journal_copies = {}
        clone.told_stuck = dict(self.told_stuck)  # (its own: a copy's log tells its own)
        if self.action_start is not None and not isinstance(self.action_start[0], State):
            # the position the running action started from, as a state of its own: the
            # mark means nothing to the copy, whose state keeps no journal of this one's
            clone.action_start = (self.action_started(), *self.action_start[1:])
        return clone

    def action_started(self) -> State:
        """The position the running action started from (``action_start``), as a state
        of its own that nothing else changes."""
        start = self.action_start[0]
        return start.clone() if isinstance(start, State) else self.state.as_at(start)

    def charged(self, items: list) -> list:
        """A list of the game's handed to rules: a step per item, as copying it is work."""
        budget = self.budget
        budget.used += len(items)
        if budget.used > budget.limit:
            raise budget.exceeded(None)
        return items

    def run_code(self, key: tuple, frame: Frame):
        code = self.rs.code.get(key)
        if code is None:
            return None
        return code(frame)

    def snapshot(self):
        """A mark to go back to (before an action, to try an option): from now on every
        change to the state is journaled, and :meth:`restore` undoes them all, or
        :meth:`keep` keeps them. Charged as it was when this copied the state: a step
        per card and per space (so budgets, and where they run out, stay as they were)."""
        state, budget = self.state, self.budget
        budget.used += len(state.cards) + len(state.spaces)
        if budget.used > budget.limit:
            raise budget.exceeded(None)
        mark = state.mark()
        if self.check_journal:
            self._journal_copies[mark] = state.clone()
        return mark

    def restore(self, mark) -> None:
        """The state as it was at the mark (and the marks set since it dropped)."""
        state = self.state
        state.undo_to(mark)
        self.memo = self.zmemo = self.bmemo = self.smemo = None  # nothing read holds
        if self.check_journal:
            self._check_journal(mark, state)

    def keep(self, mark, stopped: bool = False) -> None:
        """What was done since the mark stays (the mark, and those set since it, dropped).
        ``stopped``: on the way out of something stopped by an exception, when a
        rollback further in may have dropped the mark already."""
        if stopped and not self.state.has_mark(mark):
            return
        self.state.release(mark)
        if self.check_journal:
            for other in [m for m in self._journal_copies if m[0] >= mark[0]]:
                del self._journal_copies[other]

    def _check_journal(self, mark, state: State) -> None:
        """(``check_journal``: tests) The state rolled back is the copy taken at the mark."""
        copy = self._journal_copies.pop(mark)
        for other in [m for m in self._journal_copies if m[0] > mark[0]]:
            del self._journal_copies[other]
        if not (state.same_as(copy) and state.tally == copy.tally
                and state.digest() == copy.digest()):
            raise AssertionError("the undo journal did not bring the state back to the "
                                 "position it marked")

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

    def player_field(self, player, name):
        if name == "seat":
            return player + 1
        return self.state.players[player].name

    def score(self, player):
        """The player's score so far: the sum of the scoring categories. While the engine
        only reads the state (``gensupport.reading``: an agent's evaluation reads each
        seat's score, and so may the ruleset's evaluation), it is worked out once per
        player and kept until the reading ends."""
        found = self.memo
        if found is not None and found[0] is self.state:
            table = found[1]
            key = (_SCORE, player)
            total = table.get(key)
            if total is None:
                total = table[key] = self._score(player)
            return total
        return self._score(player)

    def _score(self, player):
        across = self.kept_across
        if across is not None and across.state is self.state:
            # a copy an agent's search plays: the entries whose reads it has not
            # changed are shared with the other copies of its position (agents/across.py)
            total = 0
            for sid in self.rs.sections["scoring"]:
                total += across.scoring(self, sid, player)
            return total
        total = 0
        for sid in self.rs.sections["scoring"]:
            total += self.run_code(("scoring", sid), self.frame(player))
        return total

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

    def round_number(self):
        return self.state.round

    def last_round(self) -> int:  # (flow.py plays the rounds the same way)
        """The rounds' count, or their max (a cap), as the flow runs them; else its cap."""
        entry = self.rs.singles.get("rounds")
        rounds = entry.data if entry is not None and isinstance(entry.data, dict) \
            else {"count": 1}  # (no rounds: the flow plays one)
        limit = rounds.get("count") or rounds.get("max") or MAX_ROUNDS
        return min(int(limit), MAX_ROUNDS)

    def turns_left(self, player) -> int:
        """The turns the player still has in the phase under way, the one under way
        counted: exact where each turn comes round a fixed number of times ('fixed'
        turns), else 1 until the player passes and 0 after; 0 outside a phase of turns
        and once its turns are over."""
        st = self.state
        entry = self.rs.sections["phases"].get(st.phase)
        turns = (entry.data or {}).get("turns") if entry is not None else None
        if not isinstance(turns, dict):
            return 0
        if turns.get("style", "fixed") != "fixed":
            return 0 if player in st.passed else 1
        order = list(range(self.n)) if turns.get("order") == "seat" else list(st.turn_order)
        if player not in order or st.turn_seat not in order:
            return 0  # (no turn under way: the phase's turns are over)
        repeat = int(turns.get("repeat", 1))
        now = st.turn_round or 1  # (0 where the turns do not come round again)
        at = order.index(st.turn_seat)
        return max(0, repeat - now) + (1 if order.index(player) >= at else 0)

    def variant_active(self, name):
        return name in self.variants

    def constant(self, name):
        return self.rs.constants[name]

    def limit_error(self, message):
        return RuleRuntimeError(message)

    def random_number(self, low, high):
        return self.state.rng.randint(low, high)

    def set_turn_order(self, order):
        if sorted(order) != list(range(self.n)):
            raise RuleRuntimeError(f"a turn order must list every player once, got {order}")
        self.state.set_attr("turn_order", list(order))

    def end_game(self):
        self.state.set_attr("over", True)

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
