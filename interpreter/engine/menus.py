"""Action menus worked out once per phase: what a seat may choose now, fast.

A seat is asked for an action again and again, and each time the menu was
built from nothing: every action's declaration read, its code looked up by
key, every card in play looked at for actions of its own, a frame made per
condition. :class:`Menu` does that reading once per phase (and once per card
definition for cards' actions): each action becomes a small record holding
its key, words, condition, ``once per``, ``each`` and implied checks, so that
building the menu is one loop over records, each condition called on its
variables (``run.call``: no frame is made unless its words are read).

The cards in play that have actions are indexed per seat, in the order the
zones hold them, beside the cards with modifiers (``Game.smemo``): the index
is forgotten whenever a card enters or leaves a zone in play, a zone is
shuffled or the state is rolled back (see ``CardsMixin._in_play_changes`` and
``Game.restore``), so a menu looks only at the cards that have actions, not at
every card in play.

The menu offers exactly what the loop over declarations offered, in the same
order, with the same reasons and the same charge to the work budget (a step
per action declared and per card in the zones looked at, and one per action
offered or refused); words (labels, reasons) are still made only when read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from ..lang.runtime import Frame
from .state import NO_OWNER


@dataclass
class ActionChoice:
    """One entry of a menu: an action, a card's action, or ending the turn or passing."""

    key: str  # "action:<id>[:<n>]" or "card:<number>:<index>[:<n>]" or "end" / "pass"
    words: Any  # what it is called: words, or a function making them when first read
    action: dict | None = None
    card: int | None = None
    index: int | None = None
    bind: tuple | None = None  # (name, element) for an action offered for each element

    @property
    def label(self) -> str:
        """What the menu calls it ('Quarry: build'), made when first read."""
        words = self.words
        if not isinstance(words, str):
            self.words = words = str(words())
        return words

    def said(self) -> str:  # (an option's label made when read: the same words)
        return self.label

    @property
    def use_key(self) -> str:
        """What once_per counts: the action itself, whichever element it was taken for."""
        return self.key.rsplit(":", 1)[0] if self.bind is not None else self.key


def _card_action_words(g, card, name: str) -> str:
    return f"{g.card_name(card)}: {name}"


def _each_words(g, choice: ActionChoice, item) -> str:
    return f"{choice.label}: {g._label(item)}"


_INDEX = object()  # the key of the per-seat index of cards with actions in ``Game.smemo``


class _Action:
    """One action as the menu offers it: what the declaration says, read once."""

    __slots__ = ("action", "name", "code", "cond", "pending", "fast", "explainer", "reason",
                 "explain", "implied", "each", "once", "free", "key", "label", "index",
                 "choice", "hide")

    def __init__(self, rs, code: tuple, action: dict, key: str, label, index, once_default):
        self.action = action
        self.code = code
        self.cond = rs.code.get(code + ("if",))
        self.pending = hasattr(self.cond, "ready")  # (see Compiler: written when first run)
        self.fast = None  # the condition run on its variables (gensupport.entry), once known
        self.reason = action.get("reason")
        self.explain = code + ("if",)
        self.explainer = None  # what says why the condition fails (made when first needed)
        self.implied = rs.implied.get(code) if rs.implied else None
        self.each = rs.code.get(code + ("each",))
        self.once = action.get("once_per", once_default)
        self.free = bool(action.get("free"))
        # not listed among the actions not available when it cannot be chosen (one that
        # applies to few players or moments): still counted, and still said when asked for
        self.hide = bool(action.get("hide_when_not_allowed"))
        self.key = key
        self.label = label
        self.index = index
        self.name = action.get("name") or "action"
        # a phase's action offered as itself (no card, no 'each', its name in words) is the
        # same entry at every menu: made once (nothing changes an entry once made)
        self.choice = ActionChoice(key, label, action) if index is None and isinstance(
            label, str) else None


class Unlisted:
    """The reason an action with ``hide_when_not_allowed`` cannot be chosen now: left out
    of the actions a person sees listed as not available, still said to whoever asks
    for that very action (a scenario's step, a script)."""

    __slots__ = ("reason",)

    def __init__(self, reason):
        self.reason = reason


