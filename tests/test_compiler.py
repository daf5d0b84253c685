"""Stage 5: checked effects compile to closures that call the runtime interface."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from rulebook_games.lang.runtime import Frame, RequirementFailed, RuleRuntimeError
from lang_helpers import compile_ok


class FakeRuntime:
    """Just enough of a game to run compiled code: stocks, a track, recorded calls."""

    def __init__(self):
        self.calls = []
        self.stocks = {("p1", "heat"): 9, ("p2", "heat"): 4}
        self.tracks = {"temperature": -30}
        self.answers = []

    @property
    def state(self):  # the part of the state compiled rules read without a method
        return SimpleNamespace(tracks=self.tracks)

    def players(self):
        return ["p1", "p2"]

    def stock(self, player, resource):
        return self.stocks.get((player, resource), 0)

    def track(self, track, player):
        return self.tracks[track]

    def change_stock(self, player, resource, amount, verb):
        self.calls.append((verb, player, resource, amount))

    def change_production(self, player, resource, amount, verb="gain"):
        # the change the production makes: down for 'lose' and 'pay'
        self.calls.append(("production", player, resource, amount if verb == "gain" else -amount))

    def move_track(self, track, steps, player):
        self.calls.append(("track", track, steps, player))

    def transfer(self, verb, resource, amount, up_to, source, dest, player):
        self.calls.append((verb, resource, amount, dest))

    def choose_option(self, labels, probes):
        self.calls.append(("options", labels))
        return self.answers.pop(0)

    def confirm(self, label):
        self.calls.append(("confirm", label))
        return self.answers.pop(0)

    def call(self, name, args, frame):
        self.calls.append(("call", name, args))


def run(mini, text, rt=None, **kw):
    rt = rt or FakeRuntime()
    code = compile_ok(mini, text, **kw)
    frame = Frame(rt, {"you": "p1", "this": "card"})
    return code(frame), rt


def test_statements_call_the_runtime(mini):
    _, rt = run(mini, "gain 2 plants\nlose 1 heat production\nraise temperature by 2")
    assert rt.calls == [("gain", "p1", "plant", 2), ("production", "p1", "heat", -1),
                        ("track", "temperature", 2, "p1")]


def test_loops_and_conditions(mini):
    _, rt = run(mini, "for p in players():\n  if stock(heat, p) >= 8:\n    gain 1 mc for p")
    assert rt.calls == [("gain", "p1", "mc", 1)]


def test_arithmetic_and_aggregates(mini):
    value, _ = run(mini, "sum(p in players() : stock(heat, p)) // 3 + count(p in players() "
                   "where stock(heat, p) > 5)", start="expression")
    assert value == 13 // 3 + 1


def test_requirement_explains_the_shortfall(mini):
    with pytest.raises(RequirementFailed) as info:
        run(mini, "require temperature >= -12")
    assert info.value.message == "needs temperature >= -12, but temperature is -30"


def test_requirement_with_a_message(mini):
    with pytest.raises(RequirementFailed) as info:
        run(mini, 'require stock(heat) > 20 else "needs more than 20 heat"')
    assert info.value.message == "needs more than 20 heat"


def test_choose_one_asks_with_readable_labels(mini):
    rt = FakeRuntime()
    rt.answers = [1]
    run(mini, "choose one:\n  - gain 3 plants\n  - add 3 microbes to this", rt=rt)
    assert rt.calls == [("options", ["gain 3 plants", "add 3 microbes to this"]),
                        ("add", "microbe", 3, "card")]


def test_may_asks_before_doing(mini):
    rt = FakeRuntime()
    rt.answers = [False]
    run(mini, "may:\n  lose 2 heat", rt=rt)
    assert rt.calls == [("confirm", "lose 2 heat")]


def test_division_by_zero_is_a_positioned_rule_error(mini):
    with pytest.raises(RuleRuntimeError) as info:
        run(mini, "stock(heat) // (stock(heat) - 9)", start="expression")
    assert info.value.span is not None and "division by zero" in info.value.message


def test_repeat_is_bounded(mini):
    with pytest.raises(RuleRuntimeError) as info:
        run(mini, "repeat 1000000:\n  gain 1 mc")
    assert "limit" in info.value.message


def test_conditional_expression(mini):
    value, _ = run(mini, "3 if stock(heat) >= 9 else 0", start="expression")
    assert value == 3


def test_declared_functions_recurse(mini):
    value, _ = run(mini, "triangle(10)", start="expression")
    assert value == 55


def test_unbounded_recursion_is_a_clear_error(mini):
    with pytest.raises(RuleRuntimeError) as info:
        run(mini, "forever(0)", start="expression")
    assert "deeper than 200" in info.value.message and "forever" in info.value.message


def test_procedures_get_their_arguments(mini):
    _, rt = run(mini, "warm_everyone(2)")
    assert rt.calls == [("gain", "p1", "heat", 2), ("gain", "p2", "heat", 2)]


def test_choose_one_options_may_carry_their_own_labels(mini):
    rt = FakeRuntime()
    rt.answers = [0]
    run(mini, 'choose one:\n  - "Take the plants": gain 3 plants\n  - add 3 microbes to this',
        rt=rt)
    assert rt.calls[0] == ("options", ["Take the plants", "add 3 microbes to this"])


class CountingRuntime(FakeRuntime):
    """A runtime whose stocks really change, so a loop can see what its body did."""

    def change_stock(self, player, resource, amount, verb):
        super().change_stock(player, resource, amount, verb)
        sign = -1 if verb in ("lose", "pay") else 1
        self.stocks[(player, resource)] = self.stock(player, resource) + sign * amount


def test_while_checks_its_condition_before_every_turn(mini):
    # each turn pays 4 heat and gains 2 back: 9 → 7 → 5 → 3, so three turns (a repeat
    # counted at the start, 9 // 4, would give two)
    rt = CountingRuntime()
    run(mini, "while stock(heat) >= 4:\n  pay 4 heat\n  gain 2 heat", rt)
    assert rt.stocks[("p1", "heat")] == 3
    assert [c[0] for c in rt.calls].count("pay") == 3


def test_break_leaves_the_innermost_loop_only(mini):
    rt = CountingRuntime()
    run(mini, "repeat 3:\n  for p in players():\n    gain 1 mc\n    break", rt)
    assert [c for c in rt.calls if c[0] == "gain"] == [("gain", "p1", "mc", 1)] * 3


def test_may_else_runs_when_the_player_declines(mini):
    rt = CountingRuntime()
    rt.answers = [True, True, False]
    run(mini, "while stock(heat) >= 1:\n  may:\n    pay 1 heat\n  else:\n    break", rt)
    assert rt.stocks[("p1", "heat")] == 7
    assert [c[0] for c in rt.calls].count("confirm") == 3


def test_a_while_that_never_ends_stops_at_the_limit(mini):
    with pytest.raises(RuleRuntimeError) as info:
        run(mini, "while stock(heat) >= 0:\n  gain 1 mc")
    assert "10000 times" in info.value.message and info.value.span is not None


def test_break_outside_a_loop_is_refused_at_check_time(mini):
    from lang_helpers import check
    _, diags = check(mini, "if stock(heat) > 1:\n  break")
    assert [d.code for d in diags] == ["RB304"] and "not inside" in diags[0].message


def test_random_number_is_allowed_in_effects_only(mini):
    from lang_helpers import check
    _, diags = check(mini, "random_number(1, 6) > 3", start="expression", effects=False)
    assert [d.code for d in diags] == ["RB304"] and "random source" in diags[0].message
    _, diags = check(mini, "gain random_number(1, 6) mc")
    assert not diags
