"""The counting clock of the lesson "Counting in steps": the 13 cards A to K round a clock, drawn with matplotlib
in the board's colours, on which a child counts in ones, twos, threes or fours by clicking the next card.

Each right click draws the step as an arc round the clock, from the card the count was on to the card it
lands on (:func:`calcnb.game.cards.next_rank`, the game's own rule); a wrong click changes nothing and
says which slip it was (counting the start, stopping at K, counting in ones: the feedback of the
lesson's exercises, :func:`calcnb.lessons.counting.exercises.slips`). The clock is one widget drawn by a Vue
template, as the play board is (:class:`~calcnb.ui.view.PictureView`): the picture takes its clicks as the
board's does (its box stays while pictures change), and the thirteen card buttons beside it do the same from
the keyboard or a screen reader.

>>> clock = CountingClock(step=2)
>>> clock.click_rank(4).correct, clock.said
(True, [2, 4])
>>> clock.click_rank(5).correct, clock.said
(False, [2, 4])
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from functools import lru_cache, partial
from typing import NamedTuple

from traitlets import Unicode

from calcnb.game.cards import RANK_COUNT, next_rank, rank_name
from calcnb.i18n import message
from calcnb.lessons.counting.exercises import STEPS, count_word, slips
from calcnb.ui.palette import (
    CARD_EDGE,
    CARD_FACE,
    DARK_GREY,
    HINT_COLOUR,
    LEGAL_COLOUR,
    LIGHT_GREY,
    LOST_COLOUR,
    TABLE,
    WHITE,
    palette_png,
)
from calcnb.ui.view import Control, PictureView, button_loop, button_tags, control, fill_template, picture_tag

__all__ = [
    "ARC_RADIUS",
    "CLOCK_TEMPLATE",
    "CountingClock",
    "StepChoice",
    "Verdict",
    "arc_points",
    "clock_at",
    "clock_point",
    "draw_clock",
]

# The picture spans exactly these coordinates (the axes fill the figure), so a click maps to them linearly.
_LIMIT = 1.32
_SIZE_INCHES = 4.6
_DPI = 90
_CARD_RADIUS = 0.15  # a card's disc on the clock
_PLACE_RADIUS = 1.22  # where a said card's number in the count is written
ARC_RADIUS = 0.8  # the arcs of the steps run inside the ring of cards, at first at this radius
_LAP_INSET = 0.09  # and this much further in for each lap round the clock
_CLICK_REACH = 0.24  # a click this close to a card's centre picks it


class Verdict(NamedTuple):
    """What one click said: ``correct`` (None for a click beside every card), the sentence, the slip's name."""

    correct: bool | None
    text: str
    misconception: str | None = None


def clock_point(rank: int, radius: float = 1.0) -> tuple[float, float]:
    """Where ``rank`` sits: K at twelve o'clock, A to Q clockwise, as on the order explorer's clock."""
    angle = math.pi / 2 - 2 * math.pi * (rank % RANK_COUNT) / RANK_COUNT
    return radius * math.cos(angle), radius * math.sin(angle)


def arc_points(position: int, step: int, points: int = 24) -> list[tuple[float, float]]:
    """The arc of one step, clockwise from the count's ``position`` to ``position + step``, inside the ring of cards.

    ``position`` counts every card passed since K (13 is K after one lap, 14 the A of the second lap): the arc
    is drawn a little further in on each lap, so a count that goes round the clock several times shows each
    lap apart, and the arc ends pointing at the card it lands on, ``position + step`` round the clock.
    """
    coordinates = []
    for index in range(points):
        at = position + step * index / (points - 1)
        angle = math.pi / 2 - 2 * math.pi * at / RANK_COUNT
        radius = ARC_RADIUS - _LAP_INSET * at / RANK_COUNT
        coordinates.append((radius * math.cos(angle), radius * math.sin(angle)))
    return coordinates


def clock_at(x: float, y: float) -> int | None:
    """The card whose disc is nearest the point ``(x, y)`` of the picture, if the point is close enough to it."""
    best = min(range(1, RANK_COUNT + 1), key=lambda rank: math.dist((x, y), clock_point(rank)))
    return best if math.dist((x, y), clock_point(best)) <= _CLICK_REACH else None


