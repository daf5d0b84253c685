"""Engine primitives, each tested on a tiny game that belongs to no real game."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import RandomAgent, ScriptedAgent
from rulebook_games.engine.decisions import ActionRefused
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import CardRef, Game
from lang_helpers import compile_ok

TINY = Path(__file__).parent / "fixtures" / "tiny"


@pytest.fixture(scope="module")
def tiny():
    return load_ruleset(TINY)


def game(rs, players=2, answers=None):
    agents = [ScriptedAgent(answers)] * players if answers is not None else \
        [RandomAgent(i) for i in range(players)]
    return Game(rs, players, 1, agents)


def card(g, def_id):
    return next(CardRef(n) for n, c in g.state.cards.items() if c.def_id == def_id)


def run(rs, g, text, you=0, **kw):
    code = compile_ok(rs, text, variables={"you": __import__(
        "rulebook_games.lang.types", fromlist=["T"]).PLAYER}, **kw)
    return code(g.frame(you))


def test_copies_and_default_deck(tiny):
    g = game(tiny)
    deck = g.state.zones[("deck", -1)]
    assert len(deck) == 6 and sum(1 for c in deck if g.state.cards[c].def_id == "lamp") == 4


def test_slotted_zone_overflows(tiny):
    g = game(tiny)
    lamps = [c for c in g.state.zones[("deck", -1)] if g.state.cards[c].def_id == "lamp"]
    for c in lamps[:3]:
        g.put(c, "row", None, 1)
    row = g.state.zones[("row", -1)]
    assert row == [lamps[2], lamps[1]]  # newest first, the oldest pushed out
    assert g.state.zones[("deck", -1)][-1] == lamps[0]


def test_modifier_with_named_parameters(tiny):
    g = game(tiny)
    coupon = card(g, "coupon")
    g.put(coupon, "tableau", 0, 0)
    assert run(tiny, g, 'modifier(price, you, none, kind="build")', start="expression") == -1
    assert run(tiny, g, 'modifier(price, you, none, kind="sell")', start="expression") == 0
    assert run(tiny, g, 'modifier(price, player(2), none, kind="build")',
               start="expression") == 0


def test_tile_supply_runs_out_quietly(tiny):
    g = game(tiny, answers=[1, 1, 1])
    g.decider = 0
    run(tiny, g, "place tower\nplace tower\nplace tower")
    assert sum(1 for s in g.state.spaces.values() if s["tile"] == "tower") == 2
    assert run(tiny, g, "tiles_left(tower)", start="expression") == 0


def test_claims_on_spaces(tiny):
    g = game(tiny)
    run(tiny, g, "claim(item(spaces(), 1), you)")
    assert run(tiny, g, "item(spaces(), 1).claimed_by == you", start="expression")
    assert run(tiny, g, "item(spaces(), 2).claimed_by == none", start="expression")


def test_grid_adjacency(tiny):
    assert sorted(tiny.adjacency["a"]) == ["b", "c"]
    assert sorted(tiny.adjacency["d"]) == ["b", "c"]


def test_once_reward_goes_to_the_first_only(tiny):
    g = game(tiny)
    run(tiny, g, "raise fame by 3", you=0)
    run(tiny, g, "raise fame by 3", you=1)
    assert g.state.players[0].stock["gold"] == 3 + 5
    assert g.state.players[1].stock["gold"] == 3


def test_end_rewards_are_paid_before_scoring(tiny):
    g = game(tiny)
    g.state.players[0].tracks["fame"] = 2
    runner = FlowRunner(g)
    runner.end_rewards()
    assert g.state.players[0].stock["gold"] == 4 and g.state.players[1].stock["gold"] == 3


def test_tracks_stop_at_their_ends(tiny):
    g = game(tiny)
    run(tiny, g, "raise fame by 50\nlower fame by 2")
    assert g.state.players[0].tracks["fame"] == 8


def test_pay_more_than_you_have_is_refused(tiny):
    g = game(tiny)
    with pytest.raises(ActionRefused) as info:
        run(tiny, g, "pay 10 gold")
    assert "needs 10 gold" in info.value.reason
    assert g.state.players[0].stock["gold"] == 3


def test_triggers_listen_to_events_by_scope(tiny):
    g = game(tiny)
    statue = card(g, "statue")
    g.put(statue, "tableau", 1, 0)  # player 2 owns the statue
    run(tiny, g, "emit gadget_built(you, item(filter(x in all_cards_in(deck) where "
                 "x.id == lamp), 1))")
    assert g.state.players[1].stock["gold"] == 4  # 'anyone' scope: it heard player 1


def test_card_actions_hidden_in_a_phase(tiny):
    g = game(tiny)
    g.put(card(g, "statue"), "tableau", 0, 0)
    runner = FlowRunner(g)
    turns = tiny.sections["phases"]["work"].data["turns"]
    offered = runner.available("work", 0, turns, True)
    assert not any(k.startswith("card:") for k in offered)
    offered = runner.available("work", 0, dict(turns, card_actions=True), True)
    assert any(k.startswith("card:") for k in offered)


def test_min_actions_lets_a_turn_end_early(tiny):
    g = game(tiny, answers=[])
    runner = FlowRunner(g)
    # one action taken (earn), then 'end turn' is offered before the second
    g.agents = [ScriptedAgent([0, 3])] * 2  # earn, then end turn (build is refused: no hand)
    runner.turn("work", 0, 2, 1, tiny.sections["phases"]["work"].data["turns"], False)
    assert g.state.players[0].stock["gold"] == 5


def test_vp_of_and_score(tiny):
    g = game(tiny)
    statue = card(g, "statue")
    g.put(statue, "tableau", 0, 0)
    assert run(tiny, g, "vp_of(item(cards_in(tableau), 1))", start="expression") == 2
    assert run(tiny, g, "score(you)", start="expression") == 3


def test_a_whole_game_is_reproducible(tiny):
    a = FlowRunner(Game(tiny, 3, 9, [RandomAgent(s) for s in range(3)])).play()
    b = FlowRunner(Game(tiny, 3, 9, [RandomAgent(s) for s in range(3)])).play()
    assert a.final_hash == b.final_hash and a.scores == b.scores


def test_a_track_can_emit_an_event(tmp_path):
    import shutil
    work = tmp_path / "t"
    shutil.copytree(TINY, work)
    comp = (work / "components.yaml").read_text()
    comp = comp.replace("    min: 0\n    max: 10\n", "    min: 0\n    max: 10\n    emits: moved\n")
    comp = comp.replace("events:\n", "events:\n  - {id: moved, params: {player: player, "
                        "track: track, steps: number}}\n")
    (work / "components.yaml").write_text(comp)
    (work / "flow.yaml").write_text((work / "flow.yaml").read_text() + """\
