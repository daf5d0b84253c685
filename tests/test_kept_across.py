"""Values shared by the copies a search deals from one position (agents/across.py).

Issue 28: greedy's and ismcts's trial copies of one position work the same
rule values out again in every copy; a value that reads nothing the copies
are dealt again in, nor anything the copy has changed, is the same in every
copy, so it is worked out once. Written from that rule: the games must not
change (the same final hashes with sharing on and off), a value reading a
zone dealt again is never shared, and a copy that changed what a value reads
works it out again.
"""

from __future__ import annotations

import random

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import across
from rulebook_games.agents.lookahead import Dealing, determinise
from rulebook_games.play.session import build_game, run

LANTERN = "rulesets/lantern_row"


@pytest.fixture(scope="module")
def lantern():
    return load_ruleset(LANTERN)


def _final_hash(rs, seats: list, seed: int) -> str:
    game = build_game(rs, len(seats), seed, seats)
    game.keep_log = False
    return run(game).final_hash


@pytest.mark.parametrize("seats,seed", [(["greedy", "greedy"], 1), (["greedy", "greedy"], 2),
                                        (["ismcts:iterations=20", "greedy"], 3)])
def test_the_same_games_with_sharing_on_and_off(lantern, monkeypatch, seats, seed):
    made: list = []
    real = across.KeptAcross.__init__

    def counted(self, game, hidden):
        real(self, game, hidden)
        made.append(self)
    monkeypatch.setattr(across.KeptAcross, "__init__", counted)
    shared = _final_hash(lantern, seats, seed)
    assert made and any(k.table for k in made), "no value was shared: nothing was measured"
    monkeypatch.setattr(across, "SHARE", False)
    assert _final_hash(lantern, seats, seed) == shared


def _position(rs, seed=5):
    """A position a few random actions into a game, and a copy dealt for seat 0."""
    game = build_game(rs, 2, seed, ["random", "random"])
    game.keep_log = False
    return game


def test_a_value_reading_a_zone_dealt_again_is_not_shared(lantern):
    game = _position(lantern)
    dealing = Dealing(game, 0)
    usable = dealing.kept.usable
    assert "cards_left" not in usable  # the deck: hidden from every seat, dealt again
    assert "has_lantern_in_hand" not in usable  # hands: the other seat's is dealt again
    assert usable["lanterns_of"] == {("zones", "stall")}  # stalls are public
    assert usable["can_haggle"] >= {("zones", "row"), ("pay", "coin")}


def test_a_copy_that_changed_what_a_value_reads_works_it_out_again(lantern):
    game = _position(lantern)
    dealing = Dealing(game, 0)
    first = determinise(game, 0, random.Random(1), None, dealing)
    watch = first.kept_across
    assert watch is not None and watch.state is first.state
    assert watch.usable("can_haggle") is not None and watch.usable("lanterns_of") is not None
    # a stock the value reads changes: no longer shared; one it does not read: still
    st = first.state
    st.set_player(0, "stock", "coin", st.players[0].stock.get("coin", 0) + 3)
    assert watch.usable("can_haggle") is None
    assert watch.usable("lanterns_of") is not None
    # a card moved into a stall: what reads the stalls is worked out again
    card = next(cards[0] for key, cards in st.zones.items() if cards and key[0] != "stall")
    st.move(card, ("stall", 0), None, 0)
    assert watch.usable("lanterns_of") is None
    assert watch.scoring(first, "colours", 0) == first.run_code(("scoring", "colours"),
                                                               first.frame(0))
    # another copy of the same position, unchanged, shares what the first kept before
    # its changes, and not what it worked out after them
    second = determinise(game, 0, random.Random(2), None, dealing)
    assert second.kept_across.usable(("scoring", "colours")) is not None
    for p in range(2):
        assert second.kept_across.scoring(second, "colours", p) == second.run_code(
            ("scoring", "colours"), second.frame(p))


def test_a_rollback_still_counts_as_a_change(lantern):
    game = _position(lantern)
    copy = determinise(game, 0, random.Random(1), None, Dealing(game, 0))
    st, watch = copy.state, copy.kept_across
    mark = st.mark()
    st.set_player(1, "stock", "coin", 99)
    assert watch.usable("can_haggle") is None
    st.undo_to(mark)
    assert watch.usable("can_haggle") is None  # (put back, but counted: never wrong)


def test_a_change_written_where_a_rolled_back_one_was_is_seen(lantern):
    # the journal rolled back below where the copy last looked, then written again up to
    # (or past) that length: the new entries are read, not skipped
    game = _position(lantern)
    copy = determinise(game, 0, random.Random(1), None, Dealing(game, 0))
    st, watch = copy.state, copy.kept_across
    mark = st.mark()
    st.set_player(1, "stock", "food", 5)
    st.set_player(1, "stock", "food", 6)
    assert watch.usable("can_haggle") is not None  # (food: not read)
    st.undo_to(mark)
    st.set_player(1, "stock", "coin", 7)
    st.set_player(1, "stock", "coin", 8)
    assert watch.usable("can_haggle") is None
