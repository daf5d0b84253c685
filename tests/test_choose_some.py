"""choose_some: a set picked as a set (issue 26: research and starting hands).

Written from what the builtin promises: up to ``most`` of the items, each at
most once, every item listed before the first pick, 'done' listed last (as
'none' is) so that any agent comes to an end, and the picks returned in the order made.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent, FirstAgent, LastAgent, ScriptedAgent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game

TINY = Path(__file__).parent / "fixtures" / "tiny"

# keep up to two of the cards in hand (put them in the tableau): 2 gold for each kept
KEEP = """  - id: keep
    name: Keep some
    do: |
      let kept = choose_some(cards_in(hand), 2)
      for k in kept:
        put(k, tableau)
        gain 2 gold
"""


def tiny_with(tmp_path, action: str, hand: int):
    work = tmp_path / "tiny"
    shutil.copytree(TINY, work)
    flow = work / "flow.yaml"
    text = flow.read_text().replace("actions:\n  - id: earn\n",
                                    "actions:\n" + action + "  - id: earn\n")
    flow.write_text(text.replace("draw(2, deck, hand, p)", f"draw({hand}, deck, hand, p)"))
    return load_ruleset(work)


class Watching(Agent):
    wants_view = False

    def __init__(self, inner):
        self.inner, self.asked = inner, []

    def decide(self, decision, view, game):
        self.asked.append(decision)
        return self.inner.decide(decision, view, game)


def keep(rs, agent):
    game = Game(rs, 1, 1, [agent])
    game.state.phase = "setup"
    game.run_code(("flow", "setup"), game.frame(None))  # the hand is dealt
    game.state.round = 1
    runner = FlowRunner(game)
    hand = list(game.state.zones[("hand", 0)])
    game.gold_before = game.state.players[0].stock["gold"]
    choice = runner.available("work", 0, {"card_actions": False}, True)["action:keep"]
    assert runner.perform(choice, 0)
    return game, hand


def test_every_item_is_listed_before_the_first_pick_with_done_last(tmp_path):
    rs = tiny_with(tmp_path, KEEP, 3)
    agent = Watching(ScriptedAgent([1, 0]))  # the second card, then the first left
    game, hand = keep(rs, agent)
    first = agent.asked[0]
    assert [o.label for o in first.options] == [game.card_name(c) for c in hand] + ["done"]
    assert "up to 2" in first.prompt and "your hand" in first.prompt
    second = agent.asked[1]
    # the card picked is no longer offered, and the question says what is chosen
    assert [o.value for o in second.options[:-1]] == [hand[0], hand[2]]
    assert "1 more" in second.prompt and game.card_name(hand[1]) in second.prompt
    # two picked: no third question; the picks in the order made
    assert len(agent.asked) == 2
    assert game.state.zones[("tableau", 0)] == [hand[1], hand[0]]
    assert game.state.players[0].stock["gold"] == game.gold_before + 4


def test_done_ends_the_picking_and_an_agent_that_always_takes_the_last_keeps_nothing(tmp_path):
    rs = tiny_with(tmp_path, KEEP, 3)
    agent = Watching(LastAgent())
    game, hand = keep(rs, agent)
    assert len(agent.asked) == 1
    assert game.state.zones[("tableau", 0)] == [] and game.state.zones[("hand", 0)] == hand


def test_an_agent_that_always_takes_the_first_stops_at_the_most(tmp_path):
    rs = tiny_with(tmp_path, KEEP, 4)
    agent = Watching(FirstAgent())
    game, hand = keep(rs, agent)
    assert len(agent.asked) == 2
    assert game.state.zones[("tableau", 0)] == [hand[0], hand[1]]


def test_nothing_is_asked_when_there_is_nothing_to_pick_or_no_room(tmp_path):
    rs = tiny_with(tmp_path, KEEP.replace("cards_in(hand), 2", "cards_in(hand), 0"), 3)
    agent = Watching(LastAgent())
    game, hand = keep(rs, agent)
    assert agent.asked == [] and game.state.zones[("tableau", 0)] == []


def test_whole_games_with_it_end_and_replay(tmp_path):
    rs = tiny_with(tmp_path, KEEP, 3)
    for agent in (FirstAgent(), LastAgent()):
        game = Game(rs, 2, 5, [agent, agent])
        result = FlowRunner(game).play()
        again = Game(rs, 2, 5, [ScriptedAgent(list(game.record))] * 2)
        assert FlowRunner(again).play().final_hash == result.final_hash


def test_the_question_never_offers_more_than_are_left(tmp_path):
    rs = tiny_with(tmp_path, KEEP.replace("cards_in(hand), 2", "cards_in(hand), 5"), 3)
    agent = Watching(FirstAgent())
    game, hand = keep(rs, agent)
    assert "up to 3 of" in agent.asked[0].prompt and "up to 2 more" in agent.asked[1].prompt
    assert game.state.zones[("tableau", 0)] == hand  # all three, then nothing is left


# ------------------------------------------------------------- at the terminal
def _typed(lines):
    import io
    from rich.console import Console
    from rulebook_games.play.terminal import HumanAgent
    out = io.StringIO()
    answers = list(lines)

    def read(prompt=""):
        if not answers:
            raise AssertionError("asked once more than typed:\n" + out.getvalue())
        return answers.pop(0)
    return HumanAgent(Console(file=out, width=100), read), out, answers


def test_a_person_types_the_whole_set_at_once(tmp_path):
    """'1 3 done' at the first question keeps the first and third cards as listed then,
    and the set ends there: nothing more is asked."""
    rs = tiny_with(tmp_path, KEEP.replace("cards_in(hand), 2", "cards_in(hand), 3"), 4)
    human, out, left = _typed(["1 3 done"])
    game, hand = keep(rs, human)
    assert left == []
    assert game.state.zones[("tableau", 0)] == [hand[0], hand[2]]
    shown = out.getvalue()
    assert "several at once" in shown  # the question says it may be answered so
    # the picks after the first are shown in place, with their question, then 'done'
    assert f"→ {game.card_name(hand[2])}" in shown and "→ done" in shown


def test_a_pick_ends_on_done_whether_one_or_several_are_typed(tmp_path):
    """One rule (issue 30): a pick of a set ends on 'done', or by itself when no more
    may be picked; two picks typed at once do not end it while room is left (a
    'done' typed next finishes it, instead of falling on the next question)."""
    rs = tiny_with(tmp_path, KEEP.replace("cards_in(hand), 2", "cards_in(hand), 3"), 4)
    human, out, left = _typed(["1 3", "done"])  # two at once, then done
    game, hand = keep(rs, human)
    assert left == [] and game.state.zones[("tableau", 0)] == [hand[0], hand[2]]
    assert "type done to finish" in out.getvalue()  # the rule, under the question
    human, out, left = _typed(["1", "done"])  # one, then done: the same
    game, hand = keep(rs, human)
    assert left == [] and game.state.zones[("tableau", 0)] == [hand[0]]
    human, out, left = _typed(["1 2", "1"])  # the third fills it: it ends by itself
    game, hand = keep(rs, human)
    assert left == [] and len(game.state.zones[("tableau", 0)]) == 3
    assert "it ends the pick" in out.getvalue()  # said before the last one is typed


def test_pass_or_end_does_not_finish_a_pick_unasked(tmp_path):
    """'pass' (and 'end'), the words that end a turn, typed at a pick of a set are
    refused with a hint, not taken as 'done' (issue 30: four cards given up unasked)."""
    rs = tiny_with(tmp_path, KEEP, 4)
    human, out, left = _typed(["2", "pass", "end", "done"])
    game, hand = keep(rs, human)
    assert left == [] and game.state.zones[("tableau", 0)] == [hand[1]]
    shown = " ".join(out.getvalue().split())
    assert "'pass' does not end this pick: type done to finish with what you have " \
        "picked so far" in shown
    assert "'end' does not end this pick" in shown


def test_a_set_typed_at_once_is_refused_whole_when_a_part_is_wrong(tmp_path):
    rs = tiny_with(tmp_path, KEEP.replace("cards_in(hand), 2", "cards_in(hand), 2"), 4)
    human, out, left = _typed(["1 1", "1 2 3", "9 1", "2 1"])
    game, hand = keep(rs, human)
    shown = out.getvalue()
    assert "chosen twice" in shown and "at most 2" in shown and "9:" in shown
    assert left == [] and game.state.zones[("tableau", 0)] == [hand[1], hand[0]]
