"""Finding what ``rulebook validate`` checks in a folder: its rulesets and its mods.

Like ruff and yamllint, ``validate`` given a folder (or no PATH: the current
folder) checks everything below it: every ``ruleset.yaml`` and every mod (a
YAML file whose top-level ``kind:`` is ``mod``). :func:`rule_files_below`
walks the folder and lists them. It never enters a hidden folder (``.git``,
``.venv``…), the folders tools keep environments, caches and build outputs
in (:data:`SKIPPED`, and any folder holding a ``pyvenv.cfg``), never follows
a link that leads out of the folder it started in (a file linked from outside
is not even opened), follows links inside it once, reads only regular files
(a pipe is never opened), and stops with :class:`TooLarge` past
:data:`MAX_ENTRIES` entries or :data:`MAX_DEPTH` folders deep. Everything is
listed in a stable order, folders by name. This module imports only
:mod:`rulebook_games.load.userfiles`.
"""

from __future__ import annotations

import os

from .userfiles import Unreadable, is_regular, read_regular

RULESET_FILE = "ruleset.yaml"
SKIPPED = frozenset({"node_modules", "venv", "__pycache__", "__pypackages__", "site-packages",
                     "build", "dist", "_build", "buck-out"})
MAX_ENTRIES = 200_000  # files and folders looked at: far more than a repository of rules
MAX_DEPTH = 64


class TooLarge(Exception):
    """A folder too large or too deep to walk; the message says which, in words."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def top_level_value(path: str | os.PathLike, key: str) -> str | None:
    """A top-level ``key: value`` of a YAML file, read cheaply (its first 64 KiB)."""
    try:
        head = read_regular(path, 65536)[:65536].decode("utf-8", errors="replace")
    except Unreadable:
        return None
    for line in head.splitlines():
        if line.startswith(f"{key}:"):
            return line.split(":", 1)[1].split("#", 1)[0].strip().strip("'\"")
    return None


def _skipped(entry: os.DirEntry) -> bool:
    return (entry.name.startswith(".") or entry.name in SKIPPED
            or os.path.isfile(os.path.join(entry.path, "pyvenv.cfg")))


def _inside(path: str, tree: str) -> bool:
    real = os.path.realpath(path)
    return real == tree or real.startswith(tree.rstrip(os.sep) + os.sep)


def rule_files_below(folder: str | os.PathLike, mods: bool = True) -> list[tuple[str, str]]:
    """Every ruleset manifest and mod file below ``folder``: (path, "ruleset" | "mod").

    Paths are ``folder`` joined with the way down, as the user would write them.
    With ``mods`` false only the manifests are listed (no other file is opened).
    """
    tree = os.path.realpath(folder)
    found: list[tuple[str, str]] = []
    seen = {tree}
    budget = MAX_ENTRIES
    todo = [(os.fspath(folder), 0)]
    while todo:
        where, depth = todo.pop()
        try:
            entries = sorted(os.scandir(where), key=lambda e: e.name)
        except OSError:  # unreadable, or gone since: nothing in it is checked
            continue
        budget -= len(entries)
        if budget < 0:
            raise TooLarge(f"'{folder}' holds more than {MAX_ENTRIES:,} files and folders; "
                           "name the folders to check")
        below = []
        for entry in entries:
            path = os.path.normpath(os.path.join(where, entry.name))
            try:
                is_dir = entry.is_dir()
                is_link = entry.is_symlink()
            except OSError:
                continue
            if is_link and not _inside(path, tree):
                continue  # a link out of the folder: not followed, not read
            if is_dir:
                if _skipped(entry):
                    continue
                real = os.path.realpath(path)
                if real in seen:  # a link back to a folder on the way, or met already
                    continue
                seen.add(real)
                if depth + 1 > MAX_DEPTH:
                    raise TooLarge(f"'{path}' is more than {MAX_DEPTH} folders deep; name the "
                                   "folders to check")
                below.append((path, depth + 1))
            elif entry.name == RULESET_FILE:
                found.append((path, "ruleset"))
            elif mods and entry.name.endswith((".yaml", ".yml")) and is_regular(path) \
                    and top_level_value(path, "kind") == "mod":
                found.append((path, "mod"))
        todo.extend(reversed(below))  # folders in order of name
    return found
