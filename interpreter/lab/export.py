"""Results files as tables: ``rulebook export`` writes long-format CSV or Parquet.

A results file (docs/results.md) holds one JSON line per game, with lists by
seat and objects of counts inside them. Tools such as pandas, R or a
spreadsheet want flat tables, so an export writes two:

- the *players* table, one row per player and game (the game's line, seed,
  ruleset, mods, variants, player count, then the seat's agent, score, whether
  it won, its title, the game's rounds and decisions, and one column per
  scoring entry (``points.ENTRY``) and per feature whose value is a number, a
  truth value or a text (``feature.ID``, ``feature.ID.KEY`` for a feature that
  gives an object); the totals of cards played and gained and actions taken);
- the *items* table, one row per thing a player had in a game: each card
  played or gained, each action and card action taken, and each item of a
  feature that gives a list, with its id, its name in the ruleset beside it,
  and how many times. It joins the players table on ``line`` and ``seat``.

The file is read as every reader reads it (:mod:`rulebook_games.sim.results_file`):
a regular file only, bounded lines, every field checked, a bounded number of
different names, and each problem a :class:`~rulebook_games.sim.results_file.LineProblem`
with its file and line. Unlike ``report``, an export takes the games of
several configurations together: each row says its own. Names come from the
ruleset the first line names (:mod:`.names`), for the rows of that ruleset.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from pathlib import Path

from ..sim.results_file import (Census, LineProblem, check, lines, open_file, parse,
                                players_of)

FORMATS = ("csv", "parquet")
# the columns every players table has, in order, and their kind
PLAYER_COLUMNS = (
    ("line", "int"), ("seed", "int"), ("ruleset", "text"), ("ruleset_name", "text"),
    ("ruleset_version", "text"), ("content_hash", "text"), ("mods", "text"),
    ("variants", "text"), ("players", "int"), ("seat", "int"), ("agent", "text"),
    ("score", "number"), ("won", "bool"), ("rank", "text"), ("solo_won", "bool"),
    ("rounds", "number"), ("decisions", "number"), ("finished", "bool"),
    ("error", "text"), ("record", "text"),
    ("played", "int"), ("gained", "int"), ("actions", "int"), ("card_actions", "int"))
ITEM_COLUMNS = (("line", "int"), ("seed", "int"), ("seat", "int"), ("kind", "text"),
                ("feature", "text"), ("id", "text"), ("name", "text"), ("times", "number"))
ITEM_KINDS = ("played", "gained", "actions", "card_actions")
# the first bytes of what an export writes: such a file may be written again
CSV_HEADS = (",".join(c for c, _ in PLAYER_COLUMNS[:4]).encode(),
             ",".join(c for c, _ in ITEM_COLUMNS[:4]).encode())
PARQUET_MARK = b"rulebook export"  # a key of the Parquet file's metadata
# a spreadsheet reads a cell beginning with these as a formula: a text cell of a CSV
# export that begins so gets a ' in front (docs/results.md, "Exporting")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class ExportProblem(Exception):
    """An export that cannot be made; the message is one line, with its place."""


@dataclass
class Table:
    """Columns of equal length, built row by row; a column added late is padded."""

    kinds: dict = field(default_factory=dict)     # column -> "int", "number", "bool", "text"
    columns: dict = field(default_factory=dict)   # column -> list of values
    rows: int = 0

    def add(self, row: dict) -> None:
        for name, value in row.items():
            column = self.columns.get(name)
            if column is None:
                column = self.columns[name] = [None] * self.rows
            column.append(value)
        self.rows += 1
        for column in self.columns.values():
            if len(column) < self.rows:
                column.append(None)


@dataclass
class Export:
    players: Table
    items: Table
    games: int = 0
    notes: list = field(default_factory=list)
    shared: dict = field(default_factory=dict)  # each id's one string


def read(path: str, names_for=None) -> Export:
    """The two tables of the results file at ``path``; raises ExportProblem with a place.

    ``names_for(info)`` gives the :class:`~.names.Names` for the ruleset the
    first line names (``info`` has ``ruleset``, ``mods``, ``path`` and
    ``first_line``), or None for ids only.
    """
    players, items = Table(), Table()
    for name, kind in PLAYER_COLUMNS:
        players.columns[name], players.kinds[name] = [], kind
    for name, kind in ITEM_COLUMNS:
        items.columns[name], items.kinds[name] = [], kind
    out = Export(players, items)
    census = Census()
    extra: dict[tuple, str] = {}   # (prefix, path) -> column name, for points and features
    values: dict[str, list] = {}   # feature column -> its values seen (to pick its kind)
    names = None
    first_rs = None
    try:
        with open_file(path, str(path)) as fh:
            for number, raw in lines(fh, str(path)):
                if not raw.strip():
                    continue
                place = f"{path}:{number}"
                try:
                    line = parse(raw, place)
                except LineProblem:
                    if raw.endswith(b"\n"):
                        raise
                    out.notes.append(f"{place}: line skipped: the last line is cut short")
                    continue
                check(line, place)
                census.add(line, place)
                rs = line.get("ruleset") or {}
                if out.games == 0:
                    first_rs = rs.get("id")
                    if names_for is not None:
                        names = names_for(_Info(str(path), number, rs,
                                                list(line.get("mods") or [])))
                        out.notes.extend(names.notes if names is not None else [])
                named = names if rs.get("id") == first_rs else None
                _add(out, line, number, named, extra, values)
                out.games += 1
    except LineProblem as exc:
        raise ExportProblem(str(exc)) from None
    if out.games == 0:
        raise ExportProblem(f"{path}: holds no games")
    for column, seen in values.items():
        players.kinds[column] = _kind_of(seen)
    return out


@dataclass
class _Info:
    """What :func:`~.names.for_results` reads of a results file."""

    path: str
    first_line: int
    ruleset: dict
    mods: list


def _add(out: Export, line: dict, number: int, names, extra: dict, values: dict) -> None:
    rs = line.get("ruleset") or {}
    count = players_of(line)
    error = line.get("error")
    won = set(line.get("winners") or []) if not error else set()
    if count == 1 and not won and line.get("solo_won"):
        won = {1}
    game = {"line": number, "seed": line["seed"], "ruleset": rs.get("id"),
            "ruleset_name": rs.get("name"), "ruleset_version": rs.get("version"),
            "content_hash": rs.get("content_hash"),
            "mods": ", ".join(_mod(m) for m in line.get("mods") or []),
            "variants": ", ".join(line.get("variants") or []), "players": count,
            "solo_won": line.get("solo_won"), "rounds": line.get("rounds"),
            "decisions": line.get("decisions"), "finished": line.get("finished"),
            "error": error, "record": line.get("record")}
    scores = line.get("scores") or []
    ranks = line.get("ranks") or []
    for seat in range(count):
        row = dict(game, seat=seat + 1, agent=line["agents"][seat],
                   score=scores[seat] if seat < len(scores) else None,
                   won=(seat + 1 in won) if not error else None,
                   rank=ranks[seat] if seat < len(ranks) else None)
        if not error:
            for entry, points in (_seat(line, "score_parts", seat)).items():
                row[_column(extra, "points", (entry,), out.players, "number")] = points
            for kind in ITEM_KINDS:
                counts = _seat(line, kind, seat)
                row[kind] = sum(t for t in counts.values() if t is not None) \
                    if kind in line and line[kind] is not None else None
                for ident, times in counts.items():
                    if times:
                        _item(out, line, number, seat, kind, None, ident,
                              _name(names, kind, ident), times)
            for fid, value in _seat(line, "features", seat).items():
                _feature(out, line, number, seat, row, (fid,), value, names, extra, values)
        out.players.add(row)


def _seat(line: dict, name: str, seat: int) -> dict:
    by_seat = line.get(name)
    return by_seat[seat] if by_seat is not None else {}


def _mod(mod) -> str:
    if isinstance(mod, dict):
        return str(mod.get("id") or mod.get("file") or "?")
    return str(mod)


def _column(extra: dict, prefix: str, path: tuple, table: Table, kind: str) -> str:
    """The column of a scoring entry or a feature, named the first time it is met.

    The name is the prefix and the path, dot-separated; a name already taken
    (a feature ``a.b`` beside a feature ``a`` with a key ``b``) gets ``#2``…
    """
    key = (prefix, path)
    name = extra.get(key)
    if name is None:
        base = ".".join((prefix,) + path)
        name, n = base, 1
        while name in table.columns:
            n += 1
            name = f"{base}#{n}"
        extra[key] = name
        table.columns[name] = [None] * table.rows
        table.kinds[name] = kind
    return name


def _feature(out, line, number, seat, row, path, value, names, extra, values) -> None:
    if isinstance(value, dict):
        for key, sub in value.items():
            _feature(out, line, number, seat, row, path + (str(key),), sub, names, extra,
                     values)
    elif isinstance(value, list):
        counts: dict[str, int] = {}
        for item in value:
            if item is not None:
                text = _text_of(item)
                counts[text] = counts.get(text, 0) + 1
        for ident, times in counts.items():
            _item(out, line, number, seat, "feature", ".".join(path), ident,
                  _name(names, "feature", ident), times)
    else:
        column = _column(extra, "feature", path, out.players, "text")
        values.setdefault(column, []).append(value)
        row[column] = value


def _text_of(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _item(out, line, number, seat, kind, feature, ident, name, times) -> None:
    ident = out.shared.setdefault(ident, ident)  # one string per id, however many rows
    out.items.add({"line": number, "seed": line["seed"], "seat": seat + 1, "kind": kind,
                   "feature": feature, "id": ident, "name": name, "times": times})


def _name(names, kind: str, ident: str) -> str | None:
    if names is None:
        return None
    cache = names.__dict__.setdefault("_export_names", {})
    key = (kind, ident)
    if key not in cache:  # looked up once per thing, not once per row
        name = names.item(kind, ident) if kind != "feature" else names.value(ident)
        cache[key] = str(name) if name != ident else None
    return cache[key]


def _kind_of(values: list) -> str:
    """A feature column's kind: bool, int, number, or text when its values are mixed."""
    seen = [v for v in values if v is not None]
    if seen and all(isinstance(v, bool) for v in seen):
        return "bool"
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in seen):
        return "int" if all(isinstance(v, int) for v in seen) else "number"
    return "text"


