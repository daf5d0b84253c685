"""Invariants every game must keep, whatever the ruleset: checked during simulations.

- every card is in exactly one zone, and knows which;
- stocks and production stay within their declared floors and capacities;
- tracks stay within their range; slotted zones hold no more than their slots;
- a player's pieces (resources declared ``piece: true``, in stock or on cards)
  are conserved;
- every invariant the ruleset declares under ``invariants`` holds.

Simulations check everything after the setup and at the end of the game
(:func:`check_invariants`), and in between, after every action (and before every
decision on request), only what changed since the check before
(:func:`check_changes`).
"""

from __future__ import annotations

from ..lang.gensupport import reading
from ..lang.implied import reads
from . import state as _st

# Each check reads a game (an engine.game.Game) and imports nothing of it: the game's
# decisions and its flow call these checks, and a module never needs the one calling it.


class InvariantError(Exception):
    pass


def check_invariants(game) -> None:
    """Every invariant, over the whole state (at the start and the end of a game, and
    whenever asked); from then on the checks watch the state (see :func:`check_changes`)."""
    game._watch = None
    with reading(game):  # checking only reads: what the checks share is worked out once
        _check(game)
    game._watch = _Watch(game)


def check_changes(game) -> None:
    """The invariants again, looking only at what changed since the last check.

    Every change to the state goes into its journal (see engine/state.py); while
    the checks watch a state it is kept even with no mark set (``recording``), and
    the entries the checks read that a rollback has undone are kept aside. Each
    check reads those entries: the zones, cards, stocks, production, tracks and
    card resources they name are checked (every zone a whole list was written to,
    every card moved or placed, each piece count changed, added to each player's
    total kept since the last full check), and a declared invariant is run again
    only when something it reads (found once per ruleset from its tree by
    lang/implied.py's ``reads``) changed since it last held; one whose reads cannot
    be bounded runs every time. What it finds broken is what a full check finds,
    at the same check. With nothing watched yet (or another state, or cards added),
    it checks everything (:func:`check_invariants`)."""
    w = getattr(game, "_watch", None)
    st = game.state
    if w is None or w.state is not st or not st.recording or len(st.cards) != w.cards:
        check_invariants(game)
        return
    game._watch = None  # (until this check has passed: a failed one leaves nothing kept)
    with reading(game):
        w.check(game)
    game._watch = w


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
    for iid in game.rs.sections["invariants"]:
        _run_invariant(game, iid)


def _run_invariant(game, iid: str) -> None:
    code = game.rs.code.get(("invariant", iid))
    if code is not None and not code(game.frame(None)):
        entry = game.rs.sections["invariants"][iid]
        text = entry.data.get("description") or entry.data["holds"]
        raise InvariantError(f"{iid}: {text} ({entry.span('holds')})")


def _run_seeing_zones(game, iid: str) -> frozenset:
    """Run a declared invariant, and say the zones whose cards it read (as read keys).

    Every read of a zone's cards goes through the runtime's ``cards_in``,
    ``zone_cards`` (the zone's own list, for a read that lets it go at once) or
    ``all_cards_in`` (``top`` too): for this run they are the game's own, noting
    the zone first. No value kept from before may stand in for a read: the values
    kept while the engine reads, and those kept until a card moves (``memo``,
    ``zmemo``: see lang/gensupport.py), are set aside for the run and put back
    after it (the state has not changed)."""
    seen: set = set()
    kind = type(game)
    plain_in, plain_own, plain_all = kind.cards_in, kind.zone_cards, kind.all_cards_in

    def cards_in(zone, player):
        seen.add(zone)
        return plain_in(game, zone, player)

    def zone_cards(zone, player):
        seen.add(zone)
        return plain_own(game, zone, player)

    def all_cards_in(zone):
        seen.add(zone)
        return plain_all(game, zone)
    kept = game.memo, game.zmemo
    game.memo, game.zmemo = (game.state, {}), None
    game.cards_in, game.zone_cards, game.all_cards_in = cards_in, zone_cards, all_cards_in
    try:
        _run_invariant(game, iid)
    finally:
        del game.cards_in, game.zone_cards, game.all_cards_in
        game.memo, game.zmemo = kept
    return frozenset(("zones", z) for z in seen)


def _check_track(game, tid: str, value: int, who: str) -> None:
    decl = game.track_decl.get(tid, {})
    lo, hi = decl.get("min"), decl.get("max")
    if lo is not None and value < lo or hi is not None and value > hi:
        raise InvariantError(f"{tid} of {who} is {value}, outside {lo}..{hi}")


