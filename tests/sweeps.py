"""Sweeps in two sizes: a representative sample in the fast tier, the whole sweep in the slow tier.

A test that loops over many cases takes ``size`` from :data:`SIZES` (``@pytest.mark.parametrize("size", SIZES)``)
and loops over ``sample(cases, size)``: its ``[sample]`` case runs in the fast tier, its ``[whole]`` case, every
case, is marked slow (the README's test command and CI run both).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

import pytest

Case = TypeVar("Case")

SIZES = ("sample", pytest.param("whole", marks=pytest.mark.slow))
"""The two sizes of a sweep, for ``@pytest.mark.parametrize("size", SIZES)``."""


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
