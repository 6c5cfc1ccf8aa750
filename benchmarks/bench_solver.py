"""How often the solver decides a deal within its budget, how fast, and how late it stops.

Run: ``python benchmarks/bench_solver.py [--deals 200] [--full] [--budget 1.0] [--clock wall|cpu]
[--compare PATH|interpreted] [--overrun] [--ablations]``

``--clock cpu`` reads the budgets on each process's CPU time (``time.process_time``) instead of
the wall clock: on a shared machine under load a 1 s wall-clock budget may give the solver a
small part of a second of work, and the shares measure the load instead of the solver.

- **Decided share** (always): seeds ``0 ..`` and ``100000 ..`` (``--deals`` of each, 200 by
  default; ``--full`` for the 2000 of each the solver's target is set on), ``--budget`` seconds
  each; the share decided (won, or proven lost) with its Wilson 95% interval, and the counts.
  Every reported win is replayed through the game.
- ``--compare interpreted``: this tree's compiled solver against the same tree interpreted
  (``CALCNB_INTERPRETED=1``) in the same run, alternating: outcome and node count deal by deal at a
  fixed node budget on seeds ``0..--compare-seeds - 1`` and on the hardest deals, then the nodes per CPU
  second of each (median of ``--repeats`` runs) and their ratio.
- ``--compare PATH``: the same solver code in another tree (``PATH`` on ``PYTHONPATH``, for
  example the original code) measured in the same run, alternating the two trees: node counts
  and outcomes deal by deal at a fixed node budget (an equivalence check: identical counts mean
  the same search), the CPU seconds each takes for them (median of ``--repeats`` runs) and the
  ratio; then the decided share at ``--budget`` of both on the first ``--compare-deals`` seeds.
- ``--overrun``: the hardest deals known, solved with short budgets while a busy loop keeps the
  other core loaded; prints the worst time past the budget against :data:`calcnb.solver.OVERRUN`.
- ``--ablations``: the same search as one attempt (no restarts), without the relaxed rule, and a
  plain depth-first search with a transposition table over the engine's moves, same budget.
"""

from __future__ import annotations

import argparse
import inspect
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import calcnb.solver
from calcnb import Game, State
from calcnb.solver import RESTART_NODES, RULES, solve

HARDEST = (8, 390, 406, 643, 1157, 1675, 1880, 1983, 100229, 100967, 101325, 101470, 101896)
"""The hardest deals known: those of seeds 0..1999 and 100000..101999 the solver has left undecided within
1 s of CPU (the first eight interpreted, the five of 100000.. compiled)."""

RANGES = ((0, "seeds 0.."), (100_000, "seeds 100000.."))

# read with a default: the workers of --compare PATH run this file on a tree from before the compiled core
COMPILED = getattr(calcnb.solver, "COMPILED", False)
INTERPRETED_VARIABLE = getattr(calcnb.solver, "INTERPRETED_VARIABLE", "CALCNB_INTERPRETED")


class _Timeout(Exception):
    pass


def plain_dfs(state: State, budget_seconds: float) -> str:
    """The baseline: depth-first search with a transposition table, no heuristics, no pruning."""
    deadline = time.perf_counter() + budget_seconds
    seen: set[State] = set()
    counter = [0]

    def win(s: State) -> bool:
        counter[0] += 1
        if counter[0] & 1023 == 0 and time.perf_counter() > deadline:
            raise _Timeout
        if s in seen:
            return False
        seen.add(s)
        moves = s.legal_moves()
        if not moves:
            return s.score == 52
        return any(win(s._apply_legal(move)) for move in moves)

    try:
        return "won" if win(state) else "lost"
    except (_Timeout, RecursionError):
        return "unknown"


