"""The order in which the search tries a position's moves (only the order: never what is proven).

Foundation moves first, best first the foundation whose following need is available soonest; then
the turned card on a waste in *reverse order of need*, or, where the position has a relaxed
witness (:mod:`calcnb.solver.witness`), in the order the witness can carry. Later attempts perturb
both orders with a seeded random tie-break (:data:`PAIR_NOISE`, :data:`PLACEMENT_NOISE`).
The full order: ``docs/design.md``.
"""

from __future__ import annotations

import random

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
            FR = position.FR
            if position.index < position.n:
                takers = wants[position.stock[position.index]] & ~position.marks
                for k in FR:
                    if takers >> k & 1:
                        pairs.append((self._after(k) + 0.5, -1, k))
            seen = set()
            codes = position.codes
            for w, pile in enumerate(position.piles):
                if pile and not (self.symmetry and codes[w] in seen):
                    seen.add(codes[w])
                    takers = wants[pile[-1]] & ~position.masks[w][-1]
                    for k in FR:
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
        key = tuple(p)
        soonest = self._urgencies.get(key)
        if soonest is None:
            R = position.ranks
            soonest = [_INF] * (R + 1)
            for k in position.FR:
                o = position.order[k]
                for d in range(R - p[k]):
                    r = o[p[k] + d]
                    if d < soonest[r]:
                        soonest[r] = d
            self._urgencies[key] = soonest
        return soonest

    def placements(self, own: Witness | None) -> list[int]:
        """The wastes to put the turned card on, best first (one per distinct pile under ``symmetry``)."""
        position = self.position
        R, pos, p = position.ranks, position.pos, position.p
        r = position.stock[position.index]
        urgency = self.urgencies()
        need_r = urgency[r]
        if own is not None:  # placements the witness can carry come first
            slots, times = own.slots, own.times
            stock_slots = [k * R + pos[k][r] for k in position.FR if pos[k][r] >= p[k]]
            stock_slots = [s for s in stock_slots if slots[s] == -1]
        scored = []
        seen = set()
        for w, pile in enumerate(position.piles):
            code = position.codes[w]
            if self.symmetry and code in seen:
                continue
            seen.add(code)
            # (fits the witness: 0 or 1, kind, gap), smallest first
            if not pile:
                score = (0, 1, 0)
            elif own is not None and stock_slots:
                before = times[slots.index(w << position.card_shift | len(pile) - 1)]
                earlier = [times[s] for s in stock_slots if times[s] < before]
                if earlier:  # the tightest fit first: the card leaves just before the one it covers
                    score = (0, 0, before - max(earlier))
                else:  # no fit: the nearest miss first
                    score = (1, 0, min(times[s] for s in stock_slots) - before)
            else:  # no witness: reverse order of need
                need_top = urgency[pile[-1]]
                score = (0, 0, need_top - need_r) if need_top > need_r else (0, 2, need_r - need_top)
            scored.append((score, w))
        if self.shuffle is not None:
            shuffle = self.shuffle
            scored = [((fits, kind, gap + PLACEMENT_NOISE * shuffle.random()), w) for (fits, kind, gap), w in scored]
        scored.sort()
        return [w for _, w in scored]
