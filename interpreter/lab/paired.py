"""The measures of ``rulebook compare``: what changed between paired games.

Both sides played the same seeds with the same agents and variants, once on
the base ruleset and once with the mods. :func:`build` takes the two
results and the pairs of games to set side by side (by seed, the games that
finished without a rule error on both sides) and works out, with
intervals:

- measured on every game, so paired game by game (the paired t test on the
  per-game differences): the win rate of each seat and of each agent, the
  mean score overall and per scoring entry, the rounds and decisions, the
  share of players that played (gained, took) each card or action, and
  each numeric feature's mean;
- measured on the player-games that had something, so not paired (the
  players who play a card differ from side to side): the win rate of the
  players who played each card, and of those with each feature value
  (Fisher's exact test, Newcombe's interval; see :mod:`.stats`).

All the tests go into one Benjamini–Hochberg correction, and each
significant change gets a plain sentence in the game's words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import stats
from .measures import ITEM_TITLES, largest
from .names import about_card
from .table import (MAX_TABLES, PAGE_ROWS, Table, Test, confidence_note, correct,
                    diff_cell, min_count, num, pct, signed)

_VERB = {"played": "played", "gained": "gained", "actions": "taken", "card_actions": "taken"}


@dataclass
class Comparison:
    tables: list[Table] = field(default_factory=list)
    tests: list[Test] = field(default_factory=list)
    verdicts: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    plots: dict = field(default_factory=dict)
    pairs: int = 0
    # (tests, sentence maker) for every measure or pair of measures, in table order
    _said: list = field(default_factory=list)
    # id of a card's use test -> (kind, name, use change, per-round change, win test)
    _by_length: dict = field(default_factory=dict)
    _rounds: tuple | None = None  # the test and change of the rounds a game lasts


def pairs_by_seed(base, mod) -> list[tuple[int, int]]:
    """(base game, mod game) for each seed both sides played through without an error."""
    where = {seed: g for g, seed in enumerate(mod.seeds)}
    return [(g, where[seed]) for g, seed in enumerate(base.seeds) if seed in where]


class _Side:
    """One side's player-game columns, cut down to its games of the pairs, in pair order."""

    def __init__(self, res, games: list[int]):
        p = res.players
        self.res, self.p, self.games = res, p, np.asarray(games, dtype=int)
        pgs = (self.games[:, None] * p + np.arange(p)[None, :]).ravel()
        self.pgs = pgs
        self.score = np.asarray(res.pg_score, dtype=float)[pgs].reshape(-1, p)
        self.won = np.asarray(res.pg_won, dtype=bool)[pgs].reshape(-1, p)
        self.agent = np.asarray(res.pg_agent)[pgs].reshape(-1, p)
        self.rounds = np.asarray(res.rounds, dtype=float)[self.games]
        self.decisions = np.asarray(res.decisions, dtype=float)[self.games]
        self._where = np.full(res.player_games, -1, dtype=int)
        self._where[pgs] = np.arange(len(pgs))

    def mask(self, pg_list) -> np.ndarray:
        """A player-game list of the whole file as a (game, seat) mask over the pairs."""
        m = np.zeros(len(self.pgs), dtype=bool)
        at = self._where[np.asarray(pg_list, dtype=int)]
        m[at[at >= 0]] = True
        return m.reshape(-1, self.p)

    def part(self, entry: str) -> np.ndarray:
        """A scoring entry's points as a (game, seat) array over the pairs; nan where the
        player-game has no points from it."""
        out = np.full(len(self.pgs), np.nan)
        column = self.res.parts.get(entry)
        if column is not None:
            pgs, values = column
            at = self._where[np.asarray(pgs, dtype=int)]
            keep = at >= 0
            out[at[keep]] = np.asarray(values, dtype=float)[keep]
        return out.reshape(-1, self.p)

    def numbers(self, path) -> np.ndarray:
        out = np.full(len(self.pgs), np.nan)
        for pg, value in self.res.numbers.get(path, {}).items():
            if self._where[pg] >= 0:
                out[self._where[pg]] = value
        return out.reshape(-1, self.p)


