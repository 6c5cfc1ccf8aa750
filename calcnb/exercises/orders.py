"""Foundation orders on a clock, computed: why 13 ranks work and 12 or 16 break the game.

Foundation ``k`` counts in steps of ``k`` around a clock of 13 ranks. Because 13
is prime, every step 1..12 visits all 13 ranks before it comes back to its
start. With 12 or 16 ranks a step that shares a factor with the number of
ranks closes early and never reaches the others: a foundation would stall.

Pure computation and its sentences, no drawing and no widgets: :func:`walk`
returns an :class:`OrderWalk` that a notebook can print;
:mod:`calcnb.ui.explorer` draws it on a clock and wraps it in a widget.

>>> w = walk(2, 12)
>>> w.visited, w.reaches_every_rank, w.closes_after
((2, 4, 6, 8, 10, 12), False, 6)
>>> broken_steps(12)
(2, 3, 4, 6, 8, 9, 10)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from calcnb.game.cards import RANK_COUNT, foundation_order, rank_name
from calcnb.i18n import message

__all__ = ["OrderWalk", "broken_steps", "clock_verdict", "rank_label", "walk"]


def rank_label(rank: int, ranks: int = RANK_COUNT) -> str:
    """How a rank is written: card names (A, 2..10, J, Q, K) for 13 ranks, plain numbers otherwise."""
    return rank_name(rank) if ranks == RANK_COUNT else str(rank)


@dataclass(frozen=True)
class OrderWalk:
    """The order of one step around a clock of ``ranks`` positions, and what it shows.

    ``visited``: the ranks in the order counted (from :func:`calcnb.game.cards.foundation_order`);
    ``reaches_every_rank``: whether every rank 1..ranks is among them;
    ``closes_after``: how many cards before the next would be the first again;
    ``missed``: the ranks never reached; ``common_factor``: gcd(step, ranks), 1 exactly
    when every rank is reached; ``inverse``: step⁻¹ mod ranks when it exists (rank r
    then sits at place r × inverse of the order), else None.
    """

    step: int
    ranks: int
    visited: tuple[int, ...]
    reaches_every_rank: bool
    closes_after: int
    missed: tuple[int, ...]
    common_factor: int
    inverse: int | None

    @property
    def first(self) -> int:
        """The rank the order starts on, and where it would come back to."""
        return self.visited[0]

    @property
    def last(self) -> int:
        """The rank the order ends on before it closes (always the top rank: K for 13)."""
        return self.visited[-1]

    def place_of(self, rank: int) -> int | None:
        """Where ``rank`` sits in the order, 1-based, or None if the order never reaches it."""
        try:
            return self.visited.index(rank) + 1
        except ValueError:
            return None

    def lines(self) -> list[str]:
        """The findings as sentences in the current language."""
        label = lambda rank: rank_label(rank, self.ranks)  # noqa: E731
        found = [message("explorer.visited", ranks=" → ".join(map(label, self.visited)))]
        if self.reaches_every_rank:
            found.append(message("explorer.every", ranks=self.ranks, count=self.closes_after))
        else:
            missed = ", ".join(map(label, self.missed))
            key = "explorer.not_every_one" if self.closes_after == 1 else "explorer.not_every"
            found.append(message(key, ranks=self.ranks, count=self.closes_after, missed=missed))
        key = "explorer.closes_one" if self.closes_after == 1 else "explorer.closes"
        found.append(message(key, count=self.closes_after, last=label(self.last), first=label(self.first)))
        if self.common_factor == 1:
            found.append(message("explorer.why_all", step=self.step, ranks=self.ranks))
        else:
            found.append(message("explorer.why_not", step=self.step, ranks=self.ranks, factor=self.common_factor))
        if self.inverse is not None:
            product = self.step * self.inverse
            found.append(
                message("explorer.position", inverse=self.inverse, ranks=self.ranks, step=self.step, product=product)
            )
        found.append(clock_verdict(self.ranks))
        return found

    def __str__(self) -> str:
        return "\n".join([message("explorer.title", step=self.step, ranks=self.ranks), *self.lines()])


def walk(step: int, ranks: int = RANK_COUNT) -> OrderWalk:
    """Count from ``step`` in steps of ``step`` around ``ranks`` positions until the count returns.

    ValueError (from :func:`~calcnb.game.cards.foundation_order`) unless step ≥ 1 and ranks ≥ 2.
    """
    visited = foundation_order(step, ranks)
    reached = set(visited)
    missed = tuple(rank for rank in range(1, ranks + 1) if rank not in reached)
    factor = math.gcd(step, ranks)
    inverse = pow(step, -1, ranks) if factor == 1 else None
    return OrderWalk(
        step=step,
        ranks=ranks,
        visited=visited,
        reaches_every_rank=not missed,
        closes_after=len(visited),
        missed=missed,
        common_factor=factor,
        inverse=inverse,
    )


def broken_steps(ranks: int) -> tuple[int, ...]:
    """The steps 1..ranks-1 whose order misses some rank (none when ``ranks`` is prime)."""
    return tuple(step for step in range(1, ranks) if math.gcd(step, ranks) != 1)


def clock_verdict(ranks: int) -> str:
    """One sentence on the whole clock: every step works (a prime) or which steps break."""
    broken = broken_steps(ranks)
    if not broken:  # the 13-rank sentence alone speaks of the game: its foundations hold 13 ranks
        key = {RANK_COUNT: "explorer.prime_13", 2: "explorer.prime_2"}.get(ranks, "explorer.prime")
        return message(key, ranks=ranks, top=ranks - 1)
    key = "explorer.broken_one" if len(broken) == 1 else "explorer.broken"
    return message(key, ranks=ranks, steps=", ".join(map(str, broken)))
