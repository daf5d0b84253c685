"""Hostile results files and the balance lab: issue 24, items 2, 4, 5 (results) and 12 (lab).

A results file (``simulate --out``) is untrusted: ``report`` runs on files
strangers publish, and ``--resume`` appends to whatever file it is given.
Each case runs the real command line in a fresh interpreter and asserts the
exit code, that no traceback and no "internal error" is printed, and, where
it matters, that nothing outside the results file's folder was read (a
secret planted there never reaches the output) and that a refused file is
left byte for byte as it was.

- item 2: a results line names its ruleset and mods the way a record does:
  a shipped ruleset's name, files inside the results file's folder (or the
  ruleset's own house rules); nothing else is opened;
- item 4: ``--resume`` drops a torn last line only after whole lines of the
  same configuration; any other file is refused with exit 2, untouched;
- item 5: tampered lines (huge numbers, deep nesting, wrong types, labels
  matplotlib would read as math, a line of a gigabyte) and pipes given as
  results files are positioned errors, at once;
- item 12: ``compare`` without the report extra gives the one-line hint
  with exit 2, and ``--backend ray`` never waits on a stale Ray cluster;
- the audit after it (F04–F06): a file names at most so many different
  scoring entries, features, cards, actions, agents and titles (far more
  than any ruleset), and one past a limit is refused at its line; within the
  limits, plots and tables show a bounded number of rows and say how many
  they leave out, so a report finishes in seconds whatever the file names;
  control characters in labels never reach the terminal raw, not even
  through matplotlib's warnings.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
GAME = "legacy_gears_of_time"
SECRET = "TOPSECRET-results-7d2a"
HINT = "error: the balance lab needs scipy and matplotlib: pip install 'rulebook-games[report]'"


def rulebook(*args, cwd: Path, env: dict | None = None, timeout: int = 120,
             missing: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """The real command line in a fresh interpreter; ``missing`` modules cannot be imported
    there (an install without that extra)."""
    full_env = dict(os.environ, **(env or {}))
    full_env.pop("GITHUB_ACTIONS", None)
    full_env["COLUMNS"] = "400"  # a message is one line of the output, not wrapped
    if missing:
        script = textwrap.dedent(f"""
            import sys
            class _Missing:
                def find_spec(self, name, path=None, target=None):
                    if name.partition(".")[0] in {set(missing)!r}:
                        raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            sys.meta_path.insert(0, _Missing())
            from rulebook_games.cli import main
            main()
        """)
        command = [sys.executable, "-c", script, *map(str, args)]
    else:
        command = [sys.executable, "-m", "rulebook_games", *map(str, args)]
    return subprocess.run(command, cwd=cwd, env=full_env, capture_output=True, text=True,
                          timeout=timeout)


def clean(proc: subprocess.CompletedProcess, code: int) -> str:
    out = proc.stdout + proc.stderr
    assert proc.returncode == code, out
    assert "Traceback" not in out and "internal error" not in out, out
    assert SECRET not in out, out
    return out


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> bytes:
    """Four games of the quickest ruleset, two players, seeds 1 to 4: a real results file."""
    folder = tmp_path_factory.mktemp("made")
    clean(rulebook("simulate", GAME, "-n", "4", "-p", "2", "--out", folder / "r.jsonl",
                   cwd=folder), 0)
    return (folder / "r.jsonl").read_bytes()


def lines_of(made: bytes) -> list[dict]:
    return [json.loads(x) for x in made.splitlines()]


def write(path: Path, lines) -> bytes:
    data = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines).encode()
    path.write_bytes(data)
    return data


# ------------------------------------------------------------------ item 2: outside the tree
def _plant_outside(tmp_path: Path) -> Path:
    """An outside folder whose mod and ruleset would put the secret in the output if read."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "evil.yaml").write_text(f"kind: mod\nid: evil\nname: {SECRET}\n"
                                       f"target: {GAME}\nchanges: []\n", encoding="utf-8")
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini", outside / "rules")
    manifest = outside / "rules" / "ruleset.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("name: Mini",
                                                                     f"name: {SECRET}"),
                        encoding="utf-8")
    return outside


