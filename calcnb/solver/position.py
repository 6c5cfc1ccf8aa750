"""The solver's lean position: ranks as small ints, foundations as counts, moves done and undone in place.

It builds in the ``ranks`` rule (suits never matter, so the search works on ranks) and the
``turn`` rule (with no card pending, turning is played at once, so the card at ``index`` in the
stock is the turned card). A position also keeps the ``forbid`` marks of
:mod:`calcnb.solver.search` as bits. Why both rules are sound: ``docs/design.md``.
"""

from __future__ import annotations

from enum import IntEnum
from functools import cache
from typing import NamedTuple

from calcnb.game.rules import NO_RANK, orders, positions

from .relaxed import check_size

_INF = 1 << 30  # "never": no copy left in the stock


class Kind(IntEnum):
    """The three moves of the search (turning is played at once, so it is never one)."""

    WASTE_TO_FOUNDATION = 0
    STOCK_TO_FOUNDATION = 1
    STOCK_TO_WASTE = 2


WASTE_TO_FOUNDATION, STOCK_TO_FOUNDATION, STOCK_TO_WASTE = Kind  # plain names for the hot code


class Step(NamedTuple):
    """A move on the search path: its kind, waste (-1: none), foundation (-1: none), and the marks it took away.

    The path holds them as plain tuples of these four fields (a named tuple costs a Python call to make).
    """

    kind: Kind
    waste: int
    foundation: int
    marks: int


