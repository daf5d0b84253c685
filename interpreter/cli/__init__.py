"""The ``rulebook`` command line.

Commands:

- ``validate``: check rulesets and mods, print positioned errors (exit 0 clean,
  1 rule errors, 2 usage errors);
- ``schema``: export the JSON Schemas for editors;
- ``docs``: regenerate the language reference from the builtin registry.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import click

from ..version import __version__
from . import diagnostics as report
from ..errors import Diagnostic, Diagnostics, RulebookError, suggest
from ..paths import RULESET_FILE, find_ruleset, shipped_rulesets
from ..numtext import clipped
from ..safe_text import json_text, visible
from ..span import SealedSpan
from ..load.tree import is_inside, tree_of
from ..load.yamlload import load_yaml


def escape(text: str) -> str:
    """Text made safe for rich's markup (rich is imported by the commands that print with it)."""
    from rich.markup import escape as rich_escape
    return rich_escape(text)


def load_ruleset(path, mods=None):
    """Load a ruleset (the loader, with its schema checker and parser, is imported here)."""
    from ..load.ruleset import load_ruleset as load
    return load(path, mods)


class UsageProblem(click.UsageError):
    exit_code = 2


def _unusable_name(value) -> str | None:
    """Why a path from the command line cannot name a file here (too long…), in words."""
    from ..load.userfiles import name_problem
    problem = name_problem(value) if isinstance(value, str) else None
    return f"'{clipped(value)}': {problem}" if problem else None


class _Name(click.ParamType):
    """A ruleset's name or path (or any PATH): a name the system cannot use is a usage error."""

    name = "text"

    def convert(self, value, param, ctx):
        problem = _unusable_name(value)
        if problem:
            self.fail(problem, param, ctx)
        return value


class _Path(click.Path):
    """click.Path, with a name the system cannot use (too long…) refused as a usage error."""

    def convert(self, value, param, ctx):
        problem = _unusable_name(value)
        if problem:
            self.fail(problem, param, ctx)
        return super().convert(value, param, ctx)


