"""Parsed effect trees as JSON text, and back: how the cache keeps parsing.

The encoding is generic over the dataclasses of :mod:`.ast`: a node becomes
an object naming its class (``"N"``) with every attribute the parser sets,
and nothing the checker adds afterwards (types, bindings, ids, call targets):
a load that takes its trees from the cache checks them again, as a fresh
load checks what it parses, so nothing the checker concluded is ever taken
on trust. Spans keep their positions, with the file given by its number in a
list of file names, so a load from another working folder can name the files
as it sees them.

Only these kinds of values are written; anything else raises
:class:`Unencodable`, and the caller then keeps nothing rather than something
incomplete. Reading builds dataclass instances of known classes and nothing
else: the text cannot name a class of its own choosing or cause any code to
run. Each node read is held to what the parser could have made
(:data:`_SHAPES`): exactly its fields, names that are names of the grammar,
operators, verbs and modes from the grammar's fixed lists, every child a node
of the right kind. Anything else raises ``ValueError``, and the caller loads
afresh.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..span import Span
from . import ast
from .runtime import MAX_INT

NODES = {name: cls for name, cls in vars(ast).items()
         if isinstance(cls, type) and issubclass(cls, ast.Node)}
# the fields the parser sets on each kind of node (the checker's notes are not among them)
_FIELDS = {name: tuple(f.name for f in cls.__dataclass_fields__.values() if f.init)
           for name, cls in NODES.items()}
_FIELD_SETS = {name: frozenset(fields) for name, fields in _FIELDS.items()}
# a node's own spans (fields declared as a Span) are written as bare
# [file, line, col, end_line, end_col], which keeps the text small and quick to read
_SPAN_FIELDS = {name: tuple(f.name for f in cls.__dataclass_fields__.values()
                            if "Span" in str(f.type))
                for name, cls in NODES.items()}


class Unencodable(Exception):
    """A value the encoding does not cover: the tree is not kept."""


def dumps(value: Any, files: list[str]) -> str:
    """JSON text for ``value`` (trees, lists, tuples, dicts of them); spans by file number."""
    index = {name: i for i, name in enumerate(files)}
    return json.dumps(_Encoder(index).value(value), ensure_ascii=False,
                      separators=(",", ":"), allow_nan=False)


def loads(text: str, files: list[str]) -> Any:
    """The value :func:`dumps` wrote, with spans naming ``files``."""
    return json.loads(text, object_hook=_Decoder(files).hook)


class _Encoder:
    def __init__(self, index: dict[str, int]):
        self.index = index

    def value(self, v: Any) -> Any:
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            return int(v)
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if isinstance(v, tuple):
            return {"T": [self.value(x) for x in v]}
        if isinstance(v, dict):
            if not all(isinstance(k, str) for k in v):
                raise Unencodable("a dictionary with keys that are not text")
            return {"D": [[k, self.value(x)] for k, x in v.items()]}
        if isinstance(v, ast.Node):
            name = type(v).__name__
            if NODES.get(name) is not type(v):
                raise Unencodable(f"node class {type(v).__qualname__}")
            out = {"N": name}
            spans = _SPAN_FIELDS[name]
            for key in _FIELDS[name]:
                x = getattr(v, key)
                if key in spans and type(x) is Span:
                    out[key] = self.span(x)
                else:
                    out[key] = self.value(x)
            return out
        if type(v) is Span:
            return {"S": self.span(v)}
        raise Unencodable(f"a value of type {type(v).__qualname__}")

    def span(self, x: Span) -> list:
        if x.file not in self.index:
            raise Unencodable("a position in a file the load did not read")
        return [self.index[x.file], x.line, x.col, x.end_line, x.end_col]


class _Decoder:
    def __init__(self, files: list[str]):
        self.files = files

    def span(self, v) -> Span:
        if type(v) is not list or len(v) != 5:
            raise ValueError("a position that is not one")
        file, line, col, end_line, end_col = v
        if type(file) is not int or not 0 <= file < len(self.files) \
                or (line is not None and type(line) is not int) \
                or (col is not None and type(col) is not int) \
                or (end_line is not None and type(end_line) is not int) \
                or (end_col is not None and type(end_col) is not int):
            raise ValueError("a position that is not one")
        return Span(self.files[file], line, col, end_line, end_col)

    def hook(self, d: dict) -> Any:
        if "N" in d:
            name = d.pop("N")
            cls = NODES.get(name) if type(name) is str else None
            if cls is None or d.keys() != _FIELD_SETS[name]:
                raise ValueError(f"a node that is not one the parser makes: {name!r:.40}")
            for key in _SPAN_FIELDS[name]:
                if d[key] is not None:
                    d[key] = self.span(d[key])
            checks = _CHECKS.get(name)
            if checks is None:
                raise ValueError(f"a {name} node")
            for key, value in d.items():  # (as _check_node, before the node is made)
                if not checks[key](value):
                    raise ValueError(f"a {name} node's {key}")
            node = cls.__new__(cls)
            node.__dict__.update(d)
            return node
        if len(d) != 1:
            raise ValueError("an object the encoding does not make")
        if "S" in d:
            return self.span(d["S"])
        if "T" in d and type(d["T"]) is list:
            return tuple(d["T"])
        if "D" in d and type(d["D"]) is list and all(
                type(p) is list and len(p) == 2 and type(p[0]) is str for p in d["D"]):
            return {k: v for k, v in d["D"]}
        raise ValueError(f"unknown object {sorted(d)[:3]}")


# ------------------------------------------------------------------ node shapes
# What each field of a node may hold, as the parser and the checker make it. A
# node read from JSON with anything else is refused (see _check_node).
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")  # the grammar's NAME
_TEXT = re.compile(r'[^"\\\n]*\Z')  # the inside of the grammar's STRING


def _is_expr(v) -> bool:
    return isinstance(v, ast.Expr)


def _is_stmt(v) -> bool:
    return isinstance(v, ast.Stmt)


def _opt(test):
    return lambda v: v is None or test(v)


def _list_of(test):
    return lambda v: type(v) is list and all(test(x) for x in v)


def _one_of(*words):
    return lambda v: type(v) is str and v in words


def _name(v) -> bool:
    return type(v) is str and _NAME.match(v) is not None


def _text(v) -> bool:
    return type(v) is str and _TEXT.match(v) is not None


def _span(v) -> bool:
    return type(v) is Span


def _bool(v) -> bool:
    return type(v) is bool


def _literal(v) -> bool:
    if v is None or type(v) is bool:
        return True
    if type(v) is int:
        return -MAX_INT <= v <= MAX_INT
    return _text(v)


def _kwargs(v) -> bool:
    return type(v) is dict and all(_name(k) and _is_expr(x) for k, x in v.items())


def _branch(v) -> bool:
    return type(v) is tuple and len(v) == 2 and _is_expr(v[0]) and _block(v[1])


_block = _list_of(_is_stmt)

_SHAPES = {
    "Literal": {"value": _literal},
    "Name": {"id": _name},
    "Field": {"obj": _is_expr, "name": _name, "name_span": _opt(_span)},
    "Call": {"func": _name, "args": _list_of(_is_expr), "kwargs": _kwargs,
             "func_span": _opt(_span)},
    "Comprehension": {"func": _name, "var": _name, "source": _is_expr,
                      "where": _opt(_is_expr), "value": _opt(_is_expr),
                      "func_span": _opt(_span)},
    "ListExpr": {"items": _list_of(_is_expr)},
    "Unary": {"op": _one_of("-", "not"), "operand": _is_expr},
    "Binary": {"op": _one_of("+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=",
                             "and", "or", "has", "lacks"),
               "left": _is_expr, "right": _is_expr},
    "Conditional": {"cond": _is_expr, "then": _is_expr, "other": _is_expr},
    "AnyOf": {"noun": _name},
    "Gain": {"verb": _one_of("gain", "lose", "pay"), "amount": _is_expr, "resource": _name,
             "resource_span": _span, "production": _bool, "player": _opt(_is_expr)},
    "Raise": {"verb": _one_of("raise", "lower"), "track": _name, "track_span": _span,
              "steps": _opt(_is_expr), "player": _opt(_is_expr)},
    "Place": {"tile": _name, "tile_span": _span, "mode": _one_of("rules", "on", "where",
                                                                 "anywhere"),
              "target": _opt(_is_expr), "player": _opt(_is_expr), "bind": _opt(_name)},
    "Transfer": {"verb": _one_of("add", "remove", "move", "steal"), "up_to": _bool,
                 "amount": _is_expr, "resource": _name, "resource_span": _span,
                 "source": _opt(_is_expr), "dest": _opt(_is_expr)},
    "Let": {"name": _name, "value": _is_expr},
    "Set": {"name": _name, "value": _is_expr, "player": _opt(_is_expr)},
    "AsPlayer": {"player": _is_expr, "body": _block},
    "Return": {"value": _opt(_is_expr)},
    "Require": {"cond": _is_expr, "message": _opt(_text)},
    "Emit": {"event": _name, "event_span": _span, "args": _list_of(_is_expr),
             "kwargs": _kwargs},
    "Run": {"block": _name, "block_span": _span, "card": _is_expr},
    "CallStmt": {"call": lambda v: type(v) is ast.Call},
    "Pass": {},
    "If": {"branches": _list_of(_branch), "orelse": _opt(_block)},
    "For": {"var": _name, "iterable": _is_expr, "body": _block},
    "Repeat": {"count": _is_expr, "body": _block},
    "While": {"cond": _is_expr, "body": _block},
    "Break": {},
    "May": {"body": _block, "orelse": _opt(_block)},
    "Choose": {"options": _list_of(_block), "labels": _list_of(_opt(_text))},
    "Effect": {"body": _block, "source": lambda v: type(v) is str},
}


def _never(v) -> bool:
    return False


# each node's test of each field, "span" included: what _check_node asks, looked up once
_CHECKS = {name: {key: shape.get(key, _span if key == "span" else _never)
                  for key in _FIELDS[name]}
           for name, shape in _SHAPES.items() if name in _FIELDS}


def _check_node(node: ast.Node) -> None:
    """Refuse a node the parser could not have made (ValueError)."""
    name = type(node).__name__
    shape = _SHAPES.get(name)
    if shape is None:
        raise ValueError(f"a {name} node")
    for key, value in node.__dict__.items():
        test = shape.get(key, _span if key == "span" else None)
        if test is None or not test(value):
            raise ValueError(f"a {name} node's {key}")
