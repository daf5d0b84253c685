"""A scenario's position, set directly: stocks, tracks, cards and tiles, with no effects.

A scenario's ``setup`` effect builds a position the way play would, so placing
a tile there pays its bonuses and fires triggers. ``position`` instead writes
the state itself: nothing is paid, rewarded, triggered or logged. It is
checked against the ruleset when the scenario file is loaded (every unknown
name is an error at its place, with a did-you-mean) and applied after the
recorded decisions.

Cards are named by id. A zone listed here holds exactly the listed cards, in
order; the cards it held before go back to their deck. A deck listed here has
the listed cards on top, in order (drawn first), and its other cards under them. Each listed card is a
copy already in that zone, else one from its deck, else a new copy: so two
players can each hold the same card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import numtext
from ..errors import Diagnostics, suggest
from ..span import Span
from ..engine.game import NO_OWNER, CardRef, CardState, Game


MAX_LISTED = 1000  # cards in one zone, or tiles: a file cannot make millions of copies


@dataclass
class CardPlacement:
    card: str
    owner: int | None = None  # seat index, for a card in a shared zone
    resources: dict = field(default_factory=dict)
    markers: list = field(default_factory=list)
    pieces: dict = field(default_factory=dict)  # seat index -> count


@dataclass
class Position:
    round: int | None = None
    phase: str | None = None
    turn: int | None = None  # seat index
    turn_order: list | None = None
    passed: list | None = None
    tracks: dict = field(default_factory=dict)
    players: dict = field(default_factory=dict)  # seat index -> {"stock", "production", ...}
    zones: list = field(default_factory=list)  # [(zone, owner seat or NO_OWNER, [CardPlacement])]
    tiles: list = field(default_factory=list)  # [(tile, space, owner seat or None, card id)]
    claimed: list = field(default_factory=list)  # [(track, reward index)]
    used: list = field(default_factory=list)  # [(seat, "action" | "card", id)]


class _Reader:
    """Checks one position mapping against the ruleset, reporting at each place."""

    def __init__(self, rs, doc, base: tuple, players: int, diags: Diagnostics):
        self.rs, self.doc, self.base, self.n, self.diags = rs, doc, base, players, diags
        self.ok = True

    def span(self, *path) -> Span:
        return self.doc.span(self.base + path)

    def error(self, message: str, path: tuple, hint: str | None = None) -> None:
        self.diags.error("RB401", message, self.span(*path), hint=hint)
        self.ok = False

    def seat(self, value: Any, path: tuple) -> int | None:
        try:  # a list item's number or a key's text: digits 0 to 9, within the seats
            return numtext.seat(value, self.n) - 1
        except numtext.NumberProblem as exc:
            self.diags.error("RB204", exc.message, self.span(*path))
            self.ok = False
            return None

    def known(self, section: str, ident: str, what: str, path: tuple) -> bool:
        names = self.rs.sections[section] if section != "cards" else self.rs.cards
        if ident in names:
            return True
        self.error(f"unknown {what} '{ident}'", path, suggest(ident, list(names)))
        return False

    def counts(self, data: dict, section: str, what: str, path: tuple, check=None) -> dict:
        out = {}
        kind = {"resources": "resource", "card_resources": "card_resource"}.get(section)
        for name, value in data.items():
            ident = self.rs.table.canonical(name, (kind,)) if kind else name  # plurals too
            if self.known(section, ident, what, path + (name,)):
                if check is not None:
                    problem = check(ident, value)
                    if problem:
                        self.diags.error("RB204", problem, self.span(*path, name))
                        self.ok = False
                        continue
                out[ident] = value
        return out

    def track_check(self, scope: str):
        def check(tid, value):
            decl = self.rs.sections["tracks"][tid].data
            if decl.get("scope", "global") != scope:
                where = "each player's" if scope == "player" else "a global"
                return f"'{tid}' is not {where} track"
            low, high = decl.get("min"), decl.get("max")
            if low is not None and value < low or high is not None and value > high:
                return f"'{tid}' runs from {low} to {high}; {value} is off the track"
            return None
        return check

    def stock_check(self, rid, value):
        decl = self.rs.sections["resources"][rid].data
        floor = int(decl.get("min", 0)) if isinstance(decl, dict) else 0
        if value < floor:
            return f"a stock of '{rid}' is at least {floor}; {value} is below it"
        return None

    def production_check(self, rid, value):
        decl = self.rs.sections["resources"][rid].data
        prod = decl.get("production") if isinstance(decl, dict) else None
        if not prod:
            return f"'{rid}' has no production"
        floor = prod.get("min", 0) if isinstance(prod, dict) else 0
        if value < floor:
            return f"'{rid}' production is at least {floor}; {value} is below it"
        return None

    def size_check(self, items: list, what: str, path: tuple) -> bool:
        if len(items) > MAX_LISTED:
            self.diags.error("RB204", f"a position lists at most {MAX_LISTED} {what} here; "
                             f"{len(items)} are listed", self.span(*path))
            self.ok = False
            return False
        return True

    def slots_check(self, zid: str, items: list, path: tuple) -> None:
        data = self.rs.sections["zones"][zid].data
        slots = data.get("slots") if isinstance(data, dict) else None
        if slots and len(items) > slots:
            self.diags.error("RB204", f"zone '{zid}' holds at most {slots} cards; "
                             f"{len(items)} are listed", self.span(*path))
            self.ok = False

    def zone(self, zid: str, scope: str, path: tuple) -> bool:
        if not self.known("zones", zid, "zone", path):
            return False
        data = self.rs.sections["zones"][zid].data
        zscope = data.get("scope", "shared") if isinstance(data, dict) else "shared"
        if zscope != scope:
            if zscope == "player":
                self.error(f"zone '{zid}' belongs to each player; list it under 'players'",
                           path)
            else:
                self.error(f"zone '{zid}' is shared; list it under 'cards', not under a "
                           "player", path)
            return False
        return True

    def cards(self, items: list, path: tuple) -> list[CardPlacement]:
        out = []
        if not self.size_check(items, "cards", path):
            return out
        for i, item in enumerate(items):
            where = path + (i,)
            data = item if isinstance(item, dict) else {"card": item}
            cid = data["card"]
            if not self.known("cards", cid, "card", where + (("card",) if isinstance(item, dict)
                                                              else ())):
                continue
            place = CardPlacement(cid)
            if "owner" in data:
                place.owner = self.seat(data["owner"], where + ("owner",))
            place.resources = self.counts(data.get("resources", {}), "card_resources",
                                          "card resource", where + ("resources",))
            for j, m in enumerate(data.get("markers", [])):
                if self.known("markers", m, "marker", where + ("markers", j)):
                    place.markers.append(m)
            for seat, count in data.get("pieces", {}).items():
                s = self.seat(seat, where + ("pieces", seat))
                if s is not None:
                    place.pieces[s] = count
            out.append(place)
        return out


def read_position(rs, doc, base: tuple, players: int, diags: Diagnostics) -> Position | None:
    """The position at ``base`` in the scenario file, or None when it has errors."""
    data = doc.data
    for p in base:
        data = data[p]
    r = _Reader(rs, doc, base, players, diags)
    pos = Position(round=data.get("round"))
    if "phase" in data and r.known("phases", data["phase"], "phase", ("phase",)):
        pos.phase = data["phase"]
    if "turn" in data:
        pos.turn = r.seat(data["turn"], ("turn",))
    if "turn_order" in data:
        order = [r.seat(s, ("turn_order", i)) for i, s in enumerate(data["turn_order"])]
        if sorted(s for s in order if s is not None) != list(range(players)):
            r.diags.error("RB204", f"a turn order lists every seat from 1 to {players} once",
                          r.span("turn_order"))
            r.ok = False
        pos.turn_order = order
    if "passed" in data:
        pos.passed = [r.seat(s, ("passed", i)) for i, s in enumerate(data["passed"])]
    pos.tracks = r.counts(data.get("tracks", {}), "tracks", "track", ("tracks",),
                          r.track_check("global"))
    for tid, values in data.get("claimed", {}).items():
        if not r.known("tracks", tid, "track", ("claimed", tid)):
            continue
        rewards = r.rs.sections["tracks"][tid].data.get("rewards", []) or []
        for j, at in enumerate(values):
            index = next((i for i, w in enumerate(rewards) if w.get("at") == at
                          and w.get("once")), None)
            if index is None:
                ats = ", ".join(str(w.get("at")) for w in rewards if w.get("once")) or "none"
                r.error(f"'{tid}' has no one-time reward at {at} (its one-time rewards are at: "
                        f"{ats})", ("claimed", tid, j))
                continue
            pos.claimed.append((tid, index))
    for key, pdata in data.get("players", {}).items():
        seat = r.seat(key, ("players", key))
        if seat is None:
            continue
        where = ("players", key)
        for j, ident in enumerate(pdata.get("used", [])):
            if ident in r.rs.sections["actions"]:
                action = r.rs.sections["actions"][ident].data
                if action.get("once_per", "any") == "any":
                    r.error(f"'{ident}' may be used any number of times; there is no use to "
                            "record", where + ("used", j))
                    continue
                pos.used.append((seat, "action", ident))
            elif ident in r.rs.cards and r.rs.cards[ident].data.get("actions"):
                pos.used.append((seat, "card", ident))
            else:
                names = list(r.rs.sections["actions"]) + [c for c, e in r.rs.cards.items()
                                                          if e.data.get("actions")]
                r.error(f"'{ident}' is neither a flow action nor a card with actions",
                        where + ("used", j), suggest(ident, names))
        pos.players[seat] = {
            "stock": r.counts(pdata.get("stock", {}), "resources", "resource",
                              where + ("stock",), r.stock_check),
            "production": r.counts(pdata.get("production", {}), "resources", "resource",
                                   where + ("production",), r.production_check),
            "tracks": r.counts(pdata.get("tracks", {}), "tracks", "track", where + ("tracks",),
                               r.track_check("player")),
        }
        for zid, items in pdata.get("cards", {}).items():
            if r.zone(zid, "player", where + ("cards", zid)):
                r.slots_check(zid, items, where + ("cards", zid))
                pos.zones.append((zid, seat, r.cards(items, where + ("cards", zid))))
    for zid, items in data.get("cards", {}).items():
        if r.zone(zid, "shared", ("cards", zid)):
            r.slots_check(zid, items, ("cards", zid))
            pos.zones.append((zid, NO_OWNER, r.cards(items, ("cards", zid))))
    spaces = _spaces(rs)
    tiles = data.get("tiles", [])
    if not r.size_check(tiles, "tiles", ("tiles",)):
        tiles = []
    for i, t in enumerate(tiles):
        where = ("tiles", i)
        if not r.known("tiles", t["tile"], "tile", where + ("tile",)):
            continue
        space = spaces.get(str(t["space"]))
        if space is None:
            r.error(f"there is no space '{t['space']}'", where + ("space",),
                    suggest(str(t["space"]), list(spaces)))
            continue
        owner = None
        if "owner" in t:
            tile = rs.sections["tiles"][t["tile"]].data
            if not (isinstance(tile, dict) and tile.get("owned")):
                r.error(f"'{t['tile']}' tiles have no owner", where + ("owner",))
                continue
            owner = r.seat(t["owner"], where + ("owner",))
        if "card" in t and not r.known("cards", t["card"], "card", where + ("card",)):
            continue
        pos.tiles.append((t["tile"], space, owner, t.get("card")))
    return pos if r.ok else None


def _spaces(rs) -> dict[str, str]:
    """Every space by its id and by its label (when the label names one space)."""
    out, labels = {}, {}
    for board in rs.sections["boards"].values():
        for i, space in enumerate(board.data["spaces"], 1):
            out[space["id"]] = space["id"]
            labels.setdefault(str(space.get("label", i)), []).append(space["id"])
    for label, ids in labels.items():
        if len(ids) == 1:
            out.setdefault(label, ids[0])
    return out


def apply_position(game: Game, pos: Position) -> str | None:
    """Write the position into the game's state; nothing is paid, triggered or logged.

    Returns what could not be set (a used card that is not in play), or None."""
    st = game.state
    game.zmemo = game.smemo = None  # cards are put in place: nothing read from zones holds
    if pos.round is not None:
        st.round = pos.round
    if pos.phase is not None:
        st.phase = pos.phase
    if pos.turn_order is not None:
        st.turn_order = list(pos.turn_order)
    if pos.passed is not None:
        st.passed = set(pos.passed)
    if pos.turn is not None:
        st.turn_seat = pos.turn
    st.tracks.update(pos.tracks)
    for seat, parts in pos.players.items():
        player = st.players[seat]
        player.stock.update(parts["stock"])
        player.production.update(parts["production"])
        player.tracks.update(parts["tracks"])
    claimed: set[int] = set()
    for zone, owner, places in pos.zones:
        _fill_zone(game, zone, owner, places, claimed)
    for tile, space, owner, card in pos.tiles:
        live = st.spaces[space]
        live["tile"], live["owner"] = tile, owner
        if card is not None:
            live["card"] = _instance(game, card, None, claimed, keep=True)
    st.claimed.update(pos.claimed)
    game.zmemo = game.bmemo = game.smemo = None  # (and tiles): nothing read before holds
    return _mark_used(game, pos.used)


def _mark_used(game: Game, used: list) -> str | None:
    st = game.state
    scopes = {"round": ("round", st.round), "turn": ("turn", st.turn_number), "game": ("game", 0)}
    for seat, kind, ident in used:
        if kind == "action":
            once = game.rs.sections["actions"][ident].data.get("once_per", "any")
            st.used.add((f"action:{ident}", seat, scopes[once]))
            continue
        copies = [n for (zone, owner), cards in st.zones.items() if zone in game.in_play_zones
                  for n in cards if st.cards[n].def_id == ident and st.cards[n].owner == seat]
        if not copies:
            name = game.rs.cards[ident].data.get("name", ident)
            return (f"{st.players[seat].name} has no {name} in play to "
                    "have used")
        for i, action in enumerate(game.rs.cards[ident].data.get("actions", []) or []):
            once = action.get("once_per", "round")
            if once != "any":
                st.used.add((f"card:{int(copies[0])}:{i}", seat, scopes[once]))
    return None


def _fill_zone(game: Game, zone: str, owner: int, places: list, claimed: set) -> None:
    st = game.state
    key = (zone, owner)
    below = []  # cards whose deck is this very zone: they stay, under the listed ones
    for number in list(st.zones[key]):
        if number not in claimed:
            deck = _deck_of(game, st.cards[number].def_id)
            if deck == key:
                below.append(number)
                continue
            _move(game, number, deck)
            st.card_w(number).owner = NO_OWNER
    for place in places:
        number = _instance(game, place.card, key, claimed)
        _move(game, number, key)
        card = st.card_w(number)
        if owner != NO_OWNER:
            card.owner = owner
        elif place.owner is not None:
            card.owner = place.owner
        card.resources.update(place.resources)
        card.markers.update(place.markers)
        card.pieces.update(place.pieces)
    for number in below:  # first the listed cards (drawn first), then the deck's others
        if number in claimed:
            continue  # it was one of the listed cards
        st.zones[key].remove(number)
        st.zones[key].append(number)


def _deck_of(game: Game, def_id: str) -> tuple:
    zone = game.rs.cards[def_id].data.get("deck") or next(
        z for z, d in game.zone_decl.items() if d.get("scope", "shared") == "shared")
    shared = game.zone_decl[zone].get("scope", "shared") == "shared"
    return (zone, NO_OWNER if shared else 0)


def _instance(game: Game, def_id: str, key, claimed: set, keep: bool = False) -> CardRef:
    """A copy of the card for the position: in the zone already, else from its deck, else new."""
    st = game.state
    deck = _deck_of(game, def_id)
    for where in ([key] if key is not None else []) + [deck]:
        for number in st.zones[where]:
            if st.cards[number].def_id == def_id and number not in claimed:
                claimed.add(number)
                return number
    if keep:  # a tile's card that is nowhere in particular: any copy will do
        for number, card in st.cards.items():
            if card.def_id == def_id:
                return CardRef(number)
    number = max(st.cards, default=0) + 1
    st.cards[number] = CardState(def_id, deck[0], deck[1])
    st._owned.add(number)
    st.zones[deck].append(CardRef(number))
    claimed.add(number)
    return CardRef(number)


def _move(game: Game, number, key: tuple) -> None:
    st = game.state
    card = st.card_w(number)
    st.zones[(card.zone, card.zone_owner)].remove(number)
    st.zones[key].append(number)
    card.zone, card.zone_owner = key
    if key[1] != NO_OWNER:
        card.owner = key[1]
