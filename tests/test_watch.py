"""``validate --watch`` and ``test --watch``: run again on each save, stopped by Ctrl-C.

The command runs in its own process on a copy of a ruleset in a temporary
folder; a file of it is really changed, as an editor saves it, and the
command must run again and say what the change broke. Ctrl-C (SIGINT) then
ends it with exit 0 and no traceback. Without watchfiles the flag is
refused in one line before anything runs.
"""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rulebook_games.cli import main
from rulebook_games.paths import shipped_rulesets_dir

pytest.importorskip("watchfiles")

WAIT = 60  # seconds for a run to show what it must (a loaded machine is slow)


class Running:
    """A ``rulebook`` command in its own process, its output read line by line."""

    def __init__(self, args, cwd):
        env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="100")
        self.proc = subprocess.Popen([sys.executable, "-m", "rulebook_games", *args], cwd=cwd,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, env=env)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)

    def wait_for(self, text: str) -> str:
        """Everything printed until a line holding ``text`` (inclusive)."""
        start, got = time.monotonic(), []
        while time.monotonic() - start < WAIT:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                continue
            got.append(line)
            self.seen.append(line)
            if text in line:
                return "".join(got)
        raise AssertionError(f"no {text!r} within {WAIT}s; printed:\n{''.join(self.seen)}")

    def interrupt(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        try:
            code = self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        time.sleep(0.2)  # the reader takes the last lines
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return code

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "lantern_row"
    shutil.copytree(shipped_rulesets_dir() / "lantern_row", folder)
    return folder


def _save(path: Path, old: str, new: str) -> None:
    """Change a file as an editor saves it."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_validate_watch_checks_again_on_each_save_and_stops_on_ctrl_c(game):
    run = Running(["validate", "--watch"], game.parent)
    try:
        first = run.wait_for("for changes to rule files")
        assert "lantern_row" in first and "error" not in first
        _save(game / "mods" / "deep_pockets.yaml", "value: 7}", "value: seven}")
        again = run.wait_for("deep_pockets.yaml changed: checking again")
        again += run.wait_for("1 error(s)")
        assert "mods/deep_pockets.yaml:13:" in again and "seven" in again
        _save(game / "mods" / "deep_pockets.yaml", "value: seven}", "value: 7}")
        run.wait_for("changed: checking again")
        fixed = run.wait_for("rich_start")
        fixed += run.wait_for("└")  # the table's last line
        assert "error" not in fixed
        # a file that is not a rule file changes nothing
        (game / "notes.txt").write_text("a note", encoding="utf-8")
        time.sleep(1.5)
        assert run.lines.empty()
        code = run.interrupt()
    finally:
        run.stop()
    out = "".join(run.seen)
    assert code == 0, out
    assert "stopped watching" in out and "Traceback" not in out


def test_test_watch_runs_the_scenarios_again_on_each_save(game):
    run = Running(["test", str(game), "--watch"], game.parent)
    try:
        first = run.wait_for("for changes to rule files")
        assert "29 passed, 0 failed" in first
        _save(game / "scenarios" / "setup.yaml", "== 34 - 8", "== 34 - 7")
        again = run.wait_for("setup.yaml changed: testing again")
        again += run.wait_for("passed,")
        assert "FAIL setup_deals_row_and_hands" in again and "28 passed, 1 failed" in again
        # a change to the rules, not the tests, runs them again too
        _save(game / "scenarios" / "setup.yaml", "== 34 - 7", "== 34 - 8")
        run.wait_for("changed: testing again")
        assert "29 passed, 0 failed" in run.wait_for("passed,")
        code = run.interrupt()
    finally:
        run.stop()
    assert code == 0 and "Traceback" not in "".join(run.seen)


def test_watch_without_watchfiles_says_what_to_install(game, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "watchfiles", None)  # as if not installed
    for args in (["validate", str(game), "--watch"], ["test", str(game), "--watch"]):
        with pytest.raises(SystemExit) as info:
            main(args)
        err = capsys.readouterr()
        assert info.value.code == 2
        assert "--watch needs the watchfiles package: pip install 'rulebook-games[watch]'" \
            in err.err and "Traceback" not in err.err and "Validation" not in err.out


def test_what_is_watched(game, tmp_path, monkeypatch):
    from rulebook_games.cli.watching import places
    monkeypatch.chdir(tmp_path)
    assert places([".", "lantern_row"]) == [tmp_path]
    # a rule file stands for its ruleset's folder; a mod outside it adds its own folder
    elsewhere = tmp_path / "house"
    elsewhere.mkdir()
    (elsewhere / "mod.yaml").write_text("kind: mod\n", encoding="utf-8")
    assert places([str(game / "cards" / "lanterns.yaml")], [str(elsewhere / "mod.yaml")]) == \
        sorted([game, elsewhere])
    assert places(["timespan"]) == [shipped_rulesets_dir().resolve() / "timespan"] or \
        places(["timespan"]) == [Path(os.path.abspath(shipped_rulesets_dir() / "timespan"))]


def test_which_saves_count(tmp_path):
    from watchfiles import Change
    from rulebook_games.cli.watching import _rule_files
    home = tmp_path / ".config" / "games"  # a hidden folder above the one watched is fine
    wanted = _rule_files([home])
    assert wanted(Change.modified, str(home / "my_game" / "flow.yaml"))
    assert wanted(Change.added, str(home / "my_game" / "mods" / "new.yml"))
    assert wanted(Change.deleted, str(home / "my_game" / "cards" / "old.yaml"))
    for other in ("my_game/notes.txt", "my_game/.flow.yaml.swp", "my_game/flow.yaml~",
                  ".git/x.yaml", "my_game/.venv/lib/x.yaml", "node_modules/x/y.yaml"):
        assert not wanted(Change.modified, str(home / other)), other
    assert not wanted(Change.modified, str(tmp_path / "elsewhere.yaml"))


def test_a_first_run_that_cannot_start_stops_as_without_watch(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SystemExit) as info:
        main(["validate", str(empty), "--watch"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "nothing to check in" in err and "watching" not in err
