"""The statistics of the balance lab, every one of them computed by scipy.

Each function takes counts or samples and a confidence level and returns an
:class:`Estimate` (a value and its interval) or a :class:`Difference` (a
difference, its interval and the p-value of the test that it is zero):

- a rate gets the Wilson score interval (``binomtest(...).proportion_ci``);
- a mean gets the t interval (the one ``ttest_1samp(...).confidence_interval``
  gives);
- two independent rates are tested with Fisher's exact test; the interval of
  their difference is Newcombe's hybrid score interval, which scipy does not
  offer as such, so it is assembled from scipy's two Wilson intervals
  (Newcombe 1998, method 10);
- two independent means are compared with Welch's t test
  (``ttest_ind_from_stats``; its interval is the t quantile of scipy at the
  Welch–Satterthwaite degrees of freedom, the interval
  ``ttest_ind(..., equal_var=False).confidence_interval`` gives), and
  paired samples (the same seeds with and without mods) with the paired t
  test and its interval (``ttest_rel``'s);
- the p-values of a whole report are adjusted together with the
  Benjamini–Hochberg procedure (``false_discovery_control``).

The t tests and intervals are worked out from the samples' moments with
the Student t distribution's own functions in ``scipy.special`` (``stdtr``,
``stdtrit``, which ``scipy.stats.t`` calls too): the same figures as the
``scipy.stats`` tests, a hundred times faster. A report makes a test for
every card, feature and scoring entry a results file names, so the cost of
one is what a large file costs.

A sample with no spread (every difference zero, say) has no t statistic;
it is reported as its exact value with p = 1 when that value is zero and
p = 0 otherwise, instead of scipy's ``nan``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import special
from scipy import stats as sps


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float
    n: int = 0


@dataclass(frozen=True)
class Difference:
    value: float
    low: float
    high: float
    p: float | None  # None: too few observations for a test

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


@functools.lru_cache(maxsize=65536)
def rate(k: int, n: int, confidence: float) -> Estimate | None:
    """``k`` successes in ``n`` trials, with the Wilson score interval."""
    if n <= 0:
        return None
    # The interval does not depend on the tested rate; testing k/n itself
    # spares binomtest the search for a two-sided p-value nobody reads.
    ci = sps.binomtest(int(k), int(n), k / n).proportion_ci(confidence_level=confidence,
                                                            method="wilson")
    return Estimate(k / n, float(ci.low), float(ci.high), n)


def rate_test(k: int, n: int, expected: float) -> float | None:
    """The two-sided exact binomial test that the true rate is ``expected``."""
    if n <= 0:
        return None
    return float(sps.binomtest(int(k), int(n), expected).pvalue)


def mean(values, confidence: float) -> Estimate | None:
    """The mean of a sample, with the t interval (exact when every value is the same)."""
    x = _finite(values)
    if len(x) == 0:
        return None
    m = float(np.mean(x))
    if len(x) < 2 or np.all(x == x[0]):
        return Estimate(m, m, m, len(x))
    half = _t_quantile(confidence, len(x) - 1) * math.sqrt(float(np.var(x, ddof=1)) / len(x))
    return Estimate(m, m - half, m + half, len(x))


def two_rates(k1: int, n1: int, k2: int, n2: int, confidence: float) -> Difference | None:
    """Rate 1 minus rate 2 of two independent groups: Fisher's exact test and
    Newcombe's hybrid score interval (from scipy's Wilson intervals of each)."""
    if n1 <= 0 or n2 <= 0:
        return None
    a, b = rate(k1, n1, confidence), rate(k2, n2, confidence)
    d = a.value - b.value
    low = d - math.sqrt((a.value - a.low) ** 2 + (b.high - b.value) ** 2)
    high = d + math.sqrt((a.high - a.value) ** 2 + (b.value - b.low) ** 2)
    p = float(sps.fisher_exact([[k1, n1 - k1], [k2, n2 - k2]]).pvalue)
    return Difference(d, low, high, p)


def two_means(x1, x2, confidence: float) -> Difference | None:
    """Mean 1 minus mean 2 of two independent samples: Welch's t test and interval."""
    a, b = _finite(x1), _finite(x2)
    if len(a) < 2 or len(b) < 2:
        return None
    return _welch(float(np.mean(a)), float(np.var(a, ddof=1)), len(a),
                  float(np.mean(b)), float(np.var(b, ddof=1)), len(b), confidence)


