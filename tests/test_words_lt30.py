"""What a Legacy: Gears of Time player reads (the keen player's play30 notes).

Each expectation is written from the notes, before the fix: the words the
player should have read where they read something else.
"""

from __future__ import annotations

import re

from test_news_names import WORDS

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.agents.registry import make_agent
from rulebook_games.play.news import news_lines, summarise
from rulebook_games.play.session import build_game, run


def test_the_card_a_fate_card_is_played_on_is_in_its_headline():
    """play30, item 1: the live screen read 'Player 2 (ismcts): Play a fate card: Will
    Into Existence' and nothing else; the technology it was played on is public."""
    for chose in ("  Bob (ai)'s only choice: Rain", "  Bob (ai) chooses Rain"):
        lines = ["Bob (ai): Play a fate card", "  Oak Mill → Fate cards in play",
                 "  Bob (ai)'s only choice: time frame 4", chose]
        said = news_lines(summarise(lines, WORDS))
        assert said[0] == "Bob (ai): Play a fate card: Oak Mill on Rain"
        assert not any("Rain" in line for line in said[1:]), said  # (said once)


def test_a_choice_the_headline_names_is_not_echoed_below_it():
    """play30, item 4: 'Influence …: 2 stored cubes → Law (now 2 there)', then
    '  Player 2 (ismcts) chooses Law' below it."""
    for chose in ("  Bob (ai)'s only choice: Rain", "  Bob (ai) chooses Rain"):
        lines = ["Bob (ai): Influence a technology in their time frame", chose,
                 "  Bob (ai): 2 stored cubes → Rain (now 2 there)"]
        assert news_lines(summarise(lines, WORDS)) == [
            "Bob (ai): Influence a technology in their time frame: "
            "2 stored cubes → Rain (now 2 there)"]


def _prompts(players: int, seeds: range, agent: str = "random") -> set[str]:
    """Every question asked (or taken for a seat) in a few Legacy games."""
    rs = load_ruleset("legacy_gears_of_time")
    asked: set[str] = set()

    class Spy(Agent):
        def __init__(self, inner):
            self.inner = inner
            self.wants_view = getattr(inner, "wants_view", True)

        def decide(self, decision, view, game):
            asked.add(decision.prompt)
            return self.inner.decide(decision, view, game)

        def taken(self, decision, game):
            asked.add(decision.prompt)

    for seed in seeds:
        spies = [Spy(make_agent(agent, i + 1)) for i in range(players)]
        run(build_game(rs, players, seed, [agent] * players, live_agents=spies))
    return asked


def test_the_fate_cards_and_the_turn_order_ask_in_the_game_s_words():
    """play30, items 2 and 3: 'Choose a time frame among the time frames with at least one
    of the technologies in it that is not fundamental.', 'Choose one among the free places
    in the next turn order.': questions, in the game's words, not a list's definition."""
    asked = _prompts(3, range(1, 7))
    fates = [p for p in asked if p.startswith("Play a fate card · ")]
    assert fates and all("?" in p and " among " not in p for p in fates), fates
    assert not [p for p in asked if p.startswith(("Choose ", "Play a fate card · ")) and
                "Choose " in p and "action" not in p], asked
    assert any(re.fullmatch(r"Play a fate card · Not What We Hoped For: Which technology in "
                            r"time frame \d fails until the end of the round, whatever its "
                            r"prerequisites\?", p) for p in asked), fates
    assert "Which place do you take in the next turn order?" in asked


def test_a_procedure_s_prompt_names_the_values_of_its_parameters(tmp_path):
    """play30, item 2: 'Which technology in time frame 4 fails …?': a procedure's own
    words may name an argument's value, '{z}', as a person calls it."""
    from test_primitives import _tiny_variant, card, game
    from rulebook_games.agents import ScriptedAgent
    from rulebook_games.engine.flow import FlowRunner
    rs = _tiny_variant(tmp_path, flow_extra=(
        "procedures:\n  - id: take_from\n    prompt: \"Which card in {z} goes to {who}?\"\n"
        "    params: {z: zone, who: player}\n"
        "    do: put(choose(x in cards_in(z)), tableau)\n"), action=(
        "  - id: pick\n    name: Pick\n    do: take_from(row, you)\n"))
    g = game(rs)
    for c in (card(g, "statue"), card(g, "coupon")):
        g.put(c, "row", None, 0)
    asked = []

    class Watch(ScriptedAgent):
        def decide(self, decision, view, game):
            asked.append(decision.prompt)
            return 0
    g.agents = [Watch([])] * 2
    runner = FlowRunner(g)
    choices = runner.available("work", 0, {"card_actions": False}, True)
    assert runner.perform(choices["action:pick"], 0)
    row = rs.words.thing("zone", "row")
    assert asked == [f"Pick: Which card in {row} goes to {g.state.players[0].name}?"]


