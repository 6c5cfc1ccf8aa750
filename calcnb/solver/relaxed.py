"""The relaxed game: Calculation with the whole stock at hand. The solver's test for lost positions.

In the *relaxed game* every card still in the stock may go to a foundation at any moment, and
nothing is ever put on a waste. Every winning line of the real game is one of the relaxed game, so
a position lost in the relaxed game is lost. :class:`RelaxedGame` decides it with a depth-first
search over "which waste top leaves next, and to which foundation", remembering for the whole solve
every relaxed state proven lost. The argument and the search's shortcuts: ``docs/design.md``.

Compiled, ``relaxed.pxd`` keeps the search's state in C arrays of fixed size (the game's bounds
below, from the rules core); interpreted, the same code runs on lists.
"""

from __future__ import annotations

try:
    import cython
except ModuleNotFoundError:  # Cython is needed only to build the compiled form
    from . import _nocython as cython

from calcnb.game.rules import DECK_SIZE, FOUNDATIONS, RANK_COUNT, WASTES, positions
from calcnb.i18n import message

if cython.compiled:  # the compiled memory's arrays (RelaxedGame._store)
    from cython.cimports.libc.stdlib import calloc, free, realloc

_UNHINTED = float("inf")  # when a card the hint says nothing of is tried: last

MAX_RANKS = RANK_COUNT
"""The most ranks, foundations, wastes and cards on one waste the compiled search holds (its C arrays are
this size: ``relaxed.pxd`` and ``position.pxd`` spell the same numbers)."""
MAX_FOUNDATIONS = FOUNDATIONS
MAX_WASTES = WASTES
MAX_PILE = DECK_SIZE

_ID_LIMIT = 1 << 32  # the most prefix ids: compiled, a state's key holds each pile's id in 32 bits
_K1, _K2, _K3 = 0x2545F4914F6CDD1D, 0x5851F42D4C957F2D, 0x14057B7EF767814F  # _mix's multipliers (odd)

# what a relaxed state's search returns (step, choose): lost, won, or past the limit of states (the search stops)
_LOST = 0
_WON = 1
_OVER = 2


class RelaxedOverLimit(Exception):
    """The relaxed search looked at more states than it was allowed."""


def check_size(ranks: int, foundations: int, wastes: int, cards: int) -> None:
    """Refuse a game larger than the search's fixed bounds (``cards``: the most on one waste), saying which."""
    for name, value, most in (
        ("ranks", ranks, MAX_RANKS),
        ("foundations", foundations, MAX_FOUNDATIONS),
        ("wastes", wastes, MAX_WASTES),
        ("cards", cards, MAX_PILE),
    ):
        if value > most:
            raise ValueError(message(f"solver.too_big.{name}", value=value, most=most))