def build(base, mod, pairs, names, confidence: float = 0.95, top: int = 15) -> Comparison:
    cmp = Comparison(notes=list(names.notes), pairs=len(pairs))
    if len(pairs) < 2:
        cmp.notes.append("fewer than two games finished on both sides; nothing to compare")
        return cmp
    b = _Side(base, [g for g, _ in pairs])
    m = _Side(mod, [g for _, g in pairs])
    _wins(cmp, b, m, confidence)
    _scores(cmp, b, m, names, confidence)
    _lengths(cmp, b, m, names, confidence)
    for kind in ("played", "gained", "actions", "card_actions"):
        _items(cmp, b, m, names, kind, confidence, top)
    _features(cmp, b, m, names, confidence)
    correct(cmp.tables, cmp.tests, 1 - confidence)
    grouped: dict = {}  # (kind, fewer) -> names played less (more) often only by length
    for tests, say in cmp._said:
        if not any(t.significant for t in tests):
            continue
        why = _only_by_length(cmp, tests)
        if why is not None:
            grouped.setdefault(why[:3], []).append(why[3])
            continue
        cmp.verdicts.append(say())
    for (kind, fewer, how), items in grouped.items():
        cmp.verdicts.append(_length_line(kind, fewer, how, items, names.rounds()))
    quiet = sum(1 for t in cmp.tests if t.p is not None and not t.significant)
    if cmp.verdicts:
        cmp.verdicts.append(f"No significant change in the other {quiet} measures.")
    else:
        cmp.verdicts.append(f"No significant change in {quiet} measures.")
    cmp.notes.append(confidence_note(confidence).replace("this report", "this comparison"))
    _plots(cmp, b, m, names, confidence)
    return cmp


def length_explains(use, per_round, rounds) -> str | None:
    """Whether game length alone explains a change of how often something is played: the
    games got shorter (longer) and it is played less (more) often per game, while per
    round it is played as often ("unchanged": the interval of the per-round change holds
    0) or more (less) often ("against": the whole interval on the other side); else
    None, when the rate per round moved the same way as the rate per game (the thing
    itself is played less, or more)."""
    if use is None or per_round is None or rounds is None or use.value == 0:
        return None
    if (use.value > 0) != (rounds.value > 0):
        return None
    if per_round.low <= 0 <= per_round.high:
        return "unchanged"
    if (per_round.value > 0) != (use.value > 0):
        return "against"
    return None


def _only_by_length(cmp, tests):
    """(kind, fewer, how, name) when the significant change ``tests`` say is a card's use
    that game length alone explains (and its players' win rate did not change); else
    None. The length counts only when its own change is significant."""
    if cmp._rounds is None or not cmp._rounds[0].significant:
        return None
    entry = cmp._by_length.get(id(tests[0]))
    if entry is None:
        return None
    kind, name, use, per_round, win_test = entry
    if not tests[0].significant or win_test.significant:
        return None
    how = length_explains(use, per_round, cmp._rounds[1])
    return None if how is None else (kind, use.value < 0, how, name)


_SHOWN_NAMES = 12  # names a grouped verdict lists; the rest are counted


def _length_line(kind, fewer: bool, how: str, items: list, rounds: str) -> str:
    """One verdict for every item whose use changed only because games are shorter
    (longer)."""
    what = {"played": "cards", "gained": "cards", "actions": "actions",
            "card_actions": "card actions"}.get(kind, "items")
    verb = _VERB.get(kind, "had")
    shown = ", ".join(items[:_SHOWN_NAMES])
    if len(items) > _SHOWN_NAMES:
        shown += f" and {len(items) - _SHOWN_NAMES} more"
    one = len(items) == 1
    round_ = rounds[:-1].lower()
    if how == "unchanged":
        tail = f"{'its' if one else 'their'} rate per {round_} is unchanged"
    else:
        tail = (f"per {round_} {'it is' if one else 'they are'} {verb} "
                f"{'more' if fewer else 'less'} often")
    return (f"{len(items)} {what[:-1] if one else what} {verb} "
            f"{'less' if fewer else 'more'} often only because games are "
            f"{'shorter' if fewer else 'longer'}: {tail} ({shown})")


def _measure(cmp, table, label, before: str, after: str, d, say, scale=1.0, unit="",
             first=(), more=()) -> Test:
    """A row of ``table`` and its test; ``first`` cells go after the label, ``more`` at
    the end."""
    test = Test(d.p if d is not None else None)
    cmp.tests.append(test)
    table.rows.append([label, *first, before, after, diff_cell(d, scale, unit=unit), test,
                       *more])
    if d is not None:
        cmp._said.append(((test,), lambda: say(d)))
    return test


