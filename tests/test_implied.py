"""Implied requirements: an option whose first statements cannot be carried out is listed
as not available, with the reason, before anyone picks it (issue 26, item 4).

The rule: statements at an effect's top level, before anything that could change the
same quantity, imply checks: ``lose N X production`` needs the production to stay at or
above its floor, ``pay N X`` needs N X, ``remove N R from this`` needs N R on the card,
and a ``require`` there must hold. Nothing is derived when unsure: inside a condition,
after a procedure call, with an amount worked out from a choice, or a quantity a gain
changed first. A card's play is checked with its requirement, except for quantities
that something run between its choice and its effect (a trigger) may raise.
Each case plays the engine's ``tiny`` fixture (3 gold, gold production 0) with rules
added.
"""

from __future__ import annotations

import shutil

import pytest
from pathlib import Path

from rulebook_games import load_ruleset
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game
from rulebook_games.agents import FirstAgent
from rulebook_games.engine.state import CardRef

TINY = Path(__file__).parent / "fixtures" / "tiny"
TURNS = {"card_actions": True}


def tiny(tmp_path, actions: str = "", cards: str = "", more_flow: str = ""):
    work = tmp_path / "tiny"
    shutil.copytree(TINY, work)
    flow = work / "flow.yaml"
    flow.write_text(flow.read_text().replace("actions:\n  - id: earn\n",
                                             "actions:\n" + actions + "  - id: earn\n")
                    + more_flow)
    deck = work / "cards.yaml"
    deck.write_text(deck.read_text() + cards)
    parts = work / "components.yaml"
    parts.write_text(parts.read_text() + "card_resources:\n  - {id: seed, plural: seeds, name: Seed}\n")
    return load_ruleset(work)


def offered(rs, gold=3, production=0):
    game = Game(rs, 1, 1, [FirstAgent()])
    game.state.round = 1
    game.state.players[0].stock["gold"] = gold
    game.state.players[0].production["gold"] = production
    runner = FlowRunner(game)
    out = runner.available("work", 0, TURNS, True)
    refused = {k: (v() if callable(v) else v) for k, v in out.pop("__refused__").items()}
    return set(out), refused, game


def act(ident: str, body: str) -> str:
    lines = "".join(f"      {line}\n" for line in body.strip().splitlines())
    return f"  - id: {ident}\n    name: {ident.capitalize()}\n    do: |\n{lines}"


def test_losing_a_production_that_is_not_there_is_not_offered(tmp_path):
    rs = tiny(tmp_path, act("burn", "lose 1 gold production\ngain 5 gold"))
    keys, refused, _ = offered(rs)
    assert "action:burn" not in keys
    assert refused["Burn"] == "needs 1 gold production to lose; you have 0"
    keys, refused, _ = offered(rs, production=1)
    assert "action:burn" in keys and "Burn" not in refused


def test_payments_add_up_and_say_what_is_missing(tmp_path):
    rs = tiny(tmp_path, act("splurge", "pay 2 gold\npay 2 gold\nraise fame"))
    keys, refused, _ = offered(rs, gold=3)
    assert refused["Splurge"] == "needs 4 gold to pay; you have 3"
    keys, refused, _ = offered(rs, gold=4)
    assert "action:splurge" in keys


def test_a_require_before_anything_changes_is_checked(tmp_path):
    rs = tiny(tmp_path, act("show", 'require fame >= 2 else "needs some fame first"\n'
                            "gain 1 gold"))
    _, refused, _ = offered(rs)
    assert refused["Show"] == "needs some fame first"


