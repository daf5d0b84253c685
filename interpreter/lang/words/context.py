"""Where words are rendered, and what a local name stands for there.

A :class:`Ctx` is either static (no frame: card text, "gain 1 coin for each
tower") or a frame of a running game (prompts and refusals: "gain 3 coins").
It carries the words or values bound to local names, the card that 'this'
names, how deep calls have been rendered through their bodies, and the choice
a prompt asks about. A name bound to words (:class:`_Words`) reads as those
words; :data:`ASK` marks the number a prompt asks for.

May import: :mod:`..ast` (for annotations) and the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import ast

MAX_INLINE = 3  # how deep a call without a phrase is rendered through its body
_NO_VALUE = object()  # an expression that could not be evaluated here


@dataclass
class Ctx:
    """Where words are rendered: static (no frame) or inside a running game."""

    frame: Any = None
    names: dict = field(default_factory=dict)  # local name -> words (static) or value
    this_card: str | None = None  # the card id of 'this', for card text
    depth: int = 0
    ask: Any = None  # the choice a prompt asks about: it reads 'which card'

    def bind(self, **names) -> "Ctx":
        out = Ctx(self.frame, dict(self.names), self.this_card, self.depth, self.ask)
        out.names.update(names)
        return out


def _rt(ctx: Ctx):
    return ctx.frame.rt if ctx.frame is not None else None


@dataclass
class _Words:
    text: str


class _HeldKind(_Words):
    """The card resource a card collects ('let kind = c.holds'): where a resource is
    named it reads 'resource' ('add 1 resource to that card': a card holds its own)."""


HELD = _HeldKind("the resource it collects")
ASK = _Words("how many")  # the number a prompt asks for ('pay how many gold?')


@dataclass
class _Deferred:
    expr: ast.Expr
