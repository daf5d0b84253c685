"""Agent specs: the words of ``--agents`` turned into agents, parameters checked.

A spec names one agent and, after colons, its parameters:
``ismcts:iterations=400:playout=greedy-lite``. The name is a built-in agent
(``random``, ``greedy``, ``ismcts``, ``human``), an agent a package installs
in the ``rulebook.agents`` entry-point group, or ``MODULE:CLASS`` (a class
in an importable module). Every problem is a :class:`SpecError` with a
one-line message: an unknown agent (with the closest name), an unknown
parameter, a bad value.

Naming a Python agent runs its module's code. That is the user's choice on
their own command line; a record, a scenario or a rule file never makes
Rulebook import anything: :func:`check_recorded` reads a record's specs as
text only, and :func:`from_record` seats neither a Python agent a record
names nor a built-in one whose budget is past :data:`RECORD_BUDGET`
(``ismcts:seconds=3600`` would make each of that seat's decisions take an
hour); the user says who plays with ``--agents`` instead.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from ..numtext import NumberProblem, clipped, decimal, whole

GROUP = "rulebook.agents"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")


class SpecError(ValueError):
    """A spec that cannot be used: the message says why, in one line."""


@dataclass(frozen=True)
class Param:
    kind: type  # int, float or str
    low: float | None = None
    high: float | None = None
    choices: tuple = ()

    def read(self, agent: str, name: str, text: str):
        what = f"agent '{agent}': {name}"
        if self.choices:
            if text not in self.choices:
                raise SpecError(f"{what} is one of {', '.join(self.choices)}, not "
                                f"'{clipped(text)}'")
            return text
        read = whole if self.kind is int else decimal
        try:  # the digits 0 to 9 only: not '²', '٣', '1_000' or 'nan'
            return read(text, what, self.low, self.high)
        except NumberProblem as exc:
            raise SpecError(exc.message) from None


PARAMS: dict[str, dict[str, Param]] = {
    "human": {},
    "random": {},
    "first": {},
    "last": {},
    "greedy": {"rollouts": Param(int, 1, 1000), "first_choices": Param(int, 0, 1000),
               "eval": Param(str, choices=("learned", "written")),
               "reward": Param(str, choices=("own", "margin"))},
    "trained": {"rollouts": Param(int, 1, 1000), "first_choices": Param(int, 0, 1000)},
    "ismcts": {
        "iterations": Param(int, 1, 1_000_000),
        "seconds": Param(float, 0.001, 3600),
        "playout": Param(str, choices=("random", "greedy-lite")),
        "depth": Param(int, 0, 50),
        "c": Param(float, 0, 100),
        "widen": Param(float, 0.01, 1),
        "reward": Param(str, choices=("margin", "own")),
        "expand": Param(str, choices=("path", "one")),
        "turns": Param(int, 0, 50),
        "inner": Param(str, choices=("search", "random")),
        "backup": Param(str, choices=("mean", "max", "offered")),
        "sets": Param(str, choices=("rank", "pick")),
        "prior": Param(str, choices=("history", "none")),
        "shrink": Param(float, 0, 1_000_000),
        "free": Param(str, choices=("count", "extra")),
        "turn_end": Param(str, choices=("past", "stop")),
        "eval": Param(str, choices=("learned", "written")),
    },
}


@dataclass
class Spec:
    text: str
    name: str  # a built-in name, an entry point's name, or MODULE:CLASS
    params: dict = field(default_factory=dict)  # as written (text)
    python: bool = False  # MODULE:CLASS

    @property
    def builtin(self) -> bool:
        return self.name in PARAMS


def parse(text: str) -> Spec:
    """Split a spec into its name and parameters; nothing is loaded."""
    raw = text.strip()
    if not raw:
        raise SpecError("an agent spec is empty (agents are separated by commas)")
    parts = raw.split(":")
    names = []
    while parts and "=" not in parts[0]:
        names.append(parts.pop(0))
    if not names or len(names) > 2 or any(not _NAME.match(n) for n in names):
        raise SpecError(f"'{clipped(raw)}' is not an agent spec: write NAME or MODULE:CLASS, "
                        "then any parameters as :KEY=VALUE")
    if len(names) == 2 and names[0] in PARAMS:
        raise SpecError(f"'{clipped(raw)}': parameter '{names[1]}' must read KEY=VALUE")
    params: dict[str, str] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key or not value.strip():
            raise SpecError(f"'{clipped(raw)}': parameter '{part}' must read KEY=VALUE")
        if key in params:
            raise SpecError(f"'{clipped(raw)}': parameter '{key}' is given twice")
        params[key] = value.strip()
    return Spec(raw, ":".join(names), params, python=len(names) == 2)


def known_names() -> list[str]:
    """Every agent name a spec may use: the built-ins, then the installed ones."""
    return list(PARAMS) + [n for n in sorted(_entry_points()) if n not in PARAMS]


def _entry_points() -> dict:
    from importlib.metadata import entry_points
    try:
        found = entry_points(group=GROUP)
    except Exception:  # a broken installed distribution must not stop the built-ins
        return {}
    return {ep.name: ep for ep in found}


def resolve(spec: Spec):
    """The agent class (None for a built-in one) and its checked keyword arguments.

    Built-in agents get their parameters converted and checked; a Python agent
    gets them as text, checked against what its class accepts."""
    if spec.builtin:
        table = PARAMS[spec.name]
        kwargs = {}
        for key, text in spec.params.items():
            if key not in table:
                raise SpecError(_no_param(spec.name, key, list(table)))
            kwargs[key] = table[key].read(spec.name, key, text)
        if "iterations" in kwargs and "seconds" in kwargs:
            raise SpecError(f"agent '{spec.name}': give iterations or seconds, not both")
        return None, kwargs
    if spec.python:
        cls = _import(spec.name)
    else:
        eps = _entry_points()
        if spec.name not in eps:
            from ..errors import suggest
            names = known_names()
            hint = suggest(spec.name, names)
            raise SpecError(f"unknown agent '{spec.name}'" + (f"; {hint}" if hint else "")
                            + f" (agents: {', '.join(names)}, or MODULE:CLASS)")
        try:
            cls = eps[spec.name].load()
        except Exception as exc:
            raise SpecError(f"agent '{spec.name}' is installed but does not load: "
                            f"{type(exc).__name__}: {_one_line(exc)}") from None
    _check_plugin(spec, cls)
    return cls, dict(spec.params)


def _import(name: str):
    import importlib
    import os
    import sys
    module, _, attr = name.partition(":")
    here = os.getcwd()  # like 'python -m', a module in the current folder is found
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            raise SpecError(f"agent '{name}': no module named '{module}' (run from its "
                            "folder, put that on PYTHONPATH, or install it)") from None
        raise SpecError(f"agent '{name}': importing '{module}' failed: "
                        f"{type(exc).__name__}: {_one_line(exc)}") from None
    except Exception as exc:
        raise SpecError(f"agent '{name}': importing '{module}' failed: "
                        f"{type(exc).__name__}: {_one_line(exc)}") from None
    try:
        return getattr(mod, attr)
    except AttributeError:
        raise SpecError(f"agent '{name}': module '{module}' has no '{attr}'") from None


def _check_plugin(spec: Spec, cls) -> None:
    import inspect
    if not callable(cls) or not callable(getattr(cls, "decide", None)):
        raise SpecError(f"agent '{spec.name}' is not an agent: it needs a decide(decision, "
                        "view) method")
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        return
    ps = list(sig.parameters.values())
    if any(p.kind is p.VAR_KEYWORD for p in ps):
        return
    names = [p.name for p in ps if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
             and p.name != "rng"]
    if "rng" not in sig.parameters:
        raise SpecError(f"agent '{spec.name}' must take its random source as a parameter "
                        "named rng (see docs/agents.md)")
    for key in spec.params:
        if key not in names:
            raise SpecError(_no_param(spec.name, key, names))


def _no_param(agent: str, key: str, names: list[str]) -> str:
    from ..errors import suggest
    hint = suggest(key, names)
    listed = f"its parameters: {', '.join(names)}" if names else "it takes none"
    return f"agent '{agent}' has no parameter '{key}'" + (f"; {hint}" if hint else "") \
        + f" ({listed})"


def _one_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else "no message"


def check(text: str) -> Spec:
    """Parse and resolve a spec: a SpecError if unusable.

    A Python agent is also set up once, so a value its class refuses is told
    before any game starts."""
    spec = parse(text)
    resolve(spec)
    if not spec.builtin:
        build(text, 0, {})
    return spec


def build(text: str, seed: int, builtins: dict):
    """The agent a spec names, with its own random source from ``seed``.

    ``builtins`` holds the built-in agents' classes by name (the agents module
    gives them, so this module never imports it)."""
    spec = parse(text)
    cls, kwargs = resolve(spec)
    if spec.builtin:
        cls = builtins[spec.name]
        return cls(**kwargs) if spec.name == "human" else cls(seed, **kwargs)
    from .plugin import PluginAgent
    try:
        inner = cls(rng=random.Random(seed), **kwargs)
    except Exception as exc:
        raise SpecError(f"agent '{spec.name}' could not be set up: {type(exc).__name__}: "
                        f"{_one_line(exc)}") from None
    return PluginAgent(spec.text, inner)


def check_recorded(text) -> str | None:
    """Why a record's agent spec is not one (read as text: nothing is imported)."""
    if not isinstance(text, str) or len(text) > 200:
        return "is not an agent spec"
    try:
        spec = parse(text)
    except SpecError as exc:
        return f"is not an agent spec ({exc})"
    if spec.builtin:
        try:
            resolve(spec)
        except SpecError as exc:
            return f"is not a usable agent spec ({exc})"
    elif not spec.python and spec.name not in _entry_points():
        return f"is not an agent; agents are {', '.join(known_names())}, or MODULE:CLASS"
    return None


