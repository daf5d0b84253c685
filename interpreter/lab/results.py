"""Read a results file (``simulate --out``) line by line into compact columns.

A results file has one JSON object per game (the format is in
docs/results.md). :func:`read` goes through it once, checking each line as
it comes, and keeps only the figures the report needs, as flat arrays over
*player-games* (one entry per seat of each game): score, whether that seat
won, its agent, its points by scoring entry, and, for each card played or
gained, each action taken and each feature value, the list of player-games
that had it. A 10,000-game file is never held as parsed lines.

Every problem names its place: ``FILE:LINE: not a JSON object``, an unknown
format version, a missing or malformed field, more different cards (or
scoring entries, features…) than any ruleset has (the checks every reader of
a results file shares are in :mod:`rulebook_games.sim.results_file`). Lines whose game stopped on a
rule error are counted and listed, not analysed. A file that mixes
configurations (another ruleset content, player count, mods or variants) is
refused, since its figures would mean nothing together.
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field
from pathlib import Path

from ..sim.results_file import SEAT_LISTS as _SEAT_LISTS
from ..sim.results_file import (Census, LineProblem, check, evaluation_key, lines,
                                open_file, parse, players_of)
# the kinds of items a player-game may have; a list feature's items have the kind
# ("feature", ID, ...)
ITEM_KINDS = ("played", "gained", "actions", "card_actions")


class ResultsProblem(Exception):
    """A results file that cannot be read; the message starts with its place."""


@dataclass
class Results:
    path: str
    first_line: int = 0                           # the line the fields below come from
    ruleset: dict = field(default_factory=dict)   # the first line's {"id", "name", ...}
    mods: list = field(default_factory=list)      # as the first line gives them
    variants: list = field(default_factory=list)
    players: int = 0
    lines: int = 0
    errors: list = field(default_factory=list)    # (line, seed, message)
    skipped: list = field(default_factory=list)   # (line, why) for torn lines
    unfinished: int = 0
    present: set = field(default_factory=set)     # optional fields some line had
    # seat -> {text: entry}: what each seat's agent judged positions by ('evaluations'),
    # over the lines that say it (the learned weights' file and sha256…)
    evaluations: dict = field(default_factory=dict)
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
    # entry id -> (player-games, points): only the player-games that have the entry
    parts: dict = field(default_factory=dict)
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
    """The figures of every game in ``path``; raises ResultsProblem with a place.

    The file is read through :mod:`rulebook_games.sim.results_file`: a regular
    file only, lines of bounded length, each line's fields checked before use.
    """
    res = Results(str(path))
    census = Census()
    first: tuple | None = None
    try:
        with open_file(path, str(path)) as fh:
            for number, raw in lines(fh, str(path)):
                res.lines = number
                if not raw.strip():
                    continue
                place = f"{path}:{number}"
                try:
                    line = parse(raw, place)
                except LineProblem:
                    if raw.endswith(b"\n"):
                        raise
                    # only the last line can lack its line end: cut short by an interrupted run
                    res.skipped.append((number, "the last line is cut short"))
                    continue
                check(line, place)
                census.add(line, place)
                key = _configuration(line)
                if first is None:
                    first = (number, key)
                    res.first_line = number
                    res.ruleset = line.get("ruleset") or {}
                    res.mods = list(line.get("mods") or [])
                    res.variants = list(line.get("variants") or [])
                    res.players = key[1]
                else:
                    _same(first, key, place)
                _add(res, line, number)
    except LineProblem as exc:
        raise ResultsProblem(str(exc)) from None
    if first is None:
        raise ResultsProblem(f"{path}: holds no games")
    return res


# ------------------------------------------------------------------ one line
def _configuration(line: dict) -> tuple:
    """What a line says about the games it is one of (its fields are checked already)."""
    rs = line.get("ruleset") or {}
    ruleset = rs.get("content_hash") or rs.get("id")
    mods = tuple(m.get("content_hash") or m.get("id") or m.get("file")
                 if isinstance(m, dict) else m for m in line.get("mods") or [])
    variants = tuple(sorted(line.get("variants") or []))
    return (ruleset, players_of(line), mods, variants)


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


def _add(res: Results, line: dict, number: int) -> None:
    players = res.players
    if line.get("evaluations") is not None:
        res.present.add("evaluations")
        for seat, entry in enumerate(line["evaluations"]):
            res.evaluations.setdefault(seat, {})[evaluation_key(entry)] = entry
    if line.get("error"):  # kept to be listed: its start is enough
        res.errors.append((number, line["seed"], _cut(line["error"])))
        return
    scores, winners, agents = line["scores"], line["winners"], line["agents"]
    ranks = line.get("ranks") or []
    seat_lists = {}
    for name in _SEAT_LISTS:
        if line.get(name) is not None:
            seat_lists[name] = line[name]
            res.present.add(name)
    game = res.games
    res.seeds.append(line["seed"])
    if line.get("finished") is False:
        res.unfinished += 1
    for name, column in (("rounds", res.rounds), ("decisions", res.decisions)):
        value = line.get(name)
        column.append(float(value) if value is not None else math.nan)
        if value is not None:
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
        res.pg_agent.append(agents[seat])
        rank = ranks[seat] if seat < len(ranks) else None
        res.pg_rank.append(rank)
        if "score_parts" in seat_lists:
            for entry, points in seat_lists["score_parts"][seat].items():
                if points is not None:
                    pgs, values = res.parts.setdefault(entry, (array("i"), array("d")))
                    pgs.append(pg)
                    values.append(float(points))
        for kind in ITEM_KINDS:
            for item, times in seat_lists.get(kind, [{}] * players)[seat].items():
                if times:
                    res.items.setdefault((kind, item), array("i")).append(pg)
        for fid, value in (seat_lists.get("features", [{}] * players)[seat]).items():
            _feature(res, (fid,), value, pg)


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
    elif isinstance(value, (int, float)):  # checked finite and bounded when read
        res.numbers.setdefault(fid, {})[pg] = float(value)
    elif isinstance(value, list):
        for item in dict.fromkeys(str(v) for v in value if v is not None):
            res.items.setdefault((("feature",) + fid, item), array("i")).append(pg)
    elif isinstance(value, dict):
        for key, sub in value.items():
            _feature(res, fid + (str(key),), sub, pg)


def _cut(text: str, longest: int = 300) -> str:
    return text if len(text) <= longest else text[:longest - 1] + "…"
