"""The order explorer: a foundation order drawn on a clock, and the widget to pick one.

The arithmetic lives in :mod:`calcnb.exercises.orders` (:func:`~calcnb.exercises.orders.walk` and its
:class:`~calcnb.exercises.orders.OrderWalk`; re-exported here for notebooks);
:func:`draw_walk` draws a walk with matplotlib as a path around a clock;
:class:`OrderExplorer` is the ipywidgets app with a step and a number of ranks to pick.
"""

from __future__ import annotations

import io
import itertools
import math
from typing import TYPE_CHECKING

import ipywidgets as widgets

from calcnb.exercises.orders import OrderWalk, broken_steps, clock_verdict, rank_label, walk
from calcnb.game.cards import RANK_COUNT
from calcnb.i18n import message
from calcnb.ui.before_run import ShownWhenRun
from calcnb.ui.palette import BLUE, DARK_GREY, LIGHT_GREY, MID_GREY, VERMILION, WHITE

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from calcnb.ui.lesson import Quiz

__all__ = ["OrderExplorer", "OrderWalk", "broken_steps", "clock_verdict", "draw_walk", "rank_label", "walk", "walk_png"]

# Okabe-Ito colours: told apart with any colour vision.
_VISITED = BLUE
_CLOSING = VERMILION
_MISSED = MID_GREY


# ---------------------------------------------------------------- drawing


def _clock_point(rank: int, ranks: int, radius: float = 1.0) -> tuple[float, float]:
    # The top rank (K for 13) sits at twelve o'clock, like 0 on a clock; ranks run clockwise.
    angle = math.pi / 2 - 2 * math.pi * (rank % ranks) / ranks
    return radius * math.cos(angle), radius * math.sin(angle)


