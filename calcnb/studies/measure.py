"""Studies: play or solve many seeded deals and measure win rates honestly.

:func:`study` plays a player (:mod:`calcnb.players.ladder`) or runs a solver over the deals
``Game.new(seed)`` for each seed and returns a :class:`StudyResult`: one :class:`Row` per deal
(outcome, score, moves, time, where the game stopped moving), the win rate with its Wilson 95%
interval, and the score distribution. The same seeds always give the same table: a player that
draws random numbers draws them from a generator seeded by the deal's seed, whichever process
or machine plays it. ``executor=`` takes any :class:`concurrent.futures.Executor` (by default
a local process pool for a big study), a dask.distributed client's too (``docs/design.md``)::

    from distributed import Client
    client = Client("tcp://scheduler:8786")        # or Client() for a local cluster
    result = study(MonteCarlo(), range(10_000), executor=client.get_executor())

The local process pool works under every start method. Under spawn (the default on Windows and macOS,
and forkserver on Linux from Python 3.14) each worker runs the main script again: a script that calls
``study()`` outside an ``if __name__ == "__main__":`` block would start workers without end, and Python
would stop them with ``BrokenProcessPool``. :func:`study` finds that case before it starts a pool and
plays the deals in this process instead, saying why in one line (:func:`unguarded_script`); a pool that
breaks all the same (a worker killed, say) has its remaining deals played here too, said in one line.
"""

from __future__ import annotations

import ast
import inspect
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from html import escape

from calcnb.game.deals import check_seed, deal
from calcnb.game.engine import Move, State
from calcnb.game.errors import CalcnbError, InvalidSeed, quote
from calcnb.game.rules import UNKNOWN, WIN_SCORE, Status
from calcnb.i18n import Words, message
from calcnb.players.player import Player
from calcnb.stats import WinRate

__all__ = ["Row", "StudyResult", "start_method", "study", "unguarded_script"]

SOLVER_PARALLEL_FROM = 16
STUDY_BUDGET_NODES = 4_000
"""The solver's budget in a study given no budget: search nodes, so the table is the same on
every run and every machine (about 1 to 3 s a deal on one core). A time budget instead makes
the outcome of a hard deal depend on the machine's speed and load."""


@dataclass(frozen=True)
class Row:
    """One deal of a study. ``seconds`` is left out of comparisons: it is the only part that varies."""

    seed: int | str
    outcome: str
    """``"won"``, ``"lost"``, or ``"unknown"`` (a solver's budget ran out)."""
    score: int | None
    """Cards on the foundations at the end (52 = won); None when a solver did not say."""
    moves: tuple[Move, ...]
    """The moves played (a solver's winning line); they replay through ``Game.new(seed)``."""
    seconds: float = field(compare=False)
    died_at: int | None = None
    """Cards turned when the last card reached a foundation, for lost games: where play stalled."""
    needs: tuple[int, ...] | None = None
    """The rank each foundation needed at the end (0 = complete), for lost games."""


