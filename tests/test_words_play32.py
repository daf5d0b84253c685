"""What players read in Legacy and Lantern Row, from playtest 32 (issues 26/29)."""

from __future__ import annotations

import io

from rich.console import Console

from rulebook_games import load_ruleset
from rulebook_games.engine.decisions import Decision, Option
from rulebook_games.play.session import build_game
from rulebook_games.play.terminal import HumanAgent


def _human_game(ruleset: str, width: int = 80):
    out = io.StringIO()
    human = HumanAgent(Console(file=out, width=width), lambda prompt: "1")
    game = build_game(load_ruleset(ruleset), 2, 3, ["human", "random"])
    game.agents[0] = human
    game.keep_log = True
    human.news(game, 0)  # everything before is seen
    out.truncate(0)
    out.seek(0)
    return game, human, out


def test_a_long_phase_cut_before_an_answer_taken_for_you_is_headed_once():
    """Playtest 32: between rounds 3 and 4 '· V. Prepare the next round' was printed
    twice: the news before the turn order place taken for the player was cut to its
    last lines, the phase's headline among those left out, and the screen after the
    answer headed the phase again. A phase cut at the top keeps its headline, once."""
    game, human, out = _human_game("legacy_gears_of_time")
    game.log("Player 2 (random): Draw two, keep one")
    game.log("· V. Prepare the next round")
    for i in range(12):
        game.log(f"  Frame {i} is cleared for your next round")
    only = Decision(0, "item", "Which place do you take?", [Option("1st", "1st", "1st")])
    assert game._ask(only) == 0
    game.log("  Player 1 (human): Place in turn order 2 → 1")
    human.news(game, 0)
    shown = out.getvalue()
    assert shown.count("· V. Prepare the next round") == 1, shown
    assert shown.index("· V. Prepare the next round") < shown.index("Frame 11 is cleared")
    assert "Place in turn order 2 → 1" in shown


def test_a_card_that_passes_through_a_place_within_a_move_is_said_to_move_once():
    """Playtest 32 (Legacy): Flash of Insight was logged '→ Fate cards in play', then,
    after the technology it established, '→ Discard pile'. A card that passes through a
    place within one move reads as one move, where it ended."""
    import rulebook_games as rb
    game = rb.new_game("legacy_gears_of_time", players=2, seed=48, agents=["me", "me"])
    for answer in ["The Scholar", "The Engineer", "action:play_fate", "3", "Navigation",
                   "action:research", "Steam Engine", "action:research", "Basic Science",
                   "action:research", "The Wheel", "action:play_fate", "Fire", "Gunpowder"]:
        game.answer(answer)
    log = game.log
    flash = [line for line in log if "Flash of Insight →" in line]
    assert flash == ["  Flash of Insight → Discard pile"], flash
    slip = [line for line in log if "Slip Through Time →" in line]
    assert slip == ["  Slip Through Time → Discard pile"], slip
    played = log.index("  Flash of Insight → Discard pile")
    assert log[played - 1].endswith(": Play a fate card")  # said where it was played


def test_a_refusal_says_what_is_missing_once_with_the_number():
    """Playtest 32 (Legacy): Perfectly Laid Plans' list read "Basic Science (not now: needs
    at least one of your cubes on Basic Science; you have 0 of your cubes on Basic
    Science)". The refusal says what is needed once, and what you have as a number."""
    import re
    from test_words_lt30 import refusals_said
    said = refusals_said("legacy_gears_of_time", (1, 8))
    cubes = [w for w in said if "cubes on" in w]
    assert cubes, sorted(said)
    for why in cubes:
        assert why.count("cubes on") == 1, why  # said once
        assert " 0 " not in why and "at least one" not in why, why
    assert any(re.fullmatch(r"needs one of your cubes on [A-Z][\w ]+; you have none", w)
               for w in cubes), cubes


