"""The per-user cache: JSON documents kept between runs, read back only when trustworthy.

Loading a ruleset parses and checks hundreds of effects; the results are kept
here so the next run can skip that work (see :mod:`rulebook_games.load.loadcache`).
Rule files are untrusted and the cache must never become a way to run code,
so this module keeps to a few rules:

- it stores JSON documents only: no pickle, no marshalled code; what is read
  back is data, checked by whoever asked for it;
- it lives in the user's own folder: ``$RULEBOOK_CACHE_DIR``, else the
  platform's user cache folder as platformdirs names it (on Linux and other
  Unix ``$XDG_CACHE_HOME/rulebook``, else ``~/.cache/rulebook``; on macOS
  ``~/Library/Caches/rulebook``; on Windows
  ``%LOCALAPPDATA%\\rulebook\\Cache``), never a shared temporary folder;
  ``RULEBOOK_NO_CACHE=1`` turns it off;
- the folder is made owner-only (0700) and files are written owner-only
  (0600); a folder or file that is a link, belongs to another user or that
  group or others may write is not used (on Windows, which has no such
  owner and mode bits, the user's own local application data folder is
  private by its access rules, and a link is still refused);
- a file is written to a temporary file in the same folder and renamed over
  the old one, so a reader never sees half a file;
- every document is named and stamped by a key (:func:`key_for`) that covers
  what it was made from, Rulebook's own code and data and the Python running
  it. A file that is missing, damaged, too large or stamped otherwise reads
  as no entry (None); nothing here ever raises to the caller;
- every file is sealed (:func:`seal`): its first line holds an HMAC-SHA256 of
  its name and its contents under a secret key of this user's, kept apart
  from the cache in the user's state folder (``$RULEBOOK_STATE_DIR``, else
  the platform's user state folder: ``$XDG_STATE_HOME/rulebook``, else
  ``~/.local/state/rulebook``; ``~/Library/Application Support/rulebook``
  on macOS; ``%LOCALAPPDATA%\\rulebook`` on Windows), made once,
  owner-only. A file planted in the cache, restored from another
  machine's, or changed after it was written does not carry that seal and
  reads as no entry: what a load takes from the cache is what this user's
  own Rulebook wrote. Readers still check what they read (see
  :mod:`rulebook_games.lang.astjson`), so a sealed file cannot run code either.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import re
import stat
import sys
from pathlib import Path

FORMAT = "rulebook-cache/2"
MAX_BYTES = 64 * 1024 * 1024
KEEP = 64  # entries of each kind kept; older ones are removed when a new one is written

def cache_dir() -> Path | None:
    """Where the cache lives, or None when caching is turned off or not possible here."""
    if os.environ.get("RULEBOOK_NO_CACHE", "") not in ("", "0"):
        return None
    return _user_folder("RULEBOOK_CACHE_DIR", "user_cache_dir")


def state_dir() -> Path | None:
    """Where the secret key that seals the cache lives: apart from the cache itself."""
    return _user_folder("RULEBOOK_STATE_DIR", "user_state_dir")


# On Linux the folders platformdirs names are the XDG ones: worked out here, as it does
# (tests/test_cache_places.py holds the two equal), so that every start is spared its
# import (it brings tempfile and more: some 10 ms).
_XDG = {"user_cache_dir": ("XDG_CACHE_HOME", (".cache",)),
        "user_state_dir": ("XDG_STATE_HOME", (".local", "state"))}


def _user_folder(variable: str, kind: str) -> Path | None:
    """``$variable``, else the platform's folder of that kind for Rulebook (platformdirs:
    the XDG folders on Linux, ~/Library on macOS, %LOCALAPPDATA% on Windows)."""
    if os.environ.get(variable):
        folder = Path(os.environ[variable])
    elif sys.platform.startswith("linux"):
        xdg, default = _XDG[kind]
        base = os.environ.get(xdg, "")
        if not os.path.isabs(base):  # unset, empty or relative: the default (XDG's rule)
            base = os.path.join(os.path.expanduser("~"), *default)
        folder = Path(base) / "rulebook"
    else:
        import platformdirs
        try:
            folder = Path(getattr(platformdirs, kind)("rulebook", appauthor=False))
        except Exception:  # no home folder known, say: no cache rather than a failure
            return None
    # a relative place (no home folder known) would follow the working folder around
    return folder if folder.is_absolute() else None


def private(st: os.stat_result, kind) -> bool:
    """Of the expected kind (not a link), owned by this user, writable by nobody else.

    Windows has no owner id and no group and others' write bits in a stat; there the
    kind is checked (a link is still refused): the folders are the user's own, under
    %LOCALAPPDATA%, whose access rules keep other users out."""
    if not hasattr(os, "getuid"):
        return bool(kind(st.st_mode))
    return kind(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o022


def _usable(folder: Path) -> bool:
    try:
        return private(os.lstat(folder), stat.S_ISDIR)
    except OSError:
        return False


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of what Rulebook is made of: its code (version number included), schemas,
    grammar, and the libraries that read rule files (Lark, PyYAML, jsonschema).

    Each file counts by its name, size and modification time, as Python's own
    bytecode cache judges its source, so any change to the interpreter, even
    one that keeps the version number (a checkout being worked on), or an
    upgraded library gives new keys, and no entry made by other code is used.
    """
    from . import paths
    h = hashlib.sha256(f"{FORMAT}\0".encode())
    package = os.path.dirname(os.path.abspath(__file__))
    sources = []
    for folder, subfolders, names in os.walk(package):
        subfolders[:] = [d for d in subfolders if d not in (paths.PACKAGED_DIR, "__pycache__")]
        sources += (os.path.join(folder, n) for n in names if n.endswith(".py"))
    sources.sort()
    try:
        sources += sorted(paths.schemas_dir().glob("*.schema.json")) + [paths.grammar_file()]
    except paths.DataMissing:
        pass
    # the libraries whose results a load keeps: found, not imported (that is slow)
    from importlib.util import find_spec
    for library in ("lark", "yaml", "jsonschema"):
        try:
            spec = find_spec(library)
        except (ImportError, ValueError):
            spec = None
        sources.append(spec.origin if spec is not None and spec.origin else library)
    for path in sources:
        try:
            st = os.stat(path)
            h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        except OSError:
            h.update(f"{path}\0?\0".encode())
    return h.hexdigest()


