"""The ismcts agent: Information Set Monte Carlo Tree Search over one seat's turn.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). Every
iteration deals a new determinisation of what the acting seat cannot see
(:func:`.lookahead.determinise`: hidden cards reshuffled among the hidden
places of their kind, a new random source for what is still to come), so the
search never starts from the true state. It then walks one tree down with
UCT over the options available in that determinisation (each child counts
how often it was available, as in the paper). An option not tried yet is
tried before any is tried again, chosen at random (``playout=random``) or
with a cheap preference for doing something (``playout=greedy-lite``: no
ending, passing or declining while anything else can be done, the largest
number of a range); every decision of the iteration gets its node
(``expand=path``), or only the first new one, the rest answered by the
playout policy (``expand=one``, as in the paper).

The engine asks decisions from deep inside the rules, so a copy of the game
cannot be resumed from the middle of a rule; the horizon is therefore first
the seat's own turn: the action being chosen with all its inner choices,
then up to ``depth`` further actions (never more than the phase's turns have
after a turn's first), taken as if the turn went on: at a turn's later action
they run past its end and stand for the seat's next actions. A free action
(``free: true`` in the rules: it takes none of the turn's actions) counts as
one of them, unless ``free=extra``: then only main actions are counted, and up
to :data:`FREE_IN_HORIZON` free ones are taken besides; with ``turn_end=stop``
the main ones stop where the real turn's do (counted from the agent's own
answers in the turn). With ``turns`` the copy is then played on from where the
flow goes on after the real turn (``Game.after_turn``), every seat by the
playout policy, until that many more turns have ended. There the ruleset's
``evaluation`` scores every seat, as a margin over the best other seat
(``reward=margin``) or on its own (``reward=own``; a solo game always
scores its own), normalised by the lowest and highest
values seen in this search, and every node on the path is credited with the
score of the seat that moved into it. An action that cannot be carried out
in a determinisation scores below the worst value seen (the real game would
refuse it). A node is worth the mean of its rewards, except that with
``backup=max`` (the default) a node followed by its own seat's next choice
is worth the best of the options tried there, once they hold half its
visits: the seat makes that choice itself, so an action is not judged by
the poor answers tried inside it. With ``backup=offered`` that best counts
only where it was on offer (:func:`expected_best`): an option some worlds do
not offer (what a blind draw brings) is not worth its luckiest world.

Nodes are keyed by what an option is, never by where it lies in a list or by
the objects of one determinisation: an action by its key, a card by its
card id (a card chosen blind by its place in the list), a space or any other
item by its id, a number by itself. Long lists
are widened progressively: a node considers ``2 * visits ** widen`` of its
options (a range: its largest, its smallest, then evenly spread values, at
most 64 of them). With ``prior=history`` the options are let in as the
widening allows, the most promising first: by what the same option was worth
to its seat inside the same action anywhere in this search (an option never
taken: the average of those that were); ``prior=none`` draws the order once
per node.

A set question (``choose_some``, asked one pick at a time) is weighed as a
set with ``sets=rank``: on the same few copies dealt from the action's start,
nothing, each item alone, then the best 2, 3, ... items together are tried,
and the set whose copies end best on average is picked, item by item
(:meth:`ISMCTSAgent.pick_set`).

After the search the agent takes the option tried most often, and answers
the inner choices that follow in the real game from the same tree (the
option with most visits among those the real decision allows); an action
the real game then refuses is not chosen again at that position. A choice
inside an action that the tree does not cover (an action taken without
asking, or one the search never reached) is searched from the action's start
(``Game.action_start``: the copy is dealt from the position before it and
replays the answers given in it so far; ``inner=random`` answers it at
random instead); a choice the flow's own rules ask outside any action is
weighed on copies of the rule (:func:`.lookahead.choose_in_rule`). With
``iterations`` the agent is deterministic for its seed; ``seconds`` stops on
the clock, so its games do not repeat.

The copies a search plays are charged to an allowance of steps per search and
per game (see :mod:`.lookahead`), in proportion to the work the settings ask
for (``iterations``, or 200 iterations a second of ``seconds``; ``turns``;
``depth`` past 2): a search that uses its allowance stops, as ``seconds``
stops it, and the iteration cut short counts for nothing. (Each allowance is
over 30 times the most a search, or a seat's searches in a game, used in the
shipped rulesets: none of the measured games came near it.)
"""

from __future__ import annotations

import math
import random
import time

from ..lang.runtime import RequirementFailed, RuleRuntimeError, SearchBudget
from .base import Agent
from ..engine.decisions import ActionRefused, Decision, Option
from ..engine.state import CardRef

