"""The statistics of the balance lab, every one of them computed by scipy.

Each function takes counts or samples and a confidence level and returns an
:class:`Estimate` (a value and its interval) or a :class:`Difference` (a
difference, its interval and the p-value of the test that it is zero):

- a rate gets the Wilson score interval (``binomtest(...).proportion_ci``);
- a mean gets the t interval (``ttest_1samp(...).confidence_interval``);
- two independent rates are tested with Fisher's exact test; the interval of
  their difference is Newcombe's hybrid score interval, which scipy does not
  offer as such, so it is assembled from scipy's two Wilson intervals
  (Newcombe 1998, method 10);
- two independent means are compared with Welch's t test
  (``ttest_ind_from_stats``; its interval is the t quantile of scipy at the
  Welch–Satterthwaite degrees of freedom, the interval
  ``ttest_ind(..., equal_var=False).confidence_interval`` gives, worked out
  from the groups' moments because that is a hundred times faster), and
  paired samples (the same seeds with and without mods) with the paired t
  test and its interval;
- the p-values of a whole report are adjusted together with the
  Benjamini–Hochberg procedure (``false_discovery_control``).

A sample with no spread (every difference zero, say) has no t statistic;
it is reported as its exact value with p = 1 when that value is zero and
p = 0 otherwise, instead of scipy's ``nan``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
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
    ci = sps.ttest_1samp(x, 0.0).confidence_interval(confidence_level=confidence)
    return Estimate(m, float(ci.low), float(ci.high), len(x))


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
    m1, m2 = float(np.mean(a)), float(np.mean(b))
    v1, v2 = float(np.var(a, ddof=1)), float(np.var(b, ddof=1))
    d = m1 - m2
    if v1 == 0 and v2 == 0:
        return _exact(d)
    n1, n2 = len(a), len(b)
    p = sps.ttest_ind_from_stats(m1, math.sqrt(v1), n1, m2, math.sqrt(v2), n2,
                                 equal_var=False).pvalue
    e1, e2 = v1 / n1, v2 / n2
    df = (e1 + e2) ** 2 / (e1 ** 2 / (n1 - 1) + e2 ** 2 / (n2 - 1))
    half = float(sps.t.ppf(0.5 + confidence / 2, df)) * math.sqrt(e1 + e2)
    return Difference(d, d - half, d + half, float(p))


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
    result = sps.ttest_rel(a, b)
    ci = result.confidence_interval(confidence_level=confidence)
    return Difference(d, float(ci.low), float(ci.high), float(result.pvalue))


def adjust(pvalues: list[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q-values), in the order given."""
    if not pvalues:
        return []
    return [float(q) for q in sps.false_discovery_control(np.asarray(pvalues, dtype=float),
                                                          method="bh")]


def _exact(d: float) -> Difference:
    return Difference(d, d, d, 1.0 if d == 0 else 0.0)


def _finite(values) -> np.ndarray:
    x = np.asarray(values, dtype=float)
    return x[np.isfinite(x)]