class Split:
    """A sample whose parts are each compared with the rest of it, in time linear in the part.

    :meth:`part_against_rest` gives what ``two_means(x[part], x[rest])``
    gives, without going over the rest, so comparing thousands of parts (the
    players who played each card against those who did not) costs what the
    parts hold, not thousands of times the sample. The rest's mean and
    variance come from the whole's sums less the part's (taken about the
    whole's mean, so large values lose no precision), and whether the rest
    has any spread at all (the exact case of :func:`two_means`) from the
    whole's distinct values and the part's. The values must be finite.
    """

    def __init__(self, values):
        x = np.asarray(values, dtype=float)
        self.x, self.n = x, len(x)
        self.centre = float(np.mean(x)) if len(x) else 0.0
        self.dev = x - self.centre
        self.sum, self.squares = float(self.dev.sum()), float(self.dev @ self.dev)
        self.values, self.counts = np.unique(x, return_counts=True)

    def part_against_rest(self, part, confidence: float) -> Difference | None:
        """Mean of the part (positions in the sample, each once) minus mean of the rest."""
        idx = np.asarray(part, dtype=int)
        n1, n2 = len(idx), self.n - len(idx)
        if n1 < 2 or n2 < 2:
            return None
        x = self.x[idx]
        if x.min() == x.max():  # a part or a rest with no spread has its exact mean
            m1, v1 = float(x[0]), 0.0
        else:
            m1, v1 = float(np.mean(x)), float(np.var(x, ddof=1))
        low, high = self._rest_range(x)
        if low == high:
            m2, v2 = float(low), 0.0
        else:
            dev = self.dev[idx]
            s2 = self.sum - float(dev.sum())
            m2 = self.centre + s2 / n2
            v2 = max(0.0, (self.squares - float(dev @ dev) - s2 * s2 / n2) / (n2 - 1))
        return _welch(m1, v1, n1, m2, v2, n2, confidence)

    def _rest_range(self, x) -> tuple[float, float]:
        """The least and the greatest value of the rest, from the part's values ``x``."""
        values, counts = np.unique(x, return_counts=True)
        at = np.searchsorted(self.values, values)
        whole = at[counts == self.counts[at]]  # the values the part holds every one of
        last = len(self.values) - 1
        return (self.values[_first_missing(whole)],
                self.values[last - _first_missing((last - whole)[::-1])])


def _first_missing(taken) -> int:
    """The least of 0, 1, 2, … that the increasing array ``taken`` does not hold."""
    gaps = np.flatnonzero(taken != np.arange(len(taken)))
    return int(gaps[0]) if len(gaps) else len(taken)


def _welch(m1: float, v1: float, n1: int, m2: float, v2: float, n2: int,
           confidence: float) -> Difference:
    """Welch's t test and interval from two samples' means, variances and sizes."""
    d = m1 - m2
    if v1 == 0 and v2 == 0:
        return _exact(d)
    e1, e2 = v1 / n1, v2 / n2
    df = (e1 + e2) ** 2 / (e1 ** 2 / (n1 - 1) + e2 ** 2 / (n2 - 1))
    se = math.sqrt(e1 + e2)
    half = _t_quantile(confidence, df) * se
    return Difference(d, d - half, d + half, _t_p(d / se, df))


def paired(after, before, confidence: float) -> Difference | None:
    """The mean of ``after - before`` over pairs: the paired t test and interval.

    Pairs where either value is missing (nan) are left out.
    """
    a, b = np.asarray(after, dtype=float), np.asarray(before, dtype=float)
    keep = np.isfinite(a) & np.isfinite(b)
    a, b = a[keep], b[keep]
    if len(a) < 2:
        return None
    diff = a - b
    d = float(np.mean(diff))
    if np.all(diff == diff[0]):
        return _exact(d)
    se = math.sqrt(float(np.var(diff, ddof=1)) / len(diff))
    half = _t_quantile(confidence, len(diff) - 1) * se
    return Difference(d, d - half, d + half, _t_p(d / se, len(diff) - 1))


def adjust(pvalues: list[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q-values), in the order given."""
    if not pvalues:
        return []
    return [float(q) for q in sps.false_discovery_control(np.asarray(pvalues, dtype=float),
                                                          method="bh")]


def _t_quantile(confidence: float, df: float) -> float:
    """The Student t quantile a two-sided interval at ``confidence`` uses (``t.ppf``)."""
    return float(special.stdtrit(df, 0.5 + confidence / 2))


def _t_p(t: float, df: float) -> float:
    """The two-sided p-value of a t statistic (``2 * t.sf(|t|)``)."""
    return float(2 * special.stdtr(df, -abs(t)))


def _exact(d: float) -> Difference:
    return Difference(d, d, d, 1.0 if d == 0 else 0.0)


def _finite(values) -> np.ndarray:
    x = np.asarray(values, dtype=float)
    return x[np.isfinite(x)]
