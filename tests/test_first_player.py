"""Terraforming Mars: the first player is chosen at random from the seed, the
others follow clockwise, and the first player moves one seat on each
generation (rules-facts.md, "Setup" and "Player order")."""
from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import RandomAgent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.play.session import new_game
from rulebook_games.load.ruleset import shipped_rulesets_dir


class _Stop(Exception):
    pass


class _Watcher(RandomAgent):
    """Plays at random and notes who decides first in each action phase."""

    def __init__(self, seed: int, seen: dict, last_round: int):
        super().__init__(seed)
        self.seen, self.last_round = seen, last_round

    def decide(self, decision, view, game):
        st = game.state
        if st.phase == "action":
            self.seen.setdefault(st.round, (decision.player, list(st.turn_order)))
            if st.round >= self.last_round:
                raise _Stop
        return super().decide(decision, view, game)


def _action_phase_starts(players: int, seed: int, rounds: int = 2) -> dict:
    """{generation: (seat deciding first, turn order)} for the first generations."""
    rs = load_ruleset(shipped_rulesets_dir() / "terraforming_mars")
    seen: dict = {}
    agents = [_Watcher(seed * 10 + i, seen, rounds) for i in range(players)]
    game = new_game(rs, players, seed, agents, ("corporate_era",),
                    [f"Player {i + 1}" for i in range(players)])
    with pytest.raises(_Stop):
        FlowRunner(game).play()
    return seen


def _rotation(first: int, players: int) -> list[int]:
    return [(first + i) % players for i in range(players)]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_first_player_is_random_then_clockwise(players):
    firsts = set()
    for seed in range(5):
        seen = _action_phase_starts(players, seed)
        seat, order = seen[1]
        assert order == _rotation(order[0], players), f"seed {seed}: {order} is not clockwise"
        assert seat == order[0], f"seed {seed}: seat {seat + 1} decided before the first player"
        firsts.add(order[0])
        # generation 2: the first-player marker has moved one seat clockwise
        seat2, order2 = seen[2]
        assert order2 == _rotation((order[0] + 1) % players, players)
        assert seat2 == order2[0]
    assert len(firsts) >= 2, f"5 seeds always gave seat {sorted(firsts)} the first turn"


def test_the_same_seed_gives_the_same_first_player():
    assert _action_phase_starts(3, 4, rounds=1)[1] == _action_phase_starts(3, 4, rounds=1)[1]
