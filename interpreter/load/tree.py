"""Keep every path that a rule file names inside the tree it belongs to.

Rule files, mods and records are untrusted, so a path written in one (an
include, a glob, a record's mods) is only followed if it stays inside its
tree: the folder of the ruleset's ``ruleset.yaml``, or the folder of the
record. An absolute path, a ``..`` that climbs out, or a symbolic link whose
target lies outside is refused with :class:`OutsideTree` before anything out
there is opened. Globs are matched here, by walking the tree itself, so they
never list an outside folder and never follow a link out of it; links that
stay inside are followed (once, so a link loop ends).
"""

from __future__ import annotations

import fnmatch
import functools
import os
from pathlib import Path, PurePosixPath, PureWindowsPath

MAGIC = "*?["
MAX_GLOB_FILES = 10_000  # more matches than any ruleset has files is an error, not a walk
MAX_GLOB_ENTRIES = 200_000  # entries looked at by one glob (links can multiply folders)
MAX_GLOB_DEPTH = 64  # folders below the glob's start


class OutsideTree(Exception):
    """A path that would leave its tree; the message says why, never what is out there."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class GlobTooLarge(Exception):
    """A glob that matches, or has to look at, far more than any ruleset holds."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def is_inside(path: Path, tree: Path) -> bool:
    """Whether ``path``, with every link followed, lies in ``tree`` (already resolved)."""
    try:
        Path(os.path.realpath(path)).relative_to(tree)
    except ValueError:
        return False
    return True


def tree_of(folder: Path) -> Path:
    """The resolved tree rooted at ``folder``."""
    return Path(os.path.realpath(folder))


def _refuse_absolute(name: str, what: str, where: str) -> None:
    if name.startswith(("/", "\\")) or PureWindowsPath(name).drive \
            or PurePosixPath(name).is_absolute():
        raise OutsideTree(f"{what} '{name}' is an absolute path; paths here are relative "
                          f"and stay inside {where}")


def _join(base: Path, parts: list[str]) -> Path:
    """``base`` joined with ``parts``, with '.' and '..' taken away by name (what is opened)."""
    return Path(os.path.normpath(os.path.join(os.path.abspath(base), *parts)))


def _outside(name: str, parts: list[str], what: str, where: str,
             verb: str = "read") -> OutsideTree:
    if ".." in parts:
        return OutsideTree(f"{what} '{name}' climbs out of {where} with '..'")
    return OutsideTree(f"{what} '{name}' is a link to a place outside {where}; it is not "
                       f"{verb}")


def _split(name: str) -> list[str]:
    return name.replace("\\", "/").split("/")


def resolve_in(base: Path, tree: Path, name: str, what: str = "the path",
               where: str = "its tree") -> Path:
    """The file ``name`` (relative to folder ``base``) names, if it stays in ``tree``.

    Raises :class:`OutsideTree` for an absolute path, a ``..`` above the tree,
    or a link (anywhere along the way) whose target lies outside it. The result
    may not exist; callers report that themselves.
    """
    _refuse_absolute(name, what, where)
    parts = _split(name)
    full = _join(base, parts)
    if not is_inside(full, tree):
        raise _outside(name, parts, what, where)
    return full


def glob_in(base: Path, tree: Path, pattern: str, what: str = "the pattern",
            where: str = "its tree") -> list[Path]:
    """The files in ``tree`` matching ``pattern`` (relative to ``base``), sorted.

    ``*``, ``?`` and ``[...]`` match within one name and ``**`` matches any
    number of folders; names starting with '.' match only a pattern that
    does. The walk starts at the pattern's fixed part and prunes every folder
    that cannot match, so it never leaves the tree.
    """
    _refuse_absolute(pattern, what, where)
    parts = [p for p in _split(pattern) if p not in ("", ".")]
    fixed = 0
    while fixed < len(parts) and not any(ch in parts[fixed] for ch in MAGIC):
        fixed += 1
    if ".." in parts[fixed:]:
        raise OutsideTree(f"{what} '{pattern}' has '..' after a wildcard; a glob may only "
                          "go down from where it starts")
    start = _join(base, parts[:fixed])
    if not is_inside(start, tree):
        raise _outside(pattern, parts, what, where, "followed")
    rest = tuple(parts[fixed:])
    if not rest:
        return [start] if start.is_file() else []
    found: list[Path] = []
    _walk(start, (), rest, tree, found, {Path(os.path.realpath(start))},
          f"{what} '{pattern}'", where, [MAX_GLOB_ENTRIES])
    return sorted(found)


def _walk(folder: Path, rel: tuple, rest: tuple, tree: Path, found: list[Path],
          open_dirs: set, what: str, where: str, budget: list[int]) -> None:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    budget[0] -= len(entries)
    if budget[0] < 0:
        raise GlobTooLarge(f"{what} looks at more than {MAX_GLOB_ENTRIES} files and folders; "
                           "name the folders it should look in")
    for entry in entries:
        sub = rel + (entry.name,)
        path = folder / entry.name
        try:
            is_dir = entry.is_dir()
            is_file = entry.is_file()
        except OSError:
            continue
        if is_dir and _could_match_below(rest, sub):
            if len(sub) > MAX_GLOB_DEPTH:
                raise GlobTooLarge(f"{what} goes more than {MAX_GLOB_DEPTH} folders deep")
            real = Path(os.path.realpath(path))
            if not is_inside(real, tree):
                raise OutsideTree(f"{what} reaches '{'/'.join(sub)}', a link to a place "
                                  f"outside {where}; it is not followed")
            if real in open_dirs:  # a link back up: this folder is being walked already
                continue
            _walk(path, sub, rest, tree, found, open_dirs | {real}, what, where, budget)
        elif is_file and _matches(rest, sub):
            if not is_inside(path, tree):
                raise OutsideTree(f"{what} matches '{'/'.join(sub)}', a link to a place "
                                  f"outside {where}; it is not read")
            found.append(path)
            if len(found) > MAX_GLOB_FILES:
                raise GlobTooLarge(f"{what} matches more than {MAX_GLOB_FILES} files")


def _name_matches(name: str, part: str) -> bool:
    if name.startswith(".") and not part.startswith("."):
        return False
    return fnmatch.fnmatchcase(name, part)


def _matches(pattern: tuple, names: tuple) -> bool:
    """Whether the whole path ``names`` matches ``pattern``."""
    return _match(pattern, names, False)


def _could_match_below(pattern: tuple, names: tuple) -> bool:
    """Whether some path below the folder ``names`` could match ``pattern``."""
    return _match(pattern, names, True)


@functools.lru_cache(maxsize=4096)
def _match(pattern: tuple, names: tuple, prefix: bool) -> bool:
    @functools.cache
    def at(i: int, j: int) -> bool:
        if j == len(names):
            # a folder: something below it may match if pattern is left over
            return i < len(pattern) if prefix else (i == len(pattern) or
                                                     pattern[i:] == ("**",) * (len(pattern) - i))
        if i == len(pattern):
            return False
        if pattern[i] == "**":
            return at(i + 1, j) or (not names[j].startswith(".") and at(i, j + 1))
        return _name_matches(names[j], pattern[i]) and at(i + 1, j + 1)
    return at(0, 0)


def name_from(folder: Path, target: str | os.PathLike) -> str:
    """How ``target`` is named from ``folder``: a relative path with '/' separators."""
    try:
        rel = os.path.relpath(os.path.abspath(target), os.path.abspath(folder))
    except ValueError:  # pragma: no cover - another drive on Windows
        return Path(os.path.abspath(target)).as_posix()
    return Path(rel).as_posix()
