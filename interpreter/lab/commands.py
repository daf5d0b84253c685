"""The bodies of ``rulebook report`` and ``rulebook compare``; cli.py only declares their options.

Each function checks what it was given, runs the lab, prints the tables on
the terminal and writes the requested HTML page and PNG files. A problem
the user can fix (a bad results line, a missing ruleset, an output that
cannot be written or would replace a file of the user's, the ``report``
extra not installed) is one line with its place and exit 2 (1 for bad
results data, and for a write that fails half way: a full disk); never a
traceback. Outputs go through :mod:`rulebook_games.outfiles`. A warning
raised while they work (matplotlib names a label's character its font
lacks) is printed once, as one line through ``visible``, never raw
(:func:`warnings_shown_safely`).
"""

from __future__ import annotations

import contextlib
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import click

from ..outfiles import ANY, Replace, check_file, check_folder, open_lines, write_failed, \
    write_file
from ..safe_text import visible

EXTRA_HINT = ("the balance lab needs scipy and matplotlib: "
              "pip install 'rulebook-games[report]'")


def need_scipy() -> None:
    """Stop with the install hint when the report extra is missing."""
    try:
        import numpy  # noqa: F401
        import scipy.stats  # noqa: F401
    except ImportError:
        click.echo(f"error: {EXTRA_HINT}", err=True)
        sys.exit(2)


def need_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        click.echo("error: --html and --png draw plots, which need matplotlib: "
                   "pip install 'rulebook-games[report]'", err=True)
        sys.exit(2)


def need_lab(plots) -> None:
    """What ``report`` and ``compare`` need before they do anything: scipy, and matplotlib
    when they are to draw ``plots``; else the one-line hint and exit 2."""
    need_scipy()
    if plots:
        need_matplotlib()


WIDE = 1000  # the width of the output off a terminal: no table of the lab is wider


def console(stderr: bool = False):
    """The console for people: on stderr when stdout holds a JSON document (--format json).
    On a terminal, its width; off one (a pipe, a file, CI's log), as wide as the tables
    need rather than rich's 80 columns, which wrapped every cell of a wide table over
    several lines; $COLUMNS still says, when set."""
    import os
    from rich.console import Console
    out = Console(highlight=False, emoji=False, stderr=stderr)
    if out.is_terminal or os.environ.get("COLUMNS"):
        return out
    return Console(highlight=False, emoji=False, stderr=stderr, width=WIDE)


def failed(message: str, code: int, fmt: str = "text") -> int:
    """Say a problem in one line on stderr (and, with --format json, as the ``error``
    document on stdout); the exit code."""
    click.echo(f"error: {visible(message)}", err=True)
    if fmt == "json":
        from ..safe_text import json_text
        kind = {2: "usage", 3: "internal"}.get(code, "failure")
        click.echo(json_text({"error": {"kind": kind, "message": message,
                                        "exit_code": code}}, indent=2))
    return code


MAX_WARNINGS = 10  # different warnings printed by one run; the rest are counted


@contextlib.contextmanager
def warnings_shown_safely():
    """Print each warning raised inside as ``warning: TEXT`` on stderr, TEXT through
    :func:`visible`, never as Python prints it (raw, with its source line).

    A warning's text can carry text of a results file or a ruleset: matplotlib's
    "Glyph 27 (\x1b) missing from font" holds the character itself. The usual
    filters still decide which warnings are shown; a warning already shown is not
    shown again, and after MAX_WARNINGS different ones the rest are only counted.
    """
    said: dict[str, None] = {}
    more = 0

    def show(message, category, filename, lineno, file=None, line=None):
        nonlocal more
        text = str(message)
        if text in said:
            return
        if len(said) >= MAX_WARNINGS:
            more += 1
            return
        said[text] = None
        click.echo(f"warning: {visible(text)}", err=True)

    with warnings.catch_warnings():
        warnings.showwarning = show
        try:
            yield
        finally:
            if more:
                click.echo(f"warning: {more} more warnings not shown", err=True)