def test_nothing_is_derived_when_unsure(tmp_path):
    rs = tiny(tmp_path,
              act("maybe", "if fame > 3:\n  pay 9 gold\ngain 1 gold")
              + act("later", "let n = choose_number(4, 5)\npay n gold")
              + act("after_gain", "gain 1 gold\npay 4 gold")
              + act("after_call", "place tower\npay 9 gold")
              + act("after_require", "pay 1 gold\nrequire stock(gold) >= 9"))
    keys, refused, _ = offered(rs, gold=3)
    assert {"action:maybe", "action:later", "action:after_gain",
            "action:after_call"} <= keys
    # the pay before it is checked (it holds); the require after a change of what it
    # reads is not (one that reads something else is: see below)
    assert "action:after_require" in keys
    for ident in ("maybe", "later", "after_gain"):
        assert rs.implied.get(("action", ident)) is None
    # the tower needs a space; nothing after it is derived (its bonus, what it sets off)
    assert [i.kind for i, _ in rs.implied[("action", "after_call")]] == ["place"]


def test_a_require_after_a_change_of_something_else_is_checked(tmp_path):
    # paying gold changes nothing of the fame the require reads
    rs = tiny(tmp_path, act("gala", 'pay 1 gold\nrequire fame >= 2 else "needs some fame"'))
    keys, refused, game = offered(rs, gold=3)
    assert "action:gala" not in keys and refused["Gala"] == "needs some fame"
    game.state.players[0].tracks["fame"] = 2
    out = FlowRunner(game).available("work", 0, TURNS, True)
    assert "action:gala" in out


def test_a_tile_with_no_legal_space_is_not_offered(tmp_path):
    # 'there is no legal space' after the pick was issue 26's city with no space left
    corner = act("corner", "place tower where space.row == 0 and space.column == 0\n"
                 "gain 1 gold")
    rs = tiny(tmp_path, corner)
    keys, refused, game = offered(rs)
    assert "action:corner" in keys
    # through the engine's own placement, which forgets what was read from the board
    # (the masks of the spaces: see engine/boardbits.py)
    game.place_tile("tower", 0, "on", "a")
    out = FlowRunner(game).available("work", 0, TURNS, True)
    why = out.pop("__refused__")["Corner"]
    assert "action:corner" not in out
    assert (why() if callable(why) else why) == "there is no space where a tower may go"


def test_no_tile_left_refuses_nothing(tmp_path):
    # with none of its tiles left a placement places nothing, so it is still offered
    rs = tiny(tmp_path, act("corner", "place tower where space.row == 0\ngain 1 gold"))
    _, _, game = offered(rs)
    for space in ("c", "d"):
        game.place_tile("tower", 0, "on", space)
    assert "action:corner" in FlowRunner(game).available("work", 0, TURNS, True)


def test_a_choice_among_nothing_is_not_offered(tmp_path):
    rs = tiny(tmp_path, act("tinker", "let g = choose(x in cards_in(tableau) where x.cost > 1)\n"
                            "gain 1 gold"))
    keys, refused, _ = offered(rs)
    why = refused["Tinker"]
    assert "action:tinker" not in keys and "tableau" in why.lower()


def test_a_procedure_called_with_values_written_out_is_followed(tmp_path):
    # reduce_any_production-like: the require inside the procedure, read with n = 4
    rs = tiny(tmp_path, act("spend", "spend_some(4)\ngain 1 gold"), more_flow="""procedures:
  - id: spend_some
    params: {n: number}
    do: |
      require stock(gold) >= n else "not enough gold"
      pay n gold
""")
    keys, refused, _ = offered(rs, gold=3)
    assert "action:spend" not in keys and refused["Spend"] == "not enough gold"
    keys, _, _ = offered(rs, gold=4)
    assert "action:spend" in keys


