"""Invariant checks that look only at what changed (engine/invariants.py, check_changes).

A simulation checks every invariant after the setup, then after each action only
what the journal says changed since the check before: a declared invariant runs
again only when something it reads changed. These tests plant a broken state
through each kind of write the engine makes (each goes through the state's
journal) and see it caught at the very action it was planted in, as a full check
there catches it; and see that a rollback past a check is looked at again.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import ScriptedAgent
from rulebook_games.engine import invariants
from rulebook_games.engine.game import Game
from rulebook_games.engine.invariants import InvariantError, check_changes, check_invariants
from rulebook_games.lang.implied import reads
from rulebook_games.play.session import GameError, run

TINY = Path(__file__).parent / "fixtures" / "tiny"
RULESETS = Path(__file__).parent.parent / "rulesets"

# One declared invariant per kind of thing a rule reads; each holds in every game of
# the tiny ruleset (gold stays under 1000, fame under 9, ...), and one planted write
# breaks it.
INVARIANTS = """
invariants:
  - id: gold_bounded
    description: Nobody hoards a thousand gold.
    holds: all(p in players() where stock(gold, p) < 1000)
  - id: production_bounded
    holds: all(p in players() where production(gold, p) < 50)
  - id: fame_bounded
    holds: all(p in players() where track(fame, p) < 9)
  - id: weather_calm
    holds: weather < 5
  - id: small_tableaux
    holds: all(p in players() where size(cards_in(tableau, p)) < 4)
  - id: nothing_shiny
    holds: all(p in players() where all(h in cards_in(hand, p) where not is_marked(h, shiny)))
  - id: dustless
    holds: all(p in players() where all(h in cards_in(hand, p) where resources_on(h, dust) == 0))
  - id: few_towers
    holds: count(s in spaces() where s.tile == tower) < 3
  - id: cubes_off_cards
    holds: all(p in players() where all(h in cards_in(hand, p) where cubes_on(h, p) == 0))
  - id: short_game
    holds: round_number() < 7
  - id: prices_sane
    holds: all(p in players() where modifier(price, p, none, kind="build") > -5)
  - id: cubes_bounded
    holds: under(cube, 100)
  - id: goods_listed
    holds: all(r in [gold, cube] where all(p in players() where stock(r, p) < 2000))
  - id: tableaux_looked_up
    description: The zones it reads are worked out as it runs (seen at each run).
    holds: all(p in players() where all(z in [tableau] where size(cards_in(z, p)) < 3))
functions:
  - id: under
    description: Every player holds fewer than n of the resource.
    params: {r: resource, n: number}
    returns: bool
    value: all(p in players() where stock(r, p) < n)
"""


def _ruleset(tmp_path):
    work = tmp_path / "watched"
    shutil.copytree(TINY, work)
    comp = (work / "components.yaml").read_text()
    comp = comp.replace("card_types: [gadget]", "card_types: [gadget]\nmarkers: [shiny]\n"
                        "card_resources: [{id: dust, plural: dust}]")
    comp = comp.replace("tracks:\n", "tracks:\n  - {id: weather, scope: global, min: 0, "
                        "max: 10}\n")
    comp = comp.replace("supply: 2}", "supply: 4}")
    (work / "components.yaml").write_text(comp)
    (work / "flow.yaml").write_text((work / "flow.yaml").read_text() + INVARIANTS)
    return load_ruleset(work)


@pytest.fixture(scope="module")
def watched(tmp_path_factory):
    return _ruleset(tmp_path_factory.mktemp("watch"))


def _card_in_hand(st, seat=0):
    return next(c for c in st.zones[("hand", seat)])


def _lay_out(st, cards):
    """The cards into player 1's tableau through whole lists and each card placed."""
    for key in (("deck", -1), ("hand", 1)):
        st.set_zone(key, [c for c in st.zones[key] if c not in cards])
    st.set_zone(("tableau", 0), list(st.zones[("tableau", 0)]) + cards)
    for c in cards:
        st.place_card(c, "tableau", 0, 0)


# what each planted write does, through the state's own write methods (the journal)
PLANTS = {
    "gold_bounded": lambda st: st.set_player(1, "stock", "gold", 5000),
    "production_bounded": lambda st: st.set_player(0, "production", "gold", 60),
    "fame_bounded": lambda st: st.set_player(1, "tracks", "fame", 9),
    "weather_calm": lambda st: st.set_track("weather", 7),
    "small_tableaux": lambda st: [st.move(c, ("tableau", 0), None, 0)
                                  for c in list(st.zones[("deck", -1)])
                                  + list(st.zones[("hand", 1)])],
    "nothing_shiny": lambda st: st.set_marker(_card_in_hand(st), "shiny", True),
    "dustless": lambda st: st.set_on_card(_card_in_hand(st), "resources", "dust", 2),
    "few_towers": lambda st: [st.set_space(s, "tile", "tower") for s in ("a", "b", "c")]
    and [st.set_space(s, "owner", 0) for s in ("a", "b", "c")],
    # a cube moved from the stock onto a card: the pieces are conserved, the rule is not
    "cubes_off_cards": lambda st: (st.set_player(0, "stock", "cube",
                                                 st.players[0].stock["cube"] - 1),
                                   st.set_on_card(_card_in_hand(st), "pieces", 0, 1)),
    "short_game": lambda st: st.set_attr("round", 8),
    # the cards laid out as whole lists (as a shuffle writes them), each card told where
    "small_tableaux listed": lambda st: _lay_out(st, list(st.zones[("deck", -1)])
                                                 + list(st.zones[("hand", 1)])),
    "tableaux_looked_up": lambda st: [st.move(c, ("tableau", 1), None, 1)
                                      for c in list(st.zones[("hand", 1)])[:1]
                                      + list(st.zones[("hand", 0)])[:2]],
}


