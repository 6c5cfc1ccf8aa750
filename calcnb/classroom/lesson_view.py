"""The class view of any lesson: :class:`~calcnb.classroom.view.ClassView`, its exercises in the order of the lesson
the class is answering (:data:`calcnb.lessons.catalogue.LESSONS`).

``python -m calcnb class-view lesson.db`` serves ``notebooks/teacher/class_view.ipynb``, which shows
:func:`class_view`: the lesson is told by the answers in the log (each lesson asks exercises of its own),
so one command serves the view of every lesson. Before anyone has answered, the view follows
``lesson`` when given (``python -m calcnb class-view LOG --lesson NAME`` passes it through
:data:`LESSON_ENV_VAR`), else the lesson of the games in the log, else the clock of 13's order.

For "Is the 80% true?" the view adds the class's pooled deals (:func:`calcnb.lessons.evidence.pool`): every
student's games as one sample, its Wilson interval drawn against the number of deals as they came in, and the
claim's 80% set against it, with the verdict the interval gives (above, below, or too few deals to tell).

>>> LessonClassView(None).order[:2]
('clock', 'next-king')
"""

from __future__ import annotations

import html
import os
from collections import Counter
from collections.abc import Mapping, Sequence

import ipywidgets as widgets

from calcnb.classroom.log import VIEW_ENV_VAR, ClassLog, open_class_log
from calcnb.classroom.view import REFRESH_SECONDS, ClassView, shown
from calcnb.i18n import message
from calcnb.lessons.bank import LESSON_EXERCISES
from calcnb.lessons.catalogue import lesson as find_lesson
from calcnb.lessons.catalogue import lesson_for
from calcnb.lessons.evidence import CLAIM, PLAYER_KEY, Evidence, percent, pool, pooled_path

__all__ = ["EVIDENCE_LESSON", "LESSON_ENV_VAR", "LessonClassView", "class_view", "evidence_html"]

#: The environment variable through which ``python -m calcnb class-view LOG --lesson NAME`` names the lesson.
LESSON_ENV_VAR = "CALCNB_CLASS_VIEW_LESSON"
#: The lesson whose class view pools the students' games.
EVIDENCE_LESSON = "evidence"


def evidence_html(evidence: Evidence, games: Sequence[Mapping[str, object]]) -> str:
    """The pooled sample in the teacher's words: deals, wins, rate, the interval, the verdict, and each student's
    deals and wins (nicknames escaped)."""
    if not evidence.deals:
        return f"<p>{html.escape(message('classview.evidence.none'))}</p>"
    low, high = evidence.interval
    lines = [
        message(
            "classview.evidence.pooled",
            wins=evidence.wins,
            deals=evidence.deals,
            rate=percent(evidence.rate),
            low=percent(low),
            high=percent(high),
        ),
        message(f"classview.evidence.{evidence.verdict}", claim=percent(CLAIM), low=percent(low), high=percent(high)),
    ]
    if evidence.repeated:
        lines.append(message("classview.evidence.repeated", count=evidence.repeated))
    said = "".join(f"<p class='calcnb-evidence-{index}'><b>{html.escape(line)}</b></p>" if index < 2 else
                   f"<p>{html.escape(line)}</p>" for index, line in enumerate(lines))  # fmt: skip
    deals, wins = Counter(), Counter()
    for game in games:
        if game["player"] == PLAYER_KEY:
            deals[game["nickname"]] += 1
            wins[game["nickname"]] += bool(game["won"])
    head = "".join(f"<th>{html.escape(message(key))}</th>" for key in ("classview.evidence.student",
                   "classview.evidence.deals", "classview.evidence.wins"))  # fmt: skip
    rows = "".join(f"<tr><td>{shown(name)}</td><td>{deals[name]}</td><td>{wins[name]}</td></tr>" for name in deals)
    return said + f"<table class='calcnb-evidence-students'><tr>{head}</tr>{rows}</table>"


class LessonClassView(ClassView):
    """A class view whose exercises follow the lesson of the answers in the log (or ``lesson``, a lesson's name).

    ``lesson_name`` is the lesson shown, or None before the log says which.
    """

    def __init__(
        self, log: ClassLog | None, *, lesson: str | None = None, refresh_seconds: float = REFRESH_SECONDS
    ) -> None:
        self.lesson_name = None if lesson is None else find_lesson(lesson).name
        order: Sequence[str] = LESSON_EXERCISES if lesson is None else find_lesson(lesson).exercises
        self.evidence: Evidence | None = None  # the class's pooled deals at the last reading (that lesson only)
        self.evidence_title = widgets.HTML(f"<h4>{html.escape(message('classview.evidence.title'))}</h4>")
        self.evidence_text = widgets.HTML()
        self.evidence_text.add_class("calcnb-evidence-pooled")
        from calcnb.ui.play import Picture

        self.evidence_picture = Picture(width="576px", max_width="100%")
        self.evidence_box = widgets.VBox([self.evidence_title, self.evidence_text, self.evidence_picture])
        self.evidence_box.layout.display = "none"
        super().__init__(log, order=order, refresh_seconds=refresh_seconds)
        children = list(self.children)
        children.insert(children.index(self.status) + 1, self.evidence_box)
        self.children = tuple(children)

    def refresh(self) -> bool:
        """Read the log, take the order of the lesson its answers belong to, and redraw (see ClassView.refresh);
        for "Is the 80% true?", pool the class's games too."""
        games: list[dict] | None = None
        if self.class_log is not None:
            try:
                found = lesson_for(row["exercise_id"] for row in self.class_log.attempts())
                games = self.class_log.games()
            except Exception:  # the database, just now: ClassView.refresh says so on the page
                found = None
            if found is None and games and self.lesson_name is None:
                found = find_lesson(EVIDENCE_LESSON)  # games before any answer: only that lesson plays them
            if found is not None:
                self.lesson_name, self.order = found.name, found.exercises
        read = super().refresh()
        if read and games is not None and self.lesson_name == EVIDENCE_LESSON:
            self._show_evidence(games)
        return read

    def _show_evidence(self, games: list[dict]) -> None:
        from calcnb.ui.evidence import draw_pooled, png, pooled_alt  # matplotlib, only for the lesson that draws

        self.evidence = pool(games)
        path = pooled_path(games)
        # the picture first: a page whose sentence has changed already shows the picture of those deals
        self.evidence_picture.show(png(draw_pooled(path)), pooled_alt(path))
        self.evidence_text.value = evidence_html(self.evidence, games)
        self.evidence_box.layout.display = None


def class_view(
    location: str | None = None, *, lesson: str | None = None, refresh_seconds: float = REFRESH_SECONDS
) -> LessonClassView:
    """The live class view of ``location`` (default: the log named by ``python -m calcnb class-view``), its
    exercises numbered and ordered as their lesson's; see :func:`calcnb.classroom.view.class_view`."""
    location = location or os.environ.get(VIEW_ENV_VAR, "").strip() or None
    lesson = lesson or os.environ.get(LESSON_ENV_VAR, "").strip() or None
    if location is None:
        return LessonClassView(None, lesson=lesson)
    return LessonClassView(open_class_log(location), lesson=lesson, refresh_seconds=refresh_seconds).start()
