"""Files a command writes where a person told it to: checked first, written whole, nothing lost.

Every ``--out``, ``--save``, ``--html``, ``--png``, ``--out-base`` and
``--out-mod`` goes through here. :func:`check_file` (or :func:`check_folder`)
runs before the command does its work, so a path that cannot be written is
refused at once, not after an hour of games: a name the system cannot use, a
pipe, a device, a socket or a folder where a file goes (a pipe would make the
write wait forever, a device swallow the output), a file where a folder goes,
a folder that takes no files; a missing folder of the path is made when the
first file is written in it, so a command that stops before leaves nothing.
And it never lets a command replace a file the user
had: an existing file that is not empty is replaced only when it is what the
command itself writes there (its :class:`Replace` rule says how that is
recognised: an earlier page, the same game's record); anything else is refused
with what to do instead. These refusals are exit 2.

:func:`write_file` writes a whole output to a temporary file beside the
target and renames it over the target, so a write that fails half way (a
full disk) leaves the old file whole and no half file behind;
:func:`open_lines` opens a file that grows line by line (a results file).
A failure while writing is exit 1. Either way the problem is an
:class:`OutputProblem` whose message is one line naming the path; the command
line prints it as it is. This module imports only
:mod:`rulebook_games.numtext`.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .numtext import clipped

HEAD = 4096  # bytes of an existing file a Replace rule looks at

# errors of a write that began (the disk, a quota, a size limit), as opposed to a bad path
WRITE_FAILURES = frozenset(code for code in (
    errno.ENOSPC, getattr(errno, "EDQUOT", None), errno.EFBIG, errno.EIO) if code is not None)


class OutputProblem(Exception):
    """An output that is not written, in one line naming its path.

    ``exit_code`` is 2 for a path refused before anything is written, 1 for a
    failure while writing.
    """

    def __init__(self, message: str, exit_code: int = 2):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


@dataclass(frozen=True)
class Replace:
    """When an existing, non-empty file may be replaced, and what to say when it may not.

    ``allows(path, head)`` sees the path and the file's first :data:`HEAD` bytes;
    ``what`` completes "it is not …" (None: nothing but an empty file is
    replaced); ``advice`` says what to do instead.
    """

    allows: Callable[[str, bytes], bool] | None = None
    what: str | None = None
    advice: str = "give another path, or remove the file first"


NEVER = Replace()
ANY = Replace(lambda path, head: True)  # the command reads the file first (--resume)


def same_file(a, b) -> bool:
    """Whether two paths name one file (or, where one is not there yet, one place)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # not there yet, or a name no file system takes
        return os.path.abspath(a) == os.path.abspath(b)


def special_kind(mode: int) -> str | None:
    """What a file of this ``st_mode`` is, in words, when it is not a regular file; else None."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENAMETOOLONG:
        return "the name is longer than this system allows"
    if exc.errno == errno.ELOOP:
        return "the name leads through a loop of links"
    return (exc.strerror or str(exc)).rstrip(".")[:200]


def _shown(path) -> str:
    return clipped(os.fspath(path), 120)


def _first_file(folder: Path) -> Path:
    """The first part of a folder path that exists and is not a folder."""
    for part in reversed([folder, *folder.parents]):
        try:
            if part.exists() and not part.is_dir():
                return part
        except OSError:
            break
    return folder


def _stat(path, option: str):
    """``os.stat`` of ``path`` (links followed), or None when nothing is there yet."""
    try:
        return os.stat(path)
    except ValueError:
        raise OutputProblem(f"{option}: '{_shown(path)}': the name holds a NUL "
                            "character") from None
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise OutputProblem(f"{option}: cannot write '{_shown(path)}': "
                            f"'{_shown(_first_file(Path(path).parent))}' is a file, not a "
                            "folder") from None
    except OSError as exc:
        raise OutputProblem(f"{option}: cannot write '{_shown(path)}': {_reason(exc)}") from None


def _folder_problem(folder: Path, path, option: str) -> OutputProblem:
    return OutputProblem(f"{option}: cannot write '{_shown(path)}': "
                         f"'{_shown(_first_file(folder))}' is a file, not a folder")


def _probe(folder: Path, path, option: str) -> None:
    """Prove that a file can be made in ``folder`` (one is made and removed)."""
    probe = folder / f".rulebook-{os.urandom(6).hex()}.probe"
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.unlink(probe)
    except OSError as exc:
        raise OutputProblem(f"{option}: cannot write in the folder '{_shown(folder)}' for "
                            f"'{_shown(path)}': {_reason(exc)}") from None


def _check_folder(folder: Path, path, option: str) -> None:
    """``folder`` is one, or can be made: its nearest existing part is a folder that takes
    files. Nothing is made yet (a command that stops before writing leaves nothing)."""
    for part in [folder, *folder.parents]:
        try:
            there = part.exists()
        except OSError as exc:
            raise OutputProblem(f"{option}: cannot write '{_shown(path)}': "
                                f"{_reason(exc)}") from None
        if there:
            if not part.is_dir():
                raise _folder_problem(folder, path, option)
            _probe(part, path, option)
            return


def _make_folder(folder: Path, path, option: str) -> None:
    """Create ``folder`` (and its parents), just before a file is written in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise _folder_problem(folder, path, option) from None
    except OSError as exc:
        raise OutputProblem(f"{option}: cannot create the folder '{_shown(folder)}' for "
                            f"'{_shown(path)}': {_reason(exc)}") from None
    if not folder.is_dir():
        raise _folder_problem(folder, path, option)


