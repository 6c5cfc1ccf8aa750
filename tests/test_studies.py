"""Studies: reproducible tables, honest intervals, and the same answer through any executor."""

import math
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest

from calcnb import Game
from calcnb.game.engine import Move
from calcnb.game.errors import CalcnbError
from calcnb.players.ladder import FirstFit, MonteCarlo, RandomPlayer, ReverseNeed
from calcnb.solver import solve
from calcnb.stats import median_interval, percentile, wilson_interval
from calcnb.studies.measure import Row, StudyResult, study


def test_wilson_interval_matches_known_values():
    # 20 of 100: the textbook Wilson interval is 0.1333 to 0.2888
    low, high = wilson_interval(20, 100)
    assert low == pytest.approx(0.13333, abs=1e-4) and high == pytest.approx(0.28880, abs=1e-4)
    # no wins still gives a real upper bound (the "rule of three" is about 3/n)
    low, high = wilson_interval(0, 100)
    assert low == 0 and high == pytest.approx(0.03699, abs=1e-4)
    assert wilson_interval(100, 100)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="between 0 and the number of trials"):
        wilson_interval(5, 3)


def test_median_interval_takes_the_order_statistics_of_the_binomial_tables():
    # the textbook ranks: the 14th and 27th smallest of 40 values, the 40th and 61st of 100, the 1st and 6th of 6
    assert median_interval(range(40)) == (13, 26)
    assert median_interval(range(100)) == (39, 60)
    assert median_interval([6, 1, 5, 2, 4, 3]) == (1, 6)  # sorted first
    # five values cannot rule anything out at 95% (each side misses with chance 1/32 > 2.5%)
    assert median_interval(range(5)) == (-math.inf, math.inf)
    assert median_interval([]) == (-math.inf, math.inf)
    # a lower confidence narrows it
    assert median_interval(range(40), confidence=0.5) == (17, 22)


def test_median_interval_covers_the_true_median_at_least_as_often_as_it_says():
    # 95% of intervals from 17 values must hold the median: exactly, from the binomial chance of each rank
    n = 17
    low, high = median_interval(range(n))
    assert high == n - 1 - low  # the same rank from either end
    below = sum(math.comb(n, i) for i in range(low + 1)) / 2**n  # the median is under the low end
    assert 1 - 2 * below >= 0.95
    wider = sum(math.comb(n, i) for i in range(low + 2)) / 2**n  # one rank narrower would fall short
    assert 1 - 2 * wider < 0.95


def test_study_rows_follow_the_seeds_and_replay():
    result = study(ReverseNeed(), [5, 3, 9], executor="serial")
    assert [row.seed for row in result.rows] == [5, 3, 9]
    for row in result.rows:
        game = Game.new(row.seed)
        game.play_many(row.moves)
        assert game.score == row.score and game.status == row.outcome
        if row.outcome == "lost":
            assert 0 <= row.died_at <= 48 and len(row.needs) == 4


def test_same_seeds_same_table_every_run_for_random_players():
    first = study(RandomPlayer(), 30, executor="serial")
    again = study(RandomPlayer(), range(30), executor="serial")
    assert first == again  # seconds are left out of the comparison
    assert first.rows[0].seconds >= 0


def test_a_process_pool_gives_the_same_table_as_this_process():
    serial = study(MonteCarlo(samples=2), range(8), executor="serial")
    pooled = study(MonteCarlo(samples=2), range(8))  # Monte Carlo goes to a local process pool from 8 deals up
    assert pooled == serial
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=2) as pool:
        assert study(MonteCarlo(samples=2), range(8), executor=pool, chunk_size=1) == serial


def test_any_executor_gives_the_same_table():
    serial = study(FirstFit(), 40, executor="serial")
    with ThreadPoolExecutor(max_workers=3) as pool:
        threaded = study(FirstFit(), 40, executor=pool, chunk_size=7)
    assert threaded == serial


