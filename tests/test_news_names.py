"""The news names what each move was about (issue 26, the TM playtest).

Expectation from the playtest: before a decision the news cut a move to
"Player 2 (ismcts): Play a card" and the player lost 2 plants to a card whose
name they learned only from `news`. A headline keeps what the move was about
(the card played, the award funded) even when the screen cuts the group to its
headline: "Player 2 (ismcts): Play a card: Mining Expedition". Only what the
seat may read is named (the log lines it reads): several cards moved are counted,
and named where the seat may read them (issue 29); a move that tells neither a
card moved nor a choice of its own keeps its headline as it is.
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.registry import make_agent
from rulebook_games.play.news import NewsWords, news_lines, summarise
from rulebook_games.play.screen import fit_news
from rulebook_games.play.session import build_game, run

WORDS = NewsWords(["Ann", "Bob (ai)"], {"Oak Mill", "Rain", "Miner"},
                  {"coin": ("coin", "coins"), "coins": ("coin", "coins"),
                   "plant": ("plant", "plants"), "plants": ("plant", "plants")},
                  {"coin": ("coin", "coins"), "plant": ("plant", "plants")})

PLAY = ["Bob (ai): Play a card", "  Bob (ai) pays 12 coins (now 2)",
        "  Oak Mill → Bob (ai)'s event pile", "  Bob (ai) chooses Ann",
        "  Ann: −2 plants (now 0)"]


def test_the_card_a_player_played_is_named_in_the_headline():
    # (and the player chosen after it, whose plants it took: issue 31, wordslr)
    assert news_lines(summarise(PLAY, WORDS))[0] == "Bob (ai): Play a card: Oak Mill on Ann"


def test_what_a_player_chose_first_is_named_in_the_headline():
    lines = ["Bob (ai): Fund an award", "  Bob (ai) chooses Miner",
             "  Bob (ai) pays 8 coins (now 22)", "  Miner → Funded awards"]
    assert news_lines(summarise(lines, WORDS))[0] == "Bob (ai): Fund an award: Miner"


def test_nothing_is_guessed_when_the_move_tells_no_card_moved_and_no_choice_of_its_own():
    phase = ["· Production", "  Oak Mill → Discard pile"]
    named = ["Bob (ai): Oak Mill: Extra", "  Oak Mill → Bob (ai)'s played cards"]
    other = ["Bob (ai): Trade", "  Ann chooses Rain"]
    for lines in (phase, named, other):
        assert news_lines(summarise(lines, WORDS))[0] == lines[0]


def test_several_or_hidden_cards_bought_are_counted_in_the_headline():
    """Issue 29: 'Player 1 (human): Buy research cards', cut to its headline, said
    neither what nor how many was bought. To its owner it names them; to the others it
    says how many (their log lines name none)."""
    research = ["Ann: Buy cards", "  Ann pays 3 coins (now 9)", "  Oak Mill → your hand",
                "  Ann pays 3 coins (now 6)", "  Rain → your hand", "  a card → Discard pile"]
    seen_by_bob = ["Ann: Buy cards", "  Ann pays 3 coins (now 9)", "  a card → Ann's hand",
                   "  Ann pays 3 coins (now 6)", "  a card → Ann's hand",
                   "  a card → Discard pile"]
    none = ["Bob (ai): Buy cards", "  a card → Discard pile (×4)"]
    assert news_lines(summarise(research, WORDS))[0] == \
        "Ann: Buy cards: 2 cards → your hand: Oak Mill, Rain"
    assert news_lines(summarise(seen_by_bob, WORDS))[0] == "Ann: Buy cards: 2 cards → Ann's hand"
    assert news_lines(summarise(none, WORDS))[0] == "Bob (ai): Buy cards: 4 cards → Discard pile"


def test_a_headline_cut_from_its_effects_still_names_the_card():
    console = Console(file=io.StringIO(), width=80, color_system=None)
    news = [g.lines() for g in summarise(PLAY + ["Ann: Pass", "  Ann: +1 coin (now 3)"] * 3,
                                         WORDS)]
    shown = [t.plain for t in fit_news(console, news, 6)]
    # (a headline cut from its effects says how many lines 'news' shows under it)
    assert "Bob (ai): Play a card: Oak Mill on Ann  (+3 lines: type news)" in shown


@pytest.mark.slow
def test_every_card_played_in_a_game_is_named_in_its_headline():
    rs = load_ruleset("terraforming_mars")
    game = build_game(rs, 2, 3, ["greedy", "greedy"],
                      live_agents=[make_agent("greedy", 1), make_agent("greedy", 2)])
    run(game)
    words = NewsWords.of(game)
    lines = [game.log_line_for(i, 0) for i in range(len(game.log_lines))]
    heads = [g.headline for g in summarise(lines, words)
             if g.headline and g.headline.endswith(": Play a card")
             or g.headline and ": Play a card: " in g.headline]
    # (and the cards it was then played on: 'Large Convoy on Birds')
    assert heads and all(h.split(": Play a card: ")[-1].split(" on ")[0] in words.cards
                         for h in heads), heads


def test_what_was_gained_and_lost_of_one_resource_reads_in_the_order_it_came():
    """The playtest read 'Player 2 (ismcts): +3 −1 M€ (now 10)': two numbers, one unit."""
    lines = ["Bob (ai): Raid", "  Bob (ai) gains 3 coins (now 11)",
             "  Bob (ai) pays 1 coin (now 10)",
             "Ann: Buy", "  Ann pays 12 coins (now 28)", "  Ann gains 40 coins (now 68)"]
    assert news_lines(summarise(lines, WORDS)) == [
        "Bob (ai): Raid", "  Bob (ai): +3 coins, then −1 (now 10)",
        "Ann: Buy", "  Ann: −12 coins, then +40 (now 68)"]


# The Legacy and Timespan playtests (issue 29's play29 notes): between the person's
# turns the screen cut an opponent's move to "Player 2 (greedy): Influence a technology
# in their time frame" and "Travel to the past", and they had to type `log` to learn that
# 2 cubes went onto their Metallurgy. The headline must say what the move did.

def test_a_choice_taken_as_the_only_one_names_the_move_with_what_it_did():
    """'Bob's only choice: Rain' is a choice as much as 'Bob chooses Rain'; the line of
    the mover's that then names it says what was done with it (the cubes put on it)."""
    for chose in ("  Bob (ai)'s only choice: Rain", "  Bob (ai) chooses Rain"):
        lines = ["Bob (ai): Influence a technology in their time frame", chose,
                 "  Bob (ai): 2 stored cubes → Rain (now 4 there)"]
        assert news_lines(summarise(lines, WORDS))[0] == (
            "Bob (ai): Influence a technology in their time frame: "
            "2 stored cubes → Rain (now 4 there)")


