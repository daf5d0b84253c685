"""``rulebook test``: a ruleset's scenario tests (its scenarios/*.yaml files), passed or failed.

Each scenario sets up a position, plays it and checks what the rules say
should follow (``scenarios``). Exit 0 when every one passes, 1 otherwise or
when there are none. ``--format json`` prints one document instead of the
lines for people, and ``--junit FILE`` writes JUnit XML for CI systems (both
in docs/formats.md). Imports ``options``, ``loading`` and ``diagnostics`` at
the top; the scenario runner and rich only inside the command.
"""

from __future__ import annotations

import re
import sys
import time

import click

from . import diagnostics as report
from .loading import load_named
from .options import NAME, UsablePath
from .watching import watchable
from ..errors import Diagnostics
from ..safe_text import json_text, visible

# the start of the JUnit files `test --junit` writes: such a file may be written again
JUNIT_HEAD = b'<?xml version="1.0" encoding="utf-8"?>\n<testsuites name="rulebook test"'


@watchable("test", lambda params: ((params["ruleset"],), params["mods"]))
@click.command("test")
@click.argument("ruleset", type=NAME)
@click.option("--mod", "mods", multiple=True, type=UsablePath(dir_okay=False))
@click.option("-k", "select", default=None, help="Only scenarios whose id contains this text.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="How to print the results (json: one document on "
                                      "stdout, see docs/formats.md).")
@click.option("--junit", type=UsablePath(dir_okay=False), default=None, metavar="FILE",
              help="Also write the results as JUnit XML (one test case per scenario), "
                   "which CI systems read.")
def test_cmd(ruleset, mods, select, fmt, junit):
    """Run a ruleset's scenario tests (its scenarios/*.yaml files)."""
    from ..outfiles import Replace, check_file, write_file
    from ..scenarios.files import discover, load_scenarios, run_scenario
    junit_rule = Replace(lambda path, head: head.startswith(JUNIT_HEAD),
                         "a JUnit file 'rulebook test' wrote",
                         "give another path, or remove it first")
    if junit:
        check_file(junit, "--junit", junit_rule)  # before anything is loaded or run
    as_json = fmt == "json"
    rs, broken = _load(ruleset, mods)
    if broken:  # the ruleset does not load: its errors, in each form asked for
        if junit:
            write_file(junit, junit_xml(ruleset, [], broken), "--junit", junit_rule)
        if as_json:
            click.echo(json_text(test_document(None, mods, [], broken, False, 1), indent=2))
        else:
            click.echo(report.text(broken, sys.stdout.isatty()))
        sys.exit(1)
    console = None
    if not as_json:
        from rich.console import Console
        console = Console(highlight=False, emoji=False)
    paths = discover(rs)
    diags = Diagnostics()
    cases = []  # (scenario, outcome, seconds)
    for path in paths:
        for sc in load_scenarios(rs, path, diags):
            if select and select not in sc.id:
                continue
            start = time.perf_counter()
            outcome = run_scenario(rs, sc)
            cases.append((sc, outcome, time.perf_counter() - start))
            if console is not None:
                _show(console, sc, outcome)
    errors = diags.sorted()
    passed = sum(1 for _, o, _ in cases if o.passed)
    failed = len(cases) - passed
    code = 1 if failed or diags.errors or not passed else 0
    if junit:
        write_file(junit, junit_xml(rs.id, cases, errors), "--junit", junit_rule)
    if as_json:
        click.echo(json_text(test_document(rs.id, mods, cases, errors, bool(paths), code),
                             indent=2))
    else:
        if not paths:
            click.echo(visible(f"{rs.root}/scenarios: no scenario files"))
        if errors:
            click.echo(report.text(errors, sys.stdout.isatty()))
        if paths:
            click.echo(f"{passed} passed, {failed + len(diags.errors)} failed")
        if junit:
            click.echo(visible(f"wrote {junit}"))
    sys.exit(code)


def _load(ruleset, mods):
    """The ruleset and no errors, or None and the errors that stop it from loading."""
    from ..errors import RulebookError
    from .loading import check_mod_files, load_ruleset, no_such_ruleset
    from ..paths import find_ruleset
    if find_ruleset(ruleset) is None:
        load_named(ruleset, mods)  # says why, as every command does (a usage error)
        raise no_such_ruleset(ruleset)
    check_mod_files(mods)
    try:
        return load_ruleset(ruleset, list(mods)), []
    except RulebookError as exc:
        return None, Diagnostics(exc.diagnostics).sorted()


def _show(console, sc, outcome) -> None:
    from rich.markup import escape
    if outcome.passed:
        console.print(f"[green]PASS[/green] {escape(visible(sc.id))}")
    else:
        console.print(f"[red]FAIL[/red] {escape(visible(sc.id))}\n  "
                      f"{escape(visible(f'{outcome.span}: {outcome.message}'))}")


def _place(span) -> dict:
    return span.to_dict() if span is not None else {}


def test_document(ruleset_id, mods, cases, errors, found: bool, code: int) -> dict:
    """``test --format json``: the scenarios run, each passed or with its failure's place."""
    scenarios = []
    for sc, outcome, seconds in cases:
        entry = {"id": sc.id, "file": sc.file, "line": sc.span.line, "col": sc.span.col,
                 "passed": outcome.passed, "seconds": round(seconds, 3)}
        if not outcome.passed:
            entry["failure"] = {"message": outcome.message, **_place(outcome.span)}
        scenarios.append(entry)
    passed = sum(1 for _, o, _ in cases if o.passed)
    document = {"ruleset": ruleset_id, "mods": list(mods), "scenarios": scenarios,
                "errors": [d.to_dict() for d in errors],
                "summary": {"passed": passed, "failed": len(cases) - passed,
                            "errors": sum(1 for d in errors if d.severity == "error")},
                "exit_code": code}
    if not found:
        document["note"] = "no scenario files"
    return document


# characters XML 1.0 cannot hold at all, even escaped: shown as escapes instead (the
# pattern is compiled when a report is written: compiling it costs every command 7 ms)
_NOT_XML = "[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


def _xml_text(text) -> str:
    return re.sub(_NOT_XML, lambda m: f"\\u{ord(m.group()):04x}",
                  visible(str(text), multiline=True))


def junit_xml(ruleset_id: str, cases, errors) -> str:
    """JUnit XML: a test suite for the ruleset, a test case per scenario (its class the
    scenario file), a failure with the message and its place; a file that does not load
    is a test case with an error."""
    import xml.etree.ElementTree as ET
    failures = sum(1 for _, o, _ in cases if not o.passed)
    load_errors = [d for d in errors if d.severity == "error"]
    total = sum(s for _, _, s in cases)
    counts = {"tests": str(len(cases) + len(load_errors)), "failures": str(failures),
              "errors": str(len(load_errors)), "skipped": "0", "time": f"{total:.3f}"}
    root = ET.Element("testsuites", {"name": "rulebook test", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": _xml_text(ruleset_id), **counts})
    for sc, outcome, seconds in cases:
        case = ET.SubElement(suite, "testcase", {
            "classname": _xml_text(_class_name(ruleset_id, sc.file)), "name": _xml_text(sc.id),
            "file": _xml_text(sc.file), "line": str(sc.span.line), "time": f"{seconds:.3f}"})
        if not outcome.passed:
            where = f"{outcome.span}: " if outcome.span else ""
            failure = ET.SubElement(case, "failure", {
                "message": _xml_text(outcome.message), "type": "ScenarioFailed"})
            failure.text = _xml_text(f"{where}{outcome.message}")
    for d in load_errors:
        file = d.span.file if d.span else ""
        case = ET.SubElement(suite, "testcase", {
            "classname": _xml_text(_class_name(ruleset_id, file)),
            "name": _xml_text(f"{d.code} at {d.span}" if d.span else d.code),
            "file": _xml_text(file), "line": str(d.span.line if d.span else 0), "time": "0"})
        error = ET.SubElement(case, "error", {"message": _xml_text(d.message),
                                              "type": d.code})
        error.text = _xml_text(report.text([d]))
    ET.indent(root)
    return ('<?xml version="1.0" encoding="utf-8"?>\n'
            + ET.tostring(root, encoding="unicode") + "\n")


def _class_name(ruleset_id, file: str) -> str:
    """A test case's class: the ruleset and the scenario file's name, dot-separated."""
    from pathlib import PurePath
    stem = PurePath(file).stem if file else "scenarios"
    return f"{ruleset_id}.{stem}"
