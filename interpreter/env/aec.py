"""The PettingZoo AEC environment: one step per decision of the engine.

:class:`RulebookEnv` plays one game at a time on a
:class:`~rulebook_games.play.stream.DecisionStream`. The agent to act is the
seat the engine is asking; its action is an index into the decision's
options (see :mod:`.encoding`); its observation is a dict with the encoded view
(``observation``) and the legal answers (``action_mask``). Rewards come at
the end of the game, as ranks or score margins, and every seat then takes
one last step with ``None``, as PettingZoo's turn order expects. Every number
of an observation lies inside the declared observation space (it is clipped
to ``BOUND``). A call the environment cannot answer now (before the first
``reset``, once every seat has taken its last step, after ``close``) raises
:class:`~.errors.EnvStateError` saying what to call first. A decision with
more answers than the action space holds stops the game there with
:class:`~.errors.ActionSpaceTooSmall`, never offering only the answers that
fit; ``observe`` then shows where it stopped, with nothing in the mask. Importing this
module imports PettingZoo and NumPy: :func:`rulebook_games.env.rulebook_env`
does it only when asked.
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.keys import short_keys
from ..engine.state import MAX_SEED
from ..load import ruleset as _ruleset
from ..play.stream import DecisionStream
from . import arguments as args
from .encoding import Layout
from .errors import ActionSpaceTooSmall, EnvStateError, NoGameYet

BOUND = 1e9  # every number of an observation is clipped to ±BOUND (a float32 exactly)
# what each game sets up in reset(): read before the first one, a NoGameYet
PER_GAME = frozenset({"agents", "agent_selection", "rewards", "_cumulative_rewards",
                      "terminations", "truncations", "infos"})
GAME_OVER = ("the game is over and every seat has taken its last step: call reset() to "
             "play the next game")


def _load(ruleset, mods: tuple = ()):
    """A Ruleset from a name, a folder or a Ruleset (mods layered on)."""
    if isinstance(ruleset, _ruleset.Ruleset):
        return ruleset
    return _ruleset.load_ruleset(str(ruleset), list(mods))


class RulebookEnv(AECEnv):
    """A ruleset as a PettingZoo AEC environment (build it with ``rulebook_env``)."""

    metadata = {"render_modes": ["ansi"], "name": "rulebook_v0", "is_parallelizable": False}

    def __init__(self, ruleset, players: int = 2, seed: int = 1, variants: tuple = (),
                 mods: tuple = (), reward: str = "rank", max_options: int | None = None,
                 render_mode=None):
        super().__init__()
        # every argument is checked before anything is loaded or built (see .arguments)
        for name, value, allowed in (("reward", reward, ("rank", "score")),
                                     ("render_mode", render_mode, (None, "ansi"))):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{name} is {args.choices(allowed)}, not {value!r:.40}")
            if value not in allowed:
                raise ValueError(f"{name} is {args.choices(allowed)}, not {value!r:.40}")
        mods = args.names(mods, "mods", "mod files (paths)", path=True)
        args.ruleset(ruleset, mods)
        players = args.players(players)
        seed = args.seed(seed)
        max_options = args.max_options(max_options)
        chosen = args.names(variants, "variants", "variant ids")
        self.rs = _load(ruleset, mods)
        if not self.rs.min_players <= players <= self.rs.max_players:
            raise ValueError(f"{self.rs.name} is for {self.rs.min_players}–"
                             f"{self.rs.max_players} players, not players={players}")
        self.players = players
        self.variants = args.variants(chosen, self.rs.sections["variants"])
        self.reward_kind = reward
        self.render_mode = render_mode
        self.layout = Layout(self.rs, players, max_options)
        self.possible_agents = [f"player_{i + 1}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._next_seed = seed
        self.seed_played: int | None = None
        self.stream: DecisionStream | None = None
        self.result = None
        self._closed = False
        self._stopped: str | None = None  # why the game cannot go on (a decision too wide)

    def __getattr__(self, name):
        """Only for what normal lookup does not find: a game's attributes before a game."""
        if name in PER_GAME:
            raise NoGameYet(f"'{name}' belongs to a game, and there is none yet: call reset() "
                            "first")
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _playing(self, what: str, stopped_ok: bool = False) -> None:
        """Refuse ``what`` unless a game has been set up by reset() and not closed since
        (nor stopped at a decision too wide for the action space, unless ``stopped_ok``)."""
        if self._closed:
            raise EnvStateError(f"{what} needs a game, and the environment is closed: call "
                                "reset() to start a new one first")
        if self._stopped is not None and not stopped_ok:
            raise EnvStateError(f"{what} needs a game that can go on, and this one stopped: "
                                f"{self._stopped}")
        if self.stream is None:
            raise EnvStateError(f"{what} needs a game, and there is none yet: call reset() "
                                "first")

    # ------------------------------------------------------------ spaces
    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (self.layout.length,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.size,), np.int8),
        })

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return spaces.Discrete(self.layout.size)

    # ------------------------------------------------------------ the game
    def reset(self, seed=None, options=None):
        if seed is not None:
            self._next_seed = args.seed(seed)
        elif self._next_seed > MAX_SEED:
            raise ValueError(f"the next game's seed would be past {MAX_SEED}: give reset() "
                             "a seed")
        if self.stream is not None:
            self.stream.close()
        self._stopped = None
        self.seed_played = self._next_seed
        self._next_seed += 1
        self.result = None
        self._closed = False
        self.stream = DecisionStream(self.rs, self.players, self.seed_played, self.variants)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._after_answer()

    def step(self, action):
        self._playing("step()")
        if not self.agents:
            raise EnvStateError(GAME_OVER)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self.stream.current
        allowed = min(decision.count(), self.layout.size)
        try:
            index = int(action)
        except (TypeError, ValueError, OverflowError):
            index = None
        if index is None or isinstance(action, (bool, np.bool_)) or index != action:
            raise ValueError(f"{agent} answers with an action index from 0 to {allowed - 1} "
                             f"(see the action mask), not {action!r:.40}")
        if not 0 <= index < allowed:
            raise ValueError(f"action {index} is not legal for {agent} now: the mask allows "
                             f"0 to {allowed - 1}")
        self._cumulative_rewards[agent] = 0.0
        self.stream.answer(self.layout.answer(decision, index))
        self._after_answer()

    def _after_answer(self) -> None:
        """Point at the next seat to decide, or end the game and hand out the rewards."""
        self.rewards = {a: 0.0 for a in self.agents}
        if self.stream.over:
            self.result = self.stream.result
            for a, value in zip(self.possible_agents, self._final_rewards(self.result)):
                self.rewards[a] = value
                self.terminations[a] = True
                self.infos[a] = {"score": self.result.scores[self.agent_name_mapping[a]]}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        decision = self.stream.current
        self.agent_selection = self.possible_agents[decision.player]
        # the options' short keys, by action index: the same while an option exists
        self.infos = {a: {} for a in self.agents}
        self.infos[self.agent_selection] = {"keys": short_keys(self.stream.game, decision)}
        if decision.count() > self.layout.size:
            self._stopped = self._too_wide(decision)
            raise ActionSpaceTooSmall(self._stopped)

    def _too_wide(self, decision) -> str:
        """Why ``decision`` cannot be asked in this action space, and what would hold it."""
        count = decision.count()
        asked = " ".join(decision.prompt.split())
        asked = asked if len(asked) <= 80 else asked[:77] + "..."
        fix = (f"build the environment with max_options={count} or more" if
               count <= args.MAX_OPTIONS else f"no action space here holds that many (at most "
               f"max_options={args.MAX_OPTIONS:,})")
        return (f"{self.agent_selection} is asked '{asked}' with {count:,} answers, more than "
                f"the action space holds (max_options={self.layout.size}): {fix}; the game "
                "stops here rather than leave answers out (call reset() to play again)")

    def _final_rewards(self, result) -> list[float]:
        scores = list(result.scores)
        n = len(scores)
        if self.reward_kind == "score":
            if n == 1:
                return [float(scores[0])]
            return [float(s - (sum(scores) - s) / (n - 1)) for s in scores]
        if n == 1:
            return [1.0 if result.winners else -1.0]
        winners = set(result.winners)
        lowest = (self.rs.singles.get("end").data or {}).get("winner") == "lowest" \
            if "end" in self.rs.singles else False
        key = [(seat in winners, -s if lowest else s) for seat, s in enumerate(scores)]
        out = []
        for seat in range(n):
            better = sum(1 for k in key if k > key[seat])
            same = sum(1 for k in key if k == key[seat]) - 1
            rank = better + same / 2  # 0 for the best; ties share
            out.append(1.0 - 2.0 * rank / (n - 1))
        return out

    # ------------------------------------------------------------ observing
    def observe(self, agent):
        self._playing("observe()", stopped_ok=True)  # a stopped game shows where it stopped
        seat = self.agent_name_mapping.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise ValueError(f"there is no agent {agent!r:.40}: the agents are "
                             + ", ".join(self.possible_agents))
        decision = self.stream.current
        asked = decision if decision is not None and decision.player == seat else None
        view = self.stream.game.view(seat)
        numbers = np.asarray(self.layout.encode(view, asked), dtype=np.float64)
        np.clip(numbers, -BOUND, BOUND, out=numbers)  # inside the declared space, always
        return {"observation": numbers.astype(np.float32),
                "action_mask": np.asarray(self.layout.mask(
                    None if self._stopped is not None else asked), dtype=np.int8)}

    def last(self, observe: bool = True):
        self._playing("last()")
        if not self.agents:
            raise EnvStateError(GAME_OVER)
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2 ** 63):
        self._playing("agent_iter()")
        return super().agent_iter(max_iter)

    def render(self):
        """One line: who is asked what (``render_mode="ansi"`` returns it as text)."""
        if self.stream is None:
            return "closed" if self._closed else "no game yet"
        if self._stopped is not None:
            return "stopped: " + self._stopped
        if self.stream.over:
            return "game over: scores " + ", ".join(map(str, self.result.scores))
        d = self.stream.current
        return f"{self.agent_selection}: {d.prompt} ({d.count()} answers)"

    def close(self):
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        self._closed = True

    @property
    def game(self):
        """The engine's game being played (for records and analysis; agents use observe)."""
        return self.stream.game if self.stream is not None else None
