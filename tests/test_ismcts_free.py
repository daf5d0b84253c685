"""ismcts's horizon past free actions, and a choice worth the best of what is on offer.

A keen Lantern Row player (2026-12-06) beat the default agent by buying the 6-cost
lanterns it would not: at 4 coins with Willow Spirit in the row, "take 2 coins, buy it,
hang it" (two actions and the turn's free hang). Resumed there, its tree showed two
causes, both general:

- **the horizon**: a copy takes the chosen action and ``depth`` further actions, never
  more than the turn's actions after its first (Lantern Row: one), and a free action
  (one the rules mark ``free``: it takes none of the turn's actions) counted as one of
  them, so after "take 2 coins" the copy could buy the lantern but not hang it. With
  ``free=extra`` only the turn's main actions are counted, and the free actions between
  and after them (at most four) are taken besides;
- **a choice whose options hang on chance**: after "draw a card unseen" the hang's
  options are the cards drawn, different in each world, and with ``backup=max`` the
  node is worth its best option over all worlds (the luckiest draw), so drawing blind
  looked better than any line with a card in sight. With ``backup=offered`` each option
  counts only in the share of worlds that offered it: the node is worth the best of
  what is on offer, on average over the worlds.

Both can come from the ruleset's weights file (``"search": {...}``, written by
``rulebook train --search``); a spec's own value wins, and a file without them leaves
the search as it was.
"""

from __future__ import annotations

import json
import shlex

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.ismcts import ISMCTSAgent, Node, Search, expected_best
from rulebook_games.agents.registry import make_agent
from rulebook_games.agents.specs import SpecError
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.errors import RulebookError
from rulebook_games.load.learned import read_learned, train_command
from rulebook_games.play.session import new_game

from learned_helpers import copy_ruleset, ruleset_with_search
from replay_helpers import Replay, Stop, agent_after_one_decision

# the keen player's game (seed 4101, the agent in seat 2), up to its hour-4 turn: 4
# coins, an empty hand, Willow Spirit (6 coins, 5 points, jade) in the row
KEEN_4101 = [6, 0, 3, 4, 0, 1, 5, 1, 0, 2, 6, 1, 1, 0, 1, 1, 0, 0, 0, 1, 6, 1, 1, 6, 1, 1,
             0, 6, 1, 4, 0]




def _position(answers):
    rs = load_ruleset("lantern_row")
    replay = Replay(answers)
    game = new_game(rs, 2, 4101, [replay, replay], (), ["Player 1", "Player 2"])
    with pytest.raises(Stop) as stop:
        FlowRunner(game).play()
    return stop.value.args


def _chains(node: Node, prefix=()) -> set:
    """Every sequence of actions (by key) the tree holds from ``node``."""
    out = set()
    for key, child in node.children.items():
        if not child.visits:
            continue
        if "|action|" in key:
            here = prefix + (key.split("|action|", 1)[1],)
            out.add(here)
        else:
            here = prefix
        out |= _chains(child, here)
    return out


@pytest.mark.parametrize("free, hung", [("count", False), ("extra", True)])
def test_a_free_action_is_taken_besides_the_turns_actions_with_free_extra(free, hung):
    decision, game = _position(KEEN_4101)
    assert decision.player == 1 and game.state.players[1].stock["coin"] == 4
    agent = ISMCTSAgent(1, free=free, backup="max", eval="written")
    agent.free, agent.backup = free, "max"
    root = agent.search(game, decision)
    chains = _chains(root)
    # the turn's first action, then the second one (a buy), then the free hang
    deep = [c for c in chains if c[0] == "action:collect" and len(c) >= 3
            and c[1].startswith("action:buy") and c[2] == "action:hang"]
    assert bool(deep) == hung
    assert all(len(c) <= 2 for c in chains) == (not hung)


