"""A phase whose menu can only ever offer one action takes it without 'the only choice,
taken for you' (playtest, Terraforming Mars in the terminal: "Player 1 (human): choose
an action → Buy research cards (the only choice, taken for you)" every generation): the
action heads its own lines in the log, and nothing was chosen. A menu that offers one
action of several this time is still told (playtest, Lantern Row: at 0 coins "Take 2
coins" was taken with no word that it was taken), and so is a question inside an action
with one answer."""

from __future__ import annotations

from rulebook_games import load_ruleset
from rulebook_games.agents.registry import make_agent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game


class _Told:
    """A random player that notes every question the engine answered for it."""

    def __init__(self, seed: int, told: list):
        self.agent, self.told = make_agent("random", seed=seed), told

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def taken(self, decision, game):
        self.told.append((decision.kind, decision.prompt))


def test_a_lone_action_is_not_told_as_taken_but_a_lone_answer_inside_one_is():
    told: list = []
    game = Game(load_ruleset("terraforming_mars"), 2, 3, [_Told(0, told), _Told(1, told)])
    FlowRunner(game).play()
    heads = [line for line in game.log_lines if isinstance(line, str)
             and line.endswith(": Buy research cards")]
    assert heads  # the research phases' one action was taken, under its headline
    assert not [t for t in told if t[0] == "action"], told[:5]
    assert [t for t in told if t[0] != "action"]  # (the engine still tells the others)


def test_a_lone_action_of_a_menu_that_offers_several_is_told_as_taken():
    told: list = []
    for seed in range(1, 9):
        game = Game(load_ruleset("lantern_row"), 2, seed, [_Told(0, told), _Told(1, told)])
        FlowRunner(game).play()
        if [t for t in told if t[0] == "action"]:
            return
    raise AssertionError("no lone action told in eight games of Lantern Row")
