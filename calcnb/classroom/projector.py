"""The projector view: what the whole class may see of the class log, read back every few seconds, in large type.

Per exercise someone has tried (up to the last one open, when the teacher paces the class): how many students
tried it and how many got it right, and the misconceptions of the wrong answers as large bars named in the
lesson's words. Never a nickname, a rejoin code or an answer:
only counts, so nothing on the wall can point at a pupil. The one exception is an answer the teacher chose in
the class view to discuss (:meth:`calcnb.classlog.store.ClassLog.discussed`): it is shown alone, with its question,
without its nickname, until the teacher takes it down.

``python -m calcnb class-view lesson.db --projector`` serves ``notebooks/teacher/projector.ipynb`` with Voila on a
server and port of its own, whose kernels are told the log through :data:`calcnb.core.settings.CLASS_PROJECTOR`
only: the class view's notebook finds no log there, so a wrong click on the projected screen cannot show names.
"""

from __future__ import annotations

import contextlib
import html
import time
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from calcnb.classlog.readings import ExerciseStats
from calcnb.classlog.schema import ClassLogMoved
from calcnb.classlog.store import ClassLog
from calcnb.classlog.summary import exercise_label, exercise_number, misconception_label
from calcnb.classlog.tally import Tally
from calcnb.classroom.view import LogView, escaped
from calcnb.exercises.bank import Bank
from calcnb.i18n import message
from calcnb.ui.palette import BAR_COLOURS, BLACK, BLUISH_GREEN, DARK_GREY, LIGHT_GREY, PALE_GREY, WHITE

__all__ = ["MOST_BARS", "ProjectorView", "discussed_html", "projector_html"]

#: Seconds between two readings of the log.
REFRESH_SECONDS = 3.0
#: Misconceptions drawn per exercise, the most frequent first: more would not be readable from the back.
MOST_BARS = 3

# Type that grows with the screen: about 23 px at 1366 wide, 33 px at 1920 (read from the back of a room).
_PAGE_STYLE = f"font-size:clamp(20px,1.7vw,40px);line-height:1.25;color:{BLACK};background:{WHITE};padding:0.4em"


def _bar(width: float, colour: str, label: str) -> str:
    """A bar of ``width`` (0..1 of the full width) and its words beside it."""
    return (
        '<div class="calcnb-projector-bar" style="display:flex;align-items:center;gap:0.4em;margin:0.15em 0">'
        f'<span style="flex:0 0 40%;background:{PALE_GREY};height:1em">'
        f'<span style="display:block;width:{100 * width:.1f}%;height:100%;background:{colour}"></span></span>'
        f"<span>{label}</span></div>"
    )


def _card(item: ExerciseStats, order: Sequence[str], bank: Bank) -> str:
    """One exercise: its name, tried and right (a green bar of right out of tried), and its largest misconceptions."""
    label = escaped(exercise_label(item.exercise_id, order, bank))
    counts = html.escape(message("projector.tried_right", tried=item.tried, right=item.right))
    lines = [_bar(item.right / item.tried if item.tried else 0.0, BLUISH_GREEN, f"<b>{counts}</b>")]
    shares = item.shares()
    if shares:
        # Each wrong idea's bar is its share of the wrong answers, not of the largest idea's: two ideas seen twice
        # each are half bars, never two full bars a class would read as "everyone".
        for index, (name, share) in enumerate(list(shares.items())[:MOST_BARS]):
            count = item.misconceptions[name]
            said = escaped(message("projector.misconception", name=misconception_label(name, bank), count=count))
            lines.append(_bar(share, BAR_COLOURS[index % len(BAR_COLOURS)], said))
        if len(shares) > MOST_BARS:
            more = html.escape(message("projector.more_ideas", count=len(shares) - MOST_BARS))
            lines.append(f'<div style="color:{DARK_GREY}">{more}</div>')
    else:
        lines.append(f'<div style="color:{DARK_GREY}">{html.escape(message("projector.none_wrong"))}</div>')
    # Those who tried and are in neither bar: the answer shown to them, or answers that could not be read.
    for key, count in (("projector.revealed", item.revealed), ("projector.unreadable", item.unreadable)):
        if count:
            lines.append(f'<div style="color:{DARK_GREY}">{html.escape(message(key, count=count))}</div>')
    return (
        f'<section class="calcnb-projector-exercise" data-exercise="{escaped(item.exercise_id)}" '
        f'style="border:2px solid {LIGHT_GREY};border-radius:0.3em;padding:0.3em 0.5em">'
        f'<h3 style="font-size:1em;margin:0 0 0.2em 0">{label}</h3>{"".join(lines)}</section>'
    )


def _open(exercise_id: str, order: Sequence[str], up_to: int | None) -> bool:
    number = exercise_number(exercise_id, order)
    return up_to is None or number is None or number <= up_to


