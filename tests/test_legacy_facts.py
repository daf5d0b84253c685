"""Legacy: Gears of Time against what is known publicly about the game.

The printed technology tree is not public, so the ruleset reconstructs it;
but the facts file (shared/data/legacy_gears_of_time/facts.md) and the seed's
worked examples fix some costs, points, prerequisite links and component
counts. Each fact below is held as data: the sentence it comes from (which
must still be in that file, so a fact cannot drift from its source) and what
it says, written from the sentence, not from the ruleset. The test then
checks the ruleset against every one, and the tree as a whole against the
constraints the facts file sets (costs 1 to 4, every prerequisite exists,
no cycle).
"""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset

FACTS_FILE = "data/legacy_gears_of_time/facts.md"
SEED_FILE = "seeds/001_9a7377be2892d48b.txt"

# (file, the sentence as written there, technology name, what it says)
# what it says: {"cost": n} | {"points": n} | {"fundamental": True}
#               | {"needs": [names]} (at least these prerequisites)
TECH_FACTS = [
    (FACTS_FILE, "Fundamental (always successful) technologies include Fire, The Wheel, "
                 "Basic Tools, Basic Science and Law.", "Fire", {"fundamental": True}),
    (FACTS_FILE, "Fundamental (always successful) technologies include Fire, The Wheel, "
                 "Basic Tools, Basic Science and Law.", "The Wheel", {"fundamental": True}),
    (FACTS_FILE, "Fundamental (always successful) technologies include Fire, The Wheel, "
                 "Basic Tools, Basic Science and Law.", "Basic Tools", {"fundamental": True}),
    (FACTS_FILE, "Fundamental (always successful) technologies include Fire, The Wheel, "
                 "Basic Tools, Basic Science and Law.", "Basic Science", {"fundamental": True}),
    (FACTS_FILE, "Fundamental (always successful) technologies include Fire, The Wheel, "
                 "Basic Tools, Basic Science and Law.", "Law", {"fundamental": True}),
    (FACTS_FILE, "Writing is a prerequisite of Cartography and of the Printing Press",
     "Cartography", {"needs": ["Writing"]}),
    (FACTS_FILE, "Writing is a prerequisite of Cartography and of the Printing Press",
     "Printing Press", {"needs": ["Writing"]}),
    (FACTS_FILE, "the Combustion Engine needs The Wheel and Fire",
     "Combustion Engine", {"needs": ["The Wheel", "Fire"]}),
    (FACTS_FILE, "Electricity is a prerequisite of the Internet",
     "Internet", {"needs": ["Electricity"]}),
    (FACTS_FILE, "Space Flight costs 4", "Space Flight", {"cost": 4}),
    (FACTS_FILE, "Genetics and Refrigeration cost 3", "Genetics", {"cost": 3}),
    (FACTS_FILE, "Genetics and Refrigeration cost 3", "Refrigeration", {"cost": 3}),
    # the seed's worked examples
    # establish: the green player discards 3 cards to put Refrigeration down
    (SEED_FILE, "綠色玩家將3張手牌棄牌，然後將\"冰箱\"科技建置", "Refrigeration", {"cost": 3}),
    # scoring: The Wheel 2 x 2 (The Wheel, Combustion Engine) = 4
    (SEED_FILE, "輪子科技卡紅色玩家可以獲得2X2(輪子、內燃機)=4分", "The Wheel", {"points": 2}),
    (SEED_FILE, "輪子科技卡紅色玩家可以獲得2X2(輪子、內燃機)=4分", "Combustion Engine",
     {"needs": ["The Wheel"]}),
    # scoring: Fire 3 x 2 (Fire, Combustion Engine) = 6
    (SEED_FILE, "火科技卡藍色玩家可以獲得3X2(火、內燃機)=6分", "Fire", {"points": 3}),
    (SEED_FILE, "火科技卡藍色玩家可以獲得3X2(火、內燃機)=6分", "Combustion Engine",
     {"needs": ["Fire"]}),
    # scoring: the Combustion Engine gives its leader 3
    (SEED_FILE, "內燃機科技綠色玩家可以獲得3分", "Combustion Engine", {"points": 3}),
    # clarification: Cartography lists Writing as a prerequisite
    (SEED_FILE, "\"製圖學\"科技卡的前置科技有\"文字\"", "Cartography", {"needs": ["Writing"]}),
]


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("legacy_gears_of_time")