class _Whole(click.IntRange):
    """A whole number option: the digits 0 to 9 only (not '٣' or '1_000'), within its range."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            from ..numtext import NumberProblem, whole
            try:
                value = whole(value.strip())
            except NumberProblem:
                self.fail(f"'{clipped(value)}' is not a whole number written with the digits "
                          "0 to 9", param, ctx)
        return super().convert(value, param, ctx)


NAME = _Name()


def _links_out(path: Path) -> bool:
    """A file named in the working folder that is a link to a place outside it.

    pre-commit hands ``validate`` the names of a repository's changed files,
    and a pull request can add a link to anywhere on the machine that runs
    it; such a file is reported, never read.
    """
    here = os.getcwd()
    named = os.path.abspath(path)
    return (os.path.commonpath([named, here]) == here and path.is_file()
            and not is_inside(path, tree_of(Path(here))))


def _ruleset_of(path: Path) -> Path | None:
    """The manifest of the ruleset a rule file belongs to (walking up the directories).

    The folders are the ones the path names, not where a link in it leads: a
    link does not move a file into another ruleset.
    """
    path = Path(os.path.abspath(path))
    for parent in [path.parent, *path.parent.parents]:
        if (parent / RULESET_FILE).is_file():
            return parent / RULESET_FILE
    return None


def _top_level_value(path: Path, key: str) -> str | None:
    """A top-level ``key: value`` of a YAML file, read cheaply before loading it."""
    from ..load.walk import top_level_value
    return top_level_value(path, key)


def _kind_of(path: Path) -> str | None:
    return _top_level_value(path, "kind")


@dataclass(eq=False, frozen=True)
class _Problem:
    """A PATH that cannot be checked, with the positioned errors that say why."""

    name: str
    diagnostics: tuple[Diagnostic, ...]


def _plan(paths: tuple[str, ...],
          mods: tuple[str, ...]) -> list[tuple[str | _Problem, list[str]]]:
    """Which rulesets to load, each with the mods to layer on it."""
    plan: dict[str | _Problem, list[str]] = {}
    order: list[str | _Problem] = []
    paths = _expand_folders(paths or (".",))  # no PATH: the current folder, as ruff does
    named = _named_rulesets(paths)

    def add(target: str | _Problem, mod_list: list[str]):
        if target not in plan:
            plan[target] = []
            order.append(target)
        for m in mod_list:
            if m not in plan[target]:
                plan[target].append(m)

    for raw in paths:
        p = Path(raw)
        if _links_out(p):
            add(_Problem(raw, (Diagnostic(
                "RB405", "this file is a link to a place outside the folder rulebook runs "
                "in; it is not read", SealedSpan(raw, 1, 1)),)), [])
            continue
        manifest = find_ruleset(raw)
        if p.is_file() and p.name != RULESET_FILE:
            kind = _kind_of(p)
            if kind == "mod":
                found = _mod_target(p, raw, named)
                if isinstance(found, _Problem):
                    add(found, [])
                else:
                    add(found, [raw, *mods])
                continue
            if kind != "ruleset":
                manifest = _ruleset_of(p)
                if manifest is None:
                    if kind is None:
                        # not a rule file (e.g. a CI workflow seen by a pre-commit hook)
                        continue
                    add(f"orphan:{raw}", [])
                    continue
        if manifest is None:
            if not p.exists():
                raise _no_such_ruleset(raw)
            add(f"special:{raw}", [])  # (a folder was walked: it is not here)
            continue
        add(str(manifest), list(mods))
    return [(t, plan[t]) for t in order]


class _OneLine(click.ClickException):
    """A usage error said in one line (no usage text above it), exit 2."""

    exit_code = 2


def _expand_folders(paths) -> list[str]:
    """The PATHs with each folder replaced by the rulesets and mods found in it and below.

    A folder with none below it that lies inside a ruleset (its ``cards/``)
    stands for that ruleset, as a file there does. Any other folder with
    nothing to check is a usage error: a linter that checks nothing must not
    look like one that found nothing wrong.
    """
    from ..load.walk import TooLarge, rule_files_below
    out: list[str] = []
    for raw in paths:
        if not os.path.isdir(raw):
            out.append(raw)
            continue
        try:
            found = rule_files_below(raw)
        except TooLarge as exc:
            raise _OneLine(exc.message) from None
        if not found:  # a folder of a ruleset (its cards/, say) belongs to that ruleset
            enclosing = _ruleset_of(Path(raw) / RULESET_FILE)
            if enclosing is not None:
                out.append(os.path.relpath(enclosing) if not os.path.isabs(raw)
                           else str(enclosing))
                continue
            where = "the current folder" if os.path.abspath(raw) == os.getcwd() else f"'{raw}'"
            raise _OneLine(f"nothing to check in {where}: no {RULESET_FILE} and no mod "
                           "(a YAML file of kind: mod) in it or below, outside hidden folders")
        out.extend(path for path, _ in found)
    return out


def _named_rulesets(paths) -> dict[str, str]:
    """Ruleset id → manifest, for each ruleset given as a directory or a manifest."""
    out: dict[str, str] = {}
    for raw in paths:
        p = Path(raw)
        if p.is_dir() or p.name == RULESET_FILE:
            manifest = find_ruleset(raw)
            ruleset_id = _top_level_value(manifest, "id") if manifest else None
            if ruleset_id:
                out.setdefault(ruleset_id, str(manifest))
    return out


def _mod_target(path: Path, raw: str, named: dict[str, str]) -> str | _Problem:
    """The manifest of the ruleset a mod's ``target:`` names, or the error that says why not.

    The target is a ruleset id. It is looked up among the rulesets given as
    PATHs, then the ruleset the mod file lies in, then the shipped ones; never
    as a path, so a mod cannot make ``validate`` read files of its choosing.
    An error points at the ``target:`` line.
    """
    diags = Diagnostics()
    doc = load_yaml(path, diags, raw)
    if doc is None:
        return _Problem(raw, tuple(diags))
    target = doc.data.get("target") if isinstance(doc.data, dict) else None
    if target is None:
        return _Problem(raw, (Diagnostic(
            "RB500", "this mod has no 'target:', so there is no ruleset to check it against",
            doc.span(()), hint="add 'target: RULESET_ID', or check it with "
                               "'rulebook validate RULESET --mod FILE'"),))
    if not isinstance(target, str):
        return _Problem(raw, (Diagnostic("RB500", "'target' must be the id of a ruleset",
                                         doc.span(("target",))),))
    if target in named:
        return named[target]
    enclosing = _ruleset_of(path)
    if enclosing is not None and _top_level_value(enclosing, "id") == target:
        return str(enclosing)
    shipped = shipped_rulesets()
    if target in shipped:
        return str(find_ruleset(target))
    hint = suggest(target, [*shipped, *named]) or (
        f"if it is your own ruleset, give its folder too: rulebook validate "
        f"path/to/{target} {raw}")
    return _Problem(raw, (Diagnostic(
        "RB500", f"this mod targets '{target}', which is neither a shipped ruleset "
                 f"({', '.join(shipped)}) nor a ruleset given as a PATH",
        doc.span(("target",)), hint=hint),))


def _check_mod_files(mods) -> None:
    """Every --mod names a regular file (a pipe is refused, never opened: it would block)."""
    from ..load.userfiles import kind_problem
    for m in mods:
        problem = _unusable_name(m)
        if problem:
            raise UsageProblem(f"mod file {problem}")
        try:
            problem = kind_problem(os.stat(m).st_mode)
        except OSError:
            raise UsageProblem(f"mod file '{m}' not found") from None
        if problem:
            raise UsageProblem(f"mod file '{m}': {problem}")


def _no_such_ruleset(raw: str) -> UsageProblem:
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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulebook")
@click.option("--no-cache", is_flag=True,
              help="Load rulesets afresh, neither reading nor writing the cache "
                   "(as RULEBOOK_NO_CACHE=1 does).")
def cli(no_cache):
    """Rulebook: play board games written as data."""
    if no_cache:  # in the environment, so worker processes load afresh too
        os.environ["RULEBOOK_NO_CACHE"] = "1"


@cli.command()
@click.argument("paths", nargs=-1, type=NAME)
@click.option("--mod", "mods", multiple=True, type=_Path(dir_okay=False),
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
    with nothing to check is an error.
    """
    _check_mod_files(mods)
    plan = _plan(paths, mods)
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
    rows = []
    for target, mod_list in plan:
        start = time.perf_counter()
        diags: list[Diagnostic] = []
        summary = None
        if isinstance(target, _Problem):
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
    from ..scenarios.files import discover, load_scenarios
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
    from rich.text import Text
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
        cells = [Text(visible(name))] + ([Text(visible(", ".join(Path(m).name for m in mods)
                                                      or "-"))] if show_mods else [])
        cells += [str(s.get("files", "-")), cards, str(s.get("effects", "-")),
                  str(s.get("scenarios", "-")), result, f"{elapsed:.1f}s"]
        table.add_row(*cells)
    Console(highlight=False, emoji=False).print(table)


