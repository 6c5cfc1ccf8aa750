"""Players of Calculation that see only what a person sees, and the Hint they power.

A player is given a :class:`PlayerView`: the table, the turned card and the *set* of unseen
cards, never the order of the face-down stock, so it cannot peek. The ladder, weakest first:
:class:`RandomPlayer`, :class:`FirstFit`, :class:`ReverseNeed`, :class:`KingsApart`,
:class:`MonteCarlo` (each class says how it plays). Games run on a lean loop that makes the very
moves :class:`~calcnb.game.engine.State` would: :meth:`Player.play` returns moves that replay
through :class:`~calcnb.game.game.Game` to the same score. :func:`hint` answers the play
widget's Hint button with a move and one plain sentence saying why.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from calcnb.game.rules import NEED_BY_COUNT, NEXT, RANK_COUNT, WASTES, WIN_SCORE
from calcnb.players.player import Player
from calcnb.players.table import FOUNDATION_RANGE, S2F_ID, S2W_ID, TURN_ID, W2F_ID, WASTE_RANGE, Evaluation, Table


class RandomPlayer(Player):
    """Random legal moves: the floor of the ladder, every legal move equally likely."""

    name = "random"

    def next_move(self, table: Table, rng: random.Random) -> int | None:
        moves = table.legal()
        return moves[int(rng.random() * len(moves))] if moves else None


class FoundationFirst(Player):
    """Shared rule: any foundation move first (pending card, then waste tops), else place, else turn.

    A card that fits a foundation is only ever useful there, so playing it never hurts;
    the one real choice is which foundation when two need the same rank (:meth:`pick_foundation`).
    """

    uses_random = False

    def next_move(self, table: Table, rng: random.Random) -> int | None:
        move = self.foundation_move(table)
        if move is not None:
            return move
        if table.pending:
            return S2W_ID[self.place(table, rng)]
        return TURN_ID if table.stock_left else None

    def foundation_move(self, table: Table) -> int | None:
        """The foundation move this player makes first (the pending card, then waste tops), or None."""
        need = table.need
        pending = table.pending
        if pending and pending in need:
            return S2F_ID[self.pick_foundation(table, pending)]
        for w, pile in enumerate(table.wastes):
            if pile and pile[-1] in need:
                return W2F_ID[w][self.pick_foundation(table, pile[-1])]
        return None

    def run(self, table: Table, stock: list[int], rng: random.Random) -> list[int]:
        """The fast loop with :meth:`next_move` written inline: the same moves, in the same order, sooner."""
        moves: list[int] = []
        append = moves.append
        need, count, wastes, unseen = table.need, table.count, table.wastes, table.unseen
        pick, place = self.pick_foundation, self.place
        position, end = 0, table.stock_left
        while True:
            pending = table.pending
            if pending and pending in need:
                # a single foundation that needs the card leaves nothing to choose
                k = need.index(pending) if need.count(pending) == 1 else pick(table, pending)
                count[k] += 1
                need[k] = NEED_BY_COUNT[k][count[k]]
                table.pending = 0
                append(S2F_ID[k])
                continue
            for w in WASTE_RANGE:
                pile = wastes[w]
                if pile and pile[-1] in need:
                    rank = pile[-1]
                    # chosen with the card still on show, as next_move does
                    k = need.index(rank) if need.count(rank) == 1 else pick(table, rank)
                    pile.pop()
                    count[k] += 1
                    need[k] = NEED_BY_COUNT[k][count[k]]
                    append(W2F_ID[w][k])
                    break
            else:
                if pending:
                    w = place(table, rng)
                    wastes[w].append(pending)
                    table.pending = 0
                    append(S2W_ID[w])
                elif position < end:
                    rank = stock[position]
                    position += 1
                    table.pending = rank
                    unseen[rank] -= 1
                    table.stock_left -= 1
                    append(TURN_ID)
                else:
                    return moves

    def pick_foundation(self, table: Table, rank: int) -> int:
        return table.need.index(rank)

    def place(self, table: Table, rng: random.Random) -> int:
        raise NotImplementedError


class FirstFit(FoundationFirst):
    """First fit: any foundation move first (the lowest foundation on a tie), else the first waste pile.

    Every card that does not fit goes onto waste 1, the first pile listed: the naive
    baseline a beginner plays before thinking about the waste piles at all.
    """

    name = "first fit"

    def place(self, table: Table, rng: random.Random) -> int:
        return 0


class ReverseNeed(FoundationFirst):
    """Reverse need: keep each waste pile in reverse order of need, the card needed soonest on top.

    How soon a rank is needed is read from the foundations' positions (``position_in_order``):
    a rank at position p of foundation k, which holds c cards, is needed after p - c - 1 more.
    A card goes on a pile whose top is needed no sooner than it, the tightest such fit counting
    each card already in the pile as one step of slack (short piles keep more cards in reach);
    failing that on an empty pile; failing that it buries the top needed latest (less the pile's height).
    On a tie between foundations, it feeds the one whose next need is on show.
    """

    name = "reverse need"

    def pick_foundation(self, table: Table, rank: int) -> int:
        need = table.need
        candidates = [k for k in FOUNDATION_RANGE if need[k] == rank]
        if len(candidates) == 1:
            return candidates[0]
        visible = {pile[-1] for pile in table.wastes if pile}
        for k in candidates:
            if NEXT[k][rank] in visible:
                return k
        # otherwise the foundation furthest behind: it has the most cards still to come
        return min(candidates, key=lambda k: table.count[k])

    def place(self, table: Table, rng: random.Random) -> int:
        return reverse_need_place(table, WASTE_RANGE)[0]


def reverse_need_place(table: Table, piles: Iterable[int]) -> tuple[int, str, int, int]:
    """Reverse-need placement among ``piles``: (pile, kind, soonness of card, soonness of top).

    ``kind`` is ``"fit"`` (the top is needed no sooner than the card), ``"empty"`` or ``"bury"``.
    A fit costs the gap in soonness plus the pile's height (short piles keep more cards in reach);
    a burial prefers the top needed latest, less the pile's height.
    """
    card = table.soonness(table.pending)
    wastes = table.wastes
    fit = empty = bury = None
    fit_cost = fit_top = bury_top = 0
    bury_value = -1_000
    for w in piles:
        pile = wastes[w]
        if not pile:
            if empty is None:
                empty = w
            continue
        top = table.soonness(pile[-1])
        if top >= card:
            cost = top - card + len(pile)
            if fit is None or cost < fit_cost:
                fit, fit_cost, fit_top = w, cost, top
        else:
            value = top - len(pile)
            if value > bury_value:
                bury, bury_value, bury_top = w, value, top
    if fit is not None:
        return fit, "fit", card, fit_top
    if empty is not None:
        return empty, "empty", card, 0
    return bury, "bury", card, bury_top


class KingsApart(ReverseNeed):
    """Kings apart: reverse need, with one waste pile (the last) kept for kings.

    Every foundation ends in K, so kings are needed last of all; the lore says to give them
    a pile of their own so they never bury a card needed sooner. The other three piles
    follow reverse need; a non-king goes on the kings' pile only when all three would bury.
    """

    name = "kings apart"
    KINGS_PILE = WASTES - 1

    def place(self, table: Table, rng: random.Random) -> int:
        if table.pending == RANK_COUNT:
            return self.KINGS_PILE
        pile, kind, _, _ = reverse_need_place(table, range(self.KINGS_PILE))
        if kind == "bury":
            kings = table.wastes[self.KINGS_PILE]
            if not kings or kings[-1] == RANK_COUNT or table.soonness(kings[-1]) >= table.soonness(table.pending):
                return self.KINGS_PILE
        return pile


class MonteCarlo(ReverseNeed):
    """Monte Carlo: at each placement, imagine ``samples`` orders of the unseen cards, play each out
    with a fast policy (reverse need), and choose the placement that wins or scores most.

    Every candidate pile is tried on the same imagined orders, so the comparison is fair; piles
    that are interchangeable (two empty ones) are tried once. Wins count first, then total score.
    """

    name = "monte carlo"
    parallel_from = 8
    uses_random = True

    def __init__(self, samples: int = 128, policy: Player | None = None) -> None:
        self.samples = samples
        self.policy = policy if policy is not None else ReverseNeed()

    def __repr__(self) -> str:
        return f"MonteCarlo(samples={self.samples})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MonteCarlo) and (self.samples, self.policy) == (other.samples, other.policy)

    def __hash__(self) -> int:
        return hash((MonteCarlo, self.samples, self.policy))

    def __getstate__(self) -> dict:
        return {"samples": self.samples, "policy": self.policy}

    def __setstate__(self, state: dict) -> None:
        self.__init__(**state)

    def place(self, table: Table, rng: random.Random) -> int:
        return self.evaluate(table, rng)[0]

    def deliberate(self, table: Table, rng: random.Random) -> tuple[int | None, Evaluation]:
        if table.pending and self.foundation_move(table) is None:
            pile, evaluation = self.evaluate(table, rng)
            return S2W_ID[pile], evaluation
        return self.next_move(table, rng), {}

    def evaluate(self, table: Table, rng: random.Random) -> tuple[int, Evaluation]:
        """The waste pile (0-based) for the pending card, and ``{pile: (wins, total score)}`` over the
        imagined orders for every distinct pile tried (empty when only one pile differs)."""
        candidates = distinct_piles(table)
        if len(candidates) == 1:
            return candidates[0], {}
        hidden = [rank for rank in range(1, RANK_COUNT + 1) for _ in range(table.unseen[rank])]
        orders = []
        for _ in range(self.samples):
            rng.shuffle(hidden)
            orders.append(hidden[:])
        evaluation = {}
        for w in candidates:
            placed = table.copy()
            placed.wastes[w].append(placed.pending)
            placed.pending = 0
            evaluation[w] = rollouts(placed, orders, self.policy, rng)
        return max(candidates, key=evaluation.__getitem__), evaluation


def rollouts(table: Table, orders: Iterable[Sequence[int]], policy: Player, rng: random.Random) -> tuple[int, int]:
    """``policy`` plays on from ``table`` once on each imagined order of the face-down cards: (wins, total score).

    ``table`` is left as it was; each order lists the ranks still to be turned, first turned first.
    """
    wins = total = 0
    for order in orders:
        trial = table.copy()
        policy.run(trial, order, rng)
        score = trial.score
        total += score
        wins += score == WIN_SCORE
    return wins, total


def distinct_piles(table: Table) -> list[int]:
    """Waste piles that differ as places to put a card: empty piles are interchangeable."""
    seen_empty = False
    piles = []
    for w, pile in enumerate(table.wastes):
        if not pile:
            if seen_empty:
                continue
            seen_empty = True
        piles.append(w)
    return piles