# The most a record may ask of a built-in agent that resume seats again. A record
# is a file anyone can hand you, and an agent's budget is how long each of its
# decisions takes: 'ismcts:seconds=3600' from a record would look like a hang. A
# larger budget is given with --agents, on the command line, where the user sees it.
RECORD_BUDGET = {"greedy": {"rollouts": 10, "first_choices": 32},
                 "trained": {"rollouts": 10, "first_choices": 32},
                 "ismcts": {"iterations": 1000, "seconds": 5, "depth": 5, "turns": 2}}


class RecordSeatRefused(SpecError):
    """A record's agent that resume does not seat again; ``seat`` is its index (from 0)."""

    def __init__(self, seat: int, message: str):
        super().__init__(message)
        self.seat = seat


def record_problem(text: str) -> str | None:
    """Why resume does not seat a record's agent again by itself, or None."""
    spec = parse(text)
    if spec.python:
        return "an agent written in Python; a record never makes Rulebook load code"
    if not spec.builtin:  # an installed entry point: installing it was the user's choice
        return None
    _, kwargs = resolve(spec)
    for key, most in RECORD_BUDGET.get(spec.name, {}).items():
        if key in kwargs and kwargs[key] > most:
            value = kwargs[key]
            shown = f"{value:g}" if isinstance(value, float) else f"{value:,}"
            return (f"whose {key} is {shown}, more than a record may ask for (at most "
                    f"{most:,}): a record does not choose how long an agent thinks")
    return None


def from_record(texts: list[str]) -> list[str]:
    """A record's agents, to seat again: a Python agent or a budget past RECORD_BUDGET is refused.

    Nothing is imported; the user says who plays instead, with --agents."""
    for seat, text in enumerate(texts):
        problem = record_problem(text)
        if problem:
            raise RecordSeatRefused(seat, f"seat {seat + 1} of the record was played by "
                                    f"'{clipped(text)}', {problem}; say who plays each seat "
                                    "with --agents")
    return list(texts)
