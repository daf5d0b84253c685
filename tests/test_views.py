"""The view section and the view model: what a player sees at the table.

A ruleset's ``view:`` section (docs/engine.md#the-view) is checked when it
loads, like scoring: its expressions are typed, a value shown to everyone may
not read the cards of a hidden zone (RB406). The engine's view model
(``Game.view_model``) is plain data in words; over whole games of every
shipped ruleset no card a seat may not see (its name, id or text) reaches
that seat's model.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rulebook_games.agents import Agent
from rulebook_games.errors import RulebookError
from rulebook_games.load.ruleset import load_ruleset
from rulebook_games.play.session import build_game, run

GAMES = [("terraforming_mars", 2), ("legacy_gears_of_time", 3), ("timespan", 2),
         ("lantern_row", 2)]


class Watcher(Agent):
    """A random player that, every few decisions, calls ``look(game)``."""

    wants_view = False

    def __init__(self, seed: int, look, every: int = 5):
        self.rng = random.Random(seed)
        self.look = look
        self.every = every

    def decide(self, decision, view, game):
        if len(game.record) % self.every == 0:
            self.look(game)
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))


def _play(ruleset: str, players: int, look, seed: int = 2, every: int = 5):
    rs = load_ruleset(ruleset)
    game = build_game(rs, players, seed, ["random"] * players,
                      live_agents=[Watcher(seed + i, look, every) for i in range(players)])
    run(game)
    look(game)
    return game


def _hidden_words(game, seat: int) -> set[str]:
    """Names, ids and texts of the cards this seat may not see, of which it sees no copy."""
    seen, hidden = set(), set()
    for number, c in game.state.cards.items():
        (seen if game.card_visible_to(number, seat) else hidden).add(c.def_id)
    out = set()
    seen_names = {str(game.rs.cards[cid].data.get("name", cid)) for cid in seen}
    for cid in hidden - seen:
        data = game.rs.cards[cid].data
        out.add(cid)
        out.add(str(data.get("name", cid)))
    out -= seen_names  # two cards of one name ('Medicine'), one of them in sight
    # a card named like something else of the game (a named space 'Noctis City', a tile
    # 'Capital', a phase 'Research') is that thing's name too
    others = {str(sp.get("name")) for b in game.rs.sections["boards"].values()
              for sp in b.data["spaces"] if sp.get("name")}
    others |= {str(e.data.get("name")) for section, entries in game.rs.sections.items()
               if section != "cards" for e in entries.values()
               if isinstance(e.data, dict) and e.data.get("name")}
    others |= {ident for section, entries in game.rs.sections.items() if section != "cards"
               for ident in entries}
    return {w for w in out if len(w) > 3 and w not in others}


@pytest.mark.parametrize("ruleset,players", GAMES, ids=[f"{r}-{p}" for r, p in GAMES])
def test_no_hidden_card_reaches_a_seats_view_model(ruleset, players):
    problems = []

    def look(game):
        for seat in range(game.n):
            model = game.view_model(seat)
            text = json.dumps(model, ensure_ascii=False)  # JSON-serialisable, whole
            words = _hidden_words(game, seat)
            # texts of hidden cards: only cards' own text is in 'text' fields
            for w in words:
                if f'"{w}"' in text:
                    problems.append(f"decision {len(game.record)}, seat {seat + 1}: {w!r}")
    _play(ruleset, players, look, every=7 if ruleset == "terraforming_mars" else 4)
    assert not problems, problems[:10]


def test_lantern_row_table_shows_row_prices_stalls_and_the_end():
    def look(game):
        if len(game.record) != 12:
            return
        t = game.view_model(0)["table"]
        json.dumps(t)
        row = t["rows"][0]
        assert row["name"] == "Lantern row"
        # the price of each card in the row is its printed cost (nothing discounts it)
        costs = {str(e.data["name"]): e.data.get("cost", 0) for e in game.rs.cards.values()}
        assert [c["price"] for c in row["cards"]] == [costs[c["name"]] for c in row["cards"]]
        facts = {f["label"]: f for f in t["facts"]}
        assert "six lanterns" in facts["The festival ends"]["text"]
        # the cards left in the deck: the deck's own line (a fact said it twice)
        assert [x["count"] for x in t["piles"] if x["name"] == "Lantern deck"] == \
            [len(game.state.zones[("deck", -1)])]
        assert "Cards left in the deck" not in facts
        me, other = t["panels"]
        assert me["you"] and not other["you"]
        hands = {z["name"]: z for z in other["zones"]}
        assert set(hands["Hand"]) == {"name", "count"}  # the opponent's hand: a count
        assert "cards" in {z["name"]: z for z in me["zones"]}["Hand"]
        assert [x["name"] for x in me["tags"]] == ["Crimson", "Amber", "Jade"]
        for seat, panel in enumerate(t["panels"]):
            assert panel["score"]["total"] == game.score(seat)
        colours = t["standings"][0]["goals"]
        assert [g["name"] for g in colours] == ["Crimson", "Amber", "Jade"]
        assert all(len(g["values"]) == 2 for g in colours)
        assert t["title"]["round_word"] == "Hour" and t["title"]["last_round"] == 12
        raise _Seen
    with pytest.raises(_Seen):
        _play("lantern_row", 2, look, every=1)


class _Seen(Exception):
    pass


def test_a_ruleset_without_a_view_gets_the_generic_table(tmp_path):
    rs = load_ruleset(_mini_without_view(tmp_path))
    game = build_game(rs, 2, 1, ["random", "random"])
    t = game.view_model(0)["table"]
    assert t["facts"] == [] and t["panels"] and t["title"]["game"] == "Mini"
    assert [b["shape"] for b in t["boards"]] == ["hex_rows"]


def _mini_without_view(tmp_path: Path) -> Path:
    root = _mini_with_view(tmp_path, "  facts: []\n")
    (root / "ruleset.yaml").write_text((root / "ruleset.yaml").read_text(encoding="utf-8")
                                       .replace(", view.yaml]", "]"), encoding="utf-8")
    return root


def _mod(tmp_path: Path, view: str) -> str:
    path = tmp_path / "view_mod.yaml"
    path.write_text("kind: mod\nid: view_mod\ntarget: lantern_row\nchanges:\n"
                    "  - {op: replace, in: flow, id: view, value: " + view + "}\n",
                    encoding="utf-8")
    return str(path)


def test_a_shared_value_that_reads_a_hidden_hand_is_refused(tmp_path):
    mod = _mod(tmp_path, '{facts: [{label: Hands, value: "sum(c in cards_in(hand, '
                         'player(2)) : c.cost)"}]}')
    with pytest.raises(RulebookError) as err:
        load_ruleset("lantern_row", mods=[mod])
    found = [d for d in err.value.diagnostics if d.code == "RB406"]
    assert found and "hand" in found[0].message
    assert found[0].span.file.endswith("view_mod.yaml") and found[0].span.line == 5


def test_counting_a_hidden_hand_and_private_panel_values_are_allowed(tmp_path):
    mod = _mod(tmp_path, '{facts: [{label: Cards, value: "size(cards_in(hand, player(2)))"}], '
                         'panels: {values: [{label: Hand cost, private: true, '
                         'value: "sum(c in cards_in(hand) : c.cost)"}]}}')
    rs = load_ruleset("lantern_row", mods=[mod])

    def look(game):
        t = game.view_model(0)["table"]
        mine, theirs = t["panels"]
        assert "value" in mine["values"][0] and theirs["values"][0] == {"label": "Hand cost",
                                                                        "hidden": True}
        raise _Seen
    game = build_game(rs, 2, 1, ["random"] * 2,
                      live_agents=[Watcher(1, look, 1), Watcher(2, look, 1)])
    with pytest.raises(_Seen):
        run(game)


def test_view_expressions_are_typed(tmp_path):
    mod = _mod(tmp_path, '{rows: [{zone: row, price: "ware.cost"}]}')
    with pytest.raises(RulebookError) as err:
        load_ruleset("lantern_row", mods=[mod])
    assert any(d.code == "RB301" and "ware" in d.message for d in err.value.diagnostics)


def test_building_the_model_changes_nothing_in_the_game():
    rs = load_ruleset("lantern_row")
    plain = build_game(rs, 2, 5, ["random", "random"])
    result = run(plain)

    def look(game):
        for seat in range(game.n):
            game.view_model(seat)
    watched = _play("lantern_row", 2, look, seed=5, every=1)
    assert watched.record != [] and result.final_hash


def test_the_language_server_reads_view_expressions_as_effect_text():
    from rulebook_games.lsp.locate import place_at
    text = (Path(__file__).resolve().parents[1] / "rulesets" / "lantern_row" /
            "view.yaml").read_text(encoding="utf-8")
    lines = text.split("\n")

    def at(snippet: str):  # the cursor on the snippet's last letter
        line = next(i for i, ln in enumerate(lines) if snippet in ln)
        return place_at(text, line, lines[line].index(snippet) + len(snippet) - 1)
    assert at("ware.cost").in_effect            # a row's price
    assert at("lanterns_of").in_effect          # a standing's value
    assert at("size(cards_in(stall, p))").in_effect  # a fact's value
    assert at("zone: row").value_kinds == ("zone",)
    assert not at("Favours cost").in_effect     # words stay words


# ----------------------------------------------------------------- maps
def _mini_with_view(tmp_path: Path, view: str) -> Path:
    """The mini fixture (a hex board of two rows: a1 a2 over b1 b2 b3) with a view file."""
    import shutil
    root = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "fixtures" / "mini", root)
    (root / "view.yaml").write_text("kind: flow\nview:\n" + view, encoding="utf-8")
    components = (root / "components.yaml").read_text(encoding="utf-8")
    for sid in ("a1", "a2", "b1", "b2", "b3"):
        components = components.replace(f"{{id: {sid},", f"{{id: {sid}, label: {sid},")
    components += "zones:\n  - {id: deck, scope: shared, visibility: hidden}\n"
    (root / "components.yaml").write_text(components, encoding="utf-8")
    text = (root / "ruleset.yaml").read_text(encoding="utf-8")
    (root / "ruleset.yaml").write_text(text.replace("cards.yaml]", "cards.yaml, view.yaml]"),
                                       encoding="utf-8")
    return root


MINI_MAP = ("  maps:\n    - board: mars\n      name: Mars\n"
            "      marks: {reserved_ocean: \"~\"}\n      symbols: {plant: Pl}\n"
            "      text: Oceans go on the marked spaces.\n")


def test_a_hex_board_is_drawn_as_offset_rows_with_marks_bonuses_and_owners(tmp_path):
    from rich.console import Console
    from rulebook_games.play.render import render_view
    rs = load_ruleset(_mini_with_view(tmp_path, MINI_MAP))
    game = build_game(rs, 2, 1, ["random", "random"])
    game.state.spaces["a2"]["tile"] = "ocean"
    game.state.spaces["b3"].update(tile="ocean", owner=1)
    model = game.view_model(0)
    json.dumps(model)
    board = model["table"]["boards"][0]
    spaces = {s["label"]: s for s in board["spaces"]}
    assert board["name"] == "Mars" and board["shape"] == "hex_rows"
    assert spaces["a2"]["mark"] == "~" and "mark" not in spaces["a1"]
    assert spaces["a1"]["bonus_symbols"] == "Pl" and spaces["a1"]["bonus"] == ["plant"]
    assert spaces["b3"]["owner_seat"] == 2 and spaces["a2"]["tile"] == "ocean"
    assert board["bonuses"] == [{"symbol": "Pl", "name": "plant"}]
    assert board["marks"][0]["mark"] == "~"
    console = Console(width=80, record=True, color_system=None)
    console.print(render_view(model, game, ("map",)))
    lines = console.export_text().splitlines()
    a_row = next(i for i, ln in enumerate(lines) if " a1 " in f"{ln} ")
    b_row = next(i for i, ln in enumerate(lines) if " b1 " in f" {ln} ")
    a1, a2 = lines[a_row].index("a1"), lines[a_row].index("~a2~")
    b1, b2 = lines[b_row].index("b1"), lines[b_row].index("b2")
    step = b2 - b1
    # hex rows: the shorter row sits half a space to the right, a1 between b1 and b2
    assert b1 < a1 < b2 and abs((a1 - b1) - step / 2) <= 1
    assert "Pl" in lines[a_row + 1] and "[O]" in lines[a_row + 1]  # bonus, tile: below
    assert "[O2]" in lines[b_row + 1]  # a tile with its owner's seat
    text = "\n".join(lines)
    assert "~a2~ reserved ocean" in text and "Pl plant" in text and "2 Player 2" in text
    assert "Oceans go on the marked spaces." in text
    assert max(len(ln) for ln in lines) <= 80


def test_a_map_may_give_a_tile_its_own_symbol_where_a_bonus_has_the_same(tmp_path):
    # the bonus 'plant' is drawn 'O' here, so the ocean tile is given 'Oc' on this map
    from rich.console import Console
    from rulebook_games.play.render import render_view
    view = MINI_MAP.replace("symbols: {plant: Pl}", "symbols: {plant: O, ocean: Oc}")
    rs = load_ruleset(_mini_with_view(tmp_path, view))
    game = build_game(rs, 2, 1, ["random", "random"])
    game.state.spaces["b3"].update(tile="ocean", owner=1)
    model = game.view_model(0)
    board = model["table"]["boards"][0]
    spaces = {s["label"]: s for s in board["spaces"]}
    assert spaces["b3"]["symbol"] == "Oc" and spaces["a1"]["bonus_symbols"] == "O"
    assert {"name": "ocean", "symbol": "Oc"} in board["tiles"]
    console = Console(width=80, record=True, color_system=None)
    console.print(render_view(model, game, ("map",)))
    assert "[Oc2]" in console.export_text()  # the terminal's map says the same


@pytest.mark.parametrize("view,message", [
    ("  maps:\n    - {board: venus}\n", "unknown board 'venus'"),
    ("  maps:\n    - {board: mars, symbols: {lake: L}}\n", "'lake' is neither a tile"),
    ("  maps:\n    - {board: mars, marks: {lava: \"^\"}}\n", "no space type 'lava'"),
    ("  maps:\n    - {board: mars, symbols: {steel: S}}\n", "'steel' is neither"),
    ("  maps:\n    - {board: mars, card_tiles: [city]}\n", "unknown tile 'city'"),
    ("  maps:\n    - {board: mars, colours: {lava: \"#f00\"}}\n", "'lava' is neither"),
    ("  maps:\n    - {board: mars, colours: {plant: \"red\"}}\n", "which is not a colour"),
])
def test_a_map_names_what_the_board_declares(tmp_path, view, message):
    with pytest.raises(RulebookError) as err:
        load_ruleset(_mini_with_view(tmp_path, view))
    found = [d for d in err.value.diagnostics if message in d.message]
    assert found and found[0].span.file.endswith("view.yaml") and found[0].span.line >= 3


def test_terraforming_mars_table_shows_the_map_standings_projects_and_tags():
    seen = []

    def look(game):
        if len(game.record) < 150 or seen:
            return
        seen.append(1)
        st = game.state
        t = game.view_model(0)["table"]
        json.dumps(t)
        assert "last_round" not in t["title"]  # 30 generations is only a cap
        tharsis = t["boards"][0]
        spaces = {s["label"]: s for s in tharsis["spaces"]}
        # the printed board: area 03 gives two steel, 04 is an ocean area, 09 a volcano
        assert spaces["03"]["bonus_symbols"] == "SS" and spaces["04"]["mark"] == "~"
        assert spaces["09"]["name"] == "Tharsis Tholus" and spaces["09"]["mark"] == "^"
        assert spaces["31"]["mark"] == "*" and spaces["01"].get("off_board")
        facts = {f["label"]: f.get("value") for f in t["facts"]}
        thorgate = any(game.card_data(c).get("name") == "ThorGate"
                       for c in st.zones.get(("corporation", 0), []))
        assert [facts[k] for k in ("Asteroid project", "Aquifer project",
                                                 "Greenery project", "City project")] == \
            [14, 18, 23, 25]
        assert facts["Power plant project"] == (8 if thorgate else 11)
        milestones = {g["name"]: g for g in t["standings"][0]["goals"]}
        assert set(milestones) == {"Terraformer", "Mayor", "Gardener", "Builder", "Planner"}
        assert milestones["Terraformer"]["values"] == [p.tracks["tr"] for p in st.players]
        claimed = sum(len(st.zones.get(("claimed_milestones", p), [])) for p in range(2))
        for g in milestones.values():
            if g.get("status") not in (None, "none"):
                assert "cost" not in g  # claimed: nothing to pay any more
            elif claimed < 3:
                assert g["cost"] == 8
        awards = t["standings"][1]["goals"]
        funded = len(st.zones.get(("funded_awards", -1), []))
        for g in awards:
            if g["status"] == "no" and funded < 3:
                assert g["cost"] == 8 + 6 * funded
        for seat, panel in enumerate(t["panels"]):
            assert panel["score"]["total"] == game.score(seat)
            tags = {x["name"]: x["count"] for x in panel["tags"]}
            assert tags["Building"] == game.run_code(
                ("function", "tags_of"), game.frame(seat, t="building", p=seat)) \
                if ("function", "tags_of") in game.rs.code else True
            assert {v["label"]: v["value"] for v in panel["values"]}["Terraform rating"] \
                == st.players[seat].tracks["tr"]
    _play("terraforming_mars", 2, look, every=1)
    assert seen


def test_a_card_action_used_this_round_is_marked():
    def look(game):
        st = game.state
        for number, c in st.cards.items():
            acts = game.card_data(number).get("actions") or []
            if acts and c.owner >= 0 and (f"card:{int(number)}:0", c.owner,
                                          ("round", st.round)) in st.used:
                t = game.view_model(c.owner)["table"]
                cards = [x for p in t["panels"] for z in p["zones"]
                         for x in z.get("cards", []) if x["name"] == game.card_name(number)]
                assert cards and cards[0]["used"] == [str(acts[0].get("name") or "action")]
                raise _Seen
    with pytest.raises(_Seen):
        _play("terraforming_mars", 2, look, every=1)


def test_timespan_table_shows_storage_step_costs_market_prices_and_scoring():
    def look(game):
        t = game.view_model(0)["table"]
        json.dumps(t)
        facts = {f["label"]: f for f in t["facts"]}
        assert "lost" in facts["Storage"]["text"] and "Umulium 3" in facts["Scoring"]["text"]
        for seat, panel in enumerate(t["panels"]):
            values = {v["label"]: v["value"] for v in panel["values"]}
            p = game.state.players[seat]
            if p.tracks.get("ocean", 0) == 0:  # ocean space 1 costs 1 food
                assert values["Next ocean step (food)"] == 1
            if not game.state.zones.get(("upgrades", seat)):  # the Mountain Clans: +3 stone, ore
                assert values["Storage (food, wood, stone, ore, coins)"] in (
                    "6, 6, 6, 6 and 10", "6, 6, 9, 9 and 10")
        market = next(r for r in t["rows"] if r["name"] == "Market offers")
        assert market["cards"] and all(c.get("price") for c in market["cards"])
        culture = next(x for x in t["tracks"] if x["name"] == "Culture")
        assert len(culture["values"]) == 2 and culture["marks"][0]["at"] == 2
        raise _Seen
    with pytest.raises(_Seen):
        _play("timespan", 2, look, every=1)


def test_timespan_standings_show_each_neighbours_progress_towards_each_vision():
    """Timespan playtest (issue 26): 'standings' printed only its header. Each vision in
    play is a row with its goal beside it; a player next to it has their progress in the
    goal's unit, one who is not has none (3 players: each vision has 2 neighbours)."""
    def look(game):
        if game.state.round < 2:
            return
        t = game.view_model(0)["table"]
        json.dumps(t)
        visions = next(s for s in t["standings"] if s["name"] == "Visions")
        assert len(visions["goals"]) == 3
        for g in visions["goals"]:
            assert int(g["status"]) > 0  # the goal
            assert [v is None for v in g["values"]].count(True) == 1
            assert all(isinstance(v, int) for v in g["values"] if v is not None)
        raise _Seen
    with pytest.raises(_Seen):
        _play("timespan", 3, look, every=1)


