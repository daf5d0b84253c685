"""Playing a scenario: the start of the game, the position, then each step in turn.

The game is played from its start with the recorded ``decisions`` and stops
at the first decision past them. The ``position`` is then written in, the
``setup`` effect run, and the steps taken:

- ``run``, ``action`` and ``card_action`` act outside the flow, as the seat
  in ``as``, answering their decisions from ``answers``;
- ``advance`` runs the flow itself from where the position stands (the
  start of the turn of the seat to act) to the end of the turn, of a named
  phase, of the round, or of the game; decisions are answered from
  ``answers`` and then by the step's ``agents``;
- ``offers``, ``refuses`` and ``asks`` stop a step at the first decision its
  answers do not cover and check that decision (the position is then left
  as it was); alone, they look at the acting seat's choice of action;
- ``expect`` checks a condition, ``result`` the end of the game and ``logged``
  the lines of the game log written since the steps began.

Answers are strict: text answers an option (by its label, its start, or its
key), a number answers only a "how many" question, and yes/no a yes-or-no
question. A question with one possible answer is never asked, so it takes no
answer; when an answer does not fit, the message says if such a question
was skipped just before.
"""

from __future__ import annotations

from ..lang.runtime import RequirementFailed, RuleRuntimeError
from ..load.ruleset import Ruleset
from ..agents.base import Agent, ScriptExhausted, StoppedAt
from ..agents.registry import agent_seed, make_agent
from ..engine.decisions import ActionRefused, Decision, IllegalAnswer
from ..engine.flow import Cursor, FlowRunner, Result, StopFlow
from ..engine.game import Game
from .position import apply_position
from .data import Outcome, Scenario, Step


class NeedsAnswer(StoppedAt):
    """A step asks a decision its answers and agents do not cover."""


class Inspect(StoppedAt):
    """The step reached the decision it looks at (offers, refuses, asks)."""


class PassiveAgent(Agent):
    """Does as little as it can: passes, ends turns, says no, takes none or the least."""

    name = "passive"
    wants_view = False

    def decide(self, decision, view, game):
        if decision.is_range:
            return decision.low
        for i, o in enumerate(decision.options):
            if o.key in ("pass", "end", "no"):
                return i
        return len(decision.options) - 1 if decision.optional else 0


def scenario_agent(spec: str, seed: int, seat: int) -> Agent:
    kind, _, own = spec.partition(":")
    if kind == "passive":
        return PassiveAgent()
    return make_agent(kind, int(own) if own else agent_seed(seed, seat))


class StepAgent(Agent):
    """Answers from the step's list; then from the step's agents; else the step stops."""

    scripted = True

    def __init__(self):
        self.answers: list = []
        self.failed: str | None = None
        self.fallback: dict[int, Agent] = {}
        self.inspect = False  # stop at the first decision past the answers, to look at it
        self.forced_seen = None

    def decide(self, decision: Decision, view, game) -> int:
        if not self.answers:
            if self.inspect:
                raise Inspect(decision)
            agent = self.fallback.get(decision.player)
            if agent is None:
                raise NeedsAnswer(decision)
            return agent.decide(decision, view, game)
        skipped = game.last_forced if game.last_forced is not self.forced_seen else None
        self.forced_seen = game.last_forced
        return match_answer(decision, self.answers.pop(0), skipped)

    def action_failed(self, label, reason):
        self.failed = reason

    @property
    def searches_rules(self) -> bool:
        """Whether a step's agent searches the choices the flow's rules ask (the game then
        keeps where such a rule started)."""
        return any(getattr(a, "searches_rules", False) for a in self.fallback.values())


def match_answer(decision: Decision, answer, skipped: Decision | None = None) -> int:
    """An option index from a label, or a number for a 'how many' question."""
    if decision.is_range:
        if isinstance(answer, bool) or not isinstance(answer, int):
            raise IllegalAnswer(decision, _skipped(
                f"this asks for a number from {decision.low} to {decision.high}, so the "
                f"answer is a number, not {answer!r}", skipped))
        return answer
    if decision.kind == "confirm" and isinstance(answer, bool):
        answer = "yes" if answer else "no"
    if isinstance(answer, bool):
        options = ", ".join(repr(o.label) for o in decision.options)
        raise IllegalAnswer(decision, _skipped(
            f"yes or no answers only a yes-or-no question; answer this one with an option's "
            f"label ({options})", skipped))
    if isinstance(answer, int) and decision.kind == "number":  # the numbers a range has left
        keys = [o.key for o in decision.options]
        if str(answer) in keys:
            return keys.index(str(answer))
        reason = decision.refused.get(str(answer))
        raise IllegalAnswer(decision, _skipped(
            f"{answer} is not allowed now: {reason}" if reason is not None else
            f"this asks for one of the numbers {', '.join(keys)}, not {answer}", skipped))
    if isinstance(answer, int):
        options = ", ".join(repr(o.label) for o in decision.options)
        raise IllegalAnswer(decision, _skipped(
            f"a number answers only a 'how many' question; answer this one with an option's "
            f"label ({options})", skipped))
    index, problem = decision.find(str(answer))
    if index is None:
        options = ", ".join(o.label for o in decision.options)
        raise IllegalAnswer(decision, _skipped(f"{problem}; the options are: {options}",
                                               skipped))
    return index