def _columns(first: str) -> list[str]:
    return [first, "Base", "With the mods", "Change", ""]


def _more(x: float, more="more", less="less") -> str:
    return more if x > 0 else less


# ------------------------------------------------------------------ sections
def _wins(cmp, b, m, confidence) -> None:
    solo = b.p == 1
    t = Table("Win rate", _columns(""))
    rates = []
    for seat in range(b.p):
        d = stats.paired(m.won[:, seat], b.won[:, seat], confidence)
        label = "Solo win rate" if solo else f"Seat {seat + 1}"
        who = "The solo player" if solo else f"Seat {seat + 1}"
        _measure(cmp, t, label, pct(b.won[:, seat].mean()), pct(m.won[:, seat].mean()), d,
                 lambda d, who=who: f"{who} wins {abs(100 * d.value):.1f} points "
                                    f"{_more(d.value)} often (± {100 * d.half_width:.1f})",
                 100, " points")
        rates.append((label, d))
    kinds = sorted(set(b.agent.ravel()) | set(m.agent.ravel()))
    if len(kinds) > 1:
        for kind in kinds:
            share_b = _share(b.won, b.agent == kind)
            share_m = _share(m.won, m.agent == kind)
            d = stats.paired(share_m, share_b, confidence)
            _measure(cmp, t, f"Agent {kind}", pct(np.nanmean(share_b)),
                     pct(np.nanmean(share_m)), d,
                     lambda d, kind=kind: f"{kind} players win {abs(100 * d.value):.1f} points "
                                          f"{_more(d.value)} often "
                                          f"(± {100 * d.half_width:.1f})", 100, " points")
            rates.append((f"Agent {kind}", d))
    t.plots = ["changes"]
    cmp.tables.append(t)
    cmp.plots["_win_changes"] = rates


def _share(won, mask) -> np.ndarray:
    """Per game, the share of the seats in ``mask`` that won (nan when none is)."""
    count = mask.sum(axis=1).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, (won & mask).sum(axis=1) / count, np.nan)


def _scores(cmp, b, m, names, confidence) -> None:
    t = Table("Scores", _columns(""))
    sb, sm = b.score.mean(axis=1), m.score.mean(axis=1)
    _measure(cmp, t, "Mean score", num(sb.mean()), num(sm.mean()),
             stats.paired(sm, sb, confidence),
             lambda d: f"Mean score {abs(d.value):.1f} {_more(d.value, 'higher', 'lower')} "
                       f"(± {d.half_width:.1f}), from {num(sb.mean())} to {num(sm.mean())}")
    for entry in sorted(set(b.res.parts) | set(m.res.parts)):
        pb, pm = _nanmean_rows(b.part(entry)), _nanmean_rows(m.part(entry))
        name = names.entry(entry)
        _measure(cmp, t, name, num(np.nanmean(pb)) if np.isfinite(pb).any() else "–",
                 num(np.nanmean(pm)) if np.isfinite(pm).any() else "–",
                 stats.paired(pm, pb, confidence),
                 lambda d, name=name, pb=pb, pm=pm:
                 f"{name}: {abs(d.value):.1f} points {_more(d.value, 'more', 'fewer')} per "
                 f"player (± {d.half_width:.1f}), from {num(np.nanmean(pb))} to "
                 f"{num(np.nanmean(pm))}")
    t.note = "Per player, averaged over the seats of each game."
    t.plots = ["scores_by_seat"]
    cmp.tables.append(t)


def _nanmean_rows(x) -> np.ndarray:
    count = np.isfinite(x).sum(axis=1)
    total = np.where(np.isfinite(x), x, 0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / count, np.nan)


def _lengths(cmp, b, m, names, confidence) -> None:
    t = Table("Game length", _columns(""))
    rounds = names.rounds()
    for label, xb, xm, say in (
            (rounds, b.rounds, m.rounds,
             lambda d: f"Games are {abs(d.value):.1f} {rounds.lower()} "
                       f"{_more(d.value, 'longer', 'shorter')} (± {d.half_width:.1f})"),
            ("Decisions", b.decisions, m.decisions,
             lambda d: f"Games take {abs(d.value):.1f} {_more(d.value, 'more', 'fewer')} "
                       f"decisions (± {d.half_width:.1f})")):
        if not (np.isfinite(xb).any() and np.isfinite(xm).any()):
            continue
        d = stats.paired(xm, xb, confidence)
        test = _measure(cmp, t, label, num(np.nanmean(xb)), num(np.nanmean(xm)), d, say)
        if xb is b.rounds:
            cmp._rounds = (test, d)
    if t.rows:
        t.plots = ["lengths"]
        cmp.tables.append(t)


