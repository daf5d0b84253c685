"""Decisions: the only way the engine asks a player anything.

A :class:`Decision` names the player who decides, says what is being decided,
and lists the legal options (or a bounded integer range). Agents answer with
an option index (or a number in the range). Options that exist but are not
allowed right now are listed as refusals with the reason, so a person, a
record or a scenario that picks one gets told exactly which requirement failed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any, Callable, Union

Text = Union[str, Callable[[], str]]  # words, or how to make them when someone reads them


def _resolve(text: Text) -> str:
    return text if isinstance(text, str) else str(text())


class Option:
    """One answer. Its label may be given as a function: words are made only when read."""

    __slots__ = ("_label", "value", "key")

    def __init__(self, label: Text, value: Any = None, key: str = ""):
        self._label = label
        self.value = value
        self.key = key  # a stable name for scripts and scenarios ("action:travel")

    @property
    def label(self) -> str:
        if not isinstance(self._label, str):
            self._label = _resolve(self._label)
        return self._label

    def __repr__(self) -> str:
        return f"Option({self.label!r}, {self.value!r}, {self.key!r})"


class Options(Sequence):
    """A decision's options made when first read: the values chosen among, how to make
    each one's :class:`Option`, and options that follow them (the 'none' of an optional
    choice). Its length is known without making any: a random agent's pick, a check of
    an answer and a question with one answer make none; anything that reads an option
    (a view, the log, a searching agent, a script matching keys) gets all of them, the
    very options a list would have held, made once."""

    __slots__ = ("_values", "_make", "_tail", "_made", "n")

    def __init__(self, values: list, make: Callable[[Any], Option], tail: tuple = ()):
        self._values, self._make, self._tail = values, make, tail
        self._made: list | None = None
        self.n = len(values) + len(tail)  # (how many: Decision.count reads it)

    def _all(self) -> list:
        made = self._made
        if made is None:
            make = self._make
            made = self._made = [make(v) for v in self._values]
            made.extend(self._tail)
        return made

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        return self._all()[i]

    def __iter__(self):
        return iter(self._all())

    def index(self, value, *args) -> int:
        return self._all().index(value, *args)

    def __eq__(self, other) -> bool:
        if isinstance(other, Options):
            other = other._all()
        return self._all() == other

    __hash__ = None  # (as a list's)

    def __repr__(self) -> str:
        return repr(self._all())


@dataclass
class Decision:
    player: int  # seat
    kind: str  # action | card | player | space | option | confirm | number | order | item
    prompt_text: Text
    options: list[Option] | Options = field(default_factory=list)  # (Options: made when read)
    # for kind == "number": the range, or no range and the numbers as options (a range
    # with refused numbers inside it, see refusals.py)
    low: int | None = None
    high: int | None = None
    # label -> reason (each reason words or a function), or a function making that dict
    refused_text: Any = field(default_factory=dict)
    optional: bool = False  # "none" is among the options (last)
    about: list = field(default_factory=list)  # cards the question is about (shown with it)
    # a pick of a set (choose_some): how many more may be picked now; 0 for other questions
    some: int = 0
    # each option's short key, made when first read (see keys.py: short_keys)
    shorts: list | None = field(default=None, repr=False, compare=False)
    # keys of a card's copies the menu does not show, with the options that offer
    # the card (keys.py): refused, saying the keys shown for it
    aliases: dict = field(default_factory=dict, repr=False, compare=False)
    # what a number question says with it ('2 coins a gold'): a function of no arguments
    # making the words, kept when an author's own prompt replaces the made one
    facts: Any = field(default=None, repr=False, compare=False)
    # the printed card fields the question's condition reads ('discard_goods' for 'which
    # card do you discard for goods?'): each card option says them first
    lead: tuple = field(default=(), repr=False, compare=False)
    # whether its one answer, taken for the seat, is told as 'the only choice, taken for
    # you': not for a menu that can only ever offer one action (a phase's one action,
    # whose headline in the log says it)
    tell_alone: bool = field(default=True, repr=False, compare=False)

    @property
    def prompt(self) -> str:
        if not isinstance(self.prompt_text, str):
            self.prompt_text = _resolve(self.prompt_text)
        return self.prompt_text

    @property
    def refused(self) -> dict[str, str]:
        """Options that exist but are not allowed now, with the reason in words."""
        text = self.refused_text
        if callable(text):
            self.refused_text = text = text()
        if any(not isinstance(v, str) for v in text.values()):
            self.refused_text = text = {k: _resolve(v) for k, v in text.items()}
        return text

    def __repr__(self) -> str:
        # one line, and no words made for it: labels and reasons are built when read
        answers = f"{self.low}–{self.high}" if self.is_range else f"{len(self.options)} options"
        return f"<Decision seat {self.player} (from 0), {self.kind}: {answers}>"

    @property
    def is_range(self) -> bool:
        return self.kind == "number" and self.low is not None

    def count(self) -> int:
        low = self.low  # (asked twice a decision: is_range written out)
        if low is not None and self.kind == "number":
            return self.high - low + 1
        options = self.options
        return options.n if options.__class__ is Options else len(options)

    def describe_answer(self, answer: int) -> str:
        if self.is_range:
            return str(answer)
        return self.options[answer].label

    def check(self, answer: Any) -> str | None:
        """Why the answer is not acceptable, or None when it is."""
        if isinstance(answer, bool) or not isinstance(answer, int):
            return f"the answer must be a number, not {answer!r}"
        if self.is_range:
            if not self.low <= answer <= self.high:
                return f"choose a number from {self.low} to {self.high}; {answer} is outside"
            return None
        if not 0 <= answer < len(self.options):
            return f"choose an option from 1 to {len(self.options)}"
        return None

    def declining(self) -> int | None:
        """The option that ends the turn or declines: what a player means by 'pass'.

        Passing (no more turns this round) or ending the turn, where the flow
        offers it; 'no' to a 'may'; 'none' where choosing nothing is allowed, and
        'done' when a set is chosen item by item. None when the decision has no
        such option."""
        if self.kind == "action":
            for i, o in enumerate(self.options):
                if o.key in ("pass", "end"):
                    return i
        elif self.kind == "confirm":
            for i, o in enumerate(self.options):
                if o.value is False:
                    return i
        elif self.kind in ("card", "item", "player", "space"):
            for i, o in enumerate(self.options):  # the engine's 'none' or 'done'
                if o.value is None and o.key in ("none", "done"):
                    return i
        return None

    def pick_not_ended(self, word: str) -> str:
        """Why 'pass' or 'end' does not answer a pick of a set: a word that ends a turn
        would end the pick too, giving up what is left unpicked without saying so."""
        done = next((o.key for o in self.options if o.value is None), "done")
        return (f"'{word}' does not end this pick: type {done} to finish with what you "
                f"have picked so far, or an option's number or key to pick it")

    def find(self, text: str, shorts: list[str] | None = None) -> tuple[int | None, str | None]:
        """Match an option by key or label (for records, scenarios and people).

        With ``shorts`` (the options' short keys, see keys.py: what people and the
        API answer with), a short key matches too, after an exact key or label,
        as does the start of a key only one option's key starts with; and 'pass'
        is the option that ends the turn or declines (:meth:`declining`)."""
        t = text.strip().lower()
        for i, o in enumerate(self.options):
            if t in (o.key.lower(), o.label.lower()):
                return i, None
        if shorts is not None:
            for i, key in enumerate(shorts):
                if t == key.lower():
                    return i, None
            if t in self.aliases:  # another copy's key: refused, with the keys shown
                shown = " and ".join(f"{i + 1}. {shorts[i]}" for i in self.aliases[t])
                label = self.options[self.aliases[t][0]].label
                return None, f"{t} is not in this menu: it offers {label} as {shown}"
            if t == "pass" and self.some:
                return None, self.pick_not_ended(t)
            if t == "pass":
                i = self.declining()
                if i is not None:
                    return i, None
                return None, "there is nothing to pass on here: choose one of the options"
        for label, reason in self.refused.items():
            if t == label.lower() or t == label.lower().split(":", 1)[-1].strip():
                return None, f"'{label}' is not allowed now: {reason}"
        matches = [i for i, o in enumerate(self.options) if o.label.lower().startswith(t)]
        if shorts and t:  # the start of one option's key ('rd' for 'rd2', the only one)
            keyed = [i for i, key in enumerate(shorts) if key.lower().startswith(t)]
            if len(keyed) == 1 and (len(matches) != 1 or matches == keyed):
                return keyed[0], None
            if len(keyed) == 1 and len(matches) == 1:
                return None, (f"'{text}' could be {shorts[keyed[0]]} "
                              f"({self.options[keyed[0]].label}) or "
                              f"{shorts[matches[0]]} ({self.options[matches[0]].label}): "
                              "type the whole key")
        if len(matches) == 1:
            return matches[0], None
        if shorts is not None and t == "end" and self.some:
            return None, self.pick_not_ended(t)
        return None, f"no option matches '{text}'"


class IllegalAnswer(Exception):
    """An answer from a record or a scenario that the decision refuses."""

    def __init__(self, decision: Decision, reason: str):
        super().__init__(f"{decision.prompt}: {reason}")
        self.decision = decision
        self.reason = reason


class ActionRefused(Exception):
    """An action turned out impossible while it ran; the state is rolled back."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
