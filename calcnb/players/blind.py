"""The strongest blind player: imagine the face-down cards, ask the solver, keep the move that wins most.

:class:`Determinized` sees only what a person sees (a :class:`~calcnb.players.ladder.PlayerView`).
At each decision it plays at once any move that can never hurt; otherwise it imagines orders of
the face-down cards (*determinizations*), the same for every candidate move, asks the solver
whether each candidate still wins on each order, races the candidates, and breaks a tie by letting
reverse need play the tied candidates out, blind. On each imagined order the solver plays
perfectly, so a candidate's score estimates the chance the game is still won after it. The steps,
and why each is there: ``docs/design.md``.

:func:`evaluate` is the shared measurement (the coach in :mod:`calcnb.players.coach` uses it too).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from calcnb.game.rules import POSITION, RANK_COUNT, is_complete
from calcnb.players.ladder import ReverseNeed, rollouts
from calcnb.players.player import Player
from calcnb.players.table import S2F_ID, S2W_ID, TURN_ID, W2F_ID, Table, apply_move
from calcnb.solver import search_ranks

__all__ = [
    "MORE_ORDERS",
    "MOST_ORDERS",
    "PLAIN_NAME",
    "SECOND_LOOK_NAME",
    "SECOND_LOOK_NODES",
    "Determinized",
    "Evaluation",
    "RaceBudget",
    "candidates",
    "evaluate",
    "hidden_orders",
]

WON, UNKNOWN = "won", "unknown"
SAMPLE_RELAXED_STOCK = 32
"""The solver on each imagined order checks the relaxed game only with at most this many cards left
to turn (two thirds of a full stock). This is the setting the stored player study
(``data/player_study.csv``) was measured with, so the player it describes is the one this code
plays; the solver's own default now checks every position, which decides more within the same
nodes, and so would make another player."""
PLAIN_NAME = "plain determinized"
"""The name of :class:`Determinized` without the blind tie-break (``rollouts=0``), as the study records it."""
SECOND_LOOK_NAME = "determinized + second look"
"""The name of :class:`Determinized` with the second look (``escalate`` set), as the study records it."""
SECOND_LOOK_NODES = 6000
"""The second look's node budget in the stored study (``Determinized(escalate=SECOND_LOOK_NODES)``)."""
SAMPLES = 16
"""Imagined orders per decision, by default."""
MORE_ORDERS = 32
"""The study's variant with more imagined orders (``Determinized(samples=MORE_ORDERS)``, named after
its setting by :class:`Determinized`): whether halving the sampling noise wins more deals, and at what cost."""
MOST_ORDERS = 64
"""The fresh deals' player (``Determinized(samples=MOST_ORDERS)``): twice the orders again, chosen before
any game on :data:`~calcnb.studies.folklore.FRESH_SET_ASIDE` because doubling from 16 to 32 orders won
more of the study's deals (79 of 83 paired seeds against 72), and the compiled core leaves the time."""
_REVERSE_NEED = ReverseNeed()
_NO_RANDOM = random.Random(0)  # reverse need draws no random number; its loop takes a generator all the same


@dataclass
class Evaluation:
    """How one candidate move fared over the imagined orders: ``won``, ``unknown``, ``lost`` counts."""

    move: int
    won: int = 0
    unknown: int = 0
    lost: int = 0

    @property
    def futures(self) -> int:
        """How many imagined orders were tried."""
        return self.won + self.unknown + self.lost

    @property
    def points(self) -> float:
        """Won counts 1, unknown one half."""
        return self.won + 0.5 * self.unknown


def _safe_move(table: Table) -> int | None:
    """A foundation move that can never hurt: the card's rank is needed now by every foundation that needs it.

    Only when one foundation takes it (with two, which one is a real choice).
    """
    need, count = table.need, table.count
    cards = [(table.pending, None)] if table.pending else []
    cards += [(pile[-1], w) for w, pile in enumerate(table.wastes) if pile]
    for rank, w in cards:
        now = [k for k in range(4) if need[k] == rank]
        if len(now) != 1:
            continue
        later = any(need[k] != rank and _still_needs(k, count[k], rank) for k in range(4))
        if not later:
            k = now[0]
            return S2F_ID[k] if w is None else W2F_ID[w][k]
    return None


def _still_needs(k: int, count: int, rank: int) -> bool:
    """Does foundation k (0-based, holding ``count`` cards) still need ``rank`` some time?"""
    return not is_complete(count) and POSITION[k][rank] > count


