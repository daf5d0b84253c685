"""A learning environment: any ruleset as a PettingZoo AEC environment (``rulebook-games[env]``).

:func:`rulebook_env` builds one. The game runs on the engine's own decisions,
one environment step per decision; the observation encoding is in
:mod:`.encoding`, the fixed action table in :mod:`.actions`, the mask's tries
of each answer on copies of the game in :mod:`.legal`, the engine's decisions are handed over one at a time by
the play room's :mod:`~rulebook_games.play.stream`, and the PettingZoo class
is in :mod:`.aec`. PettingZoo and NumPy are optional: they are imported only
when an environment is built, and a missing one is reported in one line that
names the extra to install.
A call the environment cannot answer in its state (a step before ``reset``,
after the game's end or after ``close``) raises :class:`EnvStateError`, whose
message says what to call first. Every argument of :func:`rulebook_env` is
checked before anything is built (:mod:`.arguments`): a TypeError or a
ValueError in one line naming the argument and what it may be. A decision
with more answers than the action space holds stops the game with
:class:`ActionSpaceTooSmall` (a ValueError) instead of leaving answers out.
"""

from __future__ import annotations

from .errors import ActionSpaceTooSmall, EnvStateError

HINT = "the learning environment needs PettingZoo and NumPy: pip install 'rulebook-games[env]'"


class MissingExtra(ImportError):
    """PettingZoo or NumPy is not installed (the message says how to install them)."""


def rulebook_env(ruleset, players: int = 2, seed: int = 1, variants=(), mods=(),
                 reward: str = "rank", max_options: int | None = None, render_mode=None,
                 actions: str = "fixed", opponents=None, max_cycles: int | None = 10_000,
                 normalise: bool = True, mask: str = "tried"):
    """A PettingZoo AEC environment playing ``ruleset`` (a name, a folder or a Ruleset).

    Agents are ``player_1`` … ``player_N``; each step answers one decision of
    the engine. ``reward`` is "rank" (+1 for the best, -1 for the last, in
    between by rank; solo: +1 for a win, -1 for a loss) or "score" (the seat's
    score less the others' average; solo: the score), given at the end of the
    game. ``seed`` is the first game's seed; each later reset without a seed
    plays the next one. ``actions`` is "fixed" (an id of the ruleset's action
    table, the same thing in every decision: ``env.action_names``) or "index"
    (the place in the decision's list, as before). ``max_options`` is the
    fixed table's overflow range (None: 64), or the index space's size (None:
    the ruleset's default); a decision with more answers than that raises
    :class:`ActionSpaceTooSmall` there. ``opponents`` gives seats to built-in
    agents (``{2: "greedy"}``: seats from 1), which the environment plays
    itself. ``max_cycles`` cuts a game after that many steps (None: never).
    ``normalise`` shows every number between -1 and 1 (False: raw counts).
    ``mask`` is "tried" (each answer tried on a copy of the game: the mask never
    marks one the game would refuse) or "listed" (what the rules list, faster).
    See docs/env.md for the observation and the actions.
    """
    import importlib
    try:
        for extra in ("numpy", "gymnasium", "pettingzoo"):
            importlib.import_module(extra)
    except ImportError:
        raise MissingExtra(HINT) from None
    from .aec import RulebookEnv
    return RulebookEnv(ruleset, players=players, seed=seed, variants=variants, mods=mods,
                       reward=reward, max_options=max_options, render_mode=render_mode,
                       actions=actions, opponents=opponents, max_cycles=max_cycles,
                       normalise=normalise, mask=mask)


__all__ = ["HINT", "ActionSpaceTooSmall", "EnvStateError", "MissingExtra", "rulebook_env"]