def test_a_move_that_changed_the_movers_track_or_marker_names_it():
    travel = ["Bob (ai): Travel to the past", "  Bob (ai): Time frame 5 → 2"]
    assert news_lines(summarise(travel, WORDS))[0] == \
        "Bob (ai): Travel to the past: Time frame 5 → 2"


def test_a_discovery_found_on_the_way_is_not_named_as_the_answer():
    """The Timespan playtest read 'Navigator: Set sail: Copper Vein' (a discovery tile
    found, not the answer): the ship that moved is what the move did; the worker put on
    the card the headline names already says nothing new."""
    sail = ["Bob (ai): Navigator: Set sail", "  Bob (ai): 1 population → Navigator (now 1 there)",
            "  Bob (ai) pays 1 food (now 3)", "  Bob (ai): Ocean exploration (ship) 1 → 2",
            "  Rain → Used discovery tiles", "  Bob (ai) gains 2 coins (now 2)"]
    assert news_lines(summarise(sail, WORDS))[0] == \
        "Bob (ai): Navigator: Set sail: Ocean exploration (ship) 1 → 2"


def test_an_answer_taken_for_you_names_your_move():
    """The Timespan playtest's own unlock, the only choice, read 'Player 1 (human): Unlock
    a technology on their tech board' with no technology."""
    lines = ["Ann: Unlock a technology on their tech board",
             "  Unlock a technology: Which technology do you unlock? → Rain "
             "(the only choice, taken for you)", "  Ann pays 1 coin (now 2)"]
    assert news_lines(summarise(lines, WORDS))[0] == \
        "Ann: Unlock a technology on their tech board: Rain"


