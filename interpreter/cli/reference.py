"""``rulebook schema`` and ``rulebook docs``: the references for editors and rule writers.

``schema`` exports the JSON Schemas of the rule files (for editor settings);
``docs`` regenerates the effect-language reference from the builtin
registry. Imports ``options`` at the top; the schema checker and the
reference generator only inside the commands.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from .options import UsablePath, UsageProblem
from ..safe_text import json_text


@click.command()
@click.argument("kind", required=False)
@click.option("--out", "out_dir", type=UsablePath(file_okay=False),
              help="Write every schema into this directory.")
def schema(kind, out_dir):
    """Export the JSON Schemas (for editor settings).

    With KIND (ruleset, components, flow, cards, mod, common) print that
    schema; with --out DIR write them all; with neither, list them.
    """
    from ..load.schema import KINDS, _schemas, schema_dir
    files = _schemas()
    if out_dir:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        for name, body in files.items():
            (out / name).write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
        click.echo(f"wrote {len(files)} schemas to {out}")
        return
    if kind:
        name = KINDS.get(kind, f"{kind}.schema.json")
        if name not in files:
            raise UsageProblem(f"unknown schema '{kind}'; one of: {', '.join(KINDS)}, common")
        click.echo(json_text(files[name], indent=2))
        return
    for name in files:
        click.echo(str(schema_dir() / name))


@click.command()
@click.option("--out", type=UsablePath(dir_okay=False), default=None,
              help="Where to write the reference (default: print it).")
def docs(out):
    """Generate the effect-language reference from the builtin registry."""
    from ..lang.docgen import language_reference
    text = language_reference()
    if out:
        Path(out).write_text(text, encoding="utf-8")
        click.echo(f"wrote {out}")
    else:
        click.echo(text, nl=False)
