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

_UNHINTED = float("inf")  # when a card the hint says nothing of is tried: last

MAX_RANKS = RANK_COUNT
"""The most ranks, foundations, wastes and cards on one waste the compiled search holds (its C arrays are
this size: ``relaxed.pxd`` and ``position.pxd`` spell the same numbers)."""
MAX_FOUNDATIONS = FOUNDATIONS
MAX_WASTES = WASTES
MAX_PILE = DECK_SIZE

_ID_BITS = 12  # a pile's prefix id in a state's key: one 64-bit key while every id is below 1 << _ID_BITS
_SMALL_ID = 1 << _ID_BITS

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
        # a state's key (see _Search.key) -> False (lost) or (card, foundation, next state's key): the first
        # move of a known way to win, then where it leads
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


class _Search:
    """One relaxed search: the state as it changes in place, and the winning line once found.

    :meth:`step` runs once per relaxed state, the solver's hottest code. Compiled, ``relaxed.pxd``
    makes this a C class whose state is C arrays; interpreted, it is the same code on lists.
    """

    def __init__(self, game: RelaxedGame) -> None:
        self.memory = game.memory
        self.events: list[tuple[int, int]] = []
        self.last = None

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
        self.last = None  # the state that just won: the line goes on from there

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

    def key(self) -> int | tuple[int, ...]:
        """The current state as a key of the memory, compiled: the foundations' counts and each pile's prefix id.

        One int (4 bits a foundation, then 12 bits a pile) while the ids are small, else a tuple.
        Interpreted, :meth:`choose` makes the tuple of counts and ids at once (quicker in Python).
        """
        p, contents = self.p, self.contents
        packed = 0
        for k in range(self.F):
            packed = packed << 4 | p[k]
        small = True
        for w in range(self.W):
            node = contents[w]
            if node >= _SMALL_ID:
                small = False
            packed |= node << (16 + _ID_BITS * w)
        if small:
            return packed
        return (*[p[k] for k in range(self.F)], *[contents[w] for w in range(self.W)])

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
            self.last = None
            return _WON
        p, copies, demand = self.p, self.copies, self.demand
        h, tops, contents = self.h, self.tops, self.contents
        memory = self.memory
        key = self.key() if cython.compiled else (*p, *self.contents)
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
            if n < 0:
                memory[key] = False  # a card no foundation needs any more: it can never leave
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
                memory[key] = (card, k, self.last)
                self.last = key
                return _WON
            if won == _OVER:
                return _OVER
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


__all__ = ["MAX_FOUNDATIONS", "MAX_PILE", "MAX_RANKS", "MAX_WASTES", "RelaxedGame", "RelaxedOverLimit", "check_size"]
