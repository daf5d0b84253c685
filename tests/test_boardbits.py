"""The board as bitsets (engine/boardbits.py, lang/spacesets.py), on a small board of its own.

The board: six spaces in a line, s1 - s2 - s3 - s4 - s5 - s6, plus a yard off
the board. s6 lists s1 among its neighbours, but s1 does not list s6 ("next
to" is what a space's own list says). Rock: s1, s3, s4, s6 and the yard;
marsh: s2, s5. The expectations below come from the tiles' rules as written
here, not from what the engine answered.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import RandomAgent
from rulebook_games.engine.game import Game
from rulebook_games.engine.infosets import copy_game
from rulebook_games.lang import types as T
from lang_helpers import compile_ok

TINY = Path(__file__).parent / "fixtures" / "tiny"

BOARD = """tiles:
  - {id: tower, owned: true, supply: 2}
  - id: hut
    owned: true
    placement: space.type == rock and (next_to_mine(space) or not has_tiles(you))
  - id: beacon
    owned: false
    placement: all(n in neighbours(space) where n.tile == none)
  - id: wall
    owned: false
    placement: on_marsh(space) or not any(n in neighbours(space) where n.tile == wall)
  - id: well
    owned: true
    placement: stock(gold) >= 3 and space.type == rock
boards:
  - id: field
    space_types: [rock, marsh]
    spaces:
      - {id: s1, type: rock, adjacent: [s2]}
      - {id: s2, type: marsh, adjacent: [s1, s3]}
      - {id: s3, type: rock, adjacent: [s2, s4]}
      - {id: s4, type: rock, adjacent: [s3, s5]}
      - {id: s5, type: marsh, adjacent: [s4, s6]}
      - {id: s6, type: rock, adjacent: [s5, s1]}
      - {id: yard, type: rock, off_board: true}
"""

FUNCTIONS = """
functions:
  - id: mine
    params: {s: space, p: player}
    returns: bool
    value: s.owner == p and s.tile != none
  - id: next_to_mine
    params: {s: space}
    returns: bool
    value: any(n in neighbours(s) where mine(n, you))
  - id: has_tiles
    params: {p: player}
    returns: bool
    value: any(x in spaces() where mine(x, p))
  - id: on_marsh
    params: {s: space}
    returns: bool
    value: s.type == marsh
