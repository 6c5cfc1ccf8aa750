"""How often the solver decides a deal (won, or proven lost) within its budget, and how fast.

Run: ``python benchmarks/bench_solver.py [--deals 200] [--start 0] [--budget 1.0] [--baseline-deals 20]``

For seeds ``start .. start+deals-1`` it solves ``Game.new(seed)`` with ``budget`` seconds each and
prints the share decided, the median time, and the counts won / lost / unknown. In the same run
it measures two baselines under the same budget:

- the same search as one attempt, without restarts (``restart_nodes=None``), on every deal;
- the same search without the relaxed rule (``rules=RULES - {"relaxed"}``), on every deal;
- on the first ``--baseline-deals`` seeds, a plain depth-first search with a transposition table
  over the engine's own moves (every legal move in the documented order, states memoised).

So the ratios compare the same deals on the same machine load.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from calcnb import Game, State
from calcnb.solver import RESTART_NODES, RULES, solve
from calcnb.studies import wilson_interval


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
    except _Timeout:
        return "unknown"
    except RecursionError:
        return "unknown"


def run_solver(
    name: str, seeds: range, budget: float, restart_nodes: int | None, rules: frozenset[str] = RULES
) -> dict[int, str]:
    """Solve each deal, check every win through the game, print the summary; returns the outcomes."""
    outcomes: dict[int, str] = {}
    times: list[float] = []
    started = time.perf_counter()
    for seed in seeds:
        solution = solve(Game.new(seed), budget_seconds=budget, restart_nodes=restart_nodes, rules=rules)
        outcomes[seed] = solution.outcome
        times.append(solution.seconds)
        if solution.outcome == "won":  # every reported win is checked through the game
            game = Game.new(seed)
            game.play_many(solution.moves)
            assert game.status == "won", seed
    wall = time.perf_counter() - started
    counts = Counter(outcomes.values())
    decided = counts["won"] + counts["lost"]
    print(f"{name}:")
    low, high = wilson_interval(decided, len(seeds))
    print(f"  decided within budget: {decided}/{len(seeds)} = {decided / len(seeds):.1%} (95% CI {low:.1%}–{high:.1%})")
    print(f"  won {counts['won']}  lost {counts['lost']}  unknown {counts['unknown']}")
    print(f"  median time {statistics.median(times):.3f} s, mean {statistics.mean(times):.3f} s, total {wall:.1f} s")
    unknown = [seed for seed, outcome in outcomes.items() if outcome == "unknown"]
    if unknown:
        print(f"  unknown: seeds {', '.join(map(str, unknown))}")
    return outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="how many seeded deals (default 200)")
    parser.add_argument("--start", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per deal (default 1.0)")
    parser.add_argument("--baseline-deals", type=int, default=20, help="deals for the baseline (default 20)")
    args = parser.parse_args()

    seeds = range(args.start, args.start + args.deals)
    last = args.start + args.deals - 1
    print(f"{args.deals} deals (seeds {args.start}..{last}), budget {args.budget:g} s each")
    outcomes = run_solver("solver (restarts, the default)", seeds, args.budget, RESTART_NODES)
    decided = sum(outcome != "unknown" for outcome in outcomes.values())
    single = run_solver("same search, one attempt (no restarts)", seeds, args.budget, None)
    single_decided = sum(outcome != "unknown" for outcome in single.values())
    print(f"  ratio of decided deals, restarts / one attempt: {decided / max(single_decided, 1):.2f}x")
    unrelaxed = run_solver(
        "same search without the relaxed rule", seeds, args.budget, RESTART_NODES, RULES - {"relaxed"}
    )
    unrelaxed_decided = sum(outcome != "unknown" for outcome in unrelaxed.values())
    print(f"  ratio of decided deals, with / without the relaxed rule: {decided / max(unrelaxed_decided, 1):.2f}x")

    subset = list(seeds)[: args.baseline_deals]
    if subset:
        base = Counter(plain_dfs(Game.new(seed).state, args.budget) for seed in subset)
        base_decided = base["won"] + base["lost"]
        ours = sum(outcomes[seed] != "unknown" for seed in subset)
        print(f"baseline (plain DFS + transposition table, same budget) on the first {len(subset)} deals:")
        print(f"  decided {base_decided}/{len(subset)} = {base_decided / len(subset):.1%}", end="")
        print(f"  (won {base['won']}  lost {base['lost']}  unknown {base['unknown']})")
        print(f"  solver on the same deals: decided {ours}/{len(subset)} = {ours / len(subset):.1%}", end="")
        ratio = f"{ours / base_decided:.1f}x" if base_decided else f"{ours} vs 0 (baseline decided none)"
        print(f"; ratio {ratio}")


if __name__ == "__main__":
    main()