def _skipped(message: str, skipped: Decision | None) -> str:
    if skipped is None:
        return message
    only = skipped.describe_answer(skipped.low if skipped.is_range else 0)
    return (f"{message} (the question before, '{skipped.prompt}', had one possible answer, "
            f"'{only}', and was not asked: answers skip such questions)")


def _why(exc) -> str:
    if isinstance(exc, NeedsAnswer):
        return f"it asks '{exc.decision.prompt}' but the step has no answer left"
    for attr in ("message", "reason"):
        if hasattr(exc, attr):
            return getattr(exc, attr)
    return str(exc)


class _Start(Agent):
    """Answers the recorded decisions from the start of the game, then stops the game."""

    scripted = True

    def __init__(self, answers: list):
        self.answers = answers
        self.position = 0

    def decide(self, decision, view, game):
        if self.position >= len(self.answers):
            raise ScriptExhausted(decision)
        answer = self.answers[self.position]
        self.position += 1
        return match_answer(decision, answer)


def run_scenario(rs: Ruleset, sc: Scenario) -> Outcome:
    return ScenarioRun(rs, sc).run()


class ScenarioRun:
    def __init__(self, rs: Ruleset, sc: Scenario):
        self.rs, self.sc = rs, sc
        self.agent = StepAgent()
        self.game: Game | None = None
        self.runner: FlowRunner | None = None
        self.cursor: Cursor | None = None
        self.result: Result | None = None

    def run(self) -> Outcome:
        sc = self.sc
        if sc.setup_broken:
            return Outcome(sc, False, "the setup has errors (see the messages above)", sc.span)
        if sc.position_given and sc.position is None:
            return Outcome(sc, False, "the position has errors (see the messages above)",
                           sc.span)
        start = _Start(list(sc.decisions))
        game = self.game = Game(self.rs, sc.players, sc.seed, [start] * sc.players,
                                tuple(sc.variants))
        try:
            FlowRunner(game).play()
        except ScriptExhausted:
            pass  # the position after the recorded decisions
        except (IllegalAnswer, RequirementFailed, ActionRefused, RuleRuntimeError) as exc:
            return Outcome(sc, False, f"the start of the game failed: {_why(exc)}", sc.span)
        # an action stopped midway by the end of the decisions leaves nothing behind
        game.held, game.context, game.context_cards = None, "", []
        game.hand_prompt = game.asking = None
        game.state.set_attr("over", False)
        game.agents = [self.agent] * sc.players
        if sc.position is not None:
            problem = apply_position(game, sc.position)
            if problem:
                return Outcome(sc, False, f"the position cannot be set: {problem}", sc.span)
        self.cursor = self._start_cursor()
        if sc.setup is not None:
            try:
                sc.setup(game.frame(None))
            except (RequirementFailed, ActionRefused, RuleRuntimeError, NeedsAnswer,
                    IllegalAnswer) as exc:
                return Outcome(sc, False, f"setup failed: {_why(exc)}", sc.span)
        self.runner = FlowRunner(game)
        self.log_start = len(game.log_lines)
        for number, step in enumerate(sc.steps, 1):
            agent = self.agent
            agent.answers = list(step.answers)
            agent.failed = None
            agent.fallback = {}
            agent.inspect = step.offers is not None or bool(step.refuses) or \
                step.asks is not None or step.decider is not None
            agent.forced_seen = game.last_forced
            game.refusals.forget()  # a step starts from its own position
            if step.kind != "advance":
                game.state.set_attr("turn_seat", step.seat)
                game.decider = step.seat
            problem = self._step(step)
            if problem:
                return Outcome(sc, False, f"step {number}: {problem}", step.span)
            if agent.answers:
                return Outcome(sc, False, f"step {number}: {len(agent.answers)} answer(s) were "
                               f"not used: {agent.answers}", step.answers_span or step.span)
        return Outcome(sc, True)

    # ------------------------------------------------------------ where the flow is
    def _start_cursor(self) -> Cursor:
        """Where 'advance' picks up: the start of the turn of the seat to act.

        An effect stopped midway by the end of the recorded decisions (a setup,
        the start of a phase) is not resumed."""
        st, pos = self.game.state, self.sc.position
        phases = list(self.rs.sections["phases"])
        if st.phase not in phases:
            if st.round == 0:
                return Cursor(0, None, "round_over")  # round 1 starts from the top
            return Cursor(st.round, phases[0], "start")
        if pos is not None and pos.phase is not None and pos.turn is None:
            return Cursor(max(st.round, 1), st.phase, "start")
        if pos is not None and pos.round is not None and pos.phase is None:
            return Cursor(st.round, phases[0], "start")  # the round from its first phase
        turns = self.rs.sections["phases"][st.phase].data.get("turns") or {}
        order = self.runner_order(turns)
        seat = st.turn_seat
        index = order.index(seat) if seat in order else 0
        return Cursor(max(st.round, 1), st.phase, "turns", index)

    def runner_order(self, turns: dict) -> list[int]:
        return FlowRunner(self.game).order(turns)

    # ------------------------------------------------------------------ steps
    def _step(self, step: Step) -> str | None:
        game = self.game
        if step.kind == "expect":
            if step.code is None:
                return "the expectation has errors"
            try:
                ok = step.code(game.frame(step.seat))
            except RuleRuntimeError as exc:
                return f"the expectation could not be evaluated: {exc.message}"
            return None if ok else f"expected {step.explain(game.frame(step.seat))}"
        if step.broken:
            return "the step has errors (reported when the file was loaded)"
        if step.kind == "result":
            return self._check_result(step.result)
        if step.kind == "logged":
            return self._check_log(step)
        if step.kind == "advance":
            return self._advance(step)
        if step.kind == "look":
            return self._look(step)
        snap = game.snapshot()
        try:
            return self._act(step, snap)
        finally:
            game.keep(snap, stopped=True)  # what went through stays (unless rolled back)

    def _act(self, step: Step, snap) -> str | None:
        """A 'run' or action step from the mark ``snap``: rolled back when it fails."""
        game = self.game
        reason = None
        try:
            if step.kind == "run":
                if step.code is None:
                    return "the effect has errors"
                step.code(game.frame(step.seat))
            else:
                reason = self._take_action(step)
        except Inspect as exc:
            game.restore(snap)
            return check_decision(step, exc.decision)
        except (RequirementFailed, ActionRefused) as exc:
            reason = _why(exc)
        except IllegalAnswer as exc:
            reason = exc.reason  # an answer the decision refuses is a refusal like any other
        except (NeedsAnswer, RuleRuntimeError) as exc:
            game.restore(snap)
            return _why(exc)
        if reason is not None:
            game.restore(snap)
            if step.refused is None:
                return f"refused: {reason}"
            if step.refused.lower() not in reason.lower():
                return f"refused as expected, but because {reason!r}, not {step.refused!r}"
            return None
        if step.refused is not None:
            return f"expected a refusal ({step.refused!r}), but the step went through"
        if self.agent.inspect:
            return "the step went through without asking the decision it looks at " \
                   "(a question with one possible answer is not asked)"
        return None

    def _look(self, step: Step) -> str | None:
        """The acting seat's choice of action in the current phase, checked."""
        g = self.game
        data = self.rs.sections["phases"].get(g.state.phase)
        turns = (data.data.get("turns") if data is not None else None) or {}
        style = turns.get("style", "fixed")
        decision, opts = self.runner.action_decision(
            g.state.phase, step.seat, 0, int(turns.get("actions", 1)),
            int(turns.get("min_actions", turns.get("actions", 1))), turns,
            style == "action_rounds")
        if decision is None:  # only ending the turn is left: the refusals still show
            from ..engine.decisions import Option
            refused = self.runner.available(g.state.phase, step.seat, turns, True)
            decision = Decision(step.seat, "action", "(nothing to choose: the turn is over)",
                                [Option(o.label, o, o.key) for o in opts],
                                refused_text=refused.pop("__refused__"))
        return check_decision(step, decision)

    def _advance(self, step: Step) -> str | None:
        g = self.game
        if self.result is not None or self.cursor is None:
            return "the game is already over"
        target, name = step.advance
        for seat, spec in step.agents.items():
            self.agent.fallback[seat] = scenario_agent(spec, self.sc.seed, seat)

        def stop(kind, at):
            return kind == target and (target != "phase" or at == name)
        runner = FlowRunner(g)
        runner.stop_at = None if target == "game" else stop
        snap = g.snapshot()
        try:
            self.result = runner.play(self.cursor)
            self.cursor = None
            g.state.set_attr("over", True)
        except StopFlow as exc:
            self.cursor = exc.cursor
        except Inspect as exc:
            g.restore(snap)
            return check_decision(step, exc.decision)
        except NeedsAnswer as exc:
            who = g.state.players[exc.decision.player].name
            return (f"the flow asks {who} '{exc.decision.prompt}' and the step has no answer "
                    "left (give more answers, or name agents for the rest)")
        except (IllegalAnswer, RequirementFailed, ActionRefused, RuleRuntimeError) as exc:
            return f"the flow stopped: {_why(exc)}"
        finally:
            g.keep(snap, stopped=True)  # what was played stays (unless rolled back)
        if self.agent.inspect:
            return "the flow reached the point without asking the decision the step looks at"
        return None

    def _check_log(self, step: Step) -> str | None:
        g = self.game
        lines = []
        for n in range(self.log_start, len(g.log_lines)):
            line = g.private_lines.get(n, {}).get(step.seat, g.log_lines[n])
            if line:
                lines.append(line.strip())
        if any(step.logged.lower() in line.lower() for line in lines):
            return None
        shown = "; ".join(lines[-8:]) or "nothing"
        return f"no line of the log contains '{step.logged}' (the last lines: {shown})"

    def _check_result(self, want: dict) -> str | None:
        r, g = self.result, self.game
        if r is None:
            return "the game has not ended: advance to the end of the game first"

        def names(seats):
            return ", ".join(g.state.players[s].name for s in seats) or "nobody"
        scores = ", ".join(f"{g.state.players[s].name} {v}" for s, v in enumerate(r.scores))
        problems = []
        if "winners" in want:
            wanted = sorted(s - 1 for s in want["winners"])
            if sorted(r.winners) != wanted:
                problems.append(f"the winners are {names(sorted(r.winners))}, not "
                                f"{names(wanted)} (scores: {scores})")
        for key, value in (want.get("scores") or {}).items():
            seat = int(key) - 1
            if r.scores[seat] != value:
                parts = ", ".join(f"{v} {k}" for k, v in r.breakdown[seat].items() if v)
                problems.append(f"{g.state.players[seat].name} scored {r.scores[seat]}, not "
                                f"{value} ({parts or 'nothing'})")
        for key, value in (want.get("ranks") or {}).items():
            seat = int(key) - 1
            got = r.ranks[seat] if seat < len(r.ranks) else None
            if (got or None) != (value or None):
                problems.append(f"{g.state.players[seat].name} earned "
                                f"{got or 'no rank'}, not {value or 'no rank'}")
        for key, parts in (want.get("parts") or {}).items():
            seat = int(key) - 1
            got = r.breakdown[seat]
            by_id = {sid: str(e.data.get("name", sid)) for sid, e in
                     self.rs.sections["scoring"].items()}
            for part, value in parts.items():
                name = by_id.get(part, part)
                if got.get(name, 0) != value:
                    problems.append(f"{g.state.players[seat].name} scored {got.get(name, 0)} "
                                    f"for {name}, not {value}")
        if "solo" in want:
            if r.solo_won is None:
                problems.append("this game has no solo result")
            elif ("won" if r.solo_won else "lost") != want["solo"]:
                problems.append(f"the solo game was {'won' if r.solo_won else 'lost'}, not "
                                f"{want['solo']} (score {r.scores[0]})")
        if "finished" in want and r.finished != want["finished"]:
            problems.append("the game " + ("reached its end" if r.finished else
                                           "stopped short of its end"))
        return "; ".join(problems) or None

    # ---------------------------------------------------------------- actions
    def _take_action(self, step: Step) -> str | None:
        game, runner = self.game, self.runner
        seat = step.seat
        choices = runner.available(game.state.phase, seat, {}, main_left=True)
        refused = {label: (reason if isinstance(reason, str) else reason())
                   for label, reason in choices.pop("__refused__").items()}
        if step.kind == "action":
            key = f"action:{step.action}"
            decl = game.rs.sections["actions"][step.action].data
            label = decl.get("name") or step.action.replace("_", " ")
            if "each" in decl:
                return self._take_each(step, choices, refused, key, label)
            if key not in choices:
                return refused.get(label, "the action is not available")
            pick = choices[key]
        else:
            picks = [c for k, c in choices.items() if c.card is not None
                     and game.state.cards[c.card].def_id == step.action
                     and (step.which is None or c.index == step.which)]
            if not picks:
                prefix = game.rs.cards[step.action].data.get("name", step.action) + ":"
                if step.which is not None:
                    actions = game.rs.cards[step.action].data.get("actions", [])
                    prefix += " " + (actions[step.which].get("name") or "action")
                reasons = [r for lbl, r in refused.items() if lbl.startswith(prefix)]
                return reasons[0] if reasons else "no such card action is available"
            pick = picks[0]
        ok = runner.perform(pick, seat)
        return None if ok else (self.agent.failed or "refused")

    def _take_each(self, step, choices, refused, key, label) -> str | None:
        """An action offered for each element: take it for the element 'which' names."""
        offered = [c for k, c in choices.items() if k.startswith(key + ":")]
        which = step.element
        if which is None:
            pick = offered[0] if offered else None
        elif isinstance(which, int) and not isinstance(which, bool):
            pick = next((c for c in offered if c.key == f"{key}:{which}"), None)
        else:
            wanted = f"{label}: {which}".lower()
            pick = next((c for c in offered if c.label.lower() == wanted), None)
            if pick is None:
                for lbl, reason in refused.items():
                    if lbl.lower() == wanted:
                        return reason
        if pick is None:
            if which is None or isinstance(which, int):
                reasons = [r for lbl, r in refused.items() if lbl.startswith(label + ":")]
                return reasons[0] if reasons else "the action is not available"
            names = ", ".join(c.label.split(": ", 1)[1] for c in offered) or "nothing"
            return f"'{which}' is not on offer for {label} (offered: {names})"
        ok = self.runner.perform(pick, step.seat)
        return None if ok else (self.agent.failed or "refused")


