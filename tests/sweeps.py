"""Sweeps in two sizes: a representative sample in the fast tier, the whole sweep in the slow tier.

A test that loops over many cases takes ``size`` from :data:`SIZES` (``@pytest.mark.parametrize("size", SIZES)``)
and loops over ``sample(cases, size)``: its ``[sample]`` case runs in the fast tier, its ``[whole]`` case, every
case, is marked slow (the README's test command and CI run both).

A property (Hypothesis) tries :func:`examples` cases: all of them in a whole run, a third in the fast tier
(``-m "not slow"``), whose profile also takes a third of Hypothesis's default for the properties that name no count.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

import pytest

Case = TypeVar("Case")

SIZES = ("sample", pytest.param("whole", marks=pytest.mark.slow))
"""The two sizes of a sweep, for ``@pytest.mark.parametrize("size", SIZES)``."""

FAST_TIER_SHARE = 3  # the fast tier tries one example of a property in this many
_fast_tier = False  # set by tests/conftest.py (use_fast_tier) before any test module is imported


def use_fast_tier(config: pytest.Config) -> None:
    """Size the properties for this run: the fast tier when its marker expression leaves the slow tests out."""
    global _fast_tier
    _fast_tier = "not slow" in (config.getoption("markexpr", "") or "")
    if _fast_tier:
        from hypothesis import settings

        default = settings.default.max_examples
        settings.register_profile("fast-tier", max_examples=max(10, default // FAST_TIER_SHARE))
        settings.load_profile("fast-tier")


def examples(count: int) -> int:
    """Hypothesis's ``max_examples`` for a property that tries ``count`` in a whole run (a third in the fast tier)."""
    return max(10, count // FAST_TIER_SHARE) if _fast_tier else count


def sample(cases: Iterable[Case], size: str, most: int = 40) -> list[Case]:
    """Every case (``size == "whole"``), or at most ``most`` of them spread evenly, the first and last included."""
    cases = list(cases)
    if size == "whole" or len(cases) <= most:
        return cases
    if most == 1:
        return cases[:1]
    step = (len(cases) - 1) / (most - 1)
    return [cases[round(index * step)] for index in range(most)]


def sample_of_each(cases: Iterable[Case], group: Callable[[Case], Hashable], size: str, most: int) -> list[Case]:
    """Every case, or at most ``most`` of each group (spread evenly within it): every group is represented."""
    groups: dict[Hashable, list[Case]] = {}
    for case in cases:
        groups.setdefault(group(case), []).append(case)
    return [case for members in groups.values() for case in sample(members, size, most)]