@cli.command()
@click.argument("kind", required=False)
@click.option("--out", "out_dir", type=_Path(file_okay=False),
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


@cli.command()
@click.option("--out", type=_Path(dir_okay=False), default=None,
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


@cli.command()
@click.argument("ruleset", type=NAME)
@click.argument("card_ids", nargs=-1, metavar="[ID]...")
@click.option("--mod", "mods", multiple=True, type=_Path(dir_okay=False),
              help="A mod to apply first (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]),
              default="text", show_default=True, help="How to print the catalogue.")
def cards(ruleset, card_ids, mods, fmt):
    """Print the card catalogue: each card's facts and its text, generated from its effects.

    With IDs (card ids or printed names) only those cards are printed.
    """
    from ..lang.words import catalogue_entry, facts_line
    rs = _load(ruleset, mods)
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


@cli.command("compile")
@click.argument("ruleset", type=NAME)
@click.option("--mod", "mods", multiple=True, type=_Path(dir_okay=False),
              help="A mod to apply first (repeatable).")
@click.option("--emit", is_flag=True, help="Print the Python the rules compile to.")
@click.option("--out", type=_Path(dir_okay=False), default=None,
              help="Write the Python to this file instead.")
def compile_cmd(ruleset, mods, emit, out):
    """Compile a ruleset's effects to Python, and show that Python with --emit.

    Rulebook compiles each effect the first time a game runs it; this writes
    all of them at once, so every one is known to compile. The text is for
    reading and debugging: Rulebook never loads code from a file.
    """
    from ..lang.compiler import source_of
    rs = _load(ruleset, mods)
    text = source_of(rs)
    header = (f"# {rs.name} {rs.version}: the Python its rules compile to (for reading; "
              "Rulebook writes and runs it itself)\n\n")
    if out:
        Path(out).write_text(header + text, encoding="utf-8")
        click.echo(f"{rs.name}: {len(rs.code)} effects, {text.count(chr(10))} lines of "
                   f"Python written to {out}")
    elif emit:
        click.echo(header + text, nl=False)
    else:
        click.echo(f"{rs.name}: {len(rs.code)} effects compile to {text.count(chr(10))} lines "
                   "of Python (--emit prints them)")


def _md(text: str) -> str:
    """Rule-file text for Markdown: escapes made visible, markup characters escaped."""
    out = visible(str(text))
    for ch in "\\`*_[]<>#|":
        out = out.replace(ch, "\\" + ch)
    return out


@cli.command("list")
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


def _document_format(argv: list[str]) -> str | None:
    """The machine-readable format ``validate`` was asked for, read from the raw arguments.

    Click reports a bad option before the command runs, so the format has to
    be known without click's help to print even that error as a document.
    """
    argv = argv[1:] if argv[:1] == ["--no-cache"] else argv
    if not argv or argv[0] != "validate":
        return None
    fmt = None
    for i, arg in enumerate(argv[1:], 1):
        if arg == "--":
            break
        if arg == "--format" and i + 1 < len(argv):
            fmt = argv[i + 1]
        elif arg.startswith("--format="):
            fmt = arg.split("=", 1)[1]
    if fmt not in report.FORMATS:
        return None
    fmt = report.resolve_format(fmt)
    return fmt if fmt in ("json", "sarif", "github") else None


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script; never shows a traceback for bad input."""
    args = list(sys.argv[1:] if argv is None else argv)
    doc = _document_format(args)
    try:
        result = cli.main(args=args, prog_name="rulebook", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        if doc:
            click.echo(report.usage_error(doc, exc.format_message()))
        else:
            exc.message = visible(exc.message, multiline=True)  # it may quote a file name
            exc.show()
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        sys.exit(130)
    except OSError as exc:
        if not _bad_name(exc):
            _internal_error(exc, doc)
        # a name no system call takes (too long, a loop of links) that reached a
        # command without passing through a checked option: the user's, not a bug
        message = f"'{clipped(str(exc.filename))}': {_bad_name(exc)}"
        if doc:
            click.echo(report.usage_error(doc, message))
        else:
            click.echo(visible(f"Error: {message}"), err=True)
        sys.exit(2)
    except Exception as exc:  # a bug in rulebook, not in the user's files
        _internal_error(exc, doc)
    sys.exit(result if isinstance(result, int) else 0)


def _bad_name(exc: OSError) -> str | None:
    from ..load.userfiles import bad_name
    return bad_name(exc) if exc.filename is not None else None


def _internal_error(exc: BaseException, doc: str | None):
    """A bug in rulebook, not in the user's files: said in one line, exit 3."""
    message = (f"internal error (a bug in rulebook, please report it with the command "
               f"you ran): {type(exc).__name__}: {exc}")
    if doc:
        click.echo(report.usage_error(doc, message, exit_code=3))
    click.echo(visible(message, multiline=True), err=True)
    sys.exit(3)


# ----------------------------------------------------------------- playing games
def _load(ruleset: str, mods: tuple[str, ...]):
    if find_ruleset(ruleset) is None:
        if Path(ruleset).is_dir():
            manifest = Path(ruleset) / RULESET_FILE
            if os.path.lexists(manifest):  # there, but not a regular file (a pipe?)
                raise _no_such_ruleset(str(manifest))
            raise UsageProblem(f"'{ruleset}' is a directory with no {RULESET_FILE}")
        raise _no_such_ruleset(ruleset)
    _check_mod_files(mods)
    try:
        return load_ruleset(ruleset, list(mods))
    except RulebookError as exc:
        click.echo(report.text(Diagnostics(exc.diagnostics).sorted(), sys.stdout.isatty()))
        sys.exit(1)


def _ai_seats(rs, players: int | None, spec: str | None, command: str):
    """The player count (the ruleset's least by default) and the AI agent of each seat."""
    players = players or rs.min_players
    if not rs.min_players <= players <= rs.max_players:
        raise UsageProblem(f"{rs.name} is for {rs.min_players}–{rs.max_players} players")
    kinds = _agents(spec, players, False)
    if "human" in kinds:
        raise UsageProblem(f"{command} plays AI agents only; 'human' is for rulebook play")
    return players, kinds


def _agents(spec: str | None, players: int, interactive: bool) -> list[str]:
    """The agent spec of each seat, every one checked (a Python agent's class is loaded)."""
    from ..agents.specs import SpecError, check
    if spec:
        kinds = [k.strip() for k in spec.split(",") if k.strip()]
        if len(kinds) == 1:
            kinds = kinds * players
        if len(kinds) != players:
            raise UsageProblem(f"--agents lists {len(kinds)} agents for {players} players")
    else:
        kinds = ["human" if interactive and seat == 0 else "greedy" for seat in range(players)]
    for k in dict.fromkeys(kinds):
        try:
            check(k)
        except SpecError as exc:
            raise UsageProblem(f"--agents: {exc}") from None
    return kinds


def _record_agents(rec) -> list[str]:
    """A record's agents seated again: never one written in Python (it is never imported
    from a record), never one with a budget past what a record may ask for."""
    from ..agents.specs import RecordSeatRefused, from_record, parse
    try:
        return from_record(rec.agents)
    except RecordSeatRefused as exc:
        at = rec.error("agents", "", exc.seat)
        kinds = list(rec.agents)
        spec = parse(kinds[exc.seat])
        example = ""
        if spec.builtin:  # the same agent with its usual budget
            kinds[exc.seat] = spec.name
            example = f" (for example --agents {','.join(kinds)})"
        raise UsageProblem(f"{at.path}:{at.line}:{at.col}: {exc}{example}") from None


AGENTS_HELP = ("Comma-separated agents by seat, or one for all: human, random, first, last, "
               "greedy, ismcts, an installed agent, or MODULE:CLASS; parameters follow "
               "colons, e.g. ismcts:iterations=400,greedy (see docs/agents.md).")


_SEED = _Whole(-(2 ** 63 - 1), 2 ** 63 - 1)


@cli.command()
@click.argument("ruleset", type=NAME)
@click.option("--players", "-p", type=_Whole(min=1), default=None,
              help="Number of players.")
@click.option("--seed", type=_SEED, default=None, help="Random seed (default: random).")
@click.option("--agents", "agent_spec", default=None,
              help=AGENTS_HELP + " Default: you, then greedy.")
@click.option("--variant", "variants", multiple=True, help="A variant to play (repeatable).")
@click.option("--mod", "mods", multiple=True, type=_Path(dir_okay=False))
@click.option("--save", "save_path", type=_Path(dir_okay=False),
              help="Save the game record here (also when you type 'save' at a prompt).")
@click.option("--resume", "resume_path", type=_Path(exists=True, dir_okay=False),
              help="Resume a saved game from its record (--agents may hand seats over).")
@click.option("--log/--no-log", default=None, help="Print the game log (default: when no human).")
def play(ruleset, players, seed, agent_spec, variants, mods, save_path, resume_path, log):
    """Play a game: people at this terminal against AI agents."""
    import random as _random

    from rich.console import Console

    from ..play.terminal import HumanAgent, UndoRequest
    from ..play.render import score_table
    from ..play.saves import SaveProblem, prepare
    from ..play.session import GameError, build_game, make_record, place_in_record, run
    from ..play.stopping import StopSignals, shield
    from ..play.transcript import ScriptAnswerRefused, ScriptReader
    console = Console(highlight=False, emoji=False)
    prefix = rec = None
    if resume_path:
        rec, rs, mods = _resume(ruleset, resume_path, players, seed, variants, mods)
        players, seed, variants = rec.players, rec.seed, tuple(rec.variants)
        kinds = (_agents(agent_spec, players, sys.stdin.isatty()) if agent_spec
                 else _record_agents(rec))
        prefix = rec.decisions
        save_path = save_path or resume_path
    else:
        rs = _load(ruleset, mods)
        players = players or rs.min_players
        seed = seed if seed is not None else _random.SystemRandom().randrange(1, 10 ** 9)
        kinds = _agents(agent_spec, players, sys.stdin.isatty())
    save_to = None
    if save_path:
        try:
            save_to = prepare(save_path)
        except SaveProblem as exc:
            raise UsageProblem(f"--save: {exc}") from None
    try:
        game = build_game(rs, players, seed, kinds, tuple(variants), prefix=prefix,
                          remember=rec is None or rec.remembers_refusals)
    except GameError as exc:
        if exc.span is None:  # players or variants that the ruleset does not have
            raise UsageProblem(exc.message) from None
        click.echo(visible(f"{exc.span}: error: {exc.message}"))
        sys.exit(1)
    stream = getattr(sys.stdin, "buffer", None)
    script = None if stream is None or sys.stdin.isatty() else ScriptReader(stream)
    for agent in game.agents:
        live = getattr(agent, "live", agent)
        if isinstance(live, HumanAgent):
            if script is not None:  # answers from a file or a pipe, one a line
                live.script, live.input = script, script
            live.input = _saving_input(live.input)
    human = "human" in kinds
    if log is None:
        log = not human
    if log:
        game.listeners.append(lambda line: console.print(visible(line), markup=False))
    console.print(f"[bold]{escape(visible(rs.name))}[/bold] · {players} players · seed {seed} · "
                  f"agents {', '.join(kinds)}")

    def stop(why: str, code: int):
        shield()  # nothing cuts the save short (a closed terminal sends SIGHUP twice)
        _save_unfinished(make_record(game, rs, kinds, None, list(mods)), save_to,
                         f"{rs.id}-{seed}", ruleset, why, console)
        sys.exit(code)

    try:
        with StopSignals():  # Ctrl-C, a closed terminal, a polite kill: saved (below)
            while True:
                try:
                    result = run(game)
                    break
                except UndoRequest as back:  # replay the record up to that decision
                    live = [getattr(a, "live", a) for a in game.agents]
                    game = build_game(rs, players, seed, kinds, tuple(variants),
                                      prefix=game.record[:back.at], live_agents=live,
                                      remember=game.refusals.remember)
                    console.print("[dim]back to your previous decision[/dim]")
    except _SaveNow:
        stop("stopped as you asked", 0)
    except _EndOfInput:
        stop("\nend of input", 0)
    except ScriptAnswerRefused as exc:
        click.echo(visible(f"<stdin>:{exc.line}:1: error: "
                           + exc.message(game.state.players[exc.decision.player].name)))
        stop("the game so far is kept", 1)
    except KeyboardInterrupt:
        if human or save_to:
            stop("\ninterrupted", 130)
        sys.exit(130)
    except GameError as exc:
        if rec is not None:
            place_in_record(exc, rec)
        where = f"{exc.span}: " if exc.span else ""
        click.echo(visible(f"{where}error: {exc.message}"))
        sys.exit(1)
    people = [a for a in (getattr(x, "live", x) for x in game.agents) if isinstance(a, HumanAgent)]
    if people:  # what happened after the last decision: the last rounds, the end, the scoring
        people[0].news(game, game.agents.index(next(
            x for x in game.agents if getattr(x, "live", x) is people[0])))
    console.print(score_table(game, result))
    if not result.finished:
        console.print("Unfinished: the game stopped at its round limit without reaching its "
                      "end, so nobody wins.")
    if result.solo_won is not None:
        console.print("You win!" if result.solo_won else "You lose: the goal was not reached.")
    if save_to:
        shield()
        _save_finished(make_record(game, rs, kinds, result, list(mods)), save_to,
                       f"{rs.id}-{seed}", console)
    console.print(f"{result.decisions} decisions · final state #{result.final_hash[:12]}")


def _resume(ruleset, path, players, seed, variants, mods):
    """The record to resume, its ruleset, and its mods; options must agree with it."""
    from ..play.record import Record, RecordError
    from ..play.session import load_for_record
    try:
        rec = Record.load(path)
    except RecordError as exc:
        _record_error(exc)
    differ = []
    if players is not None and players != rec.players:
        differ.append(f"--players {players} (the record has {rec.players})")
    if seed is not None and seed != rec.seed:
        differ.append(f"--seed {seed} (the record has {rec.seed})")
    if variants and sorted(set(variants)) != sorted(rec.variants):
        differ.append(f"--variant {', '.join(variants)} (the record has "
                      f"{', '.join(rec.variants) or 'none'})")
    if differ:
        raise UsageProblem("--resume carries on the recorded game, and these options differ "
                           "from its record: " + "; ".join(differ))
    if find_ruleset(ruleset) is None:
        raise _no_such_ruleset(ruleset)
    # mods given again (perhaps from a new place) must be the record's mods
    _check_mod_files(mods)
    try:
        rs = load_for_record(rec, path, ruleset, list(mods) if mods else None)
    except RecordError as exc:
        if mods and getattr(exc, "field", None) == "content_hash":
            raise UsageProblem("--mod: these mods are not the ones the record was made with "
                               "(the rules' content hash differs)") from None
        _record_error(exc)
    return rec, rs, tuple(rec.mods)


def _record_error(exc) -> None:
    click.echo(visible(f"{exc.path}:{exc.line}:{exc.col}: error: {exc.message}"))
    sys.exit(1)


def _resume_hint(ruleset: str, path, agents: list[str] | None = None) -> str:
    """The command that carries a saved game on; with --agents when the record's own agents
    would not be seated again (one in Python, or a budget past what a record may ask)."""
    import shlex

    from ..agents.specs import record_problem
    command = f"rulebook play {shlex.quote(ruleset)} --resume {shlex.quote(str(path))}"
    if agents and any(record_problem(kind) for kind in agents):
        command += f" --agents {shlex.quote(','.join(agents))}"
    return command


def _save_unfinished(rec, save_to, stem, ruleset, why, console) -> None:
    """Save a game that stops before its end, and say how to carry on."""
    from ..play.saves import save_somewhere
    try:
        path = save_somewhere(rec, save_to, stem)
    except OSError as exc:
        click.echo(f"{why.strip()}; the game could not be saved anywhere: {exc}", err=True)
        return
    # plain echo, not the console: a command to copy must not be wrapped
    n = len(rec.decisions)
    try:
        click.echo(f"{why}; saved after {n} decision{'' if n == 1 else 's'} to {path}")
        click.echo(f"resume with: {_resume_hint(ruleset, path, rec.agents)}")
    except OSError:  # the terminal is gone (a hang-up); the game is saved all the same
        _terminal_gone()


def _terminal_gone() -> None:
    """Point the standard streams at nowhere, so exiting does not fail on a closed terminal."""
    try:
        sink = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):
            os.dup2(sink, fd)
        os.close(sink)
    except OSError:
        pass


def _save_finished(rec, save_to, stem, console) -> None:
    from ..play.saves import save_somewhere
    try:
        path = save_somewhere(rec, save_to, stem)
    except OSError as exc:
        click.echo(f"the record could not be saved anywhere: {exc}", err=True)
        return
    if path != save_to:
        console.print(f"could not write {save_to}; record saved to {path} instead",
                      markup=False)
    else:
        console.print(f"record saved to {path}", markup=False)


class _SaveNow(Exception):
    pass


class _EndOfInput(Exception):
    pass


def _saving_input(inner):
    def read(prompt=""):
        try:
            raw = inner(prompt)
        except EOFError:
            raise _EndOfInput() from None
        if raw.strip().lower() in ("save", "quit", "exit"):
            raise _SaveNow()
        return raw
    return read


@cli.command()
@click.argument("record", type=_Path(exists=True, dir_okay=False))
@click.option("--ruleset", "ruleset_path", type=NAME, default=None,
              help="Ruleset location if it is not a shipped one.")
@click.option("--step", is_flag=True, help="Show the game log line by line; press Enter to go on.")
@click.option("--decisions", "show_decisions", is_flag=True,
              help="Print every decision as its player saw it, with the answer given.")
@click.option("--at", "at", type=_Whole(), default=None, metavar="N",
              help="Print the deciding player's view at decision N, and stop.")
def replay(record, ruleset_path, step, show_decisions, at):
    """Replay a game from its record and check the final state hash."""
    from rich.console import Console

    from ..play.record import RecordError
    from ..play.render import score_table
    from ..play.session import DecisionOutOfRange, GameError, replay as do_replay
    console = Console(highlight=False, emoji=False)
    watch = _decision_watch(console, show_decisions, at) if show_decisions or at else None

    def show(line):
        console.print(visible(line), markup=False)
        if step:
            try:
                input()
            except EOFError:
                pass
    if ruleset_path is not None and find_ruleset(ruleset_path) is None:
        raise _no_such_ruleset(ruleset_path)
    try:
        played, same = do_replay(record, ruleset_path, show if step else None, watch, at)
    except _ShownAt:
        return
    except DecisionOutOfRange as exc:
        raise UsageProblem(f"--at {at}: {exc}") from None
    except RecordError as exc:
        _record_error(exc)
    except GameError as exc:
        click.echo(visible(f"{exc.span or record}: error: {exc.message}"))
        sys.exit(1)
    if played.result is None:
        again = _resume_hint(ruleset_path or played.record.ruleset, record, played.record.agents)
        click.echo(f"replayed {len(played.game.record)} decisions; the record stops before the "
                   "end of the game and has no final hash, so the result is unverified; "
                   f"carry on with: {again}")
        sys.exit(1)
    console.print(score_table(played.game, played.result))
    if same is None:
        click.echo(f"replayed {played.result.decisions} decisions; the record has no final "
                   f"hash, so the result is unverified (replay #{played.result.final_hash[:12]})")
        sys.exit(1)
    if not same:
        click.echo(f"final state differs: record #{played.record.final_hash[:12]}, replay "
                   f"#{played.result.final_hash[:12]}")
        sys.exit(1)
    click.echo(f"replayed {played.result.decisions} decisions; final state matches "
               f"#{played.result.final_hash[:12]}")


class _ShownAt(Exception):
    """The view asked for with --at has been printed; the replay stops there."""


def _decision_watch(console, every: bool, at: int | None):
    """A replay watcher printing each decision (``every``) and the view at decision ``at``."""
    from ..play.terminal import HumanAgent
    from ..play.transcript import answer_text, decision_text

    def watch(number, decision, game, answer):
        if every and (at is None or number < at):
            console.print(decision_text(number, decision, game, answer), markup=False,
                          soft_wrap=True)
        if number == at:
            seat = visible(game.state.players[decision.player].name)
            console.print(f"decision {number} · {seat}", markup=False, soft_wrap=True)
            viewer = HumanAgent(console)
            viewer.helped = True  # no commands in a replay: no hint about them
            viewer.show(decision, game.view(decision.player), game, full=True)
            console.print(f"answer in the record: {visible(answer_text(decision, answer))}",
                          markup=False, soft_wrap=True)
            raise _ShownAt
    return watch


def _backend_options(command):
    """--backend, --address and --resume, for the commands that play many games."""
    command = click.option("--resume", type=click.Path(dir_okay=False),
                           help="Carry on a results file: skip the seeds it holds (it must "
                                "be from the same configuration) and append the rest.")(command)
    return _where_options(command)


def _where_options(command):
    """--backend and --address: where the games of a command are played."""
    command = click.option("--address", default=None,
                           help="With --backend ray: join the Ray cluster at auto or "
                                "HOST:PORT (default: start Ray on this machine).")(command)
    return click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
                        show_default=True,
                        help="Where games are played: local processes (--workers), or "
                             "Ray (see the README).")(command)


