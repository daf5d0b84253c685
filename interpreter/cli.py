"""The ``rulebook`` command line.

Commands:

- ``validate``: check rulesets and mods, print positioned errors (exit 0 clean,
  1 rule errors, 2 usage errors);
- ``schema``: export the JSON Schemas for editors;
- ``docs``: regenerate the language reference from the builtin registry.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from . import __version__
from . import report
from .errors import Diagnostic, Diagnostics, RulebookError
from .ruleset import RULESET_FILE, find_ruleset, load_ruleset, shipped_rulesets
from .span import Span


class UsageProblem(click.UsageError):
    exit_code = 2


def _ruleset_of(path: Path) -> Path | None:
    """The manifest of the ruleset a rule file belongs to (walking up the directories)."""
    for parent in [path.parent, *path.parent.parents]:
        if (parent / RULESET_FILE).is_file():
            return parent / RULESET_FILE
    return None


def _top_level_value(path: Path, key: str) -> str | None:
    """A top-level ``key: value`` of a YAML file, read cheaply before loading it."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(65536).decode("utf-8", errors="replace")
    except OSError:
        return None
    for line in head.splitlines():
        if line.startswith(f"{key}:"):
            return line.split(":", 1)[1].split("#", 1)[0].strip().strip("'\"")
    return None


def _kind_of(path: Path) -> str | None:
    return _top_level_value(path, "kind")


