"""Options keep a short key while they exist (issue 26: decisions a player can trust).

Numbers follow the list of options and move when an option comes or goes;
a short key is made from the option's own identity, so the same option has
the same key in every decision of a game, and no two options of a decision
share one.
"""

from __future__ import annotations

import io
import random

import pytest

from rulebook_games.agents.base import Agent
from rulebook_games.engine.decisions import Decision, Option
from rulebook_games.engine.keys import RESERVED, candidates, ruleset_keys, short_keys
from rulebook_games.engine.state import CardRef
from rulebook_games.cli.loading import load_named
from rulebook_games.play.session import build_game, run

@pytest.fixture(scope="module")
def legacy():
    return load_named("legacy_gears_of_time", ())


SHIPPED = ["lantern_row", "legacy_gears_of_time", "timespan", "terraforming_mars"]


def _identity(decision, option):
    """What the option is, whatever its place: the thing a key must follow."""
    v = option.value
    if hasattr(v, "bind") and hasattr(v, "card"):  # an action
        base = v.key.rsplit(":", 1)[0] if v.bind is not None else v.key
        element = v.bind[1] if v.bind is not None else None
        return ("action", base, int(element) if isinstance(element, CardRef) else element)
    if isinstance(v, CardRef):
        return ("card", int(v))
    return (decision.kind, repr(v))


class _Watch(Agent):
    """Answers at random, and checks each decision's keys against earlier ones."""

    wants_view = False

    def __init__(self, seed, seen):
        self.rng = random.Random(seed)
        self.seen = seen  # identity -> key, over the whole game
        self.asked = 0

    def decide(self, decision, view, game):
        self.asked += 1
        keys = short_keys(game, decision)
        if decision.is_range:
            assert keys == []
            return self.rng.randint(decision.low, decision.high)
        assert len(keys) == len(decision.options)
        assert len(set(keys)) == len(keys), (decision.prompt, keys)
        for option, key in zip(decision.options, keys):
            assert key and not key.isdigit() or decision.kind == "number", key
            assert key == key.strip() and " " not in key
            ident = _identity(decision, option)
            assert self.seen.setdefault(ident, key) == key, (ident, key, self.seen[ident])
        return self.rng.randrange(len(decision.options))


@pytest.mark.parametrize("name", SHIPPED)
def test_the_same_option_keeps_its_key_for_a_whole_game(name):
    rs = load_named(name, ())
    seen: dict = {}
    agents = [_Watch(s, seen) for s in range(2)]
    game = build_game(rs, 2, 5, ["random", "random"], live_agents=agents)
    run(game)
    assert sum(a.asked for a in agents) > 50
    # actions, cards and spaces were all met and keyed
    kinds = {ident[0] for ident in seen}
    assert "action" in kinds and "card" in kinds


@pytest.mark.parametrize("name", SHIPPED)
def test_a_rulesets_keys_are_short_distinct_and_never_a_command_or_a_number(name):
    rs = load_named(name, ())
    table = ruleset_keys(rs)
    keys = list(table.values())
    assert len(set(keys)) == len(keys)
    assert not set(keys) & RESERVED
    assert not any(k.isdigit() for k in keys)
    # what people choose most is short enough to type
    chosen = [k for (cat, _), k in table.items() if cat in ("action", "card")]
    assert max(len(k) for k in chosen) <= 5
    assert sum(len(k) <= 3 for k in chosen) >= 0.8 * len(chosen)
    # cards with several copies: every copy key is still distinct from all others
    copies = [(k, int(rs.cards[cid].data.get("copies", 1) or 1))
              for (cat, cid), k in table.items() if cat == "card"]
    expanded = [k + str(i) for k, n in copies if n > 1 for i in range(1, n + 1)]
    assert not set(expanded) & set(keys)


def test_keys_are_made_from_the_id_or_name():
    assert candidates("deep_well_heating")[0] == "dwh"
    assert candidates("area_03")[0] == "a03"
    assert candidates("The Wheel")[0] == "whe"  # "the" is skipped
    assert candidates("ants")[:2] == ["ant", "ants"]
    assert all(not c.isdigit() for c in candidates("42"))
    assert candidates("1st")[0] == "1st"  # an ordinal is one word, kept whole


def test_a_key_does_not_move_when_an_option_before_it_goes(legacy):
    """The numbers shift when an option disappears; the key stays with its option."""
    game = build_game(legacy, 2, 3, ["random", "random"])
    frames = ["frame_1", "frame_2", "frame_3"]
    both = Decision(0, "item", "Choose a time frame", [Option(f, f, f) for f in frames])
    later = Decision(0, "item", "Choose a time frame", [Option(f, f, f) for f in frames[1:]])
    k1, k2 = short_keys(game, both), short_keys(game, later)
    assert k1[1:] == k2  # frame 2 is option 2, then option 1: its key is the same
    assert short_keys(game, both) is k1  # made once


