"""Stopping a game from outside: Ctrl-C, a closed terminal, a polite kill, and then saving.

The README promises that a game in progress is never lost: Ctrl-C (SIGINT),
closing the terminal (SIGHUP) and ``kill`` (SIGTERM) all save it. While a
game runs, :class:`StopSignals` turns each of the three into
``KeyboardInterrupt``, which the command catches to save the game. Closing a
terminal sends SIGHUP more than once (the kernel sends it to the game, and
the shell sends it again to its jobs), so the first signal also calls
:func:`shield`: from then on the three are ignored, and the save that follows
is never cut short half way (which left only the save's hidden temporary
file). A signal the game was started with ignored (``nohup``, a background
job) stays ignored. Only the main thread can set handlers; elsewhere this
does nothing. This module imports only the standard library.
"""

from __future__ import annotations

import signal

NAMES = ("SIGINT", "SIGHUP", "SIGTERM")


def _signals() -> list:
    return [getattr(signal, name) for name in NAMES if hasattr(signal, name)]


def shield() -> None:
    """Ignore Ctrl-C, hang-ups and polite kills from now on (while a game is being saved)."""
    for sig in _signals():
        try:
            signal.signal(sig, signal.SIG_IGN)
        except (ValueError, OSError):  # not the main thread
            pass


class StopSignals:
    """While in effect, SIGINT, SIGHUP and SIGTERM raise KeyboardInterrupt, once.

    On leaving, the handlers found on entry are put back, unless a signal came:
    then the three stay ignored until the process ends, its game saved.
    """

    def __init__(self):
        self.old: dict = {}
        self.fired = False

    def __enter__(self) -> "StopSignals":
        for sig in _signals():
            try:
                if signal.getsignal(sig) is signal.SIG_IGN:
                    continue  # started with it ignored (nohup, a background job): it stays so
                self.old[sig] = signal.signal(sig, self._stop)
            except (ValueError, OSError):  # not the main thread
                pass
        return self

    def _stop(self, signum, frame):
        self.fired = True
        shield()  # a second hang-up, or Ctrl-C pressed again, must not cut the save short
        raise KeyboardInterrupt

    def __exit__(self, *exc) -> bool:
        if not self.fired:
            for sig, handler in self.old.items():
                try:
                    signal.signal(sig, handler)
                except (ValueError, OSError):
                    pass
        return False
