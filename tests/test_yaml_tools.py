"""Rule files and the YAML tools people already use: yamllint, and YAML 1.1 readers.

The shipped ``.yamllint`` passes on every shipped ruleset and still flags
what it is for. ``on:`` stays the key of a trigger's event: Rulebook reads
YAML 1.2, and the README says what a script reading rule files with a YAML
1.1 reader (PyYAML) does about it; quoting the key works with both readers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulebook_games.errors import Diagnostics
from rulebook_games.load.yamlload import parse_yaml

ROOT = Path(__file__).resolve().parents[1]


def _lint(text: str, path: str = "rulesets/x/flow.yaml"):
    from yamllint import linter
    from yamllint.config import YamlLintConfig
    conf = YamlLintConfig(file=str(ROOT / ".yamllint"))
    return [(p.line, p.rule) for p in linter.run(text, conf, path)]


def test_the_shipped_yamllint_config_passes_on_the_shipped_rulesets():
    pytest.importorskip("yamllint")
    files = sorted((ROOT / "rulesets").rglob("*.yaml"))
    assert len(files) > 100
    problems = {}
    for path in files:
        found = _lint(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
        if found:
            problems[str(path.relative_to(ROOT))] = found[:5]
    assert not problems


def test_the_config_still_flags_what_it_is_for():
    pytest.importorskip("yamllint")
    assert _lint("kind: flow\ntriggers:\n  - on: card_played\n") == []
    assert _lint("kind: scenarios\nanswers: [yes, no]\n") == []
    assert [rule for _, rule in _lint("kind: flow\nflag: on\nother: True\n")] == \
        ["truthy", "truthy"]
    assert "key-duplicates" in [rule for _, rule in _lint("a: 1\na: 2\n")]
    assert "indentation" in [rule for _, rule in _lint("a:\n   - 1\n   - b:\n      - 2\n")]


def test_on_is_the_key_on_for_rulebook_whether_quoted_or_not():
    for text in ("on: card_played\n", '"on": card_played\n', "'on': card_played\n"):
        diags = Diagnostics()
        assert parse_yaml(text, "t.yaml", diags).data == {"on": "card_played"}, text
        assert not list(diags)


def test_what_the_readme_tells_a_pyyaml_script():
    # the YAML 1.1 reading the note is about, and the two ways round it it gives
    assert yaml.safe_load("on: card_played\n") == {True: "card_played"}
    assert yaml.safe_load('"on": card_played\n') == {"on": "card_played"}
    data = yaml.safe_load("on: [push, pull_request]\n")
    assert data.get("on", data.get(True)) == ["push", "pull_request"]
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert '`"on": card_played`' in text and 'data.get("on", data.get(True))' in text
    assert "`.yamllint`" in text