class _Unavailable(click.ClickException):
    exit_code = 2


def _check_backend(backend: str, address: str | None) -> None:
    """Backend options that cannot work, refused before anything is loaded."""
    if address and backend != "ray":
        raise UsageProblem("--address is for --backend ray")
    if backend == "ray":
        import importlib.util
        if importlib.util.find_spec("ray") is None:
            from ..sim.ray_backend import MISSING
            raise _Unavailable(MISSING)


@cli.command()
@click.argument("ruleset")
@click.option("-n", "--games", type=_Whole(1, 1_000_000), default=100,
              show_default=True, help="How many games (1 to 1,000,000).")
@click.option("--players", "-p", type=_Whole(min=1), default=None)
@click.option("--agents", "agent_spec", default="random", show_default=True,
              help=AGENTS_HELP)
@click.option("--variant", "variants", multiple=True)
@click.option("--mod", "mods", multiple=True, type=click.Path(dir_okay=False))
@click.option("--seed", type=_SEED, default=1, show_default=True,
              help="Seed of the first game.")
@click.option("--workers", "-w", type=_Whole(min=1), default=1, show_default=True,
              help="Processes (--backend local; Ray runs one per CPU).")
@click.option("--out", type=click.Path(dir_okay=False), help="Write one JSON line per game.")
@click.option("--no-check", is_flag=True, help="Skip invariant checks (faster).")
@click.option("--check-every-decision", "every_decision", is_flag=True,
              help="Check invariants before every decision, not only after each action and "
                   "at the end (slower; finds where inside an action a rule breaks one).")
