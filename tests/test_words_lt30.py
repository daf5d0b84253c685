"""What a Legacy: Gears of Time player reads (the keen player's play30 notes).

Each expectation is written from the notes, before the fix: the words the
player should have read where they read something else.
"""

from __future__ import annotations

from test_news_names import WORDS

from rulebook_games.play.news import news_lines, summarise


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