def test_a_card_taken_for_you_after_one_alike_is_not_what_the_card_was_played_on():
    # a keen player's Legacy game (seed 4141): establishing Basic Science and discarding
    # two Basic Tools (the second taken for them) read "…: Basic Science on Basic Tools"
    lines = ["Ann: Establish a technology in your time frame",
             "  Oak Mill → Time frame 1",
             "  Rain → Discard pile",
             "  Establish a technology in your time frame: Put which card from your hand "
             "into the discard pile (2 of 2)? → Rain (the only choice, taken for you)",
             "  Rain → Discard pile"]
    news = news_lines(summarise(lines, WORDS))
    assert news[0] == "Ann: Establish a technology in your time frame: Oak Mill", news
    assert "  2 cards → Discard pile: Rain, Rain" in news, news


def test_a_card_chosen_and_put_in_play_is_named_before_what_was_put_on_it():
    # the same game: a technology taken for the player, established, and a cube put on it
    # read "…: 1 supply cube → The Wheel (now 1 there)", with "The Wheel → Time frame 1"
    # under it, the cube before the card
    lines = ["Ann: Establish a technology in your time frame",
             "  Establish a technology in your time frame: Which technology do you "
             "establish? → Rain (the only choice, taken for you)",
             "  Rain → Time frame 1",
             "  Establish a technology in your time frame: Put which card from your hand "
             "into the discard pile? → Oak Mill (the only choice, taken for you)",
             "  Oak Mill → Discard pile",
             "  Ann: 1 supply cube → Rain (now 1 there)"]
    news = news_lines(summarise(lines, WORDS))
    assert news[0].startswith("Ann: Establish a technology in your time frame: Rain"), news
    assert "cube" not in news[0], news
    assert news.index("  Rain → Time frame 1") < news.index("  Ann: 1 supply cube → Rain "
                                                             "(now 1 there)"), news


def test_a_hidden_card_kept_stays_hidden_in_the_headline():
    keep = ["Bob (ai): Draw two, keep one", "  2 cards from Draw pile → Bob (ai)'s cards",
            "  a card → Bob (ai)'s hand", "  Rain → Discard pile"]
    # what everyone may see of it: the card let go, where it went (not which was kept)
    head = news_lines(summarise(keep, WORDS))[0]
    assert head == "Bob (ai): Draw two, keep one: Rain → Discard pile"
    hidden = ["Bob (ai): Draw two, keep one", "  2 cards from Draw pile → Bob (ai)'s cards",
              "  a card → Bob (ai)'s hand", "  a card → Discard pile"]
    assert news_lines(summarise(hidden, WORDS))[0] == \
        "Bob (ai): Draw two, keep one: 2 cards → Bob (ai)'s cards"


@pytest.mark.slow
def test_every_legacy_influence_and_travel_says_what_it_did():
    rs = load_ruleset("legacy_gears_of_time")
    game = build_game(rs, 2, 3, ["greedy", "greedy"],
                      live_agents=[make_agent("greedy", 1), make_agent("greedy", 2)])
    run(game)
    words = NewsWords.of(game)
    lines = [game.log_line_for(i, 0) for i in range(len(game.log_lines))]
    heads = [g.headline for g in summarise(lines, words) if g.headline]
    influence = [h for h in heads if ": Influence a technology" in h]
    travel = [h for h in heads if h.endswith(("Travel to the past",)) or ": Travel to the past:" in h]
    assert influence and travel
    assert all(" cube" in h and "→" in h for h in influence), influence
    assert all(": Time frame " in h for h in travel), travel


