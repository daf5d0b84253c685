"""What a scenario file becomes, and what playing one gives: plain data.

:class:`Scenario` (its game, decisions, position, setup and steps),
:class:`Step` (one thing it does or checks, with the place it was written)
and :class:`Outcome` (passed or not, with a message and a place). Loading
(:mod:`.scenario`) builds them and running (:mod:`.scenario_run`) reads
them; both import this module, so neither imports the other at load.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..span import Span


@dataclass
class Step:
    span: Span
    seat: int
    kind: str  # run | action | card_action | advance | expect | result | logged | look
    code: Any = None
    explain: Any = None
    action: str | None = None
    answers: list = field(default_factory=list)
    refused: str | None = None
    answers_span: Span | None = None
    which: int | None = None  # card_action: the index of the card's action to take
    broken: bool = False  # the step names something that does not exist (reported on load)
    element: Any = None  # action with 'each': which element (its label or number from 1)
    advance: tuple | None = None  # ("turn" | "round" | "game", None) or ("phase", id)
    agents: dict = field(default_factory=dict)  # seat index -> agent spec, for advance
    offers: list | None = None  # the exact options of the first decision past the answers
    refuses: dict = field(default_factory=dict)  # label -> text its refusal reason contains
    asks: str | None = None  # text the prompt of that decision contains
    decider: int | None = None  # seat index that decision is put to
    logged: str | None = None  # text a log line since the steps began must contain
    result: dict | None = None  # what the end of the game must show


@dataclass
class Scenario:
    id: str
    description: str
    span: Span
    file: str
    players: int
    seed: int
    variants: list[str]
    decisions: list
    setup: Any
    steps: list[Step]
    setup_broken: bool = False  # the setup had errors (reported when it was loaded)
    position: Any = None  # a Position set directly after the decisions
    position_given: bool = False  # the file had one (broken when position is None)


@dataclass
class Outcome:
    scenario: Scenario
    passed: bool
    message: str = ""
    span: Span | None = None
