"""The relaxed game: Calculation with the whole stock at hand. The solver's test for lost positions.

In the *relaxed game* every card still in the stock may go to a foundation at any moment, and
nothing is ever put on a waste. Every winning line of the real game is one of the relaxed game, so
a position lost in the relaxed game is lost. :class:`RelaxedGame` decides it with a depth-first
search over "which waste top leaves next, and to which foundation", remembering for the whole solve
every relaxed state proven lost. The argument and the search's shortcuts: ``docs/design.md``.
"""

from __future__ import annotations

from calcnb.game.rules import positions

_UNHINTED = float("inf")  # when a card the hint says nothing of is tried: last


class RelaxedOverLimit(Exception):
    """The relaxed search looked at more states than it was allowed."""


class RelaxedGame:
    """The relaxed game of one solve: its foundation orders and the memory of states decided so far.

    ``order[k]`` lists the ranks foundation ``k`` builds, first to last (from :func:`calcnb.game.rules.orders`).
    ``card_shift``: a waste card is named ``w << card_shift | depth`` (its pile and its place from the bottom).
    """

    def __init__(self, order: tuple[tuple[int, ...], ...], card_shift: int) -> None:
        self.order = order
        self.ranks = len(order[0])
        self.card_shift = card_shift
        self.place = positions(order, self.ranks)  # place[k][r]: where foundation k takes rank r, 1-based
        self.rank_bits = self.ranks.bit_length()
        # state (foundations, then each pile's contents as a number) -> False (lost) or
        # (card, foundation, next state): the first move of a known way to win, then where it leads
        self.memory: dict[tuple[int, ...], object] = {}

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
        search = _Search(self, foundations, piles, limit, hint)
        if not search.won():
            return None
        search.events.reverse()
        return search.events