def draw_walk(order: OrderWalk | int, ranks: int = RANK_COUNT, ax: Axes | None = None) -> Figure:
    """Draw an order as a path around a clock of ``ranks`` positions; returns the Figure.

    ``order`` is an :class:`OrderWalk` or a step (then ``ranks`` says the clock size).
    Visited ranks are blue and numbered by their place in the order; ranks never
    reached are grey; the dashed vermillion arrow is where the sequence closes.
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle

    if not isinstance(order, OrderWalk):
        order = walk(order, ranks)
    if ax is None:
        # A bare Figure (not pyplot): nothing global is touched and nothing is shown twice in a notebook.
        ax = Figure(figsize=(5.2, 5.6), dpi=100).add_subplot()
    figure = ax.figure
    n = order.ranks
    ax.set_aspect("equal")
    ax.set_xlim(-1.45, 1.45)
    ax.set_ylim(-1.45, 1.45)
    ax.axis("off")
    ax.add_patch(Circle((0, 0), 1.0, fill=False, edgecolor=LIGHT_GREY, linewidth=1.5))

    reached = set(order.visited)
    for rank in range(1, n + 1):
        x, y = _clock_point(rank, n)
        seen = rank in reached
        ax.plot(
            [x],
            [y],
            marker="o",
            markersize=22,
            markerfacecolor=_VISITED if seen else WHITE,
            markeredgecolor=_VISITED if seen else _MISSED,
            markeredgewidth=2,
            zorder=3,
        )
        ax.text(
            x,
            y,
            rank_label(rank, n),
            ha="center",
            va="center",
            fontsize=10,
            fontweight="bold",
            color=WHITE if seen else _MISSED,
            zorder=4,
        )
        place = order.place_of(rank)
        if place is not None:
            px, py = _clock_point(rank, n, radius=1.27)
            ax.text(px, py, f"#{place}", ha="center", va="center", fontsize=8, fontstyle="italic", color=DARK_GREY)

    path = [*order.visited, order.first]
    for index, (start, end) in enumerate(itertools.pairwise(path)):
        closing = index == len(path) - 2
        ax.annotate(
            "",
            xy=_clock_point(end, n, 0.9),
            xytext=_clock_point(start, n, 0.9),
            arrowprops=dict(
                arrowstyle="-|>",
                color=_CLOSING if closing else _VISITED,
                linestyle="--" if closing else "-",
                linewidth=1.4,
                shrinkA=9,
                shrinkB=9,
                alpha=0.85,
            ),
            zorder=2,
        )
    ax.set_title(message("explorer.title", step=order.step, ranks=n), fontsize=12)
    footer = message("explorer.footer", count=len(reached), ranks=n)
    ax.text(
        0,
        -1.42,
        footer,
        ha="center",
        va="bottom",
        fontsize=9,
        color=_VISITED if order.reaches_every_rank else _CLOSING,
    )
    return figure


def walk_png(order: OrderWalk | int, ranks: int = RANK_COUNT) -> bytes:
    """The clock drawing of an order as PNG bytes."""
    figure = draw_walk(order, ranks)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


# ---------------------------------------------------------------- the widget


class OrderExplorer(ShownWhenRun, widgets.VBox):
    """Pick a step and a number of ranks; see the order drawn on a clock and what it reaches.

    ``explorer.walk`` is the current :class:`OrderWalk`, ``explorer.text`` the
    findings shown; ``explorer.step_input`` and ``explorer.ranks_input`` are the
    number fields (set their ``value`` to change the picture, as a person would).
    ``explorer.png`` is the picture shown; the page shows it with the findings as its
    text alternative, so a screen reader reads the order too.

    With ``quiz`` (the lesson's :class:`~calcnb.ui.lesson.Quiz`), a step and clock that would show the
    answer of one of the student's exercises not yet answered is refused, with the reason
    (``explorer.refused`` is then that exercise's question, else None).
    """

    shown_as = "before_run.explorer"

    def __init__(self, step: int = 2, ranks: int = RANK_COUNT, *, quiz: Quiz | None = None) -> None:
        walk(step, ranks)  # refuse a bad step or number of ranks before building anything
        # Number fields rather than sliders: each is an <input> with its own <label>, which screen readers
        # name (a slider's handle has no accessible name) and the arrow keys step.
        self.step_input = widgets.BoundedIntText(
            value=step, min=1, max=max(24, step), description=message("explorer.step"), continuous_update=False
        )
        self.ranks_input = widgets.BoundedIntText(
            value=ranks, min=2, max=max(24, ranks), description=message("explorer.ranks"), continuous_update=False
        )
        self.png = b""
        self.image = widgets.HTML(layout=widgets.Layout(width="420px"))
        self.findings = widgets.HTML()
        self.walk: OrderWalk = walk(step, ranks)
        self.quiz = quiz
        self.refused: str | None = None
        if quiz is not None:  # an exercise answered may open the picture refused
            from calcnb.ui.lesson import add_answer_listener

            add_answer_listener(lambda _attempt: self.refused is not None and self.refresh())
        super().__init__([widgets.HBox([self.step_input, self.ranks_input]), widgets.HBox([self.image, self.findings])])
        self.step_input.observe(self._changed, names="value")
        self.ranks_input.observe(self._changed, names="value")
        self.refresh()

    @property
    def text(self) -> str:
        """The findings for the current step and number of ranks, one sentence a line (or why they are refused)."""
        if self.refused is not None:
            return message("explorer.refused", step=self.walk.step, ranks=self.walk.ranks, question=self.refused)
        return "\n".join(self.walk.lines())

    def _changed(self, _change: dict) -> None:
        self.refresh()

    def _exercise_shown(self, step: int, ranks: int) -> str | None:
        """The question of a student's exercise, not yet answered, whose answer this picture would show."""
        for exercise in self.quiz.exercises if self.quiz is not None else ():
            last = exercise.last
            if (last is not None and last.correct is True) or getattr(exercise, "revealed", False):
                continue  # answered (or its answer was shown): the picture gives nothing away any more
            view = exercise.item.shows
            if view is None or view[1] != ranks:
                continue
            if view[0] is None or view[0] % ranks == step % ranks:
                return exercise.item.question
        return None

    def refresh(self) -> None:
        """Recompute and redraw (also picks up a language switched with ``set_language``)."""
        import base64
        from html import escape

        self.step_input.description = message("explorer.step")
        self.ranks_input.description = message("explorer.ranks")
        self.walk = walk(self.step_input.value, self.ranks_input.value)
        self.refused = self._exercise_shown(self.walk.step, self.walk.ranks)
        if self.refused is not None:
            said = message("explorer.refused", step=self.walk.step, ranks=self.walk.ranks, question=self.refused)
            self.png = b""
            self.image.value = ""
            self.image.layout.display = "none"  # the reason takes the picture's place
            self.findings.value = f"<p style='max-width:32em'>{escape(said)}</p>"
            return
        self.image.layout.display = None
        self.png = walk_png(self.walk)
        data = base64.b64encode(self.png).decode("ascii")
        alt = escape(" ".join(self.walk.lines()), quote=True)
        self.image.value = f'<img src="data:image/png;base64,{data}" alt="{alt}" style="width:100%">'
        items = "".join(f"<li>{escape(line)}</li>" for line in self.walk.lines())
        self.findings.value = f"<ul style='max-width:32em'>{items}</ul>"
