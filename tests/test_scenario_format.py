"""The scenario format on its own, on the tiny fixture game (no real game's rules).

The tiny game: players start with 3 gold and 5 cubes and draw 2 cards; two
rounds of one phase, each turn 1 or 2 actions (earn 2 gold, build a gadget
from hand paying its cost, build a tower, raise fame). Score = gold + fame,
ties broken by cubes. Statue (cost 3, one copy) gives its owner 1 gold
whenever anyone builds a gadget. Each expectation below follows from these
rules, not from running the engine.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.scenarios.files import load_scenarios, run_scenario
from rulebook_games.errors import Diagnostics

TINY = Path(__file__).parent / "fixtures" / "tiny"


@pytest.fixture(scope="module")
def tiny_rs(tmp_path_factory):
    root = tmp_path_factory.mktemp("rs") / "tiny"
    shutil.copytree(TINY, root)
    return load_ruleset(root)


def play(rs, tmp_path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text("kind: scenarios\nscenarios:\n" + text, encoding="utf-8")
    diags = Diagnostics()
    scenarios = load_scenarios(rs, path, diags)
    return [run_scenario(rs, sc) for sc in scenarios], diags


def one(rs, tmp_path, text: str):
    outcomes, diags = play(rs, tmp_path, text)
    assert not diags, [d.headline() for d in diags]
    (outcome,) = outcomes
    return outcome


def test_a_position_is_set_without_effects(tiny_rs, tmp_path):
    # Statue in play would pay its owner 1 gold per gadget built: putting it there
    # through the position builds nothing, so the owner keeps exactly 10
    out = one(tiny_rs, tmp_path, """
  - id: p
    players: 2
    position:
      tracks: {}
      players:
        1: {stock: {gold: 10}, production: {gold: 2}, tracks: {fame: 4},
            cards: {tableau: [statue], hand: [lamp]}}
      tiles: [{tile: tower, space: a, owner: 2}]
    steps:
      - expect: stock(gold) == 10 and production(gold) == 2 and fame == 4
      - expect: size(cards_in(tableau)) == 1 and size(cards_in(hand)) == 1
      - expect: tiles_left(tower) == 1
""")
    assert out.passed, out.message


def test_two_players_can_each_hold_the_only_copy(tiny_rs, tmp_path):
    out = one(tiny_rs, tmp_path, """
  - id: p
    players: 2
    position:
      players:
        1: {cards: {hand: [statue]}}
        2: {cards: {hand: [statue, statue]}}
    steps:
      - expect: all(g in cards_in(hand) where g.name == "Statue")
      - as: 2
        expect: size(cards_in(hand)) == 2 and all(g in cards_in(hand) where g.cost == 3)
""")
    assert out.passed, out.message


def test_position_names_are_checked_with_a_did_you_mean(tiny_rs, tmp_path):
    _, diags = play(tiny_rs, tmp_path, """
  - id: p
    players: 2
    position:
      players:
        1: {stock: {golds: 1}, cards: {hand: [statu]}}
        2: {stock: {gold: -1}, production: {cube: 1}}
        3: {stock: {gold: 1}}
      tracks: {fame: 2}
      tiles: [{tile: tower, space: z}]
      cards: {row: [lamp, lamp, lamp]}
    steps:
      - expect: true
""")
    text = "\n".join(f"{d.span.line}:{d.message} {d.hint}" for d in diags)
    assert "unknown resource 'golds'" in text and "'gold'" in text
    assert "unknown card 'statu'" in text and "'statue'" in text
    assert "seat 3 does not exist with 2 players" in text
    assert "'fame' is not a global track" in text
    assert "there is no space 'z'" in text
    assert "a stock of 'gold' is at least 0; -1 is below it" in text
    assert "'cube' has no production" in text
    assert "zone 'row' holds at most 2 cards; 3 are listed" in text


def test_advance_plays_the_rest_of_the_game(tiny_rs, tmp_path):
    # seat 1 earns 2 (3 → 5) and ends; the passive seat 2 must take one action and
    # takes the first one offered (earn); in round 2 both earn once more:
    # 7 gold each, no fame, 5 cubes each: a shared win on 7
    out = one(tiny_rs, tmp_path, """
  - id: p
    players: 2
    steps:
      - advance: turn
        answers: [Earn gold, end turn]
      - expect: stock(gold) == 5
      - as: 2
        expect: stock(gold) == 3
      - advance: round
        agents: passive
      - expect: round_number() == 1
      - as: 2
        expect: stock(gold) == 5
      - advance: game
        agents: passive
      - result: {winners: [1, 2], scores: {1: 7, 2: 7}}
