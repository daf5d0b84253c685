"""Observations as numbers: one seat's view, laid out from what the ruleset declares.

A :class:`Layout` is worked out once per ruleset and player count, from the
declarations only (resources, production, tracks, zones and their
visibility, cards, markers, card resources, tiles, board spaces, phases), so
every observation of a game has the same length and each number the same
meaning. It reads nothing but the seat's view (``Game.view``) and the
decision being asked, so it cannot hold what the seat may not see. Seats
are relative: block 0 is the observing seat, block 1 the next seat in seat
order, and so on. :meth:`Layout.describe` names every position, and
docs/env.md gives the order of the blocks.

Actions are indices into a fixed range of ``size`` answers: an option's
index in the decision's list, or, for a number range, the number less the
range's lowest. A decision with more answers than ``size`` is never asked
with some of them left out: the environment stops the game there
(:class:`~.errors.ActionSpaceTooSmall`).
"""

from __future__ import annotations

# the scale of each kind of number in a normalised observation (see Layout._scales)
SCALES = {"round": 10.0, "track": 10.0, "stock": 10.0, "production": 5.0, "card": 1.0,
          "marker": 2.0, "resource": 5.0, "pieces": 5.0, "count": 10.0, "decision": 10.0}
KINDS = ("action", "card", "player", "space", "option", "confirm", "number", "order", "item")


def _decl(entry) -> dict:
    return entry.data if isinstance(entry.data, dict) else {"id": entry.data}


