"""Events and triggers: emitting an event, counting it, running what it triggers.

The part of :class:`~.game.Game` that records each event in the history (per
round, turn and game, so effects can count them) and runs the ruleset's
triggers and the triggers of every card in play that listen to it.
"""

from __future__ import annotations


class EventsMixin:
    """Events and triggers: emitting an event, counting it, running what it triggers."""

    def emit(self, event, payload):
        who = payload.get("player")
        self.budget.charge(1, None)  # and one step per card whose triggers are looked at
        st = self.state
        st.count_each("history", ((event, who, "round", st.round),
                                  (event, who, "turn", st.turn_number),
                                  (event, who, "game", 0)))
        for tid, entry in self.rs.sections["triggers"].items():
            if entry.data["on"] != event:
                continue
            f = self.frame(who, event=payload)
            cond = self.rs.code.get(("trigger", tid, "if"))
            if cond is None or cond(f):
                self.run_code(("trigger", tid, "do"), f)
        listening = self._listening(event)
        zones, states = self.state.zones, self.state.cards
        for key in self._play_zone_keys():
            cards = zones.get(key)
            if not cards:
                continue
            self.budget.charge(len(cards), None)
            if not listening:
                continue  # no kind of card listens to this event: none to look at closely
            for card in list(cards):
                if states[card].def_id in listening:
                    self._card_triggers(card, event, payload, who)

    def _listening(self, event) -> frozenset:
        """The kinds of card with a trigger on this event (card data never changes)."""
        table = self.__dict__.setdefault("_listeners", {})
        found = table.get(event)
        if found is None:
            found = table[event] = frozenset(
                cid for cid, entry in self.rs.cards.items()
                if any(t.get("on") == event for t in entry.data.get("triggers", []) or []))
        return found

    def _play_zone_keys(self) -> list:
        """The in-play zones of every owner, in the order the state holds them."""
        keys = self.__dict__.get("_play_keys")
        if keys is None:
            keys = self._play_keys = [k for k in self.state.zones if k[0] in self.in_play_zones]
        return keys

    def _card_triggers(self, card, event, payload, who):
        c = self.state.cards[card]
        for i, trig in enumerate(self.card_data(card).get("triggers", []) or []):
            if trig["on"] != event:
                continue
            scope = trig.get("scope", "you")
            owner = c.owner
            if scope == "you" and who != owner or scope == "opponents" and who == owner:
                continue
            if payload.get("card") == card and not trig.get("include_self"):
                continue
            f = self.frame(owner, this=card, event=payload)
            cond = self.card_code(card, "trigger", i, "if")
            if cond is None or cond(f):
                code = self.card_code(card, "trigger", i, "do")
                if code is not None:
                    self.about_card(card, code, f)

    def count_history(self, event, player, scope):
        key = {"round": self.state.round, "turn": self.state.turn_number, "game": 0}.get(scope, 0)
        return self.state.history.get((event, player, scope, key), 0)