def test_choose_one_options_keep_the_letter_of_their_place_in_the_rule(legacy):
    game = build_game(legacy, 2, 3, ["random", "random"])
    # the rule's options 0 and 2 can be carried out; option 1 cannot (not offered)
    d = Decision(0, "option", "choose one", [Option("gain 1", 0), Option("gain 3", 2)])
    assert short_keys(game, d) == ["a", "c"]
    yes_no = Decision(0, "confirm", "May?", [Option("yes", True, "yes"),
                                             Option("no", False, "no")])
    assert short_keys(game, yes_no) == ["y", "n"]
    players = Decision(0, "item", "Choose a player", [Option("P1", 0), Option("P2", 1)])
    assert short_keys(game, players) == ["p1", "p2"]


def test_copies_of_a_card_are_told_apart_by_their_copy_number(legacy):
    game = build_game(legacy, 2, 3, ["random", "random"])
    by_def: dict = {}
    for number, card in sorted(game.state.cards.items()):
        by_def.setdefault(card.def_id, []).append(CardRef(number))
    def_id, refs = next((d, r) for d, r in by_def.items() if len(r) >= 3)
    d = Decision(0, "card", "Choose", [Option("x", refs[2]), Option("x", refs[0])])
    base = ruleset_keys(legacy)[("card", def_id)]
    assert short_keys(game, d) == [base + "3", base + "1"]


def test_the_api_gives_and_takes_short_keys():
    import rulebook_games as rb
    game = rb.new_game("lantern_row", players=2, seed=7, agents=["me", "greedy"])
    d = game.decision
    keys = [o.short_key for o in d.options]
    assert len(set(keys)) == len(keys) and all(keys)
    target = d.options[2]
    game.answer(target.short_key.upper())  # any case
    assert game.engine.record[0] == 2
    # 'pass' is the option that ends the turn, whatever it is called
    d = game.answer("tak")
    while not any(o.key == "end" for o in d.options):
        d = game.answer(d.options[0])
    end = next(o.index for o in d.options if o.key == "end")
    at = len(game.engine.record)
    game.answer("pass")
    assert game.engine.record[at] == end


def test_the_environment_hands_out_the_keys_of_the_asked_seat():
    pytest.importorskip("pettingzoo")
    from rulebook_games.env import rulebook_env
    env = rulebook_env("lantern_row", players=2)
    env.reset(seed=3)
    agent = env.agent_selection
    keys = env.infos[agent]["keys"]
    assert keys and len(set(keys)) == len(keys)
    assert all(env.infos[a] == {} for a in env.agents if a != agent)
    mask = env.observe(agent)["action_mask"]
    assert int(mask.sum()) == len(keys)


def test_a_key_the_menu_did_not_show_is_refused_with_the_key_it_shows():
    """Playtest 32 (Lantern Row): at "1. rd1 Red Dragon  2. bc2 Bamboo Cage", `bc3` (another
    Bamboo Cage's key) hung the Bamboo Cage offered, and `fj1` (a typo) the `fj2` shown.
    A key the menu did not show is refused, and the refusal says the key it shows for
    that card (the Timespan playtest's `rh1`, read before the first Reinforced Hull was
    taken, learns that the one left is `rh2`)."""
    rs = load_named("timespan", ())
    game = build_game(rs, 2, 3, ["random", "random"])
    hulls = sorted(n for n, c in game.state.cards.items() if c.def_id == "upgrade_hull")
    tools = sorted(n for n, c in game.state.cards.items() if c.def_id == "upgrade_tools")
    left = [CardRef(hulls[1]), CardRef(tools[0])]
    d = Decision(0, "card", "Which upgrade tile do you take?",
                 [Option(game.card_name(c), c) for c in left])
    keys = short_keys(game, d)
    hull = keys[0]
    assert hull[-1] == "2"  # the second copy keeps its own key
    first = hull[:-1] + "1"
    assert d.find(hull, keys) == (0, None)
    index, problem = d.find(first, keys)
    assert index is None
    assert problem == f"{first} is not in this menu: it offers Reinforced Hull as 1. {hull}"
    # two copies offered: each key is its own copy's, and the one not offered is no answer
    both = Decision(0, "card", "Which?", [Option("Reinforced Hull", CardRef(h)) for h in hulls[1:]])
    two = short_keys(game, both)
    assert both.find(two[0], two) == (0, None) and both.find(two[1], two) == (1, None)
    assert both.find(first, two) == (
        None, f"{first} is not in this menu: it offers Reinforced Hull as 1. {two[0]} "
              f"and 2. {two[1]}")


def test_an_action_whose_id_is_not_in_its_name_is_keyed_from_its_name():
    """Playtest (Lantern Row): "`col` (take 2 coins), `sco` (draw unseen) … 'sco' means
    nothing to a player". An action whose id shares no word with the name a person reads
    takes its key from the name's first word; one whose id is in its name keeps it."""
    from rulebook_games import load_ruleset
    from rulebook_games.engine.keys import ruleset_keys
    lr = ruleset_keys(load_ruleset("lantern_row"))
    assert lr[("action", "scout")] == "dra"  # 'Draw a card unseen'
    assert lr[("action", "collect")] == "tak"  # 'Take 2 coins from the till'
    assert lr[("action", "hang")] == "han"  # 'Hang a lantern in your stall'
    lt = ruleset_keys(load_ruleset("legacy_gears_of_time"))
    assert lt[("action", "establish")] == "est" and lt[("action", "research")] == "dra"
