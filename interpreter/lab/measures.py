"""The measures of ``rulebook report``: what a results file says about balance.

From the columns :mod:`.results` read, :func:`build` works out, each with a
confidence interval: the win rate by seat (tested against an equal share),
by agent and by each value of each declared feature; for every card played
or gained, every action and every item of a list feature, the share of
player-games that had it, the win rate with it against without, and the
mean score difference; numeric features (mean, and the winners' against
the others'); the score distributions, overall and by scoring entry; and
the game length. Every test goes into one Benjamini–Hochberg correction.
A "win" is a seat among the game's winners (a shared win counts for each
sharer; in a one-player game it is the solo win).

The work for each thing a file names (an agent, a title, a card, a feature
value) is done on the player-games that have it, never by going over the
whole file once for each; the reader bounds how many there are. Every
measure is tested, but a report shows at most :data:`~.table.MAX_TABLES`
tables of feature values, and each table its bounded number of rows: those
with the most player-games.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from . import stats
from .table import (MAX_TABLES, PAGE_ROWS, Table, Test, confidence_note, correct,
                    diff_cell, mean_cell, min_count, num, pct, rate_cell, short)

ITEM_TITLES = {"played": ("Cards played", "Card", "played by"),
               "gained": ("Cards gained", "Card", "gained by"),
               "actions": ("Actions taken", "Action", "taken by"),
               "card_actions": ("Card actions taken", "Card action", "taken by")}


@dataclass
class Report:
    tables: list[Table] = field(default_factory=list)
    tests: list[Test] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    plots: dict = field(default_factory=dict)  # what plots.py draws


@dataclass
class _Cols:
    """The player-game columns as numpy arrays."""

    score: np.ndarray
    won: np.ndarray
    seat: np.ndarray
    game: np.ndarray


def build(res, names, confidence: float = 0.95, top: int = 15) -> Report:
    rep = Report(notes=list(names.notes))
    cols = _Cols(np.asarray(res.pg_score, dtype=float), np.asarray(res.pg_won, dtype=bool),
                 np.asarray(res.pg_seat, dtype=int), np.asarray(res.pg_game, dtype=int))
    rep.tables.append(_overview(res, names, confidence))
    if res.games:
        _seats(rep, res, cols, confidence)
        _agents(rep, res, cols, confidence)
        _ranks(rep, res)
        _categories(rep, res, names, cols, confidence)
        _numbers(rep, res, names, cols, confidence)
        _all_items(rep, res, names, cols, confidence, top)
        _scores(rep, res, names, cols, confidence)
        _lengths(rep, res, names, confidence)
    correct(rep.tables, rep.tests, 1 - confidence)
    rep.notes.append(confidence_note(confidence))
    return rep


def _test(rep: Report, d) -> Test:
    t = Test(d.p if d is not None else None)
    rep.tests.append(t)
    return t


def _kind_order(kind):
    order = list(ITEM_TITLES)
    return (order.index(kind), "") if kind in order else (len(order), str(kind))


# ------------------------------------------------------------------ sections
def _overview(res, names, confidence) -> Table:
    info = res.ruleset or {}
    t = Table("Games", ["", ""])
    version = f" {info['version']}" if info.get("version") else ""
    t.rows.append(["Ruleset", names.ruleset(str(info.get("name") or info.get("id") or "?"))
                   + version])
    t.rows.append(["Mods", ", ".join(names.mods(res.mods)) or "none"])
    t.rows.append(["Variants", ", ".join(names.value(str(v)) for v in res.variants) or "none"])
    t.rows.append(["Players", str(res.players)])
    t.rows.append(["Games analysed", str(res.games)])
    if res.errors:
        t.rows.append(["Stopped by a rule error (not analysed)", str(len(res.errors))])
    if res.unfinished:
        t.rows.append(["Ended before their proper end", str(res.unfinished)])
    return t


def _seats(rep, res, cols, confidence) -> None:
    solo = res.players == 1
    t = Table("Solo win rate" if solo else "Win rate by seat",
              ["Seat", "Agent", "Games", "Wins", "Win rate"] +
              ([] if solo else ["Against an equal share", ""]))
    rates = []
    for seat in range(res.players):
        mask = cols.seat == seat
        n, k = int(mask.sum()), int(cols.won[mask].sum())
        agents = sorted({res.pg_agent[i] for i in np.flatnonzero(mask)})
        est = stats.rate(k, n, confidence)
        rates.append((f"Seat {seat + 1}", est))
        row = [str(seat + 1), _some(agents, "agents"), str(n), str(k), rate_cell(est)]
        if not solo:
            fair = 1 / res.players
            d = None if est is None else stats.Difference(
                est.value - fair, est.low - fair, est.high - fair, stats.rate_test(k, n, fair))
            row += [diff_cell(d, 100, unit=" points"), _test(rep, d)]
        t.rows.append(row)
    if not solo:
        t.note = ("A shared win counts as a win for each seat that shares it; an equal share "
                  f"is {pct(1 / res.players)}.")
    t.plots = ["seat_rates"]
    rep.tables.append(t)
    rep.plots["seat_rates"] = rates if solo else (rates, 1 / res.players)


def _some(names: list[str], what: str, most: int = 5) -> str:
    """The first few of a list of names, and how many there are in all."""
    if len(names) <= most:
        return ", ".join(names)
    return ", ".join(names[:most]) + f", … ({len(names):,} {what})"


def _agents(rep, res, cols, confidence) -> None:
    index: dict[str, int] = {}  # each agent's number, then each player-game's agent's
    which = np.fromiter((index.setdefault(a, len(index)) for a in res.pg_agent), dtype=int,
                        count=len(res.pg_agent))
    if len(index) < 2:
        return
    games = np.bincount(which, minlength=len(index))
    wins = np.bincount(which, weights=cols.won, minlength=len(index))
    n_all, k_all = len(which), int(cols.won.sum())
    t = Table("Win rate by agent", ["Agent", "Player-games", "Win rate",
                                    "Against the other agents", ""], sizes=[])
    rates = []
    for kind in sorted(index):
        n, k = int(games[index[kind]]), int(wins[index[kind]])
        est = stats.rate(k, n, confidence)
        d = stats.two_rates(k, n, k_all - k, n_all - n, confidence)
        rates.append((kind, est))
        t.rows.append([kind, str(n), rate_cell(est), diff_cell(d, 100, unit=" points"),
                       _test(rep, d)])
        t.sizes.append(n)
    t.plots = ["agent_rates"]
    rep.tables.append(t)
    rep.plots["agent_rates"] = rates


def _ranks(rep, res) -> None:
    titles = sorted({r for r in res.pg_rank if r is not None})
    if not titles:
        return
    seats = [str(s + 1) for s in range(res.players)]
    earned = Counter(zip(res.pg_rank, res.pg_seat))  # (title, seat) -> player-games
    t = Table("Titles earned", ["Title"] + [f"Seat {s}" for s in seats] + ["Share"], sizes=[])
    for title in titles:
        per = [earned[title, s] for s in range(res.players)]
        t.rows.append([title] + [str(c) for c in per] + [pct(sum(per) / res.player_games)])
        t.sizes.append(sum(per))
    rep.tables.append(t)


def _categories(rep, res, names, cols, confidence) -> None:
    """A table per feature whose values are text; at most MAX_TABLES of them are shown
    (those with the most player-games), but each value of each is tested."""
    tables = []
    for path, values in sorted(res.categories.items()):
        t = Table(f"Win rate by {names.feature(path)}",
                  ["Value", "Player-games", "Win rate", "Against the other values", "",
                   "Mean score"], sizes=[])
        total_n, total_k = 0, 0
        groups = []
        for value, pgs in values.items():
            idx = np.asarray(pgs, dtype=int)
            groups.append((value, idx))
            total_n += len(idx)
            total_k += int(cols.won[idx].sum())
        groups.sort(key=lambda g: (-len(g[1]), g[0]))
        for value, idx in groups:
            n, k = len(idx), int(cols.won[idx].sum())
            d = stats.two_rates(k, n, total_k - k, total_n - n, confidence) \
                if total_n > n else None
            t.rows.append([names.value(value), str(n), rate_cell(stats.rate(k, n, confidence)),
                           diff_cell(d, 100, unit=" points"), _test(rep, d),
                           num(float(cols.score[idx].mean()))])
            t.sizes.append(n)
        tables.append((total_n, t))
    rep.tables.extend(largest(tables))
    if len(tables) > MAX_TABLES:
        rep.notes.append(f"The win rate by value of {len(tables) - MAX_TABLES:,} more features "
                         f"is not shown: a report shows it for the {MAX_TABLES} features with "
                         "the most player-games (every value is tested all the same).")


def largest(tables: list) -> list:
    """Of ``(size, table)`` pairs, the MAX_TABLES tables of the largest sizes, in order."""
    if len(tables) <= MAX_TABLES:
        return [t for _, t in tables]
    keep = sorted(sorted(range(len(tables)), key=lambda i: (-tables[i][0], i))[:MAX_TABLES])
    return [tables[i][1] for i in keep]


def _numbers(rep, res, names, cols, confidence) -> None:
    if not res.numbers:
        return
    t = Table("Numeric features", ["Feature", "Mean", "Winners' mean", "Others' mean",
                                   "Winners against the others", ""], sizes=[])
    for path, by_pg in sorted(res.numbers.items()):
        idx = np.fromiter(by_pg.keys(), dtype=int, count=len(by_pg))
        x = np.fromiter(by_pg.values(), dtype=float, count=len(by_pg))
        won = cols.won[idx]
        d = stats.two_means(x[won], x[~won], confidence)
        t.rows.append([names.feature(path), mean_cell(stats.mean(x, confidence)),
                       num(float(x[won].mean())) if won.any() else "–",
                       num(float(x[~won].mean())) if (~won).any() else "–",
                       diff_cell(d), _test(rep, d)])
        t.sizes.append(len(x))
    rep.tables.append(t)


def _all_items(rep, res, names, cols, confidence, top) -> None:
    """A table for each kind of item (cards played, gained, actions…, then each list
    feature); at most MAX_TABLES of the list features' are shown, but every item is tested."""
    by_kind: dict = {}
    for (kind, ident), pgs in res.items.items():
        by_kind.setdefault(kind, []).append((ident, pgs))
    scores = stats.Split(cols.score)
    lists = []
    for kind in sorted(by_kind, key=_kind_order):
        t = _items(rep, names, cols, scores, kind, by_kind[kind], confidence, top)
        if isinstance(kind, tuple):
            lists.append((sum(len(pgs) for _, pgs in by_kind[kind]), t))
        else:
            rep.tables.append(t)
    rep.tables.extend(largest(lists))
    if len(lists) > MAX_TABLES:
        rep.notes.append(f"The items of {len(lists) - MAX_TABLES:,} more list features are not "
                         f"shown: a report shows them for the {MAX_TABLES} list features "
                         "whose items the most player-games had (every item is tested all "
                         "the same).")