def test_the_best_of_options_offered_in_some_worlds_only_counts_where_they_were():
    node = Node()
    always, rare = Node(), Node()
    # a choice asked in 10 worlds: one option in every world, worth 0; one in 1 world, 10
    node.asked, node.visits, node.total = 10, 10, 10.0
    always.offered, rare.offered = 10, 1
    assert expected_best(node, [always, rare], [0.0, 10.0]) == pytest.approx(1.0)
    # an option on offer in every world ends the sum: as max, when the best is always there
    assert expected_best(node, [always, rare], [10.0, 0.0]) == pytest.approx(10.0)
    # none always on offer: where neither is, the node's own mean (1.0) stands
    half = Node()
    half.offered = 5
    assert expected_best(node, [half, rare], [4.0, 10.0]) == pytest.approx(
        10 * 0.1 + 0.9 * 0.5 * 4.0 + 0.9 * 0.5 * 1.0)
    # an option first seen late counts its share of the worlds since then
    late = Node(born=8)
    late.offered = 2
    assert expected_best(node, [late, always], [5.0, 0.0]) == pytest.approx(5.0)


def test_backup_offered_values_a_choice_by_what_each_world_offered():
    agent = ISMCTSAgent(1, backup="offered")
    search = Search(agent, 2)
    parent, root = Node(), Node()
    # a blind draw, then a choice among the cards in hand: a poor card in every world,
    # a good one drawn in one world of four
    for world in range(4):
        keys = ["0|card|c:poor"] + (["0|card|c:good"] if world == 0 else [])
        pick = search.select(parent, keys, "0|action|draw")
        child = parent.children[keys[pick]]
        reward = 8.0 if keys[pick].endswith("good") else 0.0
        search.backup([(0, root, "0|action|draw"), (0, parent, "0|action|draw"),
                       (0, child, f"0|action|draw>{keys[pick]}")], [reward, -reward])
    assert parent.asked == 4 and parent.children["0|card|c:good"].offered == 1
    assert parent.value == pytest.approx(8.0 * 0.25)  # the good card a quarter of the time
    agent.backup = "max"
    search.backup([(0, root, "0|action|draw"), (0, parent, "0|action|draw"),
                   (0, parent.children["0|card|c:poor"], "x")], [0.0, 0.0])
    assert parent.value == pytest.approx(8.0)  # max: as if it were always drawn


def test_the_spec_takes_free_and_backup_and_checks_them():
    agent = make_agent("ismcts:free=extra:backup=offered", 1)
    assert (agent.free, agent.backup) == ("extra", "offered")
    plain = make_agent("ismcts", 1)
    assert (plain.free, plain.backup) == (None, None)  # the weights file's, else count, max
    with pytest.raises(SpecError, match="free is one of count, extra"):
        make_agent("ismcts:free=some", 1)
    with pytest.raises(SpecError, match="backup"):
        make_agent("ismcts:backup=min", 1)


def _settings_played(rs, spec: str) -> tuple:
    """(free, backup) the agent of ``spec`` searches with, once it has made a decision."""
    agent = agent_after_one_decision(rs, spec)
    return agent.free, agent.backup


def test_the_weights_file_gives_ismcts_its_horizon_and_backup(tmp_path):
    rs = ruleset_with_search(tmp_path, {"free": "extra", "backup": "offered"})
    assert _settings_played(rs, "ismcts") == ("extra", "offered")
    assert _settings_played(rs, "ismcts:free=count:backup=max") == ("count", "max")
    assert _settings_played(rs, "ismcts:eval=written") == ("count", "max")
    plain = ruleset_with_search(tmp_path / "plain")
    assert _settings_played(plain, "ismcts") == ("count", "max")


def test_the_file_fields_are_checked_and_given_in_the_command(tmp_path):
    rs = ruleset_with_search(tmp_path, {"shrink": 3, "free": "extra", "backup": "offered"})
    data = read_learned(rs.root / "learned.json", rs).data
    assert train_command(data).endswith("--shrink 3 --search free=extra --search backup=offered")
    bad = ruleset_with_search(tmp_path / "bad", {"free": "some"})
    with pytest.raises(RulebookError, match="free"):
        read_learned(bad.root / "learned.json", bad)


