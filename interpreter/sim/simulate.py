"""Many games at once: seeds in, results out, the same whatever the worker count.

Each game's seed is ``base_seed + index``, and results are put back in seed
order, so ``--workers 1`` and ``--workers 8`` give identical output. The
ruleset is loaded and compiled once, in this process (or taken as the caller
loaded it); local workers are forked from it where the platform allows, so
they start playing at once with this process's own compiled rules. Anywhere
else (other platforms, Ray) each worker loads the ruleset from its source
itself (never pickled closures: rule code is only ever made by the process
that runs it).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..load.ruleset import load_ruleset

_RULESET = None
_LOADED = None  # (path, mods) of the ruleset this run's caller loaded and handed over


@dataclass
class GameSummary:
    seed: int
    agents: list[str]
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    rounds: int = 0
    decisions: int = 0
    final_hash: str = ""
    error: str | None = None
    solo_won: bool | None = None
    ranks: list = field(default_factory=list)
    finished: bool = True
    # per seat (see engine/results.py): points by scoring entry, the cards that
    # entered play and came into hand, the actions taken, the declared features
    score_parts: list = field(default_factory=list)
    played: list = field(default_factory=list)
    gained: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    card_actions: list = field(default_factory=list)
    features: list = field(default_factory=list)
    # with --records: what the game's record needs beyond what the run knows (the answers,
    # and whether refusals were remembered); never part of the results line
    record: dict | None = None

    def to_dict(self) -> dict:
        """One JSON line of ``simulate --out``: seats are numbered from 1, as on screen.

        ``scores``, ``agents`` and ``ranks`` list the seats in order (seat 1 first);
        ``winners`` names seats by number.
        """
        out = asdict(self)
        out.pop("record")
        out["winners"] = [seat + 1 for seat in self.winners]
        return out


def _init(path: str, mods: list[str]) -> None:
    """Load the ruleset of ``path`` with ``mods`` (unless this run's caller handed it over)."""
    global _RULESET
    if _LOADED is None or _LOADED != (path, list(mods)):
        _RULESET = load_ruleset(path, mods)


def _share(path: str, mods: list[str]) -> None:
    """Load the ruleset and compile every rule now, before workers are forked from this
    process: none of them loads or compiles anything itself."""
    from ..lang.compiler import compile_whole
    _init(path, mods)
    compile_whole(_RULESET)


def play_one(args) -> GameSummary:
    """One game; ``args`` is (seed, players, agents, variants, check[, keep the record])."""
    seed, players, agents, variants, check = args[:5]
    keep = len(args) > 5 and args[5]
    summary = _play_one(seed, players, agents, variants, check)
    game = summary.record
    summary.record = None
    if keep and game is not None:  # the answers: the run writes the record from them
        summary.record = {"decisions": list(game.record), "remember": game.refusals.remember}
    return summary


def _play_one(seed, players, agents, variants, check) -> GameSummary:
    """The game's summary, its ``record`` field holding the game itself for a moment."""
    from ..lang.runtime import RuleRuntimeError
    from .results import game_facts
    from ..play.session import GameError, build_game, run
    try:
        game = build_game(_RULESET, players, seed, agents, tuple(variants))
    except GameError as exc:
        return GameSummary(seed, agents, error=str(exc))
    game.keep_log = False  # nobody reads a simulated game's log
    try:
        result = run(game, check=check)
    except GameError as exc:
        return GameSummary(seed, agents, error=str(exc), decisions=len(game.record),
                           record=game)
    try:
        facts = game_facts(game, result)
    except RuleRuntimeError as exc:
        return GameSummary(seed, agents, result.scores, result.winners, result.rounds,
                           result.decisions, result.final_hash,
                           f"a feature could not be worked out: {exc.message}",
                           result.solo_won, result.ranks, result.finished, record=game)
    return GameSummary(seed, agents, result.scores, result.winners, result.rounds,
                       result.decisions, result.final_hash, None, result.solo_won, result.ranks,
                       result.finished, **facts, record=game)


def simulate(path: str, mods: list[str], games: int, players: int, agents: list[str],
             variants: list[str], seed: int = 1, workers: int = 1, check: bool = True,
             progress=None, *, backend: str = "local", address: str | None = None,
             skip_seeds=(), keep_records: bool = False, loaded=None):
    """Yield GameSummary objects in seed order, for the seeds not in ``skip_seeds``.

    With ``keep_records`` each summary's ``record`` holds what the game's record
    needs beyond the run's configuration (:mod:`.records` writes it).

    ``backend`` is ``local`` (``workers`` processes, or this one for 1) or
    ``ray`` (``address`` None starts Ray here; ``auto`` or ``HOST:PORT`` joins a
    cluster); see :mod:`rulebook_games.sim.backends`. ``progress`` is called once
    per finished game. ``loaded`` is the ruleset as the caller loaded it from
    ``path`` and ``mods`` in this process: it is played as it is, not loaded again.
    """
    from .backends import run
    global _RULESET, _LOADED
    _RULESET, _LOADED = (loaded, (path, list(mods))) if loaded is not None else (None, None)
    skip = set(skip_seeds)
    seeds = range(seed, seed + games)
    todo = games - sum(1 for s in skip if s in seeds)
    jobs = ((s, players, agents, variants, check, keep_records) for s in seeds
            if s not in skip)
    yield from run(path, mods, jobs, todo, workers, _init, play_one, _rebuild, progress,
                   backend, address, share=_share)


def _rebuild(fields: dict) -> GameSummary:
    """A summary again from the plain fields a remote worker sends back."""
    return GameSummary(**fields)