def _items(rep, names, cols, scores, kind, items, confidence, top) -> Table:
    """The table of one kind of item; ``items`` holds (id, player-games that had it)."""
    if isinstance(kind, tuple):  # a list feature
        title, label, verb = names.feature(kind[1:]), "Item", "had by"
    else:
        title, label, verb = ITEM_TITLES[kind]
    n_all, k_all = len(cols.won), int(cols.won.sum())
    rows = []
    for ident, pgs in items:  # each player-game once: an item is once in a seat's object
        idx = np.asarray(pgs, dtype=int)
        n, k = len(idx), int(cols.won[idx].sum())
        win = stats.two_rates(k, n, k_all - k, n_all - n, confidence) if n < n_all else None
        score = scores.part_against_rest(idx, confidence)
        rows.append((names.item(kind, ident), n, k, win, score))
    share_total = n_all
    # the largest win-rate difference first; but a row of fewer player-games than the run's
    # minimum count after every other (a card played twice swings from 0% to 100%)
    least = min_count(n_all)
    rows.sort(key=lambda r: (r[1] < least, -(abs(r[3].value) if r[3] else -1), r[0]))
    t = Table(title, [label, "Player-games", verb[:1].upper() + verb[1:], "Win rate with",
                      "Win rate without", "Win-rate difference", "", "Score difference", ""],
              sizes=[], top=top, size_column=1, least=least)
    effects = []
    for name, n, k, win, score in rows:
        wt, st = _test(rep, win), _test(rep, score)
        without = stats.rate(k_all - k, n_all - n, confidence) if n < n_all else None
        t.rows.append([name, str(n), rate_cell(stats.rate(n, share_total, confidence)),
                       rate_cell(stats.rate(k, n, confidence)), rate_cell(without),
                       diff_cell(win, 100, unit=" points"), wt, diff_cell(score), st])
        t.sizes.append(n)
        if win is not None and len(effects) < top:
            effects.append((name, win))
    rare = sum(1 for r in rows if r[1] < least)
    t.note = (f"The share is of all {n_all} player-games; sorted by the size of the win-rate "
              "difference" + (f", the {rare} rows of fewer than {least} player-games "
                              "last" if rare else "") + ".")
    if len(rows) > top:
        t.top_note = f"The first {top} of {len(rows)} are shown (--top)."
    if not isinstance(kind, tuple):
        t.page_rows = PAGE_ROWS  # every card on the page
    if kind == "played" or "top_items" not in rep.plots:
        rep.plots["top_items"] = (f"{title}: win rate with against without", effects)
        t.plots = ["top_items"]
    return t


