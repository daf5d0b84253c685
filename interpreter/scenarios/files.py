"""Rules tests as data: loading and checking scenario files.

A scenario file (``kind: scenarios``, kept in a ruleset's ``scenarios/``
folder) lists scenarios. Each starts a game with a seed, optionally plays the
recorded ``decisions`` from the start, optionally sets a ``position``
directly and builds on it with a ``setup`` effect, then runs its steps:
effects carried out by a seat, actions taken through the same checks a
player faces, the flow advanced to a named point, a look at the options of a
decision, and conditions or final results that must hold. This module reads
the files and checks every name at its place; :mod:`.scenario_run` plays them.
A failure names the scenario file, line and column, and says what went wrong.
"""

from __future__ import annotations

from pathlib import Path

from .. import numtext
from ..load import schema as schemas
from ..errors import Diagnostics
from ..lang import types as T
from ..lang.checker import Checker, Context
from ..lang.compiler import Compiler
from ..lang.parser import EffectSyntaxError, parse
from ..numtext import clipped
from ..load.ruleset import Ruleset, display_path
from ..span import SealedSpan, Span
from ..load.tree import is_inside, tree_of
from ..load.yamlload import Document, load_yaml
from .position import read_position
from ..engine.state import MAX_SEED
from .data import Outcome, Scenario, Step


STEP_KINDS = ("run", "action", "card_action", "advance", "expect", "result", "logged")


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


def load_scenarios(rs: Ruleset, path: Path, diags: Diagnostics,
                   text: str | None = None) -> list[Scenario]:
    """The scenarios of one file (``text``: its content, e.g. an editor's unsaved buffer)."""
    if _found_in(rs, path) and not is_inside(path, tree_of(rs.root)):
        # a file of the ruleset's folder that links out of it: named, never opened,
        # and sealed so no reporter quotes it
        diags.error("RB405", f"'{path.name}' is a link to a place outside the ruleset; "
                    "scenarios stay inside it, so it is not read",
                    SealedSpan(display_path(path), 1, 1))
        return []
    doc = load_yaml(path, diags, display_path(path), text=text)
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
            diags.error("RB204", f"{rs.name} is for {rs.players_words}, "
                        f"not {clipped(str(data['players']), 24)}", doc.span(base + ("players",)))
            continue  # nothing more can be checked, nor played, with that many seats
        seed = data.get("seed", 1)
        if not -MAX_SEED <= seed <= MAX_SEED:
            diags.error("RB204", f"a seed is a whole number from {-MAX_SEED} to {MAX_SEED}, not "
                        f"{clipped(str(seed), 24)}", doc.span(base + ("seed",)))
            continue
        position = None
        if "position" in data:
            position = read_position(rs, doc, base + ("position",), data["players"], diags)
        setup = None
        if "setup" in data:
            setup = _compile(doc, base + ("setup",), "effect", Context(label + ", setup"),
                             checker, compiler, diags)
        steps = []
        for j, sd in enumerate(data["steps"]):
            where = base + ("steps", j)
            seat = sd.get("as", 1)
            seat_ok = seat <= data["players"]
            if not seat_ok:
                diags.error("RB204", f"seat {clipped(str(seat), 24)} does not exist with "
                            f"{data['players']} players", doc.span(where + ("as",)))
                seat = 1
            kinds = [k for k in STEP_KINDS if k in sd]
            looks = any(k in sd for k in ("offers", "asks", "refuses", "decider"))
            if len(kinds) > 1 or not kinds and not looks:
                diags.error("RB404", "a step does exactly one of run, action, card_action, "
                            "advance, expect, result or logged (or, with only offers, "
                            "refuses, asks and decider, looks at the choice of action)",
                            doc.span(where))
                continue
            kind = kinds[0] if kinds else "look"
            if not _step_keys_fit(kind, sd, doc, where, diags):
                continue
            ctx = Context(f"{label}, step {j + 1}", variables={"you": T.PLAYER})
            step = Step(doc.span(where), seat - 1, kind, answers=list(sd.get("answers", [])),
                        refused=sd.get("refused"), answers_span=doc.span(where + ("answers",)),
                        offers=sd.get("offers"), refuses=dict(sd.get("refuses", {})),
                        asks=sd.get("asks"), result=sd.get("result"),
                        decider=sd["decider"] - 1 if "decider" in sd else None)
            if step.decider is not None and step.decider >= data["players"]:
                diags.error("RB204", f"seat {clipped(str(step.decider + 1), 24)} does not exist "
                            f"with {data['players']} players", doc.span(where + ("decider",)))
                step.broken = True
            if kind == "advance":
                step.advance = _advance_target(rs, sd["advance"], doc, where, diags)
                step.broken = step.advance is None
                agents = _agents(sd.get("agents"), data["players"], doc, where, diags)
                step.agents = agents or {}
                step.broken = step.broken or agents is None
            elif kind == "logged":
                step.logged = sd["logged"]
            elif kind == "result":
                step.broken = not _result_fits(rs, sd["result"], data["players"], doc,
                                               where + ("result",), diags)
            elif kind == "run":
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
            elif kind == "card_action":
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
            step.broken = step.broken or not seat_ok
            steps.append(step)
        out.append(Scenario(data["id"], data.get("description", ""), doc.span(base + ("id",)),
                            doc.file, data["players"], seed,
                            list(data.get("variants", [])), list(data.get("decisions", [])),
                            setup, steps, "setup" in data and setup is None, position,
                            "position" in data))
    return out


