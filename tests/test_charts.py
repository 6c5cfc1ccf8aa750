"""The strategy lab's charts show the study results they are given."""

import pytest

from calcnb.players.ladder import FirstFit, ReverseNeed
from calcnb.solver import solve
from calcnb.studies.measure import study
from calcnb.ui.charts import decision_time_chart, decision_times, score_reach_chart, win_rate_chart


@pytest.fixture(scope="module")
def results():
    players = [study(player, range(40), progress=False) for player in (FirstFit(), ReverseNeed())]
    solver = study(solve, range(3), budget_seconds=1.0, progress=False)
    return players, solver


def test_win_rate_bars_are_the_measured_rates_with_the_solver_last(results):
    players, solver = results
    figure = win_rate_chart(players, solver)
    ax = figure.axes[0]
    heights = [bar.get_height() for bar in ax.patches]
    assert heights == pytest.approx([100 * r.win_rate for r in [*players, solver]])
    labels = [label.get_text() for label in ax.get_xticklabels()]
    assert labels[-1].startswith(solver.name) and "(3 deals)" in labels[-1]
    assert figure._repr_png_().startswith(b"\x89PNG")


def test_score_curves_end_at_each_players_win_rate(results):
    players, _ = results
    ax = score_reach_chart(players).axes[0]
    for line, result in zip(ax.get_lines(), players, strict=True):
        xs, ys = line.get_data()
        assert xs[-1] == 52
        assert ys[-1] == pytest.approx(result.win_rate)
        assert ys[0] == pytest.approx(1.0)  # every game has its 4 starters on the foundations


def test_decision_times_cover_every_decided_deal(results):
    _, solver = results
    times = decision_times(solver)
    assert len(times) == sum(1 for row in solver.rows if row.outcome != "unknown")
    assert list(times) == sorted(times)
    ax = decision_time_chart(solver, 1.0).axes[0]
    _, shares = ax.get_lines()[0].get_data()
    assert len(shares) == len(times)
