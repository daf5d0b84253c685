"""A turn that ends because nothing else can be done says so (playtest 32, Timespan:
after 'Shepherd (the only choice, taken for you)' the screen went straight to
'— Round 3 —'; no line said the player's turn had ended). A turn that ends when its
actions are all taken needs no line: the menu counted them ('action 2 of 2')."""

from __future__ import annotations

from pathlib import Path

from rulebook_games import load_ruleset
from rulebook_games.agents import ScriptedAgent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game

TINY = Path(__file__).parent / "fixtures" / "tiny"
TURNS = {"style": "fixed", "actions": 2, "min_actions": 1, "card_actions": False}


def _ended(taken: int, may_pass: bool = False) -> tuple[str, list[str]]:
    game = Game(load_ruleset(TINY), 2, 1, [ScriptedAgent([])] * 2)
    game.state.round = 1
    runner = FlowRunner(game)
    runner.menu = lambda *a, **k: ({}, {})  # (nothing at all can be done now)
    before = len(game.log_lines)
    pick = runner.choose("work", 0, taken, 2, 1, TURNS, may_pass)
    # (said to the seat alone: the others read nothing of it)
    assert not any(game.log_line_for(i, 1) for i in range(before, len(game.log_lines)))
    return pick.key, [game.log_line_for(i, 0) for i in range(before, len(game.log_lines))]


def test_a_turn_ended_by_itself_before_its_actions_are_taken_is_said():
    key, lines = _ended(taken=1)
    assert key == "end"
    assert lines == [f"{_name()}: end turn (nothing else can be done)"]


def test_a_pass_taken_for_a_player_who_can_do_nothing_is_said():
    key, lines = _ended(taken=0, may_pass=True)
    assert key == "pass"
    assert len(lines) == 1 and lines[0].startswith(f"{_name()}: pass") \
        and lines[0].endswith("nothing else can be done)")


def test_a_turn_whose_actions_are_all_taken_ends_without_a_line():
    key, lines = _ended(taken=2)
    assert key == "end" and lines == []


def _name() -> str:
    return Game(load_ruleset(TINY), 2, 1, [ScriptedAgent([])] * 2).state.players[0].name
