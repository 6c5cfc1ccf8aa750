"""A solver that knows the stock order: is this position won, lost, or too hard to tell in the budget?

:func:`solve` takes a :class:`~calcnb.session.Game`, a :class:`~calcnb.engine.State` or a
deal code and returns a :class:`Solution`:

- ``"won"``: ``solution.moves`` replays through the engine from the given position to a win
  (checked before it is returned);
- ``"lost"``: proven. The search covered every possibility, up to the pruning rules below,
  each of which is argued sound (it never throws away the last winning line);
- ``"unknown"``: the budget in seconds or in search nodes ran out first.

How it searches
---------------
A lean internal position: ranks as small ints, each foundation as the number of cards on
it, each waste as a list of ranks, the stock as a tuple of ranks and an index. The search is
an iterated *limited-discrepancy* depth-first search with a transposition table. Every
choice has a cost; iteration ``b`` explores every line whose total cost is at most ``b``,
so ``b = 0`` follows the heuristic and each later iteration allows more departures from it.
The table remembers, for each position, the largest budget it failed with, or that it is
*proven* lost: a node is proven only when every child was explored with no cost cut anywhere
below it. When the root is proven, the position is lost, so proofs never depend on the costs,
only on the rules below; the budgets only decide what is looked at first.

Restarts. A search that follows one order can sink its whole budget under one early wrong turn.
So the search runs in *attempts*: attempt ``a`` may visit ``RESTART_NODES * luby(a)`` nodes
(the Luby sequence 1, 1, 2, 1, 1, 2, 4, ... is a restart schedule within a logarithmic factor
of the best fixed attempt length, which nobody knows in advance), then starts again from the
root with the heuristic's order perturbed by a seeded random tie-break, so the same position
always gets the same search. Proofs found in one attempt stay in the table for the next (a lost
position is lost whatever the order); the budgets positions failed with are kept only as "seen,
not dead" and never cut a later attempt.

Heuristic order and costs: foundation moves first, all at cost 0 (every way of sharing the
cards between the foundations is tried within each iteration), best first the foundation
whose following need is available soonest. Then the turned card goes on a waste in *reverse
order of need*: on the pile whose top is needed soonest after the card, else an empty pile,
else the least harmful pile (its top needed latest). How soon a rank is needed is the fewest
cards any foundation still needs before it. Where the position has a relaxed witness (see the
``relaxed`` rule), the witness orders the placements instead. Placing the card on a waste while
some foundation move was possible costs 1, and each placement after the first choice 1 more.

Sound rules (each tested against plain exhaustive search on small games in
``tests/test_solver.py``; the switches in :data:`RULES` turn them off one by one)
-------------------------------------------------------------------------------------------
``ranks`` — interchangeable cards of one rank. The rules never read a suit, so two positions
with the same ranks in the same places have the same future. The search works on ranks; the
moves it finds are waste and foundation numbers, which name the same cards in the real game.

``turn`` — turn at once. When no card is pending and the stock is not empty, turning is
played immediately. Turning changes neither wastes nor foundations, and every waste-to-
foundation move stays legal while a card is pending, so any winning line can postpone its
waste moves until just after the turn.

``symmetry`` — interchangeable waste piles. Renumbering the wastes maps winning lines to
winning lines, so two wastes holding the same ranks in the same order (in particular two
empty wastes) are one choice: only the first is tried. The transposition table keys a
position by its wastes sorted, so positions that differ only by the numbering are one entry.

``safe`` — moves that can never hurt. Let an available card ``c`` (the turned card or a
waste top) have rank ``r``. If every foundation that still needs an ``r`` needs it *now*,
``c`` is moved at once, and the only choice kept is which of those foundations takes it.
Why: all cards end on foundations, so a winning line puts ``c`` on some foundation ``f``
that needs ``r`` then; ``f`` needs ``r`` now, and a foundation that needs ``r`` cannot change
until it receives an ``r``, so ``f`` is unchanged until ``c`` arrives. Playing ``c -> f``
first and the rest of the line unchanged is legal: cards put on ``c``'s waste meanwhile
now lie on the card below ``c`` and leave in the same order, and nothing else looks at ``c``.
This is not "every foundation move is safe": when another foundation will need ``r`` later,
keeping ``c`` for it is a real choice, and so is which of several foundations takes a card.

``forbid`` — do it now or never. For an available card ``c`` and a foundation ``f`` that
needs its rank now, a winning line either plays ``c -> f`` at some point (then, by the same
argument, playing it first also wins) or never does. So after the child "``c -> f`` now" has
failed, its siblings may assume ``c`` never goes to ``f``: the pair is *forbidden* for the
rest of the node's subtree (a mark on the card, part of the table key). A card with no
foundation left that may take it can never leave, so the position is dead; and when a
forbidden pair leaves ``f`` without any other copy of the rank it may take, the remaining
siblings are dead too. A mark is set only while ``f`` needs the card's rank now, and ``f``
changes only by taking that rank, after which no rule reads the mark; the table key drops
such spent marks, so positions that differ only by them are one entry.

``dominance`` — the turned card ``c`` and a waste top ``x`` have the same rank and foundation
``f`` needs it. Once "``x -> f`` now" has failed, "``c -> f``" is skipped when ``c`` is forbidden
nowhere ``x`` is not (``f`` aside). Why: after ``x -> f``, putting ``c`` on ``x``'s waste gives
the very position "``c -> f``" gives (same ranks in the same places), except that the card
on that waste is ``c`` with ``c``'s forbids instead of ``x`` with ``x``'s, which is never
worse. That position is inside the failed subtree, so it was already refuted.

``dead`` — dead-position detection. Let ``Z`` start as every waste card and repeatedly drop a
card when (a) no card above it on its waste is still in ``Z`` and (b) some foundation it may
go to needs no rank before it whose copies (off the foundations) all lie in ``Z``. If ``Z``
is not empty at the end, the position is lost. Why: in a win every card of ``Z`` reaches a
foundation; take the first one to do so, ``x``. The cards above ``x`` left before it, so none
of them is in ``Z``. The foundation taking ``x`` first received every rank it needs before
``x``'s; each of those came from a copy off the foundations now, which left its place before
``x`` did, so for each such rank some copy is outside ``Z``. Then ``x`` would have been
dropped from ``Z``: a contradiction. Cards still in the stock are never in ``Z``.

``relaxed`` — the relaxed game of :mod:`calcnb.relaxed`, where the stock is at hand: any stock
card may go to a foundation whenever it is needed. Every winning line of the real game is one of
the relaxed game (its module docstring gives the argument), so a position whose relaxed game is
lost is lost. Forbid marks are ignored there, which only makes the relaxed game easier. It is
checked at new positions with at most ``relaxed_stock`` cards left to turn (by default two thirds
of a full stock; earlier ones are seldom lost and slow to decide). Relaxed states proven lost are
remembered for the whole solve, keyed by the foundations and the piles' contents, which fix the
relaxed game entirely (its stock cards are the copies on neither).

How the check stays cheap. A relaxed win is kept as a *witness*: which foundation place (slot)
each waste card fills, with an order of the slots that respects the foundations and the piles.
A child carries its parent's witness: a card put on a waste takes a slot its rank had from the
stock, one filled before the card beneath it; a card sent to a foundation takes the slot that
foundation needs now, and whatever held that slot takes the card's old one. If no order fits the
new slots, a new relaxed search runs, guided by the old witness. A witness only ever says "not
lost", so it decides how much work the check costs, never a verdict.

Order from the witness. Placements the position's witness can carry are tried first: those
where the card's rank has a stock slot filled before the card it would cover, the tightest fit
first (the witness's own version of reverse order of need); then an empty waste; then the other
piles, the nearest miss first (the stock slot filled soonest after the card it would cover).
A relaxed search that expands more than :data:`RELAXED_LIMIT` states leaves the position
undecided; such a position looks lost, so it costs one more unit of budget to enter, in every
later iteration and attempt. Both change only the order and the budgets, never what counts as
proven.
"""

