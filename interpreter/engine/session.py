"""Starting, running, saving, resuming and replaying games."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RulebookError
from ..lang.runtime import RequirementFailed, RuleRuntimeError
from ..ruleset import Ruleset, load_ruleset
from ..span import Span
from .agents import Agent, ScriptedAgent, ScriptExhausted, agent_seed, make_agent
from .decisions import ActionRefused, IllegalAnswer
from .flow import FlowRunner, Result
from .game import Game
from .invariants import InvariantError
from .record import Record, RecordError


class SaveRequested(Exception):
    """A person asked to stop and save at a decision."""


class GameError(Exception):
    """A game could not go on: a rule failed at run time, or an answer was illegal."""

    def __init__(self, message: str, span: Span | None = None):
        super().__init__(f"{span}: {message}" if span else message)
        self.message = message
        self.span = span


class SeatAgent(Agent):
    """Answers from a shared script first, then from this seat's live agent."""

    def __init__(self, script: ScriptedAgent, live: Agent):
        self.script = script
        self.live = live
        self.name = live.name

    @property
    def scripted(self):
        return self.script.position < len(self.script.answers)

    def decide(self, decision, view, game):
        if self.script.position < len(self.script.answers):
            return self.script.decide(decision, view, game)
        return self.live.decide(decision, view, game)

    def refused(self, decision, reason):
        self.live.refused(decision, reason)

    def action_failed(self, label, reason):
        if self.script.position >= len(self.script.answers):
            self.live.action_failed(label, reason)


@dataclass
class Played:
    game: Game
    result: Result
    record: Record


def validate_players(rs: Ruleset, players: int) -> None:
    if not rs.min_players <= players <= rs.max_players:
        raise GameError(f"{rs.name} is for {rs.min_players}–{rs.max_players} players, "
                        f"not {players}")


def build_game(rs: Ruleset, players: int, seed: int, agent_kinds: list[str],
               variants: tuple[str, ...] = (), prefix: list[int] | None = None,
               live_agents: list[Agent] | None = None) -> Game:
    validate_players(rs, players)
    known = set(rs.sections["variants"])
    for v in variants:
        if v not in known:
            from ..errors import suggest
            hint = suggest(v, known)
            raise GameError(f"unknown variant '{v}'" + (f"; {hint}" if hint else "") +
                            (f" (variants: {', '.join(sorted(known))})" if known else
                             " (this ruleset has no variants)"))
    agents = live_agents or [make_agent(kind, agent_seed(seed, seat))
                             for seat, kind in enumerate(agent_kinds)]
    if prefix:
        script = ScriptedAgent(list(prefix))
        agents = [SeatAgent(script, a) for a in agents]
    names = [f"Player {i + 1} ({kind})" for i, kind in enumerate(agent_kinds)]
    return Game(rs, players, seed, agents, tuple(variants), names)


def run(game: Game, check: bool = False, save_to: str | None = None,
        record: Record | None = None) -> Result:
    """Play the game to the end; rule failures become a positioned GameError."""
    if check:
        _install_checks(game)
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
                        f"{exc.reason} ({exc.decision.prompt})") from None
    except ScriptExhausted as exc:
        raise GameError(f"the record ends before the game does (next: "
                        f"{exc.decision.prompt})") from None
    except InvariantError as exc:
        raise GameError(f"invariant broken: {exc}") from None
    except RecursionError:
        raise GameError("rules nested too deeply while running") from None


def _install_checks(game: Game) -> None:
    game.check_invariants = True


def make_record(game: Game, rs: Ruleset, agent_kinds: list[str], result: Result | None,
                mods: list[str]) -> Record:
    return Record(rs.id, rs.version, rs.content_hash, game.n, game.seed, list(agent_kinds),
                  list(game.record), list(mods), sorted(game.variants),
                  result.final_hash if result else None, result.scores if result else None)


def load_for_record(rec: Record, path: str, ruleset_path: str | None = None) -> Ruleset:
    try:
        rs = load_ruleset(ruleset_path or rec.ruleset, rec.mods)
    except RulebookError as exc:
        raise RecordError(path, "the record's ruleset does not load: "
                          + exc.diagnostics[0].headline()) from None
    if rs.id != rec.ruleset:
        raise RecordError(path, f"this record is for '{rec.ruleset}', not '{rs.id}'")
    if rs.content_hash != rec.content_hash:
        raise RecordError(path, f"this record was made with another version of "
                          f"'{rec.ruleset}' (record {rec.version} #{rec.content_hash[:10]}, "
                          f"here {rs.version} #{rs.content_hash[:10]}); replaying it could "
                          "give a different game, so it is refused")
    return rs


def replay(path: str, ruleset_path: str | None = None, listener=None) -> tuple[Played, bool]:
    rec = Record.load(path)
    rs = load_for_record(rec, path, ruleset_path)
    script = ScriptedAgent(list(rec.decisions))
    game = Game(rs, rec.players, rec.seed, [script] * rec.players, tuple(rec.variants),
                [f"Player {i + 1} ({k})" for i, k in enumerate(rec.agents)])
    if listener:
        game.listeners.append(listener)
    result = run(game)
    if script.position != len(rec.decisions):
        raise GameError(f"the game ended after {script.position} decisions but the record "
                        f"has {len(rec.decisions)}")
    same = rec.final_hash is None or rec.final_hash == result.final_hash
    return Played(game, result, rec), same
