"""The rules core: every fixed fact of Calculation (ordinary profile), in one place.

Everything else in calcnb (engine, strategies, solver, relaxed game, board,
lessons) takes the game's facts from here; none keeps a table of its own.
Standard library only, no other calcnb import: this is the bottom layer.

Each name below documents itself; ``docs/design.md`` lists them all in one table.

Because 13 is prime, foundation k's order ``k, 2k, ..., 13k`` (mod 13, 0 read
as K) visits every rank exactly once and ends in K, and rank r sits at position
``r * k⁻¹ (mod 13)``. :func:`order_of`, :func:`orders` and :func:`positions`
build the same tables for other numbers of ranks and foundations (small games
for tests, and the lessons on why 12 or 16 ranks break the game).

>>> ORDERS[1]  # foundation 2: 2 4 6 8 10 Q A 3 5 7 9 J K
(2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11, 13)
>>> NEXT[1][12], POSITION[1][1]  # after Q comes A (12 + 2 = 14 wraps), the 7th card
(1, 7)
>>> NEED_BY_COUNT[0][13] == NO_RANK and is_complete(13)
True
>>> MoveId.W2_F3, MoveId.W2_F3.text, MoveId.W2_F3.waste_index, MoveId.W2_F3.foundation_index
(<MoveId.W2_F3: 15>, 'W2>F3', 1, 2)
"""

from __future__ import annotations

from enum import IntEnum
from functools import cache

from calcnb.core.enums import TextEnum

__all__ = [
    "COMPLETE",
    "DECK_SIZE",
    "FOUNDATIONS",
    "FOUNDATION_OF",
    "KIND_OF",
    "NEED_BY_COUNT",
    "NEXT",
    "NO_RANK",
    "ORDERS",
    "POSITION",
    "RANK_COUNT",
    "RANK_RANGE",
    "STARTER_RANKS",
    "STEPS",
    "STOCK_SIZE",
    "STOCK_TO_FOUNDATION_IDS",
    "STOCK_TO_WASTE_IDS",
    "UNKNOWN",
    "WASTES",
    "WASTE_OF",
    "WASTE_TO_FOUNDATION_IDS",
    "WIN_SCORE",
    "MoveId",
    "MoveKind",
    "Status",
    "is_complete",
    "order_of",
    "orders",
    "positions",
    "step_after",
]

# ---------------------------------------------------------------- sizes

RANK_COUNT = 13
RANK_RANGE = range(1, RANK_COUNT + 1)
FOUNDATIONS = 4
WASTES = 4
STEPS = (1, 2, 3, 4)
STARTER_RANKS = (1, 2, 3, 4)
DECK_SIZE = 52
STOCK_SIZE = DECK_SIZE - len(STARTER_RANKS)
WIN_SCORE = DECK_SIZE
COMPLETE = RANK_COUNT
NO_RANK = 0
"""The rank a complete foundation "needs": no card has it, so a lookup with it finds nothing."""


# ---------------------------------------------------------------- the arithmetic


def step_after(top: int, step: int, ranks: int = RANK_COUNT) -> int:
    """The rank after ``top`` on a foundation of ``step``: ``(top + step - 1) % ranks + 1`` (wraps past K).

    >>> step_after(12, 2)
    1
    """
    return (top + step - 1) % ranks + 1


def order_of(step: int, ranks: int = RANK_COUNT) -> tuple[int, ...]:
    """The ranks of the foundation of ``step``, bottom first: ``step, 2*step, ...`` (mod ``ranks``, 0 read as K).

    The order stops where it would return to its start; with a prime number of ranks
    (13) that is after every rank, ending in K. With 12 or 16 ranks a step sharing a
    factor with the number of ranks stops early, before every rank is visited.

    >>> order_of(3)
    (3, 6, 9, 12, 2, 5, 8, 11, 1, 4, 7, 10, 13)
    >>> order_of(2, ranks=12)
    (2, 4, 6, 8, 10, 12)
    """
    order = [(step - 1) % ranks + 1]
    while True:
        following = step_after(order[-1], step, ranks)
        if following == order[0]:
            return tuple(order)
        order.append(following)


@cache  # asked at every solver search; the tuples it returns cannot change
def orders(ranks: int = RANK_COUNT, foundations: int = FOUNDATIONS) -> tuple[tuple[int, ...], ...]:
    """Each foundation's order in a game of ``ranks`` ranks and ``foundations`` foundations (steps 1, 2, ...)."""
    return tuple(order_of(step, ranks) for step in range(1, foundations + 1))


@cache
def positions(foundation_orders: tuple[tuple[int, ...], ...], ranks: int = RANK_COUNT) -> tuple[tuple[int, ...], ...]:
    """``result[k][r]``: where rank r sits on foundation k (1-based; 0 where it never comes, and for r = 0)."""
    table = []
    for order in foundation_orders:
        where = [0] * (ranks + 1)
        for place, rank in enumerate(order, start=1):
            where[rank] = place
        table.append(tuple(where))
    return tuple(table)


