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
