"""The engine's decisions one at a time, for a caller that answers them when it likes.

The engine asks its questions from inside the rules (an effect may ask in
the middle of a card), so a game cannot be stopped and picked up between
two decisions. :class:`DecisionStream` runs the game on a thread of its own
with every seat answered by a bridge agent: at each decision the engine's
thread hands the decision over and waits for the answer, so exactly one of
the two threads runs at any time and the game is the same as when played
straight through. The game is built and run by the session functions that
the command line uses, so the engine stays the only one asking.

The learning environment (``env``) and the Python API (``api``) step games
with it. Closing a stream whose game waits for an answer ends its thread:
the bridge raises :class:`Closed` inside the engine, which unwinds it.
"""

from __future__ import annotations

import queue
import threading

from ..agents.base import Agent
from .session import GameError, build_game, run

_CLOSE = object()


class Closed(BaseException):
    """Raised inside the engine's thread when the stream is closed mid-game."""


class _Bridge(Agent):
    """A seat's agent: hands the decision to the stream and returns its answer.

    What the engine tells a seat's agent besides (an action of its that was
    rolled back, a question answered for it because it had one answer) goes
    to the agent in ``told[seat]``, when there is one."""

    name = "env"
    wants_view = False  # the caller reads the seat's view itself

    def __init__(self, stream: "DecisionStream", seat: int, told: list | None):
        self.stream = stream
        self.seat = seat
        self.told = told

    def decide(self, decision, view, game):
        return self.stream._ask(decision)

    @property
    def searches_rules(self) -> bool:
        """Whether the seat's agent, when there is one, searches the choices the flow's
        rules ask (the game then keeps where such a rule started)."""
        agent = self.told[self.seat] if self.told is not None else None
        return getattr(agent, "searches_rules", False)

    def action_failed(self, label, reason):
        agent = self.told[self.seat] if self.told is not None else None
        if agent is not None:
            agent.action_failed(label, reason)

    def taken(self, decision, game):
        agent = self.told[self.seat] if self.told is not None else None
        told = getattr(agent, "taken", None)
        if told is not None:
            told(decision, game)


class DecisionStream:
    """A game whose decisions come out one at a time: ``current`` until ``result``.

    ``kinds`` names each seat's player in the game and its record (``env``
    by default); ``told``, a list by seat that the caller may change as it
    goes, holds the agents to tell of their actions that were rolled back;
    ``keep_log`` keeps the game's log for the caller to read; ``seated`` (seat ->
    agent) seats agents that answer for themselves, on the game's thread: their
    decisions never come out.
    """

    def __init__(self, rs, players: int, seed: int, variants: tuple = (),
                 kinds: list[str] | None = None, told: list | None = None,
                 keep_log: bool = False, seated: dict | None = None):
        self._to_engine: queue.Queue = queue.Queue()
        self._to_caller: queue.Queue = queue.Queue()
        seated = seated or {}
        seats = [seated.get(seat) or _Bridge(self, seat, told) for seat in range(players)]
        self.kinds = list(kinds) if kinds is not None else ["env"] * players
        self.game = build_game(rs, players, seed, self.kinds, tuple(variants),
                               live_agents=seats)
        self.game.keep_log = keep_log  # nobody reads it unless asked; views carry the rest
        self.current = None  # the decision waiting for an answer
        self.result = None  # the game's Result once it is over
        self._pending = False  # answered, and the engine has not said what comes next
        self._thread = threading.Thread(target=self._play, daemon=True,
                                        name="rulebook-game")
        self._thread.start()
        try:
            self._wait()
        except KeyboardInterrupt:  # stopped while setting up: nobody will close it
            self.close()
            raise

    def _play(self) -> None:
        try:
            self._to_caller.put(("over", run(self.game)))
        except Closed:
            self._to_caller.put(("closed", None))
        except GameError as exc:
            self._to_caller.put(("error", exc))
        except BaseException as exc:  # pragma: no cover - handed over, raised there
            self._to_caller.put(("error", exc))

    def _ask(self, decision):
        self._to_caller.put(("decision", decision))
        answer = self._to_engine.get()
        if answer is _CLOSE:
            raise Closed
        return answer

    def _wait(self) -> None:
        self._pending = True
        kind, value = self._to_caller.get()
        self._pending = False
        if kind == "decision":
            self.current = value
        elif kind == "over":
            self.current, self.result = None, value
        elif kind == "error":
            self.current = None
            raise value
        else:
            self.current = None

    def answer(self, answer: int) -> None:
        """Answer the current decision; the game runs on to the next one (or to its end)."""
        self.catch_up()
        if self.current is None:
            raise RuntimeError("the game is not waiting for an answer")
        self.current = None
        self._to_engine.put(int(answer))
        self._wait()

    def catch_up(self) -> None:
        """Wait for what comes after an answer, if a Ctrl-C cut that wait short.

        The engine goes on to its next decision (or its end) by itself; until
        it gets there, ``current`` is None."""
        if self._pending:
            self._wait()

    @property
    def over(self) -> bool:
        return self.result is not None

    def close(self) -> None:
        """Stop a game that is still waiting for an answer (its thread ends)."""
        if threading.current_thread() is self._thread:
            return  # (the engine's own thread cannot wait for itself to end)
        try:
            self.catch_up()
        except Exception:  # the game ended in an error: its thread is gone
            pass
        if self.current is not None and self._thread.is_alive():
            self._to_engine.put(_CLOSE)
            self._to_caller.get()
            self.current = None
        self._thread.join(timeout=5)
