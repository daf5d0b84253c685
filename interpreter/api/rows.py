"""Many games into rows: a dict per game, and a pandas DataFrame when pandas is there.

:func:`simulate` plays its games on the sim room's backends, as ``rulebook
simulate`` does (the ruleset's source goes to the worker processes, seeds
in order), and each row is the line ``simulate --out`` writes for that game
(docs/results.md). :func:`to_frame` puts rows in a DataFrame; pandas is not
a dependency of Rulebook, so it is imported only there, and its absence is
an ImportError of one line saying how to install it.
"""

from __future__ import annotations

from . import seats as S
from .rulesets import check_setup, ruleset_of

MOST_GAMES = 1_000_000  # as simulate -n
PANDAS_HINT = "rulebook_games.to_frame needs pandas, which is not installed: pip install pandas"


def simulate(ruleset, games: int = 100, players: int | None = None, seed: int = 1,
             variants=(), agents="random", workers: int = 1, check: bool = True,
             frame: bool = False):
    """Play ``games`` games between agents, seeds from ``seed``; a dict per game, in seed order.

    Each dict holds the fields of a ``simulate --out`` line. ``frame`` gives a
    pandas DataFrame instead (:func:`to_frame`)."""
    from ..agents.specs import SpecError, check as check_spec
    from ..sim.results import results_context
    from ..sim.simulate import simulate as run
    rs = ruleset_of(ruleset)
    for name, value, low, high in (("games", games, 1, MOST_GAMES),
                                   ("workers", workers, 1, 1024)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{name} is a whole number from {low} to {high:,}, "
                             f"not {value!r:.40}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed is a whole number, not {seed!r:.40}")
    if isinstance(variants, str):
        variants = [variants]
    if players is None:
        players = S.count(agents) or rs.min_players
    check_setup(rs, players, variants)
    kinds = []
    for seat, agent in enumerate(S.listed(agents, players)):
        if S.is_yours(agent):
            raise ValueError(f"agents: seat {seat + 1} is yours ({agent!r}): simulate plays "
                             "agents only")
        if not isinstance(agent, str):
            raise ValueError(f"agents: simulate's games run in other processes, which take "
                             f"agents by spec ('greedy', 'MODULE:CLASS'), not {agent!r:.40}")
        try:
            check_spec(agent)
        except SpecError as exc:
            raise ValueError(f"agents: {exc}") from None
        kinds.append(agent.strip())
    context = results_context(rs, variants, players, kinds=kinds)
    rows = [{**context, **summary.to_dict()}
            for summary in run(str(rs.root), list(rs.mods), games, players, kinds,
                               list(variants), seed, workers, "action" if check else False)]
    return to_frame(rows) if frame else rows


def to_frame(rows):
    """The rows as a pandas DataFrame: a row per game, a column per field."""
    try:
        import pandas
    except ImportError:
        raise ImportError(PANDAS_HINT) from None
    return pandas.DataFrame(list(rows))
