"""Words for prompts: what is being done, the question, and option labels.

The part of :class:`~.game.Game` that writes, from the checked effects and the
values they have now, the prompt of a decision ('Build · Quarry: pay how many
gold?'), the labels of its options, and statements and failed conditions in
words. Who acts now (the seat that answers choices inside effects) lives here.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from .state import CardRef


class PromptsMixin:
    """Words for prompts: what is being done, the question, and option labels."""

    def _acting(self) -> int:
        if self.decider is not None:
            return self.decider
        return self.state.turn_seat if self.state.turn_seat >= 0 else 0

    def _prompt(self, text: str) -> str:
        """'Build · Quarry: pay how many gold?': what is done, then the question."""
        return self._prompt_of(self.context, self.context_cards, self._acting(), text)

    def _prompt_later(self, text: str):
        """The words of :meth:`_prompt`, or, when they take work, how to make them when
        someone reads them (what is being done is taken now)."""
        context, cards = self.context, self.context_cards
        if not cards and isinstance(context, str):
            return f"{context}: {text}" if context else text
        return partial(self._prompt_of, context, tuple(cards), self._acting(), text)

    def _prompt_of(self, context, cards, seat: int, text: str) -> str:
        # context: what is being done, words or the action (its label made when read)
        where = [context if isinstance(context, str) else context.label] if context else []
        for card in cards:
            name = self.card_name(card)
            if name not in where and self.card_visible_to(card, seat):
                where.append(name)
        return f"{' · '.join(where)}: {text}" if where else text

    def _ask_prompt(self, ask, fallback: str, where: str = "") -> str:
        """The prompt of a choice: the statement it belongs to, in words, now."""
        if ask is None or ask[0] is None:
            return where + fallback
        from ..lang import ast
        from ..lang.words import ASK, Ctx, sentence
        stmt, node, frame = ask
        w = self.rs.words
        try:
            if isinstance(stmt, ast.Set) and stmt.name in self.track_decl:
                # 'set frame = choose_number(…)': the new value of a track
                decl = self.track_decl[stmt.name]
                whose = "your " if decl.get("scope") == "player" else "the "
                name = w.thing("track", stmt.name)
                text = f"choose the new value of {whose}{name}"
                if isinstance(node, ast.Comprehension) or isinstance(node, ast.AnyOf):
                    text = "choose " + w.choice(node, Ctx(frame)) + f" as {whose}{name}"
            elif isinstance(stmt, ast.Let):
                purpose = getattr(stmt, "purpose", None)
                if isinstance(node, ast.Call) and node.func == "choose_number":
                    text = w.stmt(purpose, Ctx(frame, {stmt.name: ASK})) if purpose else ""
                    text = (text + "?") if text else fallback
                else:
                    text = "choose " + w.choice(node, Ctx(frame))
                    if purpose is not None and not isinstance(purpose, (ast.If, ast.For)):
                        then = w.stmt(purpose, Ctx(frame, {stmt.name: w.chosen(node)}))
                        if then:
                            text += f", to {then}"
            else:  # the statement, asking: 'Put which card from your hand into …?'
                text = w.stmt(stmt, Ctx(frame, ask=node))
                times = self._times(frame)
                if text and isinstance(node, ast.Comprehension):
                    which, source = w.which(node), w.source(node, Ctx(frame))
                    if source is not None and which in text:  # a place, nothing more
                        text = text.replace(which, f"{which} from {source}", 1) + times + "?"
                    else:
                        among = w.choice(node, Ctx(frame)).split(" among ", 1)
                        text += times + (f" (among {among[1]})?" if len(among) == 2 else "?")
                elif text:
                    text += times + "?"
                else:
                    text = fallback
        except Exception:  # words must never stop a game
            text = fallback
        return where + (sentence(text) if not text.endswith("?") else
                        text[0].upper() + text[1:])

    @staticmethod
    def _times(frame) -> str:
        """' (2 of 3)' for a question a 'repeat' asks again, else ''."""
        from ..lang.runtime import REPEAT
        at = frame.vars.get(REPEAT) if frame is not None else None
        return f" ({at[0]} of {at[1]})" if at and at[1] > 1 else ""

    def _label(self, value: Any, kind: str = "") -> str:
        if value is None:
            return "none"
        if isinstance(value, CardRef):
            return self.card_name(value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int):
            if kind == "player" or not kind and 0 <= value < self.n:
                return self.state.players[value].name
            return str(value)
        if isinstance(value, str):
            if value in self.space_decl:
                return self.space_name(value)
            return self.rs.words.value_words(value, None, self)
        return str(value)

    def value_name(self, value, typ=None) -> str | None:
        """How a person calls a card, a player or a space (None: not one of those)."""
        from ..lang import types as T
        if isinstance(value, CardRef):
            return self.card_name(value)
        if typ is T.PLAYER and isinstance(value, int) and 0 <= value < self.n:
            return self.state.players[value].name
        if isinstance(value, str) and value in self.space_decl:
            return self.space_name(value)
        return None

    def say(self, stmts, frame) -> str:
        """Statements in words, with the values they have now ('pay 3 coins; put Quarry …')."""
        from ..lang.words import Ctx
        return self.rs.words.block(stmts, Ctx(frame=frame))

    def why_not(self, node, frame) -> str:
        """Why a condition fails now, in words and with its numbers."""
        return self.rs.words.why_not(node, frame)
