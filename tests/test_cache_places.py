"""Where the cache, its sealing key and the served games live, on each platform.

platformdirs names the user's folders: the XDG ones on Linux (as before:
``~/.cache/rulebook``, ``$XDG_CACHE_HOME/rulebook``), ``~/Library`` on macOS,
``%LOCALAPPDATA%`` on Windows, which had no cache at all before.
``$RULEBOOK_CACHE_DIR`` and ``$RULEBOOK_STATE_DIR`` still win.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import platformdirs
import pytest
from platformdirs.macos import MacOS
from platformdirs.unix import Unix
from platformdirs.windows import Windows

from rulebook_games import cache
from rulebook_games.cli.serve import default_records


@pytest.fixture
def home(tmp_path, monkeypatch):
    for name in ("RULEBOOK_CACHE_DIR", "RULEBOOK_STATE_DIR", "RULEBOOK_NO_CACHE",
                 "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


@pytest.mark.skipif(not hasattr(os, "getuid") or os.uname().sysname != "Linux",
                    reason="the XDG folders are Linux's")
def test_linux_keeps_the_xdg_folders(home, monkeypatch):
    assert cache.cache_dir() == home / ".cache" / "rulebook"
    assert cache.state_dir() == home / ".local" / "state" / "rulebook"
    assert default_records() == home / ".local" / "share" / "rulebook" / "games"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "c"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "s"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "d"))
    assert cache.cache_dir() == home / "c" / "rulebook"
    assert cache.state_dir() == home / "s" / "rulebook"
    assert default_records() == home / "d" / "rulebook" / "games"
    # a relative XDG folder is invalid (the XDG rules): ignored, as if unset
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/place")
    assert cache.cache_dir() == home / ".cache" / "rulebook"


@pytest.mark.parametrize("cache_home, state_home", [
    (None, None), ("", ""), ("/somewhere/cache", "/somewhere/state"), ("relative", "x/y"),
    ("/only/cache", None)])
def test_on_linux_the_folders_are_the_ones_platformdirs_names(home, monkeypatch, cache_home,
                                                              state_home):
    """Rulebook works the XDG folders out itself on Linux (sparing every start platformdirs'
    import): the same folders platformdirs names, with the variables set or not."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(platformdirs, "PlatformDirs", Unix)
    for name, value in (("XDG_CACHE_HOME", cache_home), ("XDG_STATE_HOME", state_home)):
        if value is not None:
            monkeypatch.setenv(name, value)
    assert cache.cache_dir() == Path(platformdirs.user_cache_dir("rulebook", appauthor=False))
    assert cache.state_dir() == Path(platformdirs.user_state_dir("rulebook", appauthor=False))


def test_the_environment_overrides_win(home, monkeypatch):
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(home / "mine"))
    monkeypatch.setenv("RULEBOOK_STATE_DIR", str(home / "key"))
    assert cache.cache_dir() == home / "mine" and cache.state_dir() == home / "key"
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    assert cache.cache_dir() is None
    monkeypatch.delenv("RULEBOOK_NO_CACHE")
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", "relative")  # would follow the working folder
    assert cache.cache_dir() is None


def test_macos_gets_its_library_folders(home, monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(platformdirs, "PlatformDirs", MacOS)
    assert cache.cache_dir() == home / "Library" / "Caches" / "rulebook"
    assert cache.state_dir() == home / "Library" / "Application Support" / "rulebook"
    assert default_records() == home / "Library" / "Application Support" / "rulebook" / "games"


def test_windows_gets_a_cache_too(home, monkeypatch):
    """Before, a system without os.getuid had no cache. Now the folders are under the user's
    local application data, and a cache file is kept and read back there; a link is still
    refused. (The folder a Windows machine names is written here as a POSIX path.)"""
    local = home / "AppData" / "Local"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(platformdirs, "PlatformDirs", Windows)
    monkeypatch.setattr("platformdirs.windows.get_win_folder", lambda name: str(local))
    monkeypatch.delattr(os, "getuid")
    assert cache.cache_dir() == local / "rulebook" / "Cache"
    assert cache.state_dir() == local / "rulebook"
    assert default_records() == local / "rulebook" / "games"
    key = cache.key_for("test", "windows")
    assert cache.store(key, {"a": 1}) and cache.load(key)["a"] == 1
    entry = local / "rulebook" / "Cache" / f"{key}.json"
    assert entry.is_file()
    # a link is refused whatever the platform says of owners
    entry.rename(home / "moved.json")
    entry.symlink_to(home / "moved.json")
    assert cache.load(key) is None
    assert not cache.private(os.lstat(entry), stat.S_ISREG)


def test_the_readme_names_the_places():
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = text.split("## The cache", 1)[1].split("\n## ", 1)[0]
    for place in ("~/.cache/rulebook", "~/Library/Caches/rulebook",
                  "%LOCALAPPDATA%\\rulebook\\Cache", "$RULEBOOK_CACHE_DIR"):
        assert place in section, place
