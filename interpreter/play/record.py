"""Game records: everything needed to replay a game exactly, saved as JSON.

A record holds the ruleset id, version and content hash, the mods, the
player count, variants, agents, the seed and every decision's answer, and,
once the game is over, the final state hash. Replaying feeds the answers
back in order and checks the hash. A record made with a different ruleset
content is refused with a clear message rather than replayed wrongly.

Records are untrusted input: loading one checks every field's type and
bounds and reports a bad one at its line and column in the file. Saving
writes a temporary file beside the target and renames it over, so a record
on disk is always either the old one or the whole new one.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.state import MAX_SEED
from ..lang.runtime import MAX_INT
from ..load.userfiles import Unreadable, read_regular
from .jsonplaces import JsonProblem, Member, read_object

FORMAT = "rulebook-record/2"
# a record of format 1 was made before the engine remembered what it refused at a
# position (engine/refusals.py): its game is replayed, and played on, as it was made
OLD_FORMAT = "rulebook-record/1"
MAX_BYTES = 16 * 1024 * 1024  # far more than any game's record; a bigger file is refused
MAX_PLAYERS = 100
MAX_ANSWER = MAX_INT  # an answer is an option's index or a number the rules bound
MAX_SCORE = MAX_INT
MAX_TEXT = 1000

_ID = re.compile(r"[a-z][a-z0-9_]{0,63}\Z")
_HASH = re.compile(r"[0-9a-f]{64}\Z")


class RecordError(Exception):
    """A record that cannot be used, at a line and column of its file (and its field)."""

    def __init__(self, path: str, message: str, line: int = 1, col: int = 1,
                 field: str | None = None):
        super().__init__(f"{path}:{line}:{col}: {message}")
        self.path, self.message, self.line, self.col = path, message, line, col
        self.field = field


def shown(value, limit: int = 40) -> str:
    """A value from a record as a message quotes it: JSON-escaped and cut short."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value) -> str | None:
    if not isinstance(value, str):
        return "must be text"
    if not value or len(value) > MAX_TEXT or "\0" in value:
        return f"must be text of 1 to {MAX_TEXT} characters"
    return None


def _check_id(value) -> str | None:
    if not isinstance(value, str) or not _ID.match(value):
        return "must be an id (lower case letters, digits and underscores)"
    return None


def _check_hash(value) -> str | None:
    if not isinstance(value, str) or not _HASH.match(value):
        return "must be a SHA-256 hash (64 hexadecimal digits)"
    return None


def _check_int(low: int, high: int):
    def check(value) -> str | None:
        if not _whole(value):
            return "must be a whole number"
        if not low <= value <= high:
            return f"must be from {low} to {high}"
        return None
    return check


def _check_version(value) -> str | None:
    if not isinstance(value, str) or len(value) > 40:
        return "must be text of at most 40 characters"
    return None


def _check_agent(value) -> str | None:
    from ..agents.specs import check_recorded  # as text only: a record never imports code
    return check_recorded(value)


# field name → (required, check of the whole value, check of each list item, or None)
_FIELDS = {
    "format": (True, None, None),
    "ruleset": (True, _check_id, None),
    "version": (True, _check_version, None),
    "content_hash": (True, _check_hash, None),
    "players": (True, _check_int(1, MAX_PLAYERS), None),
    "seed": (True, _check_int(-MAX_SEED, MAX_SEED), None),
    "agents": (True, None, _check_agent),
    "decisions": (True, None, _check_int(-MAX_ANSWER, MAX_ANSWER)),
    "mods": (False, None, _text),
    "variants": (False, None, _check_id),
    "final_hash": (False, _check_hash, None),
    "scores": (False, None, _check_int(-MAX_SCORE, MAX_SCORE)),
}
# the list fields, and how long each may be (decisions: as long as the file allows)
_LISTS = {"agents": MAX_PLAYERS, "decisions": None, "mods": 1000, "variants": 1000,
          "scores": MAX_PLAYERS}
_NULLABLE = {"final_hash", "scores"}


