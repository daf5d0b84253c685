"""A decision and its options as the API shows them: in words, seats from 1, short reprs.

:class:`Decision` wraps the engine's decision waiting for an answer. Its
words (the prompt, each option's label and summary, the refused options
with their reasons) are made when first read, as the engine makes them,
and kept once the game moves on (:meth:`Decision._keep`), so a decision
read afterwards says what its player was shown. :func:`read_answer` turns
what the caller answers (an option, an index, a key, a label, a number)
into the engine's answer, or says in a ValueError why it is not one.
"""

from __future__ import annotations

from ..engine.flow import ActionChoice
from ..engine.keys import short_keys
from ..engine.state import CardRef
from ..safe_text import visible


def _clip(text: str, most: int) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


class Option:
    """One answer a decision allows: its place, its words, its keys, the card it is."""

    __slots__ = ("index", "label", "key", "short_key", "card", "_summary", "_decision")

    def __init__(self, decision: "Decision", index: int, label: str, key: str,
                 card: str | None, summary, short_key: str = ""):
        self._decision = decision
        self.index = index
        self.label = label
        self.key = key
        self.short_key = short_key  # a few letters, the same while the option exists
        self.card = card  # the card's id when the answer is a card
        self._summary = summary

    @property
    def summary(self) -> str:
        """For a card, its cost, tags and text; for a space, its kind, bonus and neighbours."""
        if not isinstance(self._summary, str):
            self._summary = self._summary()
        return self._summary

    def __repr__(self) -> str:
        text = f"<Option {self.index} {self.short_key} {_clip(self.label, 60)!r}"
        if self.card is not None:
            text += f" card={_clip(self.card, 40)!r}"
        elif self.key:
            text += f" key={_clip(self.key, 40)!r}"
        return text + ">"


class Decision:
    """The question a seat is asked, the answers it allows and those it refuses now."""

    def __init__(self, engine_decision, game, number: int):
        self._source = engine_decision  # the engine's decision (answers go to it)
        self._game = game  # the engine's game, for names and summaries
        self.number = number  # its number in the game, from 1
        self.seat = engine_decision.player + 1
        self.kind = engine_decision.kind
        self._options: list[Option] | None = None
        self._prompt: str | None = None
        self._refused: dict | None = None

    @property
    def prompt(self) -> str:
        if self._prompt is None:
            self._prompt = self._source.prompt
        return self._prompt

    @property
    def options(self) -> list[Option]:
        """The answers allowed now (empty when the answer is a number in ``range``)."""
        if self._options is None:
            d, game = self._source, self._game
            out = []
            shorts = short_keys(game, d)
            if not d.is_range:
                for i, opt in enumerate(d.options):
                    card, summary = None, ""
                    value = opt.value
                    if isinstance(value, CardRef):
                        card = game.state.cards[value].def_id
                        summary = (lambda v=value: game.card_summary(v, d.player))
                    elif isinstance(value, str) and value in game.space_decl:
                        summary = (lambda v=value: game.space_summary(v, d.player))
                    elif isinstance(value, ActionChoice) and game.action_notes \
                            and value.key.startswith("action:"):
                        summary = (lambda v=value: game.action_note(v.key.split(":")[1],
                                                                    d.player))
                    out.append(Option(self, i, opt.label, opt.key, card, summary, shorts[i]))
            self._options = out
        return self._options

    @property
    def range(self) -> tuple[int, int] | None:
        """``(low, high)`` when the answer is any whole number from low to high."""
        d = self._source
        return (d.low, d.high) if d.is_range else None

    @property
    def refused(self) -> dict[str, str]:
        """The answers that exist but are not allowed now: label → the reason, in words."""
        if self._refused is None:
            self._refused = dict(self._source.refused)
        return self._refused

    def _keep(self) -> None:
        """Make every word now, while the game stands where its player saw it."""
        self.prompt, self.refused
        for option in self.options:
            option.summary

    def _player(self) -> str:
        return self._game.state.players[self.seat - 1].name

    def __repr__(self) -> str:
        prompt = self.prompt
        who = f"{self._player()}: "
        if prompt.startswith(who):  # the seat says who
            prompt = prompt[len(who):]
        r = self.range
        answers = f"a number from {r[0]} to {r[1]}" if r else \
            f"{len(self._source.options)} option{'s' if len(self._source.options) != 1 else ''}"
        return f"<Decision {self.number}, seat {self.seat}: {_clip(prompt, 90)}, {answers}>"

    def __str__(self) -> str:
        """The decision in full, as a person at the terminal sees it, indexes from 0."""
        prompt = self.prompt
        if not prompt.startswith(self._player()):
            prompt = f"{self._player()}: {prompt}"
        lines = [f"decision {self.number} · seat {self.seat} · {prompt}"]
        if self.range:
            lines.append(f"  a number from {self.range[0]} to {self.range[1]}")
        for o in self.options:
            lines.append(f"  {o.index}. {o.short_key}  {o.label}" +
                         (f"  ({o.summary})" if o.summary else ""))
        for label, reason in self.refused.items():
            lines.append(f"  --  {label} (not now: {reason})")
        return visible("\n".join(lines), multiline=True)


def read_answer(decision: Decision, choice) -> int:
    """The engine's answer to ``decision`` for what the caller gave; a ValueError if none."""
    d = decision._source
    if isinstance(choice, Option):
        if choice._decision is not decision and choice._decision._source is not d:
            raise ValueError(f"that option belongs to decision {choice._decision.number}, "
                             f"and the game is at decision {decision.number}")
        return choice.index
    if isinstance(choice, bool) or choice is None:
        raise ValueError(f"an answer is an option, its index, key or label, or a number, "
                         f"not {choice!r}")
    if isinstance(choice, str) and d.is_range:
        text = choice.strip()
        if text.lstrip("-").isdigit() and text.isascii():
            choice = int(text)
    if isinstance(choice, str):
        index, problem = d.find(choice, short_keys(decision._game, d))
        if index is None:
            raise ValueError(problem if not d.is_range else
                             f"answer with a number from {d.low} to {d.high}, "
                             f"not {_clip(choice, 40)!r}")
        return index
    try:
        number = choice.__index__()  # an int, or any whole number type (numpy's)
    except (AttributeError, TypeError):
        raise ValueError(f"an answer is an option, its index, key or label, or a number, "
                         f"not {_clip(repr(choice), 40)}") from None
    if d.is_range:
        if not d.low <= number <= d.high:
            raise ValueError(f"choose a number from {d.low} to {d.high}; {number} is outside")
        return number
    if d.kind == "number":  # numbers offered one by one: the number, not its place
        keys = [o.key for o in d.options]
        if str(number) in keys:
            return keys.index(str(number))
        reason = d.refused.get(str(number))
        if reason is not None:
            raise ValueError(f"{number} is not allowed now: {reason}")
        raise ValueError(f"choose one of the numbers {', '.join(keys)}")
    if not 0 <= number < len(d.options):
        raise ValueError(f"choose an option from 0 to {len(d.options) - 1} (its index in "
                         f"decision.options); {number} is not one")
    return number
