"""Render AST back to effect text: for decision labels, explanations and docs."""

from __future__ import annotations

from . import ast

_PREC = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
         "has": 4, "lacks": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6}


def expr(e: ast.Expr, parent: int = 0) -> str:
    if isinstance(e, ast.Literal):
        v = e.value
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return f'"{v}"'
        return str(v)
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Field):
        return f"{expr(e.obj, 9)}.{e.name}"
    if isinstance(e, ast.Call):
        parts = [expr(a) for a in e.args] + [f"{k}={expr(v)}" for k, v in e.kwargs.items()]
        return f"{e.func}({', '.join(parts)})"
    if isinstance(e, ast.Comprehension):
        s = f"{e.func}({e.var} in {expr(e.source)}"
        if e.where is not None:
            s += f" where {expr(e.where)}"
        if e.value is not None:
            s += f" : {expr(e.value)}"
        return s + ")"
    if isinstance(e, ast.ListExpr):
        return "[" + ", ".join(expr(i) for i in e.items) + "]"
    if isinstance(e, ast.Unary):
        if e.op == "-":
            return f"-{expr(e.operand, 8)}"
        s = f"not {expr(e.operand, 3)}"
        return f"({s})" if parent > 3 else s
    if isinstance(e, ast.Binary):
        p = _PREC[e.op]
        s = f"{expr(e.left, p)} {e.op} {expr(e.right, p + 1)}"
        return f"({s})" if parent > p else s
    if isinstance(e, ast.Conditional):
        s = f"{expr(e.then, 1)} if {expr(e.cond, 1)} else {expr(e.other)}"
        return f"({s})" if parent > 0 else s
    if isinstance(e, ast.AnyOf):
        return f"any {e.noun}"
    return "?"


def stmt(s: ast.Stmt) -> str:
    """One-line rendering of a statement (blocks are summarised)."""
    if isinstance(s, ast.Gain):
        prod = " production" if s.production else ""
        who = f" for {expr(s.player)}" if s.player is not None else ""
        return f"{s.verb} {expr(s.amount)} {s.resource}{prod}{who}"
    if isinstance(s, ast.Raise):
        by = f" by {expr(s.steps)}" if s.steps is not None else ""
        who = f" for {expr(s.player)}" if s.player is not None else ""
        return f"{s.verb} {s.track}{by}{who}"
    if isinstance(s, ast.Place):
        where = {"rules": "", "on": f" on {expr(s.target) if s.target else ''}",
                 "where": f" where {expr(s.target) if s.target else ''}",
                 "anywhere": " anywhere" + (f" where {expr(s.target)}" if s.target else "")}
        return f"place {s.tile}{where[s.mode]}"
    if isinstance(s, ast.Transfer):
        up = "up to " if s.up_to else ""
        if s.verb == "add":
            return f"add {expr(s.amount)} {s.resource} to {expr(s.dest)}"
        if s.verb == "move":
            return (f"move {up}{expr(s.amount)} {s.resource} from {expr(s.source)} "
                    f"to {expr(s.dest)}")
        return f"{s.verb} {up}{expr(s.amount)} {s.resource} from {expr(s.source)}"
    if isinstance(s, ast.Let):
        return f"let {s.name} = {expr(s.value)}"
    if isinstance(s, ast.Set):
        return f"set {s.name} = {expr(s.value)}"
    if isinstance(s, ast.Return):
        return "return" + (f" {expr(s.value)}" if s.value is not None else "")
    if isinstance(s, ast.Require):
        return f"require {expr(s.cond)}"
    if isinstance(s, ast.Emit):
        return f"emit {s.event}(…)"
    if isinstance(s, ast.Run):
        return f"run {s.block} of {expr(s.card)}"
    if isinstance(s, ast.CallStmt):
        return expr(s.call)
    if isinstance(s, ast.Pass):
        return "pass"
    if isinstance(s, ast.If):
        return f"if {expr(s.branches[0][0])}: …"
    if isinstance(s, ast.For):
        return f"for {s.var} in {expr(s.iterable)}: …"
    if isinstance(s, ast.Repeat):
        return f"repeat {expr(s.count)}: …"
    if isinstance(s, ast.While):
        return f"while {expr(s.cond)}: …"
    if isinstance(s, ast.Break):
        return "break"
    if isinstance(s, ast.May):
        return "may: " + "; ".join(stmt(x) for x in s.body)
    if isinstance(s, ast.Choose):
        return "choose one: …"
    if isinstance(s, ast.AsPlayer):
        return f"as {expr(s.player)}: …"
    return "?"


def block(stmts: list[ast.Stmt]) -> str:
    return "; ".join(stmt(s) for s in stmts)
