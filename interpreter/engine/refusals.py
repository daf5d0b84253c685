"""Refused answers, remembered where they were refused, so that every game goes on.

An action that fails while it runs is rolled back and its seat is asked again,
from the same position. Were the same options offered again, an agent that
answers the same way at the same position (any deterministic agent) would be
refused for ever. So the engine remembers what the game refused, by position:

- While an action runs, each decision it reaches (asked, or taken because it
  had one answer) adds to the action's *path* the answer taken, known by what
  it is in the decision as the rules built it: an option by its place in the
  full list, a number by itself. The path starts with the seat and the
  action's key. The path up to a decision is that decision's position: the
  same position before the action, the same action and the same answers
  give the same state and the same decision.
- When the action is refused, its last answer is refused at the position it
  was given at, with the reason. Then the other answers of that decision are
  tried, each on a trial run of the action from where it started, replaying
  the answers before it: one refused before the action asks anything more is
  refused too, with its own reason (the outcome is settled: the same position
  and the same answers give the same game); one that goes through, or that
  leads to another question, stays on offer. A decision left with nothing to
  choose refuses, in turn, the answer that led to it (with the reason its
  answers had), its siblings are tried the same way, and so on up to the
  action itself. So a card whose payment is asked and whose effect then fails
  whatever is paid is refused, card and all, the first time.
- A decision reached again at a remembered position offers only the answers
  not refused there and lists the others among its refusals, as 'refused:'
  and the reason. A number range keeps its ends out when they were refused;
  a range with a refused number inside it is offered as the list of the
  numbers left (a long one as a choice of stretch first, then the number).
  The flow lists a refused action with its reason, among the actions the
  rules do not allow now.

A refusal takes one answer away at one position, and a position has finitely
many answers, so no position is asked for ever: the action is refused at last,
and ending the turn or passing never is. Trials only speed this up (at most
MAX_TRIALS per decision and refusal); they run only in the game itself, not
in the copies searches play on, and those of one refusal share a work budget
of their own, as large as one decision's (see ``AskingMixin.answer_trials``).
The memory lasts as long as the position: the flow forgets it when an action
succeeds and when a turn ends, and whatever else changes the state between
actions (a scenario's steps) forgets it too. A copy of the game (for a
search) takes a copy of it, so the copy asks the questions the game asks.

This module imports only :mod:`.decisions`.
"""

from __future__ import annotations

from itertools import islice

from .decisions import Decision, Option

MAX_LISTED_NUMBERS = 100  # a range with holes is offered as a list up to this many numbers
MAX_REASONS = 3  # reasons quoted when every answer of a decision was refused for its own
MAX_TRIALS = 32  # other answers of a decision tried after one of them is refused
_NONE: dict = {}


class Refusals:
    """What the game refused at the positions of the current attempt, and its path."""

    __slots__ = ("known", "ids", "steps", "trials", "remember")

    def __init__(self, trials: bool = True, remember: bool = True):
        self.known: dict[tuple, dict] = {}  # position -> {answer: reason (words)}
        # while an action runs: [seat, action key, answer, …], each answer the one taken
        # at a decision it reached, as the rules built it (an index, or a number); the
        # engine's decide() adds them, and each decision to ``steps``
        self.ids: list | None = None
        self.steps: list = []  # the decisions answered by ids[2:], in order
        self.trials = trials  # whether a refusal tries the other answers (see refuse)
        # False for a game from a record made before refusals were remembered (format 1):
        # it is replayed, and played on, asking again what was refused, as it was made
        self.remember = remember

    def copy(self) -> "Refusals":
        """For a copy of the game: the same refusals, and no trials (it is not asked again)."""
        new = Refusals(trials=False, remember=self.remember)
        if self.known:
            new.known = {where: dict(refused) for where, refused in self.known.items()}
        return new

    def forget(self) -> None:
        """The position has changed: nothing refused before applies any longer."""
        if self.known:
            self.known = {}
        self.ids = None

    # --------------------------------------------------------------- the action
    def actions(self, seat: int) -> dict:
        """The seat's actions refused at this position: action key -> reason."""
        return self.known.get((seat,), _NONE) if self.known else _NONE

    def begin(self, seat: int, key: str) -> None:
        """An action starts: the decisions it reaches make up its path."""
        if self.remember:
            self.ids = [seat, key]
            self.steps = []

    def end(self) -> None:
        """The action is over (done, or stopped for another reason than a refusal)."""
        self.ids = None

    def refuse(self, reason: str, trial=None) -> None:
        """The running action was refused: its last answer is not offered there again.

        ``trial(answers)``, when given, runs the action again answering its decisions
        with ``answers`` (as the rules built them) and nothing more, and says why it is
        refused (None: it goes through, or it would ask another question). Each other
        answer of a decision that just lost one is tried so (up to MAX_TRIALS of them),
        and those refused with no further question are refused too: what can only be
        refused is then not offered even once more."""
        ids, steps = self.ids, self.steps
        self.ids = None
        if ids is None:
            return
        if not self.trials:
            trial = None
        while len(ids) > 1:
            refused = self.known.setdefault(tuple(ids[:-1]), {})
            refused[ids[-1]] = reason
            if len(ids) == 2:
                return  # the action itself is refused: the flow offers the others
            decision = steps[-1]
            total = decision.count()
            if trial is not None and len(refused) < total:
                untried = list(islice((a for a in _answers(decision) if a not in refused),
                                      MAX_TRIALS))
                for answer in untried:
                    why = trial(ids[2:-1] + [answer])
                    if why is not None:
                        refused[answer] = why
            if len(refused) < total:
                return  # something is left to try there
            reason = together(decision, refused)
            ids, steps = ids[:-1], steps[:-1]


