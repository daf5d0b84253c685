"""An answer meant for a question that was taken for you does not answer the next one
(issue 29's playtests: TM "Pay how many steel? → 3 (the only choice, taken for you)",
then the typed 3 placed a tile; Legacy "Travel to the past → 1 (taken for you)", then
the typed 1 started an action from the menu).

The rule, at a person's terminal: the first answer after a question was taken for
you, with nobody else deciding in between, is not taken when it would also have
answered the taken question, either by naming its very answer (the number of a range,
an option's key or words: however late it comes) or by the number 1 of a taken list
when it comes at once (too soon to have read the new question); what it would answer
here is said back, and Enter or typing it again takes it. Any other answer is taken at
once, and a script is never asked twice.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from rulebook_games.cli.loading import load_named
from rulebook_games.engine.decisions import Decision, Option
from rulebook_games.play.session import build_game
from rulebook_games.play.terminal import HumanAgent


@pytest.fixture(scope="module")
def legacy():
    return load_named("legacy_gears_of_time", ())


class _Typing:
    """A person's keyboard: each line typed, once the question is on the screen."""

    def __init__(self, lines):
        self.lines, self.prompts = list(lines), 0

    def __call__(self, prompt=""):
        self.prompts += 1
        return self.lines.pop(0)


def _seat(legacy, typed, script=None):
    out = io.StringIO()
    keyboard = _Typing(typed)
    human = HumanAgent(Console(file=out, width=100), keyboard, script=script)
    game = build_game(legacy, 2, 3, ["human", "random"])
    game.agents[0] = human
    game.keep_log = True
    human.news(game, 0)  # everything before is seen
    return game, human, out, keyboard


FRAME = Decision(0, "item", "Travel to which time frame?",
                 [Option("time frame 1", "frame_1", "f1")])
STEEL = Decision(0, "number", "Pay how many steel?", low=3, high=3)


def _menu():
    return Decision(0, "item", "choose an action",
                    [Option("Establish a technology", "est", "est"),
                     Option("Draw two, keep one", "draw", "draw"),
                     Option("Influence a technology", "inf", "inf")])


def test_the_number_meant_for_a_taken_question_is_asked_again(legacy):
    game, human, out, keyboard = _seat(legacy, ["1", "1"])
    assert game._ask(FRAME) == 0  # taken: not asked
    assert game._ask(_menu()) == 0  # '1' twice: then it answers the menu
    assert keyboard.prompts == 2
    shown = out.getvalue()
    assert "Travel to which time frame? → time frame 1 (the only choice, taken for you)" \
        in shown
    note = " ".join(shown[shown.index("taken for you)") + 1:].split())
    assert "may have been meant for" in note and "Travel to which time frame?" in note
    assert "type 1 again to take it" in note


def test_a_taken_number_and_the_same_number_typed_next(legacy):
    game, human, out, keyboard = _seat(legacy, ["3", "2"])
    assert game._ask(STEEL) == 3
    assert game._ask(_menu()) == 1  # '3' was for the steel; then '2' answers
    assert keyboard.prompts == 2
    assert "Pay how many steel?" in " ".join(out.getvalue().split("→ 3")[1].split())


def test_an_answer_that_could_not_be_for_the_taken_question_is_taken_at_once(legacy):
    game, human, out, keyboard = _seat(legacy, ["2", "3", "3"])
    game._ask(FRAME)
    assert game._ask(_menu()) == 1
    assert keyboard.prompts == 1 and "meant for" not in out.getvalue()
    game._ask(STEEL)
    assert game._ask(_menu()) == 2  # '3' would have paid 3 steel, but… see below
    assert keyboard.prompts == 3  # …it is asked again: it could have been meant for it


def test_only_the_first_answer_after_it_and_only_right_after_it(legacy):
    game, human, out, keyboard = _seat(legacy, ["est", "1"])
    game._ask(FRAME)
    assert game._ask(_menu()) == 0  # a key of the menu: not the frame's
    assert game._ask(_menu()) == 0  # the next question: asked as usual
    assert keyboard.prompts == 2
    # another person decided since the question was taken (two people at one terminal):
    # the person saw that happen (an agent's answer does not count: see below)
    game, human, out, keyboard = _seat(legacy, ["1"])
    game.agents[1] = HumanAgent(Console(file=io.StringIO(), width=100), _Typing([]))
    game._ask(FRAME)
    game.deciders.append(1)
    assert game._ask(_menu()) == 0 and keyboard.prompts == 1


