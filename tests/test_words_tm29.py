"""Words a keen Terraforming Mars and Lantern Row player read (issue 29 playtests).

Each expectation was written from what the playtest quoted and what the
printed card says, before looking at what the engine says:
- Research Outpost read "Place a city on a space with none of the spaces next
  to it has a tile" (the card: "Place a city with no adjacent tiles"); Lava
  Flows "on a space whose type is volcanic area"; Mangrove "on a space whose
  type is ocean area and that has no tile".
- Lava Flows' facts read "event · event" (its type and its tag).
- A space's bonus read "bonus 1 Plants".
- Ironworks read "raise the oxygen 1 step (only if at least 4 energy)", as if
  only the oxygen step needed the energy (the card: "spend 4 energy to gain 1
  steel and raise oxygen 1").
"""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.engine.game import Game
from rulebook_games.engine.state import CardRef
from rulebook_games.lang.words import catalogue_entry, facts_line


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("terraforming_mars")


def _text(rs, card_id: str) -> str:
    return " ".join(catalogue_entry(rs, card_id)["lines"])


def test_a_placement_says_the_kind_of_space_and_what_is_around_it(rs):
    assert "Place a city on a space next to no tile." in _text(rs, "research_outpost")
    assert "place a special tile on a volcanic area." in _text(rs, "lava_flows")
    assert "Place a greenery on any ocean area with no tile." in _text(rs, "mangrove")
    assert "Place a special tile on a space next to a city." in _text(rs, "industrial_center")
    assert "next to at least 2 cities." in _text(rs, "urbanized_area")
    for card in ("research_outpost", "lava_flows", "mangrove", "urbanized_area"):
        text = _text(rs, card)
        assert "whose type" not in text and "none of the spaces" not in text, text


def test_a_type_and_the_same_tag_are_said_once(rs):
    assert facts_line(catalogue_entry(rs, "lava_flows")) == "cost 18 · event"
    assert facts_line(catalogue_entry(rs, "comet")) == "cost 21 · event · space"


def test_an_action_says_its_condition_before_what_it_does(rs):
    text = _text(rs, "ironworks")
    assert text == ("Action (Smelt iron), once per generation (needs at least 4 energy): "
                    "Pay 4 energy; gain 1 steel; raise the oxygen 1 step."), text


def test_a_space_bonus_reads_as_running_text(rs):
    game = Game(rs, 2, 1, [Agent(), Agent()])
    bonus = {s: d.get("bonus") for s, d in game.space_decl.items()}
    one_plant = next(s for s, b in bonus.items() if b == ["plant"])
    two_plants = next(s for s, b in bonus.items() if b == ["plant", "plant"])
    two_cards = next(s for s, b in bonus.items() if b == ["card_draw", "card_draw"])
    assert "bonus 1 plant" in game.space_summary(one_plant).split(" · ")
    assert "bonus 2 plants" in game.space_summary(two_plants).split(" · ")
    assert "bonus 2 cards" in game.space_summary(two_cards).split(" · ")


def _card(game, cid):
    return CardRef(next(c for c, s in game.state.cards.items() if s.def_id == cid))


def test_a_payment_for_each_research_card_names_the_card(rs):
    """Helion paying for research asked 'Pay how many heat? (3 M€ still to pay · 31 M€)'
    once per card, without the card: each question names the card it pays for."""
    seen = []

    class Watch(Agent):
        wants_view = False

        def decide(self, decision, view, game):
            seen.append(decision.prompt if isinstance(decision.prompt, str)
                        else decision.prompt())
            return decision.low if decision.is_range else 0
    game = Game(rs, 2, 1, [Watch(), Watch()])
    game.state.turn_seat = 0
    me = game.state.players[0]
    game.put(_card(game, "helion"), "corporation", 0, 0)
    me.stock["mc"], me.stock["heat"] = 4, 5
    for c in list(game.state.zones.get(("research", 0), [])):
        game.put(c, "discard", None, 0)
    for cid in ("comet", "algae"):
        game.put(_card(game, cid), "research", 0, 0)
    game.context = "Buy research cards"
    game.run_code(("action", "buy_research", "do"), game.frame(0))
    paying = [p for p in seen if "Pay how many heat?" in p]
    assert len(paying) == 2, seen
    assert paying[0] == ("Buy research cards · Comet: Pay how many heat? (3 M€ still to pay · "
                         "you have 4 M€)"), paying  # (a bare '31 M€' said not whose)
    assert paying[1].startswith("Buy research cards · Algae: Pay how many heat?"), paying


def test_haggling_shows_the_price_the_player_would_pay():
    """Lantern Row: Haggling's 'Which card do you take from the lantern row at the lower
    price?' listed '(cost 3 · …)', the printed cost; the player pays 2 coins less (never
    below 0), so each card offered says that price: 'cost 6, 4 for you'."""
    lr = load_ruleset("lantern_row")
    seen = []

    class Watch(Agent):
        wants_view = False

        def decide(self, decision, view, game):
            seen.append({game.card_name(o.value): game.card_summary(o.value, decision.player)
                         for o in decision.options if isinstance(o.value, CardRef)})
            return 0
    game = Game(lr, 2, 1, [Watch(), Watch()])
    game.state.turn_seat = 0
    game.state.players[0].stock["coin"] = 4
    for cid in ("sun_wheel", "paper_globe"):
        game.put(_card(game, cid), "row", None, 0)
    haggling = _card(game, "haggling")
    game.run_code(("card", "haggling", "play"), game.frame(0, this=haggling))
    offered = seen[0]
    assert offered["Sun Wheel"].startswith("cost 6, 4 for you · "), offered
    assert offered["Paper Globe"].startswith("cost 1, 0 for you · "), offered
    # outside Haggling the same card reads its printed cost
    assert game.card_summary(_card(game, "sun_wheel"), 0).startswith("cost 6 · ")


def test_a_placement_question_names_the_tile_in_running_text(rs):
    """'Play a card · Lava Flows: where do you place Special tile?' read like a label."""
    seen = []

    class Watch(Agent):
        wants_view = False

        def decide(self, decision, view, game):
            seen.append(decision.prompt if isinstance(decision.prompt, str)
                        else decision.prompt())
            return 0
    game = Game(rs, 2, 1, [Watch(), Watch()])
    game.state.turn_seat = 0
    lava = _card(game, "lava_flows")
    game.put(lava, "hand", 0, 0)
    game.run_code(("card", "lava_flows", "play"), game.frame(0, this=lava))
    assert any(p.endswith("where do you place a special tile?") for p in seen), seen
