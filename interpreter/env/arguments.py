"""The arguments of the learning environment, checked before anything is built.

:func:`rulebook_env` (and ``reset``'s seed) take their arguments from a
training script, where a slip (``players="2"``, ``seed=1.5``,
``variants="abc"``, ``max_options=0``) would otherwise surface as a raw
error from NumPy or Gymnasium, or worse, be taken in silence as something
else (a seed of 1.5, three variants ``a``, ``b`` and ``c``, the default
size). Each check here raises a :class:`TypeError` for a value of the wrong
type and a :class:`ValueError` for one of the right type that is not
allowed, in one line that names the argument and says what is allowed. It
imports nothing of PettingZoo or NumPy; a NumPy integer counts as a whole
number.
"""

from __future__ import annotations

import operator
import os

from ..engine.state import MAX_SEED

MIN_OPTIONS = 2  # a decision with one answer is never asked, so a smaller space fits nothing
MAX_OPTIONS = 1_000_000  # a mask is this many bytes at every observation; real games need < 400


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def choices(allowed: tuple) -> str:
    """'a' or 'b', as an argument's allowed values are written."""
    return " or ".join(repr(a) for a in allowed)


def whole(value, name: str, allowed: str) -> int:
    """``value`` as an int when it is a whole number (not a bool, not a float, not a text)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} is {allowed}, not {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} is {allowed}, not {_shown(value)} "
                        f"({type(value).__name__})") from None


def seed(value, name: str = "seed") -> int:
    """A game's seed: a whole number from -MAX_SEED to MAX_SEED, as on the command line."""
    allowed = f"a whole number from {-MAX_SEED} to {MAX_SEED}"
    number = whole(value, name, allowed)
    if not -MAX_SEED <= number <= MAX_SEED:
        raise ValueError(f"{name} is {allowed}, not {_shown(number)}")
    return number


def players(value) -> int:
    """A number of seats (the ruleset's range is checked once it is loaded)."""
    return whole(value, "players", "a whole number of seats")


def max_options(value) -> int | None:
    """The action space's size, or None for the ruleset's own default."""
    if value is None:
        return None
    allowed = (f"None (the ruleset's default) or a whole number from {MIN_OPTIONS} to "
               f"{MAX_OPTIONS:,}")
    number = whole(value, "max_options", allowed)
    if not MIN_OPTIONS <= number <= MAX_OPTIONS:
        raise ValueError(f"max_options is {allowed}, not {_shown(number)}")
    return number


def names(value, name: str, what: str, path: bool = False) -> tuple:
    """A list of ``what`` (texts, or paths when ``path``), never one text taken letter by letter."""
    allowed = f"a list of {what}"
    if isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError(f"{name} is {allowed}, not one {type(value).__name__}: "
                        f"write [{_shown(value)}]")
    try:
        items = tuple(value)
    except TypeError:
        raise TypeError(f"{name} is {allowed}, not {_shown(value)} "
                        f"({type(value).__name__})") from None
    kinds = (str, os.PathLike) if path else (str,)
    for item in items:
        if not isinstance(item, kinds):
            raise TypeError(f"{name} is {allowed}, and {_shown(item)} "
                            f"({type(item).__name__}) is not one")
    return items


def ruleset(value, mods: tuple) -> None:
    """A shipped ruleset's name, a folder, or a loaded Ruleset (which takes no mods here)."""
    from ..load.ruleset import Ruleset
    if isinstance(value, Ruleset):
        if mods:
            raise ValueError("mods are layered on a ruleset as it is loaded, and this Ruleset "
                             "is loaded already: pass its name or folder with mods, or load "
                             "it with its mods")
        return
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError("ruleset is a shipped ruleset's name, a ruleset folder or a loaded "
                        f"Ruleset, not {_shown(value)} ({type(value).__name__})")


def variants(value, known) -> tuple:
    """Variant ids, each one the ruleset declares."""
    chosen = names(value, "variants", "variant ids")
    known = sorted(known)
    for v in chosen:
        if v not in known:
            raise ValueError(f"variants: this ruleset has no variant {_shown(v)} "
                             + (f"(its variants: {', '.join(known)})" if known
                                else "(it has no variants)"))
    return chosen


def max_cycles(value) -> int | None:
    """The steps a game may take before it is cut (truncated), or None for no limit."""
    if value is None:
        return None
    allowed = "None (no limit) or a whole number of steps from 1"
    number = whole(value, "max_cycles", allowed)
    if number < 1:
        raise ValueError(f"max_cycles is {allowed}, not {_shown(number)}")
    return number


def opponents(value) -> dict:
    """Seats played by built-in agents: {seat number from 1, or "player_N": agent spec}."""
    allowed = ('a dict of seats (a number from 1, or "player_N") and agent specs '
               '("greedy", "ismcts:iterations=50"…)')
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TypeError(f"opponents is {allowed}, not {_shown(value)} ({type(value).__name__})")
    out = {}
    for seat, spec in value.items():
        if isinstance(seat, str) and seat.startswith("player_") and seat[7:].isdigit():
            number = int(seat[7:])
        elif isinstance(seat, str):
            raise ValueError(f"opponents: {_shown(seat)} is not a seat: write a number from "
                             "1 or \"player_N\"")
        else:
            number = whole(seat, "opponents", allowed)
        if not isinstance(spec, str):
            raise TypeError(f"opponents: player_{number}'s agent is a spec (a text such as "
                            f"\"greedy\"), not {_shown(spec)} ({type(spec).__name__})")
        if number in out:
            raise ValueError(f"opponents: player_{number} is given twice")
        out[number] = spec
    return out


def seats(wanted: dict, players: int) -> dict:
    """Seats from 0 for the seat numbers from 1 of ``opponents``, each one in the game."""
    out = {}
    for number, spec in wanted.items():
        if not 1 <= number <= players:
            raise ValueError(f"opponents: there is no player_{number} in a game of {players} "
                             f"(seats are 1 to {players})")
        out[number - 1] = spec
    return out
