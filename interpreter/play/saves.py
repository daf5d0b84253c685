"""Where a game's record goes, so that a game in progress is never lost.

``fresh_name`` picks a default name that does not overwrite an unrelated
file, and ``save_somewhere`` writes a record to the preferred place or, if
that fails, to a fresh name in the home or temporary folder, and says where
it went. (A ``--save`` path is checked
before the game starts, as every output is: :mod:`rulebook_games.outfiles`.)
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from .record import Record


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
            path.parent.mkdir(parents=True, exist_ok=True)  # a --save path's new folders
            record.save(path)
            return path
        except (OSError, RuntimeError) as exc:  # RuntimeError: no home folder
            last = exc
    raise OSError(f"no place to save the record ({last})")
