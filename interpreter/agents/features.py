"""What a position is worth to one seat, as numbers any ruleset gives: the learned evaluation's features.

:class:`Features` reads one seat's side of a game into a sparse dict of
named numbers. Every name comes from the ruleset's own data (a resource, a
track, a zone, a card, a tile, a space, a declared feature), so nothing here
names a game thing:

- ``stock:R``, ``production:R``, ``track:T`` (the seat's), ``global:T`` (the
  board's tracks);
- ``size:Z`` for each zone of the seat's and each shared zone (how many
  cards, whoever may see them);
- ``card:Z:C`` (how many copies of card C lie in zone Z) for the seat's own
  zones it may look into (in hand, in play, on offer to it) and the shared
  zones everyone sees (a row of cards on offer); ``resources:Z:R``, the
  resources on the seat's cards in Z;
- ``tile:T`` (the seat's tiles of each kind), ``tiles:T`` (every player's),
  ``space:S`` (the seat owns that space);
- ``declared:F`` (and ``declared:F:KEY`` for a feature given ``each``, or
  ``declared:F=VALUE`` for one that names a card or an id), the ruleset's
  declared ``features:``;
- ``vs:F`` for the public families (``stock``, ``production``, ``track``,
  ``tile``, and ``size`` of the seats' own zones): the seat's value minus
  the most any other seat has of it (absent in a solo game), so a linear
  value can weigh a lead (a majority, a race) and not only a holding;
- ``last round`` (1 in the round after which the game ends: the flow's
  ``rounds.count`` reached, or its ``until`` already true, as the flow will
  test it when the round is over) and, in that round only, ``last round:F``
  for the seat's own holdings (stock, production, tracks, tiles, the sizes
  of its zones), its declared features, its ``vs:`` features and the
  evaluations (not a feature naming one card or space): a linear value can
  then weigh a coin or a card in hand differently when nothing can be bought
  with it any more;
- ``round``, ``evaluation`` (the ruleset's hand-written ``evaluation``, the
  prior; its score so far when it has none) and ``evaluation of the best
  other`` (the best other seat's; absent in a solo game);
- ``score`` and ``score of the best other``: the points the final scoring
  would give now, when the reader is asked for them (``scores``: training
  reads them, and an evaluation whose weights have them). The final margin
  is made of them, and a hand-written evaluation that prices them by a
  guess of the game's length lets a step of a global track move the value
  of both seats by a jump; working them out for every seat costs about a
  quarter of a learned evaluation.

Only what the seat may know is read: its own zones only where the zone's
visibility lets it look, other seats only through public tracks, tiles,
scores and evaluations, and hidden zones only as a count. Agents read these
features on their determinised copies of the game (see :mod:`.lookahead`),
where what the seat cannot see has been dealt again, as the hand-written
evaluation does.
"""

from __future__ import annotations

from ..engine.game import NO_OWNER
from ..lang.runtime import Frame


