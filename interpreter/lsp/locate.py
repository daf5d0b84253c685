"""What the cursor is on in a rule file, read from the text alone.

The buffer being typed is often not valid YAML, so this module does not parse
it. It reads the lines around the cursor: the key whose value holds the
cursor (on the same line, inside a ``{...}`` mapping, or the nearest key
above that is indented less, for block text and list items), the chain of
keys above that one, the word under or before the cursor and whether a dot
comes before it. A key that holds effect code (``play:``, ``do:``, ``if:``,
``points:``…, or any entry under ``blocks:``) makes the place effect text;
a key such as ``tags:`` or ``type:`` makes it a plain value naming ids.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

# keys whose value is effect-language text (statements or an expression)
EFFECT_KEYS = {"play", "do", "if", "requires", "vp", "points", "amount", "value", "until",
               "then", "finished", "solo_win", "each", "setup", "run", "expect", "capacity",
               "placement", "on_place", "after", "evaluation", "tie_breaks"}
# keys whose value is effect text only when they sit under one of these
EFFECT_PARENTS = {"blocks"}
# keys whose value is effect text only inside a flow file's view section
VIEW_EFFECT_KEYS = {"label", "cards", "here", "price", "cost"}
# keys whose plain value names ids of one kind of declaration (symbol kinds, or 'card')
VALUE_KEYS = {"tags": ("tag",), "type": ("card_type",), "deck": ("zone",),
              "holds": ("card_resource",), "card_action": ("card",), "modifier": ("modifier",),
              "on": ("event",), "emits": ("event",), "overflow": ("zone",),
              "refill_from": ("zone",), "actions_from": ("action",), "target": ("ruleset",),
              "variants": ("variant",), "stocks": ("resource",), "zone": ("zone",),
              "track": ("track",)}
KEY = re.compile(r"^(\s*)(?:-\s+)*([A-Za-z_][\w-]*)\s*:(?:\s|$)")
INLINE_KEY = re.compile(r"([A-Za-z_][\w-]*)\s*:\s")
WORD = re.compile(r"[A-Za-z_]\w*")
MAX_LINES_UP = 400


@dataclass
class Place:
    """The cursor's place: the owning key and its ancestors, and the word there."""

    key: str | None = None
    parents: list[str] = field(default_factory=list)  # nearest first
    key_line: int = -1
    word: str = ""  # the whole word under the cursor
    prefix: str = ""  # the part of it before the cursor
    word_start: int = 0  # 0-based column
    dotted: str | None = None  # the word before a '.' that precedes the word
    in_effect: bool = False
    value_kinds: tuple[str, ...] = ()

    @property
    def in_value(self) -> bool:
        return bool(self.value_kinds)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


@functools.lru_cache(maxsize=65536)
def _key_of(line: str) -> tuple[int, str] | None:
    m = KEY.match(line)
    if not m or line.lstrip().startswith("#"):
        return None
    # a key after '- ' sits where its text starts
    return line.index(m.group(2), len(m.group(1))), m.group(2)


def _parents(lines: list[str], start: int, indent: int, memo: dict | None = None
             ) -> list[str]:
    """The keys above line ``start`` that enclose a key indented ``indent`` (nearest first).

    ``memo`` keeps what was found for each (line, indent), for a caller that places
    many words of one text: the keys above a key are the same for every word below it."""
    if memo is not None and (start, indent) in memo:
        return memo[(start, indent)]
    out: list[str] = []
    for i in range(start - 1, max(start - MAX_LINES_UP, -1), -1):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        found = _key_of(line)
        if found and found[0] < indent:
            out = [found[1]] + (_parents(lines, i, found[0], memo) if found[0] else [])
            break
        elif _indent(line) == 0 and not line.startswith("-"):
            break
    if memo is not None:
        memo[(start, indent)] = out
    return out


