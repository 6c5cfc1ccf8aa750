"""The transposition table: what the search knows of each position it has left.

For each position, either that it is *proven* lost, or the largest budget it failed with in the
current attempt (shifted by the attempt's *epoch*, so an earlier attempt's budgets never cut a
later one). The key sorts the wastes (the ``symmetry`` rule: interchangeable waste piles are one
choice) and drops spent forbid marks. Why both are sound: ``docs/design.md``.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # Cython is needed only to build the compiled form
    from . import _nocython as cython

from .position import Position

PROVEN = 1 << 62  # in the table: the position is lost
EPOCH = 1 << 20  # more than any budget an attempt reaches (each budget costs at least one node)
_MARK_BITS = int("f0" * 64, 16)  # where a pile code keeps forbid marks


class Table:
    """Positions proven lost, or failed with a budget in some attempt; and the positions hard to test.

    ``hard`` holds the keys of positions whose relaxed game was too big to decide
    (:mod:`calcnb.solver.witness`): they look lost, so entering them costs more.
    """

    def __init__(self, position: Position, symmetry: bool) -> None:
        self.position = position
        self.symmetry = symmetry
        self.entries: dict[tuple, int] = {}
        self.epoch = 0
        self.hard: set[tuple] = set()
        self._canonical: dict[tuple[int, int], int] = {}  # (pile code, foundation counts) -> canonical code

    def key(self) -> tuple:
        """The current position's key: one tuple of the foundations and the turned card's live marks (one int,
        4 bits each), then the pile codes (sorted under ``symmetry``). Flat, so a key costs one tuple."""
        position = self.position
        codes = position.codes
        p = position.p
        counts = 0  # every count is at most MAX_RANKS (13) and there are at most 4 marks: 4 bits each
        for k in range(len(p)):
            count = p[k]
            counts = counts << 4 | count
        pile_codes = codes
        for w in range(len(codes)):
            if self._marked(w):  # some marks: drop the spent ones
                pile_codes = []
                for w in range(len(codes)):
                    code = codes[w]
                    if self._marked(w):
                        memo_key = (code, counts)
                        code = self._canonical.get(memo_key)
                        if code is None:
                            code = self._canonical[memo_key] = self._live_marks(w)
                    pile_codes.append(code)
                break
        marks = position.marks
        if marks:
            marks &= position.wants[position.stock[position.index]]  # a mark on a foundation past the rank is spent
        if not cython.compiled:
            pile_codes = sorted(pile_codes) if self.symmetry else pile_codes[:]
            pile_codes.insert(0, counts << 4 | marks)
            return tuple(pile_codes)
        key = [counts << 4 | marks]  # compiled, the few codes put in order one by one: quicker than a list's sort
        for w in range(len(pile_codes)):
            code = pile_codes[w]
            key.append(code)
            i = w + 1
            if self.symmetry:
                while i > 1 and key[i - 1] > code:
                    key[i] = key[i - 1]
                    i -= 1
                key[i] = code
        return tuple(key)

    def _marked(self, w: int) -> bool:
        """Does some card of pile w carry marks? (Its code says so; compiled, its masks say it quicker.)"""
        if not cython.compiled:
            return bool(self.position.codes[w] & _MARK_BITS)
        masks = self.position.masks[w]
        for d in range(len(masks)):
            m = masks[d]
            if m:
                return True
        return False

    def _live_marks(self, w: int) -> int:
        """Pile w's code without the marks that no longer matter: their foundation has passed the rank."""
        position = self.position
        p, pos = position.p, position.pos
        F = len(p)
        code = 0
        masks = position.masks[w]
        pile = position.piles[w]
        for d in range(len(pile)):
            r = pile[d]
            m = masks[d]
            if m:
                for k in range(F):
                    if m >> k & 1 and p[k] != pos[k][r]:
                        m &= ~(1 << k)
            code = code << 8 | r | m << 4
        return code

    def get(self, key: tuple) -> int | None:
        """The raw entry: PROVEN, an epoch-shifted budget, or None for a new position."""
        return self.entries.get(key)

    def cuts(self, known: int, budget: int) -> bool:
        """Does an entry (not PROVEN) say this attempt already failed here with at least ``budget``?"""
        return known >= budget + self.epoch

    def prove(self, key: tuple) -> None:
        """The position is lost, whatever the budget and the attempt."""
        self.entries[key] = PROVEN

    def failed(self, key: tuple, budget: int) -> None:
        """The position failed with ``budget`` in this attempt, with some part cut off."""
        self.entries[key] = budget + self.epoch

    def new_attempt(self) -> None:
        """Budgets stored so far belong to the attempt that ends: they no longer cut."""
        self.epoch += EPOCH

    def clear(self) -> None:
        """Free every entry (fast, before the cyclic collector is back on)."""
        self.entries.clear()
        self._canonical.clear()
        self.hard.clear()