def _step_keys_fit(kind: str, sd: dict, doc, where, diags) -> bool:
    """Keys that only make sense with some kinds of step are refused with the others."""
    allowed = {
        "answers": ("run", "action", "card_action", "advance"),
        "refused": ("run", "action", "card_action"),
        "agents": ("advance",),
        "offers": ("run", "action", "card_action", "advance", "look"),
        "refuses": ("run", "action", "card_action", "advance", "look"),
        "asks": ("run", "action", "card_action", "advance", "look"),
        "decider": ("run", "action", "card_action", "advance", "look"),
        "which": ("action", "card_action"),
    }
    ok = True
    for key, kinds in allowed.items():
        if key in sd and kind not in kinds:
            shown = "a look at the choice of action" if kind == "look" else f"'{kind}'"
            diags.error("RB404", f"'{key}' does not go with {shown}; it goes with "
                        + ", ".join(kinds), doc.span(where + (key,)))
            ok = False
    if "refused" in sd and any(k in sd for k in ("offers", "asks", "refuses", "decider")):
        diags.error("RB404", "a step either must be refused or stops at a decision to look at "
                    "it (offers, refuses, asks, decider), not both",
                    doc.span(where + ("refused",)))
        ok = False
    return ok


def _advance_target(rs: Ruleset, value, doc, where, diags) -> tuple | None:
    if isinstance(value, str):
        return (value, None)
    pid = value["phase"]
    if pid not in rs.sections["phases"]:
        from ..errors import suggest
        diags.error("RB401", f"unknown phase '{pid}'", doc.span(where + ("advance", "phase")),
                    hint=suggest(pid, rs.sections["phases"]))
        return None
    return ("phase", pid)


SCENARIO_AGENTS = ("passive", "random", "greedy")


def _agents(value, players: int, doc, where, diags) -> dict | None:
    """Seat index → agent spec of an advance step's ``agents``; None if any is wrong."""
    if value is None:
        return {}
    if isinstance(value, str):  # one agent for every seat
        return dict.fromkeys(range(players), value) \
            if _agent_fits(value, doc.span(where + ("agents",)), diags) else None
    out: dict | None = {}
    for key, spec in value.items():
        at = doc.span(where + ("agents", key))
        try:
            seat = numtext.seat(key, players)
        except numtext.NumberProblem as exc:
            diags.error("RB204", exc.message, at)
            out = None
            continue
        if not _agent_fits(spec, at, diags):
            out = None
        elif out is not None:
            out[seat - 1] = spec
    return out


def _agent_fits(spec: str, at: Span, diags) -> bool:
    """Whether ``spec`` is a scenario agent: passive, random, greedy or random:SEED."""
    kind, colon, own = spec.partition(":")
    if kind not in SCENARIO_AGENTS:
        from ..errors import suggest
        diags.error("RB401", f"unknown agent '{clipped(spec)}': choose passive, random, greedy "
                    "or random:SEED", at, hint=suggest(kind, SCENARIO_AGENTS))
        return False
    if colon:
        try:  # the digits 0 to 9, in a seed's range
            numtext.whole(own, f"the seed of agent '{kind}'", -MAX_SEED, MAX_SEED)
        except numtext.NumberProblem as exc:
            diags.error("RB204", exc.message, at)
            return False
    return True


def _result_fits(rs: Ruleset, result: dict, players: int, doc, where, diags) -> bool:
    ok = True
    names = {}
    for sid, entry in rs.sections["scoring"].items():
        names[sid] = sid
        names[str(entry.data.get("name", sid))] = sid
    for seat, parts in (result.get("parts") or {}).items():
        for part in parts:
            if part not in names:
                from ..errors import suggest
                diags.error("RB401", f"unknown scoring part '{part}'",
                            doc.span(where + ("parts", seat, part)),
                            hint=suggest(part, list(names)))
                ok = False
    seats = [("winners", i, s) for i, s in enumerate(result.get("winners", []))]
    seats += [(part, k, k) for part in ("scores", "ranks", "parts")
              for k in result.get(part, {})]
    for part, key, seat in seats:
        try:
            numtext.seat(seat, players)
        except numtext.NumberProblem as exc:
            diags.error("RB204", exc.message, doc.span(where + (part, key)))
            ok = False
    return ok


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


def run_all(rs: Ruleset, paths: list[Path] | None = None) -> tuple[list[Outcome], Diagnostics]:
    from .run import run_scenario
    diags = Diagnostics()
    outcomes = []
    for path in paths if paths is not None else discover(rs):
        for sc in load_scenarios(rs, path, diags):
            outcomes.append(run_scenario(rs, sc))
    return outcomes, diags


def run_scenario(rs: Ruleset, sc: Scenario) -> Outcome:
    """Play one scenario (see :mod:`.scenario_run`)."""
    from .run import run_scenario as run
    return run(rs, sc)
