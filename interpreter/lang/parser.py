"""Stage 3: parse effect-language text into the typed AST.

A thin façade over a Lark LALR parser built in strict mode from
``grammar/effects.lark``. Positions inside the text are mapped back to the
YAML file through a :class:`TextOrigin`, so syntax errors and every AST node
point at the real line and column, even inside block scalars.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from .. import paths
from ..errors import Diagnostic, suggest
from ..span import Span, TextOrigin
from . import ast, tables
from .runtime import MAX_INT

MAX_EFFECT_CHARS = 20_000
MAX_NESTING = 40
MAX_BRACKETS = 1000  # redundant parentheses are harmless, but Lark's tree must stay small


def grammar_path() -> Path:
    """The grammar file (see :mod:`rulebook_games.paths`)."""
    return paths.grammar_file()


# Lark is imported on the first parse, not with this module: a ruleset loaded from
# the cache (see interpreter/load/loadcache.py) never parses, and neither does
# 'rulebook --help'. _need_lark() fills in these names.
Lark = Token = Tree = Indenter = None
LarkError = UnexpectedCharacters = UnexpectedEOF = UnexpectedInput = UnexpectedToken = None
DedentError = None


def _need_lark() -> None:
    global Lark, Token, Tree, Indenter, LarkError, UnexpectedCharacters, UnexpectedEOF
    global UnexpectedInput, UnexpectedToken, DedentError
    if Lark is not None:
        return
    import lark
    from lark import exceptions, indenter
    Token, Tree, Indenter = lark.Token, lark.Tree, indenter.Indenter
    LarkError, UnexpectedCharacters = exceptions.LarkError, exceptions.UnexpectedCharacters
    UnexpectedEOF, UnexpectedInput = exceptions.UnexpectedEOF, exceptions.UnexpectedInput
    UnexpectedToken, DedentError = exceptions.UnexpectedToken, indenter.DedentError
    Lark = lark.Lark  # last: it says the others are set


@functools.lru_cache(maxsize=1)
def _indenter_class() -> type:
    _need_lark()

    class _BlockIndenter(Indenter):
        NL_type = "_NL"
        OPEN_PAREN_types = ["LPAR", "LSQB"]
        CLOSE_PAREN_types = ["RPAR", "RSQB"]
        INDENT_type = "_INDENT"
        DEDENT_type = "_DEDENT"
        tab_len = 8
    return _BlockIndenter


def __getattr__(name: str):
    if name == "_BlockIndenter":  # the indenter class, made when first asked for
        return _indenter_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# How the parser is built. There is deliberately no Lark ``cache``: Lark's cache is
# a pickle at a predictable path in the shared temp folder, so a file planted
# there would run code in every command. Building the tables takes about 0.5 s;
# :mod:`.tables` keeps them between runs as plain data in a private folder.
LARK_OPTIONS = {"parser": "lalr", "strict": True, "start": ["effect", "expression"],
                "propagate_positions": True, "maybe_placeholders": True}


@functools.lru_cache(maxsize=1)
def _lark():
    _need_lark()
    indenter = _indenter_class()
    grammar = grammar_path().read_text(encoding="utf-8")
    cached = tables.load(grammar, LARK_OPTIONS, indenter())
    if cached is not None:
        return cached
    built = Lark(grammar, postlex=indenter(), **LARK_OPTIONS)
    tables.save(grammar, LARK_OPTIONS, built)
    return built


class EffectSyntaxError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.headline())
        self.diagnostic = diagnostic


_READABLE = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "_NL": "end of line",
    "_INDENT": "an indented block", "_DEDENT": "end of block", "$END": "end of text",
    "COMPARE": "a comparison", "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COLON": "':'",
    "COMMA": "','", "SEMICOLON": "';'", "DOT": "'.'", "EQUAL": "'='", "MINUS": "'-'",
    "PRODUCTION": "'production'",
}


def _readable(term: str) -> str:
    if term in _READABLE:
        return _READABLE[term]
    try:
        pattern = _lark().get_terminal(term).pattern
        if pattern.type == "str":
            return f"'{pattern.value}'"
    except (KeyError, AttributeError):
        pass
    return term.lower()


def _expected_text(expected) -> str:
    names = sorted({_readable(t) for t in expected})
    if len(names) > 8:
        names = names[:8] + ["…"]
    return ", ".join(names)


def parse(text: str, origin: TextOrigin, *, start: str = "effect") -> ast.Effect | ast.Expr:
    """Parse effect text (``start="effect"``) or one expression (``"expression"``)."""
    if len(text) > MAX_EFFECT_CHARS:
        raise EffectSyntaxError(Diagnostic(
            "RB300", f"effect text is longer than {MAX_EFFECT_CHARS} characters",
            origin.span(1, 1)))
    if "\t" in text:
        line = text[:text.index("\t")].count("\n") + 1
        col = text.index("\t") - (text.rfind("\n", 0, text.index("\t")) + 1) + 1
        raise EffectSyntaxError(Diagnostic(
            "RB300", "tab character in effect text; indent with spaces", origin.span(line, col)))
    deep = _too_deep_brackets(text)
    if deep is not None:
        raise EffectSyntaxError(Diagnostic(
            "RB300", f"brackets nested too deeply (more than {MAX_BRACKETS} levels)",
            origin.span(*deep)))
    source = text if text.endswith("\n") else text + "\n"
    lark_parser = _lark()  # imports Lark too
    try:
        tree = lark_parser.parse(source, start=start)
    except UnexpectedInput as exc:
        raise EffectSyntaxError(_syntax_diagnostic(exc, source, origin)) from None
    except DedentError:
        line, col = _bad_dedent(source)
        raise EffectSyntaxError(Diagnostic(
            "RB300", "inconsistent indentation: this line is dedented to a level that no "
            "block above it uses", origin.span(line, col))) from None
    except (LarkError, RecursionError) as exc:
        raise EffectSyntaxError(Diagnostic(
            "RB300", f"cannot parse effect: {type(exc).__name__}", origin.span(1, 1))) from None
    builder = _Builder(origin, text)
    try:
        if start == "effect":
            return ast.Effect(origin.span(1, 1), builder.stmts(tree.children), text)
        return builder.expr(tree.children[0])
    except RecursionError:
        raise EffectSyntaxError(Diagnostic(
            "RB300", f"effect nested too deeply (more than {MAX_NESTING} levels)",
            origin.span(1, 1))) from None


def _too_deep_brackets(text: str) -> tuple[int, int] | None:
    """Where brackets first nest deeper than expressions may, as (line, column)."""
    limit = MAX_BRACKETS
    if text.count("(") + text.count("[") <= limit:
        return None
    depth, line, col, quoted, comment = 0, 1, 0, False, False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, quoted, comment = line + 1, 0, False, False
        elif comment or quoted and ch != '"':
            continue
        elif ch == '"':
            quoted = not quoted
        elif ch == "#":
            comment = True
        elif ch in "([":
            depth += 1
            if depth > limit:
                return line, col
        elif ch in ")]":
            depth = max(0, depth - 1)
    return None


def _bad_dedent(source: str) -> tuple[int, int]:
    """The first line whose indentation matches no enclosing block."""
    levels = [0]
    depth = 0  # open brackets: lines inside them do not change blocks
    for number, raw in enumerate(source.split("\n"), 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        if depth == 0:
            if indent > levels[-1]:
                levels.append(indent)
            else:
                while indent < levels[-1]:
                    levels.pop()
                if indent != levels[-1]:
                    return number, indent + 1
        depth = max(0, depth + raw.count("(") + raw.count("[") - raw.count(")") - raw.count("]"))
    return 1, 1


@functools.lru_cache(maxsize=1)
def _statement_words() -> tuple[str, ...]:
    """The words a statement may start with (gain, let, if…), read from the grammar itself."""
    lark = _lark()
    kinds = {r.expansion[0].name for r in lark.rules
             if r.origin.name in ("_simple", "_compound") and len(r.expansion) == 1}
    keywords = {t.name: t.pattern for t in lark.terminals}
    words = set()
    for rule in lark.rules:
        if rule.origin.name in kinds and rule.expansion and rule.expansion[0].is_term:
            pattern = keywords.get(rule.expansion[0].name)
            if pattern is not None and pattern.type == "str" and pattern.value.isalpha():
                words.add(pattern.value)
    return tuple(sorted(words))


_LONE_WORD = re.compile(r"(?:^|[;:])[ \t]*(-[ \t]*)?([A-Za-z_][A-Za-z0-9_]*)[ \t]+$")


def _unknown_verb(source: str, line: int, col: int) -> tuple[str, int] | None:
    """When a statement is a single unknown word followed by something else at (line, col)
    (``gian 2 gold``): the word and its column."""
    lines = source.split("\n")
    if not 0 < line <= len(lines):
        return None
    before = lines[line - 1][:max(0, col - 1)]
    found = _LONE_WORD.search(before)
    if found is None or found.group(2) in _statement_words():
        return None
    head = before[:found.start()]
    if head.count("(") != head.count(")") or head.count("[") != head.count("]"):
        return None  # inside brackets (a ':' of a comprehension): not a statement
    return found.group(2), found.start(2) + 1


def _syntax_diagnostic(exc: UnexpectedInput, source: str, origin: TextOrigin) -> Diagnostic:
    line = getattr(exc, "line", 1) or 1
    col = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedCharacters):
        ch = source[exc.pos_in_stream] if exc.pos_in_stream < len(source) else "?"
        msg = f"unexpected character {ch!r}"
        if exc.allowed:
            msg += f"; expected {_expected_text(exc.allowed)}"
        return Diagnostic("RB300", msg, origin.span(line, col))
    if isinstance(exc, UnexpectedEOF):
        lines = source.rstrip("\n").split("\n")
        return Diagnostic("RB300", f"effect ends too early; expected {_expected_text(exc.expected)}",
                          origin.span(len(lines), len(lines[-1]) + 1))
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END" or tok.type == "_DEDENT" and not str(tok):
            lines = source.rstrip("\n").split("\n")
            return Diagnostic("RB300", f"effect ends too early; expected "
                              f"{_expected_text(exc.expected)}",
                              origin.span(len(lines), len(lines[-1]) + 1))
        if tok.type == "_NL":
            what = "end of line"
        elif tok.type == "_INDENT":
            what = "unexpected indentation"
            return Diagnostic("RB300", f"{what}; expected {_expected_text(exc.expected)}",
                              origin.span(line, col))
        else:
            what = repr(str(tok))
        hint = None
        if tok.type == "NAME" and "NAME" not in exc.expected:
            hint = "a statement starts with a verb such as gain, lose, raise, place or a call"
        unknown = _unknown_verb(source, line, col)
        if unknown is not None:
            word, start = unknown
            return Diagnostic(
                "RB300", f"'{word}' is not a verb of the effect language, nor a call (a call "
                "has its arguments in brackets: name(…))", origin.span(line, start),
                hint=suggest(word, _statement_words()) or
                "a statement starts with a verb such as gain, lose, raise, place or a call")
        return Diagnostic("RB300", f"unexpected {what}; expected {_expected_text(exc.expected)}",
                          origin.span(line, col), hint=hint)
    return Diagnostic("RB300", "syntax error", origin.span(line, col))


class _Builder:
    """Turns Lark trees into AST nodes with file spans."""

    def __init__(self, origin: TextOrigin, text: str):
        self.origin = origin
        self.text = text
        self.depth = 0

    def number(self, digits, span: Span) -> int:
        """An integer literal, refused beyond the bound on numbers rules compute with."""
        text = str(digits).lstrip("0") or "0"
        if len(text) > len(str(MAX_INT)) or int(text) > MAX_INT:
            shown = text if len(text) <= 30 else f"{text[:12]}…({len(text)} digits)"
            raise EffectSyntaxError(Diagnostic(
                "RB306", f"the number {shown} is larger than the limit of {MAX_INT:,} (10^18)",
                span))
        return int(text)

    def span(self, item) -> Span:
        if isinstance(item, Token):
            return self.origin.span(item.line, item.column, item.end_line, item.end_column)
        meta = item.meta
        if getattr(meta, "empty", True):
            return self.origin.span(1, 1)
        return self.origin.span(meta.line, meta.column, meta.end_line, meta.end_column)

    # statements -------------------------------------------------------------
    def stmts(self, children) -> list[ast.Stmt]:
        out = []
        for child in children:
            if isinstance(child, Tree) and child.data == "block":
                out.extend(self.stmts(child.children))
            elif isinstance(child, Tree):
                out.append(self.stmt(child))
        return out

    def suite(self, children) -> list[ast.Stmt]:
        return self.stmts(children)

    def stmt(self, t: Tree) -> ast.Stmt:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise RecursionError
        try:
            return getattr(self, "s_" + t.data)(t, self.span(t))
        finally:
            self.depth -= 1

    def _opt_sub(self, children, name):
        for c in children:
            if isinstance(c, Tree) and c.data == name:
                return c
        return None

    def _player(self, children):
        sub = self._opt_sub(children, "for_player")
        return self.expr(sub.children[0]) if sub else None

    def s_gain(self, t, sp, verb="gain"):
        amount, res = t.children[0], t.children[1]
        prod = len(t.children) > 2 and t.children[2] is not None and isinstance(t.children[2], Token)
        return ast.Gain(sp, verb, self.expr(amount), str(res), self.span(res), prod,
                        self._player(t.children))

    def s_lose(self, t, sp):
        return self.s_gain(t, sp, "lose")

    def s_pay(self, t, sp):
        amount, res = t.children[0], t.children[1]
        return ast.Gain(sp, "pay", self.expr(amount), str(res), self.span(res), False,
                        self._player(t.children))

    def s_raise(self, t, sp, verb="raise"):
        track = t.children[0]
        by = self._opt_sub(t.children, "by")
        return ast.Raise(sp, verb, str(track), self.span(track),
                         self.expr(by.children[0]) if by else None, self._player(t.children))

    def s_lower(self, t, sp):
        return self.s_raise(t, sp, "lower")

    def s_place(self, t, sp):
        tile = t.children[0]
        where = t.children[1]
        mode, target = "rules", None
        if isinstance(where, Tree):
            mode = {"place_on": "on", "place_filtered": "where",
                    "place_anywhere": "anywhere"}[where.data]
            if where.children and where.children[0] is not None:
                target = self.expr(where.children[0])
        bind = self._opt_sub(t.children, "as_name")
        return ast.Place(sp, str(tile), self.span(tile), mode, target, self._player(t.children),
                         str(bind.children[0]) if bind else None)

    def _transfer(self, t, sp, verb, has_dest):
        c = t.children
        up_to = c[0] is not None
        amount, res, src = c[1], c[2], c[3]
        dest = c[4] if has_dest else None
        return ast.Transfer(sp, verb, up_to, self.expr(amount), str(res), self.span(res),
                            self.expr(src), self.expr(dest) if dest is not None else None)

    def s_add(self, t, sp):
        amount, res, dest = t.children
        return ast.Transfer(sp, "add", False, self.expr(amount), str(res), self.span(res),
                            None, self.expr(dest))

    def s_remove(self, t, sp):
        return self._transfer(t, sp, "remove", False)

    def s_move(self, t, sp):
        return self._transfer(t, sp, "move", True)

    def s_steal(self, t, sp):
        return self._transfer(t, sp, "steal", False)

    def s_let(self, t, sp):
        return ast.Let(sp, str(t.children[0]), self.expr(t.children[1]))

    def s_set(self, t, sp):
        return ast.Set(sp, str(t.children[0]), self.expr(t.children[1]),
                       self._player(t.children))

    def s_as_player(self, t, sp):
        who, *body = t.children
        return ast.AsPlayer(sp, self.expr(who), self.suite(body))

    def s_return(self, t, sp):
        v = t.children[0]
        return ast.Return(sp, self.expr(v) if v is not None else None)

    def s_require(self, t, sp):
        msg = t.children[1]
        return ast.Require(sp, self.expr(t.children[0]), _unquote(msg) if msg is not None else None)

    def s_emit(self, t, sp):
        name, arguments = t.children
        args, kwargs = self.arguments(arguments)
        return ast.Emit(sp, str(name), self.span(name), args, kwargs)

    def s_run(self, t, sp):
        block, card = t.children
        return ast.Run(sp, str(block), self.span(block), self.expr(card))

    def s_call_stmt(self, t, sp):
        return ast.CallStmt(sp, self.expr(t.children[0]))

    def s_pass(self, t, sp):
        return ast.Pass(sp)

    def s_break(self, t, sp):
        return ast.Break(sp)

    def s_if(self, t, sp):
        cond, *rest = t.children
        branches, orelse = [], None
        first_body = []
        for child in rest:
            if isinstance(child, Tree) and child.data == "elif":
                branches.append(child)
            elif isinstance(child, Tree) and child.data == "else":
                orelse = self.suite(child.children)
            elif child is not None:
                first_body.append(child)
        out = [(self.expr(cond), self.suite(first_body))]
        for b in branches:
            econd, *ebody = b.children
            out.append((self.expr(econd), self.suite(ebody)))
        return ast.If(sp, out, orelse)

    def s_for(self, t, sp):
        var, iterable, *body = t.children
        return ast.For(sp, str(var), self.expr(iterable), self.suite(body))

    def s_repeat(self, t, sp):
        count, *body = t.children
        return ast.Repeat(sp, self.expr(count), self.suite(body))

    def s_while(self, t, sp):
        cond, *body = t.children
        return ast.While(sp, self.expr(cond), self.suite(body))

    def s_may(self, t, sp):
        body, orelse = [], None
        for child in t.children:
            if isinstance(child, Tree) and child.data == "else":
                orelse = self.suite(child.children)
            elif child is not None:
                body.append(child)
        return ast.May(sp, self.suite(body), orelse)

    def s_choose(self, t, sp):
        options = [o for o in t.children if isinstance(o, Tree) and o.data == "option"]
        labels = [_unquote(o.children[0]) if o.children and isinstance(o.children[0], Token)
                  and o.children[0].type == "STRING" else None for o in options]
        return ast.Choose(sp, [self.stmts(o.children[1:] if labels[i] is not None or
                                          (o.children and o.children[0] is None)
                                          else o.children) for i, o in enumerate(options)],
                          labels)

    # expressions ------------------------------------------------------------
    def arguments(self, node):
        args, kwargs = [], {}
        if node is None:
            return args, kwargs
        for a in node.children:
            if isinstance(a, Tree) and a.data == "keyword":
                kwargs[str(a.children[0])] = self.expr(a.children[1])
            else:
                args.append(self.expr(a))
        return args, kwargs

    def expr(self, t) -> ast.Expr:
        self.depth += 1
        if self.depth > MAX_NESTING * 4:
            raise RecursionError
        try:
            return self._expr(t)
        finally:
            self.depth -= 1

    def _expr(self, t) -> ast.Expr:
        sp = self.span(t)
        if isinstance(t, Token):  # a bare token reaches here only for names
            return ast.Name(sp, str(t))
        kind = t.data
        c = t.children
        if kind == "int":
            return ast.Literal(sp, self.number(c[0], sp))
        if kind == "string":
            return ast.Literal(sp, _unquote(c[0]))
        if kind == "true":
            return ast.Literal(sp, True)
        if kind == "false":
            return ast.Literal(sp, False)
        if kind == "none":
            return ast.Literal(sp, None)
        if kind == "name":
            return ast.Name(sp, str(c[0]))
        if kind == "field":
            return ast.Field(sp, self.expr(c[0]), str(c[1]), self.span(c[1]))
        if kind == "call":
            args, kwargs = self.arguments(c[1])
            return ast.Call(sp, str(c[0]), args, kwargs, self.span(c[0]))
        if kind == "comprehension":
            func, var, source, where, value = c
            return ast.Comprehension(sp, str(func), str(var), self.expr(source),
                                     self.expr(where) if where is not None else None,
                                     self.expr(value) if value is not None else None,
                                     self.span(func))
        if kind == "list":
            return ast.ListExpr(sp, [self.expr(x) for x in c if x is not None])
        if kind == "neg":
            return ast.Unary(sp, "-", self.expr(c[0]))
        if kind == "not_":
            return ast.Unary(sp, "not", self.expr(c[0]))
        if kind in ("binary", "compare"):
            return ast.Binary(sp, str(c[1]), self.expr(c[0]), self.expr(c[2]))
        if kind == "or_":
            return ast.Binary(sp, "or", self.expr(c[0]), self.expr(c[1]))
        if kind == "and_":
            return ast.Binary(sp, "and", self.expr(c[0]), self.expr(c[1]))
        if kind == "has":
            return ast.Binary(sp, "has", self.expr(c[0]), self.expr(c[1]))
        if kind == "lacks":
            return ast.Binary(sp, "lacks", self.expr(c[0]), self.expr(c[1]))
        if kind == "conditional":
            then, cond, other = c
            return ast.Conditional(sp, self.expr(cond), self.expr(then), self.expr(other))
        if kind == "any_of":
            return ast.AnyOf(sp, str(c[1]))
        if kind == "expression":
            return self.expr(c[0])
        raise ValueError(f"unknown expression node {kind}")  # pragma: no cover


def _unquote(tok) -> str:
    return str(tok)[1:-1]
