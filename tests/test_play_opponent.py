"""The opponent `rulebook play` seats by default, and what the terminal shows while it
thinks (issue 29: all four playtesters found ismcts the stronger opponent).

- without --agents a person plays the first seat against ismcts (every seat ismcts
  with no terminal); simulate and compare keep their own defaults;
- while the agents play for more than half a second the terminal says who is
  thinking, on one line that is erased before the person's next screen; a quick
  reply shows nothing, and a script's transcript never shows it.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from rulebook_games.cli.play import play
from rulebook_games.cli.loading import load_named
from rulebook_games.cli.seats import seat_agents
from rulebook_games.play.session import build_game, run
from rulebook_games.play.terminal import HumanAgent
from rulebook_games.play.thinking import Thinking, Watched

ROOT = Path(__file__).resolve().parents[1]


def test_a_person_plays_against_ismcts_by_default():
    from rulebook_games.cli.seats import OPPONENT
    assert OPPONENT == "ismcts"
    assert seat_agents(None, 3, True, OPPONENT) == ["human", "ismcts", "ismcts"]
    assert seat_agents(None, 2, False, OPPONENT) == ["ismcts", "ismcts"]
    # what is asked for is what plays
    assert seat_agents("human,greedy", 2, True, OPPONENT) == ["human", "greedy"]
    # simulate and compare (ai_seats) keep theirs
    assert seat_agents(None, 2, False) == ["greedy", "greedy"]
    out = CliRunner().invoke(play, ["--help"], terminal_width=200).output
    assert "Default: you, then ismcts" in " ".join(out.split())


def test_without_a_terminal_every_seat_is_ismcts(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "play", "lantern_row",
                           "--seed", "3", "--save", "g.json"], cwd=tmp_path,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "agents ismcts, ismcts" in proc.stdout
    assert "is thinking" not in proc.stdout  # (no person watches)


def test_the_thinking_line_shows_after_the_delay_and_is_erased():
    out = io.StringIO()
    line = Thinking(out, delay=0.05)
    line.thinking("Player 2 (ismcts)")
    line.done()  # a quick reply: nothing shown
    assert out.getvalue() == ""
    line.thinking("Player 2 (ismcts)")
    time.sleep(0.3)
    assert out.getvalue() == "\r  Player 2 (ismcts) is thinking…"
    line.thinking("Player 3 (ismcts)")  # the next seat: named at once, same line
    assert out.getvalue().endswith("\r  Player 3 (ismcts) is thinking…")
    line.done()
    erased = out.getvalue().rsplit("…", 1)[1]
    assert erased.startswith("\r") and erased.endswith("\r") and not erased.strip()
    before = out.getvalue()
    time.sleep(0.15)
    assert out.getvalue() == before  # nothing after done, until the agents play again


class _Slow:
    """An agent that takes its time: the first option, after a pause."""

    name = "slow"

    def decide(self, decision, view, game):
        time.sleep(0.08)
        return decision.low if decision.is_range else 0

    def refused(self, decision, reason):
        raise AssertionError(reason)


class _Done(Exception):
    pass


def test_a_persons_screen_never_shows_the_line_and_the_game_is_the_same():
    rs = load_named("lantern_row", ())
    out = io.StringIO()
    answers = iter(["1"] * 6)

    def typed(prompt=""):
        try:
            return next(answers)
        except StopIteration:
            raise _Done from None
    human = HumanAgent(Console(file=out, width=100), typed)
    line = Thinking(out, delay=0.02)
    human.waiting = line
    game = build_game(rs, 2, 7, ["human", "first"], live_agents=[human, Watched(_Slow(), line)])
    game.keep_log = True
    with pytest.raises(_Done):
        run(game)
    text = out.getvalue()
    assert "Player 2 (first) is thinking…" in text
    # each time the line shows, it is erased before anything else is printed
    for shown in re.finditer("is thinking…", text):
        rest = text[shown.end():]
        assert re.match(r"( *\r  Player 2 \(first\) is thinking…)*\r +\r", rest), rest[:80]
    # the same game as without the line
    other = HumanAgent(Console(file=io.StringIO(), width=100), lambda p="": next(again))
    again = iter(["1"] * 6)
    plain = build_game(rs, 2, 7, ["human", "first"], live_agents=[other, _Slow()])
    with pytest.raises(StopIteration):
        run(plain)
    assert plain.record[:len(game.record)] == game.record


# ------------------------------------------------------------ on a real terminal
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals")
def test_on_a_terminal_the_final_table_stays_until_enter(tmp_path):
    """Two playtesters lost the final scores: the tmux pane whose command was the game
    closed as it ended. A person at a terminal leaves with Enter; a script never waits
    (every other test of play runs without a terminal and ends by itself)."""
    import pty
    import select
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100", "TERM": "xterm"}
    proc = subprocess.Popen([sys.executable, "-m", "rulebook_games", "play",
                             str(ROOT / "tests" / "fixtures" / "tiny"), "-p", "2", "--seed", "5",
                             "--agents", "human,first", "--save", "g.json"], cwd=tmp_path,
                            env=env, stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True)
    os.close(slave)
    seen, end = b"", time.monotonic() + 120
    try:
        while b"press Enter to leave" not in seen:
            assert time.monotonic() < end and proc.poll() is None, seen.decode(errors="replace")
            if select.select([master], [], [], 1)[0]:
                seen += os.read(master, 65536)
                if seen.rstrip().endswith(b">"):  # a question: its first option
                    seen += b"\n"
                    os.write(master, b"1\n")
        assert b"Final scores" in seen or b"final state" in seen
        time.sleep(1)
        assert proc.poll() is None  # still on the screen
        os.write(master, b"\n")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert (tmp_path / "g.json").is_file()
