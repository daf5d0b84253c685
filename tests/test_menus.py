"""Action menus read once per phase (engine/menus.py): the same menu as the loop over the
declarations it replaced, in the same order, with the same reasons and the same charge to
the work budget; the index of the cards in play with actions follows cards entering and
leaving play and the state rolled back."""

from __future__ import annotations

from functools import partial

import pytest

from rulebook_games import load_ruleset
from rulebook_games.engine import menus as menus_module
from rulebook_games.engine.flow import ActionChoice, FlowRunner
from rulebook_games.engine.refusals import shown
from rulebook_games.engine.state import NO_OWNER
from rulebook_games.lang.gensupport import reading
from rulebook_games.play.session import build_game, run


def reference_menu(runner: FlowRunner, pid, seat, turns, main_left):
    """The menu as the engine built it before menus were read once: every declaration
    and every card in play looked at, each time (the loop the compiled menu replaced)."""
    g, rs = runner.game, runner.rs
    out, refused = {}, []
    tried = g.refusals.actions(seat)
    if tried:
        tried = {key: shown(reason) for key, reason in tried.items()}

    def expand(choice, code):
        each = rs.code.get(code + ("each",))
        if each is None:
            return [choice]
        f = g.frame(seat, this=choice.card) if choice.card is not None else g.frame(seat)
        return [ActionChoice(f"{choice.key}:{n}",
                             partial(menus_module._each_words, g, choice, item),
                             choice.action, choice.card, choice.index,
                             (choice.action["as"], item))
                for n, item in enumerate(each(f), 1)]

    allowed = turns.get("actions_from")
    looked = len(rs.sections["actions"])
    for aid, entry in rs.sections["actions"].items():
        if allowed is not None and aid not in allowed:
            continue
        action = entry.data
        if not action.get("free") and not main_left:
            continue
        label = action.get("name") or aid.replace("_", " ")
        for choice in expand(ActionChoice(f"action:{aid}", label, action), ("action", aid)):
            reason = runner.blocked(("action", aid), action, seat, None, choice.use_key,
                                    choice.bind) or tried.get(choice.key)
            (refused.append((choice, reason)) if reason else out.__setitem__(choice.key, choice))
    for (zone, owner), cards in g.state.zones.items():
        if not turns.get("card_actions", True):
            break
        if zone not in g.in_play_zones or owner not in (seat, NO_OWNER):
            continue
        looked += len(cards)
        for card in cards:
            if g.state.cards[card].owner != seat:
                continue
            for i, action in enumerate(g.card_data(card).get("actions", []) or []):
                if not action.get("free") and not main_left:
                    continue
                label = partial(menus_module._card_action_words, g, card,
                                action.get("name") or "action")
                code = ("card", g.state.cards[card].def_id, "action", i)
                for choice in expand(ActionChoice(f"card:{int(card)}:{i}", label, action,
                                                  card, i), code):
                    reason = runner.blocked(code, action, seat, card, choice.use_key,
                                            choice.bind) or tried.get(choice.key)
                    (refused.append((choice, reason)) if reason
                     else out.__setitem__(choice.key, choice))
    g.budget.used += looked + len(out) + len(refused)
    return out, refused


def _said(menu, g):
    """A menu as a person reads it (the words made, without charging the game for them);
    an action hidden when not allowed (``Unlisted``) by the reason it keeps."""
    from rulebook_games.engine.menus import Unlisted
    out, refused = menu
    used = g.budget.used
    refused = [(c, r.reason if isinstance(r, Unlisted) else r) for c, r in refused]
    said = ([(k, c.label, c.card, c.index, c.bind) for k, c in out.items()],
            [(c.key, c.label, r if isinstance(r, str) else r()) for c, r in refused])
    g.budget.used = used
    return said


def _forget(g):
    g.memo = g.zmemo = g.bmemo = g.smemo = None


@pytest.mark.parametrize("name,players,seeds", [
    ("terraforming_mars", 2, (1, 2)),
    ("legacy_gears_of_time", 3, (1, 2, 3)),
    ("timespan", 2, (1, 2)),
    ("lantern_row", 2, (1, 2, 3)),
])
def test_the_menu_is_the_one_the_declarations_give(name, players, seeds, monkeypatch):
    """At every action decision of random games, the compiled menu offers what the loop
    over the declarations offered, in its order, refuses what it refused for the same
    reasons, and charges the work budget the same steps."""
    rs = load_ruleset(name)
    real = FlowRunner.menu
    seen = {"menus": 0, "cards": 0, "refused": 0}

    def checked(self, pid, seat, turns, main_left):
        g = self.game
        before = g.budget.used
        _forget(g)
        with reading(g):
            expected = reference_menu(self, pid, seat, turns, main_left)
        charged = g.budget.used - before
        g.budget.used = before
        _forget(g)
        got = real(self, pid, seat, turns, main_left)
        assert g.budget.used - before == charged
        assert _said(got, g) == _said(expected, g)
        seen["menus"] += 1
        seen["cards"] += sum(1 for c in got[0].values() if c.card is not None)
        seen["refused"] += len(got[1])
        return got

    monkeypatch.setattr(FlowRunner, "menu", checked)
    for seed in seeds:
        game = build_game(rs, players, seed, ["random"] * players)
        run(game, check=False)
    assert seen["menus"] > 20 and seen["refused"] > 0
    if name in ("terraforming_mars", "timespan"):
        assert seen["cards"] > 0  # cards' own actions were offered


