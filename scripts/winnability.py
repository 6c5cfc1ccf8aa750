"""Decide seeds 0..9999 with the solver, escalating the budget for the hard ones; resumable.

Run (a process pool on this machine; ``--workers`` processes, one by default)::

    python scripts/winnability.py --seeds 0 10000 --budgets 1 10 60 600 --workers 2

or on a dask cluster (``--dask local`` starts a local one with ``--workers`` processes)::

    dask scheduler &  dask worker tcp://127.0.0.1:8786 --nthreads 1 --nworkers 8 &
    python scripts/winnability.py --dask tcp://127.0.0.1:8786

Each pass gives every seed not yet decided ``budget`` seconds (first 1 s for all, then 10 s,
60 s and 600 s for those still unknown; the hardest of seeds 0..9999 took 159 s). Every result
is appended to ``--work`` (plain CSV, ``seed,outcome,nodes,seconds,moves``) the moment it
arrives, so a stopped run loses at most the deals in flight; a rerun skips the seeds already
decided, and the unknowns already tried with this budget, in the work file or the packed table.
``--pack`` writes the packed table (``data/winnability.csv.gz``: one row per seed, in seed order)
and prints the summary.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from calcnb.stats import wilson_interval
from calcnb.studies.winnability import COLUMNS, TABLE, Decision, decide, read_table, summary, to_decide, write_table

WORK = TABLE.with_name("winnability.csv")


def run_pool(seeds: list[int], budget: float, workers: int) -> Iterator[Decision]:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(decide, seed, budget) for seed in seeds]
        for future in as_completed(futures):
            yield future.result()


def run_dask(seeds: list[int], budget: float, address: str, workers: int) -> Iterator[Decision]:
    from distributed import Client, LocalCluster
    from distributed import as_completed as dask_completed

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1) if address == "local" else None
    with Client(cluster or address) as client:
        futures = client.map(decide, seeds, budget_seconds=budget, pure=False)
        for future in dask_completed(futures):
            yield future.result()
    if cluster is not None:
        cluster.close()


def append(path: Path, decisions: Iterator[Decision], total: int, budget: float) -> None:
    """Append each decision as one flushed line; print progress now and then."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = not path.exists() or path.stat().st_size == 0
    if not fresh and not path.read_bytes().endswith(b"\n"):
        with path.open("a", encoding="utf-8") as handle:
            handle.write("\n")  # a line cut short by a stopped run stays alone on its line and is skipped
    started = time.perf_counter()
    with path.open("a", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        if fresh:
            writer.writerow(COLUMNS)
        for done, decision in enumerate(decisions, 1):
            writer.writerow(decision.as_row())
            handle.flush()
            if decision.outcome != "won" or done % 500 == 0 or done == total:
                elapsed = time.perf_counter() - started
                print(f"  [{budget:g} s] {done}/{total} in {elapsed:.0f} s; seed {decision.seed}: {decision.outcome}")
                sys.stdout.flush()


def report(table: dict[int, Decision], seeds: range) -> None:
    counts = summary({seed: table[seed] for seed in seeds if seed in table})
    tried = sum(counts.values())
    won, lost, unknown = counts["won"], counts["lost"], counts["unknown"]
    low, high = wilson_interval(won, tried)
    print(f"seeds {seeds.start}..{seeds.stop - 1}: {tried} tried; won {won}, lost {lost}, unknown {unknown}")
    if tried:
        print(f"  won {won}/{tried} = {won / tried:.2%} (95% CI {low:.2%}–{high:.2%})")
    for seed in sorted(s for s in table if table[s].outcome == "lost"):
        print(f"  lost: seed {seed}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs=2, default=(0, 10_000), metavar=("START", "STOP"))
    parser.add_argument("--budgets", type=float, nargs="+", default=(1.0, 10.0, 60.0, 600.0), help="seconds, per pass")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--dask", metavar="ADDRESS", help="a dask scheduler address, or 'local'")
    parser.add_argument("--work", type=Path, default=WORK, help=f"the append-only work file (default {WORK})")
    parser.add_argument("--table", type=Path, default=TABLE, help=f"the packed table (default {TABLE})")
    parser.add_argument("--pack", action="store_true", help="only write the packed table from what is done")
    args = parser.parse_args()
    seeds = range(*args.seeds)

    if not args.pack:
        for budget in args.budgets:
            todo = to_decide(read_table(args.table, args.work), seeds, budget)
            print(f"pass at {budget:g} s: {len(todo)} seeds to decide")
            sys.stdout.flush()
            if not todo:
                continue
            if args.dask:
                results = run_dask(todo, budget, args.dask, args.workers)
            else:
                results = run_pool(todo, budget, args.workers)
            append(args.work, results, len(todo), budget)
    table = read_table(args.table, args.work)
    write_table(table, args.table)
    report(table, seeds)


if __name__ == "__main__":
    main()
