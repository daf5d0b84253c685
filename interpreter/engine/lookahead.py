"""One-ply lookahead on a determinised copy of the game, for the greedy agent."""

from __future__ import annotations

import copy
import random

from ..lang.runtime import RequirementFailed, RuleRuntimeError
from .agents import RandomAgent
from .decisions import ActionRefused, Decision
from .game import NO_OWNER, Game

LOSS = -10 ** 9


def determinise(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of the game where every card this seat cannot see is reshuffled."""
    clone = copy.copy(game)
    clone.state = game.state.clone()
    clone.record = []
    clone.check_invariants = False
    clone.listeners = []
    clone.log_lines = []
    st = clone.state
    hidden_keys = [key for key in st.zones if clone.visible_to(key[0], key[1], seat) == "count"]
    pool = [c for key in hidden_keys for c in st.zones[key]]
    rng.shuffle(pool)
    i = 0
    for key in hidden_keys:
        size = len(st.zones[key])
        st.zones[key] = pool[i:i + size]
        for c in st.zones[key]:
            st.cards[c].zone, st.cards[c].zone_owner = key
            if key[1] != NO_OWNER:
                st.cards[c].owner = key[1]
        i += size
    st.rng = random.Random(rng.random())
    return clone


def evaluate_options(game: Game, decision: Decision, rng: random.Random) -> list[float]:
    from .flow import FlowRunner
    seat = decision.player
    base = determinise(game, seat, rng)
    runner = FlowRunner(base)
    now = runner.evaluate(seat)
    values = []
    for opt in decision.options:
        choice = opt.value
        if choice.key in ("end", "pass"):
            values.append(now + 0.01 * (choice.key == "end"))
            continue
        trial = determinise(game, seat, rng)
        trial.agents = [RandomAgent(rng.randrange(1 << 30)) for _ in range(game.n)]
        trial_runner = FlowRunner(trial)
        try:
            ok = trial_runner.perform(choice, seat)
            values.append(trial_runner.evaluate(seat) if ok else LOSS)
        except (RequirementFailed, ActionRefused, RuleRuntimeError):
            values.append(LOSS)
    return values
