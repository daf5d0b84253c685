"""The learning environment: PettingZoo's own API test, the engine's game, nothing hidden.

Every shipped ruleset passes ``pettingzoo.test.api_test`` at its smallest and
largest player count. Answering the environment with the random agent's
answers plays exactly the game the engine plays with random agents (same
final hash), so each step is one of the engine's decisions; the seed makes
it repeat; the observation of a state and of a twin the seat cannot tell
from it (interpreter/engine/infosets.py) are the same numbers, while what
the seat does see shows in them; the rewards follow the final scores.
"""

from __future__ import annotations

import random
import subprocess
import sys
import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from rulebook_games import load_ruleset  # noqa: E402
from rulebook_games.agents.base import RandomAgent  # noqa: E402
from rulebook_games.agents import agent_seed  # noqa: E402
from rulebook_games.engine.infosets import twin  # noqa: E402
from rulebook_games.play.session import build_game, run  # noqa: E402
from rulebook_games.env import HINT, ActionSpaceTooSmall, MissingExtra, rulebook_env  # noqa: E402
from rulebook_games.paths import shipped_rulesets  # noqa: E402


def _counts(name):
    rs = load_ruleset(name)
    return sorted({rs.min_players, rs.max_players})


CASES = [(name, n) for name in shipped_rulesets() for n in _counts(name)]
IDS = [f"{g}-{n}p" for g, n in CASES]


@pytest.mark.parametrize("name,players", CASES, ids=IDS)
def test_pettingzoo_api_test_passes(name, players):
    env = rulebook_env(name, players=players, seed=3)
    with warnings.catch_warnings():
        # a dict of observation and action mask is PettingZoo's own convention for
        # masked actions; its checker warns about any dict
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=12)
    env.close()


