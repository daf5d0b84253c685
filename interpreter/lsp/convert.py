"""Rulebook's diagnostics and places as the protocol's ranges, diagnostics and quick fixes.

Rulebook counts lines and columns from 1 with the end excluded; the
protocol counts from 0. A diagnostic keeps its stable code, its context
(which card, which part) and its hint; a 'did you mean' hint also travels
in the diagnostic's data as the names it offers, and the range is narrowed
to the misspelt name so that a quick fix can put one of them in its place.
"""

from __future__ import annotations

import re

from lsprotocol import types as lsp

from ..errors import Diagnostic
from ..span import SealedSpan, Span
from .project import norm

QUOTED = re.compile(r"'([^']+)'")


def suggestions(hint: str | None) -> list[str]:
    """The names a 'did you mean' hint offers."""
    if not hint or not hint.startswith("did you mean"):
        return []
    return QUOTED.findall(hint)


def span_range(span: Span, lines: list[str] | None = None) -> lsp.Range:
    """The protocol range of a span; a span without an end covers the word it starts at."""
    line, col = max(span.line - 1, 0), max(span.col - 1, 0)
    if span.end_line is not None and span.end_col is not None and \
            (span.end_line, span.end_col) > (span.line, span.col):
        return lsp.Range(lsp.Position(line, col),
                         lsp.Position(max(span.end_line - 1, 0), max(span.end_col - 1, 0)))
    end = col + 1
    if lines is not None and line < len(lines):
        text = lines[line]
        m = re.compile(r"[\w.]+").match(text, col)
        if m and m.end() > col:
            end = m.end()
    return lsp.Range(lsp.Position(line, col), lsp.Position(line, end))


def _name_range(d: Diagnostic, rng: lsp.Range, lines: list[str] | None) -> lsp.Range:
    """The range of the unknown name the message quotes, when it sits where the span starts."""
    m = QUOTED.search(d.message)
    if m is None or lines is None or rng.start.line >= len(lines):
        return rng
    name = m.group(1)
    text = lines[rng.start.line]
    at = text.find(name, rng.start.character)
    inside = rng.start.line == rng.end.line and 0 <= at and at + len(name) <= rng.end.character
    if at != rng.start.character and not inside:
        return rng
    return lsp.Range(lsp.Position(rng.start.line, at),
                     lsp.Position(rng.start.line, at + len(name)))


def to_lsp(d: Diagnostic, lines: list[str] | None = None) -> lsp.Diagnostic:
    span = d.span or Span("", 1, 1)
    rng = span_range(span, lines)
    offered = suggestions(d.hint)
    if offered:
        rng = _name_range(d, rng, lines)
    message = d.message + (f" (in {d.context})" if d.context else "")
    if d.hint:
        message += f"\n{d.hint}"
    related = [lsp.DiagnosticRelatedInformation(
        lsp.Location(uri_of(r.file, isinstance(r, SealedSpan)), span_range(r)), "see also")
        for r in d.related if r]
    return lsp.Diagnostic(
        range=rng, message=message, code=d.code, source="rulebook",
        severity=(lsp.DiagnosticSeverity.Error if d.severity == "error"
                  else lsp.DiagnosticSeverity.Warning),
        related_information=related or None,
        data={"replace": offered} if offered else None)


def uri_of(file: str, sealed: bool = False) -> str:
    import os

    from pygls.uris import from_fs_path
    return from_fs_path(os.path.abspath(file) if sealed else norm(file)) or file


def location(span: Span) -> lsp.Location:
    return lsp.Location(uri_of(span.file), span_range(span))


def quick_fixes(uri: str, diagnostics: list[lsp.Diagnostic]) -> list[lsp.CodeAction]:
    """One 'change to' action per name a diagnostic's 'did you mean' offers."""
    out = []
    for diag in diagnostics:
        data = diag.data if isinstance(diag.data, dict) else {}
        for i, name in enumerate(data.get("replace") or []):
            out.append(lsp.CodeAction(
                title=f"Change to '{name}'", kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[diag], is_preferred=i == 0,
                edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(diag.range, name)]})))
    return out
