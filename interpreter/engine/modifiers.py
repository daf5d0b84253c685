"""Modifiers: the sum of what cards in play add to a named quantity.

The part of :class:`~.game.Game` that adds up a modifier (a discount, a bonus)
over the cards a player has in play, each card's modifiers indexed once by kind.
"""

from __future__ import annotations

from .state import NO_OWNER


class ModifiersMixin:
    """Modifiers: the sum of what cards in play add to a named quantity."""

    def modifier(self, modifier, player, card, values=None):
        sources = self._modifier_sources(modifier, player)
        if not sources:  # most asks: no card of the player's adds to this one
            return 0
        total = 0
        params = self.rs.table.modifier_params.get(modifier, [])
        values = dict(values or {})
        for src, mine in sources:
            total += self._modifier_total(src, mine, player, card, values, params)
        return total

    def _modifier_sources(self, modifier, player) -> list:
        """The player's cards in play with modifiers of this kind, and which ones.

        Finding them looks at every card in play that the player may own, a step
        each. The lists are kept (``smemo``) until a card enters or leaves a zone
        in play (see ``CardsMixin._in_play_changes``), a zone is shuffled or the
        state is rolled back: cards drawn, discarded or passed between hands leave
        them as they are. So asking a modifier again and again costs only its own
        rules, however many cards are in play."""
        state = self.state
        kept = self.smemo
        if kept is None or kept[0] is not state:
            self.smemo = kept = (state, {})
        key = (modifier, player)
        out = kept[1].get(key)
        if out is not None:
            return out
        out = []
        looked = 0
        zones, cards = state.zones, state.cards
        for zone in self.in_play_zones:
            for owner in (player, NO_OWNER):
                here = zones.get((zone, owner), ())
                looked += len(here)
                for src in here:
                    c = cards[src]
                    if c.owner != player:
                        continue
                    mine = self._modifiers_of(c.def_id).get(modifier)
                    if mine:
                        out.append((src, mine))
        budget = self.budget
        budget.used += looked
        if budget.used > budget.limit:
            raise budget.exceeded(None)
        kept[1][key] = out
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
