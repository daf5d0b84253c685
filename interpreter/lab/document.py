"""``report`` and ``compare`` with ``--format json``: the lab's tables as one JSON document.

The tables are the ones the terminal and the page show (:mod:`.table`),
every row of them (not only the rows a terminal shows), each cell as the
text the terminal prints; a cell that is a test gives its p-value, its
q-value after the Benjamini–Hochberg correction and whether it is
significant. The shape is in docs/formats.md and stays stable: a script
reads a table by its title or its ``key`` and a column by its name.
Imports the standard library and :mod:`.table`.
"""

from __future__ import annotations

import re

from .table import Table, Test


def _key(title: str) -> str:
    """A table's title as a key (lower case, words joined by '_'): "Win rate by seat" →
    "win_rate_by_seat"."""
    return re.sub(r"[^0-9a-z]+", "_", title.lower()).strip("_")


def _cell(value):
    if isinstance(value, Test):
        return {"p": value.p, "q": value.q, "significant": value.significant}
    return str(value)


def tables(items: list[Table]) -> list[dict]:
    out = []
    for t in items:
        entry = {"title": t.title, "key": _key(t.title), "columns": list(t.columns),
                 "rows": [[_cell(c) for c in row] for row in t.rows]}
        if t.sizes is not None:
            entry["sizes"] = list(t.sizes)
        if t.note:
            entry["note"] = t.note
        out.append(entry)
    return out


def report(path: str, games: int, confidence: float, items: list[Table],
           notes: list[str], written: list[str]) -> dict:
    return {"results": path, "games": games, "confidence": confidence,
            "tables": tables(items), "notes": list(notes), "written": list(written),
            "exit_code": 0}


def compare(head: str, pairs: int, confidence: float, items: list[Table],
            verdicts: list[str], notes: list[str], written: list[str]) -> dict:
    return {"headline": head, "pairs": pairs, "confidence": confidence,
            "verdicts": list(verdicts), "tables": tables(items), "notes": list(notes),
            "written": list(written), "exit_code": 0}
