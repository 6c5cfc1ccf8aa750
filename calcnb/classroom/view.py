"""The teacher's class view: the class log read back every few seconds, for the teacher's eyes only.

For each exercise (by its number in the lesson and a short text): how many students tried it,
how many got it right, how many had the answer shown (never counted as right), how many answers
could not be read (never counted as wrong), and the share of each misconception among the wrong
answers, as a bar chart, every name in the teacher's language. Then who joined and has not
checked anything yet, and who is stuck (their last three answers judged wrong), with the
exercise they are stuck on. Then the wrong answers typed, the latest first, to put one up on the projector view
(:mod:`calcnb.classroom.projector`, its own server) for the class to discuss, and take it down: the choice is kept
in the class log, so the projector's process reads it. Last, the end-of-lesson summary of each student, to export
as CSV or print as PDF (:mod:`calcnb.classlog.summary`); a link exports every recorded check as CSV. The view
is handed the lesson's exercise order and bank: a lesson's own view (:mod:`calcnb.lessons`) knows
which lesson, this module knows none. Whether each page's answers reach the log is worked out in
:mod:`calcnb.classlog.health`.

``python -m calcnb class-view lesson.db`` serves ``notebooks/teacher/class_view.ipynb``
with Voila on 127.0.0.1 (this machine only) on a server and port of its own: the
students' app serves only the lesson notebook, so no student can open this page from it.
Everything a student typed is escaped before it is shown (nicknames and answers are
text, never markup), and control characters are shown as ``\\x..`` escapes.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import html
import time
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import ipywidgets as widgets

from calcnb.classlog.export import csv_text
from calcnb.classlog.health import (
    FULL,
    StudentHealth,
    disk_room,
    in_class_order,
    student_health,
    write_heartbeat,
)
from calcnb.classlog.readings import STUCK_AFTER, ClassStatus, ExerciseStats, StudentSummary
from calcnb.classlog.schema import ClassLogMoved, row_outcome
from calcnb.classlog.store import ClassLog, Pacing, open_class_log
from calcnb.classlog.summary import (
    SUMMARY_COLUMNS,
    exercise_label,
    misconception_label,
    summary_csv,
    summary_exercises,
    summary_pdf,
    summary_rows,
)
from calcnb.classlog.tally import Tally
from calcnb.core.settings import CLASS_VIEW
from calcnb.exercises.bank import Bank
from calcnb.exercises.items import Outcome
from calcnb.i18n import message
from calcnb.ui.before_run import ShownWhenRun
from calcnb.ui.palette import ALARM_BACKGROUND, BAR_COLOURS, BLUE, ERROR_TEXT, LIGHT_GREY, VERMILION, WHITE

__all__ = [
    "ClassView",
    "class_view",
    "download_link",
    "escaped",
    "exercises_html",
    "health_html",
    "isolated",
    "students_html",
    "summary_html",
    "visible",
]

#: Seconds between two readings of the log.
REFRESH_SECONDS = 3.0


def visible(text: object) -> str:
    """Text a student typed with its control characters as ``\\x..`` escapes (for plain text: a list's options)."""
    return "".join(f"\\x{ord(char):02x}" if unicodedata.category(char) == "Cc" else char for char in str(text))


def escaped(text: object) -> str:
    """Text a student typed, safe inside HTML: control characters as ``\\x..`` escapes, markup escaped."""
    return html.escape(visible(text), quote=True)


def isolated(text: object) -> str:
    """A student's text as :func:`escaped` makes it, in a ``<bdi>`` of its own: whatever its direction, it cannot
    reorder or mirror the text around it (a nickname of right-to-left letters in a list, say)."""
    return f"<bdi>{escaped(text)}</bdi>"


def _bars(item: ExerciseStats, bank: Bank) -> str:
    shares = item.shares()
    if not shares:
        return f"<i>{html.escape(message('classview.none_wrong'))}</i>"
    lines = []
    for index, (name, share) in enumerate(shares.items()):
        colour = BAR_COLOURS[index % len(BAR_COLOURS)]
        count = item.misconceptions[name]
        lines.append(
            '<div class="calcnb-bar" style="display:flex;align-items:center;gap:0.5em;margin:1px 0">'
            f'<span style="display:inline-block;width:{share * 12:.2f}em;height:0.9em;background:{colour}"></span>'
            f"<span>{escaped(misconception_label(name, bank))}: {share:.0%} ({count})</span></div>"
        )
    return "".join(lines)


def exercises_html(stats: Sequence[ExerciseStats], order: Sequence[str], bank: Bank) -> str:
    """The exercise table: tried, right, answer shown, answers, unreadable, and a bar per misconception; each exercise
    named by its number in ``order`` and its short text, each misconception by its name in ``bank``."""
    if not stats:
        return f"<p>{html.escape(message('classview.nothing_yet'))}</p>"
    head = "".join(
        f'<th scope="col" style="text-align:left;padding:2px 8px">{html.escape(message(key))}</th>'
        for key in ("classview.exercise", "classview.tried", "classview.right", "classview.revealed",
                    "classview.checks", "classview.unreadable", "classview.wrong_ideas")
    )  # fmt: skip
    rows = "".join(
        f'<tr class="calcnb-exercise" data-exercise="{escaped(item.exercise_id)}"'
        f' style="border-top:1px solid {LIGHT_GREY}">'
        f'<th scope="row" style="text-align:left;padding:2px 8px;max-width:24em">'
        f"{escaped(exercise_label(item.exercise_id, order, bank))}</th>"
        + "".join(
            f'<td style="padding:2px 8px">{count}</td>'
            for count in (item.tried, item.right, item.revealed, item.attempts, item.unreadable)
        )
        + f'<td style="padding:2px 8px">{_bars(item, bank)}</td></tr>'
        for item in stats
    )
    return f'<table class="calcnb-class-exercises" style="border-collapse:collapse"><tr>{head}</tr>{rows}</table>'


def students_html(status: ClassStatus, order: Sequence[str], bank: Bank) -> str:
    """Who has not started, and who is stuck and on which exercise (named as :func:`exercises_html` names it)."""
    nobody = f"<i>{html.escape(message('classview.nobody'))}</i>"
    waiting = ", ".join(isolated(name) for name in status.not_started) or nobody
    said = [
        message("classview.stuck_on", nickname=isolated(name), exercise=escaped(exercise_label(exercise, order, bank)))
        for name, exercise in status.stuck.items()
    ]
    stuck = "".join(f"<li>{line}</li>" for line in said) or f"<li>{nobody}</li>"
    return (
        f"<h4>{html.escape(message('classview.not_started', count=len(status.not_started)))}</h4>"
        f'<p class="calcnb-not-started">{waiting}</p>'
        f"<h4>{html.escape(message('classview.stuck', count=len(status.stuck)))}</h4>"
        f'<ul class="calcnb-stuck">{stuck}</ul>'
    )


# A link that looks like what it does: a button to press (white on the palette's blue, 5:1 contrast).
_BUTTON_STYLE = (
    f"display:inline-block;margin:4px 8px 4px 0;padding:6px 14px;border-radius:4px;background:{BLUE};"
    f"color:{WHITE};text-decoration:underline;font-weight:bold"
)


def download_link(data: bytes, filename: str, label: str, css_class: str, mime: str = "text/csv") -> str:
    """A link styled as a button that downloads ``data`` as ``filename`` in one click (nothing is written)."""
    encoded = base64.b64encode(data).decode("ascii")
    return (
        f'<a class="{css_class}" download="{html.escape(filename)}" href="data:{mime};base64,{encoded}" '
        f'role="button" style="{_BUTTON_STYLE}">{html.escape(label)}</a>'
    )


def folded(text: str) -> str:
    """``text`` folded under "What the columns mean", opened with a click or the keyboard (a ``<details>``)."""
    title = html.escape(message("classview.legend_title"))
    return (
        f'<details class="calcnb-legend" style="max-width:60em"><summary>{title}</summary>'
        f"<p>{html.escape(text)}</p></details>"
    )


def summary_html(summaries: Sequence[StudentSummary], order: Sequence[str], bank: Bank) -> str:
    """The end-of-lesson summary: one row per student (right, wrong, unreadable, answer shown, not tried, stuck on)."""
    if not summaries:
        return ""
    heading = [html.escape(message(f"classview.summary.{name}")) for name in SUMMARY_COLUMNS]
    head = "".join(f'<th scope="col" style="text-align:left;padding:2px 8px">{name}</th>' for name in heading)
    rows = "".join(
        f'<tr class="calcnb-student" data-nickname="{escaped(row[0])}" style="border-top:1px solid {LIGHT_GREY}">'
        f'<th scope="row" style="text-align:left;padding:2px 8px">{isolated(row[0])}</th>'
        + "".join(f'<td style="padding:2px 8px">{escaped(cell)}</td>' for cell in row[1:])
        + "</tr>"
        for row in summary_rows(summaries, order, bank)
    )
    # the count the rows add up to: the lesson's exercises and any other a student tried
    legend = message("classview.summary_legend", count=len(summary_exercises(summaries, order)), stuck=STUCK_AFTER)
    return (
        f"<h4>{html.escape(message('classview.summary_title'))}</h4>"
        f"{folded(legend)}"
        f'<table class="calcnb-summary" style="border-collapse:collapse"><tr>{head}</tr>{rows}</table>'
    )


#: Wrong answers offered to put up on the projector, the latest first.
MOST_OFFERED = 60

#: Seconds the view's own trial write waits for a lock: a lock held longer already stops the students' writes.
PROBE_TIMEOUT = 1.0


def _clock(seconds: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(seconds)) if seconds else ""


def _reason(error: BaseException) -> str:
    """A database error's first line, as short as a banner can say it."""
    return str(getattr(error, "orig", None) or error).splitlines()[0][:160] if str(error) else type(error).__name__


def _banner(text: str) -> str:
    """A loud line at the top of the view: the log, or some student's answers, are not being kept."""
    return (
        f'<div class="calcnb-alarm" role="alert" style="border:3px solid {VERMILION};background:{ALARM_BACKGROUND};'
        f'color:{ERROR_TEXT};padding:8px 12px;margin:6px 0;font-weight:bold;font-size:1.1em;max-width:60em">'
        f"{text}</div>"
    )


def health_html(health: Sequence[StudentHealth], students: Sequence[str] = ()) -> str:
    """The table of each student's saving: answers waiting on their pages, the last write, the last failure."""
    if not health:
        return ""
    ordered = sorted(in_class_order(health, students), key=lambda item: not item.stuck)
    head = "".join(
        f'<th scope="col" style="text-align:left;padding:2px 8px">{html.escape(message(key))}</th>'
        for key in ("classview.summary.nickname", "classview.health.waiting", "classview.health.last_write",
                    "classview.health.last_failure")
    )  # fmt: skip
    rows = []
    for item in ordered:
        failure = ""
        if item.last_failure:
            failure = html.escape(message("classview.health.failure", time=_clock(item.last_failure)))
            failure += f" <small>{escaped(item.failure or '')}</small>"
        style = f"color:{ERROR_TEXT};font-weight:bold" if item.stuck else ""
        rows.append(
            f'<tr class="calcnb-health" data-nickname="{escaped(item.nickname)}" data-stuck="{int(item.stuck)}"'
            f' style="border-top:1px solid {LIGHT_GREY};{style}">'
            f'<th scope="row" style="text-align:left;padding:2px 8px">{isolated(item.nickname)}</th>'
            f'<td style="padding:2px 8px">{item.waiting}</td>'
            f'<td style="padding:2px 8px">{_clock(item.last_write)}</td>'
            f'<td style="padding:2px 8px">{failure}</td></tr>'
        )
    return (
        f"<h4>{html.escape(message('classview.health.title'))}</h4>"
        f'<table class="calcnb-health-table" style="border-collapse:collapse"><tr>{head}</tr>{"".join(rows)}</table>'
    )


class LogView(ShownWhenRun, widgets.VBox):
    """A page that reads a class log every few seconds on the kernel's event loop: the class view and the projector.

    A subclass's ``__init__`` calls :meth:`_follow` with the log and the lesson; :meth:`refresh` reads the log.
    """

    class_log: ClassLog | None
    order: tuple[str, ...]
    bank: Bank
    refresh_seconds: float
    tally: Tally
    read_at: float | None  # the last reading that worked
    _task: asyncio.Task | None = None  # the refresh loop, while it runs

    def _follow(self, log: ClassLog | None, order: Sequence[str], bank: Bank, refresh_seconds: float) -> None:
        """Keep what every reading needs: the log, the lesson's exercises in order and their bank, the interval,
        and a tally that has read nothing yet (a subclass's ``__init__`` calls it first)."""
        self.class_log = log
        self.order = tuple(order)
        self.bank = bank
        self.refresh_seconds = refresh_seconds
        self.tally = Tally()
        self.read_at = None

    def refresh(self) -> bool:
        """Read what is new in the log and redraw; False if it cannot be read just now."""
        raise NotImplementedError

    async def _run(self) -> None:
        while True:
            self.refresh()
            await asyncio.sleep(self.refresh_seconds)

    def start(self: LogViewT) -> LogViewT:
        """Refresh now and every ``refresh_seconds`` on the kernel's event loop, until :meth:`stop`; returns self."""
        self.stop()
        self.refresh()
        with contextlib.suppress(RuntimeError):  # no running loop (a plain script): refresh by hand
            self._task = asyncio.get_running_loop().create_task(self._run())
        if self._task is None:
            with contextlib.suppress(RuntimeError):
                loop = asyncio.get_event_loop()
                if loop.is_running():
                    self._task = loop.create_task(self._run())
        return self

    def stop(self) -> None:
        """Stop refreshing by itself."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def close(self) -> None:
        """Stop refreshing, close the log's connections and the widgets."""
        self.stop()
        if self.class_log is not None:
            self.class_log.close()
        super().close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.class_log.location if self.class_log else 'no class log'}>"


