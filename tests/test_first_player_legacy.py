"""Legacy: Gears of Time, who goes first.

The rules say the player whose watch is slowest starts and the others follow
clockwise. Nothing the engine can see tells whose watch is slowest, so the
ruleset draws the first player from the game's seed and seats the others
clockwise (in seat order) after them. Over many seeds every seat must get to
start, the turn order must always be a rotation of the seats, and the turn
order track, the hands and the first turn must follow it.
"""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game

SEEDS = range(1, 41)


class _Stop(Exception):
    pass


class _FirstDecision(Agent):
    """Stops the game at its first decision (the first character choice)."""

    scripted = True

    def decide(self, decision, view, game):
        raise _Stop(decision)


@pytest.fixture(scope="module")
def legacy():
    return load_ruleset("legacy_gears_of_time")


def _set_up(rs, players: int, seed: int) -> Game:
    game = Game(rs, players, seed, [_FirstDecision()] * players, ())
    with pytest.raises(_Stop):
        FlowRunner(game).play()
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_player_is_random_then_clockwise(legacy, players):
    seats = list(range(players))
    firsts = set()
    for seed in SEEDS:
        game = _set_up(legacy, players, seed)
        order = game.turn_order()
        first = order[0]
        firsts.add(first)
        # clockwise from the first player: a rotation of the seats
        assert order == seats[first:] + seats[:first], (seed, order)
        # the turn order track says the same (place 1 plays first)
        assert [game.state.players[p].tracks["turn_slot"] for p in order] == \
            list(range(1, players + 1)), seed
        # compensation cards go by place in turn order, not by seat: 6, 7, 7, 8
        hands = [len(game.state.zones[("hand", p)]) for p in order]
        assert hands == [6, 7, 7, 8][:players], (seed, hands)
    assert len(firsts) >= 2
    assert firsts == set(seats)  # over 40 seeds every seat gets to start


def test_same_seed_same_first_player(legacy):
    for seed in (5, 17, 29):
        assert _set_up(legacy, 4, seed).turn_order() == _set_up(legacy, 4, seed).turn_order()


def test_the_first_turn_is_the_first_players(legacy):
    class Record(Agent):
        scripted = True

        def __init__(self):
            self.seen = []

        def decide(self, decision, view, game):
            self.seen.append(decision)
            if "action" not in decision.prompt:
                return 0  # a character: the first one offered
            raise _Stop(decision)

    for seed in (1, 2, 3, 4):
        agent = Record()
        game = Game(legacy, 3, seed, [agent] * 3, ())
        with pytest.raises(_Stop):
            FlowRunner(game).play()
        order = game.turn_order()
        # characters chosen from the last in turn order to the first …
        assert [d.player for d in agent.seen[:-1]] == list(reversed(order))[:len(agent.seen) - 1]
        # … then the first action is the first player's
        assert agent.seen[-1].player == order[0], seed
