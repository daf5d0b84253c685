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
        self.scores = False  # read each seat's score too (the score features)

    def base(self, runner, seats) -> tuple[list, list | None]:
        """Each seat's hand-written evaluation (all seats: each seat's features read the
        best other's; a ruleset without one is evaluated by its score, as the agents
        do without a learned evaluation), and each seat's score so far when the reader
        reads scores (else None)."""
        n = runner.game.n
        priors = [float(runner.evaluate(p)) for p in range(n)]
        if not self.scores:
            return priors, None
        return priors, [float(runner.game.score(p)) for p in range(n)]

    def of(self, runner, seat: int, priors: list, scores: list) -> dict:
        """The features of ``seat``: a dict of name -> number (missing names are 0)."""
        game = runner.game
        st = game.state
        out: dict = {}
        me = st.players[seat]
        for k, v in me.stock.items():
            if v:
                out["stock:" + k] = v
        for k, v in me.production.items():
            if v:
                out["production:" + k] = v
        for k, v in me.tracks.items():
            if v:
                out["track:" + k] = v
        for k, v in st.tracks.items():
            if v:
                out["global:" + k] = v
        cards = st.cards
        own, shared = self.own_cards, self.shared_cards
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
                name = f"card:{zone}:{card.def_id}"
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
        return out

    def _declared(self, game, seat: int, out: dict) -> None:
        for ident, each, name in self.declared:
            if each:
                for item in game.run_code(("feature", ident, "each"), game.frame(seat)) or []:
                    frame = game.frame(seat)
                    frame.vars[name] = item
                    value = game.run_code(("feature", ident), frame)
                    _put(out, f"declared:{ident}:{_key(game, item)}", game, value)
            else:
                value = game.run_code(("feature", ident), game.frame(seat))
                _put(out, "declared:" + ident, game, value)


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
