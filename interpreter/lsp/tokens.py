"""Semantic tokens: the effect text inside a rule file's YAML, coloured as code.

The file is read in one pass over its lines, without parsing it (a buffer
being typed is often not valid YAML), keeping the keys above each line by
their indentation: a value of a key that holds effect text (the keys
:mod:`.locate` knows: ``play:``, ``do:``, ``if:``…, an entry under
``blocks:``), on the key's line, in a ``{key: value}`` mapping or in the
block text (``|`` or ``>``) below the key, is cut into tokens. Each token is
a keyword of the grammar, a number, an operator, a quoted text, a comment, a
builtin (a function of the language's own library), a field after a dot, or
a name the ruleset declares, typed by what it is: a card is a class, a
resource an enum member, a procedure or function a function, an event an
event, any other declared name (tags, tracks, zones, tiles…) a read-only
variable. Everything else in the file (keys, card names, descriptions) is
left to the editor's YAML colours.
"""

from __future__ import annotations

import re

from ..lang.builtins import AGGREGATES, ANY_NOUNS, BUILTINS
from .complete import VARIABLES, keywords
from .locate import EFFECT_KEYS, EFFECT_PARENTS

TOKEN_TYPES = ["keyword", "number", "operator", "string", "comment", "function", "class",
               "enumMember", "event", "variable", "property"]
TOKEN_MODIFIERS = ["defaultLibrary", "readonly"]
_T = {name: i for i, name in enumerate(TOKEN_TYPES)}
DEFAULT_LIBRARY, READONLY = 1, 2

KEY = re.compile(r"^(\s*)((?:-\s+)*)([A-Za-z_][\w-]*)\s*:(?:\s|$)")
INLINE = re.compile(r"([A-Za-z_][\w-]*)\s*:\s+")
LEX = re.compile(r"""(?P<comment>\#.*)
                   |(?P<string>"[^"\n]*"?)
                   |(?P<number>\d+)
                   |(?P<name>[A-Za-z_]\w*)
                   |(?P<operator>==|!=|<=|>=|//|[<>+\-*%=])
                   |(?P<dot>\.)""", re.X)
KIND_TYPE = {"card": ("class", 0), "resource": ("enumMember", 0),
             "card_resource": ("enumMember", 0), "procedure": ("function", 0),
             "function": ("function", 0), "event": ("event", 0)}


def _name_types(rs) -> dict[str, tuple[int, int]]:
    """Each declared name's token type and modifiers, made once per loaded ruleset."""
    made = rs.__dict__.get("_semantic_names") if rs is not None else None
    if made is not None:
        return made
    out: dict[str, tuple[int, int]] = {}
    if rs is not None:
        for name, syms in rs.table.overloads.items():
            kind = syms[0].kind
            kind_type, mods = KIND_TYPE.get(kind, ("variable", READONLY))
            out[name] = (_T[kind_type], mods)
        for ident in rs.cards:
            out.setdefault(ident, (_T["class"], 0))
        rs.__dict__["_semantic_names"] = out
    return out


def _lex(segment: str, line: int, start: int, words: set, names: dict, out: list) -> None:
    """Tokens of effect text ``segment`` that starts at 0-based (line, start)."""
    after_dot = False
    prev = ""
    for m in LEX.finditer(segment):
        kind = m.lastgroup
        col = start + m.start()
        length = m.end() - m.start()
        if kind == "dot":
            after_dot = True
            continue
        if kind == "name":
            word = m.group(0)
            if after_dot:
                out.append((line, col, length, _T["property"], 0))
            elif word in words or (word in ANY_NOUNS and prev == "any"):
                out.append((line, col, length, _T["keyword"], 0))
            elif word in VARIABLES and segment[m.end():m.end() + 1] == ".":
                out.append((line, col, length, _T["variable"], 0))
            elif word in names:
                out.append((line, col, length, *names[word]))
            elif word in VARIABLES:
                out.append((line, col, length, _T["variable"], 0))
            elif word in BUILTINS or word in AGGREGATES:
                out.append((line, col, length, _T["function"], DEFAULT_LIBRARY))
        else:
            out.append((line, col, length, _T[kind], 0))
        after_dot = False
        prev = m.group(0)


