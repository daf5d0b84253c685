"""Starting, running, saving, resuming and replaying games.

``build_game`` seats the agents (answering from a record's decisions first
when a game is resumed), ``run`` plays to the end and turns rule failures
into positioned errors, ``make_record`` and ``load_for_record`` go between a
game and its record, and ``replay`` plays a record again and says whether
its final state hash matches, differs, or cannot be checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import RulebookError
from ..lang.runtime import RequirementFailed, RuleRuntimeError
from ..load.ruleset import RULESET_FILE, Ruleset, load_ruleset, shipped_rulesets_dir
from ..span import Span
from ..load.tree import OutsideTree, resolve_in, tree_of
from ..agents.base import Agent, ScriptedAgent, ScriptExhausted
from ..agents.registry import agent_seed, make_agent
from ..engine.decisions import ActionRefused, IllegalAnswer
from ..engine.flow import FlowRunner, Result
from ..engine.game import Game
from ..engine.invariants import InvariantError
from .record import FORMAT, OLD_FORMAT, Record, RecordError, shown
from ..engine.refusals import Refusals
from .terminal import HumanAgent

# the agents a person's session may seat beyond the built-in ones: a person
PEOPLE = {"human": HumanAgent}


class SaveRequested(Exception):
    """A person asked to stop and save at a decision."""


class GameError(Exception):
    """A game could not go on: a rule failed at run time, or an answer was illegal."""

    def __init__(self, message: str, span: Span | None = None,
                 decision_index: int | None = None):
        super().__init__(f"{span}: {message}" if span else message)
        self.message = message
        self.span = span
        self.decision_index = decision_index  # which answer of a record was refused


class RecordEnded(GameError):
    """The record's answers ran out before the game reached its end."""


class SeatAgent(Agent):
    """Answers from a shared script first, then from this seat's live agent.

    When the script runs out, a live agent with a ``resumed(game, seen)`` method
    is told how much of the log there was when this seat last answered from the
    script (0 if it never did): a person's first news is then what happened
    since their last own decision, as in a game played live, not the whole
    replayed game."""

    def __init__(self, script: ScriptedAgent, live: Agent):
        self.script = script
        self.live = live
        self.name = live.name
        self.seen = 0  # the log's length at this seat's last answer from the script
        self.caught_up = False

    @property
    def scripted(self):
        return self.script.position < len(self.script.answers)

    @property
    def searches_rules(self) -> bool:
        """Whether the live agent searches the choices the flow's rules ask (the game then
        keeps where such a rule started)."""
        return getattr(self.live, "searches_rules", False)

    def _catch_up(self, game) -> None:
        if not self.caught_up:
            self.caught_up = True
            told = getattr(self.live, "resumed", None)
            if told is not None:
                told(game, self.seen)

    def decide(self, decision, view, game):
        if self.script.position < len(self.script.answers):
            self.seen = len(game.log_lines)
            return self.script.decide(decision, view, game)
        self._catch_up(game)
        return self.live.decide(decision, view, game)

    def refused(self, decision, reason):
        self.live.refused(decision, reason)

    def action_failed(self, label, reason):
        if self.script.position >= len(self.script.answers):
            self.live.action_failed(label, reason)

    def taken(self, decision, game):
        if self.script.position < len(self.script.answers):  # (not told while replaying)
            self.seen = len(game.log_lines)  # (told live, it shows the news so far)
        else:
            self._catch_up(game)
            told = getattr(self.live, "taken", None)
            if told is not None:
                told(decision, game)


@dataclass
class Played:
    game: Game
    result: Result | None  # None when the record stops before the game's end
    record: Record


def validate_players(rs: Ruleset, players: int) -> None:
    if not rs.min_players <= players <= rs.max_players:
        raise GameError(f"{rs.name} is for {rs.players_words}, "
                        f"not {players}")


