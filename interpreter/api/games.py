"""A game to step through from Python: your decisions, the agents' answers, the end.

:class:`Game` runs on the play room's
:class:`~rulebook_games.play.stream.DecisionStream`: the engine runs on a
thread of its own and hands out every decision. Seats played by agents are
answered here, on the caller's thread, exactly as the engine asks an agent
(the seat's view when the agent wants it, an unusable answer refused and
asked again), so a game is the same as ``rulebook play`` or ``simulate``
plays for the same seed, and a Ctrl-C while an agent thinks leaves the game
waiting at that decision. The thread holds no reference to the Game: a
Game that is closed, left by a ``with`` block, or collected ends its
thread (``weakref.finalize``, which also runs at exit).
"""

from __future__ import annotations

import weakref
from pathlib import Path

from ..lang.runtime import RuleRuntimeError
from ..play.session import GameError, build_game, make_record, run
from ..play.stream import DecisionStream
from . import seats as S
from .decisions import Decision, read_answer
from .results import Result
from .rulesets import check_setup, ruleset_of


class Game:
    """A game in progress, waiting on one of your seats (or over). Use :func:`new_game`."""

    def __init__(self, rs, players: int, seed: int, variants: tuple, agents: list):
        self.ruleset = rs
        self.players = players
        self.seed = seed
        self.variants = list(variants)
        self._seats = [S.seated(a, seed, seat) for seat, a in enumerate(agents)]
        # the agents the engine tells of their rolled-back actions: shared with the
        # stream, changed in place when seats are handed over (it never holds the Game)
        self._told = [s.agent for s in self._seats]
        self._decision: Decision | None = None
        self._result: Result | None = None
        self._closed = False
        self._failed: GameError | None = None
        self._saved: list = []  # where this game was saved: those files it may replace
        try:
            self._stream = DecisionStream(rs, players, seed, tuple(variants),
                                          kinds=[s.kind for s in self._seats],
                                          told=self._told, keep_log=True)
        except GameError as exc:
            if exc.span is None:  # a setup the ruleset does not allow (checked before)
                raise ValueError(exc.message) from None
            raise
        self._finalizer = weakref.finalize(self, self._stream.close)
        try:
            self._advance()
        except BaseException:  # nobody gets this game: its thread ends now
            self._closed = True
            self._finalizer()
            raise

    # ------------------------------------------------------------ what is asked
    @property
    def decision(self) -> Decision | None:
        """The decision waiting for your answer; None once the game is over (or closed)."""
        if self._closed:
            return None
        self._stream.catch_up()
        current = self._stream.current
        if current is None:
            return None
        if self._decision is None or self._decision._source is not current:
            self._decision = Decision(current, self._stream.game,
                                      len(self._stream.game.record) + 1)
        return self._decision

    def answer(self, choice) -> Decision | None:
        """Answer the decision; the agents play on to your next one, which is returned."""
        decision = self._waiting("answer")
        index = read_answer(decision, choice)
        decision._keep()  # its words, as they were when it was asked
        self._send(index)
        self._advance()
        return self.decision

    def play(self, agents=None) -> Result:
        """Hand seats over to ``agents`` and play to the end; the Result.

        ``agents`` is as for :func:`new_game`, except that a dict leaves the
        seats it does not name as they are. Every seat must then be an agent's."""
        if self.over:
            return self.result
        self._waiting("play on")
        if agents is not None:
            wanted = S.listed(agents, self.players, unnamed=S.KEEP)
            seats = [self._seats[i] if a is S.KEEP else
                     S.seated(a, self.seed, i, yours_allowed=False)
                     for i, a in enumerate(wanted)]
        else:
            seats = list(self._seats)
        yours = [i + 1 for i, s in enumerate(seats) if s.yours]
        if yours:
            raise ValueError(f"seat {yours[0]} is yours: play() plays to the end, so give it "
                             f"an agent (for example game.play(agents={{{yours[0]}: "
                             "'greedy'}))")
        self._seats = seats
        self._told[:] = [s.agent for s in seats]
        self._advance()
        return self.result

    # ------------------------------------------------------------ what is seen
    def view(self, seat: int | None = None) -> dict:
        """What ``seat`` may see now (the deciding seat's when none is given)."""
        if seat is None:
            decision = self.decision
            if decision is None:
                raise ValueError("no seat is deciding: give the seat, view(1)")
            seat = decision.seat
        self._seat_number(seat)
        return self._stream.game.view(seat - 1)

    @property
    def log(self) -> list[str]:
        """The log so far: what every seat may know, a line each."""
        return [line for line in self._stream.game.log_lines if line]

    def log_for(self, seat: int) -> list[str]:
        """The log as ``seat`` reads it (its own hidden cards by name)."""
        self._seat_number(seat)
        g = self._stream.game
        return [line for line in (g.log_line_for(i, seat - 1) for i in range(len(g.log_lines)))
                if line]

    @property
    def over(self) -> bool:
        if not self._closed:
            self._stream.catch_up()
        return self._stream.result is not None

    @property
    def result(self) -> Result | None:
        """The result once the game is over; None before."""
        if self._result is None and self.over:
            self._result = Result.of(self._stream.result)
        return self._result

    @property
    def agents(self) -> list[str]:
        """Who plays each seat: "me", or the agent's spec (its name for an object)."""
        return [s.shown for s in self._seats]

    @property
    def engine(self):
        """The engine's own game (not part of the stable API; never change its state)."""
        return self._stream.game

    # ------------------------------------------------------------ keeping and closing
    def save(self, path) -> Path:
        """Write the game's record (finished or not) to ``path``; the path."""
        from ..outfiles import OutputProblem, Replace, same_file, write_file
        # a file is replaced only when it is this game's own earlier save: nothing else
        # the user had is lost
        own = Replace(lambda p, head: any(same_file(p, s) for s in self._saved),
                      "a record this game saved", "give another path, or remove the file first")
        record = make_record(self._stream.game, self.ruleset, [s.kind for s in self._seats],
                             self._stream.result, list(self.ruleset.mods))
        try:
            target = write_file(path, record.text_for(path), "path", own)
        except OutputProblem as exc:
            raise ValueError(exc.message) from None
        self._saved.append(target)
        return Path(path)

    def close(self) -> None:
        """Stop the game if it is not over; its thread ends. It takes no more answers."""
        if not self.over:
            self._closed = True
        self._finalizer()

    def __enter__(self) -> "Game":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        rs = self.ruleset
        head = f"<Game {rs.id[:40]} seed {self.seed}, {self.players} players"
        if self.over:
            return f"{head}: over, {repr(self.result)[len('<Result '):-1]}>"
        if self._closed or self._failed is not None:
            number = len(self._stream.game.record) + 1
            why = "closed" if self._closed else "stopped by an error"
            return f"{head}: {why} at decision {number}>"
        decision = self.decision
        if decision is None:
            return f"{head}>"
        inner = repr(decision)[len("<Decision "):-1]
        number, _, rest = inner.partition(", ")
        return f"{head}: decision {number}, {rest}>"

    # ------------------------------------------------------------ inside
    def _waiting(self, what: str) -> Decision:
        if self._closed:
            raise RuntimeError(f"cannot {what}: the game is closed")
        if self._failed is not None:
            raise RuntimeError(f"cannot {what}: the game stopped with an error "
                               f"({self._failed})")
        decision = self.decision
        if decision is None:
            raise RuntimeError(f"cannot {what}: the game is over ({self.result!r})")
        return decision

    def _seat_number(self, seat) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or \
                not 1 <= seat <= self.players:
            raise ValueError(f"there is no seat {seat!r:.20}: seats are 1 to {self.players}")

    def _send(self, answer: int) -> None:
        try:
            self._stream.answer(answer)
        except GameError as exc:
            self._failed = exc
            raise

    def _advance(self) -> None:
        """Let the agents answer their seats until one of yours is asked, or the end."""
        stream = self._stream
        stream.catch_up()
        while stream.current is not None:
            decision = stream.current
            agent = self._seats[decision.player].agent
            if agent is None:
                return
            self._send(self._agent_answer(agent, decision))

    def _agent_answer(self, agent, decision) -> int:
        """What the engine itself would get from the agent (see engine.asking._ask)."""
        game = self._stream.game
        try:
            while True:
                view = game.view(decision.player) if getattr(agent, "wants_view", True) \
                    else None
                answer = agent.decide(decision, view, game)
                problem = decision.check(answer)
                if problem is None:
                    return int(answer)
                if getattr(agent, "scripted", False):
                    raise GameError(f"decision {len(game.record) + 1} is refused: {problem} "
                                    f"({decision.prompt})")
                agent.refused(decision, problem)
        except RuleRuntimeError as exc:  # a user's agent failed (or a rule inside its search)
            raise GameError(exc.message, exc.span) from None