class RelaxedGame:
    """The relaxed game of one solve: its foundation orders and the memory of states decided so far.

    ``order[k]`` lists the ranks foundation ``k`` builds, first to last (from :func:`calcnb.game.rules.orders`).
    ``card_shift``: a waste card is named ``w << card_shift | depth`` (its pile and its place from the bottom).
    """

    def __init__(self, order: tuple[tuple[int, ...], ...], card_shift: int) -> None:
        self.order = order
        self.ranks = len(order[0])
        check_size(self.ranks, len(order), 0, 0)
        self.card_shift = card_shift
        self.place = positions(order, self.ranks)  # place[k][r]: where foundation k takes rank r, 1-based
        # a state's key (the foundations' counts and the piles' prefix ids) -> False (lost) or (card, foundation,
        # next state's key): the first move of a known way to win, then where it leads. Compiled, the same in C
        # arrays instead (_store), and this dictionary stays empty
        self.memory: dict[object, object] = {}
        # the piles' prefixes as small ids, one trie for the whole solve: (prefix id << 4 | next rank) -> id
        self.ids: dict[int, int] = {}
        self._searcher: _Search | None = None  # the search object, made at the first search and set up again
        # the piles of the last search and their prefixes' ids: the next search looks up only what changed
        # (compiled, relaxed.pxd makes these C arrays: MAX_WASTES piles of MAX_PILE cards)
        if not cython.compiled:
            self.order_c = order
            self.place_c = self.place
            self.cached = [[0] * MAX_PILE for _ in range(MAX_WASTES)]
            self.cached_ids = [[0] * (MAX_PILE + 1) for _ in range(MAX_WASTES)]
            self.cached_len = [0] * MAX_WASTES
        else:
            for k in range(len(order)):
                for q in range(self.ranks):
                    self.order_c[k][q] = order[k][q]
                for r in range(self.ranks + 1):
                    self.place_c[k][r] = self.place[k][r]

    def search(
        self,
        foundations: list[int],
        piles: list[list[int]],
        limit: int,
        hint: dict[int, tuple[float, int, int]] | None = None,
    ) -> list[tuple[int, int]] | None:
        """Decide the relaxed game: the waste moves of a win as ``(card, foundation)``, or None if lost.

        ``limit``: the most states to expand (RelaxedOverLimit past it). ``hint``: card ->
        (when, foundation, rank) from an earlier win of a similar position; the search tries the
        cards in that order first.
        """
        return self._run(foundations, piles, limit, hint, None, None)

    def search_witnessed(
        self, foundations: list[int], piles: list[list[int]], limit: int, slots: list[int], times: list[float]
    ) -> list[tuple[int, int]] | None:
        """:meth:`search` hinted by a witness of :mod:`calcnb.solver.witness` as it is: ``slots[k * ranks + j]``
        the waste card filling place j of foundation k (negative: none) and ``times[s]`` when slot s is filled.
        The same hint as ``{card: (times[s], k, order[k][j])}``, without making it."""
        return self._run(foundations, piles, limit, None, slots, times)

    def _run(
        self,
        foundations: list[int],
        piles: list[list[int]],
        limit: int,
        hint: dict[int, tuple[float, int, int]] | None,
        slots: list[int] | None,
        times: list[float] | None,
    ) -> list[tuple[int, int]] | None:
        search = self._searcher
        if search is None:
            search = self._searcher = _Search(self)
        search._setup(self, foundations, piles, limit, hint, slots, times)  # one search object for the whole solve
        won = search.step()
        if won == _OVER:
            raise RelaxedOverLimit
        if won == _LOST:
            return None
        search.events.reverse()
        return search.events

    def clear(self) -> None:
        """Forget every state (and the prefix ids their keys use)."""
        self.memory.clear()
        self.ids.clear()
        for w in range(MAX_WASTES):
            self.cached_len[w] = 0
        self._searcher = None  # (it refers to this game: the two are freed at once, not by the cyclic collector)
        if cython.compiled:
            self._free()

    # ------------------------------------------------------------------ compiled: the memory in C arrays
    # A state's key is three ints: the piles' prefix ids, two to an int (a, b), and the foundations' counts, 4 bits
    # each (c). ``entries`` holds 4 ints a state, in the order they were stored: a, b, c | what is known << 16,
    # and the next state of a win (its entry + 1, 0: none). What is known: 1 lost, or 2 | foundation << 4 |
    # card << 8, the first move of a win. ``index``: an open-addressing hash table of entry + 1 (0: empty).

    def _find(self, a: int, b: int, c: int) -> int:
        """Compiled: the entry of the state keyed (a, b, c), or -1."""
        if not self.index_size:
            return -1
        mask = self.index_size - 1
        i = _mix(a, b, c) & mask
        while True:
            e = self.index[i] - 1
            if e < 0:
                return -1
            if self.entries[4 * e] == a and self.entries[4 * e + 1] == b and (self.entries[4 * e + 2] & 0xFFFF) == c:
                return e
            i = (i + 1) & mask

    def _store(self, a: int, b: int, c: int, known: int, after: int) -> int:
        """Compiled: a new entry (a state not in the table), ``after`` the next state's entry (-1: none); its number."""
        if self.stored == self.entries_size:
            size = 2 * self.entries_size if self.entries_size else 1024
            grown = realloc(self.entries, 4 * size * cython.sizeof(cython.ulonglong))
            if not grown:
                raise MemoryError
            self.entries = cython.cast(cython.p_ulonglong, grown)
            self.entries_size = size
        if 2 * (self.stored + 1) > self.index_size:
            self._grow_index()
        e = self.stored
        self.entries[4 * e] = a
        self.entries[4 * e + 1] = b
        self.entries[4 * e + 2] = c | known << 16
        self.entries[4 * e + 3] = after + 1
        self.stored = e + 1
        self._place(e)
        return e

    def _place(self, e: int) -> None:
        """Compiled: entry e into the hash table (there is room)."""
        mask = self.index_size - 1
        i = _mix(self.entries[4 * e], self.entries[4 * e + 1], self.entries[4 * e + 2] & 0xFFFF) & mask
        while self.index[i]:
            i = (i + 1) & mask
        self.index[i] = e + 1

    def _grow_index(self) -> None:
        """Compiled: a hash table twice as large (at least 2048), every entry placed again."""
        size = 2 * self.index_size if self.index_size else 2048
        grown = calloc(size, cython.sizeof(cython.longlong))
        if not grown:
            raise MemoryError
        free(self.index)
        self.index = cython.cast(cython.p_longlong, grown)
        self.index_size = size
        for e in range(self.stored):
            self._place(e)

    def _free(self) -> None:
        """Compiled: forget every state, the arrays freed."""
        free(self.entries)
        free(self.index)
        self.entries = cython.NULL
        self.index = cython.NULL
        self.entries_size = self.index_size = self.stored = 0

    def __dealloc__(self) -> None:
        if cython.compiled:
            self._free()