def test_a_prompt_naming_no_parameter_is_an_error_at_its_place(tmp_path):
    import pytest
    from test_primitives import _tiny_dir
    from rulebook_games import RulebookError
    work = _tiny_dir(tmp_path, flow_extra=(
        "procedures:\n  - id: take_from\n    prompt: \"Which card in {zone} goes?\"\n"
        "    params: {z: zone}\n    do: put(choose(x in cards_in(z)), tableau)\n"))
    with pytest.raises(RulebookError) as info:
        load_ruleset(work)
    (d,) = info.value.diagnostics
    assert d.code == "RB401" and "'zone'" in d.message and d.span.line > 30


def _greedy_game(seed: int = 3, players: int = 2):
    rs = load_ruleset("legacy_gears_of_time")
    game = build_game(rs, players, seed, ["greedy"] * players,
                      live_agents=[make_agent("greedy", i + 1) for i in range(players)])
    game.keep_log = True
    run(game)
    return game


def test_the_two_cards_drawn_read_as_cards_to_choose_from():
    """play30, item 3: '2 cards → your cards being looked at: Optics, Railroads'."""
    game = _greedy_game()
    lines = [game.log_line_for(i, 0) for i in range(len(game.log_lines))]
    drawn = [x for x in lines if x and "2 cards from Draw pile → " in x]
    assert drawn and not [x for x in lines if x and "being looked at" in x]
    assert any(x.strip() == "2 cards from Draw pile → your cards to choose from"
               or x.strip().startswith("2 cards from Draw pile → your cards to choose from:")
               for x in drawn), drawn


def test_the_cubeless_warning_and_the_travel_refusal_read_as_the_game_says():
    """play30, item 3: '(when the timeline is clarified, with the cubes of nobody on them;
    influence one from its time frame to keep it)', and 'Travel to the past (not now:
    needs your time frame to be at least 2; it …'."""
    from rulebook_games.engine.flow import FlowRunner
    rs = load_ruleset("legacy_gears_of_time")
    game = build_game(rs, 2, 3, ["random", "random"])
    game.state.phase, game.state.round = "player_turns", 1
    game.state.players[0].tracks["frame"] = 1
    refused = FlowRunner(game).available("player_turns", 0, {"card_actions": False},
                                         True)["__refused__"]
    why = refused["Travel to the past"]
    assert (why() if callable(why) else why) == \
        "you are in time frame 1: there is no earlier time frame"
    tech = next(c for c in game.state.zones[("deck", -1)]
                if rs.cards[game.state.cards[c].def_id].data.get("type") == "technology")
    game.put(tech, "frame_1", None, 0)
    (warning,) = [w for w in game.view_warnings(0) if w["label"].startswith("No cubes")]
    text = " ".join(str(warning.get("text", "")).split())
    assert "nobody" not in text and "no cube" in text and "to keep it" in text, warning


def test_every_technology_says_its_earliest_time_frame():
    """play30, item 7: players miss, when placing, where a technology can ever succeed:
    one time frame right of its latest prerequisite's earliest (1 when fundamental)."""
    from rulebook_games.lang.words.cards import catalogue_entry
    rs = load_ruleset("legacy_gears_of_time")
    techs = {cid: c.data.get("fields", {}) for cid, c in rs.cards.items()
             if c.data.get("type") == "technology"}

    def earliest(cid: str) -> int:
        need = techs[cid].get("prerequisites", [])
        return 1 if techs[cid].get("fundamental") or not need else \
            1 + max(earliest(n) for n in need)
    for cid in techs:
        facts = catalogue_entry(rs, cid)["facts"]
        said = [f for f in facts if "time frame" in f]
        if earliest(cid) == 1:
            assert not said, (cid, facts)  # (fundamental: 'it always succeeds' says it)
        else:
            assert said == [f"Can succeed from time frame {earliest(cid)} on."], (cid, facts)