from __future__ import annotations

import gc
import itertools
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass

from .cards import RANK_COUNT
from .deals import parse_deal
from .engine import (
    STOCK_TO_FOUNDATION,
    STOCK_TO_WASTE,
    TURN,
    WASTE_TO_FOUNDATION,
    Move,
    State,
)
from .i18n import message, register
from .relaxed import RelaxedGame, RelaxedOverLimit
from .session import Game

WON, LOST, UNKNOWN = "won", "lost", "unknown"

RULES = frozenset({"symmetry", "safe", "forbid", "dominance", "dead", "relaxed"})
"""The pruning rules that can be switched off (for tests); ranks and turn-at-once are built in.
``dominance`` works on the marks ``forbid`` leaves, so it acts only when ``forbid`` is on too."""

RESTART_NODES = 2000
"""Nodes in the shortest attempt; attempt ``a`` may use ``RESTART_NODES * luby(a)`` nodes."""

RELAXED_LIMIT = 60
"""States one relaxed search may expand; past it the position is marked hard instead of decided."""

_HARD_COST = 1  # the extra budget a hard position costs to enter
_TEARDOWN = 0.03  # seconds kept back from a time budget for freeing the table
_INF = 1 << 30
_PROVEN = 1 << 62  # in the transposition table: the position is lost
_EPOCH = 1 << 20  # more than any budget an attempt reaches (each budget costs at least one node)
_WIN, _FAIL_EXACT, _FAIL_CUT = 0, 1, 2
# internal move kinds on the search path
_WASTE_TO_FOUNDATION, _STOCK_TO_FOUNDATION, _STOCK_TO_WASTE = 0, 1, 2

register(
    {
        "en": {
            "solver.bad_input": "solve() takes a Game, a State or a deal code (text); got {kind}",
            "solver.bad_budget": "{name} must be a positive number or None; got {value!r}",
            "solver.bad_rules": "unknown solver rule: {unknown} (the rules are {known})",
            "solver.summary.won": "won in {moves} moves ({nodes} positions searched, {seconds:.2f} s)",
            "solver.summary.lost": "lost: no line wins ({nodes} positions searched, {seconds:.2f} s)",
            "solver.summary.unknown": "unknown: the budget ran out ({nodes} positions searched, {seconds:.2f} s)",
        },
        "pt": {
            "solver.bad_input": "solve() aceita um Game, um State ou o código de um jogo (texto); recebeu {kind}",
            "solver.bad_budget": "{name} deve ser um número positivo ou None; recebeu {value!r}",
            "solver.bad_rules": "regra do solver desconhecida: {unknown} (as regras são {known})",
            "solver.summary.won": "ganho em {moves} jogadas ({nodes} posições examinadas, {seconds:.2f} s)",
            "solver.summary.lost": "perdido: nenhuma sequência ganha ({nodes} posições examinadas, {seconds:.2f} s)",
            "solver.summary.unknown": "desconhecido: o orçamento acabou ({nodes} posições examinadas, {seconds:.2f} s)",
        },
    }
)