"""


@pytest.fixture(scope="module")
def board_rs(tmp_path_factory):
    work = tmp_path_factory.mktemp("boardbits") / "r"
    shutil.copytree(TINY, work)
    comp = (work / "components.yaml").read_text()
    start, end = comp.index("tiles:"), comp.index("events:")
    (work / "components.yaml").write_text(comp[:start] + BOARD + comp[end:])
    (work / "flow.yaml").write_text((work / "flow.yaml").read_text() + FUNCTIONS)
    return load_ruleset(work)


def new_game(rs):
    return Game(rs, 2, 1, [RandomAgent(0), RandomAgent(1)])


def run(rs, g, text, you=0):
    return compile_ok(rs, text, variables={"you": T.PLAYER})(g.frame(you))


def legal(g, tile, player):
    return g.legal_spaces(tile, player, "rules", None)


def test_the_masks_say_what_lies_where_and_what_is_next_to_what(board_rs):
    g = new_game(board_rs)
    layout, bits = g.board_layout(), g.board_bits()
    bit = {s: 1 << i for i, s in enumerate(["s1", "s2", "s3", "s4", "s5", "s6", "yard"])}
    assert layout.order == list(bit)  # declared order
    assert layout.all == sum(bit.values())
    assert bits.occupied() == 0
    # what is next to s3: the spaces that list it, s2 and s4; next to s1: s2 and s6
    assert bits.near(bit["s3"]) == bit["s2"] | bit["s4"]
    assert bits.near(bit["s1"]) == bit["s2"] | bit["s6"]
    assert bits.near(bit["s6"]) == bit["s5"]  # s1 does not list s6
    assert bits.near(bit["yard"]) == 0
    assert layout.declared("type", "marsh") == bit["s2"] | bit["s5"]
    assert layout.on_board == layout.all & ~bit["yard"]
    assert layout.spaces_in(bit["s5"] | bit["s1"]) == ["s1", "s5"]
    run(board_rs, g, "place hut on item(spaces(), 3)", you=0)
    bits = g.board_bits()  # a tile placed: the masks are made again
    assert bits.occupied() == bit["s3"]
    assert bits.owned_by(0) == bit["s3"] and bits.owned_by(1) == 0
    assert bits.eq("tile", True, "hut") == bit["s3"]


def test_every_rule_of_this_board_is_answered_from_the_masks(board_rs):
    layout = new_game(board_rs).board_layout()
    for tile in ("hut", "beacon", "wall"):
        assert layout.rule(("tile", tile, "placement")) is not None, tile
    # a player's stock is not the board: that rule is asked space by space
    assert layout.rule(("tile", "well", "placement")) is None


def test_a_hut_goes_next_to_your_tiles_if_you_have_any(board_rs):
    g = new_game(board_rs)
    # no tiles yet: any rock on the board, in declared order (not the yard)
    assert legal(g, "hut", 0) == ["s1", "s3", "s4", "s6"]
    assert g.can_place("hut", 0)
    run(board_rs, g, "place hut on item(spaces(), 3)", you=0)
    # next to s3 are s2 (marsh) and s4 (rock): only s4
    assert legal(g, "hut", 0) == ["s4"]
    assert [s for s in layout_spaces(g) if g.placement_ok("hut", s, 0)] == ["s4"]
    # the other player has no tiles: any free rock
    assert legal(g, "hut", 1) == ["s1", "s4", "s6"]
    run(board_rs, g, "place hut on item(spaces(), 1)", you=1)
    # s6 lists s1 among its neighbours; s4 lists s3, which is not theirs
    assert legal(g, "hut", 1) == ["s6"]
    run(board_rs, g, "place hut on item(spaces(), 6)", you=1)
    assert legal(g, "hut", 1) == []
    assert not g.can_place("hut", 1)
    assert g.placement_possible("hut", 1, "rules", None) is False


def layout_spaces(g):
    return list(g.space_decl)


def test_a_beacon_needs_every_neighbour_empty(board_rs):
    g = new_game(board_rs)
    assert legal(g, "beacon", 0) == ["s1", "s2", "s3", "s4", "s5", "s6"]
    run(board_rs, g, "place hut on item(spaces(), 1)", you=0)
    # s2 lists s1, s6 lists s1; s1 itself is taken
    assert legal(g, "beacon", 0) == ["s3", "s4", "s5"]
    # the yard has no neighbours: every one of them is empty, but it is off the board
    assert g.placement_ok("beacon", "yard", 0)


def test_walls_go_on_marsh_or_away_from_walls(board_rs):
    g = new_game(board_rs)
    run(board_rs, g, "place wall on item(spaces(), 4)", you=0)
    # not next to the wall on s4: s3 and s5 list s4, but s5 is marsh
    assert legal(g, "wall", 0) == ["s1", "s2", "s5", "s6"]


def test_where_and_anywhere_keep_the_declared_order(board_rs):
    g = new_game(board_rs)
    run(board_rs, g, "place hut on item(spaces(), 4)", you=0)
    target = lambda s: s != "s3"  # noqa: E731  (a statement's own condition)
    assert g.legal_spaces("beacon", 0, "where", target) == ["s1", "s2", "s6"]
    assert g.legal_spaces("beacon", 0, "where", target, first=True) == ["s1"]
    assert g.legal_spaces("wall", 0, "anywhere", None) == ["s1", "s2", "s3", "s5", "s6"]


def test_a_rule_the_masks_cannot_answer_is_asked_space_by_space(board_rs):
    g = new_game(board_rs)
    assert g.state.players[0].stock["gold"] == 3
    assert legal(g, "well", 0) == ["s1", "s3", "s4", "s6"]
    run(board_rs, g, "pay 1 gold", you=0)
    assert legal(g, "well", 0) == []


def test_a_rollback_puts_the_masks_back(board_rs):
    g = new_game(board_rs)
    assert legal(g, "hut", 0) == ["s1", "s3", "s4", "s6"]
    mark = g.snapshot()
    run(board_rs, g, "place hut on item(spaces(), 6)", you=0)
    assert legal(g, "hut", 0) == []  # next to s6: s5 (marsh), s1 ... s1 lists only s2
    assert legal(g, "hut", 1) == ["s1", "s3", "s4"]
    g.restore(mark)
    assert legal(g, "hut", 0) == ["s1", "s3", "s4", "s6"]
    assert g.board_bits().occupied() == 0
    # a claim changes the board too
    run(board_rs, g, "claim(item(spaces(), 2), you)", you=1)
    assert g.board_bits().eq("claim", True, 1) == 1 << 1


def test_a_copy_of_the_game_has_its_own_masks(board_rs):
    g = new_game(board_rs)
    legal(g, "hut", 0)
    copy = copy_game(g)
    run(board_rs, copy, "place hut on item(spaces(), 1)", you=0)
    assert legal(copy, "hut", 0) == ["s6"]  # s6 lists s1
    assert legal(g, "hut", 0) == ["s1", "s3", "s4", "s6"]


def test_spaces_next_to_a_set_on_a_board_of_many_spaces():
    """'next to one of M' on a board wider than a byte of the masks, against the
    definition: a space is next to M when one of its own neighbours is in M."""
    import random
    from rulebook_games.engine.boardbits import BoardBits, BoardLayout
    rng = random.Random(5)
    names = [f"x{i}" for i in range(70)]
    adjacency = {s: rng.sample(names, rng.randint(0, 5)) for s in names}
    layout = BoardLayout({s: {"type": "t"} for s in names}, adjacency, {}, None)
    spaces = {s: {"tile": None, "owner": None, "card": None} for s in names}
    bits = BoardBits(layout, spaces)
    for _ in range(200):
        chosen = set(rng.sample(names, rng.randint(0, 70)))
        mask = sum(1 << i for i, s in enumerate(names) if s in chosen)
        expected = [s for s in names if any(n in chosen for n in adjacency[s])]
        assert layout.spaces_in(bits.near(mask)) == expected


def test_masks_carried_over_a_placement_are_those_made_afresh(board_rs):
    from rulebook_games.engine.boardbits import BoardBits
    g = new_game(board_rs)
    for key in ("tile", "owner", "claim", "card"):
        g.board_bits().eq(key, True, None)  # every table made before the writes
    run(board_rs, g, "place hut on item(spaces(), 3)", you=0)
    run(board_rs, g, "claim(item(spaces(), 4), you)", you=1)
    run(board_rs, g, "place wall on item(spaces(), 4)", you=1)
    carried = g.board_bits()
    fresh = BoardBits(g.board_layout(), g.state.spaces)
    for key in ("tile", "owner", "claim", "card"):
        assert carried._live[key] == fresh._by_value(key), key
    assert carried.eq("tile", True, "wall") == 1 << 3
    assert carried.eq("claim", True, 1) == 1 << 3
    assert carried.owned_by(0) == 1 << 2 and carried.owned_by(1) == 0


def test_a_budget_run_out_on_the_masks_points_at_the_placement_rule(board_rs):
    from rulebook_games.lang.runtime import RuleRuntimeError
    g = new_game(board_rs)
    B = g.budget
    B.stop = B.cap = B.limit = B.used + 3  # the game's steps all but spent
    with pytest.raises(RuleRuntimeError) as err:
        legal(g, "hut", 0)  # a step, and one per space to work the rule out
    assert "steps" in err.value.message
    span = err.value.span
    assert span is not None and span.file.endswith("components.yaml")