""")
    assert out.passed, out.message


def test_advance_names_the_decision_nobody_answers(tiny_rs, tmp_path):
    out = one(tiny_rs, tmp_path, """
  - id: p
    players: 2
    steps:
      - advance: round
        answers: [Earn gold, end turn]
""")
    assert not out.passed
    assert "asks Player 2" in out.message and "no answer left" in out.message


def test_offers_lists_the_exact_options_and_the_refused_ones(tiny_rs, tmp_path):
    # a first action is required, so 'end turn' is not offered; an empty hand
    # leaves nothing to build
    outcomes, diags = play(tiny_rs, tmp_path, """
  - id: right
    players: 2
    position:
      players: {1: {cards: {hand: []}}}
    steps:
      - offers: [Earn gold, Get famous, Build a tower]
        refuses: {Build a gadget: "hand"}
  - id: wrong
    players: 2
    position:
      players: {1: {cards: {hand: []}}}
    steps:
      - offers: [Earn gold, end turn]
""")
    assert not diags
    right, wrong = outcomes
    assert right.passed, right.message
    assert "does not offer 'end turn'" in wrong.message
    assert "also offers 'Build a tower', 'Get famous'" in wrong.message


def test_a_step_stops_at_its_first_unanswered_decision_to_look_at_it(tiny_rs, tmp_path):
    out = one(tiny_rs, tmp_path, """
  - id: p
    players: 2
    position:
      players: {1: {stock: {gold: 9}, cards: {hand: [statue, lamp]}}}
    steps:
      - action: build
        offers: [Statue, Lamp]
        asks: Build a gadget
      - expect: stock(gold) == 9 and size(cards_in(hand)) == 2
      - run: gain choose_number(1, 3) gold
        offers: [1, 2, 3]
""")
    assert out.passed, out.message


def test_numbers_answer_only_how_many_questions(tiny_rs, tmp_path):
    out = one(tiny_rs, tmp_path, """
  - id: p
    players: 2
    position:
      players: {1: {cards: {hand: [statue, lamp]}}}
    steps:
      - action: build
        answers: [1]
""")
    assert not out.passed
    assert "a number answers only a 'how many' question" in out.message
    assert "'Statue'" in out.message


def test_an_answer_after_a_skipped_question_says_so(tiny_rs, tmp_path):
    # one card in hand: 'which card' has one answer and is not asked, so 'Lamp'
    # reaches the number question
    out = one(tiny_rs, tmp_path, """
  - id: p
    players: 2
    position:
      players: {1: {cards: {hand: [lamp]}}}
    steps:
      - run: |
          let g = choose(x in cards_in(hand))
          gain choose_number(0, 2) gold
        answers: [Lamp, 1]
""")
    assert not out.passed
    assert "had one possible answer, 'Lamp', and was not asked" in out.message


def test_result_needs_the_end_of_the_game(tiny_rs, tmp_path):
    out = one(tiny_rs, tmp_path, """
  - id: p
    players: 2
    steps:
      - result: {winners: [1]}
""")
    assert not out.passed and "has not ended" in out.message


def test_result_explains_a_wrong_winner(tiny_rs, tmp_path):
    # seat 2 gets 20 gold more: it wins alone
    out = one(tiny_rs, tmp_path, """
  - id: p
    players: 2
    position:
      players: {2: {stock: {gold: 23}}}
    steps:
      - advance: game
        agents: passive
      - result: {winners: [1]}
""")
    assert not out.passed
    assert "the winners are Player 2, not Player 1" in out.message


@pytest.mark.parametrize("step, words", [
    ("- refused: ''\n        run: gain 1 gold", "must not be empty"),
    ("- advance: {phase: wrok}", "unknown phase 'wrok'"),
    ("- advance: game\n        refused: x", "'refused' does not go with 'advance'"),
    ("- expect: true\n        agents: random", "'agents' does not go with 'expect'"),
    ("- advance: game\n        agents: clever", "unknown agent 'clever'"),
])
def test_misused_step_keys_are_errors_at_their_place(tiny_rs, tmp_path, step, words):
    _, diags = play(tiny_rs, tmp_path, f"""
  - id: p
    players: 2
    steps:
      {step}
