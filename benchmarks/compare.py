"""Run one benchmark on this tree and on another (an older checkout) in the same session, side by side.

Run: ``python benchmarks/compare.py --baseline /path/to/old/checkout [--rounds 3] bench_engine.py [ARGS...]``

The benchmark script is this tree's (``--own-scripts``: each tree runs its own copy, for a
benchmark whose options or imports have changed since); it is run ``--rounds`` times against each tree's
``calcnb`` package in turn (a fresh process with ``PYTHONPATH`` pointing at the tree),
alternating, so noise from a shared machine falls on both alike. Every printed line
that holds a figure is matched between the two runs by its words (the figures taken
out); of its figures, the first that varies between runs is the one measured (a fixed
count such as "128 samples" is passed over), and the table shows its median on each tree and their ratio
(this tree / the other). Rates (per second, ``x``) are better high, times (``ms``,
``s``) better low: the last column says which way each ratio is good.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TREE = HERE.parent
_NUMBER = re.compile(r"-?\d[\d,]*\.?\d*")
_TIME_WORDS = ("ms", " s ", " s]", "median time", "time per")


def run_once(tree: Path, script: Path, args: list[str]) -> list[str]:
    """The lines the benchmark prints when ``calcnb`` is imported from ``tree``."""
    environment = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, str(script), *args], cwd=tree, env=environment, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"{script} failed on {tree}:\n{done.stderr[-2000:]}")
    return done.stdout.splitlines()


def figures(lines: list[str]) -> dict[str, list[float]]:
    """The figures of each line that has any, keyed by the line with its figures taken out."""
    found: dict[str, list[float]] = {}
    for line in lines:
        values = [float(match.replace(",", "")) for match in _NUMBER.findall(line)]
        if values:
            found.setdefault(" ".join(_NUMBER.sub("#", line).split()), values)
    return found


def _measured(runs: list[list[float]]) -> int:
    """Which figure of a line is measured: the first that is not the same in every run (else the first)."""
    width = min(len(values) for values in runs)
    for index in range(width):
        if len({values[index] for values in runs}) > 1:
            return index
    return 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, type=Path, help="the other checkout (its calcnb is imported)")
    parser.add_argument("--rounds", type=int, default=3, help="runs on each tree, alternating (default 3)")
    parser.add_argument("--own-scripts", action="store_true", help="each tree runs its own copy of the benchmark")
    parser.add_argument("script", help="a benchmark in benchmarks/, e.g. bench_engine.py")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments passed on to the benchmark")
    args = parser.parse_args(argv)

    script = (HERE / args.script).resolve()
    trees = {"this tree": TREE, "baseline": args.baseline.resolve()}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            own = tree / "benchmarks" / args.script if args.own_scripts else script
            runs[name].append(figures(run_once(tree, own, args.args)))

    print(f"{args.script} {' '.join(args.args)}: median of {args.rounds} runs per tree, alternating")
    print(f"  this tree: {TREE}\n  baseline:  {trees['baseline']}")
    print(f"  {'line (figures shown as #)':<72} {'this tree':>12} {'baseline':>12} {'ratio':>7}")
    for key in runs["this tree"][0]:
        mine = [run[key] for run in runs["this tree"] if key in run]
        theirs = [run[key] for run in runs["baseline"] if key in run]
        if not mine or not theirs:
            continue
        index = _measured(mine + theirs)
        a, b = statistics.median(v[index] for v in mine), statistics.median(v[index] for v in theirs)
        ratio = f"{a / b:7.3f}" if b else "      -"
        better = "low" if any(word in f" {key} " for word in _TIME_WORDS) else "high"
        print(f"  {key[:72]:<72} {a:12,.1f} {b:12,.1f} {ratio}  ({better} is better)")


if __name__ == "__main__":
    main()
