"""``rulebook test --junit FILE`` and ``--format json`` (issue 30, item 2).

Written from the issue: JUnit XML that CI systems read (one test case per
scenario, a failure with its message and file:line), and a documented, stable
JSON document on stdout with nothing else there. A small ruleset (the shipped
Lantern Row, copied) gets a passing, a failing and a broken scenario file.
"""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rulebook_games.cli import main
from rulebook_games.paths import rulesets_dir

PASSING = """kind: scenarios
scenarios:
  - id: collect_gives_two_coins
    description: Taking coins gives 2 coins.
    players: 2
    steps:
      - action: collect
      - expect: stock(coins) == 3 + 2
"""
FAILING = """kind: scenarios
scenarios:
  - id: collect_gives_nine_coins
    description: Wrong on purpose.
    players: 2
    steps:
      - action: collect
      - expect: stock(coins) == 9
"""
BROKEN = """kind: scenarios
scenarios:
  - id: unknown_action
    description: Names an action the ruleset does not have.
    players: 2
    steps:
      - action: colect
"""


def run(capsys, *args):
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out = capsys.readouterr()
    return info.value.code, out.out, out.err


@pytest.fixture
def game(tmp_path) -> Path:
    root = tmp_path / "lantern"
    shutil.copytree(rulesets_dir() / "lantern_row", root)
    folder = root / "scenarios"
    shutil.rmtree(folder)
    folder.mkdir()
    (folder / "good.yaml").write_text(PASSING, encoding="utf-8")
    (folder / "bad.yaml").write_text(FAILING, encoding="utf-8")
    return root


def test_junit_has_a_case_per_scenario_and_a_failure_with_its_place(capsys, game, tmp_path):
    out = tmp_path / "junit.xml"
    code, said, _ = run(capsys, "test", str(game), "--junit", str(out))
    assert code == 1 and "wrote" in said
    root = ET.parse(out).getroot()
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "1", "0")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert set(cases) == {"collect_gives_two_coins", "collect_gives_nine_coins"}
    good, bad = cases["collect_gives_two_coins"], cases["collect_gives_nine_coins"]
    assert good.find("failure") is None and good.get("classname") == "lantern_row.good"
    assert good.get("file").endswith("scenarios/good.yaml") and good.get("line") == "3"
    failure = bad.find("failure")
    assert failure is not None and failure.get("message")
    # the failure's text starts with the place of the step that failed
    assert "scenarios/bad.yaml:8:" in failure.text
    # run again: the file it wrote is written again
    code, _, _ = run(capsys, "test", str(game), "--junit", str(out))
    assert code == 1


def test_junit_never_replaces_a_file_of_the_users(capsys, game, tmp_path):
    mine = tmp_path / "notes.xml"
    mine.write_text("<notes/>", encoding="utf-8")
    code, _, err = run(capsys, "test", str(game), "--junit", str(mine))
    assert code == 2 and "already exists" in err and mine.read_text() == "<notes/>"


def test_a_scenario_file_that_does_not_load_is_an_error_case(capsys, game, tmp_path):
    (game / "scenarios" / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    out = tmp_path / "junit.xml"
    run(capsys, "test", str(game), "--junit", str(out))
    (suite,) = ET.parse(out).getroot().findall("testsuite")
    errors = [c for c in suite.findall("testcase") if c.find("error") is not None]
    (case,) = errors
    assert case.get("file").endswith("broken.yaml") and case.find("error").get("type")
    assert suite.get("errors") == "1"


def test_rule_text_with_control_characters_stays_well_formed_xml(capsys, game, tmp_path):
    (game / "scenarios" / "bad.yaml").write_text(
        FAILING.replace("== 9", '== 9 and "\\x1b[2J\\x00" == "\\x1b[2J\\x00"'),
        encoding="utf-8")
    out = tmp_path / "junit.xml"
    run(capsys, "test", str(game), "--junit", str(out))
    ET.parse(out)  # parses: no character XML cannot hold
    assert "\x1b" not in out.read_text(encoding="utf-8")


def test_json_is_one_document_on_stdout(capsys, game):
    code, out, _ = run(capsys, "test", str(game), "--format", "json")
    doc = json.loads(out)  # nothing else on stdout
    assert code == 1 and doc["exit_code"] == 1 and doc["ruleset"] == "lantern_row"
    assert doc["summary"] == {"passed": 1, "failed": 1, "errors": 0}
    by_id = {s["id"]: s for s in doc["scenarios"]}
    assert by_id["collect_gives_two_coins"]["passed"] is True
    failed = by_id["collect_gives_nine_coins"]
    assert failed["passed"] is False and failed["failure"]["line"] == 8
    assert failed["failure"]["file"].endswith("bad.yaml") and failed["failure"]["message"]
    assert set(failed) >= {"id", "file", "line", "col", "passed", "seconds"}


def test_json_when_the_ruleset_does_not_load(capsys, game, tmp_path):
    flow = game / "flow.yaml"
    flow.write_text(flow.read_text(encoding="utf-8").replace("gain 2 coins", "gain 2 coinz"),
                    encoding="utf-8")
    out = tmp_path / "junit.xml"
    code, said, _ = run(capsys, "test", str(game), "--format", "json", "--junit", str(out))
    doc = json.loads(said)
    assert code == 1 and doc["ruleset"] is None and doc["errors"][0]["code"] == "RB301"
    (suite,) = ET.parse(out).getroot().findall("testsuite")
    assert suite.get("errors") == "1"


def test_json_usage_errors_are_documents_too(capsys):
    code, out, _ = run(capsys, "test", "no_such_game", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and doc == {"error": {"kind": "usage", "message": doc["error"]["message"],
                                           "exit_code": 2}}
    assert "no_such_game" in doc["error"]["message"]
