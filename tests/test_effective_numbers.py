"""Effective numbers with a question (issue 26, 'Decisions a player can trust').

Written from what each primitive promises (docs/engine.md):

- ``choose_number(low, high, fact…)`` says each fact with the question, in
  its amount's words and with its value now ('2 coins a gold'), else in its
  phrase ('what a gold is worth: 2');
- the view's ``card_price`` is shown beside a card's printed cost wherever
  its text is shown to that player, when the two differ ('cost 3, 2 for you');
- the view's ``alongside`` shows the cards it names with every question of
  an action, to the player answering, and only cards that player may see.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent, FirstAgent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game
from rulebook_games.play.transcript import option_rows

TINY = Path(__file__).parent / "fixtures" / "tiny"

FUNCTIONS = """functions:
  - id: gold_worth
    phrase: "what a gold is worth"
    amount: "{n} coins a gold"
    returns: number
    value: 2
  - id: owed
    phrase: "what is owed"
    params: {n: number}
    returns: number
    value: n
"""

SPEND = """  - id: spend
    name: Spend gold
    do: |
      let left = 7
      let n = choose_number(0, stock(gold), gold_worth(), owed(left), stock(gold))
      pay n gold
"""

PICK = """  - id: pick
    name: Pick a gadget
    do: |
      draw(1, deck, row)
      let g = choose(x in cards_in(hand))
      put(g, tableau)
