"""Timespan's generated card text reads like a card (playtest 31: Architecture read "While
this card is in your technologies on the tech board and this card is unlocked, room for 2
more of every basic good", twice over; Monumental Works "at least one of your wonder cards
not yet built where you can build it")."""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.lang.words.cards import card_text


@pytest.fixture(scope="module")
def ts():
    return load_ruleset("timespan")


def _text(rs, name):
    card = next(c for c, e in rs.cards.items() if e.data.get("name") == name)
    return card_text(rs, card).text()


def test_architecture_says_once_when_its_room_counts(ts):
    text = _text(ts, "Architecture")
    assert "While this card is unlocked: room for 2 more of every basic good; room for 3 " \
           "more coins." in text, text
    assert "technologies on the tech board" not in text and text.count("While") == 1


def test_monumental_works_says_it_needs_a_wonder_you_can_build(ts):
    text = _text(ts, "Monumental Works")
    assert "build a wonder you hold whose culture you have and whose cost you can pay" \
        in text, text
    assert "not yet built" not in text and "at least one of" not in text
