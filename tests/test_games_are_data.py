"""The interpreter names no game: every game lives in rulesets/."""

from __future__ import annotations

import csv
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# words that only a particular game would use
GAME_WORDS = ["terraform", "mars", "tharsis", "legacy", "gears of time", "timespan", "oxygen",
              "temperature", "ocean", "greenery", "megacredit", "titanium", "steel", "plant",
              "microbe", "animal", "corporation", "milestone", "award", "wonder", "camel",
              "umulium", "harmony", "fate card", "influence cube", "present day", "era",
              "lantern"]


def interpreter_sources():
    """The interpreter's code: its Python, and the web pages' scripts, styles and HTML."""
    return sorted(p for ext in ("py", "js", "css", "html")
                  for p in (ROOT / "interpreter").rglob(f"*.{ext}"))


def test_interpreter_names_no_game_word():
    offenders = []
    for path in interpreter_sources():
        text = path.read_text(encoding="utf-8").lower()
        for word in GAME_WORDS:
            if re.search(rf"\b{re.escape(word)}s?\b", text):
                offenders.append(f"{path.relative_to(ROOT)}: {word}")
    assert not offenders, offenders


def test_interpreter_names_no_card(shared_dir):
    names = []
    with open(shared_dir / "data" / "terraforming_mars" / "cards.csv", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if len(row["name"]) > 6:
                names.append(row["name"].lower())
    text = "\n".join(p.read_text(encoding="utf-8").lower() for p in interpreter_sources())
    found = [n for n in names if n in text]
    assert not found, found


def test_no_game_specific_python_in_rulesets():
    assert not list((ROOT / "rulesets").rglob("*.py"))