def report(path: str, ruleset: str | None, html: str | None, png: str | None,
           confidence: float, top: int, load, mods=(), gallery: str | None = None,
           fmt: str = "text") -> int:
    """``rulebook report``; ``load(path, mods)`` loads a ruleset (for its names).

    ``ruleset`` and ``mods`` are the ``--ruleset`` and ``--mod`` options, if given;
    ``gallery`` the address of a server whose cards gallery the page links to; ``fmt``
    "json" prints the tables as one JSON document on stdout (:mod:`.document`).
    """
    need_lab(html or png)
    with warnings_shown_safely():
        return _report(path, ruleset, html, png, confidence, top, load, mods, gallery, fmt)


def card_links(gallery: str | None, names, mods) -> Callable[[str], str] | None:
    """A card id's address on the cards gallery of the server at ``gallery`` (None: no links).

    The gallery is the loaded ruleset's (named by its folder) with ``mods``
    (files) layered in, each named by its file name as the server offers it."""
    folder = names.ruleset_folder()
    if not gallery or folder is None:
        return None
    from ..cardlinks import gallery_link
    stems = [Path(m).stem for m in mods]
    return lambda card: gallery_link(gallery, folder, card, stems)


def _report(path, ruleset, html, png, confidence, top, load, mods, gallery=None,
            fmt="text") -> int:
    from . import measures, names as names_mod, results, terminal
    start = time.perf_counter()
    try:
        res = results.read(path)
    except results.ResultsProblem as exc:
        return failed(str(exc), 1, fmt)
    names = names_mod.for_results(res, ruleset, load, mods)
    rep = measures.build(res, names, confidence, top)
    from .who import seat_agents, show_who, who_played
    who = who_played(seat_agents(res.pg_seat, res.pg_agent), evaluations=res.evaluations)
    rep.notes[:0] = who
    rep.notes[:0] = [f"{path}:{line}: line skipped: {why}" for line, why in res.skipped]
    if res.errors:
        rep.notes.insert(0, f"{len(res.errors)} games stopped on a rule error and are not "
                            "analysed: " + "; ".join(f"line {ln} (seed {seed}): {msg}"
                                                       for ln, seed, msg in res.errors[:5])
                         + ("; …" if len(res.errors) > 5 else ""))
    as_json = fmt == "json"
    out = console(stderr=as_json)
    if not as_json:
        show_who(out, who)  # first: what the figures are about
        terminal.show(out, rep.tables, rep.notes)
    links = card_links(gallery, names, [names.mod_files[i] for i in sorted(names.mod_files)])
    written = write_outputs(rep.tables, rep.plots, rep.notes, [], html, png,
                            page_title("Report", rep_game(res, names), res.pg_agent,
                                       Path(path).name), confidence, links)
    for w in written:
        out.print(visible(f"wrote {w}"), markup=False)
    if as_json:
        from . import document
        from ..safe_text import json_text
        click.echo(json_text(document.report(str(path), res.games, confidence, rep.tables,
                                             rep.notes, written), indent=2))
    out.print(f"{res.games} games read in {time.perf_counter() - start:.1f}s", markup=False,
              style="dim")
    return 0


def rep_game(res, names) -> str:
    """The game a results file's games were played on, as the ruleset names it."""
    info = res.ruleset or {}
    return names.ruleset(str(info.get("name") or info.get("id") or "?"))


def page_title(kind: str, game: str, agents, source: str = "") -> str:
    """``Report: My Game, agents greedy and random (results.jsonl)``: the page's
    title names the game and the agents its results rows name (a few, and how many)."""
    kinds = sorted(set(agents))
    shown = kinds[:4] + ([f"{len(kinds) - 4} more"] if len(kinds) > 4 else [])
    who = (", ".join(shown[:-1]) + " and " + shown[-1]) if len(shown) > 1 else "".join(shown)
    title = f"{kind}: {game}"
    if who:
        title += f", agent{'s' if len(kinds) > 1 else ''} {who}"
    return f"{title} ({source})" if source else title


def _is_page(path: str, head: bytes) -> bool:
    return head.startswith(PAGE_START) and head[len(PAGE_START):].startswith(
        (b"Report: ", b"Compare: "))


# the start of every page lab.page renders
PAGE_START = b'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n<title>'
# what report and compare wrote before may be written again; nothing else is replaced
PAGE = Replace(_is_page, "a page 'rulebook report' or 'compare' wrote",
               "give another path, or remove it first")
PLOT = Replace(lambda path, head: head.startswith(b"\x89PNG\r\n\x1a\n"), "a PNG image",
               "give another folder for --png, or remove the file first")


