"""turns_left(player): the turns a player still has in the phase under way (docs/builtins.md).

Legacy's phase I gives each player four turns in turn order; the expectation here is
counted from the turns the game is seen to begin (a new turn is a new turn number),
not from the engine's own counter of the turns' rounds. Terraforming Mars's action
rounds have no fixed count: a player has a turn left until it passes.
"""

from __future__ import annotations

from rulebook_games.agents import Agent
from rulebook_games.agents.registry import make_agent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.load.ruleset import load_ruleset
from rulebook_games.play.session import new_game


class _Watch(Agent):
    """Plays at random, and at every decision writes down what turns_left says."""

    name = "watch"
    wants_view = False

    def __init__(self, log: list, seed: int):
        self.log, self.inner = log, make_agent("random", seed)

    def decide(self, decision, view, game):
        st = game.state
        self.log.append((st.round, st.phase, st.turn_number, decision.player,
                         [game.turns_left(p) for p in range(game.n)]))
        return self.inner.decide(decision, view, game)


def _play(name: str, players: int, seed: int) -> tuple:
    rs = load_ruleset(name)
    log: list = []
    game = new_game(rs, players, seed, [_Watch(log, seed + p) for p in range(players)], (),
                    [f"P{p + 1}" for p in range(players)])
    FlowRunner(game).play()
    return game, log


def test_four_turns_each_counted_down_in_turn_order():
    """Each player's count starts at 4 in a round and drops by one as each of its turns
    ends; the player whose turn it is counts that turn."""
    for players in (2, 3):
        game, log = _play("legacy_gears_of_time", players, 11 + players)
        begun: dict = {}  # (round, seat) -> the turns the seat has begun
        last_turn = None
        asked = 0
        for rnd, phase, turn, seat, left in log:
            if phase != "player_turns":
                continue
            if turn != last_turn:
                begun[(rnd, seat)] = begun.get((rnd, seat), 0) + 1
                last_turn = turn
            asked += 1
            for p in range(players):
                expected = 4 - begun.get((rnd, p), 0) + (1 if p == seat else 0)
                assert left[p] == expected, (rnd, turn, seat, p, left)
        assert asked > 40
        assert {n for (r, s), n in begun.items()} == {4}  # every seat took its four turns


def test_no_turns_outside_a_phase_of_turns():
    """Setup's character choice and the round's end are no phase of turns: 0 for all."""
    game, log = _play("legacy_gears_of_time", 2, 5)
    outside = [left for rnd, phase, turn, seat, left in log if phase != "player_turns"]
    assert outside, "the character choice is asked in setup"
    assert all(left == [0, 0] for left in outside)
    assert game.turns_left(0) == 0 and game.turns_left(1) == 0  # the game is over


def test_action_rounds_one_turn_until_the_player_passes():
    rs = load_ruleset("terraforming_mars")
    log: list = []

    class _Passes(_Watch):
        """Records whether each seat has passed, beside turns_left."""

        def decide(self, decision, view, game):
            st = game.state
            if st.phase == "action":
                log.append(([p in st.passed for p in range(game.n)],
                            [game.turns_left(p) for p in range(game.n)]))
            if len(log) > 400:
                raise _Enough
            return self.inner.decide(decision, view, game)

    game = new_game(rs, 2, 3, [_Passes([], 3), _Passes([], 4)], (), ["A", "B"])
    try:
        FlowRunner(game).play()
    except _Enough:
        pass
    assert log
    both = set()
    for passed, left in log:
        for p in range(2):
            assert left[p] == (0 if passed[p] else 1)
            both.add(passed[p])
    assert both == {True, False}


class _Enough(Exception):
    pass
