"""Reading a file that a person or a stranger named: regular files only, never blocking.

Rule files, mods, scenario files and records are named on the command line,
in includes and in records, and any of those names may be hostile: a named
pipe (opening it for reading waits for a writer that never comes), a device,
a folder, or a name longer than the system allows (which Python reports by
raising where a missing file would just be missing). :func:`read_regular` is
the one way Rulebook reads such a file: it looks at what the name is before
opening it, opens it without blocking, checks again on the open file (the
name may have been swapped in between), and reads at most a given number of
bytes. :func:`name_problem` says why a name cannot name a file at all, so a
command can refuse it before it does anything. Every problem is an
:class:`Unreadable` whose message is one line of words, without the name
(the caller places it). This module imports nothing from Rulebook.
"""

from __future__ import annotations

import errno
import os
import stat

# OS errors that say the name itself is unusable (as opposed to: no such file)
_BAD_NAME = {errno.ENAMETOOLONG: "the name is longer than this system allows",
             errno.ELOOP: "the name leads through a loop of links"}


class Unreadable(Exception):
    """A file that is not read, and why, in words."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def bad_name(exc: OSError) -> str | None:
    """What ``exc`` says is wrong with the name itself (too long, a loop of links), or None."""
    return _BAD_NAME.get(exc.errno)


def _reason(exc: OSError) -> str:
    return bad_name(exc) or (exc.strerror or str(exc)).rstrip(".")[:200]


def name_problem(path: str | os.PathLike) -> str | None:
    """Why ``path`` cannot name a file on this system, or None (a missing file is fine)."""
    try:
        os.stat(path)
    except ValueError:  # an embedded NUL character
        return "the name holds a NUL character"
    except OSError as exc:
        return bad_name(exc)
    return None


def kind_problem(mode: int) -> str | None:
    """Why a file of this ``st_mode`` is not read, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "this is a folder, not a file"
    return ("this is neither a regular file nor a folder (a pipe or a device?), so it is "
            "not read")


def is_regular(path: str | os.PathLike) -> bool:
    """Whether ``path`` (its links followed) is a regular file; never raises."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_regular(path: str | os.PathLike, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of the regular file ``path`` (one more shows it is larger).

    Raises :class:`Unreadable` for a name that cannot be read, and for anything
    but a regular file, which is never opened for reading (a pipe would block).
    """
    try:
        before = os.stat(path)
    except ValueError:
        raise Unreadable("the name holds a NUL character") from None
    except OSError as exc:
        raise Unreadable(_reason(exc)) from None
    problem = kind_problem(before.st_mode)
    if problem:
        raise Unreadable(problem)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise Unreadable(_reason(exc)) from None
    with os.fdopen(fd, "rb") as fh:
        problem = kind_problem(os.fstat(fd).st_mode)  # swapped for a pipe since the look?
        if problem:
            raise Unreadable(problem)
        try:
            return fh.read(limit + 1)
        except OSError as exc:
            raise Unreadable(_reason(exc)) from None