# ------------------------------------------------------------------ what changed
# Each journal entry names what it changed (an entry undone names it too: its undo
# wrote the same place). The read keys are lang/implied.py's (what a condition reads).

class _Changes:
    __slots__ = ("stocks", "production", "tracks", "ptracks", "zones", "lists", "cards",
                 "on_card", "pieces", "keys")

    def __init__(self, entries) -> None:
        stocks, production, ptracks, tracks = set(), set(), set(), set()
        zones, lists, cards, on_card, pieces = set(), set(), set(), set(), set()
        keys = set()
        for e in entries:
            f = e[0]
            if f is _st._undo_move:  # (held, was, i, owner, key, j)
                zones.add(e[2])
                zones.add(e[5])
                cards.add(e[1])
            elif f is _st._undo_player:  # (seat, which, key, old)
                which = e[2]
                (stocks if which == "stock" else production if which == "production"
                 else ptracks).add((e[1], e[3]))
            elif f is _st._undo_track:
                tracks.add(e[1])
            elif f is _st._undo_on_card:  # (number, which, key, old)
                if e[2] != "kinds":  # (what the pieces are: words, counted in pieces)
                    (on_card if e[2] == "resources" else pieces).add((e[1], e[3]))
            elif f is _st._undo_space:
                keys.add(("board", "*"))
            elif f is _st._undo_zone_list:  # (key, old list): a whole list written
                lists.add(e[1])
                cards.update(e[2])
            elif f is _st._undo_place:  # (number, zone, zone owner, owner)
                lists.add((e[2], e[3]))  # (the zone it was in: it may sit there still)
                cards.add(e[1])
            elif f is _st._undo_marker:  # (number, marker, on)
                keys.add(("markers", e[2]))
            elif f is _st._undo_attr:
                if e[1] == "round":
                    keys.add(("round", "*"))
                elif e[1] == "turn_order":
                    keys.add(("order", "*"))
            # (counts, used, claimed, passed and the random source: no bounded read
            # reads them, and the engine's own checks do not look at them)
        zones |= lists
        for _, rid in stocks:
            keys.add(("pay", rid))
        for _, rid in production:
            keys.add(("production", rid))
        for _, tid in ptracks:
            keys.add(("track", tid))
        for tid in tracks:
            keys.add(("track", tid))
        for _, res in on_card:
            keys.add(("on_card", res))
        for zid, _ in zones:
            keys.add(("zones", zid))
        if pieces:
            keys.add(("pieces", "*"))
        for kind, _ in list(keys):
            keys.add((kind, "*"))
        self.stocks, self.production, self.tracks, self.ptracks = stocks, production, tracks, \
            ptracks
        self.zones, self.lists, self.cards = zones, lists, cards
        self.on_card, self.pieces, self.keys = on_card, pieces, keys


def _bounded(game, found, following: frozenset = frozenset()) -> frozenset | None:
    """A condition's reads as the checks compare them with what changed: a zone, track
    or resource it names that the game does not declare as such read as any, a
    capacity as what the resource's capacity reads, and a modifier as the zones in
    play (whose cards add to it) and what every card's modifier of that kind reads
    (its condition and its amount)."""
    if found is None:
        return None
    out = set()
    decl = {"zones": game.zone_decl, "track": game.track_decl, "pay": game.resource_decl,
            "production": game.resource_decl}
    for kind, what in found:
        if (kind, what) in following:
            continue  # (already being followed: what it reads is being added)
        if kind == "capacity":
            rids = list(game.resource_decl) if what == "*" else [what]
            for rid in rids:
                tree = game.rs.asts.get(("resource", rid, "capacity"))
                if tree is None:
                    if what != "*" and rid not in game.resource_decl:
                        return None  # (a resource this cannot find)
                    continue
                more = _bounded(game, reads(tree, _function(game), across=True, params=_params(game)),
                                following | {(kind, what)})
                if more is None:
                    return None
                out |= more
        elif kind == "modifier":
            out |= {("zones", z) for z in game.in_play_zones}
            for cid, entry in game.rs.cards.items():
                data = entry.data if isinstance(entry.data, dict) else {}
                for i, mod in enumerate(data.get("modifiers") or []):
                    if what != "*" and mod.get("modifier") != what:
                        continue
                    for part in ("if", "amount"):
                        tree = game.rs.asts.get(("card", cid, "modifier", i, part))
                        if tree is None:
                            continue
                        more = _bounded(game, reads(tree, _function(game), across=True, params=_params(game)),
                                        following | {(kind, what), ("in play", "this")})
                        if more is None:
                            return None
                        out |= more
        elif kind == "zones" and what == "this":
            if ("in play", "this") not in following:
                out.add(("zones", "*"))
            # (else a card's modifier: a source lies in a zone in play, all read)
        elif kind in decl and what not in ("*", "?") and what not in decl[kind]:
            out.add((kind, "*"))
        else:
            out.add((kind, what))
    return frozenset(out)