def test_a_one_time_track_reward_taken_is_marked_taken():
    game = build_game(load_ruleset("timespan"), 2, 1, ["random", "random"])
    assert not any(m.get("taken") for tr in game.view_model(0)["table"]["tracks"]
                   for m in tr.get("marks", []))
    game.state.claimed.add(("ocean", 5))  # the first ship at 6
    ocean = next(tr for tr in game.view_model(0)["table"]["tracks"]
                 if tr["name"].startswith("Ocean"))
    assert [m["at"] for m in ocean["marks"] if m.get("taken")] == [6]


def test_terraforming_mars_panel_counts_tags_as_the_rules_do():
    """'Events: their tags count only while the event is played' (rules-facts.md): the
    panel's Space tag counts a played Satellites, not the played event Deimos Down."""
    rs = load_ruleset("terraforming_mars")
    game = build_game(rs, 2, 1, ["random", "random"])
    by_id = {s.def_id: c for c, s in game.state.cards.items()}
    game.put(by_id["satellites"], "played", 0, 0)
    game.put(by_id["deimos_down"], "event_pile", 0, 0)
    panel = game.view_model(0)["table"]["panels"][0]
    tags = {t["name"]: t["count"] for t in panel["tags"]}
    assert tags["Space"] == 1 and tags["Building"] == 0


