"""The relaxed test for lost positions, kept cheap by carrying a witness down the search.

``relaxed`` — a position whose relaxed game (:mod:`calcnb.solver.relaxed`) is lost is lost. It is
checked at every new position (``relaxed_stock`` can keep it to the late ones). A relaxed win is
kept as a *witness* (the foundation slot each waste card fills, and an order of the slots) that a
child inherits and adjusts, so a new relaxed search runs only when no order fits. A relaxed search
that expands more than :data:`RELAXED_LIMIT` states leaves the position undecided
(:attr:`Relaxed.TOO_BIG`). How: ``docs/design.md``; why from the root: ``docs/performance.md``.
"""

from __future__ import annotations

from enum import Enum

try:
    import cython
except ModuleNotFoundError:  # Cython is needed only to build the compiled form
    from . import _nocython as cython

from calcnb.solver.relaxed import RelaxedGame, RelaxedOverLimit

from .position import STOCK_TO_FOUNDATION, STOCK_TO_WASTE, Position, Step

RELAXED_LIMIT = 60
"""States one relaxed search may expand; past it the position is marked hard instead of decided."""

_INF = float("inf")


class Relaxed(Enum):
    """The verdict of the relaxed test at one position."""

    LOST = "lost"  # the relaxed game is lost, so the position is
    OPEN = "open"  # a relaxed win exists (the position now has a witness)
    TOO_BIG = "too big"  # the relaxed search ran past its limit: no verdict


RELAXED_LOST, RELAXED_OPEN, RELAXED_TOO_BIG = Relaxed  # plain names for the hot code (an enum's attributes are slow)


class Witness:
    """A relaxed win of the position at ``made_at`` moves down the path, reached by ``last_move``.

    ``slots[k * R + j]``: the waste card filling place j of foundation k, -1 (a stock card) or -2
    (already filled); ``times[s]``: when slot s is filled, an order respecting foundations and piles.
    """

    __slots__ = ("last_move", "made_at", "slots", "times")  # compiled, witness.pxd makes it a C class

    def __init__(self, made_at: int, last_move: Step | None, slots: list[int], times: list[float]) -> None:
        self.made_at = made_at
        self.last_move = last_move
        self.slots = slots
        self.times = times