@_backend_options
def simulate(ruleset, games, players, agent_spec, variants, mods, seed, workers, out, no_check,
             every_decision, backend, address, resume):
    """Simulate many games between AI agents and summarise the results."""
    from ..sim.simulate import simulate as run_many
    from ..sim.run import Run, SimulateProblem, simulate_run
    _check_backend(backend, address)
    rs = _load(ruleset, mods)
    players, kinds = _ai_seats(rs, players, agent_spec, "simulate")
    # every line says what was played, so it can be read on its own; mods are named from
    # the results file's folder, where a report looks for them
    from ..sim.results import results_context
    target = resume or out
    context = results_context(rs, variants, players, Path(target).parent if target else None)
    check = False if no_check else ("decision" if every_decision else "action")
    run = Run(ruleset, games, players, agent_spec, list(variants), list(mods), seed, workers,
              "--no-check" if no_check else ("--check-every-decision" if every_decision
                                             else None), backend, address, out, resume)

    def games_to_play(skip, progress):
        return run_many(str(rs.root), list(mods), games, players, kinds, list(variants), seed,
                        workers, check, progress, backend=backend, address=address,
                        skip_seeds=skip)
    try:
        code = simulate_run(run, rs.name, lambda summary: {**context, **summary.to_dict()},
                            games_to_play, context, kinds)
    except SimulateProblem as exc:
        raise UsageProblem(str(exc)) from None
    sys.exit(code)