def share_line(decided: int, total: int) -> str:
    from calcnb.stats import wilson_interval  # here: the workers of --compare PATH may run a tree without it

    low, high = wilson_interval(decided, total)
    return f"{decided}/{total} = {decided / total:.2%} (95% CI {low:.2%}–{high:.2%})"


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def run_solver(
    name: str,
    seeds: range,
    budget: float,
    restart_nodes: int | None = RESTART_NODES,
    rules: frozenset[str] = RULES,
    clock: str = "wall",
) -> dict[int, str]:
    """Solve each deal, check every win through the game, print the summary; returns the outcomes."""
    outcomes: dict[int, str] = {}
    times: list[float] = []
    started = time.perf_counter()
    for seed in seeds:
        solution = solve(
            Game.new(seed), budget_seconds=budget, restart_nodes=restart_nodes, rules=rules, clock=CLOCKS[clock]
        )
        outcomes[seed] = solution.outcome
        times.append(solution.seconds)
        if solution.outcome == "won":  # every reported win is checked through the game
            game = Game.new(seed)
            game.play_many(solution.moves)
            assert game.status == "won", seed
    wall = time.perf_counter() - started
    counts = Counter(outcomes.values())
    print(f"{name}:")
    print(f"  decided within {budget:g} s ({clock} clock): {share_line(counts['won'] + counts['lost'], len(seeds))}")
    print(f"  won {counts['won']}  lost {counts['lost']}  unknown {counts['unknown']}")
    print(f"  median time {statistics.median(times):.3f} s, mean {statistics.mean(times):.3f} s, total {wall:.1f} s")
    unknown = [seed for seed, outcome in outcomes.items() if outcome == "unknown"]
    if unknown:
        print(f"  unknown: seeds {', '.join(map(str, unknown))}")
    return outcomes


# ---------------------------------------------------------------- two trees side by side


def worker(mode: str, seeds: list[int], budget: float) -> None:
    """In a child process: one JSON line per deal (outcome, nodes, CPU seconds) for the calcnb on PYTHONPATH.

    Modes: ``nodes`` (``budget`` nodes a deal), ``seconds`` (``budget`` wall-clock seconds), ``cpu``
    (``budget`` CPU seconds: the wall clock is replaced by the process's own, which older trees read too).
    """
    cpu_clock = {}
    if mode == "cpu":
        if "clock" in inspect.signature(solve).parameters:
            cpu_clock = {"clock": time.process_time}
        else:  # an older tree reads time.perf_counter at every use
            time.perf_counter = time.process_time
    for seed in seeds:
        game = Game.new(seed)
        started = time.process_time()
        if mode == "nodes":
            solution = solve(game, budget_seconds=None, budget_nodes=int(budget))
        else:
            solution = solve(game, budget_seconds=budget, **cpu_clock)
        cpu = time.process_time() - started
        print(json.dumps({"seed": seed, "outcome": solution.outcome, "nodes": solution.nodes, "cpu": cpu}), flush=True)


