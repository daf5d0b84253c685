"""Cards and zones: where each card is, what it says, and moving it.

The part of :class:`~.game.Game` that reads cards (their fields, markers,
requirements, blocks and printed points), finds the zone a card is in and
the cards a zone holds, moves cards between zones (drawing with refills,
putting into slots with overflow, shuffling) and tells the log about it as
each seat may know it. Zone visibility (who sees which cards) lives here too.
"""

from __future__ import annotations

from ..lang.runtime import Frame, RuleRuntimeError
from .decisions import ActionRefused
from .state import NO_OWNER


class CardFacts(dict):
    """A game's cards' fixed facts, as compiled rules read them: field name -> card number
    -> value (what :meth:`CardsMixin.card_field` answers), each worked out the first
    time it is read. Every field but ``owner`` is printed on the card or declared for its
    kind, and a card's number keeps its kind all game, so a value once read stays true;
    the game's copies (lookahead, determinised twins) share the table. A number that is
    no card raises the KeyError ``card_field`` raises.

    The cards a game starts with are numbered from the ruleset alone (its cards in
    order, each copy in turn), so what is read of them is kept for the ruleset's later
    games too (``shared``); a card made later (a scenario's position) is the game's own."""

    __slots__ = ("game", "shared", "known")

    def __init__(self, game, shared: dict, known: int):
        super().__init__()
        self.game, self.shared, self.known = game, shared, known

    def __missing__(self, name):
        table = self[name] = _CardFact(self, name)
        found = self.shared.get(name)
        if found:
            table.update(found)
        return table


class _CardFact(dict):
    """One field of every card of the game, by card number (see :class:`CardFacts`)."""

    __slots__ = ("facts", "name")

    def __init__(self, facts: CardFacts, name: str):
        super().__init__()
        self.facts, self.name = facts, name

    def __missing__(self, number):
        facts = self.facts
        game = facts.game
        def_id = game.state.cards[number].def_id
        if self.name == "id":
            value = def_id
        else:
            table = game._field_tables.get(def_id)
            if table is None:
                table = game._field_table(def_id)
            value = table.get(self.name)
        self[number] = value
        if 0 < number <= facts.known:  # a card every game of the ruleset numbers so
            facts.shared.setdefault(self.name, {})[number] = value
        return value


