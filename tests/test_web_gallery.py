"""The cards gallery of rulebook serve (issue 27, cards): every card with its generated
text, the lobby's mods layered in and what they changed marked, mods chosen by name only."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from test_web import BASE, ROOT, client  # noqa: E402,F401

from rulebook_games.cardlinks import card_anchor  # noqa: E402
from rulebook_games.lang.words import catalogue_entry, facts_line  # noqa: E402
from rulebook_games.load.ruleset import load_ruleset  # noqa: E402


def test_the_gallery_lists_every_card_with_the_text_rulebook_cards_prints(client):
    data = client.get("/api/cards/lantern_row").json()
    rs = load_ruleset(str(ROOT / "rulesets" / "lantern_row"))
    assert data["ruleset"] == "Lantern Row" and data["mods"] == []
    assert [c["name"] for c in data["cards"]] == \
        [catalogue_entry(rs, cid)["name"] for cid in rs.cards]
    for card, cid in zip(data["cards"], rs.cards):
        entry = catalogue_entry(rs, cid)
        assert card["facts"] == facts_line(entry) and card["lines"] == entry["lines"]
        assert card["anchor"] == card_anchor(cid) and card["mark"] is None
    dragon = next(c for c in data["cards"] if c["name"] == "Red Dragon")
    assert dragon["cost"] == 4 and dragon["lines"] == ["3 VP."]
    assert dragon["facts"] == "cost 4 · lantern · crimson"
    # the mods the page may switch on: the ruleset's house rules, by file name
    assert {m["file"] for m in data["offered"]} == {"deep_pockets", "long_festival",
                                                    "rich_start"}
    assert not any(m["on"] for m in data["offered"])


def test_a_mod_that_changes_a_card_marks_it_with_the_mod_and_the_card_before(client):
    data = client.get("/api/cards/terraforming_mars?mod=costlier_predators").json()
    assert data["mods"] == ["Costlier Predators"]
    marked = [c for c in data["cards"] if c["mark"]]
    assert [c["name"] for c in marked] == ["Predators"]
    predators = marked[0]
    assert predators["mark"] == "changed" and predators["by"] == ["Costlier Predators"]
    assert predators["cost"] == 17 and predators["facts"].startswith("cost 17")
    assert predators["before"]["facts"].startswith("cost 14")
    assert predators["anchor"] == "card-predators"
    assert [m["on"] for m in data["offered"] if m["file"] == "costlier_predators"] == [True]


def test_cards_a_mod_adds_or_removes_are_marked(tmp_path):
    from starlette.testclient import TestClient

    from rulebook_games.web.app import Server, make_app
    from rulebook_games.web.lobby import Lobby
    folder = tmp_path / "lr"
    shutil.copytree(ROOT / "rulesets" / "lantern_row", folder)
    mod = tmp_path / "paper_parade.yaml"
    mod.write_text(
        "kind: mod\nid: paper_parade\nname: Paper parade\n"
        "description: One lantern more, one favour fewer.\ntarget: lantern_row\n"
        "changes:\n"
        "  - {op: add, in: cards, value: {id: paper_crane, name: Paper Crane, "
        "type: lantern, cost: 2, copies: 1, tags: [crimson], vp: 2}}\n"
        "  - {op: remove, in: cards, id: gust_of_wind}\n", encoding="utf-8")
    server = Server(Lobby(str(folder), (str(mod),), tmp_path), tmp_path)
    with TestClient(make_app(server), base_url=BASE) as c:
        r = c.get("/api/cards/lr?mod=paper_parade")  # the folder's name, as a link names it
        assert r.status_code == 200, r.text
        data = r.json()
        crane = next(card for card in data["cards"] if card["name"] == "Paper Crane")
        assert crane["mark"] == "added" and crane["by"] == ["Paper parade"]
        assert crane["anchor"] == "card-paper-crane"
        assert [card["name"] for card in data["removed"]] == ["Gust of Wind"]
        assert "Gust of Wind" not in [card["name"] for card in data["cards"]]
        assert c.get("/api/cards/given?mod=paper_parade").json() == data  # by its key too
        server.close_all()


@pytest.mark.parametrize("query, words", [
    ("/api/cards/nope", "no such ruleset"),
    ("/api/cards/..%2Frulesets%2Flantern_row", "no such ruleset"),
    ("/api/cards/lantern_row?mod=../terraforming_mars/mods/head_start", "no such mod"),
    ("/api/cards/lantern_row?mod=/etc/passwd", "no such mod"),
    ("/api/cards/lantern_row?mod=costlier_predators", "no such mod"),  # another game's
    ("/api/cards/lantern_row?mod=rich_start.yaml", "no such mod"),
])
def test_a_gallery_is_opened_only_for_a_ruleset_and_mods_the_server_offers(client, query,
                                                                           words):
    r = client.get(query)
    if r.status_code == 404:  # a slash, even written %2F, is no route's: nothing is opened
        assert "%2F" in query
        return
    assert r.status_code == 400
    assert words in r.json()["problem"]


def test_the_gallery_page_is_served_from_the_package(client):
    for path in ("/cards", "/cards/lantern_row", "/static/cards.js", "/static/cards.css"):
        r = client.get(path)
        assert r.status_code == 200, path
    page = client.get("/cards/terraforming_mars").text
    assert "/static/cards.js" in page and "/static/common.js" in page


def test_the_lobby_names_each_mod_by_its_file_for_the_gallery(client):
    data = client.get("/api/lobby").json()
    lr = next(r for r in data["rulesets"] if r["key"] == "lantern_row")
    assert {m["file"] for m in lr["mods"]} == {"deep_pockets", "long_festival", "rich_start"}
