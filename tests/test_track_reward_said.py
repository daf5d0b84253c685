"""A track's reward is said, in the ruleset's words, before what it gives (playtest,
Timespan in the browser: "+8 victory points (now 10)" appeared in the news with no word
that it was the bonus for the first to reach 11 science). The rule text: the first
civilisation to reach the top steps of a track gains the VP printed there; each other
marked step gives its reward to whoever reaches it."""

from __future__ import annotations

from rulebook_games import load_ruleset
from rulebook_games.agents.registry import agent_seed, make_agent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game


def test_a_first_arrival_bonus_is_named_above_its_points():
    rs = load_ruleset("timespan")
    for seed in range(1, 6):
        game = Game(rs, 2, seed, [make_agent("greedy", agent_seed(seed, s)) for s in range(2)])
        FlowRunner(game).play()
        lines = [game.log_line_for(i, 0) for i in range(len(game.log_lines))]
        said = [i for i, x in enumerate(lines) if x and "for the first" in x
                and x.rstrip().endswith(")")]
        if not said:
            continue
        for i in said:
            who = lines[i].strip().split(":")[0]
            # the player who got there, the track and its step named; the points next
            assert "(" in lines[i] and lines[i].strip().startswith(who)
            assert lines[i + 1].strip().startswith(f"{who}: +") and "victory point" in \
                lines[i + 1], lines[i:i + 2]
        return
    raise AssertionError("no first-arrival bonus in five greedy games")
