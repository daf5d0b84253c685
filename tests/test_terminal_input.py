"""Decisions a player can trust at the terminal (issue 26 item 4).

- the key shown beside an option answers it, whatever its number;
- typing ``pass`` picks the option that ends the turn or declines;
- an answer the engine takes by itself is shown at once, with its question,
  and only once;
- on a terminal, what was typed before a question was shown is thrown away,
  and the line can be edited with the arrow keys (readline);
- completion of ``card NAME`` offers only cards the seat may see.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from rulebook_games.cli.loading import load_named
from rulebook_games.engine.decisions import Decision, Option
from rulebook_games.engine.keys import short_keys
from rulebook_games.engine.state import CardRef
from rulebook_games.play.session import build_game, run
from rulebook_games.play.terminal import HumanAgent

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def lantern():
    return load_named("lantern_row", ())


@pytest.fixture(scope="module")
def legacy():
    return load_named("legacy_gears_of_time", ())


def _action(key, label):
    from rulebook_games.engine.flow import ActionChoice
    choice = ActionChoice(key, label)
    return Option(label, choice, key)


def test_pass_is_the_option_that_ends_the_turn_or_declines():
    parse = HumanAgent.parse
    turn = Decision(0, "action", "choose an action",
                    [_action("action:collect", "Take coins"), _action("end", "end turn")])
    assert parse(turn, "pass", ["col", "end"]) == (1, None)
    assert parse(turn, "PASS", ["col", "end"]) == (1, None)
    passing = Decision(0, "action", "choose an action",
                       [_action("action:collect", "Take coins"),
                        _action("pass", "pass (no more turns this round)")])
    assert parse(passing, "pass", ["col", "pass"]) == (1, None)
    may = Decision(0, "confirm", "Draw a card?", [Option("yes", True, "yes"),
                                                  Option("no", False, "no")])
    assert parse(may, "pass", ["y", "n"]) == (1, None)
    some = Decision(0, "card", "Choose a card", [Option("A", 1), Option("none", None, "none")],
                    optional=True)
    assert parse(some, "pass", ["a1", "none"]) == (1, None)
    pick = Decision(0, "card", "Choose up to 2", [Option("done", None, "done"),
                                                  Option("A", 1), Option("B", 2)])
    assert parse(pick, "pass", ["done", "a1", "b1"]) == (0, None)
    must = Decision(0, "card", "Choose a card", [Option("A", 1), Option("B", 2)])
    index, problem = parse(must, "pass", ["a1", "b1"])
    assert index is None and "nothing to pass on" in problem


def test_a_short_key_answers_and_a_number_still_does():
    d = Decision(0, "item", "Choose", [Option("Alpha", "x"), Option("Beta", "y")])
    assert HumanAgent.parse(d, "bb", ["aa", "bb"]) == (1, None)
    assert HumanAgent.parse(d, "BB", ["aa", "bb"]) == (1, None)
    assert HumanAgent.parse(d, "1", ["aa", "bb"]) == (0, None)
    assert HumanAgent.parse(d, "beta", ["aa", "bb"]) == (1, None)
    # the start of a key that only one option's key has: a copy number may be left out
    cards = Decision(0, "card", "Choose", [Option("Lucky Coin", 1), Option("Haggling", 2)])
    assert HumanAgent.parse(cards, "lc", ["lc2", "hag1"]) == (0, None)
    # ... unless the start of another option's words says otherwise
    both = Decision(0, "item", "Choose", [Option("Hang a lantern", 1), Option("Harvest", 2)])
    index, problem = HumanAgent.parse(both, "har", ["hang", "hv"])
    assert index == 1 and problem is None  # (no key starts so: the words decide)
    crossed = Decision(0, "item", "Choose", [Option("Alpha", 1), Option("Beta", 2)])
    index, problem = HumanAgent.parse(crossed, "be", ["be1", "al2"])
    assert index is None and "be1 (Alpha)" in problem and "al2 (Beta)" in problem


def test_a_number_that_is_also_another_options_name_is_not_taken_for_a_person():
    """Typing 37 for the space called #37 must not place on option 37, another space."""
    spaces = [Option(f"#{n:02d}", f"s{n}", f"s{n}") for n in range(10, 60)]
    d = Decision(0, "space", "Choose a space", spaces)
    keys = [f"s{n}" for n in range(10, 60)]
    index, problem = HumanAgent.parse(d, "37", keys, person=True)
    assert index is None
    assert "option 37 (#46)" in problem and "#37 (option 28)" in problem
    assert "s46" in problem and "s37" in problem
    assert HumanAgent.parse(d, "s37", keys, person=True) == (27, None)
    assert HumanAgent.parse(d, "#37", keys, person=True) == (27, None)
    index, problem = HumanAgent.parse(d, "55", keys, person=True)  # no option 55
    assert index is None and "#55 is option 46" in problem
    # a number that names no other option, or names its own place, is its place
    assert HumanAgent.parse(d, "5", keys, person=True) == (4, None)
    own = Decision(0, "space", "Choose", [Option("#01", "a", "a"), Option("#02", "b", "b")])
    assert HumanAgent.parse(own, "2", ["a", "b"], person=True) == (1, None)
    # a script keeps numbers as places, as it always did
    assert HumanAgent.parse(d, "37", keys) == (36, None)


class _Done(Exception):
    pass


