"""Every game finishes: each shipped ruleset, at each player count and with each variant,
played to its end by the `first` agent (always the first answer) and the `last` agent
(always the last one).

Such agents answer the same way at the same position, so a rule that lets the
game offer again what it has just refused traps them for ever (issue 24, item
12: Terraforming Mars looped 50,000 steps on a card whose payment was asked,
refused, then offered again). Every game must reach the final scoring with a
result, never an error, within a generous cap on steps (answers given and
actions refused), and its record must replay to the same final state (the game is
played with the invariant checks simulations make, and replayed without them: the
work checks do must not change what the game refuses).
"""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent, ScriptedAgent, agent_seed, make_agent
from rulebook_games.play.session import GameError, build_game, new_game, run
from rulebook_games.load.ruleset import shipped_rulesets_dir

RULESETS = sorted(p.parent.name for p in shipped_rulesets_dir().glob("*/ruleset.yaml"))
CAP = 20_000  # steps per game; the longest of these games takes under 2,000


class Stuck(Exception):
    """The game went past the cap on steps."""


class Capped(Agent):
    """A seat's agent, counting the steps of the whole game (shared by all seats)."""

    def __init__(self, inner: Agent, steps: list):
        self.inner = inner
        self.name = inner.name
        self.wants_view = getattr(inner, "wants_view", True)
        self.steps = steps

    def _step(self, game) -> None:
        self.steps[0] += 1
        if self.steps[0] > CAP:
            raise Stuck(f"{self.steps[0]} steps at round {game.state.round}")

    def decide(self, decision, view, game):
        self._step(game)
        return self.inner.decide(decision, view, game)

    def action_failed(self, label, reason):
        self.steps[0] += 1
        self.inner.action_failed(label, reason)


def setups(rs):
    """(players, variants) for every player count, without variants and with each one."""
    variants = [()] + [(v,) for v in rs.sections["variants"]]
    return [(n, v) for n in range(rs.min_players, rs.max_players + 1) for v in variants]


@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS)
def test_every_game_reaches_its_end(name):
    rs = load_ruleset(str(shipped_rulesets_dir() / name))
    rounds = rs.singles["rounds"].data if "rounds" in rs.singles else {}
    cap = rounds.get("max")
    problems = []
    played = 0
    for players, variants in setups(rs):
        for kind in ("first", "last"):
            steps = [0]
            seats = [Capped(make_agent(kind, agent_seed(1, s)), steps) for s in range(players)]
            where = f"{name}, {players} player(s), variants {list(variants)}, agent {kind}"
            game = build_game(rs, players, 1, [kind] * players, variants, live_agents=seats)
            game.keep_log = False
            try:
                result = run(game, check=True)  # (checks do work; replays do not)
            except (GameError, Stuck) as exc:
                problems.append(f"{where}: {type(exc).__name__}: {exc}")
                continue
            played += 1
            # the game's own end, or the ruleset's cap on rounds (a game that stops there
            # unfinished is the ruleset's answer, e.g. Mars not terraformed by agents
            # that always pass)
            if not (result.finished or cap is not None and result.rounds == cap):
                problems.append(f"{where}: stopped at round {result.rounds} unfinished")
            again = new_game(rs, players, 1, [ScriptedAgent(list(game.record))] * players,
                             variants, [f"P{s}" for s in range(players)])
            again.keep_log = False
            if run(again).final_hash != result.final_hash:
                problems.append(f"{where}: the record does not replay to the same state")
    assert not problems, "\n".join(problems)
    assert played == 2 * len(setups(rs))