def test_train_with_search_writes_the_same_weights_and_the_settings(tmp_path, capsys):
    from rulebook_games.cli import main
    folder = copy_ruleset(tmp_path)

    def train(*words) -> bytes:
        out = tmp_path / "w.json"
        with pytest.raises(SystemExit) as info:
            main(["train", str(folder), *words, "--out", str(out)])
        assert info.value.code == 0, capsys.readouterr().err
        return out.read_bytes()
    plain = json.loads(train("-n", "4", "--seed", "5"))
    searched = train("-n", "4", "--seed", "5", "--search", "backup=offered", "--search",
                     "free=extra")
    data = json.loads(searched)
    assert data.pop("search") == {"backup": "offered", "free": "extra"}
    assert data == plain
    words = shlex.split(train_command(json.loads(searched)))
    assert train(*words[3:]) == searched
    with pytest.raises(SystemExit) as info:
        main(["train", str(folder), "--search", "depth=3", "--out", str(tmp_path / "x.json")])
    assert info.value.code == 2
    assert "give SETTING=VALUE, the setting one of free, backup, turn_end" in \
        capsys.readouterr().err


class _ThenAgent(Replay):
    """The record's answers, then ``agent`` for ``seat``'s turn; stops when the other
    seat is asked."""

    def __init__(self, answers, agent, seat):
        super().__init__(answers)
        self.agent, self.seat = agent, seat

    def decide(self, decision, view, game):
        if self.answers:
            return self.answers.pop(0)
        if decision.player != self.seat:
            raise Stop(decision, game)
        return self.agent.decide(decision, view, game)


def test_the_default_agent_takes_coins_to_buy_and_hang_the_big_lantern():
    """The keen player's game 1, hour 4: the agent (seat 2) has 4 coins, an empty hand and
    a Festival Arch in its stall (2 points a colour), and Willow Spirit (6 coins, 5
    points, jade, a colour its stall lacks) lies in the row. Taking 2 coins, buying it
    and hanging it is a 5-point lantern and a colour for the Arch; the agent bought a
    Bamboo Cage instead and the keen player took Willow Spirit next hour. With Lantern
    Row's shipped weights file, the default agent hangs Willow Spirit in that turn in
    at least five of six searches (agent seeds 1-6; before the file's search settings,
    in none)."""
    rs = load_ruleset("lantern_row")
    hung = []
    for agent_seed in range(1, 7):
        player = _ThenAgent(KEEN_4101, make_agent("ismcts", agent_seed), 1)
        game = new_game(rs, 2, 4101, [player, player], (), ["Player 1", "Player 2"])
        with pytest.raises(Stop) as stop:
            FlowRunner(game).play()
        st = stop.value.args[1].state
        hung.append("willow_spirit" in [st.cards[c].def_id for c in st.zones[("stall", 1)]])
    assert sum(hung) >= 5, hung


@pytest.mark.parametrize("turn_end, past", [("past", True), ("stop", False)])
def test_turn_end_stop_keeps_the_copies_within_the_real_turn(turn_end, past):
    """The rules: a turn of two actions, and a hang besides. At the turn's second action
    (its own first answered by the same agent, so it knows), a copy with
    ``turn_end=stop`` takes the chosen action and then free actions only; with ``past``
    a further main action stands for the seat's next turn."""
    rs = load_ruleset("lantern_row")
    agent = ISMCTSAgent(1, free="extra", backup="max", turn_end=turn_end, eval="written")
    roots = []
    search = agent.search

    def keep(game, decision, inside=None):
        root = search(game, decision, inside)
        taken = agent.turn_taken[1] if agent.turn_taken[0] == game.state.turn_number else 0
        if inside is None and taken == 1:
            roots.append(root)  # the search at the turn's second action
        return root
    agent.search = keep
    player = _ThenAgent([], agent, 0)
    game = new_game(rs, 2, 4102, [player, player], (), ["Player 1", "Player 2"])
    with pytest.raises(Stop):
        FlowRunner(game).play()
    assert agent.turn_taken[1] == 2  # the turn's two actions, both answered by the agent
    main = {"action:collect", "action:scout"}
    assert roots
    second = [c for c in _chains(roots[0]) if c[0] in main or c[0].startswith("action:buy")]
    assert second
    later = [c for c in second if any(k in main or k.startswith("action:buy") for k in c[1:])]
    assert bool(later) == past