class Menu:
    """The menu of one phase's turns (``turns``): its actions and the cards' actions."""

    def __init__(self, rs, turns: dict):
        self.rs = rs
        self.turns = turns  # (kept: the cache is keyed by its id)
        allowed = turns.get("actions_from")
        self.declared = len(rs.sections["actions"])  # the work: a step per action declared
        self.actions = []
        for aid, entry in rs.sections["actions"].items():
            if allowed is not None and aid not in allowed:
                continue
            action = entry.data
            label = action.get("name") or aid.replace("_", " ")
            self.actions.append(_Action(rs, ("action", aid), action, f"action:{aid}", label,
                                        None, "any"))
        self.card_actions = turns.get("card_actions", True)
        rounds = (rs.singles["rounds"].data if "rounds" in rs.singles else None) or {}
        self.round_words = str(rounds.get("name", "round")).lower()

    # -------------------------------------------------------------- the cards
    def only_one(self) -> bool:
        """Whether this phase's menu can only ever offer one action (no other action, no
        card's action, no 'each'): taking it for a player decides nothing."""
        return len(self.actions) == 1 and self.actions[0].each is None \
            and not self.card_actions

    def of_card(self, def_id: str) -> list:
        """The actions of a card definition (none for most), read once."""
        known = _card_actions(self.rs).get(def_id)
        if known is None:
            data = self.rs.cards[def_id].data
            known = [_Action(self.rs, ("card", def_id, "action", i), action, f":{i}", None, i,
                             "round")
                     for i, action in enumerate(data.get("actions", []) or [])]
            _card_actions(self.rs)[def_id] = known
        return known

    def cards(self, g, seat: int) -> tuple:
        """The seat's cards in play that have actions, in the order the zones hold them
        (card, its actions), and how many cards the zones looked at hold."""
        state = g.state
        kept = g.smemo
        if kept is None or kept[0] is not state:
            g.smemo = kept = (state, {})
        key = (_INDEX, seat)
        found = kept[1].get(key)
        if found is not None:
            return found
        looked, out = 0, []
        in_play, cards = g.in_play_zones, state.cards
        for (zone, owner), here in state.zones.items():
            if zone not in in_play or owner not in (seat, NO_OWNER):
                continue
            looked += len(here)
            for card in here:
                c = cards[card]
                if c.owner != seat:
                    continue
                mine = self.of_card(c.def_id)
                if mine:
                    out.append((card, mine))
        found = kept[1][key] = (out, looked)
        return found

    # --------------------------------------------------------------- the menu
    def offer(self, runner, pid: str, seat: int, main_left: bool) -> tuple[dict, list]:
        """The actions this seat may choose now (key -> choice), and the refused ones as
        (choice, reason) pairs, as ``FlowRunner.menu`` hands them out."""
        g = runner.game
        st = g.state
        out: dict = {}
        refused: list = []  # (choice, reason)
        tried = g.refusals.actions(seat)  # refused when tried at this very position
        if tried:
            from .refusals import shown
            tried = {key: shown(reason) for key, reason in tried.items()}
        used = st.used
        scopes = {"round": ("round", st.round), "turn": ("turn", st.turn_number),
                  "game": ("game", 0)}
        budget = g.budget
        looked = self.declared
        for a in self.actions:
            if not main_left and not a.free:
                continue
            choices = self._expand(g, a, a.choice or ActionChoice(a.key, a.label, a.action),
                                   seat)
            for choice in choices:
                reason = self._blocked(g, a, seat, None, choice, used, scopes) \
                    or tried.get(choice.key)
                if reason:
                    refused.append((choice, Unlisted(reason) if a.hide else reason))
                else:
                    out[choice.key] = choice
        if self.card_actions:
            holding, count = self.cards(g, seat)
            looked += count
            for card, mine in holding:
                prefix = None
                for a in mine:
                    if not main_left and not a.free:
                        continue
                    if prefix is None:
                        prefix = f"card:{int(card)}"
                    choice = ActionChoice(prefix + a.key,
                                          partial(_card_action_words, g, card, a.name),
                                          a.action, card, a.index)
                    for choice in self._expand(g, a, choice, seat):
                        reason = self._blocked(g, a, seat, card, choice, used, scopes) \
                            or tried.get(choice.key)
                        if reason:
                            refused.append((choice, Unlisted(reason) if a.hide else reason))
                        else:
                            out[choice.key] = choice
        budget.used += looked + len(out) + len(refused)
        if budget.used > budget.limit:
            raise budget.exceeded(runner._turns_span(pid))
        return out, refused

    def _expand(self, g, a: _Action, choice, seat: int) -> list:
        """An action with 'each' is offered once per element of its list."""
        if a.each is None:
            return (choice,)
        return _each_choices(g, a.each, choice, seat)

    def _blocked(self, g, a: _Action, seat: int, card, choice, used, scopes):
        """Why the action cannot be chosen now (words, or a function making them), or None:
        as ``FlowRunner.blocked`` says it."""
        once = a.once
        if once != "any" and (choice.use_key, seat, scopes[once]) in used:
            return f"already used this {self.round_words if once == 'round' else once}"
        bind = choice.bind
        cond = a.cond
        if cond is not None:
            variables = {"you": seat} if card is None else {"you": seat, "this": card}
            if bind is not None:
                variables[bind[0]] = bind[1]
            fast = a.fast
            if fast is not None:  # (no frame made unless the words are read)
                held = fast(g, variables)
            else:
                held = cond(Frame(g, variables, 0, g.budget))
                if a.pending:  # its Python is written when first run: from then on, that
                    a.cond, a.pending = cond.real or cond, cond.real is None
                a.fast = getattr(a.cond, "call", None) if not a.pending else None
            if not held:
                if a.reason:
                    return str(a.reason)
                explain = a.explainer
                if explain is None:
                    explain = a.explainer = self.rs.explainer(a.explain)
                budget = g.budget
                # words are made only if someone reads them
                return lambda: explain(Frame(g, variables, 0, budget))
        if a.implied is not None:  # what its first statements need (lang/implied.py)
            frame = None
            if bind is not None:
                variables = {"you": seat} if card is None else {"you": seat, "this": card}
                variables[bind[0]] = bind[1]
                frame = Frame(g, variables, 0, g.budget)
            return g.implied_refusal(a.implied, seat, card, frame)
        return None


def _each_choices(g, each, choice, seat: int) -> list:
    """The choice offered once per element of its 'each' list (``choice.action['as']``
    named after the element)."""
    f = g.frame(seat, this=choice.card) if choice.card is not None else g.frame(seat)
    name = choice.action["as"]
    return [ActionChoice(f"{choice.key}:{n}", partial(_each_words, g, choice, item),
                         choice.action, choice.card, choice.index, (name, item))
            for n, item in enumerate(each(f), 1)]


def _card_actions(rs) -> dict:
    """The actions of each card definition read so far, kept with the ruleset."""
    found = rs.menus.get(None)
    if found is None:
        found = rs.menus[None] = {}
    return found


def menu_for(rs, pid: str, turns: dict) -> Menu:
    """The menu of phase ``pid``'s turns, made once per ruleset."""
    key = (pid, id(turns))
    found = rs.menus.get(key)
    if found is None or found.turns is not turns:
        found = rs.menus[key] = Menu(rs, turns)
    return found
