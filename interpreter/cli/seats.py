"""Who sits at each seat: the ``--agents`` spec of a command, checked seat by seat.

Shared by ``play``, ``simulate`` and ``compare``. Imports ``options``; the
agent registry only inside a function, when a command checks its agents (a
Python agent's class is loaded then, never at ``--help``).
"""

from __future__ import annotations

from .options import UsageProblem


def ai_seats(rs, players: int | None, spec: str | None, command: str):
    """The player count (the ruleset's least by default) and the AI agent of each seat."""
    players = players or rs.min_players
    if not rs.min_players <= players <= rs.max_players:
        raise UsageProblem(f"{rs.name} is for {rs.players_words}")
    kinds = seat_agents(spec, players, False)
    if "human" in kinds:
        raise UsageProblem(f"{command} plays AI agents only; 'human' is for rulebook play")
    check_evaluation(rs, kinds, players)
    return players, kinds


def check_evaluation(rs, kinds, players: int | None = None) -> None:
    """The ruleset's learned evaluation read now, when an agent of ``kinds`` would use
    it: a file that cannot be used is printed with its place (exit 1) before any game
    starts, and what a person should know about it (a mod playing with the base's
    values, weights trained at another player count than ``players``) is printed as a
    note."""
    from ..agents.learned import uses_learned
    if not any(uses_learned(k) for k in kinds):
        return
    import sys

    import click

    from ..agents.learned import check_learned
    from ..errors import Diagnostics, RulebookError
    from ..safe_text import visible
    from . import diagnostics as report
    try:
        notes = check_learned(rs, players)
    except RulebookError as exc:
        click.echo(report.text(Diagnostics(exc.diagnostics).sorted(), sys.stdout.isatty()))
        sys.exit(1)
    for note in notes:
        click.echo(visible(f"note: {note}"), err=True)


# the agent a person plays against in `rulebook play` when --agents is not given: the
# strongest built-in one at its default budget (a decision in well under a second);
# simulate and compare, where speed matters, keep their own defaults
OPPONENT = "ismcts"


def seat_agents(spec: str | None, players: int, interactive: bool,
                opponent: str = "greedy") -> list[str]:
    """The agent spec of each seat, every one checked (a Python agent's class is loaded).
    Without ``spec``: a person at the first seat when ``interactive``, ``opponent`` at
    the others."""
    from ..agents.specs import SpecError, check
    if spec:
        kinds = [k.strip() for k in spec.split(",") if k.strip()]
        if len(kinds) == 1:
            kinds = kinds * players
        if len(kinds) != players:
            raise UsageProblem(f"--agents lists {len(kinds)} agents for {players} players")
    else:
        kinds = ["human" if interactive and seat == 0 else opponent for seat in range(players)]
    for k in dict.fromkeys(kinds):
        try:
            check(k)
        except SpecError as exc:
            raise UsageProblem(f"--agents: {exc}") from None
    return kinds