class Features:
    """The feature reader of one ruleset: which zones are read how, worked out once."""

    def __init__(self, rs):
        self.own_cards: set = set()  # a seat's zones it looks into: cards by id
        self.shared_cards: set = set()  # shared zones everyone sees: cards by id
        for zone, entry in rs.sections["zones"].items():
            decl = entry.data if isinstance(entry.data, dict) else {}
            vis = decl.get("visibility", "public")
            if decl.get("scope", "shared") == "player":
                if vis in ("public", "owner"):
                    self.own_cards.add(zone)
            elif vis == "public":
                self.shared_cards.add(zone)
        self.declared = []  # (id, each, as, kind)
        for ident, entry in rs.sections["features"].items():
            data = entry.data if isinstance(entry.data, dict) else {}
            self.declared.append((ident, "each" in data, data.get("as")))
        self.has_evaluation = ("flow", "evaluation") in rs.code
        entry = rs.singles.get("rounds")  # (the flow's 'rounds:', as the engine reads it)
        rounds = entry.data if entry is not None and isinstance(entry.data, dict) \
            else {"count": 1}
        # the most rounds a game lasts (its count, else its cap), as the flow counts them
        self.last_count = rounds.get("count") or rounds.get("max")
        self.until = ("flow", "rounds", "until") in rs.code
        self.scores = False  # read each seat's score too (the score features)
        # read 'turn ahead' too: only for weights that have it (trained at turns' ends)
        self.tempo = False
        # feature names made once, not per evaluation: a card's in a zone, a declared
        # feature's for an item that is a plain id ((ident, item) -> name)
        self._card_names: dict = {}
        self._item_names: dict = {}
        self._vs_names: dict = {}  # a public feature's name -> its 'vs:' name

    def base(self, runner, seats) -> tuple[list, "Shared"]:
        """Each seat's hand-written evaluation (all seats: each seat's features read the
        best other's; a ruleset without one is evaluated by its score, as the agents
        do without a learned evaluation), and what every seat's features share, read
        once: the last round, the seats' public holdings, and each seat's score so far
        when the reader reads scores."""
        n = runner.game.n
        priors = [float(runner.evaluate(p)) for p in range(n)]
        scores = [float(runner.game.score(p)) for p in range(n)] if self.scores else None
        return priors, Shared(self, runner.game, scores)

    def last_round(self, game) -> bool:
        """Whether the game ends when this round is over (if nothing changes the end
        condition first, as the flow tests it then)."""
        st = game.state
        if self.last_count is not None and st.round >= int(self.last_count):
            return True
        if self.until:
            return bool(game.run_code(("flow", "rounds", "until"), game.frame(None)))
        return False

    def of(self, runner, seat: int, priors: list, scores=None) -> dict:
        """The features of ``seat``: a dict of name -> number (missing names are 0).
        ``scores`` is what :meth:`base` gave with the priors (read now when it is not)."""
        game = runner.game
        if isinstance(scores, Shared):
            common, scores = scores, scores.scores
        else:
            common = Shared(self, game, scores)
        st = game.state
        out = holdings(st.players[seat])
        for k, v in st.tracks.items():
            if v:
                out["global:" + k] = v
        cards = st.cards
        own, shared = self.own_cards, self.shared_cards
        names = self._card_names
        for (zone, owner), here in st.zones.items():
            if owner == NO_OWNER:
                if here:
                    out["size:" + zone] = len(here)
                if zone not in shared:
                    continue
            elif owner != seat:
                continue
            else:
                if here:
                    out["size:" + zone] = len(here)
                if zone not in own:
                    continue
            for c in here:
                card = cards[c]
                name = names.get((zone, card.def_id))
                if name is None:
                    name = names[(zone, card.def_id)] = f"card:{zone}:{card.def_id}"
                out[name] = out.get(name, 0) + 1
                if owner == seat and card.resources:
                    for r, v in card.resources.items():
                        if v:
                            name = f"resources:{zone}:{r}"
                            out[name] = out.get(name, 0) + v
        for space, live in st.spaces.items():
            tile = live.get("tile")
            if tile is None:
                continue
            name = "tiles:" + str(tile)
            out[name] = out.get(name, 0) + 1
            if live.get("owner") == seat:
                name = "tile:" + str(tile)
                out[name] = out.get(name, 0) + 1
                out["space:" + str(space)] = 1
        if self.declared:
            self._declared(game, seat, out)
        out["round"] = st.round
        out["evaluation"] = priors[seat]
        if len(priors) > 1:
            out["evaluation of the best other"] = max(
                v for p, v in enumerate(priors) if p != seat)
        if scores is not None:
            out["score"] = scores[seat]
            if len(scores) > 1:
                out["score of the best other"] = max(
                    v for p, v in enumerate(scores) if p != seat)
        if len(common.public) > 1:
            mine = common.public[seat]
            others = [h for p, h in enumerate(common.public) if p != seat]
            names = dict.fromkeys(mine)  # (in a fixed order: the value's sum is then too)
            for h in others:
                names.update(dict.fromkeys(h))
            vs = self._vs_names
            if len(others) == 1:  # (the most of one other seat is its own)
                get = others[0].get
                for name in names:
                    d = mine.get(name, 0) - get(name, 0)
                    if d:
                        key = vs.get(name)
                        if key is None:
                            key = vs[name] = "vs:" + name
                        out[key] = d
            else:
                for name in names:
                    d = mine.get(name, 0) - max(h.get(name, 0) for h in others)
                    if d:
                        out["vs:" + name] = d
        ahead = common.ahead[seat] if common.ahead is not None else 0
        if ahead:
            out["turn ahead"] = ahead
        if common.last:
            out["last round"] = 1
            mine = common.public[seat]
            for name, x in list(out.items()):
                if name in mine or name.startswith(LAST_COPIED) and not sparse_name(name) \
                        or name == "turn ahead":  # (read only for turn-ends weights)
                    out["last round:" + name] = x
        return out

    def _declared(self, game, seat: int, out: dict) -> None:
        watch = game.kept_across
        if watch is not None and watch.state is game.state:
            # a copy a search plays: a feature reading nothing the copy changed (nor
            # dealt again) is read once for all the copies of its position (agents/across.py)
            table = watch.kept.table
            for spec in self.declared:
                ident = spec[0]
                if watch.usable(("feature", ident)) is None or spec[1] and watch.usable(
                        ("feature", ident, "each")) is None:
                    self._one(game, seat, spec, out)
                    continue
                key = (_FEATURE, ident, seat)
                part = table.get(key)
                if part is None:  # (its names are its own: no other feature adds to them)
                    part = table[key] = {}
                    self._one(game, seat, spec, part)
                out.update(part)
            return
        for spec in self.declared:
            self._one(game, seat, spec, out)

    def _one(self, game, seat: int, spec: tuple, out: dict) -> None:
        """One declared feature's numbers for ``seat``, into ``out``."""
        budget = game.budget
        names = self._item_names
        ident, each, name = spec
        if each:
            for item in game.run_code(("feature", ident, "each"), game.frame(seat)) or []:
                # (what game.frame(seat) with the item set gives, made at once)
                value = game.run_code(("feature", ident),
                                      Frame(game, {"you": seat, name: item}, 0, budget))
                if type(item) is str:  # an id: its name is the same every time
                    key = names.get((ident, item))
                    if key is None:
                        key = names[(ident, item)] = f"declared:{ident}:{_key(game, item)}"
                else:
                    key = f"declared:{ident}:{_key(game, item)}"
                if type(value) is int:  # (a number as itself, as _put puts it)
                    if value:
                        out[key] = value
                else:
                    _put(out, key, game, value)
        else:
            value = game.run_code(("feature", ident), game.frame(seat))
            _put(out, "declared:" + ident, game, value)