DEFAULT_ITERATIONS = 200
# What a search may do at the default settings (200 iterations, depth 2, turns 0), in
# steps (what its copies run, and a step per card and space of each copy made): per
# search and per seat in one game. The most the shipped rulesets used is 5,509,187 per
# search and 165,685,891 per seat in a game (benchmarks/README.md): over 30 times that.
ISMCTS_SEARCH_STEPS = 170_000_000
ISMCTS_GAME_STEPS = 6_000_000_000
MAX_RANGE_OPTIONS = 64
# with ``free=extra``: the most free actions a search's horizon takes after the chosen one
# (a ruleset may allow free actions without end; the flow stops a turn only after 500)
FREE_IN_HORIZON = 4
ALIKE = "\x1f"  # between an item's identity and its count among the items alike
DECLINING = {"end", "pass", "none", "no"}


class Node:
    """One option taken from the parent: visits, times available, total reward."""

    __slots__ = ("children", "order", "visits", "avail", "total", "value", "asked", "offered",
                 "born")

    def __init__(self, born: int = 0):
        self.children: dict = {}
        self.order: dict = {}  # child key -> rank (the order options are widened in)
        self.visits = 0
        self.avail = 0
        # (``backup=offered``) how often the node's choice was asked; how often this option
        # was on offer there, and how often the choice had been asked before it was first
        self.asked = 0
        self.offered = 0
        self.born = born
        self.total = 0.0
        self.value = 0.0  # what the node is worth to its mover (``backup``: mean or max)


def identity(decision: Decision, index: int, game) -> str:
    """What an option is, the same in every determinisation."""
    if decision.is_range:
        return str(index)
    opt = decision.options[index]
    if opt.key:
        return opt.key
    value = opt.value
    if isinstance(value, CardRef):
        if not game.card_visible_to(value, decision.player):
            return f"hidden:{index}"  # a card chosen blind is known by its place only
        return "c:" + game.state.cards[value].def_id
    if value is None:
        return "none"
    return f"{type(value).__name__}:{value}"


def candidates(decision: Decision) -> list[int]:
    """The answers considered: every option, or a spread of a long range."""
    if not decision.is_range:
        return list(range(len(decision.options)))
    low, high = decision.low, decision.high
    if high - low + 1 <= MAX_RANGE_OPTIONS:
        return [high] + list(range(low, high))
    step = (high - low) / (MAX_RANGE_OPTIONS - 1)
    spread = sorted({round(low + i * step) for i in range(MAX_RANGE_OPTIONS)}, reverse=True)
    return [high, low] + [n for n in spread if n not in (high, low)]


def _free(choice) -> bool:
    """Whether an action choice takes none of the turn's actions (the rules mark it free)."""
    return bool((getattr(choice, "action", None) or {}).get("free"))


class _Diverged(Exception):
    """A copy replayed from an action's start went another way than the real game."""


class _Walker(Agent):
    """Answers every seat's decisions in one iteration: down the tree, then a playout."""

    name = "ismcts-walker"
    wants_view = False

    def __init__(self, search: "Search", root: Node, replay: list[int] | None = None,
                 expect: Decision | None = None):
        self.search = search
        self.node = root
        # (seat that moved, node moved into, what the option was in its action)
        self.path: list[tuple[int, Node, str]] = []
        self.action = ""  # the action the walk is inside (the key of its option)
        self.in_tree = True
        # a search from inside an action: the answers given in it so far, replayed, and
        # the decision the tree starts at (this copy must reach the same one)
        self.replay = list(replay) if replay else []
        self.expect = expect

    def decide(self, decision, view, game):
        if self.replay:
            return _replayed(self.replay, decision)
        if self.expect is not None:
            if (decision.player, decision.kind, decision.is_range) != \
                    (self.expect.player, self.expect.kind, self.expect.is_range):
                raise _Diverged
            self.expect = None
        if not self.in_tree:
            return self.search.playout(decision, game)
        answers = candidates(decision)
        keys = [f"{decision.player}|{decision.kind}|{identity(decision, a, game)}"
                for a in answers]
        pick = self.search.select(self.node, keys, self.action)
        key = keys[pick]
        child = self.node.children[key]
        if decision.kind == "action":
            self.action = key
            self.path.append((decision.player, child, key))
        else:
            self.path.append((decision.player, child, f"{self.action}>{key}"))
        if child.visits == 0 and self.search.agent.expand == "one":
            self.in_tree = False  # the new node: from here on, the playout
        self.node = child
        return answers[pick]


def _replayed(replay: list[int], decision) -> int:
    """The next of the answers a copy replays to reach the searched decision; a copy
    whose game has gone another way (the answer does not fit) has diverged."""
    answer = replay.pop(0)
    if decision.check(answer) is not None:
        raise _Diverged
    return answer


