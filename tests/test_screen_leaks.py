"""No screen shows a seat a card it may not see (issue 26: 'the leak test covers the
view model's strings and all new screens').

Whole random games of every shipped ruleset; every few decisions the deciding
seat's screen is drawn as a person gets it (the news, the status lines, the
question and its options, the cards shown alongside), and so is every part
one command away (`board`, `map`, `me`, `players`, `standings`, `state`).
None may name a card that seat may not see now and was never told of (its own
lines of the log, which the log's leak tests check): another player's hand,
the deck, the cards on offer to someone else.
"""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from rulebook_games.agents import Agent
from rulebook_games.load.ruleset import load_ruleset
from rulebook_games.play.render import render_view
from rulebook_games.play.session import build_game, run
from rulebook_games.play.terminal import PARTS, HumanAgent

from test_views import GAMES, _hidden_words


class Looking(Agent):
    """A random player whose screen, and every part of the table, is drawn now and then."""

    wants_view = True

    def __init__(self, seed: int, every: int, problems: list):
        self.rng = random.Random(seed)
        self.every = every
        self.problems = problems
        self.n = 0

    def decide(self, decision, view, game):
        self.n += 1
        if self.n % self.every == 1:  # (the first question of all, too)
            self.look(decision, view, game)
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))

    def look(self, decision, view, game):
        seat = decision.player
        out = io.StringIO()
        console = Console(file=out, width=80, highlight=False, emoji=False)
        person = HumanAgent(console, lambda prompt="": "")
        person.seen = max(0, len(game.log_lines) - 60)  # the news of the last lines
        person.show(decision, view, game)
        person.show(decision, view, game, full=True)  # 'state'
        model = game.view_model(seat)
        for part in sorted(set(PARTS.values())):
            console.print(render_view(model, game, (part,)))
        text = out.getvalue()
        # what the seat was told is known to it (the log's own leak tests check that)
        told = "\n".join(filter(None, (game.log_line_for(i, seat)
                                       for i in range(len(game.log_lines)))))
        names = {str(c.data.get("name", cid)) for cid, c in game.rs.cards.items()}
        # names only: an id is never shown (the words tests), and short keys are made
        # from ids ('mine' is the Miner award's key, and a card's id too)
        for word in (_hidden_words(game, seat) & names) - static_words(game.rs):
            if word in told:
                continue
            if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text):
                line = next(ln for ln in text.splitlines() if word in ln)
                self.problems.append(f"decision {len(game.record)}, seat {seat + 1}: "
                                     f"{word!r} in {line.strip()!r}")


def static_words(rs) -> set[str]:
    """Card names the rule files' own words for the table use (a fact 'more with
    Phobolog, Advanced Alloys', the 'Asteroid project') or cards' printed texts
    name ('Needs Telephone'): the same for every seat."""
    import json
    from rulebook_games.lang.words import catalogue_entry
    view = rs.singles.get("view")
    text = json.dumps(view.data if view is not None else {}, ensure_ascii=False)
    # and a card's own text naming another card ('Needs Telephone'): printed, public
    text += "\n".join(line for cid in rs.cards for line in catalogue_entry(rs, cid)["lines"])
    names = {str(c.data.get("name", cid)) for cid, c in rs.cards.items()}
    return {n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)}


@pytest.mark.slow
@pytest.mark.parametrize("ruleset,players", GAMES, ids=[f"{r}-{p}" for r, p in GAMES])
def test_no_screen_names_a_card_its_seat_may_not_see(ruleset, players):
    rs = load_ruleset(ruleset)
    problems: list[str] = []
    every = 9 if ruleset == "terraforming_mars" else 4
    game = build_game(rs, players, 3, ["random"] * players,
                      live_agents=[Looking(3 + i, every, problems) for i in range(players)])
    game.keep_log = True
    run(game)
    assert sum(a.n for a in game.agents) > 50
    assert not problems, problems[:10]
