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
# a row measured on fewer player-games than its table's minimum count is sorted after the
# others, and the page's minimum-count filter starts there (a rate of a handful of players
# swings from 0% to 100%): a tenth of the run's player-games, at least 5 and at most 20
MIN_COUNT = 20
LEAST_COUNT = 5


def min_count(player_games: int) -> int:
    """The minimum count of a run of ``player_games``: 20 in a large run; in a small one a
    tenth of it (at least 5), so that a short run still shows its common cards."""
    return max(LEAST_COUNT, min(MIN_COUNT, player_games // 10))
PAGE_ROWS = 1000  # rows a card or action table holds on the HTML page: every card of a real
# game (the largest shipped has about 240), bounded whatever a results file names


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
    # the terminal shows the first ``top`` rows (--top) and then says ``top_note``; the
    # HTML page and the JSON document hold every row
    top: int | None = None
    top_note: str = ""
    # which column holds each row's sample size, when one does (the page filters on it)
    size_column: int | None = None
    least: int = MIN_COUNT  # its minimum count (:func:`min_count`), when it has sizes
    # the rows the HTML page holds at most (a card table: every card, PAGE_ROWS)
    page_rows: int = MAX_ROWS
    # the plots drawn beside this table on the page (their names in plots.draw)
    plots: list[str] = field(default_factory=list)

    def text_rows(self) -> list[list[str]]:
        """Every row, as text."""
        return [text_row(row) for row in self.rows]

    def cut(self) -> int:
        """How many rows the terminal leaves out for --top."""
        return max(0, len(self.rows) - self.top) if self.top is not None else 0

    def shown_rows(self, most: int | None = None) -> tuple[list[list[str]], int]:
        """The rows to show, as text and in the table's order, and how many are left out.

        At most ``most`` (:data:`MAX_ROWS`): the rows with the largest sample
        sizes when the table has them (the earlier row first among equals),
        else the first ones.
        """
        most = MAX_ROWS if most is None else most
        if self.cut():
            most = min(most, self.top)
        rows, left_out = self.shown_cells(most)
        return [text_row(row) for row in rows], left_out

    def shown_cells(self, most: int | None = None) -> tuple[list[list], int]:
        """The rows to show, their cells as they are (a card's name still knows its
        card), and how many rows are left out: every row up to ``most`` (the page
        gives :data:`PAGE_ROWS`), whatever --top says."""
        most = MAX_ROWS if most is None else most
        if self.cut() and most <= self.top:  # --top: the first rows, in the table's order
            return list(self.rows[:most]), len(self.rows) - most
        if len(self.rows) <= most:
            return list(self.rows), 0
        if self.sizes is not None and len(self.sizes) == len(self.rows):
            order = sorted(range(len(self.rows)), key=lambda i: (-self.sizes[i], i))
            keep = sorted(order[:most])
        else:
            keep = range(most)
        return [self.rows[i] for i in keep], len(self.rows) - most

    def shown_note(self, left_out: int, most: int | None = None) -> str:
        """The table's note, with the line that says how many rows are not shown."""
        most = MAX_ROWS if most is None else most
        if not left_out:
            return self.note
        if self.cut() and most >= self.top and left_out == self.cut():
            return " ".join(x for x in (self.note, self.top_note) if x)
        which = "with fewer player-games " if self.sizes is not None else ""
        line = (f"{left_out:,} more rows {which}are not shown (a table shows at most "
                f"{most}).")
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


def fixed(x: float, digits: int = 1, sign: bool = False) -> str:
    """``x`` with ``digits`` decimals; a value that rounds to zero is written ``0.0``
    (``+0.0`` with ``sign``), never ``-0.0``."""
    x = float(x)
    if round(x, digits) == 0:
        x = 0.0
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def short(x: float) -> str:
    """``x`` as ``%g`` writes it, never ``-0``."""
    return f"{float(x) + 0.0:g}"


def pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None or x != x else f"{fixed(100 * x, digits)}%"


def num(x: float | None, digits: int = 1) -> str:
    if x is None:
        return "–"
    return fixed(x, digits)


def signed(x: float, digits: int = 1) -> str:
    return fixed(x, digits, sign=True)


def rate_cell(est) -> str:
    """``39.0% (34.1–44.2)``: a rate with its interval."""
    if est is None:
        return "–"
    return f"{pct(est.value)} ({fixed(100 * est.low)}–{fixed(100 * est.high)})"


def mean_cell(est, digits: int = 1) -> str:
    if est is None:
        return "–"
    return (f"{fixed(est.value, digits)} ({fixed(est.low, digits)} to "
            f"{fixed(est.high, digits)})")


def diff_cell(d, scale: float = 1.0, digits: int = 1, unit: str = "") -> str:
    """``+4.2 (+1.1 to +7.3)``: a difference with its interval (``scale`` 100 for points)."""
    if d is None:
        return "–"
    return (f"{signed(d.value * scale, digits)}{unit} "
            f"({signed(d.low * scale, digits)} to {signed(d.high * scale, digits)})")


def confidence_note(confidence: float) -> str:
    return (f"Intervals are {confidence:.0%} confidence intervals. {SIGNIFICANT}: significant "
            "after Benjamini–Hochberg correction over every test in this report "
            f"(false discovery rate {1 - confidence:.0%}).")
