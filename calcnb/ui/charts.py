"""Charts of study results for the strategy lab, drawn with matplotlib.

Built on :mod:`calcnb.studies.measure` results (anything with ``name``, ``games``,
``win_rate``, ``interval``, ``scores``, ``rows``). Each function returns a
:class:`Chart` (a matplotlib Figure that a notebook shows as its cell's result),
which never lingers in pyplot's list of open figures.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Iterable, Sequence

from matplotlib.figure import Figure

from calcnb.game.rules import WIN_SCORE
from calcnb.i18n import message
from calcnb.studies.measure import StudyResult
from calcnb.ui.palette import BLACK, CLAIM_HIGH, CLAIM_LOW, MID_GREY, PLAYER_BAR, SOLVER_BAR


class Chart(Figure):
    """A figure that shows itself in a notebook as a PNG, with no pyplot or inline backend needed."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=80)
        return buffer.getvalue()


def win_rate_chart(players: Iterable[StudyResult], solver: StudyResult | None = None) -> Chart:
    """Each player's win rate as a bar with its Wilson 95% interval, the solver's last, and the folklore's claims."""
    players = list(players)
    entries = [*players, *([solver] if solver is not None else [])]
    # wrapped, so that long names ("plain determinized (stored)") do not run into their neighbours
    names = [f"{textwrap.fill(result.name, 12)}\n{message('chart.deals', games=result.games)}" for result in entries]
    rates = [100 * result.win_rate for result in entries]
    below = [100 * (result.win_rate - result.interval[0]) for result in entries]
    above = [100 * (result.interval[1] - result.win_rate) for result in entries]
    # about an inch a bar, so that a twelve-letter name on its own line clears its neighbours
    figure = Chart(figsize=(max(9.0, 1.1 * len(entries)), 4.5))
    ax = figure.subplots()
    ax.bar(names, rates, color=[PLAYER_BAR] * len(players) + [SOLVER_BAR] * (len(entries) - len(players)))
    ax.errorbar(names, rates, yerr=[below, above], fmt="none", ecolor=BLACK, capsize=5)
    ax.tick_params(axis="x", labelsize=8)
    ax.axhline(80, ls="--", color=CLAIM_HIGH, lw=1)
    ax.text(-0.4, 81.5, message("chart.claim_skilled"), color=CLAIM_HIGH, fontsize=9)
    ax.axhline(20, ls=":", color=CLAIM_LOW, lw=1)
    ax.text(-0.4, 21.5, message("chart.claim_normal"), color=CLAIM_LOW, fontsize=9)
    ax.set_ylabel(message("chart.games_won"))
    ax.set_ylim(0, 100)
    ax.set_title(message("chart.win_rate_title"))
    figure.tight_layout()
    return figure


def score_reach_chart(players: Iterable[StudyResult]) -> Chart:
    """For each player, the share of deals whose final score reached at least each value (52 = won)."""
    figure = Chart(figsize=(9, 3.5))
    ax = figure.subplots()
    scores = range(4, WIN_SCORE + 1)
    for result in players:
        shares = [sum(score >= at_least for score in result.scores) / result.games for at_least in scores]
        label = message("chart.mean", name=result.name, mean=result.mean_score)
        ax.step(scores, shares, where="post", lw=1.5, label=label)
    ax.set_xlabel(message("chart.final_score"))
    ax.set_ylabel(message("chart.reaching"))
    ax.set_title(message("chart.how_far"))
    ax.legend(loc="lower left", fontsize=8)
    figure.tight_layout()
    return figure


def decision_times(solver: StudyResult) -> Sequence[float]:
    """The seconds the solver took on each deal it decided (won or proven lost), shortest first."""
    return sorted(row.seconds for row in solver.rows if row.outcome != "unknown")


def decision_time_chart(solver: StudyResult, budget_seconds: float) -> Chart:
    """The share of deals the solver had decided after each time, on a log scale, with the budget dashed."""
    times = decision_times(solver)
    figure = Chart(figsize=(9, 3))
    ax = figure.subplots()
    shares = [(i + 1) / solver.games for i in range(len(times))]
    ax.step([1000 * t for t in times], shares, where="post", color=SOLVER_BAR)
    ax.axvline(1000 * budget_seconds, ls="--", color=MID_GREY, lw=1)
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(message("chart.time_ms"))
    ax.set_ylabel(message("chart.decided"))
    ax.set_title(message("chart.how_soon"))
    figure.tight_layout()
    return figure
