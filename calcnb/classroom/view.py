"""The teacher's class view: the class log read back every few seconds, for the teacher's eyes only.

For each exercise (by its number in the lesson and a short text): how many students tried it,
how many got it right, how many had the answer shown (never counted as right), how many answers
could not be read (never counted as wrong), and the share of each misconception among the wrong
answers, as a bar chart, every name in the teacher's language. Then who joined and has not
checked anything yet, and who is stuck (their last three answers judged wrong), with the
exercise they are stuck on. Last, the end-of-lesson summary of each student, to export as CSV or
print as PDF (:mod:`calcnb.classroom.summary`); a link exports every recorded check as CSV.

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
import os
import time
import unicodedata
from collections.abc import Sequence

import ipywidgets as widgets

from calcnb.classroom.log import (
    STUCK_AFTER,
    VIEW_ENV_VAR,
    ClassLog,
    ClassStatus,
    ExerciseStats,
    StudentSummary,
    class_status,
    csv_text,
    exercise_stats,
    open_class_log,
    row_outcome,
    student_summaries,
)
from calcnb.classroom.summary import (
    SUMMARY_COLUMNS,
    exercise_label,
    misconception_label,
    summary_csv,
    summary_pdf,
    summary_rows,
)
from calcnb.i18n import message
from calcnb.lessons.bank import LESSON_EXERCISES
from calcnb.ui.palette import BAR_COLOURS, BLUE, LIGHT_GREY, WHITE

__all__ = [
    "ClassView",
    "class_view",
    "download_link",
    "exercises_html",
    "isolated",
    "shown",
    "students_html",
    "summary_html",
]

#: Seconds between two readings of the log.
REFRESH_SECONDS = 3.0


def shown(text: object) -> str:
    """Text a student typed, safe inside HTML: control characters as ``\\x..`` escapes, markup escaped."""
    visible = "".join(f"\\x{ord(char):02x}" if unicodedata.category(char) == "Cc" else char for char in str(text))
    return html.escape(visible, quote=True)


def isolated(text: object) -> str:
    """A student's text as :func:`shown` makes it, in a ``<bdi>`` of its own: whatever its direction, it cannot
    reorder or mirror the text around it (a nickname of right-to-left letters in a list, say)."""
    return f"<bdi>{shown(text)}</bdi>"


def _bars(item: ExerciseStats) -> str:
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
            f"<span>{shown(misconception_label(name))}: {share:.0%} ({count})</span></div>"
        )
    return "".join(lines)


def exercises_html(stats: Sequence[ExerciseStats]) -> str:
    """The exercise table: tried, right, answer shown, answers, unreadable, and a bar per misconception."""
    if not stats:
        return f"<p>{html.escape(message('classview.nothing_yet'))}</p>"
    head = "".join(
        f'<th scope="col" style="text-align:left;padding:2px 8px">{html.escape(message(key))}</th>'
        for key in ("classview.exercise", "classview.tried", "classview.right", "classview.revealed",
                    "classview.checks", "classview.unreadable", "classview.wrong_ideas")
    )  # fmt: skip
    rows = "".join(
        f'<tr class="calcnb-exercise" data-exercise="{shown(item.exercise_id)}"'
        f' style="border-top:1px solid {LIGHT_GREY}">'
        f'<th scope="row" style="text-align:left;padding:2px 8px;max-width:24em">'
        f"{shown(exercise_label(item.exercise_id))}</th>"
        + "".join(
            f'<td style="padding:2px 8px">{count}</td>'
            for count in (item.tried, item.right, item.revealed, item.attempts, item.unreadable)
        )
        + f'<td style="padding:2px 8px">{_bars(item)}</td></tr>'
        for item in stats
    )
    return f'<table class="calcnb-class-exercises" style="border-collapse:collapse"><tr>{head}</tr>{rows}</table>'


def students_html(status: ClassStatus) -> str:
    """Who has not started, and who is stuck and on which exercise."""
    nobody = f"<i>{html.escape(message('classview.nobody'))}</i>"
    waiting = ", ".join(isolated(name) for name in status.not_started) or nobody
    stuck = (
        "".join(
            "<li>{}</li>".format(
                message("classview.stuck_on", nickname=isolated(name), exercise=shown(exercise_label(exercise)))
            )
            for name, exercise in status.stuck.items()
        )
        or f"<li>{nobody}</li>"
    )
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


def export_link(csv: str, filename: str = "class_log.csv") -> str:
    """A link that downloads ``csv`` (every recorded check) in one click."""
    # with a BOM, so spreadsheets read UTF-8
    return download_link(csv.encode("utf-8-sig"), filename, message("classview.export"), "calcnb-export")


def summary_html(summaries: Sequence[StudentSummary], order: Sequence[str] = LESSON_EXERCISES) -> str:
    """The end-of-lesson summary: one row per student (right, wrong, unreadable, answer shown, not tried, stuck on)."""
    if not summaries:
        return ""
    heading = [html.escape(message(f"classview.summary.{name}")) for name in SUMMARY_COLUMNS]
    head = "".join(f'<th scope="col" style="text-align:left;padding:2px 8px">{name}</th>' for name in heading)
    rows = "".join(
        f'<tr class="calcnb-student" data-nickname="{shown(row[0])}" style="border-top:1px solid {LIGHT_GREY}">'
        f'<th scope="row" style="text-align:left;padding:2px 8px">{isolated(row[0])}</th>'
        + "".join(f'<td style="padding:2px 8px">{shown(cell)}</td>' for cell in row[1:])
        + "</tr>"
        for row in summary_rows(summaries, order)
    )
    legend = message("classview.summary_legend", count=len(order), stuck=STUCK_AFTER)
    return (
        f"<h4>{html.escape(message('classview.summary_title'))}</h4>"
        f'<p style="max-width:60em">{html.escape(legend)}</p>'
        f'<table class="calcnb-summary" style="border-collapse:collapse"><tr>{head}</tr>{rows}</table>'
    )


class ClassView(widgets.VBox):
    """The live class view of one class log: call :meth:`refresh`, or :meth:`start` to refresh by itself.

    ``order`` lists exercise identifiers to show first, in that order (the others follow as first answered).
    """

    def __init__(
        self,
        log: ClassLog | None,
        *,
        order: Sequence[str] = LESSON_EXERCISES,
        refresh_seconds: float = REFRESH_SECONDS,
    ) -> None:
        self.class_log = log
        self.order = tuple(order)
        self.refresh_seconds = refresh_seconds
        self.status = widgets.HTML()
        self.exercises = widgets.HTML()
        self.students = widgets.HTML()
        self.export = widgets.HTML()
        self.summary = widgets.HTML()
        self.summary_csv = widgets.HTML()
        # The PDF takes a moment to draw: made when asked, not at every reading of the log.
        self.pdf_button = widgets.Button(description=message("classview.summary_pdf"), icon="print")
        self.pdf_button.layout.width = "max-content"
        self.pdf_button.on_click(lambda _button: self.make_pdf())
        self.pdf_link = widgets.HTML()
        self._summaries: list[StudentSummary] = []
        title = widgets.HTML(f"<h3>{html.escape(message('classview.title'))}</h3>")
        legend = message("classview.legend", stuck=STUCK_AFTER, seconds=refresh_seconds)
        legend_html = widgets.HTML(f'<p style="max-width:60em">{html.escape(legend)}</p>')
        downloads = widgets.HBox([self.summary_csv, self.pdf_button, self.pdf_link])
        downloads.layout.align_items = "center"
        super().__init__(
            [title, legend_html, self.status, self.exercises, self.students, self.summary, downloads, self.export]
        )
        self.add_class("calcnb-class-view")
        self._task: asyncio.Task | None = None
        if log is None:
            self.status.value = f"<p>{html.escape(message('classview.no_log'))}</p>"

    def refresh(self) -> bool:
        """Read the log and redraw; False (and a note on the page) if it cannot be read just now."""
        if self.class_log is None:
            return False
        try:
            rows = self.class_log.attempts()
            students = self.class_log.students()
        except Exception as error:  # a busy or unreachable database: say so, try again at the next tick
            reason = str(getattr(error, "orig", None) or error).splitlines()[0][:120]
            self.status.value = html.escape(
                message("classview.cannot_read", reason=reason, seconds=self.refresh_seconds)
            )
            return False
        status = class_status(students, rows)
        self._summaries = student_summaries(students, rows)
        self.exercises.value = exercises_html(exercise_stats(rows, self.order))
        self.students.value = students_html(status)
        self.summary.value = summary_html(self._summaries, self.order)
        csv = summary_csv(self._summaries, self.order).encode("utf-8-sig")
        filename = f"{message('classview.summary_file')}.csv"
        self.summary_csv.value = download_link(csv, filename, message("classview.summary_csv"), "calcnb-summary-csv")
        self.export.value = export_link(csv_text(rows))
        self.status.value = html.escape(
            message(
                "classview.updated",
                students=len(students),
                working=status.working,
                checks=sum(1 for row in rows if row_outcome(row) != "revealed"),  # Show answer is no answer
                time=time.strftime("%H:%M:%S"),
            )
        )
        return True

    def make_pdf(self, paper: str = "A4") -> bytes:
        """Draw the summary as of the last reading as PDF, offer it as a download link, and return it."""
        location = self.class_log.location if self.class_log is not None else ""
        pdf = summary_pdf(self._summaries, self.order, location=location, paper=paper)
        label = message("classview.summary_pdf_ready", time=time.strftime("%H:%M:%S"))
        filename = f"{message('classview.summary_file')}.pdf"
        self.pdf_link.value = download_link(pdf, filename, label, "calcnb-summary-pdf", mime="application/pdf")
        return pdf

    async def _run(self) -> None:
        while True:
            self.refresh()
            await asyncio.sleep(self.refresh_seconds)

    def start(self) -> ClassView:
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
        return f"<ClassView of {self.class_log.location if self.class_log else 'no class log'}>"


def class_view(
    location: str | None = None, *, order: Sequence[str] = LESSON_EXERCISES, refresh_seconds: float = REFRESH_SECONDS
) -> ClassView:
    """The live class view of ``location`` (default: the log named by ``python -m calcnb class-view``).

    Without a log it says how to name one. The view refreshes itself every ``refresh_seconds``.
    The default log comes from ``CALCNB_CLASS_VIEW``, which only the class-view command sets:
    the students' app never does, so a student page can never show the class.
    """
    location = location or os.environ.get(VIEW_ENV_VAR, "").strip() or None
    if location is None:
        return ClassView(None)
    return ClassView(open_class_log(location), order=order, refresh_seconds=refresh_seconds).start()
