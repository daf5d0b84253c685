"""The run behind ``rulebook simulate``: games streamed to a results file, resumed, stopped.

Each finished game is counted in the summary (:class:`~rulebook_games.sim.stats.Tally`,
so nothing grows with the number of games) and, with ``--out``, written to the
file as one line and flushed at once, so a run stopped at any moment keeps
every game it finished, in seed order. ``--resume FILE`` checks that the file
was made with this run's configuration, skips the seeds it holds, cuts off a
last line left half written, and appends the rest; the summary then covers
the whole file. Ctrl-C stops the workers, prints the summary of the games
finished and the command that carries on, and exits with 130.
"""

from __future__ import annotations

import json
import shlex
import signal
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field

import click

from .batches import BackendProblem
from .resume import ResumeProblem, reopen
from .stats import Tally
from ..outfiles import Replace, open_lines, same_file, write_failed
from ..safe_text import json_text, visible

INTERRUPTED = 130


# --out never replaces a file that holds something: the games of an earlier run are
# carried on with --resume, and any other file is the user's
RESULTS = Replace(None, None, "give another path, carry on the games it holds with "
                              "--resume, or remove it first")


class SimulateProblem(Exception):
    """The run cannot start as asked (the command turns it into a usage error)."""


class Unavailable(click.ClickException):
    """Where the games were to run cannot take them (Ray missing or unreachable): one line."""

    exit_code = 2


@dataclass
class Run:
    """A simulate command as given, enough to say it again with ``--resume``."""

    ruleset: str
    games: int
    players: int
    agent_spec: str
    variants: list[str]
    mods: list[str]
    seed: int
    workers: int
    checks: str | None  # "--no-check", "--check-every-decision" or None
    backend: str
    address: str | None
    out: str | None
    resume: str | None
    errors: list = field(default_factory=list)  # (seed, message) of the first five errors
    records: str | None = None  # --records DIR: each game's record kept there
    kept: int = 0  # records written by this run
    fmt: str = "text"  # --format: "json" prints one document on stdout, the rest on stderr

    @property
    def target(self) -> str | None:
        return self.resume or self.out

    def again(self) -> str:
        """The command that carries this run on."""
        words = ["rulebook", "simulate", self.ruleset, "-n", str(self.games), "-p",
                 str(self.players), "--agents", self.agent_spec, "--seed", str(self.seed)]
        for v in self.variants:
            words += ["--variant", v]
        for m in self.mods:
            words += ["--mod", m]
        if self.workers != 1:
            words += ["--workers", str(self.workers)]
        if self.checks:
            words.append(self.checks)
        if self.backend != "local":
            words += ["--backend", self.backend]
        if self.address:
            words += ["--address", self.address]
        if self.records:
            words += ["--records", self.records]
        words += ["--resume", self.target]
        return " ".join(shlex.quote(w) for w in words)


def open_results(run: Run, context: dict, agents: list[str], tally: Tally):
    """The file to append to (or None), the seeds it holds, and a note for people."""
    if run.resume is None:
        if not run.out:
            return None, set(), None
        # refused (OutputProblem) if it cannot be written or holds something already
        return open_lines(run.out, "--out", RESULTS), set(), None
    if run.out and not same_file(run.out, run.resume):
        raise SimulateProblem("--resume appends to the file it names; leave out --out, or "
                              "give the same file to both")
    shown = visible(run.resume)

    def count(line):
        tally.add(line, fresh=False)
        _note_error(run, line.get("seed"), line.get("error"))
    try:
        return reopen(run.resume, shown, context, agents, count)
    except ResumeProblem as exc:
        raise SimulateProblem(f"--resume {exc}") from None


def _note_error(run: Run, seed, error) -> None:
    if error and len(run.errors) < 5:
        run.errors.append((seed, error))


