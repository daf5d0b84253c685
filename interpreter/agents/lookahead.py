"""One-ply lookahead on a determinised copy of the game, for the greedy agent.

Also what every agent that looks ahead shares: :func:`determinise` (a copy of
the game the seat cannot tell from it) and the work such a search may do.
The copies a search plays run rules like the game itself, so they are charged
to a :class:`~rulebook_games.lang.runtime.SearchBudget`: an allowance per
search (the copies played to answer one decision) and one per seat for all
its searches in a game, both in proportion to the work the agent's settings
ask for. A search that runs out of its allowance stops and answers with what
it has found; a seat whose searches run out of theirs for the game stops the
game with an error (:func:`out_of_lookahead`), as a game that runs out of
its own work budget does.
"""

from __future__ import annotations

import random

from ..lang.gensupport import reading
from ..lang.runtime import RequirementFailed, RuleRuntimeError, SearchBudget
from . import across
from .across import KeptAcross
from .base import RandomAgent
from ..engine.decisions import ActionRefused, Decision
from ..engine.game import NO_OWNER, Game
from ..engine.infosets import hidden_groups, hidden_pools

LOSS = -10 ** 9

# What the greedy agent's look-ahead may do at its default settings, in steps (what
# its copies of the game run, and a step per card and space of each copy made): per
# search (one decision) and per seat in one game. The most the shipped rulesets used
# is 361,859 and 5,914,566 (benchmarks/README.md): over 30 times that.
GREEDY_SEARCH_STEPS = 12_000_000
GREEDY_GAME_STEPS = 200_000_000


def out_of_lookahead(agent: str, search: SearchBudget, stopped: BaseException | None
                     ) -> RuleRuntimeError:
    """The error when a seat's searches have used their allowance for the game, at the
    rule its copy was running (else where the game's limits are reported)."""
    span = getattr(stopped, "span", None) or search.where
    return RuleRuntimeError(f"the {agent} agent of player {search.seat + 1} looked ahead "
                            f"for more than {search.per_game:,} steps in this game (the limit "
                            "per game for an agent's search): each try of an action on a "
                            "copy of the game runs its rules", span)


class Dealing:
    """What :func:`determinise` deals again for one seat from one position, worked out once.

    The hidden pools (:func:`.infosets.hidden_pools`), each with its cards in
    the order of their numbers, and the hidden zones that keep no order. A
    search makes many copies of the same position (a greedy decision's
    rollouts, an ismcts search's iterations): working this out for each copy
    cost a third of a greedy game. It holds for as long as the position does
    not change; a copy dealt with it is the copy :func:`determinise` would
    deal without it, card for card and draw for draw."""

    __slots__ = ("pools", "unordered", "kept")

    def __init__(self, game: Game, seat: int):
        st = game.state
        zones, cards = st.zones, st.cards
        self.pools = []
        for places in hidden_pools(game, seat):
            # in the order of the cards' numbers, not as they lie: how the hidden cards
            # lie must not change the shuffle's outcome (the seat cannot see it)
            in_order = sorted(zones[key][i] for key, i in places)
            runs: list = []  # the places zone by zone: (zone key, indexes)
            home = {}  # card -> the zone it lies in, where it needs no change
            for key, i in places:
                if not runs or runs[-1][0] != key:
                    runs.append((key, []))
                runs[-1][1].append(i)
                c = zones[key][i]
                card = cards[c]
                if (card.zone, card.zone_owner) == key and (
                        key[1] == NO_OWNER or card.owner == key[1]):
                    home[c] = key
            self.pools.append((runs, in_order, home))
        decl = game.zone_decl
        self.unordered = [key for keys in hidden_groups(game, seat) for key in keys
                          if not decl[key[0]].get("ordered")]
        # what the copies dealt from here share of the rules' kept values: those of
        # functions reading no zone dealt again (agents/across.py)
        dealt = {key[0] for runs, _, _ in self.pools for key, _ in runs}
        dealt.update(key[0] for key in self.unordered)
        self.kept = KeptAcross(game, dealt) if across.SHARE else None


