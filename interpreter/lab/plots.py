"""Draw the lab's plots as PNG images with matplotlib (the Agg backend: no display needed).

:func:`draw` takes the plot data a report or a comparison gathered and
returns ``(name, png bytes)`` pairs, in a fixed order, for whichever plots
have data: score distributions by seat, points by scoring entry, game
length, win rate by seat and by agent with interval bars, and the forest
plot of the largest effects (a difference and its interval per row, with
the line of no effect). Only this module imports matplotlib.

Every label comes from a results file or a ruleset, which strangers write:
it is drawn as plain text (never read as math or handed to LaTeX), with its
control and direction-changing characters written as escapes, as the
terminal shows them, and cut short. (The warnings matplotlib gives while
drawing, such as a glyph the font lacks, name characters of a label: the
commands print every warning through ``visible``, see
:func:`.commands.warnings_shown_safely`.) A plot draws at most
:data:`MAX_SERIES` rows (boxes, rates): those with the largest samples,
with a line under the plot saying how many are left out, so that its size
(and the time and memory to draw it) is bounded whatever the file names.
"""

from __future__ import annotations

import io

from ..safe_text import visible

LABEL = 60  # characters of a label drawn; a longer one is cut short with '…'
MAX_SERIES = 40  # rows of one plot; real plots have a few (seats, scoring entries)
FOREST = 20  # rows of a forest plot: the first, which are the largest effects


def label(text) -> str:
    """A label as drawn: control characters as escapes (as on the terminal), cut short."""
    text = visible(text)
    return text if len(text) <= LABEL else text[:LABEL - 1] + "…"


def _largest(rows: list, size) -> tuple[list, int]:
    """At most MAX_SERIES of ``rows``, those of the largest ``size(row)``, in their order;
    and how many are left out."""
    if len(rows) <= MAX_SERIES:
        return rows, 0
    keep = sorted(sorted(range(len(rows)), key=lambda i: (-size(rows[i]), i))[:MAX_SERIES])
    return [rows[i] for i in keep], len(rows) - MAX_SERIES


def _left_out(ax, count: int, most: int, which: str = "with smaller samples ") -> None:
    """The line under a plot (below its axis label) that says how many rows it leaves out."""
    if count:
        ax.annotate(f"{count:,} more rows {which}are not drawn (a plot draws at most {most}).",
                    xy=(0, 0), xycoords="axes fraction", xytext=(0, -36),
                    textcoords="offset points", fontsize=8, color="#555", ha="left",
                    va="top")