def projector_html(
    stats: Sequence[ExerciseStats],
    order: Sequence[str],
    bank: Bank,
    *,
    students: int,
    extra: str = "",
    up_to: int | None = None,
) -> str:
    """The projector's page: how many joined, then one card per exercise tried (:func:`_card`), then ``extra`` (a
    lesson's own part, already HTML with no nickname in it). Counts and the lesson's words only. With ``up_to``
    (the class paced up to that exercise), the exercises past it are left out: the wall shows what is open."""
    title = html.escape(message("projector.title"))
    joined = html.escape(message("projector.joined", count=students))
    legend = html.escape(message("projector.legend"))
    tried = [item for item in stats if item.tried and _open(item.exercise_id, order, up_to)]
    if tried:
        cards = "".join(_card(item, order, bank) for item in tried)
        body = (
            '<div class="calcnb-projector-exercises" style="display:grid;gap:0.5em;'
            f'grid-template-columns:repeat(auto-fill,minmax(min(100%,26em),1fr))">{cards}</div>'
        )
    else:
        body = f"<p>{html.escape(message('projector.nothing_yet'))}</p>"
    return (
        f'<div class="calcnb-projector-page" style="{_PAGE_STYLE}">'
        f'<h2 style="font-size:1.4em;margin:0 0 0.2em 0">{title}</h2>'
        f'<p class="calcnb-projector-joined" style="margin:0">{joined}</p>'
        f'<p style="margin:0 0 0.4em 0;font-size:0.8em;color:{DARK_GREY}">{legend}</p>{body}{extra}</div>'
    )


def discussed_html(discussed: Mapping[str, Any], order: Sequence[str], bank: Bank) -> str:
    """One answer put up by the teacher, alone: its exercise, its question (the variant the pupil was asked) and
    the answer as typed, with no nickname; the question as the exercise's label says it if the bank has no such
    variant."""
    exercise = str(discussed["exercise_id"])
    label = escaped(exercise_label(exercise, order, bank))
    question = ""
    with contextlib.suppress(Exception):  # an exercise or variant this calcnb does not know: its label is enough
        question = bank[exercise].item(int(discussed["variant"])).question
    asked = (
        f'<p class="calcnb-projector-question" style="font-size:1.2em;margin:0.3em 0">{escaped(question)}</p>'
        if question
        else ""
    )
    return (
        f'<div class="calcnb-projector-page calcnb-projector-discussed" style="{_PAGE_STYLE}">'
        f'<h2 style="font-size:1.4em;margin:0 0 0.3em 0">{html.escape(message("projector.discuss_title"))}</h2>'
        f'<h3 style="font-size:1em;margin:0;color:{DARK_GREY}">{label}</h3>{asked}'
        f'<p style="margin:0.6em 0 0.2em 0">{html.escape(message("projector.answer_given"))}</p>'
        f'<p class="calcnb-projector-answer" style="font-size:2.4em;font-weight:bold;margin:0;'
        f'border:3px solid {LIGHT_GREY};padding:0.1em 0.4em;display:inline-block"><bdi>{escaped(discussed["answer"])}'
        f"</bdi></p>"
        f'<p style="margin:0.6em 0 0 0">{html.escape(message("projector.discuss_prompt"))}</p></div>'
    )


class ProjectorView(LogView):
    """The projector view of one class log: call :meth:`refresh`, or :meth:`start` to refresh by itself.

    ``order`` and ``bank`` as :class:`calcnb.classroom.view.ClassView` takes them. Each reading takes in only the
    answers written since the last (:class:`~calcnb.classlog.tally.Tally`) and shows counts; :meth:`extra_html` is
    where a lesson adds its own part (with no nickname). A log that cannot be read just now leaves the last
    figures up, with the time they are from.
    """

    shown_as = "before_run.projector"

    def __init__(
        self, log: ClassLog | None, *, order: Sequence[str], bank: Bank, refresh_seconds: float = REFRESH_SECONDS
    ) -> None:
        self._follow(log, order, bank, refresh_seconds)
        self.discussed: dict[str, Any] | None = None  # the answer up for discussion at the last reading
        self.page = widgets.HTML()
        self.note = widgets.HTML()
        super().__init__([self.page, self.note])
        self.add_class("calcnb-projector")
        self.layout.width = "100%"
        if log is None:
            self.page.value = f"<p>{html.escape(message('classview.projector_no_log'))}</p>"

    def follow(self) -> None:
        """Called at each reading once the new answers are counted, before drawing: a lesson's view reads what else
        it needs here (it may raise what the database raises); nothing here."""

    def extra_html(self) -> str:
        """What a lesson adds under the exercises (HTML, no nickname); nothing here."""
        return ""

    def refresh(self) -> bool:
        """Read what is new in the log and redraw; False if it cannot be read just now (the last figures stay)."""
        log = self.class_log
        if log is None:
            return False
        try:
            log.check_log()
            self.tally.add(log.attempts_after(self.tally.seen), log.student_attempts)
            students = len(log.students())
            self.follow()
            self.discussed = log.discussed()
            up_to = log.pacing().up_to
        except ClassLogMoved:
            self._reopen()
            return False
        except Exception:  # a busy or unreachable database: keep what is up, say when it is from
            if self.read_at is not None:
                said = message("projector.as_of", time=time.strftime("%H:%M:%S", time.localtime(self.read_at)))
                self.note.value = f'<p style="color:{DARK_GREY}">{html.escape(said)}</p>'
            return False
        self.read_at = time.time()
        self.note.value = ""
        if self.discussed is not None:  # alone on the wall, until the teacher takes it down
            self.page.value = discussed_html(self.discussed, self.order, self.bank)
            return True
        stats = self.tally.stats(self.order)
        self.page.value = projector_html(
            stats, self.order, self.bank, students=students, extra=self.extra_html(), up_to=up_to
        )
        return True

    def _reopen(self) -> None:
        """The log's file was replaced or made again: read the new one from its first answer."""
        with contextlib.suppress(Exception):
            if self.class_log.reopen():
                self.tally = Tally()