def _shuffle_inline(pool: list, rng: random.Random) -> None:
    """``rng.shuffle(pool)``, draw for draw, without a call per card: the same numbers
    drawn the same way (``random.Random.shuffle`` and its ``_randbelow``), a third
    of a copy's time in a ruleset of large decks."""
    getrandbits = rng.getrandbits
    for i in range(len(pool) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        pool[i], pool[j] = pool[j], pool[i]


def _same_draws() -> bool:
    """Whether the inline shuffle is this Python's own, number for number (checked once)."""
    a, b = random.Random(2026), random.Random(2026)
    for size in (2, 3, 7, 64, 300):
        x, y = list(range(size)), list(range(size))
        a.shuffle(x)
        _shuffle_inline(y, b)
        if x != y or a.getstate() != b.getstate():
            return False
    return True


_INLINE = _same_draws()


def _shuffle(pool: list, rng: random.Random) -> None:
    if _INLINE and type(rng) is random.Random:
        _shuffle_inline(pool, rng)
    else:  # another Python's shuffle, or a source of another kind: its own
        rng.shuffle(pool)


class _Seeded:
    """A copy's random source, made only when the copy first draws from it.

    Seeding a generator costs more than a third of a small copy, and most
    copies a search plays never draw. The state takes a source it shares
    (``_rng_shared``) by copying its state before its first draw
    (``State.rng``): this one makes that state from its seed then, so the
    copy draws exactly what ``random.Random(seed)`` would."""

    __slots__ = ("seed",)

    def __init__(self, seed: float):
        self.seed = seed

    def getstate(self):
        return random.Random(self.seed).getstate()


def determinise(game: Game, seat: int, rng: random.Random,
                search: SearchBudget | None = None, dealing: Dealing | None = None) -> Game:
    """A copy of the game where the cards this seat cannot see are dealt again.

    The pools are :func:`.infosets.hidden_pools`: an unseen card in another
    player's hidden zones may as well be in the deck it came from (so those
    hands are dealt again from the deck's cards and theirs), every other
    hidden zone is reshuffled with itself, and each place keeps its size.
    With ``search``, the copy runs on it (call its ``trial`` before running
    the copy) and making the copy costs a step per card and space. ``dealing``
    is the seat's :class:`Dealing` of this position, when a search has it
    (else it is worked out here).
    """
    clone = game.__copy__()
    clone.state = game.state.clone()
    if search is not None:
        clone.budget = search
        search.copying(len(clone.state.cards) + len(clone.state.spaces))
    clone.record = []
    clone.deciders = []
    clone.check_invariants = False
    clone.check_actions = False  # a trial is thrown away: the real game's actions are checked
    clone.listeners = []
    clone.log_lines = []
    clone.private_lines = {}
    clone.keep_log = False  # a trial run's log is never read
    clone.held = None
    if dealing is None:
        dealing = Dealing(game, seat)
    st = clone.state
    cards = st.cards
    zones = st.zones
    for runs, in_order, home in dealing.pools:
        pool = list(in_order)
        if len(pool) > 1:  # (shuffling fewer would draw no number)
            _shuffle(pool, rng)
        j = 0
        for key, indexes in runs:
            here = zones[key]
            zone, owner = key
            for i in indexes:
                c = pool[j]
                j += 1
                here[i] = c
                if home.get(c) == key:
                    continue  # back where it lay: nothing about the card changes
                card = cards[c]  # copied (card_w) only when it lands somewhere else
                if card.zone != zone or card.zone_owner != owner \
                        or owner != NO_OWNER and card.owner != owner:
                    card = st.card_w(c)
                    card.zone, card.zone_owner = key
                    if owner != NO_OWNER:
                        card.owner = owner
    # a hidden place that keeps no order (a face-down pile) tells nothing by its order,
    # not even where the seat's own cards in it lie: it is put in the order of the
    # cards' numbers, so that how it lies in the game cannot steer the copy (a pile
    # shuffled into a deck later comes out the same whatever its order was)
    for key in dealing.unordered:
        here = zones[key]
        if len(here) > 1:
            zones[key] = sorted(here)
    # a new random source for what is still to come, seeded when first drawn from
    st._rng, st._rng_shared = _Seeded(rng.random()), True
    if dealing.kept is not None and dealing.kept.source is game.state:
        dealing.kept.watch(clone)  # the copies of this position share kept values
    else:
        clone.kept_across = None
    return clone


def final_margins(runner, seats) -> list[float]:
    """What a finished game is worth to each of ``seats``: its final score minus the best
    other seat's (the other way round when the lowest score wins), a solo seat's
    score. The learned evaluation predicts exactly this, so a copy that reached the
    end is valued by it, not by a guess."""
    game = runner.game
    scores = [runner.score_of(p)[0] for p in range(game.n)]
    lowest = (runner.flow.get("end") or {}).get("winner") == "lowest"
    sign = -1 if lowest else 1
    if game.n == 1:
        return [float(scores[0]) for _ in seats]
    return [float(sign * (scores[p] - max(s for q, s in enumerate(scores) if q != p)))
            for p in seats]


def evaluate(runner, seats, how: str = "written") -> list:
    """The evaluation of the copy for each of ``seats``, in one reading.

    ``how`` is ``learned`` (the ruleset's learned evaluation, see
    :mod:`.learned`, when it has a weights file; else the written one) or
    ``written`` (the ruleset's hand-written ``evaluation``, or the score).
    Evaluating changes nothing, so it runs as the engine's own reading does
    (:class:`~rulebook_games.lang.gensupport.reading`): what the functions it
    calls share (a part of a declared function that depends on none of its
    parameters) is worked out once for all the seats' evaluations."""
    value = None
    if how == "learned":
        from .learned import learned_value
        value = learned_value(runner.game.rs)
    with reading(runner.game):
        if value is not None:
            if runner.game.ended:  # the game is over: what the value predicts, known
                return final_margins(runner, seats)
            return value.values(runner, seats)
        return [runner.evaluate(seat) for seat in seats]


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
                     rollouts: int = 3, first_choices: int = MAX_FIRST_CHOICES,
                     steps: int = GREEDY_SEARCH_STEPS, per_game: int = GREEDY_GAME_STEPS,
                     how: str = "written", reward: str = "own"
                     ) -> tuple[list[float], list[list[int]]]:
    """For each action option: the best evaluation over a few rollouts, and its plan.

    A rollout performs the action on a determinised copy, answering the action's
    own choices at random; the plan is the list of those answers, so the agent
    can make the same choices when it performs the action for real. When the
    action starts with a choice (which card, which space), the rollouts try
    its options one by one (up to ``first_choices`` of them) rather than at
    random, so a good card is not missed by chance.

    The copies may do ``steps`` in all, and the seat's searches ``per_game`` in
    the game (see :class:`~rulebook_games.lang.runtime.SearchBudget`). Once the
    search has used its allowance, the options not yet tried are worth
    :data:`LOSS`, as one that cannot be carried out (the rollout cut short counts
    for nothing): the agent picks among those it has tried, at random when none.
    """
    from ..engine.flow import FlowRunner
    seat = decision.player
    search = SearchBudget.opened(game.budget, seat, steps, per_game)

    def worth(runner) -> float:
        if reward == "own" or game.n == 1:
            return evaluate(runner, (seat,), how)[0]
        values = evaluate(runner, range(game.n), how)
        return values[seat] - max(v for p, v in enumerate(values) if p != seat)
    try:
        dealing = Dealing(game, seat)  # the real game stands still while it searches
        # the base first, as before: rng's draws stay in their order
        base = determinise(game, seat, rng, search, dealing)
        now = None  # the position as it is, evaluated only when ending or passing is an option
        values, plans = [], []
        for opt in decision.options:
            choice = opt.value
            if search.over():  # out of look-ahead: this option is not tried
                values.append(LOSS)
                plans.append([])
                continue
            if choice.key in ("end", "pass"):
                if now is None:
                    search.trial()
                    try:
                        now = worth(FlowRunner(base))
                    except RuleRuntimeError as exc:
                        if not search.over():
                            raise  # the rules fail as they would in the game itself
                        _spent(search, exc)
                        values.append(LOSS)
                        plans.append([])
                        continue
                values.append(now + 0.01 * (choice.key == "end"))
                plans.append([])
                continue
            best, best_plan = LOSS, []
            tries, i = rollouts, 0
            while i < tries:
                trial = determinise(game, seat, rng, search, dealing)
                if search.over():
                    _spent(search, None)
                    break
                answers: list[int] = []
                recorder = _Recorder(rng.randrange(1 << 30), answers,
                                     first=i if first_choices else None)
                trial.agents = [recorder] * game.n
                runner = FlowRunner(trial)
                search.trial()
                try:
                    value = worth(runner) if runner.perform(choice, seat) else LOSS
                except (RequirementFailed, ActionRefused, RuleRuntimeError) as exc:
                    if search.over():
                        _spent(search, exc)
                        break
                    value = LOSS
                if i == 0 and recorder.first_count:
                    tries = max(rollouts, min(recorder.first_count, first_choices))
                if value > best:
                    best, best_plan = value, answers
                i += 1
            values.append(best)
            plans.append(best_plan)
        return values, plans
    finally:
        search.close()


