"""The lean table players think on: what a person sees, in plain lists of ranks, fast to copy and play on.

A :class:`PlayerView` is a position without the order of the face-down stock; its :meth:`~PlayerView.table`
is the same in lean form (:class:`Table`), on which every player, the blind search and the coach play
imagined games by move numbers (the rules core's ``MoveId``, which index ``ALL_MOVES``).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from calcnb.game.cards import Card
from calcnb.game.engine import ALL_MOVES, HasState, Move, State, as_state
from calcnb.game.rules import (
    FOUNDATION_OF,
    FOUNDATIONS,
    NEED_BY_COUNT,
    POSITION,
    RANK_COUNT,
    STOCK_TO_FOUNDATION_IDS,
    STOCK_TO_WASTE_IDS,
    WASTE_OF,
    WASTE_TO_FOUNDATION_IDS,
    WASTES,
    MoveId,
)
from calcnb.i18n import message

__all__ = [
    "FAR",
    "FOUNDATION_RANGE",
    "S2F_ID",
    "S2W_ID",
    "TURN_ID",
    "W2F_ID",
    "WAIT",
    "WASTE_RANGE",
    "Evaluation",
    "PlayerView",
    "Table",
    "apply_move",
    "initial_table",
]

# ---------------------------------------------------------------- lean tables

# Moves inside the lean loop are the rules core's MoveId numbers, which index ALL_MOVES
# (the engine's documented order): T, S>F1..S>F4, S>W1..S>W4, W1>F1..W4>F4.
# Plain ints, not the enum members: the loop indexes tables with them, which an int does fastest.
TURN_ID = int(MoveId.T)
S2F_ID = tuple(map(int, STOCK_TO_FOUNDATION_IDS))
S2W_ID = tuple(map(int, STOCK_TO_WASTE_IDS))
W2F_ID = tuple(tuple(map(int, row)) for row in WASTE_TO_FOUNDATION_IDS)
FOUNDATION_RANGE = range(FOUNDATIONS)
WASTE_RANGE = range(WASTES)

FAR = 99  # "not needed by any foundation" (only once every foundation is complete)
# WAIT[k][c][r]: with c cards on foundation k, how soon it needs rank r (1 = next), or FAR if it holds r already.
WAIT = tuple(
    tuple(
        tuple(POSITION[k][r] - c if POSITION[k][r] > c else FAR for r in range(RANK_COUNT + 1))
        for c in range(RANK_COUNT + 1)
    )
    for k in FOUNDATION_RANGE
)


class Table:
    """What a person sees, in lean form: no stock order, only its count and the unseen ranks.

    ``need[k]`` is the rank foundation k needs next (0 once complete), ``count[k]`` its cards;
    ``wastes`` are lists of ranks (top last); ``pending`` the turned rank (0 for none);
    ``unseen[r]`` how many cards of rank r are still face down.
    """

    __slots__ = ("count", "need", "pending", "stock_left", "unseen", "wastes")

    def __init__(
        self, need: list[int], count: list[int], wastes: list[list[int]], pending: int, stock_left: int, unseen: list
    ) -> None:
        self.need = need
        self.count = count
        self.wastes = wastes
        self.pending = pending
        self.stock_left = stock_left
        self.unseen = unseen

    def copy(self) -> Table:
        return Table(
            self.need[:],
            self.count[:],
            [pile[:] for pile in self.wastes],
            self.pending,
            self.stock_left,
            self.unseen[:],
        )

    @property
    def score(self) -> int:
        return sum(self.count)

    def legal(self) -> list[int]:
        """Legal moves as ALL_MOVES indexes, in the engine's order."""
        need = self.need
        pending = self.pending
        if pending:
            moves = [S2F_ID[k] for k in FOUNDATION_RANGE if need[k] == pending] if pending in need else []
            moves += S2W_ID
        else:
            moves = [TURN_ID] if self.stock_left else []
        for w, pile in enumerate(self.wastes):
            if pile and pile[-1] in need:
                top = pile[-1]
                moves += [W2F_ID[w][k] for k in FOUNDATION_RANGE if need[k] == top]
        return moves

    def place_on_foundation(self, k: int) -> None:
        """One more card on foundation k: it now needs the next rank of its order (none once complete)."""
        count = self.count
        count[k] += 1
        self.need[k] = NEED_BY_COUNT[k][count[k]]

    def soonness(self, rank: int) -> int:
        """How soon some foundation needs ``rank``: 1 = next, 2 = after one more card, ...; large when never."""
        c0, c1, c2, c3 = self.count
        return min(WAIT[0][c0][rank], WAIT[1][c1][rank], WAIT[2][c2][rank], WAIT[3][c3][rank])

    def soonest_foundation(self, rank: int) -> int:
        """The foundation (0-based) that needs ``rank`` soonest."""
        count = self.count
        best, where = FAR, 0
        for k in FOUNDATION_RANGE:
            distance = POSITION[k][rank] - count[k]
            if 0 < distance < best:
                best, where = distance, k
        return where


