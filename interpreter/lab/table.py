"""The one shape every lab result takes before it is shown: titled tables of text cells.

``report`` and ``compare`` build :class:`Table` objects; the terminal, the
HTML page and the tests all read those, so a figure is worked out once and
shown the same way everywhere. A cell is text, or a :class:`Test` whose
flag is filled in once every test of the run is known (the
Benjamini–Hochberg correction looks at all of them together). A table
holds every row it measured, but shows at most :data:`MAX_ROWS` of them
(:meth:`Table.shown_rows`): those with the most player-games when the table
knows its rows' sample sizes, else the first ones, with a line saying how
many are left out; so a results file that names thousands of things never
makes a page or a terminal of thousands of rows. The formatting helpers
here write rates, means and intervals the same way in every table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SIGNIFICANT = "*"
MAX_ROWS = 200  # rows a table shows; real tables have a few dozen (--top cuts card tables)
MAX_TABLES = 50  # tables of one kind (a feature's values) a run shows; real runs have a few


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
    # the sample size of each row (player-games, games), when the rows have one: which
    # rows are shown when there are too many
    sizes: list[int] | None = None

    def text_rows(self) -> list[list[str]]:
        """Every row, as text."""
        return [text_row(row) for row in self.rows]

    def shown_rows(self, most: int | None = None) -> tuple[list[list[str]], int]:
        """The rows to show, as text and in the table's order, and how many are left out.

        At most ``most`` (:data:`MAX_ROWS`): the rows with the largest sample
        sizes when the table has them (the earlier row first among equals),
        else the first ones.
        """
        rows, left_out = self.shown_cells(most)
        return [text_row(row) for row in rows], left_out

    def shown_cells(self, most: int | None = None) -> tuple[list[list], int]:
        """The rows :meth:`shown_rows` shows, their cells as they are (a card's name
        still knows its card), and how many rows are left out."""
        most = MAX_ROWS if most is None else most
        if len(self.rows) <= most:
            return list(self.rows), 0
        if self.sizes is not None and len(self.sizes) == len(self.rows):
            order = sorted(range(len(self.rows)), key=lambda i: (-self.sizes[i], i))
            keep = sorted(order[:most])
        else:
            keep = range(most)
        return [self.rows[i] for i in keep], len(self.rows) - most

    def shown_note(self, left_out: int) -> str:
        """The table's note, with the line that says how many rows are not shown."""
        if not left_out:
            return self.note
        which = "with fewer player-games " if self.sizes is not None else ""
        line = (f"{left_out:,} more rows {which}are not shown (a table shows at most "
                f"{MAX_ROWS}).")
        return f"{self.note} {line}" if self.note else line


def text_row(row) -> list[str]:
    return [c.cell() if isinstance(c, Test) else str(c) for c in row]


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