@pytest.mark.parametrize("how", ["absolute", "climbs", "link"])
def test_item2_report_never_opens_a_mod_outside_the_results_folder(tmp_path, made, how):
    pytest.importorskip("scipy")
    outside = _plant_outside(tmp_path)
    folder = tmp_path / "results"
    folder.mkdir()
    name = {"absolute": str(outside / "evil.yaml"), "climbs": "../outside/evil.yaml",
            "link": "evil.yaml"}[how]
    if how == "link":
        (folder / "evil.yaml").symlink_to(outside / "evil.yaml")
    lines = lines_of(made)
    for line in lines:
        line["mods"] = [{"id": "evil", "file": name, "content_hash": "0" * 64}]
    write(folder / "r.jsonl", lines)
    proc = rulebook("report", "r.jsonl", "--html", "page.html", cwd=folder)
    out = clean(proc, 0)
    assert "r.jsonl:1: " in out and "it is not read" in out, out
    assert SECRET not in (folder / "page.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("ruleset_id", ["{outside}/rules", "../outside/rules"])
def test_item2_report_takes_a_ruleset_only_by_a_shipped_name(tmp_path, made, ruleset_id):
    pytest.importorskip("scipy")
    outside = _plant_outside(tmp_path)
    folder = tmp_path / "results"
    folder.mkdir()
    lines = lines_of(made)
    for line in lines:
        line["ruleset"]["id"] = ruleset_id.format(outside=outside)
        line["ruleset"]["name"] = "Planted"
    write(folder / "r.jsonl", lines)
    out = clean(rulebook("report", "r.jsonl", cwd=folder), 0)
    assert "r.jsonl:1: the ruleset " in out and "is not a shipped one" in out, out


@pytest.mark.slow
def test_item2_a_mod_inside_the_folder_or_a_house_rule_is_named(tmp_path):
    """The other side of the rule: mods the file may name are found and named."""
    pytest.importorskip("scipy")
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "mine.yaml").write_text(
        f"kind: mod\nid: mine\nname: My Own House Rule\ntarget: {GAME}\nchanges: []\n",
        encoding="utf-8")
    clean(rulebook("simulate", GAME, "-n", "2", "-p", "2", "--mod", "results/mine.yaml",
                   "--out", "results/own.jsonl", cwd=tmp_path), 0)
    shipped = ROOT / "rulesets" / GAME / "mods" / "three_rounds.yaml"
    clean(rulebook("simulate", GAME, "-n", "2", "-p", "2", "--mod", shipped,
                   "--out", "results/house.jsonl", cwd=tmp_path), 0)
    # written as records write mods: relative to the results file's folder
    assert lines_of((folder / "own.jsonl").read_bytes())[0]["mods"][0]["file"] == "mine.yaml"
    assert "My Own House Rule" in clean(rulebook("report", "own.jsonl", cwd=folder), 0)
    assert "Three rounds" in clean(rulebook("report", "house.jsonl", cwd=folder), 0)
    # a mod kept elsewhere is named again with --mod, as a record's is
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "other.yaml").write_text(
        f"kind: mod\nid: other\nname: Kept Elsewhere\ntarget: {GAME}\nchanges: []\n",
        encoding="utf-8")
    clean(rulebook("simulate", GAME, "-n", "2", "-p", "2", "--mod", "elsewhere/other.yaml",
                   "--out", "results/other.jsonl", cwd=tmp_path), 0)
    out = clean(rulebook("report", "other.jsonl", cwd=folder), 0)
    assert "Kept Elsewhere" not in out and "other.jsonl:1: the mod " in out
    assert "Kept Elsewhere" in clean(rulebook("report", "other.jsonl", "--mod",
                                              "../elsewhere/other.yaml", cwd=folder), 0)


# ------------------------------------------------------------------ item 4: results never lost
def _one_line_of_another_configuration(made: bytes) -> bytes:
    line = lines_of(made)[0]
    line["players"], line["scores"], line["agents"] = 3, [1, 2, 3], ["random"] * 3
    return json.dumps(line).encode()  # whole, but with no line end


