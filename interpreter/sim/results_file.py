"""Reading a results file without trusting it: what ``report``, ``compare`` and ``--resume`` share.

A results file (one JSON line per game, docs/results.md) may come from
anyone, so every reader goes through here. :func:`open_file` opens a
regular file only: a pipe, a device or a folder is refused at once, never
waited on. :func:`lines` hands out its lines one at a time, each at most
:data:`MAX_LINE` bytes (a longer one is refused after reading that much,
never held whole). :func:`parse` decodes a line, refusing ``NaN``, numbers
of thousands of digits and nesting deep enough to exhaust Python's
recursion; :func:`check` then checks every field a reader uses, its type
and its bounds, so that what comes after can use the values without
looking again. A :class:`Census` counts the different things the lines
name, across the whole file (scoring entries, features, cards, actions,
agents…), and stops at the line that names more of a kind than
:data:`LIMITS` allows, so that whatever a reader does for each of them
stays bounded. Every refusal is a :class:`LineProblem` whose message starts
with the file and line. Imports: the standard library, and the bounds of
game records (:mod:`.record`).
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Iterator

from ..outfiles import special_kind
from ..play.record import MAX_PLAYERS, MAX_SCORE, MAX_SEED, MAX_TEXT, shown

FORMAT = 1  # the version written now; bumped when a field of a line changes meaning
READS = (1,)  # the versions this Rulebook reads
MAX_LINE = 16 * 1024 * 1024  # far more than any game's line (a few tens of KiB)
MAX_LIST = 1000  # mods, variants
MAX_AGENT = 200  # an agent spec, as records bound it
MAX_DEPTH = 4  # a feature's value: objects in objects at most this deep (one is usual)
SEAT_LISTS = ("score_parts", "played", "gained", "actions", "card_actions", "features")
# How many different things of each kind one results file may name, over all its lines.
# Real files name far fewer: the shipped rulesets' games, at every player count, with
# random and greedy agents and with every house rule, name at most 10 scoring entries,
# 13 feature keys, 12 feature values, 220 cards and 119 actions (a card's action counts
# as one); no ruleset declares more than 275 cards or 4 titles, and a run has an agent
# or two. A report does work for each (a test, a row, a plot), so a file past a limit is
# refused at the line that passes it, whatever it would have cost to read.
LIMITS = {
    "scoring entries": 1_000,   # keys of 'score_parts'
    "features": 10_000,         # feature ids, and the keys of features that are objects
    "feature values": 10_000,   # the texts and list items of each feature
    "cards": 10_000,            # keys of 'played' and 'gained'
    "actions": 10_000,          # keys of 'actions' and 'card_actions'
    "agents": 1_000,            # texts of 'agents'
    "titles": 1_000,            # texts of 'ranks'
    "evaluations": 1_000,       # entries of 'evaluations' (the weights each seat played with)
}
EVALUATIONS = ("learned", "written")
SHA256 = frozenset("0123456789abcdef")


class LineProblem(Exception):
    """A results file, or one of its lines, that cannot be used; the message has its place.

    ``place`` is ``FILE`` or ``FILE:LINE``; ``detail`` is what is wrong there.
    """

    def __init__(self, place: str, detail: str):
        super().__init__(f"{place}: {detail}")
        self.place, self.detail = place, detail


def refuse_special(path, shown_as: str) -> None:
    """Raise LineProblem when ``path`` exists and is not a regular file (links followed)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode):
        raise LineProblem(shown_as, f"it is {special_kind(mode)}, not a results file; give a "
                          "regular file")


