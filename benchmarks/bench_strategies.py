"""How fast the players play, how often they win, and how quickly the solver decides deals.

Run ``python benchmarks/bench_strategies.py`` (modest defaults, about a minute) or scale up::

    python benchmarks/bench_strategies.py --wins 2000 --mc-deals 500 --workers 2 --solver 200

Speed: games per second for each player over the same seeded deals, the median of
``--repeats`` runs, each against a baseline measured in the same run: the random player
driven through the public ``Game`` API (``game.legal_moves()`` and ``game.play``), move by move.

Hint: at every position of ``--hint-deals`` games, the Hint (within its budget) against the same player without
a budget, measured alternately at the same positions: p50, p95 and max, and how often they chose the same move.
``--hint-only`` runs only this section.

Win rates: each player over seeded deals ``0..N-1`` with its Wilson 95% interval.
Determinized (the strongest blind player): ``--det-deals`` seeded deals from ``--det-start``,
the same deals for ``MonteCarlo(128)``: each one's win rate with its interval, and the thinking
time of every decision that had more than one sensible move (median and 95th percentile, in CPU
seconds and in wall-clock seconds). ``--det-samples 32`` measures the study's variant that imagines
32 orders (:data:`calcnb.players.blind.MORE_ORDERS`). The issue's full measure is ``--det-deals 500``.

Coach: ``calcnb.analyse`` on ``--analyse-positions`` real positions (a card turned, from games of
reverse need), its latency median and 95th percentile, the futures it tried, and the median width of
the best move's interval.

Fresh deals: the stored study on :data:`calcnb.studies.folklore.FRESH_SET_ASIDE` (the 64-orders player and
the next-card ceiling), their thinking played again alone, and the clairvoyant solver on the same deals, now.

Solver: over ``--solver`` seeded deals with a 1 s budget each, the share decided (won or
proven lost) within the budget, the median time, and the won/lost/unknown counts.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor

from calcnb import Game
from calcnb.game.deals import deal
from calcnb.players.advice import HINT_NODES, HINT_SECONDS, advise, forget_hints, hint, hint_deliberation, hint_player
from calcnb.players.blind import MORE_ORDERS, MOST_ORDERS, SAMPLES, Determinized
from calcnb.players.coach import analyse
from calcnb.players.ladder import FirstFit, KingsApart, MonteCarlo, RandomPlayer, ReverseNeed
from calcnb.players.player import Player
from calcnb.solver import solve
from calcnb.stats import WinRate, percentile, wilson_interval
from calcnb.studies.folklore import (
    CLAIRVOYANT_NODES,
    FRESH,
    FRESH_ALONE,
    FRESH_SET_ASIDE,
    SET_ASIDE,
    nine_in_ten,
    stored_study,
    study_rows,
    thinking_alone,
    timed_play,
    within_a_second,
)
from calcnb.studies.measure import study


def random_through_game(seed: int) -> int:
    """The baseline: a random player that plays through the public Game API, move by move."""
    game = Game.new(seed)
    rng = random.Random(seed)
    while moves := game.legal_moves():
        game.play(moves[rng.randrange(len(moves))])
    return game.score


def player_through_game(player: Player) -> Callable[[int], int]:
    """A player choosing each move with ``choose`` and playing it through Game (no fast loop)."""

    def play(seed: int) -> int:
        game = Game.new(seed)
        while (move := player.choose(game)) is not None:
            game.play(move)
        return game.score

    return play


def games_per_second(play: Callable[[int], object], seeds: range) -> float:
    """Games per second playing every seed once."""
    started = time.perf_counter()
    for seed in seeds:
        play(seed)
    return len(seeds) / (time.perf_counter() - started)


def speed_section(games: int, mc_games: int, mc_samples: int, repeats: int) -> None:
    print(f"== Speed: games per second on one core, median of {repeats} runs ==")
    print(f"  (each run is paired with a run of the baseline over seeds 0..{games - 1} just before it; the ratio")
    print("   is the median of the paired ratios; every figure includes dealing the seed's deal)")
    seeds = range(games)
    rows = [("random, through the Game API (baseline)", random_through_game, seeds)]
    rows.append(("dealing alone, deal(seed)", deal, seeds))
    rows.append(("first fit, choose() through the Game API", player_through_game(FirstFit()), seeds))
    for player in (RandomPlayer(), FirstFit(), ReverseNeed(), KingsApart()):
        rows.append((f"{player.name}, fast loop", player.play, seeds))
    monte_carlo = MonteCarlo(samples=mc_samples)
    rows.append((f"monte carlo ({mc_samples} samples), fast loop", monte_carlo.play, range(mc_games)))
    for label, play, deal_seeds in rows:
        rates, ratios, bases = [], [], []
        for _ in range(repeats):
            base = games_per_second(random_through_game, seeds)
            rate = games_per_second(play, deal_seeds)
            rates.append(rate)
            bases.append(base)
            ratios.append(rate / base)
        rate, ratio, base = (statistics.median(values) for values in (rates, ratios, bases))
        print(f"  {label:<46} {rate:10.1f} games/s   {ratio:7.3f}x baseline ({base:.1f} games/s)")


def hint_section(deals: int) -> None:
    """Time the Hint at every position of ``deals`` games, against the unbounded player in the same run.

    The games follow the unbounded hint's player (``Determinized(samples=64)`` without a budget: the Hint as it
    was), so the positions are the same as before the budget. At each position both answer, one after the other
    (which goes first alternates), the hint's memory emptied first so it thinks every time. Placements are the
    positions where the unbounded player puts the turned card on a waste pile (as this section counted them
    before); weighed ones, every position where the player imagined orders. ``--hint-deals 0`` skips it.
    """
    player = hint_player()
    print(f"== Hint ({player!r}): time per answer over every position of {deals} games ==")
    if not isinstance(player, Determinized):  # the solver runs interpreted: there is no budget to compare
        times = []
        for seed in range(deals):
            game = Game.new(seed)
            while True:
                started = time.perf_counter()
                move, _ = hint(game)
                times.append(time.perf_counter() - started)
                if move is None:
                    break
                game.play(move)
        print(f"  all {len(times)} answers: {_p50_p95(times)}")
        return
    print(f"  baseline: the same player without a budget (as the Hint was); now: within {HINT_NODES} nodes")
    print(f"  and {HINT_SECONDS} s on the clock. Same positions, measured alternately, the hint's memory emptied.")
    rows = []  # (weighed, placement, baseline seconds, budget seconds, same move, stopped)
    for seed in range(deals):
        game = Game.new(seed)
        while True:
            timings = {}
            for which in ("base", "now") if len(rows) % 2 == 0 else ("now", "base"):
                forget_hints()
                started = time.perf_counter()
                if which == "base":
                    unbounded, _ = advise(game)  # the hint's player and its reasons, without the budget
                else:
                    move, _ = hint(game)
                timings[which] = time.perf_counter() - started
            if unbounded is None:
                break
            thought = hint_deliberation(game)  # what the hint just weighed, from its memory
            weighed, stopped = bool(thought.results), thought.stopped
            placement = unbounded.kind == "stock_to_waste"
            rows.append((weighed, placement, timings["base"], timings["now"], move is unbounded, stopped))
            game.play(unbounded)
    for label, chosen in (
        ("all answers", rows),
        ("weighed (orders imagined)", [row for row in rows if row[0]]),
        ("waste placements", [row for row in rows if row[1]]),
    ):
        if not chosen:
            continue
        base, now = [row[2] for row in chosen], [row[3] for row in chosen]
        same = sum(row[4] for row in chosen)
        stopped = sum(row[5] for row in chosen)
        print(f"  {len(chosen)} {label}:")
        print(f"    baseline (no budget): {_p50_p95(base)}")
        print(f"    with the budget:      {_p50_p95(now)}")
        print(f"    same move as the baseline at {same} of {len(chosen)}; the budget stopped the race at {stopped}")


def _p50_p95(seconds: list[float]) -> str:
    """Times as the Hint section prints them: median, 95th percentile and maximum, in ms."""
    median, p95 = statistics.median(seconds), percentile(seconds, 0.95)
    return f"p50 {1000 * median:7.1f} ms, p95 {1000 * p95:7.1f} ms, max {1000 * max(seconds):7.1f} ms"


def _rate(result: WinRate) -> str:
    """A win rate as the section prints it: wins, games, percent and the Wilson interval."""
    low, high = result.interval
    rate = f"{100 * result.win_rate:.1f}% (95% interval {100 * low:.1f}–{100 * high:.1f}%)"
    return f"won {result.wins} of {result.games} = {rate}"


def fresh_section() -> None:
    """The fresh set-aside deals: the stored games of the 64-orders player and of the next-card ceiling, and
    the clairvoyant solver on the same deals, now."""
    first, last = FRESH_SET_ASIDE.start, FRESH_SET_ASIDE.stop - 1
    print(f"== The {len(FRESH_SET_ASIDE)} fresh deals (seeds {first}..{last}, set aside before any setting) ==")
    fresh = stored_study(FRESH, paired=False)
    if not fresh:
        print(f"  no games stored yet in {FRESH.name} (scripts/player_study.py --fresh)")
        return
    rows = study_rows(FRESH)
    for player in fresh.values():
        print(f"  {player.name}: {_rate(player)}; thinking per choice, median game:", end=" ")
        print(f"{player.think_median:.2f} s (p95 {player.think_p95:.2f} s), two games at once")
        thinking = sum(float(row["think_seconds"]) for row in rows if row["player"] == player.name)
        print(f"    the study's thinking: {thinking / 3600:.2f} CPU hours")
    newest = Determinized(samples=MOST_ORDERS).name
    if newest in fresh:
        print(f"  {nine_in_ten(fresh[newest])}")
    for alone in thinking_alone(FRESH_ALONE, FRESH).values():
        print(f"  {within_a_second(alone)}")
    started = time.process_time()
    clairvoyant = study(
        solve, FRESH_SET_ASIDE, executor="serial", budget_nodes=CLAIRVOYANT_NODES, progress=False, name="solver"
    )
    spent = time.process_time() - started
    print(f"  the solver (sees the stock), now: {_rate(clairvoyant)};", end=" ")
    print(f"unknown {clairvoyant.count('unknown')}, {spent:.1f} CPU s in all")
    present = stored_study(paired=False, seeds=SET_ASIDE).get(Determinized(samples=MORE_ORDERS).name)
    if present is not None:
        print(f"  beside it, {present.name} on the first set-aside deals: {_rate(present)}")


def wins_section(deals: int, mc_deals: int, mc_samples: int, executor: Executor | str) -> None:
    if deals <= 0 and mc_deals <= 0:
        return
    print(f"== Win rates over seeded deals (Wilson 95% intervals; {deals} deals, Monte Carlo {mc_deals}) ==")
    players: list[tuple[Player, int]] = [
        (RandomPlayer(), deals),
        (FirstFit(), deals),
        (ReverseNeed(), deals),
        (KingsApart(), deals),
        (MonteCarlo(samples=mc_samples), mc_deals),
    ]
    for player, count in players:
        if count <= 0:
            continue
        result = study(player, range(count), executor=executor, progress=False)
        low, high = result.interval
        print(
            f"  {player.name:<13} won {result.wins:>5}/{result.games:<5} = {100 * result.win_rate:5.1f}%"
            f"  (95% CI {100 * low:4.1f}–{100 * high:4.1f}%)  mean score {result.mean_score:4.1f}"
            f"  [{result.seconds:.1f} s]"
        )


def solver_section(deals: int, budget: float, executor: Executor | str) -> None:
    print(f"== Solver: {deals} seeded deals, {budget:g} s budget each ==")
    result = study(solve, range(deals), budget_seconds=budget, executor=executor, progress=False)
    decided_in_budget = sum(1 for row in result.rows if row.outcome != "unknown" and row.seconds <= budget)
    won, lost, unknown = result.count("won"), result.count("lost"), result.count("unknown")
    low, high = result.interval
    decided_low, decided_high = wilson_interval(decided_in_budget, deals)
    print(
        f"  decided within {budget:g} s: {decided_in_budget}/{deals} = {100 * decided_in_budget / deals:.1f}%"
        f" (95% CI {100 * decided_low:.1f}–{100 * decided_high:.1f}%)"
    )
    print(f"  median time: {1000 * result.median_seconds:.1f} ms")
    print(f"  won {won}, lost {lost}, unknown {unknown}")
    rate = f"{100 * result.win_rate:.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}%)"
    print(f"  win rate {rate}, unknowns counted as not won")


def determinized_section(deals: int, start: int, samples: int = SAMPLES) -> None:
    """The strongest blind player (imagining ``samples`` orders) against Monte Carlo(128) on the same deals."""
    seeds = range(start, start + deals)
    print(f"== Determinized against MonteCarlo(128): seeds {start}..{start + deals - 1} ==")
    for make in (lambda: Determinized(samples=samples), lambda: MonteCarlo(samples=128)):
        wins = 0
        cpu: list[float] = []
        wall: list[float] = []
        for seed in seeds:
            game = timed_play(make(), seed)
            wins += game.outcome == "won"
            cpu += game.thinking
            wall += game.thinking_wall
        low, high = wilson_interval(wins, deals)
        name = repr(make())
        print(f"  {name}: won {wins}/{deals} = {100 * wins / deals:.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}%)")
        if cpu:
            print(
                f"    {len(cpu)} decisions with a choice: CPU s median {statistics.median(cpu):.3f}, "
                f"p95 {percentile(cpu, 0.95):.3f}; wall s median {statistics.median(wall):.3f}, "
                f"p95 {percentile(wall, 0.95):.3f}"
            )


def analyse_section(positions: int) -> None:
    """The coach's latency over real positions with a card turned."""
    print(f"== calcnb.analyse over {positions} real positions (a card turned; games of reverse need) ==")
    chosen = []
    seed = 0
    while len(chosen) < positions:
        game = Game.new(seed)
        for index, move in enumerate(ReverseNeed().play(seed).moves):
            if game.state.pending is not None and index % 17 == 0:
                chosen.append(game.state)
            game.play(move)
        seed += 1
    wall: list[float] = []
    futures: list[int] = []
    widths: list[float] = []
    for state in chosen[:positions]:
        started = time.perf_counter()
        chances = analyse(state)
        wall.append(time.perf_counter() - started)
        futures.append(chances[0].futures)
        low, high = chances[0].interval
        widths.append(high - low)
    print(
        f"  latency: median {statistics.median(wall):.3f} s, p95 {percentile(wall, 0.95):.3f} s; "
        f"futures tried: median {statistics.median(futures):.0f} (fewest {min(futures)}); "
        f"the best move's 95% interval: median width {100 * statistics.median(widths):.0f} in 100"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="deals per speed run (default 1000)")
    parser.add_argument("--mc-games", type=int, default=3, help="deals per Monte Carlo speed run (default 3)")
    parser.add_argument("--repeats", type=int, default=5, help="speed runs per player; the median is shown")
    parser.add_argument("--wins", type=int, default=1000, help="deals per player for win rates (default 1000)")
    parser.add_argument("--mc-deals", type=int, default=40, help="deals for the Monte Carlo win rate (default 40)")
    parser.add_argument("--mc-samples", type=int, default=128, help="imagined orders per Monte Carlo placement")
    parser.add_argument("--solver", type=int, default=200, help="deals for the solver section (0 to skip)")
    parser.add_argument("--budget", type=float, default=1.0, help="solver budget per deal in seconds")
    parser.add_argument(
        "--workers", type=int, default=1, help="processes for the win rates and solver (default 1: this process)"
    )
    parser.add_argument(
        "--solver-workers", type=int, default=1, help="processes for the solver (default 1, so times are not shared)"
    )
    parser.add_argument("--hint-deals", type=int, default=5, help="games whose every position is hinted")
    parser.add_argument("--skip-speed", action="store_true", help="leave out the speed and Hint sections")
    parser.add_argument("--hint-only", action="store_true", help="only the Hint section (against its baseline)")
    parser.add_argument("--det-deals", type=int, default=2, help="deals for Determinized vs Monte Carlo (default 2)")
    parser.add_argument("--det-start", type=int, default=50100, help="first seed for them (default 50100)")
    parser.add_argument(
        "--det-samples",
        type=int,
        default=SAMPLES,
        help=f"imagined orders per choice (default {SAMPLES}; {MORE_ORDERS}: the study's variant)",
    )
    parser.add_argument("--analyse-positions", type=int, default=10, help="positions for analyse (default 10)")
    parser.add_argument("--skip-fresh", action="store_true", help="leave out the fresh deals' section")
    args = parser.parse_args(argv)

    print(f"Python {sys.version.split()[0]}; workers {max(1, args.workers)}")
    if not args.skip_speed and not args.hint_only:
        speed_section(args.games, args.mc_games, args.mc_samples, args.repeats)
    if (args.hint_only or not args.skip_speed) and args.hint_deals > 0:
        hint_section(args.hint_deals)
    if args.hint_only:
        return
    if args.det_deals > 0:
        determinized_section(args.det_deals, args.det_start, args.det_samples)
    if args.analyse_positions > 0:
        analyse_section(args.analyse_positions)
    if not args.skip_fresh:
        fresh_section()
    with contextlib.ExitStack() as stack:
        executor = "serial"
        if args.workers > 1:
            executor = stack.enter_context(ProcessPoolExecutor(max_workers=args.workers))
        wins_section(args.wins, args.mc_deals, args.mc_samples, executor)
        if args.solver > 0:
            # the solver's times are the point here: one deal at a time unless asked otherwise
            solver_executor = "serial"
            if args.solver_workers > 1:
                solver_executor = stack.enter_context(ProcessPoolExecutor(max_workers=args.solver_workers))
            solver_section(args.solver, args.budget, solver_executor)


if __name__ == "__main__":
    main()
