"""Render diagnostics for people, editors and CI systems.

Formats: ``text`` (``file:line:col: error[CODE]: message`` with the source
line and a caret), ``json``, ``github`` (workflow-command annotations) and
``sarif`` (SARIF 2.1.0 for code-scanning tools and reviewdog: rules with
docs/errors.md's texts and anchors, hints as fixes). ``auto`` picks ``github``
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


GITHUB_SHOWN = 10  # annotations of each kind GitHub shows for one step of a workflow


def github(diags: list[Diagnostic]) -> str:
    """One workflow annotation per diagnostic; past :data:`GITHUB_SHOWN`, the full text too.

    GitHub shows the first 10 error (and 10 warning) annotations of a step and
    drops the rest, so a run with more prints every error again as text, in a
    folded group of the log, and ends with a line that says how many there
    are. That text is rule files' text: it is printed between
    ``::stop-commands::`` and its token, so no line of it is read as a
    workflow command.
    """
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
    errors = sum(1 for d in diags if d.severity == "error")
    warnings = len(diags) - errors
    if errors > GITHUB_SHOWN or warnings > GITHUB_SHOWN:
        import secrets
        token = secrets.token_hex(16)
        counted = " and ".join(part for part in (_count(errors, "error"),
                                                 _count(warnings, "warning")) if part)
        lines += [f"::group::{_gh_escape(f'All {counted}')}", f"::stop-commands::{token}",
                  text(diags), f"::{token}::", "::endgroup::",
                  "::notice title=rulebook::" + _gh_escape(
                      f"{counted} in all; GitHub shows the first {GITHUB_SHOWN} annotations "
                      f"of each kind: the log lists every one (All {counted})")]
    return "\n".join(lines)


def _count(n: int, what: str) -> str:
    return "" if not n else f"{n:,} {what}{'' if n == 1 else 's'}"


def sarif(diags: list[Diagnostic]) -> str:
    """A SARIF 2.1.0 log: a rule for each code met, with what it means, what to do and
    where the docs explain it; a result for each diagnostic, a did-you-mean hint that
    names one name as a ``fix`` that puts it in place of the wrong one."""
    used = sorted({d.code for d in diags})
    help_page = errors_page()
    rules = [_rule(code, help_page) for code in used]
    sources = _Sources()
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
            fixes = _fixes(d, sources)
            if fixes:
                result["fixes"] = fixes
        results.append(result)
    # columns count characters (code points), as every place Rulebook prints does
    return json_text(_sarif_log({"tool": {"driver": {"name": "rulebook", "version": __version__,
                                                     "rules": rules}},
                                 "columnKind": "unicodeCodePoints",
                                 "results": results}), indent=2)


def _rule(code: str, help_page: str | None) -> dict:
    """The SARIF rule of an error code, from docs/errors.md's table (:mod:`..errordocs`)."""
    from ..errordocs import ABOUT
    title = CODES.get(code, code)
    meaning, advice = ABOUT.get(code, (title, ""))
    rule = {"id": code, "name": code, "shortDescription": {"text": title},
            "fullDescription": {"text": _plain(meaning)},
            "help": {"text": f"{_plain(meaning)}. What to do: {_plain(advice)}" if advice
                     else _plain(meaning),
                     "markdown": f"**{code}**: {meaning}." + (f"\n\n**What to do:** {advice}"
                                                             if advice else "")}}
    if help_page:
        rule["helpUri"] = f"{help_page}#{code.lower()}"
    return rule


def _plain(markdown: str) -> str:
    """A table cell's Markdown as plain text: no backticks, links as their words."""
    import re
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown).replace("`", "")


_HINT = None


