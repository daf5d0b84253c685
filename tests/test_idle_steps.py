"""An action whose steps would do nothing now is said so before it is chosen (issue 30).

The keen player's Terraforming Mars game: Water Splitting Plant's action at 14 %
oxygen took 3 energy and raised nothing; Aquifer Pumping with all nine oceans placed
asked for 8 M€ for nothing. By the published rules such an action may be taken (you
may pay and get nothing), so it stays on the menu; but the option says, before it is
chosen, which of its steps would do nothing: the track at its maximum, no tile left.
"""

from __future__ import annotations

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
    assert _note(game, split) == "Oxygen is at its maximum: raising it does nothing"


def test_a_tile_none_of_which_is_left_is_said_beside_the_action_that_places_it():
    game = _game()
    pump = _action(game, "aquifer_pumping")
    assert _note(game, pump) == ""
    game.tiles_left = lambda tile: 0 if tile == "ocean" else 99  # (all nine placed)
    assert _note(game, pump) == "no oceans are left: none is placed"
