"""The one shape every lab result takes before it is shown: titled tables of text cells.

``report`` and ``compare`` build :class:`Table` objects; the terminal, the
HTML page and the tests all read those, so a figure is worked out once and
shown the same way everywhere. A cell is text, or a :class:`Test` whose
flag is filled in once every test of the run is known (the
Benjamini–Hochberg correction looks at all of them together). The
formatting helpers here write rates, means and intervals the same way in
every table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SIGNIFICANT = "*"


@dataclass
class Test:
    """One hypothesis test of a run: its p-value, and after correction its q-value."""

    p: float | None
    q: float | None = None
    significant: bool = False

    def cell(self) -> str:
        return SIGNIFICANT if self.significant else ""


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list] = field(default_factory=list)
    note: str = ""

    def text_rows(self) -> list[list[str]]:
        return [[c.cell() if isinstance(c, Test) else str(c) for c in row] for row in self.rows]


def correct(tables: list[Table], tests: list[Test], alpha: float) -> None:
    """Adjust every test of a run together (Benjamini–Hochberg) and flag q <= alpha."""
    from .stats import adjust
    real = [t for t in tests if t.p is not None]
    for t, q in zip(real, adjust([t.p for t in real])):
        t.q = q
        t.significant = q <= alpha


def pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def num(x: float | None, digits: int = 1) -> str:
    if x is None:
        return "–"
    return f"{x:.{digits}f}"


def signed(x: float, digits: int = 1) -> str:
    return f"{x:+.{digits}f}"


def rate_cell(est) -> str:
    """``39.0% (34.1–44.2)``: a rate with its interval."""
    if est is None:
        return "–"
    return f"{pct(est.value)} ({100 * est.low:.1f}–{100 * est.high:.1f})"


def mean_cell(est, digits: int = 1) -> str:
    if est is None:
        return "–"
    return f"{est.value:.{digits}f} ({est.low:.{digits}f} to {est.high:.{digits}f})"


def diff_cell(d, scale: float = 1.0, digits: int = 1, unit: str = "") -> str:
    """``+4.2 (+1.1 to +7.3)``: a difference with its interval (``scale`` 100 for points)."""
    if d is None:
        return "–"
    return (f"{d.value * scale:+.{digits}f}{unit} "
            f"({d.low * scale:+.{digits}f} to {d.high * scale:+.{digits}f})")


def confidence_note(confidence: float) -> str:
    return (f"Intervals are {confidence:.0%} confidence intervals. {SIGNIFICANT}: significant "
            "after Benjamini–Hochberg correction over every test in this report "
            f"(false discovery rate {1 - confidence:.0%}).")
