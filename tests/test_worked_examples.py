"""The worked examples of the design requirements, written in the language and checked.

Each example must exist in its game's ruleset, pass the checker (the ruleset
loads) and compile; a few structural assertions make sure the effect says
what the card says, so a rewrite that loses a clause fails here.
"""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from rulebook_games import load_ruleset
from rulebook_games.lang import ast

TM_CARDS = ["comet", "arctic_algae", "decomposers", "predators", "capital", "noctis_city",
            "mining_rights", "land_claim", "insulation", "robotic_workforce", "search_for_life",
            "optimal_aerobraking", "ants", "pets", "herbivores", "flooding", "special_design",
            "adaptation_technology"]
TM_CORPORATIONS = ["credicor", "ecoline", "helion", "inventrix", "tharsis_republic",
                   "thorgate", "united_nations_mars_initiative", "saturn_systems"]


@pytest.fixture(scope="module")
def tm():
    return load_ruleset("terraforming_mars")


@pytest.fixture(scope="module")
def legacy():
    return load_ruleset("legacy_gears_of_time")


def statements(rs, key):
    tree = rs.asts[key]
    return [n for n in ast.walk(tree) if isinstance(n, ast.Stmt)]


@pytest.mark.parametrize("card", TM_CARDS + TM_CORPORATIONS)
def test_tm_worked_example_is_checked_and_compiled(tm, card):
    assert card in tm.cards
    keys = [k for k in tm.code if k[:2] == ("card", card)]
    assert keys, f"{card} has no compiled effect"
    declared = tm.cards[card].data
    for part in ("play", "requires", "vp"):
        if part in declared:
            assert ("card", card, part) in tm.code


def test_comet_reads_like_the_card(tm):
    kinds = [(type(s).__name__, getattr(s, "verb", None)) for s in
             statements(tm, ("card", "comet", "play"))]
    assert ("Raise", "raise") in kinds and ("Place", None) in kinds
    remove = [s for s in statements(tm, ("card", "comet", "play"))
              if isinstance(s, ast.Transfer)]
    assert remove and remove[0].up_to and remove[0].resource_id == "plant"


def test_arctic_algae_triggers_on_any_ocean(tm):
    trig = tm.cards["arctic_algae"].data["triggers"][0]
    assert trig.get("scope") == "anyone"
    assert "ocean" in trig.get("if", "") + trig["on"]


def test_decomposers_count_themselves(tm):
    trig = tm.cards["decomposers"].data["triggers"][0]
    assert trig.get("include_self") is True


def test_robotic_workforce_copies_a_production_block(tm):
    runs = [s for s in statements(tm, ("card", "robotic_workforce", "play"))
            if isinstance(s, ast.Run)]
    assert runs and runs[0].block == "production"


def test_insulation_asks_for_x(tm):
    calls = [n for n in ast.walk(tm.asts[("card", "insulation", "play")])
             if isinstance(n, ast.Call) and n.func == "choose_number"]
    assert calls


def test_tm_cards_match_the_facts(tm, shared_dir):
    rows = list(csv.DictReader(open(shared_dir / "data/terraforming_mars/cards.csv",
                                    encoding="utf-8")))
    by_name = {e.data["name"].lower(): e.data for e in tm.cards.values()}
    assert len(rows) == 221
    missing = [r["name"] for r in rows if r["name"].lower() not in by_name]
    assert not missing
    for r in rows:
        card = by_name[r["name"].lower()]
        assert card.get("type") == r["type"], r["name"]
        if r["cost"]:
            assert card.get("cost") == int(r["cost"]), r["name"]
        tags = [t for t in r["tags"].split(";") if t]
        assert Counter(card.get("tags", [])) == Counter(tags), r["name"]
        assert " ".join(str(card.get("requires", "")).split()) == _tm_requirement(
            r["requirement"]), r["name"]
        vp = r["vp"].strip()
        if not vp:
            assert "vp" not in card, r["name"]
        elif vp.lstrip("-").isdigit():
            assert card.get("vp") == int(vp), r["name"]  # printed VP, exactly
        else:
            assert isinstance(card.get("vp"), str), r["name"]  # VP that depend on the game


def _tm_requirement(text: str) -> str:
    """The facts file's wording of a requirement, as the ruleset writes it.

    Global requirements leave room for tolerance (Inventrix, Special Design…):
    one step of slack is 1 % oxygen, one ocean, or 2 °C.
    """
    parts = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        words = part.replace("%", "").replace("C", "").split()
        if words[0] in ("oxygen", "oceans", "temperature"):
            name, op, n = words
            slack = "2 * slack(this)" if name == "temperature" else "slack(this)"
            parts.append(f"{name} {op} {n} {'+' if op == '<=' else '-'} {slack}")
        elif words[0] == "own" and words[2] == "production":
            parts.append(f"production({words[1]}) {words[3]} {words[4]}")
        elif words[1] == "tags":
            parts.append(f"my_tags({words[0]}) {words[2]} {words[3]}")
        elif words[:2] == ["own", "greeneries"]:
            parts.append(f"greeneries_of(you) {words[2]} {words[3]}")
        elif words[0] == "cities" and "(all players)" in part:
            parts.append(f"cities_in_play() {words[1]} {words[2]}")
        else:
            raise AssertionError(f"a requirement this test cannot read: {part!r}")
    return " and ".join(parts)


def test_legacy_establish_action(legacy):
    assert ("action", "establish", "do") in legacy.code
    assert ("procedure", "establish_tech") in legacy.code


def test_legacy_round_end_clarification_and_scoring(legacy):
    for proc in ("clarify_timeline", "score_technologies", "return_cubes"):
        assert ("procedure", proc) in legacy.code
    assert ("function", "succeeds") in legacy.code


def test_legacy_fate_card_lasting_until_round_end(legacy):
    lasting = [cid for cid, e in legacy.cards.items()
               if e.data.get("type") == "fate" and (e.data.get("fields") or {}).get("lasting")]
    assert {"not_what_we_hoped_for", "will_into_existence", "perfectly_laid_plans"} <= set(lasting)
    for cid in lasting:
        assert ("card", cid, "block", "fate_effect") in legacy.code


@pytest.fixture(scope="module")
def timespan():
    return load_ruleset("timespan")


def test_timespan_card_into_the_timeline(timespan):
    assert ("procedure", "play_into_timeline") in timespan.code
    timeline = timespan.sections["zones"]["timeline"].data
    assert timeline.get("slots") == 4 and timeline.get("overflow") == "legacy"


def test_timespan_slot_dependent_action(timespan):
    assert ("function", "slot_yield_now") in timespan.code
    calls = [n for key, tree in timespan.asts.items() if key[:2] == ("function", "slot_yield_now")
             for n in ast.walk(tree) if isinstance(n, ast.Call) and n.func == "slot_of"]
    assert calls, "the yield must depend on the slot the card is in now"
    assert "scribe" in timespan.cards


def test_timespan_camel_visit(timespan):
    assert ("action", "move_camel", "do") in timespan.code
    assert ("procedure", "visit_player_wonder") in timespan.code


def test_timespan_one_time_track_reward(timespan):
    once = [(tid, r["at"]) for tid, e in timespan.sections["tracks"].items()
            for r in e.data.get("rewards", []) or [] if r.get("once")]
    assert once


def test_timespan_final_scoring_caps_peace_icons(timespan):
    assert ("function", "visible_peace") in timespan.code
    text = str(timespan.sections["functions"]["visible_peace"].data.get("value", ""))
    assert text.startswith("min(peace_cap,") and timespan.constants["peace_cap"] == 10
    assert ("scoring", "peace") in timespan.code
