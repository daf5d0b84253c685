"""The rulebook command line: exit codes, output formats, schema export."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import main

HERE = Path(__file__).parent
MINI = HERE / "fixtures" / "mini"


def run(capsys, *args, env=None, monkeypatch=None):
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out = capsys.readouterr()
    return info.value.code, out.out, out.err


@pytest.fixture
def broken(tmp_path):
    work = tmp_path / "broken"
    shutil.copytree(MINI, work)
    (work / "cards.yaml").write_text(
        "kind: cards\ncards:\n  - id: comet\n    name: Comet\n    play: |\n"
        "      raise temperature\n      gain 3 plnats\n", encoding="utf-8")
    return work


def test_clean_ruleset_exits_0(capsys):
    code, out, _ = run(capsys, "validate", str(MINI))
    assert code == 0 and "ok" in out


def test_text_format_shows_place_source_and_caret(capsys, broken):
    code, out, _ = run(capsys, "validate", str(broken), "--format", "text")
    assert code == 1
    lines = out.splitlines()
    head = next(i for i, l in enumerate(lines) if "error[RB301]" in l)
    assert lines[head].endswith("unknown resource 'plnats' (in card 'comet', play)")
    assert ":7:14: error[RB301]" in lines[head]
    assert lines[head + 1].rstrip().endswith("gain 3 plnats")
    assert lines[head + 2].strip() == "^~~~~~"
    assert "did you mean 'plants'" in lines[head + 3]


def test_json_format(capsys, broken):
    code, out, _ = run(capsys, "validate", str(broken), "--format", "json")
    data = json.loads(out)
    (d,) = data["diagnostics"]
    assert (code, d["code"], d["line"], d["col"]) == (1, "RB301", 7, 14)
    assert data["summary"]["rulesets"][0]["errors"] == 1


def test_github_annotations(capsys, broken):
    code, out, _ = run(capsys, "validate", str(broken), "--format", "github")
    (line,) = out.splitlines()
    assert code == 1
    assert line.startswith("::error file=")
    assert ",line=7,col=14," in line and "title=RB301" in line
    assert "%0A" in line  # the hint is on its own line, escaped


def test_auto_picks_github_under_actions(capsys, broken, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    _, out, _ = run(capsys, "validate", str(broken), "--format", "auto")
    assert out.startswith("::error ")
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    _, out, _ = run(capsys, "validate", str(broken), "--format", "auto", "-q")
    assert "error[RB301]" in out


def test_sarif(capsys, broken):
    code, out, _ = run(capsys, "validate", str(broken), "--format", "sarif")
    doc = json.loads(out)
    assert doc["version"] == "2.1.0"
    run_ = doc["runs"][0]
    assert run_["tool"]["driver"]["name"] == "rulebook"
    assert [r["id"] for r in run_["tool"]["driver"]["rules"]] == ["RB301"]
    (res,) = run_["results"]
    region = res["locations"][0]["physicalLocation"]["region"]
    assert (res["ruleId"], region["startLine"], region["startColumn"]) == ("RB301", 7, 14)


def test_a_rule_file_validates_its_ruleset(capsys, broken):
    code, out, _ = run(capsys, "validate", str(broken / "cards.yaml"), "-q")
    assert code == 1 and "RB301" in out


def test_mod_file_is_checked_against_its_target(capsys, tmp_path):
    mod = tmp_path / "mod.yaml"
    mod.write_text("kind: mod\nid: m\ntarget: mini\nchanges:\n  - {op: remove, in: cards, "
                   "id: comit}\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(MINI), "--mod", str(mod), "-q")
    assert code == 1 and "RB500" in out and "comet" in out


def test_usage_errors_exit_2(capsys):
    code, _, err = run(capsys, "validate", "no/such/ruleset")
    assert code == 2 and "neither a file" in err
    code, _, err = run(capsys, "validate", "--format", "xml", str(MINI))
    assert code == 2
    code, _, err = run(capsys, "validate", str(MINI), "--mod", "missing.yaml")
    assert code == 2 and "not found" in err
    code, _, _ = run(capsys, "frobnicate")
    assert code == 2


def test_schema_export(capsys, tmp_path):
    code, out, _ = run(capsys, "schema", "--out", str(tmp_path / "s"))
    assert code in (0, None)
    names = sorted(p.name for p in (tmp_path / "s").iterdir())
    assert "cards.schema.json" in names and "common.schema.json" in names
    code, out, _ = run(capsys, "schema", "cards")
    assert json.loads(out)["title"] == "Rulebook cards"


def test_python_dash_m_entry_point():
    proc = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(MINI), "-q"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_no_traceback_on_garbage(capsys, tmp_path):
    work = tmp_path / "g"
    shutil.copytree(MINI, work)
    (work / "flow.yaml").write_bytes(bytes(range(256)))
    code, out, err = run(capsys, "validate", str(work), "-q")
    assert code == 1 and "Traceback" not in out + err and "RB101" in out


def test_validate_checks_scenario_files(capsys, tmp_path):
    work = tmp_path / "s"
    shutil.copytree(MINI, work)
    (work / "scenarios").mkdir()
    (work / "scenarios" / "a.yaml").write_text(
        "kind: scenarios\nscenarios:\n  - id: x\n    players: 2\n    steps:\n"
        "      - expect: stock(heta) > 0\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(work), "-q")
    assert code == 1 and "a.yaml:6:23: error[RB301]" in out and "heat" in out