def in_tree(tree: str | None, mode: str, seeds: list[int], budget: float, interpreted: bool = False) -> list[dict]:
    """Run :func:`worker` in a fresh process with ``tree`` (None: this one) first on PYTHONPATH.

    ``interpreted``: the solver runs from its Python source even where it is compiled.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = tree or str(Path(__file__).resolve().parent.parent)
    env.pop(INTERPRETED_VARIABLE, None)
    if interpreted:
        env[INTERPRETED_VARIABLE] = "1"
    command = [sys.executable, __file__, "--worker", mode, "--budget", str(budget)]
    command += ["--seeds", ",".join(map(str, seeds))]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def compare(tree: str, seeds: list[int], node_budget: int, repeats: int, budget: float, deals: int, clock: str) -> None:
    """This tree against ``tree``: identical searches at a node budget, CPU time, decided share at a time budget."""
    print(f"\nside by side with {tree} (alternating, same run)")
    ours_cpu, theirs_cpu, ours_speed, theirs_speed = [], [], [], []
    for _ in range(repeats):
        theirs = in_tree(tree, "nodes", seeds, node_budget)
        ours = in_tree(None, "nodes", seeds, node_budget)
        theirs_cpu.append(sum(row["cpu"] for row in theirs))
        ours_cpu.append(sum(row["cpu"] for row in ours))
        theirs_speed.append(sum(row["nodes"] for row in theirs) / theirs_cpu[-1])
        ours_speed.append(sum(row["nodes"] for row in ours) / ours_cpu[-1])
    same = sum((a["outcome"], a["nodes"]) == (b["outcome"], b["nodes"]) for a, b in zip(ours, theirs))
    print(f"  seeds {seeds[0]}..{seeds[-1]} at {node_budget} nodes:", end=" ")
    print(f"identical outcome and node count on {same}/{len(seeds)}")
    for a, b in zip(ours, theirs):
        if (a["outcome"], a["nodes"]) != (b["outcome"], b["nodes"]):
            here, there = f"{a['outcome']} in {a['nodes']} nodes", f"{b['outcome']} in {b['nodes']}"
            print(f"    seed {a['seed']}: {here} here, {there} there")
    mine, other = statistics.median(ours_cpu), statistics.median(theirs_cpu)
    print(f"  CPU seconds for them (median of {repeats}): here {mine:.2f}, there {other:.2f}, ratio {mine / other:.3f}")
    # The trees' searches may differ (other orderings, other pruning): nodes per CPU second compares their speed.
    fast, slow = statistics.median(ours_speed), statistics.median(theirs_speed)
    print(f"  nodes per CPU second (median of {repeats}):", end=" ")
    print(f"here {fast:,.0f}, there {slow:,.0f}, ratio {fast / slow:.1f}x")
    hard = list(HARDEST)
    hard_budget = max(node_budget // 4, 1)
    theirs_hard, ours_hard = [], []
    for _ in range(repeats):
        theirs_hard.append(sum(row["cpu"] for row in in_tree(tree, "nodes", hard, hard_budget)))
        ours_hard.append(sum(row["cpu"] for row in in_tree(None, "nodes", hard, hard_budget)))
    mine, other = statistics.median(ours_hard), statistics.median(theirs_hard)
    print(f"  the hardest deals at {hard_budget} nodes, CPU seconds:", end=" ")
    print(f"here {mine:.2f}, there {other:.2f}, ratio {mine / other:.3f}")
    if deals:
        subset = list(range(deals))
        for name, where in (("there", tree), ("here", None)):
            rows = in_tree(where, "cpu" if clock == "cpu" else "seconds", subset, budget)
            decided = sum(row["outcome"] != "unknown" for row in rows)
            unknown = ", ".join(str(row["seed"]) for row in rows if row["outcome"] == "unknown")
            print(f"  {name}: decided within {budget:g} s ({clock} clock) on seeds 0..{deals - 1}:", end=" ")
            print(f"{share_line(decided, deals)}; unknown: {unknown or 'none'}")


def compare_interpreted(seeds: list[int], node_budget: int, repeats: int) -> None:
    """This tree compiled against itself interpreted: identical searches, and nodes per CPU second of each."""
    if not COMPILED:
        print("\nthe solver is not compiled here (no C compiler at install?): nothing to compare")
        return
    print("\ncompiled against interpreted, this tree (alternating, same run)")
    for label, group in ((f"seeds {seeds[0]}..{seeds[-1]}", seeds), ("the hardest deals", list(HARDEST))):
        fast_rate, slow_rate = [], []
        for _ in range(repeats):
            slow = in_tree(None, "nodes", group, node_budget, interpreted=True)
            fast = in_tree(None, "nodes", group, node_budget)
            slow_rate.append(sum(row["nodes"] for row in slow) / sum(row["cpu"] for row in slow))
            fast_rate.append(sum(row["nodes"] for row in fast) / sum(row["cpu"] for row in fast))
        same = sum((a["outcome"], a["nodes"]) == (b["outcome"], b["nodes"]) for a, b in zip(fast, slow))
        nodes = sum(row["nodes"] for row in fast)
        print(f"  {label} ({len(group)} deals) at {node_budget} nodes: identical outcome and node count on", end=" ")
        print(f"{same}/{len(group)} ({nodes} nodes in all)")
        for a, b in zip(fast, slow):
            if (a["outcome"], a["nodes"]) != (b["outcome"], b["nodes"]):
                print(f"    seed {a['seed']}: {a['outcome']} in {a['nodes']} compiled, {b['outcome']} in {b['nodes']}")
        fast_median, slow_median = statistics.median(fast_rate), statistics.median(slow_rate)
        print(f"    nodes per CPU second (median of {repeats}): compiled {fast_median:,.0f},", end=" ")
        print(f"interpreted {slow_median:,.0f}, ratio {fast_median / slow_median:.1f}x")


# ---------------------------------------------------------------- overrun under load


def _busy(stop_at: float) -> None:
    while time.perf_counter() < stop_at:
        pass


def overrun(budgets: tuple[float, ...] = (0.2, 1.0), rounds: int = 2) -> None:
    """Solve the hardest deals with short budgets while another process keeps a core busy; print how late.

    Twice: on the wall clock (what a user waits; a machine busier than its cores adds its own
    delay, which no code can take back) and on the process's CPU clock (the solver's own part).
    """
    from calcnb.solver import OVERRUN  # not in older trees, which the workers may run

    print(f"\ntime past the budget on the hardest deals {', '.join(map(str, HARDEST))}, another core kept busy")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start):")
    load = multiprocessing.Process(target=_busy, args=(time.perf_counter() + 3600,), daemon=True)
    load.start()
    try:
        for name, clock in CLOCKS.items():
            for budget in budgets:
                late = []
                for _ in range(rounds):
                    for seed in HARDEST:
                        game = Game.new(seed)
                        started = clock()
                        solve(game, budget_seconds=budget, clock=clock)
                        late.append(clock() - started - budget)
                print(
                    f"  {name} clock, budget {budget:g} s, {len(late)} solves:"
                    f" worst {max(late) * 1000:+.1f} ms past it, median {statistics.median(late) * 1000:+.1f} ms"
                    f" (stated bound: +{OVERRUN * 1000:.0f} ms)"
                )
    finally:
        load.terminate()
        load.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals of each seed range (default 200)")
    parser.add_argument("--full", action="store_true", help="2000 deals of each seed range (the target's size)")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per deal (default 1.0)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help="what the budget counts (wall)")
    parser.add_argument("--compare", metavar="PATH", help="another calcnb tree, or 'interpreted'")
    parser.add_argument("--compare-seeds", type=int, default=51, help="seeds 0..N-1 for the equivalence (default 51)")
    parser.add_argument("--node-budget", type=int, default=20_000, help="nodes per deal for the equivalence")
    parser.add_argument("--repeats", type=int, default=3, help="timing runs of each tree (default 3)")
    parser.add_argument("--compare-deals", type=int, default=0, help="also the decided share of both on 0..N-1")
    parser.add_argument("--overrun", action="store_true", help="measure the time past the budget under load")
    parser.add_argument("--ablations", action="store_true", help="also one attempt, no relaxed rule, plain DFS")
    parser.add_argument("--skip-share", action="store_true", help="skip the decided share (compare/overrun only)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--seeds", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, [int(seed) for seed in args.seeds.split(",")], args.budget)
        return

    deals = 2000 if args.full else args.deals
    if not args.skip_share:
        for start, label in RANGES:
            seeds = range(start, start + deals)
            title = f"{label}{start + deals - 1} ({deals} deals), budget {args.budget:g} s"
            run_solver(title, seeds, args.budget, clock=args.clock)
    if args.compare == "interpreted":
        compare_interpreted(list(range(args.compare_seeds)), args.node_budget, args.repeats)
    elif args.compare:
        seeds = list(range(args.compare_seeds))
        compare(args.compare, seeds, args.node_budget, args.repeats, args.budget, args.compare_deals, args.clock)
    if args.overrun:
        overrun()
    if args.ablations:
        seeds = range(deals)
        outcomes = {seed: solve(Game.new(seed), budget_seconds=args.budget).outcome for seed in seeds}
        decided = sum(outcome != "unknown" for outcome in outcomes.values())
        single = run_solver("same search, one attempt (no restarts)", seeds, args.budget, None)
        single_decided = sum(outcome != "unknown" for outcome in single.values())
        print(f"  ratio of decided deals, restarts / one attempt: {decided / max(single_decided, 1):.2f}x")
        unrelaxed = run_solver(
            "same search without the relaxed rule", seeds, args.budget, RESTART_NODES, RULES - {"relaxed"}
        )
        unrelaxed_decided = sum(outcome != "unknown" for outcome in unrelaxed.values())
        print(f"  ratio of decided deals, with / without the relaxed rule: {decided / max(unrelaxed_decided, 1):.2f}x")
        subset = list(seeds)[:20]
        base = Counter(plain_dfs(Game.new(seed).state, args.budget) for seed in subset)
        base_decided = base["won"] + base["lost"]
        ours = sum(outcomes[seed] != "unknown" for seed in subset)
        print(f"plain DFS + transposition table, same budget, first {len(subset)} deals: decided {base_decided}")
        print(f"  solver on the same deals: decided {ours}/{len(subset)}")


if __name__ == "__main__":
    main()