def set_keys(decision: Decision, game) -> list[str]:
    """What each option of a set question is, the same in every determinisation: its
    identity, and for a second item alike (two copies of a card) its count among them."""
    keys, seen = [], {}
    for a in range(len(decision.options)):
        key = identity(decision, a, game)
        seen[key] = seen.get(key, 0) + 1
        keys.append(key if seen[key] == 1 else f"{key}{ALIKE}{seen[key]}")
    return keys


def alike(key: str) -> str:
    """The identity of a set question's option (any of the items alike is picked)."""
    return key.split(ALIKE, 1)[0]


class _SetWalker(Agent):
    """Answers one copy for a candidate set: the action's answers so far, then the set's
    items (by what they are) and 'done', then everything else by the playout policy."""

    name = "ismcts-set"
    wants_view = False

    def __init__(self, search: "Search", replay: list[int], expect: Decision, picks: list[str]):
        self.search = search
        self.replay = list(replay)
        self.expect = expect
        self.picks = list(picks)
        self.picking = False

    def decide(self, decision, view, game):
        if self.replay:
            return _replayed(self.replay, decision)
        if self.expect is not None:
            if (decision.player, decision.kind) != (self.expect.player, self.expect.kind) \
                    or not decision.some:
                raise _Diverged
            self.expect, self.picking = None, True
        if self.picking and decision.some and decision.player == self.search.seat:
            keys = [identity(decision, a, game) for a in range(len(decision.options))]
            while self.picks:
                key = alike(self.picks.pop(0))
                if key in keys:
                    return keys.index(key)
            self.picking = False
            done = decision.declining()
            if done is not None:
                return done
        self.picking = False
        return self.search.playout(decision, game)