def _scores(rep, res, names, cols, confidence) -> None:
    t = Table("Scores", ["", "Mean", "Spread (sd)", "Min", "Quartiles", "Max"], sizes=[])

    def row(label, x):
        x = x[np.isfinite(x)]
        if len(x) == 0:
            return
        q1, med, q3 = np.percentile(x, [25, 50, 75])
        t.rows.append([label, mean_cell(stats.mean(x, confidence)),
                       num(float(x.std(ddof=1))) if len(x) > 1 else "–", num(float(x.min()), 0),
                       f"{short(q1)} · {short(med)} · {short(q3)}", num(float(x.max()), 0)])
        t.sizes.append(len(x))
    row("Every seat", cols.score)
    by_seat = []
    for seat in range(res.players):
        x = cols.score[cols.seat == seat]
        by_seat.append((f"Seat {seat + 1}", x))
        if res.players > 1:
            row(f"Seat {seat + 1}", x)
    row("Winners", cols.score[cols.won])
    parts = []
    for entry, (_, points) in res.parts.items():  # only the player-games with the entry
        x = np.asarray(points, dtype=float)
        parts.append((names.entry(entry), x[np.isfinite(x)]))
        row(names.entry(entry), x)
    if len(parts) > 1 or (parts and len(t.rows) > 0):
        t.note = "The rows after Winners are the points of each scoring entry."
    t.plots = ["scores_by_seat", "score_parts"]
    rep.tables.append(t)
    rep.plots["scores_by_seat"] = by_seat
    rep.plots["score_parts"] = parts


def _lengths(rep, res, names, confidence) -> None:
    t = Table("Game length", ["", "Mean", "Min", "Median", "Max"])
    lengths = []
    for label, column in ((names.rounds(), res.rounds), ("Decisions", res.decisions)):
        x = np.asarray(column, dtype=float)
        x = x[np.isfinite(x)]
        if len(x) == 0:
            continue
        lengths.append((label, x))
        t.rows.append([label, mean_cell(stats.mean(x, confidence)), num(float(x.min()), 0),
                       short(np.median(x)), num(float(x.max()), 0)])
    if t.rows:
        t.plots = ["lengths"]
        rep.tables.append(t)
    rep.plots["lengths"] = lengths