def _per_round(share, rounds) -> np.ndarray:
    """Per game, the share of players that had an item divided by the game's rounds (nan
    where the game has no rounds): the rate that does not change when only the length does."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(np.isfinite(rounds) & (rounds > 0), share / rounds, np.nan)


def _items(cmp, b, m, names, kind, confidence, top) -> None:
    keys = sorted({i for k, i in b.res.items if k == kind} |
                  {i for k, i in m.res.items if k == kind})
    if not keys:
        return
    title, label, _ = ITEM_TITLES[kind]
    verb = _VERB[kind]
    rounds = names.rounds()
    rows = []
    for ident in keys:
        mb = b.mask(b.res.items.get((kind, ident), ()))
        mm = m.mask(m.res.items.get((kind, ident), ()))
        share_b, share_m = mb.mean(axis=1), mm.mean(axis=1)
        use = stats.paired(share_m, share_b, confidence)
        rb_round, rm_round = _per_round(share_b, b.rounds), _per_round(share_m, m.rounds)
        per_round = stats.paired(rm_round, rb_round, confidence)
        kb, nb = int((b.won & mb).sum()), int(mb.sum())
        km, nm = int((m.won & mm).sum()), int(mm.sum())
        win = stats.two_rates(km, nm, kb, nb, confidence)
        rows.append((names.item(kind, ident), share_b.mean(), share_m.mean(), use,
                     (kb, nb), (km, nm), win,
                     (_nanmean(rb_round), _nanmean(rm_round), per_round)))
    # the largest change first; a card fewer players had (both sides together) than the
    # run's minimum count after every other: its players' win rate swings from 0% to 100%
    least = min_count(2 * b.pgs.size)
    rows.sort(key=lambda r: (r[4][1] + r[5][1] < least,
                             -max(abs(r[3].value) if r[3] else 0,
                                  abs(r[6].value) if r[6] else 0), r[0]))
    t = Table(f"{title}: share of players, and their win rate",
              [label, "Player-games", "Base", "With the mods", "Change", "",
               f"Per {rounds[:-1].lower()}: base", f"Per {rounds[:-1].lower()}: with the mods",
               f"Per {rounds[:-1].lower()}: change"],
              sizes=[], top=2 * top, size_column=1, page_rows=2 * PAGE_ROWS,
              least=least)
    for name, rb, rm, use, (kb, nb), (km, nm), win, (pb, pm, per_round) in rows:

        def say_use(d, name=name, rb=rb, rm=rm):
            if rb > 0:
                rel = 100 * (rm - rb) / rb
                head = f"{name} {verb} {abs(rel):.0f}% {_more(rel)} often"
            else:
                head = f"{name}, never {verb} before, now {verb}"
            return (f"{head} (by {pct(rb)} of players before, {pct(rm)} with the mods; "
                    f"{signed(100 * d.value)} points ± {100 * d.half_width:.1f})")
        count = f"{nb} / {nm}"
        ut = _measure(cmp, t, about_card(name, f"{name}: {verb} by"), pct(rb), pct(rm), use,
                      say_use, 100, " points",
                      first=[count],
                      more=[pct(pb, 2), pct(pm, 2), diff_cell(per_round, 100, 2, " points")])
        wt = _measure(cmp, t, about_card(name, f"{name}: its players' win rate"),
                      pct(kb / nb) if nb else "–", pct(km / nm) if nm else "–", win,
                      lambda d, name=name: f"{name}: its players' win rate "
                                           f"{signed(100 * d.value)} points "
                                           f"± {100 * d.half_width:.1f}", 100, " points",
                      first=[count], more=["", "", ""])
        t.sizes += [nb + nm, nb + nm]
        if use is not None:
            cmp._by_length[id(ut)] = (kind, name, use, per_round, wt)
        _merge_card_sentences(cmp, ut, wt)
    rare = sum(1 for r in rows if r[4][1] + r[5][1] < least)
    t.note = ("Player-games: how many players had it, base / with the mods. Per "
              f"{rounds[:-1].lower()}: the share of players divided by the game's "
              f"{rounds.lower()}, which a change of game length alone leaves as it is. Sorted "
              "by the size of the change" +
              (f", the {rare} cards fewer than {least} players had last" if rare else "")
              + ".")
    if len(rows) > top:
        t.top_note = f"The first {top} of {len(rows)} are shown (--top); every one is tested."
    cmp.tables.append(t)


def _nanmean(x) -> float | None:
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    return float(x.mean()) if len(x) else None


def _merge_card_sentences(cmp, use_test, win_test) -> None:
    """When both of a card's measures changed, say it in one sentence, as people would."""
    mine = [i for i, (tests, _) in enumerate(cmp._said) if tests[0] in (use_test, win_test)]
    if len(mine) != 2:
        return
    (_, say_use), (_, say_win) = cmp._said[mine[0]], cmp._said[mine[1]]

    def both():
        if use_test.significant and win_test.significant:
            return say_use() + "; its players' win rate " + say_win().split(
                "its players' win rate ", 1)[1]
        return say_use() if use_test.significant else say_win()
    del cmp._said[mine[0]:]
    cmp._said.append(((use_test, win_test), both))


