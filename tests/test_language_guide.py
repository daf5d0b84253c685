"""The language guide calls only what the language has.

docs/language.md's examples are parsed by tests/test_docs.py; parsing does
not know which functions exist, and the guide once called ``played_cards()``,
which no ruleset or builtin defines. Every call in its examples is a builtin,
an aggregate (``count``, ``choose``…) or an event after ``emit``; a game's
own zones (``played``) are passed to ``cards_in`` and ``all_cards_in``.
"""

from __future__ import annotations

import re
from pathlib import Path

from rulebook_games.lang.builtins import AGGREGATES, BUILTINS

ROOT = Path(__file__).resolve().parents[1]


def test_every_call_in_the_language_guide_is_a_builtin():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    unknown = set()
    for block in re.findall(r"```text\n(.*?)```", text, re.S):
        for line in block.splitlines():
            code = re.sub(r'"[^"]*"', "", line.split("#", 1)[0])
            code = re.sub(r"\bemit [a-z_]+\(", "emit (", code)
            unknown |= {name for name in re.findall(r"\b([a-z_][a-z_0-9]*)\(", code)
                        if name not in BUILTINS and name not in AGGREGATES}
    assert not unknown
    assert "played_cards" not in text
