"""Checked ASTs as JSON text, and back: how the cache keeps parsing and checking.

The encoding is generic over the dataclasses of :mod:`.ast`: a node becomes
an object naming its class (``"N"``) with every attribute the parser set and
every annotation the checker added (types, bindings, canonical ids, call
targets). Spans keep their positions, with the file given by its number in a
list of file names, so a load from another working folder can name the files
as it sees them. Types are written by name and come back as the very objects
of :mod:`.types`; call targets are written by name and come back as the
builtin, aggregate or declared procedure of that name.

Only these kinds of values are written; anything else (a closure a later
stage hung on a node, say) raises :class:`Unencodable`, and the caller then
keeps nothing rather than something incomplete. Reading builds dataclass
instances of known classes and nothing else: the text cannot name a class of
its own choosing or cause any code to run. Each node read is held to what the
parser and the checker could have made (:data:`_SHAPES`): names are names of
the grammar, operators, verbs and modes come from the grammar's fixed lists,
ids are ids the symbol table declares, and every child is a node of the
right kind. Anything else raises ``ValueError``, and the caller loads afresh.
"""

from __future__ import annotations

import json
from typing import Any

import re

from ..span import SealedSpan, Span
from . import ast
from . import types as T
from .builtins import AGGREGATES, BUILTINS
from .runtime import MAX_INT
from .symbols import Callable_, SymbolTable

NODES = {name: cls for name, cls in vars(ast).items()
         if isinstance(cls, type) and issubclass(cls, ast.Node)}
_SINGLETONS = {t.name: t for t in vars(T).values() if type(t) is T.Type}
# the fields every node has in its own dict (the others, such as an expression's type
# before checking, may be left to their class default)
_FIELDS = {name: frozenset(f.name for f in cls.__dataclass_fields__.values() if f.init)
           for name, cls in NODES.items()}


# Two shorthands keep the text small and quick to read: a node's own spans (fields
# declared as a Span) are written as bare [file, line, col, end_line, end_col], and an
# expression's type, when it is one of the named types, as its bare name.
_SPAN_FIELDS = {name: tuple(f.name for f in cls.__dataclass_fields__.values()
                            if "Span" in str(f.type))
                for name, cls in NODES.items()}


class Unencodable(Exception):
    """A value the encoding does not cover: the tree is not kept."""


def dumps(value: Any, files: list[str], table: SymbolTable) -> str:
    """JSON text for ``value`` (trees, lists, tuples, dicts of them); spans by file number."""
    index = {name: i for i, name in enumerate(files)}
    return json.dumps(_Encoder(index, table).value(value), ensure_ascii=False,
                      separators=(",", ":"), allow_nan=False)


def loads(text: str, files: list[str], table: SymbolTable) -> Any:
    """The value :func:`dumps` wrote, with spans naming ``files`` and targets from ``table``."""
    return json.loads(text, object_hook=_Decoder(files, table).hook)


class _Encoder:
    def __init__(self, index: dict[str, int], table: SymbolTable):
        self.index = index
        self.table = table

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
            out = {"N": type(v).__name__}
            if NODES.get(out["N"]) is not type(v):
                raise Unencodable(f"node class {type(v).__qualname__}")
            spans = _SPAN_FIELDS[out["N"]]
            for key, x in vars(v).items():
                if key.startswith("_"):  # private caches of later stages are not kept
                    continue
                if key in spans and type(x) is Span:
                    out[key] = [self.index.get(x.file, x.file), x.line, x.col, x.end_line,
                                x.end_col]
                elif key == "type" and type(x) is T.Type and _SINGLETONS.get(x.name) is x:
                    out[key] = x.name
                else:
                    out[key] = self.value(x)
            return out
        if type(v) in (Span, SealedSpan):
            out = {"S": [self.index.get(v.file, v.file), v.line, v.col, v.end_line, v.end_col]}
            if type(v) is SealedSpan:
                out["X"] = 1
            return out
        if isinstance(v, T.Type):
            return self.type(v)
        if isinstance(v, Callable_):
            if self.table.callables.get(v.name) is not v:
                raise Unencodable(f"procedure '{v.name}' is not the ruleset's own")
            return {"C": v.name}
        name = getattr(v, "name", None)
        if BUILTINS.get(name) is v:
            return {"B": name}
        if AGGREGATES.get(name) is v:
            return {"A": name}
        raise Unencodable(f"a value of type {type(v).__qualname__}")

    def type(self, t: T.Type) -> Any:
        if type(t) is T.Type:
            return {"Y": t.name} if _SINGLETONS.get(t.name) is t else {"Y0": t.name}
        if type(t) is T.ListType:
            return {"L": [t.name, self.value(t.elem)]}
        if type(t) is T.RecordType:
            return {"R": [t.name, self.value(t.fields)]}
        raise Unencodable(f"type class {type(t).__qualname__}")


