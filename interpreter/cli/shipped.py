"""``rulebook list``: the shipped rulesets, with their player counts and variants.

A ruleset that does not load is named (exit 1), never hidden. Imports
``loading`` at the top; each ruleset is loaded, and rich imported, when the
command runs.
"""

from __future__ import annotations

import sys

import click

from .loading import load_ruleset
from ..errors import RulebookError
from ..paths import shipped_rulesets
from ..safe_text import json_text, visible


@click.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="A table, or JSON for scripts.")
def list_cmd(fmt):
    """List the shipped rulesets with their player counts and variants."""
    rows, broken = [], []
    for name in shipped_rulesets():
        try:
            rs = load_ruleset(name)
        except RulebookError:
            broken.append(name)
            continue
        rows.append({"ruleset": rs.id, "name": rs.name, "version": rs.version,
                     "players": {"min": rs.min_players, "max": rs.max_players},
                     "variants": [{"id": vid, "name": entry.get("name") or vid}
                                  for vid, entry in rs.sections["variants"].items()]})
    if fmt == "json":
        click.echo(json_text({"rulesets": rows, "broken": broken}, indent=2))
    else:
        from rich.console import Console
        from rich.table import Table
        table = Table(title="Shipped rulesets", title_justify="left")
        for col in ("ruleset", "name", "players", "variants"):
            table.add_column(col, justify="right" if col == "players" else "left",
                             no_wrap=col != "variants")
        for row in rows:
            low, high = row["players"]["min"], row["players"]["max"]
            table.add_row(row["ruleset"], visible(row["name"]),
                          f"{low}–{high}" if low != high else str(low),
                          ", ".join(v["id"] for v in row["variants"]) or "-")
        console = Console(highlight=False, emoji=False)
        console.print(table, markup=False)
        for name in broken:
            console.print(f"{name}: does not load; see rulebook validate {name}", markup=False)
    sys.exit(1 if broken else 0)
