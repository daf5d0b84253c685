"""What the game refused at a position is not offered there again, so every game goes on.

The rule (issue 24, item 12): an action refused while it runs is rolled back
and its seat asked again at the same position; the answer that was refused
there must not be offered again (it is listed as refused, with its reason),
and a decision whose every answer was refused refuses the answer that led to
it, up to the action. Each case plays a small ruleset (the engine's own
``tiny`` fixture with one action added) with an agent that always answers the
same way, and looks at the decisions it was asked.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent, FirstAgent, LastAgent, ScriptedAgent
from rulebook_games.play.terminal import HumanAgent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game
from rulebook_games.errors import RulebookError

TINY = Path(__file__).parent / "fixtures" / "tiny"

# a number whose every value is refused after it is chosen, with no other question
STRAIN = """  - id: strain
    name: Strain
    do: |
      let n = choose_number(0, 3)
      pay n gold
      require fame >= 5 else "needs fame 5"
"""
# the same, with another question between the number and the refusal
STRETCH = """  - id: stretch
    name: Stretch
    do: |
      let n = choose_number(0, 3)
      pay n gold
      let m = choose_number(0, 1)
      require fame >= 5 + m else "needs more fame"
"""
# a choice where only the last answer can be carried out
PICK = """  - id: pick
    name: Pick
    do: |
      let x = choose(y in [1, 2, 3])
      require x == 3 else "only three will do"
      gain x gold
"""
# a number refused inside its range
COUNT = """  - id: count
    name: Count
    do: |
      let n = choose_number(0, 4)
      require n != 2 else "two is unlucky"
      gain n gold
"""
# a long range with a number refused inside it
LONG = """  - id: long
    name: Long
    do: |
      let n = choose_number(0, 200)
      require n != 100 else "a hundred is too round"
      gain n gold
