"""What a finished game tells a results file: each seat's doings and declared features.

During play the engine keeps a tally in the state (rolled back with refused
actions, never part of the state's hash): the cards that entered play for each
seat, the cards that came into each seat's hands (zones that record
``played`` or ``gained``), and the flow and card actions each seat took. At
the end, :func:`game_facts` turns that tally, the points of each scoring
entry and the ruleset's declared ``features:`` into plain JSON data, seat by
seat, for ``simulate --out`` (the format is in docs/results.md).
"""

from __future__ import annotations

from pathlib import Path

from ..lang import types as T
from ..load.tree import name_from
from .results_file import FORMAT
from ..engine.state import CardRef

TALLIES = (("played", "played"), ("gained", "gained"), ("actions", "action"),
           ("card_actions", "card_action"))


def game_facts(game, result) -> dict:
    """The per-seat lists of a results line: tallies, score parts and features."""
    out = {name: [{} for _ in range(game.n)] for name, _ in TALLIES}
    field_of = {what: name for name, what in TALLIES}
    for (what, seat, ident), times in sorted(game.state.tally.items()):
        if times and 0 <= seat < game.n and what in field_of:
            out[field_of[what]][seat][ident] = times
    out["score_parts"] = [dict(parts) for parts in result.score_parts]
    out["features"] = [features_of(game, seat) for seat in range(game.n)]
    return out


def features_of(game, seat: int) -> dict:
    """The ruleset's declared features for one seat, as JSON values."""
    rs = game.rs
    values = {}
    for ident, entry in rs.sections["features"].items():
        kind = getattr(rs.asts.get(("feature", ident)), "type", None)
        if "each" in entry.data:
            each_kind = getattr(rs.asts.get(("feature", ident, "each")), "type", None)
            elem = each_kind.elem if isinstance(each_kind, T.ListType) else None
            per = {}
            for item in game.run_code(("feature", ident, "each"), game.frame(seat)) or []:
                frame = game.frame(seat)
                frame.vars[entry.data["as"]] = item
                key = encode(game, item, elem)
                per[str(key)] = encode(game, game.run_code(("feature", ident), frame), kind)
            values[ident] = per
        else:
            values[ident] = encode(game, game.run_code(("feature", ident), game.frame(seat)),
                                   kind)
    return values


def encode(game, value, kind=None):
    """A rule value as JSON: cards by id, players by seat number (from 1), ids as text."""
    if value is None:
        return None
    if isinstance(kind, T.ListType) or isinstance(value, (list, tuple)):
        elem = kind.elem if isinstance(kind, T.ListType) else None
        return [encode(game, v, elem) for v in value]
    if isinstance(value, bool):
        return value
    if kind == T.CARD or isinstance(value, CardRef):
        return game.state.cards[value].def_id
    if kind == T.PLAYER:
        return int(value) + 1
    if isinstance(value, (int, float, str)):
        return value
    ident = getattr(value, "id", None)  # a space or another declared thing
    return ident if isinstance(ident, str) else str(value)


def results_context(rs, variants, players: int, folder=None, kinds=None) -> dict:
    """What every line of a results file says about the games it is one of.

    ``folder`` is the results file's folder: each mod's file is written
    relative to it, with '/' separators, the way a game record names its
    mods, since that is the only place a report looks for them. With the
    seats' agent specs (``kinds``), ``evaluations`` says by seat what each
    agent judged positions by: the learned weights (their file from the
    ruleset's folder, sha256, and the player count, games and seed of the fit
    used), the hand-written evaluation, or nothing (null).
    """
    mods = []
    for m in rs.mod_info:
        mod = dict(m)
        if folder is not None and mod.get("file"):
            mod["file"] = name_from(Path(folder), mod["file"])
        mods.append(mod)
    out = {"format": FORMAT,
           "ruleset": {"id": rs.id, "name": rs.name, "version": rs.version,
                       "content_hash": rs.content_hash},
           "mods": mods, "variants": sorted(variants), "players": players}
    if kinds is not None:
        from ..agents.learned import seat_evaluation
        out["evaluations"] = [seat_evaluation(rs, str(k), players) for k in kinds]
    return out
