"""Read a results file (``simulate --out``) line by line into compact columns.

A results file has one JSON object per game (the format is in
docs/results.md). :func:`read` goes through it once, checking each line as
it comes, and keeps only the figures the report needs, as flat arrays over
*player-games* (one entry per seat of each game): score, whether that seat
won, its agent, its points by scoring entry, and, for each card played or
gained, each action taken and each feature value, the list of player-games
that had it. A 10,000-game file is never held as parsed lines.

Every problem names its place: ``FILE:LINE: not a JSON object``, an unknown
format version, a missing or malformed field. Lines whose game stopped on a
rule error are counted and listed, not analysed. A file that mixes
configurations (another ruleset content, player count, mods or variants) is
refused, since its figures would mean nothing together.
"""

from __future__ import annotations

import json
import math
from array import array
from dataclasses import dataclass, field
from pathlib import Path

FORMATS = (1,)  # the versions this reader understands
_SEAT_LISTS = ("score_parts", "played", "gained", "actions", "card_actions", "features")
# the kinds of items a player-game may have; a list feature's items have the kind
# ("feature", ID, ...)
ITEM_KINDS = ("played", "gained", "actions", "card_actions")


class ResultsProblem(Exception):
    """A results file that cannot be read; the message starts with its place."""


@dataclass
class Results:
    path: str
    ruleset: dict = field(default_factory=dict)   # the first line's {"id", "name", ...}
    mods: list = field(default_factory=list)      # as the first line gives them
    variants: list = field(default_factory=list)
    players: int = 0
    lines: int = 0
    errors: list = field(default_factory=list)    # (line, seed, message)
    skipped: list = field(default_factory=list)   # (line, why) for torn lines
    unfinished: int = 0
    present: set = field(default_factory=set)     # optional fields some line had
    # per game
    seeds: list = field(default_factory=list)
    rounds: array = field(default_factory=lambda: array("d"))
    decisions: array = field(default_factory=lambda: array("d"))
    # per player-game
    pg_game: array = field(default_factory=lambda: array("i"))
    pg_seat: array = field(default_factory=lambda: array("i"))
    pg_score: array = field(default_factory=lambda: array("d"))
    pg_won: array = field(default_factory=lambda: array("b"))
    pg_agent: list = field(default_factory=list)
    pg_rank: list = field(default_factory=list)
    parts: dict = field(default_factory=dict)     # entry id -> array per player-game
    items: dict = field(default_factory=dict)     # (kind, id) -> array of player-games
    # features by path (its id, then the key of each object it is inside)
    categories: dict = field(default_factory=dict)  # path -> {value: array of pgs}
    numbers: dict = field(default_factory=dict)   # path -> {pg: value}

    @property
    def games(self) -> int:
        return len(self.seeds)

    @property
    def player_games(self) -> int:
        return len(self.pg_game)


def read(path: str | Path) -> Results:
    """The figures of every game in ``path``; raises ResultsProblem with a place."""
    res = Results(str(path))
    first: tuple | None = None
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise ResultsProblem(f"{path}: cannot read it: {exc.strerror or exc}") from None
    with fh:
        pending = None
        for number, raw in enumerate(fh, 1):
            if pending:  # a line that did not parse, and was not the last
                raise ResultsProblem(pending)
            res.lines = number
            if not raw.strip():
                continue
            place = f"{path}:{number}"
            try:
                line = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                raise ResultsProblem(f"{place}: not UTF-8 text") from None
            except ValueError:
                if not raw.endswith(b"\n"):  # cut short by an interrupted run
                    res.skipped.append((number, "the last line is cut short"))
                    continue
                pending = f"{place}: not a JSON object"
                continue
            if not isinstance(line, dict):
                raise ResultsProblem(f"{place}: not a JSON object")
            key = _configuration(line, place)
            if first is None:
                first = (number, key)
                res.ruleset = line.get("ruleset") if isinstance(line.get("ruleset"), dict) else {}
                res.mods = list(line.get("mods") or [])
                res.variants = list(line.get("variants") or [])
                res.players = key[1]
            else:
                _same(first, key, place)
            _add(res, line, place)
        if pending:
            raise ResultsProblem(pending)
    if first is None:
        raise ResultsProblem(f"{path}: holds no games")
    _finish_parts(res)
    return res


# ------------------------------------------------------------------ one line
def _configuration(line: dict, place: str) -> tuple:
    fmt = line.get("format", 1)  # files from before the field are version 1
    if fmt not in FORMATS:
        raise ResultsProblem(f"{place}: results format {fmt!r} is not one this Rulebook reads "
                             f"(it reads format {', '.join(map(str, FORMATS))}); "
                             "upgrade Rulebook")
    seed = line.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ResultsProblem(f"{place}: missing field 'seed' (the game's seed, a whole number)")
    scores = line.get("scores")
    players = line.get("players")
    if players is None:
        players = len(scores) if isinstance(scores, list) else 0
    if not isinstance(players, int) or isinstance(players, bool) or players < 1:
        raise ResultsProblem(f"{place}: 'players' should be a whole number of at least 1")
    rs = line.get("ruleset")
    ruleset = ((rs.get("content_hash") or rs.get("id")) if isinstance(rs, dict) else None)
    mods = tuple(m.get("content_hash") or m.get("id") or m.get("file")
                 if isinstance(m, dict) else str(m) for m in line.get("mods") or [])
    variants = tuple(sorted(str(v) for v in line.get("variants") or []))
    return (ruleset, players, mods, variants)