triggers:
  - on: moved
    do: gain event.steps gold
""")
    rs = load_ruleset(work)
    g = game(rs)
    run(rs, g, "raise fame by 2\nlower fame by 5")
    # +2 gold for the raise; the lowering moved 2 steps (to 0) and also reports them
    assert g.state.players[0].stock["gold"] == 3 + 2 - 2


class Recorder(ScriptedAgent):
    def __init__(self, answers):
        super().__init__(answers)
        self.seen = []

    def decide(self, decision, view, game):
        self.seen.append([o.label for o in decision.options])
        return super().decide(decision, view, game)


def test_choices_of_numbers_are_labelled_as_numbers(tiny):
    rec = Recorder([2, 0])
    g = Game(tiny, 3, 1, [rec] * 3)
    g.decider = 0
    assert run(tiny, g, "choose(x in range(1, 3))", start="expression") == 3
    assert rec.seen[0] == ["1", "2", "3"]
    assert run(tiny, g, "choose(p in players())", start="expression") == 0
    assert rec.seen[1] == ["Player 1", "Player 2", "Player 3"]


def test_functions_may_keep_local_totals(tiny):
    from rulebook_games.lang import types as T
    from lang_helpers import check
    _, diags = check(tiny, "let t = 0\nfor p in players():\n  set t = t + 1\nreturn t",
                     effects=False, choices=False, returns=T.INT)
    assert not diags
    _, diags = check(tiny, "set fame = 3", effects=False, choices=False, returns=T.INT)
    assert [d.code for d in diags] == ["RB304"]


def test_titles_by_final_score(tmp_path):
    import shutil
    work = tmp_path / "t"
    shutil.copytree(TINY, work)
    (work / "flow.yaml").write_text((work / "flow.yaml").read_text() + """\
