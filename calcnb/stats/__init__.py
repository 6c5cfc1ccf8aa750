"""The statistics every measurement shares: the Wilson interval of a win rate, percentiles, a median's interval.

One home for them, below the players and the studies, so the coach's chances, a study's win rate
and the folklore's verdicts are all judged by the same arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from calcnb.game.errors import quote
from calcnb.i18n import add_words, message

add_words(__name__)  # the words of this package, in its lang/ folder

__all__ = ["Z_95", "WinRate", "median_interval", "percentile", "wilson_interval"]

Z_95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval


def percentile(values: Iterable[float], share: float) -> float:
    """The ``share`` quantile of ``values`` by nearest rank: the value ``share`` of the way up the sorted
    list (the median at 0.5 is the upper one of an even count); NaN when there are no values.

    The benchmarks and the stored study of the players take their percentiles with this one rule.
    """
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) when there are no trials.

    Unlike the textbook ``p ± z·sqrt(p(1-p)/n)``, it stays inside [0, 1] and behaves at
    0 or n successes, which matters for players that almost never win.
    """
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(message("study.bad_successes", trials=trials, successes=quote(successes)))
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # at 0 or n successes the bound is exactly 0 or 1; rounding would leave a speck
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def median_interval(values: Iterable[float], confidence: float = 0.95) -> tuple[float, float]:
    """A distribution-free interval for the median of what ``values`` were drawn from (95% by default).

    Each value falls below the true median with chance one half, so the number below it is
    Binomial(n, 1/2): the interval runs from the ``k``-th smallest value to the ``k``-th largest, with
    ``k`` the largest rank that keeps the chance of missing on either side within ``(1 - confidence) / 2``.
    It assumes nothing about the values' shape (thinking times are far from normal). With too few values
    for that confidence (five or fewer at 95%) no such ``k`` exists: (-inf, inf), since nothing is ruled out.
    """
    ordered = sorted(values)
    n = len(ordered)
    tail = (1 - confidence) / 2
    below = 0.0  # the chance that at most k - 1 values fall below the median
    k = 0
    while k < n // 2:
        below += math.comb(n, k) / 2**n
        if below > tail:
            break
        k += 1
    if k == 0:
        return -math.inf, math.inf
    return ordered[k - 1], ordered[n - k]


class WinRate:
    """A share of games won, for any record with ``wins`` and ``games``: the rate and its Wilson 95% interval."""

    wins: int
    games: int

    @property
    def win_rate(self) -> float:
        """Share of games won (0 with no games; a deal not decided counts as not won)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the win rate."""
        return wilson_interval(self.wins, self.games)
