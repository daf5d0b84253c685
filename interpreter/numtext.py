"""Numbers that people write as text: options, agent specs, keys and seats in scenario files.

Python's ``int()`` and ``float()`` read more than a person means and fail in
ways a message should not show: ``int('٣')`` is 3 (any script's digits),
``int('²')`` raises, ``int('1_000')`` is 1000, a number of 5,000 digits
raises about Python's own limit, and ``float('nan')`` is a number. Every
number Rulebook reads from text goes through :func:`whole` or
:func:`decimal`: the digits 0 to 9 only, an optional sign, at most
``MAX_DIGITS`` digits, then the caller's bounds. A problem is a
:class:`NumberProblem` whose message quotes the text cut short
(:func:`clipped`). This module imports nothing from Rulebook.
"""

from __future__ import annotations

import re

MAX_DIGITS = 40  # far more than any count, seed or budget Rulebook takes
_WHOLE = re.compile(r"[+-]?[0-9]{1,%d}\Z" % MAX_DIGITS)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,%d}(?:\.[0-9]{0,%d})?|\.[0-9]{1,%d})"
                      r"(?:[eE][+-]?[0-9]{1,3})?\Z" % ((MAX_DIGITS,) * 3))


class NumberProblem(ValueError):
    """Text that is not the number asked for; the message says why, in words."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def clipped(text, limit: int = 40) -> str:
    """``text`` as a message quotes it: whole when short, else its start, '…' and its length."""
    text = text if isinstance(text, str) else str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit - 1]}… ({len(text):,} characters)"


def _shown(bound) -> str:
    return f"{bound:g}" if isinstance(bound, float) else str(bound)


def _bounds(value, what: str, text: str, low, high):
    if low is not None and value < low:
        raise NumberProblem(f"{what} must be at least {_shown(low)}, not '{clipped(text)}'")
    if high is not None and value > high:
        raise NumberProblem(f"{what} must be at most {_shown(high)}, not '{clipped(text)}'")
    return value


def _digits_hint(text) -> str:
    if isinstance(text, str) and any(ch.isdigit() and not "0" <= ch <= "9" for ch in text):
        return " (write it with the digits 0 to 9)"
    if isinstance(text, str) and len(text.strip("+-")) > MAX_DIGITS and text.isascii() \
            and text.strip("+-").isdigit():
        return f" (more than {MAX_DIGITS} digits)"
    return ""


def whole(text, what: str = "the number", low: int | None = None,
          high: int | None = None) -> int:
    """The whole number ``text`` writes (ASCII digits, optional sign), within the bounds.

    An int (not a bool) is taken as it is and only bounds-checked.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return _bounds(text, what, clipped(str(text)), low, high)
    if not isinstance(text, str) or not _WHOLE.match(text):
        raise NumberProblem(f"{what} must be a whole number, not '{clipped(text)}'"
                            + _digits_hint(text))
    return _bounds(int(text), what, text, low, high)


def decimal(text, what: str = "the number", low: float | None = None,
            high: float | None = None) -> float:
    """The finite number ``text`` writes (ASCII digits, optional sign, point and exponent)."""
    if not isinstance(text, str) or not _DECIMAL.match(text):
        raise NumberProblem(f"{what} must be a number, not '{clipped(text)}'"
                            + _digits_hint(text))
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise NumberProblem(f"{what} must be a finite number, not '{clipped(text)}'")
    return _bounds(value, what, text, low, high)


def seat(value, players: int) -> int:
    """The seat (from 1) that ``value`` (an int, or a key's text) names among ``players``."""
    number = whole(value, "a seat")
    if not 1 <= number <= players:
        raise NumberProblem(f"seat {clipped(str(number), 24)} does not exist with {players} "
                            "players")
    return number