_WHAT = ("ruleset content", "player count", "mods", "variants")


def _same(first: tuple, key: tuple, place: str) -> None:
    line, base = first
    for what, a, b in zip(_WHAT, key, base):
        if a != b:
            shown = {"player count": lambda v: str(v),
                     "mods": lambda v: ", ".join(map(str, v)) or "none",
                     "variants": lambda v: ", ".join(v) or "none"}.get(what, lambda v: str(v))
            raise ResultsProblem(
                f"{place}: this game was played with other {what} than line {line} "
                f"({shown(a)} here, {shown(b)} there); a report reads the games of one "
                "configuration: write each configuration to its own file")


def _add(res: Results, line: dict, place: str) -> None:
    players = res.players
    if line.get("error"):
        res.errors.append((int(place.rsplit(":", 1)[1]), line["seed"], str(line["error"])))
        return
    scores = _seat_list(line, "scores", players, place, required=True)
    for s in scores:
        if not _is_number(s):
            raise ResultsProblem(f"{place}: 'scores' should hold a number for each seat")
    winners = line.get("winners")
    if not isinstance(winners, list) or not all(
            isinstance(w, int) and not isinstance(w, bool) and 1 <= w <= players
            for w in winners):
        raise ResultsProblem(f"{place}: missing or malformed field 'winners' (the seat "
                             f"numbers that won, from 1 to {players})")
    agents = _seat_list(line, "agents", players, place, required=True)
    ranks = line.get("ranks") if isinstance(line.get("ranks"), list) else []
    seat_lists = {}
    for name in _SEAT_LISTS:
        if name in line and line[name] is not None:
            got = _seat_list(line, name, players, place)
            if not all(isinstance(x, dict) for x in got):
                raise ResultsProblem(f"{place}: '{name}' should hold an object for each seat")
            seat_lists[name] = got
            res.present.add(name)
    game = res.games
    res.seeds.append(line["seed"])
    if line.get("finished") is False:
        res.unfinished += 1
    for name, column in (("rounds", res.rounds), ("decisions", res.decisions)):
        value = line.get(name)
        column.append(float(value) if _is_number(value) else math.nan)
        if _is_number(value):
            res.present.add(name)
    won = set(winners)
    if players == 1 and not winners and line.get("solo_won"):
        won = {1}
    for seat in range(players):
        pg = len(res.pg_game)
        res.pg_game.append(game)
        res.pg_seat.append(seat)
        res.pg_score.append(float(scores[seat]))
        res.pg_won.append(1 if seat + 1 in won else 0)
        res.pg_agent.append(str(agents[seat]))
        rank = ranks[seat] if seat < len(ranks) else None
        res.pg_rank.append(str(rank) if rank is not None else None)
        if "score_parts" in seat_lists:
            for entry, points in seat_lists["score_parts"][seat].items():
                if _is_number(points):
                    column = res.parts.setdefault(str(entry), array("d"))
                    column.extend([math.nan] * (pg - len(column)))
                    column.append(float(points))
        for kind in ITEM_KINDS:
            for item, times in seat_lists.get(kind, [{}] * players)[seat].items():
                if times:
                    res.items.setdefault((kind, str(item)), array("i")).append(pg)
        for fid, value in (seat_lists.get("features", [{}] * players)[seat]).items():
            _feature(res, (str(fid),), value, pg)


def _feature(res: Results, fid: tuple, value, pg: int) -> None:
    """File one feature value: a category, a set of items, a number, or an object of those.

    ``fid`` is the feature's path: its id, then a key for each object it is inside.
    """
    if value is None:
        return
    if isinstance(value, str):
        res.categories.setdefault(fid, {}).setdefault(value, array("i")).append(pg)
    elif isinstance(value, bool):
        res.numbers.setdefault(fid, {})[pg] = 1.0 if value else 0.0
    elif _is_number(value):
        res.numbers.setdefault(fid, {})[pg] = float(value)
    elif isinstance(value, list):
        for item in dict.fromkeys(str(v) for v in value if v is not None):
            res.items.setdefault((("feature",) + fid, item), array("i")).append(pg)
    elif isinstance(value, dict):
        for key, sub in value.items():
            _feature(res, fid + (str(key),), sub, pg)


def _seat_list(line: dict, name: str, players: int, place: str, required=False) -> list:
    value = line.get(name)
    if value is None and not required:
        return [{}] * players
    if not isinstance(value, list):
        raise ResultsProblem(f"{place}: missing field '{name}' (a list with one entry per seat)"
                             if value is None else
                             f"{place}: '{name}' should be a list with one entry per seat")
    if len(value) != players:
        raise ResultsProblem(f"{place}: '{name}' lists {len(value)} seats for a "
                             f"{players}-player game")
    return value


def _is_number(value) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def _finish_parts(res: Results) -> None:
    """Pad each scoring-entry column to one value per player-game (nan where absent)."""
    n = res.player_games
    for column in res.parts.values():
        column.extend([math.nan] * (n - len(column)))
