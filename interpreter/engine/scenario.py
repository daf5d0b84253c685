"""Rules tests as data: scenario files that set up a position, act, and check.

A scenario file (``kind: scenarios``, kept in a ruleset's ``scenarios/``
folder) lists scenarios. Each starts a game with a seed, optionally plays the
recorded ``decisions`` from the start, optionally builds a position with a
``setup`` effect, then runs its steps: effects carried out by a seat, actions
taken through the same checks a player faces, and conditions that must hold.
A failure names the scenario file, line and column, and says what went wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import schema as schemas
from ..errors import Diagnostics
from ..lang import types as T
from ..lang.checker import Checker, Context
from ..lang.compiler import Compiler
from ..lang.parser import EffectSyntaxError, parse
from ..lang.runtime import RequirementFailed, RuleRuntimeError
from ..ruleset import Ruleset, display_path
from ..span import SealedSpan, Span
from ..tree import is_inside, tree_of
from ..yamlload import Document, load_yaml
from .agents import Agent, ScriptedAgent, ScriptExhausted
from .decisions import ActionRefused, Decision, IllegalAnswer
from .flow import FlowRunner
from .game import Game


@dataclass
class Step:
    span: Span
    seat: int
    kind: str  # run | action | card_action | expect
    code: Any = None
    explain: Any = None
    action: str | None = None
    answers: list = field(default_factory=list)
    refused: str | None = None
    answers_span: Span | None = None
    which: int | None = None  # card_action: the index of the card's action to take
    broken: bool = False  # the step names something that does not exist (reported on load)
    element: Any = None  # action with 'each': which element (its label or number from 1)


@dataclass
class Scenario:
    id: str
    description: str
    span: Span
    file: str
    players: int
    seed: int
    variants: list[str]
    decisions: list
    setup: Any
    steps: list[Step]
    setup_broken: bool = False  # the setup had errors (reported when it was loaded)


@dataclass
class Outcome:
    scenario: Scenario
    passed: bool
    message: str = ""
    span: Span | None = None


class NeedsAnswer(Exception):
    def __init__(self, decision: Decision):
        super().__init__(decision.prompt)
        self.decision = decision


class StepAgent(Agent):
    """Answers a step's decisions from its list; labels are matched to options."""

    scripted = True

    def __init__(self):
        self.answers: list = []
        self.failed: str | None = None

    def decide(self, decision: Decision, view, game) -> int:
        if not self.answers:
            raise NeedsAnswer(decision)
        return match_answer(decision, self.answers.pop(0))

    def action_failed(self, label, reason):
        self.failed = reason


def discover(rs: Ruleset) -> list[Path]:
    """The scenario files of a ruleset: ``scenarios/*.yaml`` inside its tree.

    A ``scenarios`` folder that is a link out of the ruleset is not listed;
    it is returned itself, so that :func:`load_scenarios` reports it.
    """
    folder = rs.root / "scenarios"
    if not folder.is_dir():
        return []
    if not is_inside(folder, tree_of(rs.root)):
        return [folder]
    return sorted(p for p in folder.glob("*.yaml") if not p.is_dir())


def _found_in(rs: Ruleset, path: Path) -> bool:
    """Whether ``path`` is named as a place in the ruleset's folder (not handed in)."""
    import os
    here = os.path.abspath(path)
    return os.path.commonpath([here, os.path.abspath(rs.root)]) == os.path.abspath(rs.root)


