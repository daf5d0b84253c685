"""Card text of Timespan, read against the rules.

A player must be able to play from what `rulebook cards timespan` prints,
without the physical card. Timespan's content is our own design (the seed
fixes the rules and the counts, see `shared/data/timespan/facts.md`), so the
rules a card must state are its printed facts (cost, peace icons, VP, luxury
slots, income, slot yields, discard goods) and the design choices in the
ruleset's README. The golden sample covers every card family: buildings,
historical figures and technologies of each era, starting cards, discovery
tiles, wonders, visions, civilisation boards, tech boards and their
technologies, the market, upgrade tiles, cover tiles and solo scenarios. Each
expectation was written from those facts first and then compared with what
the renderer says.

The words are generated: printed facts from the card fields' phrases, effects
from the actions, modifiers, triggers and blocks. Only 8 cards keep a
hand-written `text:` (the README, section "Card text", says why), and a test
pins that list. Further tests compute, from the fields alone, what every
historical card, wonder, civilisation board and scenario card must show, and a
last one reads every card and fails on any effect code left in the words.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rulebook_games import load_ruleset
from rulebook_games.lang.words import catalogue_entry


@pytest.fixture(scope="module")
def rs():
    return load_ruleset("timespan")


def lines(rs, card_id):
    return catalogue_entry(rs, card_id)["lines"]


# The lines a player reads, in order, written from each card's printed facts
# (its fields) and the README's design choices. A compiled pattern stands for a
# line whose wording the renderer is still settling; it still pins the rule.
def _re(text):
    return re.compile(text)


WHILE_IN_TIMELINE = r"While (this card is in your timeline|the place where this card lies is your timeline), "
GOLDEN = {
    # ------------------------------------------------------- era I building
    "granary": [
        "Cost 2 wood.",
        "Luxury slots: 1 pottery.",
        "Income: 1 food.",
        "Discard it from your hand for 2 wood.",
        _re(WHILE_IN_TIMELINE + r"room for 2 more of every basic good\.$"),
        "3 VP.",
    ],
    # ------------------------------------------------------ era II building
    "bank": [
        "Cost 2 stone + 1 coin.",
        "Luxury slots: 1 silk.",
        "Income: 2 coins.",
        "Discard it from your hand for 1 stone + 1 coin.",
        "4 VP.",
    ],
    # ----------------------------------------------------- era III building
    "spaceport": [
        "Cost 3 ore + 2 stone.",
        "Action yield in timeline slot 1/2/3/4: 1/1/2/2.",
        "Luxury slots: 2 umulium.",
        "Discard it from your hand for 2 ore + 1 stone.",
        "Action (Launch), once per round (only when this card is in your timeline with no "
        "worker on it and your spaceship can launch a step (in era III)): Place a worker on "
        "this card; launch up to the yield of this card's slot (+1 per luxury on it) steps (pay"
        " the ore on each space).",
        "8 VP.",
    ],
    # ------------------------------------------------------ historical figures
    "potter": [
        "Cost 1 stone.",
        "Action yield in timeline slot 1/2/3/4: 1/1/1/1.",
        "Luxury slots: 1 pottery.",
        "Discard it from your hand for 1 stone.",
        "Action (Acquire pottery), once per round (only when this card is in your timeline with"
        " no worker on it and at least 1 pottery tile left in the supply and at least 1 food): "
        "Place a worker on this card; pay 1 food; take the yield of this card's slot (+1 per "
        "luxury on it) pottery from the supply.",
        "2 VP.",
    ],
    "merchant_prince": [
        "Cost 2 coins + 1 food.",
        "1 peace icon.",
        "Action yield in timeline slot 1/2/3/4: 1/2/2/2.",
        "Luxury slots: 1 silk + 1 gem.",
        "Discard it from your hand for 2 coins.",
        _re(r"Whenever a luxury is delivered by you, if (this card is in your timeline|the "
            r"place where this card lies is your timeline): Gain 1 coin\.$"),
        "Action (Trade), once per round (only when this card is in your timeline with no worker"
        " on it): Place a worker on this card; gain coins equal to the yield of this card's "
        "slot (+1 per luxury on it).",
        "5 VP.",
    ],
    "philanthropist": [
        "Cost 2 coins + 1 food.",
        "Action yield in timeline slot 1/2/3/4: 2/3/3/3.",
        "Luxury slots: 1 silk.",
        "Discard it from your hand for 2 coins.",
        "Action (Patronage), once per round (only when this card is in your timeline with no "
        "worker on it and at least 2 food): Place a worker on this card; pay 2 food; gain "
        "victory points equal to the yield of this card's slot (+1 per luxury on it).",
        "6 VP.",
    ],
    # ------------------------------------------------ technologies, each era
    "writing": [
        "Cost 1 food + 1 wood.",
        "Luxury slots: 1 book.",
        "Income: 1 science.",
        "Discard it from your hand for 1 food + 1 wood.",
        "When it comes into play: raise the science 2 steps.",
        "3 VP.",
    ],
    "navigation": [
        "Cost 1 wood + 1 coin.",
        "Luxury slots: 1 fur.",
        "Discard it from your hand for 1 wood + 1 coin.",
        _re(WHILE_IN_TIMELINE + r"every sail moves up to 1 more step\.$"),
        "4 VP.",
    ],
    "internet": [
        "Cost 3 coins.",
        "Luxury slots: 1 book.",
        "Discard it from your hand for 2 coins.",
        "When it comes into play: raise the culture 2 steps.",
        "VP: 6 plus the number of technology cards in your timeline and legacy.",
    ],
    # ---------------------------------------------------------- starting card
    "rk_delta_farmers": [
        "1 peace icon.",
        "Action yield in timeline slot 1/2/3/4: 2/2/3/3.",
        "Luxury slots: 1 pottery.",
        "Action (Harvest), once per round (only when this card is in your timeline with no "
        "worker on it): Place a worker on this card; gain food equal to the yield of this "
        "card's slot (+1 per luxury on it).",
    ],
    # -------------------------------------------------------- discovery tiles
    "disc_fertile_valley": ["Reward: gain 3 food."],
    "disc_jet_stream": ["Reward: raise the air exploration (plane) 2 steps."],
    # -------------------------------------------------------- civilisations
    "river_kingdom": [
        # (playtest 31: the Island League's icons "stopped counting without a word")
        "2 peace icons, your harmony in round 1 only (from the first income on, only your "
        "timeline cards and built wonders count).",
        "Income: 1 food.",
        "Priority 1.",
        "Starts with 3 food + 2 wood + 1 stone + 2 coins.",
        "Starting cards in timeline slots 1–3: Delta Farmers, Potters' Quarter and Sun Temple.",
        "Each pottery you have delivered gives 1 more food per income.",
        "Action (Floodplain), once per round (only when you have a worker left): Place a worker"
        " on this card; gain food equal to 3 (+1 per tools upgrade).",
        "Action (Clay and reed), once per round (only when you have a worker left): Place a "
        "worker on this card; gain stone equal to 2 (+1 per tools upgrade); gain 1 wood.",
        "Action (Scribes), once per round (only when you have a worker left): Place a worker on"
        " this card; raise the science 1 step.",
        "Action (River rites), once per round (only when you have a worker left): Place a "
        "worker on this card; raise the culture 1 step.",
        "Action (River trade (exclusive)), once per round (only when you have a worker left and"
        " at least 2 food and at least 1 pottery tile left in the supply): Place a worker on "
        "this card; pay 2 food; take 1 pottery from the supply; raise the culture 1 step.",
    ],
    "steppe_riders": [  # 0 peace icons: nothing printed
        "Income: 1 food + 1 ore.",
        "Priority 5.",
        "Starts with 4 food + 1 wood + 1 ore + 2 coins.",
        "Starting cards in timeline slots 1–3: Herders, Trappers and Kurultai.",
        "Every card you discard for goods gives 1 more food.",
        "Action (Herds), once per round (only when you have a worker left): Place a worker on "
        "this card; gain food equal to 3 (+1 per tools upgrade).",
        "Action (Raids), once per round (only when you have a worker left): Place a worker on "
        "this card; gain wood equal to 1 (+1 per tools upgrade); gain 1 stone; gain 1 ore.",
        "Action (Chants), once per round (only when you have a worker left): Place a worker on "
        "this card; raise the culture 1 step.",
        "Action (Shamans), once per round (only when you have a worker left): Place a worker on"
        " this card; raise the science 1 step.",
        "Action (Fur hunt (exclusive)), once per round (only when you have a worker left and at"
        " least 1 food): Place a worker on this card; pay 1 food; take 1 fur from the supply; "
        "gain 2 coins.",
    ],
    # ------------------------------------------ tech boards and technologies
    "path_of_scholars": ["Temple Schools, Cartography, Printing, Universities."],
    "sch_cartography": [
        "To unlock it you need: at least 4 science.",
        "Cost 1 wood + 1 coin.",
        "Action (Chart the coasts), once per round (only when this card is unlocked with no "
        "worker on it and your ship can sail a step): Place a worker on this card; sail up to 2"
        " steps (pay the food on each space).",
    ],
    "mer_exchange": [
        "To unlock it you need: at least 10 science.",
        "Cost 1 stone + 2 coins.",
        # (the marker's own words, issue 29's play30: not "is not marked locked")
        # (playtest 31: not "this card is in your technologies on the tech board and …")
        "While this card is unlocked, room for 5 more coins.",
        "1 VP per silk delivered onto cards in your timeline and legacy.",
    ],
    "mys_medicine": [
        "To unlock it you need: at least 5 science.",
        "Cost 2 food + 1 coin.",
        "When it comes into play: gain 1 population.",
    ],
    # -------------------------------------------------------------- wonders
    "great_library": [
        "To build it you need: at least 2 culture.",
        "Cost 2 stone + 1 wood + 1 book.",
        "1 peace icon.",
        "Action (Study halls), once per round (only when this card is one of your built wonders"
        " with no worker on it): Place a worker on this card; raise the science 2 steps.",
        "When a camel visits it: raise the science 2 steps.",
        "8 VP.",
    ],
    "colossus": [
        "To build it you need: at least 3 culture.",
        "Cost 2 ore + 2 stone.",
        "1 peace icon.",
        "Action (Beacon), once per round (only when this card is one of your built wonders with"
        " no worker on it and your ship can sail a step): Place a worker on this card; sail up "
        "to 2 steps (pay the food on each space).",
        "When a camel visits it: gain 2 coins; sail up to 1 step (pay the food on each space).",
        "6 VP.",
    ],
    # --------------------------------------------------------------- market
    "m1_silk": ["Cost 2 coins.", "When bought: take 1 silk from the supply."],
    "m1_timber": ["When bought: gain 2 wood."],  # free: no cost printed
    "market_tile": [
        "Camel destination: free; take at most one offer from the market row (pay its price).",
    ],
    # ----------------------------------------------------------- upgrades
    # README design choice 19: a storehouse gives room for 2 more goods and 3 more
    # coins; tools +1 on every goods space; an academy pays 1 science as income
    "upgrade_storehouse": ["Room for 2 more of every basic good.", "Room for 3 more coins."],
    "upgrade_tools": ["Each goods space of your civilisation board gives 1 more."],
    "upgrade_hull": ["Every sail moves up to 1 more step."],
    "upgrade_engines": ["Every fly and launch moves up to 1 more step."],
    "upgrade_academy": ["Income: 1 science."],
    # -------------------------------------------------------------- visions
    "vision_builders": [
        "Goal at the end of the game (each neighbour who meets it scores it): at least "
        "4 building cards in your timeline and legacy.",
        "10 VP.",
    ],
    "vision_waves": [
        "Goal at the end of the game (each neighbour who meets it scores it): at least "
        "6 ocean steps (ship).",
        "10 VP.",
    ],
    # issue 26: the goal read "every one of food, wood, stone and ore with at least 3 it"
    "vision_storehouses": [
        "Goal at the end of the game (each neighbour who meets it scores it): at least "
        "3 each of food, wood, stone and ore.",
        "9 VP.",
    ],
    "vision_merchants": [
        "Goal at the end of the game (each neighbour who meets it scores it): at least "
        "10 coins.",
        "10 VP.",
    ],
    # --------------------------------------------------------- solo, covers
    "scenario_thousand_islands": [
        "Civilisation board: The Island League.",
        "Tech board: Path of the Sailors.",
        "Starting wonder card: Colossus.",
        "Visions: Rulers of the Waves and Age of Peace; you win only if you meet both.",
    ],
    "cover_tile": [
        "Closes a board area: an exploration set space or market space not used at this "
        "player count, or the air or space track until its era.",
    ],
}


def _same(line, want):
    return bool(want.match(line)) if isinstance(want, re.Pattern) else line == want


@pytest.mark.parametrize("card_id", sorted(GOLDEN))
def test_golden_card_text(rs, card_id):
    got, want = lines(rs, card_id), GOLDEN[card_id]
    assert len(got) == len(want), got
    for line, expected in zip(got, want):
        assert _same(line, expected), (line, expected)


def test_only_boards_and_tiles_keep_hand_text(rs):
    """The README lists the cards whose words are hand-written; nothing else may be."""
    hand = sorted(c for c, e in rs.cards.items() if e.data.get("text"))
    assert hand == sorted(["path_of_scholars", "path_of_sailors", "path_of_merchants",
                           "path_of_builders", "path_of_mystics", "path_of_explorers",
                           "market_tile", "cover_tile"])


def test_every_card_says_something(rs):
    silent = [c for c in rs.cards if not any(line.strip() for line in lines(rs, c))]
    assert silent == []


# ------------------------------------------------------------------ leak check
_CODE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\w\(|==|!=|>=|<=|//|[{}]|\bnone none\b")
# zone ids that are also ordinary words, so they may appear in text
_ENGLISH_ZONE_IDS = {"hand", "timeline", "legacy", "wonders", "technologies", "upgrades",
                     "removed", "visions"}


def test_no_effect_code_in_any_card(rs):
    zones = [z for z in rs.sections.get("zones", {}) if z not in _ENGLISH_ZONE_IDS]
    spaces = [s for b in rs.sections.get("boards", {}).values()
              for s in (sp.get("id") if isinstance(sp, dict) else sp
                        for sp in b.data.get("spaces", []) or [])
              if s and s.isalpha()]
    raw_ids = re.compile(r"\b(" + "|".join(map(re.escape, zones + spaces)) + r")\b")
    found = []
    for card_id in rs.cards:
        for line in lines(rs, card_id):
            m = _CODE.search(line) or raw_ids.search(line)
            if m:
                found.append(f"{card_id}: {m.group(0)!r} in {line!r}")
    assert found == []


def test_english_zone_ids_are_words_a_player_reads():
    # the zone ids allowed in text are the ones a person would write anyway
    assert all(z.isalpha() for z in _ENGLISH_ZONE_IDS)




# ------------------------------------------------ printed facts on every card
# Written from the fields, independently of the renderer: what a player needs to
# play a card without the physical one.
_ONE = {"coin": "coin", "gem": "gem", "book": "book", "relic": "relic", "fur": "fur",
        "umulium": "umulium"}
_MANY = {"coin": "coins", "fur": "furs", "gem": "gems", "book": "books", "relic": "relics"}


def _counted(goods):
    counts = Counter(goods)
    return " + ".join(f"{n} {(_MANY.get(g, g) if n > 1 else _ONE.get(g, g))}"
                      for g, n in counts.items())


def _played_cards(rs):
    return [c for c, e in rs.cards.items()
            if e.data.get("type") in ("figure", "building", "technology")]


def test_every_historical_card_shows_cost_slots_yields_and_discard(rs):
    missing = []
    for c in _played_cards(rs):
        f = rs.cards[c].data.get("fields", {})
        got = lines(rs, c)
        want = []
        if f.get("price"):
            want.append(f"Cost {_counted(f['price'])}.")
        if f.get("peace"):
            want.append(f"{f['peace']} peace icon{'' if f['peace'] == 1 else 's'}.")
        if f.get("slot_yield"):
            want.append("Action yield in timeline slot 1/2/3/4: "
                        + "/".join(map(str, f["slot_yield"])) + ".")
        if f.get("luxury_slots"):
            want.append(f"Luxury slots: {_counted(f['luxury_slots'])}.")
        if f.get("discard_goods"):
            want.append(f"Discard it from your hand for {_counted(f['discard_goods'])}.")
        if isinstance(rs.cards[c].data.get("vp"), int):
            want.append(f"{rs.cards[c].data['vp']} VP.")
        missing += [f"{c}: {w!r}" for w in want if w not in got]
    assert missing == []


def test_every_card_with_income_says_so(rs):
    missing = []
    for c, e in rs.cards.items():
        f = e.data.get("fields", {})
        for key in ("income", "income_tracks"):
            if f.get(key):
                want = f"Income: {_counted(f[key])}."
                if want not in lines(rs, c):
                    missing.append(f"{c}: {want!r}")
    assert missing == []


def test_slot_dependent_actions_print_their_yields(rs):
    """An action that reads 'the yield of this card's slot' needs the yields on the card."""
    bad = [c for c in rs.cards
           if any("yield of this card's slot" in line for line in lines(rs, c))
           and not any(line.startswith("Action yield in timeline slot") for line in lines(rs, c))]
    assert bad == []


