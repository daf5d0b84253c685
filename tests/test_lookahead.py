"""Copies of a game for snapshots and lookahead: cheap, independent, and blind to hidden cards.

A State's clone shares card states and the random source with the original
until one side changes them. These tests check that nothing one copy does
reaches the other (draws, card changes, trials that are rolled back), and
that the greedy agent's determinised copy reshuffles exactly what its seat
cannot see (within the pools of infosets.hidden_pools), keeps every card where
it thinks it is, leaves the game alone, and does not check invariants (only the real game's actions are checked).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.base import RandomAgent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import NO_OWNER, Game
from rulebook_games.engine.infosets import hidden_pools
from rulebook_games.agents.lookahead import determinise


class _Stop(Exception):
    pass


class _StopAt(RandomAgent):
    """Plays at random and stops the game at its n-th decision."""

    def __init__(self, seed: int, at: int):
        super().__init__(seed)
        self.at, self.seen = at, 0

    def decide(self, decision, view, game):
        self.seen += 1
        if self.seen >= self.at:
            raise _Stop
        return super().decide(decision, view, game)


@pytest.fixture(scope="module")
def midgame():
    """A three-player game of Legacy, 60 decisions in: hands dealt, a deck, cards in play."""
    rs = load_ruleset("legacy_gears_of_time")
    agent = _StopAt(3, 60)
    game = Game(rs, 3, 3, [agent] * 3)
    with pytest.raises(_Stop):
        FlowRunner(game).play()
    return game


def _reference(rng: random.Random) -> random.Random:
    ref = random.Random()
    ref.setstate(rng.getstate())
    return ref


def test_a_clone_and_its_original_draw_the_same_numbers_independently(midgame):
    st = midgame.state.clone()  # (the fixture itself is left alone)
    ref = _reference(st.rng)
    expected = [ref.random() for _ in range(5)]
    copy = st.clone()
    copy_of_copy = copy.clone()
    assert [copy.rng.random() for _ in range(5)] == expected
    assert [st.rng.random() for _ in range(5)] == expected  # the copy's draws did not move it
    assert [copy_of_copy.rng.random() for _ in range(5)] == expected
    assert copy.rng is not st.rng and copy_of_copy.rng is not copy.rng


def test_a_trial_rolled_back_leaves_the_random_source_as_it_was(midgame):
    game = Game(midgame.rs, 3, 3, midgame.agents)
    game.state = midgame.state.clone()
    ref = _reference(game.state.rng)
    expected = [ref.randint(1, 6) for _ in range(3)]
    assert game.try_effect(lambda: [game.random_number(1, 6) for _ in range(10)])
    assert [game.random_number(1, 6) for _ in range(3)] == expected


def test_changing_a_card_in_a_copy_leaves_the_original_alone(midgame):
    st = midgame.state.clone()
    number = next(iter(st.cards))
    before = (set(st.cards[number].markers), dict(st.cards[number].resources))
    copy = st.clone()
    copy.card_w(number).markers.add("probe")
    copy.card_w(number).resources["probe"] = 3
    assert (st.cards[number].markers, st.cards[number].resources) == before
    st.card_w(number).markers.add("other")
    assert "other" not in copy.cards[number].markers
    assert "probe" in copy.cards[number].markers


def test_determinise_reshuffles_only_what_the_seat_cannot_see(midgame):
    game, seat = midgame, 0
    digest = game.state.digest()
    hidden = {key for key in game.state.zones
              if game.visible_to(key[0], key[1], seat) == "count"}
    assert hidden, "the position has no hidden cards to reshuffle"
    moved = False
    for seed in range(5):
        copy = determinise(game, seat, random.Random(seed))
        st = copy.state
        for key, cards in game.state.zones.items():
            if key not in hidden:
                assert st.zones[key] == cards, key  # what the seat sees stays as it is
            else:
                assert len(st.zones[key]) == len(cards), key
                moved = moved or st.zones[key] != cards
        for places in hidden_pools(game, seat):  # each pool keeps its cards
            assert Counter(st.zones[k][i] for k, i in places) == \
                Counter(game.state.zones[k][i] for k, i in places)
        for key, cards in st.zones.items():  # every card knows where it is
            for c in cards:
                assert (st.cards[c].zone, st.cards[c].zone_owner) == key
                if key[1] != NO_OWNER:
                    assert st.cards[c].owner == key[1]
        assert not copy.check_actions and not copy.check_invariants
        assert copy.record == [] and not copy.keep_log
    assert moved, "five determinisations left every hidden zone in its order"
    assert game.state.digest() == digest  # the game itself is untouched


def _lie(state) -> tuple:
    """Where every card lies and what it is, for comparing copies."""
    return ({key: list(cards) for key, cards in state.zones.items()},
            {n: (c.zone, c.zone_owner, c.owner) for n, c in state.cards.items()})


def test_a_search_deals_each_copy_as_a_copy_dealt_on_its_own(midgame):
    """A Dealing worked out once for a decision deals every copy of the search exactly as
    determinise deals it alone: the same cards in the same places, the same draws from the
    agent's random source, and a copy's own random source drawing the same numbers."""
    from rulebook_games.agents.lookahead import Dealing
    for seat in range(3):
        dealing = Dealing(midgame, seat)
        shared, alone = random.Random(seat), random.Random(seat)
        for _ in range(4):  # one Dealing serves every copy of the search
            a = determinise(midgame, seat, shared, None, dealing)
            b = determinise(midgame, seat, alone)
            assert _lie(a.state) == _lie(b.state)
            assert [a.state.rng.random() for _ in range(3)] == \
                [b.state.rng.random() for _ in range(3)]
        assert shared.random() == alone.random()


def test_a_copy_draws_from_the_source_its_seed_gives_even_through_its_own_copies(midgame):
    """A copy's random source is random.Random(the agent's next number), made only when the
    copy first draws; a snapshot of the copy taken before that draws the same numbers."""
    class Noting(random.Random):  # notes the number determinise seeds the copy with
        def random(self):
            self.last = super().random()
            return self.last

    rng = Noting(11)
    copy = determinise(midgame, 0, rng)
    snapshot = copy.state.clone()
    expected = random.Random(rng.last)
    numbers = [expected.random() for _ in range(5)]
    assert [copy.state.rng.random() for _ in range(5)] == numbers
    assert [snapshot.rng.random() for _ in range(5)] == numbers


def test_the_copies_shuffle_draws_as_random_shuffle_does():
    """Copies shuffle their pools without a call per card, yet exactly as Random.shuffle:
    the same order and the same numbers drawn, for any size."""
    from rulebook_games.agents import lookahead
    assert lookahead._INLINE  # this Python's shuffle is the one written out
    for size in (0, 1, 2, 5, 31, 230):
        a, b = random.Random(size), random.Random(size)
        x, y = list(range(size)), list(range(size))
        a.shuffle(x)
        lookahead._shuffle(y, b)
        assert x == y and a.random() == b.random()