def is_complete(count: int) -> bool:
    """True when a foundation holding ``count`` cards is complete (13): it accepts nothing more."""
    return count >= COMPLETE


ORDERS: tuple[tuple[int, ...], ...] = orders()
POSITION: tuple[tuple[int, ...], ...] = positions(ORDERS)
NEXT: tuple[tuple[int, ...], ...] = tuple((NO_RANK, *(step_after(top, step) for top in RANK_RANGE)) for step in STEPS)
NEED_BY_COUNT: tuple[tuple[int, ...], ...] = tuple((*order, NO_RANK) for order in ORDERS)
"""A foundation is always a start of its order, so the count it holds says what it needs, in one lookup."""


# ---------------------------------------------------------------- moves and outcomes


class MoveKind(TextEnum):
    """The four kinds of move. Equal to their text: ``MoveKind.TURN == "turn"``."""

    TURN = "turn"
    STOCK_TO_FOUNDATION = "stock_to_foundation"
    STOCK_TO_WASTE = "stock_to_waste"
    WASTE_TO_FOUNDATION = "waste_to_foundation"


class Status(TextEnum):
    """Where a game stands. Equal to their text: ``Status.WON == "won"``."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


UNKNOWN = "unknown"
"""A solver's verdict when its budget ran out before it decided a deal. Not a :class:`Status`:
a game itself is always playing, won or lost; only a search can leave it undecided."""


class MoveId(IntEnum):
    """The 25 moves as numbers, in the engine's documented order: ``T``; ``S>F1`` .. ``S>F4``;
    ``S>W1`` .. ``S>W4``; ``W1>F1``, ``W1>F2`` .. ``W4>F4`` (waste by waste, foundation by foundation).

    Fast players and the solver keep moves as these numbers; ``KIND_OF``, ``WASTE_OF`` and
    ``FOUNDATION_OF`` decode one in a lookup (pile indexes 0-based, -1 where there is none).
    """

    T = 0
    S_F1 = 1
    S_F2 = 2
    S_F3 = 3
    S_F4 = 4
    S_W1 = 5
    S_W2 = 6
    S_W3 = 7
    S_W4 = 8
    W1_F1 = 9
    W1_F2 = 10
    W1_F3 = 11
    W1_F4 = 12
    W2_F1 = 13
    W2_F2 = 14
    W2_F3 = 15
    W2_F4 = 16
    W3_F1 = 17
    W3_F2 = 18
    W3_F3 = 19
    W3_F4 = 20
    W4_F1 = 21
    W4_F2 = 22
    W4_F3 = 23
    W4_F4 = 24

    @property
    def kind(self) -> MoveKind:
        """The kind of this move."""
        return KIND_OF[self]

    @property
    def waste_index(self) -> int | None:
        """The waste pile (0-based) this move takes from or puts on, or None."""
        return None if WASTE_OF[self] < 0 else WASTE_OF[self]

    @property
    def foundation_index(self) -> int | None:
        """The foundation (0-based) this move builds on, or None."""
        return None if FOUNDATION_OF[self] < 0 else FOUNDATION_OF[self]

    @property
    def text(self) -> str:
        """The move in the engine's notation: ``T``, ``S>F2``, ``S>W3``, ``W3>F2``."""
        return self.name.replace("_", ">")


STOCK_TO_FOUNDATION_IDS: tuple[MoveId, ...] = (MoveId.S_F1, MoveId.S_F2, MoveId.S_F3, MoveId.S_F4)
"""``STOCK_TO_FOUNDATION_IDS[k]``: the pending card onto foundation k (0-based)."""
STOCK_TO_WASTE_IDS: tuple[MoveId, ...] = (MoveId.S_W1, MoveId.S_W2, MoveId.S_W3, MoveId.S_W4)
"""``STOCK_TO_WASTE_IDS[w]``: the pending card onto waste w (0-based)."""
WASTE_TO_FOUNDATION_IDS: tuple[tuple[MoveId, ...], ...] = tuple(
    tuple(MoveId(MoveId.W1_F1 + FOUNDATIONS * w + k) for k in range(FOUNDATIONS)) for w in range(WASTES)
)
"""``WASTE_TO_FOUNDATION_IDS[w][k]``: the top of waste w onto foundation k (both 0-based)."""

KIND_OF: tuple[MoveKind, ...] = (
    MoveKind.TURN,
    *(MoveKind.STOCK_TO_FOUNDATION,) * FOUNDATIONS,
    *(MoveKind.STOCK_TO_WASTE,) * WASTES,
    *(MoveKind.WASTE_TO_FOUNDATION,) * (WASTES * FOUNDATIONS),
)
WASTE_OF: tuple[int, ...] = (
    -1,
    *(-1,) * FOUNDATIONS,
    *range(WASTES),
    *(w for w in range(WASTES) for _ in range(FOUNDATIONS)),
)
FOUNDATION_OF: tuple[int, ...] = (
    -1,
    *range(FOUNDATIONS),
    *(-1,) * WASTES,
    *(k for _ in range(WASTES) for k in range(FOUNDATIONS)),
)
