"""What a Legacy: Gears of Time and a Timespan player read (the play29 playtests).

Each expectation is written from the playtest notes, before the fix: the words a
keen player should have read where they read something else.
"""

from __future__ import annotations

import re

from lang_helpers import compile_ok

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.agents.registry import make_agent
from rulebook_games.play.session import build_game, run
from rulebook_games.play.transcript import option_rows


class Spy(Agent):
    """Plays as another agent and notes each question it is asked, and its options,
    with the value ``probe`` gives at that moment."""

    def __init__(self, inner, probe=None, refusals=False):
        self.inner, self.probe, self.seen, self.refusals = inner, probe, [], refusals
        self.wants_view = getattr(inner, "wants_view", True)

    def decide(self, decision, view, game):
        rows = option_rows(decision, game)
        self.seen.append((decision.prompt,
                          [(r[2], r[3]) for r in rows if r[0] == "--"] if self.refusals
                          else [r[2] for r in rows if r[0] != "--"],
                          self.probe(game, decision.player) if self.probe else None))
        return self.inner.decide(decision, view, game) if view is not None or \
            not self.wants_view else None

    def refused(self, decision, problem):
        return self.inner.refused(decision, problem)

    def taken(self, decision, game):  # (a question with one answer, taken for the seat)
        self.decide(decision, None, game) if not decision.is_range else None


def _played(ruleset: str, players: int, seed: int, variants=(), probe=None, refusals=False):
    rs = load_ruleset(ruleset)
    spies = [Spy(make_agent("greedy", i + 1), probe, refusals) for i in range(players)]
    game = build_game(rs, players, seed, ["greedy"] * players, variants, live_agents=spies)
    game.keep_log = True
    run(game)
    return game, [s for spy in spies for s in spy.seen]


def test_a_public_wonder_visit_says_the_fee_you_pay_now():
    """Desert Caravans visit public wonders free, yet the question said "Which public
    wonder does your camel visit (1 coin)?"."""
    rs = load_ruleset("timespan")
    fee = compile_ok(rs, "public_fee()", start="expression")
    fees = set()
    for variant in ("scenario_3", "scenario_1"):  # the Desert Caravans', the River Kingdom's
        _, seen = _played("timespan", 1, 1, (variant,), lambda game, seat: fee(game.frame(seat)))
        for prompt, labels, now in seen:
            assert "(1 coin)" not in prompt, prompt
            for label in labels:
                if label.startswith("a public wonder"):
                    fees.add(now)
                    assert label == f"a public wonder, for {now} coin{'s' if now != 1 else ''}"
    assert fees == {0, 1}


def test_the_camels_questions_read_as_questions():
    """The playtest read "Choose a card among the cards in Player 2 (greedy)'s built
    wonders with none of your pieces on it, to move your camel to that card."."""
    asked = []
    for seed in (1, 2, 3):
        _, seen = _played("timespan", 3, seed)
        asked += [prompt for prompt, _, _ in seen if "camel" in prompt.lower()]
    assert any("Which of their wonders does your camel visit?" in p for p in asked), asked
    assert not [p for p in asked if "Choose a card among" in p or "to that card" in p]



def test_a_refusal_says_the_first_thing_that_fails_with_its_numbers():
    """The playtest read "Rocketry: Launch pad (not now: the technology must be unlocked
    with none of your workers on it, and you need a worker left)" when Rocketry was
    simply locked, and "needs at least one of the cards in your technologies on the tech
    board where you can unlock it (its science and its cost)"."""
    refused = {}
    for seed in (1, 2):
        _, seen = _played("timespan", 2, seed, refusals=True)
        for _, rows, _ in seen:
            refused.update((label, reason) for label, reason in rows)
    assert refused
    reasons = set(refused.values())
    assert not [r for r in reasons if "must be unlocked with none of your workers" in r
                or "needs at least one of the cards" in r], reasons
    assert any(r == "not now: it is still locked: unlock it on your tech board first"
               for r in reasons), reasons
    unlock = [r for label, r in refused.items() if label.startswith("Unlock a technology")]
    # the technology that comes nearest, by name, and what it lacks, with the numbers
    assert any(re.search(r"will do now: \w.* needs at least \d+ science; you have \d+", r)
               for r in unlock), unlock


def test_a_marker_at_its_tracks_top_reads_at_the_top_and_the_top_says_its_vp():
    """The playtest read "Next ocean step (food) 0" at the top of the ocean track (a free
    step?), and `board` never said that the top, 8, scores 8 VP at the end."""
    from rich.console import Console

    from rulebook_games.play.render import render_view
    rs = load_ruleset("timespan")
    game = build_game(rs, 2, 1, ["random", "random"])
    game.state.players[0].tracks["ocean"] = 8
    game.state.players[0].tracks["air"] = 2
    model = game.view_model(0)
    panel = {v["label"]: v.get("value") for v in model["table"]["panels"][0]["values"]}
    assert panel["Next ocean step (food)"] == "at the top"
    assert isinstance(panel["Next air step (coins)"], int) and panel["Next air step (coins)"] > 0
    console = Console(width=80, record=True, color_system=None)
    console.print(render_view(model, game, ("board",)))
    board = console.export_text()
    assert "its top, 8, scores 8 VP at the end" in board
    assert "its top, 6, scores 8 VP at the end" in board


def test_no_headline_names_a_discovery_tile_as_its_answer():
    """The playtest read "Player 1 (human): Sails: Sailmakers: Silk Road": Silk Road is
    the discovery tile the ship found, not what the player chose."""
    from rulebook_games.play.news import NewsWords, summarise
    rs = load_ruleset("timespan")
    tiles = {str(e.data.get("name")) for e in rs.cards.values()
             if e.data.get("type") == "discovery"}
    said = 0
    for seed in (1, 2, 3):
        game, _ = _played("timespan", 2, seed)
        lines = [game.log_line_for(i, 0) for i in range(len(game.log_lines))]
        for group in summarise(lines, NewsWords.of(game)):
            head = group.headline or ""
            assert head.rsplit(": ", 1)[-1] not in tiles, head
            said += ": Set sail: Ocean exploration" in head
    assert said
