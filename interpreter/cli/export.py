"""``rulebook export``: a results file as long-format tables (CSV or Parquet) for other tools.

Checks its options and outputs before the file is read; the reading and the
writing are :mod:`rulebook_games.lab.export`. Imports ``options`` and
``loading`` at the top; the lab, the results reader and pyarrow only inside
the command.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .loading import check_results_inputs, load_ruleset
from .options import Unavailable, UsablePath, UsageProblem
from ..safe_text import visible

PARQUET_HINT = ("--to parquet needs pyarrow: pip install 'rulebook-games[export]' "
                "(or give --to csv)")


@click.command("export")
@click.argument("results_file", metavar="RESULTS.jsonl", type=UsablePath(dir_okay=False))
@click.option("--to", "fmt", type=click.Choice(["csv", "parquet"]), default="csv",
              show_default=True, help="The kind of file to write.")
@click.option("--out", type=UsablePath(dir_okay=False), default=None,
              help="The players table (default: RESULTS with .csv or .parquet); the items "
                   "table goes beside it, with .items before the suffix.")
@click.option("--ruleset", "ruleset_path", default=None,
              help="The ruleset to take names from (default: the shipped one the file names).")
@click.option("--mod", "mods", multiple=True, type=UsablePath(dir_okay=False),
              help="A mod the games were played with, to take names from (repeatable).")
def export_cmd(results_file, fmt, out, ruleset_path, mods):
    """Write a results file as two long tables: one row per player and game, and one per
    card, action or feature item a player had (with its name beside its id)."""
    from ..lab import export
    from ..outfiles import Replace, check_file, same_file, write_file
    if fmt == "parquet":
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise Unavailable(PARQUET_HINT) from None
    check_results_inputs(results_file, ruleset_path, mods)
    players_out = Path(out) if out else Path(results_file).with_suffix(f".{fmt}")
    items_out = export.items_path(players_out)
    mine = Replace(export.is_own_output, "a table 'rulebook export' wrote",
                   "give another --out, or remove it first")
    for target in (players_out, items_out):
        if same_file(target, results_file):
            raise UsageProblem(f"--out '{visible(str(target))}' is the results file itself; "
                               "give another path")
        check_file(target, "--out", mine)

    def names_for(info):
        from ..lab.names import for_results
        return for_results(info, ruleset_path, load_ruleset, mods)
    try:
        tables = export.read(results_file, names_for)
    except export.ExportProblem as exc:
        click.echo(f"error: {visible(str(exc))}", err=True)
        sys.exit(1)
    for note in tables.notes:
        click.echo(f"note: {visible(note)}", err=True)
    written = []
    for target, table, what in ((players_out, tables.players, "players"),
                                (items_out, tables.items, "items")):
        data = export.to_csv(table) if fmt == "csv" else export.to_parquet(table, what)
        write_file(target, data, "--out", mine)
        written.append((target, table.rows, what))
    for target, rows, what in written:
        click.echo(visible(f"wrote {target} ({rows} rows, one per "
                           f"{'player and game' if what == 'players' else 'item'})"))
    sys.exit(0)