def candidates(table: Table) -> list[int]:
    """The distinct legal moves worth comparing (ALL_MOVES indexes), in the engine's order.

    A safe foundation move, when there is one, is the only candidate; waste piles holding the
    same cards (two empty ones) are one place to put a card.
    """
    legal = table.legal()
    if len(legal) <= 1:
        return legal
    safe = _safe_move(table)
    if safe is not None:
        return [safe]
    if legal[0] == TURN_ID:
        # turning first keeps every waste-to-foundation move open (they are legal while a card
        # is pending) and shows one more card: it is never worse than any of them
        return [TURN_ID]
    seen: set[tuple[int, ...]] = set()
    moves = []
    for move in legal:
        if move in S2W_ID:
            pile = tuple(table.wastes[move - S2W_ID[0]])
            if pile in seen:
                continue
            seen.add(pile)
        moves.append(move)
    return moves


def hidden_orders(table: Table, count: int, rng: random.Random) -> list[list[int]]:
    """``count`` orders of the face-down ranks drawn at random: what the stock might be."""
    hidden = [rank for rank in range(1, RANK_COUNT + 1) for _ in range(table.unseen[rank])]
    orders = []
    for _ in range(count):
        rng.shuffle(hidden)
        orders.append(hidden[:])
    return orders


def _after(table: Table, move: int) -> Table:
    """The table after ``move`` (a turn changes nothing the solver reads: the order stays the same)."""
    trial = table.copy()
    if move != TURN_ID:
        apply_move(trial, move, [], 0)
    return trial


def solve_sample(table: Table, order: Sequence[int], nodes: int) -> tuple[str, int]:
    """Is the table won if the face-down cards come in ``order``? The answer and the search nodes used.

    Reverse need plays the order first (a fraction of a millisecond): when it wins, that is the
    proof; otherwise the solver decides within ``nodes``. The budget is in nodes, not seconds, so
    the same position always gets the same answer on any machine.
    """
    trial = table.copy()
    if trial.pending:
        trial.stock_left += 1  # the pending card is turned again by the runner, as the first of the order
        trial.unseen[trial.pending] += 1
        stock = [trial.pending, *order]
        trial.pending = 0
    else:
        stock = list(order)
    _REVERSE_NEED.run(trial, stock, _NO_RANDOM)
    if trial.score == 4 * RANK_COUNT:
        return WON, 0
    wastes = [pile[:] for pile in table.wastes]
    outcome, _, used = search_ranks(
        table.count[:],
        wastes,
        stock,
        node_limit=nodes,
        relaxed_stock=SAMPLE_RELAXED_STOCK,
    )
    return outcome, used


@dataclass
class RaceBudget:
    """A limit on a race's thinking (the hint's): ``nodes`` of the solver and ``seconds`` on the clock.

    It is checked before each order once ``minimum`` orders are counted: an order that would end past either
    limit, judging by the orders so far, is not started. :func:`evaluate` notes how many orders it counted for
    the moves left (``counted``) and whether the budget stopped it (``stopped``).
    """

    nodes: float
    seconds: float
    minimum: int
    counted: int = 0
    stopped: bool = False
    started: float = field(default_factory=time.perf_counter)

    def exceeded(self, spent: int, done: int) -> bool:
        """Whether one more order, at the pace of the ``done`` so far (``spent`` nodes), would pass a limit."""
        if done < self.minimum:
            return False
        elapsed = time.perf_counter() - self.started
        return spent + spent / done > self.nodes or elapsed + elapsed / done > self.seconds


def evaluate(
    table: Table,
    moves: Sequence[int],
    orders: Sequence[Sequence[int]],
    nodes: int,
    *,
    race: bool = False,
    total_nodes: int | None = None,
    escalate: int = 0,
    budget: RaceBudget | None = None,
) -> dict[int, Evaluation]:
    """Each move's evaluation on the same ``orders``, in rounds of four orders.

    With ``race``, a move that cannot catch the leader any more is dropped, and the race ends
    after two rounds in which every move left won every order. ``total_nodes`` ends it after
    the round in which the solver's nodes passed that many (a budget that does not depend on
    the machine, so the same position always gets the same answer). ``escalate``: when more than
    one move is left at the end, the orders left unknown for them are solved again with this many
    nodes (a budget larger than ``nodes``; 0 for no second look). A full race ends with the moves
    tied on points, so the second look is how such a tie is settled first. ``budget`` (:class:`RaceBudget`)
    stops the race before an order that would pass it, and notes where it stopped.
    """
    spent = 0
    results = {move: Evaluation(move) for move in moves}
    undecided: dict[int, list[Sequence[int]]] = {move: [] for move in moves}
    after = {move: _after(table, move) for move in moves}
    active = list(moves)
    total = len(orders)
    for start in range(0, total, 4):
        for index, order in enumerate(orders[start : start + 4], start):
            if budget is not None and budget.exceeded(spent, index):
                budget.counted, budget.stopped = index, True
                return results
            for move in active:
                outcome, used = solve_sample(after[move], order, nodes)
                spent += used
                _count(results[move], outcome)
                if outcome == UNKNOWN:
                    undecided[move].append(order)
        if total_nodes is not None and spent >= total_nodes:
            break
        if not race:
            continue
        done = min(start + 4, total)
        if budget is not None:
            budget.counted = done
        best = max(results[move].points for move in active)
        active = [move for move in active if results[move].points + (total - done) >= best]
        if len(active) == 1 or (done >= 8 and all(results[move].won == done for move in active)):
            break
    if escalate > nodes and len(active) > 1:
        for move in active:
            for order in undecided[move]:
                outcome, _ = solve_sample(after[move], order, escalate)
                if outcome != UNKNOWN:
                    results[move].unknown -= 1
                    _count(results[move], outcome)
    return results


