"""A person's keyboard at a terminal: line editing, history, completion, no typing ahead.

:class:`LineInput` is used only when the answers come from a terminal (not
from a file or a pipe). It turns on the standard library's ``readline`` where
Python has it (arrow keys move in the line and through earlier answers, Tab
completes), and it throws away what was typed before a question was shown
(:meth:`LineInput.discard_typed_ahead`): an answer typed ahead for a question
the engine then took by itself must not answer the next, different one.

Everything degrades quietly: without ``readline`` (some platforms) the line
is read as plain ``input()``; without ``termios`` nothing typed ahead can be
seen or dropped.
"""

from __future__ import annotations

import os
import sys
from typing import Callable

class LineInput:
    """Reads a person's answers at a terminal, with editing, history and completion."""

    def __init__(self, stdin=None):
        self.stdin = stdin or sys.stdin
        self.words: Callable[[str], list[str]] = lambda text: []  # completions of a line
        self._matches: list[str] = []
        self.readline = None
        try:
            import readline
        except ImportError:  # pragma: no cover - (Python built without it)
            return
        self.readline = readline
        readline.set_completer_delims("")  # the whole line is completed: names have spaces
        readline.set_completer(self._complete)
        if "libedit" in (readline.__doc__ or ""):  # pragma: no cover - (macOS)
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")

    def __call__(self, prompt: str = "") -> str:
        return input(prompt)

    def _complete(self, text: str, state: int) -> str | None:
        if state == 0:
            try:
                self._matches = sorted(set(self.words(text)))
            except Exception:  # pragma: no cover - a completion never stops the game
                self._matches = []
        return self._matches[state] if state < len(self._matches) else None

    def discard_typed_ahead(self) -> str:
        """Drop what was typed before now and not yet read; the whole lines dropped."""
        try:
            import select
            import termios
            fd = self.stdin.fileno()
        except (ImportError, AttributeError, OSError, ValueError):  # pragma: no cover
            return ""
        lines = b""
        try:
            while select.select([fd], [], [], 0)[0]:  # whole lines, in a cooked terminal
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                lines += chunk
            termios.tcflush(fd, termios.TCIFLUSH)  # and a line typed halfway
        except (OSError, termios.error):  # pragma: no cover - not a terminal after all
            return ""
        return lines.decode("utf-8", errors="replace").strip()


def completions(text: str, commands: list[str], keys: list[str], labels: list[str],
                cards: list[str]) -> list[str]:
    """What a line starting with ``text`` may become: a command, an option's short key
    or words, or 'card NAME' for the names of ``cards``."""
    low = text.lower()
    if low.startswith("card "):
        name = low[5:]
        return ["card " + c for c in cards if c.lower().startswith(name)]
    words = commands + keys + labels
    return [w for w in words if w.lower().startswith(low)]