def _plan(paths: tuple[str, ...], mods: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    """Which rulesets to load, each with the mods to layer on it."""
    plan: dict[str, list[str]] = {}
    order: list[str] = []

    def add(target: str, mod_list: list[str]):
        if target not in plan:
            plan[target] = []
            order.append(target)
        for m in mod_list:
            if m not in plan[target]:
                plan[target].append(m)

    if not paths:
        for name in shipped_rulesets():
            add(str(find_ruleset(name)), list(mods))
        if not order:
            raise UsageProblem("no rulesets found; give a PATH")
        return [(t, plan[t]) for t in order]
    for raw in paths:
        p = Path(raw)
        manifest = find_ruleset(raw)
        if p.is_file() and p.name != RULESET_FILE:
            kind = _kind_of(p)
            if kind == "mod":
                target = _mod_target(p)
                manifest = find_ruleset(target) if target else None
                if manifest is None:
                    # report it as a rule error at the mod's target line
                    add(f"mod:{raw}", [])
                    continue
                add(str(manifest), [raw, *mods])
                continue
            if kind != "ruleset":
                manifest = _ruleset_of(p.resolve())
                if manifest is None:
                    if kind is None:
                        # not a rule file (e.g. a CI workflow seen by a pre-commit hook)
                        continue
                    add(f"orphan:{raw}", [])
                    continue
        if manifest is None:
            if not p.exists():
                known = ", ".join(shipped_rulesets())
                raise UsageProblem(f"'{raw}' is neither a file, a directory nor a shipped "
                                   f"ruleset ({known})")
            add(f"missing:{raw}", [])
            continue
        add(str(manifest), list(mods))
    return [(t, plan[t]) for t in order]


def _mod_target(path: Path) -> str | None:
    return _top_level_value(path, "target")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulebook")
def cli():
    """Rulebook: play board games written as data."""


@cli.command()
@click.argument("paths", nargs=-1)
@click.option("--mod", "mods", multiple=True, type=click.Path(dir_okay=False),
              help="A mod overlay to layer on the ruleset (repeatable).")
@click.option("--format", "fmt", type=click.Choice(report.FORMATS), default="text",
              show_default=True, help="How to print errors.")
@click.option("--quiet", "-q", is_flag=True, help="Print errors only, no summary.")
def validate(paths, mods, fmt, quiet):
    """Check rulesets (and mods) without playing.

    PATH is a ruleset directory, its ruleset.yaml, a shipped ruleset name, any
    rule file (its ruleset is checked), or a mod file (checked against its
    target). With no PATH, every shipped ruleset is checked.
    """
    for m in mods:
        if not Path(m).is_file():
            raise UsageProblem(f"mod file '{m}' not found")
    plan = _plan(paths, mods)
    if not plan:
        if not quiet:
            click.echo("no rule files to check")
        sys.exit(0)
    fmt = report.resolve_format(fmt)
    all_diags: list[Diagnostic] = []
    rows = []
    for target, mod_list in plan:
        start = time.perf_counter()
        diags: list[Diagnostic] = []
        summary = None
        name = Path(target).parent.name or target
        if target.startswith(("mod:", "orphan:", "missing:")):
            kind, raw = target.split(":", 1)
            msg = {"mod": "the mod's 'target' names no ruleset found here; give the ruleset "
                          "as a PATH too",
                   "orphan": f"this file is not inside a ruleset (no {RULESET_FILE} above it)",
                   "missing": f"no {RULESET_FILE} in this directory"}[kind]
            diags.append(Diagnostic("RB404" if kind != "mod" else "RB500", msg, Span(raw, 1, 1)))
            name = raw
        else:
            try:
                rs = load_ruleset(target, mod_list)
                summary = rs.summary()
                name = rs.id
                diags = _scenario_diagnostics(rs)
                summary["scenarios"] = diags.count
            except RulebookError as exc:
                diags = Diagnostics(exc.diagnostics).sorted()
        elapsed = time.perf_counter() - start
        all_diags.extend(diags)
        rows.append((name, mod_list, summary, len(diags), elapsed))
    out = report.render(fmt, all_diags, {"rulesets": [
        {"ruleset": n, "mods": m, "errors": e, "seconds": round(t, 3), **(s or {})}
        for n, m, s, e, t in rows]}, color=sys.stdout.isatty())
    if out:
        click.echo(out)
    if fmt == "text" and not quiet:
        _summary_table(rows)
    sys.exit(1 if all_diags else 0)


def _scenario_diagnostics(rs) -> Diagnostics:
    """Check the ruleset's scenario files too (schema, effects, references)."""
    from .engine.scenario import discover, load_scenarios
    diags = Diagnostics()
    count = 0
    for path in discover(rs):
        count += len(load_scenarios(rs, path, diags))
    out = Diagnostics(diags.sorted())
    out.count = count
    return out


def _summary_table(rows) -> None:
    from rich.console import Console
    from rich.table import Table
    table = Table(title="Validation", title_justify="left")
    show_mods = any(mods for _, mods, _, _, _ in rows)
    cols = ["ruleset"] + (["mods"] if show_mods else []) + ["files", "cards", "effects",
                                                          "tests", "result", "time"]
    for col in cols:
        table.add_column(col, justify="right" if col in ("files", "cards", "effects", "tests",
                                                         "time")
                         else "left", no_wrap=col != "mods")
    for name, mods, summary, errors, elapsed in rows:
        s = summary or {}
        result = "[green]ok[/green]" if not errors else f"[red]{errors} error(s)[/red]"
        cards = str(s.get("cards", "-"))
        if s.get("card_copies", 0) != s.get("cards", 0):
            cards += f" ({s['card_copies']})"
        cells = [name] + ([", ".join(Path(m).name for m in mods) or "-"] if show_mods else [])
        cells += [str(s.get("files", "-")), cards, str(s.get("effects", "-")),
                  str(s.get("scenarios", "-")), result, f"{elapsed:.1f}s"]
        table.add_row(*cells)
    Console(highlight=False, emoji=False).print(table)


@cli.command()
@click.argument("kind", required=False)
@click.option("--out", "out_dir", type=click.Path(file_okay=False),
              help="Write every schema into this directory.")
def schema(kind, out_dir):
    """Export the JSON Schemas (for editor settings).

    With KIND (ruleset, components, flow, cards, mod, common) print that
    schema; with --out DIR write them all; with neither, list them.
    """
    from .schema import KINDS, _schemas, schema_dir
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
        click.echo(json.dumps(files[name], indent=2, ensure_ascii=False))
        return
    for name in files:
        click.echo(str(schema_dir() / name))


@cli.command()
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Where to write the reference (default: print it).")
def docs(out):
    """Generate the effect-language reference from the builtin registry."""
    from .docgen import language_reference
    text = language_reference()
    if out:
        Path(out).write_text(text, encoding="utf-8")
        click.echo(f"wrote {out}")
    else:
        click.echo(text, nl=False)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script; never shows a traceback for bad input."""
    try:
        result = cli.main(args=argv, prog_name="rulebook", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # a bug in rulebook, not in the user's files
        click.echo(f"internal error (a bug in rulebook, please report it with the command "
                   f"you ran): {type(exc).__name__}: {exc}", err=True)
        sys.exit(3)
    sys.exit(result if isinstance(result, int) else 0)


# ----------------------------------------------------------------- playing games
def _load(ruleset: str, mods: tuple[str, ...]):
    from .ruleset import load_ruleset
    try:
        return load_ruleset(ruleset, list(mods))
    except RulebookError as exc:
        click.echo(report.text(Diagnostics(exc.diagnostics).sorted(), sys.stdout.isatty()))
        sys.exit(1)


def _agents(spec: str | None, players: int, interactive: bool) -> list[str]:
    from .engine.agents import AGENTS
    if spec:
        kinds = [k.strip() for k in spec.split(",") if k.strip()]
        if len(kinds) == 1:
            kinds = kinds * players
        if len(kinds) != players:
            raise UsageProblem(f"--agents lists {len(kinds)} agents for {players} players")
    else:
        kinds = ["human" if interactive and seat == 0 else "greedy" for seat in range(players)]
    for k in kinds:
        if k != "human" and k not in AGENTS:
            raise UsageProblem(f"unknown agent '{k}'; choose from human, {', '.join(AGENTS)}")
    return kinds


@cli.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=int, default=None, help="Number of players.")
@click.option("--seed", type=int, default=None, help="Random seed (default: random).")
@click.option("--agents", "agent_spec", default=None,
              help="Comma-separated agents by seat: human, random, greedy.")
@click.option("--variant", "variants", multiple=True, help="A variant to play (repeatable).")
@click.option("--mod", "mods", multiple=True, type=click.Path(dir_okay=False))
@click.option("--save", "save_path", type=click.Path(dir_okay=False),
              help="Save the game record here (also when you type 'save' at a prompt).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False),
              help="Resume a saved game from its record.")
@click.option("--log/--no-log", default=None, help="Print the game log (default: when no human).")
def play(ruleset, players, seed, agent_spec, variants, mods, save_path, resume_path, log):
    """Play a game: people at this terminal against AI agents."""
    import random as _random

    from rich.console import Console

    from .engine.record import Record, RecordError
    from .engine.render import score_table
    from .engine.session import GameError, build_game, load_for_record, make_record, run
    console = Console(highlight=False, emoji=False)
    prefix = None
    if resume_path:
        try:
            rec = Record.load(resume_path)
            rs = load_for_record(rec, resume_path)
        except RecordError as exc:
            click.echo(f"{exc.path}:{exc.line}:{exc.col}: error: {exc.message}")
            sys.exit(1)
        players, seed, variants, mods = rec.players, rec.seed, tuple(rec.variants), tuple(rec.mods)
        kinds = rec.agents
        prefix = rec.decisions
        save_path = save_path or resume_path
    else:
        rs = _load(ruleset, mods)
        players = players or rs.min_players
        seed = seed if seed is not None else _random.SystemRandom().randrange(1, 10 ** 9)
        kinds = _agents(agent_spec, players, sys.stdin.isatty())
    from .engine.agents import HumanAgent
    try:
        game = build_game(rs, players, seed, kinds, tuple(variants), prefix=prefix)
    except GameError as exc:
        raise UsageProblem(exc.message) from None
    for agent in game.agents:
        live = getattr(agent, "live", agent)
        if isinstance(live, HumanAgent):
            live.input = _saving_input(live.input)
    if log is None:
        log = "human" not in kinds
    if log:
        game.listeners.append(lambda line: console.print(line, markup=False))
    console.print(f"[bold]{rs.name}[/bold] · {players} players · seed {seed} · "
                  f"agents {', '.join(kinds)}")
    try:
        result = run(game)
    except _SaveNow:
        path = save_path or f"{rs.id}-{seed}.record.json"
        make_record(game, rs, kinds, None, list(mods)).save(path)
        console.print(f"saved at decision {len(game.record) + 1}: resume with "
                      f"rulebook play {rs.id} --resume {path}")
        sys.exit(0)
    except KeyboardInterrupt:
        if save_path:
            make_record(game, rs, kinds, None, list(mods)).save(save_path)
            console.print(f"\ninterrupted; saved to {save_path}")
        sys.exit(130)
    except GameError as exc:
        where = f"{exc.span}: " if exc.span else ""
        click.echo(f"{where}error: {exc.message}")
        sys.exit(1)
    console.print(score_table(game, result))
    if not result.finished:
        console.print("Unfinished: the game stopped at its round limit without reaching its "
                      "end, so nobody wins.")
    if result.solo_won is not None:
        console.print("You win!" if result.solo_won else "You lose: the goal was not reached.")
    rec = make_record(game, rs, kinds, result, list(mods))
    path = save_path or None
    if path:
        rec.save(path)
        console.print(f"record saved to {path}")
    console.print(f"{result.decisions} decisions · final state #{result.final_hash[:12]}")


class _SaveNow(Exception):
    pass


def _saving_input(inner):
    def read(prompt=""):
        raw = inner(prompt)
        if raw.strip().lower() in ("save", "quit", "exit"):
            raise _SaveNow()
        return raw
    return read


@cli.command()
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--ruleset", "ruleset_path", default=None,
              help="Ruleset location if it is not a shipped one.")
@click.option("--step", is_flag=True, help="Show the game log line by line; press Enter to go on.")
def replay(record, ruleset_path, step):
    """Replay a game from its record and check the final state hash."""
    from rich.console import Console

    from .engine.record import RecordError
    from .engine.render import score_table
    from .engine.session import GameError, replay as do_replay
    console = Console(highlight=False, emoji=False)

    def show(line):
        console.print(line, markup=False)
        if step:
            try:
                input()
            except EOFError:
                pass
    try:
        played, same = do_replay(record, ruleset_path, show if step else None)
    except RecordError as exc:
        click.echo(f"{exc.path}:{exc.line}:{exc.col}: error: {exc.message}")
        sys.exit(1)
    except GameError as exc:
        click.echo(f"{record}: error: {exc.message}")
        sys.exit(1)
    console.print(score_table(played.game, played.result))
    if not same:
        click.echo(f"final state differs: record #{played.record.final_hash[:12]}, replay "
                   f"#{played.result.final_hash[:12]}")
        sys.exit(1)
    click.echo(f"replayed {played.result.decisions} decisions; final state matches "
               f"#{played.result.final_hash[:12]}")


@cli.command()
@click.argument("ruleset")
@click.option("-n", "--games", type=int, default=100, show_default=True)
@click.option("--players", "-p", type=int, default=None)
@click.option("--agents", "agent_spec", default="random", show_default=True,
              help="Comma-separated agents by seat (random, greedy), or one for all.")
@click.option("--variant", "variants", multiple=True)
@click.option("--mod", "mods", multiple=True, type=click.Path(dir_okay=False))
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game.")
@click.option("--workers", "-w", type=int, default=1, show_default=True, help="Processes.")
@click.option("--out", type=click.Path(dir_okay=False), help="Write one JSON line per game.")
@click.option("--no-check", is_flag=True, help="Skip invariant checks (faster).")
def simulate(ruleset, games, players, agent_spec, variants, mods, seed, workers, out, no_check):
    """Simulate many games between AI agents and summarise the results."""
    from rich.console import Console
    from rich.progress import Progress

    from .engine.simulate import simulate as run_many
    from .engine.stats import summary_tables
    rs = _load(ruleset, mods)
    players = players or rs.min_players
    if not rs.min_players <= players <= rs.max_players:
        raise UsageProblem(f"{rs.name} is for {rs.min_players}–{rs.max_players} players")
    if games < 1:
        raise UsageProblem("-n must be at least 1")
    kinds = _agents(agent_spec, players, False)
    path = str(rs.root)
    results = []
    start = time.perf_counter()
    fh = open(out, "w", encoding="utf-8") if out else None
    console = Console(highlight=False, emoji=False)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{rs.name}: {games} games", total=games)
        for summary in run_many(path, list(mods), games, players, kinds, list(variants), seed,
                                workers, not no_check, lambda: progress.advance(task)):
            results.append(summary)
            if fh:
                fh.write(json.dumps(summary.to_dict()) + "\n")
    if fh:
        fh.close()
    elapsed = time.perf_counter() - start
    for table in summary_tables(results, players, elapsed):
        console.print(table)
    errors = [r for r in results if r.error]
    for r in errors[:5]:
        console.print(f"[red]seed {r.seed}: {r.error}[/red]")
    sys.exit(1 if errors else 0)


@cli.command("test")
@click.argument("ruleset")
@click.option("--mod", "mods", multiple=True, type=click.Path(dir_okay=False))
@click.option("-k", "select", default=None, help="Only scenarios whose id contains this text.")
def test_cmd(ruleset, mods, select):
    """Run a ruleset's scenario tests (its scenarios/*.yaml files)."""
    from rich.console import Console

    from .engine.scenario import discover, load_scenarios, run_scenario
    console = Console(highlight=False, emoji=False)
    rs = _load(ruleset, mods)
    paths = discover(rs)
    if not paths:
        click.echo(f"{rs.root}/scenarios: no scenario files")
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
                console.print(f"[green]PASS[/green] {sc.id}")
            else:
                failed += 1
                console.print(f"[red]FAIL[/red] {sc.id}\n  {outcome.span}: {outcome.message}")
    if diags:
        click.echo(report.text(diags.sorted(), sys.stdout.isatty()))
    click.echo(f"{passed} passed, {failed + len(diags.errors)} failed")
    sys.exit(1 if failed or diags.errors or not passed else 0)
