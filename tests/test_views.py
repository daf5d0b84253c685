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
        assert facts["Cards left in the deck"]["value"] == len(game.state.zones[("deck", -1)])
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


def test_a_ruleset_without_a_view_gets_the_generic_table():
    def look(game):
        t = game.view_model(0)["table"]
        assert t["facts"] == [] and t["panels"] and t["title"]["game"] == "Timespan"
        raise _Seen
    with pytest.raises(_Seen):
        _play("timespan", 2, look, every=1)


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
    assert at("cards_left").in_effect           # a fact's value
    assert at("zone: row").value_kinds == ("zone",)
    assert not at("Favours cost").in_effect     # words stay words