class _Search:
    """One relaxed search: the state as it changes in place, and the winning line once found.

    :meth:`step` runs once per relaxed state, the solver's hottest code. Compiled, ``relaxed.pxd``
    makes this a C class and types the step's locals; interpreted, it is the same code.
    """

    def __init__(
        self,
        game: RelaxedGame,
        foundations: list[int],
        piles: list[list[int]],
        limit: int,
        hint: dict[int, tuple[float, int, int]] | None,
    ) -> None:
        self.order = order = game.order
        self.place = game.place
        self.memory = game.memory
        self.ranks = R = game.ranks
        self.shift = shift = game.card_shift
        self.F = len(order)
        self.W = len(piles)
        self.piles = piles
        self.p = list(foundations)
        self.h = h = [len(pile) for pile in piles]
        self.copies = copies = [0] * (R + 1)  # waste copies of each rank
        for pile in piles:
            for r in pile:
                copies[r] += 1
        self.demand = demand = [0] * (R + 1)  # places on the foundations still to fill with each rank
        for k in range(self.F):
            for j in range(self.p[k], R):
                demand[order[k][j]] += 1
        # prefix[w][t]: pile w's bottom t cards as one number (ranks are >= 1, so it also tells t)
        self.prefix = []
        for pile in piles:
            codes = [0]
            for r in pile:
                codes.append(codes[-1] << game.rank_bits | r)
            self.prefix.append(codes)
        self.contents = [self.prefix[w][h[w]] for w in range(self.W)]
        self.tops = [pile[-1] if pile else 0 for pile in piles]  # each pile's top rank, 0 when empty
        # what the hint says of each card when it is on top: (when, foundation), or the time of the
        # first hinted card beneath it (just before it) and no foundation
        self.hinted_when: list[list[float]] = []
        self.hinted_foundation: list[list[int]] = []
        for w, pile in enumerate(piles):
            whens = []
            foundations_hinted = []
            below = _UNHINTED
            for depth, r in enumerate(pile):
                entry = hint.get(w << shift | depth) if hint is not None else None
                if entry is not None and entry[2] == r:
                    whens.append(entry[0])
                    foundations_hinted.append(entry[1])
                    below = entry[0] - 0.5
                else:
                    whens.append(below)
                    foundations_hinted.append(-1)
            self.hinted_when.append(whens)
            self.hinted_foundation.append(foundations_hinted)
        self.cards_left = sum(h)  # waste cards still to place
        self.states_left = limit
        self.events: list[tuple[int, int]] = []  # the winning line, last move first
        self.last = None  # the state that just won: the line goes on from there

    def won(self) -> bool:
        """Is the start state won? On a win, ``events`` holds its line (last move first)."""
        return bool(self.step())

    def step(self) -> bool:
        """Is the current state won? Changes the state to look, and puts it back before returning."""
        order, p, copies, demand, R = self.order, self.p, self.copies, self.demand, self.ranks
        F = self.F
        advanced = []  # (foundation, count before): the places filled from the stock on entry
        for k in range(F):  # a rank with no copy on a waste comes from the stock at once
            o = order[k]
            q = start = p[k]
            while q < R:
                r = o[q]
                if copies[r]:
                    break
                demand[r] -= 1
                q += 1
            if q != start:
                advanced.append(k)
                advanced.append(start)
                p[k] = q
        try:
            return self.choose()
        finally:
            for a in range(len(advanced) - 2, -1, -2):  # the stock cards go back, last first
                k = advanced[a]
                start = advanced[a + 1]
                o = order[k]
                for t in range(start, p[k]):
                    r = o[t]
                    demand[r] += 1
                p[k] = start

    def choose(self) -> bool:
        """The moves of the current state, the stock's forced cards already played: is one of them a win?"""
        if not self.cards_left:
            self.last = None
            return True
        order, p, copies, demand, R = self.order, self.p, self.copies, self.demand, self.ranks
        F, W, h, tops, piles = self.F, self.W, self.h, self.tops, self.piles
        contents, prefix, place, memory = self.contents, self.prefix, self.place, self.memory
        key = (*p, *contents)
        known = memory.get(key)
        if known is not None:
            if known is False:
                return False
            self._recall(known)
            self.last = key
            return True
        self.states_left -= 1
        if self.states_left < 0:
            raise RelaxedOverLimit
        # the moves to try, best first (none when some card can never leave: lost). A needed rank whose
        # waste copies are all on top: one of them goes now, nothing else is tried. Otherwise every top
        # to every foundation it can reach (the places skipped filled from the stock), in the hint's
        # order, then the hinted foundation first, then the shortest skip.
        moves = None
        for k in range(F):
            q = p[k]
            if q < R:
                r = order[k][q]
                on_top = 0
                for w in range(W):
                    if tops[w] == r:
                        on_top += 1
                if on_top == copies[r]:
                    moves = [(0, False, 0, k, w) for w in range(W) if tops[w] == r]  # scored like the rest
                    break
        if moves is None:
            moves = []
            # reach[k]: foundation k's places from p[k] up to reach[k] can all be filled from the stock (a
            # place can when its rank has a stock copy: demand above the waste copies); found once per
            # foundation, as far as some top asks, rather than once per top
            reach = p[:]
            for w in range(W):
                hw = h[w]
                if not hw:
                    continue
                r = tops[w]
                when = self.hinted_when[w][hw - 1]
                hinted_foundation = self.hinted_foundation[w][hw - 1]
                needed = False  # does some foundation still need this card's rank?
                for k in range(F):
                    q = p[k]
                    j = place[k][r] - 1
                    if j < q:
                        continue
                    needed = True
                    t = reach[k]
                    if t < j:  # the places skipped are filled from the stock
                        o = order[k]
                        while t < j:
                            s = o[t]
                            if demand[s] <= copies[s]:
                                break
                            t += 1
                        reach[k] = t
                        if t < j:
                            continue
                    moves.append((when, k != hinted_foundation, j - q, k, w))
                if not needed:
                    memory[key] = False  # no foundation needs this card any more
                    return False
            moves.sort()
        # waste w's top to foundation k, the places skipped from the stock
        for move in moves:
            k = move[3]
            w = move[4]
            hw = h[w] - 1
            r = piles[w][hw]
            q = p[k]
            j = place[k][r]  # the card fills place j - 1 (0-based): k will hold j cards
            o = order[k]
            for t in range(q, j):
                s = o[t]
                demand[s] -= 1
            copies[r] -= 1
            h[w] = hw
            tops[w] = piles[w][hw - 1] if hw else 0
            contents[w] = prefix[w][hw]
            self.cards_left -= 1
            p[k] = j
            won = self.step()
            p[k] = q
            self.cards_left += 1
            h[w] = hw + 1
            tops[w] = r
            contents[w] = prefix[w][hw + 1]
            copies[r] += 1
            for t in range(q, j):
                s = o[t]
                demand[s] += 1
            if won:
                card = w << self.shift | hw
                self.events.append((card, k))
                memory[key] = (card, k, self.last)
                self.last = key
                return True
        memory[key] = False
        return False

    def _recall(self, known: tuple) -> None:
        """Append the line remembered from a state known to win (it goes on through the memory)."""
        line = []
        link = known
        while link is not None:
            line.append(link[:2])
            link = self.memory[link[2]] if link[2] is not None else None
        line.reverse()
        self.events.extend(line)


__all__ = ["RelaxedGame", "RelaxedOverLimit"]
