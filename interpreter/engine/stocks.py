"""Stocks, production and pieces: what players hold, and changing it.

The part of :class:`~.game.Game` that reads and changes a player's stock and
production of each resource (with floors and capacities, refusing a payment
that cannot be made), resources held on cards and moved between cards and
players, and a player's pieces placed on cards and taken back.

Amounts are whole numbers within the integer bound (10^18), and none of the
numbers kept here ever leaves it. A negative amount is a rule error where it
would turn the statement around (losing, paying, adding or taking a negative
amount), naming the amount; a negative ``gain`` is a loss, and said so.
"""

from __future__ import annotations

from ..lang.runtime import MAX_INT, RuleRuntimeError, shown_number
from .decisions import ActionRefused, Decision
from .state import BIG, CardRef


class StocksMixin:
    """Stocks, production and pieces: what players hold, and changing it."""

    def stock(self, player, resource):
        if player is None:
            raise RuleRuntimeError("no player to read the stock of")
        return self.state.players[player].stock.get(resource, 0)

    def production(self, player, resource):
        return self.state.players[player].production.get(resource, 0)

    def capacity(self, player, resource):
        code = self.rs.code.get(("resource", resource, "capacity"))
        if code is None:
            return BIG
        reading = self.memo  # while the engine only reads, each room is worked out once
        if reading is not None and reading[0] is self.state:
            key = ("capacity", player, resource)
            found = reading[1].get(key)
            if found is None:
                found = reading[1][key] = code.call(self, {"you": player})
            return found
        return code.call(self, {"you": player})

    @staticmethod
    def _amount(amount, words, negative_ok=False) -> int:
        """The amount of a statement, checked: a number within the bound, and not below 0
        unless the statement may take it so. ``words()`` says the statement with the
        amount ('pay -3 gold') for the error."""
        if amount.__class__ is int and -MAX_INT <= amount <= MAX_INT and (
                amount >= 0 or negative_ok):
            return amount
        if amount is None:
            raise RuleRuntimeError(f"cannot {words()}: the amount is none, not a number")
        if not isinstance(amount, int):
            raise RuleRuntimeError(f"cannot {words()}: the amount is not a number")
        if -MAX_INT <= amount <= MAX_INT:
            if amount >= 0 or negative_ok:
                return int(amount)
            raise RuleRuntimeError(f"cannot {words()}: the amount is negative")
        raise RuleRuntimeError(f"cannot {words()}: the amount is beyond the limit of "
                               f"{MAX_INT:,} (10^18)")

    @staticmethod
    def _beyond(value, what: str) -> RuleRuntimeError:
        """The error for a number the game keeps (a stock, a production) leaving the bound."""
        return RuleRuntimeError(f"{what} would be {shown_number(value)}, beyond the limit of "
                                f"{MAX_INT:,} (10^18)")

    def change_stock(self, player, resource, amount, verb):
        p = self.state.players[player]
        if resource not in self.resource_decl:
            raise RuleRuntimeError(f"'{resource}' is not a resource players hold")
        if amount.__class__ is not int or not 0 <= amount <= MAX_INT:
            amount = self._amount(amount, lambda: f"{verb} {shown_number(amount)} "
                                  f"{self._res_name(resource)}",
                                  verb == "gain")
        have = p.stock.get(resource, 0)
        floor = int(self.resource_decl[resource].get("min", 0))
        if verb == "gain" and amount < 0:
            verb, amount = "lose", -amount
        if verb == "gain":
            cap = self.capacity(player, resource)
            now = min(have + amount, max(cap, have))
        elif verb == "pay":
            if have - amount < floor:
                raise ActionRefused(f"needs {self.amount_words(resource, amount)} to pay; "
                                    f"{self._you_have(player)} {have}")
            now = have - amount
        else:
            now = max(floor, have - amount)
        if not -MAX_INT <= now <= MAX_INT:
            raise self._beyond(now, f"{p.name}'s {self._res_name(resource)}")
        self.state.set_player(player, "stock", resource, now)
        if self.logging and (p.stock[resource] != have or verb == "gain" and amount > 0):
            moved = abs(p.stock[resource] - have)
            key = ("stock", player, resource, verb)
            last = self._last_stock if not self.listeners else None  # printed lines stay
            sign = "+" if verb == "gain" else "−"  # as the news and the status say it
            lost = amount - (p.stock[resource] - have) if verb == "gain" else 0
            if last is not None and last[0] == key and self._last_line() == last[2]:
                moved += last[1]  # 1 gold and 1 gold more, in a row: one line, '2 gold'
                lost += last[3]  # and what did not fit of each
            room = f"; {lost} more did not fit" if lost > 0 else ""  # over the capacity
            line = f"  {p.name}: {sign}{self.amount_words(resource, moved)} " \
                   f"(now {p.stock[resource]}{room})"
            if moved == 0 and lost > 0:  # nothing came in at all: say that first
                line = f"  {p.name} gains no {self._res_name(resource)}: " \
                       f"{self.amount_words(resource, lost)} would not fit " \
                       f"(stays at {p.stock[resource]})"
            if last is not None and last[0] == key and self._last_line() == last[2]:
                self._replace_last_line(line)
            else:
                self.log(line)
            self._last_stock = (key, moved, line, lost)

    def amount_words(self, resource, n) -> str:
        """'3 apples', '1 apple', '18 coins'."""
        return f"{n} {self.rs.words.thing('resource', resource, n)}"

    def _you_have(self, player) -> str:
        return "you have" if player == self._acting() else \
            f"{self.state.players[player].name} has"

    def _res_name(self, resource):
        return self.rs.words.thing("resource", resource, 2)

    def change_production(self, player, resource, amount, verb="gain"):
        # 'gain' moves a production by the amount, up or down as its sign says (as the log
        # does); 'lose' and 'pay' take it down by an amount that may not be below 0
        p = self.state.players[player]
        if verb != "gain":
            taken = amount
            amount = -self._amount(taken, lambda: f"{verb} {shown_number(taken)} "
                                   f"{self.rs.words.thing('resource', resource, 1)} "
                                   "production")
        elif amount.__class__ is not int or not -MAX_INT <= amount <= MAX_INT:
            amount = self._amount(amount, lambda: f"change {p.name}'s "
                                  f"{self.rs.words.thing('resource', resource, 1)} production "
                                  f"by {shown_number(amount)}", True)
        prod = self.resource_decl[resource].get("production")
        floor = prod.get("min", 0) if isinstance(prod, dict) else 0
        now = p.production.get(resource, 0)
        if not -MAX_INT <= now + amount <= MAX_INT:
            raise self._beyond(now + amount, f"{p.name}'s "
                               f"{self.rs.words.thing('resource', resource, 1)} production")
        if now + amount < floor:
            who = "your" if player == self._acting() else f"{p.name}'s"
            name = self.rs.words.thing("resource", resource, 1)
            raise ActionRefused(f"needs {who} {name} production to go down by {-amount}; "
                                f"it is {now} and cannot go below {floor}")
        self.state.set_player(player, "production", resource, now + amount)
        if self.logging and amount:
            name = self.rs.words.thing("resource", resource, 1)
            self.log(f"  {p.name}: {name} production {'+' if amount > 0 else '−'}"
                     f"{abs(amount)} (now {now + amount})")

    def pieces_on(self, card, player):
        return self.state.cards[card].pieces.get(player, 0)

    def place_pieces(self, count, card, player, stock):
        if count <= 0:
            return
        if stock is not None:
            have = self.state.players[player].stock.get(stock, 0)
            if have < count:
                raise ActionRefused(f"needs {self.amount_words(stock, count)}; "
                                    f"{self._you_have(player)} {have}")
            self.state.set_player(player, "stock", stock, have - count)
        pieces = self.state.cards[card].pieces
        self.state.set_on_card(card, "pieces", player, pieces.get(player, 0) + count)
        if stock is not None:  # what they are, for people: '1 worker', not '1 piece'
            kinds = self.state.cards[card].kinds
            self.state.set_on_card(card, "kinds", (player, stock),
                                   kinds.get((player, stock), 0) + count)
        pieces = self.state.cards[card].pieces
        if self.logging:
            what = self.amount_words(stock, count) if stock is not None else \
                f"{count} {self.rs.words.pieces(count)}"
            mine, total = pieces[player], sum(v for v in pieces.values() if v)
            # (the mover's pieces there; the others' too, when they have some there)
            line = f"  {self.state.players[player].name}: {what} → {self.card_name(card)} "
            if total == mine:
                self.log(f"{line}(now {mine} there)")
            else:  # (the mover reads their own: 'of yours')
                self.log(f"{line}(now {mine} of theirs there, {total} in all)",
                         {player: f"{line}(now {mine} of yours there, {total} in all)"})

    def take_pieces(self, count, card, player, stock):
        pieces = self.state.cards[card].pieces
        count = min(count, pieces.get(player, 0))
        if count <= 0:
            return
        left = pieces[player] - count
        self.state.set_on_card(card, "pieces", player, left if left else None)
        kinds = self.state.cards[card].kinds
        if stock is not None and kinds.get((player, stock)):
            kept = kinds[(player, stock)] - count
            self.state.set_on_card(card, "kinds", (player, stock), kept if kept > 0 else None)
        if stock is not None:
            self.state.set_player(player, "stock", stock,
                                  self.state.players[player].stock.get(stock, 0) + count)
        if self.logging:  # 'Ann: 1 worker back from Lamp (now 4)', as placing them reads
            who = self.state.players[player].name
            now = self.state.players[player].stock[stock] if stock is not None else 0
            shared = self.rs.words.pieces(count)
            if stock is not None and shared not in ("piece", "pieces") \
                    and self.amount_words(stock, count) != f"{count} {shared}":
                # pieces with a word of their own, going to a stock named otherwise: where
                # they went, not '2 spare cubes back from Rain' (spare cubes came back?)
                stocks = self.amount_words(stock, 2).split(" ", 1)[-1]
                self.log(f"  {who}: {count} {shared} off {self.card_name(card)} → {stocks} "
                         f"(now {now})")
            elif stock is not None:
                self.log(f"  {who}: {self.amount_words(stock, count)} back from "
                         f"{self.card_name(card)} (now {now})")
            else:
                self.log(f"  {who}: {count} {self.rs.words.pieces(count)} off "
                         f"{self.card_name(card)} ({left} left there)")

    def resources_on(self, card, resource):
        return self.state.cards[card].resources.get(resource, 0)

    def transfer(self, verb, resource, amount, up_to, source, dest, player):
        cards = self.state.cards
        if amount.__class__ is not int or not 0 <= amount <= MAX_INT:
            amount = self._amount(amount, lambda: f"{verb} {'up to ' if up_to else ''}"
                                  f"{shown_number(amount)} "
                                  f"{self._card_res(resource, 2).split(' ', 1)[1]}")
        if verb == "add":
            if dest is None:
                raise ActionRefused("there is no card to add to")
            r = self.state.cards[dest].resources
            self.state.set_on_card(dest, "resources", resource,
                                   self._on_card(r.get(resource, 0) + amount, resource, dest))
            r = self.state.cards[dest].resources
            if self.logging and amount:
                self.log(f"  {self.card_name(dest)}: +{self._card_res(resource, amount)} "
                         f"(now {r[resource]})")
            return
        said = verb  # (a steal is a move to the mover; its words say steal)
        if verb == "steal":
            dest, verb = player, "move"
        if source is None:
            if up_to:
                return
            raise ActionRefused("there is nothing to take from")
        card_source = isinstance(source, CardRef)
        have = (cards[source].resources.get(resource, 0) if card_source
                else self.state.players[source].stock.get(resource, 0))
        what = self.card_name(source) if card_source else self.state.players[source].name
        if up_to:
            most = min(amount, have)
            if most > 0:
                self.asking = None
                noun = self._card_res(resource, 2).split(" ", 1)[1]
                doing = "Move" if verb == "move" else "Remove"
                amount = self.decide(Decision(
                    self._acting(), "number",
                    self._prompt_later(f"{doing} how many {noun} from {what}? (up to {most})"),
                    low=0, high=most)) if most > 0 else 0
            else:
                amount = 0
        elif have < amount:
            raise ActionRefused(f"needs {self._card_res(resource, amount)} on {what}; "
                                f"there {'is' if have == 1 else 'are'} {have}")
        if amount <= 0:
            if up_to and self.logging and have > 0 and player is not None:
                # the source was named (chosen, or the only one) and then left alone: say
                # so, or the choice reads as an attack that took something ('Oak Mill on
                # Ann' with no loss after it: playtest 32)
                noun = self._card_res(resource, 2).split(" ", 1)[1]
                told = {"move": "moves", "remove": "removes", "steal": "steals"}.get(said, said)
                self.log(f"  {self.state.players[player].name} {told} no {noun} from {what}")
            return
        if card_source:
            self.state.set_on_card(source, "resources", resource, have - amount)
        else:
            self.state.set_player(source, "stock", resource, have - amount)
        if self.logging:
            self.log(f"  {what}: −{self._card_res(resource, amount)} (now {have - amount})")
        if verb == "move" and dest is not None:
            if isinstance(dest, CardRef):
                r = self.state.cards[dest].resources
                self.state.set_on_card(dest, "resources", resource,
                                       self._on_card(r.get(resource, 0) + amount, resource,
                                                     dest))
            else:
                self.change_stock(dest, resource, amount, "gain")

    def _on_card(self, value, resource, card) -> int:
        if value > MAX_INT:
            raise self._beyond(value, f"the {self._card_res(resource, 2).split(' ', 1)[1]} on "
                               f"{self.card_name(card)}")
        return value

    def _card_res(self, resource, n) -> str:
        w = self.rs.words
        kind = "card_resource" if resource not in self.resource_decl else "resource"
        return f"{n} {w.thing(kind, resource, n)}"
