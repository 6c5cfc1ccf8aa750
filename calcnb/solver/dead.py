"""The dead-position test (the ``dead`` rule): waste cards that can never all leave.

Let ``Z`` start as every waste card and repeatedly drop a card when (a) no card above it on its
waste is still in ``Z`` and (b) some foundation it may go to needs no rank before it whose copies
(off the foundations) all lie in ``Z``. If ``Z`` is not empty at the end, the position is lost.
Cards still in the stock are never in ``Z``. Why it is sound: ``docs/design.md``.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # Cython is needed only to build the compiled form
    from . import _nocython as cython

from .position import _INF, Position


class DeadTest:
    """The ``dead`` rule for one search: tables built once, then :meth:`lost` at each new position.

    Compiled, ``dead.pxd`` keeps the tables in C arrays (the sizes of :mod:`calcnb.solver.relaxed`'s bounds).
    """

    def __init__(self, position: Position) -> None:
        self.position = position
        R = position.ranks
        order = position.order
        F = len(order)
        # before[k][t]: the ranks at positions 0..t-1 of foundation k, as bits; the ranks at positions a..b
        # (b = R: a to the end) are before[k][min(b + 1, R)] & ~before[k][a]
        before = [[0] * (R + 1) for _ in range(F)]
        for k in range(F):
            for t in range(R):
                before[k][t + 1] = before[k][t] | 1 << order[k][t]
        if not cython.compiled:  # interpreted: the lists stand for the C arrays
            self.order = order
            self.pos = position.pos
            self.before = before
        else:
            for k in range(F):
                for j in range(R):
                    self.order[k][j] = order[k][j]
                for r in range(R + 1):
                    self.pos[k][r] = position.pos[k][r]
                    self.before[k][r] = before[k][r]
        # gone_from_stock[t]: the ranks with no copy at stock index t or later
        self.gone_from_stock = _gone(position.next_in_stock, R)

    def _stuck_ranks(self) -> int:
        """Ranks whose copies off the foundations all lie on the wastes (all in Z at the start), as bits."""
        position = self.position
        inwaste, rem = position.inwaste, position.rem
        stuck = 0
        for s in self.gone_from_stock[position.index]:  # a rank with a copy still to turn has one outside Z
            c = inwaste[s]
            if c and c == rem[s]:
                stuck |= 1 << s
        return stuck

    def lost(self) -> bool:
        """The fixpoint of the rule; True means the position is lost."""
        stuck = self._stuck_ranks()
        if not stuck:
            return False
        position = self.position
        R, piles, masks = position.ranks, position.piles, position.masks
        F = len(position.p)
        W = len(piles)
        p = [0] * 4  # MAX_FOUNDATIONS
        first_stuck = [0] * 4  # per foundation: position of the first stuck rank it still needs
        h = [0] * 4  # MAX_WASTES: Z holds each pile's cards below index h[w]
        free = 0  # ranks an unmarked card may have and still leave Z: some foundation needs no stuck rank before it
        for k in range(F):
            o = self.order[k]
            j = p[k] = position.p[k]
            while j < R and not (stuck >> o[j]) & 1:
                j += 1
            first_stuck[k] = j
            free |= self.before[k][j + 1 if j < R else R] & ~self.before[k][p[k]]
        for w in range(W):
            h[w] = len(piles[w])
        changed = True
        while changed:  # peel every pile in turn until a whole round frees no stuck rank
            changed = False
            for w in range(W):
                hw = h[w]
                if not hw:
                    continue
                pile = piles[w]
                mk = masks[w]
                while hw:
                    r = pile[hw - 1]
                    m = mk[hw - 1]
                    if m:  # a marked card: it must leave for a foundation it is not forbidden
                        for k in range(F):
                            if p[k] <= self.pos[k][r] <= first_stuck[k] and not (m >> k) & 1:
                                break
                        else:
                            break
                    elif not (free >> r) & 1:
                        break
                    hw -= 1
                    if (stuck >> r) & 1:  # the first copy of a stuck rank leaves: later ranks may follow
                        stuck &= ~(1 << r)
                        for k in range(F):
                            j = first_stuck[k]
                            o = self.order[k]
                            if j < R and o[j] == r:
                                j += 1
                                while j < R and not (stuck >> o[j]) & 1:
                                    j += 1
                                first_stuck[k] = j
                                free |= self.before[k][j + 1 if j < R else R] & ~self.before[k][p[k]]
                                changed = True
                h[w] = hw
        for w in range(W):  # noqa: SIM110 (a loop: the compiled form types it)
            if h[w]:
                return True
        return False


def _gone(next_in_stock: list[list[int]], R: int) -> list[list[int]]:
    """For each stock index, the ranks with no copy there or later."""
    gone_from_stock = []
    never = _INF
    for row in next_in_stock:
        gone = []
        for r in range(1, R + 1):
            t = row[r]
            if t == never:
                gone.append(r)
        gone_from_stock.append(gone)
    return gone_from_stock
