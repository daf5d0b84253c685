"""What a person at the terminal gets: words, the news since their last decision, commands.

Games are played through the real command line with a `human` seat fed from
standard input, as a person would type. Expectations come from the issue's
description of the view: prompts name what is decided and for which card,
refusals give their reason with the numbers, the log tells what happened
since the last decision, and `help`, `card NAME`, `log`, `state` and `undo`
work at any prompt, `undo` only when it cannot be used to peek.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.engine.game import Game

GAME = "legacy_gears_of_time"


def play(cwd, answers: list[str], *extra, seed: int = 3):
    return subprocess.run([sys.executable, "-m", "rulebook_games", "play", GAME, "-p", "2",
                           "--agents", "human,random", "--seed", str(seed), *extra],
                          cwd=cwd, input="".join(f"{a}\n" for a in answers),
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, COLUMNS="200"))  # no line wrapping


def test_commands_at_a_prompt_do_not_answer_it(tmp_path):
    proc = play(tmp_path, ["help", "card Printing Press", "card printing prss", "log 3",
                           "state", "state more", "state more", "state more", "save"])
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "card NAME" in out and "undo" in out  # the list of commands
    # a card's text, generated from its effects, by its printed name
    assert "Printing Press (cost 3 · technology)" in out
    assert "Needs Writing and Metallurgy" in out
    assert "no card is called 'printing prss'; did you mean 'Printing Press'" in out
    # 'state' draws everything the seat may see, with the table of players (a screen
    # at a time: 'state more' the next page)
    assert "Player 1 (human)" in out and "Player 2 (random)" in out
    assert "saved after" in out


def test_undo_goes_back_to_your_previous_decision(tmp_path):
    # choose a character, travel from the present day (frame 5 with two players) to
    # frame 3, then take it back and travel to frame 2
    proc = play(tmp_path, ["1", "Travel to the past", "3", "undo", "2", "save"],
                "--save", "game.json")
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "Time frame 5 → 3" in out
    back = out.index("back to your previous decision")
    assert "Time frame 5 → 2" in out[back:]
    record = json.loads((tmp_path / "game.json").read_text())
    rs = load_ruleset(GAME)

    class Script(Agent):
        scripted = True
        wants_view = False

        def __init__(self, answers):
            self.answers = list(answers)

        def decide(self, decision, view, game):
            if not self.answers:
                raise KeyboardInterrupt
            return self.answers.pop(0)
    script = Script(record["decisions"])
    game = Game(rs, 2, 3, [script, script])
    try:
        from rulebook_games.engine.flow import FlowRunner
        FlowRunner(game).play()
    except KeyboardInterrupt:
        pass
    # the record holds the second answer only: the game went on from frame 2
    assert game.state.players[0].tracks["frame"] == 2


def test_undo_is_refused_once_a_hidden_card_has_come_out(tmp_path):
    # keep one of the two cards drawn, undo that (the draw came before it: allowed),
    # then undo again: that would go back before the draw, after seeing the cards
    proc = play(tmp_path, ["1", "Draw two, keep one", "1", "undo", "undo", "save"])
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    first = out.index("back to your previous decision")
    assert "undo is not possible now: a hidden card or a random draw has come out since" \
        in out[first:]


def test_the_news_since_your_last_decision_comes_first(tmp_path):
    proc = play(tmp_path, ["1", "Travel to the past", "3", "save"])
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    # the action and what it did are told before the next prompt, then the status line
    after = out[out.index("Time frame 5 → 3"):]
    assert after.index("You: ") < after.index("choose an action")


def test_a_refusal_says_what_failed_with_the_numbers(tmp_path):
    proc = play(tmp_path, ["1", "save"])
    # at the start a player stands in the present day (frame 5 with two players):
    # establishing needs a frame of the past, and the reason says so in the game's words
    assert "Establish a technology in your time frame (not now: you are on the present " \
           "day: travel to the past first)" in proc.stdout


def test_a_prompt_names_the_card_and_what_is_chosen():
    rs = load_ruleset("terraforming_mars")
    from rulebook_games.engine.decisions import Decision
    seen: list[Decision] = []

    class Watch(Agent):
        wants_view = False

        def decide(self, decision, view, game):
            seen.append(decision)
            return decision.low if decision.is_range else 0
    game = Game(rs, 2, 1, [Watch(), Watch()])
    game.state.turn_seat = 0
    me = game.state.players[0]
    me.stock["mc"], me.stock["steel"] = 30, 5
    me.production["energy"] = 2  # Strip Mine lowers energy production by 2
    card = next(c for c, s in game.state.cards.items() if s.def_id == "strip_mine")
    game.put(card, "hand", 0, 0)
    game.context = "Play a card"
    game.run_code(("action", "play_project", "do"), game.frame(0))  # the only card in hand
    steel = next(d for d in seen if d.is_range)
    # Strip Mine costs 25 M€ and is a building: steel (2 M€ each) may pay for it; the
    # question says what a steel is worth, what is still to pay and the M€ there are
    assert steel.prompt == ("Play a card · Strip Mine: Pay how many steel? "
                            "(2 M€ a steel · 25 M€ still to pay · 30 M€ to spend)")
    assert (steel.low, steel.high) == (0, 5)


def test_a_choice_with_one_legal_answer_is_not_asked_nor_recorded():
    rs = load_ruleset(GAME)
    asked: list = []

    class Count(Agent):
        wants_view = False

        def decide(self, decision, view, game):
            asked.append(decision.count())
            return 0
    game = Game(rs, 2, 3, [Count(), Count()])
    game.state.turn_seat = 0
    only = next(c for c, s in game.state.cards.items() if s.def_id == "fire")
    from rulebook_games.engine.game import CardRef
    picked = game.choose_one([CardRef(only)], False)
    assert picked == only and asked == [] and game.record == []
    assert game.choose_one([], True) is None and asked == [] and game.record == []
    assert game.choose_number(4, 4) == 4 and game.record == []


def test_your_own_hidden_cards_are_named_to_you_and_to_nobody_else(tmp_path):
    # 'Draw two, keep one': the draw is told to everyone as a count, to the drawer by name
    proc = play(tmp_path, ["1", "Draw two, keep one", "1", "log 40", "save"])
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    drawn = [line for line in out.splitlines() if "2 cards from Draw pile → your" in line]
    assert drawn and ":" in drawn[-1].split("→", 1)[1]  # the names follow the colon
    rs = load_ruleset(GAME)
    names = {e.data.get("name") for e in rs.cards.values()}
    told = drawn[-1].split(": ", 1)[1].split(", ")
    assert told and all(name in names for name in told)


def test_a_gain_that_does_not_fit_says_nothing_came_in():
    # Timespan's storage board holds at most a few of each good: a gain into a full
    # store brings nothing, and the line says so before anything else
    rs = load_ruleset("timespan")
    game = Game(rs, 2, 1, [Agent(), Agent()])
    me = game.state.players[0]
    room = game.capacity(0, "food")
    me.stock["food"] = room
    game.change_stock(0, "food", 3, "gain")
    assert game.log_lines[-1] == f"  {me.name} gains no food: 3 food would not fit " \
                                 f"(stays at {room})"
    me.stock["food"] = room - 1
    game.log("  (another line)")  # (not one more gain of the same line)
    game.change_stock(0, "food", 3, "gain")
    assert game.log_lines[-1] == f"  {me.name}: +1 food (now {room}; 2 more did not fit)"


def test_gains_in_a_row_say_all_that_did_not_fit():
    # two gains in a row make one line ("1 food and 1 food more": 2 food); what did not
    # fit is added up the same way (an income of 1 food and then 4 food from delivered
    # pottery into a full store loses 5, and the line said 4)
    rs = load_ruleset("timespan")
    game = Game(rs, 2, 1, [Agent(), Agent()])
    me = game.state.players[0]
    room = game.capacity(0, "food")
    me.stock["food"] = room
    game.change_stock(0, "food", 1, "gain")
    game.change_stock(0, "food", 4, "gain")
    assert game.log_lines[-1] == f"  {me.name} gains no food: 5 food would not fit " \
                                 f"(stays at {room})"
    me.stock["food"] = room - 2
    game.log("  (another line)")
    game.change_stock(0, "food", 1, "gain")
    game.change_stock(0, "food", 3, "gain")
    assert game.log_lines[-1] == f"  {me.name}: +2 food (now {room}; 2 more did not fit)"


def test_the_only_hidden_card_is_taken_without_a_line_for_the_others():
    # a card nobody else may see, taken because it was the only one: its owner is
    # told which, and the others read nothing (not a line that says nothing)
    rs = load_ruleset(GAME)
    game = Game(rs, 2, 3, [Agent(), Agent()])
    game.state.turn_seat = 0
    only = next(c for c, s in game.state.cards.items() if s.def_id == "fire")
    from rulebook_games.engine.game import CardRef
    game.put(only, "hand", 0, 0)
    before = len(game.log_lines)
    game.choose_one([CardRef(only)], False)
    new = game.log_lines[before:]
    assert new == [""]  # the line only its owner sees
    mine = game.private_lines[before][0]
    assert "Fire" in mine and "the only choice, taken for you" in mine


def test_the_status_line_says_the_round_once_and_leaves_bookkeeping_off():
    from rulebook_games.play.render import status_lines
    rs = load_ruleset("terraforming_mars")
    game = Game(rs, 2, 1, [Agent(), Agent()])
    game.state.round = 2
    game.state.tracks["generation"] = 2  # the generation marker stands at the round
    view = game.view(0)
    shared = status_lines(view, game)[1].plain
    # the round is told once; the marker saying the same is not repeated, and the
    # last plant conversion's flag (status: false) is not a player's concern
    assert shared.count("Generation") == 1 and shared.startswith("Generation 2")
    assert "Final plant conversion" not in shared
    assert "Temperature -30 °C" in shared and "Oxygen 0 %" in shared
    game.state.tracks["generation"] = 5  # a track that says something else is shown
    assert "Generation 5" in status_lines(game.view(0), game)[1].plain


def test_the_log_tells_a_players_action_in_the_third_person():
    from rulebook_games.play.session import build_game, run
    from rulebook_games.lang.words import told
    # an option is said to its chooser; the log tells everyone what that player did
    assert told("Move your camel to a wonder") == "Move their camel to a wonder"
    assert told("Your turn, yours to take") == "Their turn, theirs to take"
    assert told("Take 2 coins") == "Take 2 coins"
    rs = load_ruleset("lantern_row")
    game = build_game(rs, 2, 1, ["random", "random"])
    run(game)
    actions = [line for line in game.log_lines if line.startswith("Player ")
               and ": " in line and " your " in f" {line.split(': ', 1)[1]} ".lower()]
    assert not actions, actions[:3]
    assert any(line.endswith(": Hang a lantern in their stall") for line in game.log_lines)
