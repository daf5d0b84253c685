"""The PettingZoo AEC environment: one step per decision of the engine.

:class:`RulebookEnv` plays one game at a time on a
:class:`~rulebook_games.play.stream.DecisionStream`. The agent to act is the
seat the engine is asking; its action is an id of the ruleset's fixed action
table (:mod:`.actions`; or, with ``actions="index"``, an index into the
decision's options); its observation is a dict with the encoded view
(``observation``, normalised unless asked not to: see :mod:`.encoding`) and the
answers the game would not refuse (``action_mask``, :mod:`.legal`). Seats
given to built-in agents (``opponents``) are played by them, on the game's
own thread: they are not agents of the environment. ``max_cycles`` truncates
a game that runs too long; ``state()`` is every seat's view at once. Rewards come at
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

from ..agents.registry import agent_seed, make_agent
from ..engine.keys import short_keys
from ..engine.state import MAX_SEED
from ..load import ruleset as _ruleset
from ..play.stream import DecisionStream
from . import arguments as args
from .actions import ActionTable
from .encoding import Layout
from .legal import Trials
from .errors import ActionSpaceTooSmall, EnvStateError, NoGameYet

BOUND = 1e9  # every number of a raw observation is clipped to ±BOUND (a float32 exactly)
MAX_CYCLES = 10_000  # steps of the environment in one game, by default, before it is cut
OVERFLOW = 64  # the fixed action table's overflow range, by default
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

    metadata = {"render_modes": ["ansi"], "name": "rulebook_v1", "is_parallelizable": False}

    def __init__(self, ruleset, players: int = 2, seed: int = 1, variants: tuple = (),
                 mods: tuple = (), reward: str = "rank", max_options: int | None = None,
                 render_mode=None, actions: str = "fixed", opponents=None,
                 max_cycles: int | None = MAX_CYCLES, normalise: bool = True,
                 mask: str = "tried"):
        super().__init__()
        # every argument is checked before anything is loaded or built (see .arguments)
        for name, value, allowed in (("reward", reward, ("rank", "score")),
                                     ("render_mode", render_mode, (None, "ansi")),
                                     ("actions", actions, ("fixed", "index")),
                                     ("mask", mask, ("tried", "listed"))):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{name} is {args.choices(allowed)}, not {value!r:.40}")
            if value not in allowed:
                raise ValueError(f"{name} is {args.choices(allowed)}, not {value!r:.40}")
        if not isinstance(normalise, bool):
            raise TypeError(f"normalise is True or False, not {normalise!r:.40}")
        mods = args.names(mods, "mods", "mod files (paths)", path=True)
        args.ruleset(ruleset, mods)
        players = args.players(players)
        seed = args.seed(seed)
        max_options = args.max_options(max_options)
        max_cycles = args.max_cycles(max_cycles)
        chosen = args.names(variants, "variants", "variant ids")
        wanted = args.opponents(opponents)
        self.rs = _load(ruleset, mods)
        if not self.rs.min_players <= players <= self.rs.max_players:
            raise ValueError(f"{self.rs.name} is for {self.rs.players_words}, "
                             f"not players={players}")
        self.players = players
        self.opponents = args.seats(wanted, players)
        for seat, spec in self.opponents.items():  # a bad spec is told now, not mid-game
            try:
                make_agent(spec, 0)
            except ValueError as exc:
                raise ValueError(f"opponents: player_{seat + 1}: {exc}") from None
        self.variants = args.variants(chosen, self.rs.sections["variants"])
        self.reward_kind = reward
        self.render_mode = render_mode
        self.action_mode = actions
        self.mask_kind = mask
        self.normalised = normalise
        self.max_cycles = max_cycles
        if actions == "fixed":
            self.table = ActionTable(self.rs, players, OVERFLOW if max_options is None
                                     else max_options)
            self.layout = Layout(self.rs, players, self.table.size)
        else:
            self.table = None
            self.layout = Layout(self.rs, players, max_options)
        self.action_names = self.table.describe() if self.table is not None else \
            [f"answer {i + 1} of the decision" for i in range(self.layout.size)]
        self.possible_agents = [f"player_{i + 1}" for i in range(players)
                                if i not in self.opponents]
        if not self.possible_agents:
            raise ValueError("opponents: every seat is given to an agent, and the "
                             "environment would have nobody to play: leave a seat out")
        self.agent_name_mapping = {f"player_{i + 1}": i for i in range(players)
                                   if i not in self.opponents}
        bound = 1.0 if normalise else BOUND
        self.state_space = spaces.Box(-bound, bound, (self.layout.length * players,),
                                      np.float32)
        self._next_seed = seed
        self.seed_played: int | None = None
        self.stream: DecisionStream | None = None
        self.result = None
        self.cycles = 0
        self._cut = False  # the game was cut at max_cycles
        self._closed = False
        self._stopped: str | None = None  # why the game cannot go on (a decision too wide)
        self._answers: tuple | None = None  # (decision, ids, verdicts) of the decision asked

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
        bound = 1.0 if self.normalised else BOUND
        return spaces.Dict({
            "observation": spaces.Box(-bound, bound, (self.layout.length,), np.float32),
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
        self._answers = None
        self.seed_played = self._next_seed
        self._next_seed += 1
        self.result = None
        self.cycles = 0
        self._cut = False
        self._closed = False
        kinds = ["env"] * self.players
        seated = {}
        told = [None] * self.players
        for seat, spec in self.opponents.items():
            kinds[seat] = spec
            seated[seat] = told[seat] = make_agent(spec, agent_seed(self.seed_played, seat))
        self.stream = DecisionStream(self.rs, self.players, self.seed_played, self.variants,
                                     kinds=kinds, told=told, seated=seated)
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
        try:
            index = int(action)
        except (TypeError, ValueError, OverflowError):
            index = None
        if index is None or isinstance(action, (bool, np.bool_)) or index != action:
            raise ValueError(f"{agent} answers with an action id from 0 to "
                             f"{self.layout.size - 1} that the action mask allows, not "
                             f"{action!r:.40}")
        answer = self._answer_of(decision, index)
        if answer is None:
            raise ValueError(f"action {index} is not legal for {agent} now: see the action "
                             "mask")
        self._cumulative_rewards[agent] = 0.0
        self.cycles += 1
        self.stream.answer(answer)
        self._after_answer()

    def _answer_of(self, decision, index: int):
        """The engine's answer for an action (None: the mask does not allow it)."""
        _, ids, legal = self._answers
        if not 0 <= index < self.layout.size:
            return None
        if ids is None:  # an index into the decision's answers
            place = index
        else:
            place = ids.index(index) if index in ids else None
        if place is None or place >= len(legal) or not legal[place]:
            return None
        return decision.low + place if decision.is_range else place

    def _after_answer(self) -> None:
        """Point at the next seat to decide, or end the game and hand out the rewards."""
        self.rewards = {a: 0.0 for a in self.agents}
        self._answers = None
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
        self.agent_selection = f"player_{decision.player + 1}"
        self.infos = {a: {} for a in self.agents}
        if self.max_cycles is not None and self.cycles >= self.max_cycles:
            self._truncate()
            return
        too_wide = self._too_wide(decision)
        if too_wide is not None:
            self._stopped = too_wide
            raise ActionSpaceTooSmall(self._stopped)
        self._answers = self._legal(decision)
        self.infos[self.agent_selection] = self._options(decision)

    def _truncate(self) -> None:
        """The game ran ``max_cycles`` steps: every seat is cut off, with no reward."""
        self.stream.close()
        self._cut = True
        for a in self.agents:
            self.truncations[a] = True
            self.infos[a] = {"truncated": f"the game was cut after {self.cycles:,} steps "
                                          f"(max_cycles={self.max_cycles:,})"}
        self.agent_selection = self.agents[0]

    def _legal(self, decision) -> tuple:
        """The decision's action ids (None: indices) and which answers the game takes."""
        if self.mask_kind == "listed":  # what the rules list, untried (faster, may be refused)
            verdicts = [True] * decision.count()
        else:
            verdicts = Trials(self.stream.game, decision).verdicts()
        if any(v is True for v in verdicts):
            legal = [v is True for v in verdicts]  # (an unsettled one only if nothing is)
        else:
            legal = [v is not False for v in verdicts]
        ids = self.table.place(self.stream.game, decision) if self.table is not None else None
        return decision, ids, legal

    def _options(self, decision) -> dict:
        """What the seat asked is told of each answer: its id, kind, words and short key."""
        _, ids, legal = self._answers
        keys = short_keys(self.stream.game, decision)
        out = []
        for place in range(decision.count()):
            i = ids[place] if ids is not None else place
            out.append({"id": i,
                        "kind": self.table.kinds[i] if ids is not None else decision.kind,
                        "label": decision.describe_answer(
                            decision.low + place if decision.is_range else place),
                        "key": keys[place] if keys else str(decision.low + place),
                        "legal": legal[place]})
        return {"keys": keys, "options": out, "asked": " ".join(decision.prompt.split())}

    def _too_wide(self, decision) -> str | None:
        """Why ``decision`` cannot be asked in this action space, and what would hold it."""
        count = decision.count()
        if self.table is None:
            if count <= self.layout.size:
                return None
            need, have, what = count, self.layout.size, "answers"
        else:
            need = self.table.spilled(self.stream.game, decision)
            if need <= self.table.overflow:
                return None
            have, what = self.table.overflow, "answers with no action id of their own"
        asked = " ".join(decision.prompt.split())
        asked = asked if len(asked) <= 80 else asked[:77] + "..."
        fix = (f"build the environment with max_options={need} or more" if
               need <= args.MAX_OPTIONS else f"no action space here holds that many (at most "
               f"max_options={args.MAX_OPTIONS:,})")
        return (f"{self.agent_selection} is asked '{asked}' with {need:,} {what}, more than "
                f"the action space holds (max_options={have}): {fix}; the game "
                "stops here rather than leave answers out (call reset() to play again)")

    def _final_rewards(self, result) -> list[float]:
        scores = list(result.scores)
        n = len(scores)
        seats = [self.agent_name_mapping[a] for a in self.possible_agents]
        if self.reward_kind == "score":
            if n == 1:
                return [float(scores[0])]
            return [float(scores[s] - (sum(scores) - scores[s]) / (n - 1)) for s in seats]
        if n == 1:
            return [1.0 if result.winners else -1.0]
        winners = set(result.winners)
        lowest = (self.rs.singles.get("end").data or {}).get("winner") == "lowest" \
            if "end" in self.rs.singles else False
        key = [(seat in winners, -s if lowest else s) for seat, s in enumerate(scores)]
        out = []
        for seat in seats:
            better = sum(1 for k in key if k > key[seat])
            same = sum(1 for k in key if k == key[seat]) - 1
            rank = better + same / 2  # 0 for the best; ties share
            out.append(1.0 - 2.0 * rank / (n - 1))
        return out

    # ------------------------------------------------------------ observing
    def _observation(self, seat: int, asked) -> np.ndarray:
        numbers = np.asarray(self.layout.encode(self.stream.game.view(seat), asked),
                             dtype=np.float64)
        if self.normalised:
            numbers = self.layout.normalise(numbers)
        else:
            np.clip(numbers, -BOUND, BOUND, out=numbers)  # inside the declared space, always
        return numbers.astype(np.float32)

    def observe(self, agent):
        self._playing("observe()", stopped_ok=True)  # a stopped game shows where it stopped
        seat = self.agent_name_mapping.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise ValueError(f"there is no agent {agent!r:.40}: the agents are "
                             + ", ".join(self.possible_agents))
        decision = self.stream.current
        asked = decision if decision is not None and decision.player == seat else None
        mask = np.zeros(self.layout.size, dtype=np.int8)
        if asked is not None and self._stopped is None and self._answers is not None \
                and not self.truncations.get(agent):
            _, ids, legal = self._answers
            for place, ok in enumerate(legal):
                if ok:
                    mask[ids[place] if ids is not None else place] = 1
        return {"observation": self._observation(seat, asked), "action_mask": mask}

    def state(self) -> np.ndarray:
        """Every seat's observation, seat 1's first (each from its own side), end to end:
        the whole game as the seats see it together, for a critic that may see it all."""
        self._playing("state()", stopped_ok=True)
        decision = self.stream.current
        return np.concatenate([self._observation(
            seat, decision if decision is not None and decision.player == seat else None)
            for seat in range(self.players)])

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
        if self._cut:
            return f"cut after {self.cycles:,} steps (max_cycles={self.max_cycles:,})"
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
