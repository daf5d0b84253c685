"""``rulebook test``: a ruleset's scenario tests (its scenarios/*.yaml files), passed or failed.

Each scenario sets up a position, plays it and checks what the rules say
should follow (``scenarios``). Exit 0 when every one passes, 1 otherwise or
when there are none. Imports ``options``, ``loading`` and ``diagnostics`` at
the top; the scenario runner and rich only inside the command.
"""

from __future__ import annotations

import sys

import click

from . import diagnostics as report
from .loading import load_named
from .options import NAME, UsablePath
from .watching import watchable
from ..errors import Diagnostics
from ..safe_text import visible


@watchable("test", lambda params: ((params["ruleset"],), params["mods"]))
@click.command("test")
@click.argument("ruleset", type=NAME)
@click.option("--mod", "mods", multiple=True, type=UsablePath(dir_okay=False))
@click.option("-k", "select", default=None, help="Only scenarios whose id contains this text.")
def test_cmd(ruleset, mods, select):
    """Run a ruleset's scenario tests (its scenarios/*.yaml files)."""
    from rich.console import Console
    from rich.markup import escape

    from ..scenarios.files import discover, load_scenarios, run_scenario
    console = Console(highlight=False, emoji=False)
    rs = load_named(ruleset, mods)
    paths = discover(rs)
    if not paths:
        click.echo(visible(f"{rs.root}/scenarios: no scenario files"))
        sys.exit(1)
    diags = Diagnostics()
    passed = failed = 0
    for path in paths:
        for sc in load_scenarios(rs, path, diags):
            if select and select not in sc.id:
                continue
            outcome = run_scenario(rs, sc)
            if outcome.passed:
                passed += 1
                console.print(f"[green]PASS[/green] {escape(visible(sc.id))}")
            else:
                failed += 1
                console.print(f"[red]FAIL[/red] {escape(visible(sc.id))}\n  "
                              f"{escape(visible(f'{outcome.span}: {outcome.message}'))}")
    if diags:
        click.echo(report.text(diags.sorted(), sys.stdout.isatty()))
    click.echo(f"{passed} passed, {failed + len(diags.errors)} failed")
    sys.exit(1 if failed or diags.errors or not passed else 0)