class Planter(ScriptedAgent):
    """Earns gold; at its ``at``-th decision plants ``plant`` first (at the choice of an
    action: no mark set), or inside the action it picks (``inside``: while its mark is
    set, at the action's own decision)."""

    def __init__(self, plant, at: int):
        super().__init__([])
        self.plant, self.at, self.asked = plant, at, 0

    def decide(self, decision, view, game):
        self.asked += 1
        if self.asked == self.at:
            self.plant(game.state)
        keys = [o.key for o in decision.options]
        return keys.index("action:earn") if "action:earn" in keys else 0


def _play(rs, plant, at: int, full: bool = False):
    """The game stopped by the broken invariant: (its message, decisions answered)."""
    g = Game(rs, 2, 3, [Planter(plant, at)] * 2)
    if full:  # every check a full one: what the checks found before they watched changes
        saved = invariants.check_changes
        invariants.check_changes = invariants.check_invariants
    try:
        with pytest.raises(GameError) as info:
            run(g, check=True)
    finally:
        if full:
            invariants.check_changes = saved
    return info.value.message, len(g.record)


@pytest.mark.parametrize("case", sorted(PLANTS))
def test_a_broken_invariant_is_caught_at_the_action_it_was_broken_in(watched, case):
    iid = case.split()[0]
    message, answered = _play(watched, PLANTS[case], at=3)
    assert message.startswith(f"invariant broken: {iid}")
    assert answered == 3  # right after the third action (earn) of the game
    assert (message, answered) == _play(watched, PLANTS[case], at=3, full=True)


def test_each_invariant_reads_what_it_names(watched):
    # what the checks compare with the changes: bounded for every one of them
    function = lambda name: watched.asts.get(("function", name))  # noqa: E731
    found = {iid: reads(watched.asts[("invariant", iid)], function, across=True)
             for iid in PLANTS if " " not in iid}
    assert found["gold_bounded"] == {("pay", "gold")}
    assert found["fame_bounded"] == {("track", "fame")}
    assert found["weather_calm"] == {("track", "weather")}
    assert found["nothing_shiny"] == {("zones", "hand"), ("markers", "shiny")}
    assert found["cubes_off_cards"] == {("zones", "hand"), ("pieces", "*")}
    assert found["short_game"] == {("round", "*")}
    assert found["tableaux_looked_up"] == {("zones", "?")}  # (seen as it runs)
    assert reads(watched.asts[("invariant", "prices_sane")], function, across=True) \
        == {("modifier", "price")}
    # a modifier, as the checks follow it: the zones in play, and what the cards'
    # modifiers of its kind read (the coupon's condition reads only its parameter)
    g = Game(watched, 2, 1, [])
    found = invariants._invariant_reads(g)
    assert found["prices_sane"] == {("zones", "tableau")}
    # a resource a variable holds: a function's parameter given one, or a list's item
    assert found["cubes_bounded"] == {("pay", "cube")}
    assert found["goods_listed"] == {("pay", "gold"), ("pay", "cube")}
    assert reads(watched.asts[("invariant", "cubes_bounded")], function, across=True) \
        == {("pay", "*")}  # (not knowing the function's parameters: any)
    # without 'across' (one option's check, inside an action) the round is not a read
    assert reads(watched.asts[("invariant", "short_game")], function) == frozenset()


def _counting(rs, iid):
    """Count the runs of one declared invariant's compiled code."""
    key = ("invariant", iid)
    code = rs.code[key]
    runs = [0]

    def counted(frame):
        runs[0] += 1
        return code(frame)
    rs.code[key] = counted
    return runs, lambda: rs.code.__setitem__(key, code)


def test_an_invariant_runs_again_only_when_what_it_reads_changed(tmp_path):
    rs = _ruleset(tmp_path)
    g = Game(rs, 2, 1, [])
    st = g.state
    check_invariants(g)
    runs, _ = _counting(rs, "weather_calm")
    check_changes(g)
    assert runs[0] == 0  # nothing changed
    st.set_player(0, "stock", "gold", 9)
    check_changes(g)
    assert runs[0] == 0  # gold is not read
    st.set_track("weather", 2)
    check_changes(g)
    assert runs[0] == 1
    # a change rolled back after a check has read it is a change again
    mark = st.mark()
    st.set_track("weather", 3)
    check_changes(g)
    assert runs[0] == 2
    st.undo_to(mark)
    assert st.tracks["weather"] == 2
    check_changes(g)
    assert runs[0] == 3
    # one written and rolled back between two checks changed nothing
    mark = st.mark()
    st.set_track("weather", 4)
    st.undo_to(mark)
    check_changes(g)
    assert runs[0] == 3


