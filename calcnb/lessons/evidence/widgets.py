"""The deals of the lesson "Is the 80% true?": a student's own block of deals, played ten at a time by the lesson's
player, the rate of each batch side by side, and (when asked) the 95% interval of all of them against 80%.

:class:`EvidenceLab` shows it (no code on the page): the block follows the nickname and the class's key
(:func:`calcnb.lessons.evidence.exercises.seed_block`), so it takes the name as a :class:`~calcnb.ui.lesson.Quiz`
does (:meth:`EvidenceLab.use_name`, which the class recorder calls) and passes it on to the lesson's quiz.
A lab made with the lesson's quiz follows the quiz's name (:meth:`calcnb.ui.lesson.Quiz.on_name`).
Every deal played is told to the game listeners (:func:`calcnb.ui.lesson.add_game_listener`), so the class log
keeps it for the class view's pooled sample. :func:`draw_batches` and :func:`draw_pooled` are the pictures
(matplotlib figures, nothing global touched); the class view draws the second.

>>> lab = EvidenceLab(seed="Ana")
>>> len(lab.block), lab.played
(100, [])
"""

from __future__ import annotations

import html
import secrets
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from calcnb.i18n import message
from calcnb.lessons.evidence.exercises import (
    BATCH,
    CLAIM,
    KINDS,
    OWN_EXERCISE,
    PLAYER_KEY,
    Deal,
    batches,
    bounds_text,
    own_variant,
    percent,
    play_deal,
    rate_text,
    seed_block,
    verdict_of,
)
from calcnb.stats import wilson_interval
from calcnb.ui.before_run import ShownWhenRun
from calcnb.ui.lesson import Exercise, Quiz, tell_game_listeners
from calcnb.ui.palette import BLUE, DARK_GREY, LIGHT_GREY, ORANGE, TABLE, VERMILION, palette_png
from calcnb.ui.play import Picture

# The verdict on the student's own deals: asked where they play, after their deals.
_OWN = next(kind for kind in KINDS if kind.exercise_id == OWN_EXERCISE)

__all__ = ["EvidenceLab", "batches_alt", "draw_batches", "draw_pooled", "png", "pooled_alt"]

_DPI = 90


def png(figure) -> bytes:
    """A figure as a palette PNG at the lesson's resolution (few colours: small for the page and the notebook)."""
    return palette_png(figure, _DPI)


def _claim_line(ax) -> None:
    """The claim's 80% as a dashed line across the axes, named just above it at the left (inside the picture)."""
    ax.axhline(CLAIM, color=VERMILION, linestyle="--", linewidth=1.6, zorder=1)
    said = message("evidence.chart.claim", claim=percent(CLAIM))
    ax.text(0.01, CLAIM + 0.02, said, transform=ax.get_yaxis_transform(), color=VERMILION, va="bottom", fontsize=9)


