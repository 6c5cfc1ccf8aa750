"""Charts of study results for the strategy lab, drawn with matplotlib.

Built on :mod:`calcnb.studies` results (anything with ``name``, ``games``,
``win_rate``, ``interval``, ``scores``, ``rows``). Each function returns a
:class:`Chart` (a matplotlib Figure that a notebook shows as its cell's result),
which never lingers in pyplot's list of open figures.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Iterable, Sequence

from matplotlib.figure import Figure

from .studies import StudyResult

PLAYER_COLOUR = "#9aa5b1"
SOLVER_COLOUR = "#c0392b"
WON_SCORE = 52


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
    names = [f"{textwrap.fill(result.name, 12)}\n({result.games} deals)" for result in entries]
    rates = [100 * result.win_rate for result in entries]
    below = [100 * (result.win_rate - result.interval[0]) for result in entries]
    above = [100 * (result.interval[1] - result.win_rate) for result in entries]
    # about an inch a bar, so that a twelve-letter name on its own line clears its neighbours
    figure = Chart(figsize=(max(9.0, 1.1 * len(entries)), 4.5))
    ax = figure.subplots()
    ax.bar(names, rates, color=[PLAYER_COLOUR] * len(players) + [SOLVER_COLOUR] * (len(entries) - len(players)))
    ax.errorbar(names, rates, yerr=[below, above], fmt="none", ecolor="black", capsize=5)
    ax.tick_params(axis="x", labelsize=8)
    ax.axhline(80, ls="--", color="#2c7", lw=1)
    ax.text(-0.4, 81.5, "claim: a skilled player wins > 80%", color="#2a6", fontsize=9)
    ax.axhline(20, ls=":", color="#27c", lw=1)
    ax.text(-0.4, 21.5, "claim: normal play wins 1 in 5", color="#25a", fontsize=9)
    ax.set_ylabel("games won (%)")
    ax.set_ylim(0, 100)
    ax.set_title("Win rate by player, with Wilson 95% intervals")
    figure.tight_layout()
    return figure


def score_reach_chart(players: Iterable[StudyResult]) -> Chart:
    """For each player, the share of deals whose final score reached at least each value (52 = won)."""
    figure = Chart(figsize=(9, 3.5))
    ax = figure.subplots()
    scores = range(4, WON_SCORE + 1)
    for result in players:
        shares = [sum(score >= at_least for score in result.scores) / result.games for at_least in scores]
        ax.step(scores, shares, where="post", lw=1.5, label=f"{result.name} (mean {result.mean_score:.1f})")
    ax.set_xlabel("cards on the foundations at the end (52 = won)")
    ax.set_ylabel("share of deals reaching it")
    ax.set_title("How far the games get")
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
    ax.step([1000 * t for t in times], shares, where="post", color=SOLVER_COLOUR)
    ax.axvline(1000 * budget_seconds, ls="--", color="gray", lw=1)
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("time (ms, logarithmic)")
    ax.set_ylabel("share of deals decided")
    ax.set_title("How soon the solver decides a deal (dashed: the budget)")
    figure.tight_layout()
    return figure
