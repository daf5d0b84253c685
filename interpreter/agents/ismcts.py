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
then up to ``depth`` further actions of the same turn (never more than the
phase allows). With ``turns`` the copy is then played on from where the
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
the poor answers tried inside it.

Nodes are keyed by what an option is, never by where it lies in a list or by
the objects of one determinisation: an action by its key, a card by its
card id (a card chosen blind by its place in the list), a space or any other
item by its id, a number by itself. Long lists
are widened progressively: a node considers ``2 * visits ** widen`` of its
options, in a fixed order drawn once per node (a range: its largest, its
smallest, then evenly spread values, at most 64 of them).

After the search the agent takes the option tried most often, and answers
the inner choices that follow in the real game from the same tree (the
option with most visits among those the real decision allows); an action
the real game then refuses is not chosen again at that position. A choice
inside an action that the tree does not cover (an action taken without
asking, or one the search never reached) is searched from the action's start
(``Game.action_start``: the copy is dealt from the position before it and
replays the answers given in it so far; ``inner=random`` answers it at
random instead); a choice outside any action is answered at random. With
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
DECLINING = {"end", "pass", "none", "no"}


class Node:
    """One option taken from the parent: visits, times available, total reward."""

    __slots__ = ("children", "order", "visits", "avail", "total", "value")

    def __init__(self):
        self.children: dict = {}
        self.order: dict = {}  # child key -> rank (the order options are widened in)
        self.visits = 0
        self.avail = 0
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
        self.path: list[tuple[int, Node]] = []  # (seat that moved, node moved into)
        self.in_tree = True
        # a search from inside an action: the answers given in it so far, replayed, and
        # the decision the tree starts at (this copy must reach the same one)
        self.replay = list(replay) if replay else []
        self.expect = expect

    def decide(self, decision, view, game):
        if self.replay:
            answer = self.replay.pop(0)
            if decision.check(answer) is not None:
                raise _Diverged
            return answer
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
        pick = self.search.select(self.node, keys)
        child = self.node.children[keys[pick]]
        self.path.append((decision.player, child))
        if child.visits == 0 and self.search.agent.expand == "one":
            self.in_tree = False  # the new node: from here on, the playout
        self.node = child
        return answers[pick]


class Search:
    """One search from one decision: the tree, its statistics and its settings."""

    def __init__(self, agent: "ISMCTSAgent", players: int):
        self.agent = agent
        self.rng = agent.rng
        self.low = [math.inf] * players
        self.high = [-math.inf] * players

    def select(self, node: Node, keys: list[str]) -> int:
        """The index of the option to take at ``node`` among ``keys`` (UCT, widened)."""
        rng = self.rng
        fresh = [k for k in dict.fromkeys(keys) if k not in node.order]
        if len(fresh) > 1 and "|number|" not in fresh[0]:  # (a range keeps its own order)
            rng.shuffle(fresh)
        for k in fresh:
            node.order[k] = len(node.order)
        allowed_rank = max(2, math.ceil(2 * (node.visits + 1) ** self.agent.widen))
        first = {}
        for i, k in enumerate(keys):
            first.setdefault(k, i)
        allowed = [k for k in first if node.order[k] < allowed_rank]
        if not allowed:
            allowed = [min(first, key=node.order.__getitem__)]
        best, best_score, unvisited = None, -math.inf, []
        for k in sorted(allowed, key=node.order.__getitem__):
            child = node.children.get(k)
            if child is None:
                child = node.children[k] = Node()
            child.avail += 1
            if child.visits == 0:
                unvisited.append(k)
                continue
            score = self.mean(child, int(k.split("|", 1)[0])) + self.agent.c * math.sqrt(
                math.log(child.avail) / child.visits)
            if score > best_score:  # (strictly: the earliest rank wins ties)
                best, best_score = k, score
        if unvisited:  # every option is tried once before any is tried again
            best = unvisited[0] if self.agent.expand == "one" else self.first_try(unvisited)
        return first[best]

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

    def backup(self, path: list[tuple[int, Node]], rewards: list[float] | None) -> None:
        if rewards is not None:
            for seat, value in enumerate(rewards):
                self.low[seat] = min(self.low[seat], value)
                self.high[seat] = max(self.high[seat], value)
        best = self.agent.backup == "max"
        for i in range(len(path) - 1, -1, -1):
            seat, node = path[i]
            node.visits += 1
            # a rule that failed in this world: worse than anything seen for the mover,
            # so a failing option never ties with one that can be carried out
            node.total += rewards[seat] if rewards is not None else self.failed(seat)
            node.value = node.total / node.visits
            if best and i + 1 < len(path) and path[i + 1][0] == seat:
                # the mover's own next choice: the node is worth its best option (among
                # the mover's own; in another world another seat may have answered next)
                mine = f"{seat}|"
                tried = [c for k, c in node.children.items() if c.visits and k.startswith(mine)]
                if 2 * sum(c.visits for c in tried) >= node.visits:
                    node.value = max(c.value for c in tried)


class ISMCTSAgent(Agent):
    """Searches each action with ISMCTS; answers the action's inner choices from its tree."""

    name = "ismcts"
    wants_view = False  # it searches determinised copies of the game instead

    def __init__(self, seed: int, iterations: int | None = None, seconds: float | None = None,
                 playout: str = "random", depth: int = 2, c: float = 0.7, widen: float = 0.5,
                 reward: str = "margin", expand: str = "path", turns: int = 0,
                 inner: str = "search", backup: str = "max", eval: str = "learned"):
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
        self.backup = backup
        self.node: Node | None = None  # where the real game is in the last search's tree
        # actions the real game refused at this point (it asks again): never chosen again
        self.refused: tuple[str, set[str]] = ("", set())
        self.last_key: str | None = None
        self.last_iterations = 0  # how many the last search ran (for the benchmarks)

    def decide(self, decision, view, game):
        if decision.kind == "action":
            here = game.state.digest()  # (a refused action leaves the position as it was)
            if self.refused[0] != here:
                self.refused = (here, set())
            root = self.search(game, decision)
            answer = self.follow(root, decision, game, fallback=False,
                                 exclude=self.refused[1])
            self.last_key = f"{decision.player}|action|{identity(decision, answer, game)}"
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
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))

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
            self.refused[1].add(self.last_key)
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

    def _turn(self, world, runner, walker, decision, seat, further, choice=None) -> bool:
        """The chosen action with its inner choices, then up to ``further`` more actions.

        The action is the walker's answer to ``decision``, or ``choice`` when it is
        already under way in the real game. False when it could not be carried out in
        this world (it was rolled back): the worst outcome for the seat, as the real
        game would refuse it."""
        count, turns = further
        if choice is None:
            index = walker.decide(decision, None, world)
            choice = decision.options[index].value
            if choice.key in ("end", "pass"):
                return True
        if not runner.perform(choice, seat):
            return False
        pid = world.state.phase
        for _ in range(count):
            if world.state.over or world.state.phase != pid:
                return True
            choices, _ = runner.menu(pid, seat, turns, main_left=True)  # (no words made)
            opts = list(choices.values())
            if not opts:
                return True
            from ..engine.flow import ActionChoice
            opts.append(ActionChoice("end", "end turn"))
            nxt = Decision(seat, "action", "", [Option(o.words if isinstance(o.words, str)
                                                       else o.said, o, o.key) for o in opts])
            pick = opts[world.decide(nxt)]
            if pick.key == "end" or not runner.perform(pick, seat):
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