def _value_bounds(line: str, start: int) -> tuple[int, int]:
    """Where a value written after ``start`` begins and ends, its YAML quotes left out."""
    end = len(line)
    while start < end and line[start] == " ":
        start += 1
    if start < end and line[start] in "\"'" and line.rstrip().endswith(line[start]) \
            and len(line.rstrip()) - 1 > start:
        return start + 1, len(line.rstrip()) - 1
    hashed = re.search(r"\s#", line[start:])
    if hashed and line[start:start + 1] != '"':
        end = start + hashed.start()
    return start, end


def _inline(line: str, line_no: int, words, names, out) -> None:
    """The effect values of a ``{key: value, …}`` mapping on one line."""
    brace = line.find("{")
    if brace < 0:
        return
    found = list(INLINE.finditer(line, brace))
    for i, m in enumerate(found):
        if m.group(1) not in EFFECT_KEYS:
            continue
        start = m.end()
        end = found[i + 1].start() if i + 1 < len(found) else len(line)
        value = line[start:end].rstrip()
        if i + 1 < len(found):
            value = value.rstrip().rstrip(",")
        else:
            value = value.rstrip("}],").rstrip()
        if value[:1] in "\"'" and value[-1:] == value[:1] and len(value) > 1:
            start, value = start + 1, value[1:-1]
        _lex(value, line_no, start, words, names, out)


def semantic_tokens(rs, text: str) -> list[tuple[int, int, int, int, int]]:
    """(line, col, length, type, modifiers) of every token of effect text in ``text``."""
    words = set(keywords())
    names = _name_types(rs)
    out: list[tuple[int, int, int, int, int]] = []
    stack: list[tuple[int, str]] = []  # (indent, key) of the keys above
    block: int | None = None  # the indent a block of effect text must pass
    for i, line in enumerate(text.split("\n")):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if block is not None:
            if not stripped or indent > block:
                if stripped:
                    _lex(line[indent:], i, indent, words, names, out)
                continue
            block = None
        if not stripped or stripped.startswith("#"):
            continue
        m = KEY.match(line)
        if m is None:
            if "{" in line:
                _inline(line, i, words, names, out)
            continue
        key_col = len(m.group(1)) + len(m.group(2))
        key = m.group(3)
        while stack and stack[-1][0] >= key_col:
            stack.pop()
        parent = stack[-1][1] if stack else None
        is_effect = key in EFFECT_KEYS or parent in EFFECT_PARENTS
        stack.append((key_col, key))
        value_start = m.end()
        value = line[value_start:].strip()
        if not value:
            continue
        if value[0] in "|>":
            if is_effect:
                block = key_col  # its lines are indented more than its key
            continue
        if value[0] == "{":
            _inline(line, i, words, names, out)
            continue
        if is_effect:
            start, end = _value_bounds(line, value_start)
            _lex(line[start:end], i, start, words, names, out)
    return out


def encode(tokens: list[tuple[int, int, int, int, int]], lines: list[str]) -> list[int]:
    """The protocol's relative encoding, columns counted in UTF-16 code units."""
    data: list[int] = []
    last_line, last_col = 0, 0
    for line, col, length, kind, mods in sorted(tokens):
        text = lines[line] if line < len(lines) else ""
        if not text.isascii():
            length = len(text[col:col + length].encode("utf-16-le")) // 2
            col = len(text[:col].encode("utf-16-le")) // 2
        delta_line = line - last_line
        data += [delta_line, col - (last_col if delta_line == 0 else 0), length, kind, mods]
        last_line, last_col = line, col
    return data
