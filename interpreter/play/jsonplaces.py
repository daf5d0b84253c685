"""Read one JSON object and remember where each of its values is written.

Game records are JSON files that people may edit or that may be tampered
with, so a bad field has to be reported at its line and column. This module
reads the top-level object key by key with the standard decoder and keeps
the place of every key and value; where a list item starts is worked out
only for an item that is reported. It also refuses what the plain decoder
would accept or crash on: a key given twice, ``NaN``/``Infinity``, numbers
with thousands of digits, and nesting deep enough to exhaust Python's
recursion.
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
    """One key of the object: its value, and where the key and the value are.

    Where each item of a list value starts is found only when asked for
    (``item_at``), so a long list of answers is read at the decoder's speed.
    """

    value: object
    key_at: tuple[int, int]
    at: tuple[int, int]
    _text: str = field(default="", repr=False)
    _offset: int = field(default=0, repr=False)
    _places: object = field(default=None, repr=False)

    def item_at(self, index: int) -> tuple[int, int]:
        """(line, col) where item ``index`` of a list value starts (else the value's place)."""
        if not isinstance(self.value, list) or not 0 <= index < len(self.value):
            return self.at
        text, i = self._text, _skip(self._text, self._offset + 1)
        for _ in range(index):
            _, i = _DECODER.raw_decode(text, i)  # already decoded once: cannot fail
            i = _skip(text, _skip(text, i) + 1)  # past the comma
        return self._places(i)


def _skip(text: str, offset: int) -> int:
    return _WS.match(text, offset).end()


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
            if "digits" in str(exc):  # Python's own limit, said without naming Python's knob
                fail("not a usable JSON value (a number of thousands of digits, far more than "
                     "any value can have)", offset)
            fail(f"not a usable JSON value ({exc})", offset)

    skip = _skip
    i = skip(text, 0)
    if text[i:i + 1] != "{":
        fail("a record is a JSON object, written {...}", i)
    start = places(i)
    members: dict[str, Member] = {}
    i = skip(text, i + 1)
    if text[i:i + 1] == "}":
        i += 1
    else:
        while True:
            if text[i:i + 1] != '"':
                fail("expected a key in double quotes", i)
            key_offset = i
            key, i = decode(i)
            i = skip(text, i)
            if text[i:i + 1] != ":":
                fail("expected ':' after the key", i)
            i = skip(text, i + 1)
            value_offset = i
            value, i = decode(i)
            if key in members:
                fail(f"the key {json.dumps(key)} is given twice", key_offset)
            members[key] = Member(value, places(key_offset), places(value_offset), text,
                                  value_offset, places)
            i = skip(text, i)
            sep = text[i:i + 1]
            if sep == ",":
                i = skip(text, i + 1)
                continue
            if sep == "}":
                i += 1
                break
            fail("expected ',' or '}' after a value", i)
    i = skip(text, i)
    if i != len(text):
        fail("unexpected text after the end of the record", i)
    return members, start
