"""The order in which the search tries a position's moves (only the order: never what is proven).

Foundation moves first, best first the foundation whose following need is available soonest; then
the turned card on a waste in *reverse order of need*, or, where the position has a relaxed
witness (:mod:`calcnb.solver.witness`), in the order the witness can carry. Later attempts perturb
both orders with a seeded random tie-break (:data:`PAIR_NOISE`, :data:`PLACEMENT_NOISE`).
The full order: ``docs/design.md``.
"""

from __future__ import annotations

import random

try:
    import cython
except ModuleNotFoundError:  # Cython is needed only to build the compiled form
    from . import _nocython as cython

from calcnb.game.rules import NO_RANK

from .position import _INF, Position
from .witness import Witness

PAIR_NOISE = 1.0  # later attempts add up to this to a foundation move's "how soon" (in cards)
PLACEMENT_NOISE = 3.0  # and up to this to a placement's gap in need, so near ties swap places


class Ordering:
    """Move order for one search: foundation moves by how soon their next need comes, placements by need."""

    def __init__(self, position: Position, symmetry: bool) -> None:
        self.position = position
        self.symmetry = symmetry
        self.shuffle: random.Random | None = None  # None: follow the heuristic exactly
        self._urgencies: dict[tuple[int, ...], list[int]] = {}  # foundations -> how soon each rank is needed
        if cython.compiled:  # the foundation orders as a C array, for _fill_soonest
            for k in range(len(position.order)):
                for j in range(position.ranks):
                    self.order_c[k][j] = position.order[k][j]

    def soon(self, r: int) -> int:
        """How long until a card of rank r is available: 0 if on top or turned, else stock distance."""
        position = self.position
        i = position.index
        n = position.n
        if i < n and position.stock[i] == r:
            return 0
        for pile in position.piles:
            if pile and pile[-1] == r:
                return 0
        t = position.next_in_stock[i + 1][r] if i < n else _INF
        return t - i if t < _INF else n + 1

    def _after(self, k: int) -> float:
        """How soon foundation k's need after its next card comes (-1: k completes with that card)."""
        position = self.position
        after = position.need[k][position.p[k] + 1]
        return self.soon(after) if after != NO_RANK else -1

    def foundation_moves(self, tie: tuple[int, list[int]] | None) -> list[tuple[float, int, int]]:
        """``(how soon, source, foundation)`` for each foundation move to try, best first.

        ``tie``: a card the ``safe`` rule moves at once and the foundations it may go to; only
        those moves are tried. Otherwise the turned card (source -1) and each waste top (a
        source per distinct pile under ``symmetry``) to each foundation that wants it and that it
        is not forbidden. The turned card counts half a card later than a waste top.
        """
        position = self.position
        pairs = []
        if tie is not None:
            src, now = tie
            for k in now:
                pairs.append((self._after(k), src, k))
        else:
            wants = position.wants
            F = len(position.p)
            if position.index < position.n:
                takers = wants[position.stock[position.index]] & ~position.marks
                for k in range(F):
                    if takers >> k & 1:
                        pairs.append((self._after(k) + 0.5, -1, k))
            codes = position.codes
            piles = position.piles
            for w in range(len(piles)):
                pile = piles[w]
                if not pile:
                    continue
                if self.symmetry and self._like_an_earlier_pile(codes, w):  # the same choice
                    continue
                takers = wants[pile[-1]] & ~position.masks[w][-1]
                for k in range(F):
                    if takers >> k & 1:
                        pairs.append((self._after(k), w, k))
        if self.shuffle is not None:
            shuffle = self.shuffle
            pairs = [(soonness + PAIR_NOISE * shuffle.random(), src, k) for soonness, src, k in pairs]
        pairs.sort()
        return pairs

    def urgencies(self) -> list[int]:
        """How soon each rank is needed: the fewest cards a foundation still needs before it (by rank)."""
        position = self.position
        p = position.p
        key = 0
        for k in range(len(p)):
            key = key << 4 | p[k]
        soonest = self._urgencies.get(key)
        if soonest is None:
            R = position.ranks
            soonest = [_INF] * (R + 1)
            for k in range(len(p)):
                o = position.order[k]
                for d in range(R - p[k]):
                    r = o[p[k] + d]
                    if d < soonest[r]:
                        soonest[r] = d
            self._urgencies[key] = soonest
        return soonest

    def _fill_soonest(self) -> None:
        """Compiled: :meth:`urgencies` into the C array ``soonest`` (the same numbers, not kept)."""
        position = self.position
        R = position.ranks
        never = _INF
        for r in range(R + 1):
            self.soonest[r] = never
        for k in range(len(position.p)):
            o = self.order_c[k]
            pk = position.p[k]
            for d in range(R - pk):
                r = o[pk + d]
                if d < self.soonest[r]:
                    self.soonest[r] = d

    def _like_an_earlier_pile(self, codes: list[int], w: int) -> bool:
        """Is pile ``w`` the same as a pile before it (one int a pile, ``Position.codes``)?"""
        code = codes[w]
        for v in range(w):  # noqa: SIM110 (a loop, not a generator: the compiled form types it)
            if codes[v] == code:
                return True
        return False

    def placements(self, own: Witness | None) -> list[int]:
        """The wastes to put the turned card on, best first (one per distinct pile under ``symmetry``)."""
        position = self.position
        R, pos, p = position.ranks, position.pos, position.p
        piles, codes = position.piles, position.codes
        r = position.stock[position.index]
        if cython.compiled:  # one pass over typed counts is quicker than the cache of lists
            self._fill_soonest()
            need_r = self.soonest[r]
        else:
            urgency = self.urgencies()
            need_r = urgency[r]
        # each placement scored (fits the witness: 0 or 1, kind, gap), smallest first, then its waste
        fits = [0] * 4  # MAX_WASTES
        kinds = [0] * 4
        gaps = [0.0] * 4
        ws = [0] * 4
        stock_slots = [0] * 4  # MAX_FOUNDATIONS
        found = 0
        if own is not None:  # placements the witness can carry come first: the stock slots of rank r still open
            slots, times = own.slots, own.times
            for k in range(len(p)):
                j = pos[k][r]
                if j >= p[k] and slots[k * R + j] == -1:
                    stock_slots[found] = k * R + j
                    found += 1
        n = 0
        for w in range(len(piles)):
            if self.symmetry and self._like_an_earlier_pile(codes, w):  # the same choice
                continue
            pile = piles[w]
            fit = 0
            if not pile:
                kind = 1
                gap = 0.0
            elif found:
                card = w << position.card_shift | len(pile) - 1
                if cython.compiled:  # list.index compares Python objects; this loop compares C ints
                    s = 0
                    held = slots[0]
                    while held != card:
                        s += 1
                        held = slots[s]
                else:
                    s = slots.index(card)
                before = times[s]
                fitted = False  # some stock slot filled before the card under it: the latest of them
                latest = earliest = 0.0
                for i in range(found):
                    t = times[stock_slots[i]]
                    if t < before and (not fitted or t > latest):
                        latest = t
                        fitted = True
                    if not i or t < earliest:
                        earliest = t
                kind = 0
                if fitted:  # the tightest fit first: the card leaves just before the one it covers
                    gap = before - latest
                else:  # no fit: the nearest miss first
                    fit = 1
                    gap = earliest - before
            else:  # no witness: reverse order of need
                need_top = self.soonest[pile[-1]] if cython.compiled else urgency[pile[-1]]
                if need_top > need_r:
                    kind = 0
                    gap = need_top - need_r
                else:
                    kind = 2
                    gap = need_r - need_top
            if self.shuffle is not None:
                gap += PLACEMENT_NOISE * self.shuffle.random()
            i = n  # insert in order
            while i:
                if fits[i - 1] != fit:
                    later = fits[i - 1] > fit
                elif kinds[i - 1] != kind:
                    later = kinds[i - 1] > kind
                elif gaps[i - 1] != gap:
                    later = gaps[i - 1] > gap
                else:
                    later = ws[i - 1] > w
                if not later:
                    break
                fits[i] = fits[i - 1]
                kinds[i] = kinds[i - 1]
                gaps[i] = gaps[i - 1]
                ws[i] = ws[i - 1]
                i -= 1
            fits[i] = fit
            kinds[i] = kind
            gaps[i] = gap
            ws[i] = w
            n += 1
        return [ws[i] for i in range(n)]