@pytest.mark.parametrize("name", shipped_rulesets())
def test_pettingzoo_api_test_passes_against_a_seated_agent_with_the_learned_evaluation(name):
    """The built-in agents seated as opponents play with the evaluation learned from the
    ruleset's games (docs/agents.md): the environment still passes PettingZoo's test."""
    from rulebook_games.agents.learned import learned_value
    assert learned_value(load_ruleset(name)) is not None  # (every shipped ruleset has one)
    env = rulebook_env(name, players=2, seed=3,
                       opponents={2: "greedy:rollouts=1:first_choices=2:eval=learned"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=12)
    env.close()


def _action_id(info, decision, answer) -> int:
    """The action id of the engine's answer (an option's place, or a number)."""
    return info["options"][answer - decision.low if decision.is_range else answer]["id"]


def _play_random(env, seed: int, limit: int = 100_000, final: dict | None = None):
    """Answer every step as the engine's random agent of that seat would."""
    agents = [RandomAgent(agent_seed(seed, s)) for s in range(env.players)]
    env.reset(seed=seed)
    steps = 0
    for name in env.agent_iter(limit):
        obs, reward, done, cut, info = env.last()
        if done or cut:
            if final is not None:
                final[name] = reward
            env.step(None)
            continue
        decision = env.stream.current
        answer = agents[decision.player].decide(decision, None, env.game)
        index = _action_id(info, decision, answer)
        assert obs["action_mask"][index] == 1
        env.step(index)
        steps += 1
    return steps


@pytest.mark.parametrize("name,players", [("legacy_gears_of_time", 3),
                                          ("terraforming_mars", 1), ("timespan", 2)])
def test_each_step_is_a_decision_of_the_engine_and_the_game_is_its_game(name, players):
    rs = load_ruleset(name)
    env = rulebook_env(rs, players=players)
    steps = _play_random(env, seed=11)
    game = build_game(rs, players, 11, ["random"] * players)
    result = run(game)
    assert env.result.final_hash == result.final_hash
    assert steps == len(game.record) == len(env.game.record)
    assert [env.infos.get(a, {}).get("score") for a in env.possible_agents] in (
        [None] * players, result.scores)  # (agents are gone once their last step is taken)
    env.close()


def test_the_seed_makes_it_repeat_and_another_seed_does_not():
    env = rulebook_env("legacy_gears_of_time", players=2)
    _play_random(env, seed=5)
    first = (list(env.game.record), env.result.final_hash)
    _play_random(env, seed=5)
    assert (list(env.game.record), env.result.final_hash) == first
    _play_random(env, seed=6)
    assert env.result.final_hash != first[1]
    env.close()


def test_a_reset_without_a_seed_plays_the_next_game():
    env = rulebook_env("legacy_gears_of_time", players=2, seed=20)
    env.reset()
    env.reset()
    assert env.seed_played == 21
    env.reset(seed=4)
    assert env.seed_played == 4
    env.close()


@pytest.mark.parametrize("name,players", [("legacy_gears_of_time", 2),
                                          ("terraforming_mars", 3), ("timespan", 3)])
def test_an_observation_holds_nothing_the_seat_cannot_see(name, players):
    env = rulebook_env(name, players=players, seed=8)
    env.reset()
    rng = random.Random(1)
    checked = moved_total = changed = 0
    before = None
    for _ in range(60):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        seat = env.agent_name_mapping[agent]
        obs = env.observe(agent)["observation"]
        other, moved = twin(env.game, seat, rng)
        again = env.layout.normalise(env.layout.encode(other.view(seat), env.stream.current))
        assert np.array_equal(obs, np.asarray(again, dtype=np.float32))
        checked += 1
        moved_total += moved
        changed += before is not None and not np.array_equal(before, obs)
        before = obs
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked >= 20 and moved_total * 2 >= checked
    assert changed * 2 >= checked  # and what the seat does see shows
    env.close()


def test_the_observation_shows_the_seats_own_cards_and_only_counts_of_others():
    env = rulebook_env("legacy_gears_of_time", players=2, seed=2, normalise=False)
    env.reset()
    names = env.layout.describe()
    assert len(names) == env.layout.length == env.observation_space("player_1")[
        "observation"].shape[0]
    own = [i for i, x in enumerate(names) if x.startswith("seat+0:hand:card:")]
    theirs = [i for i, x in enumerate(names) if x.startswith("seat+1:hand:card:")]
    count = names.index("seat+1:hand:count")
    seat = env.agent_name_mapping[env.agent_selection]
    obs = env.observe(env.agent_selection)["observation"]
    view = env.game.view(seat)
    assert own and not theirs  # the layout has no place for another seat's hand
    assert obs[own].sum() == len(view["zones"][f"hand@{seat + 1}"])
    assert obs[count] == view["zones"][f"hand@{(seat + 1) % 2 + 1}"]["count"]
    env.close()


def test_rank_and_score_rewards_follow_the_final_scores():
    for kind in ("rank", "score"):
        env = rulebook_env("legacy_gears_of_time", players=3, reward=kind)
        got: dict = {}
        _play_random(env, seed=9, final=got)
        scores = env.result.scores
        rewards = [got[a] for a in env.possible_agents]
        if kind == "score":
            assert rewards == [s - (sum(scores) - s) / 2 for s in scores]
        else:
            assert all(rewards[s] == 1.0 for s in env.result.winners)
            assert all(-1 <= r <= 1 for r in rewards)
            for s in range(3):
                for t in range(3):
                    if scores[s] > scores[t] and t not in env.result.winners:
                        assert rewards[s] > rewards[t]
        env.close()


@pytest.mark.parametrize("seed", [2, 3])
def test_solo_rank_reward_is_the_win_or_the_loss(seed):
    env = rulebook_env("timespan", players=1)
    got: dict = {}
    _play_random(env, seed=seed, final=got)
    assert got["player_1"] == (1.0 if env.result.winners else -1.0)
    env.close()


def test_an_illegal_action_and_bad_options_are_refused_in_one_line():
    env = rulebook_env("legacy_gears_of_time", players=2)
    env.reset()
    with pytest.raises(ValueError, match="not legal"):
        env.step(env.layout.size - 1)
    with pytest.raises(ValueError, match="reward is 'rank' or 'score'"):
        rulebook_env("legacy_gears_of_time", reward="points")
    with pytest.raises(ValueError, match="players"):
        rulebook_env("legacy_gears_of_time", players=9)
    env.close()


def test_closing_mid_game_ends_the_games_thread():
    env = rulebook_env("terraforming_mars", players=2)
    env.reset()
    thread = env.stream._thread
    assert thread.is_alive()
    env.close()
    assert not thread.is_alive()


def test_a_missing_extra_is_one_line_naming_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(MissingExtra) as info:
        rulebook_env("legacy_gears_of_time")
    assert str(info.value) == HINT and "rulebook-games[env]" in HINT


def test_importing_the_package_and_the_cli_imports_no_extra():
    code = ("import sys, rulebook_games.env, rulebook_games.cli; "
            "print(any(m in sys.modules for m in ('pettingzoo', 'numpy', 'gymnasium')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_the_example_evaluates_its_policies(capsys):
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "examples" / "env_random_policy.py"
    spec = importlib.util.spec_from_file_location("env_random_policy", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    assert example.main(["legacy_gears_of_time", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "first legal answer: won" in out and "random legal answer: won" in out


# ------------------------------------------------- states and bounds (issue 24, item 10)
def _finish(env, seed: int = 1) -> None:
    """Play a game to its end with the first legal answers, every seat stepping out."""
    env.reset(seed=seed)
    for _ in env.agent_iter():
        obs, _, done, cut, _ = env.last()
        env.step(None if done or cut else int(np.flatnonzero(obs["action_mask"])[0]))


def test_before_reset_every_call_says_to_call_reset_first():
    from rulebook_games.env import EnvStateError
    env = rulebook_env("lantern_row", players=2)
    for call in (lambda: env.step(0), lambda: env.observe("player_1"), env.last,
                 env.agent_iter):
        with pytest.raises(EnvStateError, match=r"there is none yet: call reset\(\) first"):
            call()
    for name in ("agents", "agent_selection", "rewards", "terminations"):
        with pytest.raises(EnvStateError, match=rf"'{name}' .*call reset\(\) first"):
            getattr(env, name)
    assert not hasattr(env, "agent_selection")  # (an AttributeError too, for hasattr)
    assert env.render() == "no game yet" and env.game is None
    env.reset()  # and then it plays
    assert env.agent_selection in env.possible_agents
    env.close()


def test_after_the_end_a_step_says_to_reset_and_the_final_position_can_be_observed():
    from rulebook_games.env import EnvStateError
    env = rulebook_env("lantern_row", players=2)
    _finish(env)
    assert env.agents == [] and env.result is not None
    for call in (lambda: env.step(0), lambda: env.step(None), env.last):
        with pytest.raises(EnvStateError, match=r"the game is over.*call reset\(\)"):
            call()
    final = env.observe("player_2")
    assert env.observation_space("player_2").contains(final)
    assert not final["action_mask"].any()  # nobody is asked anything
    assert list(env.agent_iter()) == []  # PettingZoo's way: nothing left to iterate
    env.close()


def test_after_close_every_call_says_to_reset_and_reset_plays_again():
    from rulebook_games.env import EnvStateError
    env = rulebook_env("lantern_row", players=2)
    env.reset()
    env.close()
    for call in (lambda: env.step(0), lambda: env.observe("player_1"), env.last,
                 env.agent_iter):
        with pytest.raises(EnvStateError, match=r"environment is closed: call reset\(\)"):
            call()
    assert env.render() == "closed"
    env.close()  # closing twice is harmless
    _finish(env, seed=2)
    assert env.result is not None
    env.close()


def test_bad_agents_and_actions_are_refused_in_one_line():
    env = rulebook_env("lantern_row", players=2)
    env.reset()
    with pytest.raises(ValueError, match="no agent 'player_9': the agents are player_1"):
        env.observe("player_9")
    for bad in (None, "1", 1.5, True):
        with pytest.raises(ValueError, match=r"answers with an action id from 0 to"):
            env.step(bad)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(np.int64(legal[0]))  # a NumPy integer is an id like any other
    env.close()


@pytest.mark.parametrize("name,players", CASES, ids=IDS)
def test_every_observation_of_a_random_game_is_inside_the_space(name, players):
    env = rulebook_env(name, players=players, seed=4)
    agents = [RandomAgent(agent_seed(4, s)) for s in range(players)]
    env.reset()
    space = env.observation_space(env.possible_agents[0])
    observed = 0
    for agent in env.agent_iter():
        obs, _, done, cut, info = env.last()
        assert space.contains(obs), (agent, observed)
        observed += 1
        if done or cut:
            env.step(None)
            continue
        decision = env.stream.current
        answer = agents[decision.player].decide(decision, None, env.game)
        env.step(_action_id(info, decision, answer))
    assert env.result is not None and observed > players
    env.close()


def test_numbers_past_the_bound_are_clipped_inside_the_space(tmp_path):
    import shutil
    from pathlib import Path
    work = tmp_path / "t"
    shutil.copytree(Path(__file__).parent / "fixtures" / "tiny", work)
    flow = work / "flow.yaml"
    flow.write_text(flow.read_text().replace(
        "actions:\n  - id: earn\n",
        "actions:\n  - id: hoard\n    name: Hoard\n    do: gain 5000000000 gold\n"
        "  - id: reach\n    name: Reach\n    do: gain choose_number(0, 1000000000000) gold\n"
        "  - id: earn\n"))
    env = rulebook_env(str(work), players=1, actions="index", normalise=False)
    env.reset()
    space = env.observation_space("player_1")
    names = env.layout.describe()
    env.step(0)  # hoard: 5,000,000,003 gold
    obs = env.observe("player_1")
    assert obs["observation"][names.index("seat+0:stock:gold")] == 1e9
    assert space.contains(obs)
    # reach: a range of 10^12 + 1 numbers, more than any action space holds: the game
    # stops there (it never offers the first numbers alone), and shows where it stopped
    with pytest.raises(ActionSpaceTooSmall, match="1,000,000,000,001 answers"):
        env.step(1)
    obs = env.observe("player_1")
    assert not obs["action_mask"].any()
    assert obs["observation"][names.index("decision:options")] == 1e9
    assert obs["observation"][names.index("decision:high")] == 1e9
    assert space.contains(obs)
    env.close()