def key_for(kind: str, *parts: str) -> str:
    """The key of an entry of ``kind`` made from ``parts`` (content hashes, paths…).

    It also covers :func:`code_fingerprint` and the Python implementation and
    version, so an entry is only ever read by the code that could have made it.
    """
    h = hashlib.sha256()
    for part in (FORMAT, kind, code_fingerprint(), sys.implementation.name,
                 sys.implementation.cache_tag or "", sys.version, *parts):
        h.update(str(part).encode("utf-8") + b"\0")
    return f"{kind}-{h.hexdigest()[:40]}"


_KEY = re.compile(r"[a-z_]+-[0-9a-f]{40}")


def _file(folder: Path, key: str) -> Path | None:
    """The entry's file; None for a key :func:`key_for` could not have made (a name with
    a '/' or '..' in it, say), so a key never names a file outside the folder."""
    return folder / f"{key}.json" if isinstance(key, str) and _KEY.fullmatch(key) else None


_KEY_BYTES = 32


def _secret() -> bytes | None:
    """This user's sealing key, made on first use; None when it cannot be kept safely."""
    folder = state_dir()
    return None if folder is None else _secret_in(folder)


@functools.lru_cache(maxsize=4)
def _secret_in(folder: Path) -> bytes | None:
    path = folder / "cache-key"
    for _ in range(2):
        raw = read_private(path, 2 * _KEY_BYTES)
        if raw is not None:
            try:
                key = bytes.fromhex(raw.decode("ascii"))
            except (UnicodeDecodeError, ValueError):
                return None
            return key if len(key) == _KEY_BYTES else None
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not _usable(folder):
                return None
            import secrets
            import tempfile
            fd, tmp = tempfile.mkstemp(prefix=".key-", dir=folder)  # 0600
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(secrets.token_hex(_KEY_BYTES).encode("ascii"))
                    fh.flush()
                    os.fsync(fh.fileno())
                try:
                    os.link(tmp, path)  # never replaces a key another process made first
                except FileExistsError:
                    pass
            finally:
                os.unlink(tmp)
        except OSError:
            return None
    return None


