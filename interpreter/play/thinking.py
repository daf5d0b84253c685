"""What a person's terminal shows while the agents play: who is thinking.

Between a person's answer and their next question the agents play; each
decision of a searching agent (``ismcts``) takes a fraction of a second, and
a turn of many decisions takes seconds, with nothing new on the screen.
:class:`Thinking` writes one line, ``  Player 2 (ismcts) is thinking…``, once
the agents have been playing for :data:`DELAY` seconds since the person last
answered (so a quick reply shows nothing), names whoever decides now, and
erases the line before anything else is printed to the person
(:meth:`Thinking.done`). It only writes to a terminal; a script's transcript
never shows it. It reads nothing of the game but a seat's name, and changes
nothing: the game plays the same with it or without it.

:class:`Watched` is an agent seated with it: each decision it hands to its
agent starts (or goes on with) the line.
"""

from __future__ import annotations

import threading
import time

DELAY = 0.5  # seconds of agents' play before the line shows


class Thinking:
    """The 'is thinking…' line of a terminal, shown after ``delay`` seconds."""

    def __init__(self, out, delay: float = DELAY):
        self.out = out  # a text file: the terminal
        self.delay = delay
        self._lock = threading.Lock()
        self._who: str | None = None
        self._since: float | None = None  # when the agents began, since the last answer
        self._timer: threading.Timer | None = None
        self._shown = ""  # the line on the screen now ('' when none)

    def thinking(self, who: str) -> None:
        """``who`` decides now: the line shows once the agents have played ``delay``
        seconds since the person's last answer (at once when it shows already)."""
        with self._lock:
            self._who = who
            if self._since is None:
                self._since = time.monotonic()
                self._timer = threading.Timer(self.delay, self._show)
                self._timer.daemon = True
                self._timer.start()
            elif self._shown:
                self._draw()

    def done(self) -> None:
        """The person's turn to read: the line is erased, and the next wait starts anew."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._since = None
            if self._shown:
                self._write("\r" + " " * len(self._shown) + "\r")
                self._shown = ""

    def _show(self) -> None:
        with self._lock:
            if self._since is not None and self._who is not None:
                self._draw()

    def _draw(self) -> None:
        line = f"  {self._who} is thinking…"
        pad = max(len(self._shown) - len(line), 0)
        self._write("\r" + line + " " * pad)
        self._shown = line + " " * pad

    def _write(self, text: str) -> None:
        try:
            self.out.write(text)
            self.out.flush()
        except (OSError, ValueError):  # pragma: no cover - the terminal went away
            pass


class Watched:
    """An agent whose decisions show on a :class:`Thinking` line; otherwise the agent
    (everything else the game asks of it is its agent's)."""

    def __init__(self, agent, line: Thinking):
        self.agent = agent
        self.line = line
        self.name = agent.name

    def decide(self, decision, view, game):
        self.line.thinking(game.state.players[decision.player].name)
        return self.agent.decide(decision, view, game)

    def __getattr__(self, name):  # wants_view, scripted, refused, taken…
        if name in ("agent", "line"):
            raise AttributeError(name)
        return getattr(self.agent, name)
