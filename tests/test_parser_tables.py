"""The parser-table cache holds data only, in a private folder, and is never trusted blindly.

What the issue asks of any cache: it must never load anything that runs, it must
live in a per-user folder with owner-only permissions, and it must be written
atomically. A cached parser must also parse exactly as a freshly built one.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import yaml
from lark import Lark

from interpreter.lang import parser as P
from interpreter.lang import tables

ROOT = Path(__file__).resolve().parents[1]
GRAMMAR = P.grammar_path().read_text(encoding="utf-8")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache" / "rulebook"
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(folder))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    return folder


def fresh() -> Lark:
    return Lark(GRAMMAR, postlex=P._BlockIndenter(), **P.LARK_OPTIONS)


def cached() -> Lark | None:
    return tables.load(GRAMMAR, P.LARK_OPTIONS, P._BlockIndenter())


def the_file(folder: Path) -> Path:
    (path,) = folder.glob("parser-*.txt")
    return path


def shipped_effects() -> list[str]:
    """Every card's play text of the shipped rulesets: real input for both parsers."""
    texts = []
    for path in sorted((ROOT / "rulesets").glob("*/cards/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for card in data.get("cards") or []:
            if isinstance(card.get("play"), str):
                texts.append(card["play"].rstrip("\n") + "\n")
    return texts


def test_a_saved_parser_parses_every_shipped_card_as_a_fresh_one_does(cache):
    built = fresh()
    tables.save(GRAMMAR, P.LARK_OPTIONS, built)
    loaded = cached()
    assert loaded is not None
    texts = shipped_effects()
    assert len(texts) > 150
    for text in texts:
        assert loaded.parse(text, start="effect") == built.parse(text, start="effect"), text


def test_the_cache_is_private_and_holds_only_literals(cache):
    tables.save(GRAMMAR, P.LARK_OPTIONS, fresh())
    path = the_file(cache)
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    import ast
    assert isinstance(ast.literal_eval(path.read_text(encoding="utf-8")), dict)
    assert not list(cache.glob("*.tmp"))  # the temporary file was renamed into place


def test_no_cache_when_turned_off(cache, monkeypatch):
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    tables.save(GRAMMAR, P.LARK_OPTIONS, fresh())
    assert not cache.exists()
    assert cached() is None


def _planted(cache: Path, text: str) -> Path:
    tables.save(GRAMMAR, P.LARK_OPTIONS, fresh())
    path = the_file(cache)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_planted_file_with_code_in_it_is_not_run(cache, tmp_path):
    marker = tmp_path / "PWNED"
    stamp = tables.stamp(GRAMMAR, P.LARK_OPTIONS)
    _planted(cache, f"{{'stamp': {stamp!r}, 'data': __import__('os').mkdir({str(marker)!r}), "
                    "'memo': {}}")
    assert cached() is None
    assert not marker.exists()


@pytest.mark.parametrize("text", ["", "{'stamp': 'x'", "{" * 100_000, "[1, 2, 3]",
                                  "{'stamp': 'not ours', 'data': {}, 'memo': {}}"])
def test_a_damaged_or_foreign_file_is_ignored(cache, text):
    _planted(cache, text)
    assert cached() is None
    assert P._lark.__wrapped__() is not None  # and the parser is built afresh


def test_a_cache_others_may_write_is_ignored(cache):
    tables.save(GRAMMAR, P.LARK_OPTIONS, fresh())
    path = the_file(cache)
    assert cached() is not None
    os.chmod(path, 0o622)
    assert cached() is None
    os.chmod(path, 0o600)
    os.chmod(cache, 0o777)
    assert cached() is None


def test_a_linked_cache_file_is_ignored(cache, tmp_path):
    tables.save(GRAMMAR, P.LARK_OPTIONS, fresh())
    path = the_file(cache)
    elsewhere = tmp_path / "elsewhere.txt"
    os.replace(path, elsewhere)
    path.symlink_to(elsewhere)
    assert cached() is None


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0,
                    reason="giving a file to another user needs root")
def test_a_cache_file_of_another_user_is_ignored(cache):
    tables.save(GRAMMAR, P.LARK_OPTIONS, fresh())
    os.chown(the_file(cache), 65534, -1)
    assert cached() is None