def test_what_the_headline_says_of_the_movers_line_is_not_said_again_below_it():
    lines = ["Bob (ai): Travel to the past", "  Bob (ai): Time frame 5 → 2",
             "  Bob (ai) pays 1 coin (now 2)"]
    assert news_lines(summarise(lines, WORDS)) == [
        "Bob (ai): Travel to the past: Time frame 5 → 2", "  Bob (ai): −1 coin (now 2)"]


def test_cards_moved_that_the_headline_says_are_not_said_again_below_it():
    lines = ["Ann: Buy cards", "  Ann pays 3 coins (now 9)", "  Oak Mill → your hand",
             "  Rain → your hand"]
    assert news_lines(summarise(lines, WORDS)) == [
        "Ann: Buy cards: 2 cards → your hand: Oak Mill, Rain", "  Ann: −3 coins (now 9)"]


def test_pieces_put_on_a_card_say_the_movers_and_everyone_s():
    # Legacy playtest: "1 stored cube → Railroads (now 4 there)" while 7 cubes stood
    # on Railroads: the number read as the card's total
    rs = load_ruleset("legacy_gears_of_time")
    game = build_game(rs, 2, 1, ["random", "random"])
    game.keep_log = True
    card = next(iter(game.state.cards))
    game.place_pieces(3, card, 1, None)
    game.place_pieces(4, card, 0, None)
    game.place_pieces(1, card, 0, None)
    said = [line for line in game.log_lines if "→" in line][-3:]
    assert said[0].endswith("(now 3 there)")  # nobody else has any there
    assert said[1].endswith("(now 4 of theirs there, 7 in all)")
    assert said[2].endswith("(now 5 of theirs there, 8 in all)")


def test_a_number_taken_for_you_does_not_hide_the_move_that_follows():
    # a greedy game of the retrained weights: the reader's own travel, its frame taken
    # for them, was headed 'Travel to the past' alone
    lines = ["Bob (ai): Travel to the past",
             "  Travel to the past: Travel to which time frame? → 1 (the only choice, "
             "taken for you)",
             "  Bob (ai): Time frame 2 → 1"]
    heads = [g.headline for g in summarise(lines, WORDS) if g.headline]
    assert heads == ["Bob (ai): Travel to the past: Time frame 2 → 1"]


def test_a_card_played_that_put_another_card_somewhere_names_it():
    """Playtest 31 (Legacy): 'Player 2 (ismcts): Play a fate card: Flash of Insight
    (+4 lines: type news)'; the technology it established was only in the folded lines.
    A played card that then put one other card somewhere, by name, says so in the
    headline, as a card played on another does ('Lost to History on Fire')."""
    words = NewsWords(["Ann", "Bob (ai)"], {"Flash of Insight", "Basic Science", "Gunpowder"},
                      {"cube": ("cube", "cubes")}, {})
    lines = ["Bob (ai): Play a fate card", "  Flash of Insight → Fate cards in play",
             "  Basic Science → Time frame 1", "  Gunpowder → Discard pile",
             "  Bob (ai): 2 supply cubes → Basic Science (now 2 there)",
             "  Flash of Insight → Discard pile"]
    head = news_lines(summarise(lines, words))[0]
    assert head == "Bob (ai): Play a fate card: Flash of Insight: Basic Science → Time frame 1"


def test_the_opponents_lamplighter_says_which_lantern():
    """Lantern Row (issues 26/29 follow-ups): 'Bob: Play a favour: Lamplighter' did not say
    which lantern it hung; the lantern is public once it is in the stall."""
    words = NewsWords(["Ann", "Bob (ai)"], {"Lamplighter", "Firefly Jar"},
                      {"coin": ("coin", "coins"), "coins": ("coin", "coins")}, {})
    lines = ["Bob (ai): Play a favour", "  Lamplighter → Discard pile",
             "  Firefly Jar → Bob (ai)'s stall", "  Bob (ai) gains 3 coins (now 4)"]
    assert news_lines(summarise(lines, words))[0] == \
        "Bob (ai): Play a favour: Lamplighter: Firefly Jar → Bob (ai)'s stall"


