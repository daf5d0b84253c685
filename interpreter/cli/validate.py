"""``rulebook validate``: check rulesets and mods without playing, and say what is wrong where.

Exit 0 when clean, 1 on rule errors, 2 on usage errors; errors print as
text, JSON, GitHub annotations or SARIF (``diagnostics``). ``targets`` turns
the PATHs into rulesets to load. Imports ``options``, ``loading``,
``targets`` and ``diagnostics`` at the top; the loader, the scenario reader
and rich only inside functions, when a ruleset is checked.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from . import diagnostics as report
from .loading import check_mod_files, load_ruleset
from .options import NAME, UsablePath
from .targets import Uncheckable, rulesets_to_check
from .watching import watchable
from ..errors import Diagnostic, Diagnostics, RulebookError
from ..paths import RULESET_FILE
from ..safe_text import visible
from ..span import SealedSpan


@watchable("check", lambda params: (params["paths"] or (".",), params["mods"]))
@click.command()
@click.argument("paths", nargs=-1, type=NAME)
@click.option("--mod", "mods", multiple=True, type=UsablePath(dir_okay=False),
              help="A mod overlay to layer on the ruleset (repeatable).")
@click.option("--format", "fmt", type=click.Choice(report.FORMATS), default="text",
              show_default=True, help="How to print errors.")
@click.option("--quiet", "-q", is_flag=True, help="Print errors only, no summary.")
def validate(paths, mods, fmt, quiet):
    """Check rulesets (and mods) without playing.

    PATH is a folder (every ruleset.yaml and mod in it or below, hidden and
    environment folders skipped), a ruleset's ruleset.yaml, a shipped ruleset
    name, any rule file (its ruleset is checked), or a mod file (checked
    against its target). With no PATH, the current folder is checked; a folder
    with nothing to check is an error. Each ruleset is checked alone and each
    mod on its ruleset alone; --mod files are layered together on each ruleset,
    besides it alone. An error met by several checks is reported once.
    """
    check_mod_files(mods)
    plan = rulesets_to_check(paths, mods)
    fmt = report.resolve_format(fmt)
    if not plan:
        if fmt != "text":
            out = report.render(fmt, [], {"rulesets": []})
            if out:
                click.echo(out)
        elif not quiet:
            click.echo("no rule files to check")
        sys.exit(0)
    all_diags: list[Diagnostic] = []
    reported: set[tuple] = set()
    rows = []
    for target, mod_list in plan:
        start = time.perf_counter()
        diags: list[Diagnostic] = []
        summary = None
        if isinstance(target, Uncheckable):
            diags, name = list(target.diagnostics), target.name
        elif target.startswith(("orphan:", "special:")):
            kind, raw = target.split(":", 1)
            msg = {"orphan": f"this file is not inside a ruleset (no {RULESET_FILE} above it)",
                   "special": "this is neither a regular file nor a directory (a pipe or a "
                              "device?), so it is not read"}[kind]
            # the message is about where the file is, so its text is not quoted
            diags.append(Diagnostic("RB404", msg, SealedSpan(raw, 1, 1)))
            name = raw
        else:
            name = Path(target).parent.name or target
            try:
                rs = load_ruleset(target, mod_list)
                summary = rs.summary()
                name = rs.id
                if not mod_list:  # scenario files test the ruleset itself, not a mod of it
                    diags = _scenario_diagnostics(rs)
                    summary["scenarios"] = diags.count
            except RulebookError as exc:
                diags = Diagnostics(exc.diagnostics).sorted()
        elapsed = time.perf_counter() - start
        # a ruleset's own error is met again under each of its mods: reported once
        all_diags.extend(d for d in diags if _first_time(d, reported))
        rows.append((name, mod_list, summary, len(diags), elapsed))
    out = report.render(fmt, all_diags, {"rulesets": [
        {"ruleset": n, "mods": m, "errors": e, "seconds": round(t, 3), **(s or {})}
        for n, m, s, e, t in rows]}, color=sys.stdout.isatty())
    if out:
        click.echo(out)
    if fmt == "text" and not quiet:
        _summary_table(rows)
    sys.exit(1 if all_diags else 0)


def _first_time(d: Diagnostic, reported: set[tuple]) -> bool:
    """Whether ``d`` is an error not reported yet: the same code and words at the same place
    (a hint may differ, as one mod's names differ from another's) are the same error."""
    span = d.span
    key = (d.code, d.message, d.context, d.severity,
           (span.file, span.line, span.col) if span else None)
    if key in reported:
        return False
    reported.add(key)
    return True


def _scenario_diagnostics(rs) -> Diagnostics:
    """Check the ruleset's scenario files too (schema, effects, references)."""
    from ..scenarios.files import discover, load_scenarios
    diags = Diagnostics()
    count = 0
    for path in discover(rs):
        count += len(load_scenarios(rs, path, diags))
    out = Diagnostics(diags.sorted())
    out.count = count
    return out


def _summary_table(rows) -> None:
    """One row a check: a ruleset alone, then ``+ mod.yaml`` for each mod layered on it."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text
    table = Table(title="Validation", title_justify="left")
    for col in ("ruleset", "files", "cards", "effects", "tests", "result", "time"):
        table.add_column(col, justify="left" if col in ("ruleset", "result") else "right",
                         no_wrap=True)
    previous = None
    for name, mods, summary, errors, elapsed in rows:
        s = summary or {}
        result = "[green]ok[/green]" if not errors else f"[red]{errors} error(s)[/red]"
        cards = str(s.get("cards", "-"))
        if s.get("card_copies", 0) != s.get("cards", 0):
            cards += f" ({s['card_copies']})"
        label = " + ".join([name, *(Path(m).name for m in mods)])
        if mods and name == previous:  # under the row of its ruleset
            label = "  + " + " + ".join(Path(m).name for m in mods)
        previous = name
        label = visible(label)
        label = label if len(label) <= 22 else label[:21] + "…"  # the table stays 80 wide
        table.add_row(Text(label), str(s.get("files", "-")), cards,
                      str(s.get("effects", "-")), str(s.get("scenarios", "-")), result,
                      f"{elapsed:.1f}s")
    Console(highlight=False, emoji=False).print(table)