"""


def tiny_with(tmp_path, action: str):
    """The tiny ruleset with ``action`` as its first flow action."""
    work = tmp_path / "tiny"
    shutil.copytree(TINY, work)
    flow = work / "flow.yaml"
    flow.write_text(flow.read_text().replace("actions:\n  - id: earn\n",
                                             "actions:\n" + action + "  - id: earn\n"))
    return load_ruleset(work)


class Watching(Agent):
    """Answers as ``inner`` does and keeps every decision it was asked, with its refusals."""

    wants_view = False

    def __init__(self, inner):
        self.inner = inner
        self.asked = []
        self.failed = []

    def decide(self, decision, view, game):
        self.asked.append((decision, dict(decision.refused)))
        return self.inner.decide(decision, view, game)

    def action_failed(self, label, reason):
        self.failed.append((label, reason))


def _tiny_plus(tmp_path, action: str, more: str):
    """The tiny ruleset with ``action`` first and ``more`` (functions, procedures) added."""
    work = tmp_path / "tiny"
    shutil.copytree(TINY, work)
    flow = work / "flow.yaml"
    flow.write_text(flow.read_text().replace("actions:\n  - id: earn\n",
                                             "actions:\n" + action + "  - id: earn\n") + more)
    return load_ruleset(work)


def play(rs, agent, players=1, seed=1):
    game = Game(rs, players, seed, [agent] * players)
    return game, FlowRunner(game).play()


def test_an_action_whose_every_answer_is_refused_is_refused_whole_the_first_time(tmp_path):
    rs = tiny_with(tmp_path, STRAIN)
    agent = Watching(FirstAgent())
    game = Game(rs, 1, 1, [agent])
    game.state.round = 1
    runner = FlowRunner(game)
    turns = {"card_actions": False}
    choice = runner.available("work", 0, turns, True)["action:strain"]
    gold = game.state.players[0].stock["gold"]
    assert not runner.perform(choice, 0)  # 0 paid, then refused
    # every other amount is refused the same way before any other question: settled by
    # trial runs, so the action itself is no longer offered, and says why
    refused = runner.available("work", 0, turns, True).pop("__refused__")
    assert "action:strain" not in runner.available("work", 0, turns, True)
    assert refused["Strain"] == "refused: needs fame 5"
    assert [d.kind for d, _ in agent.asked] == ["number"] and agent.failed == [
        ("Strain", "needs fame 5")]
    # the trials changed nothing, asked nothing and recorded nothing
    assert game.state.players[0].stock["gold"] == gold and game.record == [0]


def test_a_refused_number_is_not_offered_again_and_then_the_action_is_refused(tmp_path):
    rs = tiny_with(tmp_path, STRETCH)
    agent = Watching(FirstAgent())
    game, result = play(rs, agent)
    assert result.finished and result.rounds == 2
    # the first position: 0 refused, then 1, then 2; 3 is then the only answer (not
    # asked). A trial cannot settle them: another question follows the number
    amounts = [(d.low, d.high) for d, _ in agent.asked if d.kind == "number"
               and d.high == 3][:3]
    assert amounts == [(0, 3), (1, 3), (2, 3)]
    assert agent.failed[:4] == [("Stretch", "needs more fame")] * 4
    # each refused amount is listed with the reason it was refused for
    _, refused = next((d, r) for d, r in agent.asked if d.kind == "number" and d.low == 2)
    assert refused == {"0": "refused: needs more fame", "1": "refused: needs more fame"}
    # with every amount refused, the action is refused: listed, with the reason, not offered
    after = next(r for d, r in agent.asked if d.kind == "action"
                 and "Stretch" not in [o.label for o in d.options])
    assert after["Stretch"] == "refused: needs more fame"
    # the game went on: the first action left was taken
    assert game.state.players[0].stock["gold"] > 3


def test_an_answer_that_can_be_carried_out_is_still_offered(tmp_path):
    rs = tiny_with(tmp_path, PICK)
    agent = Watching(FirstAgent())
    game = Game(rs, 1, 1, [agent])
    game.state.round = 1
    runner = FlowRunner(game)
    choice = runner.available("work", 0, {"card_actions": False}, True)["action:pick"]
    gold = game.state.players[0].stock["gold"]
    assert not runner.perform(choice, 0)  # 1: refused; a trial refuses 2; 3 goes through
    assert runner.perform(choice, 0)  # 3, the only answer left: taken without asking
    assert game.state.players[0].stock["gold"] == gold + 3
    asked = [[o.label for o in d.options] for d, _ in agent.asked]
    assert asked == [["1", "2", "3"]]
    assert game.last_forced.refused == {"1": "refused: only three will do",
                                        "2": "refused: only three will do"}
    # the action succeeded: the position has moved on and nothing is remembered
    assert not game.refusals.known


def test_a_number_refused_inside_the_range_leaves_the_others(tmp_path):
    rs = tiny_with(tmp_path, COUNT)
    game = Game(rs, 1, 1, [ScriptedAgent([2, 2])])
    game.state.round = 1
    runner = FlowRunner(game)
    choice = runner.available("work", 0, {"card_actions": False}, True)["action:count"]
    assert not runner.perform(choice, 0)  # 2: refused
    agent = Watching(ScriptedAgent([2]))
    game.agents = [agent]
    assert runner.perform(choice, 0)
    decision, refused = agent.asked[0]
    assert decision.kind == "number" and not decision.is_range
    assert [o.value for o in decision.options] == [0, 1, 3, 4]
    assert refused == {"2": "refused: two is unlucky"}
    assert game.state.players[0].stock["gold"] == 3 + 3  # the third number left: 3
    # the record holds the answers as asked; replayed, they make the same game
    again = Game(rs, 1, 1, [ScriptedAgent(list(game.record))])
    again.state.round = 1
    runner = FlowRunner(again)
    assert not runner.perform(choice, 0) and runner.perform(choice, 0)
    assert again.state.digest() == game.state.digest()


def test_a_long_range_with_a_hole_is_asked_as_a_stretch_then_a_number(tmp_path):
    rs = tiny_with(tmp_path, LONG)
    game = Game(rs, 1, 1, [ScriptedAgent([100])])
    game.state.round = 1
    runner = FlowRunner(game)
    choice = runner.available("work", 0, {"card_actions": False}, True)["action:long"]
    assert not runner.perform(choice, 0)  # 100: refused
    agent = Watching(ScriptedAgent([1, 150]))
    game.agents = [agent]
    assert runner.perform(choice, 0)
    (stretches, refused), (number, _) = agent.asked
    assert [o.label for o in stretches.options] == ["from 0 to 99", "from 101 to 200"]
    assert refused == {"100": "refused: a hundred is too round"}
    assert number.is_range and (number.low, number.high) == (101, 200)
    assert game.state.players[0].stock["gold"] == 3 + 150
    assert game.record[-2:] == [1, 150]


def test_a_person_is_told_why_a_refused_number_is_not_allowed(tmp_path):
    rs = tiny_with(tmp_path, COUNT)
    game = Game(rs, 1, 1, [ScriptedAgent([2])])
    game.state.round = 1
    runner = FlowRunner(game)
    choice = runner.available("work", 0, {"card_actions": False}, True)["action:count"]
    runner.perform(choice, 0)
    seen = Watching(ScriptedAgent([0]))
    game.agents = [seen]
    runner.perform(choice, 0)
    decision = seen.asked[0][0]
    assert HumanAgent.parse(decision, "2") == (None, "2 is not allowed now: refused: two is "
                                                     "unlucky")
    assert HumanAgent.parse(decision, "3") == (2, None)  # typed as the number, not its place


def test_a_record_with_refusals_replays_to_the_same_game(tmp_path):
    rs = tiny_with(tmp_path, STRAIN)
    game, result = play(rs, FirstAgent(), players=2)
    again, replayed = play(rs, ScriptedAgent(list(game.record)), players=2)
    assert replayed.final_hash == result.final_hash
    assert again.record == game.record


def test_a_copy_of_the_game_keeps_its_refusals_to_itself(tmp_path):
    rs = tiny_with(tmp_path, STRAIN)
    game = Game(rs, 1, 1, [FirstAgent()])
    game.refusals.begin(0, "action:strain")
    game.refusals.refuse("needs fame 5")
    copy = game.__copy__()
    assert copy.refusals.actions(0) == {"action:strain": "needs fame 5"}  # it asks the same
    copy.refusals.begin(0, "action:earn")
    copy.refusals.refuse("no")
    assert game.refusals.actions(0) == {"action:strain": "needs fame 5"}


@pytest.mark.parametrize("players", [1, 2])
def test_an_agent_answering_the_same_way_always_ends_the_game(tmp_path, players):
    rs = tiny_with(tmp_path, STRAIN + STRETCH + PICK + COUNT)
    for inner in (FirstAgent(), LastAgent()):
        agent = Watching(inner)
        game, result = play(rs, agent, players)
        assert result.finished and result.rounds == 2
        # every turn took its one required action at least, and before each action taken
        # each answer was refused at most once: Strain once (its trials settle the rest),
        # Stretch's 4 amounts, Pick's first item (a trial settles the second) and
        # Count's 2 (the only one refused)
        taken = sum(v for k, v in game.state.tally.items() if k[0] == "action")
        assert taken >= 2 * players
        assert len(agent.failed) <= taken * (1 + 4 + 1 + 1)


# a choice whose condition compares a card's number with a stock named by a parameter
SPARE = """  - id: spare
    name: Spare
    do: spare_some(gold)
