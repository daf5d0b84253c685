"""`hide_when_not_allowed: true` on an action: when the action cannot be chosen, it is
left out of the actions listed as not available (playtest, Terraforming Mars: every
first action of a corporation with no printed first action listed "Corporation's first
action (not now: your corporation has no first action to take)"). The menu offers the
same actions and charges the same work either way; an action without the key is still
listed with its reason, the hidden one is still explained to whoever asks for that very
action (a scenario's step), and it is offered as any other when it is allowed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from rulebook_games import load_ruleset
from rulebook_games.agents import ScriptedAgent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game

TINY = Path(__file__).parent / "fixtures" / "tiny"


def _ruleset(tmp_path, hide: bool, allowed: bool = False):
    dest = tmp_path / (("hidden" if hide else "listed") + ("-allowed" if allowed else ""))
    shutil.copytree(TINY, dest)
    flow = yaml.safe_load((dest / "flow.yaml").read_text())
    for action in flow["actions"]:
        if action["id"] in ("build", "famous"):  # never allowed now: no card in hand;
            action["if"] = "size(cards_in(hand)) > 100"  # famous: 'a reason of its own'
        if action["id"] == "famous" and allowed:
            action["if"] = "size(cards_in(hand)) >= 0"
        if action["id"] == "famous":
            action["reason"] = "only the famous may"
            if hide:
                action["hide_when_not_allowed"] = True
    (dest / "flow.yaml").write_text(yaml.safe_dump(flow, sort_keys=False))
    return load_ruleset(dest)


def _menu(rs):
    """(runner, the keys offered, what a person reads as not available, the work charged)."""
    game = Game(rs, 2, 1, [ScriptedAgent([])] * 2)
    game.state.round = 1
    runner = FlowRunner(game)
    turns = rs.sections["phases"]["work"].data["turns"]
    before = game.budget.used
    decision, opts = runner.action_decision("work", 0, 0, 2, 1, turns, False)
    charged = game.budget.used - before
    return runner, [o.key for o in opts], {k: str(v) for k, v in decision.refused.items()}, \
        charged


def test_an_action_hidden_when_not_allowed_is_not_listed_but_costs_the_same(tmp_path):
    _, offered_l, listed, charged_l = _menu(_ruleset(tmp_path, hide=False))
    runner, offered_h, hidden, charged_h = _menu(_ruleset(tmp_path, hide=True))
    assert listed["Get famous"] == "only the famous may"
    assert "Get famous" not in hidden
    assert "Build a gadget" in listed and "Build a gadget" in hidden  # (no key: listed)
    assert offered_l == offered_h
    assert charged_l == charged_h
    # asked for by name (a scenario's step), it is still explained
    asked = runner.available("work", 0, {}, True)["__refused__"]
    assert asked["Get famous"] == "only the famous may"
    # allowed, it is offered as any other action
    _, offered, shown, _ = _menu(_ruleset(tmp_path, hide=True, allowed=True))
    assert "action:famous" in offered and "Get famous" not in shown