def test_a_script_is_read_as_written(legacy):
    """A script's answers are each for the question it is read at; never asked twice."""
    script = _Typing(["1"])
    script.line = 1
    game, human, out, keyboard = _seat(legacy, [], script=script)
    human.input = script
    game._ask(FRAME)
    assert game._ask(_menu()) == 0 and script.prompts == 1


def test_an_answer_given_once_the_question_could_be_read_is_taken(legacy, monkeypatch):
    # the Legacy playtester of the next day read the question on the screen, typed 1,
    # and was told it "would have answered" the one taken for them: three times in one
    # game. Only an answer that comes at once after the question is drawn (typed before
    # it could be read) is asked for again.
    import rulebook_games.play.terminal as terminal
    clock = iter([100.0, 100.0 + terminal.TAKEN_GRACE + 0.5])
    monkeypatch.setattr(terminal, "_now", lambda: next(clock))
    game, human, out, keyboard = _seat(legacy, ["1"])
    assert game._ask(FRAME) == 0  # taken: not asked
    assert game._ask(_menu()) == 0  # read, then answered: taken at once
    assert keyboard.prompts == 1 and "meant for" not in out.getvalue()


def _late(monkeypatch):
    """A clock on which every answer comes well after its question was drawn."""
    import rulebook_games.play.terminal as terminal
    times = iter(range(100, 10_000, 60))
    monkeypatch.setattr(terminal, "_now", lambda: float(next(times)))


def test_the_taken_answer_itself_typed_late_is_shown_back_and_confirmed(legacy, monkeypatch):
    # playtest 31 (TM): "Pay how many steel? → 2 (the only choice, taken for you)"; the
    # player, reading slowly, typed 2 for it well after the grace, and it answered the
    # action menu: "2. sp Standard project: sell patents". Typing the taken question's
    # very answer (its number, its key) is asked to be confirmed however late it comes.
    _late(monkeypatch)
    steel = Decision(0, "number", "Pay how many steel?", low=2, high=2)
    game, human, out, keyboard = _seat(legacy, ["2", "2"])
    assert game._ask(steel) == 2
    assert game._ask(_menu()) == 1  # confirmed by typing it again
    assert keyboard.prompts == 2
    note = " ".join(out.getvalue().split("taken for you)", 1)[1].split())
    # what it would answer here is said back, with the question it may have been meant for
    assert "Draw two, keep one" in note and "Pay how many steel?" in note
    # a key typed late for a card question taken for you: the same
    game, human, out, keyboard = _seat(legacy, ["f1", "inf"])
    game._ask(FRAME)
    menu = Decision(0, "item", "choose an action",
                    [Option("time frame 1 again", "x", "f1"), Option("Influence", "inf", "inf")])
    assert game._ask(menu) == 1  # f1 was shown back; inf then answers at once
    assert keyboard.prompts == 2 and "Travel to which time frame?" in out.getvalue()


def test_enter_confirms_the_answer_shown_back(legacy, monkeypatch):
    _late(monkeypatch)
    steel = Decision(0, "number", "Pay how many steel?", low=2, high=2)
    game, human, out, keyboard = _seat(legacy, ["2", ""])
    game._ask(steel)
    assert game._ask(_menu()) == 1 and keyboard.prompts == 2
    assert "type the number of your choice" not in out.getvalue()


def test_a_late_option_number_of_a_taken_list_is_taken(legacy, monkeypatch):
    # the one option of a list taken for you is number 1 of it: a 1 typed once the next
    # question could be read is that question's 1 (the Legacy player of play 30)
    _late(monkeypatch)
    game, human, out, keyboard = _seat(legacy, ["1"])
    game._ask(FRAME)
    assert game._ask(_menu()) == 0 and keyboard.prompts == 1