"""
SPARE_PROC = """
procedures:
  - id: spare_some
    phrase: "spare some {r}"
    params: {r: resource}
    do: |
      let g = choose(x in cards_in(hand) where x.cost - 1 > stock(r))
      put(g, tableau)
"""


def test_a_card_left_out_is_refused_in_words_with_the_parameters_values(tmp_path):
    """A refusal of a card a choice leaves out says the rule in words: a parameter reads
    as what it stands for ('gold', never 'the r'), a card by its name, and a bound
    nothing can meet ('at most -1') is never asked of a stock."""
    rs = _tiny_plus(tmp_path, SPARE, SPARE_PROC)
    game = Game(rs, 1, 1, [Agent()])
    from rulebook_games.lang import ast
    tree = rs.asts[("procedure", "spare_some")]
    node = next(n for n in ast.walk(tree) if getattr(n, "where", None) is not None)
    lamp = next(i for i, c in game.state.cards.items() if c.def_id == "lamp")
    statue = next(i for i, c in game.state.cards.items() if c.def_id == "statue")
    from rulebook_games.engine.state import CardRef
    f = game.frame(0)
    f.vars["r"] = "gold"
    game.state.players[0].stock["gold"] = 3
    f.vars[node.var] = CardRef(statue)  # cost 3: needs at most 1 gold; there are 3
    said = rs.words.why_not(node.where, f)
    assert "gold" in said and "the r" not in said and "1" in said, said
    f.vars[node.var] = CardRef(lamp)  # cost 1: no stock of gold would do
    said = rs.words.why_not(node.where, f)
    assert "-1" not in said and "the r" not in said and "Lamp" in said, said


# a choice among cards, part of whose condition reads only the cards' printed data
SORT = """  - id: sort
    name: Sort
    do: |
      draw(4, deck, hand)
      let g = choose(x in cards_in(hand) where x.cost <= 2 and x.cost <= stock(gold) - 2)
      put(g, tableau)
