"""Lantern Row: a hang is a slot that ends with the turn (issue 29, playtest 30).

The rules (rulesets/lantern_row/README.md): hanging a lantern takes no action,
once a turn, and only lanterns in the stall score. A keen player saw ismcts
take 2 coins twice, then end its turn without hanging, holding Twin Flame and
Firefly Jar (seed 3001, hour 2), and the same holding Festival Arch with an
amber lantern in its stall, worth 2 points hung (seed 3003, hour 2): the slot
was lost. With only free actions left and a lantern that scores in hand, the
default agent hangs, whatever its seed.
"""

from __future__ import annotations

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.registry import make_agent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.play.session import new_game

from replay_helpers import Replay, Stop

# the answers of the playtest's records up to the decision (both seats)
GAMES = {
    3001: [5, 1, 0, 3, 0, 5, 0, 2, 5, 1, 0, 3, 0, 0],
    3003: [6, 0, 0, 0, 6, 1, 5, 3, 1, 0, 0],
}




def _position(seed: int):
    rs = load_ruleset("lantern_row")
    replay = Replay(GAMES[seed])
    game = new_game(rs, 2, seed, [replay, replay], (), ["Player 1", "Player 2"])
    with pytest.raises(Stop) as stop:
        FlowRunner(game).play()
    return stop.value.args


@pytest.mark.parametrize("seed", sorted(GAMES))
@pytest.mark.parametrize("agent_seed", [1, 2, 3])
def test_ismcts_hangs_a_lantern_before_it_ends_its_turn(seed, agent_seed):
    decision, game = _position(seed)
    keys = [o.key for o in decision.options]
    assert "action:hang" in keys and "end" in keys  # only free actions are left
    agent = make_agent("ismcts", agent_seed)
    answer = agent.decide(decision, None, game)
    assert decision.options[answer].key == "action:hang"