@cli.command("test")
@click.argument("ruleset", type=NAME)
@click.option("--mod", "mods", multiple=True, type=_Path(dir_okay=False))
@click.option("-k", "select", default=None, help="Only scenarios whose id contains this text.")
def test_cmd(ruleset, mods, select):
    """Run a ruleset's scenario tests (its scenarios/*.yaml files)."""
    from rich.console import Console

    from ..scenarios.files import discover, load_scenarios, run_scenario
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
                console.print(f"[green]PASS[/green] {escape(visible(sc.id))}")
            else:
                failed += 1
                console.print(f"[red]FAIL[/red] {escape(visible(sc.id))}\n  "
                              f"{escape(visible(f'{outcome.span}: {outcome.message}'))}")
    if diags:
        click.echo(report.text(diags.sorted(), sys.stdout.isatty()))
    click.echo(f"{passed} passed, {failed + len(diags.errors)} failed")
    sys.exit(1 if failed or diags.errors or not passed else 0)


# ------------------------------------------------------- the balance lab (lab/)
@cli.command("report")
@click.argument("results_file", metavar="RESULTS.jsonl", type=click.Path(dir_okay=False))
@click.option("--ruleset", "ruleset_path", default=None,
              help="The ruleset to take names from (default: the shipped one the file names).")
