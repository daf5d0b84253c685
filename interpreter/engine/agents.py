"""Agents answer decisions: random, greedy, a person at a terminal, or a script.

An agent's ``decide(decision, view, game)`` returns an option index (or a
number in the range). Agents read only the view, which holds their own
player's information; the greedy agent's lookahead works on a copy of the
game in which every card this player cannot see has been shuffled among the
hidden places, so it cannot use hidden information either.
"""

from __future__ import annotations

import random

from ..safe_text import visible
from .decisions import Decision


class Agent:
    name = "agent"
    scripted = False

    def decide(self, decision: Decision, view: dict, game) -> int:  # pragma: no cover
        raise NotImplementedError

    def refused(self, decision: Decision, reason: str) -> None:
        """The last answer was not acceptable (only people and scripts get this)."""

    def action_failed(self, label: str, reason: str) -> None:
        """An action could not be completed and was rolled back."""


class RandomAgent(Agent):
    name = "random"
    wants_view = False  # it does not look

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def decide(self, decision, view, game):
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))


class GreedyAgent(Agent):
    """One-ply lookahead: try each action on a determinised copy, keep the best.

    Each action is tried a few times on copies of the game in which everything
    this player cannot see is reshuffled, with the action's own choices made
    at random; it is scored by the ruleset's ``evaluation`` (or the score so
    far). The agent picks the best action and then makes the choices of its
    best try, as long as they fit the real decisions; other decisions are
    random. 'End turn' or 'pass' win only when nothing improves the position.
    """

    name = "greedy"
    wants_view = False  # it looks ahead on a determinised copy instead

    def __init__(self, seed: int, rollouts: int = 3, first_choices: int | None = None):
        from .lookahead import MAX_FIRST_CHOICES
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.first_choices = MAX_FIRST_CHOICES if first_choices is None else first_choices
        self.plan: list[int] = []

    def decide(self, decision, view, game):
        if decision.kind == "action" and len(decision.options) > 1:
            from .lookahead import evaluate_options
            values, plans = evaluate_options(game, decision, self.rng, self.rollouts,
                                             self.first_choices)
            best = max(values)
            ties = [i for i, v in enumerate(values) if v == best]
            pick = ties[0] if len(ties) == 1 else self.rng.choice(ties)
            self.plan = list(plans[pick])
            return pick
        if decision.kind == "action":
            self.plan = []
            return 0
        if self.plan:
            answer = self.plan.pop(0)
            if decision.check(answer) is None:
                return answer
            self.plan = []  # the real game went another way: improvise from here
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))


class ScriptedAgent(Agent):
    """Answers from a list (a record or a scenario), shared by all seats."""

    name = "script"
    scripted = True
    wants_view = False

    def __init__(self, answers: list[int], fallback: Agent | None = None):
        self.answers = answers
        self.position = 0
        self.fallback = fallback

    def decide(self, decision, view, game):
        if self.position >= len(self.answers):
            if self.fallback is not None:
                return self.fallback.decide(decision, view, game)
            raise ScriptExhausted(decision)
        answer = self.answers[self.position]
        self.position += 1
        return answer


class ScriptExhausted(Exception):
    def __init__(self, decision: Decision):
        super().__init__(decision.prompt)
        self.decision = decision


class HumanAgent(Agent):
    """A person at a terminal, or a script of answers: shows the state and numbered options.

    With ``script`` (a :class:`~.transcript.ScriptReader`) the answers come
    from a file or a pipe: each answer is echoed after the prompt so the
    transcript shows what was chosen, and an answer the decision refuses
    stops the game with :class:`~.transcript.ScriptAnswerRefused` naming the
    script's line, instead of asking again.
    """

    name = "human"

    def __init__(self, console=None, input_fn=input, script=None):
        from rich.console import Console
        self.console = console or Console(highlight=False, emoji=False)
        self.input = input_fn
        self.script = script
        self.last_round = None

    def show(self, decision, view, game):
        """Print what a person sees before answering: the view, the prompt, the options."""
        from .render import render_view
        from .transcript import option_rows
        c = self.console
        c.print()
        c.print(render_view(view, game))
        c.print(f"[bold]{_shown(decision.prompt)}[/bold]")
        if decision.is_range:
            c.print(f"  enter a number from {decision.low} to {decision.high}")
        for mark, label, detail in option_rows(decision, game):
            if mark == "--":
                c.print(f"  [dim] --  {_shown(label)} ({_shown(detail)})[/dim]")
            else:
                shown = f"  [dim]({_shown(detail)})[/dim]" if detail else ""
                c.print(f"  [cyan]{mark:>2}[/cyan]. {_shown(label)}{shown}")

    def decide(self, decision, view, game):
        c = self.console
        self.show(decision, view, game)
        while True:
            if self.script is not None:
                c.print("> ", end="")  # a script's answer is echoed after it
            try:
                raw = self.input("> ").strip()
            except EOFError:
                raise KeyboardInterrupt from None
            answer, problem = self.parse(decision, raw)
            if self.script is not None:
                from .transcript import ScriptAnswerRefused
                c.print(_shown(raw))  # so the transcript shows what was answered
                if problem is not None:
                    raise ScriptAnswerRefused(self.script.line, len(game.record) + 1,
                                              decision, raw, problem)
                if not decision.is_range:
                    c.print(f"  [dim]→ {_shown(decision.options[answer].label)}[/dim]")
            if problem is None:
                return answer
            c.print(f"[red]{_shown(problem)}[/red]")

    @staticmethod
    def parse(decision: Decision, raw: str) -> tuple[int | None, str | None]:
        if not raw:
            return None, "type the number of your choice"
        if raw.lstrip("-").isdigit():
            n = int(raw)
            if decision.is_range:
                problem = decision.check(n)
                return (n, None) if problem is None else (None, problem)
            if 1 <= n <= len(decision.options):
                return n - 1, None
            return None, f"choose a number from 1 to {len(decision.options)}"
        index, problem = decision.find(raw)
        return index, problem

    def refused(self, decision, reason):
        self.console.print(f"[red]{_shown(reason)}[/red]")

    def action_failed(self, label, reason):
        self.console.print(f"[red]{_shown(label)} could not be done: {_shown(reason)}. "
                           "Choose again.[/red]")


def _shown(text: str) -> str:
    """Rule-file text for a prompt: escapes made visible, then kept out of rich markup."""
    from rich.markup import escape
    return escape(visible(text))


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(kind: str, seed: int) -> Agent:
    if kind == "human":
        return HumanAgent()
    try:
        return AGENTS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown agent '{kind}'; choose from human, "
                         + ", ".join(AGENTS)) from None


def agent_seed(game_seed: int, seat: int) -> int:
    return game_seed * 1_000_003 + seat * 7919 + 17
