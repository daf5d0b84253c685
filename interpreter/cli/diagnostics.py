"""Render diagnostics for people, editors and CI systems.

Formats: ``text`` (``file:line:col: error[CODE]: message`` with the source
line and a caret), ``json``, ``github`` (workflow-command annotations) and
``sarif`` (SARIF 2.1.0 for code-scanning tools). ``auto`` picks ``github``
under GitHub Actions and ``text`` elsewhere. Imports the base modules and
``load.userfiles`` (to read the line an error points at, safely) only:
``rulebook --help`` loads it.
"""

from __future__ import annotations

import os
from urllib.parse import quote

from ..version import __version__
from ..errors import CODES, Diagnostic
from ..safe_text import json_text, visible
from ..span import SealedSpan
from ..load.userfiles import Unreadable, read_regular

FORMATS = ("text", "json", "github", "sarif", "auto")


def resolve_format(fmt: str) -> str:
    if fmt == "auto":
        return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    return fmt


class _Sources:
    def __init__(self):
        self.cache: dict[str, list[str]] = {}

    def line(self, file: str, line: int) -> str | None:
        if file not in self.cache:
            try:  # a regular file only: the place of an error may be a pipe, never read
                raw = read_regular(file, 8 * 1024 * 1024)[:8 * 1024 * 1024]
                self.cache[file] = raw.decode("utf-8", errors="replace").splitlines()
            except Unreadable:
                self.cache[file] = []
        lines = self.cache[file]
        return lines[line - 1] if 0 < line <= len(lines) else None


def text(diags: list[Diagnostic], color: bool = False) -> str:
    sources = _Sources()
    out: list[str] = []
    red = "\x1b[1;31m" if color else ""
    bold = "\x1b[1m" if color else ""
    blue = "\x1b[34m" if color else ""
    reset = "\x1b[0m" if color else ""
    for d in diags:
        # everything from rule files goes through visible(); the colours are added after
        where = f"{visible(d.span)}: " if d.span else ""
        ctx = f" (in {visible(d.context)})" if d.context else ""
        out.append(f"{bold}{where}{reset}{red}{d.severity}[{d.code}]{reset}: "
                   f"{visible(d.message)}{ctx}")
        if d.span and not isinstance(d.span, SealedSpan):
            src = sources.line(d.span.file, d.span.line)
            if src is not None:
                line = src.replace("\t", " ")
                # the caret sits under the same characters once escapes have widened them
                before = visible(line[:d.span.col - 1])
                width = 1
                if d.span.end_line == d.span.line and d.span.end_col:
                    width = max(1, len(visible(line[d.span.col - 1:d.span.end_col - 1])))
                shown = visible(line)
                width = min(width, max(1, len(shown) - len(before)))
                gutter = f"{d.span.line:>5} | "
                out.append(f"{blue}{gutter}{reset}{shown}")
                out.append(" " * (len(gutter) + len(before))
                           + f"{red}^{'~' * (width - 1)}{reset}")
        if d.hint:
            out.append(f"      = hint: {visible(d.hint)}")
    return "\n".join(out)


def as_json(diags: list[Diagnostic], summary: dict | None = None) -> str:
    return json_text({"diagnostics": [d.to_dict() for d in diags], "summary": summary or {}},
                     indent=2)


def _gh_escape(value: str, prop: bool = False) -> str:
    value = visible(value, multiline=True)
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def github(diags: list[Diagnostic]) -> str:
    lines = []
    for d in diags:
        props = []
        if d.span:
            props += [f"file={_gh_escape(d.span.file, True)}", f"line={d.span.line}",
                      f"col={d.span.col}"]
            if d.span.end_line:
                props += [f"endLine={d.span.end_line}", f"endColumn={d.span.end_col}"]
        props.append(f"title={_gh_escape(d.code + ' ' + CODES.get(d.code, ''), True)}")
        msg = d.message + (f" (in {d.context})" if d.context else "")
        if d.hint:
            msg += f"\n{d.hint}"
        level = "error" if d.severity == "error" else "warning"
        lines.append(f"::{level} {','.join(props)}::{_gh_escape(msg)}")
    return "\n".join(lines)


def sarif(diags: list[Diagnostic]) -> str:
    used = sorted({d.code for d in diags})
    # no informationUri/helpUri: SARIF wants absolute URIs there, and Rulebook has no
    # address of its own to point at; the rule's text says what the code means
    rules = [{"id": code, "name": code, "shortDescription": {"text": CODES.get(code, code)}}
             for code in used]
    results = []
    for d in diags:
        msg = d.message + (f" (in {d.context})" if d.context else "")
        if d.hint:
            msg += f". Hint: {d.hint}"
        result = {"ruleId": d.code, "ruleIndex": used.index(d.code),
                  "level": "error" if d.severity == "error" else "warning",
                  "message": {"text": msg}}
        if d.span:
            region = {"startLine": d.span.line, "startColumn": d.span.col}
            if d.span.end_line:
                region.update(endLine=d.span.end_line, endColumn=d.span.end_col)
            result["locations"] = [{"physicalLocation": {
                "artifactLocation": {"uri": _uri_reference(d.span.file)},
                "region": region}}]
        results.append(result)
    return json_text(_sarif_log({"tool": {"driver": {"name": "rulebook", "version": __version__,
                                                     "rules": rules}},
                                 "results": results}), indent=2)


def _uri_reference(file: str) -> str:
    """A file path as SARIF wants it: a URI reference, '/'-separated and percent-encoded."""
    return quote(file.replace(os.sep, "/"), safe="/")


def _sarif_log(run: dict) -> dict:
    return {
        "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }


def usage_error(fmt: str, message: str, exit_code: int = 2) -> str:
    """A command that could not run (bad options, no such path) as a document of ``fmt``.

    Scripts that parse ``--format json|sarif|github`` output get a valid
    document even then: JSON with an ``error`` object and no diagnostics, a
    SARIF log whose invocation failed with the message as a notification,
    or one ``::error`` workflow command.
    """
    kind = "usage" if exit_code == 2 else "internal"
    if fmt == "json":
        return json_text({"diagnostics": [], "summary": {},
                          "error": {"kind": kind, "message": message, "exit_code": exit_code}},
                         indent=2)
    if fmt == "sarif":
        note = {"level": "error", "message": {"text": message},
                "descriptor": {"id": f"rulebook-{kind}-error"}}
        return json_text(_sarif_log({
            "tool": {"driver": {"name": "rulebook", "version": __version__}},
            "invocations": [{"executionSuccessful": False, "exitCode": exit_code,
                             "toolExecutionNotifications": [note]}],
            "results": []}), indent=2)
    title = _gh_escape(f"rulebook {kind} error", True)
    return f"::error title={title}::{_gh_escape(message)}"


def render(fmt: str, diags: list[Diagnostic], summary: dict | None = None,
           color: bool = False) -> str:
    fmt = resolve_format(fmt)
    if fmt == "json":
        return as_json(diags, summary)
    if fmt == "github":
        return github(diags)
    if fmt == "sarif":
        return sarif(diags)
    return text(diags, color)
