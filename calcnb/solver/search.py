"""The search loop: iterated limited-discrepancy depth-first search, restarted on a Luby schedule.

Iteration ``b`` explores every line whose departures from the heuristic order
(:mod:`calcnb.solver.ordering`) cost at most ``b`` in all; the table (:mod:`calcnb.solver.table`)
keeps the proofs, which depend only on the rules, never on the costs. Each attempt restarts from
the root with a seeded, perturbed order and keeps the proofs found before. The search applies the
``safe``, ``forbid`` and ``dominance`` rules. The costs, the restarts, and why each rule is
sound: ``docs/design.md``.
"""

from __future__ import annotations

import gc
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from calcnb.game.rules import UNKNOWN, Status

from .dead import DeadTest
from .ordering import Ordering
from .position import _INF, Position, Step
from .table import PROVEN, Table
from .witness import RELAXED_LOST, RELAXED_TOO_BIG, Witnesses

RULES = frozenset({"symmetry", "safe", "forbid", "dominance", "dead", "relaxed"})
"""The pruning rules that can be switched off (for tests); ranks and turn-at-once are built in.
``dominance`` works on the marks ``forbid`` leaves, so it acts only when ``forbid`` is on too."""

RESTART_NODES = 2000
"""Nodes in the shortest attempt; attempt ``a`` may use ``RESTART_NODES * luby(a)`` nodes."""

HARD_COST = 1
"""The extra budget a position costs to enter when its relaxed game was too big to decide."""


class Node(Enum):
    """What the search of one node found."""

    WIN = "win"  # a winning line: the path holds it
    LOST = "lost"  # proven: every child explored, nothing cut below
    CUT = "cut"  # failed within the budget, but some line was cut off


WIN, LOST, CUT = Node  # plain names for the hot code


class Outcome(Enum):
    """The verdict of a whole search, valued by the rules core's words for it."""

    WON = Status.WON.value
    LOST = Status.LOST.value
    UNKNOWN = UNKNOWN


@dataclass(frozen=True)
class SearchResult:
    """A search's verdict, the winning line as ``(kind, waste, foundation)`` triples, and the nodes visited."""

    outcome: Outcome
    line: list[tuple[int, int, int]]
    nodes: int


class _OutOfBudget(Exception):
    """The node or time budget ran out."""


class _Restart(Exception):
    """The current attempt used its share of nodes: start again from the root in another order."""


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if (1 << k) - 1 == i:
        return 1 << (k - 1)
    return luby(i - (1 << (k - 1)) + 1)