@cache  # made once per game size, not at every search
def order_places(order: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """``places[k][r]``: the index of rank r in foundation k's order (0-based), from the rules core's positions.

    The search counts a foundation by the cards on it, so foundation k needs rank r now when it
    holds ``places[k][r]`` cards, and still needs it while it holds no more.
    """
    return tuple(tuple(place - 1 for place in row) for row in positions(order, len(order[0])))


class Position:
    """The position the search walks through, changed in place by its moves and their undo.

    ``foundations[k]``: cards on foundation k (which builds in steps of k+1 from rank k+1);
    ``wastes``: ranks bottom first; ``stock``: ranks in turning order, the first one already
    turned or not (it makes no difference: turning is played at once). ``ranks`` must be a
    prime larger than the number of foundations so that every foundation visits every rank.

    Counters kept up to date by every move, so the rules read them in one lookup:
    ``rem[r]`` the copies of rank r off the foundations (= the foundations that still need it),
    ``needers[r]`` / ``wants[r]`` the foundations that need r at all / need it now (bits),
    ``inwaste[r]`` its copies on the wastes, ``codes[w]`` pile w as one int (8 bits a card:
    rank, and the card's forbid marks << 4), ``on_foundations`` the cards on the foundations.
    """

    def __init__(self, foundations: list[int], wastes: list[list[int]], stock: tuple[int, ...], ranks: int) -> None:
        R = self.ranks = ranks
        F = len(foundations)
        # the compiled search's arrays hold the rules' sizes: a waste may come to hold every card still to turn
        check_size(R, F, len(wastes), max((len(w) for w in wastes), default=0) + len(stock))
        self.order = orders(R, F)
        self.pos = order_places(self.order)
        # need[k][q]: the rank foundation k needs while it holds q cards; NO_RANK (no card has it) once complete
        self.need = tuple((*row, NO_RANK) for row in self.order)
        self.FR = range(F)
        self.WR = range(len(wastes))
        # a waste card is named by its pile and depth: card = waste << card_shift | depth
        self.card_shift = (max((len(w) for w in wastes), default=0) + len(stock) + 1).bit_length()
        self.depth_mask = (1 << self.card_shift) - 1
        self.p = p = list(foundations)
        self.piles = piles = [list(w) for w in wastes]
        self.masks = [[0] * len(w) for w in wastes]  # forbidden foundations of each waste card, as bits
        self.codes = [self.code_of(pile) for pile in piles]
        self.stock = stock = tuple(stock)
        self.n = len(stock)
        self.full = R * F
        self.index = 0  # stock index of the turned card
        self.marks = 0  # the turned card's forbid marks
        self.on_foundations = sum(p)
        self.path: list[tuple[Kind, int, int, int]] = []  # Step's fields
        self._count()

    def _count(self) -> None:
        """The counters and the stock's table, from the foundations, the piles and the stock."""
        R, p, pos, piles, stock, n = self.ranks, self.p, self.pos, self.piles, self.stock, self.n
        F = len(p)
        self.rem = rem = [0] * (R + 1)
        for s in range(1, R + 1):
            c = 0
            for k in range(F):
                if p[k] <= pos[k][s]:
                    c += 1
            rem[s] = c
        self.needers = needers = [0] * (R + 1)
        self.wants = wants = [0] * (R + 1)  # wants[NO_RANK]: the complete foundations, read by no card
        for k in range(F):
            o = self.order[k]
            for j in range(p[k], R):
                needers[o[j]] |= 1 << k
            wants[self.need[k][p[k]]] |= 1 << k
        self.inwaste = inwaste = [0] * (R + 1)
        for w in range(len(piles)):
            pile = piles[w]
            for d in range(len(pile)):
                inwaste[pile[d]] += 1
        # next_in_stock[t][r]: the first stock index >= t holding rank r, or _INF
        table = [[_INF] * (R + 1)]
        table.append(table[0][:])
        row = table[0]
        for t in range(n - 1, -1, -1):
            row = row[:]
            row[stock[t]] = t
            table.append(row)
        table.reverse()  # rows n + 1, n, n - 1, ..., 0 made; index t reads row t
        self.next_in_stock = table

    @staticmethod
    def code_of(pile: list[int]) -> int:
        """A pile of unmarked ranks as one int, 8 bits a card."""
        code = 0
        for r in pile:
            code = code << 8 | r
        return code

    def won(self) -> bool:
        """Every card on the foundations."""
        return self.index == self.n and self.on_foundations == self.full

    # ------------------------------------------------------------------ moves and their undo

    def advance(self, k: int, r: int) -> None:
        """Foundation k takes its next card, of rank r."""
        bit = 1 << k
        self.needers[r] &= ~bit
        self.wants[r] &= ~bit
        q = self.p[k] + 1
        self.p[k] = q
        self.wants[self.need[k][q]] |= bit

    def retreat(self, k: int) -> int:
        """Foundation k gives back its top card; returns the card's rank."""
        bit = 1 << k
        q = self.p[k]
        need_k = self.need[k]
        self.wants[need_k[q]] &= ~bit
        q -= 1
        self.p[k] = q
        r = need_k[q]
        self.needers[r] |= bit
        self.wants[r] |= bit
        return r

    def waste_to_foundation(self, w: int, k: int) -> None:
        r = self.piles[w].pop()
        m = self.masks[w].pop()
        self.codes[w] >>= 8
        self.inwaste[r] -= 1
        self.advance(k, r)
        self.rem[r] -= 1
        self.on_foundations += 1
        self.path.append((WASTE_TO_FOUNDATION, w, k, m))

    def stock_to_foundation(self, k: int) -> None:
        i = self.index
        self.path.append((STOCK_TO_FOUNDATION, -1, k, self.marks))
        self.index = i + 1
        self.marks = 0
        r = self.stock[i]
        self.advance(k, r)
        self.rem[r] -= 1
        self.on_foundations += 1

    def to_foundation(self, src: int, k: int) -> None:
        """The card at ``src`` (a waste, or -1 for the turned card) goes to foundation k."""
        if src >= 0:
            self.waste_to_foundation(src, k)
        else:
            self.stock_to_foundation(k)

    def stock_to_waste(self, w: int) -> None:
        i = self.index
        r = self.stock[i]
        m = self.marks
        self.path.append((STOCK_TO_WASTE, w, -1, m))
        self.index = i + 1
        self.marks = 0
        self.piles[w].append(r)
        self.masks[w].append(m)
        self.codes[w] = self.codes[w] << 8 | r | m << 4
        self.inwaste[r] += 1

    def undo(self) -> None:
        """Take back the last move of the path, marks included."""
        kind, w, k, m = self.path.pop()
        if kind == WASTE_TO_FOUNDATION:
            r = self.retreat(k)
            self.piles[w].append(r)
            self.masks[w].append(m)
            self.codes[w] = self.codes[w] << 8 | r | m << 4
            self.inwaste[r] += 1
            self.rem[r] += 1
            self.on_foundations -= 1
        elif kind == STOCK_TO_FOUNDATION:
            self.index -= 1
            self.marks = m
            self.retreat(k)
            self.rem[self.stock[self.index]] += 1
            self.on_foundations -= 1
        else:
            self.index -= 1
            self.marks = m
            self.piles[w].pop()
            self.masks[w].pop()
            self.codes[w] >>= 8
            self.inwaste[self.stock[self.index]] -= 1

    # ------------------------------------------------------------------ forbid marks

    def set_forbid(self, src: int, k: int, on: bool) -> None:
        """Mark (or unmark) the card at ``src`` (a waste top, or -1 for the turned card) as never going to k."""
        bit = 1 << k
        if src >= 0:
            if on:
                self.masks[src][-1] |= bit
                self.codes[src] |= bit << 4
            else:
                self.masks[src][-1] &= ~bit
                self.codes[src] &= ~(bit << 4)
        elif on:
            self.marks |= bit
        else:
            self.marks &= ~bit

    def back_to_root(self) -> None:
        """Undo every move and drop every mark: the position the search started from."""
        while self.path:
            self.undo()
        self.marks = 0
        for w in self.WR:
            self.masks[w] = [0] * len(self.piles[w])
            self.codes[w] = self.code_of(self.piles[w])

    def rank_of(self, src: int) -> int:
        """The rank of the card at ``src``: a waste top, or -1 for the turned card."""
        return self.stock[self.index] if src < 0 else self.piles[src][-1]