LogViewT = TypeVar("LogViewT", bound=LogView)
WrittenT = TypeVar("WrittenT")  # what a write to the class log returns


class ClassView(LogView):
    """The live class view of one class log: call :meth:`refresh`, or :meth:`start` to refresh by itself.

    ``order`` lists the lesson's exercise identifiers, in the order the lesson asks them: they are shown first,
    numbered by their place in it (the others follow as first answered). ``bank`` holds the lesson's exercises
    (:class:`calcnb.exercises.bank.Bank`), for their questions and the names of their misconceptions.
    Each reading asks the log only for the answers written since the last one (:class:`~calcnb.classlog.tally.Tally`),
    tries a write (taken back) and commits one (its own health row) to know whether the students' answers can be
    saved, looks at the free space on a SQLite log's disk, and reads each page's health row: a banner says loudly
    when the log is gone, replaced, unreadable or cannot be written, when its disk is full or filling up, and when
    some student's answers are not reaching it.
    """

    shown_as = "before_run.class_view"

    def __init__(
        self,
        log: ClassLog | None,
        *,
        order: Sequence[str],
        bank: Bank,
        refresh_seconds: float = REFRESH_SECONDS,
    ) -> None:
        self._follow(log, order, bank, refresh_seconds)
        self.replaced_at: float | None = None  # when the view found the log's file replaced by another
        self.remade_at: float | None = None  # when the view made the log again, its file gone
        self.alarms: list[str] = []  # what the banner says, in the teacher's words (empty: all is well)
        self.banner = widgets.HTML()
        self.status = widgets.HTML()
        self.exercises = widgets.HTML()
        self.students = widgets.HTML()
        self.health = widgets.HTML()
        self.summary = widgets.HTML()
        self.summary_csv = widgets.HTML()
        # The PDF and the export of every answer take a moment: made when asked, not at every reading of the log.
        self.pdf_button = widgets.Button(description=message("classview.summary_pdf"), icon="print")
        self.pdf_button.layout.width = "max-content"
        self.pdf_button.on_click(lambda _button: self.make_pdf())
        self.pdf_link = widgets.HTML()
        self.export_button = widgets.Button(description=message("classview.export"), icon="download")
        self.export_button.layout.width = "max-content"
        self.export_button.on_click(lambda _button: self.make_export())
        self.export = widgets.HTML()
        self._summaries: list[StudentSummary] = []
        discuss = self._discuss_panel()
        pace = self._pace_panel()
        title = widgets.HTML(f"<h3>{html.escape(message('classview.title'))}</h3>")
        legend = message("classview.legend", stuck=STUCK_AFTER, seconds=refresh_seconds)
        legend_html = widgets.HTML(folded(legend))  # folded away: the table and the charts stay above the fold
        downloads = widgets.HBox([self.summary_csv, self.pdf_button, self.pdf_link])
        downloads.layout.align_items = "center"
        export = widgets.HBox([self.export_button, self.export])
        export.layout.align_items = "center"
        super().__init__(
            [title, self.banner, legend_html, self.status, pace, self.exercises, self.students, discuss,
             self.summary, downloads, export, self.health]
        )  # fmt: skip
        self.add_class("calcnb-class-view")
        if log is None:
            self.status.value = f"<p>{html.escape(message('classview.no_log'))}</p>"
            self.export_button.disabled = True
            self.discuss_button.disabled = self.take_down_button.disabled = True
            self.pace_choice.disabled = self.pause_button.disabled = True

    def _discuss_panel(self) -> widgets.VBox:
        """A wrong answer to discuss: picked here, shown by the projector's own server (through the log)."""
        self._wrong: dict[tuple[str, str, str], int] = {}  # (exercise, variant, answer) -> its latest id, in order
        self.discuss_choice = widgets.Dropdown(options=[], description=message("classview.discuss.choose"))
        self.discuss_choice.style.description_width = "initial"
        self.discuss_choice.layout.width = "40em"  # the answer and its exercise, readable
        self.discuss_choice.layout.max_width = "100%"
        self.discuss_choice.add_class("calcnb-discuss-choice")
        self.discuss_button = widgets.Button(description=message("classview.discuss.put_up"), icon="desktop")
        self.discuss_button.layout.width = "max-content"
        self.discuss_button.on_click(lambda _button: self.put_up())
        self.take_down_button = widgets.Button(description=message("classview.discuss.take_down"), icon="times")
        self.take_down_button.layout.width = "max-content"
        self.take_down_button.on_click(lambda _button: self.take_down())
        self.discuss_status = widgets.HTML()
        self.discuss_status.add_class("calcnb-discuss-status")
        discuss_row = widgets.HBox([self.discuss_choice, self.discuss_button, self.take_down_button])
        discuss_row.layout.flex_flow = "row wrap"
        discuss_row.layout.align_items = "center"
        discuss = widgets.VBox(
            [widgets.HTML(f"<h4>{html.escape(message('classview.discuss.title'))}</h4>"), discuss_row,
             self.discuss_status]
        )  # fmt: skip
        discuss.add_class("calcnb-discuss")
        self._show_choices()
        self._show_discussed(None)
        return discuss

    def _pace_panel(self) -> widgets.VBox:
        """Pacing: how far every pupil's page may go, and "Eyes on the board"; kept in the log, read by every page."""
        self.pacing: Pacing | None = None  # as last read from the log (None: not read yet)
        self._showing_pacing = False  # the view is showing what it read: the choice is not the teacher's
        self.pace_choice = widgets.Dropdown(
            options=self._pace_options(), value=0, description=message("classview.pace.label")
        )
        self.pace_choice.style.description_width = "initial"
        self.pace_choice.layout.width = "28em"  # the label and "up to exercise 10", in either language
        self.pace_choice.layout.max_width = "100%"
        self.pace_choice.add_class("calcnb-pace-choice")
        self.pace_choice.observe(self._chosen, "value")
        self.pause_button = widgets.Button(description=message("classview.pace.pause"), icon="pause")
        self.pause_button.layout.width = "max-content"
        self.pause_button.add_class("calcnb-pause")
        self.pause_button.on_click(lambda _button: self.pause(not (self.pacing is not None and self.pacing.paused)))
        self.pace_status = widgets.HTML()
        self.pace_status.add_class("calcnb-pace-status")
        pace_row = widgets.HBox([self.pace_choice, self.pause_button])
        pace_row.layout.flex_flow = "row wrap"
        pace_row.layout.align_items = "center"
        pace = widgets.VBox(
            [widgets.HTML(f"<h4>{html.escape(message('classview.pace.title'))}</h4>"), pace_row, self.pace_status]
        )
        pace.add_class("calcnb-pace")
        return pace

    # ------------------------------------------------------------ reading the log

    def refresh(self) -> bool:
        """Read what is new in the log and redraw; False (and a banner) if it cannot be read just now."""
        if self.class_log is None:
            return False
        log = self.class_log
        alarms = []
        try:
            self._same_file()
            rows = log.attempts_after(self.tally.seen)
            self.tally.add(rows, log.student_attempts)
            self._note_wrong(rows)
            students = log.students()
            writers = log.writers()
            discussed = log.discussed()
            pacing = log.pacing()
        except ClassLogMoved:
            self._say([self._gone_or_replaced()])
            return False
        except Exception as error:  # a busy or unreachable database: say so, try again at the next tick
            said = message("classview.cannot_read", reason=_reason(error), seconds=self.refresh_seconds)
            if self.read_at is not None:
                said += " " + message("classview.as_of", time=_clock(self.read_at))
            room, _full = self._room(error)  # a full disk can stop the reading too: the cause, and what to do
            self._say([*room, said])
            return False
        self.read_at = time.time()
        if self.replaced_at is not None:
            alarms.append(message("classview.replaced", location=log.location, time=_clock(self.replaced_at)))
        if self.remade_at is not None:
            alarms.append(message("classview.remade", location=log.location, time=_clock(self.remade_at)))
        failed: Exception | None = None
        try:
            self._probe()
        except ClassLogMoved:
            alarms.append(self._gone_or_replaced())
        except Exception as error:
            failed = error
            log.engine.dispose()  # fresh connections next time (a session opened read-only stays so)
        room, full = self._room(failed)
        alarms.extend(room)
        if failed is not None and not full:  # a full disk's alarm already says no answer is being saved
            alarms.append(message("classview.cannot_write", reason=_reason(failed)))
        health = student_health(writers, self.read_at)
        stuck = [item for item in in_class_order(health, students) if item.stuck]
        if stuck:
            names = ", ".join(f"{item.nickname} ({item.waiting})" for item in stuck)
            alarms.append(message("classview.not_reaching", count=len(stuck), students=names))
        status = self.tally.status(students)
        self._summaries = self.tally.summaries(students)
        self.exercises.value = exercises_html(self.tally.stats(self.order), self.order, self.bank)
        self.students.value = students_html(status, self.order, self.bank)
        self.summary.value = summary_html(self._summaries, self.order, self.bank)
        csv = summary_csv(self._summaries, self.order, self.bank).encode("utf-8-sig")
        filename = f"{message('classview.summary_file')}.csv"
        self.summary_csv.value = download_link(csv, filename, message("classview.summary_csv"), "calcnb-summary-csv")
        self.health.value = health_html(health, students)
        self._show_choices()
        self._show_discussed(discussed)
        self._show_pacing(pacing)
        self.status.value = html.escape(
            message(
                "classview.updated",
                students=len(students),
                working=status.working,
                checks=self.tally.checks,
                time=_clock(self.read_at),
            )
        )
        self._say(alarms)
        return True

    def _say(self, alarms: list[str]) -> None:
        """The banner: each alarm on a line of its own (escaped; a nickname may be in it), or nothing."""
        self.alarms = alarms
        self.banner.value = _banner("<br>".join(html.escape(alarm) for alarm in alarms)) if alarms else ""

    def _same_file(self) -> None:
        """A SQLite log whose file was replaced is read afresh (the pages send their answers to it again); one
        whose file is gone is made again, empty, at its path, so the pages have a log to send every answer they
        hold to; raises :class:`ClassLogMoved` when none can be made there (its folder gone, say)."""
        log = self.class_log
        try:
            log.check_log()
        except ClassLogMoved:
            remade = self._remake()
            if not log.reopen():
                raise
            self.tally = Tally()  # another file: none of what was counted is in it
            self._wrong = {}
            if remade:
                self.remade_at = time.time()
            else:
                self.replaced_at = time.time()

    def _remake(self) -> bool:
        """Make a new, empty log at the path of a SQLite log whose file is gone; True if made.

        The class view is the teacher's, open all lesson: without a log at the path the students' answers wait on
        their pages, and are lost with any page closed meanwhile. Made by the view, not by the pages, so a deleted
        log comes back once, with a new class key (a page's writes never land in it unnoticed), and the banner says so.
        """
        path = self.class_log.file_path()
        if path is None or path.exists():
            return False
        for companion in (f"{path}-wal", f"{path}-shm"):  # the deleted file's: SQLite would replay them into the new
            with contextlib.suppress(OSError):
                Path(companion).unlink()
        try:
            open_class_log(path).close()
        except Exception:  # no folder, no room, no permission: the banner says the log is gone
            return False
        return True

    def _gone_or_replaced(self) -> str:
        return message("classview.gone", location=self.class_log.location)

    def _probe(self) -> None:
        """Try a write (taken back), then commit one (the view's own health row), each with a short wait: raises
        what would stop the students' answers. Only a commit meets a full disk: SQLite writes nothing before it."""
        self.class_log.probe(timeout=PROBE_TIMEOUT)
        write_heartbeat(self.class_log, PROBE_TIMEOUT)

    def _room(self, error: BaseException | None) -> tuple[list[str], bool]:
        """The alarm, if any, saying the log's disk is full or filling up (``error``: what the log raised, if
        anything), in the teacher's words with what to do; and whether it is full."""
        log = self.class_log
        room, free = disk_room(log, error)
        if room is None:
            return [], False
        if log.url.get_backend_name() != "sqlite":  # the database server's disk: only whoever runs it can free it
            return [message("classview.server_full", location=log.location)], True
        path = log.file_path()
        folder = path.parent if path is not None else log.location
        if room == FULL:
            return [message("classview.disk_full", folder=folder)], True
        return [message("classview.disk_low", megabytes=(free or 0) / 1_000_000, folder=folder)], False

    # ------------------------------------------------------------ pacing

    def _pace_options(self) -> list[tuple[str, int]]:
        """Every exercise, or up to each exercise of the lesson (0 stands for every exercise)."""
        numbers = range(1, len(self.order) + 1)
        return [(message("classview.pace.all"), 0)] + [(message("classview.pace.up_to", number=n), n) for n in numbers]

    def _chosen(self, change: dict) -> None:
        if not self._showing_pacing:  # the teacher's choice, not the view showing what it read
            self.pace(change["new"] or None)

    def pace(self, up_to: int | None) -> bool:
        """Let every pupil's page answer up to exercise ``up_to`` (None: every exercise); paused or not as it is.
        False if the log cannot be written just now (said under the buttons)."""
        paused = self.pacing is not None and self.pacing.paused
        return self._set_pacing(Pacing(up_to, paused))

    def pause(self, paused: bool = True) -> bool:
        """Pause every pupil's page ("Eyes on the board"), or let them carry on (``paused`` False)."""
        up_to = self.pacing.up_to if self.pacing is not None else None
        return self._set_pacing(Pacing(up_to, paused))

    def _set_pacing(self, pacing: Pacing) -> bool:
        log = self.class_log
        if log is None:
            return False
        written, _ = self._write(lambda: log.set_pacing(pacing), self.pace_status)
        if written:
            self._show_pacing(pacing)
        return written

    def _write(self, write: Callable[[], WrittenT], status: widgets.HTML) -> tuple[bool, WrittenT | None]:
        """Run ``write``, a write to the class log: (True, what it returns), or (False, None) when the log refuses
        it just now, the reason said in ``status`` (under the buttons that asked for it)."""
        try:
            return True, write()
        except Exception as error:
            said = message("classview.cannot_write", reason=_reason(error))
            status.value = f'<p style="color:{ERROR_TEXT}">{html.escape(said)}</p>'
            return False, None

    def _show_pacing(self, pacing: Pacing) -> None:
        """Show the pacing the pages follow: the choice, the button's words, and a sentence saying it."""
        self.pacing = pacing
        self._showing_pacing = True
        try:
            options = self._pace_options()
            if pacing.up_to is not None and pacing.up_to >= len(options):  # set for a longer lesson: shown as set
                options.append((message("classview.pace.up_to", number=pacing.up_to), pacing.up_to))
            if options != list(self.pace_choice.options):
                self.pace_choice.options = options
            self.pace_choice.value = pacing.up_to or 0
        finally:
            self._showing_pacing = False
        self.pause_button.description = message("classview.pace.release" if pacing.paused else "classview.pace.pause")
        self.pause_button.icon = "play" if pacing.paused else "pause"
        self.pause_button.button_style = "warning" if pacing.paused else ""
        if pacing.up_to is None:
            said = message("classview.pace.now_all")
        else:
            said = message("classview.pace.now_up_to", number=pacing.up_to)
        if pacing.paused:
            said = message("classview.pace.now_paused") + " " + said
        self.pace_status.value = f"<p>{html.escape(said + ' ' + message('classview.pace.said'))}</p>"

    # ------------------------------------------------------------ a wrong answer to discuss

    def _note_wrong(self, rows: Sequence[dict]) -> None:
        """Keep the wrong answers among ``rows``, each text once per exercise and variant, the latest last."""
        for row in rows:
            if row_outcome(row) is Outcome.WRONG:
                key = (row["exercise_id"], str(row["variant"]), str(row["answer"]).strip())
                self._wrong.pop(key, None)
                self._wrong[key] = row["id"]

    def _show_choices(self) -> None:
        """Offer the latest wrong answers (answer, then exercise; no nickname), keeping the one picked."""
        latest = list(reversed(self._wrong.items()))[:MOST_OFFERED]
        options = [
            (message("classview.discuss.option", answer=visible(answer),
                     exercise=exercise_label(exercise, self.order, self.bank)), number)
            for (exercise, _variant, answer), number in latest
        ]  # fmt: skip
        if options != list(self.discuss_choice.options):
            picked = self.discuss_choice.value
            self.discuss_choice.options = options
            if picked in (number for _label, number in options):
                self.discuss_choice.value = picked
        self.discuss_button.disabled = self.class_log is None or not options

    def _show_discussed(self, discussed: dict | None) -> None:
        """Say what the projector shows: the answer up for discussion, or the class's figures."""
        if discussed is None:
            key = "classview.discuss.nothing_up" if self._wrong else "classview.discuss.none"
            said = html.escape(message(key))
        else:
            exercise = exercise_label(discussed["exercise_id"], self.order, self.bank)
            said = message(
                "classview.discuss.showing", answer=isolated(discussed["answer"]), exercise=escaped(exercise)
            )
        self.discuss_status.value = f"<p>{said}</p>"
        self.take_down_button.disabled = self.class_log is None or discussed is None

    def put_up(self) -> dict | None:
        """Put the answer picked on the projector (in place of any other); returns it as the log keeps it, or None
        (nothing picked, or the log cannot be written just now: said beside the buttons)."""
        log, picked = self.class_log, self.discuss_choice.value
        if log is None or picked is None:
            return None
        written, shown = self._write(lambda: log.discuss(picked), self.discuss_status)
        if written:
            self._show_discussed(shown)
        return shown

    def take_down(self) -> bool:
        """Take the answer down: the projector shows the class's figures again. False if the log refused."""
        if self.class_log is None:
            return False
        written, _ = self._write(self.class_log.stop_discussing, self.discuss_status)
        if written:
            self._show_discussed(None)
        return written

    # ------------------------------------------------------------ files to take away

    def make_export(self) -> str:
        """Every recorded answer as CSV, offered as a download link, and returned; the SQLite log is first made
        one complete file (its write-ahead file folded in), so a copy of it holds every answer too."""
        log = self.class_log
        with contextlib.suppress(Exception):  # a reader holding the log may delay it; the export goes on
            log.checkpoint()
        try:
            csv = csv_text(log.attempts())
        except Exception as error:
            said = message("classview.cannot_read", reason=_reason(error), seconds=self.refresh_seconds)
            self.export.value = f'<span style="color:{ERROR_TEXT}">{html.escape(said)}</span>'
            return ""
        label = message("classview.export_ready", time=time.strftime("%H:%M:%S"))
        # with a BOM, so spreadsheets read UTF-8
        self.export.value = download_link(csv.encode("utf-8-sig"), "class_log.csv", label, "calcnb-export")
        return csv

    def make_pdf(self, paper: str = "A4") -> bytes:
        """Draw the summary as of the last reading as PDF, offer it as a download link, and return it."""
        location = self.class_log.location if self.class_log is not None else ""
        pdf = summary_pdf(self._summaries, self.order, self.bank, location=location, paper=paper)
        label = message("classview.summary_pdf_ready", time=time.strftime("%H:%M:%S"))
        filename = f"{message('classview.summary_file')}.pdf"
        self.pdf_link.value = download_link(pdf, filename, label, "calcnb-summary-pdf", mime="application/pdf")
        return pdf


def class_view(
    location: str | None = None,
    *,
    order: Sequence[str],
    bank: Bank,
    refresh_seconds: float = REFRESH_SECONDS,
) -> ClassView:
    """The live class view of ``location`` (default: the log named by ``python -m calcnb class-view``), its
    exercises in ``order`` and named from ``bank``.

    Without a log it says how to name one. The view refreshes itself every ``refresh_seconds``.
    The default log comes from ``CALCNB_CLASS_VIEW`` (:data:`calcnb.core.settings.CLASS_VIEW`), which only
    the class-view command sets: the students' app never does, so a student page can never show the class.
    """
    location = location or CLASS_VIEW.read()
    if location is None:
        return ClassView(None, order=order, bank=bank)
    return ClassView(open_class_log(location), order=order, bank=bank, refresh_seconds=refresh_seconds).start()
