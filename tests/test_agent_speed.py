"""Agents' evaluations do no work twice, and give the same numbers as before (issue 28).

- A player's score read while the engine only reads (``gensupport.reading``:
  an agent's evaluation reads each seat's score, and so may the ruleset's own
  evaluation) is worked out once per player, and never outlives the reading.
- The learned value's sums and the declared features are the same numbers,
  in the same order, as the plain reading of the weights and the rules.
"""

from __future__ import annotations

import pytest

from rulebook_games.agents.learned import learned_value
from rulebook_games.agents.lookahead import evaluate
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.infosets import copy_game
from rulebook_games.lang.gensupport import reading

from learned_helpers import random_positions

RULESETS = ["terraforming_mars", "legacy_gears_of_time", "timespan", "lantern_row"]


def _positions(name: str, seed: int, players: int = 2, every: int = 9):
    """Copies of a random game at every ``every``-th decision, with the seat asked."""
    return random_positions(name, seed, players, every)


def _counting(game) -> list:
    """Count the times the game works a player's score out from its categories."""
    calls = []
    inner = game._score

    def counted(player):
        calls.append(player)
        return inner(player)
    game._score = counted
    return calls


def test_a_score_read_while_the_engine_only_reads_is_worked_out_once_per_player():
    _, positions = _positions("terraforming_mars", 3)
    game, _ = positions[len(positions) // 2]
    outside = [game.score(p) for p in range(game.n)]
    calls = _counting(game)
    with reading(game):
        inside = [game.score(p) for p in range(game.n)] + [game.score(p) for p in range(game.n)]
    assert inside == outside + outside
    assert calls == list(range(game.n))  # each player's once, not twice


def test_a_kept_score_does_not_outlive_the_reading_nor_serve_another_state():
    _, positions = _positions("terraforming_mars", 3)
    game, _ = positions[len(positions) // 2]
    calls = _counting(game)
    with reading(game):
        game.score(0)
    game.score(0)  # read again after the reading: worked out again
    assert calls == [0, 0]
    with reading(game):
        game.score(0)
        other = copy_game(game)  # a copy is a state of its own
        other._score = game._score
        other.score(0)
    assert calls == [0, 0, 0, 0]


def test_the_evaluation_reads_each_seats_score_once():
    _, positions = _positions("terraforming_mars", 5)
    game, seat = positions[len(positions) // 2]
    calls = _counting(game)
    evaluate(FlowRunner(game), range(game.n), "learned")
    # the ruleset's evaluation reads each seat's score, and so do the learned features
    assert sorted(calls) == list(range(game.n))


def _plain_value(value, runner, seats):
    """The learned value as the weights file says: the constant plus each feature times
    its weight plus its late weight times the game's progress, feature by feature."""
    reader, game = value.features, runner.game
    fit = value.fit_for(game.n)
    priors, scores = reader.base(runner, seats)
    t = min(1.0, game.state.round / fit.rounds)
    out = []
    for seat in seats:
        total = fit.const
        for name, x in reader.of(runner, seat, priors, scores).items():
            pair = fit.pairs.get(name)
            if pair is not None:
                total += x * (pair[0] + pair[1] * t)
        out.append(total)
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_the_learned_value_is_the_plain_sum_to_the_last_bit(name):
    rs, positions = _positions(name, 2, every=13)
    value = learned_value(rs)
    assert value is not None
    for game, _ in positions:
        runner = FlowRunner(game)
        with reading(game):
            fast = value.values(runner, range(game.n))
        with reading(game):
            plain = _plain_value(value, runner, range(game.n))
        assert fast == plain  # the same floats: the same games


@pytest.mark.parametrize("name", ["terraforming_mars", "legacy_gears_of_time"])
def test_declared_features_are_the_rules_values_for_each_item(name):
    rs, positions = _positions(name, 4, every=17)
    reader = learned_value(rs).features
    for game, seat in positions:
        got: dict = {}
        with reading(game):
            reader._declared(game, seat, got)
        want: dict = {}
        with reading(game):  # what the rules give, item by item, in a frame of their own
            for ident, each, var in reader.declared:
                items = game.run_code(("feature", ident, "each"), game.frame(seat)) \
                    if each else [None]
                for item in items or []:
                    frame = game.frame(seat) if not each else game.frame(seat, **{var: item})
                    v = game.run_code(("feature", ident), frame)
                    if type(v) is bool:  # a truth value counts 1 when true
                        v = int(v)
                    elif type(v) not in (int, float):  # (a card, an id: named)
                        continue
                    if v:
                        key = f"declared:{ident}" + (f":{item}" if each else "")
                        want[key] = v
        numbers = {k: v for k, v in got.items() if "=" not in k}
        assert numbers == want


def _legacy_midgame():
    _, positions = _positions("legacy_gears_of_time", 3, players=3, every=5)
    for game, _ in positions[len(positions) // 2:]:
        if game.run_code(("function", "timeline_techs"), game.frame(0)):
            return game
    raise AssertionError("no position with technologies on the timeline")


def test_a_functions_filter_without_its_parameters_is_worked_out_once_for_every_seat():
    # projected_points(p): the technologies that would score (cubes on them, not failed,
    # the copy kept) do not depend on p, nor on who reads them
    game = _legacy_midgame()

    def code(frame):
        return game.run_code(("function", "projected_points"), frame)
    marks = []
    real = game.is_marked
    game.is_marked = lambda card, marker: marks.append(card) or real(card, marker)
    plain = {}
    for you in range(game.n):
        for p in range(game.n):
            plain[you, p] = code(game.frame(you, p=p))
    alone = len(marks) // (game.n * game.n)  # the same work for each call
    assert alone > 0
    marks.clear()
    with reading(game):
        kept = {(you, p): code(game.frame(you, p=p)) for you in range(game.n)
                for p in range(game.n)}
    assert kept == plain
    # the filter once for the nine calls, whoever reads for whom (what depends on p is
    # still read for each p): not nine times
    assert len(marks) < 3 * alone