class CardsMixin:
    """Cards and zones: where each card is, what it says, and moving it."""

    def card_code(self, card: int, *part):
        return self.rs.code.get(("card", self.state.cards[card].def_id) + part)

    def card_data(self, card: int) -> dict:
        return self.rs.cards[self.state.cards[card].def_id].data

    def card_name(self, card: int) -> str:
        return self.card_data(card).get("name", self.state.cards[card].def_id)

    def card_summary(self, card: int, seat: int | None = None) -> str:
        """Cost, tags, printed facts and the card's text, for people choosing it; for
        ``seat``, the price it pays now beside the printed cost when the two differ."""
        from ..lang.words import catalogue_entry, facts_line
        c = self.state.cards[card]
        cache = self.__dict__.setdefault("_card_text", {})
        if c.def_id not in cache:
            entry = catalogue_entry(self.rs, c.def_id)
            cache[c.def_id] = (entry, " · ".join(
                p for p in [facts_line(entry)] + entry["lines"] if p))
        entry, text = cache[c.def_id]
        if seat is None or entry.get("cost") is None or seat >= self.n:
            return text
        price = self.card_price(card, seat)
        if price is None or price == entry["cost"]:
            return text
        return " · ".join(p for p in [facts_line(entry, price)] + entry["lines"] if p)

    def card_fact(self, card: int, fid: str) -> str | None:
        """The sentence a printed field of the card gives ('Discard it from your hand
        for 1 wood + 1 stone.'), or None."""
        from ..lang.words.cards import field_fact
        return field_fact(self.rs, self.state.cards[card].def_id, fid)

    def card_state(self, card: int) -> str:
        """What lies on a card now, for people choosing it, as the table shows it: its
        marks, the resources on it and each player's pieces by what they are ('failed ·
        Player 2 3 cubes, Player 3 1 cube'); '' when nothing does."""
        c = self.state.cards[card]
        words = self.rs.words
        parts = [words.thing("marker", m) for m in sorted(c.markers)]
        parts += [f"{v} {words.thing('card_resource', k, v)}"
                  for k, v in c.resources.items() if v]
        pieces = [f"{self.state.players[s].name} {self.pieces_words(c, s, v)}"
                  for s, v in sorted(c.pieces.items()) if v]
        if pieces:
            parts.append(", ".join(pieces))
        return " · ".join(parts)

    def pieces_words(self, c, seat: int, count: int) -> str:
        """A player's pieces on a card by what they are ('1 worker, 2 cubes'), as
        far as it is known (pieces a scenario put there are 'pieces'); pieces whose kinds
        share one word are called by it ('Stored cubes', 'Supply cubes': '3 cubes')."""
        shared = self.rs.words.pieces(count)
        if shared not in ("piece", "pieces"):
            return f"{count} {shared}"
        known = [(k, n) for (s, k), n in sorted(c.kinds.items()) if s == seat and n]
        rest = count - sum(n for _, n in known)
        if rest < 0:
            known, rest = [], count
        parts = [self.amount_words(k, n) for k, n in known]
        if rest:
            parts.append(f"{rest} {self.rs.words.pieces(rest)}")
        return ", ".join(parts)

    def zone_state(self, zone: str, seat: int) -> str:
        """A shared zone offered as an option: the cards in it that ``seat`` sees, each
        with what lies on it ('Fire: Player 2 2 cubes; The Wheel'); '' for none."""
        if self.zone_scope.get(zone) == "player":
            return ""
        out = []
        for card in self.state.zones.get((zone, NO_OWNER), ()):
            if self.card_visible_to(card, seat):
                state = self.card_state(card)
                out.append(f"{self.card_name(card)}{' (' + state + ')' if state else ''}")
        return "; ".join(out)

    def visible_to(self, zone, owner, seat) -> str:
        """'all' (cards shown), or 'count' (only how many) for this seat."""
        vis = self.zone_decl[zone].get("visibility", "public")
        if vis == "public":
            return "all"
        if vis == "owner" and owner == seat:
            return "all"
        return "count"

    def card_visible_to(self, card, seat) -> bool:
        c = self.state.cards[card]
        return self.visible_to(c.zone, c.zone_owner, seat) == "all" or c.owner == seat

    def _zone_key(self, zone, player):
        if self.zone_scope[zone] == "player":
            if player is None or player < 0:
                raise RuleRuntimeError(f"zone '{zone}' belongs to a player; say whose")
            return (zone, player)
        return (zone, NO_OWNER)

    # The lists handed to rules are copies, and a copy is work: a step per card, charged
    # to the budget here, where the copy is made (a rule reading a large deck in a loop
    # runs out of steps instead of time).
    def cards_in(self, zone, player):
        # (the zone's key as _zone_key makes it, written out: the hottest read of a game)
        if self.zone_scope[zone] == "player":
            if player is None or player < 0:
                raise RuleRuntimeError(f"zone '{zone}' belongs to a player; say whose")
            out = list(self.state.zones[(zone, player)])
        else:
            out = list(self.state.zones[(zone, NO_OWNER)])
        budget = self.budget
        budget.used += len(out)
        if budget.used > budget.limit:
            raise budget.exceeded(None)
        return out

    def zone_cards(self, zone, player):
        """The zone's own list, charged as :meth:`cards_in` charges its copy: for compiled
        rules that read it at once and let it go while no card moves (its size, whether
        it holds a card, a comprehension that changes nothing). Never changed, never kept."""
        if self.zone_scope[zone] == "player":  # (_zone_key, written out)
            if player is None or player < 0:
                raise RuleRuntimeError(f"zone '{zone}' belongs to a player; say whose")
            out = self.state.zones[(zone, player)]
        else:
            out = self.state.zones[(zone, NO_OWNER)]
        budget = self.budget
        budget.used += len(out)
        if budget.used > budget.limit:
            raise budget.exceeded(None)
        return out

    def all_cards_in(self, zone):
        if self.zone_scope[zone] == "player":
            out = [c for seat in range(self.n) for c in self.state.zones[(zone, seat)]]
        else:
            out = list(self.state.zones[(zone, NO_OWNER)])
        budget = self.budget
        budget.used += len(out)
        if budget.used > budget.limit:
            raise budget.exceeded(None)
        return out

    def zone_of(self, card):
        return self.state.cards[card].zone

    def slot_of(self, card):
        c = self.state.cards[card]
        return self.state.zones[(c.zone, c.zone_owner)].index(card) + 1

    def card_field(self, card, name):
        """A card's field; compiled rules read the fixed ones (all but ``owner``) from
        ``card_facts`` instead (one dict lookup, see :class:`CardFacts`)."""
        c = self.state.cards[card]
        if name == "id":
            return c.def_id
        if name == "owner":
            return None if c.owner == NO_OWNER else c.owner
        table = self._field_tables.get(c.def_id)
        if table is None:
            table = self._field_table(c.def_id)
        if name == "tags":
            tags = table["tags"]
            budget = self.budget  # a copy: a step per tag (see cards_in)
            budget.used += len(tags)
            if budget.used > budget.limit:
                raise budget.exceeded(None)
            return list(tags)
        return table.get(name)

    def _field_table(self, def_id: str) -> dict:
        """Every field a card of this kind answers, worked out once (card data never changes).

        The printed facts (name, number, type, holds, cost with 0 for none) come
        before the card's own ``fields``, which come before the declared defaults."""
        data = self.rs.cards[def_id].data
        table = dict(self.card_fields_default)
        table.update(data.get("fields") or {})
        for name in ("name", "number", "type", "holds"):
            table[name] = data.get(name)
        table["cost"] = data.get("cost", 0)
        table["tags"] = tuple(data.get("tags", []) or [])
        self._field_tables[def_id] = table
        return table

    def is_marked(self, card, marker):
        return marker in self.state.cards[card].markers

    def meets_requirements(self, card, player):
        """The card's printed requirement, and the ones its play implies (see
        :meth:`implied_refusal`)."""
        def_id = self.state.cards[card].def_id
        code = self.rs.code.get(("card", def_id, "requires"))
        if code is not None and not code.call(self, {"you": player, "this": card}):
            return False
        implied = self.rs.implied.get(("card", def_id)) if self.rs.implied else None
        return implied is None or self.implied_refusal(implied, player, card) is None

    def explain_requirements(self, card, player) -> str:
        """Why the player does not meet the card's requirement, in the card's own terms."""
        def_id = self.state.cards[card].def_id
        key = ("card", def_id, "requires")
        code = self.rs.code.get(key)
        why = None
        if code is None or code(self.frame(player, this=card)):
            why = self.implied_refusal(self.rs.implied.get(("card", def_id)) or [], player,
                                       card)
        if why is None:
            why = self.rs.explainer(key)(self.frame(player, this=card))
        name = self.card_name(card)
        if why.startswith(name):  # the rule's own words name it already
            return why
        # 'Temple needs at least 3 culture', 'Lamp: there is no card in the row'
        return f"{name} {why}" if why.startswith("needs ") else f"{name}: {why}"

    def implied_refusal(self, implied: list, player, card=None, frame=None) -> str | None:
        """Why the checks an effect's first statements imply fail now (None: they hold),
        for the player, the card being ``this`` (issue 26: nothing offered that cannot
        be carried out; the checks come from lang/implied.py, made when loaded).
        ``frame``: the one a ``require`` is read in (an action's, with its variable)."""
        given = frame
        for item, cond in implied:
            kind, resource, n = item.kind, item.resource, item.amount
            frame = given
            if item.variables and kind in ("require", "place", "choose"):
                # found in a procedure the effect calls: read with its parameters bound
                f = given or (self.frame(player, this=card) if card is not None
                              else self.frame(player))
                frame = Frame(f.rt, dict(f.vars, **dict(item.variables)), f.depth, f.budget)
            if kind == "production":
                have = self.state.players[player].production.get(resource, 0)
                prod = self.resource_decl[resource].get("production")
                floor = prod.get("min", 0) if isinstance(prod, dict) else 0
                if have - n < floor:
                    name = self.rs.words.thing("resource", resource, 1)
                    if floor == 0:
                        return f"needs {n} {name} production to lose; you have {have}"
                    return (f"needs {name} production of at least {floor + n} to lose {n}; "
                            f"it is {have}")
            elif kind == "pay":
                have = self.state.players[player].stock.get(resource, 0)
                floor = int(self.resource_decl[resource].get("min", 0))
                if have - n < floor:
                    return f"needs {self.amount_words(resource, n)} to pay; you have {have}"
            elif kind == "on_card":
                if card is None:
                    continue
                have = self.state.cards[card].resources.get(resource, 0)
                if have < n:
                    return (f"needs {self._card_res(resource, n)} on {self.card_name(card)} "
                            f"to remove; there {'is' if have == 1 else 'are'} {have}")
            elif kind == "place":
                f = frame or (self.frame(player, this=card) if card is not None
                              else self.frame(player))
                if cond is None:
                    target = None
                else:
                    def target(space, _f=f):
                        return bool(cond(Frame(_f.rt, dict(_f.vars, space=space), _f.depth,
                                               _f.budget)))
                if not self.placement_possible(resource, player, item.mode, target):
                    return self.no_space_for(resource)
            elif kind == "choose":
                f = frame or (self.frame(player, this=card) if card is not None
                              else self.frame(player))
                if not cond(f):
                    return self.rs.words.why_not(item.cond, f)
            else:  # a require
                f = frame or (self.frame(player, this=card) if card is not None
                              else self.frame(player))
                if not cond(f):
                    return item.message or self.rs.words.why_not(item.cond, f)
        return None

    def can_run(self, card, block, player) -> bool:
        code = self.card_code(card, *(("play",) if block == "play" else ("block", block)))
        if code is None:
            return False
        return self.why_not_effect(lambda: code(self.frame(player, this=card))) is None

    def has_block(self, card, block):
        data = self.card_data(card)
        if block == "play":
            return data.get("play") is not None
        return block in (data.get("blocks") or {})

    def vp_of(self, card):
        code = self.card_code(card, "vp")
        if code is None:
            return 0
        owner = self.state.cards[card].owner
        return code.call(self, {"you": None if owner == NO_OWNER else owner, "this": card})

    def about_card(self, card, body, frame):
        """Run ``body`` with the card named in the prompts it asks ('Quarry: …')."""
        self.context_cards.append(card)
        try:
            return body(frame)
        finally:
            self.context_cards.pop()

    def asking_about(self, card):
        """Questions asked from now name ``card`` (a loop over cards is at it), until
        :meth:`asked_about`."""
        self.context_cards.append(card)

    def asked_about(self):
        self.context_cards.pop()

    def run_block(self, card, block, player):
        code = self.card_code(card, *(("play",) if block == "play" else ("block", block)))
        if code is None:
            raise ActionRefused(f"{self.card_name(card)} has no {block}")
        self.about_card(card, code, self.frame(player, this=card))

    def draw(self, count, from_zone, to_zone, player):
        drawn = []
        self.zmemo = None  # cards move: what was read from the zones is out of date
        self._in_play_changes(from_zone, to_zone,
                              self.zone_decl.get(from_zone, {}).get("refill_from"))
        self._hidden_moves += 1  # one line for the lot instead of one per hidden card
        try:
            for _ in range(count):
                key = self._zone_key(from_zone, player)
                if not self.state.zones[key]:
                    refill = self.zone_decl[from_zone].get("refill_from")
                    if refill:
                        rkey = self._zone_key(refill, player)
                        if self.state.zones[rkey] and self.logging:
                            self.log(f"  {self.zone_words(refill, rkey[1])} is shuffled to "
                                     f"form {self.zone_words(from_zone, key[1])} again")
                        st = self.state
                        cards = st.zone_saved(key)  # (its order kept, for a rollback)
                        cards.extend(st.zones[rkey])
                        for c in st.zones[rkey]:
                            st.place_card(c, from_zone, key[1], st.cards[c].owner)
                        st.set_zone(rkey, [])
                        st.rng.shuffle(cards)
                if not self.state.zones[key]:
                    break
                card = self.state.zones[key][0]
                self.put(card, to_zone, player, 0)
                drawn.append(card)
        finally:
            self._hidden_moves -= 1
        to_decl = self.zone_decl[to_zone]
        if drawn and self.logging and to_decl.get("visibility", "public") != "public":
            to_key = self._zone_key(to_zone, player)
            n = len(drawn)
            source = self.zone_words(from_zone, self._zone_key(from_zone, player)[1])
            private = None
            if to_decl.get("visibility") == "owner" and to_key[1] != NO_OWNER:
                names = ", ".join(self.card_name(c) for c in drawn)
                private = {to_key[1]: f"  {n} card{'s' if n != 1 else ''} from {source} → "
                                      f"your {self._zone_noun(to_zone)}: {names}"}
            self.log(f"  {n} card{'s' if n != 1 else ''} from {source} → "
                     f"{self.zone_words(to_zone, to_key[1])}", private)

    def _zone_noun(self, zone) -> str:
        from ..lang.words import lower_name
        return lower_name(self.zone_decl[zone].get("name") or zone.replace("_", " "))

    def zone_words(self, zone, owner) -> str:
        """'Discard pile', "Ann's hand": a zone as the log names it."""
        name = self.zone_decl[zone].get("name") or zone.replace("_", " ")
        from ..lang.words import lower_name
        if owner is None or owner == NO_OWNER:
            return name
        return f"{self.state.players[owner].name}'s {lower_name(name)}"

    def put(self, card, zone, player, slot):
        self.zmemo = None  # cards move: what was read from the zones is out of date
        st = self.state
        c = st.cards[card]
        if self.smemo is not None and (c.zone in self.in_play_zones
                                       or zone in self.in_play_zones):
            self.smemo = None  # (see _in_play_changes)
        key = self._zone_key(zone, player)
        records = self.zone_records[zone]
        if records != "none" and (self.zone_records[c.zone] != records
                                  or c.zone_owner != key[1]):
            # a card entering play or a player's hands: credited to the zone's owner,
            # or for a shared zone to the player whose effect moved it
            seat = key[1] if key[1] != NO_OWNER else player
            if seat is not None and seat >= 0:
                st.count("tally", (records, seat, c.def_id))
        was = self.zone_decl[c.zone].get("visibility", "public")
        was_public = was == "public"
        if was in ("hidden", "count"):
            self.reveals += 1
        c = st.move(card, key, slot - 1 if slot and slot > 0 else None,
                    key[1] if key[1] != NO_OWNER else c.owner)
        cards = st.zones[key]
        decl = self.zone_decl[zone]
        if self.logging:
            now_public = decl.get("visibility", "public") == "public"
            if was_public or now_public:  # everyone saw the card: say which and where
                # (its owner reads 'your hand', as for the cards only they may see)
                mine = {key[1]: f"  {self.card_name(card)} → your {self._zone_noun(zone)}"} \
                    if key[1] != NO_OWNER else None
                self.log_move(card, f"  {self.card_name(card)} → "
                              f"{self.zone_words(zone, key[1])}", mine)
            else:
                self.log_unmoved(card)
            if not (was_public or now_public) and not self._hidden_moves:
                private = None
                if decl.get("visibility") == "owner" and key[1] != NO_OWNER:
                    private = {key[1]: f"  {self.card_name(card)} → your "
                                       f"{self._zone_noun(zone)}"}
                self.log(f"  a card → {self.zone_words(zone, key[1])}", private)
        limit = decl.get("slots")
        while limit and len(cards) > limit:
            pushed = cards[-1]
            if decl.get("overflow"):
                self.put(pushed, decl["overflow"], None if key[1] == NO_OWNER else key[1], 0)
            else:
                raise ActionRefused(f"{zone} is full ({limit} cards)")

    def shuffle(self, zone, player):
        # cards move: what was read from the zones is out of date; the cards in play with
        # modifiers too, whichever zone is shuffled (a shuffle is rare, and a rule that
        # shuffles and asks a modifier over and over pays for the look each time, as
        # before: tests/test_attacks_budget.py, modifier_moving)
        self.zmemo = self.smemo = None
        key = self._zone_key(zone, player)
        cards = self.state.zones[key]
        budget = self.budget  # a step per card shuffled, as for a list read (see cards_in)
        budget.used += len(cards)
        if budget.used > budget.limit:
            raise budget.exceeded(None)
        st = self.state
        st.rng.shuffle(st.zone_saved(key))

    def _in_play_changes(self, *zones) -> None:
        """Cards move from or to these zones: when one is in play,
        the cards in play with modifiers, kept per kind and player (``smemo``: see
        :meth:`~.modifiers.ModifiersMixin._modifier_sources`), are out of date."""
        if self.smemo is not None and not self.in_play_zones.isdisjoint(zones):
            self.smemo = None

    def set_marker(self, card, marker, value):
        self.state.set_marker(card, marker, bool(value))
