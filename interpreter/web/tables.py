"""A game at the server's table: seats, secret links, agents answering on a worker thread.

A :class:`Table` runs one game on the play room's
:class:`~rulebook_games.play.stream.DecisionStream` (the engine on a thread
of its own). A worker thread of the table is the only caller of the stream:
it answers agent seats (paced by ``delay`` seconds a move), carries out what
people send (an answer, undo) from its command queue, and after each step
makes what each watching seat may see and hands it to ``publish``. So the
engine is read and answered on one thread only, and the web server's event
loop never waits for an agent.

Each seat a person plays has a secret token (``secrets.token_urlsafe``), and
so has the spectators' link: :meth:`Table.who` turns a token into the seat it
opens (None for a spectator) or refuses it. A seat's messages carry that
seat's view only; a spectator's carry the public view.

A game of agents only is watched: it has one more token, the watch link's,
which opens the public view as the spectators' does and may also steer the
agents (:meth:`Table.steers`): their pace, pause, resume, and one move at a
time while paused. Such a game waits for its first page before the first
move, so the watcher sees it from its start.

Undo follows the terminal's rule (``play.terminal``): back to the seat's
previous decision when nobody else has decided since and nothing hidden or
random has come out since, and never once the game has ended; the game is
replayed from its record to there.
"""

from __future__ import annotations

import hmac
import queue
import secrets
import threading
import time
import types
from pathlib import Path

from ..agents.registry import agent_seed, make_agent
from ..api.decisions import Decision, read_answer
from ..play.news import NewsWords, news_lines, summarise
from ..play.session import GameError, make_record
from ..play.stream import DecisionStream
from ..play.terminal import HumanAgent, taken_words
from ..safe_text import visible
from .view import decision_data, result_data, seat_view

PERSON = "human"  # a seat a person plays, as a record names it
MAX_DELAY = 10.0  # seconds between two agent moves, at most
STEERING = ("pace", "pause", "resume", "step")  # what the watch link of agents' game sends
LOG_SHOWN = 200  # log lines a message carries (the page keeps no more)
TAKEN_SHOWN = 30  # answers taken for a person (one possible answer) a message carries, at most
NEWS_SHOWN = 40  # lines of news (what changed since a person's last answer) a message carries
SHOW_EVERY = 0.05  # seconds between two pictures of a run of agents' instant moves


class Refused(Exception):
    """A token, an answer or a command that this table does not take; the message says why."""


class _Person:
    """What the engine tells a seat a person plays (the stream's ``told``): each question
    it answered for them because it had one answer, kept to be shown in place."""

    def __init__(self, table: "Table", seat: int):
        self.table, self.seat = table, seat

    def taken(self, decision, game) -> None:
        # (on the engine's thread, while the table's waits for it: no lock needed)
        self.table.taken[self.seat].append((len(game.record), visible(taken_words(decision))))
        del self.table.taken[self.seat][:-TAKEN_SHOWN]

    def action_failed(self, label, reason) -> None:
        pass