def open_file(path, shown_as: str, append: bool = False):
    """``path`` opened to read in binary (or to append text), if it is a regular file.

    The file is opened without waiting (a pipe with nobody at its other end
    would hold the open forever) and then looked at: anything but a regular
    file is closed again and refused.
    """
    flags = (os.O_WRONLY | os.O_APPEND) if append else os.O_RDONLY
    flags |= getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        verb = "write" if append else "read"
        raise LineProblem(shown_as, f"cannot {verb} it: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise LineProblem(shown_as, f"it is {special_kind(mode)}, not a results file; give "
                              "a regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    if append:
        return os.fdopen(fd, "a", encoding="utf-8")
    return os.fdopen(fd, "rb")


def _size(n: int) -> str:
    return f"{n // 2 ** 20} MiB" if n >= 2 ** 20 else f"{n} bytes"


def lines(fh, shown_as: str, limit: int | None = None) -> Iterator[tuple[int, bytes]]:
    """``(number, raw line)`` for each line of an open file, its line end kept.

    A line longer than ``limit`` bytes (default :data:`MAX_LINE`) stops the
    reading with its place after ``limit`` bytes: a line that long was never
    written by Rulebook, and reading it whole could take all the memory.
    """
    limit = MAX_LINE if limit is None else limit
    number = 0
    while True:
        raw = fh.readline(limit + 1)
        if not raw:
            return
        number += 1
        if len(raw) > limit:
            raise LineProblem(f"{shown_as}:{number}", f"the line is longer than "
                              f"{_size(limit)}, far longer than any game's results; it is "
                              "not read")
        yield number, raw


class _Constant(ValueError):
    pass


def _refuse_constant(name: str):
    raise _Constant(name)


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def parse(raw: bytes, place: str) -> dict:
    """One line decoded as a JSON object; raises LineProblem with ``place``."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LineProblem(place, f"not UTF-8 text (byte {exc.start + 1})") from None
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise LineProblem(place, f"not a JSON object ({exc.msg.lower()} at column "
                          f"{exc.colno})") from None
    except RecursionError:
        raise LineProblem(place, "its JSON is nested too deeply to be a results line") \
            from None
    except _Constant as exc:
        raise LineProblem(place, f"it holds {exc}, which is not a JSON number") from None
    except ValueError:  # Python refuses to read an integer of thousands of digits
        raise LineProblem(place, "it holds a number of thousands of digits, which no results "
                          "line has") from None
    if not isinstance(value, dict):
        raise LineProblem(place, "not a JSON object")
    return value


# ------------------------------------------------------------------ checking a line
def whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def number(value) -> bool:
    """A finite number (not a truth value) no larger than the rules' own bound."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return -MAX_SCORE <= value <= MAX_SCORE


def _text(value, longest: int = MAX_TEXT) -> bool:
    return isinstance(value, str) and len(value) <= longest


def _optional_text(value) -> bool:
    return value is None or _text(value)


def players_of(line: dict) -> int | None:
    """The line's player count (from ``scores`` for lines written before the field)."""
    players = line.get("players")
    if players is None and isinstance(line.get("scores"), list):
        players = len(line["scores"])
    return players


def check(line: dict, place: str) -> None:
    """Check every field of a results line that a reader uses; raise LineProblem if one is bad.

    Fields a line does not have are fine where docs/results.md says they may
    be absent (lines from before a field existed); a line whose game stopped
    on a rule error (``error``) needs only what was known then.
    """
    def bad(message: str):
        raise LineProblem(place, message)

    fmt = line.get("format", 1)  # lines from before the field are version 1
    if not whole(fmt) or fmt not in READS:
        bad(f"results format {shown(fmt)} is not one this Rulebook reads (it reads format "
            f"{', '.join(map(str, READS))}); upgrade Rulebook")
    seed = line.get("seed")
    if not whole(seed):
        bad("missing field 'seed' (the game's seed, a whole number)")
    if not -MAX_SEED <= seed <= MAX_SEED:
        bad(f"'seed' should be a whole number from {-MAX_SEED} to {MAX_SEED}")
    players = players_of(line)
    if not whole(players) or not 1 <= players <= MAX_PLAYERS:
        bad(f"'players' should be a whole number from 1 to {MAX_PLAYERS}")
    _check_configuration(line, bad)
    error = line.get("error")
    if error is not None and not isinstance(error, str):
        bad("'error' should be text or null")
    _seat_list(line, "agents", players, bad, required=True)
    if not all(_text(a, MAX_AGENT) for a in line["agents"]):
        bad(f"'agents' should hold an agent (text of at most {MAX_AGENT} characters) for "
            "each seat")
    _seat_list(line, "evaluations", players, bad)
    for entry in line.get("evaluations") or ():
        if entry is not None and not evaluation_entry(entry):
            bad("'evaluations' should hold, for each seat, null or an object: evaluation "
                "'learned' or 'written', and for learned weights their file (text), sha256 "
                "(64 hexadecimal digits), and the players, games and seed of their training "
                "(whole numbers)")
    for name in ("rounds", "decisions"):
        value = line.get(name)
        if value is not None and not (number(value) and value >= 0):
            bad(f"'{name}' should be a number from 0 to {MAX_SCORE}")
    for name in ("finished", "solo_won"):
        if line.get(name) is not None and not isinstance(line[name], bool):
            bad(f"'{name}' should be true, false or null")
    if not _optional_text(line.get("final_hash")):
        bad("'final_hash' should be text")
    if error:
        return  # the other fields hold only what was known when the game stopped
    _seat_list(line, "scores", players, bad, required=True)
    if not all(number(s) for s in line["scores"]):
        bad(f"'scores' should hold a number from {-MAX_SCORE} to {MAX_SCORE} for each seat")
    winners = line.get("winners")
    if not isinstance(winners, list) or len(winners) > players or not all(
            whole(w) and 1 <= w <= players for w in winners) or len(set(winners)) < len(winners):
        bad(f"missing or malformed field 'winners' (the seat numbers that won, from 1 to "
            f"{players}, each once)")
    ranks = line.get("ranks")
    if ranks is not None and not (isinstance(ranks, list) and len(ranks) <= players
                                  and all(_optional_text(r) for r in ranks)):
        bad("'ranks' should list a title (text) or null for each seat")
    for name in SEAT_LISTS:
        if line.get(name) is None:
            continue
        _seat_list(line, name, players, bad)
        for seat in line[name]:
            if not isinstance(seat, dict):
                bad(f"'{name}' should hold an object for each seat")
            if seat and max(map(len, seat)) > MAX_TEXT:
                bad(f"'{name}' names something with more than {MAX_TEXT} characters")
            if name == "features":
                if not all(_feature(v, 1) for v in seat.values()):
                    bad(f"'features' should give each feature a number (from {-MAX_SCORE} "
                        f"to {MAX_SCORE}), a truth value, text, a list of those, or an "
                        f"object of those (objects at most {MAX_DEPTH} deep)")
            elif not _plain_counts(seat.values()) and not all(
                    v is None or number(v) for v in seat.values()):
                bad(f"'{name}' should give a number from {-MAX_SCORE} to {MAX_SCORE} for "
                    "each entry")


def evaluation_entry(entry) -> bool:
    """Whether one seat's entry of 'evaluations' has the shape docs/results.md gives."""
    if not isinstance(entry, dict) or entry.get("evaluation") not in EVALUATIONS:
        return False
    if entry["evaluation"] == "written":
        return set(entry) == {"evaluation"}
    sha = entry.get("sha256")
    return set(entry) <= {"evaluation", "file", "sha256", "players", "games", "seed"} \
        and _text(entry.get("file")) and isinstance(sha, str) and len(sha) == 64 \
        and set(sha) <= SHA256 and all(
            entry.get(k) is None or whole(entry[k]) and -MAX_SEED <= entry[k] <= MAX_SEED
            for k in ("players", "games", "seed"))


def evaluation_key(entry) -> str:
    """One seat's entry of 'evaluations' as one text (to compare and count them)."""
    return json.dumps(entry, sort_keys=True)


def _plain_counts(values) -> bool:
    """Whether every value is a whole number within the bound: the usual case, at C speed."""
    values = list(values)
    return not values or (set(map(type, values)) == {int}
                          and -MAX_SCORE <= min(values) and max(values) <= MAX_SCORE)


def _check_configuration(line: dict, bad) -> None:
    """The fields that say what the games were: ruleset, mods, variants."""
    rs = line.get("ruleset")
    if rs is not None and not (isinstance(rs, dict) and all(
            _optional_text(rs.get(k)) for k in ("id", "name", "version", "content_hash"))):
        bad("'ruleset' should be an object whose id, name, version and content_hash are text")
    mods = line.get("mods")
    if mods is not None:
        if not isinstance(mods, list) or len(mods) > MAX_LIST:
            bad(f"'mods' should be a list of at most {MAX_LIST} mods")
        for mod in mods:
            if not (_text(mod) or isinstance(mod, dict) and all(
                    _optional_text(mod.get(k)) for k in ("id", "file", "content_hash"))):
                bad("'mods' should hold an object for each mod, whose id, file and "
                    "content_hash are text")
    variants = line.get("variants")
    if variants is not None and not (isinstance(variants, list) and len(variants) <= MAX_LIST
                                     and all(_text(v) for v in variants)):
        bad(f"'variants' should be a list of at most {MAX_LIST} variant ids (text)")


def _seat_list(line: dict, name: str, players: int, bad, required: bool = False) -> None:
    value = line.get(name)
    if value is None and not required:
        return
    if not isinstance(value, list):
        bad(f"missing field '{name}' (a list with one entry per seat)" if value is None else
            f"'{name}' should be a list with one entry per seat")
    if len(value) != players:
        bad(f"'{name}' lists {len(value)} seats for a {players}-player game")


def _feature(value, depth: int) -> bool:
    if value is None or isinstance(value, bool) or _text(value):
        return True
    if isinstance(value, (int, float)):
        return number(value)
    if depth >= MAX_DEPTH:
        return False
    if isinstance(value, list):  # a list of cards or things: ids, or plain values
        return all(v is None or isinstance(v, bool) or _text(v) or number(v) for v in value)
    if isinstance(value, dict):
        return all(len(k) <= MAX_TEXT and _feature(v, depth + 1) for k, v in value.items())
    return False


# ------------------------------------------------------------------ across the lines
class Census:
    """The different things a file's lines name, kind by kind, held to :data:`LIMITS`.

    :meth:`add` takes each line after :func:`check` has passed it; the line
    that makes a kind pass its limit is refused with its place. Each name is
    counted once, so the work is linear in the file.
    """

    def __init__(self, limits: dict | None = None):
        self.limits = dict(LIMITS if limits is None else limits)
        self.seen: dict[str, set] = {kind: set() for kind in self.limits}

    def add(self, line: dict, place: str) -> None:
        for kind, names in _named(line):
            seen, limit = self.seen[kind], self.limits[kind]
            seen.update(names)
            if len(seen) > limit:
                raise LineProblem(place, f"by this line the file names {len(seen):,} "
                                  f"different {kind}, more than the {limit:,} a results file "
                                  "may name (no ruleset has nearly that many)")


def _named(line: dict):
    """``(kind, names)`` for what a checked line names; a game stopped by an error names
    only its agents (its other fields are not checked)."""
    yield "agents", line["agents"]
    yield "evaluations", [evaluation_key(e) for e in line.get("evaluations") or ()
                          if e is not None]
    if line.get("error"):
        return
    yield "titles", [r for r in line.get("ranks") or () if r is not None]
    for kind, fields in (("scoring entries", ("score_parts",)),
                         ("cards", ("played", "gained")),
                         ("actions", ("actions", "card_actions"))):
        for name in fields:
            for seat in line.get(name) or ():
                yield kind, seat.keys()
    for seat in line.get("features") or ():
        paths: set = set()
        values: set = set()
        for fid, value in seat.items():
            _feature_names((fid,), value, paths, values)
        yield "features", paths
        yield "feature values", values


def _feature_names(path: tuple, value, paths: set, values: set) -> None:
    """The paths (a feature id, then the key of each object it is inside) and the values
    (a text, or an item of a list, with its path) of one feature of one seat."""
    if isinstance(value, dict):
        for key, sub in value.items():
            _feature_names(path + (key,), sub, paths, values)
        return
    paths.add(path)
    if isinstance(value, str):
        values.add((path, value))
    elif isinstance(value, list):
        values.update((path, str(v)) for v in value if v is not None)