class Search:
    """One search of one position: the node recursion, the rules it applies, and the attempts loop.

    ``deadline``: a time on ``clock`` to stop at; ``node_limit``: nodes to stop
    after; ``restart_nodes``: the shortest attempt (None: one attempt); ``relaxed_stock``: the
    ``relaxed`` rule checks positions with at most this many cards left to turn (None: every
    position).
    """

    def __init__(
        self,
        position: Position,
        *,
        rules: frozenset[str] = RULES,
        deadline: float | None = None,
        node_limit: int | None = None,
        restart_nodes: int | None = RESTART_NODES,
        relaxed_stock: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.position = position
        self.clock = clock
        self.deadline = deadline
        self.node_limit = node_limit
        self.restart_nodes = restart_nodes
        self.use_safe = "safe" in rules
        self.use_forbid = "forbid" in rules
        self.use_dominance = "dominance" in rules and self.use_forbid
        self.use_dead = "dead" in rules
        self.use_relaxed = "relaxed" in rules
        self.relaxed_stock = position.n if relaxed_stock is None else relaxed_stock
        self.table = Table(position, "symmetry" in rules)
        self.ordering = Ordering(position, "symmetry" in rules)
        self.dead = DeadTest(position)
        self.witnesses = Witnesses(position)
        self.nodes = 0
        self.stop = 0  # the node count that ends the current attempt (or the whole search)

    # ------------------------------------------------------------------ the rules at a node

    def safe_scan(self) -> tuple[int, list[int]] | bool | None:
        """A card to move at once ``(source, foundations)``, None, or False when some card can never leave.

        The ``safe`` rule; the "never leave" test reads the ``forbid`` marks.
        """
        position = self.position
        needers, wants, FR = position.needers, position.wants, position.FR
        i = position.index
        if i < position.n:
            r = position.stock[i]
            m = position.marks
            allowed = needers[r] & ~m
            if not allowed:
                return False
            if self.use_safe and allowed == wants[r] & ~m:
                return -1, [k for k in FR if allowed >> k & 1]
        for w, pile in enumerate(position.piles):
            if pile:
                r = pile[-1]
                m = position.masks[w][-1]
                allowed = needers[r] & ~m
                if not allowed:
                    return False
                if self.use_safe and allowed == wants[r] & ~m:
                    return w, [k for k in FR if allowed >> k & 1]
        return None

    def starved(self, k: int, r: int) -> bool:
        """After forbidding a card for k: has k no copy of rank r left that it may take? (``forbid``)"""
        position = self.position
        i = position.index
        if position.next_in_stock[i + 1][r] < _INF:
            return False
        if i < position.n and position.stock[i] == r and not (position.marks >> k) & 1:
            return False
        bit = 1 << k
        for pile, mk in zip(position.piles, position.masks):
            for d in range(len(pile)):
                if pile[d] == r and not mk[d] & bit:
                    return False
        return True

    def dominated(self, k: int, r: int, tried: list[tuple[int, int]]) -> bool:
        """Was a waste top of rank r tried on k here, forbidden everything the turned card is (but k)?"""
        position = self.position
        m = position.marks & ~(1 << k)
        piles, masks = position.piles, position.masks
        for w, k2 in tried:  # noqa: SIM110 (a loop, not a generator: the compiled form types it)
            if k2 == k and piles[w][-1] == r and not m & ~masks[w][-1]:
                return True
        return False

    # ------------------------------------------------------------------ the recursion

    def node(self, budget: int) -> Node:
        """Search the current position within ``budget``: safe moves first, then :meth:`expand`."""
        self.nodes += 1
        if self.nodes > self.stop:
            raise _OutOfBudget if self.node_limit is not None and self.nodes > self.node_limit else _Restart
        if self.deadline is not None and self.clock() > self.deadline:  # every node: a node costs at most ms
            raise _OutOfBudget
        position = self.position
        applied = 0
        tie = None
        result = None
        while True:
            found = self.safe_scan()
            if found is None:
                break
            if found is False:
                result = LOST
                break
            src, now = found
            if len(now) > 1:
                tie = found
                break
            position.to_foundation(src, now[0])
            applied += 1
        if result is None:
            result = self.expand(budget, tie)
            if result is WIN:
                return WIN
        for _ in range(applied):
            position.undo()
        return result

    def _known(self, key: tuple, budget: int) -> tuple[Node | None, int]:
        """What the table and the tests say before any child: a result, or None and the budget left."""
        table = self.table
        known = table.get(key)
        if known is not None:
            if known == PROVEN:
                return LOST, budget
            if table.cuts(known, budget):  # entries from earlier attempts are stale but mark the position not dead
                return CUT, budget
        elif self._lost_at_sight(key):  # a position seen before was not dead
            table.prove(key)
            return LOST, budget
        if key in table.hard:  # a relaxed game too big to decide: the position looks lost, so it costs more
            if budget < HARD_COST:
                table.failed(key, budget)
                return CUT, budget
            budget -= HARD_COST
        return None, budget

    def _lost_at_sight(self, key: tuple) -> bool:
        """The ``dead`` and ``relaxed`` tests at a new position (the relaxed one only late enough)."""
        if self.use_dead and self.dead.lost():
            return True
        position = self.position
        if self.use_relaxed and position.n - position.index <= self.relaxed_stock:
            verdict = self.witnesses.check()
            if verdict is RELAXED_TOO_BIG:
                self.table.hard.add(key)
            return verdict is RELAXED_LOST
        return False

    def expand(self, budget: int, tie: tuple[int, list[int]] | None) -> Node:
        """Try the position's children: foundation moves at no cost, then placements within the budget."""
        position = self.position
        if position.won():
            return WIN
        key = self.table.key()
        result, budget_left = self._known(key, budget)
        if result is not None:
            return result
        own = self.witnesses.own()  # this position's relaxed witness, if it has one: it orders the placements
        pairs = self.ordering.foundation_moves(tie)
        exact = True
        forbidden: list[tuple[int, int]] = []
        rest_dead = False
        tried: list[tuple[int, int]] = []  # waste piles whose top was tried on a foundation here
        turned = position.stock[position.index] if position.index < position.n else 0
        for _, src, k in pairs:
            if self.use_dominance and src < 0 and self.dominated(k, turned, tried):
                continue
            if src >= 0:
                tried.append((src, k))
            position.to_foundation(src, k)
            result = self.node(budget_left)
            if result is WIN:
                return WIN
            position.undo()
            if result is CUT:
                exact = False
            if self.use_forbid:
                position.set_forbid(src, k, True)
                forbidden.append((src, k))
                if self.starved(k, position.rank_of(src)):
                    rest_dead = True
                    break
        if not rest_dead and tie is None and position.index < position.n:
            result = self._placements(budget_left, own, cost=1 if pairs else 0)
            if result is WIN:
                return WIN
            exact = exact and result is LOST
        for src, k in forbidden:
            position.set_forbid(src, k, False)
        if exact:
            self.table.prove(key)
            return LOST
        self.table.failed(key, budget)
        return CUT

    def _placements(self, budget: int, own, cost: int) -> Node:
        """Put the turned card on each waste in order, each choice after the first one more discrepancy.

        ``cost``: what the first placement costs (1 when a foundation move was possible: keeping a
        card off a foundation that wants it is a discrepancy). LOST when every placement was
        searched and proven, CUT when one was cut or not tried within the budget.
        """
        position = self.position
        exact = True
        for index, w in enumerate(self.ordering.placements(own)):
            if index:
                cost += 1
            if cost > budget:
                return CUT
            position.stock_to_waste(w)
            result = self.node(budget - cost)
            if result is WIN:
                return WIN
            position.undo()
            if result is CUT:
                exact = False
        return LOST if exact else CUT

    # ------------------------------------------------------------------ attempts

    def run(self) -> SearchResult:
        """Search in attempts until the root is won or proven lost, or the budget runs out."""
        outcome = Outcome.UNKNOWN
        collecting = gc.isenabled()
        gc.disable()  # the table holds many small tuples; the cyclic collector would rescan them in vain
        try:
            for attempt in itertools.count(1):
                if attempt > 1:
                    # seeded: the same position always gets the same search
                    self.ordering.shuffle = random.Random(attempt)
                    self.position.back_to_root()
                    # proofs hold whatever the order; the budgets a position failed with belong to one attempt
                    self.table.new_attempt()
                limits = [] if self.restart_nodes is None else [self.nodes + self.restart_nodes * luby(attempt)]
                if self.node_limit is not None:
                    limits.append(self.node_limit)
                self.stop = min(limits, default=PROVEN)
                try:
                    outcome = self._attempt()
                except _Restart:
                    continue
                break
        except _OutOfBudget:
            pass
        finally:
            # free the table before the collector is back on: otherwise its first pass walks every entry
            self.table.clear()
            self.witnesses.clear()
            if collecting:
                gc.enable()
        line = [(kind, w, k) for kind, w, k, _ in self.position.path] if outcome is Outcome.WON else []
        return SearchResult(outcome, line, self.nodes)

    def _attempt(self) -> Outcome:
        """Iterate the budget from 0 until the root is won or proven lost (or an exception ends it)."""
        budget = 0
        while True:
            result = self.node(budget)
            if result is WIN:
                return Outcome.WON
            if result is LOST:
                return Outcome.LOST
            budget += 1


__all__ = ["HARD_COST", "RESTART_NODES", "RULES", "Node", "Outcome", "Search", "SearchResult", "Step", "luby"]
