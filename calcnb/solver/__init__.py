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
A lean internal position (:mod:`~calcnb.solver.position`): ranks as small ints, each foundation
as the number of cards on it, each waste as a list of ranks, the stock as a tuple of ranks and an
index. The search (:mod:`~calcnb.solver.search`) is an iterated *limited-discrepancy* depth-first
search with a transposition table (:mod:`~calcnb.solver.table`), run in attempts restarted on a
Luby schedule. The heuristic order of the moves (:mod:`~calcnb.solver.ordering`) decides only
what is looked at first; a relaxed witness (:mod:`~calcnb.solver.witness`) both proves positions
lost and orders the placements.

Sound rules (each tested against plain exhaustive search on small games in
``tests/test_solver.py``; the switches in :data:`RULES` turn them off one by one). Each is
argued in the docstring of the module that applies it:

- ``ranks`` and ``turn`` (built in): :mod:`calcnb.solver.position`;
- ``symmetry``: :mod:`calcnb.solver.table`;
- ``safe``, ``forbid``, ``dominance``: :mod:`calcnb.solver.search`;
- ``dead``: :mod:`calcnb.solver.dead`;
- ``relaxed``: :mod:`calcnb.solver.witness` (the game itself in :mod:`calcnb.relaxed`).

How long it takes. ``budget_seconds`` bounds the whole call: the search reads the clock at every
node, and a node costs at most a few milliseconds (one relaxed search of at most
:data:`~calcnb.solver.witness.RELAXED_LIMIT` states), so :func:`solve` returns within its budget
plus :data:`OVERRUN` seconds of its clock. On the wall clock that holds while the process gets a
core; a machine with more work than cores adds the scheduler's own delay, which no code can take
back (``benchmarks/bench_solver.py --overrun`` measures both clocks on the hardest deals, one core
kept busy). With ``clock=time.process_time`` the budget counts CPU time, and the load no longer
matters.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..cards import RANK_COUNT
from ..engine import (
    STOCK_TO_FOUNDATION,
    STOCK_TO_WASTE,
    TURN,
    WASTE_TO_FOUNDATION,
    HasState,
    Move,
    State,
    as_state,
)
from ..errors import CalcnbError, quote
from ..i18n import message, register
from .position import Kind, Position
from .search import RESTART_NODES, RULES, Outcome, Search, SearchResult
from .witness import RELAXED_LIMIT

WON, LOST, UNKNOWN = Outcome.WON.value, Outcome.LOST.value, Outcome.UNKNOWN.value  # the rules core's words

_TEARDOWN = 0.03  # seconds kept back from a time budget for freeing the table

OVERRUN = 0.05
"""Seconds :func:`solve` may run past ``budget_seconds`` on its clock: the end of a node and turning a
win into engine moves (``benchmarks/bench_solver.py --overrun`` measures it)."""


class SolverArgumentError(CalcnbError, TypeError):
    """An argument :func:`solve` refuses: not a position, a budget that is not a positive number, unknown rules.

    A ``ValueError`` (as every calcnb refusal) and a ``TypeError``, so code catching either sees it.
    """


