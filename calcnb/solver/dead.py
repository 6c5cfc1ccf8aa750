"""The dead-position test (the ``dead`` rule): waste cards that can never all leave.

Let ``Z`` start as every waste card and repeatedly drop a card when (a) no card above it on its
waste is still in ``Z`` and (b) some foundation it may go to needs no rank before it whose copies
(off the foundations) all lie in ``Z``. If ``Z`` is not empty at the end, the position is lost.
Cards still in the stock are never in ``Z``. Why it is sound: ``docs/design.md``.
"""

from __future__ import annotations

from .position import _INF, Position


class DeadTest:
    """The ``dead`` rule for one search: tables built once, then :meth:`lost` at each new position."""

    def __init__(self, position: Position) -> None:
        self.position = position
        R = position.ranks
        order = position.order
        # window[k][a][b]: the ranks at positions a..b of foundation k, as bits (b = R: a to the end)
        self.window = []
        for k in position.FR:
            table_k = []
            for a in range(R + 1):
                row = []
                bits = 0
                for b in range(R + 1):
                    if a <= b < R:
                        bits |= 1 << order[k][b]
                    row.append(bits if a <= b else 0)
                table_k.append(row)
            self.window.append(table_k)
        # gone_from_stock[t]: the ranks with no copy at stock index t or later
        self.gone_from_stock = [[r for r in range(1, R + 1) if row[r] == _INF] for row in position.next_in_stock]

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
        R, order, pos, p = position.ranks, position.order, position.pos, position.p
        F = len(p)
        window = self.window
        first_stuck = []  # per foundation: position of the first stuck rank it still needs
        free = 0  # ranks an unmarked card may have and still leave Z: some foundation needs no stuck rank before it
        for k in range(F):
            o = order[k]
            j = p[k]
            while j < R and not (stuck >> o[j]) & 1:
                j += 1
            first_stuck.append(j)
            free |= window[k][p[k]][j]
        h = [len(pile) for pile in position.piles]  # Z holds each pile's cards below index h[w]
        changed = True
        while changed:  # peel every pile in turn until a whole round frees no stuck rank
            changed = False
            for w in range(len(h)):
                hw = h[w]
                if not hw:
                    continue
                pile = position.piles[w]
                mk = position.masks[w]
                while hw:
                    r = pile[hw - 1]
                    m = mk[hw - 1]
                    if m:  # a marked card: it must leave for a foundation it is not forbidden
                        for k in range(F):
                            if p[k] <= pos[k][r] <= first_stuck[k] and not (m >> k) & 1:
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
                            if j < R and order[k][j] == r:
                                o = order[k]
                                j += 1
                                while j < R and not (stuck >> o[j]) & 1:
                                    j += 1
                                first_stuck[k] = j
                                free |= window[k][p[k]][j]
                                changed = True
                h[w] = hw
        return any(h)
