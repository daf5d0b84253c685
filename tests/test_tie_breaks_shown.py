"""A tie on points says how it was broken, on the terminal's end screen and the page's.

Written from the rules: Lantern Row's "on a tie, the player with more coins wins",
Legacy's "the most cubes in storage, then the lowest place on the turn order track",
and the flow's `tie_breaks` (docs/engine.md): a tie-break's declared name is shown,
else the words of its value, and only when the best score is shared."""

from rich.console import Console

from rulebook_games import load_ruleset
from rulebook_games.engine.flow import Result, deciding_tie_breaks
from rulebook_games.play.render import score_table
from rulebook_games.play.session import build_game, run
from rulebook_games.web.view import result_data


def _played(name, players, seed):
    rs = load_ruleset(f"rulesets/{name}")
    game = build_game(rs, players, seed, ["random"] * players)
    game.keep_log = False
    return rs, game, run(game)


def _text(table) -> str:
    console = Console(width=100, record=True)
    console.print(table)
    return console.export_text()


def test_a_tie_on_points_names_the_coins_that_broke_it():
    rs, game, result = _played("lantern_row", 2, 25)  # a 13-13 game
    assert result.scores[0] == result.scores[1]
    coins = [game.stock(s, "coin") for s in range(2)]
    assert coins[0] != coins[1]
    # the player with more coins wins, and the screen says it was the coins
    assert result.winners == [coins.index(max(coins))]
    assert deciding_tie_breaks(rs, result) == [("Coins", coins)]
    text = _text(score_table(game, result))
    assert "tie-break: Coins" in text
    assert f"{coins[0]}" in text.split("tie-break: Coins")[1].splitlines()[0]
    page = result_data(game, result)
    assert page["tie_breaks"] == [{"name": "Coins", "values": coins}]


def test_no_tie_break_line_when_the_best_score_is_not_shared():
    rs, game, result = _played("lantern_row", 2, 1)
    if result.scores[0] == result.scores[1]:  # (seed 1 is not a tie; keep the test honest)
        raise AssertionError("seed 1 was expected to end without a tie")
    assert deciding_tie_breaks(rs, result) == []
    assert "tie-break" not in _text(score_table(game, result))
    assert result_data(game, result)["tie_breaks"] == []


def test_a_declared_name_is_shown_and_the_standings_break_the_tie():
    rs, game, result = _played("legacy_gears_of_time", 2, 12)  # a 6-6 game
    assert result.scores[0] == result.scores[1]
    [(label, values)] = deciding_tie_breaks(rs, result)
    assert label == "Players behind you in the final standings"
    # one of the two stands ahead of the other, and that one wins
    assert sorted(values) == [0, 1]
    assert result.winners == [values.index(1)]


def test_a_tie_below_the_top_needs_no_tie_break():
    rs = load_ruleset("rulesets/lantern_row")
    result = Result(scores=[9, 5, 5], breakdown=[], winners=[0], rounds=1, decisions=1,
                    final_hash="", tie_values=[[1], [2], [3]])
    assert deciding_tie_breaks(rs, result) == []