# ------------------------------------------------------------ a player's colour
# (view: panels: colour) the words a ruleset may use and the browser's colour for each,
# as docs/engine.md lists them
@pytest.mark.parametrize("given, colour", [('\'"Blue"\'', "#2e6fb5"), ('\'"red"\'', "#c8553d"),
                                           ('\'"#ABC"\'', "#aabbcc"),
                                           ('\'"#12ab9F"\'', "#12ab9f"), ('\'""\'', None)])
def test_a_players_colour_is_a_colour_word_or_a_hex_colour(tmp_path, given, colour):
    rs = load_ruleset("lantern_row", mods=[_mod(tmp_path, "{panels: {colour: " + given + "}}")])
    game = build_game(rs, 2, 1, ["random"] * 2)
    t = game.view_model(0)["table"]
    assert [p.get("colour") for p in t["panels"]] == [colour, colour]
    assert not t.get("problems")


def test_a_colour_that_is_no_colour_is_said_among_the_tables_problems(tmp_path):
    rs = load_ruleset("lantern_row", mods=[_mod(tmp_path, "{panels: {colour: '\"mauve\"'}}")])
    t = build_game(rs, 2, 1, ["random"] * 2).view_model(0)["table"]
    assert all("colour" not in p for p in t["panels"])  # the seat's own colour, then
    assert any("'mauve' is not a colour" in p and "blue" in p for p in t["problems"])