def _answers(decision: Decision):
    """Every answer of the decision as the rules built it: its indices, or its numbers."""
    if decision.is_range:
        return range(decision.low, decision.high + 1)
    return range(len(decision.options))


def together(decision: Decision, refused: dict) -> str:
    """Why nothing can be chosen at a decision whose every answer was refused."""
    reasons = list(dict.fromkeys(refused.values()))
    if len(reasons) == 1:
        return reasons[0]
    parts = [f"{_answer_words(decision, a)}: {r}"
             for a, r in list(refused.items())[:MAX_REASONS]]
    more = len(refused) - MAX_REASONS
    return (f"no answer to '{decision.prompt}' can be carried out ({'; '.join(parts)}"
            + (f"; and {more} more" if more > 0 else "") + ")")


def _answer_words(decision: Decision, answer) -> str:
    if decision.is_range or not 0 <= answer < len(decision.options):
        return str(answer)
    return decision.options[answer].label


def shown(reason: str) -> str:
    """A remembered refusal as a person reads it beside the option."""
    return f"refused: {reason}"


def narrow(decision: Decision, refused: dict):
    """The decision without its refused answers, and how its answers map back.

    Returns (None, None) when nothing is left. Otherwise the decision to ask
    and a list mapping each of its answers (an index) to the answer of the full
    decision, or None when its answers are the full decision's (a range with
    its refused ends cut off answers numbers). A long range with refused
    numbers inside it comes back as a choice of :class:`Stretch` options, mapped
    by None too: the caller asks the stretch, then the number in it."""
    if decision.is_range:
        return _narrow_range(decision, refused)
    keep = [i for i in range(len(decision.options)) if i not in refused]
    if not keep:
        return None, None
    return _like(decision, [decision.options[i] for i in keep], refused), keep


def _narrow_range(decision: Decision, refused: dict):
    low, high = decision.low, decision.high
    holes = sorted(n for n in refused if low <= n <= high)
    while holes and holes[0] == low:
        holes.pop(0)
        low += 1
    while holes and holes[-1] == high:
        holes.pop()
        high -= 1
    if low > high:
        return None, None
    if not holes:
        narrowed = _like(decision, [], refused)
        narrowed.low, narrowed.high = low, high
        return narrowed, None
    if high - low + 1 - len(holes) <= MAX_LISTED_NUMBERS:
        gone = set(holes)
        numbers = [n for n in range(low, high + 1) if n not in gone]
        return _like(decision, [Option(str(n), n, str(n)) for n in numbers], refused), numbers
    runs, start = [], low
    for hole in holes:
        if start < hole:
            runs.append((start, hole - 1))
        start = hole + 1
    runs.append((start, high))
    options = [Option(f"from {a} to {b}" if a != b else str(a), Stretch(a, b),
                      f"{a}-{b}" if a != b else str(a)) for a, b in runs]
    stretches = _like(decision, options, refused)
    stretches.kind = "option"
    return stretches, None


class Stretch(tuple):
    """Numbers from low to high, offered as one option when a long range has holes."""

    def __new__(cls, low: int, high: int):
        return super().__new__(cls, (low, high))


def _like(decision: Decision, options: list, refused: dict) -> Decision:
    """A decision like ``decision`` with these options, listing the refused answers."""
    def reasons() -> dict:
        out = dict(decision.refused)
        for answer, reason in refused.items():
            out[_answer_words(decision, answer)] = shown(reason)
        return out
    return Decision(decision.player, decision.kind, decision.prompt_text, options,
                    refused_text=reasons, optional=decision.optional, about=decision.about,
                    some=decision.some)