@dataclass
class Record:
    ruleset: str
    version: str
    content_hash: str
    players: int
    seed: int
    agents: list[str]
    decisions: list[int] = field(default_factory=list)
    mods: list[str] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)
    final_hash: str | None = None
    scores: list[int] | None = None
    format: str = FORMAT
    path: str | None = field(default=None, repr=False, compare=False)
    places: dict = field(default_factory=dict, repr=False, compare=False)

    def __repr__(self) -> str:
        # one line: a long game's record holds thousands of answers
        end = "finished" if self.final_hash else "unfinished"
        return (f"<Record {shown(self.ruleset)} seed {self.seed}, {self.players} players, "
                f"{len(self.decisions)} decisions, {end}>")

    @property
    def remembers_refusals(self) -> bool:
        """Whether its game was played remembering what was refused (format 2 on)."""
        return self.format != OLD_FORMAT

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in _FIELDS}

    def save(self, path: str | Path) -> None:
        """Write the record atomically: a temporary file beside it, synced, then renamed.

        Mods are written relative to the record's folder, with '/' separators:
        that is where ``session.load_for_record`` looks for them, and only there.
        """
        save_atomically(Path(path), self.text_for(path))

    def text_for(self, path: str | Path) -> str:
        """The record's JSON text as saved at ``path`` (its mods named from that folder)."""
        from ..load.tree import name_from
        data = self.to_dict()
        data["mods"] = [name_from(Path(path).parent, m) for m in self.mods]
        return json.dumps(data, indent=1) + "\n"

    def error(self, key: str, message: str, item: int | None = None) -> RecordError:
        """A problem with one field (or one item of a list field), placed in the file."""
        where = self.places.get(key)
        line, col = (1, 1)
        if where is not None:
            line, col = where.at
            if item is not None:
                line, col = where.item_at(item)
        return RecordError(self.path or "record", message, line, col, key)

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        p = str(path)
        try:
            raw = read_regular(path, MAX_BYTES)  # a pipe or a device is refused, not waited on
        except Unreadable as exc:
            raise RecordError(p, f"cannot read the record: {exc.message}") from None
        if len(raw) > MAX_BYTES:
            raise RecordError(p, f"the file is larger than {MAX_BYTES // 2 ** 20} MiB, far "
                              "more than any game's record; it is not read")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(p, f"the record is not UTF-8 text (byte {exc.start + 1})") from None
        text = text.removeprefix("\ufeff")  # a byte order mark some editors add
        try:
            members, start = read_object(text)
        except JsonProblem as exc:
            raise RecordError(p, f"not a valid record ({exc.message})", exc.line,
                              exc.col) from None
        fmt = members.get("format")
        if fmt is None or fmt.value not in (FORMAT, OLD_FORMAT):
            line, col = fmt.at if fmt else start
            raise RecordError(p, f"not a Rulebook game record (expected \"format\": "
                              f"\"{FORMAT}\")", line, col)
        missing = [k for k, (required, _, _) in _FIELDS.items()
                   if required and k not in members]
        if missing:
            raise RecordError(p, "the record is missing " + ", ".join(f'"{k}"' for k in missing),
                              *start)
        for key, member in members.items():
            if key not in _FIELDS:
                raise RecordError(p, f"unknown key {shown(key)}; a record has "
                                  f"{', '.join(_FIELDS)}", *member.key_at)
            _check_member(p, key, member)
        rec = cls(**{k: m.value for k, m in members.items()}, path=p, places=members)
        rec.mods = rec.mods or []
        rec.variants = rec.variants or []
        if len(rec.agents) != rec.players:
            raise rec.error("agents", f"lists {len(rec.agents)} agents for {rec.players} "
                            "players")
        if rec.scores is not None and len(rec.scores) != rec.players:
            raise rec.error("scores", f"lists {len(rec.scores)} scores for {rec.players} "
                            "players")
        seen: set[str] = set()
        for i, name in enumerate(rec.variants):
            if name in seen:
                raise rec.error("variants", f"names variant '{name}' twice", i)
            seen.add(name)
        return rec


def _check_member(path: str, key: str, member: Member) -> None:
    _, whole, each = _FIELDS[key]
    value = member.value
    if value is None and key in _NULLABLE:
        return
    if key in _LISTS:
        if not isinstance(value, list):
            raise RecordError(path, f"\"{key}\" must be a list, not {shown(value)}", *member.at)
        longest = _LISTS[key]
        if longest is not None and len(value) > longest:
            raise RecordError(path, f"\"{key}\" lists {len(value)} items; at most {longest} "
                              "make sense", *member.at)
        if key == "decisions" and _plain_numbers(value, MAX_ANSWER):
            return  # the usual case, checked at C speed
        for i, item in enumerate(value):
            problem = each(item)
            if problem:
                raise RecordError(path, f"item {i + 1} of \"{key}\" {problem} (it is "
                                  f"{shown(item)})", *member.item_at(i))
        return
    problem = whole(value) if whole else None
    if problem:
        raise RecordError(path, f"\"{key}\" {problem} (it is {shown(value)})", *member.at)


def _plain_numbers(values: list, bound: int) -> bool:
    """Whether every item is an int (not a bool) of magnitude at most ``bound``."""
    return (all(type(v) is int for v in values)
            and (not values or (-bound <= min(values) and max(values) <= bound)))


def save_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old file or the new one."""
    folder = path.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable where the system allows it
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