def _established(setup: str, seat_frame: int = 1):
    """A 2-player Legacy game set up by ``setup`` (effect code, as player 1), then player 1
    establishes the first technology of their hand in their time frame: the log lines."""
    from lang_helpers import compile_ok
    from rulebook_games.engine.game import Game
    from rulebook_games.lang import types as T

    class First(Agent):
        wants_view = False

        def decide(self, decision, view, game):
            return decision.low if decision.is_range else 0
    rs = load_ruleset("legacy_gears_of_time")
    game = Game(rs, 2, 1, [First(), First()])
    game.keep_log = True
    game.state.turn_seat = 0
    compile_ok(rs, "for p in players():\n    for c in cards_in(hand, p):\n        put(c, deck)\n"
               + setup + f"\nset frame = {seat_frame}", variables={"you": T.PLAYER})(game.frame(0))
    start = len(game.log_lines)
    game.context = "Establish a technology in your time frame"
    game.run_code(("action", "establish", "do"), game.frame(0))
    return [line.strip() for line in game.log_lines[start:]]


def test_a_technology_that_starts_to_succeed_is_told_as_one_that_fails_is():
    """play30, item 6: The Wheel established in time frame 1 made Combustion Engine (time
    frame 3, needs The Wheel and Fire) succeed, and the log said nothing; it says when
    one fails."""
    said = _established("""
put(card_named(fire, deck), frame_1)
put(card_named(combustion_engine, deck), frame_3)
mark(top(frame_3), failed)
put(card_named(the_wheel, deck), hand)
put(card_named(law, deck), hand)""")
    assert any(line.startswith("Combustion Engine (time frame 3) now succeeds") and
               "The Wheel" in line for line in said), said
    # and the other way: Combustion Engine put where The Wheel is not earlier fails, said once
    said = _established("""
put(card_named(fire, deck), frame_1)
put(card_named(combustion_engine, deck), hand)
put(card_named(law, deck), hand)
put(card_named(writing, deck), hand)
put(card_named(the_wheel, deck), hand)""", seat_frame=2)
    fails = [line for line in said if line.startswith("Combustion Engine (time frame 2) fails")]
    assert len(fails) == 1 and "The Wheel" in fails[0], said


def test_a_phase_split_by_an_answer_taken_for_you_is_headed_once():
    """play30, item 5: the live screen printed '· V. Prepare the next round' twice at the
    start of round 4, once before the turn order line taken for the player and once
    after it; the headline right above on the screen is not printed again."""
    import io
    from rich.console import Console
    from rulebook_games.play.terminal import HumanAgent
    from rulebook_games.engine.decisions import Decision, Option
    out = io.StringIO()
    human = HumanAgent(Console(file=out, width=100), lambda prompt: "1")
    game = build_game(load_ruleset("legacy_gears_of_time"), 2, 3, ["human", "random"])
    game.agents[0] = human
    game.keep_log = True
    human.news(game, 0)  # everything before is seen
    game.log("· V. Prepare the next round")
    game.log("  Present day 5 → 6")
    only = Decision(0, "item", "Which place do you take?", [Option("1st", "1st", "1st")])
    assert game._ask(only) == 0
    game.log("  Player 1 (human): Place in turn order 2 → 1")
    human.news(game, 0)
    shown = out.getvalue()
    assert shown.count("· V. Prepare the next round") == 1, shown
    assert "Place in turn order 2 → 1" in shown


def test_a_value_that_reads_like_a_placeholder_is_not_filled_again():
    from rulebook_games.lang.gensupport import FilledPrompt

    class Words:
        @staticmethod
        def value_words(value, typ, rt):
            return str(value)

    class Rt:
        class rs:
            words = Words()
    said = FilledPrompt(Rt(), "Take {who}'s cubes off which card in {z}?",
                        (("who", True), ("z", False)), {"who": "{z}", "z": "the row"})
    assert str(said) == "Take {z}'s cubes off which card in the row?"


def test_a_choice_the_headline_names_itself_is_not_echoed_below_it():
    """play30, item 4, the same for a choice the headline names as it is."""
    for chose in ("  Bob (ai)'s only choice: Miner", "  Bob (ai) chooses Miner"):
        lines = ["Bob (ai): Fund an award", chose, "  Bob (ai) pays 8 coins (now 22)"]
        assert news_lines(summarise(lines, WORDS)) == [
            "Bob (ai): Fund an award: Miner", "  Bob (ai): −8 coins (now 22)"]