""")
    assert any(words in d.message or words in (d.hint or "") for d in diags), \
        [d.headline() for d in diags]
    assert all(d.span.line >= 4 for d in diags)


def test_a_deck_listed_in_a_position_has_those_cards_on_top(tiny_rs, tmp_path):
    # the deck keeps its other cards (they have nowhere else to go), under the listed
    # ones, so the listed ones are drawn first and in order
    out = one(tiny_rs, tmp_path, """
  - id: p
    players: 2
    position:
      cards: {deck: [statue, lamp]}
      players: {1: {cards: {hand: []}}}
    steps:
      - expect: item(cards_in(deck), 1).name == "Statue" and item(cards_in(deck), 2).name == "Lamp"
      - run: draw(1, deck, hand)
      - expect: top(hand).name == "Statue"
""")
    assert out.passed, out.message


def test_decider_and_score_parts(tiny_rs, tmp_path):
    # seat 1 earns and ends; the next decision of the flow is seat 2's choice of action.
    # At the end seat 2 has 23 + 2 + 2 gold and 0 fame (score parts 'Gold' and 'Fame').
    outcomes, diags = play(tiny_rs, tmp_path, """
  - id: right
    players: 2
    position:
      players: {2: {stock: {gold: 23}}}
    steps:
      - advance: turn
        answers: [Earn gold, end turn]
      - advance: round
        decider: 2
        asks: choose an action
      - advance: game
        agents: passive
      - result: {parts: {2: {gold: 27, Fame: 0}}}
  - id: wrong
    players: 2
    steps:
      - advance: turn
        decider: 2
  - id: wrong_parts
    players: 2
    steps:
      - advance: game
        agents: passive
      - result: {parts: {1: {gold: 1}}}
""")
    assert not diags, [d.headline() for d in diags]
    right, wrong, wrong_parts = outcomes
    assert right.passed, right.message
    assert "it is put to seat 1, not seat 2" in wrong.message
    assert "Player 1 scored 7 for Gold, not 1" in wrong_parts.message


def test_an_unknown_score_part_is_an_error(tiny_rs, tmp_path):
    _, diags = play(tiny_rs, tmp_path, """
  - id: p
    players: 2
    steps:
      - result: {parts: {1: {golds: 1}}}
""")
    assert any("unknown scoring part 'golds'" in d.message and "gold" in (d.hint or "")
               for d in diags)


def test_logged_reads_the_log_as_the_seat_does(tiny_rs, tmp_path):
    # a card drawn into a hidden hand: its owner is told which card, the others are not
    outcomes, diags = play(tiny_rs, tmp_path, """
  - id: own
    players: 2
    position:
      cards: {deck: [statue]}
    steps:
      - run: draw(1, deck, hand)
      - logged: Statue
      - advance: turn
        answers: [Earn gold, end turn]
      - logged: Earn gold
  - id: other
    players: 2
    position:
      cards: {deck: [statue]}
    steps:
      - run: draw(1, deck, hand)
      - as: 2
        logged: Statue
""")
    assert not diags, [d.headline() for d in diags]
    own, other = outcomes
    assert own.passed, own.message
    assert "no line of the log contains 'Statue'" in other.message


def test_a_position_records_used_actions_and_taken_rewards(tiny_rs, tmp_path):
    # fame's one-time reward at 3 pays 5 gold once: marked taken, reaching 3 pays nothing.
    # Statue's Polish is a card action, once a round by default: marked used, it is
    # refused. 'famous' may be taken any number of times: recording a use is an error.
    outcomes, diags = play(tiny_rs, tmp_path, """
  - id: p
    players: 2
    position:
      claimed: {fame: [3]}
      players:
        1: {tracks: {fame: 2}, used: [statue], cards: {tableau: [statue]}}
    steps:
      - run: raise fame
      - expect: fame == 3 and stock(gold) == 3
      - card_action: statue
        refused: already used this round
""")
    assert not diags, [d.headline() for d in diags]
    assert outcomes[0].passed, outcomes[0].message
    _, diags = play(tiny_rs, tmp_path, """
  - id: q
    players: 2
    position:
      claimed: {fame: [4]}
      players: {1: {used: [famous, statu]}}
    steps:
      - expect: true
""")
    text = " ".join(f"{d.message} {d.hint}" for d in diags)
    assert "'fame' has no one-time reward at 4 (its one-time rewards are at: 3)" in text
    assert "'famous' may be used any number of times" in text
    assert "'statu' is neither a flow action nor a card with actions" in text and "statue" in text



def test_a_position_cannot_list_a_flood_of_cards(tiny_rs, tmp_path):
    lamps = ", ".join(["lamp"] * 1001)
    _, diags = play(tiny_rs, tmp_path, f"""
  - id: p
    players: 2
    position:
      players: {{1: {{cards: {{hand: [{lamps}]}}}}}}
    steps:
      - expect: true
""")
    assert any("at most 1000 cards" in d.message for d in diags)
