"""The documentation stays true: generated reference current, guide examples valid."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulebook_games.lang.docgen import language_reference
from rulebook_games.lang.builtins import AGGREGATES, BUILTINS
from rulebook_games.lang.parser import parse
from rulebook_games.span import TextOrigin

ROOT = Path(__file__).resolve().parents[1]


def test_builtin_reference_is_current():
    assert (ROOT / "docs" / "builtins.md").read_text(encoding="utf-8") == language_reference(), \
        "run: rulebook docs --out docs/builtins.md"


def test_every_builtin_is_documented():
    for b in BUILTINS.values():
        assert b.doc and b.doc.endswith("."), b.name
    for a in AGGREGATES.values():
        assert a.doc, a.name


def code_blocks(path: Path):
    text = path.read_text(encoding="utf-8")
    return re.findall(r"```text\n(.*?)```", text, re.S)


@pytest.mark.parametrize("block", code_blocks(ROOT / "docs" / "language.md"))
def test_language_guide_examples_parse(block):
    parse(block, TextOrigin.at("docs/language.md", 1, 1))


def test_builtin_examples_parse():
    for b in list(BUILTINS.values()) + list(AGGREGATES.values()):
        if b.example:
            parse(b.example, TextOrigin.at(b.name, 1, 1), start="expression")


def test_readme_quick_start_names_serve_beside_the_terminal_command():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    first = re.findall(r"```(?:sh|bash|console)\n(.*?)```", section, re.S)[0].strip()
    assert "rulebook play" in first
    # the same install serves: the web extra is in it, and the text says how to serve
    assert "'.[web]'" in first or "[web" in first
    assert ".venv/bin/rulebook serve" in section and "http://127.0.0.1:8000/" in section


def test_readme_quick_start_has_exactly_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```(?:sh|bash|console)\n(.*?)```", section, re.S)
    lines = [l for block in commands for l in block.strip().splitlines() if l.strip()]
    assert len(lines) == 2, lines
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert lines[1].strip() in ci
