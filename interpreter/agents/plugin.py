"""A user's own agent seated at the table: it sees what a built-in agent's seat may see.

:class:`PluginAgent` wraps an object with ``decide(decision, view)`` (from an
installed ``rulebook.agents`` entry point or a ``MODULE:CLASS`` spec, see
:mod:`.agent_specs`). It hands the object the decision and the deciding
seat's view only, never the game itself, and turns what it answers into the
engine's terms: an option's index (or a number in a range). An answer the
decision refuses, or an exception raised by the object, stops the game with
a one-line error naming the agent and the decision (:class:`AgentFailed`,
which the session reports like a rule that failed), so a faulty agent never
loops or prints a traceback.
"""

from __future__ import annotations

from ..lang.runtime import RuleRuntimeError
from .base import Agent


class AgentFailed(RuleRuntimeError):
    """A user's agent answered something unusable, or raised an exception."""


class PluginAgent(Agent):
    wants_view = True  # the seat's view is all it gets

    def __init__(self, spec: str, inner):
        self.name = spec
        self.inner = inner

    def decide(self, decision, view, game):
        where = f"agent '{self.name}' at decision {len(game.record) + 1} ({decision.prompt})"
        try:
            answer = self.inner.decide(decision, view)
        except Exception as exc:
            text = (str(exc).strip().splitlines() or ["no message"])[0][:200]
            raise AgentFailed(f"{where} failed: {type(exc).__name__}: {text}") from None
        problem = decision.check(answer)
        if problem is not None:
            raise AgentFailed(f"{where} answered {answer!r:.40}: {problem}")
        return answer

    def action_failed(self, label, reason):
        told = getattr(self.inner, "action_failed", None)
        if callable(told):
            told(label, reason)
