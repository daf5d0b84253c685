"""Decisions written out as the deciding player saw them, and answers read from a script.

:func:`option_rows` lists a decision's options the way a person is shown
them (numbered from 1, each with its short key and each card or space with
its summary, refused options with their reason); the terminal agent prints these rows, and
:func:`decision_text` writes the same rows as plain text, with the answer
given, for ``rulebook replay --decisions``. :class:`WatchedScript` answers a
replay from a record and hands each decision to a watcher before it is
carried out. :class:`ScriptReader` reads a person's answers from a file or a
pipe, one a line, and counts lines so a refused answer can name its line.
Everything here shows only what the deciding player may see: the decision's
own prompt and options.
"""

from __future__ import annotations

from typing import BinaryIO, Callable

from ..safe_text import visible
from ..agents.base import ScriptedAgent
from ..engine.decisions import Decision

MAX_LINE = 4096  # an answer line longer than this is cut (and then matches no option)


def option_rows(decision: Decision, game) -> list[tuple[str, str, str, str]]:
    """(number or '--', short key, label, detail) for each option, then each refused
    option (with no key); the cards a question is about come first, with no number."""
    from ..engine.flow import ActionChoice
    from ..engine.game import CardRef
    from ..engine.keys import short_keys
    from .screen import Facts, Note
    rows = []
    for card in decision.about:  # the cards the question is about, or shown alongside
        rows.append(("", "", game.card_name(card), game.card_summary(card, decision.player)))
    keys = short_keys(game, decision)
    for i, opt in enumerate(decision.options, 1):
        summary = ""
        if isinstance(opt.value, CardRef):
            # what lies on it first, then what the question is about (the printed facts
            # its condition reads: what a discard gives): a long text is cut at the edge
            text = game.card_summary(opt.value, decision.player)
            lead = [f for f in (game.card_fact(opt.value, fid) for fid in decision.lead) if f]
            if lead:
                text = " · ".join(p for p in text.split(" · ") if p not in lead)
            # and the cards that go with it (a set's discovery tile), each with its text
            along = [f"with {game.card_name(c)} ({game.card_summary(c, decision.player)})"
                     for c in game.with_each(decision.player, opt.value)]
            idle = game.idle_of_offered(opt.value, decision.player)  # (it stays allowed)
            summary = " · ".join(p for p in (game.card_state(opt.value), idle, *along, *lead,
                                             text) if p)
        elif isinstance(opt.value, str) and opt.value in game.zone_decl:
            summary = Facts(game.zone_state(opt.value, decision.player))
        elif isinstance(opt.value, str) and opt.value in game.space_decl:
            summary = Facts(game.space_summary(opt.value, decision.player))  # (never cut)
        elif isinstance(opt.value, ActionChoice):
            note = game.action_note(opt.value.key.split(":")[1], decision.player) \
                if game.action_notes and opt.value.key.startswith("action:") else ""
            idle = game.idle_steps(opt.value, decision.player)  # (it stays allowed)
            # an action offered for each card ('Buy: Jade Carp'): the card as a card option
            # says it, its price to the player first ('cost 6, 4 for you')
            bound = opt.value.bind[1] if opt.value.bind is not None else None
            card = game.card_summary(bound, decision.player) \
                if isinstance(bound, CardRef) and bound in game.state.cards else ""
            summary = Note(" · ".join(x for x in (note, idle, card) if x))
        rows.append((str(i), keys[i - 1] if keys else "", opt.label, summary))
    for label, reason in decision.refused.items():
        rows.append(("--", "", label, f"not now: {reason}"))
    return rows


def answer_text(decision: Decision, answer: int) -> str:
    """The answer as a person would read it: '2. res  Draw two, keep one' (its number,
    short key and words), or the number."""
    if decision.is_range or not isinstance(answer, int) or isinstance(answer, bool):
        return str(answer)
    if 0 <= answer < len(decision.options):
        key = decision.shorts[answer] if decision.shorts else ""
        return f"{answer + 1}. {key + '  ' if key else ''}{decision.options[answer].label}"
    return f"{answer + 1} (no such option)"


def decision_text(number: int, decision: Decision, game, answer: int) -> str:
    """One decision of a replay in plain text: seat, prompt, options, refusals, answer."""
    seat = game.state.players[decision.player].name
    lines = [f"decision {number} · {seat}", f"  {decision.prompt}"]
    if decision.is_range:
        lines.append(f"    a number from {decision.low} to {decision.high}")
    rows = option_rows(decision, game)
    width = max((len(key) for _, key, _, _ in rows), default=0)
    for mark, key, label, detail in rows:
        if mark == "--":
            lines.append(f"    --  {label} ({detail})")
        elif not mark:
            lines.append(f"    {label}: {detail}")
        else:
            lines.append(f"    {mark:>2}. {key:<{width}}  {label}" +
                         (f"  ({detail})" if detail else ""))
    lines.append(f"  answer: {answer_text(decision, answer)}")
    return visible("\n".join(lines), multiline=True)


class WatchedScript(ScriptedAgent):
    """Answers from a record, showing each decision to ``watch`` before it is carried out.

    ``watch(number, decision, game, answer)`` is called with the decision's
    number in the record (from 1) while the game still stands where the
    player saw it, so ``game.view(decision.player)`` is that player's view.
    """

    def __init__(self, answers: list[int],
                 watch: Callable[[int, Decision, object, int], None]):
        super().__init__(answers)
        self.watch = watch

    def decide(self, decision, view, game):
        answer = super().decide(decision, view, game)
        self.watch(len(game.record) + 1, decision, game, answer)
        return answer


class ScriptReader:
    """A person's answers from a file or a pipe: one a line, counted from 1.

    Blank lines and lines starting with '#' are skipped, so a script can be
    laid out and commented. Bytes that are not UTF-8 are read as U+FFFD (and
    then match no option), and a line longer than :data:`MAX_LINE` is cut.
    At the end of the input it raises ``EOFError``, as ``input()`` does.
    """

    def __init__(self, stream: BinaryIO):
        self.stream = stream
        self.line = 0

    def __call__(self, prompt: str = "") -> str:
        while True:
            raw = self.stream.readline(MAX_LINE)
            if not raw:
                raise EOFError
            if not raw.endswith(b"\n") and len(raw) == MAX_LINE:
                while True:  # drop the rest of an over-long line
                    rest = self.stream.readline(MAX_LINE)
                    if not rest or rest.endswith(b"\n"):
                        break
            self.line += 1
            text = raw.decode("utf-8", errors="replace").strip()
            if text and not text.startswith("#"):
                return text


class ScriptAnswerRefused(Exception):
    """A scripted answer that is not a legal answer to its decision."""

    def __init__(self, line: int, number: int, decision: Decision, raw: str, problem: str):
        super().__init__(problem)
        self.line = line
        self.number = number
        self.decision = decision
        self.raw = raw
        self.problem = problem

    def message(self, seat_name: str) -> str:
        prompt = self.decision.prompt
        if not prompt.startswith(seat_name):
            prompt = f"{seat_name}: {prompt}"
        raw = self.raw if len(self.raw) <= 60 else self.raw[:57] + "…"
        return (f"line {self.line} of the answers, '{raw}', does not answer decision "
                f"{self.number} ({prompt}): {self.problem}")