def test_a_card_paid_into_the_discard_pile_is_not_what_the_move_did():
    """Playtest 32 (Legacy): a technology established at a cost of one card read
    'Establish a technology in your time frame: The Wheel: Computers → Discard pile',
    as if The Wheel had done something to Computers; the card discarded is what the move
    cost (at a cost of 2 the discards have their own line). A pile a deck is refilled
    from is where costs go: what the headline names is the technology alone."""
    words = NewsWords(["Ann", "Bob (ai)"], {"The Wheel", "Computers"},
                      {"cube": ("cube", "cubes")}, {}, {"Discard pile"})
    lines = ["Bob (ai): Establish a technology in their time frame",
             "  The Wheel → Time frame 1", "  Computers → Discard pile",
             "  Bob (ai): 1 supply cube → The Wheel (now 1 there)"]
    news = news_lines(summarise(lines, words))
    assert news[0] == "Bob (ai): Establish a technology in their time frame: The Wheel"
    assert any("Computers → Discard pile" in line for line in news[1:])  # (still told)


def test_the_piles_a_deck_is_refilled_from_are_read_from_the_rules():
    legacy = build_game(load_ruleset("legacy_gears_of_time"), 2, 1, ["random"] * 2)
    assert NewsWords.of(legacy).piles == {"Discard pile"}  # (its draw pile refills from it)
    lantern = build_game(load_ruleset("lantern_row"), 2, 1, ["random"] * 2)
    assert NewsWords.of(lantern).piles == set()  # (no deck refilled: a favour's discard
    # is not a cost, and Lamplighter's lantern is named)


def test_a_card_turned_up_and_then_discarded_reads_in_the_order_it_moved():
    """Playtest 32 (Search For Life): 'Search for life: Industrial Microbes: Industrial
    Microbes → Discard pile', and below it '… → Revealed cards': the card was revealed
    before it was discarded, and the news said it the other way round, twice."""
    words = NewsWords(["Ann", "Bob (ai)"], {"Oak Mill", "Rain"},
                      {"coin": ("coin", "coins"), "coins": ("coin", "coins")}, {})
    lines = ["Ann: Oak Mill: Search", "  Ann pays 1 coin (now 4)", "  Rain → Revealed cards",
             "  Oak Mill: +1 science (now 1)", "  Rain → Discard pile"]
    shown = news_lines(summarise(lines, words))
    assert shown[0] == "Ann: Oak Mill: Search: Rain → Revealed cards → Discard pile"
    assert not any("Rain" in line for line in shown[1:])  # (said once, in the headline)


def test_a_card_drawn_by_an_action_is_said_as_gained_not_as_its_target():
    """Playtest 32 (Timespan): River trade raised culture to 8, which gave a wonder card,
    and the headline read 'The River Kingdom: River trade (exclusive): Hanging Gardens',
    as if the action had been aimed at Hanging Gardens. A card drawn says where it went."""
    words = NewsWords(["Ann", "Bob (ai)"], {"Oak Mill", "Rain"},
                      {"food": ("food", "food"), "pottery": ("pottery", "potteries")}, {})
    lines = ["Ann: Oak Mill: Trade", "  Ann: 1 worker → Oak Mill (now 1 there)",
             "  Ann pays 2 food (now 1)", "  Ann gains 1 pottery (now 1)",
             "  Pottery tiles in the supply 17 → 16", "  Ann: Culture 7 → 8",
             "  1 card from Reserve deck → your reserve: Rain"]
    shown = news_lines(summarise(lines, words))
    assert shown[0] == "Ann: Oak Mill: Trade: Rain → your reserve"
    assert not any("Rain" in line for line in shown[1:])
