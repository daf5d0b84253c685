"""What CI systems read of ``rulebook validate`` (issue 30, item 3).

- SARIF: each rule carries ``fullDescription``, ``help`` and a ``helpUri``
  into docs/errors.md (whose anchors exist), a did-you-mean hint is a
  ``fix`` that replaces the wrong name, and the log is valid against the
  SARIF 2.1.0 schema (vendored in tests/fixtures, see its NOTE);
- GitHub annotations: GitHub shows 10 per kind and step, so more than 10
  errors end with a summary line, and the full text is printed too, where no
  rule file's text can pass for a workflow command.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from rulebook_games.cli import main
from rulebook_games.cli.diagnostics import page_from_install
from rulebook_games.errors import CODES

HERE = Path(__file__).parent
ROOT = HERE.parent
MINI = HERE / "fixtures" / "mini"
ERRORS_MD = ROOT / "docs" / "errors.md"


def run(capsys, *args):
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out = capsys.readouterr()
    return info.value.code, out.out, out.err


def broken_with(tmp_path, names: list[str]) -> Path:
    """The mini ruleset with one card per name, each gaining 3 of that (unknown) resource."""
    work = tmp_path / "broken"
    shutil.copytree(MINI, work)
    cards = "".join(f"  - id: comet{i}\n    name: Comet {i}\n    play: |\n"
                    f"      gain 3 {name}\n" for i, name in enumerate(names))
    (work / "cards.yaml").write_text("kind: cards\ncards:\n" + cards, encoding="utf-8")
    return work


def sarif_validator():
    from jsonschema import Draft4Validator, FormatChecker
    schema = json.loads((HERE / "fixtures" / "sarif-schema-2.1.0.json").read_text("utf-8"))
    return Draft4Validator(schema, format_checker=FormatChecker())


# ------------------------------------------------------------------ SARIF
def test_sarif_rules_say_what_a_code_means_what_to_do_and_where(capsys, tmp_path,
                                                                 monkeypatch):
    monkeypatch.setenv("RULEBOOK_ERRORS_URL", "https://example.org/rulebook/docs/errors.md")
    work = broken_with(tmp_path, ["plnats"])
    code, out, _ = run(capsys, "validate", str(work), "--format", "sarif")
    doc = json.loads(out)
    assert code == 1 and [e.message for e in sarif_validator().iter_errors(doc)] == []
    (rule,) = doc["runs"][0]["tool"]["driver"]["rules"]
    assert rule["id"] == "RB301"
    # the docs' row of RB301: what it means, and what to do
    assert rule["fullDescription"]["text"] == "an unknown name in an effect"
    assert "the hint names the closest resource" in rule["help"]["text"]
    assert "the hint names the closest resource" in rule["help"]["markdown"]
    assert rule["helpUri"] == "https://example.org/rulebook/docs/errors.md#rb301"


def test_a_did_you_mean_hint_is_a_fix_that_replaces_the_wrong_name(capsys, tmp_path):
    work = broken_with(tmp_path, ["heatt"])
    code, out, _ = run(capsys, "validate", str(work), "--format", "sarif")
    doc = json.loads(out)
    assert [e.message for e in sarif_validator().iter_errors(doc)] == []
    (result,) = doc["runs"][0]["results"]
    (fix,) = result["fixes"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"].endswith("broken/cards.yaml")
    (replacement,) = change["replacements"]
    assert replacement["insertedContent"]["text"] == "heat"
    # applied as a SARIF reader applies it, the fix makes the line right
    region = replacement["deletedRegion"]
    lines = (work / "cards.yaml").read_text(encoding="utf-8").splitlines()
    line = lines[region["startLine"] - 1]
    assert region["endLine"] == region["startLine"]
    fixed = (line[:region["startColumn"] - 1] + "heat" + line[region["endColumn"] - 1:])
    assert fixed.strip() == "gain 3 heat"
    assert doc["runs"][0]["columnKind"] == "unicodeCodePoints"


def test_a_hint_naming_several_names_is_no_fix(capsys, tmp_path):
    """'did you mean a or b?' leaves the choice to the author: no fix is offered."""
    from rulebook_games.cli.diagnostics import _fixes, _Sources
    from rulebook_games.errors import Diagnostic
    from rulebook_games.span import Span
    work = broken_with(tmp_path, ["plnats"])
    file = str(work / "cards.yaml")
    span = Span(file, 6, 14, 6, 20)
    one = Diagnostic("RB301", "unknown resource 'plnats'", span, hint="did you mean 'plants'?")
    two = Diagnostic("RB301", "unknown resource 'plnats'", span,
                     hint="did you mean 'plants' or 'planets'?")
    other = Diagnostic("RB301", "unknown resource 'heat'", span, hint="did you mean 'plants'?")
    assert len(_fixes(one, _Sources())) == 1
    assert _fixes(two, _Sources()) == []
    assert _fixes(other, _Sources()) == []  # the text there is not the name quoted


def test_every_code_has_its_anchor_in_docs_errors_md_and_the_package_has_its_row():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import error_docs
    finally:
        sys.path.pop(0)
    text = ERRORS_MD.read_text(encoding="utf-8")
    anchors = set(re.findall(r'<a id="(rb\d+)"></a>', text))
    assert {code.lower() for code in CODES} <= anchors
    committed = (ROOT / "interpreter" / "errordocs.py").read_text(encoding="utf-8")
    assert committed == error_docs.module(error_docs.rows(text)), \
        "interpreter/errordocs.py is out of date: run python tools/error_docs.py"


@pytest.mark.parametrize("direct_url, page", [
    ({"url": "https://github.com/someone/rulebook.git",
      "vcs_info": {"vcs": "git", "commit_id": "a" * 40, "requested_revision": "v0.2.0"}},
     f"https://github.com/someone/rulebook/blob/{'a' * 40}/docs/errors.md"),
    ({"url": "https://gitlab.com/group/rulebook",
      "vcs_info": {"vcs": "git", "commit_id": "b" * 40}},
     f"https://gitlab.com/group/rulebook/-/blob/{'b' * 40}/docs/errors.md"),
    ({"url": "https://git.example.org/rulebook", "vcs_info": {"vcs": "git",
                                                             "commit_id": "c" * 40}}, None),
    ({"url": "https://github.com/x/y", "vcs_info": {"vcs": "git", "commit_id": "main"}}, None),
    ({"url": "file:///wheels/rulebook.whl", "archive_info": {}}, None),
    ("not json", None),
])
def test_the_errors_page_of_an_install_from_a_repository(direct_url, page):
    raw = direct_url if isinstance(direct_url, str) else json.dumps(direct_url)
    assert page_from_install(raw) == page


def test_an_editable_checkout_points_at_its_own_page(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv("RULEBOOK_ERRORS_URL", raising=False)
    editable = json.dumps({"url": ROOT.as_uri(), "dir_info": {"editable": True}})
    assert page_from_install(editable) == ERRORS_MD.resolve().as_uri()
    monkeypatch.setenv("RULEBOOK_ERRORS_URL", "javascript:alert(1)")  # not an address: unused
    from rulebook_games.cli.diagnostics import errors_page
    assert not (errors_page() or "").startswith("javascript")


# ------------------------------------------------------------------ GitHub
def test_up_to_ten_errors_are_annotations_only(capsys, tmp_path):
    work = broken_with(tmp_path, [f"plnats{i}" for i in range(10)])
    code, out, _ = run(capsys, "validate", str(work), "--format", "github")
    lines = out.splitlines()
    assert code == 1 and len(lines) == 10 and all(l.startswith("::error ") for l in lines)


def test_more_than_ten_errors_end_with_a_summary_and_the_full_text(capsys, tmp_path):
    work = broken_with(tmp_path, [f"plnats{i}" for i in range(12)])
    code, out, _ = run(capsys, "validate", str(work), "--format", "github")
    lines = out.splitlines()
    assert code == 1
    assert sum(l.startswith("::error ") for l in lines) == 12
    assert lines[-1].startswith("::notice ") and "12 errors in all" in lines[-1]
    # the full text, as --format text prints it, inside a group, with commands stopped
    start = lines.index(next(l for l in lines if l.startswith("::stop-commands::")))
    token = lines[start].split("::")[2]
    end = lines.index(f"::{token}::")
    body = "\n".join(lines[start + 1:end])
    assert lines[start - 1].startswith("::group::")
    assert body.count("error[RB301]") == 12 and "gain 3 plnats11" in body
    assert len(token) >= 32


def test_rule_text_in_the_full_text_cannot_pass_for_a_workflow_command(capsys, tmp_path,
                                                                       monkeypatch):
    """The full text's lines begin with the file's path, which the repository chooses:
    a folder named like a workflow command stays text, between stop-commands."""
    work = broken_with(tmp_path, [f"plnats{i}" for i in range(11)])
    forged = tmp_path / "::error::forged"
    work.rename(forged)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "validate", "::error::forged", "--format", "github")
    lines = out.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("::stop-commands::"))
    token = lines[start].split("::")[2]
    end = lines.index(f"::{token}::")
    inside = lines[start + 1:end]
    assert any(l.startswith("::error::forged/cards.yaml:") for l in inside)
    # outside the stopped part, the path is only ever a property, escaped
    assert not any(l.startswith("::error::") for l in lines[:start] + lines[end:])


# ------------------------------------------------------------------ the README
def test_the_readme_shows_upload_sarif_and_reviewdog():
    import yaml
    sys.path.insert(0, str(HERE))
    try:
        from install_helpers import readme_snippet
    finally:
        sys.path.pop(0)
    workflow = yaml.safe_load(readme_snippet("github-code-scanning"))
    steps = workflow["jobs"]["validate"]["steps"]
    assert workflow["permissions"]["security-events"] == "write"
    (validate,) = [s for s in steps if "rulebook validate" in s.get("run", "")]
    assert "--format sarif > rulebook.sarif" in validate["run"]
    (upload,) = [s for s in steps if s.get("uses", "").startswith(
        "github/codeql-action/upload-sarif@")]
    # validate exits 1 when it finds errors: the upload must run then too
    assert upload["if"] == "always()" and upload["with"]["sarif_file"] == "rulebook.sarif"
    steps = yaml.safe_load(readme_snippet("reviewdog"))
    (review,) = [s for s in steps if "reviewdog" in s.get("run", "")]
    assert "rulebook validate --format sarif | reviewdog -f=sarif" in review["run"]