@dataclass(frozen=True)
class Solution:
    """What :func:`solve` found.

    ``outcome``: ``"won"``, ``"lost"`` (proven) or ``"unknown"`` (budget spent).
    ``moves``: engine moves from the given position to a win; empty unless won.
    ``nodes``: search nodes visited. ``seconds``: wall-clock time spent.
    """

    outcome: str
    moves: tuple[Move, ...]
    nodes: int
    seconds: float

    @property
    def decided(self) -> bool:
        """True when the outcome is known: won or proven lost."""
        return self.outcome != UNKNOWN

    def __str__(self) -> str:
        return message(f"solver.summary.{self.outcome}", moves=len(self.moves), nodes=self.nodes, seconds=self.seconds)


def solve(
    game_or_state_or_deal: Game | State | str,
    *,
    budget_seconds: float | None = 1.0,
    budget_nodes: int | None = None,
    restart_nodes: int | None = RESTART_NODES,
    rules: Iterable[str] = RULES,
) -> Solution:
    """Decide the position: won (with a winning move list), proven lost, or unknown within the budget.

    Takes a :class:`Game` (its current position), a :class:`State`, or a deal code
    (``"A♣ 2♦ 3♥ 4♠ | 7♠ K♦ ..."``). ``budget_seconds`` and ``budget_nodes`` bound the
    search (None for no bound); the first to run out ends it with ``"unknown"``.
    ``restart_nodes`` sets the shortest attempt between restarts (None: a single attempt).
    ``rules``: the pruning rules of :data:`RULES` to use (all by default; fewer only to compare).

    >>> solve(Game.new(6)).outcome
    'won'
    """
    state = _as_state(game_or_state_or_deal)
    for name, value in (("budget_seconds", budget_seconds), ("budget_nodes", budget_nodes)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0):
            raise ValueError(message("solver.bad_budget", name=name, value=value))
    rules = frozenset(rules)
    if not rules <= RULES:
        raise ValueError(
            message("solver.bad_rules", unknown=", ".join(sorted(rules - RULES)), known=", ".join(sorted(RULES)))
        )
    started = time.perf_counter()
    # the budget covers the whole call: stop searching early enough to free the search's table in time
    deadline = None if budget_seconds is None else started + budget_seconds - min(_TEARDOWN, budget_seconds / 20)
    pending_first = state.pending is not None
    stock = ((state.pending.rank,) if pending_first else ()) + tuple(card.rank for card in state.stock)
    outcome, path, nodes = search_ranks(
        foundations=[len(pile) for pile in state.foundations],
        wastes=[[card.rank for card in pile] for pile in state.wastes],
        stock=stock,
        deadline=deadline,
        node_limit=budget_nodes,
        restart_nodes=restart_nodes,
        rules=rules,
    )
    moves = _engine_moves(state, path) if outcome == WON else ()
    return Solution(outcome, moves, nodes, time.perf_counter() - started)


def _as_state(position: object) -> State:
    if isinstance(position, Game):
        return position.state
    if isinstance(position, State):
        return position
    if isinstance(position, str):
        starters, stock = parse_deal(position)
        return State.initial(starters, stock)
    raise TypeError(message("solver.bad_input", kind=type(position).__name__))


def _engine_moves(start: State, path: Iterable[tuple[int, int, int]]) -> tuple[Move, ...]:
    """Engine moves for an internal winning line, replayed through the rules as a check."""
    moves: list[Move] = []
    state = start
    for kind, waste, foundation in path:
        if kind == _WASTE_TO_FOUNDATION:
            step = [WASTE_TO_FOUNDATION[waste][foundation]]
        else:
            step = [] if state.pending is not None else [TURN]
            step.append(STOCK_TO_FOUNDATION[foundation] if kind == _STOCK_TO_FOUNDATION else STOCK_TO_WASTE[waste])
        for move in step:
            state = state.apply(move)  # raises IllegalMove if the search were wrong
            moves.append(move)
    if state.status != WON:
        raise AssertionError(f"internal error: the solver's line ends {state.status}, not won")
    return tuple(moves)


# ---------------------------------------------------------------------- the search


class _OutOfBudget(Exception):
    """The node or time budget ran out."""


class _Restart(Exception):
    """The current attempt used its share of nodes: start again from the root in another order."""


_PAIR_NOISE = 1.0  # later attempts add up to this to a foundation move's "how soon" (in cards)
_PLACEMENT_NOISE = 3.0  # and up to this to a placement's gap in need, so near ties swap places


def _luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if (1 << k) - 1 == i:
        return 1 << (k - 1)
    return _luby(i - (1 << (k - 1)) + 1)


def foundation_orders(ranks: int, foundations: int) -> tuple[tuple[int, ...], ...]:
    """The rank order of each foundation in a game with ``ranks`` ranks: foundation k builds k, 2k, ..."""
    return tuple(tuple(((j + 1) * step - 1) % ranks + 1 for j in range(ranks)) for step in range(1, foundations + 1))


