"""Decisions: the only way the engine asks a player anything.

A :class:`Decision` names the player who decides, says what is being decided,
and lists the legal options (or a bounded integer range). Agents answer with
an option index (or a number in the range). Options that exist but are not
allowed right now are listed as refusals with the reason, so a person, a
record or a scenario that picks one gets told exactly which requirement failed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Option:
    label: str
    value: Any = None
    key: str = ""  # a stable name for scripts and scenarios ("action:travel")


@dataclass
class Decision:
    player: int  # seat
    kind: str  # action | card | player | space | option | confirm | number | order | item
    prompt: str
    options: list[Option] = field(default_factory=list)
    low: int | None = None  # for kind == "number"
    high: int | None = None
    refused: dict[str, str] = field(default_factory=dict)  # label -> reason
    optional: bool = False  # "none" is among the options (last)

    @property
    def is_range(self) -> bool:
        return self.kind == "number"

    def count(self) -> int:
        return (self.high - self.low + 1) if self.is_range else len(self.options)

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

    def find(self, text: str) -> tuple[int | None, str | None]:
        """Match an option by key or label (for records, scenarios and people)."""
        t = text.strip().lower()
        for i, o in enumerate(self.options):
            if t in (o.key.lower(), o.label.lower()):
                return i, None
        for label, reason in self.refused.items():
            if t == label.lower() or t == label.lower().split(":", 1)[-1].strip():
                return None, f"'{label}' is not allowed now: {reason}"
        matches = [i for i, o in enumerate(self.options) if o.label.lower().startswith(t)]
        if len(matches) == 1:
            return matches[0], None
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
