"""What a results line records of each game: cards played and gained, actions, features.

The ruleset here is written for the test: every number below follows from its
rules and the scripted answers, not from what the engine happened to do.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.base import Agent
from rulebook_games.sim.results import game_facts, results_context
from rulebook_games.play.session import build_game, run

FILES = {
    "ruleset.yaml": """
        kind: ruleset
        id: tally
        name: Tally Test
        version: "2"
        players: {min: 1, max: 2}
        include: [components.yaml, flow.yaml, cards.yaml]
    """,
    "components.yaml": """
        kind: components
        resources:
          - {id: gold, start: 0}
        card_types: [thing]
        tags: [red, blue]
        zones:
          - {id: deck, scope: shared, visibility: hidden, ordered: true}
          - {id: hand, scope: player, visibility: owner, records: gained}
          - {id: table, scope: player, visibility: public, in_play: true}
          - {id: shelf, scope: player, visibility: public, in_play: true, records: none}
          - {id: pool, scope: shared, visibility: public, records: played}
    """,
    "cards.yaml": """
        kind: cards
        cards:
          - {id: apple, name: Apple, type: thing, tags: [red]}
          - {id: berry, name: Berry, type: thing, tags: [blue]}
          - {id: cherry, name: Cherry, type: thing, tags: [red], copies: 6}
    """,
    "flow.yaml": """
        kind: flow
        setup: |
          put(card_named(apple, deck), hand, player(1))
          if player_count() == 2:
              put(card_named(berry, deck), hand, player(2))
        rounds: {count: 1}
        phases:
          - id: work
            turns: {style: fixed, actions: 4, min_actions: 4}
        actions:
          - id: play
            name: Play a card
            if: size(cards_in(hand)) > 0
            do: put(choose(c in cards_in(hand)), table)
          - id: share
            name: Share a card
            if: size(cards_in(hand)) > 0
            do: put(choose(c in cards_in(hand)), pool)
          - id: take
            name: Take a card
            do: put(card_named(cherry, deck), hand)
          - id: shelve
            name: Shelve a card
            if: size(cards_in(table)) > 0
            do: put(choose(c in cards_in(table)), shelf)
          - id: botch
            name: Botch it
            if: size(cards_in(hand)) > 0
            do: |
              put(choose(c in cards_in(hand)), table)
              require stock(gold) > 99
          - id: earn
            name: Earn
            do: gain 1 gold
        scoring:
          - {id: gold, name: Gold, points: stock(gold)}
          - {id: tabled, name: Cards on the table, points: size(cards_in(table))}
        features:
          - {id: first, name: First card on the table, value: top(table)}
          - {id: hand_left, name: Cards left in hand, value: size(cards_in(hand))}
          - {id: rich, name: Rich, value: stock(gold) >= 2}
          - {id: me, name: Seat, value: you}
          - {id: on_table, name: Cards on the table, value: cards_in(table)}
          - id: colours
            name: Colours on the table
            each: "[red, blue]"
            as: t
            value: count(c in cards_in(table) where has_tag(c, t))
    """,
}


class Script(Agent):
    """Takes the actions named in order (by label), and the first option of anything else."""

    name = "script"
    wants_view = False

    def __init__(self, plan):
        self.plan = list(plan)

    def decide(self, decision, view, game):
        if decision.kind == "action":
            want = self.plan[0]
            for i, option in enumerate(decision.options):
                if option.label.startswith(want):
                    self.plan.pop(0)  # a botched action is undone, and the plan goes on
                    return i
            raise AssertionError(f"{want} not offered: {[o.label for o in decision.options]}")
        return 0



@pytest.fixture
def rs(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return load_ruleset(tmp_path)


def play(rs, plans):
    game = build_game(rs, len(plans), 1, ["random"] * len(plans))
    game.agents = [Script(p) for p in plans]
    result = run(game, check=True)
    return game, result


def test_cards_played_gained_and_actions_are_tallied_per_seat(rs):
    # seat 1: take a cherry (gained), play apple then cherry (played), shelve one
    # (the shelf records nothing), botch once (undone: counts nothing), earn
    # seat 2: share berry into the shared pool (played, credited to seat 2), take, play
    plans = [["Take a card", "Play a card", "Botch it", "Play a card", "Shelve a card"],
             ["Share a card", "Take a card", "Play a card", "Earn"]]
    game, result = play(rs, plans)
    facts = game_facts(game, result)
    # a card dealt into a hand at setup counts too: it is credited to the zone's owner
    assert facts["gained"] == [{"apple": 1, "cherry": 1}, {"berry": 1, "cherry": 1}]
    assert facts["played"] == [{"apple": 1, "cherry": 1}, {"berry": 1, "cherry": 1}]
    assert facts["actions"] == [{"take": 1, "play": 2, "shelve": 1},
                                {"share": 1, "take": 1, "play": 1, "earn": 1}]
    assert facts["card_actions"] == [{}, {}]
    assert facts["score_parts"] == [{"gold": 0, "tabled": 1}, {"gold": 1, "tabled": 1}]


def test_features_are_encoded_by_their_type(rs):
    plans = [["Play a card", "Take a card", "Play a card", "Earn"],
             ["Take a card", "Earn", "Earn", "Earn"]]
    game, result = play(rs, plans)
    first, second = game_facts(game, result)["features"]
    assert first == {"first": "apple", "hand_left": 0, "rich": False, "me": 1,
                     "on_table": ["apple", "cherry"], "colours": {"red": 2, "blue": 0}}
    assert second == {"first": None, "hand_left": 2, "rich": True, "me": 2,
                      "on_table": [], "colours": {"red": 0, "blue": 0}}


def test_the_tally_leaves_the_state_hash_alone(rs):
    plans = [["Take a card", "Earn", "Earn", "Earn"]]
    game, result = play(rs, plans)
    before = game.state.digest()
    game.state.tally.clear()
    assert game.state.digest() == before == result.final_hash


def test_each_and_as_go_together(tmp_path):
    files = dict(FILES)
    files["flow.yaml"] = files["flow.yaml"].replace("            as: t\n", "")
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    from rulebook_games.errors import RulebookError
    with pytest.raises(RulebookError) as err:
        load_ruleset(tmp_path)
    text = str(err.value) + "".join(str(d) for d in getattr(err.value, "diagnostics", []))
    assert "'each' and 'as' go together" in text


def test_a_results_line_stands_alone(rs, tmp_path, capsys):
    from rulebook_games.cli import main
    out = tmp_path / "r.jsonl"
    with pytest.raises(SystemExit) as code:
        main(["simulate", str(tmp_path), "-n", "3", "-p", "2", "--out", str(out)])
    assert code.value.code == 0
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [g["seed"] for g in lines] == [1, 2, 3]
    for g in lines:
        assert {k: g[k] for k in ("format", "players", "mods", "variants")} == \
            {"format": 1, "players": 2, "mods": [], "variants": []}
        assert g["ruleset"]["name"] == "Tally Test" and g["ruleset"]["version"] == "2"
        assert len(g["played"]) == len(g["features"]) == len(g["score_parts"]) == 2
        assert all(sum(parts.values()) == score
                   for parts, score in zip(g["score_parts"], g["scores"]))
        assert [f["me"] for f in g["features"]] == [1, 2]
    assert results_context(rs, [], 2)["ruleset"]["content_hash"] == rs.content_hash
