"""Game records at the command line: saving a game, saying how to resume it, a record's errors.

Shared by ``play`` and ``replay``. A game that stops before its end (Ctrl-C,
a closed terminal, 'save' at a prompt) is saved somewhere and the command
that carries it on is printed. Imports click and the base modules at the
top; the saves and the agent registry only inside functions.
"""

from __future__ import annotations

import os
import sys

import click

from ..safe_text import visible


def record_error(exc) -> None:
    """A record that cannot be used: its positioned error, exit 1."""
    click.echo(visible(f"{exc.path}:{exc.line}:{exc.col}: error: {exc.message}"))
    sys.exit(1)


def resume_hint(ruleset: str, path, agents: list[str] | None = None) -> str:
    """The command that carries a saved game on; with --agents when the record's own agents
    would not be seated again (one in Python, or a budget past what a record may ask)."""
    import shlex

    from ..agents.specs import record_problem
    command = f"rulebook play {shlex.quote(ruleset)} --resume {shlex.quote(str(path))}"
    if agents and any(record_problem(kind) for kind in agents):
        command += f" --agents {shlex.quote(','.join(agents))}"
    return command


def save_unfinished(rec, save_to, stem, ruleset, why, console) -> None:
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
        click.echo(f"resume with: {resume_hint(ruleset, path, rec.agents)}")
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


def save_finished(rec, save_to, stem, console) -> None:
    """Save a finished game's record, and say where it went."""
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