def build_game(rs: Ruleset, players: int, seed: int, agent_kinds: list[str],
               variants: tuple[str, ...] = (), prefix: list[int] | None = None,
               live_agents: list[Agent] | None = None, remember: bool = True) -> Game:
    """A game to play: the agents seated, answering from ``prefix`` first (a resumed
    record's answers). ``remember`` False plays it as a record of format 1 was made,
    asking again what was refused (see :class:`~.refusals.Refusals`)."""
    validate_players(rs, players)
    known = set(rs.sections["variants"])
    for v in variants:
        if v not in known:
            from ..errors import suggest
            hint = suggest(v, known)
            raise GameError(f"unknown variant '{v}'" + (f"; {hint}" if hint else "") +
                            (f" (variants: {', '.join(sorted(known))})" if known else
                             " (this ruleset has no variants)"))
    agents = live_agents or [make_agent(kind, agent_seed(seed, seat), PEOPLE)
                             for seat, kind in enumerate(agent_kinds)]
    if prefix:
        script = ScriptedAgent(list(prefix))
        agents = [SeatAgent(script, a) for a in agents]
    names = [f"Player {i + 1} ({kind})" for i, kind in enumerate(agent_kinds)]
    game = new_game(rs, players, seed, agents, tuple(variants), names)
    if not remember:
        game.refusals = Refusals(remember=False)
    return game


def new_game(rs: Ruleset, players: int, seed: int, agents: list, variants: tuple[str, ...],
             names: list[str]) -> Game:
    """Set up a game; a rule that fails while setting it up is a positioned GameError."""
    try:
        return Game(rs, players, seed, agents, variants, names)
    except RuleRuntimeError as exc:
        raise GameError(exc.message, exc.span) from None
    except RequirementFailed as exc:
        raise GameError(f"a requirement failed while setting up: {exc.message}",
                        exc.span) from None
    except RecursionError:
        raise GameError("rules nested too deeply while setting up") from None


def run(game: Game, check: bool | str = False, save_to: str | None = None,
        record: Record | None = None) -> Result:
    """Play the game to the end; rule failures become a positioned GameError.

    ``check`` checks the invariants: "action" (or True) after every action and
    fully at the end of the game, "decision" before every decision as well."""
    if check:
        _install_checks(game, "decision" if check == "decision" else "action")
    try:
        return FlowRunner(game).play()
    except RuleRuntimeError as exc:
        raise GameError(exc.message, exc.span) from None
    except RequirementFailed as exc:
        raise GameError(f"a requirement failed outside any action: {exc.message}",
                        exc.span) from None
    except ActionRefused as exc:
        raise GameError(f"the game cannot go on: {exc.reason}") from None
    except IllegalAnswer as exc:
        raise GameError(f"decision {len(game.record) + 1} of the record is refused: "
                        f"{exc.reason} ({exc.decision.prompt})",
                        decision_index=len(game.record)) from None
    except ScriptExhausted as exc:
        raise RecordEnded(f"the record ends before the game does (next: "
                          f"{exc.decision.prompt})") from None
    except InvariantError as exc:
        raise GameError(f"invariant broken: {exc}") from None
    except RecursionError:
        raise GameError("rules nested too deeply while running") from None


def _install_checks(game: Game, mode: str = "action") -> None:
    game.check_actions = True
    game.check_invariants = mode == "decision"


def make_record(game: Game, rs: Ruleset, agent_kinds: list[str], result: Result | None,
                mods: list[str]) -> Record:
    return Record(rs.id, rs.version, rs.content_hash, game.n, game.seed, list(agent_kinds),
                  list(game.record), list(mods), sorted(game.variants),
                  result.final_hash if result else None, result.scores if result else None,
                  FORMAT if game.refusals.remember else OLD_FORMAT)


def record_mods(rec: Record, path: str) -> list[str]:
    """The record's mods as files to load: each inside the record's folder.

    A record names its mods relative to its own folder (``Record.save``
    writes them so). A record is untrusted, so a mod that is absolute, climbs
    out with '..' or is a link leading out is refused at its place in the
    record, before anything out there is opened.
    """
    folder = Path(path).parent
    out = []
    for i, name in enumerate(rec.mods):
        try:
            out.append(str(resolve_in(folder, tree_of(folder), name, "the mod",
                                      "the record's folder")))
        except OutsideTree as exc:
            raise rec.error("mods", f"{exc.message}; keep a record's mods in its folder, or "
                            "give them again with --mod", i) from None
    return out


