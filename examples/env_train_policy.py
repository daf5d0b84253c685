"""Train a small policy in the learning environment with NumPy alone, and measure it.

A linear softmax policy over the fixed action table: the score of action id
``a`` is ``W[a] · x``, where ``x`` is the seat's normalised observation with a
constant 1 appended, and the policy picks among the ids the mask allows with
probabilities in proportion to ``exp(score)``. It learns by REINFORCE: after
each game, every choice it made is made more likely in proportion to how much
better the game ended than usual (the final reward less a running average).
It plays against the random agent, seated in the environment as the opponent
(``opponents=``), half of its games in each seat.

Then it plays ``--eval`` games on seeds it never trained on, taking its most
likely answer each time, against random, seats alternating, and prints its
win rate with a 95 % Wilson interval, beside the random policy's on the same
games.

    python examples/env_train_policy.py [RULESET] [--games N] [--eval N] [--seed N]

Needs the environment extra: pip install 'rulebook-games[env]'.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

Z = 1.959964  # the 95 % normal quantile


def wilson(wins: int, n: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of a share wins / n."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class LinearPolicy:
    """Scores W[a] · [observation, 1] for each action id a; softmax over the legal ones."""

    def __init__(self, actions: int, length: int, rng: np.random.Generator):
        self.W = np.zeros((actions, length + 1))
        self.rng = rng

    def probabilities(self, observation: np.ndarray, legal: np.ndarray):
        x = np.append(observation, 1.0)
        scores = self.W[legal] @ x
        scores -= scores.max()
        p = np.exp(scores)
        return x, p / p.sum()

    def act(self, obs: dict, greedy: bool = False, memory: list | None = None) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        x, p = self.probabilities(obs["observation"], legal)
        k = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        if memory is not None:
            memory.append((x, legal, p, k))
        return int(legal[k])

    def learn(self, memory: list, advantage: float, rate: float) -> None:
        """REINFORCE: each choice's log-probability moved along ``advantage``."""
        for x, legal, p, k in memory:
            step = -p * advantage * rate
            step[k] += advantage * rate
            self.W[legal] += np.outer(step, x)


def play(env, seed: int, policy=None, greedy: bool = False, memory: list | None = None,
         rng: np.random.Generator | None = None) -> float:
    """One game of the environment's one learner seat: its final reward."""
    env.reset(seed=seed)
    final = 0.0
    for agent in env.agent_iter():
        obs, reward, done, cut, _ = env.last()
        if done or cut:
            final = reward
            env.step(None)
        elif policy is None:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        else:
            env.step(policy.act(obs, greedy, memory))
    return final


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ruleset", nargs="?", default="lantern_row")
    parser.add_argument("--games", type=int, default=3000, help="training games")
    parser.add_argument("--eval", type=int, default=400, help="games measured after training")
    parser.add_argument("--rate", type=float, default=0.02, help="learning rate")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    from rulebook_games.env import MissingExtra, rulebook_env
    try:
        # the learner in seat 1 against random in seat 2, and the other way round
        envs = [rulebook_env(args.ruleset, players=2, opponents={2: "random"}),
                rulebook_env(args.ruleset, players=2, opponents={1: "random"})]
    except MissingExtra as exc:
        print(exc, file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    policy = LinearPolicy(envs[0].action_space("player_1").n, envs[0].layout.length, rng)
    start = time.process_time()
    baseline, recent = 0.0, []
    for game in range(args.games):
        memory: list = []
        reward = play(envs[game % 2], 1_000_000 + args.seed * 100_000 + game, policy,
                      memory=memory)
        policy.learn(memory, reward - baseline, args.rate)
        baseline += 0.01 * (reward - baseline)
        recent.append(reward)
        if (game + 1) % 500 == 0:
            print(f"  {game + 1} games: mean reward of the last 500 "
                  f"{np.mean(recent[-500:]):+.2f}", flush=True)
    trained = time.process_time() - start
    print(f"trained on {args.games} games of {args.ruleset} in {trained:.0f} CPU-s")
    for name, who in (("trained policy", policy), ("random policy", None)):
        wins = ties = 0
        for game in range(args.eval):  # seeds never trained on, seats alternating
            reward = play(envs[game % 2], game + 1, who, greedy=True, rng=rng)
            wins += reward == 1.0
            ties += reward == 0.0
        low, high = wilson(wins, args.eval)
        print(f"  {name} against random: won {wins} of {args.eval} "
              f"({100 * wins / args.eval:.1f} %, 95 % interval {100 * low:.1f}–"
              f"{100 * high:.1f} %), {ties} tied")
    for env in envs:
        env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