def _spent(search: SearchBudget, stopped: BaseException | None, agent: str = "greedy") -> None:
    """The search is out of steps: fine for this decision, an error once the seat's
    searches are out of steps for the game."""
    if search.spent == "game":
        search.close()
        raise out_of_lookahead(agent, search, stopped)


class _Diverged(Exception):
    """A copy replayed from a rule's start went another way than the real game."""


class _RuleWalker(RandomAgent):
    """Answers one copy of a rule run again: the answers given in it so far, then the
    option tried at the decision searched, then at random."""

    def __init__(self, seed: int, replay: list[int], expect: Decision, answer: int):
        super().__init__(seed)
        self.replay = list(replay)
        self.expect = expect
        self.answer = answer

    def decide(self, decision, view, game):
        if self.replay:
            answer = self.replay.pop(0)
            if decision.check(answer) is not None:
                raise _Diverged
            return answer
        if self.expect is not None:
            e = self.expect
            if (decision.player, decision.kind, decision.is_range, decision.count()) != \
                    (e.player, e.kind, e.is_range, e.count()):
                raise _Diverged
            self.expect = None
            return self.answer
        return super().decide(decision, view, game)


RULE_OPTIONS = 12  # the options of a choice outside any action tried, at most


def rule_candidates(decision: Decision, rng: random.Random) -> list[int]:
    """The answers a search of a choice outside any action tries: every option (a
    sample of :data:`RULE_OPTIONS` of a long list), or a spread of a range."""
    if decision.is_range:
        low, high = decision.low, decision.high
        if high - low + 1 <= RULE_OPTIONS:
            return list(range(low, high + 1))
        step = (high - low) / (RULE_OPTIONS - 1)
        return sorted({low + round(i * step) for i in range(RULE_OPTIONS)})
    n = len(decision.options)
    if n <= RULE_OPTIONS:
        return list(range(n))
    return sorted(rng.sample(range(n), RULE_OPTIONS))


