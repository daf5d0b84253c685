"""Declared functions called with Python arguments, and lists handed out without a copy.

Issue 28 asks that the rules' own code get leaner (step 8's first half): a
declared function called with its arguments as Python arguments rather than a
dict of them, its parameters as Python locals, and a list read at once without
a copy, while the work budget charges exactly the same steps at the same
places, so that every game, and every budget that runs out, is as before. The
comparison here is with the same rulesets compiled the way they were (every
declared function called with a dict, every list it hands out a copy).
"""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.lang import codegen
from rulebook_games.lang.compiler import compile_whole, source_of
from rulebook_games.play.session import GameError, build_game, run


def _loaded(name: str, monkeypatch, with_dicts: bool):
    """The ruleset, every rule compiled now: as today, or (``with_dicts``) with every
    declared function called with a dict of its variables, as before."""
    with monkeypatch.context() as m:
        if with_dicts:
            m.setattr(codegen.CodeGen, "args_of", lambda self, func: None)
            m.setattr(codegen.CodeGen, "live_of", lambda self, func: False)
        rs = load_ruleset(name)
        compile_whole(rs)
    return rs


def _play(rs, players: int, seed: int, game_steps: int | None = None,
          effect_steps: int | None = None):
    """A random game: (its final hash or the error that stopped it, with where it
    stopped, and the steps charged)."""
    game = build_game(rs, players, seed, ["random"] * players)
    game.keep_log = False
    budget = game.budget
    if game_steps is not None:  # the game's total allowance, smaller
        budget.game_steps = budget.stop = game_steps
        budget.cap = budget.limit = min(budget.cap, game_steps)
    if effect_steps is not None:  # each run of the rules' allowance, smaller
        budget.effect_steps = effect_steps
    try:
        outcome = run(game, check=False).final_hash
    except GameError as exc:
        outcome = str(exc)
    return outcome, budget.used


@pytest.mark.parametrize("name, players, seeds", [
    ("legacy_gears_of_time", 3, (1, 2, 3)), ("terraforming_mars", 2, (1,))])
def test_the_same_games_are_charged_the_same_steps(name, players, seeds, monkeypatch):
    now = _loaded(name, monkeypatch, with_dicts=False)
    before = _loaded(name, monkeypatch, with_dicts=True)
    for seed in seeds:
        mine, steps = _play(now, players, seed)
        theirs, their_steps = _play(before, players, seed)
        assert (mine, steps) == (theirs, their_steps), seed
        assert steps > 10_000  # (a whole game: the rules ran)


def test_a_budget_runs_out_at_the_same_step_with_the_same_words(monkeypatch):
    now = _loaded("legacy_gears_of_time", monkeypatch, with_dicts=False)
    before = _loaded("legacy_gears_of_time", monkeypatch, with_dicts=True)
    _, total = _play(now, 3, 1)
    for allowance in (total // 3, total // 2, total - 500):
        mine = _play(now, 3, 1, game_steps=allowance)
        theirs = _play(before, 3, 1, game_steps=allowance)
        assert mine == theirs
        assert "steps in all" in mine[0]  # it ran out: the budget's own words
    # a run of the rules allowed too few steps stops inside a rule, at its line: here
    # inside the functions that are now called with Python arguments (establishing a
    # technology asks, of every one on the timeline, whether it succeeds)
    stopped = set()
    for allowance in (300, 400, 500, 700):
        mine = _play(now, 3, 1, effect_steps=allowance)
        theirs = _play(before, 3, 1, effect_steps=allowance)
        assert mine == theirs
        stopped.add(mine[0])
    assert len(stopped) >= 3 and all("flow.yaml:" in words for words in stopped), stopped


def test_the_functions_that_need_no_dict_are_called_with_python_arguments():
    rs = load_ruleset("legacy_gears_of_time")
    text = source_of(rs)
    # succeeded_before(tech_id, before) asks frame_of and succeeds of every technology on
    # the timeline: both called with Python arguments, the timeline's list read at once
    # as it is kept, not copied (its comprehension changes nothing)
    start = text.index("# function / succeeded_before")
    body = text[start:text.index("\n\n", start)]
    assert "A_function__n_frame_of(rt, B, d + 1, " in body
    assert "A_function__n_succeeds(rt, B, d + 1, " in body
    assert "L_function__n_timeline_techs(" in body
    assert "{'you'" not in body.split("def ")[1]  # no dict of arguments made
    # a procedure with variables of its own keeps its dict, as before
    start = text.index("# procedure / mark_failures")
    body = text[start:text.index("\n\n", start)]
    assert "(rt, B, d, V, at=None)" in body and "V['tech']" in body
