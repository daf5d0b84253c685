"""An action offered once for each card ('Buy: Jade Carp') says the card as a card option
does, its price to the player first (playtest, Lantern Row in the terminal: "Buy options
do not show a price … prices are only in `state`"). In the terminal beside the option,
and on the page as the card under it."""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.registry import agent_seed, make_agent
from rulebook_games.api.decisions import Decision
from rulebook_games.engine.state import CardRef
from rulebook_games.play.stream import DecisionStream
from rulebook_games.play.transcript import option_rows


def test_each_buy_option_names_its_card_with_its_price():
    rs = load_ruleset("lantern_row")
    stream = DecisionStream(rs, 2, 4101)
    agents = [make_agent("random", agent_seed(4101, s)) for s in range(2)]
    try:
        for _ in range(200):
            d, game = stream.current, stream.game
            bought = [(i, o.value.bind[1]) for i, o in enumerate(d.options)
                      if getattr(o.value, "bind", None) is not None
                      and isinstance(o.value.bind[1], CardRef)]
            if bought:
                rows = option_rows(d, game)
                for i, card in bought:
                    price = game.card_price(card, d.player)
                    cost = rs.cards[game.state.cards[card].def_id].data["cost"]
                    said = str(rows[i][-1])
                    assert said.startswith(f"cost {cost}"), said
                    if price is not None and price != cost:
                        assert f"{price} for you" in said
                    assert game.card_name(card) in rows[i][2]
                pytest.importorskip("starlette")
                from rulebook_games.web.view import decision_data
                data = decision_data(Decision(d, game, len(game.record) + 1))
                for i, card in bought:
                    face = data["options"][i]["card"]
                    assert face["name"] == game.card_name(card)
                    assert face["facts"].startswith("cost ")
                return
            stream.answer(agents[d.player].decide(d, game.view(d.player), game))
    finally:
        stream.close()
    raise AssertionError("no card to buy offered")