def test_removing_from_the_card_itself_needs_it_there(tmp_path):
    cards = """  - id: jar
    name: Jar
    type: gadget
    cost: 1
    holds: seed
    actions:
      - name: Empty
        do: |
          remove 2 seeds from this
          gain 3 gold
"""
    rs = tiny(tmp_path, cards=cards)
    game = Game(rs, 1, 1, [FirstAgent()])
    game.state.round = 1
    jar = next(CardRef(c) for c, s in game.state.cards.items() if s.def_id == "jar")
    game.put(jar, "tableau", 0, None)
    game.state.card_w(jar).resources["seed"] = 1
    out = FlowRunner(game).available("work", 0, TURNS, True)
    refused = out.pop("__refused__")
    why = refused["Jar: Empty"]
    why = why() if callable(why) else why
    assert why == "needs 2 seeds on Jar to remove; there is 1"


CARD = """  - id: furnace
    name: Furnace
    type: gadget
    cost: 0
    play: |
      lose 1 gold production
      gain 4 gold
"""
PLAY = act("use", "let g = choose(x in cards_in(hand) where meets_requirements(x))\n"
           "put(g, tableau)\nrun play of g")


def test_a_card_whose_play_cannot_be_carried_out_does_not_meet_its_requirements(tmp_path):
    rs = tiny(tmp_path, PLAY, CARD)
    game = Game(rs, 1, 1, [FirstAgent()])
    furnace = next(CardRef(c) for c, s in game.state.cards.items() if s.def_id == "furnace")
    assert not game.meets_requirements(furnace, 0)
    assert game.explain_requirements(furnace, 0) == \
        "Furnace needs 1 gold production to lose; you have 0"
    game.state.players[0].production["gold"] = 1
    assert game.meets_requirements(furnace, 0)


BUILT = act("use", "let g = choose(x in cards_in(hand) where meets_requirements(x))\n"
            "put(g, tableau)\nemit gadget_built(you, g)\nrun play of g")
BELLOWS = """  - id: bellows
    name: Bellows
    type: gadget
    cost: 0
    triggers:
      - on: gadget_built
        scope: anyone
        do: gain 1 gold production
"""


def test_a_quantity_a_trigger_may_raise_is_not_checked_before_a_card_is_played(tmp_path):
    # the Statue's trigger gains gold; one gaining gold production, set off between the
    # choice of the card and its play, keeps the check off
    rs = tiny(tmp_path, BUILT, CARD + BELLOWS)
    assert rs.implied.get(("card", "furnace")) is None


def test_a_trigger_set_off_only_after_the_play_or_never_changes_nothing(tmp_path):
    # the same trigger on an event the rules emit after the play (or not at all while
    # playing a card) cannot give the production before the play loses it
    after = act("use", "let g = choose(x in cards_in(hand) where meets_requirements(x))\n"
                "put(g, tableau)\nrun play of g\nemit gadget_built(you, g)")
    for rules in (after, PLAY):
        rs = tiny(tmp_path / str(len(rules)), rules, CARD + BELLOWS)
        assert [i.kind for i, _ in rs.implied[("card", "furnace")]] == ["production"]


def test_a_trigger_whose_condition_cannot_hold_for_the_card_changes_nothing(tmp_path):
    # Bellows now reacts only to blue gadgets: the Furnace has no tag, so its check
    # stands; a blue Furnace would set it off
    picky = BELLOWS.replace("        scope: anyone\n",
                            "        scope: anyone\n        if: has_tag(event.card, blue)\n")
    rs = tiny(tmp_path / "plain", BUILT, CARD + picky)
    assert [i.kind for i, _ in rs.implied[("card", "furnace")]] == ["production"]
    blue = CARD.replace("    cost: 0\n", "    cost: 0\n    tags: [blue]\n")
    rs = tiny(tmp_path / "blue", BUILT, blue + picky)
    assert rs.implied.get(("card", "furnace")) is None


class Asked(FirstAgent):
    def __init__(self):
        super().__init__()
        self.asked = []

    def decide(self, decision, view, game):
        self.asked.append((decision.prompt if isinstance(decision.prompt, str) else "",
                           [o.label for o in decision.options], dict(decision.refused)))
        return super().decide(decision, view, game)


