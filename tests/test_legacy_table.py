"""What a keen Legacy player needs at each decision (issue 26, /work/notes/play-legacy.md).

Written from the playtest's complaints before the engine was changed:
- an option that is a technology says the cubes on it, by player (the player
  typed ``map`` before every cube decision);
- an option that is a time frame says its technologies and their cubes;
- the log calls a player's pieces by the game's own word, cubes.
"""

from __future__ import annotations

from lang_helpers import compile_ok

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.engine.game import Game
from rulebook_games.lang import types as T
from rulebook_games.play.transcript import option_rows


class Watch(Agent):
    wants_view = False

    def __init__(self, seen):
        self.seen = seen

    def decide(self, decision, view, game):
        self.seen.append((decision, option_rows(decision, game)))
        return decision.low if decision.is_range else 0


def _game(setup: str):
    rs = load_ruleset("legacy_gears_of_time")
    seen = []
    game = Game(rs, 3, 1, [Watch(seen), Watch(seen), Watch(seen)])
    game.state.turn_seat = 0
    compile_ok(rs, setup, variables={"you": T.PLAYER})(game.frame(0))
    return game, seen


BOARD = """
for p in players():
    for c in cards_in(hand, p):
        put(c, deck)
put(card_named(fire, deck), frame_2)
put(card_named(the_wheel, deck), frame_2)
place_pieces(2, card_named(fire, frame_2), player(2), supply_cube)
place_pieces(1, card_named(fire, frame_2), player(1), supply_cube)
set frame = 2 for player(1)
"""


def test_influence_options_say_the_cubes_by_player():
    game, seen = _game(BOARD)
    game.context = "Influence a technology in your time frame"
    game.run_code(("action", "influence", "do"), game.frame(0))
    rows = {label: detail for _, _, label, detail in seen[0][1]}
    assert rows["Fire"].startswith("Player 1 1 cube, Player 2 2 cubes"), rows
    assert "cube" not in rows["The Wheel"].split("·")[0], rows


def test_time_frame_options_name_their_technologies_and_cubes():
    game, seen = _game(BOARD + """put(card_named(lost_to_history, deck), hand, player(1))
put(card_named(law, deck), frame_3)
place_pieces(1, card_named(law, frame_3), player(2), supply_cube)
""")
    game.context = "Play a fate card"
    game.run_code(("action", "play_fate", "do"), game.frame(0))
    frames = [rows for d, rows in seen if any("Fire" in r[3] for r in rows)]
    assert frames, [d.prompt for d, _ in seen]
    detail = [r[3] for r in frames[0] if "Fire" in r[3]][0]
    assert "Fire (Player 1 1 cube, Player 2 2 cubes)" in detail, detail
    # the playtest read "opponents with at least one of the time frames holding its cubes"
    assert not any("its cubes" in d.prompt for d, _ in seen), [d.prompt for d, _ in seen]


def test_log_calls_pieces_cubes():
    game, _ = _game(BOARD)
    game.keep_log = True
    compile_ok(game.rs, "take_pieces(1, card_named(fire, frame_2), player(2), supply_cube)",
               variables={"you": T.PLAYER})(game.frame(0))
    text = "\n".join(game.log_lines[-3:])
    # playtest 31: "2 supply cubes back from Fire (now 9)" read as if supply cubes came
    # back; it is the player's cubes going from Fire to their supply
    assert "Player 2: 1 cube off Fire → supply cubes (now" in text, text
    assert "piece" not in text and "back from" not in text, text
    compile_ok(game.rs, "take_pieces(1, card_named(fire, frame_2), player(2))",
               variables={"you": T.PLAYER})(game.frame(0))
    assert game.log_lines[-1].endswith("Player 2: 1 cube off Fire (0 left there)"), \
        game.log_lines[-1]


HAND = """
for p in players():
    for c in cards_in(hand, p):
        put(c, deck)
for id in [agriculture, fire, law, basic_tools, not_what_we_hoped_for]:
    put(card_named(id, deck), hand, player(1))
set frame = 3 for player(1)
"""


def test_establish_lists_no_fate_card():
    # a fate card can never be established: not an option, not even 'not now'
    game, seen = _game(HAND)
    game.context = "Establish a technology in your time frame"
    game.run_code(("action", "establish", "do"), game.frame(0))
    labels = [label for _, _, label, _ in seen[0][1]]
    assert "Fire" in labels and "Not What We Hoped For" not in labels, seen[0][1]