@pytest.fixture(scope="module")
def sources(shared_dir):
    # compared without white space: the seed breaks its lines inside sentences
    return {name: _squeeze((shared_dir / name).read_text(encoding="utf-8"))
            for name in (FACTS_FILE, SEED_FILE)}


def _squeeze(text: str) -> str:
    return "".join(text.split())


def _says(sources, source: str, sentence: str) -> bool:
    return _squeeze(sentence) in sources[source]


def _techs(rs):
    return {c.data["name"]: c.data for c in rs.cards.values()
            if c.data.get("type") == "technology"}


def _ids_to_names(rs, ids):
    return {rs.cards[i].data["name"] for i in ids}


@pytest.mark.parametrize("source,sentence,name,says", TECH_FACTS,
                         ids=[f"{f[2]}-{next(iter(f[3]))}" for f in TECH_FACTS])
def test_technology_fact(rs, sources, source, sentence, name, says):
    # the fact is still written in its source, as quoted
    assert _says(sources, source, sentence), (source, sentence)
    techs = _techs(rs)
    assert name in techs, f"{name} is named in {source} but is not a technology"
    card = techs[name]
    fields = card.get("fields", {})
    if "cost" in says:
        assert card["cost"] == says["cost"], name
    if "points" in says:
        assert fields["points"] == says["points"], name
    if "fundamental" in says:
        assert fields.get("fundamental") is True, name
        assert not fields.get("prerequisites"), f"{name} is fundamental: it needs nothing"
    if "needs" in says:
        needs = _ids_to_names(rs, fields.get("prerequisites", []))
        assert set(says["needs"]) <= needs, (name, needs)


def test_every_technology_the_facts_name_exists(rs, sources):
    # "Railroads exists" and "Basic Tools has several copies"
    assert _says(sources, FACTS_FILE, "Railroads exists")
    assert _says(sources, FACTS_FILE, "Basic Tools has several copies")
    techs = _techs(rs)
    assert "Railroads" in techs
    assert techs["Basic Tools"].get("copies", 1) >= 2


def test_space_flight_is_worth_little_with_many_prerequisites(rs, sources):
    text = ("Space Flight costs 4, is worth little itself and has many prerequisites "
            "(a full chain can earn about 12 points)")
    assert _says(sources, FACTS_FILE, text)
    techs = _techs(rs)
    flight = techs["Space Flight"]["fields"]
    prereqs = flight["prerequisites"]
    # worth little: no technology is worth less
    assert flight["points"] == min(t["fields"]["points"] for t in techs.values())
    # many prerequisites: no technology has more
    assert len(prereqs) >= 3
    assert len(prereqs) == max(len(t["fields"].get("prerequisites", [])) for t in techs.values())
    # the chain (Space Flight and what it needs, each scored once more for it) earns about 12
    chain = flight["points"] + sum(rs.cards[p].data["fields"]["points"] for p in prereqs)
    assert 10 <= chain <= 14, chain


def test_tree_follows_the_reconstruction_constraints(rs, sources):
    # facts.md: "a coherent tree of 66 cards (with duplicates), costs 1–4"
    assert _says(sources, FACTS_FILE, "a coherent tree of 66 cards (with duplicates), costs 1–4")
    techs = {c.id: c.data for c in rs.cards.values() if c.data.get("type") == "technology"}
    assert sum(t.get("copies", 1) for t in techs.values()) == 66
    for cid, t in techs.items():
        assert 1 <= t["cost"] <= 4, cid
        prereqs = t["fields"].get("prerequisites", [])
        assert all(p in techs for p in prereqs), cid
        # a technology that is not fundamental builds on something
        assert bool(t["fields"].get("fundamental")) != bool(prereqs), cid
    # no cycle: every technology reaches the fundamentals
    depth: dict[str, int] = {}

    def depth_of(cid, path=()):
        assert cid not in path, f"cycle: {' -> '.join(path + (cid,))}"
        if cid not in depth:
            needs = techs[cid]["fields"].get("prerequisites", [])
            depth[cid] = 1 + max((depth_of(p, path + (cid,)) for p in needs), default=-1)
        return depth[cid]

    for cid in techs:
        depth_of(cid)


