"""``rulebook report`` and ``rulebook compare``: the balance lab's commands.

Their options are checked here, before anything is loaded or played; their
bodies are ``lab.commands``, which import the lab's libraries (SciPy,
Matplotlib) only when a command runs. Imports ``options``, ``loading`` and
``seats`` at the top; ``lab`` and ``sim`` only inside the commands.
"""

from __future__ import annotations

import sys

import click

from .loading import check_results_inputs, load_named, load_ruleset, named_mods
from .options import CONFIDENCE, SEED, UsageProblem, Whole, check_backend, where_options
from .seats import ai_seats, check_evaluation
from ..safe_text import visible


@click.command("report")
@click.argument("results_file", metavar="RESULTS.jsonl", type=click.Path(dir_okay=False))
@click.option("--ruleset", "ruleset_path", default=None,
              help="The ruleset to take names from (default: the shipped one the file names).")
@click.option("--mod", "mods", multiple=True, type=click.Path(dir_okay=False),
              help="A mod the games were played with, to take names from (repeatable; "
                   "default: the file's own mods, found in its folder).")
@click.option("--html", type=click.Path(dir_okay=False), help="Write one self-contained page.")
@click.option("--png", type=click.Path(file_okay=False), help="Write the plots to this folder.")
@click.option("--confidence", type=CONFIDENCE, default=0.95,
              show_default=True, help="Confidence level of the intervals.")
@click.option("--top", type=Whole(min=1), default=15, show_default=True,
              help="Rows per card table on the terminal (the --html page lists every "
                   "card; all are tested).")