def load_scenarios(rs: Ruleset, path: Path, diags: Diagnostics) -> list[Scenario]:
    if _found_in(rs, path) and not is_inside(path, tree_of(rs.root)):
        # a file of the ruleset's folder that links out of it: named, never opened,
        # and sealed so no reporter quotes it
        diags.error("RB405", f"'{path.name}' is a link to a place outside the ruleset; "
                    "scenarios stay inside it, so it is not read",
                    SealedSpan(display_path(path), 1, 1))
        return []
    doc = load_yaml(path, diags, display_path(path))
    if doc is None or not schemas.check_kind(doc, diags, "scenarios") \
            or not schemas.validate(doc, "scenarios", diags):
        return []
    out = []
    checker = Checker(rs.table, diags)
    compiler = Compiler(rs.table, rs.code)
    ids = set()
    for i, data in enumerate(doc.data["scenarios"]):
        base = ("scenarios", i)
        if data["id"] in ids:
            diags.error("RB400", f"duplicate scenario id '{data['id']}'", doc.span(base + ("id",)))
        ids.add(data["id"])
        label = f"scenario '{data['id']}'"
        if not rs.min_players <= data["players"] <= rs.max_players:
            diags.error("RB204", f"{rs.name} is for {rs.min_players}–{rs.max_players} players",
                        doc.span(base + ("players",)))
        setup = None
        if "setup" in data:
            setup = _compile(doc, base + ("setup",), "effect", Context(label + ", setup"),
                             checker, compiler, diags)
        steps = []
        for j, sd in enumerate(data["steps"]):
            where = base + ("steps", j)
            seat = sd.get("as", 1)
            if seat > data["players"]:
                diags.error("RB204", f"seat {seat} does not exist with {data['players']} players",
                            doc.span(where + ("as",)))
            kinds = [k for k in ("run", "action", "card_action", "expect") if k in sd]
            if len(kinds) != 1:
                diags.error("RB404", "a step does exactly one of run, action, card_action or "
                            "expect", doc.span(where))
                continue
            kind = kinds[0]
            ctx = Context(f"{label}, step {j + 1}", variables={"you": T.PLAYER})
            step = Step(doc.span(where), seat - 1, kind, answers=list(sd.get("answers", [])),
                        refused=sd.get("refused"), answers_span=doc.span(where + ("answers",)))
            if kind == "run":
                step.code = _compile(doc, where + ("run",), "effect", ctx, checker, compiler,
                                     diags)
            elif kind == "expect":
                ctx = Context(ctx.label, False, False, {"you": T.PLAYER})
                tree = _parse(doc, where + ("expect",), "expression", ctx.label, diags)
                if tree is not None:
                    before = len(diags)
                    checker.expect(tree, T.BOOL, ctx, "the expectation")
                    if len(diags) == before:
                        step.code = compiler.expression(tree)
                        step.explain = compiler.explainer(tree)
            elif kind == "action":
                step.action = sd["action"]
                if step.action not in rs.sections["actions"]:
                    from ..errors import suggest
                    diags.error("RB401", f"unknown action '{step.action}'",
                                doc.span(where + ("action",)),
                                hint=suggest(step.action, rs.sections["actions"]))
                    step.broken = True
                elif "which" in sd:
                    if "each" not in rs.sections["actions"][step.action].data:
                        diags.error("RB404", f"'{step.action}' is offered once; 'which' picks "
                                    "one of the elements of an action with 'each'",
                                    doc.span(where + ("which",)))
                        step.broken = True
                    step.element = sd["which"]
            else:
                step.action = sd["card_action"]
                if step.action not in rs.cards:
                    from ..errors import suggest
                    diags.error("RB401", f"unknown card '{step.action}'",
                                doc.span(where + ("card_action",)),
                                hint=suggest(step.action, rs.cards))
                    step.broken = True
                elif "which" in sd:
                    step.which = _which_action(rs, step.action, sd["which"],
                                               doc.span(where + ("which",)), diags)
                    step.broken = step.which is None
            steps.append(step)
        out.append(Scenario(data["id"], data.get("description", ""), doc.span(base + ("id",)),
                            doc.file, data["players"], data.get("seed", 1),
                            list(data.get("variants", [])), list(data.get("decisions", [])),
                            setup, steps, "setup" in data and setup is None))
    return out


def _which_action(rs: Ruleset, card: str, which, span: Span, diags) -> int | None:
    """The index of a card's action named (or numbered from 1) by a step's 'which'."""
    actions = rs.cards[card].data.get("actions", []) or []
    names = [a.get("name") or "action" for a in actions]
    if isinstance(which, int) and not isinstance(which, bool):
        if 1 <= which <= len(actions):
            return which - 1
        diags.error("RB204", f"'{card}' has {len(actions)} action(s); there is no action "
                    f"number {which}", span)
        return None
    for i, name in enumerate(names):
        if name.lower() == str(which).lower():
            return i
    from ..errors import suggest
    diags.error("RB401", f"'{card}' has no action named '{which}'", span,
                hint=suggest(str(which), names) or
                ("its actions are: " + ", ".join(names) if names else "it has no actions"))
    return None


def _parse(doc: Document, path, start, label, diags):
    value = doc.data
    for p in path:
        value = value[p]
    if isinstance(value, (bool, int)) and start == "expression":
        from ..lang import ast
        return ast.Literal(doc.span(path), value)
    try:
        return parse(str(value), doc.origin(path), start=start)
    except EffectSyntaxError as exc:
        exc.diagnostic.context = label
        diags.append(exc.diagnostic)
        return None


