"""What a Timespan player reads and sees (the keen player's findings of 5 Dec, play30).

Each expectation is written from what the player should read, quoted from the
playtest notes: the era change folded into the last action's headline with every
removed card named, a set's discovery tile missing from the exploration question,
what a discard gives cut off at 80 columns, and the like.
"""

from __future__ import annotations

import functools

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.registry import make_agent
from rulebook_games.play.news import NewsWords, news_lines, summarise
from rulebook_games.play.session import build_game, run


@functools.lru_cache(maxsize=None)
def _played(seed: int = 5):
    rs = load_ruleset("timespan")
    game = build_game(rs, 2, seed, ["random", "random"],
                      live_agents=[make_agent("random", seed), make_agent("random", seed + 1)])
    run(game)
    return game


def _news(game, seat: int = 0):
    lines = [game.log_line_for(i, seat) for i in range(len(game.log_lines))]
    return summarise(lines, NewsWords.of(game))


def test_the_era_change_has_its_own_heading_not_the_last_actions():
    """'Player 1 (human): Amphitheatre: Inspire: 42 cards → Out of the game: University,
    Bookkeeping, …': the era change is the round's end, not the Inspire's."""
    groups = _news(_played())
    removed = [g for g in groups if any("→ Out of the game" in e for e in g.effects)]
    assert len(removed) == 2  # after rounds 2 and 4
    for g in removed:
        assert g.headline == "· End of the round", g.headline
        line = next(e for e in g.effects if "→ Out of the game" in e)
        # the undealt cards are counted, not listed one by one
        assert line.endswith(" cards → Out of the game"), line
    assert not any("Out of the game" in (g.headline or "") for g in groups)


def test_many_cards_leaving_are_counted_but_your_own_are_named():
    words = NewsWords(["Ann"], {f"C{i}" for i in range(12)})
    gone = ["· End of the round"] + [f"  C{i} → Out of the game" for i in range(12)]
    mine = ["Ann: Draw"] + [f"  C{i} → your hand" for i in range(12)]
    assert news_lines(summarise(gone, words)) == ["· End of the round",
                                                  "  12 cards → Out of the game"]
    assert news_lines(summarise(mine, words))[0].startswith("Ann: Draw: 12 cards → your hand: C0, C1")


class _Found(Exception):
    pass


class _Peek:
    """A random player that, at the first decision ``wanted`` picks out, hands it to a
    person's terminal (80 columns) and stops the game there."""

    wants_view = True
    scripted = False
    name = "peek"

    def __init__(self, seed, wanted, then):
        import random
        self.rng, self.wanted, self.then = random.Random(seed), wanted, then

    def decide(self, decision, view, game):
        if self.wanted(decision, game):
            import io
            from rich.console import Console
            from rulebook_games.play.terminal import HumanAgent
            console = Console(file=io.StringIO(), width=80, color_system=None,
                              highlight=False, emoji=False)
            human = HumanAgent(console=console)
            self.then(human, decision, view, game)
            raise _Found(console.file.getvalue())
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))

    def refused(self, decision, reason):
        pass

    def action_failed(self, label, reason):
        pass


def _screen_at(wanted, then, seed: int = 3) -> str:
    rs = load_ruleset("timespan")
    agents = [_Peek(seed, wanted, then), make_agent("random", seed + 1)]
    game = build_game(rs, 2, seed, ["random", "random"], live_agents=agents)
    with pytest.raises(_Found) as found:
        run(game)
    return found.value.args[0]


def _option(decision, key):
    return next((i for i, o in enumerate(decision.options)
                 if getattr(o.value, "key", None) == key), None)


def test_more_on_an_action_says_what_it_does():
    """`more 1` on "Play a historical card into your timeline" said "(nothing more)"."""
    out = _screen_at(lambda d, g: _option(d, "action:play_card") is not None,
                     lambda h, d, v, g: h.command(f"more {_option(d, 'action:play_card') + 1}",
                                                  d, v, g))
    assert "Play a historical card into your timeline" in out
    assert "(nothing more)" not in out
    assert "it enters slot 1 and the others shift right" in out.replace("\n   ", " ")


def test_a_card_asked_for_by_part_of_its_name_or_misspelt_is_named_as_written():
    """`card River Kingdom` → "did you mean 'the river kingdom'?" (lower-cased)."""
    from rulebook_games.engine.game import Game
    from rulebook_games.agents.base import Agent
    from rulebook_games.play.terminal import card_text_for
    game = Game(load_ruleset("timespan"), 2, 1, [Agent(), Agent()])
    assert card_text_for(game, "River Kingdom").startswith("The River Kingdom")
    hint = card_text_for(game, "The Rivr Kingdom")
    assert "did you mean 'The River Kingdom'?" in hint, hint
