"""Issue 29, step 4: a learning environment worth training on.

An action id means the same thing in every decision (a card, a space, an
action, a number, pass), and the table of ids is in words; the mask never
marks an answer the game would refuse; no episode runs for ever
(``max_cycles``); ``state()`` is every seat's view; built-in agents can be
seated as opponents, and the learner then sees only its own seats;
observations lie in documented bounds; the documented example ends on every
ruleset.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402

from rulebook_games import load_ruleset  # noqa: E402
from rulebook_games.agents import agent_seed  # noqa: E402
from rulebook_games.agents.base import RandomAgent  # noqa: E402
from rulebook_games.engine import flow  # noqa: E402
from rulebook_games.engine.state import CardRef  # noqa: E402
from rulebook_games.env import rulebook_env  # noqa: E402
from rulebook_games.paths import shipped_rulesets  # noqa: E402
from rulebook_games.play.session import build_game, run  # noqa: E402

TINY = Path(__file__).parent / "fixtures" / "tiny"
GAMES = {"lantern_row": 4, "legacy_gears_of_time": 2, "timespan": 2, "terraforming_mars": 1}


def _refusals(monkeypatch) -> dict:
    """Count the actions the real game refuses while they run (not the copies' ones)."""
    seen = {"game": None, "refused": []}
    perform = flow.FlowRunner.perform

    def counted(self, pick, seat):
        done = perform(self, pick, seat)
        if not done and self.game is seen["game"]:
            seen["refused"].append(pick.key)
        return done
    monkeypatch.setattr(flow.FlowRunner, "perform", counted)
    return seen


def _gambling(tmp_path) -> str:
    """The tiny fixture with two actions the listed rules allow and the game may refuse:
    Gamble pays a number of gold from 0 to 9 (the player has 3), Splurge 10 to 12."""
    work = tmp_path / "gamble"
    shutil.copytree(TINY, work)
    flow_file = work / "flow.yaml"
    flow_file.write_text(flow_file.read_text().replace(
        "actions:\n  - id: earn\n",
        "actions:\n  - id: gamble\n    name: Gamble\n    do: pay choose_number(0, 9) gold\n"
        "  - id: splurge\n    name: Splurge\n    do: pay choose_number(10, 12) gold\n"
        "  - id: earn\n"))
    return str(work)


# ------------------------------------------------------------ the action table
@pytest.mark.parametrize("name", shipped_rulesets())
def test_an_action_id_names_the_same_thing_in_every_decision(name):
    env = rulebook_env(name, players=2, seed=2)
    table = env.table
    # the table is in words: no snake_case, no raw ids, no call syntax
    assert len(env.action_names) == env.action_space("player_1").n == table.size
    assert len(set(env.action_names)) == table.size  # each id told apart in words
    for words in env.action_names:
        assert words and "_" not in words and "==" not in words, words
        assert not re.search(r"\w\(", words), words  # no call syntax
    seen: dict[int, set] = {}
    rng = np.random.default_rng(1)
    env.reset()
    for agent in env.agent_iter(400):
        obs, _, done, cut, info = env.last()
        if done or cut:
            env.step(None)
            continue
        decision = env.stream.current
        for place, option in enumerate(info["options"]):
            i = option["id"]
            assert option["kind"] == table.kinds[i] and option["label"]
            if i >= table.fixed:
                continue  # the overflow range: a place, told in info
            value = None if decision.is_range else decision.options[place].value
            if isinstance(value, CardRef):  # a card is its card id, whichever copy (a
                # second copy offered beside the first: the id of the card's second copy)
                assert table.entries[i][:2] == ("card", env.game.state.cards[value].def_id)
            if decision.is_range:
                assert table.entries[i] == ("number", decision.low + place)
            seen.setdefault(i, set()).add(option["kind"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(len(kinds) == 1 for kinds in seen.values())
    env.close()


def test_cards_spaces_actions_numbers_and_pass_each_have_their_own_id():
    env = rulebook_env("terraforming_mars", players=2)
    kinds = set(env.table.kinds)
    assert {"card", "space", "action", "card action", "number", "pass", "end", "none",
            "done", "yes", "no", "player", "choice", "overflow"} <= kinds
    rs = load_ruleset("terraforming_mars")
    assert sum(k == "card" for k in env.table.kinds) == len(rs.cards)
    space = env.table.ids[("space", "area_03")]
    assert env.action_names[space] == "space 03"
    env.close()


# ------------------------------------------------------------ the mask
def test_the_mask_leaves_out_answers_the_game_would_refuse(tmp_path, monkeypatch):
    seen = _refusals(monkeypatch)
    env = rulebook_env(_gambling(tmp_path), players=1)
    env.reset()
    seen["game"] = env.game
    names = [env.action_names[i] for i in np.flatnonzero(env.observe("player_1")
                                                         ["action_mask"])]
    # Splurge can only be refused (3 gold, at least 10 to pay): not marked, though listed
    assert "Gamble" in names and "Splurge" not in names
    splurge = next(o for o in env.infos["player_1"]["options"] if o["label"] == "Splurge")
    assert splurge["legal"] is False
    env.step(env.table.ids[("action", "gamble")])
    names = [env.action_names[i] for i in np.flatnonzero(env.observe("player_1")
                                                         ["action_mask"])]
    assert names == [f"the number {k}" for k in range(4)]  # 4 to 9 gold: refused
    with pytest.raises(ValueError, match="not legal"):
        env.step(env.table.ids[("number", 5)])
    env.step(env.table.ids[("number", 3)])
    assert seen["refused"] == []
    env.close()


@pytest.mark.parametrize("name", shipped_rulesets())
def test_every_answer_the_mask_allows_is_taken_in_whole_random_games(name, monkeypatch):
    seen = _refusals(monkeypatch)
    env = rulebook_env(name, players=2, max_cycles=None)
    rng = np.random.default_rng(7)
    for seed in range(1, GAMES[name] + 1):
        env.reset(seed=seed)
        seen["game"] = env.game
        for agent in env.agent_iter():
            obs, _, done, cut, _ = env.last()
            env.step(None if done or cut else
                     int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.result is not None
    assert seen["refused"] == []
    env.close()


# ------------------------------------------------------------ truncation
def test_max_cycles_cuts_a_game_and_every_seat_steps_out():
    env = rulebook_env("terraforming_mars", players=2, max_cycles=30)
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, done, cut, info = env.last()
        if done or cut:
            assert cut and not done and reward == 0
            assert "max_cycles=30" in info["truncated"]
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 30 and env.agents == [] and env.result is None
    assert "cut after 30 steps" in env.render()
    env.reset(seed=2)  # and the next game plays
    assert env.agents == env.possible_agents
    env.close()


DOCS = Path(__file__).resolve().parents[1] / "docs" / "env.md"


@pytest.mark.parametrize("name", shipped_rulesets())
def test_the_documented_example_ends_on_every_ruleset(name):
    """docs/env.md's first example, as written there (a greedy opponent, max_cycles),
    run on each shipped ruleset in its place."""
    text = DOCS.read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    assert '"terraforming_mars"' in code and "max_cycles" in code and "opponents" in code
    space: dict = {}
    exec(code.replace('"terraforming_mars"', repr(name)), space)
    env = space["env"]
    assert env.agents == [] and (env.result is not None or env.cycles == env.max_cycles)
    env.close()


# ------------------------------------------------------------ state and bounds
def test_state_is_every_seats_observation_inside_the_state_space():
    env = rulebook_env("legacy_gears_of_time", players=3, seed=4)
    env.reset()
    rng = np.random.default_rng(2)
    for _ in range(40):
        state = env.state()
        assert env.state_space.contains(state)
        length = env.layout.length
        asked = env.agent_name_mapping[env.agent_selection]
        obs = env.observe(env.agent_selection)
        assert np.array_equal(state[asked * length:(asked + 1) * length], obs["observation"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    env.close()


def test_observations_are_normalised_between_minus_one_and_one_keeping_order():
    env = rulebook_env("terraforming_mars", players=2, seed=3)
    raw = rulebook_env("terraforming_mars", players=2, seed=3, normalise=False)
    space = env.observation_space("player_1")["observation"]
    assert space.low.min() == -1 and space.high.max() == 1
    env.reset()
    raw.reset()
    a = env.observe(env.agent_selection)["observation"]
    b = raw.observe(raw.agent_selection)["observation"]
    assert np.all(np.abs(a) <= 1) and np.array_equal(np.sign(a), np.sign(b))
    flags = [i for i, k in enumerate(env.layout.scales) if k == 0]
    assert flags and np.array_equal(a[flags], b[flags])  # one-hot numbers stay 0 and 1
    scales = np.asarray(env.layout.scales)
    some = [i for i in range(len(b)) if scales[i] and b[i]]
    assert some
    assert np.allclose(a[some], b[some] / (np.abs(b[some]) + scales[some]), atol=1e-6)
    env.close()
    raw.close()


# ------------------------------------------------------------ opponents
def test_seated_opponents_play_their_seats_and_the_learner_sees_only_its_own():
    env = rulebook_env("legacy_gears_of_time", players=3,
                       opponents={1: "greedy", "player_3": "random"})
    assert env.possible_agents == ["player_2"]
    rng = np.random.default_rng(0)
    env.reset(seed=5)
    asked = set()
    for agent in env.agent_iter():
        asked.add(agent)
        obs, reward, done, cut, _ = env.last()
        env.step(None if done or cut else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert asked == {"player_2"} and env.result is not None
    # the opponents answered in the game (its record holds every seat's answers), and
    # every step of the environment was one of the learner's
    assert set(env.game.deciders) == {0, 1, 2} and env.cycles == env.game.deciders.count(1)
    env.close()


def test_a_game_against_seated_agents_is_the_engines_game_with_those_agents():
    rs = load_ruleset("lantern_row")
    env = rulebook_env(rs, players=2, opponents={2: "random"})
    me = RandomAgent(agent_seed(9, 0))
    env.reset(seed=9)
    for agent in env.agent_iter():
        obs, _, done, cut, info = env.last()
        if done or cut:
            env.step(None)
            continue
        decision = env.stream.current
        answer = me.decide(decision, None, env.game)
        env.step(info["options"][answer - decision.low if decision.is_range
                                 else answer]["id"])
    game = build_game(rs, 2, 9, ["random", "random"])
    assert env.result.final_hash == run(game).final_hash
    env.close()


@pytest.mark.parametrize("opponents,message", [
    ({3: "greedy"}, "no player_3 in a game of 2"),
    ({1: "wizard"}, "opponents: player_1: "),
    ({1: "greedy", 2: "random"}, "nobody to play"),
    ({"seat 1": "greedy"}, "not a seat"),
    ({1: 5}, "is a spec"),
    (["greedy"], "opponents is a dict"),
])
def test_bad_opponents_are_one_line_naming_the_argument(opponents, message):
    with pytest.raises((TypeError, ValueError), match=re.escape(message)) as info:
        rulebook_env("lantern_row", players=2, opponents=opponents)
    assert "\n" not in str(info.value)


def test_pettingzoo_api_test_passes_with_an_opponent_seated():
    import warnings
    from pettingzoo.test import api_test
    env = rulebook_env("timespan", players=3, seed=3, opponents={2: "random"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (a dict observation: see test_env.py)
        api_test(env, num_cycles=12)
    env.close()


def test_the_training_example_runs_and_reports_an_interval(capsys):
    import importlib.util
    path = Path(__file__).resolve().parents[1] / "examples" / "env_train_policy.py"
    spec = importlib.util.spec_from_file_location("env_train_policy", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    assert example.wilson(374, 400) == pytest.approx((0.906, 0.955), abs=5e-4)
    assert example.main(["lantern_row", "--games", "6", "--eval", "4"]) == 0
    out = capsys.readouterr().out
    assert "trained policy against random: won" in out and "95 % interval" in out


def test_a_card_the_game_would_refuse_is_not_marked_in_a_real_game():
    """In Terraforming Mars, seed 17, the random agents pick Nitrophilic Moss with too
    few plants for it (the game refuses it once it runs: a simulation rolls it back).
    Played in the environment with the same answers, the mask leaves that card out,
    and marks the cards that can be played."""
    rs = load_ruleset("terraforming_mars")
    env = rulebook_env(rs, players=2, max_cycles=None)
    agents = [RandomAgent(agent_seed(17, s)) for s in range(2)]
    env.reset(seed=17)
    left_out = None
    for agent in env.agent_iter():
        obs, _, done, cut, info = env.last()
        if done or cut:
            break
        decision = env.stream.current
        answer = agents[decision.player].decide(decision, None, env.game)
        option = info["options"][answer - decision.low if decision.is_range else answer]
        if not option["legal"]:
            left_out = option
            break
        env.step(option["id"])
    assert left_out is not None and left_out["label"] == "Nitrophilic Moss"
    assert obs["action_mask"][left_out["id"]] == 0 and obs["action_mask"].sum() >= 1
    env.close()


def test_two_copies_of_a_card_offered_together_have_ids_of_their_own():
    """Lantern Row's row and hands often hold two copies of one lantern: the first is the
    card's id, the second the id of its second copy (never an overflow id)."""
    env = rulebook_env("lantern_row", players=2)
    rng = np.random.default_rng(3)
    seconds = 0
    for seed in range(1, 6):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, done, cut, info = env.last()
            if done or cut:
                env.step(None)
                continue
            kinds = [o["kind"] for o in info["options"]]
            assert "overflow" not in kinds
            names = [env.action_names[o["id"]] for o in info["options"]]
            for name in names:
                if name.endswith(", second copy"):
                    seconds += 1
                    assert name[:-len(", second copy")] in names
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seconds
    env.close()


@pytest.mark.parametrize("argument,error,message", [
    ({"actions": "ids"}, ValueError, "actions is 'fixed' or 'index', not 'ids'"),
    ({"mask": True}, TypeError, "mask is 'tried' or 'listed'"),
    ({"normalise": 1}, TypeError, "normalise is True or False"),
    ({"max_cycles": 0}, ValueError, "max_cycles is None (no limit) or a whole number"),
    ({"max_cycles": 2.5}, TypeError, "max_cycles is None (no limit) or a whole number"),
])
def test_the_new_arguments_are_checked_in_one_line(argument, error, message):
    with pytest.raises(error, match=re.escape(message)) as info:
        rulebook_env("lantern_row", players=2, **argument)
    assert "\n" not in str(info.value)