def check_decision(step: Step, decision: Decision) -> str | None:
    """Compare a decision with what the step says it offers, refuses and asks."""
    problems = []
    if step.decider is not None and decision.player != step.decider:
        problems.append(f"it is put to seat {decision.player + 1}, not seat {step.decider + 1}")
    if step.asks is not None and step.asks.lower() not in decision.prompt.lower():
        problems.append(f"it asks '{decision.prompt}', which does not contain '{step.asks}'")
    if step.offers is not None:
        if decision.is_range:
            offered = list(range(decision.low, decision.high + 1))
            bad = [x for x in step.offers if isinstance(x, bool) or not isinstance(x, int)]
            if bad:
                problems.append(f"it asks for a number from {decision.low} to {decision.high}, "
                                f"so 'offers' lists numbers, not {bad[0]!r}")
            else:
                missing = [x for x in step.offers if x not in offered]
                extra = [x for x in offered if x not in step.offers]
                if missing or extra:
                    problems.append(f"it offers the numbers {decision.low} to {decision.high}")
        else:
            names = [(o.label.lower(), o.key.lower()) for o in decision.options]
            wanted = [str(x).lower() for x in step.offers]
            missing = [str(x) for x, w in zip(step.offers, wanted)
                       if not any(w in pair for pair in names)]
            extra = [o.label for o, pair in zip(decision.options, names)
                     if not any(w in pair for w in wanted)]
            if missing:
                problems.append("it does not offer " + ", ".join(repr(m) for m in missing))
            if extra:
                problems.append("it also offers " + ", ".join(repr(e) for e in extra))
            if missing or extra:
                problems[-1] += " (it offers: " + ", ".join(o.label for o in decision.options) \
                    + ")"
    if step.refuses:
        refused = {label.lower(): (label, reason) for label, reason in decision.refused.items()}
        for label, text in step.refuses.items():
            found = refused.get(str(label).lower())
            if found is None:
                listed = ", ".join(repr(lbl) for lbl, _ in refused.values()) or "nothing"
                problems.append(f"it does not list '{label}' as refused (refused: {listed})")
            elif text.lower() not in found[1].lower():
                problems.append(f"'{found[0]}' is refused because {found[1]!r}, which does "
                                f"not contain {text!r}")
    return "; ".join(problems) or None


__all__ = ["run_scenario", "match_answer", "NeedsAnswer", "StepAgent"]
