"""Implied checks worked out when first asked for (issue 28, start-up).

A game's first question needs few of the checks its actions and cards imply
(tests/test_implied.py says what they are), and working all of them out took a
third of Terraforming Mars's warm load. The expectation: a load works none out;
asking for one key works out that key (and says the same as before); the checks
of every key are the same whichever order they are asked for in, or all at once;
compiling a ruleset whole (before workers are forked from it) works them all out,
so that no worker does it again.
"""

from __future__ import annotations

from rulebook_games import load_ruleset
from rulebook_games.lang.compiler import compile_whole


def _said(checks):
    """An entry's checks as comparable text (the Implied records, conditions included)."""
    return None if checks is None else [repr(i) for i, _ in checks]


def _worked_out(implied) -> int:
    return dict.__len__(implied)


def test_a_load_works_out_no_implied_check_and_one_asked_for_works_out_one():
    rs = load_ruleset("terraforming_mars")
    assert _worked_out(rs.implied) == 0
    assert rs.implied  # (there may be checks: the engine asks)
    keys = [k for k in rs.implied._order if k[0] == "card" and len(k) == 2]
    first = next(k for k in keys if rs.implied.get(k) is not None)
    assert _worked_out(rs.implied) == 1
    assert first in rs.implied and rs.implied[first] is rs.implied.get(first)
    assert rs.implied.get(("card", "no such card")) is None
    assert ("card", "no such card") not in rs.implied


def test_the_same_checks_whatever_the_order_they_are_asked_in():
    whole = load_ruleset("terraforming_mars")
    compile_whole(whole)  # every one worked out, in declaration order
    assert _worked_out(whole.implied) > 50
    backwards = load_ruleset("terraforming_mars")
    assert _worked_out(backwards.implied) == 0
    for key in reversed(backwards.implied._order):
        assert _said(backwards.implied.get(key)) == _said(whole.implied.get(key)), key
    assert dict(backwards.implied.items()).keys() == dict(whole.implied.items()).keys()


def test_a_game_plays_the_same_with_checks_worked_out_late_or_at_once():
    from rulebook_games.play.session import build_game, run
    hashes = []
    for whole in (False, True):
        rs = load_ruleset("terraforming_mars")
        if whole:
            compile_whole(rs)
        result = run(build_game(rs, 2, 3, ["random", "random"]))
        assert result.decisions > 50
        assert _worked_out(rs.implied) > 0
        hashes.append(result.final_hash)
    assert hashes[0] == hashes[1]
