"""Which answers of a decision the game would refuse, found by trying them on copies.

The engine lists what its rules allow now (an action's condition, the
checks implied by its first statements, what was refused at this position
before: engine/refusals.py), but an action may still be refused once it runs,
for what it meets further in (a card whose effect needs more of a resource
than the player has, a payment that leaves too little). The environment's mask marks only
answers that are not refused: for each answer of a decision, the action it
belongs to is carried out on a copy of the game, from where it started, with
the answers given in it so far and this one; the action's further questions
are answered depth first (each option in order, a range's ends first) until
one way through is carried out. An answer with a way through is legal; one
with none is refused; one whose search runs out of ``runs`` (re-runs of the
action), or comes after the decision's answers have used DECISION_RUNS in all,
is unsettled.

A decision outside any action (a choice of the flow: setup, a draft) is never
refused, and ending the turn or passing never is: those are not tried. The
copies are the game's own position, so the mask says what the game itself
would say when the answer is given (as the engine's refusals do), nothing
more. Nothing of the game changes: every trial runs on a copy that is thrown
away, so a game played with the mask is the game played without it.
"""

from __future__ import annotations

from ..agents.base import Agent
from ..engine.decisions import ActionRefused
from ..engine.flow import FlowRunner
from ..lang.runtime import RequirementFailed, RuleRuntimeError

RUNS = 48  # re-runs of an action tried for one answer before it is called unsettled
DECISION_RUNS = 2_000  # re-runs for all the answers of one decision, after which the
# answers left are unsettled (a step never takes much longer than a few hundred runs)
RANGE_FIRST = 3  # a range's answers tried first: its low end, its high end, then the rest


class _Diverged(Exception):
    """The copy went another way than the game (it cannot, but a trial never guesses)."""


class _Prober(Agent):
    """Answers a copy's questions: the script first, then the first untried way."""

    name = "env-mask"
    wants_view = False

    def __init__(self, script: list):
        self.script = script
        self.at = 0
        self.trace: list[list[int]] = []  # each further question's answers, in trying order

    def decide(self, decision, view, game):
        if self.at < len(self.script):
            answer = self.script[self.at]
            self.at += 1
            if decision.check(answer) is not None:
                raise _Diverged
            return answer
        order = _order(decision)
        self.trace.append(order)
        return order[0]

    def action_failed(self, label, reason):
        pass


def _order(decision) -> list[int]:
    """The answers of a further question, in the order they are tried."""
    if not decision.is_range:
        return list(range(len(decision.options)))
    low, high = decision.low, decision.high
    if high - low + 1 > 64:  # a long range: its ends and evenly spread values
        step = (high - low) / 63
        return list(dict.fromkeys([low, high] + [low + round(step * i) for i in range(1, 63)]))
    return list(dict.fromkeys([low, high] + list(range(low + 1, high))))


def _copy(game, state):
    clone = game.__copy__()
    clone.state = state
    clone.record = []
    clone.deciders = []
    clone.check_invariants = False
    clone.check_actions = False
    clone.listeners = []
    clone.log_lines = []
    clone.private_lines = {}
    clone.keep_log = False
    clone.held = None
    clone.memo = clone.zmemo = clone.bmemo = clone.smemo = None  # (kept for the game's state)
    return clone


class Trials:
    """The answers of one decision of ``game`` that the game would refuse."""

    def __init__(self, game, decision, runs: int = RUNS):
        self.game = game
        self.decision = decision
        self.runs = runs
        self.used = 0  # runs done (for the benchmarks)
        self._template = None  # a copy of the game each run's copy is made from

    def _copy(self, state):
        """A copy of the game to run on, at ``state``. (Copied from one copy of the game
        made once, whose running action's start is a state of its own already.)"""
        if self._template is None:
            self._template = _copy(self.game, self.game.state)
        return _copy(self._template, state)

    def verdicts(self) -> list[bool | None]:
        """For each answer of the decision (an option's place, or low, low + 1…): True
        when it is carried out, False when the game would refuse it, None unsettled."""
        g, d = self.game, self.decision
        answers = range(d.low, d.high + 1) if d.is_range else range(len(d.options))
        if d.kind == "action" and g.action_start is None:
            out = []
            for i in answers:
                pick = d.options[i].value
                if pick.key in ("end", "pass"):
                    out.append(True)
                    continue
                out.append(self._through(lambda: g.state.clone(), pick, d.player, []))
            return out
        start = g.action_start
        if start is None:
            return [True] * d.count()  # outside any action nothing is refused
        base = g.action_started()
        replayed = list(g.record[start[1]:])
        return [self._through(base.clone, start[2], start[3], replayed + [a])
                for a in answers]

    def _through(self, state, pick, seat: int, script: list) -> bool | None:
        """Whether the action ``pick`` of ``seat`` can be carried out, from the position
        ``state()`` makes, answering ``script`` and then any way through (None: no
        answer found within the runs)."""
        stack = [script]
        runs = 0
        while stack:
            if runs >= self.runs or self.used >= DECISION_RUNS:
                return None
            runs += 1
            self.used += 1
            tried = stack.pop()
            prober = _Prober(tried)
            copy = self._copy(state())
            copy.agents = [prober] * self.game.n
            try:
                if FlowRunner(copy).perform(pick, seat):
                    return True
            except (_Diverged, RuleRuntimeError, RecursionError, RequirementFailed,
                    ActionRefused):
                return None
            if prober.at < len(tried):
                continue  # refused before the script was used up: nothing else to try here
            # refused: the other answers of each further question, the deepest first
            taken = list(tried)
            later = []
            for order in prober.trace:
                later.append([taken + [a] for a in order[1:]])
                taken.append(order[0])
            for ways in later:
                stack.extend(reversed(ways))
        return False