def test_the_row_refilled_after_a_buy_stays_on_the_screen():
    """Playtest 32 (Lantern Row): "Player 2 (ismcts): Buy: Red Dragon  (+3 lines: type
    news)" hid the Festival Arch that came into the row, and the player never saw it
    arrive. A card that arrives in a shared place everyone sees is news to everyone: it
    stays when the move folds to its headline (the player's own buy too)."""
    from rulebook_games.play.news import NewsWords, summarise
    from rulebook_games.play.screen import fit_news
    you, bob = "Ann", "Bob (ai)"
    words = NewsWords([you, bob], {"Red Dragon", "Festival Arch", "Paper Globe"},
                      {"coin": ("coin", "coins"), "coins": ("coin", "coins")}, {},
                      {"Discard pile"}, {"Lantern row"})
    lines = [f"{bob}: Buy: Red Dragon", f"  {bob} pays 4 coins (now 0)",
             f"  Red Dragon → {bob}'s hand", "  Festival Arch → Lantern row"]
    lines += [f"{bob}: Draw a card unseen", f"  {bob} pays 1 coin (now 3)",
              f"  1 card from Lantern deck → {bob}'s hand"] * 3
    lines += [f"{you}: Buy: Paper Globe", f"  {you} pays 1 coin (now 0)",
              "  Paper Globe → your hand", "  Red Dragon → Lantern row"]
    groups = [g.lines() for g in summarise(lines, words)]
    console = Console(file=io.StringIO(), width=80)
    shown = [t.plain for t in fit_news(console, groups, 8, you)]
    assert len(shown) <= 8, shown
    assert "  Festival Arch → Lantern row" in shown, shown
    assert "  Red Dragon → Lantern row" in shown, shown
    # and NewsWords.of knows the game's shared places, not its piles
    game = build_game(load_ruleset("lantern_row"), 2, 3, ["random", "random"])
    words = NewsWords.of(game)
    assert "Lantern row" in words.shared and "Discard pile" not in words.shared


def test_the_opponents_first_move_is_not_left_out_before_the_set_up():
    """Playtest 32 (Lantern Row, moving second): the first screen began "… 3 earlier
    lines", then the set-up's lines (the row, the hands, "+1 coin"), then the opponent's
    later moves: its hang of Bamboo Cage, newer than the set-up, was one of those left
    out. Lines left out are the oldest: the set-up before the opponent's moves."""
    from rulebook_games.play.news import NewsWords, summarise
    from rulebook_games.play.screen import fit_news
    you, bob = "Ann", "Bob (ai)"
    words = NewsWords([you, bob], {"Red Dragon", "Bamboo Cage", "Haggling", "Sun Wheel",
                                   "Jade Carp", "Willow Spirit"},
                      {"coin": ("coin", "coins"), "coins": ("coin", "coins")}, {},
                      set(), {"Lantern row"})
    lines = ["  Red Dragon → Lantern row", "  Sun Wheel → Lantern row",
             "  Jade Carp → Lantern row", "  Haggling → Lantern row",
             f"  2 cards from Lantern deck → {bob}'s hand",
             "  2 cards from Lantern deck → your hand: Willow Spirit, Bamboo Cage",
             f"  {you} gains 1 coin (now 4)",
             f"{bob}: Hang a lantern in their stall", f"  Bamboo Cage → {bob}'s stall",
             f"{bob}: Take 2 coins from the till", f"  {bob} gains 2 coins (now 5)",
             f"{bob}: Draw a card unseen", f"  {bob} pays 1 coin (now 4)",
             f"  1 card from Lantern deck → {bob}'s hand"]
    groups = [g.lines() for g in summarise(lines, words)]
    console = Console(file=io.StringIO(), width=80)
    shown = [t.plain for t in fit_news(console, groups, 5, you)]
    assert len(shown) <= 5, shown
    assert any("Hang a lantern in their stall: Bamboo Cage" in line for line in shown), shown


def test_the_log_and_the_news_say_a_stock_change_in_the_same_words():
    """Playtest 32 (Lantern Row): `log` said "Player 1 (human) gains 2 coins (now 2)" and
    "Player 2 (ismcts) pays 1 coin (now 2)" where the news said "+2 coins (now 2)" and
    "−1 coin (now 2)". One wording: the log's line is the news's."""
    import rulebook_games as rb
    from rulebook_games.play.news import NewsWords, news_lines, summarise
    game = rb.new_game("lantern_row", players=2, seed=3204, agents=["me", "me"])
    game.answer("tak")
    game.answer("dra")
    me = game._stream.game.state.players[0].name
    took = [line for line in game.log if line.startswith(f"  {me}: +2 coins (now ")]
    paid = [line for line in game.log if line.startswith(f"  {me}: −1 coin (now ")]
    assert took and paid, game.log
    assert not [line for line in game.log if " gains 2 coins" in line or " pays " in line]
    words = NewsWords.of(game._stream.game)
    for line in (took[0], paid[0]):
        assert news_lines(summarise([f"{me}: A move", line], words))[1] == line
