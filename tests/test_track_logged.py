"""A track declared `logged: false` moves without a log line (issue 26, TM playtest).

The TM playtest read "Final plant conversion 0 → 1" at the end: a marker
shown as a number, which says nothing to a player. The marker is declared
`logged: false` and the rules say in their own words what its move means.
"""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.play.session import build_game, run


@pytest.mark.slow
def test_a_marker_not_logged_is_told_in_the_rules_words():
    rs = load_ruleset("terraforming_mars")
    assert rs.sections["tracks"]["final_conversion"].data.get("logged") is False
    game = build_game(rs, 2, 4, ["greedy", "greedy"])
    game.keep_log = True
    run(game)
    log = "\n".join(game.log_lines)
    assert game.state.tracks["final_conversion"] == 1
    assert "Final plant conversion" not in log
    assert "Last plant conversion: everyone in turn may turn plants into greeneries" in log
    assert "Oxygen " in log  # the other tracks are logged as before
