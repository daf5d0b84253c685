"""The rulebook command line: exit codes, output formats, schema export."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_games.cli import main

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
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "validate", str(MINI), "-q"],
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


# ------------------------------------------------------------ one consistent CLI
TINY = HERE / "fixtures" / "tiny"
SARIF_SCHEMA = HERE / "fixtures" / "sarif-schema-2.1.0.json"


@pytest.mark.parametrize("args", [
    ["play", str(TINY), "--players", "0"],
    ["play", str(TINY), "-p", "-1"],
    ["simulate", str(TINY), "--players", "0"],
    ["simulate", str(TINY), "--workers", "0"],
    ["simulate", str(TINY), "-n", "0"],
    ["simulate", str(TINY), "-n", "-3"],
    ["simulate", str(TINY), "-n", str(10 ** 12)],
    ["play", str(TINY), "--seed", str(2 ** 70)],
])
def test_counts_out_of_range_are_usage_errors(capsys, args):
    code, out, err = run(capsys, *args)
    # the limits in words, not click's "1<=x<=1000000"
    assert code == 2 and any(w in err for w in ("is not between", "is less than",
                                                 "is more than")), out + err
    assert "<=" not in err and "x>" not in err
    assert "players ·" not in out  # nothing was played


def test_an_unknown_ruleset_is_the_same_usage_error_everywhere(capsys):
    seen = set()
    for command in (["validate"], ["play"], ["simulate"], ["test"]):
        code, out, err = run(capsys, *command, "terraforming_mar")
        assert code == 2, (command, out, err)
        (line,) = [l for l in err.splitlines() if l.startswith("Error:")]
        seen.add(line)
    (message,) = seen
    assert "'terraforming_mar' is neither a file, a directory nor a shipped ruleset" in message
    assert "did you mean 'terraforming_mars'?" in message


def test_replay_with_an_unknown_ruleset_location_is_a_usage_error(capsys, tmp_path):
    record = tmp_path / "r.json"
    record.write_text("{}", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(record), "--ruleset", "no_such_game")
    assert code == 2 and "neither a file, a directory nor a shipped ruleset" in err


@pytest.mark.parametrize("args", [["nosuch"], ["--no-such-option", str(MINI)],
                                  [str(MINI), "--mod", "missing.yaml"]])
def test_json_format_prints_a_document_even_for_usage_errors(capsys, args):
    code, out, _ = run(capsys, "validate", *args, "--format", "json")
    doc = json.loads(out)
    assert code == 2 and doc["error"]["kind"] == "usage" and doc["error"]["exit_code"] == 2
    assert doc["diagnostics"] == [] and doc["error"]["message"]


def test_github_format_prints_an_annotation_for_usage_errors(capsys):
    code, out, _ = run(capsys, "validate", "--format=github", "nosuch")
    (line,) = out.splitlines()
    assert code == 2 and line.startswith("::error title=rulebook usage error::'nosuch' is")


def _sarif_validator():
    from jsonschema import Draft4Validator, FormatChecker
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    checker = FormatChecker()
    assert {"uri", "uri-reference"} <= set(checker.checkers)  # else formats go unchecked
    return Draft4Validator(schema, format_checker=checker)


def test_sarif_output_is_valid_against_the_official_schema(capsys, broken):
    validator = _sarif_validator()
    code, out, _ = run(capsys, "validate", str(broken), "--format", "sarif")
    assert code == 1
    doc = json.loads(out)
    problems = [e.message for e in validator.iter_errors(doc)]
    assert problems == []
    assert doc["runs"][0]["results"]  # the error is there, not an empty log


@pytest.mark.parametrize("args", [["nosuch"], ["--bogus"]])
def test_sarif_usage_errors_are_valid_logs(capsys, args):
    validator = _sarif_validator()
    code, out, _ = run(capsys, "validate", *args, "--format", "sarif")
    doc = json.loads(out)
    assert code == 2 and list(validator.iter_errors(doc)) == []
    (invocation,) = doc["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False and invocation["exitCode"] == 2
    assert invocation["toolExecutionNotifications"][0]["message"]["text"]


def test_the_schema_check_catches_a_relative_uri():
    validator = _sarif_validator()
    bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {
        "name": "rulebook", "informationUri": "README.md"}}, "results": []}]}
    assert any("uri" in e.message for e in validator.iter_errors(bad))


def test_list_shows_each_shipped_ruleset(capsys):
    from rulebook_games.load.ruleset import load_ruleset, shipped_rulesets
    code, out, _ = run(capsys, "list", "--format", "json")
    rows = {r["ruleset"]: r for r in json.loads(out)["rulesets"]}
    assert code == 0 and sorted(rows) == shipped_rulesets()
    for name, row in rows.items():
        rs = load_ruleset(name)
        assert row["players"] == {"min": rs.min_players, "max": rs.max_players}
        assert [v["id"] for v in row["variants"]] == list(rs.sections["variants"])
    assert "solo" in [v["id"] for v in rows["terraforming_mars"]["variants"]]
    code, out, _ = run(capsys, "list")
    assert code == 0
    tm = next(l for l in out.splitlines() if "terraforming_mars" in l)
    assert "Terraforming Mars" in tm and "1–5" in tm
    assert any("legacy_gears_of_time" in l and "2–4" in l for l in out.splitlines())


def test_simulate_jsonl_numbers_seats_from_1(capsys, tmp_path):
    out_file = tmp_path / "deep" / "r.jsonl"
    code, out, _ = run(capsys, "simulate", str(TINY), "-n", "12", "-p", "3", "--seed", "5",
                       "--out", str(out_file))
    assert code == 0, out
    games = [json.loads(line) for line in out_file.read_text(encoding="utf-8").splitlines()]
    assert len(games) == 12
    for g in games:
        best = max(g["scores"])
        # the winners are the seats with the best score, named by number from 1
        assert g["winners"] and all(1 <= w <= 3 for w in g["winners"])
        assert all(g["scores"][w - 1] == best for w in g["winners"])
    assert any(3 in g["winners"] for g in games)  # seat 3 exists and wins sometimes


def test_simulate_jsonl_lines_say_what_was_played(capsys, tmp_path):
    from rulebook_games import load_ruleset
    mod = tmp_path / "richer.yaml"
    mod.write_text("kind: mod\nid: richer\ntarget: tiny\nchanges:\n"
                   "  - {op: patch, in: actions, id: earn, value: {do: gain 3 gold}}\n",
                   encoding="utf-8")
    out_file = tmp_path / "r.jsonl"
    code, out, _ = run(capsys, "simulate", str(TINY), "-n", "2", "-p", "2", "--mod", str(mod),
                       "--out", str(out_file))
    assert code == 0, out
    expected = load_ruleset(TINY, [str(mod)])
    for line in out_file.read_text(encoding="utf-8").splitlines():
        g = json.loads(line)
        assert g["format"] == 1
        assert g["ruleset"] == {"id": "tiny", "name": expected.name, "version": expected.version,
                                "content_hash": expected.content_hash}
        assert g["players"] == 2 and g["variants"] == []
        [m] = g["mods"]
        assert m["id"] == "richer" and m["file"].endswith("richer.yaml")
        text = mod.read_text(encoding="utf-8").encode()
        assert m["content_hash"] == __import__("hashlib").sha256(text).hexdigest()
    assert expected.content_hash != load_ruleset(TINY).content_hash  # the mod counts


def test_simulate_refuses_a_human_agent(capsys):
    code, _, err = run(capsys, "simulate", str(TINY), "-n", "1", "--agents", "human")
    assert code == 2 and "AI agents only" in err


def test_sarif_locations_are_uri_references_even_with_spaces(capsys, tmp_path):
    work = tmp_path / "my rules #1"
    shutil.copytree(MINI, work)
    (work / "cards.yaml").write_text(
        "kind: cards\ncards:\n  - id: comet\n    name: Comet\n    play: gain 3 plnats\n",
        encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(work), "--format", "sarif")
    doc = json.loads(out)
    assert code == 1 and list(_sarif_validator().iter_errors(doc)) == []
    uri = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uri["uri"].endswith("my%20rules%20%231/cards.yaml")


def test_the_game_header_names_the_variants_in_play():
    # issue 26: "1 players", and the header did not say which variants were in play
    from rulebook_games.cli.play import header
    from rulebook_games.load.ruleset import load_ruleset
    rs = load_ruleset("terraforming_mars")
    assert header(rs, 1, ()) == "1 player · no variants"
    assert header(rs, 2, ("draft", "corporate_era")) == \
        "2 players · variants: Corporate Era, Draft"


def test_replay_step_says_once_which_key_goes_on(tmp_path):
    """`replay --step` waits after each line; the first wait says what to press."""
    record = tmp_path / "game.json"
    played = subprocess.run([sys.executable, "-m", "rulebook_games", "play", "lantern_row",
                             "--players", "2", "--agents", "random,random", "--seed", "2",
                             "--save", str(record)], capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    shown = subprocess.run([sys.executable, "-m", "rulebook_games", "replay", str(record),
                            "--step"], input="\n\n\n", capture_output=True, text=True,
                           timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count("(Enter shows the next line; Ctrl-D shows the rest)") == 1


@pytest.mark.parametrize("command", ["cards", "compare", "compile", "docs", "export", "list",
                                     "lsp", "play", "replay", "report", "schema", "serve",
                                     "simulate", "test", "train", "validate"])
def test_help_says_number_limits_in_words(capsys, command):
    # a person reads "1 to 1,000,000" or "at least 1", never click's "1<=x<=1000000"
    code, out, err = run(capsys, command, "--help")
    assert code == 0, err
    for notation in ("<=", ">=", "x<", "x>", "None"):
        assert notation not in out, (command, notation, out)
