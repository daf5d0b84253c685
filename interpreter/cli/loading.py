"""The ruleset a command names: found (or a usage error that says why not) and loaded.

Every command that takes a RULESET and ``--mod`` files finds them here, so
each gives the same usage error for a ruleset it cannot find and prints a
ruleset's positioned errors the same way (exit 1). Imports the base modules,
``options`` and ``diagnostics`` at the top; the loader, with its schema
checker and parser, only inside a function, when a command loads.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from . import diagnostics as report
from .options import UsageProblem, unusable_name
from ..errors import Diagnostics, RulebookError
from ..numtext import clipped
from ..paths import RULESET_FILE, find_ruleset, shipped_rulesets


def load_ruleset(path, mods=None):
    """Load a ruleset (the loader, with its schema checker and parser, is imported here)."""
    from ..load.ruleset import load_ruleset as load
    return load(path, mods)


def load_named(ruleset: str, mods: tuple[str, ...], as_json: bool = False):
    """The ruleset a command names, with its mods; its errors printed, exit 1.

    With ``as_json`` (a command's ``--format json``) the errors are one JSON
    document on stdout: an ``error`` object with the ``diagnostics``.
    """
    if find_ruleset(ruleset) is None:
        if Path(ruleset).is_dir():
            manifest = Path(ruleset) / RULESET_FILE
            if os.path.lexists(manifest):  # there, but not a regular file (a pipe?)
                raise no_such_ruleset(str(manifest))
            raise UsageProblem(f"'{ruleset}' is a directory with no {RULESET_FILE}")
        raise no_such_ruleset(ruleset)
    check_mod_files(mods)
    try:
        return load_ruleset(ruleset, list(mods))
    except RulebookError as exc:
        errors = Diagnostics(exc.diagnostics).sorted()
        if as_json:
            from ..safe_text import json_text
            click.echo(json_text({"error": {
                "kind": "rules", "message": f"{clipped(ruleset)} does not load",
                "exit_code": 1, "diagnostics": [d.to_dict() for d in errors]}}, indent=2))
        else:
            click.echo(report.text(errors, sys.stdout.isatty()))
        sys.exit(1)


def check_mod_files(mods) -> None:
    """Every --mod names a regular file (a pipe is refused, never opened: it would block)."""
    from ..load.userfiles import kind_problem
    for m in mods:
        problem = unusable_name(m)
        if problem:
            raise UsageProblem(f"mod file {problem}")
        try:
            problem = kind_problem(os.stat(m).st_mode)
        except OSError:
            raise UsageProblem(f"mod file '{m}' not found") from None
        if problem:
            raise UsageProblem(f"mod file '{m}': {problem}")


def check_results_inputs(results_file: str, ruleset_path, mods) -> None:
    """What a command reading a results file (report, export) checks before it reads: the
    file is there and not a pipe, the --ruleset is found, and every --mod is a file."""
    from ..sim.results_file import LineProblem, refuse_special
    if not os.path.exists(results_file):
        raise UsageProblem(f"results file '{results_file}' not found")
    try:
        refuse_special(results_file, results_file)  # a pipe would make the reading wait
    except LineProblem as exc:
        raise UsageProblem(str(exc)) from None
    if ruleset_path and find_ruleset(ruleset_path) is None:
        raise no_such_ruleset(ruleset_path)
    for m in mods:
        if not Path(m).is_file():
            raise UsageProblem(f"mod file '{m}' not found")


def named_mods(base, mods) -> list[str]:
    """The files of the --mod values given (a file, or a house rule the ruleset ships by
    name), or a usage error naming the house rules it has."""
    from ..lab.commands import find_mod, shipped_mods
    files = []
    for raw in mods:
        found = find_mod(raw, base.root)
        if found is None:
            known = shipped_mods(base.root)
            raise UsageProblem(f"mod '{raw}' is neither a file nor one of {base.name}'s "
                               f"house rules ({', '.join(known) or 'it has none'})")
        files.append(str(found))
    return files


def no_such_ruleset(raw: str) -> UsageProblem:
    """The one usage error every command gives for a ruleset it cannot find."""
    from ..errors import suggest
    from ..load.userfiles import kind_problem
    try:  # there, but a pipe or a device: said so, never opened
        problem = kind_problem(os.stat(raw).st_mode)
    except (OSError, ValueError):
        problem = None
    if problem and not os.path.isdir(raw):
        return UsageProblem(f"'{clipped(raw)}': {problem}")
    known = shipped_rulesets()
    hint = suggest(Path(raw).name, known)
    return UsageProblem(f"'{raw}' is neither a file, a directory nor a shipped ruleset "
                        f"({', '.join(known)})" + (f"; {hint}" if hint else ""))