def new_game(ruleset, players: int | None = None, seed: int = 1, variants=(),
             agents=None) -> Game:
    """Set up a game and play it up to the first decision that is yours.

    ``agents`` says who plays each seat (docs/api.md): without it, every seat is
    yours. ``players`` is the ruleset's least player count unless given (or
    unless ``agents`` lists one agent a seat)."""
    rs = ruleset_of(ruleset)
    if isinstance(variants, str):
        variants = [variants]
    if players is None:
        players = S.count(agents) or rs.min_players
    check_setup(rs, players, variants)
    _check_seed(seed)
    return Game(rs, players, seed, tuple(variants), S.listed(agents, players))


def play_game(ruleset, players: int | None = None, seed: int = 1, variants=(),
              agents="greedy") -> Result:
    """A whole game between agents; its Result (the game ``simulate`` plays for the seed)."""
    rs = ruleset_of(ruleset)
    if players is None:
        players = S.count(agents) or rs.min_players
    if isinstance(variants, str):
        variants = [variants]
    check_setup(rs, players, variants)
    _check_seed(seed)
    seats = []
    for seat, agent in enumerate(S.listed(agents, players)):
        if S.is_yours(agent):
            raise ValueError(f"agents: seat {seat + 1} is yours ({agent!r}): play_game "
                             "plays agents only (new_game steps a game with your seats)")
        seats.append(S.seated(agent, seed, seat))
    # nobody steps it: played straight through on this thread, as simulate plays it
    game = build_game(rs, players, seed, [s.kind for s in seats], tuple(variants),
                      live_agents=[s.agent for s in seats])
    return Result.of(run(game))


def _check_seed(seed) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed is a whole number, not {seed!r:.40}")
    if not -(2 ** 63 - 1) <= seed <= 2 ** 63 - 1:
        raise ValueError("seed is a whole number from -(2**63 - 1) to 2**63 - 1")