def draw_clock(step: int, said: list[int], *, wrong: int | None = None):
    """The clock with the count so far: the cards said in blue and numbered, an arc for every step, the card
    the count is on ringed in orange, and a ``wrong`` card (the last wrong click) ringed dashed in vermilion.

    Each arc is a line whose ``gid`` is ``"step A>3"`` (from A, landing on 3): tests read the arcs from it.
    Returns a matplotlib Figure (not pyplot: nothing global is touched).
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle

    figure = Figure(figsize=(_SIZE_INCHES, _SIZE_INCHES), dpi=_DPI, facecolor=TABLE)
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(-_LIMIT, _LIMIT)
    ax.set_ylim(-_LIMIT, _LIMIT)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Circle((0, 0), 1.0, fill=False, edgecolor=LIGHT_GREY, linewidth=2))
    position = said[0] if said else 0
    for start, end in itertools.pairwise(said):
        xs, ys = zip(*arc_points(position, step))
        position += step
        (line,) = ax.plot(xs, ys, color=LEGAL_COLOUR, linewidth=2.4, solid_capstyle="round", zorder=2)
        line.set_gid(f"step {rank_name(start)}>{rank_name(end)}")
        ax.annotate(  # the arrowhead, on the arc's last stretch
            "",
            xy=(xs[-1], ys[-1]),
            xytext=(xs[-3], ys[-3]),
            arrowprops=dict(arrowstyle="-|>", color=LEGAL_COLOUR, linewidth=2.4, mutation_scale=16),
            zorder=2,
        )
    places: dict[int, list[int]] = {}
    for place, rank in enumerate(said, start=1):
        places.setdefault(rank, []).append(place)
    for rank in range(1, RANK_COUNT + 1):
        x, y = clock_point(rank)
        reached = rank in places
        ax.add_patch(
            Circle(
                (x, y),
                _CARD_RADIUS,
                facecolor=LEGAL_COLOUR if reached else CARD_FACE,
                edgecolor=CARD_EDGE,
                linewidth=1.2,
                zorder=3,
            )
        )
        colour = WHITE if reached else CARD_EDGE
        ax.text(x, y, rank_name(rank), ha="center", va="center", fontsize=13, fontweight="bold", color=colour, zorder=4)
        if reached:
            px, py = clock_point(rank, _PLACE_RADIUS)
            shown = ", ".join(str(place) for place in places[rank])
            ax.text(px, py, shown, ha="center", va="center", fontsize=10, color=DARK_GREY, fontstyle="italic")
    if said:
        ax.add_patch(Circle(clock_point(said[-1]), _CARD_RADIUS + 0.05, fill=False, edgecolor=HINT_COLOUR,
                            linewidth=3.5, zorder=5))  # fmt: skip
    if wrong is not None:
        ax.add_patch(Circle(clock_point(wrong), _CARD_RADIUS + 0.05, fill=False, edgecolor=LOST_COLOUR,
                            linewidth=3, linestyle="--", zorder=5))  # fmt: skip
    return figure


@lru_cache(maxsize=512)
def clock_png(step: int, said: tuple[int, ...], wrong: int | None = None) -> bytes:
    """:func:`draw_clock` as a palette PNG (few colours, so small for the page and the stored notebook).

    The picture holds no words, only card letters and places, so a class counting from the same card shares
    its pictures: each is drawn once, not once for every pupil who reaches it.
    """
    return palette_png(draw_clock(step, list(said), wrong=wrong), _DPI)


# The clock's template: the title, the step to count in, the picture, and beside it the sentence of the last click,
# the cards said, a button for each card and Start again. The picture takes clicks (calcnb.ui.view.picture_tag);
# every button is a real <button>, which the keyboard and screen readers reach, the step's with aria-pressed.
CLOCK_TEMPLATE = fill_template(
    """
<template>
  <div class="calcnb-view calcnb-counting">
    <h4 class="calcnb-counting-title">{{ title }}</h4>
    <div class="calcnb-counting-steps" role="group" :aria-label="step_label">
      <span class="calcnb-field-name">{{ step_label }}</span>
      @STEP_BUTTON@
    </div>
    <div class="calcnb-counting-row">
      @PICTURE@
      <div class="calcnb-counting-side">
        <div class="calcnb-counting-message">
          <div role="status" class="calcnb-counting-said" :style="{color: said_colour}">{{ said_text }}</div>
        </div>
        <p class="calcnb-counting-cards-said">{{ said_line }}</p>
        <div role="group" :aria-label="cards_label">
          <div>{{ cards_label }}</div>
          <div class="calcnb-counting-cards">@CARD_BUTTON@</div>
        </div>
        @AGAIN@
      </div>
    </div>
  </div>
</template>

@PICTURE_SCRIPT@