# ------------------------------------------------------------------ writing
def _cell(value, kind: str):
    """A value as its column's kind holds it (None stays None)."""
    if value is None:
        return None
    if kind == "text":
        return value if isinstance(value, str) else _text_of(value)
    if kind == "bool":
        return bool(value)
    if kind == "int" and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _number_kind(table: Table, name: str) -> str:
    """"number" columns whose values are all whole are written as whole numbers."""
    kind = table.kinds[name]
    if kind == "number" and all(v is None or isinstance(v, int) and not isinstance(v, bool)
                                or isinstance(v, float) and v.is_integer()
                                for v in table.columns[name]):
        return "int"
    return kind


def to_csv(table: Table) -> bytes:
    """The table as CSV (UTF-8, a header row, empty cells for nothing, true/false)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    names = list(table.columns)
    kinds = [_number_kind(table, n) for n in names]
    writer.writerow([_csv_cell(n, "text") for n in names])  # ids from the file, too
    columns = [table.columns[n] for n in names]
    for i in range(table.rows):
        writer.writerow([_csv_cell(col[i], kind) for col, kind in zip(columns, kinds)])
    return buf.getvalue().encode("utf-8")


def _csv_cell(value, kind: str) -> str:
    value = _cell(value, kind)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else ""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return str(value)


def to_parquet(table: Table, what: str) -> bytes:
    """The table as a Parquet file (pyarrow must be importable), typed column by column."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    types = {"int": pa.int64(), "number": pa.float64(), "bool": pa.bool_(),
             "text": pa.string()}
    fields, arrays = [], []
    for name, column in table.columns.items():
        kind = _number_kind(table, name)
        values = [_cell(v, kind) for v in column]
        if kind == "number":
            values = [None if v is None else float(v) for v in values]
        fields.append(pa.field(name, types[kind]))
        arrays.append(pa.array(values, type=types[kind]))
    schema = pa.schema(fields, metadata={PARQUET_MARK: what.encode()})
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_arrays(arrays, schema=schema), buf)
    return buf.getvalue()


def items_path(path: str | Path) -> Path:
    """Where the items table goes beside the players table: ``games.csv`` → ``games.items.csv``."""
    p = Path(path)
    return p.with_name(f"{p.stem}.items{p.suffix}") if p.suffix else p.with_name(
        f"{p.name}.items")


def is_own_output(path: str, head: bytes) -> bool:
    """Whether an existing file is one an export wrote (so it may be written again)."""
    if head.startswith(CSV_HEADS):
        return True
    if not head.startswith(b"PAR1"):
        return False
    try:  # the metadata is at the end of a Parquet file
        with open(path, "rb") as fh:
            fh.seek(0, 2)
            size = fh.tell()
            fh.seek(max(0, size - 65536))
            return PARQUET_MARK in fh.read()
    except OSError:
        return False