def test_a_fate_card_kept_out_says_why_in_a_sentence():
    # play 31: 'Will Into Existence (not now: Will Into Existence no technology in the
    # technologies on the timeline will do now: only when Fire is marked failed)' --
    # the card's name run into the reason, the place said twice, and Fire (which can
    # never fail) named as if it were the nearest. What a player should read instead:
    # why the card cannot be played, once, with no technology singled out.
    from rulebook_games.agents import RandomAgent
    from rulebook_games.engine.flow import FlowRunner
    from rulebook_games.engine.game import Game
    rs = load_ruleset("legacy_gears_of_time")
    said: list = []

    class Spy(RandomAgent):
        def decide(self, decision, view, game):
            card = next(c for c, st in game.state.cards.items()
                        if st.def_id == "will_into_existence")
            for p in range(game.n):
                if not game.meets_requirements(card, p):
                    why = game.explain_requirements(card, p)
                    if why not in said:
                        said.append(why)
            return super().decide(decision, view, game)

    game = Game(rs, 2, 3, [Spy(1), Spy(2)])
    FlowRunner(game).play()
    assert "Will Into Existence: there is no technology on the timeline" in said
    assert ("Will Into Existence needs one of the technologies on the timeline "
            "that is failing") in said
    for why in said:
        assert why.startswith(("Will Into Existence: ", "Will Into Existence needs ")), why
        assert "will do now" not in why, why  # no one technology named as the nearest


def refusals_said(ruleset: str, seeds) -> set:
    """Every reason an option was not available, over random 2-player games of ``ruleset``
    with these seeds: what the players were told."""
    from rulebook_games.agents import RandomAgent
    from rulebook_games.engine.flow import FlowRunner
    from rulebook_games.engine.game import Game
    rs = load_ruleset(ruleset)
    said: set = set()

    class Spy(RandomAgent):
        wants_view = True

        def decide(self, decision, view, game):
            said.update(decision.refused.values())
            return super().decide(decision, view, game)

    for seed in seeds:
        FlowRunner(Game(rs, 2, seed, [Spy(seed), Spy(seed + 7)])).play()
    return said


def test_the_establish_and_fate_refusals_read_as_the_rules_say_them():
    # play 31: 'Combustion Engine (not now: needs the number of cards in your hand minus
    # 1 to be at least 3; it is 2)', 'needs none of the technologies in time frame 1
    # whose card is Fire', 'Perfectly Laid Plans only when your cubes on the timeline'.
    # A player should read what is missing, with the numbers, in the game's words.
    said = refusals_said("legacy_gears_of_time", (1, 2, 3))
    for why in said:
        for code_like in ("minus", "whose card is", "marked", "only when your cubes"):
            assert code_like not in why, why
    assert "a copy of it is already in your time frame" in said
    assert "Perfectly Laid Plans: you have no cube on the timeline" in said
    assert any(re.fullmatch(r"needs at least \d+ of the cards in your hand; there are \d+", w)
               for w in said), sorted(said)


def test_a_full_time_frame_is_refused_with_its_count_and_an_empty_hand_as_such():
    # playtest (Legacy in the browser): "your time frame is full: it holds as many
    # technologies as it is frames away…" gave no numbers (frame 1 held 5 of 5), and
    # with no technology in hand the establish action said each was "already in your
    # time frame, or you have too few other cards"
    from rulebook_games.agents import RandomAgent
    from rulebook_games.engine.flow import FlowRunner
    from rulebook_games.engine.game import Game
    rs = load_ruleset("legacy_gears_of_time")
    told = []

    class Spy(RandomAgent):
        def decide(self, decision, view, game):
            why = decision.refused.get("Establish a technology in your time frame")
            if why is not None:
                me = game.state.players[decision.player]
                # the rules: a frame holds as many technologies as it is frames away
                # from the present day
                room = game.state.tracks["present_day"] - me.tracks["frame"]
                hand = [game.state.cards[c] for c in game.state.zones.get(("hand",
                                                                            decision.player), [])]
                techs = [c for c in hand if rs.cards[c.def_id].data.get("type") == "technology"]
                told.append((why, room, len(techs)))
            return super().decide(decision, view, game)
    for seed in (1, 2, 3, 4):
        FlowRunner(Game(rs, 2, seed, [Spy(seed), Spy(seed + 7)])).play()
    full = [(why, room) for why, room, _ in told if why.startswith("your time frame is full")]
    assert full and all(f"it holds {room} of {room} technologies" in why for why, room in full)
    assert any(why == "there is no technology in your hand" for why, _, _ in told)
    for why, _, techs in told:
        assert (why == "there is no technology in your hand") == (techs == 0
                                                                  and "present day" not in why
                                                                  and "full" not in why), why