def _function(game):
    asts = game.rs.asts
    return lambda name: asts.get(("function", name))


def _params(game):
    functions = game.rs.sections["functions"]

    def params(name: str) -> list:
        entry = functions.get(name)
        data = entry.data if entry is not None and isinstance(entry.data, dict) else {}
        return list((data.get("params") or {}).keys())
    return params


def _invariant_reads(game) -> dict:
    """Each declared invariant's reads (None: anything), worked out once per ruleset."""
    rs = game.rs
    known = rs.__dict__.get("_invariant_reads")
    if known is None:
        function = _function(game)
        known = {}
        for iid in rs.sections["invariants"]:
            tree = rs.asts.get(("invariant", iid))
            known[iid] = None if tree is None else _bounded(
                game, reads(tree, function, across=True, params=_params(game)))
        known["(capacity)"] = {rid: _bounded(game, {("capacity", rid)})
                               for rid in game.resource_decl
                               if rs.code.get(("resource", rid, "capacity")) is not None}
        rs.__dict__["_invariant_reads"] = known
    return known


class _Watch:
    """What the checks keep between two looks at a state: where they are in its
    journal (kept on the state: ``seen``), each player's pieces counted, and when
    each thing read last changed and each invariant last held (in checks: ``tick``)."""

    def __init__(self, game) -> None:
        st = self.state = game.state
        self.cards = len(st.cards)
        self.tick = 0
        self.changed: dict = {}  # read key -> the check that last saw it change
        found = _invariant_reads(game)
        self.reads = {iid: found[iid] for iid in game.rs.sections["invariants"]}
        self.held = dict.fromkeys(self.reads, 0)  # invariant -> the check it last held at
        # those that read zones they work out as they run ("?"; not every zone, "*"):
        # each run is watched for the zones it reads (see _run_seeing_zones), and the
        # zones of its last run are what it read; none yet, so each runs at the next check
        self.seeing = {iid for iid, read in self.reads.items() if read is not None
                       and ("zones", "?") in read and ("zones", "*") not in read}
        self.saw: dict = {iid: None for iid in self.seeing}
        self.capacity_reads = found["(capacity)"]
        self.piece_resources = [r for r, d in game.resource_decl.items() if d.get("piece")]
        self.totals = list(game._piece_totals) if self.piece_resources else []
        self.in_stock = [sum(p.stock.get(r, 0) for r in self.piece_resources)
                         for p in st.players]
        self.on_cards = {}  # (card, seat) -> that seat's pieces on the card, as counted
        if self.piece_resources:
            for n, c in st.cards.items():
                for seat, count in c.pieces.items():
                    self.on_cards[(n, seat)] = count
        st.recording = st.journaling = True
        st.undone.clear()
        if st.marks:
            st.seen = len(st.journal)
        else:
            st.journal.clear()
            st.seen = 0

    def check(self, game) -> None:
        st = self.state
        entries = st.journal[st.seen:]
        if st.undone:
            entries += st.undone
            st.undone.clear()
        if st.marks:
            st.seen = len(st.journal)
        else:
            st.journal.clear()
            st.seen = 0
        self.tick += 1
        tick = self.tick
        ch = _Changes(entries)
        changed = self.changed
        for key in ch.keys:
            changed[key] = tick
        self._zones(game, ch)
        self._quantities(game, ch)
        saw = self.saw
        for iid, read in self.reads.items():
            if read is not None:
                held = self.held[iid]
                for key in read:
                    if changed.get(key, 0) > held:
                        break
                else:
                    if iid not in saw:
                        continue
                    zones = saw[iid]
                    if zones is not None:
                        for key in zones:
                            if changed.get(key, 0) > held:
                                break
                        else:
                            continue
            if iid in saw:
                saw[iid] = _run_seeing_zones(game, iid)
            else:
                _run_invariant(game, iid)
            self.held[iid] = tick

    def _zones(self, game, ch: _Changes) -> None:
        st = game.state
        zones, cards = st.zones, st.cards
        listed = {}  # the cards of each zone whose whole list was written, as a set
        for key in ch.zones:
            here = zones.get(key)
            if here is None:
                continue
            decl = game.zone_decl[key[0]]
            if decl.get("slots") and len(here) > decl["slots"]:
                raise InvariantError(f"zone {key[0]} holds {len(here)} cards, more than its "
                                     f"{decl['slots']} slots")
            if key in ch.lists:  # a whole list written: every card in it
                seen = listed[key] = set()
                for c in here:
                    if c in seen:
                        raise InvariantError(f"card {int(c)} is in two zones: {key} and "
                                             f"{key}")
                    seen.add(c)
                    state = cards[c]
                    own = (state.zone, state.zone_owner)
                    if own != key:
                        if c in zones.get(own, ()):
                            raise InvariantError(f"card {int(c)} is in two zones: {own} and "
                                                 f"{key}")
                        raise InvariantError(f"card {int(c)} thinks it is in {state.zone} "
                                             f"but sits in {key[0]}")
        for c in ch.cards:
            state = cards.get(c)
            if state is None:
                continue
            key = (state.zone, state.zone_owner)
            times = (c in listed[key]) if key in listed else \
                zones[key].count(c) if key in zones else 0
            if times == 0:
                raise InvariantError(f"card {int(c)} thinks it is in {state.zone} but is "
                                     f"in no zone")
            if times > 1:
                raise InvariantError(f"card {int(c)} is in two zones: {key} and {key}")

    def _quantities(self, game, ch: _Changes) -> None:
        st = game.state
        players = st.players
        stocks = set(ch.stocks)
        for rid, read in self.capacity_reads.items():  # a capacity changed: every player's
            if read is None or any(self.changed.get(k, 0) == self.tick for k in read):
                stocks.update((p.seat, rid) for p in players)
        resource_decl = game.resource_decl
        for seat, rid in stocks:
            decl = resource_decl.get(rid)
            if decl is None or not 0 <= seat < len(players):
                continue
            p = players[seat]
            have = p.stock.get(rid, 0)
            if have < int(decl.get("min", 0)):
                raise InvariantError(f"{p.name} has {have} {rid}, below its floor")
            cap = game.capacity(seat, rid)
            if have > cap:
                raise InvariantError(f"{p.name} has {have} {rid}, above its capacity {cap}")
        for seat, rid in ch.production:
            prod = resource_decl.get(rid, {}).get("production")
            if prod and 0 <= seat < len(players):
                floor = prod.get("min", 0) if isinstance(prod, dict) else 0
                if players[seat].production.get(rid, 0) < floor:
                    raise InvariantError(f"{players[seat].name}'s {rid} production is below "
                                         f"{floor}")
        for seat, tid in ch.ptracks:
            if 0 <= seat < len(players) and tid in players[seat].tracks:
                _check_track(game, tid, players[seat].tracks[tid], players[seat].name)
        for tid in ch.tracks:
            if tid in st.tracks:
                _check_track(game, tid, st.tracks[tid], "the game")
        for c, res in ch.on_card:
            card = st.cards.get(c)
            count = card.resources.get(res, 0) if card is not None else 0
            if count < 0:
                raise InvariantError(f"card {int(c)} holds {count} {res}")
        if self.piece_resources and (ch.pieces or any(r in self.piece_resources
                                                      for _, r in ch.stocks)):
            self._pieces(game, ch)

    def _pieces(self, game, ch: _Changes) -> None:
        """Each player's pieces, in stock and on cards: the total kept is moved by what
        changed, and compared with the one counted at the first check."""
        st = game.state
        totals = self.totals
        for c, seat in ch.pieces:
            card = st.cards.get(c)
            now = card.pieces.get(seat, 0) if card is not None else 0
            was = self.on_cards.get((c, seat), 0)
            self.on_cards[(c, seat)] = now
            if 0 <= seat < len(totals):
                totals[seat] += now - was
        for seat in {seat for seat, r in ch.stocks if r in self.piece_resources}:
            if 0 <= seat < len(totals):
                stock = st.players[seat].stock
                now = sum(stock.get(r, 0) for r in self.piece_resources)
                totals[seat] += now - self.in_stock[seat]
                self.in_stock[seat] = now
        if totals != game._piece_totals:
            names = ", ".join(self.piece_resources)
            raise InvariantError(f"pieces ({names}) are not conserved: each player's total "
                                 f"was {game._piece_totals}, now {list(totals)}")
