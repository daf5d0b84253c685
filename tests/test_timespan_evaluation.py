"""Timespan's hand-written evaluation (flow.yaml, `evaluation:`; the learned value's
prior) and the tracks' one-time rewards: "8 VP for the first civilisation to get
here" (culture 10). A keen player's game (2026-12-06, seed 2911) was won by racing
the first arrivals the agent never contested; the evaluation now counts a first
arrival still open by how near the seat is to it and whether it leads the race."""

from __future__ import annotations

import pytest

from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.infosets import copy_game
from rulebook_games.lang.gensupport import reading

from learned_helpers import random_positions


def _position():
    """A seat asked in round 2 of a random two-player game."""
    _, found = random_positions("timespan", 4, 2, 5)
    for game, seat in found:
        if game.state.round == 2:
            return game, seat
    raise AssertionError("no position in round 2")


def _value(game, seat, mine: int, theirs: int, track: str = "culture") -> int:
    """The seat's evaluation with its own and the other seat's steps on ``track`` set."""
    g = copy_game(game)
    g.state.set_player(seat, "tracks", track, mine)
    g.state.set_player(1 - seat, "tracks", track, theirs)
    with reading(g):
        return FlowRunner(g).evaluate(seat)


@pytest.mark.parametrize("track, top", [("culture", 10), ("science", 11), ("ocean", 6)])
def test_a_step_toward_an_open_first_arrival_is_worth_more_than_one_past_a_taken_one(
        track, top):
    game, seat = _position()
    near, nearer = top - 2, top - 1
    open_step = _value(game, seat, nearer, 0, track) - _value(game, seat, near, 0, track)
    taken_step = _value(game, seat, nearer, top, track) - _value(game, seat, near, top, track)
    assert taken_step > 0  # (a step is still worth something: the track's end scores)
    assert open_step > taken_step


def test_leading_the_race_is_worth_more_than_being_level_or_behind():
    game, seat = _position()
    leading = _value(game, seat, 9, 5)
    level = _value(game, seat, 9, 9)
    taken = _value(game, seat, 9, 10)  # the other seat got there first: nothing left
    assert leading > level > taken
    behind = _value(game, seat, 8, 9)
    ahead = _value(game, seat, 8, 7)
    assert ahead > behind