"""


def test_a_card_its_printed_data_keeps_out_is_not_listed_as_not_available(tmp_path):
    """A card no game state could ever let the choice take (here the Statue, cost 3,
    where the choice takes cards costing at most 2) is not an option at all: it is not
    listed as 'not now'. A card kept out by what can change (the Coupon, cost 2, with 3
    gold: at most 1) is listed, with its reason."""
    rs = tiny_with(tmp_path, SORT)
    agent = Watching(FirstAgent())
    play(rs, agent)
    asked = [(d, refused) for d, refused in agent.asked
             if any(o.label == "Lamp" for o in d.options)]
    assert asked
    decision, refused = asked[0]
    assert "Coupon" in refused, refused
    assert "Statue" not in refused


def test_a_refusal_by_a_condition_of_several_parts_says_the_part_that_fails(tmp_path):
    """'only when you can build Alhambra' (Timespan playtest) says the option again: a
    function whose body joins parts with 'and' is explained by the part that fails."""
    action = """  - id: show
    name: Show
    do: |
      let g = choose(x in cards_in(hand) where can_show(x))
      put(g, tableau)
"""
    rs = _tiny_plus(tmp_path, action, """
functions:
  - id: can_show
    phrase: "you can show {c}"
    params: {c: card}
    returns: bool
    value: has_a_colour(c) and famous_for(c)
  - id: has_a_colour
    phrase: "{c} has a colour"
    params: {c: card}
    returns: bool
    value: c.tags has red or c.tags has blue
  - id: famous_for
    phrase: "you are famous enough for {c}"
    params: {c: card}
    returns: bool
    value: fame >= c.cost
""")
    game = Game(rs, 1, 1, [Agent()])
    from rulebook_games.engine.state import CardRef
    from rulebook_games.lang import ast
    tree = rs.asts[("action", "show", "do")]
    node = next(n for n in ast.walk(tree) if getattr(n, "where", None) is not None)
    statue = next(i for i, c in game.state.cards.items() if c.def_id == "statue")
    f = game.frame(0)
    f.vars[node.var] = CardRef(statue)
    said = rs.words.why_not(node.where, f)
    assert "can show" not in said and "fame" in said and "3" in said, said


# a function whose reason says the two sides of its comparison, as they stand
RICH = """  - id: boast
    name: Boast
    if: rich()
    do: raise fame
"""
RICH_FN = """functions:
  - id: rich
    returns: bool
    value: stock(gold) >= 2 * 5
    reason: "you have {left} gold, and boasting takes {right}"
