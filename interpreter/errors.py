"""Diagnostics: one error type with a stable code, a place and a reason.

Every stage reports problems as :class:`Diagnostic` objects collected in a
:class:`Diagnostics` list, so a run reports all of its errors instead of the
first. Codes are stable and documented in ``docs/errors.md``; tests and CI
integrations rely on them.
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from .span import Span

# Stable error codes, grouped by pipeline stage. The text is the short title
# shown in docs and SARIF rule descriptors.
CODES: dict[str, str] = {
    # files and YAML
    "RB100": "file cannot be read",
    "RB101": "file is not valid UTF-8 text",
    "RB102": "file is empty",
    "RB103": "file is too large",
    "RB104": "malformed YAML",
    "RB105": "duplicate key in a mapping",
    "RB106": "document nested too deeply",
    "RB107": "alias expansion too large",
    "RB108": "unsupported YAML construct",
    "RB109": "tab character used for indentation",
    # schema
    "RB200": "value does not match the schema",
    "RB201": "unknown key",
    "RB202": "missing required key",
    "RB203": "wrong type",
    "RB204": "value out of range or not allowed",
    # effect language
    "RB300": "effect syntax error",
    "RB301": "unknown name",
    "RB302": "type mismatch",
    "RB303": "wrong number or kind of arguments",
    "RB304": "statement not allowed here",
    "RB305": "name already bound",
    "RB306": "number beyond the integer bound",
    "RB307": "negative amount",
    # ruleset semantics
    "RB400": "duplicate id",
    "RB401": "unknown reference",
    "RB402": "include cycle",
    "RB403": "included file not found",
    "RB404": "invalid ruleset structure",
    "RB405": "path leads outside its tree",
    # mods
    "RB500": "mod target not found",
    "RB501": "mods conflict",
    "RB502": "invalid mod operation",
    # usage
    "RB900": "usage error",
}


@dataclass(slots=True)
class Diagnostic:
    """One problem at one place, with a stable code and a clear reason."""

    code: str
    message: str
    span: Span | None = None
    hint: str | None = None
    context: str | None = None  # e.g. "card 'comet'"
    severity: str = "error"
    related: list[Span] = field(default_factory=list)

    def headline(self) -> str:
        where = f"{self.span}: " if self.span else ""
        ctx = f" (in {self.context})" if self.context else ""
        return f"{where}{self.severity}[{self.code}]: {self.message}{ctx}"

    def to_dict(self) -> dict:
        out = {"code": self.code, "severity": self.severity, "message": self.message}
        if self.span:
            out.update(self.span.to_dict())
        if self.hint:
            out["hint"] = self.hint
        if self.context:
            out["context"] = self.context
        return out

    def __reduce__(self):  # survive process boundaries
        return (Diagnostic, (self.code, self.message, self.span, self.hint,
                             self.context, self.severity, self.related))


class Diagnostics(list):
    """An ordered collection of diagnostics for one run."""

    def error(self, code: str, message: str, span: Span | None = None, *,
              hint: str | None = None, context: str | None = None) -> Diagnostic:
        d = Diagnostic(code, message, span, hint=hint, context=context)
        self.append(d)
        return d

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self if d.severity == "error"]

    def sorted(self) -> list[Diagnostic]:
        def key(d: Diagnostic):
            s = d.span
            return (s.file, s.line, s.col) if s else ("", 0, 0)
        return sorted(self, key=key)


class RulebookError(Exception):
    """Raised when a stage cannot hand on a finished product."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.headline() for d in self.diagnostics))

    def __reduce__(self):
        return (RulebookError, (self.diagnostics,))


# A 'did you mean' hint compares the name with every candidate, so a file with
# thousands of unknown names in a ruleset of thousands of names would take time
# that grows with the square of its size. Inside :func:`suggestion_budget` (a
# load), hints from pools of more than FREE_POOL names share a budget of
# SUGGEST_BUDGET candidates compared; once a pool no longer fits in what is left
# its hint is left out. Small pools (keywords, resources, types) always hint.
SUGGEST_BUDGET = 100_000
FREE_POOL = 64
_budget: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "suggest_budget", default=None)


@contextlib.contextmanager
def suggestion_budget(candidates: int = SUGGEST_BUDGET) -> Iterator[None]:
    """Within the block, hints from large pools compare at most ``candidates`` names in all."""
    token = _budget.set([candidates])
    try:
        yield
    finally:
        _budget.reset(token)


def suggest(name: str, candidates: Iterable[str], *more: Iterable[str]) -> str | None:
    """A 'did you mean' hint for an unknown name among ``candidates`` (and ``more`` pools), or None.

    Pools are passed as they are (several of them rather than one list joined from
    them), so that a hint refused by the budget costs nothing whatever their size."""
    pools = [c if hasattr(c, "__len__") else list(c) for c in (candidates, *more)]
    size = sum(map(len, pools))
    left = _budget.get()
    if left is not None and size > FREE_POOL:
        if size > left[0]:
            return None
        left[0] -= size
    pool = sorted(set().union(*pools))
    matches = difflib.get_close_matches(name, pool, n=3, cutoff=0.6)
    if not matches:
        lowered = {c.lower(): c for c in pool}
        if name.lower() in lowered:
            matches = [lowered[name.lower()]]
    if not matches:
        return None
    if len(matches) == 1:
        return f"did you mean '{matches[0]}'?"
    return "did you mean " + ", ".join(f"'{m}'" for m in matches[:-1]) + f" or '{matches[-1]}'?"