def _card_with_actions(rs):
    for def_id, entry in rs.cards.items():
        actions = entry.data.get("actions") or []
        if actions and not any(a.get("free") for a in actions):
            return def_id
    raise AssertionError("no card with actions")


def test_the_index_follows_cards_into_and_out_of_play_and_rollbacks():
    """A card with an action put into play is offered (or refused) at once; rolled back,
    it is gone from the menu again; moved out of play, too."""
    rs = load_ruleset("terraforming_mars")
    g = build_game(rs, 2, 1, ["random", "random"])
    runner = FlowRunner(g)
    g.state.set_attr("phase", "setup")
    g.run_code(("flow", "setup"), g.frame(None))
    pid, entry = next((pid, e) for pid, e in rs.sections["phases"].items()
                      if (e.data.get("turns") or {}).get("card_actions", True)
                      and e.data.get("turns"))
    turns = entry.data["turns"]

    def keys():
        out, refused = runner.menu(pid, 0, turns, True)
        return set(out) | {c.key for c, _ in refused}

    def_id = _card_with_actions(rs)
    card = next(n for n, c in g.state.cards.items() if c.def_id == def_id)
    zone = sorted(g.in_play_zones)[0]
    before = keys()
    assert not any(k.startswith(f"card:{card}:") for k in before)
    mark = g.snapshot()
    g.put(card, zone, 0, None)
    assert f"card:{card}:0" in keys()
    g.restore(mark)
    assert keys() == before
    g.put(card, zone, 0, None)
    assert f"card:{card}:0" in keys()
    out_of_play = next(z for z in g.zone_decl if z not in g.in_play_zones
                       and (z, 0) in g.state.zones)
    g.put(card, out_of_play, 0, None)
    assert keys() == before


BROKEN = """  - id: broken
    name: Broken
    if: stock(gold) < 2 or 10 // (stock(gold) - stock(gold)) > 1
    do: gain 1 gold
"""


def test_a_condition_that_fails_while_the_menu_is_made_is_a_positioned_rule_error(tmp_path):
    """The menu calls a condition without a frame once its Python is written: an error in
    it is still the rule error at the condition, as at its first run."""
    from tests.test_refusals import tiny_with
    from rulebook_games.agents import FirstAgent
    from rulebook_games.engine.game import Game
    from rulebook_games.play.session import GameError
    rs = tiny_with(tmp_path, BROKEN)
    game = Game(rs, 1, 1, [FirstAgent()])  # takes 'broken' (a gold each) while it is offered
    with pytest.raises(GameError) as caught:
        run(game)
    err = caught.value
    assert "division by zero" in str(err)
    assert err.span is not None and err.span.file.endswith("flow.yaml")
    line = (tmp_path / "tiny" / "flow.yaml").read_text().splitlines()[err.span.line - 1]
    assert "10 // (stock(gold) - stock(gold))" in line


def test_a_condition_run_without_a_frame_charges_and_fails_as_with_one():
    """``run.call`` (gensupport.entry), as the menu calls a condition, is ``run`` given its
    variables: the same value, the same steps charged, the same errors."""
    from rulebook_games.lang import gensupport as G
    from rulebook_games.lang.runtime import Budget, Frame, RuleRuntimeError

    class Rt:
        memo = None

        def __init__(self, budget):
            self.budget = budget

    def body(rt, B, d, V):
        B.used += 3
        if V["x"] == 0:
            raise KeyError("nothing")
        if V["x"] == 1:
            raise RuleRuntimeError("no such thing")
        return V["x"] > 2

    run = G.entry(body, None, False)
    for x in (0, 1, 2, 5):
        outcomes = []
        for call in (lambda B: run(Frame(Rt(B), {"x": x}, 0, B)),
                     lambda B: run.call(Rt(B), {"x": x})):
            B = Budget()
            B.used = 7
            try:
                got = call(B)
            except RuleRuntimeError as exc:
                got = ("error", exc.message)
            outcomes.append((got, B.used, B.limit, B.effect_start, B.active))
        assert outcomes[0] == outcomes[1]
