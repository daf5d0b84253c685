"""Words a keen Terraforming Mars player still read as code (issue 26, TM playtest).

Each expectation is the rule's own sense in plain words, written from the
quotes of the playtest before looking at what the renderer says:
- Imported Hydrogen: "add 3 microbes to a card of your choice among the cards
  in your played cards whose resource kind is microbe" → your played cards
  that collect microbes (the printed card: "add 3 microbes ... to ANOTHER card").
- Eos Chasma's question: "(among the cards in your played cards where it is
  not Eos Chasma National Park and its resource kind is animal)" → your
  played cards other than Eos Chasma National Park that collect animals.
- Mars University: "If there is at least one of the cards in your hand" →
  "If there is at least one card in your hand".
- Mining Area / Mining Guild: "its bonus includes steel or its bonus includes
  titanium" → "includes steel or titanium"; "the space of the tile this card
  placed" → "the space of this card's tile".
"""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.engine.game import Game
from rulebook_games.engine.state import CardRef
from rulebook_games.lang.words import catalogue_entry


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("terraforming_mars")


def _text(rs, card_id: str) -> str:
    return " ".join(catalogue_entry(rs, card_id)["lines"])


def test_a_card_that_collects_a_resource_reads_so(rs):
    text = _text(rs, "imported_hydrogen")
    assert "add 3 microbes to a card of your choice among your played cards that collects " \
        "microbes" in text
    assert "resource kind" not in text and "the cards in your played cards" not in text


def test_cards_in_hand_read_as_a_card_in_hand(rs):
    text = _text(rs, "mars_university")
    assert "If there is at least one card in your hand, you may" in text


def test_two_bonuses_of_one_space_read_once(rs):
    assert "on a space whose bonus includes steel or titanium and that is next to one of " \
        "your tiles" in _text(rs, "mining_area")
    assert "the space of this card's tile" in _text(rs, "mining_area")
    assert "the space's bonus includes steel or titanium" in _text(rs, "mining_guild")


def test_the_question_of_another_card_that_collects_animals(rs):
    seen = []

    class Watch(Agent):
        wants_view = False

        def decide(self, decision, view, game):
            seen.append(decision)
            return decision.low if decision.is_range else 0
    game = Game(rs, 2, 1, [Watch(), Watch()])
    game.state.turn_seat = 0
    me = game.state.players[0]
    me.stock["mc"] = 40
    for cid in ("livestock", "small_animals"):  # two cards that collect animals
        card = next(c for c, s in game.state.cards.items() if s.def_id == cid)
        game.put(card, "played", 0, 0)
    eos = CardRef(next(c for c, s in game.state.cards.items()
                       if s.def_id == "eos_chasma_national_park"))
    game.put(eos, "played", 0, 0)
    game.run_code(("card", "eos_chasma_national_park", "play"), game.frame(0, this=eos))
    asked = [d.prompt for d in seen if not d.is_range]
    assert asked == ["Eos Chasma National Park: Add 1 animal to which card (among your played cards other than Eos "
                     "Chasma National Park that collects animals)?"], asked


def test_a_named_space_off_the_map_is_called_by_its_name(rs):
    """'place a city on Phobos Space Haven #02': the #02 finds nothing on the map."""
    text = _text(rs, "phobos_space_haven")
    assert "place a city on Phobos Space Haven." in text, text
    game = Game(rs, 2, 1, [Agent(), Agent()])
    assert game.space_name("phobos_space_haven") == "Phobos Space Haven"
    assert game.space_name("pavonis_mons") == "Pavonis Mons #21"  # on the map: its number


def test_a_may_question_names_the_one_card_it_would_take(rs):
    """Mars University with one card in hand asked 'Put a card of your choice among the
    cards in your hand into the discard pile; draw 1 card …?', and the card went unnamed."""
    seen = []

    class Watch(Agent):
        wants_view = False

        def decide(self, decision, view, game):
            seen.append(decision.prompt)  # (its words are made when read: now)
            return decision.low if decision.is_range else 0
    game = Game(rs, 2, 1, [Watch(), Watch()])
    game.state.turn_seat = 0
    for c in list(game.state.zones.get(("hand", 0), [])):
        game.put(c, "discard", None, 0)
    uni, kept = (CardRef(next(c for c, s in game.state.cards.items() if s.def_id == cid))
                 for cid in ("mars_university", "nitrogen_rich_asteroid"))
    game.put(uni, "played", 0, 0)
    game.put(kept, "hand", 0, 0)
    game.emit("card_played", {"player": 0, "card": uni})
    asked = seen
    assert any(p.startswith("Mars University: Put Nitrogen-Rich Asteroid into the discard "
                            "pile") for p in asked), asked


def test_remove_plants_from_any_player_reads_as_printed(rs):
    """Deimos Down read 'remove up to 8 plants from a player of your choice among the
    players whose plants you may remove'; its question '… (among the players whose
    plants you may remove)?'. The printed card: 'remove up to 8 plants from any player'."""
    assert "remove up to 8 plants from any player." in _text(rs, "deimos_down")
    seen = []

    class Watch(Agent):
        wants_view = False

        def decide(self, decision, view, game):
            seen.append(decision.prompt)
            return decision.low if decision.is_range else 0
    game = Game(rs, 2, 1, [Watch(), Watch()])
    game.state.turn_seat = 0
    game.state.players[1].stock["plant"] = 5
    game.state.players[0].stock["plant"] = 5
    deimos = CardRef(next(c for c, s in game.state.cards.items() if s.def_id == "deimos_down"))
    game.run_code(("card", "deimos_down", "play"), game.frame(0, this=deimos))
    assert "Remove up to 8 plants from which player?" in seen, seen