COMPONENTS = [
    ("| Technology cards | 66 |", "technology", 66),
    ("| Fate cards | 6 |", "fate", 6),
    ("| Character cards | 4 (one per colour) |", "character", 4),
]


@pytest.mark.parametrize("row,card_type,count", COMPONENTS, ids=[c[1] for c in COMPONENTS])
def test_component_counts(rs, sources, row, card_type, count):
    assert _says(sources, FACTS_FILE, row)
    cards = [c.data for c in rs.cards.values() if c.data.get("type") == card_type]
    assert sum(c.get("copies", 1) for c in cards) == count


def test_cubes_and_markers(rs, sources):
    assert _says(sources, FACTS_FILE, "| Influence cubes | 108 (27 per colour) |")
    assert _says(sources, FACTS_FILE, "| Technology capacity markers | 6 |")
    assert _says(sources, FACTS_FILE, "| Failed technology markers | 8 |")
    assert _says(sources, FACTS_FILE, "| Player markers | 4; one present-day marker; two gear "
                 "markers (round, turn) |")
    # the seed: one cube of your colour marks the score track, and one the turn order track
    assert _says(sources, SEED_FILE, "每位玩家放置一個自己顏色的方塊到計分軌的附近")
    assert _says(sources, SEED_FILE, "依順時針順序將方塊放置到順序軌上")
    assert rs.constants["marker_cubes"] == 2
    res = rs.sections["resources"]
    per_colour = (res["stored_cube"].data["start"] + res["supply_cube"].data["start"]
                  + rs.constants["marker_cubes"])
    assert per_colour == 27 == rs.constants["cubes_per_colour"]
    colours = {c.data["fields"]["colour"] for c in rs.cards.values()
               if c.data.get("type") == "character"}
    assert len(colours) == 4 and 4 * per_colour == 108
    assert rs.constants["capacity_markers"] == 6
    assert rs.constants["failure_markers"] == 8
    # one player marker per player, up to 4 players: a per-player track
    assert rs.max_players == 4
    assert rs.sections["tracks"]["frame"].data["scope"] == "player"
    # one present-day marker: a single global track
    assert rs.sections["tracks"]["present_day"].data["scope"] == "global"


def test_lasting_fate_cards(rs, sources):
    assert _says(sources, FACTS_FILE, "Fate cards that stay in play until the end of the "
                 "round: Not What We Hoped For, Will Into Existence, Perfectly Laid Plans")
    # the seed: these three stay until the end of the round, the others go to the discard pile
    assert _says(sources, SEED_FILE, "其他命運卡出牌後直接置入棄牌堆")
    fates = {c.data["name"]: c.data for c in rs.cards.values() if c.data.get("type") == "fate"}
    lasting = {n for n, c in fates.items() if (c.get("fields") or {}).get("lasting")}
    assert lasting == {"Not What We Hoped For", "Will Into Existence", "Perfectly Laid Plans"}


def test_characters_seek_a_technology_with_a_crown(rs, sources):
    assert _says(sources, FACTS_FILE, "Each character has a sought technology and a crown value.")
    techs = {c.id for c in rs.cards.values() if c.data.get("type") == "technology"}
    for c in rs.cards.values():
        if c.data.get("type") == "character":
            assert c.data["fields"]["sought"] in techs, c.id
            assert c.data["fields"]["crown"] > 0, c.id


def test_rounds_turns_actions(rs, sources):
    assert _says(sources, FACTS_FILE, "3 actions per turn, 4 turns per round")
    assert _says(sources, FACTS_FILE, "2–4 players, 4 rounds")
    assert rs.singles["rounds"].data["count"] == 4
    turns = rs.sections["phases"]["player_turns"].data["turns"]
    assert turns["actions"] == 3 and turns["repeat"] == 4
    assert (rs.min_players, rs.max_players) == (2, 4)
