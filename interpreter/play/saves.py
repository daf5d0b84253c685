"""Where a game's record goes, so that a game in progress is never lost.

``prepare`` checks a ``--save`` path before the game starts (creating its
folder, proving it can be written), ``fresh_name`` picks a default name that
does not overwrite an unrelated file, and ``save_somewhere`` writes a record
to the preferred place or, if that fails, to a fresh name in the home or
temporary folder, and says where it went.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .record import Record


class SaveProblem(Exception):
    """A save path that cannot be used, said in words for the person who gave it."""


def prepare(path: str | Path) -> Path:
    """Make sure a record can be written at ``path``: its folder exists and is writable."""
    p = Path(path)
    if p.is_dir():
        raise SaveProblem(f"'{path}' is a folder; give the record a file name")
    folder = p.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise SaveProblem(f"cannot save to '{path}': '{_first_file(folder)}' is a file, "
                          "not a folder") from None
    except OSError as exc:
        raise SaveProblem(f"cannot create the folder '{folder}' for '{path}': "
                          f"{exc.strerror or exc}") from None
    if not folder.is_dir():
        raise SaveProblem(f"cannot save to '{path}': '{_first_file(folder)}' is a file, "
                          "not a folder")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".probe", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise SaveProblem(f"cannot write in the folder '{folder}' for '{path}': "
                          f"{exc.strerror or exc}") from None
    return p


def _first_file(folder: Path) -> Path:
    """The first part of a folder path that exists and is not a folder."""
    for part in reversed([folder, *folder.parents]):
        if part.exists() and not part.is_dir():
            return part
    return folder


def fresh_name(folder: Path, stem: str) -> Path:
    """``stem.record.json`` in ``folder``, or ``stem-2.record.json``… if that exists."""
    candidate = folder / f"{stem}.record.json"
    n = 2
    while candidate.exists() or candidate.is_symlink():
        candidate = folder / f"{stem}-{n}.record.json"
        n += 1
    return candidate


def save_somewhere(record: Record, preferred: Path | None, stem: str) -> Path:
    """Save ``record`` at ``preferred`` (default: a fresh name here); fall back if it fails.

    Returns where it was saved; raises OSError only if no place at all could
    be written.
    """
    first = preferred if preferred is not None else fresh_name(Path("."), stem)
    places = [lambda: first, lambda: fresh_name(Path.home(), stem),
              lambda: fresh_name(Path(tempfile.gettempdir()), stem)]
    last: Exception | None = None
    for place in places:
        try:
            path = place()
            record.save(path)
            return path
        except (OSError, RuntimeError) as exc:  # RuntimeError: no home folder
            last = exc
    raise OSError(f"no place to save the record ({last})")