"""


def test_a_functions_reason_says_the_sides_of_its_comparison_with_their_numbers(tmp_path):
    rs = _tiny_plus(tmp_path, RICH, RICH_FN)
    seen = []

    class Watch(Agent):  # earns gold whenever it can (the tiny game starts with 3 gold)
        def decide(self, decision, view, game):
            seen.append(dict(decision.refused))
            return next(i for i, o in enumerate(decision.options) if "Earn" in o.label) \
                if decision.kind == "action" else 0
    play(rs, Watch())
    boast = [r["Boast"] for r in seen if "Boast" in r]
    # 3 gold, then 2 more at each Earn gold: each refusal with the gold of its moment
    assert boast == [f"you have {g} gold, and boasting takes 10" for g in (3, 5, 7, 9)]


@pytest.mark.parametrize("reason, why", [
    ("you have {gold}", "has no other braces"),
    ("you have {left gold", "has no other braces"),
    ("rich takes {right}", None)])
def test_a_reason_names_only_the_sides_of_a_comparison(tmp_path, reason, why):
    fn = RICH_FN.replace('"you have {left} gold, and boasting takes {right}"', f'"{reason}"')
    if why is None:  # braces on a function whose value is no comparison
        fn = fn.replace("value: stock(gold) >= 2 * 5", "value: not (stock(gold) < 10)")
        why = "its value is no comparison"
    with pytest.raises(RulebookError) as err:
        _tiny_plus(tmp_path, RICH, fn)
    (d,) = [d for d in err.value.diagnostics if d.code == "RB404"]
    assert why in d.message and d.span.file.endswith("flow.yaml")
    assert d.span.line == fn.count("\n", 0, fn.index("reason")) + \
        (TINY / "flow.yaml").read_text().count("\n") + RICH.count("\n") + 1


# a price as a list of goods: every good held as often as the price names it
PAY_ALL = """  - id: pay_all
    name: Pay for it all
    if: can_pay_all([gold, gold, cube])
    do: gain 1 gold
"""
PAY_ALL_FN = """
functions:
  - id: can_pay_all
    phrase: "you can pay {l}"
    params: {l: "list[resource]"}
    returns: bool
    value: all(r in l where stock(r) >= occurrences(l, r))
"""


def test_a_price_of_several_goods_is_refused_with_the_good_short_and_the_numbers(tmp_path):
    """Playtest (Timespan): "only when you can pay Alhambra's cost" named what was asked
    and not what was short. A price is paid only when each good is held as often as the
    price names it: the refusal names the first good short, how many it takes and how
    many you have, in the good's own words (one cube, two gold)."""
    rs = _tiny_plus(tmp_path, PAY_ALL, PAY_ALL_FN)
    game = Game(rs, 1, 1, [Agent()])
    tree = rs.asts[("action", "pay_all", "if")]
    stock = game.state.players[0].stock
    f = game.frame(0)
    stock["gold"], stock["cube"] = 1, 5
    assert rs.words.why_not(tree, f) == "needs at least 2 gold; you have 1 gold"
    stock["gold"], stock["cube"] = 2, 0
    assert rs.words.why_not(tree, f) == "needs at least 1 cube; you have 0 cubes"


PAY_MEANS = """  - id: pay_means
    name: Pay with what you can spend
    if: all(r in [gold, cube] where spendable(r) >= 1)
    do: gain 1 gold
"""
PAY_MEANS_FN = """
functions:
  - id: spendable
    phrase: "your {r} to spend"
    amount: "{n} {r}"
    params: {r: resource}
    returns: number
    value: stock(r)
"""


def test_an_amount_of_a_good_named_by_a_parameter_agrees_with_its_count(tmp_path):
    """A function's `amount: "{n} {r}"`, r a good: '1 cube', '0 cubes' (Timespan's market
    said 'you have 1 coins')."""
    rs = _tiny_plus(tmp_path, PAY_MEANS, PAY_MEANS_FN)
    game = Game(rs, 1, 1, [Agent()])
    tree = rs.asts[("action", "pay_means", "if")]
    stock = game.state.players[0].stock
    stock["gold"], stock["cube"] = 4, 0
    assert rs.words.why_not(tree, game.frame(0)) == "needs at least 1 cube; you have 0 cubes"
