"""The table's title is one line at the console's width (issue 29 follow-up: Terraforming
Mars's 'players' at the corporation choice read "Terraforming Mars · Generation 1 ·
Choose a corporation and starting cards · your turn 2 (Player 1 (human))", 81
characters, wrapped at 80). Its least useful parts go first: the game's name (the
player knows what they play), then whose name 'your turn' is; the round, the phase and
whose turn it is stay."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.engine.game import Game
from rulebook_games.play.render import players_pages, render_view
from rulebook_games.play.session import run


class _Stop(Exception):
    pass


class _Look(Agent):
    wants_view = False

    def decide(self, decision, view, game):
        game.asked = decision.player
        raise _Stop


def _first_view(name: str, players: int = 2):
    game = Game(load_ruleset(name), players, 1, [_Look() for _ in range(players)])
    with pytest.raises(_Stop):
        run(game)
    return game


def _lines(renderable, width: int) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width, highlight=False, emoji=False).print(renderable)
    return out.getvalue().splitlines()


def test_terraforming_mars_title_fits_80_columns_at_the_corporation_choice():
    game = _first_view("terraforming_mars")
    console = Console(file=io.StringIO(), width=80)
    page = players_pages(game.view_model(game.asked), game, console, 22)[0]
    title = _lines(page[0], 80)
    assert len(title) == 1, title
    assert "Generation 1" in title[0] and "Choose a corporation" in title[0], title
    assert "your turn" in title[0], title


@pytest.mark.parametrize("name", ["terraforming_mars", "legacy_gears_of_time", "timespan",
                                  "lantern_row"])
@pytest.mark.parametrize("width", [80, 60, 40])
def test_the_title_is_one_line_at_any_width(name, width):
    game = _first_view(name)
    whole = _lines(render_view(game.view_model(0), game, ()), 400)
    lines = _lines(render_view(game.view_model(0), game, ()), width)
    assert len(lines) == len(whole) == 1, lines  # (the title alone: one line)
    if len(whole[0]) <= width:  # (nothing is dropped when it fits)
        assert lines == whole
