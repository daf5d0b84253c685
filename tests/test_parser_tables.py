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

from rulebook_games import cache as cache_module
from rulebook_games.lang import parser as P
from rulebook_games.lang import tables

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


@pytest.mark.slow
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
    seal, body = path.read_text(encoding="utf-8").split("\n", 1)
    assert seal.startswith(cache_module.FORMAT + " ")
    assert isinstance(ast.literal_eval(body), dict)
    assert not list(cache.glob("*.tmp"))  # the temporary file was renamed into place


def test_no_cache_when_turned_off(cache, monkeypatch):
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    tables.save(GRAMMAR, P.LARK_OPTIONS, fresh())
    assert not cache.exists()
    assert cached() is None


def _planted(cache: Path, text: str) -> Path:
    """A file in place of the tables, sealed with the user's own key: what only someone
    who can read that key could plant, so the checks after the seal are what is tested."""
    tables.save(GRAMMAR, P.LARK_OPTIONS, fresh())
    path = the_file(cache)
    path.write_bytes(cache_module.seal(path.stem, text.encode("utf-8")))
    return path


# Rule 'gain' made to build the tree of rule 'lose': every 'gain 2 heat' would then
# take heat away. The tables stay well-formed and keep their stamp.
GAIN_RULE = "{'origin': {'name': 'gain', '__type__': 'NonTerminal'}"
AS_LOSE = "{'origin': {'name': 'lose', '__type__': 'NonTerminal'}"


def test_poisoned_tables_are_noticed_by_their_seal_and_never_used(cache):
    tables.save(GRAMMAR, P.LARK_OPTIONS, fresh())
    path = the_file(cache)
    seal, body = path.read_bytes().split(b"\n", 1)
    poisoned = body.decode("utf-8").replace(GAIN_RULE, AS_LOSE)
    assert poisoned != body.decode("utf-8")
    # sealed by the user's own key, the poison would be obeyed: the attack is real
    path.write_bytes(cache_module.seal(path.stem, poisoned.encode("utf-8")))
    tree = cached().parse("gain 2 heat\n", start="effect")
    assert "lose" in str(tree) and "gain" not in str(tree)
    # as a planted file carries it (the seal the file had, or any other), it is refused
    for line in (seal, seal[:-8] + b"00000000", b"", b"rulebook-cache/2"):
        path.write_bytes(line + b"\n" + poisoned.encode("utf-8"))
        assert cached() is None
    # and a command parses as the grammar says, rebuilding the tables
    tree = P._lark.__wrapped__().parse("gain 2 heat\n", start="effect")
    assert "gain" in str(tree) and "lose" not in str(tree)
    assert cached().parse("gain 2 heat\n", start="effect") == tree


def test_a_key_kept_in_the_cache_folder_is_not_the_one_that_seals_it(cache, monkeypatch):
    # the key lives apart: a cache folder copied from elsewhere (a restored CI cache, an
    # unpacked archive) brings no key that would make its files trusted
    tables.save(GRAMMAR, P.LARK_OPTIONS, fresh())
    state = Path(os.environ["RULEBOOK_STATE_DIR"])
    assert (state / "cache-key").is_file()
    assert not (state / "cache-key").resolve().is_relative_to(cache.resolve())
    monkeypatch.setenv("RULEBOOK_STATE_DIR", str(cache.parent / "another-machine"))
    assert cached() is None  # sealed under another key


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