def draw(plots: dict, confidence: float) -> list[tuple[str, bytes]]:
    """``(name, png bytes)`` for each plot that has data, in a fixed order."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    images = []
    makers = (("scores_by_seat", _distributions, "Score by seat", "score"),
              ("score_parts", _distributions, "Points by scoring entry", "points"),
              ("lengths", _lengths, "Game length", ""),
              ("seat_rates", _rates, "Win rate by seat", "win rate"),
              ("agent_rates", _rates, "Win rate by agent", "win rate"),
              ("top_items", _forest, "", ""),
              ("changes", _forest, "", ""))
    # every label comes from a results file or a ruleset, which strangers write: text is
    # drawn as plain text through label(), never read as math ('$...$') or handed to LaTeX
    with matplotlib.rc_context({"figure.dpi": 100, "font.size": 9,
                                "svg.hashsalt": "rulebook", "path.simplify": True,
                                "text.parse_math": False, "text.usetex": False}):
        for key, maker, title, unit in makers:
            data = plots.get(key)
            if not data:
                continue
            fig = maker(plt, data, title, unit, confidence)
            if fig is None:
                continue
            buf = io.BytesIO()
            fig.savefig(buf, format="png", bbox_inches="tight",
                        metadata={"Software": None})
            plt.close(fig)
            images.append((key, buf.getvalue()))
    return images


def _distributions(plt, groups, title, unit, confidence):
    groups = [(name, x) for name, x in groups if len(x)]
    if not groups:
        return None
    groups, left_out = _largest(groups, lambda g: len(g[1]))
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(groups) + 1.5))
    ax.boxplot([x for _, x in groups], orientation="horizontal", showmeans=True)
    if all(integral(x) for _, x in groups):  # scores and points are whole numbers
        whole_ticks(ax.xaxis)
    ax.set_yticks(range(1, len(groups) + 1), [label(name) for name, _ in groups])
    ax.invert_yaxis()
    ax.set_xlabel(unit)
    ax.set_title(title)
    _left_out(ax, left_out, MAX_SERIES)
    return fig


def integral(values) -> bool:
    """Whether every (finite) value is a whole number: a measure drawn with integer ticks."""
    import numpy as np
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    return bool(len(x)) and bool(np.all(x == np.round(x)))


def whole_ticks(axis) -> None:
    """Ticks at whole numbers only (never 2.5 rounds, never -0)."""
    from matplotlib.ticker import MaxNLocator
    axis.set_major_locator(MaxNLocator(integer=True))


def bins_for(values):
    """Histogram bins: for whole numbers, each bin a whole number of units wide and centred
    on whole numbers (at most about 30 of them), so every series' bars line up; else 30
    equal bins over the range."""
    import math

    import numpy as np
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    low, high = float(x.min()), float(x.max())
    if not integral(x):
        return np.linspace(low, high if high > low else low + 1, 31)
    width = max(1, math.ceil((high - low + 1) / 30))
    count = math.ceil((high - low + 1) / width)
    return low - 0.5 + width * np.arange(count + 1)


def _lengths(plt, groups, title, unit, confidence):
    """One histogram per measure; several series (base, with the mods) share its bins."""
    import numpy as np
    fig, axes = plt.subplots(1, len(groups), figsize=(4.5 * len(groups), 3), squeeze=False)
    for ax, (name, series) in zip(axes[0], groups):
        if not isinstance(series, dict):
            series = {"": series}
        every = np.concatenate([np.asarray(x, dtype=float) for x in series.values()])
        bins = bins_for(every)
        for (side, x), colour in zip(series.items(), ("#4a7ab5", "#b5504a")):
            ax.hist(x, bins=bins, color=colour, alpha=0.6 if len(series) > 1 else 1,
                    label=label(side) if side else None)
        if len(series) > 1:
            ax.legend()
        if integral(every):
            whole_ticks(ax.xaxis)
        whole_ticks(ax.yaxis)  # a count of games
        ax.set_title(label(f"{title}: {str(name).lower()}"))
        ax.set_ylabel("games")
    fig.tight_layout()
    return fig


def _rates(plt, rates, title, unit, confidence):
    """Rates with their intervals; ``rates`` may be ``(rows, equal share)``, and the equal
    share (1 / players, for seats) is drawn as a line."""
    share = None
    if isinstance(rates, tuple):
        rates, share = rates
    rates = [(name, e) for name, e in rates if e is not None]
    if not rates:
        return None
    rates, left_out = _largest(rates, lambda r: getattr(r[1], "n", 0))
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(rates) + 1.5))
    ys = list(range(len(rates)))
    values = [100 * e.value for _, e in rates]
    low = [100 * (e.value - e.low) for _, e in rates]
    high = [100 * (e.high - e.value) for _, e in rates]
    ax.errorbar(values, ys, xerr=[low, high], fmt="o", capsize=4, color="#4a7ab5")
    if share is not None:
        ax.axvline(100 * share, color="grey", linewidth=1, linestyle="--",
                   label=f"an equal share ({100 * share:.1f}%)")
        ax.legend(loc="best", fontsize=8)
    ax.set_yticks(ys, [label(name) for name, _ in rates])
    ax.invert_yaxis()
    ax.set_xlabel(f"{unit} (%), with {confidence:.0%} intervals")
    ax.set_title(title)
    _left_out(ax, left_out, MAX_SERIES)
    return fig


def _forest(plt, data, title, unit, confidence):
    """One row per effect: the difference and its interval, and the line of no effect."""
    title, rows = label(data[0]), data[1]
    unit = data[2] if len(data) > 2 else "win-rate difference (points)"
    scale = data[3] if len(data) > 3 else 100
    rows = [(name, d) for name, d in rows if d is not None]
    if not rows:
        return None
    left_out, rows = max(0, len(rows) - FOREST), rows[:FOREST]  # the rows come sorted
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(rows) + 1.5))
    ys = list(range(len(rows)))
    values = [scale * d.value for _, d in rows]
    low = [scale * (d.value - d.low) for _, d in rows]
    high = [scale * (d.high - d.value) for _, d in rows]
    ax.errorbar(values, ys, xerr=[low, high], fmt="s", capsize=3, color="#b5504a")
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(ys, [label(name) for name, _ in rows])
    ax.invert_yaxis()
    ax.set_xlabel(f"{unit}, with {confidence:.0%} intervals")
    ax.set_title(title)
    _left_out(ax, left_out, FOREST, "")
    return fig