@click.option("--mod", "mods", multiple=True, type=click.Path(dir_okay=False),
              help="A mod the games were played with, to take names from (repeatable; "
                   "default: the file's own mods, found in its folder).")
@click.option("--html", type=click.Path(dir_okay=False), help="Write one self-contained page.")
@click.option("--png", type=click.Path(file_okay=False), help="Write the plots to this folder.")
@click.option("--confidence", type=click.FloatRange(0.5, 0.999), default=0.95,
              show_default=True, help="Confidence level of the intervals.")
@click.option("--top", type=_Whole(min=1), default=15, show_default=True,
              help="Rows shown per card table (all are tested).")
def report_cmd(results_file, ruleset_path, mods, html, png, confidence, top):
    """Win rates, per-card figures, scores and lengths of simulated games, with intervals."""
    from ..sim.results_file import LineProblem, refuse_special
    from ..lab.commands import report as run_report
    if not os.path.exists(results_file):
        raise UsageProblem(f"results file '{results_file}' not found")
    try:
        refuse_special(results_file, results_file)  # a pipe would make the reading wait
    except LineProblem as exc:
        raise UsageProblem(str(exc)) from None
    if ruleset_path and find_ruleset(ruleset_path) is None:
        raise _no_such_ruleset(ruleset_path)
    for m in mods:
        if not Path(m).is_file():
            raise UsageProblem(f"mod file '{m}' not found")
    sys.exit(run_report(results_file, ruleset_path, html, png, confidence, top, load_ruleset,
                        mods))


