"""``rulebook replay``: a game played again from its record, its final state hash checked.

With ``--step`` the log is shown line by line (each move's lines folded as the
live news folds them), with ``--decisions`` every
decision as its player saw it, with ``--at N`` the deciding player's view at
decision N. Imports ``options``, ``loading`` and ``records`` at the top; the
sessions, the terminal seat and rich only inside the command.
"""

from __future__ import annotations

import sys

import click

from .loading import no_such_ruleset
from .options import NAME, UsablePath, UsageProblem, Whole
from .records import record_error, resume_hint
from ..paths import find_ruleset
from ..safe_text import visible


@click.command()
@click.argument("record", type=UsablePath(exists=True, dir_okay=False))
@click.option("--ruleset", "ruleset_path", type=NAME, default=None,
              help="Ruleset location if it is not a shipped one.")
@click.option("--step", is_flag=True, help="Show the game log line by line, each move folded as the news folds it; press Enter to go on.")
@click.option("--decisions", "show_decisions", is_flag=True,
              help="Print every decision as its player saw it, with the answer given.")
@click.option("--at", "at", type=Whole(), default=None, metavar="N",
              help="Print the deciding player's view at decision N, and stop.")
def replay(record, ruleset_path, step, show_decisions, at):
    """Replay a game from its record and check the final state hash."""
    from rich.console import Console

    from ..play.record import RecordError
    from ..play.render import score_table
    from ..play.session import DecisionOutOfRange, GameError, replay as do_replay
    console = Console(highlight=False, emoji=False)
    watch = _decision_watch(console, show_decisions, at) if show_decisions or at else None

    hinted = []

    def show(line):
        console.print(visible(line), markup=False)
        if step:
            if not hinted:
                hinted.append(True)
                console.print("(Enter shows the next line; Ctrl-D shows the rest)", markup=False,
                              style="dim")
            try:
                input()
            except EOFError:
                pass
    if ruleset_path is not None and find_ruleset(ruleset_path) is None:
        raise no_such_ruleset(ruleset_path)
    folded = _Folded(show) if step else None
    try:
        try:
            played, same = do_replay(record, ruleset_path, folded, watch, at)
        finally:
            if folded is not None:
                folded.flush()
    except _ShownAt:
        return
    except DecisionOutOfRange as exc:
        raise UsageProblem(f"--at {at}: {exc}") from None
    except RecordError as exc:
        record_error(exc)
    except GameError as exc:
        click.echo(visible(f"{exc.span or record}: error: {exc.message}"))
        sys.exit(1)
    if played.result is None:
        again = resume_hint(ruleset_path or played.record.ruleset, record, played.record.agents)
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


class _Folded:
    """The log, a move at a time, folded as the live news folds it (play/news.py:
    '−3 ore (now 1)', not a line per ore paid; playtest 32): each headline's lines are
    kept until the next headline, then shown summarised."""

    def __init__(self, show):
        self.show = show
        self.lines: list[str] = []
        self.words = None

    def seated(self, game) -> None:
        from ..play.news import NewsWords
        self.words = NewsWords.of(game)

    def __call__(self, line: str) -> None:
        if not line.startswith(" ") and self.lines:
            self.flush()
        self.lines.append(line)

    def flush(self) -> None:
        from ..play.news import news_lines, summarise
        lines, self.lines = self.lines, []
        if lines:
            for line in news_lines(summarise(lines, self.words)) if self.words else lines:
                self.show(line)


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