def test_your_own_move_names_what_was_taken_for_you(legacy):
    # playtests 29-31 (Timespan): "Unlock a technology → Masonry (the only choice, taken
    # for you)", then the news said only "Player 1 (human): Unlock a technology on your
    # tech board"; a camel sent by two taken answers read "…: Culture 7 → 9". The line
    # taken for you is not printed twice, and the move's headline still names it.
    game, human, out, keyboard = _seat(legacy, [])
    game.hold_log()  # (as while an action runs: told once it has succeeded)
    game.log("Player 1 (human): Travel to the past")
    assert game._ask(FRAME) == 0
    game.log("  Player 1 (human): Time frame 5 → 1")
    game.release_log(True)
    groups = human.news_groups(game, 0)
    assert groups[0][0] == "Player 1 (human): Travel to the past: time frame 1", groups
    assert not any("taken for you" in line for g in groups for line in g)


def test_a_late_start_of_the_taken_options_words_is_taken(legacy, monkeypatch):
    # only its very key or words are read as meant for the taken question once the next
    # question could be read: 'd' may start an option of either
    _late(monkeypatch)
    game, human, out, keyboard = _seat(legacy, ["ti"])
    game._ask(FRAME)
    menu = Decision(0, "item", "choose an action",
                    [Option("Draw", "d", "dr"), Option("time travel", "t", "ti")])
    assert game._ask(menu) == 1 and keyboard.prompts == 1


def test_several_questions_taken_in_a_row_are_all_named(legacy):
    """Playtest 32 (Legacy): three questions were taken in a row, and the note named
    the last of them, not the cube count the '1' was meant for. Every question taken
    that the answer would have answered is named, in the order they were taken."""
    cubes = Decision(0, "number", "Put how many cubes on Fire?", low=1, high=1)
    game, human, out, keyboard = _seat(legacy, ["1", "1"])
    game._ask(cubes)
    game._ask(FRAME)
    assert game._ask(_menu()) == 0
    note = " ".join(out.getvalue().split("taken for you)")[-1].split())
    assert "meant for \"Put how many cubes on Fire?\" or \"Travel to which time frame?\", " \
        "which were taken for you" in note


def test_questions_taken_around_an_agents_answer_are_still_in_a_row(legacy):
    """Playtest 32 (Legacy), as played: the cube count and the turn's end were taken for
    the player, the agent chose its place in the next turn order at once, and the
    player's own place was taken; the '1' typed for the cube count named only the place.
    An agent's answer comes at once, with nothing for the person to read: the questions
    taken before and after it are in a row, and each the answer would answer is named."""
    cubes = Decision(0, "number", "Put how many cubes on Fire?", low=1, high=1)
    place = Decision(0, "item", "Which place do you take in the next turn order?",
                     [Option("1st", "1", "1st")])
    game, human, out, keyboard = _seat(legacy, ["1", "1"])
    game._ask(cubes)
    game._ask(FRAME)
    game.deciders.append(1)  # (the random agent of seat 2 chose its place)
    game._ask(place)
    assert game._ask(_menu()) == 0 and keyboard.prompts == 2
    note = " ".join(out.getvalue().split("taken for you)")[-1].split())
    assert "meant for \"Put how many cubes on Fire?\" or \"Travel to which time frame?\" " \
        "or \"Which place do you take in the next turn order?\", which were taken for " \
        "you" in note, note


def test_an_answer_only_a_taken_question_had_says_it_was_taken(legacy):
    """Playtest 33 (Lantern Row): 'jc' typed for a hang that was taken for the player
    met the next question with a bare "no option matches 'jc'". Typed for a question
    taken for you and matching nothing here, it says which question it would have
    answered."""
    hang = Decision(0, "item", "Hang which lantern?", [Option("Jade Carp", "jade", "jc")])
    game, human, out, keyboard = _seat(legacy, ["jc", "est"])
    assert game._ask(hang) == 0  # taken: not asked
    assert game._ask(_menu()) == 0
    shown = " ".join(out.getvalue().split())
    assert "no option matches 'jc' here; it would have answered \"Hang which lantern?\", " \
        "which was taken for you" in shown, shown