def check_outputs(html: str | None, png: str | None) -> None:
    """--html and --png refused before anything is read or played (OutputProblem, exit 2)."""
    if html:
        check_file(html, "--html", PAGE)
    if png:
        check_folder(png, "--png")


def write_outputs(tables, plots, notes, verdicts, html, png, title, confidence,
                  card_link=None) -> list[str]:
    """Write the plots to ``png`` (a folder) and the page to ``html``; the paths written.

    Every file is checked before the first is written; each is written whole
    (:func:`rulebook_games.outfiles.write_file`).
    """
    if not (html or png):
        return []
    from . import page, plots as plots_mod
    images = plots_mod.draw(plots, confidence)
    check_outputs(html, png)
    if png:
        for name, _ in images:
            check_file(Path(png) / f"{name}.png", "--png", PLOT)
    written = []
    if png:
        for name, data in images:
            write_file(Path(png) / f"{name}.png", data, "--png", PLOT)
            written.append(str(Path(png) / f"{name}.png"))
    if html:
        write_file(html, page.render(title, tables, notes, verdicts, images, card_link),
                   "--html", PAGE)
        written.append(str(html))
    return written


# ------------------------------------------------------------------ compare
def find_mod(raw: str, ruleset_root: Path) -> Path | None:
    """A mod given by path, or by the name of one the ruleset ships in its ``mods/`` folder.

    A name is a plain file name (no folder, no ``..``), and the file it finds
    must lie inside the ruleset's own tree, links followed.
    """
    from ..load.tree import is_inside, tree_of
    p = Path(raw)
    if p.is_file():
        return p
    if p.name != raw or raw in (".", "..") or not raw:
        return None
    folder = ruleset_root / "mods"
    for candidate in (folder / raw, folder / f"{raw}.yaml", folder / f"{raw}.yml"):
        if candidate.is_file() and is_inside(candidate, tree_of(ruleset_root)):
            return candidate
    return None


def shipped_mods(ruleset_root: Path) -> list[str]:
    return sorted(p.stem for p in (ruleset_root / "mods").glob("*.yaml"))


def _play(rs, mods, games, players, kinds, variants, seed, workers, check, out_path,
          backend, progress, label, resume=False, option=None) -> None:
    """Play one side's games and write its results file (the lines ``simulate --out`` writes).

    With ``resume``, a file that is there already is carried on: the seeds it
    holds are skipped and the rest appended (see :mod:`rulebook_games.sim.resume`).
    """
    import json

    from ..sim.results import results_context
    from ..sim.resume import reopen
    from ..sim.simulate import simulate
    context = results_context(rs, variants, players, Path(out_path).parent, kinds)
    from ..sim.run import RESULTS
    done = set()
    option = option or "results"
    if resume and Path(out_path).exists():
        fh, done, _ = reopen(str(out_path), str(out_path), context, kinds)
    else:  # a file given is new or empty (checked before the first game), or resumed
        fh = open_lines(out_path, option, ANY if resume or option == "results" else RESULTS)
    task = progress.add_task(label, total=games,
                             completed=sum(1 for s in done if seed <= s < seed + games))
    try:
        for summary in simulate(str(rs.root), list(mods), games, players, kinds,
                                list(variants), seed=seed, workers=workers, check=check,
                                progress=lambda: progress.advance(task), skip_seeds=done,
                                **backend):
            try:
                fh.write(json.dumps({**context, **summary.to_dict()}) + "\n")
                fh.flush()  # a stopped compare keeps every game it finished
            except OSError as exc:  # a full disk…: one line naming the file, exit 1
                raise write_failed(out_path, option, exc) from None
    finally:
        try:
            fh.close()
        except OSError:  # what a failed write left in the buffer: already said
            pass


def compare(base_rs, mod_rs, mods, games, players, kinds, variants, seed, workers, check,
            html, png, out_base, out_mod, confidence, top, backend, load,
            resume=False, gallery: str | None = None, fmt: str = "text") -> int:
    """``rulebook compare``: play both sides, read them back, print what changed.

    ``backend`` holds the options for where the games run (``simulate()``'s
    keyword arguments beyond the games themselves), passed through as given.
    """
    need_lab(html or png)
    with warnings_shown_safely():
        return _compare(base_rs, mod_rs, mods, games, players, kinds, variants, seed,
                        workers, check, html, png, out_base, out_mod, confidence, top,
                        backend, load, resume, gallery, fmt)


