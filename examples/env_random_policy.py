"""Evaluate two trivial policies in the learning environment, and print their win rates.

Seat 1 plays the policy, the other seats answer at random; each policy plays
the same seeded games. A policy sees only what PettingZoo gives it: the
observation of its seat and the mask of legal answers.

    python examples/env_random_policy.py [RULESET] [--players N] [--games N]

Needs the environment extra: pip install 'rulebook-games[env]'.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


def first_legal(observation, rng):
    return int(np.flatnonzero(observation["action_mask"])[0])


def random_legal(observation, rng):
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def evaluate(env, policy, games: int, seed: int) -> tuple[int, float]:
    """Games won by seat 1 (solo: games won), and its mean final reward."""
    rng = np.random.default_rng(seed)
    others = np.random.default_rng(seed + 1)
    wins, total = 0, 0.0
    for game in range(games):
        env.reset(seed=seed + game)
        for agent in env.agent_iter():
            observation, reward, done, cut, info = env.last()
            if done or cut:
                if agent == "player_1":
                    total += reward
                    wins += reward == 1.0
                env.step(None)
            elif agent == "player_1":
                env.step(policy(observation, rng))
            else:
                env.step(random_legal(observation, others))
    return wins, total / games


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ruleset", nargs="?", default="legacy_gears_of_time")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    from rulebook_games.env import MissingExtra, rulebook_env
    try:
        env = rulebook_env(args.ruleset, players=args.players, reward="rank")
    except MissingExtra as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"{args.ruleset}, {args.players} player{'s' if args.players != 1 else ''}, "
          f"{args.games} games; observations of "
          f"{env.layout.length} numbers, {env.layout.size} actions")
    for name, policy in (("first legal answer", first_legal), ("random legal answer",
                                                                random_legal)):
        wins, mean = evaluate(env, policy, args.games, args.seed)
        print(f"  seat 1 plays {name}: won {wins} of {args.games} "
              f"({100 * wins / args.games:.0f}%), mean reward {mean:+.2f}")
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
