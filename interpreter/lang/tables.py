"""The effect parser's tables, kept between runs as plain data.

Building the LALR tables from the grammar is most of a command's start-up.
This module keeps them in a per-user cache so later runs can skip that step.
It is written with untrusted input in mind. The cache holds only Python
literals (dicts, lists, strings, numbers), read back with
:func:`ast.literal_eval`, and Lark rebuilds its objects from them; nothing
in the file can run. No pickle is ever used. A file is read only if it
meets all of these:

- it sits in the user's own cache folder (``$RULEBOOK_CACHE_DIR``, else
  the platform's user cache folder, ``~/.cache/rulebook`` on Linux: the
  folder of :mod:`rulebook_games.cache`, whose rules it follows);
- the folder and the file belong to this user and nobody else may write to
  them (made with modes 0700 and 0600);
- it is not a symbolic link, and it is not too large;
- it is named and stamped with a hash of the grammar, the parser options,
  Lark's version and Python's;
- it carries this user's seal (:func:`rulebook_games.cache.seal`): a keyed hash
  of its contents under a key kept apart from the cache, so tables planted
  or edited by anyone but this user's Rulebook (say, ones that parse every
  ``gain`` as ``lose``) are noticed and never used.

Anything else is ignored and the tables are built afresh. Writes go to a
temporary file in the same folder, which then replaces the old one, so a
reader never sees half a file. ``RULEBOOK_NO_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import ast as pyast
import hashlib
import os
import stat
import sys
from pathlib import Path
from typing import Any

from .. import cache

FORMAT = "rulebook-parser-tables/2"
MAX_BYTES = 4 * 1024 * 1024


def cache_dir() -> Path | None:
    """The folder the tables are kept in, or None when caching is off or not possible."""
    return cache.cache_dir()


def stamp(grammar: str, options: dict) -> str:
    import lark
    h = hashlib.sha256()
    for part in (FORMAT, grammar, repr(sorted(options.items())), lark.__version__,
                 sys.version):
        h.update(part.encode("utf-8") + b"\0")
    return h.hexdigest()


_private = cache.private  # owned by this user, of the expected kind, writable by nobody else


def load(grammar: str, options: dict, postlex) -> Any | None:
    """A parser built from cached tables, or None if there is no trustworthy cache."""
    folder = cache_dir()
    if folder is None:
        return None
    key = stamp(grammar, options)
    try:
        if not _private(os.lstat(folder), stat.S_ISDIR):
            return None
    except OSError:
        return None
    name = f"parser-{key[:32]}"
    raw = cache.read_private(folder / f"{name}.txt", MAX_BYTES)
    body = None if raw is None else cache.unseal(name, raw)
    if body is None:
        return None
    try:
        saved = pyast.literal_eval(body.decode("utf-8"))
        if not isinstance(saved, dict) or saved.get("stamp") != key:
            return None
        from lark import Lark
        return Lark._load_from_dict(saved["data"], saved["memo"], postlex=postlex)
    except Exception:  # a damaged or foreign file: build afresh
        return None


def save(grammar: str, options: dict, parser) -> None:
    """Keep the parser's tables for later runs; any failure just leaves no cache."""
    folder = cache_dir()
    if folder is None:
        return
    import tempfile

    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    key = stamp(grammar, options)
    tmp = None
    try:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        data["options"]["postlex"] = None  # an object of ours, given again on loading
        name = f"parser-{key[:32]}"
        sealed = cache.seal(name, repr({"stamp": key, "data": data, "memo": memo}).encode())
        if sealed is None:
            return
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(os.lstat(folder), stat.S_ISDIR):
            return
        fd, tmp = tempfile.mkstemp(prefix=".parser-", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            fh.write(sealed)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, folder / f"{name}.txt")
        tmp = None
    except Exception:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