def _fixes(d: Diagnostic, sources: "_Sources") -> list[dict]:
    """The did-you-mean hint of ``d`` as SARIF fixes: each suggested name in place of the
    wrong one. Only when the text at the place is the name the message quotes, so a fix
    never replaces anything else; none when the file cannot be read again."""
    import re
    global _HINT
    if _HINT is None:
        _HINT = re.compile(r"did you mean ((?:'[^']*'(?:, | or )?)+)\?")
    found = _HINT.search(d.hint or "") if d.hint else None
    if not found or isinstance(d.span, SealedSpan):
        return []
    names = re.findall(r"'([^']*)'", found.group(1))
    if len(names) != 1:  # 'a' or 'b': a choice for the author, not a fix (and reviewdog
        return []        # keeps one fix of a file, the last)
    line = sources.line(d.span.file, d.span.line)
    if line is None:
        return []
    start = d.span.col - 1
    if d.span.end_line == d.span.line and d.span.end_col:
        end = d.span.end_col - 1
    else:  # a place with no end: the name that begins there
        m = re.match(r"[A-Za-z_][A-Za-z0-9_]*", line[start:])
        end = start + (m.end() if m else 0)
    wrong = line[start:end]
    if not wrong or f"'{wrong}'" not in d.message:
        return []
    region = {"startLine": d.span.line, "startColumn": start + 1, "endLine": d.span.line,
              "endColumn": end + 1}
    (name,) = names
    if not name or name == wrong:
        return []
    return [{"description": {"text": f"Replace '{wrong}' with '{name}'"},
             "artifactChanges": [{
                 "artifactLocation": {"uri": _uri_reference(d.span.file)},
                 "replacements": [{"deletedRegion": region,
                                   "insertedContent": {"text": name}}]}]}]


ERRORS_URL = "RULEBOOK_ERRORS_URL"  # the environment variable that gives the page's address


def errors_page() -> str | None:
    """The absolute address of docs/errors.md, which SARIF rules' ``helpUri`` points into.

    In order: the environment variable ``RULEBOOK_ERRORS_URL`` (an http or https
    address); the repository Rulebook was installed from with ``pip install
    git+https://HOST/OWNER/REPO@REV`` on GitHub or GitLab (its pinned commit's
    page, from the install's ``direct_url.json``); the page in the checkout of an
    editable install (a ``file:`` URI). None when none is known: the rules still
    carry the page's text, only not its address.
    """
    given = os.environ.get(ERRORS_URL, "").strip()
    if given:
        from urllib.parse import urlsplit
        parts = urlsplit(given)
        if parts.scheme in ("http", "https") and parts.netloc and not parts.fragment \
                and not any(ch.isspace() for ch in given):
            return given
    try:
        from importlib.metadata import PackageNotFoundError, distribution
        raw = distribution("rulebook-games").read_text("direct_url.json")
    except (ImportError, PackageNotFoundError, OSError):
        raw = None
    return page_from_install(raw)


def page_from_install(raw: str | None) -> str | None:
    """docs/errors.md's address from a PEP 610 ``direct_url.json`` (None if not known)."""
    import json
    from pathlib import Path
    from urllib.parse import urlsplit
    try:
        info = json.loads(raw) if raw else None
    except ValueError:
        return None
    if not isinstance(info, dict) or not isinstance(info.get("url"), str):
        return None
    url = info["url"]
    vcs = info.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git":
        commit = vcs.get("commit_id")
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        path = parts.path.removesuffix("/").removesuffix(".git")
        if parts.scheme == "https" and host in ("github.com", "gitlab.com") and \
                isinstance(commit, str) and len(commit) == 40 and \
                all(c in "0123456789abcdef" for c in commit) and path.count("/") >= 2:
            middle = "/-/blob/" if host == "gitlab.com" else "/blob/"
            return f"https://{host}{quote(path)}{middle}{commit}/docs/errors.md"
        return None
    dir_info = info.get("dir_info")
    if isinstance(dir_info, dict) and dir_info.get("editable") and url.startswith("file:"):
        page = Path(__file__).resolve().parents[2] / "docs" / "errors.md"
        if page.is_file():
            return page.as_uri()
    return None


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
    or one ``::error`` workflow command. ``error-json`` is the document of the
    other commands' ``--format json`` (docs/formats.md): the ``error`` object alone.
    """
    kind = {2: "usage", 3: "internal"}.get(exit_code, "failure")
    if fmt == "error-json":  # the --format json of test, simulate, report and compare
        return json_text({"error": {"kind": kind, "message": message,
                                    "exit_code": exit_code}}, indent=2)
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