def _count(result: Evaluation, outcome: str) -> None:
    """Add one order's outcome to a move's evaluation."""
    if outcome == WON:
        result.won += 1
    elif outcome == UNKNOWN:
        result.unknown += 1
    else:
        result.lost += 1


class Determinized(Player):
    """Determinization on the solver: imagine ``samples`` orders of the face-down cards, solve each
    candidate move on each with ``nodes`` search nodes, and play the one that wins most; break ties
    by playing each tied move's game out blind with reverse need on ``rollouts`` more orders.

    With ``escalate`` (a node budget larger than ``nodes``), a tie is first settled by solving the
    orders left undecided for the tied moves again with that budget: the second look.
    """

    name = "determinized"
    parallel_from = 2
    uses_random = True

    def __init__(
        self,
        samples: int = SAMPLES,
        nodes: int = 600,
        total_nodes: int | None = None,
        rollouts: int = 64,
        escalate: int = 0,
    ) -> None:
        self.samples = samples
        self.nodes = nodes
        self.total_nodes = total_nodes
        self.rollouts = rollouts
        self.escalate = escalate
        self.last_results: dict[int, Evaluation] = {}
        """The last real choice's evaluations (move index to :class:`Evaluation`); empty after a forced move."""
        self.last_played_out: dict[int, tuple[int, int]] = {}
        """The last tie-break: each tied move's (wins, total score) over the ``rollouts`` blind play-outs;
        empty when no tie was broken that way."""
        if escalate:
            self.name = SECOND_LOOK_NAME if rollouts else f"{PLAIN_NAME} + second look"
        elif not rollouts:
            self.name = PLAIN_NAME
        if samples != SAMPLES:
            self.name = f"{self.name} with {samples} orders"

    def __repr__(self) -> str:
        settings = f"samples={self.samples}, nodes={self.nodes}, total_nodes={self.total_nodes}"
        return f"Determinized({settings}, rollouts={self.rollouts}, escalate={self.escalate})"

    def __getstate__(self) -> dict:
        return {
            "samples": self.samples,
            "nodes": self.nodes,
            "total_nodes": self.total_nodes,
            "rollouts": self.rollouts,
            "escalate": self.escalate,
        }

    def __setstate__(self, state: dict) -> None:
        self.__init__(**state)

    def next_move(self, table: Table, rng: random.Random) -> int | None:
        moves = candidates(table)
        self.last_results = {}
        self.last_played_out = {}
        if len(moves) <= 1:
            return moves[0] if moves else None
        orders = hidden_orders(table, self.samples, rng)
        results = evaluate(
            table, moves, orders, self.nodes, race=True, total_nodes=self.total_nodes, escalate=self.escalate
        )
        self.last_results = results
        best = max(result.points for result in results.values())
        tied = [move for move in moves if results[move].points == best]
        if len(tied) == 1:
            return tied[0]
        preferred = _preference(table)
        if not self.rollouts:
            return max(tied, key=lambda move: (move == preferred, -move))
        played_out = hidden_orders(table, self.rollouts, rng)
        blind = {move: rollouts(_after(table, move), played_out, _REVERSE_NEED, _NO_RANDOM) for move in tied}
        self.last_played_out = blind
        return max(tied, key=lambda move: (blind[move], move == preferred, -move))

    def run(self, table: Table, stock: list[int], rng: random.Random) -> list[int]:
        return Player.run(self, table, stock, rng)


def _preference(table: Table) -> int:
    """Reverse need's move here: the tie-break between candidates that did equally well."""
    return _REVERSE_NEED.next_move(table.copy(), random.Random(0))