class Table:
    """One game: its ruleset, its seats, its links and the thread that plays it."""

    def __init__(self, rs, players: int, seed: int, variants: tuple, kinds: list[str],
                 mods: list[str], save_to: Path, prefix: list[int] = (),
                 delay: float = 0.0, publish=None, ruleset_arg: str | None = None):
        self.id = secrets.token_urlsafe(12)
        self.rs = rs
        self.players = players
        self.seed = seed
        self.variants = tuple(variants)
        self.kinds = list(kinds)
        self.mods = list(mods)
        self.save_to = Path(save_to)
        self.ruleset_arg = ruleset_arg
        self.delay = max(0.0, min(float(delay), MAX_DELAY))
        self.publish = publish or (lambda table, seat, message: None)
        # a token for each seat a person plays, and one for the spectators
        self.tokens = {seat: secrets.token_urlsafe(24) for seat, kind in enumerate(kinds)
                       if kind == PERSON}
        self.spectator_token = secrets.token_urlsafe(24)
        # a game of agents only: the watch link steers it, and it waits for its first page
        watched = PERSON not in self.kinds
        self.watch_token = secrets.token_urlsafe(24) if watched else None
        self.paused = False
        self.started = threading.Event()
        if not watched:
            self.started.set()
        self.agents = [None if k == PERSON else make_agent(k, agent_seed(seed, seat))
                       for seat, k in enumerate(kinds)]
        self.watching: dict = {}  # seat (None: spectators) → how many pages watch it
        self.problem: str | None = None  # the error that stopped the game, in words
        self.marks: dict[int, list] = {s: [] for s in self.tokens}  # undo marks by seat
        # where each person's news starts: the log's length at each of their answers (with
        # the marks: undo takes one off), and at this table's first picture
        self.news_at: dict[int, list] = {s: [] for s in self.tokens}
        self._words = None  # what the news summary knows of the game (play/news.py)
        # the questions answered for each person (one answer): (answers before it, words)
        self.taken: dict[int, list] = {s: [] for s in self.tokens}
        self._told = [_Person(self, seat) if agent is None else agent
                      for seat, agent in enumerate(self.agents)]
        self._resumed_at = len(prefix)  # answers given before this table's first picture
        self.saved = False
        self._shown_at = 0.0  # when the pages were last sent what they show
        self._commands: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._stream = self._start(list(prefix))
        # (a resumed game: from its first picture; a new one from its set-up)
        self._news_from = len(self._stream.game.log_lines) if prefix else 0
        self._thread = threading.Thread(target=self._work, daemon=True,
                                        name=f"rulebook-table-{self.id[:6]}")
        self._thread.start()

    # ------------------------------------------------------------ who may see what
    def who(self, token) -> int | None:
        """The seat (from 0) that ``token`` opens, None for the spectators' token; else Refused."""
        if isinstance(token, str):
            for seat, secret in self.tokens.items():
                if hmac.compare_digest(secret.encode(), token.encode()):
                    return seat
            if hmac.compare_digest(self.spectator_token.encode(), token.encode()) or \
                    self.steers(token):
                return None
        raise Refused("this link does not open a seat of this game")

    def steers(self, token) -> bool:
        """Whether ``token`` is the watch link's, which steers a game of agents only."""
        return isinstance(token, str) and self.watch_token is not None and \
            hmac.compare_digest(self.watch_token.encode(), token.encode())

    def watch(self, seat: int | None, change: int) -> None:
        with self._lock:
            self.watching[seat] = self.watching.get(seat, 0) + change
            if self.watching[seat] <= 0:
                del self.watching[seat]
        if change > 0:
            self.started.set()  # a game of agents starts when it is first watched
            self._commands.put(("show", seat))

    # ------------------------------------------------------------ what people send
    def send(self, seat: int | None, message: dict, steer: bool = False) -> None:
        """A page's message (answer, undo, pace), carried out on the table's thread.

        ``steer``: the message comes from the watch link of a game of agents
        only, which may pace, pause, resume and step the agents (``STEERING``)."""
        kind = message.get("type")
        if seat is None:
            if not steer:
                raise Refused("a spectator does not play or steer the game")
            if kind not in STEERING:
                raise Refused("the watch page paces, pauses and steps the agents only")
        elif kind not in ("answer", "undo", "pace"):
            raise Refused("unknown message")
        self._commands.put((kind, seat, message))

    @property
    def over(self) -> bool:
        return self._stream.result is not None or self.problem is not None

    @property
    def decisions(self) -> int:
        return len(self._stream.game.record)

    def close(self, save: bool = True) -> Path | None:
        """Stop the table's thread (and the game's); the record saved first when asked."""
        self._commands.put(("stop",))
        self._thread.join(timeout=30)
        path = self.save() if save else None
        self._stream.close()
        return path

    def save(self) -> Path | None:
        """Write the game's record (finished or not) to its file in the records folder."""
        with self._lock:
            game = self._stream.game
            record = make_record(game, self.rs, self.kinds, self._stream.result, self.mods)
        self.save_to.parent.mkdir(parents=True, exist_ok=True)
        record.save(self.save_to)
        self.saved = True
        return self.save_to

    # ------------------------------------------------------------ inside: the thread
    def _start(self, prefix: list[int]) -> DecisionStream:
        """A stream for the game, its first ``prefix`` answers given again (resume, undo)."""
        for lines in self.taken.values():  # (the game replayed tells them again)
            lines.clear()
        stream = DecisionStream(self.rs, self.players, self.seed, self.variants,
                                kinds=self.kinds, told=self._told, keep_log=True)
        for answer in prefix:
            if stream.current is None:
                raise GameError("the record goes on after the game's end")
            stream.answer(answer)
        return stream

    def _work(self) -> None:
        try:
            self._show_all()
            while True:
                stream = self._stream
                current = stream.current
                agent = None if current is None else self.agents[current.player]
                if agent is not None and not self.problem:
                    if self._pause():
                        return
                    with self._lock:
                        answer = self._agent_answer(agent, current)
                        stream.answer(answer)
                    self._show_moved()
                    continue
                command = self._commands.get()
                if command[0] == "stop":
                    return
                if command[0] == "show":
                    self._show(command[1])
                    continue
                if command[0] == "step":  # nothing to step: the game is over
                    continue
                self._carry_out(*command)
        except GameError as exc:
            self.problem = visible(f"{exc.span}: {exc.message}" if exc.span else exc.message)
            self._show_all()
            self._drain()

    def _drain(self) -> None:
        """After an error: show what is asked to be shown until stopped."""
        while True:
            command = self._commands.get()
            if command[0] == "stop":
                return
            if command[0] == "show":
                self._show(command[1])

    def _pause(self) -> bool:
        """Wait before an agent's move, still taking commands; True to stop.

        The wait is ``delay``, and for as long as the game is paused or a game
        of agents has not been watched yet; a step lets one move through."""
        end = None
        while True:
            if self.paused or not self.started.is_set():
                end = None
                command = self._commands.get()
            else:
                if end is None:
                    end = time.monotonic() + self.delay
                left = end - time.monotonic()
                try:
                    command = self._commands.get(timeout=left) if left > 0 else \
                        self._commands.get_nowait()
                except queue.Empty:
                    return False
            if command[0] == "stop":
                return True
            if command[0] == "show":
                self._show(command[1])
            elif command[0] == "step":
                if self.paused:
                    return False
            elif command[0] in STEERING:
                self._carry_out(*command)
            else:  # not this seat's turn: said to it
                self._tell(command[1], "it is not your turn")

    def _carry_out(self, kind: str, seat: int, message: dict) -> None:
        if kind == "pace":
            try:
                self.delay = max(0.0, min(float(message.get("delay", 0)), MAX_DELAY))
            except (TypeError, ValueError):
                return self._tell(seat, "the pace is a number of seconds")
            return self._show_all()
        if kind in ("pause", "resume"):
            self.paused = kind == "pause"
            return self._show_all()
        if kind == "undo":
            return self._undo(seat)
        stream = self._stream
        current = stream.current
        if current is None or current.player != seat:
            return self._tell(seat, "it is not your turn")
        game = stream.game
        if message.get("decision") != len(game.record) + 1:
            return self._tell(seat, "that answer was for an earlier decision")
        decision = Decision(current, game, len(game.record) + 1)
        choice = message.get("choice")
        try:
            index = read_answer(decision, choice)
        except ValueError as exc:
            return self._tell(seat, str(exc))
        problem = current.check(index)
        if problem is not None:
            return self._tell(seat, problem)
        with self._lock:
            self.marks[seat].append((len(game.record), game.state.rng.getstate(),
                                     game.reveals))
            self.news_at[seat].append(len(game.log_lines))
            stream.answer(index)
        self._show_all()

    def taken_since(self, seat: int) -> list[str]:
        """The questions the engine answered for ``seat`` (each had one answer) since the
        seat's last answer, in words, as the terminal shows them in place."""
        marks = self.marks[seat]
        since = marks[-1][0] + 1 if marks else self._resumed_at
        return [words for at, words in self.taken[seat] if at >= since]

    def news_since(self, seat: int, taken: list[str]) -> list[str]:
        """What changed since ``seat`` last answered, as that seat reads the log, folded as
        the terminal folds it (play/news.py): the other players' moves, what the seat's
        own move did, the phases. Answers taken for the seat are left to ``taken`` (shown
        with their question). At most :data:`NEWS_SHOWN` lines, the newest; the log has all."""
        game = self._stream.game
        at = self.news_at[seat]
        start = at[-1] if at else self._news_from
        lines = [game.log_line_for(i, seat) for i in range(start, len(game.log_lines))]
        if self._words is None or self._words[0] is not game:
            self._words = (game, NewsWords.of(game))
        said = {t.split(" → ")[-1] for t in taken}
        out = [visible(line) for line in news_lines(summarise(lines, self._words[1]))
               if not (line.startswith(" ") and line.strip().split(" → ")[-1] in said)]
        return out[-NEWS_SHOWN:]

    def undo_problem(self, seat: int) -> str | None:
        """Why ``seat`` cannot undo now (the terminal's rule), or None.

        Once the game has ended, never: its end is the record saved (at the terminal
        nobody is asked anything after the end, so nobody can type undo)."""
        if self._stream.result is not None:
            return "the game is over"
        # the rule is the terminal seat's own (play.terminal): one rule for both
        return HumanAgent.undo_problem(types.SimpleNamespace(marks=self.marks[seat]),
                                       self._stream.game)

    def _undo(self, seat: int) -> None:
        problem = self.undo_problem(seat)
        if problem:
            return self._tell(seat, f"undo is not possible now: {problem}")
        at = self.marks[seat].pop()[0]
        self.news_at[seat].pop()
        with self._lock:
            old = self._stream
            self._stream = self._start(list(old.game.record[:at]))
            old.close()
        self._show_all()

    def _agent_answer(self, agent, decision) -> int:
        """What the engine itself would get from the agent (as the API's games ask)."""
        game = self._stream.game
        while True:
            view = game.view(decision.player) if getattr(agent, "wants_view", True) else None
            answer = agent.decide(decision, view, game)
            problem = decision.check(answer)
            if problem is None:
                return int(answer)
            agent.refused(decision, problem)

    def _tell(self, seat, text: str) -> None:
        self.publish(self, seat, {"type": "problem", "text": visible(text)})

    def _show_moved(self) -> None:
        """After an agent's move, what each page shows. A person at the table waiting
        through agents' moves at the instant pace sees them every ``SHOW_EVERY`` seconds
        and at the end of the run, not one by one: a page draws no faster, and the person's
        next decision comes sooner (a game of agents only is shown move by move)."""
        now = time.monotonic()
        current = self._stream.current
        more = current is not None and self.agents[current.player] is not None
        if self.delay == 0 and more and self.tokens and now - self._shown_at < SHOW_EVERY:
            return
        self._shown_at = now
        self._show_all()

    def _show_all(self) -> None:
        with self._lock:
            seats = list(self.watching)
        for seat in seats:
            self._show(seat)

    def _show(self, seat) -> None:
        with self._lock:
            message = self.message_for(seat)
        self.publish(self, seat, message)

    def message_for(self, seat: int | None) -> dict:
        """Everything a page shows ``seat`` (None: a spectator) now: nothing of other seats'."""
        stream = self._stream
        game = stream.game
        current = stream.current
        n = len(game.log_lines)
        if seat is None:
            log = [line for line in game.log_lines if line]
        else:
            log = [line for line in (game.log_line_for(i, seat) for i in range(n)) if line]
        message = {
            "type": "state",
            "game": self.rs.name,
            "seat": None if seat is None else seat + 1,
            "number": len(game.record) + 1,
            "view": seat_view(game, seat),
            "log": [visible(line) for line in log[-LOG_SHOWN:]],
            "log_total": len(log),
            "delay": self.delay,
            "paused": self.paused,
            "decision": None,
            "waiting": None,
            "result": None,
            "problem": self.problem,
            "undo": None,
            "taken": [],
            "news": [],
        }
        if current is not None and not self.problem:
            message["waiting"] = game.state.players[current.player].name
            if seat is not None and current.player == seat:
                message["decision"] = decision_data(Decision(current, game,
                                                             len(game.record) + 1))
        if seat is not None and seat in self.marks:
            message["undo"] = self.undo_problem(seat) or "yes"
            message["taken"] = self.taken_since(seat)
            message["news"] = self.news_since(seat, message["taken"])
        if stream.result is not None:
            message["result"] = result_data(game, stream.result)
        return message