"""


class Watching(Agent):
    wants_view = False

    def __init__(self):
        self.asked = []
        self.rows = []

    def decide(self, decision, view, game):
        self.asked.append(decision)
        self.rows.append(option_rows(decision, game))
        return decision.low if decision.is_range else 0


def tiny_with(tmp_path, action: str, view: str = "", functions: str = ""):
    work = tmp_path / "tiny"
    shutil.copytree(TINY, work)
    flow = work / "flow.yaml"
    text = flow.read_text().replace("actions:\n  - id: earn\n",
                                    "actions:\n" + action + "  - id: earn\n")
    flow.write_text(text + functions + (("view:\n" + view) if view else ""))
    return load_ruleset(work)


def act(rs, action: str, agent):
    game = Game(rs, 2, 1, [agent, FirstAgent()])
    game.state.phase = "setup"
    game.run_code(("flow", "setup"), game.frame(None))  # the hands are dealt
    game.state.round = 1
    game.state.phase = "work"
    runner = FlowRunner(game)
    choice = runner.available("work", 0, {"card_actions": False}, True)[f"action:{action}"]
    assert runner.perform(choice, 0)
    return game


def test_a_number_question_says_its_facts_in_their_own_words(tmp_path):
    rs = tiny_with(tmp_path, SPEND, functions=FUNCTIONS)
    agent = Watching()
    act(rs, "spend", agent)
    prompt = agent.asked[0].prompt
    # an amount text where there is one ('{n} coins a gold'; the player's own stock says
    # whose it is: 'you have 3 gold'), the phrase and the value where there is none
    assert prompt.endswith("(2 coins a gold · what is owed: 7 · you have 3 gold)"), prompt
    assert "owed(" not in prompt and "gold_worth" not in prompt


def test_facts_change_nothing_in_the_game(tmp_path):
    plain = tiny_with(tmp_path / "a", SPEND.replace(", gold_worth(), owed(left), stock(gold)",
                                                    ""), functions=FUNCTIONS)
    told = tiny_with(tmp_path / "b", SPEND, functions=FUNCTIONS)
    hashes = []
    for rs in (plain, told):
        game = Game(rs, 2, 3, [FirstAgent(), FirstAgent()])
        hashes.append(FlowRunner(game).play().final_hash)
    assert hashes[0] == hashes[1]


def test_a_card_shows_the_price_you_pay_beside_its_printed_cost(tmp_path):
    # a gadget costs 1 gold less to the player looking, never below 0
    rs = tiny_with(tmp_path, PICK, view='  card_price: "max(0, card.cost - 1)"\n')
    agent = Watching()
    game = act(rs, "pick", agent)
    decision = agent.asked[0]
    for opt, row in zip(decision.options, agent.rows[0]):
        cost = game.card_data(opt.value)["cost"]
        if cost >= 1:
            assert f"cost {cost}, {cost - 1} for you" in row[3], row
        else:
            assert f"cost {cost}" in row[3] and "for you" not in row[3]
    # the same in the seat's own hand in the view model (the card left in it)
    texts = [c["text"] for z in game.view_model(0)["table"]["panels"][0]["zones"]
             for c in z.get("cards") or [] if "text" in c]
    left = game.card_data(game.state.zones[("hand", 0)][0])["cost"]
    assert texts and (f"cost {left}, {left - 1} for you" in texts[0] if left else True)
    plain = tiny_with(tmp_path / "plain", PICK)
    agent = Watching()
    act(plain, "pick", agent)
    assert not any("for you" in row[3] for row in agent.rows[0])


def test_cards_alongside_an_action_are_shown_with_its_questions_to_their_owner(tmp_path):
    # while picking from the hand, the cards of the shared row are shown alongside;
    # a hidden zone (the deck) named alongside shows nothing of it
    rs = tiny_with(tmp_path, PICK, view="  alongside:\n    - action: pick\n"
                                        "      cards: concat(cards_in(row), cards_in(deck))\n")
    agent = Watching()
    game = act(rs, "pick", agent)
    about = agent.asked[0].about
    row = next(cards for (zone, _), cards in game.state.zones.items() if zone == "row")
    deck = next(cards for (zone, _), cards in game.state.zones.items() if zone == "deck")
    assert len(row) == 1 and deck
    assert about == list(row)  # the row's cards; none of the deck's
    # the rows before the options: one per card shown, with no number
    rows = agent.rows[0]
    assert [r[2] for r in rows[:len(about)]] == [game.card_name(c) for c in about]
    assert all(r[0] == "" for r in rows[:len(about)])


def test_an_unknown_action_alongside_is_an_error_at_its_place(tmp_path):
    import pytest
    from rulebook_games.errors import RulebookError
    with pytest.raises(RulebookError) as err:
        tiny_with(tmp_path, PICK, view="  alongside:\n    - action: pikc\n"
                                       "      cards: cards_in(row)\n")
    found = [d for d in err.value.diagnostics if d.code == "RB401"]
    assert found and "pikc" in found[0].message and found[0].hint and "pick" in found[0].hint
    assert found[0].span.file.endswith("flow.yaml") and found[0].span.line > 1


def test_a_number_beside_an_action_is_shown_wherever_it_is_offered(tmp_path):
    # building a gadget: the gold the player looking has, beside it ('3 gold'); earning
    # has no number; an action not named gets nothing
    rs = tiny_with(tmp_path, PICK, view="  actions:\n    - {action: tower, value: "
                                        "'stock(gold) + 1', text: gold now}\n")
    agent = Watching()
    game = Game(rs, 2, 1, [agent, FirstAgent()])
    FlowRunner(game).play()
    first = next(rows for d, rows in zip(agent.asked, agent.rows) if d.kind == "action")
    by_label = {r[2]: r[3] for r in first}
    assert by_label["Build a tower"] == "4 gold now"  # 3 gold at the start, + 1
    assert by_label["Earn gold"] == "" and by_label["Get famous"] == ""


def test_an_unknown_action_in_the_view_is_an_error_at_its_place(tmp_path):
    import pytest
    from rulebook_games.errors import RulebookError
    with pytest.raises(RulebookError) as err:
        tiny_with(tmp_path, PICK, view="  actions:\n    - {action: towr, value: '1'}\n")
    found = [d for d in err.value.diagnostics if d.code == "RB401"]
    assert found and "towr" in found[0].message and "tower" in (found[0].hint or "")


def test_card_name_says_the_price_you_pay(tmp_path):
    from rulebook_games.play.terminal import card_text_for
    rs = tiny_with(tmp_path, PICK, view='  card_price: "max(0, card.cost - 1)"\n')
    game = Game(rs, 2, 1, [FirstAgent(), FirstAgent()])
    assert card_text_for(game, "Statue", 0).startswith("Statue (cost 3, 2 for you ·")
    assert card_text_for(game, "Statue").startswith("Statue (cost 3 ·")  # nobody's price


def test_a_list_of_resources_reads_as_an_amount_of_each():
    # a price given as resources, one entry per unit (Timespan's market: 'coins, coins and
    # stone' read as a list), is an amount of each, in the order first named
    rs = load_ruleset(TINY)
    assert rs.words.value_words(["cube", "gold", "cube"]) == "2 cubes and 1 gold"
    assert rs.words.value_words(["gold"]) == "1 gold"
