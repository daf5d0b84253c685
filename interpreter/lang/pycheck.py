"""Stage 5's last check: generated Python contains only what the generator may write.

:mod:`.codegen` writes Python from checked trees, and :mod:`.compiler` runs
it. A tree may come from the per-user cache rather than from the checker, so
the source is checked before it is compiled, whatever the tree said: every
name is one the generator makes (its parameters, its numbered locals and
constants, the support functions of :mod:`.compiler`, the Python builtins it
uses, the names :func:`.codegen.pyname` gives declared procedures), every
attribute is one of a fixed list on one of a fixed few objects, every literal
is a number, a string, a truth value or None, and every construct is one the
generator writes (no import, class, ``global``, ``with``, ``yield``…). A
source that breaks any of these is refused with :class:`Refused`, and never
compiled.

It imports only the standard library.
"""

from __future__ import annotations

import ast
import re

# the fixed names: the generated functions' parameters and exception names, and
# the names :mod:`.compiler` puts in every module (its support and its builtins)
_FIXED_NAMES = frozenset({
    "rt", "B", "d", "V", "at", "space", "_x", "_", "_e", "_r",
    "any", "all", "sum", "len", "next", "bool", "dict", "abs", "max", "range",
    "_F", "_items", "_seen", "_made", "_taken", "_counted", "_listed", "_overflow", "_div", "_no_player",
    "_field_of", "_field", "_too_deep_calls", "_MAXD", "_call_asking", "_asking",
    "_asking_items", "_any_of", "_may", "_choose", "_modifier", "_require_failed",
    "_memo", "_by_zones", "_by_board", "_by_zones_seen", "_by_board_seen", "_cell", "_number", "_MAXI", "_MINI", "_UNSET", "_Return", "_Break",
    "_RuleError", "_explainer",
})
# names the generator numbers: functions (F), constants (K, S, N, Q, M), builtins'
# implementations (_b) and the locals of :class:`.codegen.CodeGen`
_MADE = re.compile(r"(?:F|K|S|N|Q|M|V|_b|_blk|_ex|_p|_n|_w|_acc|_opt|_opts|_i|_c|_h|_hc|_a"
                   r"|_o|_v|_y|_turns)[1-9][0-9]*\Z")
# declared procedures and functions (see codegen.pyname)
_DECLARED = re.compile(r"[PAL]_(?:procedure|function)__(?:n_[a-z_][a-z0-9_]*|x_[0-9a-f]+)\Z")
# the attributes generated code reads or sets, by the object they belong to
_ATTRIBUTES = {
    "rt": frozenset({
        "all_cards_in", "asked_about", "asking_about",
        "capacity", "card_facts", "card_field", "cards_in", "change_production",
        "change_stock", "decider", "emit", "has_block", "is_marked", "meets_requirements",
        "move_track", "neighbours", "pieces_on", "place_tile", "player_field", "players",
        "production", "resources_on", "round_number", "run_block", "set_track", "slot_of",
        "space_facts", "space_field", "state", "space_of", "spaces", "stock", "track", "transfer", "turn_order",
        "vp_of", "zone_cards", "zone_of"}),
    "B": frozenset({"used", "limit", "exceeded"}),
    "_e": frozenset({"message", "span"}),
    "_r": frozenset({"value"}),
}
# the parts of the state generated code reads directly: ``rt.state.<part>``, and a
# player's ``rt.state.players[...].<part>``
_STATE_PARTS = frozenset({"tracks", "spaces", "players"})
_PLAYER_PARTS = frozenset({"tracks"})
_VARIABLES = re.compile(r"V(?:[1-9][0-9]*)?\Z")  # a dict of the rule's variables: .get
_NODES = frozenset({
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign,
    ast.AugAssign, ast.If, ast.For, ast.While, ast.Try, ast.ExceptHandler, ast.Raise,
    ast.Expr, ast.Pass, ast.Break, ast.Call, ast.keyword, ast.Name, ast.Attribute,
    ast.Subscript, ast.Compare, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.IfExp,
    ast.GeneratorExp, ast.ListComp, ast.comprehension, ast.Lambda, ast.NamedExpr,
    ast.Tuple, ast.List, ast.Dict, ast.Starred, ast.Constant, ast.JoinedStr,
    ast.FormattedValue, ast.Load, ast.Store,
    ast.And, ast.Or, ast.Add, ast.Sub, ast.Mult, ast.USub, ast.Not,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot,
})


class Refused(Exception):
    """Generated source that holds something the generator never writes."""


def _name(name: str) -> bool:
    return name in _FIXED_NAMES or bool(_MADE.match(name)) or bool(_DECLARED.match(name))


def _is_rt_state(node) -> bool:
    return (type(node) is ast.Attribute and node.attr == "state"
            and type(node.value) is ast.Name and node.value.id == "rt")


def _state_part(node: ast.Attribute) -> bool:
    """``rt.state.tracks`` (or ``.spaces``, ``.players``), or ``rt.state.players[…].tracks``:
    the parts of the state generated code reads without a runtime method."""
    value = node.value
    if _is_rt_state(value):
        return node.attr in _STATE_PARTS
    return (node.attr in _PLAYER_PARTS and type(value) is ast.Subscript
            and type(value.value) is ast.Attribute and value.value.attr == "players"
            and _is_rt_state(value.value.value))


def check(source: str, filename: str) -> ast.Module:
    """The parsed module, once every part of it is shown to be the generator's own."""
    try:
        tree = ast.parse(source, filename, "exec")
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        raise Refused(f"the source does not parse: {exc}") from None
    for node in ast.walk(tree):
        kind = type(node)
        if kind not in _NODES:
            raise Refused(f"line {getattr(node, 'lineno', '?')}: a {kind.__name__}")
        if kind is ast.Name:
            if not _name(node.id):
                raise Refused(f"line {node.lineno}: the name {node.id!r}")
        elif kind is ast.Attribute:
            if _state_part(node):
                continue
            owner = node.value.id if type(node.value) is ast.Name else None
            allowed = _ATTRIBUTES.get(owner)
            if allowed is None and owner is not None and _VARIABLES.match(owner):
                allowed = frozenset({"get"})
            if allowed is None or node.attr not in allowed:
                raise Refused(f"line {node.lineno}: the attribute {node.attr!r}")
        elif kind is ast.Constant:
            if type(node.value) not in (str, int, bool, type(None)):
                raise Refused(f"line {node.lineno}: a constant of type "
                              f"{type(node.value).__name__}")
        elif kind is ast.FunctionDef:
            if node.decorator_list or node.returns is not None or not _name(node.name):
                raise Refused(f"line {node.lineno}: the function {node.name!r}")
        elif kind is ast.arg:
            if node.annotation is not None or not _name(node.arg):
                raise Refused(f"line {node.lineno}: the parameter {node.arg!r}")
        elif kind is ast.ExceptHandler:
            if node.name is not None and not _name(node.name):
                raise Refused(f"line {node.lineno}: the name {node.name!r}")
        elif kind is ast.keyword:
            if node.arg is None or not _name(node.arg):
                raise Refused(f"line {node.value.lineno}: the keyword {node.arg!r}")
    return tree