REFUSED = {
    "a note with no line end": lambda made: b"my precious notes",
    "a torn first line": lambda made: made.splitlines()[0][:40],
    "one whole line of another configuration, no line end":
        _one_line_of_another_configuration,
    "lines of another configuration, then a torn line":
        lambda made: _one_line_of_another_configuration(made) + b"\n" + made[:30],
    "a results line, then text that is not one": lambda made: made.splitlines(True)[0] + b"ok",
    "a results line, then a line of wrong types":
        lambda made: made.splitlines(True)[0] + b'{"seed": "2"}\n',
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_item4_simulate_resume_refuses_and_keeps_every_byte(tmp_path, made, case):
    path = tmp_path / "r.jsonl"
    path.write_bytes(REFUSED[case](made))
    before = path.read_bytes()
    out = clean(rulebook("simulate", GAME, "-n", "4", "-p", "2", "--resume", path,
                         cwd=tmp_path), 2)
    assert "r.jsonl:" in out, out
    assert path.read_bytes() == before


def test_item4_compare_resume_refuses_before_writing_either_file(tmp_path, made):
    pytest.importorskip("scipy")
    base, mod = tmp_path / "base.jsonl", tmp_path / "mod.jsonl"
    base.write_bytes(made[:len(made.splitlines(True)[0])])  # one game of the base side
    mod.write_bytes(b"my precious notes")
    out = clean(rulebook("compare", GAME, "--mod", "three_rounds", "-n", "4", "-p", "2",
                         "--out-base", base, "--out-mod", mod, "--resume", cwd=tmp_path), 2)
    assert "mod.jsonl:1: " in out, out
    assert mod.read_bytes() == b"my precious notes"
    assert base.read_bytes() == made.splitlines(True)[0]  # not carried on either


def test_item4_compare_refuses_one_file_for_both_sides(tmp_path):
    """Both sides written to one file would leave only the modded games, read as both."""
    pytest.importorskip("scipy")
    out = clean(rulebook("compare", GAME, "--mod", "three_rounds", "-n", "2", "-p", "2",
                         "--out-base", "same.jsonl", "--out-mod", "./same.jsonl",
                         cwd=tmp_path), 2)
    assert "--out-base and --out-mod name the same file" in out
    assert not (tmp_path / "same.jsonl").exists()

def test_item4_a_whole_last_line_without_its_line_end_is_kept(tmp_path, made):
    path = tmp_path / "r.jsonl"
    path.write_bytes(made.splitlines(True)[0].rstrip(b"\n"))
    out = clean(rulebook("simulate", GAME, "-n", "4", "-p", "2", "--resume", path,
                         cwd=tmp_path), 0)
    assert "1 of the 4 games are done" in out
    assert path.read_bytes() == made  # as one uninterrupted run writes it


def test_item4_a_torn_line_after_lines_of_this_run_is_played_again(tmp_path, made):
    path = tmp_path / "r.jsonl"
    first, second = made.splitlines(True)[:2]
    path.write_bytes(first + second[:50])
    out = clean(rulebook("simulate", GAME, "-n", "4", "-p", "2", "--resume", path,
                         cwd=tmp_path), 0)
    assert "last line was cut off" in out
    assert path.read_bytes() == made


# ------------------------------------------------------------------ item 5: tampered lines
def _tamper(field: str, value):
    def change(line: dict) -> str:
        line[field] = value
        return json.dumps(line)
    return change


def _nested(depth: int):
    def change(line: dict) -> str:
        text = json.dumps(line)
        return text[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}"
    return change


def _raw(field: str, text: str, seat: int | None = None):
    """Put ``text`` (JSON the encoder would not write) as a field, or one seat of it."""
    def change(line: dict) -> str:
        value = "@@"
        if seat is not None:
            value = list(line[field])
            value[seat] = "@@"
        return json.dumps(dict(line, **{field: value})).replace('"@@"', text)
    return change


TAMPERED = {
    "a 400-digit score": _raw("scores", "9" * 400, seat=0),
    "a 5000-digit seed": _raw("seed", "7" * 5000),
    "nesting deeper than Python's recursion": _nested(100_000),
    "a feature nested too deep": _tamper("features", [{"f": {"a": {"b": {"c": {"d": 1}}}}},
                                                      {}]),
    "NaN as a score": _raw("scores", "NaN", seat=1),
    "scores as text": _tamper("scores", ["a", "b"]),
    "mods as a number": _tamper("mods", 5),
    "variants as text": _tamper("variants", "basic"),
    "ruleset as text": _tamper("ruleset", "legacy"),
    "agents as numbers": _tamper("agents", [1, 2]),
    "winners as text": _tamper("winners", ["1"]),
    "rounds as text": _tamper("rounds", "many"),
    "played as a list": _tamper("played", [[], []]),
    "an error as an object": _tamper("error", {"at": 1}),
}


def _tampered_file(path: Path, made: bytes, case: str) -> bytes:
    lines = [json.dumps(x) for x in lines_of(made)]
    lines[1] = TAMPERED[case](lines_of(made)[1])
    return write(path, lines)


@pytest.mark.parametrize("case", list(TAMPERED))
def test_item5_report_names_the_tampered_line(tmp_path, made, case):
    pytest.importorskip("scipy")
    _tampered_file(tmp_path / "r.jsonl", made, case)
    out = clean(rulebook("report", "r.jsonl", cwd=tmp_path, timeout=60), 1)
    assert "r.jsonl:2: " in out, out


@pytest.mark.parametrize("case", ["a 400-digit score", "nesting deeper than Python's "
                                  "recursion", "scores as text", "mods as a number",
                                  "winners as text"])
def test_item5_resume_names_the_tampered_line_and_keeps_the_file(tmp_path, made, case):
    before = _tampered_file(tmp_path / "r.jsonl", made, case)
    out = clean(rulebook("simulate", GAME, "-n", "6", "-p", "2", "--resume", "r.jsonl",
                         cwd=tmp_path, timeout=60), 2)
    assert "r.jsonl:2: " in out, out
    assert (tmp_path / "r.jsonl").read_bytes() == before


def test_item5_agent_names_matplotlib_reads_as_math_are_drawn_as_text(tmp_path, made):
    pytest.importorskip("matplotlib")
    lines = lines_of(made)
    for i, line in enumerate(lines):
        line["agents"] = [r"$\frac{a}{b}$", "un$balanced" if i % 2 else r"x^{2}$$"]
    write(tmp_path / "r.jsonl", lines)
    out = clean(rulebook("report", "r.jsonl", "--png", "plots", "--html", "page.html",
                         cwd=tmp_path), 0)
    assert (tmp_path / "plots" / "agent_rates.png").stat().st_size > 0, out
    assert "un$balanced" in (tmp_path / "page.html").read_text(encoding="utf-8")


def _gigabyte_line(path: Path, made: bytes) -> bytes:
    """Two whole lines, then a line of a gigabyte: sparse, so no disk is spent on it."""
    head = b"".join(made.splitlines(True)[:2]) + b'{"seed": 3, "agents": ["'
    path.write_bytes(head)
    with open(path, "r+b") as fh:
        fh.truncate(2 ** 30)
    return head


def test_item5_a_line_of_a_gigabyte_is_refused_without_reading_it(tmp_path, made):
    pytest.importorskip("scipy")
    _gigabyte_line(tmp_path / "r.jsonl", made)
    out = clean(rulebook("report", "r.jsonl", cwd=tmp_path, timeout=60), 1)
    assert "r.jsonl:3: the line is longer than 16 MiB" in out, out
    out = clean(rulebook("simulate", GAME, "-n", "6", "-p", "2", "--resume", "r.jsonl",
                         cwd=tmp_path, timeout=60), 2)
    assert "r.jsonl:3: the line is longer than 16 MiB" in out, out
    assert (tmp_path / "r.jsonl").stat().st_size == 2 ** 30  # left as it was


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("command", [
    ["report", "pipe"],
    ["simulate", GAME, "-n", "2", "-p", "2", "--resume", "pipe"],
    ["compare", GAME, "--mod", "three_rounds", "-n", "2", "-p", "2", "--out-base", "pipe",
     "--out-mod", "m.jsonl"],
    ["compare", GAME, "--mod", "three_rounds", "-n", "2", "-p", "2", "--out-base", "b.jsonl",
     "--out-mod", "pipe", "--resume"],
])
def test_item5_a_pipe_given_as_a_results_file_is_refused_at_once(tmp_path, command):
    if command[0] in ("report", "compare"):
        pytest.importorskip("scipy")
    os.mkfifo(tmp_path / "pipe")  # nobody writes to it: reading it would wait forever
    out = clean(rulebook(*command, cwd=tmp_path, timeout=60), 2)
    assert ("pipe: it is a pipe (FIFO), not a results file" in out
            or "'pipe' is a pipe (FIFO), not a regular file" in out), out


# ------------------------------------------------------------------ F05, F06: how much a file names
LIMITS = {"scoring entries": 1_000, "features": 10_000, "feature values": 10_000,
          "cards": 10_000, "actions": 10_000, "agents": 1_000, "titles": 1_000}


def _naming(made: bytes, kind: str, count: int) -> list[dict]:
    """A file of real lines (as many as it takes) that names ``count`` different ``kind``,
    in place of what the games named."""
    base = lines_of(made)
    names = [f"n{i}" for i in range(count)]
    if kind in ("agents", "titles"):  # two per line, as many lines as it takes
        lines = []
        for i in range(0, count, 2):
            line = dict(base[(i // 2) % len(base)], seed=i // 2 + 1)
            pair = names[i:i + 2] if i + 1 < count else [names[i]] * 2
            if kind == "agents":
                line["agents"] = pair
            else:
                line["ranks"] = [pair[0], pair[1] if i + 1 < count else None]
            lines.append(line)
        return lines
    field, value = {"scoring entries": ("score_parts", {n: 1 for n in names}),
                    "features": ("features", {n: 1.5 for n in names}),
                    "feature values": ("features", {"hand": names}),
                    "cards": ("played", {n: 1 for n in names}),
                    "actions": ("actions", {n: 1 for n in names})}[kind]
    for line in base:
        line[field] = [value, {}]
    return base


@pytest.mark.parametrize("kind", list(LIMITS))
def test_f05_a_file_naming_more_than_any_ruleset_is_refused_at_its_line(tmp_path, made, kind):
    pytest.importorskip("scipy")
    write(tmp_path / "r.jsonl", _naming(made, kind, LIMITS[kind] + 1))
    out = clean(rulebook("report", "r.jsonl", "--png", "plots", cwd=tmp_path, timeout=60), 1)
    line = 1 if kind not in ("agents", "titles") else LIMITS[kind] // 2 + 1
    assert f"r.jsonl:{line}: by this line the file names {LIMITS[kind] + 1:,} different " \
           f"{kind}, more than the {LIMITS[kind]:,}" in out, out
    assert not (tmp_path / "plots").exists()


def test_f05_resume_refuses_such_a_file_and_keeps_it(tmp_path, made):
    before = write(tmp_path / "r.jsonl", _naming(made, "scoring entries", 3000))
    out = clean(rulebook("simulate", GAME, "-n", "6", "-p", "2", "--resume", "r.jsonl",
                         cwd=tmp_path, timeout=60), 2)
    assert "r.jsonl:1: by this line the file names 3,000 different scoring entries" in out
    assert (tmp_path / "r.jsonl").read_bytes() == before


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_f05_plots_and_pages_of_a_file_at_every_limit_stay_small(tmp_path, made):
    """1,000 agents and titles over 500 games, 1,000 scoring entries, 5,000 numeric and
    5,000 text features: the report, its page and its plots come in seconds, every plot is
    a few rows tall and every table a few hundred rows long, and each says what it leaves
    out (a timeout stands for the time: the file once took minutes and gigabytes)."""
    pytest.importorskip("matplotlib")
    lines = _naming(made, "agents", 1000)
    for i, line in enumerate(lines):
        line["ranks"] = [f"t{2 * i}", f"t{2 * i + 1}"]
        line["score_parts"], line["features"] = [{"e0": 1}, {"e0": 2}], [{}, {}]
    first = lines[0]
    first["score_parts"] = [{f"e{i}": i for i in range(1000)}, {"e0": 3}]
    first["features"] = [{f"f{i}": (1.5 if i % 2 else "x") for i in range(10_000)}, {}]
    write(tmp_path / "r.jsonl", lines)
    proc = rulebook("report", "r.jsonl", "--png", "plots", "--html", "page.html",
                    cwd=tmp_path, timeout=240)
    out = clean(proc, 0)
    assert "more rows with fewer player-games are not shown (a table shows at most" in out
    assert "The win rate by value of 4,950 more features is not shown" in out
    for png in (tmp_path / "plots").iterdir():
        width, height = _png_size(png)
        assert width < 2000 and height < 3000, (png.name, width, height)
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    # a card or action table holds every card (at most PAGE_ROWS), any other MAX_ROWS
    assert page.count("<table") <= 70 and page.count("<tr>") < 70 * 202 + 4 * 1000
    assert "more rows with fewer player-games are not shown" in page


def test_f06_sixty_thousand_features_are_refused_in_seconds(tmp_path, made):
    """The audit's 7 MB file (60,000 feature keys) took 46 s; it is refused at its line."""
    pytest.importorskip("scipy")
    lines = lines_of(made)
    for line in lines:
        line["features"] = [{f"f{i}": "x" if i % 2 else 1.5 for i in range(60_000)}] * 2
    write(tmp_path / "r.jsonl", lines)
    out = clean(rulebook("report", "r.jsonl", cwd=tmp_path, timeout=60), 1)
    assert "r.jsonl:1: by this line the file names 60,000 different features" in out, out


def test_f06_ten_thousand_list_features_cost_what_they_hold(tmp_path, made):
    """Within the limits, 10,000 list features of one item each: every item is tested once
    (its work done on the player-games that had it, never on every kind of item again), and
    50 of their tables are shown, with a line for the rest."""
    pytest.importorskip("scipy")
    lines = lines_of(made)
    for line in lines:
        line["features"] = [{f"f{i}": [f"a{i}"] for i in range(10_000)}, {}]
    write(tmp_path / "r.jsonl", lines)
    out = clean(rulebook("report", "r.jsonl", "--html", "page.html", cwd=tmp_path,
                         timeout=120), 0)
    assert "The items of 9,950 more list features are not shown" in out, out


# ------------------------------------------------------------------ F04: raw controls in plots
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_f04_control_characters_in_labels_never_reach_the_terminal_raw(tmp_path, made):
    """Agent names with SO, ESC and BEL: matplotlib used to warn "Glyph 27 (ESC) missing"
    with the character itself on stderr. Labels are drawn with escapes, as the terminal
    shows them, so the font is never asked for a control character, and the page has
    none either."""
    pytest.importorskip("matplotlib")
    lines = lines_of(made)
    for line in lines:
        line["agents"] = ["x\x0ey\x1b[31m", "\x07bell\u202e"]
    write(tmp_path / "r.jsonl", lines)
    proc = rulebook("report", "r.jsonl", "--png", "plots", "--html", "page.html",
                    cwd=tmp_path)
    clean(proc, 0)
    assert not RAW_CONTROL.search(proc.stderr + proc.stdout), repr(proc.stderr)
    assert "Glyph 27" not in proc.stderr and "Glyph 14" not in proc.stderr, proc.stderr
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert not RAW_CONTROL.search(page) and "x\\x0ey\\x1b[31m" in page


def test_f04_a_warning_raised_while_reporting_is_shown_once_with_escapes(capsys):
    """Whatever warns inside report or compare (matplotlib names a label's character it
    cannot draw) is printed once, on one line, through the terminal's escapes."""
    from rulebook_games.lab.commands import warnings_shown_safely
    from rulebook_games.lab.plots import label
    with warnings_shown_safely():
        for _ in range(3):
            warnings.warn("Glyph 27 (\x1b) missing from font(s) DejaVu Sans.\n\x07",
                          UserWarning, stacklevel=1)
    err = capsys.readouterr().err
    assert err == "warning: Glyph 27 (\\x1b) missing from font(s) DejaVu Sans.\\n\\x07\n"
    assert label("x\x0ey\x1b[31m") == "x\\x0ey\\x1b[31m"


# ------------------------------------------------------------------ item 12: no false success
@pytest.mark.parametrize("extra", [[], ["--backend", "ray"], ["--html", "page.html"]])
def test_item12_compare_without_the_report_extra_gives_the_one_line_hint(tmp_path, extra):
    proc = rulebook("compare", GAME, "--mod", "three_rounds", "-n", "4", "-p", "2", *extra,
                    cwd=tmp_path, missing=("scipy", "matplotlib", "numpy"))
    clean(proc, 2)
    assert proc.stderr.strip() == HINT, proc.stderr
    assert not list(tmp_path.iterdir())  # nothing was played or written


def test_item12_report_and_compare_give_the_same_hint(tmp_path, made):
    (tmp_path / "r.jsonl").write_bytes(made)
    proc = rulebook("report", "r.jsonl", cwd=tmp_path, missing=("scipy", "matplotlib"))
    clean(proc, 2)
    assert proc.stderr.strip() == HINT


def _dead_address() -> str:
    """A local address where nothing listens (a port just freed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{sock.getsockname()[1]}"


@pytest.fixture
def stale_ray_folder():
    """Ray's temporary folder naming a cluster that is gone, as an unclean stop leaves it.

    Short and private (Ray's socket paths must stay short), and never the shared
    /tmp/ray of this machine.
    """
    pytest.importorskip("ray")
    folder = Path(tempfile.mkdtemp(prefix="rb-ray-", dir="/tmp" if os.name == "posix"
                                   else None))
    (folder / "ray").mkdir()
    (folder / "ray" / "ray_current_cluster").write_text(_dead_address(), encoding="utf-8")
    env = {"RAY_TMPDIR": str(folder), "TMPDIR": str(folder)}
    yield env
    shutil.rmtree(folder, ignore_errors=True)


def test_item12_ray_auto_refuses_a_stale_cluster_in_one_line(tmp_path, stale_ray_folder):
    env = dict(stale_ray_folder, RAY_ADDRESS="")
    proc = rulebook("simulate", GAME, "-n", "2", "-p", "2", "--backend", "ray", "--address",
                    "auto", cwd=tmp_path, env=env, timeout=90)
    clean(proc, 2)
    (line,) = proc.stderr.strip().splitlines()
    assert "cannot reach the Ray cluster at 127.0.0.1:" in line
    assert "ray_current_cluster" in line and "nothing answers there" in line


def test_item12_ray_without_an_address_starts_its_own_not_the_stale_one(tmp_path,
                                                                        stale_ray_folder):
    """Without --address a new Ray is started for the run, whatever Ray's folder or
    RAY_ADDRESS names; the driver has no scipy, matplotlib or numpy (an install without
    the report extra)."""
    env = dict(stale_ray_folder, RAY_ADDRESS=_dead_address())
    proc = rulebook("simulate", GAME, "-n", "2", "-p", "2", "--backend", "ray", "--out",
                    "r.jsonl", cwd=tmp_path, env=env, timeout=300,
                    missing=("scipy", "matplotlib", "numpy"))
    clean(proc, 0)
    assert len((tmp_path / "r.jsonl").read_bytes().splitlines()) == 2


# ------------------------------------------------------------------ item 5: any tampering
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10 ** 30, max_value=10 ** 30)
    | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
FIELDS = ["format", "seed", "players", "ruleset", "mods", "variants", "agents", "scores",
          "winners", "rounds", "decisions", "error", "finished", "solo_won", "ranks",
          "final_hash", "score_parts", "played", "gained", "actions", "card_actions",
          "features"]


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(FIELDS), seat=st.none() | st.integers(0, 1), value=json_values)
def test_item5_any_tampered_field_is_read_or_refused_with_its_place(made, field, seat, value):
    """Report's reader, the resume and the summary of a resumed run, in this process: each
    takes a line with one field (or one seat of it) replaced by any JSON value, and either
    uses it or refuses it at its line; nothing else is raised."""
    pytest.importorskip("scipy")
    from rulebook_games.sim.resume import ResumeProblem, read_results
    from rulebook_games.sim.stats import Tally
    from rulebook_games.lab import measures, results
    from rulebook_games.lab.names import Names
    lines = lines_of(made)
    context = {k: lines[0][k] for k in ("format", "ruleset", "mods", "variants", "players")}
    line = lines[1]
    if seat is not None and isinstance(line.get(field), list) and len(line[field]) > seat:
        line[field][seat] = value
    else:
        line[field] = value
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.jsonl"
        write(path, lines)
        try:
            res = results.read(path)
        except results.ResultsProblem as exc:
            assert str(exc).startswith(f"{path}:2: "), exc
        else:
            measures.build(res, Names(), 0.95, 5)
        tally = Tally(2)
        try:
            read_results(str(path), "r.jsonl", context, ["random", "random"],
                         lambda got: tally.add(got, fresh=False))
        except ResumeProblem as exc:
            assert str(exc).startswith("r.jsonl:2: "), exc
        else:
            tally.tables(1.0)

