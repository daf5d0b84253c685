"""The cards in play with modifiers of a kind, kept per kind and player (issue 28 step 4).

Asking a modifier looks at the player's cards in play once; the list is kept
until a card enters or leaves a zone in play, a zone is shuffled or the state
is rolled back. Cards drawn, discarded or passed between hands leave it as it is.
"""

from __future__ import annotations

from rulebook_games import load_ruleset
from rulebook_games.play.session import build_game


def _game():
    game = build_game(load_ruleset("terraforming_mars"), 2, 1, ["random", "random"])
    # a card whose modifier takes 1 from what its owner's cards cost
    card = next(n for n, c in game.state.cards.items() if c.def_id == "research_outpost")
    return game, card


def test_cards_drawn_leave_the_kept_sources_as_they_are():
    game, _ = _game()
    first = game._modifier_sources("card_discount", 0)
    game.draw(2, "deck", "hand", 0)  # not into play: nothing to look at again
    assert game._modifier_sources("card_discount", 0) is first


def test_a_card_entering_play_counts_at_once_and_a_rollback_takes_it_back():
    game, card = _game()
    assert game.modifier("card_discount", 0, None) == 0
    mark = game.snapshot()
    game.put(card, "played", 0, 0)
    assert game.modifier("card_discount", 0, None) == -1
    assert game.modifier("card_discount", 1, None) == 0  # the other player's are apart
    game.restore(mark)
    assert game.modifier("card_discount", 0, None) == 0
    game.put(card, "played", 0, 0)
    game.put(card, "discard", None, 0)  # it leaves play: it counts no more
    assert game.modifier("card_discount", 0, None) == 0


def test_the_kept_sources_are_those_a_fresh_look_finds():
    game, card = _game()
    game.check_journal = False
    game.put(card, "played", 0, 0)
    kept = game._modifier_sources("card_discount", 0)
    game.smemo = None  # forget: look at every card in play again
    assert game._modifier_sources("card_discount", 0) == kept
