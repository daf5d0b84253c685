"""The typed AST of the effect language.

Nodes are plain frozen-free dataclasses carrying a :class:`Span`. The parser
builds them, the checker annotates expressions with their ``type``, and the
compiler turns them into Python functions. The AST is data: it can be
printed, compared, written to JSON and sent to another process; compiled
code never is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..span import Span


@dataclass(eq=False)
class Node:
    span: Span


# ------------------------------------------------------------------ expressions
@dataclass(eq=False)
class Expr(Node):
    type: Any = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class Literal(Expr):
    value: Any


@dataclass(eq=False)
class Name(Expr):
    id: str
    # filled by the checker: "local", "context", or the ruleset symbol kind
    binding: str | None = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class Field(Expr):
    obj: Expr
    name: str
    name_span: Span | None = None


@dataclass(eq=False)
class Call(Expr):
    func: str
    args: list[Expr]
    kwargs: dict[str, Expr]
    func_span: Span | None = None
    target: Any = field(default=None, init=False, repr=False)  # builtin or declaration


@dataclass(eq=False)
class Comprehension(Expr):
    func: str
    var: str
    source: Expr
    where: Expr | None
    value: Expr | None
    func_span: Span | None = None


@dataclass(eq=False)
class ListExpr(Expr):
    items: list[Expr]


@dataclass(eq=False)
class Unary(Expr):
    op: str  # "-" or "not"
    operand: Expr


@dataclass(eq=False)
class Binary(Expr):
    op: str  # + - * // % == != < <= > >= and or has lacks
    left: Expr
    right: Expr


@dataclass(eq=False)
class Conditional(Expr):
    cond: Expr
    then: Expr
    other: Expr


@dataclass(eq=False)
class AnyOf(Expr):
    """``any player``: a decision among the members of a named collection."""

    noun: str


# ------------------------------------------------------------------- statements
@dataclass(eq=False)
class Stmt(Node):
    pass


@dataclass(eq=False)
class Gain(Stmt):
    """gain / lose / pay: change a player's stock or production."""

    verb: str  # "gain", "lose", "pay"
    amount: Expr
    resource: str
    resource_span: Span
    production: bool
    player: Expr | None


@dataclass(eq=False)
class Raise(Stmt):
    """raise / lower a global or per-player track."""

    verb: str  # "raise" or "lower"
    track: str
    track_span: Span
    steps: Expr | None
    player: Expr | None


@dataclass(eq=False)
class Place(Stmt):
    tile: str
    tile_span: Span
    mode: str  # "rules", "on", "where", "anywhere"
    target: Expr | None  # the space for "on", the filter for "where"/"anywhere"
    player: Expr | None
    bind: str | None


@dataclass(eq=False)
class Transfer(Stmt):
    """add / remove / move / steal resources between players and cards."""

    verb: str  # "add", "remove", "move", "steal"
    up_to: bool
    amount: Expr
    resource: str
    resource_span: Span
    source: Expr | None
    dest: Expr | None


@dataclass(eq=False)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(eq=False)
class Set(Stmt):
    name: str
    value: Expr
    player: Expr | None = None


@dataclass(eq=False)
class AsPlayer(Stmt):
    """``as p:``: the block runs with ``p`` as the acting player (who decides)."""

    player: Expr
    body: list[Stmt]


@dataclass(eq=False)
class Return(Stmt):
    value: Expr | None


@dataclass(eq=False)
class Require(Stmt):
    cond: Expr
    message: str | None


@dataclass(eq=False)
class Emit(Stmt):
    event: str
    event_span: Span
    args: list[Expr]
    kwargs: dict[str, Expr]


@dataclass(eq=False)
class Run(Stmt):
    block: str
    block_span: Span
    card: Expr


@dataclass(eq=False)
class CallStmt(Stmt):
    call: Call


@dataclass(eq=False)
class Pass(Stmt):
    pass


@dataclass(eq=False)
class If(Stmt):
    branches: list[tuple[Expr, list[Stmt]]]
    orelse: list[Stmt] | None


@dataclass(eq=False)
class For(Stmt):
    var: str
    iterable: Expr
    body: list[Stmt]


@dataclass(eq=False)
class Repeat(Stmt):
    count: Expr
    body: list[Stmt]


@dataclass(eq=False)
class While(Stmt):
    """Runs its body for as long as the condition holds, checked before each turn."""

    cond: Expr
    body: list[Stmt]


@dataclass(eq=False)
class Break(Stmt):
    """Leaves the innermost for, repeat or while."""


@dataclass(eq=False)
class May(Stmt):
    body: list[Stmt]
    orelse: list[Stmt] | None = None  # what happens when the player declines


@dataclass(eq=False)
class Choose(Stmt):
    options: list[list[Stmt]]
    labels: list[str | None] = field(default_factory=list)  # "label": before an option


@dataclass(eq=False)
class Effect(Node):
    """A parsed effect: a sequence of statements with its source text."""

    body: list[Stmt]
    source: str = ""


def walk(node):
    """Every node below (and including) ``node``: statements, expressions, in lists too."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())
        elif isinstance(n, Node):
            yield n
            stack.extend(v for k, v in vars(n).items() if k not in ("span", "type", "target"))
