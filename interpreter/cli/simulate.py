"""``rulebook simulate``: many games between AI agents, summarised, and kept as JSON lines.

The games run in ``sim`` (local processes or Ray, ``--backend``); a results
file can be carried on with ``--resume``. Imports ``options``, ``loading``
and ``seats`` at the top; the simulation backends only inside the command.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .loading import load_named
from .options import AGENTS_HELP, SEED, UsablePath, UsageProblem, Whole, backend_options, \
    check_backend
from .seats import ai_seats


@click.command()
@click.argument("ruleset")
@click.option("-n", "--games", type=Whole(1, 1_000_000), default=100,
              show_default=True, help="How many games.")
@click.option("--players", "-p", type=Whole(min=1), default=None,
              help="Players per game (default: the fewest the ruleset allows).")
@click.option("--agents", "agent_spec", default="random", show_default=True,
              help=AGENTS_HELP)
@click.option("--variant", "variants", multiple=True)
@click.option("--mod", "mods", multiple=True, type=click.Path(dir_okay=False))
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Seed of the first game.")
@click.option("--workers", "-w", type=Whole(min=1), default=1, show_default=True,
              help="Processes (--backend local; Ray runs one per CPU).")
@click.option("--out", type=click.Path(dir_okay=False),
              help="Write one JSON line per game (to a new or empty file; --resume carries "
                   "a results file on).")
@click.option("--records", "records", type=UsablePath(file_okay=False), default=None,
              help="Keep each game's record in this folder (made if missing), to replay it "
                   "(rulebook replay, rulebook serve --records DIR); each line of --out "
                   "names its game's record.")
@click.option("--no-check", is_flag=True, help="Skip invariant checks (faster).")
@click.option("--check-every-decision", "every_decision", is_flag=True,
              help="Check invariants before every decision, not only after each action and "
                   "at the end (slower; finds where inside an action a rule breaks one).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="How to print the summary (json: one document on "
                                      "stdout, see docs/formats.md).")
@backend_options
def simulate(ruleset, games, players, agent_spec, variants, mods, seed, workers, out, records,
             no_check, every_decision, fmt, backend, address, resume):
    """Simulate many games between AI agents and summarise the results."""
    from ..sim.simulate import simulate as run_many
    from ..sim.records import keep as keep_record
    from ..sim.run import RESULTS, Run, SimulateProblem, simulate_run
    check_backend(backend, address)
    if out and not resume:  # refused before anything is loaded or played
        from ..outfiles import check_file
        check_file(out, "--out", RESULTS)
    if records:
        from ..outfiles import check_folder
        check_folder(records, "--records")
    rs = load_named(ruleset, mods, as_json=fmt == "json")
    players, kinds = ai_seats(rs, players, agent_spec, "simulate")
    # every line says what was played, so it can be read on its own; mods are named from
    # the results file's folder, where a report looks for them
    from ..sim.results import results_context
    target = resume or out
    context = results_context(rs, variants, players, Path(target).parent if target else None,
                              kinds)
    check = False if no_check else ("decision" if every_decision else "action")
    run = Run(ruleset, games, players, agent_spec, list(variants), list(mods), seed, workers,
              "--no-check" if no_check else ("--check-every-decision" if every_decision
                                             else None), backend, address, out, resume,
              records=records, fmt=fmt)

    def games_to_play(skip, progress):
        return run_many(str(rs.root), list(mods), games, players, kinds, list(variants), seed,
                        workers, check, progress, backend=backend, address=address,
                        skip_seeds=skip, keep_records=bool(records), loaded=rs)

    def keep(summary):  # the game's record, named as its line names it
        return keep_record(records, summary, rs, list(mods), list(variants), players, kinds)
    try:
        code = simulate_run(run, rs.name, lambda summary: {**context, **summary.to_dict()},
                            games_to_play, context, kinds, keep if records else None)
    except SimulateProblem as exc:
        raise UsageProblem(str(exc)) from None
    sys.exit(code)