def test_a_dask_cluster_executor_gives_the_same_table():
    import distributed  # in the test extras: a missing or broken install fails, never skips

    serial = study(RandomPlayer(), 12, executor="serial")
    with (
        distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        result = study(RandomPlayer(), 12, executor=client.get_executor(), chunk_size=5)
    assert result == serial


def test_summary_figures_are_computed_from_the_rows():
    rows = (
        Row(1, "won", 52, (), 0.010),
        Row(2, "lost", 30, (), 0.020, died_at=40, needs=(5, 0, 9, 13)),
        Row(3, "lost", 30, (), 0.030, died_at=44, needs=(5, 7, 9, 13)),
        Row(4, "won", 52, (), 0.040),
    )
    result = StudyResult("toy", rows)
    assert (result.games, result.wins, result.count("lost"), result.decided) == (4, 2, 2, 4)
    assert result.win_rate == 0.5 and result.interval == wilson_interval(2, 4)
    assert result.score_distribution() == {30: 2, 52: 2}
    assert result.mean_score == 41
    assert result.median_seconds == pytest.approx(0.025)
    assert result.died_distribution() == {40: 1, 44: 1}
    assert result.row(3) is rows[2]
    with pytest.raises(KeyError, match="seed 99"):
        result.row(99)
    assert repr(result) == (
        "<StudyResult toy: 2/4 won = 50.0% (95% CI 15.0–85.0%), mean score 41.0, median 25.0 ms/deal>"
    )
    assert result.summary(timing=False) == "toy: 2/4 won = 50.0% (95% CI 15.0–85.0%), mean score 41.0"
    html = result._repr_html_()
    assert "<caption>toy</caption>" in html and "15.0% – 85.0%" in html
    assert result.records()[1] == {
        "seed": 2,
        "outcome": "lost",
        "score": 30,
        "moves": "",
        "seconds": 0.02,
        "died_at": 40,
    }


def _toy_solver(state, *, budget_seconds, budget_nodes):
    """A stand-in solver: wins with reverse need's moves when they win, else "lost" when the first card is odd."""
    result = ReverseNeed().play(state)
    if result.outcome == "won":
        return SimpleNamespace(outcome="won", moves=result.moves, nodes=1, seconds=0.001)
    outcome = "lost" if state.stock[0].rank % 2 else "unknown"
    return SimpleNamespace(outcome=outcome, moves=(), nodes=budget_nodes or 0, seconds=budget_seconds)


def test_a_solver_study_counts_won_lost_and_unknown():
    seeds = range(30, 70)  # reverse need wins 32, 40 and 43
    result = study(_toy_solver, seeds, budget_seconds=0.5, budget_nodes=7, executor="serial")
    player = study(ReverseNeed(), seeds, executor="serial")
    assert result.wins == player.wins == 3
    assert result.count("lost") + result.count("unknown") + result.wins == 40
    assert result.decided == 40 - result.count("unknown")
    assert all(row.score is None for row in result.rows if row.outcome != "won")
    assert all(row.seconds == 0.5 for row in result.rows if row.outcome != "won")
    assert "unknown" in repr(result) and "mean score" not in repr(result)
    assert result.name == "_toy_solver"
    won = next(row for row in result.rows if row.outcome == "won")
    assert all(isinstance(move, Move) for move in won.moves)


def test_a_solver_study_through_a_process_pool_names_the_function():
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = study(_toy_solver, range(6), executor=pool, chunk_size=2)
    assert pooled == study(_toy_solver, range(6), executor="serial")


def test_bad_arguments_are_refused_with_the_reason():
    with pytest.raises(CalcnbError, match="a Player, a solve function or 'solver'"):
        study(42, 3)
    with pytest.raises(ValueError, match=r"executor must be None, 'serial' or a concurrent\.futures\.Executor"):
        study(FirstFit(), 3, executor="threads")
    for chunk_size in (0, -1, 2.5, "7"):
        with pytest.raises(CalcnbError, match="chunk_size is a whole number"):
            study(FirstFit(), 3, executor="serial", chunk_size=chunk_size)


def test_an_empty_study_is_an_empty_table():
    result = study(FirstFit(), [])
    assert result.games == 0 and result.win_rate == 0.0 and result.interval == (0.0, 1.0)


def test_the_solver_named_by_string_gives_winning_lines_that_replay():
    result = study("solver", [6, 9], executor="serial", budget_seconds=5.0)
    assert result.name == "solver" and [row.seed for row in result.rows] == [6, 9]
    assert result.row(6).outcome == "won"  # the solver's own documented example
    for row in result.rows:
        assert row.outcome in ("won", "lost", "unknown")
        if row.outcome == "won":
            game = Game.new(row.seed)
            game.play_many(row.moves)
            assert game.status == "won" and row.score == 52
            assert list(row.moves) == list(solve(Game.new(row.seed), budget_seconds=5.0).moves)  # the solver's line


def test_percentile_takes_the_nearest_rank_and_says_nan_for_nothing():
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile([4.0, 1.0, 3.0, 2.0], 0.5) == 3.0  # the upper median of an even count
    hundred = [float(value) for value in range(100, 0, -1)]
    assert percentile(hundred, 0.95) == 96.0 and percentile(hundred, 0.0) == 1.0 and percentile(hundred, 1.0) == 100.0
    assert math.isnan(percentile([], 0.95))