@cli.command("compare")
@click.argument("ruleset")
@click.option("--mod", "mods", multiple=True, required=True,
              help="A mod file, or the name of one in the ruleset's mods/ folder "
                   "(repeatable; layered in order).")
@click.option("-n", "--games", type=_Whole(2, 1_000_000), default=200,
              show_default=True, help="Seeds to play, each on both sides.")
@click.option("--players", "-p", type=_Whole(min=1), default=None)
@click.option("--agents", "agent_spec", default="random", show_default=True,
              help="Comma-separated agents by seat (random, greedy), or one for all.")
@click.option("--variant", "variants", multiple=True)
@click.option("--seed", type=_SEED, default=1, show_default=True, help="Seed of the first game.")
@click.option("--workers", "-w", type=_Whole(min=1), default=1, show_default=True,
              help="Processes (--backend local; Ray runs one per CPU).")
@click.option("--html", type=click.Path(dir_okay=False), help="Write one self-contained page.")
@click.option("--png", type=click.Path(file_okay=False), help="Write the plots to this folder.")
@click.option("--out-base", type=click.Path(dir_okay=False),
              help="Keep the base games' results here (JSON lines).")
@click.option("--out-mod", type=click.Path(dir_okay=False),
              help="Keep the modded games' results here (JSON lines).")
@click.option("--confidence", type=click.FloatRange(0.5, 0.999), default=0.95,
              show_default=True, help="Confidence level of the intervals.")
@click.option("--top", type=_Whole(min=1), default=15, show_default=True,
              help="Rows listed per card table (all are tested).")
@click.option("--no-check", is_flag=True, help="Skip invariant checks (faster).")
@click.option("--resume", is_flag=True,
              help="Carry on the --out-base and --out-mod files of a stopped compare: skip "
                   "the seeds they hold and append the rest.")
@_where_options
def compare_cmd(ruleset, mods, games, players, agent_spec, variants, seed, workers, html, png,
                out_base, out_mod, confidence, top, no_check, resume, backend, address):
    """Play the same seeds with and without mods, and say what changed, with intervals."""
    from ..lab.commands import compare as run_compare, find_mod, need_lab, shipped_mods
    need_lab(html or png)  # before anything is loaded or played
    _check_backend(backend, address)
    if resume and not (out_base and out_mod):
        raise UsageProblem("--resume carries on the --out-base and --out-mod files; give both")
    from ..sim.run import same_file
    if out_base and out_mod and same_file(out_base, out_mod):
        raise UsageProblem("--out-base and --out-mod name the same file; each side's games "
                           "need a file of their own")
    base = _load(ruleset, ())
    files = []
    for raw in mods:
        found = find_mod(raw, base.root)
        if found is None:
            known = shipped_mods(base.root)
            raise UsageProblem(f"mod '{raw}' is neither a file nor one of {base.name}'s "
                               f"house rules ({', '.join(known) or 'it has none'})")
        files.append(str(found))
    modded = _load(ruleset, tuple(files))
    players, kinds = _ai_seats(base, players, agent_spec, "compare")
    # where the games run: simulate()'s backend options (--backend, --address, ...) go here
    backend = {"backend": backend, "address": address}
    try:
        code = run_compare(base, modded, files, games, players, kinds, list(variants), seed,
                           workers, False if no_check else "action", html, png, out_base,
                           out_mod, confidence, top, backend, load_ruleset, resume=resume)
    except KeyboardInterrupt:
        _stopped_compare(out_base, out_mod, resume)
        sys.exit(130)
    sys.exit(code)


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


@cli.command("lsp")
def lsp_cmd():
    """Serve the language server over stdio (for editors; see docs/editors.md)."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        click.echo("rulebook lsp needs the language server extra: pip install 'rulebook-games[lsp]'",
                   err=True)
        sys.exit(2)
    from ..lsp.server import serve
    serve()