def _features(cmp, b, m, names, confidence) -> None:
    paths = sorted(set(b.res.categories) | set(m.res.categories))
    tables = []
    for path in paths:
        feature = names.feature(path)
        t = Table(f"Win rate by {feature}", _columns("Value"), sizes=[])
        values = sorted(set(b.res.categories.get(path, {})) | set(m.res.categories.get(path, {})))
        for value in values:
            mb = b.mask(b.res.categories.get(path, {}).get(value, ()))
            mm = m.mask(m.res.categories.get(path, {}).get(value, ()))
            kb, nb, km, nm = (int((b.won & mb).sum()), int(mb.sum()),
                              int((m.won & mm).sum()), int(mm.sum()))
            shown = names.value(value)
            _measure(cmp, t, shown, pct(kb / nb) if nb else "–", pct(km / nm) if nm else "–",
                     stats.two_rates(km, nm, kb, nb, confidence),
                     lambda d, shown=shown, feature=feature:
                     f"Players with {shown} as {feature} win {abs(100 * d.value):.1f} points "
                     f"{_more(d.value)} often (± {100 * d.half_width:.1f})", 100, " points")
            t.sizes.append(nb + nm)
        tables.append((sum(t.sizes), t))
    cmp.tables.extend(largest(tables))
    if len(tables) > MAX_TABLES:
        cmp.notes.append(f"The win rate by value of {len(tables) - MAX_TABLES:,} more features "
                         f"is not shown: a comparison shows it for the {MAX_TABLES} features "
                         "with the most player-games (every value is tested all the same).")
    paths = sorted(set(b.res.numbers) | set(m.res.numbers))
    if paths:
        t = Table("Numeric features", _columns("Feature"))
        for path in paths:
            xb, xm = _nanmean_rows(b.numbers(path)), _nanmean_rows(m.numbers(path))
            feature = names.feature(path)
            _measure(cmp, t, feature, num(np.nanmean(xb)) if np.isfinite(xb).any() else "–",
                     num(np.nanmean(xm)) if np.isfinite(xm).any() else "–",
                     stats.paired(xm, xb, confidence),
                     lambda d, feature=feature:
                     f"{feature}: {abs(d.value):.1f} {_more(d.value, 'higher', 'lower')} on "
                     f"average (± {d.half_width:.1f})")
        cmp.tables.append(t)


def _plots(cmp, b, m, names, confidence) -> None:
    cmp.plots["scores_by_seat"] = [(f"Seat {s + 1}, {side}", x.score[:, s])
                                   for s in range(b.p)
                                   for side, x in (("base", b), ("with the mods", m))]
    lengths = []
    for label, xb, xm in ((names.rounds(), b.rounds, m.rounds),
                          ("Decisions", b.decisions, m.decisions)):
        xb, xm = xb[np.isfinite(xb)], xm[np.isfinite(xm)]
        if len(xb) and len(xm):
            lengths.append((label, {"base": xb, "with the mods": xm}))
    cmp.plots["lengths"] = lengths
    changes = [(label, d) for label, d in cmp.plots.pop("_win_changes") if d is not None]
    cmp.plots["changes"] = ("Change in win rate", changes)