def test_a_card_its_choice_leaves_out_is_listed_with_why(tmp_path):
    rs = tiny(tmp_path, PLAY, CARD + """  - id: kettle
    name: Kettle
    type: gadget
    copies: 2
    play: gain 1 gold
""")
    agent = Asked()
    game = Game(rs, 1, 1, [agent])
    game.state.round = 1
    furnace = next(CardRef(c) for c, s in game.state.cards.items() if s.def_id == "furnace")
    kettles = [CardRef(c) for c, s in game.state.cards.items() if s.def_id == "kettle"]
    for c in [furnace] + kettles:
        game.put(c, "hand", 0, None)
    runner = FlowRunner(game)
    available = runner.available("work", 0, TURNS, True)
    assert runner.perform(available["action:use"], 0)
    _, options, refused = agent.asked[-1]
    assert options == ["Kettle", "Kettle"]
    assert refused == {"Furnace": "Furnace needs 1 gold production to lose; you have 0"}


def test_the_terminal_folds_many_options_not_available_into_one_line_and_why_lists_them(
        tmp_path):
    # issue 26 item 3: 'Refused options collapse to one line ("6 more not available: why")'
    import io
    from rich.console import Console
    from rulebook_games.engine.decisions import Decision, Option
    from rulebook_games.play.terminal import HumanAgent
    rs = tiny(tmp_path)
    game = Game(rs, 1, 1, [FirstAgent()])
    out = io.StringIO()
    answers = iter(["why", "1"])
    human = HumanAgent(Console(file=out, width=80), lambda prompt: next(answers))
    many = {f"Card {n}": f"needs {n} gold to pay; you have 0" for n in range(1, 7)}
    decision = Decision(0, "item", "Pick", [Option("Lamp", 1)], refused_text=many)
    view = game.view(0)
    assert human.decide(decision, view, game) == 0
    text = out.getvalue()
    assert "6 more not available: type why" in text
    assert text.count("Card 3 (not now: needs 3 gold to pay; you have 0)") == 1  # by 'why'
    few = Decision(0, "item", "Pick", [Option("Lamp", 1)],
                   refused_text=dict(list(many.items())[:3]))
    out.truncate(0)
    answers = iter(["1"])
    human.decide(few, view, game)
    assert "Card 2 (not now: needs 2 gold to pay; you have 0)" in out.getvalue()
    assert "more not available" not in out.getvalue()


@pytest.mark.parametrize("players,seeds", [(2, range(1, 5)), (1, range(1, 4))])
def test_a_card_held_back_by_its_implied_checks_could_not_be_played(players, seeds):
    # soundness, over random Terraforming Mars games: whenever a card in hand meets its
    # printed requirement but its implied checks fail, its play tried on a copy of the
    # game from that position is refused too (nothing playable is held back)
    import random
    from rulebook_games.agents import Agent
    from rulebook_games.play.session import build_game, run
    rs = load_ruleset("terraforming_mars")
    held = []

    class Checking(Agent):
        wants_view = False

        def __init__(self, seed):
            self.rng = random.Random(seed)

        def decide(self, decision, view, game):
            seat = decision.player
            if game.action_start is None:
                for card in list(game.state.zones.get(("hand", seat), [])):
                    def_id = game.state.cards[card].def_id
                    implied = rs.implied.get(("card", def_id))
                    printed = rs.code.get(("card", def_id, "requires"))
                    if implied is None or printed is not None and not printed(
                            game.frame(seat, this=card)):
                        continue
                    if game.implied_refusal(implied, seat, card) is not None:
                        held.append(def_id)
                        assert not game.can_run(card, "play", seat), def_id
            if decision.is_range:
                return self.rng.randint(decision.low, decision.high)
            return self.rng.randrange(len(decision.options))
    for seed in seeds:
        run(build_game(rs, players, seed, ["random"] * players,
                       live_agents=[Checking(seed * 10 + s) for s in range(players)]))
    assert held