@contextmanager
def _whole():
    """Ctrl-C waits until the block is done (where the system lets a signal wait)."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:
        yield
        return
    block(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        block(signal.SIG_UNBLOCK, {signal.SIGINT})


def simulate_run(run: Run, title: str, line_of: Callable, games: Callable, context: dict,
                 agents: list[str], keep: Callable | None = None) -> int:
    """Play the run, write and summarise it; the exit code.

    ``games(skip_seeds, progress)`` yields the summaries of the games to play;
    ``line_of(summary)`` is a summary's line of the results file; ``keep(summary)``
    (with ``--records``) writes the game's record and gives its file name, which
    the line names as ``record``.
    """
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import Progress
    tally = Tally(run.players)
    fh, done, note = open_results(run, context, agents, tally)
    as_json = run.fmt == "json"
    # with --format json, stdout holds the document alone: the rest goes to stderr
    console = Console(highlight=False, emoji=False, stderr=as_json)
    if note:
        click.echo(note, err=as_json)
    wanted = range(run.seed, run.seed + run.games)
    already = sum(1 for s in done if s in wanted)
    if already:
        click.echo(f"{visible(run.resume)}: {already} of the {run.games} games are done; "
                   f"playing the other {run.games - already}", err=as_json)
    start = time.perf_counter()
    stopped = problem = failed = None
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(escape(visible(f"{title}: {run.games} games")),
                                     total=run.games, completed=already)
            stream = games(done, lambda: progress.advance(task))
            try:
                for summary in stream:
                    with _whole():  # a game is written and counted, or neither
                        # its record first: a line never names a record that is not there
                        name = keep(summary) if keep else None
                        run.kept += name is not None
                        if fh:
                            line = line_of(summary)
                            if name:
                                line["record"] = name
                            fh.write(json.dumps(line) + "\n")
                            fh.flush()  # a stopped run keeps every game it finished
                        tally.add(summary)
                        _note_error(run, summary.seed, summary.error)
            except KeyboardInterrupt:
                stopped = "stopped by Ctrl-C"
            except BackendProblem as exc:
                problem = str(exc)
            except OSError as exc:  # the results file could not be written (disk full…)
                failed = write_failed(run.target, "--resume" if run.resume else "--out", exc)
                problem = failed.message
            finally:
                if stopped:
                    signal.signal(signal.SIGINT, signal.SIG_IGN)  # let the stop finish
                stream.close()  # ends the workers and whatever they still had
    finally:
        if fh:
            try:
                fh.close()
            except OSError as exc:  # what a failed write left in the buffer, or a last flush
                if failed is None:
                    failed = write_failed(run.target, "--resume" if run.resume else "--out",
                                          exc)
                    problem = problem or failed.message
    elapsed = time.perf_counter() - start
    if failed and not tally.fresh and not already:
        raise failed  # one line naming the file, exit 1
    if problem and not tally.fresh and not already:
        raise Unavailable(problem)
    if as_json:
        code = (INTERRUPTED if stopped else 1) if stopped or problem else \
            (1 if run.errors else 0)
        click.echo(json_text(_document(run, title, context, tally, elapsed, stopped, problem,
                                       code), indent=2))
    else:
        for table in tally.tables(elapsed):
            console.print(table)
    for seed, error in run.errors:
        if not as_json:
            console.print(f"seed {seed}: {visible(error)}", style="red", markup=False)
    if run.records:
        console.print(visible(f"{run.kept} game records kept in {run.records} (rulebook replay "
                              f"FILE, or rulebook serve --records {run.records})"),
                      markup=False)
    if stopped or problem:
        # plain echo, not the console: a command to copy must not be wrapped
        finished = already + tally.fresh
        why = stopped or visible(f"error: {problem}")
        if run.target:
            click.echo(f"{why} after {finished} of {run.games} games; the finished games "
                       f"are in {visible(run.target)}; carry on with: {run.again()}", err=True)
        else:
            click.echo(f"{why} after {finished} of {run.games} games (none kept: give "
                       "--out FILE to keep finished games and carry on later)", err=True)
        return INTERRUPTED if stopped else 1
    return 1 if run.errors else 0


def _document(run: Run, title: str, context: dict, tally: Tally, elapsed: float,
              stopped, problem, code: int) -> dict:
    """``simulate --format json``: what was played and its summary (docs/formats.md)."""
    rs = context.get("ruleset") or {}
    return {"ruleset": {k: rs.get(k) for k in ("id", "name", "version", "content_hash")},
            "mods": context.get("mods") or [], "variants": context.get("variants") or [],
            "players": run.players, "agent_spec": run.agent_spec,
            "evaluations": context.get("evaluations"), "seed": run.seed,
            "games_asked": run.games, "out": run.target, "records": run.records,
            "summary": tally.document(elapsed),
            "first_errors": [{"seed": seed, "error": error} for seed, error in run.errors],
            "stopped": stopped or (f"error: {problem}" if problem else None),
            "exit_code": code}