def test_a_technology_established_that_fails_says_so_in_the_log():
    # seed: a technology succeeds only when its prerequisites succeed in the past;
    # Agriculture needs Basic Tools, and none is on the timeline
    game, seen = _game(HAND)
    game.keep_log = True
    game.context = "Establish a technology in your time frame"
    game.run_code(("action", "establish", "do"), game.frame(0))  # the first: Agriculture
    text = "\n".join(game.log_lines)
    assert "Agriculture (time frame 3) fails: it needs Basic Tools" in text, text


def test_setup_is_called_setup_not_round_0():
    # the playtest: "Round 0" in the status line and "Round 0 of 4 · Setup" in state;
    # a player says "setup" (the first round is round 1)
    from rich.console import Console
    from rulebook_games.play.render import render_view, status_lines
    seen = []

    class Look(Agent):
        wants_view = False

        def decide(self, decision, view, game):
            if not seen:
                model = game.view_model(decision.player)
                status = " ".join(t.plain for t in status_lines(model, game, 80))
                console = Console(width=80, record=True)
                console.print(render_view(model, game, ("all",)))
                seen.append((game.state.round, status, console.export_text()))
            raise KeyboardInterrupt  # (one screen is enough)
    from rulebook_games.play.session import build_game, run
    game = build_game(load_ruleset("legacy_gears_of_time"), 3, 26, ["random"] * 3,
                      live_agents=[Look(), Look(), Look()])
    try:
        run(game)
    except (KeyboardInterrupt, Exception):
        pass
    rnd, status, state = seen[0]
    assert rnd == 0 and "Setup" in status, status
    assert "Round 0" not in status and "Round 0" not in state, (status, state[:300])


def test_an_answer_taken_for_you_is_printed_once(tmp_path):
    # the playtest: "Choose one among the free places in the next turn order. → 1st (the
    # only choice, taken for you)" printed twice (seed 8: the person chooses last)
    import os
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "play",
                           "legacy_gears_of_time", "-p", "2", "--agents", "human,random",
                           "--seed", "8"], cwd=tmp_path, input="1\n" * 400,
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, COLUMNS="200"))
    lines = [x for x in proc.stdout.splitlines() if "taken for you" in x]
    assert any("place do you take in the next turn order" in x for x in lines), \
        proc.stdout[-2000:]
    for a, b in zip(proc.stdout.splitlines(), proc.stdout.splitlines()[1:]):
        assert not ("taken for you" in a and a == b), a


def _travel_from_frame_2():
    from rulebook_games.engine.flow import FlowRunner
    game, seen = _game(BOARD)
    game.keep_log = True
    game.state.phase = "player_turns"
    runner = FlowRunner(game)
    choice = runner.available("player_turns", 0, {"card_actions": False}, True)["action:travel"]
    assert runner.perform(choice, 0)
    return game, seen


def test_a_travel_taken_for_you_says_the_question_as_it_is_asked():
    """The playtest: "Travel to the past: Choose the new value of your time frame. → 1
    (the only choice, taken for you)"; asked, the same question reads "Travel to which
    time frame?" (the action's own prompt): the line taken for you uses those words."""
    game, seen = _travel_from_frame_2()
    assert not seen  # one frame to go to: not asked
    mine = [game.log_line_for(i, 0) for i in range(len(game.log_lines))]
    taken = [line for line in mine if "taken for you" in line]
    assert taken == ["  Travel to the past: Travel to which time frame? → 1 "
                     "(the only choice, taken for you)"], mine