def _compile(doc, path, start, ctx, checker, compiler, diags):
    tree = _parse(doc, path, start, ctx.label, diags)
    if tree is None:
        return None
    before = len(diags)
    checker.effect(tree, ctx)
    if len(diags) != before:
        return None
    return compiler.effect(tree)


def run_scenario(rs: Ruleset, sc: Scenario) -> Outcome:
    if sc.setup_broken:
        return Outcome(sc, False, "the setup has errors (see the messages above)", sc.span)
    agent = StepAgent()
    script = ScriptedAgent(list(sc.decisions))

    class Start(Agent):
        scripted = True

        def decide(self, decision, view, game):
            if script.position >= len(script.answers):
                raise ScriptExhausted(decision)
            answer = script.answers[script.position]
            script.position += 1
            return match_answer(decision, answer)

    game = Game(rs, sc.players, sc.seed, [Start()] * sc.players, tuple(sc.variants))
    try:
        FlowRunner(game).play()
    except ScriptExhausted:
        pass  # the position after the recorded decisions
    except (IllegalAnswer, RequirementFailed, ActionRefused, RuleRuntimeError) as exc:
        return Outcome(sc, False, f"the start of the game failed: {_why(exc)}", sc.span)
    game.state.over = False
    game.agents = [agent] * sc.players
    if sc.setup is not None:
        try:
            sc.setup(game.frame(None))
        except (RequirementFailed, ActionRefused, RuleRuntimeError, NeedsAnswer,
                IllegalAnswer) as exc:
            return Outcome(sc, False, f"setup failed: {_why(exc)}", sc.span)
    runner = FlowRunner(game)
    for number, step in enumerate(sc.steps, 1):
        agent.answers = list(step.answers)
        agent.failed = None
        game.state.turn_seat = step.seat
        game.decider = step.seat
        problem = _run_step(game, runner, step)
        if problem:
            return Outcome(sc, False, f"step {number}: {problem}", step.span)
        if agent.answers:
            return Outcome(sc, False, f"step {number}: {len(agent.answers)} answer(s) were not "
                           f"used: {agent.answers}", step.answers_span or step.span)
    return Outcome(sc, True)


def match_answer(decision: Decision, answer) -> int:
    """An option index from a label, a 1-based option number, or a number in a range."""
    if decision.is_range:
        if isinstance(answer, str) and answer.lstrip("-").isdigit():
            answer = int(answer)
        if not isinstance(answer, int):
            raise IllegalAnswer(decision, f"expected a number, got {answer!r}")
        return answer
    if isinstance(answer, int):
        return answer - 1
    index, problem = decision.find(str(answer))
    if index is None:
        options = ", ".join(o.label for o in decision.options)
        raise IllegalAnswer(decision, f"{problem}; the options are: {options}")
    return index


def _why(exc) -> str:
    if isinstance(exc, NeedsAnswer):
        return f"it asks '{exc.decision.prompt}' but the step has no answer left"
    for attr in ("message", "reason"):
        if hasattr(exc, attr):
            return getattr(exc, attr)
    return str(exc)


def _run_step(game: Game, runner: FlowRunner, step: Step) -> str | None:
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
    snap = game.snapshot()
    reason = None
    try:
        if step.kind == "run":
            if step.code is None:
                return "the effect has errors"
            step.code(game.frame(step.seat))
        else:
            reason = _take_action(game, runner, step)
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
    return None


def _take_action(game: Game, runner: FlowRunner, step: Step) -> str | None:
    seat = step.seat
    turns = {}
    choices = runner.available(game.state.phase, seat, turns, main_left=True)
    refused = {label: (reason if isinstance(reason, str) else reason())
               for label, reason in choices.pop("__refused__").items()}
    if step.kind == "action":
        key = f"action:{step.action}"
        decl = game.rs.sections["actions"][step.action].data
        label = decl.get("name") or step.action.replace("_", " ")
        if "each" in decl:
            return _take_each(game, runner, step, choices, refused, key, label)
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
    agent = game.agents[seat]
    ok = runner.perform(pick, seat)
    return None if ok else (agent.failed or "refused")


def _take_each(game, runner, step, choices, refused, key, label) -> str | None:
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
    ok = runner.perform(pick, step.seat)
    return None if ok else (game.agents[step.seat].failed or "refused")


def run_all(rs: Ruleset, paths: list[Path] | None = None) -> tuple[list[Outcome], Diagnostics]:
    diags = Diagnostics()
    outcomes = []
    for path in paths if paths is not None else discover(rs):
        for sc in load_scenarios(rs, path, diags):
            outcomes.append(run_scenario(rs, sc))
    return outcomes, diags