def _mac(key: bytes, name: str, body: bytes) -> str:
    return hmac.new(key, name.encode("utf-8") + b"\0" + body, hashlib.sha256).hexdigest()


def seal(name: str, body: bytes) -> bytes | None:
    """``body`` with a first line that proves this user's Rulebook wrote it as ``name``."""
    key = _secret()
    if key is None:
        return None
    return f"{FORMAT} {_mac(key, name, body)}\n".encode("ascii") + body


def unseal(name: str, raw: bytes) -> bytes | None:
    """The body :func:`seal` wrote as ``name``; None unless the seal is this user's."""
    key = _secret()
    line, sep, body = raw.partition(b"\n")
    if key is None or not sep:
        return None
    expected = f"{FORMAT} {_mac(key, name, body)}".encode("ascii")
    return body if hmac.compare_digest(line, expected) else None


def read_private(path: Path, limit: int = MAX_BYTES) -> bytes | None:
    """A cache file's bytes, if it is a regular file of ours that nobody else may write,
    not a link, and at most ``limit`` bytes; None otherwise."""
    try:
        # without waiting: a pipe planted in the folder is refused below, not waited on
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not private(st, stat.S_ISREG) or st.st_size > limit:
            return None
        with os.fdopen(fd, "rb") as fh:
            fd = None
            return fh.read(limit + 1)
    except OSError:
        return None
    finally:
        if fd is not None:
            os.close(fd)


def load(key: str) -> dict | None:
    """The document stored under ``key``, or None if there is no trustworthy one."""
    folder = cache_dir()
    if folder is None or _file(folder, key) is None or not _usable(folder):
        return None
    raw = read_private(_file(folder, key))
    body = None if raw is None else unseal(key, raw)
    if body is None:
        return None
    try:
        document = json.loads(body)
    except Exception:  # damaged, truncated, foreign: as good as missing
        return None
    if not isinstance(document, dict) or document.get("format") != FORMAT \
            or document.get("key") != key:
        return None
    return document


def store(key: str, document: dict) -> bool:
    """Keep ``document`` (JSON data) under ``key``; any failure just leaves no entry."""
    folder = cache_dir()
    if folder is None or _file(folder, key) is None:
        return False
    import tempfile  # only a write needs it (and it is slow to import)
    tmp = None
    try:
        text = json.dumps(dict(document, format=FORMAT, key=key), ensure_ascii=False,
                          separators=(",", ":"), allow_nan=False)
        sealed = seal(key, text.encode("utf-8"))
        if sealed is None:
            return False
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _usable(folder):
            return False
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=folder)  # 0600
        with os.fdopen(fd, "wb") as fh:
            fh.write(sealed)
        os.replace(tmp, _file(folder, key))
        tmp = None
        _prune(folder, key.split("-", 1)[0])
        return True
    except Exception:
        return False
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _prune(folder: Path, kind: str) -> None:
    """Keep the newest :data:`KEEP` entries of a kind, so edits do not fill the disk."""
    entries = []
    for path in folder.glob(f"{kind}-*.json"):
        try:
            entries.append((path.stat().st_mtime, path))
        except OSError:
            pass
    entries.sort(reverse=True)
    for _, path in entries[KEEP:]:
        try:
            path.unlink()
        except OSError:
            pass

