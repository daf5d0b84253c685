"""The leak check: nothing a person reads is effect code.

Random games of every shipped ruleset, at several player counts, are played by
an agent that reads everything a person would: each prompt, each option label,
each refused option's reason, every log line, the table of the view model
(every tenth decision), and each card's text in the catalogue. None may contain effect-language tokens: snake_case identifiers,
call syntax ``name(``, comparison or division operators, template braces, or
a declared id that people know by another name (a resource 'mc' shown as
'M€'). Any finding fails the test and is listed with where it was read.
"""

from __future__ import annotations

import random
import re

import pytest

from rulebook_games.lang.words import catalogue_entry, facts_line
from rulebook_games.agents import Agent
from rulebook_games.play.session import build_game, run
from rulebook_games.load.ruleset import load_ruleset

SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
CALL = re.compile(r"\b[a-z_][a-z0-9_]*\(")
OPERATOR = re.compile(r"==|!=|>=|<=|//|\{|\}")
# the public log is read by everyone: it tells what a player did in the third person
SECOND_PERSON = re.compile(r"\b(you|your|yours|yourself)\b", re.IGNORECASE)

GAMES = [
    ("terraforming_mars", 1), ("terraforming_mars", 2),
    ("legacy_gears_of_time", 2), ("legacy_gears_of_time", 3), ("legacy_gears_of_time", 4),
    ("timespan", 1), ("timespan", 2), ("timespan", 4),
    ("lantern_row", 2),
]


def _renamed_ids(rs) -> re.Pattern | None:
    """Ids of things whose printed name is a different word: they must never show."""
    names = " ".join(str(e.data.get("name", "")).lower()
                     for section in ("resources", "card_resources", "tracks", "zones", "tiles")
                     for e in rs.sections.get(section, {}).values() if isinstance(e.data, dict))
    ids = []
    for section in ("resources", "card_resources", "tracks", "zones", "tiles"):
        for ident, e in rs.sections.get(section, {}).items():
            # an id that is an ordinary word ('research') may well be said; one that is not
            # a word ('mc', 'tr', 'area2') is code showing through
            looks_like_code = len(ident) <= 2 or not re.search(r"[aeiouy]", ident) \
                or re.search(r"\d", ident)
            if isinstance(e.data, dict) and e.data.get("name") and ident not in names \
                    and looks_like_code:
                ids.append(re.escape(ident))
    return re.compile(r"(?<![\w'’-])(" + "|".join(ids) + r")(?![\w'’-])") if ids else None


def findings(text: str, renamed) -> list[str]:
    out = SNAKE.findall(text) + CALL.findall(text) + OPERATOR.findall(text)
    if renamed is not None:
        out += renamed.findall(text)
    return out


def _state_text(game, seat: int) -> str:
    import io

    from rich.console import Console

    from rulebook_games.play.render import render_view
    out = io.StringIO()
    Console(file=out, width=200).print(render_view(game.view(seat), game))
    return out.getvalue()


class Reader(Agent):
    """A random player that reads every word a person would be shown."""

    name = "reader"
    wants_view = False

    def __init__(self, seed: int, sink):
        self.rng = random.Random(seed)
        self.sink = sink

    def decide(self, decision, view, game):
        where = f"decision {len(game.record) + 1}"
        self.sink(decision.prompt, f"{where} prompt")
        for opt in decision.options:
            self.sink(opt.label, f"{where} option")
        for label, reason in decision.refused.items():
            self.sink(label, f"{where} refused option")
            self.sink(reason, f"{where} refusal reason")
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))

    def action_failed(self, label, reason):
        self.sink(reason, "refused action")


@pytest.mark.parametrize("ruleset,players", GAMES, ids=[f"{r}-{p}" for r, p in GAMES])
def test_a_random_game_says_nothing_in_effect_code(ruleset, players):
    rs = load_ruleset(ruleset)
    renamed = _renamed_ids(rs)
    found: list[str] = []

    def sink(text: str, where: str) -> None:
        bad = findings(text, renamed)
        if bad and len(found) < 40:
            found.append(f"{where}: {bad} in {text!r}")

    game = build_game(rs, players, 7, ["random"] * players)
    game.agents = [Reader(100 + seat, sink) for seat in range(players)]
    run(game)
    for i, line in enumerate(game.log_lines):
        sink(line, f"log line {i + 1}")
        if SECOND_PERSON.search(line) and len(found) < 40:
            found.append(f"public log line {i + 1} speaks to 'you': {line!r}")
        if "refused" in line and len(found) < 40:
            found.append(f"public log line {i + 1} tells a refused move: {line!r}")
    for i, lines in game.private_lines.items():
        for seat, line in lines.items():
            sink(line, f"log line {i + 1} (seat {seat + 1} only)")
    for seat in range(players):  # what 'state' draws for each seat at the end
        sink(_state_text(game, seat), f"state of seat {seat + 1}")
    assert len(game.log_lines) > 20, "the game should have told what happened"
    assert not found, "\n".join(found)


@pytest.mark.parametrize("ruleset", ["terraforming_mars", "legacy_gears_of_time", "timespan",
                                     "lantern_row"])
def test_every_card_text_is_words(ruleset):
    rs = load_ruleset(ruleset)
    renamed = _renamed_ids(rs)
    found = []
    for cid in rs.cards:
        entry = catalogue_entry(rs, cid)
        assert entry["lines"] or entry["requirement"] or facts_line(entry), \
            f"{cid} has no text at all"
        for line in entry["lines"] + [facts_line(entry)]:
            bad = findings(line, renamed)
            if bad:
                found.append(f"{cid}: {bad} in {line!r}")
    assert not found, f"{len(found)} card lines read as code:\n" + "\n".join(found[:60])


def test_state_names_markers_as_the_rules_do():
    # issue 26: 'state' showed "[first_action_due]", a marker's id
    import io

    from rich.console import Console

    from rulebook_games.engine.game import Game
    from rulebook_games.play.render import render_view
    rs = load_ruleset("terraforming_mars")
    game = Game(rs, 2, 1, [Agent(), Agent()])
    corp = next(c for c, s in game.state.cards.items() if s.def_id == "inventrix")
    game.put(corp, "corporation", 0, 0)
    game.state.cards[corp].markers.add("first_action_due")
    game.state.cards[corp].resources["microbe"] = 2  # (an id, shown by its name)
    out = io.StringIO()
    Console(file=out, width=200).print(render_view(game.view(0), game))
    text = out.getvalue()
    assert "Inventrix [First action due, 2 microbes]" in text, text
    assert not SNAKE.search(text), SNAKE.findall(text)
