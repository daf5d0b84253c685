"""Invariants every game must keep, whatever the ruleset: checked during simulations.

- every card is in exactly one zone, and knows which;
- stocks and production stay within their declared floors and capacities;
- tracks stay within their range; slotted zones hold no more than their slots;
- a player's pieces (resources declared ``piece: true``, in stock or on cards)
  are conserved;
- every invariant the ruleset declares under ``invariants`` holds.
"""

from __future__ import annotations

from ..lang.gensupport import reading

# Each check reads a game (an engine.game.Game) and imports nothing of it: the game's
# decisions and its flow call these checks, and a module never needs the one calling it.


class InvariantError(Exception):
    pass


def check_invariants(game) -> None:
    with reading(game):  # checking only reads: what the checks share is worked out once
        _check(game)


def _check(game) -> None:
    st = game.state
    seen: dict[int, tuple] = {}
    for key, cards in st.zones.items():
        decl = game.zone_decl[key[0]]
        if decl.get("slots") and len(cards) > decl["slots"]:
            raise InvariantError(f"zone {key[0]} holds {len(cards)} cards, more than its "
                                 f"{decl['slots']} slots")
        for c in cards:
            if c in seen:
                raise InvariantError(f"card {int(c)} is in two zones: {seen[c]} and {key}")
            seen[c] = key
            state = st.cards[c]
            if (state.zone, state.zone_owner) != key:
                raise InvariantError(f"card {int(c)} thinks it is in {state.zone} but sits in "
                                     f"{key[0]}")
    if len(seen) != len(st.cards):
        raise InvariantError(f"{len(st.cards) - len(seen)} card(s) are in no zone")
    piece_resources = [r for r, d in game.resource_decl.items() if d.get("piece")]
    if not hasattr(game, "_piece_totals"):
        game._piece_totals = None
    totals = []
    on_cards = [0] * len(st.players)  # each player's pieces on cards, in one pass
    if piece_resources:
        for c in st.cards.values():
            for seat, count in c.pieces.items():
                if 0 <= seat < len(on_cards):
                    on_cards[seat] += count
    for p in st.players:
        for rid, decl in game.resource_decl.items():
            have = p.stock.get(rid, 0)
            if have < int(decl.get("min", 0)):
                raise InvariantError(f"{p.name} has {have} {rid}, below its floor")
            cap = game.capacity(p.seat, rid)
            if have > cap:
                raise InvariantError(f"{p.name} has {have} {rid}, above its capacity {cap}")
            prod = decl.get("production")
            if prod:
                floor = prod.get("min", 0) if isinstance(prod, dict) else 0
                if p.production.get(rid, 0) < floor:
                    raise InvariantError(f"{p.name}'s {rid} production is below {floor}")
        for tid, value in p.tracks.items():
            _check_track(game, tid, value, p.name)
        totals.append(sum(p.stock.get(r, 0) for r in piece_resources) + on_cards[p.seat])
    for tid, value in st.tracks.items():
        _check_track(game, tid, value, "the game")
    if piece_resources:
        if game._piece_totals is None:
            game._piece_totals = totals
        elif totals != game._piece_totals:
            names = ", ".join(piece_resources)
            raise InvariantError(f"pieces ({names}) are not conserved: each player's total "
                                 f"was {game._piece_totals}, now {totals}")
    for c, state in st.cards.items():
        for res, count in state.resources.items():
            if count < 0:
                raise InvariantError(f"card {int(c)} holds {count} {res}")
    for iid, entry in game.rs.sections["invariants"].items():
        code = game.rs.code.get(("invariant", iid))
        if code is not None and not code(game.frame(None)):
            text = entry.data.get("description") or entry.data["holds"]
            raise InvariantError(f"{iid}: {text} ({entry.span('holds')})")


def _check_track(game, tid: str, value: int, who: str) -> None:
    decl = game.track_decl.get(tid, {})
    lo, hi = decl.get("min"), decl.get("max")
    if lo is not None and value < lo or hi is not None and value > hi:
        raise InvariantError(f"{tid} of {who} is {value}, outside {lo}..{hi}")