<style>
.calcnb-counting .calcnb-counting-title { margin: 0.2em 0; }
.calcnb-counting .calcnb-counting-steps { display: flex; flex-flow: row wrap; align-items: center; }
.calcnb-counting .calcnb-counting-row { display: flex; flex-flow: row wrap; align-items: flex-start; }
/* the picture as drawn, 414 px wide, or narrower on a small screen: clicks are measured against its box */
.calcnb-counting .calcnb-counting-clock { flex: 0 1 @SIZE@px; width: @SIZE@px; max-width: 100%; margin: 2px; }
.calcnb-counting .calcnb-counting-side { flex: 1 1 20em; margin: 0 0 0 12px; }
/* room for the longest sentence: nothing below moves */
.calcnb-counting .calcnb-counting-message { min-height: 4.5em; max-width: 34em; }
.calcnb-counting .calcnb-counting-said { font-size: 1.15em; }
.calcnb-counting .calcnb-counting-cards-said { max-width: 34em; }
.calcnb-counting .calcnb-counting-cards { display: flex; flex-flow: row wrap; max-width: 30em; }
.calcnb-counting button.calcnb-counting-card { width: 3.2em; padding: 0; }
.calcnb-counting button.calcnb-chosen {
  background-color: var(--jp-layout-color3, #bdbdbd); box-shadow: inset 0 1px 3px rgba(0, 0, 0, 0.25);
}
@BUTTON_STYLE@
@PICTURE_STYLE@
</style>
""",
    STEP_BUTTON=button_loop(
        "[" + ", ".join(f"'step-{step}'" for step in STEPS) + "]", ':aria-pressed="controls[name].pressed"'
    ),
    PICTURE=picture_tag("click", cls="calcnb-counting-clock"),
    CARD_BUTTON=button_loop("[" + ", ".join(f"'card-{rank}'" for rank in range(1, RANK_COUNT + 1)) + "]"),
    AGAIN=button_tags("again"),
    SIZE=str(round(_SIZE_INCHES * _DPI)),
)
"""The counting clock's template (:class:`CountingClock`)."""


class StepChoice:
    """The step to count in, as code sees it: ``value`` is the step chosen (set it to choose, as on the page)."""

    def __init__(self, clock: CountingClock) -> None:
        self.clock = clock

    @property
    def value(self) -> int:
        return self.clock.step

    @value.setter
    def value(self, step: int) -> None:
        if step != self.clock.step:  # choosing the step counted in already changes nothing
            self.clock.restart(step)

    @property
    def description(self) -> str:
        return self.clock.step_label

    @property
    def options(self) -> list[tuple[str, int]]:
        return [(count_word(step), step) for step in STEPS]


class CountingClock(PictureView):
    """Count in ``step``\\ s round the clock of 13 cards, from ``start`` (default: the step itself, as a foundation
    starts), by clicking the card the count lands on next, on the picture or with its button.

    ``said`` lists the cards said so far (``start`` first); ``buttons`` maps each rank to its button (a
    :class:`~calcnb.ui.view.Control`: ``click()``); ``step_choice`` picks the step (its ``value``, 1 to 4;
    changing it starts again); ``again`` starts again; ``message`` is what the last click said. A count stops
    when 13 cards are said. It is one widget drawn by a Vue template (:data:`CLOCK_TEMPLATE`);
    :meth:`click_at` is a click on the picture, :meth:`press` a click on a button by its name
    (``card-1`` to ``card-13``, ``step-1`` to ``step-4``, ``again``).
    """

    shown_as = "before_run.counting_clock"

    template = Unicode(CLOCK_TEMPLATE).tag(sync=True)
    title = Unicode("").tag(sync=True)
    step_label = Unicode("").tag(sync=True)
    cards_label = Unicode("").tag(sync=True)
    said_text = Unicode("").tag(sync=True)
    said_colour = Unicode(DARK_GREY).tag(sync=True)
    said_line = Unicode("").tag(sync=True)

    def __init__(self, step: int = 2, start: int | None = None) -> None:
        actions: dict[str, Callable[[], None]] = {
            f"card-{rank}": partial(self.click_rank, rank) for rank in range(1, RANK_COUNT + 1)
        }
        actions.update({f"step-{k}": partial(self._choose, k) for k in STEPS})
        actions["again"] = lambda: self.restart(self.step)
        super().__init__(actions)
        # code finds a card's button by its rank (the page and press() by its name, card-1 to card-13)
        self.buttons = {rank: Control(self, f"card-{rank}") for rank in range(1, RANK_COUNT + 1)}
        self.step_choice = StepChoice(self)
        self.again = Control(self, "again")
        self.message = ""
        self.restart(step, start)

    # ------------------------------------------------------------ the count

    def restart(self, step: int, start: int | None = None) -> None:
        """Count in ``step``\\ s again from ``start`` (default: the step)."""
        if step not in STEPS:
            raise ValueError(message("counting.bad_step", step=step))
        self.step = step
        self.start = step if start is None else start
        self.said = [self.start]
        self.wrong: int | None = None
        self._say(message("counting.start", by=count_word(step), card=rank_name(self.start)))

    def _choose(self, step: int) -> None:
        self.step_choice.value = step

    @property
    def done(self) -> bool:
        """Has the count said 13 cards?"""
        return len(self.said) >= RANK_COUNT

    def click_rank(self, rank: int) -> Verdict:
        """Say ``rank`` as the next card of the count: right (the step's arc drawn) or wrong (the slip named)."""
        top = self.said[-1]
        if self.done:
            verdict = Verdict(None, message("counting.full", by=count_word(self.step)))
        elif rank == next_rank(top, self.step):
            self.said.append(rank)
            self.wrong = None
            passed = ", ".join(rank_name(next_rank(top, move)) for move in range(1, self.step + 1))
            key = "counting.right_last" if self.done else "counting.right"
            text = message(key, card=rank_name(rank), start=rank_name(top), passed=passed)
            if self.done:
                text += " " + message("counting.thirteen", by=count_word(self.step))
            verdict = Verdict(True, text)
        else:
            self.wrong = rank
            misconception, reason = slips(top, self.step).get(rank, (None, ""))
            if not reason:
                cards = message(f"lessons.count.cards.{self.step}")
                reason = message("lessons.count.other", start=rank_name(top), cards=cards)
            verdict = Verdict(False, message("counting.wrong", card=rank_name(rank), reason=reason), misconception)
        self._say(verdict.text, verdict.correct)
        return verdict

    def click_at(self, x: float, y: float) -> Verdict:
        """A click at ``(x, y)`` in the picture's coordinates (:func:`clock_at`): the card there, or a hint to aim."""
        rank = clock_at(x, y)
        if rank is None:
            verdict = Verdict(None, message("counting.missed"))
            self._say(verdict.text)
            return verdict
        return self.click_rank(rank)

    def board_event(self, kind: str, x: float, y: float, width: float) -> None:
        """A click at ``x``, ``y`` CSS pixels on the picture shown ``width`` wide (what the page sends)."""
        if kind != "click" or not width > 0:
            return
        # The picture is square and fills its box: its width gives the scale both ways.
        self.click_at(-_LIMIT + 2 * _LIMIT * x / width, _LIMIT - 2 * _LIMIT * y / width)

    # ------------------------------------------------------------ what is shown

    def alt_text(self) -> str:
        """The picture in words, for a screen reader: the step, and the cards said in order."""
        cards = ", ".join(rank_name(rank) for rank in self.said)
        return message("counting.alt", by=count_word(self.step), cards=cards)

    def _say(self, text: str, correct: bool | None = None) -> None:
        self.message = text
        with self.hold_sync():  # the picture, the sentence and the buttons reach the page in one message
            self.show_picture(clock_png(self.step, tuple(self.said), self.wrong), self.alt_text())
            self.title = message("counting.title", by=count_word(self.step))
            self.said_text = text
            self.said_colour = {True: LEGAL_COLOUR, False: LOST_COLOUR}.get(correct, DARK_GREY)
            cards = " → ".join(rank_name(rank) for rank in self.said)
            self.said_line = message("counting.said", count=len(self.said), cards=cards)
            self.step_label, self.cards_label = message("counting.step_label"), message("counting.buttons_label")
            self._show_buttons()

    def _show_buttons(self) -> None:
        states = {f"card-{rank}": control(rank_name(rank), cls=f"calcnb-counting-card calcnb-card-{rank}")
                  for rank in range(1, RANK_COUNT + 1)}  # fmt: skip
        for k in STEPS:
            chosen = k == self.step
            states[f"step-{k}"] = dict(control(count_word(k), tone="chosen" if chosen else "",
                                               cls=f"calcnb-counting-step calcnb-step-{k}"),
                                       pressed="true" if chosen else "false")  # fmt: skip
        states["again"] = control(message("counting.again"), cls="calcnb-counting-again")
        self.show_controls(states)

    def __repr__(self) -> str:
        return f"CountingClock(step={self.step}, said={[rank_name(rank) for rank in self.said]})"
