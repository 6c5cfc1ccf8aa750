"""The class view of any lesson: :class:`~calcnb.classroom.view.ClassView`, its exercises in the order of the lesson
the class is answering (:data:`calcnb.lessons.catalogue.LESSONS`).

``python -m calcnb class-view lesson.db`` serves ``notebooks/teacher/class_view.ipynb``, which shows
:func:`class_view`: the lesson is told by the answers in the log (each lesson asks exercises of its own),
so one command serves the view of every lesson. Before anyone has answered, the view follows
``lesson`` when given, else the clock of 13's order.

>>> LessonClassView(None).order[:2]
('clock', 'next-king')
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from calcnb.classroom.log import VIEW_ENV_VAR, ClassLog, open_class_log
from calcnb.classroom.view import REFRESH_SECONDS, ClassView
from calcnb.lessons.bank import LESSON_EXERCISES
from calcnb.lessons.catalogue import lesson as find_lesson
from calcnb.lessons.catalogue import lesson_for

__all__ = ["LessonClassView", "class_view"]


class LessonClassView(ClassView):
    """A class view whose exercises follow the lesson of the answers in the log (or ``lesson``, a lesson's name).

    ``lesson_name`` is the lesson shown, or None before the log says which.
    """

    def __init__(
        self, log: ClassLog | None, *, lesson: str | None = None, refresh_seconds: float = REFRESH_SECONDS
    ) -> None:
        self.lesson_name = None if lesson is None else find_lesson(lesson).name
        order: Sequence[str] = LESSON_EXERCISES if lesson is None else find_lesson(lesson).exercises
        super().__init__(log, order=order, refresh_seconds=refresh_seconds)

    def refresh(self) -> bool:
        """Read the log, take the order of the lesson its answers belong to, and redraw (see ClassView.refresh)."""
        if self.class_log is not None:
            try:
                found = lesson_for(row["exercise_id"] for row in self.class_log.attempts())
            except Exception:  # the database, just now: ClassView.refresh says so on the page
                found = None
            if found is not None:
                self.lesson_name, self.order = found.name, found.exercises
        return super().refresh()


def class_view(
    location: str | None = None, *, lesson: str | None = None, refresh_seconds: float = REFRESH_SECONDS
) -> LessonClassView:
    """The live class view of ``location`` (default: the log named by ``python -m calcnb class-view``), its
    exercises numbered and ordered as their lesson's; see :func:`calcnb.classroom.view.class_view`."""
    location = location or os.environ.get(VIEW_ENV_VAR, "").strip() or None
    if location is None:
        return LessonClassView(None, lesson=lesson)
    return LessonClassView(open_class_log(location), lesson=lesson, refresh_seconds=refresh_seconds).start()