def place_at(text: str, line: int, col: int, lines: list[str] | None = None,
             memo: dict | None = None) -> Place:
    """The place of the 0-based (line, col) in ``text`` (``lines``: the text's lines, when
    the caller has them; ``memo``: see :func:`_parents`)."""
    lines = text.split("\n") if lines is None else lines
    if not 0 <= line < len(lines):
        return Place()
    cur = lines[line]
    col = max(0, min(col, len(cur)))
    p = Place()
    start = col
    while start > 0 and (cur[start - 1].isalnum() or cur[start - 1] == "_"):
        start -= 1
    end = col
    while end < len(cur) and (cur[end].isalnum() or cur[end] == "_"):
        end += 1
    p.word, p.prefix, p.word_start = cur[start:end], cur[start:col], start
    if start > 0 and cur[start - 1] == ".":
        m = re.search(r"([A-Za-z_]\w*)\s*$", cur[:start - 1])
        p.dotted = m.group(1) if m else ""
    before = cur[:start]
    if "#" in before and not _in_quotes(before):
        return p  # a comment
    found = _key_of(cur)
    inline = [m for m in INLINE_KEY.finditer(before)]
    if found is not None and start > found[0] + len(found[1]):
        value = cur[found[0] + len(found[1]) + 1:].strip()
        if inline and "{" in before:
            p.key = inline[-1].group(1)
            p.parents = [found[1]] + _parents(lines, line, found[0], memo)
        elif value[:1] in ("|", ">") and col >= cur.index(value[:1]):
            return p  # on the block indicator itself
        else:
            p.key = found[1]
            p.parents = _parents(lines, line, found[0], memo)
        p.key_line = line
    elif found is None or start <= found[0]:
        if found is not None and start <= found[0] + len(found[1]) and start >= found[0]:
            return p  # on a key name
        indent = _indent(cur) if cur.strip() else col
        item = cur.lstrip().startswith("-")
        for i in range(line - 1, max(line - MAX_LINES_UP, -1), -1):
            above = lines[i]
            if not above.strip() or above.lstrip().startswith("#"):
                continue
            k = _key_of(above)
            lead = k[0] if k else _indent(above)
            if k and (lead < indent or (item and lead <= indent and not
                                        above.lstrip().startswith("-"))):
                p.key, p.key_line = k[1], i
                p.parents = _parents(lines, i, k[0], memo)
                break
            if lead == 0 and not above.startswith("-") and k is None:
                break
        if "{" in before and inline:
            p.parents = [p.key] + p.parents if p.key else p.parents
            p.key = inline[-1].group(1)
    if p.key is None:
        return p
    p.in_effect = p.key in EFFECT_KEYS or bool(p.parents and p.parents[0] in EFFECT_PARENTS) \
        or (p.key in VIEW_EFFECT_KEYS and "view" in p.parents
            and bool(p.parents[0] in ("boards", "rows", "standings")))
    if p.key in VALUE_KEYS and not p.in_effect:
        p.value_kinds = VALUE_KEYS[p.key]
        if p.key == "type" and "spaces" in p.parents[:2]:
            p.value_kinds = ("space_type",)  # a board space's type
    elif not p.in_effect and "cards" in p.parents[:3] and p.key not in ("id", "name"):
        p.value_kinds = ("card",)  # a scenario position: zone -> the cards in it
    return p


def _in_quotes(text: str) -> bool:
    return text.count("'") % 2 == 1 or text.count('"') % 2 == 1


def word_at(text: str, line: int, col: int) -> str:
    """The identifier under the 0-based (line, col), or ''."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return ""
    for m in WORD.finditer(lines[line]):
        if m.start() <= col <= m.end():
            return m.group(0)
    return ""


def effect_locals(text: str, line: int) -> list[str]:
    """Names bound near ``line`` by 'for x in', 'let x =', 'x in' (in counts) and 'as x'."""
    lines = text.split("\n")
    near = "\n".join(lines[max(0, line - 40):line + 1])
    names = set(re.findall(r"\bfor\s+([A-Za-z_]\w*)\s+in\b", near))
    names |= set(re.findall(r"\blet\s+([A-Za-z_]\w*)\s*=", near))
    names |= set(re.findall(r"\(\s*([A-Za-z_]\w*)\s+in\b", near))
    names |= set(re.findall(r"^\s*as:\s*([A-Za-z_]\w*)", near, re.M))
    return sorted(names)


def trigger_event(text: str, line: int) -> str | None:
    """The event of the trigger the line belongs to ('on: NAME' just above), if any."""
    lines = text.split("\n")
    for i in range(line, max(line - 30, -1), -1):
        m = re.match(r"^\s*(?:-\s+)?on:\s*([A-Za-z_]\w*)", lines[i])
        if m:
            return m.group(1)
        m = re.search(r"[{,]\s*on:\s*([A-Za-z_]\w*)", lines[i])
        if m:
            return m.group(1)
        if re.match(r"^\s*-\s+id:", lines[i]):
            break
    return None