def test_each_discard_while_establishing_says_which_of_how_many_it_is():
    """The playtest: "Put which card into the discard pile (among the cards in your
    hand)?" said neither that it was the first of two discards nor where from in plain
    words: each says which of how many it is, and the hand it comes from."""
    from rulebook_games.engine.flow import FlowRunner
    game, seen = _game("""
for p in players():
    for c in cards_in(hand, p):
        put(c, deck)
put(card_named(fire, deck), hand)
put(card_named(the_wheel, deck), hand)
put(card_named(basic_tools, deck), hand)
put(card_named(basic_science, deck), hand)
set frame = 2 for player(1)
""")
    game.state.phase = "player_turns"
    runner = FlowRunner(game)
    choice = runner.available("player_turns", 0, {"card_actions": False}, True)["action:establish"]
    assert runner.perform(choice, 0)
    prompts = [d.prompt for d, _ in seen]
    assert len(prompts) == 3, prompts  # Fire (2 cards to pay), then the two discards
    assert prompts[1:] == ["Establish a technology in your time frame: Put which card from "
                           "your hand into the discard pile (1 of 2)?",
                           "Establish a technology in your time frame: Put which card from "
                           "your hand into the discard pile (2 of 2)?"], prompts


def _table_text(game, seat: int = 0) -> list[str]:
    from rich.console import Console

    from rulebook_games.play.render import render_view
    console = Console(width=80, record=True, color_system=None)
    console.print(render_view(game.view_model(seat), game))
    return console.export_text().splitlines()


def test_the_fate_cards_row_says_what_lasts_and_only_with_its_cards():
    """The playtest read "A failed technology does not score; cubes are shown by player.
    / They last until the end of the round." with no fate card in sight: 'They' were the
    fate cards in play. The row's words name them, under the row's cards."""
    game, _ = _game(BOARD)
    lines = _table_text(game)
    lasting = [i for i, line in enumerate(lines) if "until the end of the round" in line]
    assert lasting, lines
    for i in lasting:
        assert not lines[i].strip().startswith("They"), lines[i]
        assert lines[i - 1].startswith("Fate cards in play"), lines[i - 1:i + 1]


def test_the_cubeless_warning_names_a_frame_only_for_copies_on_the_timeline():
    """The playtest read "Architecture (Time frame 2)" while the other copy lay in the
    discard pile; the README: a copy is named with its frame when two share a name on
    the timeline."""
    game, _ = _game("""
for p in players():
    for c in cards_in(hand, p):
        put(c, deck)
put(card_named(fire, deck), frame_2)
put(card_named(fire, deck), discard)
put(card_named(the_wheel, deck), frame_2)
put(card_named(the_wheel, deck), frame_1)
""")
    warned = {w["label"]: w["value"] for w in game.view_warnings(0)}
    cubeless = warned["No cubes, discarded at the end of this round"]
    assert "Fire" in cubeless and "Fire (" not in cubeless, cubeless
    assert "The Wheel (Time frame 2)" in cubeless and "The Wheel (Time frame 1)" in cubeless


def test_your_own_cubes_placed_read_as_yours():
    # playtest 31: "Player 1 (human): … 7 stored cubes → Fire (now 9 of theirs there, 12 in
    # all)" was the player's own move; they read "of yours", the others "of theirs"
    game, _ = _game(BOARD)
    game.keep_log = True
    compile_ok(game.rs, "place_pieces(1, card_named(fire, frame_2), player(1), supply_cube)\n"
               "place_pieces(1, card_named(fire, frame_2), player(2), supply_cube)",
               variables={"you": T.PLAYER})(game.frame(0))
    at = len(game.log_lines) - 1
    assert game.log_line_for(at, 1).endswith("(now 3 of yours there, 5 in all)"), \
        game.log_line_for(at, 1)
    assert game.log_line_for(at, 0).endswith("(now 3 of theirs there, 5 in all)")


def test_a_refusal_names_the_player_the_card_is_aimed_at():
    """Lost to History on Player 2's cubes: The Wheel, with none of Player 2's cubes on
    it, read "needs one of the player's cubes on The Wheel; there are none", a
    'the player' for the opponent the card is aimed at (issue 29 follow-up)."""
    game, seen = _game(BOARD + """put(card_named(lost_to_history, deck), hand, player(1))
put(card_named(law, deck), frame_2)
place_pieces(1, card_named(law, frame_2), player(2), supply_cube)
""")
    game.context = "Play a fate card"
    game.run_code(("action", "play_fate", "do"), game.frame(0))
    techs = [rows for d, rows in seen if "off which technology" in d.prompt]
    assert techs, [d.prompt for d, _ in seen]
    refused = {label: detail for mark, _, label, detail in techs[0] if mark == "--"}
    assert refused["The Wheel"] == \
        "not now: needs one of Player 2's cubes on The Wheel; there are none", refused