def apply_move(table: Table, move: int, stock: list[int], position: int) -> int:
    """Play ``move`` on ``table`` (the runner owns the stock); returns the new stock position."""
    if move == TURN_ID:
        rank = stock[position]
        table.pending = rank
        table.unseen[rank] -= 1
        table.stock_left -= 1
        return position + 1
    k, w = FOUNDATION_OF[move], WASTE_OF[move]
    if w < 0:  # the pending card onto foundation k
        table.place_on_foundation(k)
        table.pending = 0
    elif k < 0:  # the pending card onto waste w
        table.wastes[w].append(table.pending)
        table.pending = 0
    else:
        table.wastes[w].pop()
        table.place_on_foundation(k)
    return position


def initial_table(starter_count: Sequence[int], stock: Sequence[int]) -> Table:
    unseen = [0] * (RANK_COUNT + 1)
    for rank in stock:
        unseen[rank] += 1
    need = [NEED_BY_COUNT[k][count] for k, count in enumerate(starter_count)]
    return Table(need, list(starter_count), [[], [], [], []], 0, len(stock), unseen)


Evaluation = dict[int, tuple[int, int]]
"""What a player weighed at a placement: ``{waste pile (0-based): (wins, total score)}`` over its trials."""


# ---------------------------------------------------------------- the view


@dataclass(frozen=True)
class PlayerView:
    """A position as a person sees it: everything but the order of the face-down stock.

    ``unseen`` is the *set* of face-down cards; ``stock_count`` how many there are.
    """

    foundations: tuple[tuple[Card, ...], ...]
    wastes: tuple[tuple[Card, ...], ...]
    pending: Card | None
    stock_count: int
    unseen: frozenset[Card]

    @classmethod
    def of(cls, position: State | PlayerView | HasState) -> PlayerView:
        """The view of a :class:`State`, a :class:`~calcnb.game.game.Game` (its current state) or a view."""
        if isinstance(position, PlayerView):
            return position
        if isinstance(position, str):  # a deal code is an opening, not a position a player is shown
            raise TypeError(message("player.bad_position", kind="str"))
        try:
            state = as_state(position)
        except TypeError:
            raise TypeError(message("player.bad_position", kind=type(position).__name__)) from None
        return cls(state.foundations, state.wastes, state.pending, len(state.stock), state.unseen_cards())

    def needs(self) -> tuple[int | None, ...]:
        """The rank each foundation needs next, or None where it is complete."""
        return tuple(NEED_BY_COUNT[k][len(pile)] or None for k, pile in enumerate(self.foundations))

    def legal_moves(self) -> list[Move]:
        """The legal moves, in the engine's documented order."""
        return [ALL_MOVES[i] for i in self.table().legal()]

    def table(self) -> Table:
        unseen = [0] * (RANK_COUNT + 1)
        for card in self.unseen:
            unseen[card.rank] += 1
        return Table(
            [need or 0 for need in self.needs()],
            [len(pile) for pile in self.foundations],
            [[card.rank for card in pile] for pile in self.wastes],
            self.pending.rank if self.pending is not None else 0,
            self.stock_count,
            unseen,
        )

    def rng(self) -> random.Random:
        """A random generator seeded by what is visible: a player choosing here draws the same numbers each time."""
        return random.Random(hashlib.sha256(self.fingerprint().encode()).hexdigest())

    def fingerprint(self) -> str:
        """A stable text of what is visible, to seed a player's choices here reproducibly."""
        parts = [" ".join(map(str, pile)) for pile in (*self.foundations, *self.wastes)]
        parts.append(str(self.pending))
        parts.append(" ".join(sorted(map(str, self.unseen))))
        return "|".join(parts)
