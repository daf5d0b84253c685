"""What compiled effects need from a running game: the runtime interface.

Compiled rules are called with a :class:`Frame` (the runtime plus local
variables) and call only the methods listed in :class:`Runtime`. The game engine
implements this interface; tests use small fakes. Keeping the interface
explicit is what lets the language be checked and compiled without a game.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..span import Span

MAX_CALL_DEPTH = 200
MAX_REPEAT = 10_000
REPEAT = "#repeat"  # the locals' entry of a 'repeat' that asks: (this time, how many)
# The work budget: every loop iteration, comprehension item, call and top-level run
# is a step, and so is every item of a list read from the game or made by a builtin.
# The most real games were measured to use (benchmarks/bench_budget.py --all, random
# and greedy agents, every shipped ruleset and player count; benchmarks/README.md) is
# 28,144 steps in one effect run, 50,442 between two decisions, 1,446,567 in a game,
# 648 decisions and 307 cards: each limit is 30 times that or more.
EFFECT_STEPS = 1_000_000  # in one top-level run of an effect or expression
DECISION_STEPS = 1_500_000  # between two answered decisions
GAME_STEPS = 50_000_000  # in one game, from its setup to its final scoring
MAX_DECISIONS = 50_000  # answered decisions in one game
MAX_CARDS = 10_000  # cards in one game (every copy counts)
# Text the rules write to the log with log(): a step per LOG_CHARS_PER_STEP characters
# of it, and at most MAX_LOG_TEXT characters in one game, counted whether or not the log
# is kept (play keeps it, simulate does not: the same game stops at the same place in
# both). The shipped rulesets log 80 characters in a game at the most.
LOG_CHARS_PER_STEP = 100
MAX_LOG_TEXT = 1_000_000
# Integers computed by rules stay within this bound (a literal, a sum, a product).
MAX_INT = 10 ** 18


class RuleRuntimeError(Exception):
    """A rule failed while running (division by zero, a bound exceeded…)."""

    def __init__(self, message: str, span: Span | None = None):
        super().__init__(f"{span}: {message}" if span else message)
        self.message = message
        self.span = span

    def __reduce__(self):
        return (RuleRuntimeError, (self.message, self.span))


class RequirementFailed(Exception):
    """A ``require`` did not hold; the message names the requirement and the shortfall."""

    def __init__(self, message: str, span: Span | None = None):
        super().__init__(message)
        self.message = message
        self.span = span

    def __reduce__(self):
        return (RequirementFailed, (self.message, self.span))


class Budget:
    """The work effects may do: a limit per top-level effect run, per decision and per game.

    ``used`` counts every step ever charged; ``limit`` is the count at which the
    nearest of the limits runs out, so charging is one addition and one
    comparison. A top-level run (:meth:`start`, when ``active`` is 0) opens the
    effect's allowance; :meth:`new_decision` opens the decision's, and counts
    the game's answered decisions. ``stop`` is the count at which the game's
    total runs out (``game_steps``; a search's copy may stop sooner, see
    :class:`SearchBudget`), and ``cap`` where the decision's allowance or the
    total, whichever comes first, runs out. ``active`` is how deeply effect
    runs are nested (a procedure's body, a trigger set off by an effect); nested
    runs are paid for where they start, by the call or emit. ``where`` is the
    place the limits per game are reported at when no rule is running (the
    flow's rounds, say), or None. ``logged`` counts the characters the rules
    have written to the log (:meth:`log_text`), and ``searched`` the steps each
    seat's agent has spent on copies of the game it looked ahead on (see
    :class:`SearchBudget`).
    """

    __slots__ = ("used", "limit", "cap", "stop", "effect_start", "decision_start", "active",
                 "effect_steps", "decision_steps", "game_steps", "max_decisions", "decisions",
                 "where", "logged", "searched")

    def __init__(self, effect_steps: int = EFFECT_STEPS, decision_steps: int = DECISION_STEPS,
                 game_steps: int = GAME_STEPS, max_decisions: int = MAX_DECISIONS):
        self.effect_steps = effect_steps
        self.decision_steps = decision_steps
        self.game_steps = game_steps
        self.max_decisions = max_decisions
        self.decisions = 0
        self.where: Span | None = None
        self.used = 0
        self.effect_start = 0
        self.decision_start = 0
        self.active = 0
        self.logged = 0
        self.searched: dict[int, int] = {}
        self.stop = game_steps
        self.cap = self.limit = min(decision_steps, game_steps)

    def carried_on(self) -> "Budget":
        """The budget of a working copy of the game: the game's counts so far, with
        fresh allowances for an effect and a decision. (What a copy does is not charged
        to the game; an agent's search charges its copies with a :class:`SearchBudget`.)"""
        out = type(self)(self.effect_steps, self.decision_steps, self.game_steps,
                         self.max_decisions)
        out.effect_start = out.decision_start = self.used
        out.used = self.used
        out.decisions, out.where, out.logged = self.decisions, self.where, self.logged
        out.cap = out.limit = min(self.used + self.decision_steps, self.game_steps)
        return out

    def count_aside(self, steps: int) -> None:
        """Charge work done apart from the rule running now (trial runs of answers): it
        counts toward the game's total, not the current effect's or decision's allowance."""
        self.used += steps
        self.effect_start += steps
        self.decision_start += steps
        self.cap = min(self.decision_start + self.decision_steps, self.stop)
        self.limit = min(self.limit + steps, self.cap)

    def log_text(self, size: int, span: Span | None) -> None:
        """The rules write ``size`` characters to the log: a step per LOG_CHARS_PER_STEP of
        them, and the game's total of logged text must stay within MAX_LOG_TEXT. Counted
        whether or not the log is kept, so a game stops at the same place everywhere."""
        self.logged += size
        if self.logged > MAX_LOG_TEXT:
            raise RuleRuntimeError(f"the rules logged more than {MAX_LOG_TEXT:,} characters "
                                   "in this game (the limit per game)", span)
        self.used += size // LOG_CHARS_PER_STEP
        if self.used > self.limit:
            raise self.exceeded(span)

    def start(self, span: Span | None) -> None:
        """A top-level run of an effect or expression starts: one step, a fresh allowance.

        (The compiled runs do the same inline; this is for runtimes and measurements.)"""
        self.effect_start = self.used
        self.limit = min(self.used + self.effect_steps, self.cap)
        self.used += 1
        if self.used > self.limit:
            raise self.exceeded(span)

    def new_decision(self) -> None:
        """A decision was answered: the work before it no longer counts, but the decision
        does, against the limit per game."""
        self.decisions += 1
        if self.decisions > self.max_decisions:
            raise RuleRuntimeError(
                f"the game has asked more than {self.max_decisions:,} decisions without "
                "ending (the limit per game); do its rounds or turns ever end?", self.where)
        self.decision_start = self.used
        self.cap = limit = min(self.used + self.decision_steps, self.stop)
        if self.active:
            limit = min(limit, self.effect_start + self.effect_steps)
        self.limit = limit

    def charge(self, steps: int, span: Span | None) -> None:
        self.used += steps
        if self.used > self.limit:
            raise self.exceeded(span)

    def exceeded(self, span: Span | None) -> RuleRuntimeError:
        """The error for the limit in force (``limit``): the nearest one, which ran out."""
        if self.active and self.limit == self.effect_start + self.effect_steps:
            return RuleRuntimeError(f"this effect did more than {self.effect_steps} steps "
                                    "(the limit per effect)", span)
        if self.limit == self.stop:
            return RuleRuntimeError(f"the game did more than {self.game_steps:,} steps in all "
                                    "(the limit per game)", span or self.where)
        return RuleRuntimeError(f"the effects run since the last decision did more than "
                                f"{self.decision_steps} steps (the limit per decision)",
                                span or self.where)

    @staticmethod
    def too_deep(span: Span | None) -> RuleRuntimeError:
        return RuleRuntimeError(f"effects nested deeper than {MAX_CALL_DEPTH} (a trigger "
                                "that sets itself off?)", span)


class SearchBudget(Budget):
    """The work of one search: the copies of the game an agent plays to answer a decision.

    Opened with :meth:`opened` from the game's budget when the search starts. Each
    copy (:meth:`trial`, called before each copy runs) gets what a copy of the game
    would: fresh allowances for an effect and a decision, and the game's total as it
    stands in the game. Besides, every copy of the search counts toward the search's
    allowance (``steps``, from the search's start), and toward the seat's allowance
    for all its searches in the game (``per_game``, less what ``Budget.searched``
    says its earlier searches used). A copy that runs out of either stops as at any
    limit, with a rule error, and ``spent`` says which ran out: ``"search"`` (the
    agent answers with what it has found) or ``"game"`` (the agent is out of
    look-ahead for this game: its caller reports the error). :meth:`close` adds the
    search's work to ``Budget.searched``. Made with the plain constructor (a
    refusal's trial runs inside a copy), it has no allowance of its own.
    """

    __slots__ = ("owner", "seat", "begun", "game_left", "search_end", "game_end", "per_game",
                 "spent", "base_decisions", "base_logged")

    def __init__(self, *limits):
        super().__init__(*limits)
        self.owner, self.seat, self.spent = None, -1, None
        self.begun = self.base_decisions = self.base_logged = 0
        self.game_left = self.search_end = self.game_end = self.per_game = self.stop

    @classmethod
    def opened(cls, budget: Budget, seat: int, steps: int, per_game: int) -> "SearchBudget":
        out = cls(budget.effect_steps, budget.decision_steps, budget.game_steps,
                  budget.max_decisions)
        out.owner, out.seat, out.per_game = budget, seat, per_game
        out.used = out.begun = budget.used
        out.where = budget.where
        out.base_decisions, out.base_logged = budget.decisions, budget.logged
        out.game_left = budget.game_steps - budget.used
        out.search_end = budget.used + steps
        out.game_end = budget.used + max(0, per_game - budget.searched.get(seat, 0))
        out.trial()
        return out

    def trial(self) -> None:
        """A copy of the game starts to run: what a copy of the game may do."""
        self.stop = min(self.used + self.game_left, self.search_end, self.game_end)
        self.effect_start = self.decision_start = self.used
        self.active = 0
        self.decisions, self.logged = self.base_decisions, self.base_logged
        self.cap = self.limit = min(self.used + self.decision_steps, self.stop)

    def copying(self, size: int) -> None:
        """A copy of the game is made (``size``: its cards and spaces): a step each."""
        self.used += size
        self.over()

    def over(self) -> bool:
        """Whether the search or the seat's searches in this game ran out (see ``spent``)."""
        if self.spent is None:
            if self.used > self.game_end:
                self.spent = "game"
            elif self.used > self.search_end:
                self.spent = "search"
        return self.spent is not None

    def exceeded(self, span: Span | None) -> RuleRuntimeError:
        if self.limit == self.stop and self.stop in (self.search_end, self.game_end):
            self.spent = "game" if self.stop == self.game_end else "search"
            return RuleRuntimeError("a search's copy of the game ran out of steps", span)
        return super().exceeded(span)

    def close(self) -> None:
        """The search is over: its work is added to what the seat's searches used."""
        if self.owner is not None:
            searched = self.owner.searched
            searched[self.seat] = searched.get(self.seat, 0) + self.used - self.begun
            self.owner = None


def shown_number(value: int) -> str:
    """A number for a message: in full when short, else its first digits and its length."""
    text = str(abs(value))
    sign = "-" if value < 0 else ""
    return f"{sign}{text}" if len(text) <= 30 else f"{sign}{text[:12]}…({len(text)} digits)"


def check_int(value: int, span: Span | None) -> int:
    """``value`` if it is within the integer bound, else a positioned rule error."""
    if -MAX_INT <= value <= MAX_INT:
        return value
    raise RuleRuntimeError(f"a number grew beyond the limit of {MAX_INT:,} (10^18) in "
                           "magnitude", span)


class Frame:
    """The runtime, the variables visible to the running code, and the work budget."""

    __slots__ = ("rt", "vars", "depth", "budget")

    def __init__(self, rt: "Runtime", variables: dict[str, Any] | None = None, depth: int = 0,
                 budget: Budget | None = None):
        self.rt = rt
        self.vars = variables if variables is not None else {}
        self.depth = depth
        self.budget = budget if budget is not None else Budget()

    def child(self) -> "Frame":
        return Frame(self.rt, dict(self.vars), self.depth, self.budget)


class Runtime(Protocol):
    """The methods compiled effects call. Symbols are passed as their declared ids.

    Besides the methods, compiled rules read a few things directly, each in one
    lookup (see docs/engine.md, "Compiled rules"): ``state.tracks[track]`` (a
    global track), ``state.players[player].tracks[track]``, ``state.spaces[space][field]``
    (what lies on a space), ``card_facts[field][card]`` and ``space_facts[field][space]``
    (what ``card_field`` and ``space_field`` answer for the fields that never change),
    and ``zone_cards(zone, player)`` (the zone's own list, for a rule that reads it at
    once and moves no card)."""

    state: Any
    card_facts: Any
    space_facts: Any

    # reading the state
    def players(self) -> list: ...
    def turn_order(self) -> list: ...
    def seat_neighbours(self, player) -> list: ...
    def stock(self, player, resource: str) -> int: ...
    def production(self, player, resource: str) -> int: ...
    def capacity(self, player, resource: str) -> int: ...
    def track(self, track: str, player) -> int: ...
    def resources_on(self, card, resource: str) -> int: ...
    def pieces_on(self, card, player) -> int: ...
    def cards_in(self, zone: str, player) -> list: ...
    def zone_cards(self, zone: str, player) -> list: ...
    def zone_of(self, card) -> str: ...
    def all_cards_in(self, zone: str) -> list: ...
    def score(self, player) -> int: ...
    def slot_of(self, card) -> int: ...
    def card_field(self, card, name: str) -> Any: ...
    def space_field(self, space, name: str) -> Any: ...
    def player_field(self, player, name: str) -> Any: ...
    def is_marked(self, card, marker: str) -> bool: ...
    def has_block(self, card, block: str) -> bool: ...
    def meets_requirements(self, card, player) -> bool: ...
    def explain_requirements(self, card, player) -> str: ...
    def vp_of(self, card) -> int: ...
    def spaces(self) -> list: ...
    def neighbours(self, space) -> list: ...
    def space_of(self, card) -> Any: ...
    def can_place(self, tile: str, player) -> bool: ...
    def modifier(self, modifier: str, player, card, values: dict | None = None) -> int: ...
    def count_history(self, event: str, player, scope: str) -> int: ...
    def round_number(self) -> int: ...
    def last_round(self) -> int: ...
    def turns_left(self, player) -> int: ...
    def variant_active(self, name: str) -> bool: ...
    def constant(self, name: str) -> Any: ...

    # decisions
    def choose_one(self, options: list, optional: bool, left_out: list = ()) -> Any: ...
    def choose_number(self, low: int, high: int, *facts: int) -> int: ...
    def choose_order(self, items: list) -> list: ...
    def choose_some(self, items: list, most: int, *facts: int) -> list: ...
    def choose_option(self, labels: list[str], probes: list) -> int: ...
    def confirm(self, label: str) -> bool: ...
    def choose_from(self, noun: str, player) -> Any: ...

    # changing the state
    def change_stock(self, player, resource: str, amount: int, verb: str) -> None: ...
    def change_production(self, player, resource: str, amount: int) -> None: ...
    def move_track(self, track: str, steps: int, player) -> None: ...
    def set_track(self, track: str, value: int, player) -> None: ...
    def place_tile(self, tile: str, player, mode: str, target, source) -> Any: ...
    def transfer(self, verb: str, resource: str, amount: int, up_to: bool, source, dest,
                 player) -> None: ...
    def emit(self, event: str, payload: dict) -> None: ...
    def run_block(self, card, block: str, player) -> None: ...
    def asking_about(self, card) -> None: ...  # questions name the card, until:
    def asked_about(self) -> None: ...
    def draw(self, count: int, from_zone: str, to_zone: str, player) -> None: ...
    def put(self, card, zone: str, player, slot: int) -> None: ...
    def shuffle(self, zone: str, player) -> None: ...
    def set_marker(self, card, marker: str, value: bool) -> None: ...
    def place_pieces(self, count: int, card, player, stock) -> None: ...
    def take_pieces(self, count: int, card, player, stock) -> None: ...
    def set_turn_order(self, order: list) -> None: ...
    def claim(self, space, player) -> None: ...
    def tiles_left(self, tile: str) -> int: ...
    def log(self, message: str) -> None: ...
    def log_value_words(self, value: Any, typ: Any) -> str: ...
    def end_game(self) -> None: ...
    def limit_error(self, message: str) -> Exception: ...
