"""The effect language's limits: work budget, integer bound, acting player.

The issue asks for a total work budget per effect run and per decision, a
bound on integer size, oversized literals refused at validate time, and an
effect that needs an acting player refused by the checker where there is
none. These tests drive the compiler and the checker directly; the hostile
mods through the command line are in ``test_attacks_budget.py``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.engine.game import Game
from rulebook_games.scenarios.files import load_scenarios
from rulebook_games.play.session import build_game, run as run_game
from rulebook_games.errors import Diagnostics, RulebookError
from rulebook_games.lang.parser import EffectSyntaxError, parse
from rulebook_games.lang.runtime import (DECISION_STEPS, EFFECT_STEPS, GAME_STEPS, MAX_CARDS,
                                      MAX_DECISIONS, MAX_INT, Budget, Frame,
                                      RuleRuntimeError)
from rulebook_games.span import TextOrigin
from lang_helpers import compile_ok

TINY = Path(__file__).parent / "fixtures" / "tiny"


class Runtime:
    """A runtime with two players and a heat stock; every builtin here is pure."""

    def players(self):
        return ["p1", "p2"]

    def stock(self, player, resource):
        return 5

    def change_stock(self, player, resource, amount, verb):
        pass


def run(ruleset, text, budget=None, **kw):
    code = compile_ok(ruleset, text, **kw)
    return code(Frame(Runtime(), {"you": "p1", "this": "card"}, 0, budget))


# ------------------------------------------------------------------ work budget
def test_loops_are_charged_per_iteration(mini):
    budget = Budget()
    run(mini, "repeat 10:\n  for p in players():\n    pass", budget)
    # one step for the run (its one statement, the repeat); each of the 10 turns of the
    # repeat runs a statement and a call (the for and players()); each of the two turns
    # of the for in each runs one statement (pass)
    assert budget.used == 1 + 10 * 2 + 10 * 2 * 1


def test_an_effect_over_its_limit_stops_where_the_work_is(mini):
    budget = Budget(effect_steps=1000, decision_steps=10 ** 9)
    with pytest.raises(RuleRuntimeError) as info:
        run(mini, "repeat 100:\n  repeat 100:\n    pass", budget)
    assert info.value.message == "this effect did more than 1000 steps (the limit per effect)"
    assert (info.value.span.line, info.value.span.col) == (2, 3)  # the inner repeat


def test_each_top_level_run_gets_the_whole_limit_per_effect(mini):
    budget = Budget(effect_steps=1000, decision_steps=10 ** 9)
    code = compile_ok(mini, "repeat 900:\n  pass")
    frame = Frame(Runtime(), {"you": "p1"}, 0, budget)
    for _ in range(5):  # 4500 steps in all, never more than 901 in one run
        code(frame)
    assert budget.used == 5 * 901


def test_runs_between_two_decisions_share_the_limit_per_decision(mini):
    budget = Budget(effect_steps=1000, decision_steps=2500)
    code = compile_ok(mini, "repeat 900:\n  pass")
    frame = Frame(Runtime(), {"you": "p1"}, 0, budget)
    code(frame)
    code(frame)
    with pytest.raises(RuleRuntimeError) as info:
        code(frame)
    assert "did more than 2500 steps (the limit per decision)" in info.value.message
    budget.new_decision()  # after a decision the count starts again
    code(frame)
    code(frame)


def test_comprehensions_and_calls_are_charged(mini):
    budget = Budget(effect_steps=10 ** 9, decision_steps=10 ** 9)
    run(mini, "count(x in range(1, 100) where x > 50)", budget, start="expression")
    # the run (two operations: the count and the range() call), the 100 numbers range()
    # makes and a step for making them, and for each of the 100 items its condition
    assert budget.used == 2 + 1 + 100 + 100 * 1


def test_lists_cost_their_length_so_doubling_stops(mini):
    budget = Budget(effect_steps=100_000, decision_steps=10 ** 9)
    with pytest.raises(RuleRuntimeError) as info:
        run(mini, "let xs = range(1, 1000)\nrepeat 100:\n  set xs = concat(xs, xs)", budget)
    assert "the limit per effect" in info.value.message
    assert budget.used < 100_000 + 2 ** 17  # stopped at the first list past the limit


def test_recursive_functions_are_charged_per_call(mini):
    budget = Budget(effect_steps=10 ** 9, decision_steps=10 ** 9)
    assert run(mini, "triangle(10)", budget, start="expression") == 55
    used = budget.used
    run(mini, "triangle(20)", budget, start="expression")
    assert budget.used - used > used  # twice as deep costs more than twice as much


def test_the_default_limits_leave_room_for_real_games():
    # measured with benchmarks/bench_budget.py --all (every shipped ruleset and player
    # count, random and greedy agents; benchmarks/README.md): at most 28,144 steps in one
    # effect run, 50,442 between two decisions, 1,446,567 in one game, 648 decisions
    # in one game and 307 cards
    assert EFFECT_STEPS >= 20 * 28_144 and DECISION_STEPS >= 20 * 50_442
    assert GAME_STEPS >= 20 * 1_446_567 and MAX_DECISIONS >= 20 * 648
    assert MAX_CARDS >= 20 * 307
    assert GAME_STEPS >= DECISION_STEPS >= EFFECT_STEPS


# --------------------------------------------------------------- integer bound
@pytest.mark.parametrize("text", [
    "let x = 1000000000\nlet y = x * x * x",
    "let x = 2\nrepeat 70:\n  set x = x + x",
    "let x = 0 - 1000000000000000000\nlet y = x - 1",
])
def test_arithmetic_beyond_the_bound_is_a_positioned_error(mini, text):
    with pytest.raises(RuleRuntimeError) as info:
        run(mini, text)
    assert "beyond the limit of 1,000,000,000,000,000,000 (10^18)" in info.value.message
    assert info.value.span is not None and info.value.span.line == text.count("\n") + 1


def test_arithmetic_up_to_the_bound_is_exact(mini):
    assert run(mini, "1000000000 * 1000000000", start="expression") == MAX_INT
    assert run(mini, "0 - 1000000000000000000", start="expression") == -MAX_INT


def test_a_sum_beyond_the_bound_is_an_error(mini):
    with pytest.raises(RuleRuntimeError) as info:
        run(mini, "sum(x in range(1, 20) : 100000000000000000)", start="expression")
    assert "10^18" in info.value.message


def test_an_oversized_literal_is_refused_by_the_parser_at_its_place():
    with pytest.raises(EffectSyntaxError) as info:
        parse("gain 2 heat\ngain 1000000000000000001 heat", TextOrigin.at("f.yaml", 5, 3))
    d = info.value.diagnostic
    assert d.code == "RB306" and (d.span.line, d.span.col) == (6, 6)  # where the digits start
    assert "1000000000000000001" in d.message and "10^18" in d.message


def test_a_literal_of_thousands_of_digits_is_refused_not_a_crash():
    with pytest.raises(EffectSyntaxError) as info:
        parse("gain " + "7" * 5000 + " heat", TextOrigin.at("f.yaml", 1, 1))
    assert info.value.diagnostic.code == "RB306"
    assert "(5000 digits)" in info.value.diagnostic.message


def test_the_largest_literal_is_allowed():
    tree = parse("gain 1000000000000000000 heat", TextOrigin.at("f.yaml", 1, 1))
    assert tree.body[0].amount.value == MAX_INT


# --------------------------------------------------------------- acting player
def _tiny_with(tmp_path: Path, changes: str) -> Path:
    mod = tmp_path / "mod.yaml"
    mod.write_text(f"kind: mod\nid: m\ntarget: tiny\nchanges:\n{changes}", encoding="utf-8")
    return mod


def _errors(tmp_path, changes):
    try:
        load_ruleset(TINY, [str(_tiny_with(tmp_path, changes))])
    except RulebookError as exc:
        return exc.diagnostics
    return []


GIVE = "  - {op: add, in: procedures, value: {id: give, do: gain 2 gold}}\n"


def _setup(text):
    body = "".join(f"      {line}\n" for line in text.splitlines())
    return f"  - op: replace\n    in: flow\n    id: setup\n    value: |\n{body}"


def test_gain_in_setup_names_the_statement_and_the_place(tmp_path):
    (d,) = _errors(tmp_path, _setup("gain 2 gold"))
    assert d.code == "RB304" and (d.span.line, d.span.col) == (9, 7)
    assert d.message.startswith("'gain' needs an acting player, but there is none in setup")
    assert "for p in players()" in d.message


def test_a_procedure_that_needs_a_player_called_from_setup(tmp_path):
    (d,) = _errors(tmp_path, GIVE + _setup("give()"))
    assert d.code == "RB304" and d.span.line == 10
    assert "'give' needs an acting player, but there is none in setup" in d.message
    assert "'give' uses 'gain' (at " in d.message and "mod.yaml:5:" in d.message


def test_the_need_is_followed_through_calls(tmp_path):
    changes = (GIVE + "  - {op: add, in: procedures, value: {id: outer, do: give()}}\n"
               + _setup("outer()"))
    (d,) = _errors(tmp_path, changes)
    assert "'outer', which runs 'give', uses 'gain'" in d.message


def test_naming_the_player_satisfies_the_checker(tmp_path):
    assert _errors(tmp_path, GIVE + _setup("for p in players():\n  as p:\n    give()")) == []


def test_a_procedure_that_does_not_need_one_may_run_anywhere(tmp_path):
    changes = ("  - {op: add, in: procedures, value: {id: everyone, do: "
               "\"for p in players(): gain 1 gold for p\"}}\n" + _setup("everyone()"))
    assert _errors(tmp_path, changes) == []


def test_a_phase_has_no_acting_player_either(tmp_path):
    (d,) = _errors(tmp_path, GIVE + "  - {op: patch, in: phases, id: work, value: {do: give()}}\n")
    assert d.code == "RB304" and "there is none in phase 'work', do" in d.message


def test_functions_reading_the_acting_players_stock(tmp_path):
    changes = ("  - {op: add, in: functions, value: {id: rich, returns: bool, "
               "value: stock(gold) > 5}}\n"
               "  - {op: patch, in: flow, id: rounds, value: {until: rich()}}\n")
    (d,) = _errors(tmp_path, changes)
    assert "'rich' uses 'stock' without a player" in d.message and "rounds.until" in d.message


def test_raising_a_global_track_whose_reward_goes_to_the_raiser(tmp_path):
    track = ("  - {op: add, in: tracks, value: {id: heat, min: 0, max: 5, "
             "rewards: [{at: 1, do: gain 1 gold}]}}\n")
    (d,) = _errors(tmp_path, track + _setup("raise heat"))
    assert "'raise heat' needs an acting player" in d.message
    assert "the reward of track 'heat' uses 'gain'" in d.message
    # raising it for nobody in particular is fine when its rewards go to everyone at the end
    end_only = track.replace("do: gain 1 gold", "do: gain 1 gold, when: end")
    assert _errors(tmp_path, end_only + _setup("raise heat")) == []


def test_the_game_may_place_a_tile_on_a_given_space_without_a_player(tmp_path):
    changes = _setup("place tower on item(spaces(), 1)")
    assert _errors(tmp_path, changes) == []
    rs = load_ruleset(TINY, [str(_tiny_with(tmp_path, changes))])
    game = build_game(rs, 2, 1, ["random", "random"])
    run_game(game)
    assert game.state.spaces["a"] == {"tile": "tower", "owner": None, "card": None}


def test_a_scenario_setup_is_checked_against_the_rulesets_procedures(tmp_path):
    root = tmp_path / "tiny"
    shutil.copytree(TINY, root)
    flow = root / "flow.yaml"
    flow.write_text(flow.read_text(encoding="utf-8") + "procedures:\n"
                    "  - {id: give, do: gain 2 gold}\n", encoding="utf-8")
    rs = load_ruleset(root)
    (root / "scenarios").mkdir()
    path = root / "scenarios" / "s.yaml"
    path.write_text("kind: scenarios\nscenarios:\n  - id: x\n    players: 2\n"
                    "    setup: give()\n    steps:\n      - expect: true\n", encoding="utf-8")
    diags = Diagnostics()
    load_scenarios(rs, path, diags)
    assert [(d.code, d.span.line) for d in diags] == [("RB304", 5)]
    assert "'give' uses 'gain'" in diags[0].message


def test_at_run_time_a_missing_player_is_a_positioned_error_not_a_crash(mini):
    code = compile_ok(mini, "gain 2 heat")
    with pytest.raises(RuleRuntimeError) as info:
        code(Frame(Runtime(), {"you": None}))
    assert "no player" in info.value.message and info.value.span.line == 1


def test_lookahead_copies_get_a_budget_of_their_own_that_counts_on_from_the_game():
    import copy
    rs = load_ruleset(TINY)
    game = Game(rs, 2, 1, [None, None])
    game.budget.charge(5, None)
    game.budget.new_decision()
    clone = copy.copy(game)
    # the copy is the same game played on: its steps and decisions so far count for it
    assert clone.budget is not game.budget
    assert clone.budget.used == 5 and clone.budget.decisions == 1
    clone.budget.charge(10, None)
    clone.budget.new_decision()
    assert game.budget.used == 5 and game.budget.decisions == 1  # the copy's are its own
    assert game.frame(0).budget is game.budget


# ------------------------------------------------- issue 24, item 6: work not counted
def test_a_loop_pays_for_every_statement_of_its_body(mini):
    short, long_ = Budget(), Budget()
    run(mini, "repeat 10:\n  let x = 1", short)
    run(mini, "repeat 10:\n  let x = 1\n  let y = 2\n  let z = x + y", long_)
    # the body's statements (and its one operation, the '+') in each of the 10 turns
    assert short.used == 1 + 10 * 1
    assert long_.used == 1 + 10 * 4


def test_reading_a_zone_costs_a_step_per_card_copied():
    rs = load_ruleset(TINY)
    game = Game(rs, 2, 1, [None, None])
    deck = len(game.state.zones[("deck", -1)])
    before = game.budget.used
    assert len(game.all_cards_in("deck")) == deck
    assert game.budget.used - before == deck
    game.cards_in("deck", None)
    assert game.budget.used - before == 2 * deck


def test_ordering_n_items_costs_for_the_questions_it_asks(mini):
    from rulebook_games.lang.builtins import BUILTINS

    class Asked:
        budget = Budget(effect_steps=10 ** 9, decision_steps=10 ** 9)

        def choose_order(self, items):
            return list(items)
    rt = Asked()
    assert BUILTINS["choose_order"].impl(rt, list(range(100))) == list(range(100))
    assert rt.budget.used == 100 * 99 // 2


def test_the_game_counts_its_decisions_and_stops_past_the_limit():
    budget = Budget(max_decisions=3)
    budget.where = "flow.yaml:5:1"
    for _ in range(3):
        budget.new_decision()
    with pytest.raises(RuleRuntimeError) as info:
        budget.new_decision()
    assert info.value.message.startswith("the game has asked more than 3 decisions without "
                                         "ending (the limit per game)")
    assert info.value.span == "flow.yaml:5:1"


def test_the_game_stops_past_its_steps_in_all(mini):
    budget = Budget(effect_steps=1000, decision_steps=1500, game_steps=3000)
    code = compile_ok(mini, "repeat 900:\n  pass")
    frame = Frame(Runtime(), {"you": "p1"}, 0, budget)
    for _ in range(3):  # each run within its limit; a decision between each two
        code(frame)
        budget.new_decision()
    with pytest.raises(RuleRuntimeError) as info:
        code(frame)
    assert info.value.message == "the game did more than 3,000 steps in all (the limit per game)"
    assert (info.value.span.line, info.value.span.col) == (1, 1)  # the repeat


def test_copying_the_state_costs_a_step_per_card_and_space():
    rs = load_ruleset(TINY)
    game = Game(rs, 2, 1, [None, None])
    before = game.budget.used
    game.snapshot()
    assert game.budget.used - before == len(game.state.cards) + len(game.state.spaces)


def test_a_long_game_keeps_no_counts_of_turns_long_over(tmp_path):
    mod = tmp_path / "long.yaml"
    mod.write_text("kind: mod\nid: long\ntarget: tiny\nchanges:\n"
                   "  - {op: replace, in: flow, id: rounds, value: {count: 300}}\n"
                   "  - {op: patch, in: actions, id: earn, value: {do: \"gain 2 gold\\n"
                   "emit gadget_built(you, none)\"}}\n", encoding="utf-8")
    rs = load_ruleset(TINY, mods=[str(mod)])
    game = build_game(rs, 2, 1, ["random", "random"])
    game.keep_log = False
    run_game(game)
    st = game.state
    assert st.turn_number >= 600
    # what was counted per turn and per round, for the turns and rounds that are over,
    # is dropped: far fewer counts than turns
    assert len(st.history) < 200 and len(st.used) < 200
    rounds = {k[3] for k in st.history if k[2] == "round"}
    assert rounds <= {st.round}


def test_a_ruleset_with_more_cards_than_a_game_may_hold_is_refused_at_the_copies(tmp_path):
    folder = tmp_path / "crowded"
    shutil.copytree(TINY, folder)
    extra = "".join(f"  - {{id: pebble{i}, name: Pebble {i}, type: gadget, copies: 100}}\n"
                    for i in range(1, 101))
    with open(folder / "cards.yaml", "a", encoding="utf-8") as fh:
        fh.write(extra)
    rs = load_ruleset(folder)
    with pytest.raises(RuleRuntimeError) as info:
        Game(rs, 2, 1, [None, None])
    assert f"more than {MAX_CARDS:,} in one game" in info.value.message
    line = (folder / "cards.yaml").read_text(encoding="utf-8").splitlines()[
        info.value.span.line - 1]
    assert "pebble100," in line  # 6 cards + 99 × 100 fit; the 100th pebble does not
