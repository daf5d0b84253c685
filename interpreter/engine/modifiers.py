"""Modifiers: the sum of what cards in play add to a named quantity.

The part of :class:`~.game.Game` that adds up a modifier (a discount, a bonus)
over the cards a player has in play, each card's modifiers indexed once by kind.
"""

from __future__ import annotations

from .state import NO_OWNER


class ModifiersMixin:
    """Modifiers: the sum of what cards in play add to a named quantity."""

    def modifier(self, modifier, player, card, values=None):
        total = 0
        params = self.rs.table.modifier_params.get(modifier, [])
        values = dict(values or {})
        for src, mine in self._modifier_sources(modifier, player):
            total += self._modifier_total(src, mine, player, card, values, params)
        return total

    def _modifier_sources(self, modifier, player) -> list:
        """The player's cards in play with modifiers of this kind, and which ones.

        While the engine only reads the state (see ``gensupport.reading``) the
        list is made once per modifier and player instead of once per use."""
        reading = getattr(self, "memo", None)
        if reading is not None and reading[0] is self.state:
            found = reading[1].get(("modifier sources", modifier, player))
            if found is not None:
                return found
        out = []
        zones, cards = self.state.zones, self.state.cards
        for zone in self.in_play_zones:
            for owner in (player, NO_OWNER):
                for src in zones.get((zone, owner), ()):
                    c = cards[src]
                    if c.owner != player:
                        continue
                    mine = self._modifiers_of(c.def_id).get(modifier)
                    if mine:
                        out.append((src, mine))
        if reading is not None and reading[0] is self.state:
            reading[1][("modifier sources", modifier, player)] = out
        return out

    def _modifiers_of(self, def_id: str) -> dict[str, list[int]]:
        """Which of a card's modifiers are of each kind (by index), computed once per card."""
        known = self._modifier_index.get(def_id)
        if known is None:
            known = {}
            data = self.rs.cards[def_id].data if def_id in self.rs.cards else {}
            for i, mod in enumerate(data.get("modifiers", []) or []):
                known.setdefault(mod["modifier"], []).append(i)
            self._modifier_index[def_id] = known
        return known

    def _modifier_total(self, src, indices, player, card, values, params) -> int:
        total = 0
        for i in indices:
            extra = {name: values.get(name, card if name == "card" else None)
                     for name, _ in params}
            f = self.frame(player, this=src, **extra)
            cond = self.card_code(src, "modifier", i, "if")
            if cond is not None and not cond(f):
                continue
            total += self.card_code(src, "modifier", i, "amount")(f)
        return total