class _Reader:
    """Answers like a person reading the screen: the key shown beside a label."""

    def __init__(self, out: io.StringIO, wanted: list[str]):
        self.out, self.wanted, self.typed = out, list(wanted), []

    def __call__(self, prompt=""):
        if not self.wanted:
            raise _Done
        label = self.wanted.pop(0)
        screen = self.out.getvalue().splitlines()
        for line in reversed(screen):
            m = re.match(r"^\s+\d+\. (\S+)\s+(.*?)(\s\s\(.*)?$", line)
            if m and m.group(2) == label:
                self.typed.append(m.group(1))
                return m.group(1)
        raise AssertionError(f"{label!r} is not on the screen")


def test_the_key_shown_beside_an_option_picks_it(lantern):
    """Answering with the key on the screen picks that option, not what has its number."""
    out = io.StringIO()
    reader = _Reader(out, ["Draw a card unseen", "Take 2 coins from the till"])
    human = HumanAgent(Console(file=out, width=100), reader)
    game = build_game(lantern, 2, 7, ["human", "greedy"])
    game.agents[0] = human
    game.keep_log = True
    with pytest.raises(_Done):
        run(game)
    assert reader.typed and not reader.typed[0].isdigit()
    log = "\n".join(game.log_lines)
    assert "Player 1 (human): Draw a card unseen" in log
    assert "Player 1 (human): Take 2 coins from the till" in log


def test_an_answer_taken_for_the_seat_is_shown_in_place_and_once(legacy):
    out = io.StringIO()
    human = HumanAgent(Console(file=out, width=100), lambda prompt: "1")
    game = build_game(legacy, 2, 3, ["human", "random"])
    game.agents[0] = human
    game.keep_log = True
    human.news(game, 0)  # everything before is seen
    only = Decision(0, "item", "Choose a time frame", [Option("time frame 3", "frame_3",
                                                              "frame_3")])
    assert game._ask(only) == 0
    shown = out.getvalue()
    assert "Choose a time frame → time frame 3 (the only choice, taken for you)" in shown
    before = len(shown)
    human.news(game, 0)  # the log's line for it is not told a second time
    assert "the only choice" not in out.getvalue()[before:]


class _Keyboard:
    """A terminal without typing ahead; the test asks it to complete lines."""

    words = None

    def discard_typed_ahead(self):
        return ""


def test_card_completion_names_only_cards_the_seat_may_see(lantern):
    asked = {}

    def at_the_prompt(prompt=""):  # what Tab offers here, at the first question
        asked["cards"] = human.terminal.words("card ")
        asked["r"] = human.terminal.words("card r")
        asked["all"] = human.terminal.words("")
        raise _Done

    human = HumanAgent(Console(file=io.StringIO(), width=100), at_the_prompt)
    human.terminal = _Keyboard()
    game = build_game(lantern, 2, 4, ["human", "greedy"])  # the other hand holds 2 unseen
    game.agents[0] = human
    with pytest.raises(_Done):
        run(game)
    offered = {c[len("card "):] for c in asked["cards"]}
    hands = {seat: {game.card_name(c) for c in game.state.zones[("hand", seat)]}
             for seat in (0, 1)}
    row = {game.card_name(c) for (zone, _), cards in game.state.zones.items()
           if zone == "row" for c in cards}
    assert hands[0] and hands[1] and row
    assert hands[0] | row <= offered  # your hand and the row, which you see
    secret = hands[1] - hands[0] - row  # the other hand's cards you cannot see anywhere
    assert secret and not secret & offered
    decks = {game.card_name(c) for (zone, _), cards in game.state.zones.items()
             if zone == "deck" for c in cards}
    assert not (decks - hands[0] - row) & offered  # nor the face-down deck's
    assert set(asked["r"]) == {"card " + n for n in offered if n.lower().startswith("r")}
    # commands, the decision's keys and its options' words complete too
    words = asked["all"]
    assert "help" in words and "card " in words and "pass" in words and "board" in words
    assert "tak" in words and "Take 2 coins from the till" in words


# ------------------------------------------------------------ on a real terminal
def _terminal_game(tmp_path):
    import pty
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100", "TERM": "xterm"}
    proc = subprocess.Popen([sys.executable, "-m", "rulebook_games", "play", "lantern_row",
                             "--seed", "7", "--agents", "human,greedy", "--save", "g.json"],
                            cwd=tmp_path, env=env, stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True)
    os.close(slave)
    return proc, master


def _read_until(master, proc, pattern: bytes, seen: bytes = b"", timeout=60) -> bytes:
    import select
    import time
    end = time.monotonic() + timeout
    while not re.search(pattern, seen, re.S):
        assert time.monotonic() < end and proc.poll() is None, seen.decode(errors="replace")
        if select.select([master], [], [], 1)[0]:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    return seen


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals")
def test_on_a_terminal_typing_ahead_is_ignored_and_the_line_can_be_edited(tmp_path):
    proc, master = _terminal_game(tmp_path)
    try:
        os.write(master, b"5\n")  # typed before any question is shown
        seen = _read_until(master, proc, rb"> $")
        text = seen.decode(errors="replace")
        assert "ignored: 5" in text
        # 'ak', two steps left, 't': the line reads 'tak' (readline's editing)
        os.write(master, b"ak\x1b[D\x1b[Dt\n")
        seen = _read_until(master, proc, rb"action 2 of 2.*> $", seen)
        assert b"Player 1 (human): Take 2 coins from the till" in seen
        os.write(master, b"save\n")
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert (tmp_path / "g.json").is_file()
