"""Carrying on a results file: which seeds it holds, and whether this run may add to it.

A results file (one JSON line per game, see docs/results.md) may be cut short
by Ctrl-C or a lost machine. :func:`read_results` reads it line by line,
checks that every line was made with the configuration of this run (the
same rule files by content hash, mods, variants, player count and agents)
and says which seeds it already holds. A last line without its line end is
what an interrupted write leaves: it is dropped (the file is cut back to its
last whole line when the run appends) and its game played again. Any other
line that is not a results line stops the resume with its place.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field


class ResumeProblem(Exception):
    """The file cannot be carried on by this run; the message names the place and why."""


@dataclass
class Carried:
    """What a results file holds: the seeds of its games, and where its whole lines end."""

    seeds: set[int] = field(default_factory=set)
    lines: int = 0
    keep_bytes: int = 0  # the file up to here is whole lines
    torn: bool = False  # a last line without its line end was found (and is dropped)


def _listing(values) -> str:
    return ", ".join(str(v) for v in values) if values else "none"


def _mod_key(mod):
    """A mod as a resume compares it: by content when the line says it, else as given."""
    return mod.get("content_hash") or mod.get("file") if isinstance(mod, dict) else mod


def _mod_names(mods) -> str:
    return _listing([m.get("file") or m.get("id") if isinstance(m, dict) else m
                     for m in mods or []])


def difference(line: dict, context: dict, agents: list[str]) -> str | None:
    """What in a results line differs from this run's configuration, in words; or None."""
    there, here = line.get("ruleset") or {}, context.get("ruleset") or {}
    if (line.get("format") or 1) != (context.get("format") or 1):  # none: before format
        return (f"its lines are in another version of the results format "
                f"({line.get('format') or 'none'}, not {context.get('format') or 'none'})")
    if there.get("id") != here.get("id"):
        return (f"it holds games of '{there.get('name') or there.get('id')}', not of "
                f"'{here.get('name') or here.get('id')}'")
    if there.get("content_hash") != here.get("content_hash"):
        return (f"the rule files (with their mods) have changed since it was made (content "
                f"hash {str(there.get('content_hash'))[:12]} in the file, "
                f"{str(here.get('content_hash'))[:12]} now)")
    if [_mod_key(m) for m in line.get("mods") or []] != \
            [_mod_key(m) for m in context.get("mods") or []]:
        return (f"it was made with the mods {_mod_names(line.get('mods'))}; this run has "
                f"{_mod_names(context.get('mods'))}")
    if list(line.get("variants") or []) != list(context.get("variants") or []):
        return (f"it was made with the variants {_listing(line.get('variants'))}; this run has "
                f"{_listing(context.get('variants'))}")
    if line.get("players") != context.get("players"):
        return (f"it was made for {line.get('players')} players; this run is for "
                f"{context.get('players')}")
    if list(line.get("agents") or []) != list(agents):
        return (f"it was made with the agents {_listing(line.get('agents'))}; this run has "
                f"{_listing(agents)}")
    return None


def read_results(path: str, shown: str, context: dict, agents: list[str],
                 each: Callable[[dict], None] | None = None) -> Carried:
    """Read a results file for a resume; ``each`` sees every whole line's data, in order.

    Raises :class:`ResumeProblem` (with ``shown``, the file's name for people,
    and the line) when a line is not a results line or was made differently.
    """
    carried = Carried()
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise ResumeProblem(f"{shown}: cannot read it: {exc.strerror or exc}") from None
    with fh:
        number = 0
        for raw in fh:
            number += 1
            if not raw.endswith(b"\n"):
                carried.torn = True  # cut off in the middle of writing it
                break
            if not raw.strip():
                carried.keep_bytes += len(raw)
                continue
            try:
                line = json.loads(raw)
            except (ValueError, UnicodeDecodeError) as exc:
                raise ResumeProblem(f"{shown}:{number}: line {number} is not a results line "
                                    f"({exc})") from None
            if not isinstance(line, dict) or not isinstance(line.get("seed"), int):
                raise ResumeProblem(f"{shown}:{number}: line {number} is not a results line "
                                    "(it has no seed)")
            why = difference(line, context, agents)
            if why:
                raise ResumeProblem(f"{shown}:{number}: this run cannot carry the file on: "
                                    f"{why}")
            carried.seeds.add(line["seed"])
            carried.lines += 1
            carried.keep_bytes += len(raw)
            if each:
                each(line)
    return carried


def reopen(path: str, shown: str, context: dict, agents: list[str],
           each: Callable[[dict], None] | None = None):
    """A results file checked, cut back to its whole lines and opened to append.

    Returns the open file, the seeds it holds, and a note for people when a
    cut-off last line was dropped (else None).
    """
    carried = read_results(path, shown, context, agents, each)
    try:
        fh = open(path, "a", encoding="utf-8")
        if carried.torn:
            fh.truncate(carried.keep_bytes)
    except OSError as exc:
        raise ResumeProblem(f"{shown}: cannot write it: {exc.strerror or exc}") from None
    note = (f"{shown}: its last line was cut off (an interrupted run); it is dropped and "
            "that game played again" if carried.torn else None)
    return fh, carried.seeds, note