class Layout:
    """Where each number of an observation comes from, for one ruleset and player count."""

    def __init__(self, rs, players: int, max_options: int | None = None):
        s = rs.sections
        self.n = players
        self.resources = list(s["resources"])
        self.production = [r for r, e in s["resources"].items() if _decl(e).get("production")]
        self.global_tracks = [t for t, e in s["tracks"].items()
                              if _decl(e).get("scope", "global") == "global"]
        self.player_tracks = [t for t, e in s["tracks"].items()
                              if _decl(e).get("scope") == "player"]
        self.phases = ["setup"] + list(s["phases"]) + ["end"]
        self.cards = list(rs.cards)
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.markers = list(s["markers"])
        self.card_resources = list(s["card_resources"])
        self.tiles = list(s["tiles"])
        self.spaces = [sp["id"] for b in s["boards"].values() for sp in b.data["spaces"]]
        self.zones = []  # (zone id, relative seat or None, cards shown)
        for zid, e in s["zones"].items():
            d = _decl(e)
            vis = d.get("visibility", "public")
            if d.get("scope", "shared") == "player":
                for r in range(players):
                    self.zones.append((zid, r, vis == "public" or vis == "owner" and r == 0))
            else:
                self.zones.append((zid, None, vis == "public"))
        copies = sum(int(e.data.get("copies", 1) or 1) for e in rs.cards.values())
        self.size = max_options if max_options is not None else \
            max(64, copies + 1, len(self.spaces) + 1)
        self.names = self._names()
        self.length = len(self.names)
        self.scales = self._scales(s)

    def _scales(self, s) -> list[float]:
        """Each position's scale for the normalised observation (0: a flag, kept as it is).

        A number ``x`` at a position of scale ``k`` is shown as ``x / (|x| + k)``: 0 stays
        0, ``k`` is 0.5, and every value lies strictly between -1 and 1, in the same order
        as the raw values (nothing is lost, nothing clipped). A track that declares its
        bounds has half its widest bound as its scale; the other scales are in SCALES."""
        def track(t) -> float:
            d = _decl(s["tracks"][t])
            ends = [abs(float(d[k])) for k in ("min", "max") if isinstance(d.get(k), (int, float))]
            return max(1.0, max(ends) / 2) if ends else SCALES["track"]
        out = []
        for name in self.names:
            parts = name.split(":")
            if name.startswith(("phase=", "space:")) or parts[0] == "decision" and \
                    parts[1] in KINDS:
                out.append(0.0)
            elif parts[0] == "track":
                out.append(track(parts[1]))
            elif len(parts) > 2 and parts[1] == "track" and parts[0].startswith("seat+"):
                out.append(track(parts[2]))
            elif name == "round":
                out.append(SCALES["round"])
            elif name.endswith(":turn_position"):
                out.append(float(self.n))
            elif parts[0] == "decision":
                out.append(SCALES["decision"])
            elif len(parts) > 1 and parts[-2] in ("stock", "production", "card", "marker",
                                                   "resource", "pieces"):
                out.append(SCALES[parts[-2]])
            else:  # a zone's count
                out.append(SCALES["count"])
        return out

    def normalise(self, numbers):
        """The normalised observation of raw ``numbers`` (a NumPy array): see _scales."""
        import numpy as np
        if getattr(self, "_scale_array", None) is None:
            k = np.asarray(self.scales, dtype=np.float64)
            self._scale_array = (k, k == 0)
        k, flag = self._scale_array
        raw = np.asarray(numbers, dtype=np.float64)
        out = raw / (np.abs(raw) + np.where(flag, 1.0, k))
        return np.where(flag, np.clip(raw, -1.0, 1.0), out)

    # ------------------------------------------------------------ the layout
    def _names(self) -> list[str]:
        names = ["round"] + [f"phase={p}" for p in self.phases]
        names += [f"track:{t}" for t in self.global_tracks]
        for r in range(self.n):
            who = f"seat+{r}"
            names.append(f"{who}:turn_position")
            names += [f"{who}:stock:{x}" for x in self.resources]
            names += [f"{who}:production:{x}" for x in self.production]
            names += [f"{who}:track:{t}" for t in self.player_tracks]
        for zid, r, shown in self.zones:
            where = zid if r is None else f"seat+{r}:{zid}"
            names.append(f"{where}:count")
            if shown:
                names += [f"{where}:card:{c}" for c in self.cards]
                names += [f"{where}:marker:{m}" for m in self.markers]
                names += [f"{where}:resource:{x}" for x in self.card_resources]
                names += [f"{where}:pieces:seat+{p}" for p in range(self.n)]
        for sp in self.spaces:
            names += [f"space:{sp}:tile:{t}" for t in self.tiles]
            names += [f"space:{sp}:owner:seat+{p}" for p in range(self.n)]
        names += [f"decision:{k}" for k in KINDS]
        names += ["decision:options", "decision:low", "decision:high"]
        return names

    def describe(self) -> list[str]:
        """The name of every position of an observation, in order."""
        return list(self.names)

    # ------------------------------------------------------------ encoding
    def encode(self, view: dict, decision=None) -> list[float]:
        """The observation of ``view`` (a seat's view), with the decision it is asked."""
        n, you = self.n, view["you"]
        rel = [(you + r) % n for r in range(n)]  # relative seat -> seat
        out: list[float] = [float(view["round"] or 0)]
        out += [1.0 if view["phase"] == p else 0.0 for p in self.phases]
        out += [float(view["tracks"].get(t, 0)) for t in self.global_tracks]
        order = [s - 1 for s in view["turn_order"]]
        for seat in rel:
            p = view["players"][seat]
            out.append(float(order.index(seat)) if seat in order else -1.0)
            out += [float(p["stock"].get(x, 0)) for x in self.resources]
            out += [float(p["production"].get(x, 0)) for x in self.production]
            out += [float(p["tracks"].get(t, 0)) for t in self.player_tracks]
        zones = view["zones"]
        for zid, r, shown in self.zones:
            name = zid if r is None else f"{zid}@{rel[r] + 1}"
            held = zones.get(name, {"count": 0})
            cards = held if isinstance(held, list) else None
            out.append(float(len(cards) if cards is not None else held.get("count", 0)))
            if shown:
                out += self._cards(cards or [], rel)
        spaces = view["spaces"]
        back = {seat: r for r, seat in enumerate(rel)}
        for sp in self.spaces:
            live = spaces.get(sp) or {}
            out += [1.0 if live.get("tile") == t else 0.0 for t in self.tiles]
            owner = back.get(live.get("owner"))
            out += [1.0 if owner == p else 0.0 for p in range(n)]
        if decision is None:
            out += [0.0] * (len(KINDS) + 3)
        else:
            out += [1.0 if decision.kind == k else 0.0 for k in KINDS]
            out.append(float(decision.count()))
            out += [float(decision.low or 0), float(decision.high or 0)] if decision.is_range \
                else [0.0, 0.0]
        return out

    def _cards(self, cards: list, rel: list) -> list[float]:
        counts = [0.0] * len(self.cards)
        markers = [0.0] * len(self.markers)
        res = [0.0] * len(self.card_resources)
        pieces = [0.0] * self.n
        back = {seat + 1: r for r, seat in enumerate(rel)}  # pieces are keyed by seat number
        for c in cards:
            i = self.card_index.get(c["id"])
            if i is not None:
                counts[i] += 1
            for m in c.get("markers", ()):
                if m in self.markers:
                    markers[self.markers.index(m)] += 1
            for x, v in c.get("resources", {}).items():
                if x in self.card_resources:
                    res[self.card_resources.index(x)] += v
            for seat, v in c.get("pieces", {}).items():
                r = back.get(int(seat))
                if r is not None:
                    pieces[r] += v
        return counts + markers + res + pieces

    # ------------------------------------------------------------ actions
    def mask(self, decision) -> list[int]:
        """1 for each answer index the decision allows, 0 elsewhere."""
        out = [0] * self.size
        if decision is not None:
            for i in range(min(decision.count(), self.size)):
                out[i] = 1
        return out

    def answer(self, decision, index: int) -> int:
        """The engine's answer for an action index (an option, or low + index in a range)."""
        return decision.low + index if decision.is_range else index