class Search:
    """One search from one decision: the tree, its statistics and its settings."""

    def __init__(self, agent: "ISMCTSAgent", players: int, seat: int = 0):
        self.agent = agent
        self.seat = seat
        self.rng = agent.rng
        self.low = [math.inf] * players
        self.high = [-math.inf] * players
        # what each option was worth to its seat, wherever in the tree it was taken: the
        # action's key, or the action's and the option's ("a>b"): [total, times]
        self.history: dict[str, list] = {}

    def select(self, node: Node, keys: list[str], action: str = "") -> int:
        """The index of the option to take at ``node`` among ``keys`` (UCT, widened).

        ``action`` is the key of the action the walk is inside (for the history)."""
        rng = self.rng
        allowed_rank = max(2, math.ceil(2 * (node.visits + 1) ** self.agent.widen))
        first = {}
        for i, k in enumerate(keys):
            first.setdefault(k, i)
        counting = self.agent.backup == "offered"
        if counting:
            node.asked += 1
            for k in first:  # (what this world offers: a drawn card is not always there)
                child = node.children.get(k)
                if child is not None:
                    child.offered += 1
        fresh = [k for k in first if k not in node.order]
        number = "|number|" in keys[0]
        prior = self.agent.prior == "history" and not number
        if fresh and not prior:
            if len(fresh) > 1 and not number:  # (a range keeps its own order)
                rng.shuffle(fresh)
            for k in fresh:
                node.order[k] = len(node.order)
        elif fresh:
            # admitted as the widening lets them in, the most promising first: by what
            # the same option was worth in the same action anywhere in this search
            admitted = sum(1 for k in first if k in node.order)
            if admitted < allowed_rank:
                if len(fresh) > 1:
                    rng.shuffle(fresh)  # (ties in the order drawn)
                    worth = self.priors(action, fresh, list(first))
                    fresh.sort(key=lambda k: -worth[k])
                for k in fresh[:allowed_rank - admitted]:
                    node.order[k] = len(node.order)
        present = sorted((k for k in first if k in node.order), key=node.order.__getitem__)
        if prior:
            allowed = present[:allowed_rank]
        else:
            allowed = [k for k in present if node.order[k] < allowed_rank]
        if not allowed:
            allowed = present[:1]
        best, best_score, unvisited = None, -math.inf, []
        for k in sorted(allowed, key=node.order.__getitem__):
            child = node.children.get(k)
            if child is None:
                child = node.children[k] = Node(node.asked - 1)
                child.offered = int(counting)
            child.avail += 1
            if child.visits == 0:
                unvisited.append(k)
                continue
            score = self.mean(child, int(k.split("|", 1)[0])) + self.agent.c * math.sqrt(
                math.log(child.avail) / child.visits)
            if score > best_score:  # (strictly: the earliest rank wins ties)
                best, best_score = k, score
        if unvisited:  # every option is tried once before any is tried again
            best = unvisited[0] if self.agent.expand == "one" or prior and len(
                unvisited) > 1 and self.known(action, unvisited) else self.first_try(unvisited)
        return first[best]

    def priors(self, action: str, keys: list[str], among: list[str]) -> dict[str, float]:
        """What each of ``keys`` (options inside ``action``) was worth on average to its
        seat in this search so far, wherever it was taken; an option never taken: the
        average of those of ``among`` (all the options offered) that were."""
        history = self.history
        worth = {}
        for k in among:
            seen = history.get(k if "|action|" in k else f"{action}>{k}")
            if seen is not None:
                worth[k] = seen[0] / seen[1]
        neutral = sum(worth.values()) / len(worth) if worth else 0.0
        return {k: worth.get(k, neutral) for k in keys}

    def known(self, action: str, keys: list[str]) -> bool:
        """Whether the history knows any of ``keys`` (then the first of them, in the order
        the history gave them, is tried first; else the playout policy chooses)."""
        return any((f"{action}>{k}" if "|action|" not in k else k) in self.history
                   for k in keys)

    def first_try(self, keys: list[str]) -> str:
        """Which untried option to try: the playout policy chooses (the whole path grows)."""
        if self.agent.playout == "greedy-lite":
            if "|number|" in keys[0]:
                return max(keys, key=lambda k: int(k.rsplit("|", 1)[1]))
            doing = [k for k in keys if k.rsplit("|", 1)[1].lower() not in DECLINING]
            keys = doing or keys
        return keys[self.rng.randrange(len(keys))] if len(keys) > 1 else keys[0]

    def mean(self, child: Node, seat: int) -> float:
        lo, hi = self.low[seat], self.high[seat]
        return 0.5 if hi <= lo else (child.value - lo) / (hi - lo)

    def playout(self, decision: Decision, game) -> int:
        rng = self.rng
        if decision.is_range:
            if self.agent.playout == "greedy-lite":
                return decision.high
            return rng.randint(decision.low, decision.high)
        n = len(decision.options)
        if self.agent.playout == "greedy-lite" and n > 1:
            doing = [i for i, o in enumerate(decision.options)
                     if (o.key or "").lower() not in DECLINING]
            if doing:
                return doing[rng.randrange(len(doing))]
        return rng.randrange(n)

    def failed(self, seat: int) -> float:
        """What an option that could not be carried out is worth to ``seat``."""
        lo, hi = self.low[seat], self.high[seat]
        if lo == math.inf:
            return -1.0
        return lo - max(1.0, hi - lo)

    def backup(self, path: list[tuple[int, Node, str]], rewards: list[float] | None) -> None:
        if rewards is not None:
            for seat, value in enumerate(rewards):
                self.low[seat] = min(self.low[seat], value)
                self.high[seat] = max(self.high[seat], value)
        mode = self.agent.backup or "max"  # (None: not read from a weights file yet)
        best = mode in ("max", "offered")
        offered = mode == "offered"
        for i in range(len(path) - 1, -1, -1):
            seat, node = path[i][0], path[i][1]
            key = path[i][2] if len(path[i]) > 2 else None
            node.visits += 1
            # a rule that failed in this world: worse than anything seen for the mover,
            # so a failing option never ties with one that can be carried out
            reward = rewards[seat] if rewards is not None else self.failed(seat)
            node.total += reward
            seen = self.history.get(key)
            if seen is None:
                if key is not None:
                    self.history[key] = [reward, 1]
            else:
                seen[0] += reward
                seen[1] += 1
            node.value = node.total / node.visits
            if best and i + 1 < len(path) and path[i + 1][0] == seat:
                # the mover's own next choice: the node is worth its best option (among
                # the mover's own; in another world another seat may have answered next)
                mine = f"{seat}|"
                tried = [c for k, c in node.children.items() if c.visits and k.startswith(mine)]
                if 2 * sum(c.visits for c in tried) >= node.visits:
                    k = self.agent.shrink or 0
                    if k:
                        # each option's worth drawn toward the node's mean by its few
                        # tries: the best of many barely tried options is no better
                        # than the best of a few (the most of noisy means is biased up)
                        worth = [(c.visits * c.value + k * node.total / node.visits)
                                 / (c.visits + k) for c in tried]
                    else:
                        worth = [c.value for c in tried]
                    if offered:
                        node.value = expected_best(node, tried, worth)
                    else:
                        node.value = max(worth)


def expected_best(node: Node, tried: list[Node], worth: list[float]) -> float:
    """What a choice is worth to the seat that makes it (``backup=offered``): the best of
    the options on offer, on average over the worlds the choice was asked in.

    An option that only some worlds offer (a card drawn blind, a space a hidden card
    opens) is the seat's best only where it is there: each option is on offer in the
    share of the worlds asked since it was first seen, those shares are taken as
    independent, and the options are taken best first, each where no better one is
    on offer; where none of them is, the node's own mean stands. An option offered in
    every world ends the sum, so with no such options this is the best worth (``max``)."""
    mean = node.total / node.visits
    value, rest = 0.0, 1.0
    for w, child in sorted(zip(worth, tried), key=lambda wc: -wc[0]):
        share = min(1.0, child.offered / max(1, node.asked - child.born))
        value += rest * share * w
        rest *= 1.0 - share
        if rest <= 0.0:
            return value
    return value + rest * mean