class _Decoder:
    def __init__(self, files: list[str], table: SymbolTable):
        self.files = files
        self.table = table

    def hook(self, d: dict) -> Any:
        if "N" in d:
            name = d.pop("N")
            cls = NODES[name]
            if not _FIELDS[name] <= d.keys():
                raise ValueError(f"a {name} node without all its fields")
            for key in _SPAN_FIELDS[name]:
                v = d.get(key)
                if v.__class__ is list:
                    where, line, col, end_line, end_col = v
                    d[key] = Span(self.files[where] if where.__class__ is int else where,
                                  line, col, end_line, end_col)
            if d.get("type").__class__ is str:
                d["type"] = _SINGLETONS[d["type"]]
            node = cls.__new__(cls)
            node.__dict__.update(d)
            _check_node(node, self.table)
            return node
        if "S" in d:
            where, line, col, end_line, end_col = d["S"]
            file = self.files[where] if isinstance(where, int) else where
            if not isinstance(file, str):
                raise ValueError("a span without a file")
            return (SealedSpan if "X" in d else Span)(file, line, col, end_line, end_col)
        if "T" in d:
            return tuple(d["T"])
        if "D" in d:
            return {k: v for k, v in d["D"]}
        if "Y" in d:
            return _SINGLETONS[d["Y"]]
        if "L" in d:
            name, elem = d["L"]
            return T.ListType(name, elem)
        if "R" in d:
            name, fields = d["R"]
            return T.RecordType(name, fields)
        if "Y0" in d:
            return T.Type(d["Y0"])
        if "C" in d:
            return self.table.callables[d["C"]]
        if "B" in d:
            return BUILTINS[d["B"]]
        if "A" in d:
            return AGGREGATES[d["A"]]
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
    "Set": {"name": _name, "value": _is_expr, "player": _opt(_is_expr),
            "target_kind": _one_of("local", "track")},
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
# the checker's notes: the ids it resolved a name to, and what a call or
# comprehension stands for (checked against the symbol table in _check_node)
_NOTES = {"type", "binding", "canonical", "resource_id", "track_id", "tile_id", "target",
          "target_kind"}


def _check_node(node: ast.Node, table: SymbolTable) -> None:
    """Refuse a node the parser and the checker could not have made (ValueError)."""
    name = type(node).__name__
    shape = _SHAPES.get(name)
    if shape is None:
        raise ValueError(f"a {name} node")
    fields = node.__dict__
    for key, value in fields.items():
        test = shape.get(key)
        if test is not None:
            if not test(value):
                raise ValueError(f"a {name} node's {key}")
        elif key == "span":
            if not _span(value):
                raise ValueError(f"a {name} node's span")
        elif key not in _NOTES:
            raise ValueError(f"a {name} node with a field {key!r}")
    if "type" in fields and not (fields["type"] is None or isinstance(fields["type"], T.Type)):
        raise ValueError(f"a {name} node's type")
    binding = fields.get("binding")
    if binding is not None and binding != "local":
        # a declared name, bound as the checker binds it: to the kind it is declared as
        kinds = {sym.kind for sym in table.candidates(fields["id"])}
        if not (binding in kinds or binding == "track_symbol"
                and kinds & {"track", "player_track"}):
            raise ValueError(f"a name's binding: '{fields['id']}' is not a {binding}")
    for key in ("canonical", "resource_id", "track_id", "tile_id"):
        ident = fields.get(key)
        if ident is not None and ident != "?" and not (
                type(ident) is str and table.get(ident) is not None):
            raise ValueError(f"a {name} node's {key}: not a declared id")
    if "target" in fields and name in ("Call", "Comprehension"):
        target, func = fields["target"], fields["func"]
        known = (AGGREGATES.get(func) if name == "Comprehension"
                 else BUILTINS.get(func) or table.callables.get(func))
        if known is None or target is not known:
            raise ValueError(f"a {name} node's target is not what '{func}' names")
