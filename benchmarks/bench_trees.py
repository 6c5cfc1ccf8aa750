"""The engine and the players of this tree against another checkout, in one process, round by round.

Run: ``python benchmarks/bench_trees.py --baseline /path/to/old/checkout [--rounds 15] [--deals 100]``

The other checkout's package is imported under another name (``calcnb_baseline``, through a
symbolic link in a temporary folder), so both run in the same process on the same deals with
the same random choices. Each round times every piece of work once on each tree, in turn
(which tree goes first alternates), so a busy moment on a shared machine falls on both alike.
Printed: the median time of each piece of work on each tree, the median of the
round-by-round speed ratios (this tree's speed / the other's; above 1 is faster), and the
ratio of the best times (the least disturbed round of each: steadier on a busy machine).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

TREE = Path(__file__).resolve().parent.parent


def load(name: str, folder: Path) -> dict[str, ModuleType]:
    """The engine, deals, session and strategies modules of the package ``name`` found in ``folder``."""
    sys.path.insert(0, str(folder))
    try:
        return {
            part: importlib.import_module(f"{name}.{part}") for part in ("engine", "deals", "session", "strategies")
        }
    finally:
        sys.path.remove(str(folder))


def workloads(tree: dict[str, ModuleType], deals: int) -> dict[str, Callable[[], object]]:
    """The pieces of work timed, each a function of no arguments doing the same thing on ``tree``."""
    State, deal = tree["engine"].State, tree["deals"].deal
    Game, players = tree["session"].Game, tree["strategies"]
    openings = [State.initial(*deal(seed)) for seed in range(deals)]
    positions = []
    choose = random.Random(11).choice
    for state in openings[: max(1, deals // 4)]:
        while moves := state.legal_moves():
            positions.append(state)
            state = state.apply(choose(moves))

    def random_games(hot: bool) -> Callable[[], list[int]]:
        def run() -> list[int]:
            pick = random.Random(7).choice
            scores = []
            for state in openings:
                step = type(state)._apply_legal if hot else type(state).apply
                while moves := state.legal_moves():
                    state = step(state, pick(moves))
                scores.append(state.score)
            return scores

        return run

    def through_game() -> list[int]:
        rng = random.Random(3)
        scores = []
        for seed in range(deals // 4):
            game = Game.new(seed)
            while moves := game.legal_moves():
                game.play(moves[rng.randrange(len(moves))])
            scores.append(game.score)
        return scores

    def player(cls: type, seeds: range, **kwargs: object) -> Callable[[], list[int]]:
        chosen = cls(**kwargs)
        return lambda: [chosen.play(seed).score for seed in seeds]

    return {
        "engine: random games, State.apply": random_games(hot=False),
        "engine: random games, _apply_legal": random_games(hot=True),
        "engine: legal_moves over positions (x10)": lambda: [state.legal_moves() for state in positions * 10],
        "session: random games through Game": through_game,
        "players: random, fast loop": player(players.RandomPlayer, range(deals)),
        "players: first fit, fast loop": player(players.FirstFit, range(deals)),
        "players: reverse need, fast loop": player(players.ReverseNeed, range(deals)),
        "players: kings apart, fast loop": player(players.KingsApart, range(deals)),
        "players: monte carlo (16 samples)": player(players.MonteCarlo, range(1), samples=16),
        "players: hint at 10 positions of games": lambda: [players.hint(state) for state in positions[::37][:10]],
    }


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def timed(work: Callable[[], object], clock: Callable[[], float] = time.process_time) -> tuple[float, object]:
    started = clock()
    result = work()
    return clock() - started, result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, type=Path, help="the other checkout (holding calcnb/)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds; medians are printed (default 15)")
    parser.add_argument("--deals", type=int, default=100, help="deals per piece of work (default 100)")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="cpu (default): this process's CPU seconds, which waiting for a busy machine's cores does not"
        " inflate; wall: elapsed seconds",
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "calcnb_baseline").symlink_to(args.baseline.resolve() / "calcnb", target_is_directory=True)
        trees = {"this tree": load("calcnb", TREE), "baseline": load("calcnb_baseline", Path(folder))}
        works = {name: workloads(tree, args.deals) for name, tree in trees.items()}
        times: dict[str, dict[str, list[float]]] = {name: {label: [] for label in works[name]} for name in trees}
        for label in works["this tree"]:
            mine, theirs = works["this tree"][label](), works["baseline"][label]()
            if repr(mine) != repr(theirs):
                raise SystemExit(f"{label}: the two trees do not do the same work; not comparing")
        for round_number in range(args.rounds):
            order = list(trees) if round_number % 2 == 0 else list(reversed(trees))
            for label in works["this tree"]:
                for name in order:
                    times[name][label].append(timed(works[name][label], CLOCKS[args.clock])[0])

    print(
        f"this tree {TREE} against {args.baseline}: {args.deals} deals, median of {args.rounds} rounds,"
        f" one process, {args.clock} time"
    )
    print(f"  {'work':<42} {'this tree':>11} {'baseline':>11} {'median ratio':>13} {'best ratio':>11}")
    for label in works["this tree"]:
        mine, theirs = times["this tree"][label], times["baseline"][label]
        ratio = statistics.median(b / a for a, b in zip(mine, theirs))
        best = min(theirs) / min(mine)
        print(
            f"  {label:<42} {1000 * statistics.median(mine):9.1f}ms {1000 * statistics.median(theirs):9.1f}ms"
            f" {ratio:12.3f}x {best:10.3f}x"
        )


if __name__ == "__main__":
    main()