register(
    {
        "en": {
            "solver.bad_input": "solve() takes a Game, a State or a deal code (text); got {kind}",
            "solver.bad_budget": "{name} must be a positive number or None; got {value}",
            "solver.bad_count": "{name} must be a positive whole number or None; got {value}",
            "solver.bad_rules": "unknown solver rule: {unknown} (the rules are {known})",
            "solver.bad_clock": "clock must be a function giving seconds, like time.process_time; got {value}",
            "solver.rules_not_collection": "rules must be a collection of rule names, like {{'dead'}}; got {value}",
            "solver.summary.won": "won in {moves} moves ({nodes} positions searched, {seconds:.2f} s)",
            "solver.summary.lost": "lost: no line wins ({nodes} positions searched, {seconds:.2f} s)",
            "solver.summary.unknown": "unknown: the budget ran out ({nodes} positions searched, {seconds:.2f} s)",
        },
        "pt": {
            "solver.bad_input": "solve() aceita um Game, um State ou o código de um jogo (texto); recebeu {kind}",
            "solver.bad_budget": "{name} deve ser um número positivo ou None; recebeu {value}",
            "solver.bad_count": "{name} deve ser um número inteiro positivo ou None; recebeu {value}",
            "solver.bad_rules": "regra do solver desconhecida: {unknown} (as regras são {known})",
            "solver.bad_clock": "clock deve ser uma função que dá segundos, como time.process_time; recebeu {value}",
            "solver.rules_not_collection": "rules deve ser uma coleção de nomes de regras, como {{'dead'}}; recebeu {value}",  # noqa: E501
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
    game_or_state_or_deal: HasState | State | str,
    *,
    budget_seconds: float | None = 1.0,
    budget_nodes: int | None = None,
    restart_nodes: int | None = RESTART_NODES,
    rules: Iterable[str] = RULES,
    clock: Callable[[], float] = time.perf_counter,
) -> Solution:
    """Decide the position: won (with a winning move list), proven lost, or unknown within the budget.

    Takes a :class:`Game` (its current position), a :class:`State`, or a deal code
    (``"A♣ 2♦ 3♥ 4♠ | 7♠ K♦ ..."``). ``budget_seconds`` and ``budget_nodes`` bound the
    search (None for no bound); the first to run out ends it with ``"unknown"``.
    ``restart_nodes`` sets the shortest attempt between restarts (None: a single attempt).
    ``rules``: the pruning rules of :data:`RULES` to use (all by default; fewer only to compare).
    ``clock``: what ``budget_seconds`` is read on, wall-clock time by default; with
    :func:`time.process_time` the budget counts only this process's CPU time, so the load of a
    shared machine does not change what is decided (nor, then, the time it takes to say so).
    It returns within ``budget_seconds`` plus :data:`OVERRUN` on its clock. Anything else is refused with a
    :class:`SolverArgumentError` before the search starts.

    >>> from calcnb import Game
    >>> solve(Game.new(6)).outcome
    'won'
    """
    if not callable(clock):
        raise SolverArgumentError(message("solver.bad_clock", value=quote(clock)))
    started = clock()
    state = _as_state(game_or_state_or_deal)
    _check_seconds(budget_seconds)
    _check_count("budget_nodes", budget_nodes)
    _check_count("restart_nodes", restart_nodes)
    rules = _check_rules(rules)
    # the budget covers the whole call: stop searching early enough to free the search's table in time
    deadline = None if budget_seconds is None else started + budget_seconds - min(_TEARDOWN, budget_seconds / 20)
    pending_first = state.pending is not None
    stock = ((state.pending.rank,) if pending_first else ()) + tuple(card.rank for card in state.stock)
    found = _search(
        [len(pile) for pile in state.foundations],
        [[card.rank for card in pile] for pile in state.wastes],
        stock,
        deadline=deadline,
        node_limit=budget_nodes,
        restart_nodes=restart_nodes,
        rules=rules,
        clock=clock,
    )
    moves = _engine_moves(state, found.line) if found.outcome is Outcome.WON else ()
    return Solution(found.outcome.value, moves, found.nodes, clock() - started)


def _check_seconds(value: object) -> None:
    """A time budget is None or a positive finite number of seconds (nan, inf and bools refused)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise SolverArgumentError(message("solver.bad_budget", name="budget_seconds", value=quote(value)))


def _check_count(name: str, value: object) -> None:
    """A node count is None or a positive whole number (a bool is not a count)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise SolverArgumentError(message("solver.bad_count", name=name, value=quote(value)))


def _check_rules(rules: object) -> frozenset[str]:
    """A collection of rule names from :data:`RULES` (a single string is not one: it would read as letters)."""
    if isinstance(rules, (str, bytes)) or not isinstance(rules, Iterable):
        raise SolverArgumentError(message("solver.rules_not_collection", value=quote(rules)))
    try:
        names = frozenset(rules)
    except TypeError:  # an element that is not hashable, so certainly not a rule name
        raise SolverArgumentError(message("solver.rules_not_collection", value=quote(rules))) from None
    unknown = names - RULES
    if unknown:
        listed = ", ".join(sorted(quote(name, limit=20) for name in unknown)[:5])
        raise SolverArgumentError(message("solver.bad_rules", unknown=listed, known=", ".join(sorted(RULES))))
    return names


def _as_state(position: object) -> State:
    """The position to solve (:func:`calcnb.engine.as_state`), refused in the solver's words if it is none."""
    try:
        return as_state(position)  # type: ignore[arg-type]
    except TypeError:
        raise SolverArgumentError(message("solver.bad_input", kind=type(position).__name__)) from None


def _engine_moves(start: State, line: Iterable[tuple[int, int, int]]) -> tuple[Move, ...]:
    """Engine moves for an internal winning line, replayed through the rules as a check."""
    moves: list[Move] = []
    state = start
    for kind, waste, foundation in line:
        if kind == Kind.WASTE_TO_FOUNDATION:
            step = [WASTE_TO_FOUNDATION[waste][foundation]]
        else:
            step = [] if state.pending is not None else [TURN]
            step.append(STOCK_TO_FOUNDATION[foundation] if kind == Kind.STOCK_TO_FOUNDATION else STOCK_TO_WASTE[waste])
        for move in step:
            state = state.apply(move)  # raises IllegalMove if the search were wrong
            moves.append(move)
    if state.status != WON:
        raise AssertionError(f"internal error: the solver's line ends {state.status}, not won")
    return tuple(moves)


def _search(
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
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """The search on ranks, for any number of ranks, foundations and wastes (small games test it).

    The arguments are those of :class:`~calcnb.solver.position.Position` and
    :class:`~calcnb.solver.search.Search`.
    """
    position = Position(foundations, wastes, tuple(stock), ranks)
    return Search(
        position,
        rules=rules,
        deadline=deadline,
        node_limit=node_limit,
        restart_nodes=restart_nodes,
        relaxed_stock=relaxed_stock,
        clock=clock,
    ).run()


def search_ranks(*args, **kwargs) -> tuple[str, list[tuple[int, int, int]], int]:
    """The search on ranks as ``(outcome, line, nodes)``; the arguments of :func:`_search`."""
    found = _search(*args, **kwargs)
    return found.outcome.value, found.line, found.nodes


__all__ = [
    "LOST",
    "OVERRUN",
    "RELAXED_LIMIT",
    "RESTART_NODES",
    "RULES",
    "UNKNOWN",
    "WON",
    "Solution",
    "SolverArgumentError",
    "search_ranks",
    "solve",
]
