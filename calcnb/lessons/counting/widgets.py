"""The counting clock of the lesson "Counting in steps": the 13 cards A to K round a clock, drawn with matplotlib
in the board's colours, on which a child counts in ones, twos, threes or fours by clicking the next card.

Each right click draws the step as an arc round the clock, from the card the count was on to the card it
lands on (:func:`calcnb.game.cards.next_rank`, the game's own rule); a wrong click changes nothing and
says which slip it was (counting the start, stopping at K, counting in ones: the feedback of the
lesson's exercises, :func:`calcnb.lessons.counting.exercises.slips`). The picture is a
:class:`~calcnb.ui.play.Picture` and takes its clicks as the board does (its box stays while pictures
change); the thirteen card buttons under it do the same from the keyboard or a screen reader.

>>> clock = CountingClock(step=2)
>>> clock.click_rank(4).correct, clock.said
(True, [2, 4])
>>> clock.click_rank(5).correct, clock.said
(False, [2, 4])
"""

from __future__ import annotations

import html
import itertools
import math
from typing import NamedTuple

import ipywidgets as widgets
from ipyevents import Event

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
from calcnb.ui.play import Picture

__all__ = ["ARC_RADIUS", "CountingClock", "Verdict", "arc_points", "clock_at", "clock_point", "draw_clock"]

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


def _png(figure) -> bytes:
    """The clock as a palette PNG: it has few colours, so it stays small for the page and the stored notebook."""
    return palette_png(figure, _DPI)


class CountingClock(widgets.VBox):
    """Count in ``step``\\ s round the clock of 13 cards, from ``start`` (default: the step itself, as a foundation
    starts), by clicking the card the count lands on next, on the picture or with its button.

    ``said`` lists the cards said so far (``start`` first); ``buttons`` maps each rank to its button;
    ``step_choice`` picks the step (1 to 4; changing it starts again); ``again`` starts again; ``message``
    is what the last click said. A count stops when 13 cards are said.
    """

    def __init__(self, step: int = 2, start: int | None = None) -> None:
        self.heading = widgets.HTML()
        self.image = Picture(width="414px", max_width="100%")
        self.image.add_class("calcnb-counting-clock")
        self._events = Event(source=self.image, watched_events=["click"])
        self._events.on_dom_event(self._on_event)
        self.step_choice = widgets.ToggleButtons(
            options=[(count_word(k), k) for k in STEPS], value=step, description=message("counting.step_label")
        )
        self.step_choice.style.button_width = "auto"  # as wide as its words: "de quatro em quatro" in Portuguese
        self._quiet = False  # set while restart() itself moves the step choice
        self.step_choice.observe(lambda change: self._quiet or self.restart(change["new"]), names="value")
        self.again = widgets.Button(description=message("counting.again"), icon="rotate-left")
        self.again.on_click(lambda _button: self.restart(self.step))
        self.buttons: dict[int, widgets.Button] = {}
        for rank in range(1, RANK_COUNT + 1):
            button = widgets.Button(description=rank_name(rank), layout=widgets.Layout(width="3.2em"))
            button.add_class(f"calcnb-card-{rank}")
            button.on_click(lambda _button, rank=rank: self.click_rank(rank))
            self.buttons[rank] = button
        self._message = widgets.HTML(layout=widgets.Layout(min_height="4.5em", max_width="34em"))
        self._message.add_class("calcnb-counting-message")
        self._said_line = widgets.HTML(layout=widgets.Layout(max_width="34em"))
        cards = widgets.HBox(list(self.buttons.values()), layout=widgets.Layout(flex_flow="row wrap", max_width="30em"))
        side = widgets.VBox(
            [self._message, self._said_line, widgets.Label(message("counting.buttons_label")), cards, self.again],
            layout=widgets.Layout(margin="0 0 0 12px", flex="1 1 20em"),
        )
        row = widgets.HBox([self.image, side], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        super().__init__([self.heading, self.step_choice, row])
        self.add_class("calcnb-counting")
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
        if self.step_choice.value != step:
            self._quiet = True
            try:
                self.step_choice.value = step
            finally:
                self._quiet = False
        self._say(message("counting.start", by=count_word(step), card=rank_name(self.start)))

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

    def _on_event(self, event: dict) -> None:
        # The picture is square: its width gives the scale both ways (the box round it may be a little taller).
        width = event.get("boundingRectWidth") or 0
        if not width:
            return
        x = -_LIMIT + 2 * _LIMIT * event.get("relativeX", -1) / width
        y = _LIMIT - 2 * _LIMIT * event.get("relativeY", -1) / width
        self.click_at(x, y)

    # ------------------------------------------------------------ what is shown

    def alt_text(self) -> str:
        """The picture in words, for a screen reader: the step, and the cards said in order."""
        cards = ", ".join(rank_name(rank) for rank in self.said)
        return message("counting.alt", by=count_word(self.step), cards=cards)

    def _say(self, text: str, correct: bool | None = None) -> None:
        self.message = text
        colour = {True: LEGAL_COLOUR, False: LOST_COLOUR}.get(correct, DARK_GREY)
        # The picture first: the browser applies the kernel's messages in order, so once the sentence has
        # changed on the page the picture of that count is there too.
        self.image.show(_png(draw_clock(self.step, self.said, wrong=self.wrong)), self.alt_text())
        with self.hold_sync():
            title = message("counting.title", by=count_word(self.step))
            self.heading.value = f"<h4 style='margin:0.2em 0'>{html.escape(title)}</h4>"
            self._message.value = (
                f"<div role='status' class='calcnb-counting-said' style='font-size:1.15em;color:{colour}'>"
                f"{html.escape(text)}</div>"
            )
            cards = " → ".join(rank_name(rank) for rank in self.said)
            said = message("counting.said", count=len(self.said), cards=cards)
            self._said_line.value = f"<p>{html.escape(said)}</p>"

    def __repr__(self) -> str:
        return f"CountingClock(step={self.step}, said={[rank_name(rank) for rank in self.said]})"