class ISMCTSAgent(Agent):
    """Searches each action with ISMCTS; answers the action's inner choices from its tree."""

    name = "ismcts"
    wants_view = False  # it searches determinised copies of the game instead
    searches_rules = True  # the game keeps where a rule of the flow started (choose_in_rule)

    def __init__(self, seed: int, iterations: int | None = None, seconds: float | None = None,
                 playout: str = "random", depth: int = 2, c: float = 0.7, widen: float = 0.5,
                 reward: str = "margin", expand: str = "path", turns: int = 0,
                 inner: str = "search", backup: str | None = None, sets: str = "rank",
                 prior: str = "history", eval: str = "learned", shrink: float | None = None,
                 free: str | None = None, turn_end: str | None = None):
        self.rng = random.Random(seed)
        self.eval = eval  # learned (the ruleset's learned evaluation when it has one) or written
        self.iterations = iterations if iterations is not None or seconds is not None \
            else DEFAULT_ITERATIONS
        self.seconds = seconds
        self.playout = playout
        self.depth = depth
        self.c = c
        self.widen = widen
        self.reward = reward
        self.expand = expand
        self.turns = turns
        self.inner = inner
        self.backup = backup  # None: what the ruleset's weights file says, else max
        self.sets = sets
        self.prior = prior
        # with backup=max, each option's worth weighed against the node's mean as if it had
        # this many more tries at the mean (0: the best option's worth as it stands; None:
        # what the ruleset's weights file says, else 0)
        self.shrink = shrink
        # whether a free action (one the rules mark ``free``: it takes no action of the
        # turn) counts as one of the ``depth`` further actions of the horizon (``count``)
        # or not (``extra``); None: what the ruleset's weights file says, else ``count``
        self.free = free
        # whether a search's further actions run past the real turn's end, standing for the
        # seat's next turn (``past``), or stop with the turn's main actions (``stop``: the
        # free ones after them still taken); None: the weights file's, else ``past``
        self.turn_end = turn_end
        self.turn_taken = (-1, 0)  # (the real turn's number, the main actions taken in it)
        self.main_chosen = False  # whether the action chosen last was one of the turn's
        # a set being picked (``sets=rank``): the items still to pick, by identity, and the
        # record's length at the next pick of the same question (it follows at once)
        self.set_plan: tuple[list[str], int] | None = None
        self.node: Node | None = None  # where the real game is in the last search's tree
        # actions the real game refused at this point (it asks again): never chosen again
        self.refused_here: tuple[str, set[str]] = ("", set())
        self.last_key: str | None = None
        self.last_iterations = 0  # how many the last search ran (for the benchmarks)

    def decide(self, decision, view, game):
        if self.shrink is None:
            self.shrink = float(self.file_settings(game).get("shrink", 0.0))
        if self.free is None:
            self.free = str(self.file_settings(game).get("free", "count"))
        if self.backup is None:
            self.backup = str(self.file_settings(game).get("backup", "max"))
        if self.turn_end is None:
            self.turn_end = str(self.file_settings(game).get("turn_end", "past"))
        if decision.kind == "action":
            here = game.state.digest()  # (a refused action leaves the position as it was)
            if self.refused_here[0] != here:
                self.refused_here = (here, set())
            root = self.search(game, decision)
            answer = self.follow(root, decision, game, fallback=False,
                                 exclude=self.refused_here[1])
            self.last_key = f"{decision.player}|action|{identity(decision, answer, game)}"
            turn = game.state.turn_number
            taken = self.turn_taken[1] if self.turn_taken[0] == turn else 0
            chosen = decision.options[answer].value
            main = getattr(chosen, "key", None) not in ("end", "pass", None) \
                and not _free(chosen)
            self.turn_taken = (turn, taken + main)
            self.main_chosen = main
            return answer
        if decision.some and self.sets == "rank":
            answer = self.pick_set(decision, game)
            if answer is not None:
                return answer
        if self.node is not None:
            answer = self.follow(self.node, decision, game, fallback=True)
            if answer is not None:
                return answer
        self.node = None
        start = game.action_start
        if self.inner == "search" and start is not None \
                and all(d == decision.player for d in game.deciders[start[1]:]):
            # a choice inside an action the tree does not cover (an action taken
            # without asking, or one the search never reached): search from its start
            answer = self.follow(self.search(game, decision, start), decision, game,
                                 fallback=True)
            if answer is not None:
                return answer
            self.node = None
        if start is None and game.rule_start is not None:
            # a choice the flow's own rules ask: each answer tried on copies of the rule
            from .lookahead import choose_in_rule
            steps, per_game = self.allowance()
            answer = choose_in_rule(
                game, decision, self.rng, max(2, (self.iterations or DEFAULT_ITERATIONS) // 20),
                lambda runner, seat: self._rewards(runner, runner.game, seat)[seat],
                steps, per_game, "ismcts")
            if answer is not None:
                return answer
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))

    def file_settings(self, game) -> dict:
        """The search settings the ruleset's weights file gives (its ``search``; none when
        the agent plays with the written evaluation or the ruleset has no file)."""
        if self.eval != "learned":
            return {}
        from .learned import learned_value
        value = learned_value(game.rs)
        return dict(value.data.get("search") or {}) if value is not None else {}

    def pick_set(self, decision: Decision, game) -> int | None:
        """The next pick of a set chosen as a whole (``sets=rank``), or None when the set
        cannot be weighed here (a question asked outside any action, or one whose
        action holds other seats' answers): the caller answers it as before.

        The first pick of a set weighs sets, not items one by one: on the same few
        copies of the game (each dealt from the position before the action, the
        action carried out again with the answers given in it so far), each item
        alone is tried, and nothing; the items are then ranked by what they alone
        bring, and each set of the best 2, 3, ... of them is tried too. The set
        whose copies end best on average (the rest of the action and the turn
        answered by the playout policy, then the evaluation) is picked, item by item,
        in the later picks of the same question."""
        if self.set_plan is not None:
            plan, at = self.set_plan
            self.set_plan = None
            keys = [identity(decision, a, game) for a in range(len(decision.options))]
            if len(game.record) == at and all(alike(k) in keys for k in plan):
                return self._next_pick(decision, game, keys, plan)
        keys = set_keys(decision, game)
        start = game.action_start
        if start is None or not all(d == decision.player for d in game.deciders[start[1]:]):
            return None
        items = [k for a, k in enumerate(keys) if decision.options[a].value is not None]
        ranked = self._rank_set(game, decision, start, items)
        if ranked is None:
            return None
        return self._next_pick(decision, game, keys, ranked)

    def _next_pick(self, decision: Decision, game, keys: list[str], plan: list[str]) -> int:
        if not plan:
            done = decision.declining()
            return done if done is not None else 0
        self.set_plan = (plan[1:], len(game.record) + 1)
        return [alike(k) for k in keys].index(alike(plan[0]))

    def _rank_set(self, game, decision: Decision, start: tuple,
                  items: list[str]) -> list[str] | None:
        """The best set of ``items`` found (in the order to pick them), or None when no
        copy could be played through."""
        from ..engine.flow import FlowRunner
        from .lookahead import Dealing, determinise
        seat = decision.player
        base = game.__copy__()
        base.state = base.action_start[0]
        replay = game.record[start[1]:]
        dealing = Dealing(base, seat)
        further = self._further_actions(game)
        further = further + (self._main_left(game, further[1]),)
        search = Search(self, game.n, seat)
        copies = max(2, (self.iterations or DEFAULT_ITERATIONS) // 20)
        worlds = [self.rng.getrandbits(32) for _ in range(copies)]
        steps, per_game = self.allowance()
        work = SearchBudget.opened(game.budget, seat, steps, per_game)
        tried: dict[tuple, float] = {}
        played = [0]

        def value(chosen: tuple) -> float | None:
            if chosen in tried:
                return tried[chosen]
            total, n = 0.0, 0
            for w in worlds:
                world = determinise(base, seat, random.Random(w), work, dealing)
                if work.over():
                    self._spent(work, None)
                    break
                walker = _SetWalker(search, replay, decision, list(chosen))
                world.agents = [walker] * game.n
                runner = FlowRunner(world)
                work.trial()
                saved = self.rng  # the copy's playouts draw from the world's own numbers
                search.rng = random.Random(w + 1)
                try:
                    ok = self._turn(world, runner, walker, None, start[3], further, start[2])
                    reward = self._rewards(runner, world, seat)[seat] if ok else None
                except _Diverged:
                    continue
                except (RequirementFailed, ActionRefused, RuleRuntimeError, RecursionError) as exc:
                    if work.over():
                        self._spent(work, exc)
                        break
                    reward = None
                finally:
                    search.rng = saved
                if walker.expect is not None:
                    continue  # this copy never asked the question
                # a set the rules refuse in a copy: worse than any outcome seen
                total += reward if reward is not None else -1e9
                n += 1
                played[0] += 1
            tried[chosen] = total / n if n else None
            return tried[chosen]

        try:
            nothing = value(())
            alone = {k: value((k,)) for k in items}
            order = sorted((k for k in items if alone[k] is not None),
                           key=lambda k: -alone[k])  # (a stable sort: ties keep the list's order)
            best, best_value = (), nothing
            for size in range(1, min(decision.some, len(order)) + 1):
                if work.over():
                    break
                chosen = tuple(order[:size])
                v = alone[chosen[0]] if size == 1 else value(chosen)
                if v is not None and (best_value is None or v > best_value):
                    best, best_value = chosen, v
        finally:
            work.close()
        self.last_iterations = played[0]
        if best_value is None:
            return None
        return list(best)

    def allowance(self) -> tuple[int, int]:
        """The steps its searches may do per decision and per game: the defaults', in
        proportion to the iterations asked for (or 200 a second of ``seconds``), and more
        for each turn played on and each further action past 2."""
        if self.iterations is not None:
            more = self.iterations / DEFAULT_ITERATIONS
        else:
            more = max(1.0, self.seconds)  # as if 200 iterations a second
        more *= (self.turns + 1) * max(1.0, (self.depth + 1) / 3)
        return int(ISMCTS_SEARCH_STEPS * more), int(ISMCTS_GAME_STEPS * more)

    def action_failed(self, label: str, reason: str) -> None:
        """The real game refused the action chosen last: it is not chosen again here."""
        if self.last_key is not None:
            self.refused_here[1].add(self.last_key)
        if self.main_chosen:  # (the refused action took none of the turn's)
            self.turn_taken = (self.turn_taken[0], self.turn_taken[1] - 1)
            self.main_chosen = False
        self.node = None

    def follow(self, node: Node, decision: Decision, game, fallback: bool,
               exclude: set[str] = frozenset()):
        """The most visited of the options the real decision allows (None: none visited)."""
        best, best_key, best_rank = None, None, (0, -math.inf)
        for a in candidates(decision):
            key = f"{decision.player}|{decision.kind}|{identity(decision, a, game)}"
            if key in exclude:
                continue
            child = node.children.get(key)
            if child is None or not child.visits:
                continue
            rank = (child.visits, child.total / child.visits)  # most tried, then best
            if rank > best_rank:
                best, best_key, best_rank = a, key, rank
        if best is None:
            if fallback:
                return None
            left = [a for a in candidates(decision) if f"{decision.player}|{decision.kind}|"
                    f"{identity(decision, a, game)}" not in exclude]
            best, best_key = (left or candidates(decision))[0], None
        self.node = node.children.get(best_key) if best_key else None
        return best

    def search(self, game, decision: Decision, inside: tuple | None = None) -> Node:
        """The tree of one search from ``decision``.

        ``inside`` is ``Game.action_start`` for a decision inside a running action:
        each copy is then dealt from the position before the action, the action is
        carried out again with the answers given in it so far, and the tree starts
        at the decision that follows (a copy that goes another way is dropped)."""
        from ..engine.flow import FlowRunner
        from .lookahead import Dealing, determinise
        seat = decision.player
        root = Node()
        search = Search(self, game.n)
        further = self._further_actions(game)
        further = further + (self._main_left(game, further[1]),)
        base, replay = game, None
        if inside is not None:
            base = game.__copy__()
            base.state = base.action_start[0]  # (a copy holds that position as a state)
            replay = game.record[inside[1]:]
        dealing = Dealing(base, seat)  # the position stands still while it searches
        steps, per_game = self.allowance()
        work = SearchBudget.opened(game.budget, seat, steps, per_game)
        start = time.perf_counter()
        done = dropped = 0
        try:
            while True:
                if self.iterations is not None and done >= self.iterations:
                    break
                if self.seconds is not None and done and \
                        time.perf_counter() - start >= self.seconds:
                    break
                if dropped > 2 * (self.iterations or 100) and dropped > 4 * done:
                    break  # this action rarely comes out the same in a copy: stop trying
                world = determinise(base, seat, self.rng, work, dealing)
                if work.over():
                    self._spent(work, None)
                    break
                walker = _Walker(search, root, replay, decision if inside is not None else None)
                world.agents = [walker] * game.n
                runner = FlowRunner(world)
                work.trial()
                try:
                    if inside is None:
                        done_it = self._turn(world, runner, walker, decision, seat, further)
                    else:
                        done_it = self._turn(world, runner, walker, None, inside[3], further,
                                             inside[2])
                    if done_it and self.turns:
                        self._beyond(world, runner, walker)
                    rewards = self._rewards(runner, world, seat) if done_it else None
                except _Diverged:
                    dropped += 1
                    continue
                except (RequirementFailed, ActionRefused, RuleRuntimeError, RecursionError) as exc:
                    if work.over():  # out of steps: this iteration counts for nothing
                        self._spent(work, exc)
                        break
                    rewards = None
                if inside is not None and walker.expect is not None:
                    dropped += 1  # the action ended before it asked what the real game asks
                    continue
                search.backup(walker.path, rewards)
                root.visits += 1
                done += 1
        finally:
            work.close()
        self.last_iterations = done
        return root

    @staticmethod
    def _spent(work: SearchBudget, stopped: BaseException | None) -> None:
        """Out of steps: the search stops; an error once the seat's searches are out of
        steps for the game."""
        if work.spent == "game":
            from .lookahead import out_of_lookahead
            work.close()
            raise out_of_lookahead("ismcts", work, stopped)

    def _further_actions(self, game) -> tuple[int, dict | None]:
        """How many more actions the turn may hold after this one, and the phase's turns."""
        entry = game.rs.sections["phases"].get(game.state.phase)
        turns = (entry.data.get("turns") if entry is not None else None) or None
        if not turns:
            return 0, None
        return max(0, min(self.depth, int(turns.get("actions", 1)) - 1)), turns

    def _main_left(self, game, turns: dict | None) -> int | None:
        """(``turn_end=stop``) the main actions the real turn has not taken yet, an action
        under way counted as taken; None when the turn's actions are not counted so."""
        if self.turn_end != "stop" or not turns or turns.get("count") is False:
            return None
        taken = self.turn_taken[1] if self.turn_taken[0] == game.state.turn_number else 0
        return max(0, int(turns.get("actions", 1)) - taken)

    def _turn(self, world, runner, walker, decision, seat, further, choice=None) -> bool:
        """The chosen action with its inner choices, then up to ``further`` more actions.

        The action is the walker's answer to ``decision``, or ``choice`` when it is
        already under way in the real game. With ``free=extra`` only main actions are
        counted: the chosen one (when it is free and the decision offered a main
        action, the horizon holds one main action more), then ``further`` more, and the
        free actions between and after them (at most :data:`FREE_IN_HORIZON`). False
        when it could not be carried out in this world (it was rolled back): the worst
        outcome for the seat, as the real game would refuse it."""
        count, turns = further[:2]
        left = further[2] if len(further) > 2 else None
        if choice is None:
            index = walker.decide(decision, None, world)
            choice = decision.options[index].value
            if choice.key in ("end", "pass"):
                return True
            if self.free == "extra" and _free(choice) and any(
                    not _free(o.value) for o in decision.options
                    if o.value.key not in ("end", "pass")):
                count += 1  # (the free action chosen first: the turn's main one is still to come)
            if left is not None and not _free(choice):
                left -= 1  # (the chosen action is one of those the turn has left)
        elif self.free == "extra" and _free(choice):
            count += 1
        if left is not None:
            count = min(count, left)  # (the copy stops where the real turn's actions do)
        if not runner.perform(choice, seat):
            return False
        pid = world.state.phase
        extra = self.free == "extra"
        free_left = FREE_IN_HORIZON if extra else 0
        from ..engine.flow import ActionChoice
        while count > 0 or free_left > 0:
            if world.state.over or world.state.phase != pid:
                return True
            # (no words made; with no main action left in the horizon, free ones only)
            choices, _ = runner.menu(pid, seat, turns, main_left=count > 0)
            opts = list(choices.values())
            if not extra:
                pass
            elif count <= 0:
                opts = [o for o in opts if _free(o)]
            elif free_left <= 0:
                opts = [o for o in opts if not _free(o)]
            if not opts:
                return True
            opts.append(ActionChoice("end", "end turn"))
            nxt = Decision(seat, "action", "", [Option(o.words if isinstance(o.words, str)
                                                       else o.said, o, o.key) for o in opts])
            pick = opts[world.decide(nxt)]
            if pick.key == "end":
                return True
            if extra and _free(pick):
                free_left -= 1
            else:
                count -= 1
            if not runner.perform(pick, seat):
                return True  # (a further action that fails leaves the turn as it was)
        return True

    def _beyond(self, world, runner, walker) -> None:
        """Play the copy on past the seat's turn, every seat by the playout policy.

        The flow picks up where the real turn will end (``Game.after_turn``) and
        stops once ``turns`` more turns have ended, or at the end of the game. In a
        simultaneous phase there is no such place, and the horizon stays the turn."""
        from ..engine.flow import StopFlow
        from ..engine.game import NO_OWNER
        cursor = world.after_turn
        if cursor is None or world.state.over:
            return
        walker.in_tree = False
        world.state.turn_seat = NO_OWNER
        ended = [0]

        def stop(kind, name) -> bool:
            ended[0] += kind == "turn"
            return ended[0] >= self.turns

        runner.stop_at = stop
        try:
            runner.play(cursor)
        except StopFlow:
            pass
        finally:
            runner.stop_at = None

    def _rewards(self, runner, world, seat: int) -> list[float]:
        from .lookahead import evaluate
        values = evaluate(runner, range(world.n), self.eval)
        if world.n == 1 or self.reward == "own":
            return [float(v) for v in values]
        out = []
        for p, v in enumerate(values):
            others = max(values[q] for q in range(world.n) if q != p)
            out.append(float(v - others))
        return out
