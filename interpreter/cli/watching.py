"""``--watch`` of ``validate`` and ``test``: the command run again each time a rule file is saved.

The command runs once, then waits for a change to a YAML file of the
rulesets and mods it checks (their folders, walked below, hidden and tool
folders skipped) and runs again, until Ctrl-C, which stops watching cleanly
(exit 0, never a traceback, also in the middle of a run). A run that fails
(errors, a usage problem such as a folder left with nothing to check) is
reported and the watch goes on: the next save may fix it. Watching needs
the ``watch`` extra (watchfiles); without it the command says so in one
line, exit 2, before anything runs. Imports click and ``options``;
watchfiles only when a watch starts.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .options import Unavailable

MISSING = ("--watch needs the watchfiles package: pip install 'rulebook-games[watch]'")
RULE_FILES = (".yaml", ".yml")


def need_watchfiles() -> None:
    """Refuse ``--watch`` before anything runs when watchfiles is not installed."""
    try:
        import watchfiles  # noqa: F401
    except ImportError:
        raise Unavailable(MISSING) from None


def places(paths, mods=()) -> list[Path]:
    """The folders to watch for the PATHs (folders, rule files, shipped names) and mods: a
    folder itself; for a file, the ruleset folder it lies in (else its own folder); a
    shipped name's folder. A folder inside another one watched is left out."""
    from ..paths import RULESET_FILE, find_ruleset
    found: list[Path] = []
    for raw in [*paths, *mods]:
        p = Path(raw)
        if p.is_dir():
            found.append(p)
            continue
        if p.is_file():
            here = Path(os.path.abspath(p)).parent
            folder = next((d for d in [here, *here.parents] if (d / RULESET_FILE).is_file()),
                          here)
            found.append(folder)
            continue
        manifest = find_ruleset(raw)
        if manifest is not None:
            found.append(manifest.parent)
    out: list[Path] = []
    for folder in sorted({Path(os.path.abspath(f)) for f in found}, key=lambda f: len(f.parts)):
        if not any(folder == o or o in folder.parents for o in out):
            out.append(folder)
    return sorted(out)


def _rule_files(folders: list[Path]):
    """Which changes ask for a new run: a YAML file, not in a hidden or tool folder below
    the folder watched (an editor's swap and backup files are not YAML files)."""
    from watchfiles import DefaultFilter
    from ..load.walk import SKIPPED
    default = DefaultFilter()

    def wanted(change, path: str) -> bool:
        if not path.endswith(RULE_FILES) or not default(change, path):
            return False
        p = Path(path)
        for folder in folders:
            if folder in p.parents:
                below = p.relative_to(folder).parts[:-1]
                return not any(part.startswith(".") or part in SKIPPED for part in below)
        return False
    return wanted


def _shown(path: str) -> str:
    from ..safe_text import visible
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        rel = path
    return visible(path if rel.startswith("..") else rel)


def watchable(what: str, folders_of):
    """Give a command a ``--watch`` flag: its body runs again on each save of a rule file
    below ``folders_of(params)`` (see :func:`places`); ``what`` is what it does, a verb
    (``check``)."""
    import functools

    def wrap(command: click.Command) -> click.Command:
        command.params.append(click.Option(
            ["--watch"], is_flag=True,
            help=f"Stay running: {what} again each time a rule file of the rulesets and mods "
                 "is saved, until Ctrl-C (needs the watch extra: pip install "
                 "'rulebook-games[watch]')."))
        body = command.callback

        @functools.wraps(body)
        def callback(*args, watch=False, **params):
            if not watch:
                return body(*args, **params)
            need_watchfiles()
            run_watching(lambda: body(*args, **params), places(*folders_of(params)), what)
        command.callback = callback
        return command
    return wrap


def run_watching(run, folders: list[Path], what: str) -> None:
    """Run ``run`` (a command's body: it ends with ``sys.exit``) now and after each change
    to a rule file below ``folders``, until Ctrl-C; then exit 0."""
    import watchfiles
    try:
        _once(run, first=True)
        ready = False
        # an empty set every half second: the first says the watcher is in place
        for changes in watchfiles.watch(*folders, watch_filter=_rule_files(folders), rust_timeout=500,
                                        yield_on_timeout=True, raise_interrupt=True):
            if not ready:
                ready = True
                click.echo(f"watching {', '.join(_shown(str(f)) for f in folders)} for "
                           f"changes to rule files; {what}ing again on each save (Ctrl-C "
                           "stops)", err=True)
            if not changes:
                continue
            names = sorted({_shown(path) for _, path in changes})
            more = f" and {len(names) - 1} more" if len(names) > 1 else ""
            click.echo(f"\n{names[0]}{more} changed: {what}ing again", err=True)
            _once(run)
    except KeyboardInterrupt:
        pass
    click.echo("stopped watching", err=True)
    sys.exit(0)


def _once(run, first: bool = False) -> None:
    """One run; its exit code is the watch's to ignore. A usage problem of the first run
    stops the command as it would without --watch; a later one is shown, and the watch
    goes on."""
    try:
        run()
    except SystemExit:
        pass
    except click.ClickException as exc:
        if first:
            raise
        from ..safe_text import visible
        exc.message = visible(exc.message, multiline=True)
        exc.show()