def test_civilisation_boards_state_their_printed_facts(rs):
    boards = [c for c, e in rs.cards.items() if e.data.get("type") == "civilization"]
    assert len(boards) == 6
    for c in boards:
        f = rs.cards[c].data["fields"]
        got = lines(rs, c)
        assert f"Priority {f['priority']}." in got, c
        assert f"Starts with {_counted(f['start_goods'])}." in got, c
        names = [rs.cards[s].data["name"] for s in f["start_cards"]]
        assert (f"Starting cards in timeline slots 1–3: {', '.join(names[:-1])} and "
                f"{names[-1]}.") in got, c
        for action in rs.cards[c].data["actions"]:
            assert any(line.startswith(f"Action ({action['name']}), once per round")
                       for line in got), (c, action["name"])


def test_scenario_cards_name_their_setup(rs):
    for c, e in rs.cards.items():
        if e.data.get("type") != "scenario":
            continue
        f = e.data["fields"]
        text = " ".join(lines(rs, c))
        for part in [f["scenario_civ"], f["scenario_tech_board"], f["scenario_wonder"],
                     *f["scenario_visions"]]:
            assert rs.cards[part].data["name"] in text, (c, part)
        assert "you win only if you meet both" in text


def test_wonders_state_culture_cost_and_camel_visit(rs):
    for c, e in rs.cards.items():
        if e.data.get("type") != "wonder":
            continue
        got = lines(rs, c)
        level = int(e.data["requires"].split(">=")[1])
        assert got[0] == f"To build it you need: at least {level} culture.", c
        assert got[1] == f"Cost {_counted(e.data['fields']['price'])}.", c
        assert any(line.startswith("When a camel visits it: ") for line in got), c
        assert got[-1] == f"{e.data['vp']} VP.", c


def test_the_camel_question_reads_as_a_sentence(rs):
    """Timespan playtest (issue 26): the camel's question read 'Choose a card among the
    cards in Player 2's built wonders where none of your pieces on it'."""
    from rulebook_games.agents import Agent
    from rulebook_games.engine.game import Game
    from rulebook_games.lang import ast
    from rulebook_games.lang.words import Ctx
    game = Game(rs, 2, 1, [Agent(), Agent()])
    tree = rs.asts[("procedure", "visit_public_wonder")]
    node = next(n for n in ast.walk(tree) if getattr(n, "where", None) is not None)
    said = rs.words.expr(node, Ctx(game.frame(0)))
    assert "where none of" not in said and "with none of your pieces on it" in said, said