@dataclass(frozen=True)
class StudyResult(WinRate):
    """The table of a study: one :class:`Row` per seed, in the order the seeds were given."""

    name: str
    rows: tuple[Row, ...]
    seconds: float = field(default=0.0, compare=False)
    """Wall-clock time of the whole study."""

    # ------------------------------------------------------------ counts

    @property
    def games(self) -> int:
        return len(self.rows)

    def count(self, outcome: str) -> int:
        """How many deals ended with ``outcome`` (``"won"``, ``"lost"`` or ``"unknown"``)."""
        return sum(row.outcome == outcome for row in self.rows)

    @property
    def wins(self) -> int:
        return self.count(Status.WON)

    @property
    def decided(self) -> int:
        """Deals whose outcome is known (won or lost): all of them for a player."""
        return self.games - self.count(UNKNOWN)

    @property
    def scores(self) -> list[int]:
        """The known final scores, in seed order."""
        return [row.score for row in self.rows if row.score is not None]

    def score_distribution(self) -> dict[int, int]:
        """How many deals ended with each score, lowest score first."""
        return dict(sorted(Counter(self.scores).items()))

    @property
    def mean_score(self) -> float | None:
        scores = self.scores
        return statistics.fmean(scores) if scores else None

    @property
    def median_seconds(self) -> float:
        """The median time per deal."""
        return statistics.median(row.seconds for row in self.rows) if self.rows else 0.0

    def died_distribution(self) -> dict[int, int]:
        """For lost deals, how many stalled after each number of turned cards."""
        return dict(sorted(Counter(row.died_at for row in self.rows if row.died_at is not None).items()))

    def row(self, seed: int | str) -> Row:
        """The row of one seed (KeyError if the study did not include it)."""
        for row in self.rows:
            if row.seed == seed:
                return row
        raise KeyError(message("study.no_seed", seed=quote(seed)))

    def records(self) -> list[dict[str, object]]:
        """The rows as plain dicts (moves as text), ready for ``pandas.DataFrame`` or ``json``."""
        return [
            {
                "seed": row.seed,
                "outcome": row.outcome,
                "score": row.score,
                "moves": " ".join(move.text for move in row.moves),
                "seconds": row.seconds,
                "died_at": row.died_at,
            }
            for row in self.rows
        ]

    # ------------------------------------------------------------ display

    def summary(self, *, timing: bool = True) -> str:
        """One line: games, wins with the win rate and its interval, mean score, and (unless ``timing=False``,
        for output that must not vary between runs) the median time per deal."""
        low, high = self.interval
        rate, low, high = (f"{100 * value:.1f}" for value in (self.win_rate, low, high))
        parts = [
            message("study.summary", name=self.name, wins=self.wins, games=self.games, rate=rate, low=low, high=high)
        ]
        every_score_known = len(self.scores) == self.games
        if self.count(UNKNOWN) or not every_score_known:
            parts.append(message("study.summary_undecided", lost=self.count(Status.LOST), unknown=self.count(UNKNOWN)))
        if every_score_known:
            parts.append(message("study.summary_mean", mean=f"{self.mean_score:.1f}"))
        if timing:
            parts.append(message("study.summary_median", ms=f"{1000 * self.median_seconds:.1f}"))
        return ", ".join(parts)

    def __repr__(self) -> str:
        return f"<StudyResult {self.summary()}>"

    def _repr_html_(self) -> str:
        low, high = self.interval
        cells = [
            (message("study.html_deals"), f"{self.games}"),
            (message("study.html_won"), f"{self.wins} ({100 * self.win_rate:.1f}%)"),
            (message("study.html_interval"), f"{100 * low:.1f}% – {100 * high:.1f}%"),
            (message("study.html_lost"), f"{self.count(Status.LOST)}"),
        ]
        if self.count(UNKNOWN):
            cells.append((message("study.html_unknown"), f"{self.count(UNKNOWN)}"))
        if len(self.scores) == self.games:
            cells.append((message("study.html_mean"), f"{self.mean_score:.1f} / {WIN_SCORE}"))
        cells.append(
            (message("study.html_median"), message("study.html_median_value", ms=f"{1000 * self.median_seconds:.1f}"))
        )
        body = "".join(f"<tr><th style='text-align:left'>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in cells)
        return f"<table><caption>{escape(self.name)}</caption>{body}</table>"


# ---------------------------------------------------------------- running


def study(
    player_or_solver: Player | Callable | str,
    seeds: Iterable[int | str] | int,
    *,
    executor: Executor | str | None = None,
    progress: bool | None = None,
    chunk_size: int | None = None,
    budget_seconds: float | None = None,
    budget_nodes: int | None = None,
    name: str | None = None,
) -> StudyResult:
    """Play (or solve) the deal of every seed (the deal ``Game.new(seed)`` makes) and return the table of results.

    ``player_or_solver``: a :class:`~calcnb.players.ladder.Player`, a solve function
    (``solve(state, budget_seconds=, budget_nodes=)``, given the deal's opening
    :class:`~calcnb.game.engine.State`, returning an object with ``outcome``,
    ``moves`` and ``seconds``), or ``"solver"`` for :func:`calcnb.solver.solve`.
    ``seeds``: an iterable of seeds, or a count ``n`` for seeds ``0..n-1``; a string, a
    negative count or a seed that is no seed is refused (:class:`~calcnb.game.errors.InvalidSeed`)
    before anything is played.
    ``executor``: None picks a local process pool for big studies and this process for
    small ones; ``"serial"`` forces this process; any ``concurrent.futures.Executor``
    (thread or process pool, ``distributed.Client(...).get_executor()``) is used as given
    and left running. ``progress``: a tqdm bar (notebook-aware); None shows it when the
    study runs in chunks for more than a moment. ``budget_*`` apply to a solver; with neither
    given, a solver gets :data:`STUDY_BUDGET_NODES` nodes a deal, so the table is the same on
    every run. ``budget_seconds`` bounds each deal's time instead (or as well): a hard deal may
    then be won on a fast or idle machine and unknown on a slow or busy one.
    """
    seed_list = _seed_list(seeds)
    if chunk_size is not None and (type(chunk_size) is not int or chunk_size < 1):
        raise CalcnbError(Words("study.bad_chunk", value=quote(chunk_size)))
    if budget_seconds is None and budget_nodes is None:
        budget_nodes = STUDY_BUDGET_NODES
    worker = _worker(player_or_solver, budget_seconds, budget_nodes)
    label = name or _name_of(player_or_solver)
    started = time.perf_counter()
    if not seed_list:
        return StudyResult(label, (), 0.0)

    own_pool = None
    if executor is None:
        parallel = len(seed_list) >= worker.parallel_from and (os.cpu_count() or 1) > 1
        script = unguarded_script() if parallel else None
        if script is not None:  # the workers would run the script again: see the module notes
            print(message("study.serial_unguarded", script=script, method=start_method()), file=sys.stderr)
        if parallel and script is None:
            executor = own_pool = ProcessPoolExecutor(max_workers=os.cpu_count())
        else:
            executor = "serial"
    if executor != "serial" and not isinstance(executor, Executor):
        raise CalcnbError(Words("study.bad_executor", executor=quote(executor)))

    workers = 1 if executor == "serial" else max(2, getattr(executor, "_max_workers", 0) or 2)
    size = chunk_size or max(1, min(500, math.ceil(len(seed_list) / (workers * 8))))
    chunks = [seed_list[i : i + size] for i in range(0, len(seed_list), size)]
    show = progress if progress is not None else len(chunks) > 1 and len(seed_list) >= worker.progress_from
    bar = _progress_bar(len(seed_list), label, show)
    results: list[list[Row] | None] = [None] * len(chunks)
    try:
        if executor == "serial":
            for index, chunk in enumerate(chunks):
                results[index] = worker(chunk)
                bar.update(len(chunk))
        else:
            _run_on(executor, worker, chunks, results, bar, own=own_pool is not None)
    finally:
        bar.close()
        if own_pool is not None:
            own_pool.shutdown(cancel_futures=True)
    rows = tuple(row for chunk_rows in results for row in chunk_rows or ())
    return StudyResult(label, rows, time.perf_counter() - started)


def _run_on(executor: Executor, worker: Callable, chunks: list, results: list, bar, *, own: bool) -> None:
    """Run every chunk on ``executor`` into ``results``; a pool of calcnb's own that breaks has the chunks it
    did not finish run in this process (said in one line), never a ``BrokenProcessPool``."""
    futures = {executor.submit(worker, chunk): index for index, chunk in enumerate(chunks)}
    try:
        for future in as_completed(futures):
            index = futures[future]
            results[index] = future.result()
            bar.update(len(chunks[index]))
    except BrokenProcessPool as error:
        if not own:
            raise
        print(message("study.pool_broke", reason=error), file=sys.stderr)
        for index, chunk in enumerate(chunks):
            if results[index] is None:
                results[index] = worker(chunk)
                bar.update(len(chunk))


def start_method() -> str:
    """The start method a new process pool uses here: the one set, else the platform's default."""
    return multiprocessing.get_start_method(allow_none=True) or multiprocessing.get_all_start_methods()[0]


def _is_main_guard(test: ast.expr) -> bool:
    """Whether ``test`` is ``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, *test.comparators]
    names = [side for side in sides if isinstance(side, ast.Name) and side.id == "__name__"]
    texts = [side for side in sides if isinstance(side, ast.Constant) and side.value == "__main__"]
    return len(names) == 1 and len(texts) == 1


def unguarded_script() -> str | None:
    """The main script, if a process pool would run it again and it reaches this call outside its main guard.

    Under fork (Linux up to Python 3.13) workers never run the script again: None. Otherwise the main
    module's top-level frame is found in the stack; if the line it runs is not inside an ``if __name__ ==
    "__main__":`` block of its file, each worker would run the call again: the script's path. A notebook,
    ``python -c`` or an interactive session has no script file: None.
    """
    if start_method() == "fork":
        return None
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    if not path:
        return None
    frame = inspect.currentframe()
    while frame is not None and (frame.f_code.co_name != "<module>" or frame.f_globals.get("__name__") != "__main__"):
        frame = frame.f_back
    if frame is None or os.path.abspath(frame.f_code.co_filename) != os.path.abspath(path):
        return None
    line = frame.f_lineno
    try:
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError):
        return path  # cannot tell: one core is safe
    guarded = any(
        isinstance(node, ast.If) and _is_main_guard(node.test) and node.lineno <= line <= (node.end_lineno or line)
        for node in ast.walk(tree)
    )
    return None if guarded else path


def _seed_list(seeds: object) -> list[int | str]:
    """The seeds of a study as a list, every one checked; :class:`InvalidSeed` before any is played."""
    if isinstance(seeds, str):
        raise InvalidSeed(Words("study.seeds_text", value=quote(seeds)))
    if isinstance(seeds, int) and not isinstance(seeds, bool):
        if seeds < 0:
            raise InvalidSeed(Words("study.negative_count", value=quote(seeds)))
        return list(range(seeds))
    if isinstance(seeds, (bool, bytes, bytearray)) or not isinstance(seeds, Iterable):
        raise InvalidSeed(Words("study.bad_seeds", value=quote(seeds)))
    seed_list = list(seeds)
    for index, seed in enumerate(seed_list, start=1):
        try:
            check_seed(seed)
        except CalcnbError as error:
            raise InvalidSeed(Words("study.bad_seed", index=index, reason=error)) from None
    return seed_list


def _name_of(player_or_solver: object) -> str:
    if isinstance(player_or_solver, Player):
        return player_or_solver.name
    name = player_or_solver if isinstance(player_or_solver, str) else getattr(player_or_solver, "__name__", "")
    return "solver" if name in ("solve", "solver", "") else name


def _progress_bar(total: int, label: str, show: bool):
    from tqdm.auto import tqdm  # notebook-aware: a widget in Jupyter, text in a terminal

    return tqdm(total=total, desc=label, unit="deal", disable=not show, leave=False)


def _worker(player_or_solver: object, budget_seconds: float, budget_nodes: int | None):
    if isinstance(player_or_solver, Player):
        return _PlayChunk(player_or_solver)
    if player_or_solver == "solver":
        from calcnb.solver import solve  # loaded only when a study asks for it

        return _SolveChunk(solve, budget_seconds, budget_nodes)
    if callable(player_or_solver):
        return _SolveChunk(player_or_solver, budget_seconds, budget_nodes)
    raise CalcnbError(Words("study.bad_player", player=quote(player_or_solver)))


class _PlayChunk:
    """Plays a chunk of seeds; a picklable callable so any executor can run it."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.parallel_from = player.parallel_from
        self.progress_from = max(1, player.parallel_from // 4)

    def __call__(self, seeds: Sequence[int | str]) -> list[Row]:
        rows = []
        for seed in seeds:
            started = time.perf_counter()
            result = self.player.play(seed)
            seconds = time.perf_counter() - started
            lost = result.outcome != Status.WON
            rows.append(
                Row(
                    seed,
                    result.outcome,
                    result.score,
                    result.moves,
                    seconds,
                    result.last_progress if lost else None,
                    result.needs if lost else None,
                )
            )
        return rows


class _SolveChunk:
    """Solves a chunk of seeds with a solve function (a module-level function, so it pickles by name)."""

    def __init__(self, solve: Callable, budget_seconds: float, budget_nodes: int | None) -> None:
        self.solve = solve
        self.budget_seconds = budget_seconds
        self.budget_nodes = budget_nodes
        self.parallel_from = SOLVER_PARALLEL_FROM
        self.progress_from = 4

    def __call__(self, seeds: Sequence[int | str]) -> list[Row]:
        rows = []
        for seed in seeds:
            started = time.perf_counter()
            opening = State.initial(*deal(seed))
            solution = self.solve(opening, budget_seconds=self.budget_seconds, budget_nodes=self.budget_nodes)
            seconds = getattr(solution, "seconds", None)
            if seconds is None:
                seconds = time.perf_counter() - started
            outcome = solution.outcome
            score = WIN_SCORE if outcome == Status.WON else None
            rows.append(Row(seed, outcome, score, tuple(solution.moves), seconds))
        return rows
