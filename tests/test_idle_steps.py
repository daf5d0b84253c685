"""An action whose steps would do nothing now is said so before it is chosen (issue 30).

The keen player's Terraforming Mars game: Water Splitting Plant's action at 14 %
oxygen took 3 energy and raised nothing; Aquifer Pumping with all nine oceans placed
asked for 8 M€ for nothing. By the published rules such an action may be taken (you
may pay and get nothing), so it stays on the menu; but the option says, before it is
chosen, which of its steps would do nothing: the track at its maximum, no tile left.
"""

from __future__ import annotations

from pathlib import Path

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.engine.decisions import Decision, Option
from rulebook_games.engine.game import Game
from rulebook_games.engine.menus import ActionChoice
from rulebook_games.engine.state import CardRef
from rulebook_games.play.transcript import option_rows


def _game():
    game = Game(load_ruleset("terraforming_mars"), 2, 1, [Agent(), Agent()])
    game.state.turn_seat = 0
    return game


def _action(game, cid):
    card = CardRef(next(c for c, s in game.state.cards.items() if s.def_id == cid))
    game.put(card, "played", 0, 0)
    action = game.rs.cards[cid].data["actions"][0]
    return ActionChoice(f"card:{int(card)}:0", action["name"], action, int(card), 0)


def _note(game, choice) -> str:
    decision = Decision(0, "action", "Choose an action", [Option(choice.label, choice,
                                                                 choice.key)])
    return option_rows(decision, game)[0][-1]


def test_a_track_at_its_maximum_is_said_beside_the_action_that_raises_it():
    game = _game()
    split = _action(game, "water_splitting_plant")
    assert _note(game, split) == ""  # oxygen can go up: nothing to say
    game.state.tracks["oxygen"] = 14
    assert _note(game, split) == "the Oxygen step does nothing: Oxygen is at its maximum"


def test_a_tile_none_of_which_is_left_is_said_beside_the_action_that_places_it():
    game = _game()
    pump = _action(game, "aquifer_pumping")
    assert _note(game, pump) == ""
    game.tiles_left = lambda tile: 0 if tile == "ocean" else 99  # (all nine placed)
    assert _note(game, pump) == "no oceans are left: none is placed"


def test_a_card_offered_to_play_says_what_its_play_would_not_do():
    """Playtest 32: Artificial Lake was on the list of cards to play with all nine oceans
    placed, with no note (Ironworks' action had one); after playing it the log said 'no
    oceans are left: none is placed'. The view names the effect of the cards the action
    offers ('alongside', 'idle: play'), and each card's option notes its idle steps."""
    game = _game()
    lake = CardRef(next(c for c, s in game.state.cards.items()
                        if s.def_id == "artificial_lake"))
    game.put(lake, "hand", 0, 0)
    decision = Decision(0, "item", "Which card do you play?", [Option("Artificial Lake", lake,
                                                                      "al")])
    game.showing = game.alongside_of["play_project"]  # (the action 'Play a card' runs)
    assert "none is placed" not in option_rows(decision, game)[0][-1]
    game.tiles_left = lambda tile: 0 if tile == "ocean" else 99  # (all nine placed)
    assert option_rows(decision, game)[0][-1].startswith(
        "no oceans are left: none is placed · ")
    game.showing = None  # another question offering the card (a discard, say): no note
    assert "none is placed" not in option_rows(decision, game)[0][-1]


def test_an_idle_effect_that_is_no_block_is_an_error_where_it_is_written(tmp_path):
    import shutil

    import pytest

    from rulebook_games import RulebookError
    root = tmp_path / "lantern_row"
    shutil.copytree(Path(__file__).resolve().parent.parent / "rulesets" / "lantern_row", root)
    view = root / "view.yaml"
    view.write_text(view.read_text().replace(
        "view:\n", "view:\n  alongside:\n    - {action: scout, idle: plya}\n", 1))
    with pytest.raises(RulebookError) as err:
        load_ruleset(str(root))
    problem = next(d for d in err.value.diagnostics if "plya" in d.message)
    assert problem.code == "RB401" and "unknown effect block 'plya'" in problem.message
    assert problem.span.file.endswith("view.yaml")
    assert (problem.span.line, problem.span.col) == (10, 29)  # (the entry's idle value)


def _timespan_action(game, cid, name):
    card = CardRef(next(c for c, s in game.state.cards.items() if s.def_id == cid))
    game.put(card, "civ_board", 0, 0)
    actions = game.rs.cards[cid].data["actions"]
    i = next(i for i, a in enumerate(actions) if a["name"] == name)
    return ActionChoice(f"card:{int(card)}:{i}", actions[i]["name"], actions[i], int(card), i)


def test_the_note_names_only_the_step_that_does_nothing_and_keeps_its_brackets():
    """Playtest 32 (Timespan): 'River trade (exclusive)  (Culture is at its maximum:
    raising it does nothing)' read as if the action did nothing, though it still gives
    a pottery; and in two columns the note lost its brackets and read as part of the
    name ('Bard: Inspire  Culture is at its maximum: …'). The note names the step
    that does nothing, and stays in brackets however the options are laid out."""
    import io

    from rich.console import Console

    from rulebook_games.play.screen import option_lines

    game = Game(load_ruleset("timespan"), 2, 1, [Agent(), Agent()])
    game.state.turn_seat = 0
    trade = _timespan_action(game, "river_kingdom", "River trade (exclusive)")
    assert _note(game, trade) == ""
    game.state.players[0].tracks["culture"] = 12
    note = _note(game, trade)
    assert note == "the Culture step does nothing: Culture is at its maximum"
    decision = Decision(0, "action", "Choose an action", [
        Option(trade.label, trade, trade.key),
        *(Option(f"Other {i}", f"o{i}", f"o{i}") for i in range(12))])
    console = Console(file=io.StringIO(), width=80, color_system=None)
    two = [line.plain for line in option_lines(option_rows(decision, game), console,
                                                True, columns=2)]
    said = " ".join(" ".join(two).split())
    assert "(the Culture step does nothing: Culture is at its maximum)" in said, two
