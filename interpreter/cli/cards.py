"""``rulebook cards`` and ``rulebook compile``: what a ruleset's rules say, and what they run.

``cards`` prints the card catalogue, each card's text generated from its
effects (as text, JSON or Markdown); ``compile`` writes the Python the
effects compile to, for reading. Imports ``options`` and ``loading`` at the
top; card text, the compiler and rich only inside the commands.
"""

from __future__ import annotations

import click

from .loading import load_named
from .options import NAME, UsablePath, UsageProblem
from ..errors import suggest
from ..outfiles import Replace
from ..safe_text import json_text, visible

COMPILED_TAIL = (": the Python its rules compile to (for reading; Rulebook writes and runs "
                 "it itself)")
# what 'compile --out' wrote before may be written again; nothing else is replaced
COMPILED = Replace(lambda path, head: head.startswith(b"# ")
                   and head.split(b"\n", 1)[0].endswith(COMPILED_TAIL.encode()),
                   "Python 'rulebook compile' wrote", "give another path, or remove it first")


@click.command()
@click.argument("ruleset", type=NAME)
@click.argument("card_ids", nargs=-1, metavar="[ID]...")
@click.option("--mod", "mods", multiple=True, type=UsablePath(dir_okay=False),
              help="A mod to apply first (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]),
              default="text", show_default=True, help="How to print the catalogue.")
def cards(ruleset, card_ids, mods, fmt):
    """Print the card catalogue: each card's facts and its text, generated from its effects.

    With IDs (card ids or printed names) only those cards are printed.
    """
    from ..lang.words import catalogue_entry, facts_line
    rs = load_named(ruleset, mods)
    wanted = list(rs.cards)
    if card_ids:
        by_name = {str(e.data.get("name", "")).lower(): cid for cid, e in rs.cards.items()}
        wanted = []
        for ident in card_ids:
            cid = ident if ident in rs.cards else by_name.get(ident.lower())
            if cid is None:
                hint = suggest(ident, list(rs.cards) + [n for n in by_name if n])
                raise UsageProblem(f"no card '{ident}' in {rs.id}"
                                   + (f"; {hint}" if hint else ""))
            wanted.append(cid)
    entries = [catalogue_entry(rs, cid) for cid in wanted]
    if fmt == "json":
        for e in entries:
            e.pop("lines")
        # rule-file text: written as JSON escapes where a terminal would act on it
        click.echo(json_text({"ruleset": rs.id, "cards": entries}, indent=2))
        return
    if fmt == "markdown":
        click.echo(f"# {_md(rs.name)}: cards\n")
        for e in entries:
            facts = facts_line(e)
            click.echo(f"## {_md(e['name'])}\n")
            if facts:
                click.echo(f"*{_md(facts)}*\n")
            for line in e["lines"]:
                click.echo(f"{_md(line)}\n")
        return
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text
    console = Console(highlight=False, emoji=False)
    for e in entries:
        facts = facts_line(e)
        head = Text(visible(e["name"]), style="bold")
        if facts:
            head.append(Text(visible(f"  ({facts})"), style="dim"))
        console.print(head)
        for line in e["lines"]:
            console.print(Padding(Text(visible(line)), (0, 0, 0, 2)))


@click.command("compile")
@click.argument("ruleset", type=NAME)
@click.option("--mod", "mods", multiple=True, type=UsablePath(dir_okay=False),
              help="A mod to apply first (repeatable).")
@click.option("--emit", is_flag=True, help="Print the Python the rules compile to.")
@click.option("--out", type=UsablePath(dir_okay=False), default=None,
              help="Write the Python to this file instead.")
def compile_cmd(ruleset, mods, emit, out):
    """Compile a ruleset's effects to Python, and show that Python with --emit.

    Rulebook compiles each effect the first time a game runs it; this writes
    all of them at once, so every one is known to compile. The text is for
    reading and debugging: Rulebook never loads code from a file.
    """
    from ..lang.compiler import source_of
    from ..outfiles import check_file, write_file
    if out:
        check_file(out, "--out", COMPILED)
    rs = load_named(ruleset, mods)
    text = source_of(rs)
    # the name and version come from a rule file: shown with every control character and
    # line break escaped, so they stay on the comment's line and act on no terminal
    name = visible(rs.name)
    header = f"# {name} {visible(rs.version)}{COMPILED_TAIL}\n\n"
    if out:
        write_file(out, header + text, "--out", COMPILED)
        click.echo(f"{name}: {len(rs.code)} effects, {text.count(chr(10))} lines of "
                   f"Python written to {visible(out)}")
    elif emit:
        click.echo(header + text, nl=False)
    else:
        click.echo(f"{name}: {len(rs.code)} effects compile to {text.count(chr(10))} lines "
                   "of Python (--emit prints them)")


def _md(text: str) -> str:
    """Rule-file text for Markdown: escapes made visible, markup characters escaped."""
    out = visible(str(text))
    for ch in "\\`*_[]<>#|":
        out = out.replace(ch, "\\" + ch)
    return out