@click.option("--gallery", metavar="URL", default=None,
              help="Link the --html page's card names to the cards gallery of a 'rulebook "
                   "serve' at URL (e.g. http://127.0.0.1:8000); without it a card's name "
                   "shows its text on hover.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="How to print the tables (json: one document on "
                                      "stdout, see docs/formats.md).")
def report_cmd(results_file, ruleset_path, mods, html, png, confidence, top, gallery, fmt):
    """Win rates, per-card figures, scores and lengths of simulated games, with intervals."""
    from ..lab.commands import report as run_report
    gallery = gallery_address(gallery, html)
    check_results_inputs(results_file, ruleset_path, mods)
    from ..lab.commands import check_outputs
    check_outputs(html, png)  # before the file is read (OutputProblem: one line, exit 2)
    sys.exit(run_report(results_file, ruleset_path, html, png, confidence, top, load_ruleset,
                        mods, gallery=gallery, fmt=fmt))


@click.command("compare")
@click.argument("ruleset")
@click.option("--mod", "mods", multiple=True, required=True,
              help="A mod file, or the name of one in the ruleset's mods/ folder "
                   "(repeatable; layered in order).")
@click.option("-n", "--games", type=Whole(2, 1_000_000), default=200,
              show_default=True, help="Seeds to play, each on both sides.")
@click.option("--players", "-p", type=Whole(min=1), default=None,
              help="Players per game (default: the fewest the ruleset allows).")
@click.option("--agents", "agent_spec", default="random", show_default=True,
              help="Comma-separated agents by seat (random, greedy, trained…), or one for "
                   "all; trained plays with the evaluation learned from the game's games.")
@click.option("--variant", "variants", multiple=True)
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the first game.")
@click.option("--workers", "-w", type=Whole(min=1), default=1, show_default=True,
              help="Processes (--backend local; Ray runs one per CPU).")
@click.option("--html", type=click.Path(dir_okay=False), help="Write one self-contained page.")
@click.option("--png", type=click.Path(file_okay=False), help="Write the plots to this folder.")
@click.option("--out-base", type=click.Path(dir_okay=False),
              help="Keep the base games' results here (JSON lines).")
@click.option("--out-mod", type=click.Path(dir_okay=False),
              help="Keep the modded games' results here (JSON lines).")
@click.option("--confidence", type=CONFIDENCE, default=0.95,
              show_default=True, help="Confidence level of the intervals.")
@click.option("--top", type=Whole(min=1), default=15, show_default=True,
              help="Cards per card table on the terminal (the --html page lists every "
                   "card; all are tested).")
@click.option("--no-check", is_flag=True, help="Skip invariant checks (faster).")
@click.option("--resume", is_flag=True,
              help="Carry on the --out-base and --out-mod files of a stopped compare: skip "
                   "the seeds they hold and append the rest.")
@click.option("--gallery", metavar="URL", default=None,
              help="Link the --html page's card names to the cards gallery of a 'rulebook "
                   "serve' at URL (e.g. http://127.0.0.1:8000); without it a card's name "
                   "shows its text on hover.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="How to print the tables (json: one document on "
                                      "stdout, see docs/formats.md).")
@where_options
def compare_cmd(ruleset, mods, games, players, agent_spec, variants, seed, workers, html, png,
                out_base, out_mod, confidence, top, no_check, resume, gallery, fmt, backend,
                address):
    """Play the same seeds with and without mods, and say what changed, with intervals."""
    from ..lab.commands import compare as run_compare, need_lab
    need_lab(html or png)  # before anything is loaded or played
    check_backend(backend, address)
    gallery = gallery_address(gallery, html)
    if resume and not (out_base and out_mod):
        raise UsageProblem("--resume carries on the --out-base and --out-mod files; give both")
    from ..outfiles import ANY, check_file, same_file
    from ..lab.commands import check_outputs
    from ..sim.run import RESULTS
    if out_base and out_mod and same_file(out_base, out_mod):
        raise UsageProblem("--out-base and --out-mod name the same file; each side's games "
                           "need a file of their own")
    # every output refused before anything is loaded or played (one line, exit 2)
    check_outputs(html, png)
    for given, option in ((out_base, "--out-base"), (out_mod, "--out-mod")):
        if given:  # new or empty, or carried on with --resume (its lines checked then)
            check_file(given, option, ANY if resume else RESULTS)
    base = load_named(ruleset, (), as_json=fmt == "json")
    files = named_mods(base, mods)
    modded = load_named(ruleset, tuple(files), as_json=fmt == "json")
    players, kinds = ai_seats(base, players, agent_spec, "compare")
    check_evaluation(modded, kinds, players)  # each side's agents play with that side's values
    # where the games run: simulate()'s backend options (--backend, --address, ...) go here
    backend = {"backend": backend, "address": address}
    try:
        code = run_compare(base, modded, files, games, players, kinds, list(variants), seed,
                           workers, False if no_check else "action", html, png, out_base,
                           out_mod, confidence, top, backend, load_ruleset, resume=resume,
                           gallery=gallery, fmt=fmt)
    except KeyboardInterrupt:
        _stopped_compare(out_base, out_mod, resume)
        sys.exit(130)
    sys.exit(code)


def gallery_address(url: str | None, html: str | None) -> str | None:
    """--gallery checked: the address of a server (http or https, a host, perhaps a port
    and a path), for the --html page; refused in one line otherwise (exit 2)."""
    if url is None:
        return None
    from urllib.parse import urlsplit
    if not html:
        raise UsageProblem("--gallery links the card names of the --html page; give --html "
                           "too")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or \
            parts.query or parts.fragment or parts.username or parts.password or \
            any(ch.isspace() for ch in url):
        raise UsageProblem(f"--gallery '{visible(url)}' is not the address of a server; "
                           "give one such as http://127.0.0.1:8000 (where 'rulebook serve' "
                           "listens)")
    return url.rstrip("/")


def _stopped_compare(out_base, out_mod, resume) -> None:
    """What to say when Ctrl-C stops a compare: where its games are, how to carry on."""
    import shlex
    if out_base and out_mod:
        words = ["rulebook", *sys.argv[1:]] if sys.argv[1:2] == ["compare"] else None
        again = (f"; carry on with: {shlex.join(words + ([] if resume else ['--resume']))}"
                 if words else "; carry on with the same command and --resume")
        click.echo(f"stopped by Ctrl-C; the finished games are in {visible(out_base)} and "
                   f"{visible(out_mod)}{again}", err=True)
    else:
        click.echo("stopped by Ctrl-C (no games kept: give --out-base and --out-mod to keep "
                   "them and carry on later with --resume)", err=True)