def _compare(base_rs, mod_rs, mods, games, players, kinds, variants, seed, workers, check,
             html, png, out_base, out_mod, confidence, top, backend, load, resume,
             gallery=None, fmt="text") -> int:
    import tempfile

    from rich.progress import Progress

    from ..sim.results import results_context
    from ..sim.resume import ResumeProblem, read_results
    from ..sim.run import RESULTS
    from . import names as names_mod, paired, results, terminal
    as_json = fmt == "json"
    out = console(stderr=as_json)
    paths = []
    with tempfile.TemporaryDirectory(prefix="rulebook-compare-") as tmp:
        for given, default, option in ((out_base, "base.jsonl", "--out-base"),
                                       (out_mod, "mods.jsonl", "--out-mod")):
            if given:  # written, then read back: a regular file, new or empty or resumed
                check_file(given, option, ANY if resume else RESULTS)
                paths.append(Path(given))
            else:
                paths.append(Path(tmp) / default)
        if resume:  # both files checked before either is written to
            for rs, path in ((base_rs, paths[0]), (mod_rs, paths[1])):
                if not path.exists():
                    continue
                try:
                    read_results(str(path), str(path),
                                 results_context(rs, variants, players, path.parent, kinds),
                                 kinds)
                except ResumeProblem as exc:
                    return failed(f"--resume {exc}", 2, fmt)
        start = time.perf_counter()
        try:
            with Progress(console=out, transient=True) as progress:
                _play(base_rs, [], games, players, kinds, variants, seed, workers, check,
                      paths[0], backend, progress, f"{base_rs.name}: {games} games", resume,
                      "--out-base" if out_base else None)
                _play(mod_rs, mods, games, players, kinds, variants, seed, workers, check,
                      paths[1], backend, progress, f"with the mods: {games} games", resume,
                      "--out-mod" if out_mod else None)
        except OSError as exc:
            return failed(f"cannot write {exc.filename or ''}: {exc.strerror or exc}", 2, fmt)
        except ResumeProblem as exc:
            return failed(f"--resume {exc}", 2, fmt)
        wall = time.perf_counter() - start
        try:
            base, mod = results.read(paths[0]), results.read(paths[1])
        except results.ResultsProblem as exc:
            return failed(str(exc), 1, fmt)
    names = names_mod.Names(mod_rs)
    cmp = paired.build(base, mod, paired.pairs_by_seed(base, mod), names, confidence, top)
    mod_names = ", ".join(names_mod.mod_name(m) for m in mods)
    head = (f"{base_rs.name} with {mod_names} against the base game: {cmp.pairs} paired "
            f"games ({games} seeds from {seed}, {players} players, agents "
            f"{', '.join(kinds)}) in {wall:.0f}s")
    for side, res in (("base", base), ("with the mods", mod)):
        if res.errors:
            cmp.notes.insert(0, f"{len(res.errors)} games {side} stopped on a rule error "
                                f"and are left out (first: seed {res.errors[0][1]}: "
                                f"{res.errors[0][2]})")
    from .who import show_who, who_played
    who = who_played(kinds, base_rs, "base game", base.evaluations) + \
        who_played(kinds, mod_rs, "with the mods", mod.evaluations)[1:]
    cmp.notes[:0] = who
    if not as_json:
        show_who(out, who)  # first: what the figures are about
        terminal.show(out, cmp.tables, cmp.notes)
        out.print()
        from rich.text import Text
        out.print(Text(visible(head), style="bold"))
        for line in cmp.verdicts:
            out.print(Text("  " + visible(line)))
    written = write_outputs(cmp.tables, cmp.plots, cmp.notes, [head] + cmp.verdicts, html,
                            png, page_title("Compare", f"{base_rs.name} with {mod_names}",
                                                  list(base.pg_agent) + list(mod.pg_agent)),
                            confidence,
                            card_links(gallery, names, mods))
    written += [str(path) for given, path in ((out_base, paths[0]), (out_mod, paths[1]))
                if given]
    for w in written:
        out.print(visible(f"wrote {w}"), markup=False)
    if as_json:
        from . import document
        from ..safe_text import json_text
        click.echo(json_text(document.compare(head, cmp.pairs, confidence, cmp.tables,
                                              cmp.verdicts, cmp.notes, written), indent=2))
    return 0
