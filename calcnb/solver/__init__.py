"""A solver that knows the stock order: is this position won, lost, or too hard to tell in the budget?

:func:`solve` takes a :class:`~calcnb.game.game.Game`, a :class:`~calcnb.game.engine.State` or a
deal code and returns a :class:`Solution`:

- ``"won"``: ``solution.moves`` replays through the engine from the given position to a win
  (checked before it is returned);
- ``"lost"``: proven. The search covered every possibility, up to pruning rules (:data:`RULES`)
  each argued sound (it never throws away the last winning line);
- ``"unknown"``: the budget in seconds or in search nodes ran out first.

It returns within ``budget_seconds`` plus :data:`OVERRUN` seconds of its clock. How it searches,
and the argument for each rule, are in ``docs/design.md``; ``tests/test_solver.py`` tests each
rule against plain exhaustive search on small games.

The search's modules are compiled by Cython when calcnb is installed where a C compiler works
(``setup.py``); :data:`COMPILED` says whether the compiled ones run. The environment variable
``CALCNB_INTERPRETED=1`` makes them run from their Python source instead: the same search, slower.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import math
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from calcnb.core.settings import INTERPRETED
from calcnb.game.cards import RANK_COUNT
from calcnb.game.engine import (
    STOCK_TO_FOUNDATION,
    STOCK_TO_WASTE,
    TURN,
    WASTE_TO_FOUNDATION,
    HasState,
    Move,
    State,
    as_state,
)
from calcnb.game.errors import CalcnbError, quote
from calcnb.i18n import Words, add_words, message

INTERPRETED_VARIABLE = INTERPRETED.variable
"""Set to 1 in the environment, the solver's modules run from their Python source even where compiled (the setting
:data:`calcnb.core.settings.INTERPRETED`)."""


class _SourceFinder(importlib.machinery.PathFinder):
    """Finds this package's modules as Python source only, passing over compiled extension modules."""

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):  # type: ignore[override]
        if not fullname.startswith(__name__ + "."):
            return None
        name = fullname.rpartition(".")[2]
        source = os.path.join(os.path.dirname(__file__), name + ".py")
        if not os.path.exists(source):
            return None
        return importlib.util.spec_from_file_location(fullname, source)


if INTERPRETED.read():
    sys.meta_path.insert(0, _SourceFinder)

from . import search as _search_module  # noqa: E402 (after the finder: it decides which form is loaded)
from .position import Kind, Position  # noqa: E402
from .search import RESTART_NODES, RULES, Outcome, Search, SearchResult  # noqa: E402
from .witness import RELAXED_LIMIT  # noqa: E402

add_words(__name__)  # the words of this package, in its lang/ folder

COMPILED = (_search_module.__spec__.origin or "").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
"""True when the search runs compiled (Cython); False when it runs from its Python source."""

WON, LOST, UNKNOWN = Outcome.WON.value, Outcome.LOST.value, Outcome.UNKNOWN.value  # the rules core's words

_TEARDOWN = 0.03  # seconds kept back from a time budget for freeing the table

OVERRUN = 0.05
"""Seconds :func:`solve` may run past ``budget_seconds`` on its clock: the end of a node and turning a
win into engine moves (``benchmarks/bench_solver.py --overrun`` measures it)."""


class SolverArgumentError(CalcnbError, TypeError):
    """An argument :func:`solve` refuses: not a position, a budget that is not a positive number, unknown rules.

    A ``ValueError`` (as every calcnb refusal) and a ``TypeError``, so code catching either sees it.
    """


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
        raise SolverArgumentError(Words("solver.bad_clock", value=quote(clock)))
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
        raise SolverArgumentError(Words("solver.bad_budget", name="budget_seconds", value=quote(value)))


def _check_count(name: str, value: object) -> None:
    """A node count is None or a positive whole number (a bool is not a count)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise SolverArgumentError(Words("solver.bad_count", name=name, value=quote(value)))


def _check_rules(rules: object) -> frozenset[str]:
    """A collection of rule names from :data:`RULES` (a single string is not one: it would read as letters)."""
    if isinstance(rules, (str, bytes)) or not isinstance(rules, Iterable):
        raise SolverArgumentError(Words("solver.rules_not_collection", value=quote(rules)))
    try:
        names = frozenset(rules)
    except TypeError:  # an element that is not hashable, so certainly not a rule name
        raise SolverArgumentError(Words("solver.rules_not_collection", value=quote(rules))) from None
    unknown = names - RULES
    if unknown:
        listed = ", ".join(sorted(quote(name, limit=20) for name in unknown)[:5])
        raise SolverArgumentError(Words("solver.bad_rules", unknown=listed, known=", ".join(sorted(RULES))))
    return names


def _as_state(position: object) -> State:
    """The position to solve (:func:`calcnb.game.engine.as_state`), refused in the solver's words if it is none."""
    try:
        return as_state(position)  # type: ignore[arg-type]
    except TypeError:
        raise SolverArgumentError(Words("solver.bad_input", kind=type(position).__name__)) from None


def _engine_moves(start: State, line: Iterable[tuple[int, int, int]]) -> tuple[Move, ...]:
    """Engine moves for an internal winning line, replayed through the rules as a check."""
    moves: list[Move] = []
    state = start
    onto_waste, onto_foundation, from_waste = STOCK_TO_WASTE, STOCK_TO_FOUNDATION, WASTE_TO_FOUNDATION
    for kind, waste, foundation in line:
        if kind == Kind.WASTE_TO_FOUNDATION:
            move = from_waste[waste][foundation]
        else:
            if state.pending is None:
                state = state.apply(TURN)  # raises IllegalMove if the search were wrong
                moves.append(TURN)
            move = onto_foundation[foundation] if kind == Kind.STOCK_TO_FOUNDATION else onto_waste[waste]
        state = state.apply(move)
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
    "COMPILED",
    "INTERPRETED_VARIABLE",
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