_FEATURE = object()  # (a declared feature's numbers in the table shared across copies)

# the features copied in the last round, besides the seat's public holdings (its
# stock, production, tracks, tiles and the sizes of its zones): what the board and the
# shared zones hold is left out, being much the same for every seat
LAST_COPIED = ("declared:", "vs:", "evaluation")


def sparse_name(name: str) -> bool:
    """Whether a feature names one card or space (or one value of a declared feature):
    one of the many, each seen rarely."""
    return name.startswith(("card:", "resources:", "space:")) or "=" in name


class Shared:
    """What the features of every seat of one position share, read once: whether the
    game ends after this round, each seat's public holdings (stock, production,
    tracks, tiles, and the sizes of its own zones), for the ``vs:`` features, and
    each seat's score (None when the reader does not read scores)."""

    __slots__ = ("last", "public", "scores", "ahead")

    def __init__(self, reader: Features, game, scores: list | None = None):
        st = game.state
        self.scores = scores
        self.last = reader.last_round(game)
        public = [holdings(p) for p in st.players]
        if len(public) > 1:
            for (zone, owner), here in st.zones.items():
                if owner != NO_OWNER and here and 0 <= owner < len(public):
                    public[owner]["size:" + zone] = len(here)
            for live in st.spaces.values():
                tile, owner = live.get("tile"), live.get("owner")
                if tile is not None and isinstance(owner, int) and 0 <= owner < len(public):
                    name = "tile:" + str(tile)
                    public[owner][name] = public[owner].get(name, 0) + 1
        self.public = public
        self.ahead = turn_ahead(st) if reader.tempo and len(public) > 1 else None


def turn_ahead(st) -> list | None:
    """For each seat, its turns begun in this round (the one running counts) minus the
    most any other seat has begun: at two players the seat moving first is 1 ahead from
    its turn until the other's begins (the other then -1), and both are level after.
    None outside a turn, or when the seat in turn is not in the round's turn order."""
    order, now = st.turn_order, st.turn_seat
    if now not in order or len(order) < 2:
        return None
    at = order.index(now)
    began = [0] * len(st.players)
    for i, p in enumerate(order):
        if 0 <= p < len(began):
            began[p] = 1 if i <= at else 0
    out = []
    for p, b in enumerate(began):
        out.append(b - max(x for q, x in enumerate(began) if q != p))
    return out


def holdings(player) -> dict:
    """A player's stocks, production and tracks that are not 0, as features, in that
    order (the order the weights are summed in: the same in every reading)."""
    out: dict = {}
    for k, v in player.stock.items():
        if v:
            out["stock:" + k] = v
    for k, v in player.production.items():
        if v:
            out["production:" + k] = v
    for k, v in player.tracks.items():
        if v:
            out["track:" + k] = v
    return out


def _key(game, value) -> str:
    """A rule value as part of a feature's name: a card by its id, an id as itself."""
    from ..engine.state import CardRef
    if isinstance(value, CardRef):
        return game.state.cards[value].def_id
    ident = getattr(value, "id", None)
    return ident if isinstance(ident, str) else str(value)


def _put(out: dict, name: str, game, value) -> None:
    """A declared feature's value as numbers: a number as itself, a truth value as 0
    or 1, a card or an id as one named feature worth 1, a list as each of its items."""
    from ..engine.state import CardRef
    if value is None:
        return
    if isinstance(value, bool):
        if value:
            out[name] = 1
        return
    if isinstance(value, (int, float)) and not isinstance(value, CardRef):
        if value:
            out[name] = value
        return
    if isinstance(value, (list, tuple)):
        for item in value:
            key = f"{name}={_key(game, item)}"
            out[key] = out.get(key, 0) + 1
        return
    out[f"{name}={_key(game, value)}"] = 1
