"""The corpus of broken rule files: each case names the errors it must produce.

Each directory in ``tests/corpus`` holds files laid over the small valid
ruleset in ``tests/fixtures/mini`` and an ``expect.txt`` listing
``file:line:col CODE`` for every error the validator must report, and no others.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rulebook_games import RulebookError, load_ruleset

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"
BASE = HERE / "fixtures" / "mini"
CASES = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())


def run_case(name: str, tmp_path: Path) -> list[str]:
    work = tmp_path / "ruleset"
    shutil.copytree(BASE, work)
    mods = []
    for f in (CORPUS / name).iterdir():
        if f.name == "expect.txt":
            continue
        shutil.copy(f, work / f.name)
        if f.name.startswith("mod"):
            mods.append(str(work / f.name))
    try:
        load_ruleset(work, mods)
    except RulebookError as exc:
        out = []
        for d in exc.diagnostics:
            assert d.span is not None, d.headline()
            rel = os.path.relpath(os.path.abspath(d.span.file), work)
            out.append(f"{rel}:{d.span.line}:{d.span.col} {d.code}")
        return sorted(out)
    return []


def test_corpus_is_not_empty():
    assert len(CASES) >= 30


@pytest.mark.parametrize("name", CASES)
def test_broken_file_reports_expected_errors(name, tmp_path):
    expected = sorted(line.strip() for line in (CORPUS / name / "expect.txt").read_text()
                      .splitlines() if line.strip())
    assert run_case(name, tmp_path) == expected


def test_base_fixture_is_valid():
    rs = load_ruleset(BASE)
    assert set(rs.cards) == {"comet", "decomposers"}
