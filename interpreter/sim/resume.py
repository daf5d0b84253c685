"""Carrying on a results file: which seeds it holds, and whether this run may add to it.

A results file (one JSON line per game, see docs/results.md) may be cut short
by Ctrl-C or a lost machine. :func:`read_results` reads it line by line
through :mod:`.results_file` (a regular file only, lines of bounded length,
each line's fields checked, no more different cards, scoring entries,
features… than its limits allow), checks that every line was made with the
configuration of this run (the same rule files by content hash, mods,
variants, player count and agents) and says which seeds it already holds.

A last line without its line end is what an interrupted write leaves. It is
dropped (the file is cut back to its last whole line when the run appends)
and its game played again, but only when whole results lines of this
configuration come before it and it begins like one: a file whose only line
has no line end could be anything, and is refused. A last line that is a
whole results line missing only its line end is kept. Any refusal leaves the
file exactly as it was: nothing is written before every line has passed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .results_file import Census, LineProblem, check, lines, open_file, parse


class ResumeProblem(Exception):
    """The file cannot be carried on by this run; the message names the place and why."""


@dataclass
class Carried:
    """What a results file holds: the seeds of its games, and where its whole lines end."""

    seeds: set[int] = field(default_factory=set)
    lines: int = 0
    keep_bytes: int = 0  # the file up to here is whole lines
    torn: bool = False  # a last line cut off in the middle was found (and is dropped)
    unended: bool = False  # the last line is whole but has no line end (one is added)


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
    return _weights_difference(line.get("evaluations"), context.get("evaluations"))


def _weights_difference(there, here) -> str | None:
    """Whether the seats judge positions as they did when the file was made, in words."""
    if here is None or there == here:
        return None
    learned = [e for e in here if isinstance(e, dict) and e.get("evaluation") == "learned"]
    if there is None:
        if not learned:
            return None  # nothing of this run depends on weights the line could not name
        return ("its lines do not say which learned weights their agents played with "
                f"(made before results files said it), and this run's play with "
                f"{learned[0].get('file')} (sha256 {str(learned[0].get('sha256'))[:12]}): "
                "start a new file")
    for seat, (a, b) in enumerate(zip(there, here), 1):
        if a == b:
            continue
        if (a or {}).get("evaluation") == (b or {}).get("evaluation") == "learned":
            if a.get("sha256") != b.get("sha256"):
                where = (f"{a.get('file')}: " if a.get("file") == b.get("file") else
                         f"{a.get('file')} in the file, {b.get('file')} now; ")
                return (f"the learned weights of seat {seat} have changed since it was made "
                        f"({where}sha256 {str(a.get('sha256'))[:12]} in the file, "
                        f"{str(b.get('sha256'))[:12]} now): its "
                        "games were played by other agents; put those weights back, or start "
                        "a new file")
            return (f"the agent of seat {seat} played with the learned weights of "
                    f"{a.get('players')} players then, of {b.get('players')} now")
        return (f"the agent of seat {seat} played with {_judged(a)} then, with "
                f"{_judged(b)} now")
    return None


def _judged(entry) -> str:
    if not isinstance(entry, dict):
        return "no evaluation"
    if entry.get("evaluation") == "written":
        return "the hand-written evaluation"
    return f"the learned weights of {entry.get('file')} (sha256 {str(entry.get('sha256'))[:12]})"


def read_results(path: str, shown: str, context: dict, agents: list[str],
                 each: Callable[[dict], None] | None = None) -> Carried:
    """Read a results file for a resume; ``each`` sees every whole line's data, in order.

    Raises :class:`ResumeProblem` (with ``shown``, the file's name for people,
    and the line) when a line is not a results line or was made differently.
    Nothing is written here.
    """
    carried = Carried()
    census = Census()
    try:
        with open_file(path, shown) as fh:
            for number, raw in lines(fh, shown):
                if not _line(carried, census, number, raw, shown, context, agents, each):
                    break
    except LineProblem as exc:
        raise ResumeProblem(str(exc)) from None
    return carried


def _line(carried: Carried, census: Census, number: int, raw: bytes, shown: str,
          context: dict, agents: list[str], each) -> bool:
    """Take one line into ``carried``; False once the last line has been dropped."""
    ended = raw.endswith(b"\n")
    if not raw.strip():
        carried.keep_bytes += len(raw)
        return True
    place = f"{shown}:{number}"
    try:
        line = parse(raw, place)
    except LineProblem as exc:
        if ended:
            raise ResumeProblem(f"{place}: line {number} is not a results line: "
                                f"{exc.detail}") from None
        if not carried.lines:
            raise ResumeProblem(
                f"{place}: the file's only line is not a whole results line (it has no line "
                "end and is not JSON); it is not a file this run can carry on, and it is "
                "left as it is (give another file, or delete this one to start again)") \
                from None
        if not raw.lstrip().startswith(b"{"):
            raise ResumeProblem(f"{place}: the last line is not the start of a results line; "
                                "the file is left as it is") from None
        carried.torn = True  # cut off in the middle of writing it
        return False
    try:
        check(line, place)
    except LineProblem as exc:
        raise ResumeProblem(f"{place}: line {number} is not a results line: "
                            f"{exc.detail}") from None
    try:
        census.add(line, place)
    except LineProblem as exc:
        raise ResumeProblem(f"{exc}; the file is left as it is") from None
    why = difference(line, context, agents)
    if why:
        raise ResumeProblem(f"{place}: this run cannot carry the file on: {why}")
    carried.seeds.add(line["seed"])
    carried.lines += 1
    carried.keep_bytes += len(raw)
    carried.unended = not ended
    if each:
        each(line)
    return True


def reopen(path: str, shown: str, context: dict, agents: list[str],
           each: Callable[[dict], None] | None = None):
    """A results file checked, cut back to its whole lines and opened to append.

    Returns the open file, the seeds it holds, and a note for people when a
    cut-off last line was dropped (else None).
    """
    carried = read_results(path, shown, context, agents, each)
    try:
        fh = open_file(path, shown, append=True)
    except LineProblem as exc:
        raise ResumeProblem(str(exc)) from None
    try:
        if carried.torn:
            fh.truncate(carried.keep_bytes)
        elif carried.unended:
            fh.write("\n")  # the last game's line is whole; the next one starts below it
    except OSError as exc:
        fh.close()
        raise ResumeProblem(f"{shown}: cannot write it: {exc.strerror or exc}") from None
    note = (f"{shown}: its last line was cut off (an interrupted run); it is dropped and "
            "that game played again" if carried.torn else None)
    return fh, carried.seeds, note
