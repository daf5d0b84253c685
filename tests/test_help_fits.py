"""`help` at a prompt fits an 80×24 terminal, with the rest one command away
(playtest 31, Terraforming Mars: "help is ~40 lines, taller than the 24-row screen,
its first lines scroll away")."""

from __future__ import annotations

import io

from rich.console import Console

from rulebook_games.engine.decisions import Decision, Option
from rulebook_games.play.terminal import HumanAgent

MENU = Decision(0, "item", "choose an action", [Option("Draw", "d", "d")])


def _typed(*lines):
    out = io.StringIO()
    human = HumanAgent(Console(file=out, width=80), lambda prompt="": "")
    for line in lines:
        assert human.command(line, MENU, {}, None)
    return out.getvalue()


def test_help_fits_the_screen_and_says_how_to_see_more():
    shown = _typed("help")
    lines = shown.rstrip("\n").split("\n")
    # the question is printed again under it: the list leaves room for it and the prompt
    assert len(lines) <= 22, "\n".join(lines)
    assert all(len(x) <= 80 for x in lines)
    for command in ("pass", "done", "state", "board", "map", "me", "cards", "players",
                    "standings", "card NAME", "more N", "next", "why", "news", "log",
                    "undo", "save", "help more"):
        assert command in shown, command


def test_help_more_tells_the_rest():
    more = " ".join(_typed("help more").split())
    assert "it ends by itself only when no more may be picked" in more
    assert "nothing hidden or random has come out since" in more
    assert "Enter or typing it again takes it" in more
    assert "Tab completes" in more
    assert len(more) > 0 and "help more" not in _typed("help more").split("\n")[0]