def load_for_record(rec: Record, path: str, ruleset_path: str | None = None,
                    mods: list[str] | None = None) -> Ruleset:
    """The ruleset a record was made with, checked against every field of the record.

    Without ``ruleset_path`` the record's ruleset must be a shipped one: a
    record never chooses a folder to load rules from. Without ``mods`` (files
    a person names, used as given) the record's own mods are loaded, from
    inside its folder only (:func:`record_mods`). Afterwards ``rec.mods``
    holds the files used, so a record saved from it names them again.
    """
    location = ruleset_path
    if location is None:
        shipped = shipped_rulesets_dir() / rec.ruleset / RULESET_FILE
        if not shipped.is_file():
            raise rec.error("ruleset", f"'{rec.ruleset}' is not a shipped ruleset; say where "
                            "it is (rulebook replay RECORD --ruleset DIR)")
        location = str(shipped.parent)
    mods = list(mods) if mods is not None else record_mods(rec, path)
    rec.mods = mods
    try:
        rs = load_ruleset(location, mods)
    except RulebookError as exc:
        raise rec.error("mods" if mods else "ruleset", "the record's ruleset does not load: "
                        + exc.diagnostics[0].headline()) from None
    if rs.id != rec.ruleset:
        raise rec.error("ruleset", f"this record is for '{rec.ruleset}', not '{rs.id}'")
    if rs.content_hash != rec.content_hash:
        raise rec.error("content_hash", f"this record was made with another version of "
                        f"'{rec.ruleset}' (record {shown(rec.version)} "
                        f"#{rec.content_hash[:10]}, here {rs.version} #{rs.content_hash[:10]}); "
                        "replaying it could give a different game, so it is refused")
    if not rs.min_players <= rec.players <= rs.max_players:
        raise rec.error("players", f"{rs.name} is for {rs.players_words}, "
                        f"not {rec.players}")
    known = set(rs.sections["variants"])
    for i, name in enumerate(rec.variants):
        if name not in known:
            raise rec.error("variants", f"{rs.name} has no variant '{name}'"
                            + (f" (variants: {', '.join(sorted(known))})" if known else ""), i)
    return rs


def place_in_record(exc: GameError, rec: Record) -> GameError:
    """Point a refused answer of a record at that answer in the record file."""
    if exc.span is None and exc.decision_index is not None:
        placed = rec.error("decisions", "", exc.decision_index)
        exc.span = Span(placed.path, placed.line, placed.col)
    return exc


class DecisionOutOfRange(Exception):
    """A decision number that the record does not have."""

    def __init__(self, number: int, count: int):
        super().__init__(f"decision {number} is not in the record: "
                         + (f"it has decisions 1 to {count}" if count else
                            "it has no decisions"))
        self.count = count


def replay(path: str, ruleset_path: str | None = None, listener=None, watch=None,
           at: int | None = None) -> tuple[Played, bool | None]:
    """Replay a record: True if its final hash matches, False if not, None if it has none.

    ``watch(number, decision, game, answer)`` sees each decision before it is
    carried out (:class:`~.transcript.WatchedScript`); ``at``, when given, must
    be the number of one of the record's decisions (else DecisionOutOfRange).
    """
    rec = Record.load(path)
    rs = load_for_record(rec, path, ruleset_path)
    if at is not None and not 1 <= at <= len(rec.decisions):
        raise DecisionOutOfRange(at, len(rec.decisions))
    if watch is not None:
        from .transcript import WatchedScript
        script = WatchedScript(list(rec.decisions), watch)
    else:
        script = ScriptedAgent(list(rec.decisions))
    game = new_game(rs, rec.players, rec.seed, [script] * rec.players, tuple(rec.variants),
                    [f"Player {i + 1} ({k})" for i, k in enumerate(rec.agents)])
    if not rec.remembers_refusals:
        game.refusals = Refusals(remember=False)  # made before refusals were remembered
    if listener:
        game.listeners.append(listener)
        if hasattr(listener, "seated"):  # (one that reads the game too: its names)
            listener.seated(game)
    try:
        result = run(game)
    except RecordEnded as exc:
        if rec.final_hash is None:  # a game saved before its end
            return Played(game, None, rec), None
        exc.span = _span(rec.error("decisions", ""))
        raise
    except GameError as exc:
        raise place_in_record(exc, rec)
    if script.position != len(rec.decisions):
        raise GameError(f"the game ended after {script.position} decisions but the record "
                        f"has {len(rec.decisions)}",
                        _span(rec.error("decisions", "", script.position)))
    if rec.final_hash is None:
        return Played(game, result, rec), None
    return Played(game, result, rec), rec.final_hash == result.final_hash


def _span(err: RecordError) -> Span:
    return Span(err.path, err.line, err.col)
