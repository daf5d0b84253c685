"""An action whose one question would have a single answer names it, with its cost,
before the action is chosen (playtest 32, Timespan: 'ut  Unlock a technology on your
tech board' took Temple Schools as 'the only choice, taken for you' and paid its wood
before the player had seen which technology or what it cost). The view's ``actions``
entry names the card (``card``) and a printed field's sentence (``fact``)."""

from __future__ import annotations

from rulebook_games import load_ruleset
from rulebook_games.agents.registry import make_agent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game
from rulebook_games.play.transcript import option_rows

UNLOCK = "action:unlock_technology"


class _Unlocker:
    """A random player who unlocks whenever it may, noting what the option said."""

    def __init__(self, seed: int, seen: list):
        self.agent, self.seen = make_agent("random", seed=seed), seen

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def decide(self, decision, view, game):
        keys = [getattr(o.value, "key", None) for o in decision.options]
        if UNLOCK in keys:
            i = keys.index(UNLOCK)
            self.seen.append(option_rows(decision, game)[i][-1])
            return i
        return self.agent.decide(decision, view, game)


def test_an_only_technology_is_named_with_its_cost_before_it_is_unlocked():
    seen: list[str] = []
    game = Game(load_ruleset("timespan"), 2, 0, [_Unlocker(0, seen), _Unlocker(1, seen)])
    FlowRunner(game).play()
    named = [note for note in seen if note]
    assert named, seen
    techs = {c.data.get("name") for c in game.rs.cards.values() if c.data.get("type") == "advance"}
    taken = [line.split("only choice: ", 1)[1] for line in game.log_lines
             if "only choice: " in line]
    for note in named:
        name, _, cost = note.partition(": ")
        assert name in techs and cost.startswith("Cost ") and not cost.endswith("."), note
    # what the option named is what was then taken for the player
    assert named[0].partition(": ")[0] == next(t for t in taken if t in techs)
