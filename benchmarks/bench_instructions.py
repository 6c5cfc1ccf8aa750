"""Instructions, not seconds: this tree against another on the same work, counted by valgrind.

Run: ``python benchmarks/bench_instructions.py --baseline PATH [--scale 1.0] [WORK ...]``

On a shared machine the clock measures the neighbours as much as the code: two runs of the same
benchmark a minute apart can differ by 10%. The number of machine instructions a piece of work
executes does not depend on the load. So each piece of work below runs under valgrind's
``cachegrind`` (``--cache-sim=no``: it counts instructions and nothing else) on each tree, twice:
at size 0 (the interpreter starting, and one warm-up unit of the work, so imports and tables
built on first use are left out) and at its size. The difference is the work's own count; the
table shows both trees' counts and their ratio (this tree / the other: below 1 means fewer
instructions here). Instructions are not time (a cache miss costs more than an add), so this
is a second witness beside the timed benchmarks, not a replacement.

The work is the same on both trees, through the API both have: random games through
``State.apply``; move generation along those games; the four simple players' fast loops;
Monte Carlo; the play widget's click (the engine move, the buttons and the board's PNG); and the
solver at a fixed node budget (the same nodes on both trees, checked). Valgrind makes Python
about 50 times slower, so the sizes are small; ``--scale`` multiplies them.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TREE = Path(__file__).resolve().parent.parent
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def _deal() -> Callable:
    """The dealer, in this tree's layout or in the flat one before the subpackages (for a baseline that old)."""
    try:
        from calcnb.game.deals import deal
    except ImportError:
        from calcnb.deals import deal
    return deal


def _engine_games(size: int) -> object:
    from calcnb import State

    deal = _deal()

    choose = random.Random(7).choice
    scores = []
    for seed in range(size):
        state = State.initial(*deal(seed))
        while moves := state.legal_moves():
            state = state.apply(choose(moves))
        scores.append(state.score)
    return scores


def _move_generation(size: int) -> object:
    from calcnb import State

    deal = _deal()

    choose = random.Random(11).choice
    count = 0
    for seed in range(size):
        state = State.initial(*deal(seed))
        while moves := state.legal_moves():
            for _ in range(20):  # generation is what is measured; the walk only finds positions
                count += len(state.legal_moves())
            state = state.apply(choose(moves))
    return count


def _simple_players(size: int) -> object:
    from calcnb import FirstFit, KingsApart, RandomPlayer, ReverseNeed

    return [
        player.play(seed).score
        for player in (RandomPlayer(), FirstFit(), ReverseNeed(), KingsApart())
        for seed in range(size)
    ]


def _monte_carlo(size: int) -> object:
    from calcnb import MonteCarlo

    return [MonteCarlo(samples=8).play(seed).score for seed in range(size)]


def _widget_clicks(size: int) -> object:
    import matplotlib

    matplotlib.use("Agg")
    from calcnb import Game, PlayBoard

    rng = random.Random(3)
    board = PlayBoard(Game.new(seed=0))
    for _ in range(size):
        moves = board.game.legal_moves()
        if not moves:
            board = PlayBoard(Game.new(seed=rng.randrange(1000)))
            moves = board.game.legal_moves()
        board.buttons[rng.choice(moves).text].click()
    return len(board.game.history)


def _solver(size: int) -> object:
    from calcnb import Game, solve

    return [solve(Game.new(seed), budget_seconds=None, budget_nodes=3000).nodes for seed in range(size)]


WORKS: dict[str, tuple[Callable[[int], object], int]] = {
    "engine: random games through State.apply": (_engine_games, 400),
    "engine: legal_moves along games": (_move_generation, 40),
    "players: random, first fit, reverse need, kings apart": (_simple_players, 40),
    "players: Monte Carlo (8 samples)": (_monte_carlo, 2),
    "widget: clicks (move, buttons, board PNG)": (_widget_clicks, 12),
    "solver: 3000 nodes per deal": (_solver, 20),
}
"""Each piece of work and its size at ``--scale 1``: about a billion instructions, far above the
few tens of millions an interpreter's start varies by."""


def _only_this_tree() -> None:
    """Drop an editable install's import hook: it would fill in modules the tree on PYTHONPATH lacks from
    the installed tree, so a baseline with another layout would run a mixture of the two."""

    def installed(hook: object) -> bool:
        return getattr(hook, "__module__", "").startswith("__editable__")

    sys.meta_path[:] = [finder for finder in sys.meta_path if not installed(finder)]
    sys.path_hooks[:] = [hook for hook in sys.path_hooks if not installed(hook)]
    sys.path_importer_cache.clear()


def worker(name: str, size: int) -> None:
    """In a child process under valgrind: run one piece of work and print what it returned."""
    _only_this_tree()
    import calcnb

    tree = Path(os.environ["PYTHONPATH"]).resolve()
    if not Path(calcnb.__file__).resolve().is_relative_to(tree):
        raise SystemExit(f"calcnb came from {calcnb.__file__}, not from {tree}")
    work = WORKS[name][0]
    work(1)  # a warm-up at both sizes: imports and tables built on first use are not the work measured
    print(repr(work(size)))


def count(tree: Path, name: str, size: int) -> tuple[int, str]:
    """Instructions executed by a fresh interpreter doing ``name`` at ``size`` with ``tree``'s calcnb."""
    env = dict(
        os.environ, PYTHONPATH=str(tree), MPLBACKEND="Agg", PYTHONHASHSEED="0"
    )  # the same hashes: repeatable counts
    command = ["setarch", "-R", "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    command += [sys.executable, __file__, "--worker", name, str(size)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return int(_REFS.search(done.stderr).group(1).replace(",", "")), done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, help="the other checkout (its calcnb is imported)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every size (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="valgrind runs at once")
    parser.add_argument("works", nargs="*", help="names (or the start of names) of the work to count")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]))
        return
    if args.baseline is None:
        parser.error("--baseline PATH is required")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    # matplotlib builds its font cache on its first import anywhere: do it now, not inside a counted run
    subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"], check=True)
    names = [name for name in WORKS if not args.works or any(name.startswith(start) for start in args.works)]
    runs = {}
    with ThreadPoolExecutor(args.jobs) as pool:
        for name in names:
            size = max(1, round(WORKS[name][1] * args.scale))
            for tree in (TREE, args.baseline):
                for at in (0, size):
                    runs[name, tree, at] = pool.submit(count, tree, name, at)
    print(f"instructions executed, this tree against {args.baseline} (millions; ratio below 1: fewer here)")
    print(f"  {'work':<54} {'here':>10} {'there':>10} {'ratio':>7}")
    for name in names:
        size = max(1, round(WORKS[name][1] * args.scale))
        here, result_here = runs[name, TREE, size].result()
        there, result_there = runs[name, args.baseline, size].result()
        here -= runs[name, TREE, 0].result()[0]
        there -= runs[name, args.baseline, 0].result()[0]
        same = "" if result_here == result_there else "  (results differ!)"
        print(f"  {name:<54} {here / 1e6:10.1f} {there / 1e6:10.1f} {here / there:7.3f}{same}")


if __name__ == "__main__":
    main()
