"""Rulesets for the API: loading one, the shipped names, a card's text, a game's setup.

Every API function that takes a ruleset takes a loaded :class:`Ruleset` or
what :func:`load_ruleset` takes (a shipped name, a folder, its
``ruleset.yaml``), through :func:`ruleset_of`. :func:`check_setup` says, in
the words of a ``ValueError``, why a player count or a variant does not fit
a ruleset, before any game is built.
"""

from __future__ import annotations

import os

from ..errors import suggest
from ..load.ruleset import Ruleset, load_ruleset as _load
from ..paths import shipped_rulesets as _shipped


def load_ruleset(ruleset: str | os.PathLike, mods=()) -> Ruleset:
    """Load, check and compile a ruleset (a shipped name, a folder or its ruleset.yaml).

    ``mods`` are mod files, layered on in order. A problem is a RulebookError
    whose ``diagnostics`` place every problem at its file, line and column."""
    if isinstance(mods, (str, os.PathLike)):
        mods = [mods]  # one mod, not its characters
    return _load(ruleset, [str(m) for m in mods or ()])


def shipped_rulesets() -> list[str]:
    """The names of the rulesets that come with Rulebook."""
    return list(_shipped())


def ruleset_of(ruleset) -> Ruleset:
    """A loaded Ruleset as it is; anything else loaded by :func:`load_ruleset`."""
    return ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)


def card_text(ruleset, card: str) -> str:
    """A card's name and facts, then its text generated from its effects, a part a line.

    ``card`` is its id or printed name, in any case; an unknown card is a
    ValueError that suggests the closest."""
    return ruleset_of(ruleset).card_text(card)


def check_setup(rs: Ruleset, players: int, variants) -> None:
    """A ValueError when ``players`` or ``variants`` do not fit the ruleset."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players is a whole number, not {players!r:.40}")
    if not rs.min_players <= players <= rs.max_players:
        raise ValueError(f"{rs.name} is for {rs.players_words}, "
                         f"not {players}")
    known = rs.variants
    for v in variants:
        if v not in known:
            hint = suggest(str(v), known)
            raise ValueError(f"{rs.name} has no variant {str(v)!r:.60}"
                             + (f"; {hint}" if hint else "")
                             + (f" (variants: {', '.join(known)})" if known else
                                " (it has no variants)"))