def _rate_chart():
    """A figure with one axes of win rates from 0% to 100%, in the board's colours: both charts' frame."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 2.9), dpi=_DPI, facecolor=TABLE)
    ax = figure.add_axes((0.11, 0.17, 0.86, 0.78))
    ax.set_facecolor("white")
    ax.set_ylim(0, 1)
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0], [percent(share) for share in (0, 0.2, 0.4, 0.6, 0.8, 1.0)])
    ax.set_ylabel(message("evidence.chart.rate"))
    return figure, ax


def draw_batches(counts: Sequence[tuple[int, int]], interval: tuple[float, float] | None = None):
    """Each batch's rate as a dot (batch 1, 2, … left to right), the claim's 80% as a dashed line, and, given
    ``interval``, the 95% interval of all the deals as a bar on the right. Returns a matplotlib Figure."""

    figure, ax = _rate_chart()
    ax.grid(axis="y", color=LIGHT_GREY, linewidth=0.8)
    places = list(range(1, len(counts) + 1))
    rates = [wins / deals for wins, deals in counts]
    extra = 1 if interval is not None else 0
    ax.set_xlim(0.4, max(len(counts), 4) + extra + 0.6)
    if counts:
        dots = ax.plot(places, rates, "o", color=BLUE, markersize=8, zorder=3)
        dots[0].set_gid("batches")
    labels = [message("evidence.chart.batch", number=place) for place in places]
    if interval is not None:
        where = len(counts) + 1
        low, high = interval
        bar = ax.plot([where, where], [low, high], color=ORANGE, linewidth=6, solid_capstyle="butt", zorder=3)
        bar[0].set_gid("interval")
        total = sum(wins for wins, _deals in counts) / max(1, sum(deals for _wins, deals in counts))
        ax.plot([where], [total], "D", color=DARK_GREY, markersize=7, zorder=4)
        places.append(where)
        labels.append(message("evidence.chart.all"))
    ax.set_xticks(places, labels, fontsize=9)
    _claim_line(ax)
    return figure


def draw_pooled(path: Sequence[tuple[int, float, float]]):
    """The class's pooled 95% interval against the number of deals (a band narrowing as deals come in), with the
    claim's 80% as a dashed line. ``path`` is :func:`calcnb.lessons.evidence.exercises.pooled_path`. Returns a
    Figure."""
    from matplotlib.ticker import MaxNLocator

    figure, ax = _rate_chart()
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # a number of deals is a whole number
    ax.set_xlabel(message("evidence.chart.deals"))
    ax.grid(axis="y", color=LIGHT_GREY, linewidth=0.8)
    if path:
        counts = [count for count, _low, _high in path]
        lows = [low for _count, low, _high in path]
        highs = [high for _count, _low, high in path]
        band = ax.fill_between(counts, lows, highs, color=BLUE, alpha=0.25, linewidth=0, zorder=2)
        band.set_gid("pooled interval")
        ax.plot(counts, lows, color=BLUE, linewidth=1.2, zorder=3)
        ax.plot(counts, highs, color=BLUE, linewidth=1.2, zorder=3)
        ax.set_xlim(1, max(counts[-1], 10))
    else:
        ax.set_xlim(1, 10)
    _claim_line(ax)
    return figure


def batches_alt(counts: Sequence[tuple[int, int]], interval: tuple[float, float] | None = None) -> str:
    """The picture of :func:`draw_batches` in words, for a screen reader."""
    rates = "; ".join(
        message("evidence.alt.batch", number=number, rate=rate_text(wins, deals))
        for number, (wins, deals) in enumerate(counts, start=1)
    )
    said = message("evidence.alt.batches", rates=rates or message("evidence.alt.none"), claim=percent(CLAIM))
    if interval is not None:
        said += " " + message("evidence.alt.interval", **bounds_text(interval))
    return said


def pooled_alt(path: Sequence[tuple[int, float, float]]) -> str:
    """The picture of :func:`draw_pooled` in words, for a screen reader."""
    if not path:
        return message("evidence.alt.pooled_none", claim=percent(CLAIM))
    deals, low, high = path[-1]
    return message("evidence.alt.pooled", deals=deals, **bounds_text((low, high)), claim=percent(CLAIM))


class EvidenceLab(ShownWhenRun, widgets.VBox):
    """A student's own deals, played :data:`~calcnb.lessons.evidence.exercises.BATCH` at a time by the lesson's player.

    ``block`` is the student's range of deals; ``played`` the
    :class:`~calcnb.lessons.evidence.exercises.Deal`\\ s so far; ``play_button`` plays the next batch;
    ``interval_button`` shows the 95% interval of all of them and asks what it can tell about the claim (``own``, an
    :class:`~calcnb.ui.lesson.Exercise` of the student's counts).
    ``quiz``, when given, gets the nickname too (:meth:`use_name`). With ``need_name`` (a class log records the
    lesson) nothing is played until a name arrives: the deals follow the nickname the student joins under.
    ``history`` (the class recorder's :meth:`~calcnb.classroom.recorder.ClassRecorder.games_played`) gives the
    student's games already in the log when a name arrives, so a page reloaded and joined again goes on from
    where the student was, and plays none of their deals twice.
    """

    shown_as = "before_run.evidence_lab"

    def __init__(
        self,
        quiz: Quiz | None = None,
        *,
        seed: object = None,
        class_key: str | None = None,
        need_name: bool = False,
        history: Callable[[], list[dict[str, Any]]] | None = None,
    ) -> None:
        self.quiz = quiz
        self.history = history
        # with a class log, deals are played only once the student has joined: they follow the nickname, and
        # the log keeps them from then on (deals played before would start afresh on joining, unsaved)
        self.waiting_for_name = need_name
        if seed is None:
            seed = secrets.token_hex(8) if quiz is None else quiz.seed
        self.seed = seed
        self.class_key = class_key if quiz is None else class_key or quiz.class_key
        self.played: list[Deal] = []
        self.showing_interval = False
        self.verdict: str | None = None  # what the interval shown says of the claim (None: not shown yet)
        self.about = widgets.HTML()
        self.play_button = widgets.Button(
            description=message("evidence.lab.play", count=BATCH), button_style="primary", icon="play"
        )
        self.play_button.layout.width = "max-content"
        self.interval_button = widgets.Button(description=message("evidence.lab.show_interval"), icon="arrows-v")
        self.interval_button.layout.width = "max-content"
        self.said = widgets.HTML()
        self.said.add_class("calcnb-evidence-said")
        self.table = widgets.HTML()
        self.table.add_class("calcnb-evidence-table")
        self.picture = Picture(width="576px", max_width="100%")
        self.own = Exercise(_OWN.item(own_variant(0, 1)))
        self.own.layout.display = "none"
        self.play_button.on_click(lambda _button: self.play_batch())
        self.interval_button.on_click(lambda _button: self.show_interval())
        buttons = widgets.HBox([self.play_button, self.interval_button])
        super().__init__([self.about, buttons, self.said, self.table, self.picture, self.own])
        self.add_class("calcnb-evidence-lab")
        self._restart()
        if quiz is not None:  # the quiz's name (typed, or given by the class recorder) chooses the deals
            quiz.on_name(self._take_name)

    @property
    def block(self) -> range:
        """This student's deals (:func:`~calcnb.lessons.evidence.exercises.seed_block`)."""
        return seed_block(self.seed, self.class_key)

    def use_name(self, name: str, *, class_key: str | None = None) -> None:
        """Play this name's deals from now on (games so far start afresh); with a quiz, through the quiz."""
        if self.quiz is not None:
            self.quiz.use_name(name, class_key=class_key)  # which tells this lab (on_name)
            return
        name = " ".join(str(name).split())[:60]
        if name:
            self._take_name(name, self.class_key if class_key is None else class_key)

    def _take_name(self, name: object, class_key: str | None) -> None:
        if (name, class_key) == (self.seed, self.class_key) and not self.waiting_for_name:
            return
        self.seed, self.class_key = name, class_key
        self.waiting_for_name = False
        self._restart()
        if self.history is not None:
            self._take_up_history()

    def _take_up_history(self) -> None:
        """Put back the deals of this student's block that the log already has, from the block's first on."""
        try:
            rows = self.history()
        except Exception:  # the database, just now: the student plays on; the log keeps each deal once
            self.said.value = html.escape(message("evidence.lab.history_failed"))
            return
        kept = {row["seed"]: row for row in rows if row["player"] == PLAYER_KEY}
        for seed in self.block:  # batches are played from the block's start, so the log holds a run of them
            if seed not in kept:
                break
            self.played.append(Deal(seed, PLAYER_KEY, bool(kept[seed]["won"]), int(kept[seed]["score"])))
        if self.played:
            self.play_button.disabled = len(self.played) >= len(self.block)
            self.interval_button.disabled = False
            self._draw()
            self.said.value = html.escape(message("evidence.lab.taken_up", count=len(self.played)))

    def _restart(self) -> None:
        self.played = []
        self.showing_interval = False
        self.verdict = None
        block = self.block
        self.about.value = "<p>" + html.escape(
            message("evidence.lab.about", first=block[0], last=block[-1], count=len(block), batch=BATCH)
        ) + "</p>"  # fmt: skip
        self.play_button.disabled = self.waiting_for_name
        self.interval_button.disabled = True
        self.said.value = html.escape(message("evidence.lab.join_first")) if self.waiting_for_name else ""
        self.own.layout.display = "none"
        self._draw()

    def play_batch(self) -> list[Deal]:
        """Play the next batch of deals of this student's block (fewer at its end); returns them."""
        if self.waiting_for_name:  # the button is off; a page can still send its click
            return []
        block = self.block
        start = len(self.played)
        seeds = block[start : start + BATCH]
        if not seeds:
            self.said.value = html.escape(message("evidence.lab.all_played", count=len(block)))
            return []
        self.play_button.disabled = True
        self.said.value = html.escape(message("evidence.lab.playing", count=len(seeds)))
        new = []
        for seed in seeds:
            deal = play_deal(seed)
            new.append(deal)
            self.played.append(deal)
            tell_game_listeners(deal)
        wins = sum(deal.won for deal in new)
        self.play_button.disabled = len(self.played) >= len(block)
        self.interval_button.disabled = False
        self._draw()  # the picture first: a page whose sentence has changed already shows this batch
        said = message("evidence.lab.batch_done", number=len(batches(self.played)), wins=wins, count=len(new))
        interval = f"<br>{self.said.value}" if self.showing_interval else ""  # the interval, as _draw said it
        self.said.value = f"<span role='status'>{html.escape(said)}</span>{interval}"
        return new

    def show_interval(self) -> tuple[float, float] | None:
        """Show the 95% interval of all the deals played and ask what it tells; None before any deal."""
        if not self.played:
            return None
        self.showing_interval = True
        self._draw()
        return self.interval

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of all the deals played."""
        return wilson_interval(sum(deal.won for deal in self.played), len(self.played))

    def _draw(self) -> None:
        counts = batches(self.played)
        rows = "".join(
            f"<tr><td>{html.escape(message('evidence.chart.batch', number=number))}</td>"
            f"<td>{wins} / {deals}</td><td>{html.escape(rate_text(wins, deals))}</td></tr>"
            for number, (wins, deals) in enumerate(counts, start=1)
        )
        head = "".join(f"<th>{html.escape(message(key))}</th>" for key in ("evidence.lab.batch", "evidence.lab.won",
                                                                           "evidence.lab.rate"))  # fmt: skip
        wins, deals = sum(deal.won for deal in self.played), len(self.played)
        total = ""
        if deals:
            total = f"<tr><th>{html.escape(message('evidence.chart.all'))}</th><th>{wins} / {deals}</th>"
            total += f"<th>{html.escape(rate_text(wins, deals))}</th></tr>"
        style = "border-collapse:collapse;min-width:18em"
        self.table.value = f"<table style='{style}'><tr>{head}</tr>{rows}{total}</table>" if counts else ""
        interval = self.interval if self.showing_interval and deals else None
        self.picture.show(png(draw_batches(counts, interval)), batches_alt(counts, interval))
        if interval is not None:
            found = verdict_of(interval)
            said = message("evidence.lab.interval", wins=wins, deals=deals, **bounds_text(interval))
            self.said.value = f"<b>{html.escape(said)}</b>"
            self.own.set_item(_OWN.item(own_variant(wins, deals)))
            self.own.layout.display = None
            self.verdict = found
        else:
            self.own.layout.display = "none"

    def __repr__(self) -> str:
        return f"EvidenceLab({len(self.played)} deals played)"