class Witnesses:
    """The witnesses of the positions on the search path, and the relaxed test that makes them."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.relaxed = RelaxedGame(position.order, position.card_shift)
        self.stack: list[Witness] = []  # one per position on the path that has one, deepest last
        self.done = [position.ranks] * len(position.FR)

    def _on_path(self, witness: Witness) -> bool:
        """Was the witness made at a position still on the path (the same move led there)?"""
        made_at = witness.made_at
        return not made_at or self.position.path[made_at - 1] is witness.last_move

    def own(self) -> Witness | None:
        """The current position's own witness, if the test made one here."""
        if self.stack:
            witness = self.stack[-1]
            if witness.made_at == len(self.position.path) and self._on_path(witness):
                return witness
        return None

    def check(self) -> Relaxed:
        """The ``relaxed`` rule at a new position; keeps a witness for the positions below when open."""
        position = self.position
        plen = len(position.path)
        stack = self.stack
        while stack:
            top = stack[-1]
            if top.made_at < plen and self._on_path(top):
                break
            stack.pop()  # made off the path to this position
        carried = self._carry(stack[-1]) if stack else None
        if carried is None:
            try:
                if stack:  # the old witness as a hint for the new search: it tries the cards in its order first
                    top = stack[-1]
                    p, piles = position.p, position.piles
                    line = self.relaxed.search_witnessed(p, piles, RELAXED_LIMIT, top.slots, top.times)
                else:
                    line = self.relaxed.search(position.p, position.piles, RELAXED_LIMIT)
            except RelaxedOverLimit:
                return RELAXED_TOO_BIG
            if line is None:
                return RELAXED_LOST
            carried = self._slots_of_line(line)
        stack.append(Witness(plen, position.path[-1] if plen else None, carried[0], carried[1]))
        return RELAXED_OPEN

    def clear(self) -> None:
        self.stack.clear()
        self.relaxed.clear()

    def _slots_of_line(self, events: list[tuple[int, int]]) -> tuple[list[int], list[float]]:
        """A relaxed win (waste moves ``(card, foundation)``) as slots and the times they are filled."""
        position = self.position
        R, F, pos, piles = position.ranks, len(position.FR), position.pos, position.piles
        shift, depth_mask = position.card_shift, position.depth_mask
        slots = [-2] * (F * R)
        times = [0.0] * (F * R)
        q = [0] * 4  # MAX_FOUNDATIONS
        for k in range(F):
            q[k] = position.p[k]
        for e in range(len(events)):
            card, k = events[e]
            j = pos[k][piles[card >> shift][card & depth_mask]]
            base = k * R
            gap = j - q[k] + 1
            for t in range(q[k], j):  # stock cards fill the places skipped, just before the card
                slots[base + t] = -1
                times[base + t] = 2 * e + (t - q[k] + 1) / gap
            slots[base + j] = card
            times[base + j] = 2.0 * e + 1.0  # floats: the compiled readers take a float at once
            q[k] = j + 1
        end = 2 * len(events) + 1
        for k in range(F):
            for t in range(q[k], R):
                slots[k * R + t] = -1
                times[k * R + t] = float(end + t)
        return slots, times

    def _retime(self, slots: list[int]) -> list[float] | None:
        """An order of the slots that respects the foundations and the piles, or None if there is none."""
        position = self.position
        R, shift, depth_mask = position.ranks, position.card_shift, position.depth_mask
        p, piles = position.p, position.piles
        F = len(p)
        q = [0] * 4  # MAX_FOUNDATIONS
        h = [0] * 4  # MAX_WASTES
        for k in range(F):
            q[k] = p[k]
        for w in range(len(piles)):
            h[w] = len(piles[w])
        times = [0.0] * (F * R)
        t = 0.0  # (a float: see _slots_of_line)
        progress = True
        while progress:  # fill every slot whose card is free, until nothing moves
            progress = False
            for k in range(F):
                j = start = q[k]
                base = k * R
                while j < R:
                    card = slots[base + j]
                    if card >= 0:
                        w = card >> shift
                        if h[w] != (card & depth_mask) + 1:
                            break
                        h[w] -= 1
                    times[base + j] = t
                    t += 1
                    j += 1
                if j != start:
                    q[k] = j
                    progress = True
        for k in range(F):
            if q[k] != R:
                return None
        return times

    def _stock_slot(
        self, r: int, q: list[int], slots: list[int], times: list[float], after: float, before: float
    ) -> int:
        """A stock slot of rank r for a card to take, as ``slot << 1 | in_time``; -1 when there is none at all.

        The latest filled strictly between the two times (``in_time`` 1), else the earliest (0).
        """
        best = earliest = -1
        R = self.position.ranks
        pos = self.position.pos
        for k in range(len(self.done)):
            j = pos[k][r]
            if j >= q[k] and slots[k * R + j] == -1:
                s = k * R + j
                t = times[s]
                if after < t < before and (best < 0 or t > times[best]):
                    best = s
                if earliest < 0 or t < times[earliest]:
                    earliest = s
        if best >= 0:
            return best << 1 | 1
        return earliest << 1 if earliest >= 0 else -1

    def _carry(self, witness: Witness) -> tuple[list[int], list[float]] | None:
        """The witness of an earlier position on the path made one of this position, or None.

        Each move swaps cards between slots of the same rank: a card put on a waste takes a stock
        slot filled before the card under it; a card sent to a foundation takes the slot that
        foundation needs now, and whoever held it takes the card's old slot. When the old times no
        longer fit, the slots are ordered again (``_retime``); if no order exists, the carry fails.
        """
        position = self.position
        R, shift, depth_mask, stock = position.ranks, position.card_shift, position.depth_mask, position.stock
        times = witness.times
        path = position.path
        start = witness.made_at
        end = len(path)
        q = [0] * 4  # MAX_FOUNDATIONS
        h = [0] * 4  # MAX_WASTES
        p, piles = position.p, position.piles
        for k in range(len(p)):
            q[k] = p[k]
        for w in range(len(piles)):
            h[w] = len(piles[w])
        i = position.index
        for e in range(start, end):  # back to the witness's position
            move = path[e]
            kind = move[0]
            if kind == STOCK_TO_WASTE:
                h[move[1]] -= 1
                i -= 1
            else:
                q[move[2]] -= 1
                if kind == STOCK_TO_FOUNDATION:
                    i -= 1
                else:
                    h[move[1]] += 1
        slots = witness.slots[:]
        stale = False  # the times no longer respect every pile
        for e in range(start, end):
            move = path[e]
            kind = move[0]
            w = move[1]
            k = move[2]
            if kind == STOCK_TO_WASTE:
                hw = h[w]
                before = times[_slot_of(slots, w << shift | hw - 1)] if hw and not stale else _INF
                found = self._stock_slot(stock[i], q, slots, times, -1.0, before)
                if found < 0:
                    return None
                stale = stale or not found & 1
                slots[found >> 1] = w << shift | hw
                h[w] = hw + 1
                i += 1
            elif kind == STOCK_TO_FOUNDATION:
                s = k * R + q[k]
                card = slots[s]
                slots[s] = -2
                if card >= 0:  # that waste card needs another slot of its rank
                    wc = card >> shift
                    dc = card & depth_mask
                    after = times[_slot_of(slots, card + 1)] if dc + 1 < h[wc] and not stale else -1.0
                    before = times[_slot_of(slots, card - 1)] if dc and not stale else _INF
                    found = self._stock_slot(stock[i], q, slots, times, after, before)
                    if found < 0:
                        return None
                    stale = stale or not found & 1
                    slots[found >> 1] = card
                q[k] += 1
                i += 1
            else:
                hw = h[w] - 1
                card = w << shift | hw
                s = k * R + q[k]
                holder = slots[s]
                slots[s] = -2
                h[w] = hw
                if holder != card:
                    s2 = _slot_of(slots, card)
                    slots[s2] = holder
                    if holder >= 0 and not stale:
                        wc = holder >> shift
                        dc = holder & depth_mask
                        t = times[s2]
                        if (dc + 1 < h[wc] and times[_slot_of(slots, holder + 1)] >= t) or (
                            dc and times[_slot_of(slots, holder - 1)] <= t
                        ):
                            stale = True
                q[k] += 1
        if stale:
            times = self._retime(slots)
            if times is None:
                return None
        return slots, times


def _slot_of(slots: list[int], card: int) -> int:
    """``slots.index(card)``; compiled, a loop over C ints instead (``list.index`` compares Python objects)."""
    if not cython.compiled:
        return slots.index(card)
    s = 0
    held = slots[0]
    while held != card:
        s += 1
        held = slots[s]
    return s
