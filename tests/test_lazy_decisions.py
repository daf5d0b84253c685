"""Lazy decisions (issue 28, step 5): words are made when someone reads them.

Expectations from the issue: "A decision with one legal answer builds no
options or labels. Agents get the candidates and the kind; words are made when
a person, the log or a record reads them." So in a game that keeps no log, with
agents that never read words, the choices inside effects make no label at all;
a label read gives the same words it always did; and a game that keeps its log
still names the choices in it.
"""

from __future__ import annotations

import random
import sys

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.base import Agent
from rulebook_games.play.session import build_game, run

RULESETS = ["terraforming_mars", "legacy_gears_of_time", "timespan", "lantern_row"]


class Watching(Agent):
    """A random agent that keeps every decision it is handed, and reads no word."""

    name = "watching"
    wants_view = False

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.seen = []

    def decide(self, decision, view, game):
        self.seen.append(decision)
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))


def _game(name, seed, keep_log):
    rs = load_ruleset(name)
    g = build_game(rs, 2, seed, ["random", "random"])
    g.agents = [Watching(seed * 10 + i) for i in range(2)]
    g.keep_log = keep_log
    return g


@pytest.mark.parametrize("name", RULESETS)
def test_no_label_is_made_unless_read(name):
    g = _game(name, 3, keep_log=False)
    made = []
    label = g._label

    def counted(*a):  # the labels of the options of choices inside effects, and who asks
        caller = sys._getframe(1).f_code
        if caller.co_filename.endswith(("asking.py", "decisions.py")):
            made.append((caller.co_name, a))
        return label(*a)
    g._label = counted
    assert run(g, check=False).finished
    assert made == []  # nobody read one: none was made
    asked = [d for a in g.agents for d in a.seen
             if d.kind in ("card", "item", "player", "space")]
    assert asked, "the game asked no choice inside an effect"
    for d in asked[:50]:  # read now: the words a person would have read
        for o in d.options:
            assert isinstance(o.label, str) and o.label
            assert "partial" not in o.label and "<" not in o.label
    assert made  # (and they were made only now)


@pytest.mark.parametrize("name", ["legacy_gears_of_time", "timespan"])
def test_the_log_still_names_the_choices(name):
    g = _game(name, 3, keep_log=True)
    run(g, check=False)
    log = "\n".join(g.log_lines)
    names = {o.label for a in g.agents for d in a.seen if d.kind == "card" for o in d.options
             if o.key not in ("none", "done")}
    assert any(f"chooses {n}" in log for n in names)


@pytest.mark.parametrize("name", RULESETS)
def test_the_action_menu_makes_no_words_unless_read(name):
    """The menu's labels (a card's action, an action for each element), its refused
    actions and its question are made when read: none in a game nobody reads."""
    g = _game(name, 5, keep_log=False)
    made = []
    card_name, label = g.card_name, g._label

    def counted(real):
        def call(*a):
            caller = sys._getframe(1).f_code
            if caller.co_filename.endswith(("flow.py", "decisions.py")):
                made.append((caller.co_name, a))
            return real(*a)
        return call
    g.card_name, g._label = counted(card_name), counted(label)
    assert run(g, check=False).finished
    assert made == []
    menus = [d for a in g.agents for d in a.seen if d.kind == "action"]
    assert menus
    for d in menus[:40]:  # read now: the words a person would have read
        assert isinstance(d.prompt, str) and "choose an action" in d.prompt
        assert all(isinstance(o.label, str) and o.label for o in d.options)
        assert all(isinstance(k, str) and isinstance(v, str) and v
                   for k, v in d.refused.items())
    assert any(d.refused for d in menus)



def _counting_options(monkeypatch) -> list:
    """Every option made from now on (but the fixed last ones, made with the question)."""
    from rulebook_games.engine import decisions

    made = []
    real = decisions.Option.__init__

    def counted(self, label, value=None, key=""):
        if key not in ("none", "done"):
            made.append(key)
        real(self, label, value, key)
    monkeypatch.setattr(decisions.Option, "__init__", counted)
    return made


# (Terraforming Mars and Timespan also ask choices of several items and yes/no questions,
# whose few options are made with them, and show cards alongside some actions' questions,
# which reads the options to leave the offered cards out)
@pytest.mark.parametrize("name", ["legacy_gears_of_time", "lantern_row"])
def test_no_option_is_made_unless_read(name, monkeypatch):
    """Issue 28, step 5: "A decision with one legal answer builds no options … Agents get
    the candidates and the kind." An agent that only counts the answers (as the random
    agent does) makes the engine build no option at all, of a choice inside an effect or
    of the action menu, in a game that keeps no log."""
    made = _counting_options(monkeypatch)
    g = _game(name, 4, keep_log=False)
    assert run(g, check=False).finished
    assert made == []
    assert any(d.kind == "action" for a in g.agents for d in a.seen)
    assert any(d.kind == "card" and d.count() > 1 for a in g.agents for d in a.seen)
    for d in [d for a in g.agents for d in a.seen][:40]:
        list(d.options)
    assert made  # (and they are made when read)


@pytest.mark.parametrize("name", RULESETS)
def test_options_read_later_are_the_candidates(name):
    """Read after the game, each decision's options are its candidates in order, keyed
    as a list of them always was ('none' last where nothing may be chosen), made once."""
    g = _game(name, 4, keep_log=False)
    assert run(g, check=False).finished
    seen = [d for a in g.agents for d in a.seen]
    asked = [d for d in seen if d.kind in ("card", "item", "player", "space")]
    menus = [d for d in seen if d.kind == "action"]
    assert asked and menus
    for d in asked[:40] + menus[:40]:
        options = list(d.options)
        assert len(options) == len(d.options) == d.count()
        assert all(o is p for o, p in zip(options, d.options))  # made once
        if d.kind == "action":
            assert all(o.key == o.value.key for o in options)
            continue
        if d.optional:
            assert (options[-1].key, options[-1].value) == ("none", None)
        if options[-1].key in ("none", "done"):  # (a pick of a set ends with 'done')
            assert options[-1].value is None
            options = options[:-1]
        for o in options:
            assert o.key == (o.value if isinstance(o.value, str) else "")