def test_a_rollback_past_a_check_is_looked_at_again(tmp_path):
    # the state at the mark was broken (planted with no journal, as a position may be);
    # the checks passed once it was mended; rolled back to it, it is broken again
    rs = _ruleset(tmp_path)
    g = Game(rs, 2, 1, [])
    st = g.state
    check_invariants(g)
    mark = st.mark()
    st.tracks["weather"] = 6  # (not journaled: the checks cannot see this write)
    st.set_track("weather", 1)
    check_changes(g)
    st.undo_to(mark)
    with pytest.raises(InvariantError, match="weather_calm"):
        check_changes(g)


def _set_up(rs):
    g = Game(rs, 2, 1, [])
    g.run_code(("flow", "setup"), g.frame(None))  # (the hands dealt)
    return g


@pytest.mark.parametrize("what, plant", [
    ("below its floor", lambda st: st.set_player(0, "stock", "gold", -1)),
    ("outside", lambda st: st.set_player(1, "tracks", "fame", 11)),
    ("outside", lambda st: st.set_track("weather", -2)),
    ("production is below", lambda st: st.set_player(0, "production", "gold", -1)),
    ("conserved", lambda st: st.set_on_card(_card_in_hand(st), "pieces", 1, 1)),
    ("conserved", lambda st: st.set_player(0, "stock", "cube", 2)),
    ("holds -1 dust", lambda st: st.set_on_card(_card_in_hand(st), "resources", "dust", -1)),
    ("two zones", lambda st: st.set_zone(("hand", 1), st.zones[("hand", 1)]
                                         + [_card_in_hand(st)])),
    ("in no zone", lambda st: st.set_zone(("hand", 0), [])),
    ("sits in", lambda st: st.place_card(_card_in_hand(st), "tableau", 0, 0)),
    ("slots", lambda st: [st.move(c, ("row", -1), None, -1)
                          for c in list(st.zones[("deck", -1)]) + list(st.zones[("hand", 1)])]),
])
def test_the_engines_own_invariants_look_at_what_changed(tmp_path, what, plant):
    rs = _ruleset(tmp_path)
    g = _set_up(rs)
    check_invariants(g)
    check_changes(g)
    plant(g.state)
    with pytest.raises(InvariantError, match=what):
        check_changes(g)
    with pytest.raises(InvariantError, match=what):
        check_invariants(g)  # (what a full check says too)


def test_the_zones_an_invariant_works_out_are_seen_as_it_runs(tmp_path):
    rs = _ruleset(tmp_path)
    g = _set_up(rs)
    st = g.state
    check_invariants(g)
    runs, _ = _counting(rs, "tableaux_looked_up")
    check_changes(g)
    assert runs[0] == 1  # (its first run: which zones it reads is not known before)
    st.move(_card_in_hand(st, 1), ("hand", 0), None, 0)
    check_changes(g)
    assert runs[0] == 1  # hands are not what it reads
    st.move(_card_in_hand(st, 0), ("tableau", 0), None, 0)
    check_changes(g)
    assert runs[0] == 2
    # a kept value of a function (kept until a card moves) does not hide its reads
    g.zmemo = (st, {})
    check_changes(g)
    st.move(_card_in_hand(st, 0), ("tableau", 0), None, 0)
    check_changes(g)
    assert runs[0] == 3


def test_a_real_rulesets_broken_frame_is_caught_where_a_full_check_catches_it():
    legacy = load_ruleset(RULESETS / "legacy_gears_of_time")
    # Legacy's time frames are read through a zone worked out as the invariant runs
    # (frame_zone(n)): cards pushed into the first frame past its capacity mid-game
    def plant(st):
        deck = max((k for k in st.zones if k[1] == -1), key=lambda k: len(st.zones[k]))
        for c in list(st.zones[deck])[:12]:
            st.move(c, ("frame_1", -1), None, -1)

    class Pusher(ScriptedAgent):
        def __init__(self):
            super().__init__([])
            self.asked = 0

        def decide(self, decision, view, game):
            self.asked += 1
            if self.asked == 7:
                plant(game.state)
            return decision.low if decision.is_range else 0

    def play(full: bool):
        g = Game(legacy, 3, 5, [Pusher()] * 3)
        if full:
            saved = invariants.check_changes
            invariants.check_changes = invariants.check_invariants
        try:
            with pytest.raises(GameError) as info:
                run(g, check=True)
        finally:
            if full:
                invariants.check_changes = saved
        return info.value.message, len(g.record)
    found = play(False)
    # (caught after the action the seventh answer was given in, at the tenth answer)
    assert found[0].startswith("invariant broken: frame_capacity") and found[1] >= 7
    assert found == play(True)
