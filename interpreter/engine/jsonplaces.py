"""Read one JSON object and remember where each of its values is written.

Game records are JSON files that people may edit or that may be tampered
with, so a bad field has to be reported at its line and column. This module
reads the top-level object key by key (and the items of list values one by
one) with the standard decoder, and keeps the place of every key, value and
list item. It also refuses what the plain decoder would accept or crash on:
a key given twice, ``NaN``/``Infinity``, numbers with thousands of digits,
and nesting deep enough to exhaust Python's recursion.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field

_WS = re.compile(r"[ \t\n\r]*")


class JsonProblem(Exception):
    """Text that is not the JSON object expected, at a 1-based line and column."""

    def __init__(self, message: str, line: int = 1, col: int = 1):
        super().__init__(f"{line}:{col}: {message}")
        self.message, self.line, self.col = message, line, col


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


@dataclass
class Member:
    """One key of the object: its value, and where the key, value and list items are."""

    value: object
    key_at: tuple[int, int]
    at: tuple[int, int]
    items_at: list[tuple[int, int]] = field(default_factory=list)


class _Places:
    """Turns offsets into (line, col), both 1-based."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


def read_object(text: str) -> tuple[dict[str, Member], tuple[int, int]]:
    """The members of the JSON object that ``text`` holds, and where the object starts."""
    places = _Places(text)

    def fail(message: str, offset: int):
        raise JsonProblem(message, *places(offset))

    def decode(offset: int) -> tuple[object, int]:
        try:
            return _DECODER.raw_decode(text, offset)
        except json.JSONDecodeError as exc:
            raise JsonProblem(f"not valid JSON: {exc.msg}", exc.lineno, exc.colno) from None
        except RecursionError:
            fail("the JSON is nested too deeply", offset)
        except ValueError as exc:  # NaN/Infinity, or an integer with too many digits
            fail(f"not a usable JSON value ({exc})", offset)

    def skip(offset: int) -> int:
        return _WS.match(text, offset).end()

    i = skip(0)
    if text[i:i + 1] != "{":
        fail("a record is a JSON object, written {...}", i)
    start = places(i)
    members: dict[str, Member] = {}
    i = skip(i + 1)
    if text[i:i + 1] == "}":
        i += 1
    else:
        while True:
            if text[i:i + 1] != '"':
                fail("expected a key in double quotes", i)
            key_offset = i
            key, i = decode(i)
            i = skip(i)
            if text[i:i + 1] != ":":
                fail("expected ':' after the key", i)
            i = skip(i + 1)
            value_offset = i
            items: list[tuple[int, int]] = []
            if text[i:i + 1] == "[":
                value, i = _array(text, i, decode, skip, fail, places, items)
            else:
                value, i = decode(i)
            if key in members:
                fail(f"the key {json.dumps(key)} is given twice", key_offset)
            members[key] = Member(value, places(key_offset), places(value_offset), items)
            i = skip(i)
            sep = text[i:i + 1]
            if sep == ",":
                i = skip(i + 1)
                continue
            if sep == "}":
                i += 1
                break
            fail("expected ',' or '}' after a value", i)
    i = skip(i)
    if i != len(text):
        fail("unexpected text after the end of the record", i)
    return members, start


def _array(text, i, decode, skip, fail, places, items) -> tuple[list, int]:
    """A list value, item by item, noting where each item starts."""
    out: list = []
    i = skip(i + 1)
    if text[i:i + 1] == "]":
        return out, i + 1
    while True:
        items.append(places(i))
        value, i = decode(i)
        out.append(value)
        i = skip(i)
        sep = text[i:i + 1]
        if sep == ",":
            i = skip(i + 1)
            continue
        if sep == "]":
            return out, i + 1
        fail("expected ',' or ']' in a list", i)