def search_ranks(
    foundations: list[int],
    wastes: list[list[int]],
    stock: tuple[int, ...] | list[int],
    *,
    ranks: int = RANK_COUNT,
    deadline: float | None = None,
    node_limit: int | None = None,
    rules: frozenset[str] = RULES,
    restart_nodes: int | None = RESTART_NODES,
    relaxed_stock: int | None = None,
) -> tuple[str, list[tuple[int, int, int]], int]:
    """The search on ranks, for any number of ranks, foundations and wastes (small games test it).

    ``foundations[k]``: cards on foundation k (which builds in steps of k+1 from rank k+1);
    ``wastes``: ranks bottom first; ``stock``: ranks in turning order, the first one already
    turned or not (it makes no difference: turning is played at once). ``ranks`` must be a
    prime larger than the number of foundations so that every foundation visits every rank.
    ``restart_nodes``: nodes in the shortest attempt before the search restarts from the root in
    another order (None: one attempt, no restarts). ``relaxed_stock``: the ``relaxed`` rule checks
    positions with at most this many cards left to turn (None: two thirds of a full stock).
    Returns the outcome, the winning line as ``(kind, waste, foundation)`` triples (0-based;
    kind 0 waste to foundation, 1 stock to foundation, 2 stock to waste) and the nodes used.
    """
    R = ranks
    F = len(foundations)
    W = len(wastes)
    order = foundation_orders(R, F)
    # a waste card is named by its pile and depth: card = waste << card_shift | depth
    card_shift = (max((len(w) for w in wastes), default=0) + len(stock) + 1).bit_length()
    depth_mask = (1 << card_shift) - 1
    relaxed = RelaxedGame(order, card_shift)
    pos = relaxed.position  # pos[k][r]: where foundation k takes rank r
    # window[k][a][b]: the ranks at positions a..b of foundation k, as bits
    window = []
    for k in range(F):
        table_k = []
        for a in range(R + 1):
            row = []
            bits = 0
            for b in range(R + 1):
                if a <= b < R:
                    bits |= 1 << order[k][b]
                row.append(bits if a <= b else 0)
            table_k.append(row)
        window.append(table_k)
    use_symmetry = "symmetry" in rules
    use_safe = "safe" in rules
    use_forbid = "forbid" in rules
    use_dead = "dead" in rules
    use_dominance = "dominance" in rules and use_forbid
    use_relaxed = "relaxed" in rules
    if relaxed_stock is None:
        relaxed_stock = 2 * F * (R - 1) // 3

    p = list(foundations)
    piles = [list(w) for w in wastes]
    masks = [[0] * len(w) for w in wastes]  # forbidden foundations of each waste card, as bits
    codes = [0] * W  # each pile as one int: 8 bits a card (rank, forbid bits << 4)
    for w in range(W):
        code = 0
        for r in piles[w]:
            code = code << 8 | r
        codes[w] = code
    stock = tuple(stock)
    n = len(stock)
    full = R * F
    rem = [0] * (R + 1)  # foundations that still need each rank = its copies off the foundations
    for s in range(1, R + 1):
        rem[s] = sum(1 for k in range(F) if p[k] <= pos[k][s])
    needers = [0] * (R + 1)  # foundations that still need each rank, as bits
    wants = [0] * (R + 1)  # foundations that need each rank now, as bits
    for k in range(F):
        for j in range(p[k], R):
            needers[order[k][j]] |= 1 << k
        if p[k] < R:
            wants[order[k][p[k]]] |= 1 << k
    inwaste = [0] * (R + 1)
    for pile in piles:
        for r in pile:
            inwaste[r] += 1
    # next_in_stock[t][r]: the first stock index >= t holding rank r, or _INF
    next_in_stock = [[_INF] * (R + 1) for _ in range(n + 2)]
    for t in range(n - 1, -1, -1):
        row = next_in_stock[t + 1][:]
        row[stock[t]] = t
        next_in_stock[t] = row
    # gone_from_stock[t]: the ranks with no copy at stock index t or later
    gone_from_stock = [[r for r in range(1, R + 1) if row[r] == _INF] for row in next_in_stock]
    # sv: stock index of the turned card, its forbid bits, nodes visited, cards on foundations
    sv = [0, 0, 0, sum(p)]
    path: list[tuple[int, int, int, int]] = []
    table: dict[tuple, int] = {}  # position -> _PROVEN (lost), or epoch + the largest budget it failed with
    epoch = [0]  # grows by _EPOCH each attempt, so budgets stored by earlier attempts never cut
    FR = range(F)
    WR = range(W)

    mark_bits = int("f0" * 64, 16)  # where a pile code keeps forbid marks
    canonical_memo: dict[tuple[int, tuple[int, ...]], int] = {}  # (pile code, foundations) -> canonical code

    def canonical(w: int) -> int:
        """Pile w's code without the marks that no longer matter: their foundation has passed the rank."""
        code = 0
        mk = masks[w]
        for d, r in enumerate(piles[w]):
            m = mk[d]
            if m:
                for k in FR:
                    if m >> k & 1 and p[k] != pos[k][r]:
                        m &= ~(1 << k)
            code = code << 8 | r | m << 4
        return code

    urgency_memo: dict[tuple[int, ...], list[int]] = {}  # foundations -> how soon each rank is needed

    def urgencies(foundation_counts: tuple[int, ...]) -> list[int]:
        """How soon each rank is needed: the fewest cards a foundation still needs before it (by rank)."""
        soonest = urgency_memo.get(foundation_counts)
        if soonest is None:
            soonest = [_INF] * (R + 1)
            for k in FR:
                o = order[k]
                for d in range(R - p[k]):
                    r = o[p[k] + d]
                    if d < soonest[r]:
                        soonest[r] = d
            urgency_memo[foundation_counts] = soonest
        return soonest

    # the relaxed rule: a witness (a win of the relaxed game) per position on the path, carried down
    done = [R] * F
    witnesses: list[tuple[int, object, list[int], list[float]]] = []  # (path length, last move, slots, times)
    hard: set[tuple] = set()  # positions whose relaxed game was too big to decide: they cost more

    def slots_of_line(events: list[tuple[int, int]]) -> tuple[list[int], list[float]]:
        """A relaxed win as slots: ``slots[k * R + j]`` holds a waste card, -1 (a stock card) or -2 (filled).

        ``times``: when each slot is filled in that win, an order that respects the foundations and the piles.
        """
        slots = [-2] * (F * R)
        times = [0.0] * (F * R)
        q = p[:]
        for e, (card, k) in enumerate(events):
            j = pos[k][piles[card >> card_shift][card & depth_mask]]
            base = k * R
            gap = j - q[k] + 1
            for t in range(q[k], j):  # stock cards fill the places skipped, just before the card
                slots[base + t] = -1
                times[base + t] = 2 * e + (t - q[k] + 1) / gap
            slots[base + j] = card
            times[base + j] = 2 * e + 1
            q[k] = j + 1
        end = 2 * len(events) + 1
        for k in FR:
            for t in range(q[k], R):
                slots[k * R + t] = -1
                times[k * R + t] = end + t
        return slots, times

    def retime(slots: list[int]) -> list[float] | None:
        """An order of the slots that respects the foundations and the piles, or None if there is none."""
        q = p[:]
        h = [len(pile) for pile in piles]
        times = [0.0] * (F * R)
        t = 0
        progress = True
        while progress:  # fill every slot whose card is free, until nothing moves
            progress = False
            for k in FR:
                j = start = q[k]
                base = k * R
                while j < R:
                    card = slots[base + j]
                    if card >= 0:
                        w = card >> card_shift
                        if h[w] != (card & depth_mask) + 1:
                            break
                        h[w] -= 1
                    times[base + j] = t
                    t += 1
                    j += 1
                if j != start:
                    q[k] = j
                    progress = True
        return times if q == done else None

    def free_slot(r: int, q: list[int], slots: list[int], times: list[float], after: float, before: float) -> int:
        """The latest stock slot of rank r filled between the two times, else the earliest (-1: none at all)."""
        best = earliest = -1
        for k in FR:
            j = pos[k][r]
            if j >= q[k] and slots[k * R + j] == -1:
                s = k * R + j
                if after < times[s] < before and (best < 0 or times[s] > times[best]):
                    best = s
                if earliest < 0 or times[s] < times[earliest]:
                    earliest = s
        return best if best >= 0 else -2 - earliest

    def carry(slots: list[int], times: list[float], start: int) -> tuple[list[int], list[float]] | None:
        """The witness of the position ``path[:start]`` made one of this position, or None.

        Each move swaps cards between slots of the same rank: a card put on a waste takes a stock
        slot filled before the card under it; a card sent to a foundation takes the slot that
        foundation needs now, and whoever held it takes the card's old slot. When the old times no
        longer fit, the slots are ordered again (``retime``); if no order exists, the carry fails.
        """
        moves = path[start:]
        q = p[:]
        h = [len(pile) for pile in piles]
        i = sv[0]
        for kind, w, k, _ in moves:  # back to the witness's position
            if kind == _STOCK_TO_WASTE:
                h[w] -= 1
                i -= 1
            else:
                q[k] -= 1
                if kind == _WASTE_TO_FOUNDATION:
                    h[w] += 1
                else:
                    i -= 1
        slots = slots[:]
        stale = False  # the times no longer respect every pile
        for kind, w, k, _ in moves:
            if kind == _STOCK_TO_WASTE:
                hw = h[w]
                before = times[slots.index(w << card_shift | hw - 1)] if hw and not stale else _INF
                s = free_slot(stock[i], q, slots, times, -1.0, before)
                if s < 0:
                    if s == -1:
                        return None
                    s = -2 - s
                    stale = True
                slots[s] = w << card_shift | hw
                h[w] = hw + 1
                i += 1
            elif kind == _STOCK_TO_FOUNDATION:
                s = k * R + q[k]
                card = slots[s]
                slots[s] = -2
                if card >= 0:  # that waste card needs another slot of its rank
                    wc, dc = card >> card_shift, card & depth_mask
                    after = times[slots.index(card + 1)] if dc + 1 < h[wc] and not stale else -1.0
                    before = times[slots.index(card - 1)] if dc and not stale else _INF
                    s2 = free_slot(stock[i], q, slots, times, after, before)
                    if s2 < 0:
                        if s2 == -1:
                            return None
                        s2 = -2 - s2
                        stale = True
                    slots[s2] = card
                q[k] += 1
                i += 1
            else:
                hw = h[w] - 1
                card = w << card_shift | hw
                s = k * R + q[k]
                holder = slots[s]
                slots[s] = -2
                h[w] = hw
                if holder != card:
                    s2 = slots.index(card)
                    slots[s2] = holder
                    if holder >= 0 and not stale:
                        wc, dc = holder >> card_shift, holder & depth_mask
                        t = times[s2]
                        if (dc + 1 < h[wc] and times[slots.index(holder + 1)] >= t) or (
                            dc and times[slots.index(holder - 1)] <= t
                        ):
                            stale = True
                q[k] += 1
        if stale:
            times = retime(slots)
            if times is None:
                return None
        return slots, times

    def relaxed_lost(key: tuple) -> bool:
        """The ``relaxed`` rule at a new position: True when its relaxed game is lost.

        Also keeps a witness for the positions below, and marks the position hard when the
        relaxed search ran past its limit.
        """
        plen = len(path)
        while witnesses:
            made_at, last_move = witnesses[-1][:2]
            if made_at < plen and (not made_at or path[made_at - 1] is last_move):
                break
            witnesses.pop()  # made off the path to this position
        witness = carry(witnesses[-1][2], witnesses[-1][3], witnesses[-1][0]) if witnesses else None
        if witness is None:
            hint = None
            if witnesses:
                _, _, old_slots, old_times = witnesses[-1]
                hint = {
                    card: (old_times[s], s // R, order[s // R][s % R]) for s, card in enumerate(old_slots) if card >= 0
                }
            try:
                line = relaxed.search(p, piles, RELAXED_LIMIT, hint)
            except RelaxedOverLimit:
                hard.add(key)
                return False
            if line is None:
                return True
            witness = slots_of_line(line)
        witnesses.append((plen, path[-1] if plen else None, *witness))
        return False

    def dead() -> bool:
        """The fixpoint of the ``dead`` rule (see the module docstring); True means lost."""
        stuck = 0  # ranks whose copies off the foundations all lie in Z, as bits
        for s in gone_from_stock[sv[0]]:  # a rank with a copy still to turn has one outside Z
            c = inwaste[s]
            if c and c == rem[s]:
                stuck |= 1 << s
        if not stuck:
            return False
        first_stuck = []  # per foundation: position of the first stuck rank it still needs
        free = 0  # ranks an unmarked card may have and still leave Z: some foundation needs no stuck rank before it
        for k in FR:
            o = order[k]
            j = p[k]
            while j < R and not (stuck >> o[j]) & 1:
                j += 1
            first_stuck.append(j)
            free |= window[k][p[k]][j]
        h = [len(pile) for pile in piles]  # Z holds each pile's cards below index h[w]
        changed = True
        while changed:  # peel every pile in turn until a whole round frees no stuck rank
            changed = False
            for w in WR:
                hw = h[w]
                if not hw:
                    continue
                pile = piles[w]
                mk = masks[w]
                while hw:
                    r = pile[hw - 1]
                    m = mk[hw - 1]
                    if m:
                        for k in FR:
                            if p[k] <= pos[k][r] <= first_stuck[k] and not (m >> k) & 1:
                                break
                        else:
                            break
                    elif not (free >> r) & 1:
                        break
                    hw -= 1
                    if (stuck >> r) & 1:  # the first copy of a stuck rank leaves: later ranks may follow
                        stuck &= ~(1 << r)
                        for k in FR:
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

    def safe_scan():
        """A card to move at once (source, foundations), None, or False when some card can never leave."""
        i = sv[0]
        if i < n:
            r = stock[i]
            m = sv[1]
            allowed = needers[r] & ~m
            if not allowed:
                return False
            if use_safe and allowed == wants[r] & ~m:
                return -1, [k for k in FR if allowed >> k & 1]
        for w in WR:
            pile = piles[w]
            if pile:
                r = pile[-1]
                m = masks[w][-1]
                allowed = needers[r] & ~m
                if not allowed:
                    return False
                if use_safe and allowed == wants[r] & ~m:
                    return w, [k for k in FR if allowed >> k & 1]
        return None

    def advance(k: int, r: int) -> None:
        """Foundation k takes its next card, of rank r."""
        bit = 1 << k
        needers[r] &= ~bit
        wants[r] &= ~bit
        q = p[k] + 1
        p[k] = q
        if q < R:
            wants[order[k][q]] |= bit

    def retreat(k: int) -> int:
        """Foundation k gives back its top card; returns the card's rank."""
        bit = 1 << k
        q = p[k]
        if q < R:
            wants[order[k][q]] &= ~bit
        q -= 1
        p[k] = q
        r = order[k][q]
        needers[r] |= bit
        wants[r] |= bit
        return r

    def do_waste_to_foundation(w: int, k: int) -> None:
        r = piles[w].pop()
        m = masks[w].pop()
        codes[w] >>= 8
        inwaste[r] -= 1
        advance(k, r)
        rem[r] -= 1
        sv[3] += 1
        path.append((_WASTE_TO_FOUNDATION, w, k, m))

    def do_stock_to_foundation(k: int) -> None:
        i = sv[0]
        path.append((_STOCK_TO_FOUNDATION, -1, k, sv[1]))
        sv[0] = i + 1
        sv[1] = 0
        advance(k, stock[i])
        rem[stock[i]] -= 1
        sv[3] += 1

    def do_stock_to_waste(w: int) -> None:
        i = sv[0]
        r = stock[i]
        m = sv[1]
        path.append((_STOCK_TO_WASTE, w, -1, m))
        sv[0] = i + 1
        sv[1] = 0
        piles[w].append(r)
        masks[w].append(m)
        codes[w] = codes[w] << 8 | r | m << 4
        inwaste[r] += 1

    def undo() -> None:
        kind, w, k, m = path.pop()
        if kind == _WASTE_TO_FOUNDATION:
            r = retreat(k)
            piles[w].append(r)
            masks[w].append(m)
            codes[w] = codes[w] << 8 | r | m << 4
            inwaste[r] += 1
            rem[r] += 1
            sv[3] -= 1
        elif kind == _STOCK_TO_FOUNDATION:
            sv[0] -= 1
            sv[1] = m
            retreat(k)
            rem[stock[sv[0]]] += 1
            sv[3] -= 1
        else:
            sv[0] -= 1
            sv[1] = m
            piles[w].pop()
            masks[w].pop()
            codes[w] >>= 8
            inwaste[stock[sv[0]]] -= 1

    def to_foundation(src: int, k: int) -> None:
        if src >= 0:
            do_waste_to_foundation(src, k)
        else:
            do_stock_to_foundation(k)

    def set_forbid(src: int, k: int, on: bool) -> None:
        bit = 1 << k
        if src >= 0:
            if on:
                masks[src][-1] |= bit
                codes[src] |= bit << 4
            else:
                masks[src][-1] &= ~bit
                codes[src] &= ~(bit << 4)
        elif on:
            sv[1] |= bit
        else:
            sv[1] &= ~bit

    def starved(k: int, r: int) -> bool:
        """After forbidding a card for k: has k no copy of rank r left that it may take?"""
        i = sv[0]
        if next_in_stock[i + 1][r] < _INF:
            return False
        if i < n and stock[i] == r and not (sv[1] >> k) & 1:
            return False
        bit = 1 << k
        for w in WR:
            pile = piles[w]
            mk = masks[w]
            for d in range(len(pile)):
                if pile[d] == r and not mk[d] & bit:
                    return False
        return True

    def dominated(k: int, r: int, tried: list[tuple[int, int]]) -> bool:
        """Was a waste top of rank r tried on k at this node, forbidden everything the turned card is (but k)?"""
        m = sv[1] & ~(1 << k)
        return any(k2 == k and piles[w][-1] == r and not m & ~masks[w][-1] for w, k2 in tried)

    def soon(r: int) -> int:
        """How long until a card of rank r is available: 0 if on top or turned, else stock distance."""
        i = sv[0]
        if i < n and stock[i] == r:
            return 0
        for w in WR:
            pile = piles[w]
            if pile and pile[-1] == r:
                return 0
        t = next_in_stock[i + 1][r] if i < n else _INF
        return t - i if t < _INF else n + 1

    def node(budget: int) -> int:
        sv[2] += 1
        nodes = sv[2]
        if nodes > stop[0]:
            raise _OutOfBudget if node_limit is not None and nodes > node_limit else _Restart
        if deadline is not None and nodes & 255 == 0 and time.perf_counter() > deadline:
            raise _OutOfBudget
        applied = 0
        tie = None
        result = None
        while True:
            found = safe_scan()
            if found is None:
                break
            if found is False:
                result = _FAIL_EXACT
                break
            src, now = found
            if len(now) > 1:
                tie = found
                break
            to_foundation(src, now[0])
            applied += 1
        if result is None:
            result = expand(budget, tie)
            if result == _WIN:
                return _WIN
        for _ in range(applied):
            undo()
        return result

    def expand(budget: int, tie) -> int:
        i = sv[0]
        if i == n and sv[3] == full:
            return _WIN
        foundation_counts = tuple(p)
        pile_codes = codes
        for w in WR:
            if codes[w] & mark_bits:
                pile_codes = []
                for w2 in WR:
                    code = codes[w2]
                    if code & mark_bits:
                        memo_key = (code, foundation_counts)
                        code = canonical_memo.get(memo_key)
                        if code is None:
                            code = canonical_memo[memo_key] = canonical(w2)
                    pile_codes.append(code)
                break
        marks = sv[1]
        if marks:
            marks &= wants[stock[i]]  # a mark on a foundation that has passed the rank is spent
        key = (foundation_counts, marks, tuple(sorted(pile_codes) if use_symmetry else pile_codes))
        known = table.get(key)
        if known is not None:
            if known == _PROVEN:
                return _FAIL_EXACT
            if known >= budget + epoch[0]:  # entries from earlier attempts are stale but mark the position not dead
                return _FAIL_CUT
        budget_in = budget
        if known is None and (  # a position seen before was not dead
            (use_dead and dead()) or (use_relaxed and n - i <= relaxed_stock and relaxed_lost(key))
        ):
            table[key] = _PROVEN
            return _FAIL_EXACT
        if key in hard:  # a relaxed game too big to decide: the position looks lost, so it costs more
            if budget < _HARD_COST:
                table[key] = budget + epoch[0]
                return _FAIL_CUT
            budget -= _HARD_COST

        own = None  # this position's relaxed witness, if it has one: placements it can carry come first
        if witnesses:
            made_at, last_move, own_slots, own_times = witnesses[-1]
            if made_at == len(path) and (not made_at or path[made_at - 1] is last_move):
                own = own_slots

        # foundation moves, best first: the foundation whose next need is available soonest
        pairs = []
        if tie is not None:
            src, now = tie
            for k in now:
                after = order[k][p[k] + 1] if p[k] + 1 < R else 0
                pairs.append((soon(after) if after else -1, src, k))
        else:
            if i < n:
                takers = wants[stock[i]] & ~sv[1]
                for k in FR:
                    if takers >> k & 1:
                        after = order[k][p[k] + 1] if p[k] + 1 < R else 0
                        pairs.append(((soon(after) if after else -1) + 0.5, -1, k))
            seen = set()
            for w in WR:
                pile = piles[w]
                if pile and not (use_symmetry and codes[w] in seen):
                    seen.add(codes[w])
                    takers = wants[pile[-1]] & ~masks[w][-1]
                    for k in FR:
                        if takers >> k & 1:
                            after = order[k][p[k] + 1] if p[k] + 1 < R else 0
                            pairs.append((soon(after) if after else -1, w, k))
        if shuffle is not None:  # later attempts perturb the order to try other lines first
            pairs = [(soonness + _PAIR_NOISE * shuffle.random(), src, k) for soonness, src, k in pairs]
        pairs.sort()

        exact = True
        forbidden = []
        rest_dead = False
        tried = []  # waste piles whose top was tried on a foundation here
        for _, src, k in pairs:
            if use_dominance and src < 0 and dominated(k, stock[i], tried):
                continue
            if src >= 0:
                tried.append((src, k))
            to_foundation(src, k)
            result = node(budget)
            if result == _WIN:
                return _WIN
            undo()
            if result == _FAIL_CUT:
                exact = False
            if use_forbid:
                set_forbid(src, k, True)
                forbidden.append((src, k))
                if starved(k, stock[i] if src < 0 else piles[src][-1]):
                    rest_dead = True
                    break

        if not rest_dead and tie is None and i < n:
            # place the turned card on a waste, in reverse order of need
            r = stock[i]
            urgency = urgencies(foundation_counts)
            need_r = urgency[r]
            if own is not None:  # placements the witness can carry come first
                stock_slots = [k * R + pos[k][r] for k in FR if pos[k][r] >= p[k]]
                stock_slots = [s for s in stock_slots if own[s] == -1]
            scored = []
            seen = set()
            for w in WR:
                code = codes[w]
                if use_symmetry and code in seen:
                    continue
                seen.add(code)
                pile = piles[w]
                # (fits the witness: 0 or 1, kind, gap), smallest first
                if not pile:
                    score = (0, 1, 0)
                elif own is not None and stock_slots:
                    before = own_times[own.index(w << card_shift | len(pile) - 1)]
                    earlier = [own_times[s] for s in stock_slots if own_times[s] < before]
                    if earlier:  # the tightest fit first: the card leaves just before the one it covers
                        score = (0, 0, before - max(earlier))
                    else:  # no fit: the nearest miss first
                        score = (1, 0, min(own_times[s] for s in stock_slots) - before)
                else:  # no witness: reverse order of need
                    need_top = urgency[pile[-1]]
                    score = (0, 0, need_top - need_r) if need_top > need_r else (0, 2, need_r - need_top)
                scored.append((score, w))
            if shuffle is not None:
                scored = [
                    ((fits, kind, gap + _PLACEMENT_NOISE * shuffle.random()), w) for (fits, kind, gap), w in scored
                ]
            scored.sort()
            cost = 1 if pairs else 0  # keeping a card off a foundation that wants it is a discrepancy
            for index, (_, w) in enumerate(scored):
                if index:
                    cost += 1
                if cost > budget:
                    exact = False
                    break
                do_stock_to_waste(w)
                result = node(budget - cost)
                if result == _WIN:
                    return _WIN
                undo()
                if result == _FAIL_CUT:
                    exact = False
        for src, k in forbidden:
            set_forbid(src, k, False)
        table[key] = _PROVEN if exact else budget_in + epoch[0]
        return _FAIL_EXACT if exact else _FAIL_CUT

    outcome = UNKNOWN
    shuffle = None  # the first attempt follows the heuristic exactly; later ones perturb its order
    stop = [0]  # the node count that ends the current attempt (or the whole search)
    collecting = gc.isenabled()
    gc.disable()  # the table holds many small tuples; the cyclic collector would rescan them in vain
    try:
        for attempt in itertools.count(1):
            if attempt > 1:
                shuffle = random.Random(attempt)  # seeded: the same position always gets the same search
                while path:  # back to the root
                    undo()
                sv[1] = 0
                for w in WR:
                    masks[w] = [0] * len(piles[w])
                    codes[w] &= ~mark_bits
                # proofs hold whatever the order; the budgets a position failed with belong to one attempt
                epoch[0] += _EPOCH
            limits = [] if restart_nodes is None else [sv[2] + restart_nodes * _luby(attempt)]
            if node_limit is not None:
                limits.append(node_limit)
            stop[0] = min(limits, default=_PROVEN)
            budget = 0
            try:
                while True:
                    result = node(budget)
                    if result == _WIN:
                        outcome = WON
                        break
                    if result == _FAIL_EXACT:
                        outcome = LOST
                        break
                    budget += 1
            except _Restart:
                continue
            break
    except _OutOfBudget:
        pass
    finally:
        # free the table before the collector is back on: otherwise its first pass walks every entry
        table.clear()
        canonical_memo.clear()
        relaxed.memory.clear()
        hard.clear()
        if collecting:
            gc.enable()
    line = [(kind, w, k) for kind, w, k, _ in path] if outcome == WON else []
    return outcome, line, sv[2]


__all__ = ["LOST", "RESTART_NODES", "RULES", "UNKNOWN", "WON", "Solution", "foundation_orders", "search_ranks", "solve"]