def test_a_players_colour_is_text(tmp_path):
    with pytest.raises(RulebookError) as err:
        load_ruleset("lantern_row", mods=[_mod(tmp_path, "{panels: {colour: '3'}}")])
    assert any(d.code == "RB302" and "colour must be a text" in d.message
               for d in err.value.diagnostics)


def test_legacy_players_cubes_are_the_colour_their_character_card_says():
    # playtest (Legacy in the browser): The Scholar's card says "Blue cubes." and its
    # player's cubes were drawn red. The cards: The Engineer red, The Scholar blue, The
    # Physician green, The Visionary yellow
    says = {"The Engineer": "#c8553d", "The Scholar": "#2e6fb5", "The Physician": "#3c9a5f",
            "The Visionary": "#d9a21b"}
    seen = []

    def look(game):
        for p in game.view_model(0)["table"]["panels"]:
            cards = [c["name"] for z in p["zones"] if z["name"] == "Character card"
                     for c in z.get("cards", [])]
            seen.append((cards[0] if cards else None, p.get("colour")))
    _play("legacy_gears_of_time", 3, look, seed=5, every=1)
    chosen = {(card, colour) for card, colour in seen if card}
    assert len({card for card, _ in chosen}) == 3
    assert chosen == {(card, says[card]) for card, _ in chosen}
    assert all(colour is None for card, colour in seen if card is None)