def choose_in_rule(game: Game, decision: Decision, rng: random.Random, copies: int,
                   score, steps: int, per_game: int, agent: str) -> int | None:
    """The answer to a choice the flow's own rules ask outside any action (a phase's
    rule, the end of the game's), or None when it cannot be searched.

    Each option is tried on the same ``copies`` copies of the game, each dealt for
    the seat from the position before the rule (``Game.rule_start``): the rule runs
    again with the answers given in it so far, then the option, then every later
    answer of the rule at random. When the rule is the end of the game's, the copy
    then finishes the game and is worth its final margin (:func:`final_margins`);
    else ``score(runner, seat)`` values it. The option whose copies are worth most
    on average is the answer (the first of the best, in the options' order). A copy
    that goes another way than the real game (what the seat cannot see made it ask
    something else) is dropped."""
    from ..engine.flow import FlowRunner
    start = game.rule_start
    if start is None or game.action_start is not None:
        return None
    state, at, key = start
    seat = decision.player
    base = game.__copy__()
    base.state = state
    base.rule_start = None
    replay = game.record[at:]
    final = key == ("flow", "end", "then")
    tried = rule_candidates(decision, rng)
    worlds = [rng.getrandbits(32) for _ in range(copies)]
    search = SearchBudget.opened(game.budget, seat, steps, per_game)
    best, best_value = None, None
    try:
        dealing = Dealing(base, seat)
        for answer in tried:
            total, n = 0.0, 0
            for w in worlds:
                world = determinise(base, seat, random.Random(w), search, dealing)
                if search.over():
                    _spent(search, None, agent)
                    break
                world.agents = [_RuleWalker(w + 1, replay, decision, answer)] * game.n
                runner = FlowRunner(world)
                search.trial()
                try:
                    world.run_code(key, world.frame(None))
                    if final:
                        runner.end_rewards()
                        world.ended = True
                        with reading(world):
                            value = final_margins(runner, (seat,))[0]
                    else:
                        value = score(runner, seat)
                except _Diverged:
                    continue
                except (RequirementFailed, ActionRefused, RuleRuntimeError) as exc:
                    if search.over():
                        _spent(search, exc, agent)
                        break
                    continue
                total += value
                n += 1
            if search.over():
                break
            if n and (best_value is None or total / n > best_value):
                best, best_value = answer, total / n
    finally:
        search.close()
    if best is None:
        return None
    return best
