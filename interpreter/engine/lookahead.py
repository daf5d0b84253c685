"""One-ply lookahead on a determinised copy of the game, for the greedy agent."""

from __future__ import annotations

import random

from ..lang.runtime import RequirementFailed, RuleRuntimeError
from .agent_base import RandomAgent
from .decisions import ActionRefused, Decision
from .game import NO_OWNER, Game

LOSS = -10 ** 9


def determinise(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of the game where the cards this seat cannot see are reshuffled.

    Hidden cards move only among zones of the same kind: the deck's order is
    shuffled, and the other players' hands are dealt again from their pooled cards.
    """
    clone = game.__copy__()
    clone.state = game.state.clone()
    clone.record = []
    clone.deciders = []
    clone.check_invariants = False
    clone.check_actions = False  # a trial is thrown away: the real game's actions are checked
    clone.listeners = []
    clone.log_lines = []
    clone.private_lines = {}
    clone.keep_log = False  # a trial run's log is never read
    clone.held = None
    st = clone.state
    cards = st.cards
    for keys in _hidden_places(game, seat):
        # in the order of the cards' numbers, not as they lie: how the hidden cards lie
        # must not change the shuffle's outcome (the seat cannot see it)
        pool = sorted(c for key in keys for c in st.zones[key])
        if len(pool) > 1:  # (shuffling fewer would draw no number)
            rng.shuffle(pool)
        if len(keys) == 1 and keys[0][1] == NO_OWNER:
            # a shared zone with itself: its cards stay in it, and each card in a zone's
            # list knows it is there (an invariant the checks hold the engine to)
            st.zones[keys[0]] = pool
            continue
        i = 0
        for key in keys:
            zone, owner = key
            size = len(st.zones[key])
            st.zones[key] = pool[i:i + size]
            for c in st.zones[key]:
                card = cards[c]  # copied (card_w) only when it lands somewhere else
                if card.zone != zone or card.zone_owner != owner \
                        or owner != NO_OWNER and card.owner != owner:
                    card = st.card_w(c)
                    card.zone, card.zone_owner = key
                    if owner != NO_OWNER:
                        card.owner = owner
            i += size
    st.rng = random.Random(rng.random())
    return clone


def _hidden_places(game: Game, seat: int) -> list[list[tuple]]:
    """The zones this seat cannot see into, grouped by kind of zone, in the zones' order.

    Reshuffling happens within each group only (a deck with itself, other
    players' hands among themselves), so a deck keeps the kind of cards it
    holds. Visibility is declared, so the groups are worked out once per seat
    and set of zones, and kept with the game (its copies share them)."""
    zones = tuple(game.state.zones)
    cache = game.__dict__.setdefault("_hidden_places", {})
    known = cache.get(seat)
    if known is not None and known[0] == zones:
        return known[1]
    by_zone: dict[str, list] = {}
    for key in zones:
        if game.visible_to(key[0], key[1], seat) == "count":
            by_zone.setdefault(key[0], []).append(key)
    groups = list(by_zone.values())
    cache[seat] = (zones, groups)
    return groups


class _Recorder(RandomAgent):
    """Answers at random and remembers the answers, so a good plan can be replayed.

    The first decision inside the action may be forced (``first``): rollouts
    then try each option of that decision in turn instead of random ones.
    """

    def __init__(self, seed: int, log: list, first: int | None = None):
        super().__init__(seed)
        self.log = log
        self.first = first
        self.first_count: int | None = None  # how many options the first decision had

    def decide(self, decision, view, game):
        if not self.log and self.first_count is None:
            self.first_count = decision.count()
            if self.first is not None and not decision.is_range:
                answer = self.first % decision.count()
                self.log.append(answer)
                return answer
        answer = super().decide(decision, view, game)
        self.log.append(answer)
        return answer


MAX_FIRST_CHOICES = 8  # options of an action's first choice tried one by one


def evaluate_options(game: Game, decision: Decision, rng: random.Random,
                     rollouts: int = 3, first_choices: int = MAX_FIRST_CHOICES
                     ) -> tuple[list[float], list[list[int]]]:
    """For each action option: the best evaluation over a few rollouts, and its plan.

    A rollout performs the action on a determinised copy, answering the action's
    own choices at random; the plan is the list of those answers, so the agent
    can make the same choices when it performs the action for real. When the
    action starts with a choice (which card, which space), the rollouts try
    its options one by one (up to ``first_choices`` of them) rather than at
    random, so a good card is not missed by chance.
    """
    from .flow import FlowRunner
    seat = decision.player
    base = determinise(game, seat, rng)  # first, as before: rng's draws stay in their order
    now = None  # the position as it is, evaluated only when ending or passing is an option
    values, plans = [], []
    for opt in decision.options:
        choice = opt.value
        if choice.key in ("end", "pass"):
            if now is None:
                now = FlowRunner(base).evaluate(seat)
            values.append(now + 0.01 * (choice.key == "end"))
            plans.append([])
            continue
        best, best_plan = LOSS, []
        tries, i = rollouts, 0
        while i < tries:
            trial = determinise(game, seat, rng)
            answers: list[int] = []
            recorder = _Recorder(rng.randrange(1 << 30), answers,
                                 first=i if first_choices else None)
            trial.agents = [recorder] * game.n
            runner = FlowRunner(trial)
            try:
                value = runner.evaluate(seat) if runner.perform(choice, seat) else LOSS
            except (RequirementFailed, ActionRefused, RuleRuntimeError):
                value = LOSS
            if i == 0 and recorder.first_count:
                tries = max(rollouts, min(recorder.first_count, first_choices))
            if value > best:
                best, best_plan = value, answers
            i += 1
        values.append(best)
        plans.append(best_plan)
    return values, plans