end:
  ranks:
    - {at: 3, name: Bronze}
    - {at: 6, name: Silver}
    - {at: 100, name: Gold}
""")
    rs = load_ruleset(work)
    g = game(rs)
    g.state.players[0].stock["gold"] = 7
    result = FlowRunner(g).score()
    assert result.ranks == ["Silver", "Bronze"]


def test_titles_may_need_a_condition(tmp_path):
    rs = _tiny_variant(tmp_path, """\
end:
  ranks:
    - {at: 3, name: Bronze}
    - {at: 6, name: Silver, if: fame >= 1}
""")
    g = game(rs)
    g.state.players[0].stock["gold"] = 7
    g.state.players[1].stock["gold"] = 7
    g.state.players[1].tracks["fame"] = 1
    result = FlowRunner(g).score()
    assert result.ranks == ["Bronze", "Silver"]


def _tiny_dir(tmp_path, flow_extra="", flow_replace=None, action=""):
    """A copy of the tiny ruleset with its flow changed; ``action`` adds a flow action."""
    import shutil
    work = tmp_path / "v"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(TINY, work)
    flow = (work / "flow.yaml").read_text()
    if flow_replace:
        flow = flow.replace(*flow_replace)
    if action:
        flow = flow.replace("actions:\n  - id: earn\n", "actions:\n" + action + "  - id: earn\n")
    (work / "flow.yaml").write_text(flow + flow_extra)
    return work


def _tiny_variant(tmp_path, flow_extra="", flow_replace=None, action=""):
    return load_ruleset(_tiny_dir(tmp_path, flow_extra, flow_replace, action))


def test_action_rounds_taking_every_action_is_not_passing(tmp_path):
    rs = _tiny_variant(tmp_path, flow_replace=(
        "turns: {style: fixed, actions: 2, min_actions: 1, card_actions: false}",
        "turns: {style: action_rounds, actions: 2, card_actions: false}"))
    # options before a first action: earn, tower, famous, pass (build needs a hand)
    # P1 earns twice (the turn ends by itself: no pass), P2 passes, P1 alone earns,
    # ends that turn, then passes
    g = Game(rs, 2, 1, [])
    g.state.round = 1
    runner = FlowRunner(g)
    answers = []

    class Watch(ScriptedAgent):
        def decide(self, decision, view, game):
            answers.append([o.key for o in decision.options])
            return super().decide(decision, view, game)
    g.agents = [Watch([0, 0, 3, 0, 3, 3])] * 2
    runner.turns("work", {"style": "action_rounds", "actions": 2, "card_actions": False})
    assert g.state.players[0].stock["gold"] == 3 + 2 + 2 + 2
    assert 0 not in g.state.passed or answers[-1][-1] == "pass"
    assert answers[1][-1] == "end"  # after one action the turn may end, but not by passing
    assert answers[2][-1] == "pass" and answers[4][-1] == "end" and answers[5][-1] == "pass"


def test_run_play_of_another_card(tiny):
    from lang_helpers import check
    _, diags = check(tiny, "run play of this")
    assert not diags


def test_has_block_sees_a_cards_own_play_key(tmp_path):
    _tiny_variant(tmp_path)
    cards = tmp_path / "v" / "cards.yaml"
    cards.write_text(cards.read_text().replace("    cost: 3\n    tags: [blue]\n",
                                               "    cost: 3\n    tags: [blue]\n"
                                               "    play: gain 5 gold\n"))
    rs = load_ruleset(tmp_path / "v")
    g = game(rs)
    statue, coupon = card(g, "statue"), card(g, "coupon")
    find = "item(filter(x in all_cards_in(deck) where x.id == {}), 1)"
    assert run(rs, g, f"has_block({find.format('statue')}, play)", start="expression") is True
    assert run(rs, g, f"has_block({find.format('coupon')}, play)", start="expression") is False
    before = g.state.players[0].stock["gold"]
    run(rs, g, f"run play of {find.format('statue')}")
    assert g.state.players[0].stock["gold"] == before + 5
    assert statue != coupon


def test_requirement_explains_itself_through_meets_requirements(tmp_path):
    from rulebook_games.lang.runtime import RequirementFailed
    rs = _tiny_variant(tmp_path)
    cards = (tmp_path / "v" / "cards.yaml")
    cards.write_text(cards.read_text().replace("    cost: 2\n    tags: [red]\n",
                                               "    cost: 2\n    tags: [red]\n"
                                               "    requires: fame >= 2\n"))
    rs = load_ruleset(tmp_path / "v")
    g = game(rs)
    with pytest.raises(RequirementFailed) as info:
        run(rs, g, "require meets_requirements(item(filter(x in all_cards_in(deck) where "
                   "x.id == coupon), 1))")
    assert info.value.message == "Coupon needs your fame to be at least 2; it is 0"


def test_unfinished_games_are_reported(tmp_path):
    rs = _tiny_variant(tmp_path, "end:\n  finished: false\n")
    result = FlowRunner(Game(rs, 2, 1, [RandomAgent(1), RandomAgent(2)])).play()
    assert result.finished is False and result.winners == [] and len(result.scores) == 2


def test_a_scenario_with_a_broken_setup_fails(tmp_path):
    from rulebook_games.scenarios.files import load_scenarios, run_scenario
    from rulebook_games.errors import Diagnostics
    path = tmp_path / "s.yaml"
    path.write_text("kind: scenarios\nscenarios:\n  - id: x\n    players: 2\n"
                    "    setup: gain 1 gold for nobody\n    steps:\n      - expect: true\n")
    rs = load_ruleset(TINY)
    diags = Diagnostics()
    (sc,) = load_scenarios(rs, path, diags)
    assert diags and not run_scenario(rs, sc).passed


def test_simultaneous_turns_hide_the_others_choices(tmp_path):
    # one prize: both players see it free when they commit; player 1's claim
    # resolves first, so player 2's is refused and player 2 chooses again
    rs = _tiny_variant(tmp_path, flow_replace=(
        "turns: {style: fixed, actions: 2, min_actions: 1, card_actions: false}",
        "turns: {style: simultaneous, actions: 1, min_actions: 1, card_actions: false}"),
        action="  - id: prize\n    name: Take the prize\n"
               "    if: all(p in players() where stock(gold, p) < 10)\n"
               "    do: gain 10 gold\n")
    g = Game(rs, 2, 1, [])
    g.state.round = 1
    seen = []

    class Watch(ScriptedAgent):
        def decide(self, decision, view, game):
            seen.append((decision.player, [o.key for o in decision.options],
                         dict(decision.refused)))
            return super().decide(decision, view, game)
    g.agents = [Watch([0, 0, 0])] * 2
    FlowRunner(g).turns("work", {"style": "simultaneous", "actions": 1, "min_actions": 1,
                                 "card_actions": False})
    gold = [p.stock["gold"] for p in g.state.players]
    # both committed while the prize was free; player 2 then took 'earn' instead
    assert [s[0] for s in seen] == [0, 1, 1]
    assert seen[0][1][0] == seen[1][1][0] == "action:prize"
    assert "Take the prize" in seen[2][2] and seen[2][1][0] == "action:earn"
    assert gold[0] - gold[1] == 10 - 2


def test_a_scenario_step_picks_one_of_a_cards_actions(tmp_path):
    from rulebook_games.scenarios.files import load_scenarios, run_scenario
    from rulebook_games.errors import Diagnostics
    _tiny_variant(tmp_path)
    cards = tmp_path / "v" / "cards.yaml"
    cards.write_text(cards.read_text().replace(
        "      - name: Polish\n        do: raise fame\n",
        "      - name: Polish\n        do: raise fame\n"
        "      - name: Shine\n        do: gain 3 gold\n"))
    rs = load_ruleset(tmp_path / "v")
    head = ("kind: scenarios\nscenarios:\n  - id: x\n    players: 2\n    setup: |\n"
            "      as player(1):\n"
            "        put(item(filter(x in all_cards_in(deck) where x.id == statue), 1),"
            " tableau)\n    steps:\n")
    path = tmp_path / "s.yaml"
    path.write_text(head + "      - card_action: statue\n        which: Shine\n"
                    "      - expect: stock(gold) == 3 + 3 and fame == 0\n"
                    "      - card_action: statue\n        which: 1\n"
                    "      - expect: fame == 1\n"
                    "      - card_action: statue\n        which: shine\n"
                    "        refused: already used\n")
    diags = Diagnostics()
    (sc,) = load_scenarios(rs, path, diags)
    assert not diags
    outcome = run_scenario(rs, sc)
    assert outcome.passed, outcome.message
    path.write_text(head + "      - card_action: statue\n        which: Shyne\n"
                    "      - card_action: statue\n        which: 3\n")
    load_scenarios(rs, path, diags)
    assert [(d.code, d.span.line) for d in diags] == [("RB401", 10), ("RB204", 12)]
    assert diags[0].hint == "did you mean 'Shine'?"


def test_the_log_tells_what_everyone_may_know(tiny):
    g = game(tiny, answers=[0])  # the first card in hand
    g.run_code(("flow", "setup"), g.frame(None))
    g.state.round = 1
    hand = [CardRef(c) for c in g.state.zones[("hand", 0)]]
    names = {g.card_name(c) for c in hand}
    runner = FlowRunner(g)
    pick = runner.available("work", 0, {"card_actions": False}, True)["action:build"]
    assert runner.perform(pick, 0)
    built = g.card_name(g.state.zones[("tableau", 0)][0])
    lines = "\n".join(g.log_lines)
    # the card chosen from the hidden hand is named only once it is public
    assert f"{built} → Player 1's tableau" in lines
    assert "chooses" not in lines
    assert not any(n in lines for n in names - {built})
    run(tiny, g, "place tower on a")
    assert g.log_lines[-1].strip() == "Player 1 places a tower on a"


def test_boards_show_as_a_text_map_and_spaces_describe_themselves(tiny):
    import io

    from rich.console import Console

    from rulebook_games.play.render import render_view
    g = game(tiny)
    run(tiny, g, "place tower on b", you=1)
    console = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    console.print(render_view(g.view_model(0), g, ("board",)))
    lines = [line.rstrip() for line in console.export_text().splitlines()]
    # a grid, two lines a row: each space's label (position from 1), and under it the
    # tile's symbol with its owner's seat; the key beside the map
    at = lines.index("field")
    first, under, second = lines[at + 1:at + 4]
    assert first.split()[:2] == ["1", "2"] and second.split() == ["3", "4"]
    assert under.split()[0] == "[T2]"
    assert abs(under.index("[T2]") + 2 - first.index("2")) <= 1  # under space 2
    assert "[T] tower" in first and "2 Player 2" in under
    assert g.space_summary("a") == "plain · next to a tower of Player 2"
    assert g.space_summary("b") == "plain · has a tower of Player 2"
    assert g.space_summary("b", 1) == "plain · has your tower"


def test_a_refused_action_is_told_only_to_its_player(tmp_path):
    # issue 26: a refused move never reaches the public log; its player reads why
    rs = _tiny_variant(tmp_path, action="  - id: overreach\n    name: Overreach\n"
                       "    do: |\n      place tower on a\n      pay 100 gold\n")
    g = game(rs)
    runner = FlowRunner(g)
    choices = runner.available("work", 0, {"card_actions": False}, True)
    assert not runner.perform(choices["action:overreach"], 0)
    assert runner.perform(choices["action:tower"], 0) is True
    assert g.log_lines[:2] == ["", ""]  # lines only the seat in private_lines sees
    assert g.private_lines[0] == {0: "Player 1: Overreach"}
    assert g.private_lines[1][0].startswith("  refused: needs 100")
    assert g.log_lines[2] == "Player 1: Build a tower"
    assert g.log_lines[3].startswith("  Player 1 places a tower on ") and len(g.log_lines) == 4


def test_a_scenario_step_naming_nothing_fails_without_crashing(tmp_path):
    from rulebook_games.scenarios.files import load_scenarios, run_scenario
    from rulebook_games.errors import Diagnostics
    path = tmp_path / "s.yaml"
    path.write_text("kind: scenarios\nscenarios:\n  - id: x\n    players: 2\n    steps:\n"
                    "      - action: no_such_action\n  - id: y\n    players: 2\n    steps:\n"
                    "      - card_action: no_such_card\n")
    rs = load_ruleset(TINY)
    diags = Diagnostics()
    scenarios = load_scenarios(rs, path, diags)
    assert [d.code for d in diags] == ["RB401", "RB401"]
    for sc in scenarios:
        outcome = run_scenario(rs, sc)
        assert not outcome.passed and "errors" in outcome.message


def test_an_action_offered_for_each_element_of_a_list(tmp_path):
    from rulebook_games.scenarios.files import load_scenarios, run_scenario
    from rulebook_games.errors import Diagnostics
    rs = _tiny_variant(tmp_path, action=(
        "  - id: buy\n    name: Buy\n    each: cards_in(row)\n    as: offer\n"
        "    if: stock(gold) >= offer.cost\n    once_per: round\n"
        "    do: |\n      pay offer.cost gold\n      put(offer, tableau)\n"))
    g = game(rs)
    row = [card(g, "statue"), card(g, "coupon")]
    for c in row:
        g.put(c, "row", None, 0)
    runner = FlowRunner(g)
    choices = runner.available("work", 0, {"card_actions": False}, True)
    refused = choices.pop("__refused__")
    # one option per card in the row, labelled with it; the cost check sees each card
    assert [c.label for k, c in choices.items() if k.startswith("action:buy")] == \
        ["Buy: Statue", "Buy: Coupon"]
    g.state.players[0].stock["gold"] = 2
    choices = runner.available("work", 0, {"card_actions": False}, True)
    refused = choices.pop("__refused__")
    # the reason is made when it is read, in words, with the numbers (the statue costs 3)
    assert "action:buy:1" not in choices and refused["Buy: Statue"]() == \
        "needs at least 3 gold; you have 2 gold"
    assert runner.perform(choices["action:buy:2"], 0)
    assert g.state.cards[row[1]].zone == "tableau"
    # once per round counts the action, whichever card it was for
    g.state.players[0].stock["gold"] = 9
    choices = runner.available("work", 0, {"card_actions": False}, True)
    assert choices["__refused__"]["Buy: Statue"] == "already used this round"
    # scenario steps name the element by label or number
    path = tmp_path / "s.yaml"
    path.write_text("kind: scenarios\nscenarios:\n  - id: x\n    players: 2\n    setup: |\n"
                    "      for x in all_cards_in(deck):\n        if x.id == statue:\n"
                    "          put(x, row)\n      as player(1):\n        gain 5 gold\n"
                    "    steps:\n      - action: buy\n        which: Statue\n"
                    "      - expect: stock(gold) == 3 + 5 - 3 and size(cards_in(tableau)) == 1\n"
                    "      - action: buy\n        which: Lamp\n        refused: not on offer\n"
                    "      - action: earn\n        which: 1\n")
    diags = Diagnostics()
    (sc,) = load_scenarios(rs, path, diags)
    assert [(d.code, d.span.line) for d in diags] == [("RB404", 19)]
    sc.steps.pop()
    outcome = run_scenario(rs, sc)
    assert outcome.passed, outcome.message


def test_each_needs_as_and_a_list(tmp_path):
    from rulebook_games import RulebookError
    for extra, code in (("    each: cards_in(row)\n", "RB404"),
                        ("    each: stock(gold)\n    as: n\n", "RB302")):
        work = _tiny_dir(tmp_path, action="  - id: buy\n" + extra + "    do: gain 1 gold\n")
        with pytest.raises(RulebookError) as info:
            load_ruleset(work)
        assert [d.code for d in info.value.diagnostics] == [code]


def test_an_actions_hand_written_prompt_asks_its_first_question(tmp_path):
    rs = _tiny_variant(tmp_path, action=(
        "  - id: pick\n    name: Pick\n    prompt: Which card do you take?\n"
        "    do: |\n      put(choose(x in cards_in(row)), tableau)\n"
        "      put(choose(x in cards_in(row)), tableau)\n"))
    g = game(rs)
    for c in (card(g, "statue"), card(g, "coupon")):
        g.put(c, "row", None, 0)
    asked = []

    class Watch(ScriptedAgent):
        def decide(self, decision, view, game):
            asked.append(decision.prompt)
            return 0
    g.agents = [Watch([])] * 2
    runner = FlowRunner(g)
    choices = runner.available("work", 0, {"card_actions": False}, True)
    assert runner.perform(choices["action:pick"], 0)
    # the author's words for the first question; the second (one card left) is not asked
    assert asked == ["Pick: Which card do you take?"]


def test_invariants_are_checked_after_each_action_and_every_decision_on_request(tmp_path):
    # cubes are pieces: an action that makes one from nothing breaks their conservation.
    # Checked after each action (the default) the game stops right after it, naming the
    # invariant; --check-every-decision stops there too; without checks it plays on.
    from rulebook_games.play.session import GameError, run
    rs = _tiny_variant(tmp_path, action="  - id: forge\n    name: Forge a cube\n"
                                        "    do: gain 1 cube\n")
    class Forger(ScriptedAgent):  # forges when it may, then ends the turn
        def decide(self, decision, view, game):
            keys = [o.key for o in decision.options]
            return keys.index("action:forge") if "action:forge" in keys else keys.index("end")
    for mode in (True, "decision"):
        g = Game(rs, 2, 1, [Forger([])] * 2)
        with pytest.raises(GameError) as info:
            run(g, check=mode)
        assert "invariant broken" in info.value.message and "cube" in info.value.message
        assert len(g.record) == 1  # the first answer was the forge itself
    g = Game(rs, 2, 1, [Forger([])] * 2)
    assert run(g, check=False).finished


def test_can_run_tries_a_block_without_changing_anything(tmp_path):
    # a card's block that pays 5 gold: with 3 gold it cannot be carried out, with 9 it
    # can; either way asking changes nothing
    root = _tiny_dir(tmp_path, "", None, "")
    cards = root / "cards.yaml"
    cards.write_text(cards.read_text() + "  - id: vault\n    name: Vault\n    type: gadget\n"
                     "    cost: 1\n    blocks:\n      payout: pay 5 gold; gain 1 cube\n",
                     encoding="utf-8")
    comps = root / "components.yaml"
    comps.write_text(comps.read_text() + "blocks:\n  - {id: payout}\n", encoding="utf-8")
    rs = load_ruleset(root)
    g = Game(rs, 2, 1, [])
    vault = next(c for c, s in g.state.cards.items() if s.def_id == "vault")
    from rulebook_games.lang.builtins import BUILTINS
    can_run = BUILTINS["can_run"].impl
    before = g.state.digest()
    assert can_run(g, vault, "payout", 0) is False
    assert g.state.digest() == before
    g.state.players[0].stock["gold"] = 9
    before = g.state.digest()
    assert can_run(g, vault, "payout", 0) is True
    assert g.state.digest() == before and g.state.players[0].stock["cube"] == 5
    assert can_run(g, vault, "play", 0) is False  # it has no play effect


def test_a_procedure_words_its_first_question(tmp_path):
    # 'bet' asks one number with its own words; 'hum' asks nothing, so its words must
    # not reach the question asked after it; an action's own words come first
    from rulebook_games.scenarios.files import load_scenarios, run_scenario
    from rulebook_games.errors import Diagnostics
    rs = _tiny_variant(
        tmp_path,
        flow_extra="procedures:\n"
                   "  - id: bet\n    prompt: \"Bet how much gold?\"\n"
                   "    do: pay choose_number(0, 2) gold\n"
                   "  - id: hum\n    prompt: \"Hum which tune?\"\n    do: pass\n",
        action="  - id: wager\n    name: Wager\n    do: bet()\n"
               "  - id: quiet\n    name: Quiet\n    do: hum(); gain choose_number(0, 1) gold\n"
               "  - id: dare\n    name: Dare\n    prompt: \"Dare how much?\"\n    do: bet()\n")
    path = tmp_path / "s.yaml"
    path.write_text("kind: scenarios\nscenarios:\n  - id: p\n    players: 2\n    steps:\n"
                    "      - action: wager\n        asks: Bet how much gold?\n"
                    "      - action: quiet\n        asks: Gain gold equal to how many\n"
                    "      - action: dare\n        asks: Dare how much?\n", encoding="utf-8")
    diags = Diagnostics()
    (sc,) = load_scenarios(rs, path, diags)
    assert not diags
    out = run_scenario(rs, sc)
    assert out.passed, out.message


class Prompts(ScriptedAgent):
    def __init__(self, answers):
        super().__init__(answers)
        self.prompts = []

    def decide(self, decision, view, game):
        self.prompts.append(decision.prompt)
        return super().decide(decision, view, game)


def test_after_the_last_counted_action_the_prompt_says_free_actions_are_left(tmp_path):
    import shutil
    work = tmp_path / "t"
    shutil.copytree(TINY, work)
    flow = (work / "flow.yaml").read_text()
    flow = flow.replace("  - id: famous\n    name: Get famous\n    do: raise fame\n",
                        "  - id: famous\n    name: Get famous\n    free: true\n"
                        "    once_per: turn\n    do: raise fame\n")
    (work / "flow.yaml").write_text(flow)
    rs = load_ruleset(work)
    g = game(rs, answers=[])
    agent = Prompts([0, 0, 0, 0])  # earn, earn, then the free action, then end the turn
    g.agents = [agent] * 2
    FlowRunner(g).turn("work", 0, 2, 1, rs.sections["phases"]["work"].data["turns"], False)
    assert "(action 1 of 2)" in agent.prompts[0] and "(action 2 of 2)" in agent.prompts[1]
    assert "(your 2 actions are taken; free actions only)" in agent.prompts[2]
    assert not any("action 3 of 2" in p for p in agent.prompts)


def test_a_refusal_says_a_phrased_condition_in_its_own_words(tmp_path):
    # a function with a phrase stands for its condition in a refusal, unless its
    # own parts would give the numbers (a comparison): then those are told
    rs = _tiny_variant(tmp_path, action=(
        "  - id: bargain\n    name: Bargain\n    if: a_bargain()\n    do: gain 1 gold\n"
        "  - id: plain\n    name: Plain\n    if: any(k in cards_in(hand) where k.cost <= 1)\n"
        "    do: gain 1 gold\n"
        "  - id: rich\n    name: Rich\n    if: rich_enough()\n    do: gain 1 gold\n"),
        flow_extra=(
        "functions:\n"
        "  - id: a_bargain\n    phrase: \"a card in your hand costs at most 1\"\n"
        "    returns: bool\n    value: any(k in cards_in(hand) where k.cost <= 1)\n"
        "  - id: rich_enough\n    phrase: \"you are rich\"\n    returns: bool\n"
        "    value: stock(gold) >= 50\n"))
    g = game(rs)
    runner = FlowRunner(g)
    refused = runner.available("work", 0, {"card_actions": False}, True)["__refused__"]
    words = {k: (v if isinstance(v, str) else v()) for k, v in refused.items()}
    assert words["Bargain"] == "only when a card in your hand costs at most 1"
    # the same condition without a phrase is told by its own parts: the hand is empty
    assert words["Plain"] == "there is no card in your hand"
    assert words["Rich"].startswith("needs at least 50 gold; you have ")


def test_a_choice_whose_every_option_changes_nothing_is_not_asked(tmp_path):
    # issue 26: "choose one" whose every option does nothing (Sabotage in a solo game:
    # nobody to take from) is not asked; the log says why. One that matters is asked.
    rs = _tiny_variant(tmp_path, action=(
        "  - id: idle\n    name: Idle\n    do: |\n      choose one:\n"
        "        - remove up to 3 gold from choose_optional(p in opponents() where stock(gold, p) > 99)\n"
        "        - gain 0 gold\n"
        "  - id: pick\n    name: Pick\n    do: |\n      choose one:\n"
        "        - gain 0 gold\n        - gain 1 gold\n"))
    asked = []

    class Watch(ScriptedAgent):
        def decide(self, decision, view, game):
            asked.append(decision.prompt)
            return super().decide(decision, view, game)
    g = game(rs)
    g.agents = [Watch([1]), Watch([])]
    runner = FlowRunner(g)
    choices = runner.available("work", 0, {"card_actions": False}, True)
    gold = g.state.players[0].stock["gold"]
    assert runner.perform(choices["action:idle"], 0)
    assert asked == [] and g.record == [] and g.state.players[0].stock["gold"] == gold
    assert "  Player 1 is not asked to choose: none of the options would change anything" \
        in g.log_lines
    assert runner.perform(choices["action:pick"], 0)
    assert len(asked) == 1 and g.record == [1] and g.state.players[0].stock["gold"] == gold + 1
