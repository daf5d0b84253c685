"""The greedy agent: one ply of lookahead on copies of the game it may see.

Each action is tried on a copy of the game in which everything this player
cannot see has been shuffled among the hidden places (see
:mod:`.lookahead`), so it cannot use hidden information; the best action by
the ruleset's evaluation is kept.
"""

from __future__ import annotations

import random

from .base import Agent


class GreedyAgent(Agent):
    """One-ply lookahead: try each action on a determinised copy, keep the best.

    Each action is tried a few times on copies of the game in which everything
    this player cannot see is reshuffled, with the action's own choices made
    at random; it is scored by the ruleset's ``evaluation`` (or the score so
    far; by default the evaluation learned from the ruleset's games, see
    :mod:`.learned`). The agent picks the best action and then makes the choices of its
    best try, as long as they fit the real decisions; a choice the flow's own
    rules ask outside any action is weighed on copies of the rule
    (:func:`.lookahead.choose_in_rule`); other decisions are random. 'End
    turn' or 'pass' win only when nothing improves the position.

    Its look-ahead has an allowance of steps per decision and per game (see
    :mod:`.lookahead`), larger in proportion when ``rollouts`` or
    ``first_choices`` ask for more tries than the defaults.
    """

    name = "greedy"
    wants_view = False  # it looks ahead on a determinised copy instead
    searches_rules = True  # the game keeps where a rule of the flow started (choose_in_rule)

    def __init__(self, seed: int, rollouts: int = 3, first_choices: int | None = None,
                 eval: str = "learned", reward: str = "own"):
        self.reward = reward  # own (its evaluation) or margin (less the best other seat's)
        from .lookahead import MAX_FIRST_CHOICES
        self.eval = eval  # learned (the ruleset's learned evaluation when it has one) or written
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.first_choices = MAX_FIRST_CHOICES if first_choices is None else first_choices
        self.plan: list[int] = []

    def allowance(self) -> tuple[int, int]:
        """The steps its look-ahead may do per decision and per game: the defaults', times
        how many more tries per action its settings ask for (at least once)."""
        from .lookahead import GREEDY_GAME_STEPS, GREEDY_SEARCH_STEPS, MAX_FIRST_CHOICES
        more = max(1.0, max(self.rollouts, self.first_choices) / MAX_FIRST_CHOICES)
        return int(GREEDY_SEARCH_STEPS * more), int(GREEDY_GAME_STEPS * more)

    def decide(self, decision, view, game):
        if decision.kind == "action" and len(decision.options) > 1:
            from .lookahead import evaluate_options
            steps, per_game = self.allowance()
            values, plans = evaluate_options(game, decision, self.rng, self.rollouts,
                                             self.first_choices, steps, per_game, self.eval,
                                             self.reward)
            best = max(values)
            ties = [i for i, v in enumerate(values) if v == best]
            pick = ties[0] if len(ties) == 1 else self.rng.choice(ties)
            self.plan = list(plans[pick])
            return pick
        if decision.kind == "action":
            self.plan = []
            return 0
        if game is not None and game.action_start is None and game.rule_start is not None:
            # a choice the flow's own rules ask: each answer tried on copies of the rule
            from .lookahead import choose_in_rule, evaluate
            self.plan = []
            steps, per_game = self.allowance()
            answer = choose_in_rule(
                game, decision, self.rng, self.rollouts,
                lambda runner, seat: evaluate(runner, (seat,), self.eval)[0],
                steps, per_game, "greedy")
            if answer is not None:
                return answer
        if self.plan:
            answer = self.plan.pop(0)
            if decision.check(answer) is None:
                return answer
            self.plan = []  # the real game went another way: improvise from here
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))


class TrainedAgent(GreedyAgent):
    """``greedy`` with the evaluation learned from the ruleset's own games, by name.

    The balance lab's ``--agents trained``: the same agent as ``greedy`` (whose
    default evaluation is the learned one), named so that a report says the
    agents were the trained ones. A ruleset without a weights file has it play
    with the hand-written evaluation, and the lab says so."""

    name = "trained"

    def __init__(self, seed: int, rollouts: int = 3, first_choices: int | None = None):
        super().__init__(seed, rollouts, first_choices, eval="learned")