class _Search:
    """One relaxed search: the state as it changes in place, and the winning line once found.

    :meth:`step` runs once per relaxed state, the solver's hottest code. Compiled, ``relaxed.pxd``
    makes this a C class whose state is C arrays; interpreted, it is the same code on lists.
    """

    def __init__(self, game: RelaxedGame) -> None:
        self.game = game
        self.memory = game.memory
        self.events: list[tuple[int, int]] = []
        self.last = -1 if cython.compiled else None

    def _setup(
        self,
        game: RelaxedGame,
        foundations: list[int],
        piles: list[list[int]],
        limit: int,
        hint: dict[int, tuple[float, int, int]] | None,
        slots: list[int] | None,
        times: list[float] | None,
    ) -> None:
        """The start state (compiled, in typed code: ``__init__`` cannot be)."""
        self.memory = game.memory
        self.ranks = R = game.ranks
        self.shift = game.card_shift
        self.F = F = len(game.order)
        self.W = W = len(piles)
        most = 0
        for w in range(W):
            if len(piles[w]) > most:
                most = len(piles[w])
        if R > MAX_RANKS or F > MAX_FOUNDATIONS or W > MAX_WASTES or most > MAX_PILE:
            check_size(R, F, W, most)
        self._copy_tables(game, piles)
        self._count_demand(foundations)
        self.cards_left = self._read_piles(game, piles)  # waste cards still to place
        self._read_hint(hint, piles)
        if slots is not None:
            self._read_witness(slots, times, piles)
        self._hint_below()
        self.states_left = limit
        self.events: list[tuple[int, int]] = []  # the winning line, last move first
        # the state that just won, the line goes on from there: its key, or None (compiled: its entry, or -1)
        self.last = -1 if cython.compiled else None

    def _copy_tables(self, game: RelaxedGame, piles: list[list[int]]) -> None:
        """The foundation orders, their places and the piles' cards: the tables the search reads and never changes."""
        R, F, W = self.ranks, self.F, self.W
        if not cython.compiled:  # interpreted: lists stand for the C arrays
            self.order = game.order
            self.place = game.place
            self.piles = piles
            self.p = [0] * F
            self.h = [0] * W
            self.tops = [0] * W
            self.contents = [0] * W
            self.copies = [0] * (R + 1)
            self.demand = [0] * (R + 1)
            self.prefix = [[0] * (len(pile) + 1) for pile in piles]
            self.hinted_when = [[0.0] * len(pile) for pile in piles]
            self.hinted_foundation = [[0] * len(pile) for pile in piles]
        else:  # compiled: the C arrays start zeroed; copy the tables in
            for k in range(F):
                for q in range(R):
                    self.order[k][q] = game.order_c[k][q]
                for r in range(1, R + 1):
                    self.place[k][r] = game.place_c[k][r]
            for w in range(W):
                pile = piles[w]
                for d in range(len(pile)):
                    self.piles[w][d] = pile[d]

    def _count_demand(self, foundations: list[int]) -> None:
        """The foundations' counts (``p``) and, for each rank, the places on them still to fill with it (``demand``)."""
        p, demand, R = self.p, self.demand, self.ranks
        for r in range(R + 1):  # (compiled, the array of the search before)
            demand[r] = 0
        for k in range(self.F):
            p[k] = foundations[k]
            o = self.order[k]
            for j in range(p[k], R):
                demand[o[j]] += 1

    def _read_piles(self, game: RelaxedGame, piles: list[list[int]]) -> int:
        """Each pile's height, top, cards of each rank (``copies``) and prefix ids; the number of waste cards.

        ``prefix[w][t]``: pile w's bottom t cards as one id (a node of the trie of every prefix seen, ``game.ids``);
        the bottom cards the pile shares with the last search's keep their ids. Every card is marked not hinted
        (yet): :meth:`_read_hint` comes next.
        """
        copies = self.copies
        for r in range(self.ranks + 1):  # (compiled, the array of the search before)
            copies[r] = 0
        ids = game.ids
        cards_left = 0
        for w in range(self.W):
            pile = piles[w]
            n = len(pile)
            self.h[w] = n
            cards_left += n
            self.tops[w] = pile[n - 1] if n else 0  # each pile's top rank, 0 when empty
            cached = game.cached[w]
            cached_ids = game.cached_ids[w]
            same = 0
            last = game.cached_len[w]
            while same < n and same < last and cached[same] == pile[same]:
                same += 1
            for d in range(same + 1):
                self.prefix[w][d] = cached_ids[d]
            node = cached_ids[same]
            for d in range(n):
                r = pile[d]
                copies[r] += 1  # waste copies of each rank
                self.hinted_foundation[w][d] = -2  # not hinted (yet)
                if d >= same:
                    link = node << 4 | r
                    child = ids.get(link)
                    if child is None:
                        child = ids[link] = len(ids) + 1
                        if child >= _ID_LIMIT:
                            raise MemoryError("more pile prefixes than the relaxed memory's keys hold")
                    node = child
                    self.prefix[w][d + 1] = node
                    cached[d] = r
                    cached_ids[d + 1] = node
            game.cached_len[w] = n
            self.contents[w] = node  # each pile's prefix id now
        return cards_left

    def _read_hint(self, hint: dict[int, tuple[float, int, int]] | None, piles: list[list[int]]) -> None:
        """What the hint says of each card it names: (when, foundation)."""
        shift, W = self.shift, self.W
        if hint is not None:
            depth_mask = (1 << shift) - 1
            for card, entry in hint.items():
                w = card >> shift
                d = card & depth_mask
                if 0 <= w < W and d < self.h[w] and piles[w][d] == entry[2]:
                    self.hinted_when[w][d] = entry[0]
                    self.hinted_foundation[w][d] = entry[1]

    def _read_witness(self, slots: list[int], times: list[float], piles: list[list[int]]) -> None:
        """:meth:`_read_hint` for the hint a witness's slots and times make (:meth:`RelaxedGame.search_witnessed`)."""
        shift, W, R = self.shift, self.W, self.ranks
        depth_mask = (1 << shift) - 1
        for k in range(self.F):
            o = self.order[k]
            for j in range(R):
                card = slots[k * R + j]
                if card >= 0:
                    w = card >> shift
                    d = card & depth_mask
                    if w < W and d < self.h[w] and piles[w][d] == o[j]:
                        self.hinted_when[w][d] = times[k * R + j]
                        self.hinted_foundation[w][d] = k

    def _hint_below(self) -> None:
        """Each card the hint says nothing of: the time of the first hinted card beneath it (just before it) and
        no foundation (-1)."""
        for w in range(self.W):
            below = _UNHINTED
            for d in range(self.h[w]):
                if self.hinted_foundation[w][d] == -2:
                    self.hinted_when[w][d] = below
                    self.hinted_foundation[w][d] = -1
                else:
                    below = self.hinted_when[w][d] - 0.5

    def key(self) -> tuple[int, int, int]:
        """Compiled: the current state's key in the memory's table (see :meth:`RelaxedGame._find`).

        Interpreted, :meth:`choose` makes the tuple of counts and ids instead (quicker in Python).
        """
        p, contents = self.p, self.contents
        a = b = c = 0
        for k in range(self.F):
            c |= p[k] << 4 * k
        for w in range(self.W):
            node = contents[w]
            if w < 2:
                a |= node << 32 * w
            else:
                b |= node << 32 * (w - 2)
        return a, b, c

    def step(self) -> int:
        """Is the current state won (_WON, _LOST, or _OVER: too many states)? Changes the state to look, and puts
        it back before returning. On a win, ``events`` holds its line (last move first)."""
        p, copies, demand, R = self.p, self.copies, self.demand, self.ranks
        F = self.F
        advanced = [0] * 8  # (foundation, count before) for each advanced from the stock on entry: 2 MAX_FOUNDATIONS
        n = 0
        for k in range(F):  # a rank with no copy on a waste comes from the stock at once
            o = self.order[k]
            q = start = p[k]
            while q < R:
                r = o[q]
                if copies[r]:
                    break
                demand[r] -= 1
                q += 1
            if q != start:
                advanced[n] = k
                advanced[n + 1] = start
                n += 2
                p[k] = q
        won = self.choose()
        for a in range(n - 2, -1, -2):  # the stock cards go back, last first
            k = advanced[a]
            start = advanced[a + 1]
            o = self.order[k]
            for t in range(start, p[k]):
                demand[o[t]] += 1
            p[k] = start
        return won

    def choose(self) -> int:
        """The moves of the current state, the stock's forced cards already played: is one of them a win (as
        :meth:`step`)?"""
        if not self.cards_left:
            self.last = -1 if cython.compiled else None
            return _WON
        p, copies, demand = self.p, self.copies, self.demand
        h, tops, contents = self.h, self.tops, self.contents
        memory = self.memory
        if cython.compiled:  # the memory in C arrays
            a, b, c = self.key()
            e = self.game._find(a, b, c)
            if e >= 0:
                if self.game.entries[4 * e + 2] >> 16 == 1:
                    return _LOST
                self._recall_entry(e)
                self.last = e
                return _WON
        else:
            key = (*p, *self.contents)
            known = memory.get(key)
            if known is not None:
                if known is False:
                    return _LOST
                self._recall(known)
                self.last = key
                return _WON
        self.states_left -= 1
        if self.states_left < 0:
            return _OVER
        # the moves to try, best first: the forced ones if any, else every top that can go somewhere. A move is
        # (when, rest): rest packs (not the hinted foundation, skip, foundation, waste) so that (when, rest) sorts
        # as they do
        whens = [0.0] * 16  # MAX_FOUNDATIONS * MAX_WASTES
        rests = [0] * 16
        n = self._forced_moves(whens, rests)
        if n < 0:
            n = self._free_moves(whens, rests)
            if n < 0:  # a card no foundation needs any more: it can never leave
                if cython.compiled:
                    self.game._store(a, b, c, 1, -1)
                else:
                    memory[key] = False
                return _LOST
        # waste w's top to foundation k, the places skipped from the stock
        for m in range(n):
            k = rests[m] >> 4 & 15
            w = rests[m] & 15
            hw = h[w] - 1
            pile = self.piles[w]
            prefix = self.prefix[w]
            r = pile[hw]
            q = p[k]
            j = self.place[k][r]  # the card fills place j - 1 (0-based): k will hold j cards
            o = self.order[k]
            for t in range(q, j):
                demand[o[t]] -= 1
            copies[r] -= 1
            h[w] = hw
            tops[w] = pile[hw - 1] if hw else 0
            contents[w] = prefix[hw]
            self.cards_left -= 1
            p[k] = j
            won = self.step()
            p[k] = q
            self.cards_left += 1
            h[w] = hw + 1
            tops[w] = r
            contents[w] = prefix[hw + 1]
            copies[r] += 1
            for t in range(q, j):
                demand[o[t]] += 1
            if won == _WON:
                card = w << self.shift | hw
                self.events.append((card, k))
                if cython.compiled:
                    self.last = self.game._store(a, b, c, 2 | k << 4 | card << 8, self.last)
                else:
                    memory[key] = (card, k, self.last)
                    self.last = key
                return _WON
            if won == _OVER:
                return _OVER
        if cython.compiled:
            self.game._store(a, b, c, 1, -1)
        else:
            memory[key] = False
        return _LOST

    def _forced_moves(self, whens: list[float], rests: list[int]) -> int:
        """The forced moves, if any: how many (-1: none is forced), written into ``whens`` and ``rests``.

        A needed rank whose waste copies are all on top: one of them goes now, nothing else is tried (the
        first foundation, in order, that needs such a rank; each top of that rank to it).
        """
        p, copies, tops, R, W = self.p, self.copies, self.tops, self.ranks, self.W
        n = 0
        for k in range(self.F):
            q = p[k]
            if q < R:
                r = self.order[k][q]
                on_top = 0
                for w in range(W):
                    if tops[w] == r:
                        on_top += 1
                if on_top == copies[r]:
                    for w in range(W):
                        if tops[w] == r:
                            whens[n] = 0.0
                            rests[n] = k << 4 | w
                            n += 1
                    return n
        return -1

    def _free_moves(self, whens: list[float], rests: list[int]) -> int:
        """Every top to every foundation it can reach, best first: how many, written into ``whens`` and ``rests``.

        A top reaches a foundation when the places it skips can all be filled from the stock. The order: the
        hint's, then the hinted foundation first, then the shortest skip. -1 (lost) when some top's rank is
        needed by no foundation any more: that card can never leave.
        """
        p, copies, demand, h, tops = self.p, self.copies, self.demand, self.h, self.tops
        F = self.F
        # reach[k]: foundation k's places from p[k] up to reach[k] can all be filled from the stock (a place can
        # when its rank has a stock copy: demand above the waste copies); found once per foundation, as far as
        # some top asks, rather than once per top
        reach = [0] * 4  # MAX_FOUNDATIONS
        for k in range(F):
            reach[k] = p[k]
        n = 0
        for w in range(self.W):
            hw = h[w]
            if not hw:
                continue
            r = tops[w]
            when = self.hinted_when[w][hw - 1]
            hinted_foundation = self.hinted_foundation[w][hw - 1]
            needed = False  # does some foundation still need this card's rank?
            for k in range(F):
                q = p[k]
                j = self.place[k][r] - 1
                if j < q:
                    continue
                needed = True
                t = reach[k]
                if t < j:  # the places skipped are filled from the stock
                    o = self.order[k]
                    while t < j:
                        s = o[t]
                        if demand[s] <= copies[s]:
                            break
                        t += 1
                    reach[k] = t
                    if t < j:
                        continue
                rest = (k != hinted_foundation) << 12 | (j - q) << 8 | k << 4 | w
                i = n  # insert in order
                while i and (whens[i - 1] > when or (whens[i - 1] == when and rests[i - 1] > rest)):
                    whens[i] = whens[i - 1]
                    rests[i] = rests[i - 1]
                    i -= 1
                whens[i] = when
                rests[i] = rest
                n += 1
            if not needed:
                return -1
        return n

    def _recall(self, known: tuple) -> None:
        """Append the line remembered from a state known to win (it goes on through the memory)."""
        line = []
        link = known
        while link is not None:
            line.append(link[:2])
            link = self.memory[link[2]] if link[2] is not None else None
        line.reverse()
        self.events.extend(line)

    def _recall_entry(self, e: int) -> None:
        """Compiled: :meth:`_recall` from the memory's entry e, a state known to win."""
        entries = self.game.entries
        line = []
        while e >= 0:
            known = entries[4 * e + 2] >> 16
            line.append((known >> 8, known >> 4 & 15))
            after = entries[4 * e + 3]
            e = after - 1
        line.reverse()
        self.events.extend(line)


def _mix(a: int, b: int, c: int) -> int:
    """Compiled: a state's key (RelaxedGame._find) hashed into one 64-bit int (the products wrap around), well
    spread in its low bits."""
    h = a * _K1 ^ b * _K2 ^ c * _K3
    h = (h ^ h >> 32) * _K1
    return h ^ h >> 29


__all__ = ["MAX_FOUNDATIONS", "MAX_PILE", "MAX_RANKS", "MAX_WASTES", "RelaxedGame", "RelaxedOverLimit", "check_size"]