def _head(path) -> bytes:
    """The first bytes of a regular file, read without waiting (b"" if it cannot be read)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return os.read(fd, HEAD)
    except OSError:
        return b""
    finally:
        os.close(fd)


def check_file(path, option: str, replace: Replace = NEVER) -> Path:
    """Refuse, before any work, an output file that cannot be written or would lose a file.

    Returns the path to write (a link followed to where it leads). Raises
    :class:`OutputProblem` (exit 2).
    """
    shown = _shown(path)
    if not os.fspath(path):
        raise OutputProblem(f"{option}: the path is empty")
    st = _stat(path, option)
    real = Path(os.path.realpath(path))
    if st is not None:
        kind = special_kind(st.st_mode)
        if kind == "a folder":
            raise OutputProblem(f"{option}: '{shown}' is a folder; give a file name")
        if kind:
            raise OutputProblem(f"{option}: '{shown}' is {kind}, not a regular file; give "
                                "the path of a file")
        if st.st_size and not (replace.allows and replace.allows(os.fspath(path),
                                                                 _head(path))):
            what = f" and is not {replace.what}" if replace.what else ""
            raise OutputProblem(f"{option}: '{shown}' already exists{what}; {replace.advice}")
    _check_folder(real.parent, path, option)
    return real


def check_folder(path, option: str) -> Path:
    """Refuse, before any work, an output folder that cannot be written; create it."""
    if not os.fspath(path):
        raise OutputProblem(f"{option}: the path is empty")
    st = _stat(path, option)
    if st is not None and not stat.S_ISDIR(st.st_mode):
        kind = special_kind(st.st_mode) or "a file"
        raise OutputProblem(f"{option}: '{_shown(path)}' is {kind}, not a folder; give a "
                            "folder")
    _check_folder(Path(path), path, option)
    return Path(path)


def write_failed(path, option: str, exc: OSError) -> OutputProblem:
    """The problem for a write that began and failed (a full disk…): exit 1."""
    return OutputProblem(f"{option}: cannot write '{_shown(path)}': {_reason(exc)}",
                         exit_code=1)


def write_file(path, data: str | bytes, option: str, replace: Replace = NEVER) -> Path:
    """Write ``data`` to ``path`` whole, or leave what was there as it was.

    The path is checked again as :func:`check_file` does (something may have
    appeared there since); the data goes to a temporary file beside it, which
    is renamed over it once complete. Returns the path written.
    """
    target = check_file(path, option, replace)
    _make_folder(target.parent, path, option)
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = None
    temp = target.parent / f".{target.name[:100]}.{os.urandom(6).hex()}.tmp"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                     0o666)  # as any new file: the umask decides
    except OSError as exc:
        raise write_failed(path, option, exc) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if mode is not None:
            os.chmod(temp, mode)  # a replaced file keeps its permissions
        os.replace(temp, target)
    except OSError as exc:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise write_failed(path, option, exc) from None
    return target


def open_lines(path, option: str, replace: Replace = NEVER):
    """``path`` opened to write text from its start, for an output that grows line by line.

    Checked again as :func:`check_file` does, and opened without waiting: a
    pipe put there since the check is refused, never waited on.
    """
    target = check_file(path, option, replace)
    _make_folder(target.parent, path, option)
    flags = (os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
             | getattr(os, "O_CLOEXEC", 0))
    try:
        fd = os.open(target, flags, 0o666)
    except OSError as exc:
        raise OutputProblem(f"{option}: cannot write '{_shown(path)}': {_reason(exc)}") \
            from None
    try:
        kind = special_kind(os.fstat(fd).st_mode)
        if kind:
            raise OutputProblem(f"{option}: '{_shown(path)}' is {kind}, not a regular file; "
                                "give the path of a file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        os.ftruncate(fd, 0)
    except OSError as exc:
        os.close(fd)
        raise OutputProblem(f"{option}: cannot write '{_shown(path)}': {_reason(exc)}") \
            from None
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "w", encoding="utf-8")
