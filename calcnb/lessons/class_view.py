"""The class view of any lesson: :class:`~calcnb.classroom.view.ClassView`, its exercises in the order of the lesson
the class is answering, and the lesson's own panel when it has one.

``python -m calcnb class-view lesson.db`` serves ``notebooks/teacher/class_view.ipynb``, which shows
:func:`class_view`: the lesson is told by the answers in the log (each lesson asks exercises of its own),
so one command serves the view of every lesson. Before anyone has answered, the view follows
``lesson`` when given (``python -m calcnb class-view LOG --lesson NAME`` passes it through the setting
:data:`calcnb.core.settings.CLASS_VIEW_LESSON`), else the lesson that records the games in the log,
else :data:`calcnb.lessons.DEFAULT_LESSON`.

>>> LessonClassView(None).order[:2]
('clock', 'next-king')
"""

from __future__ import annotations

from typing import Any

from calcnb.classlog.store import ClassLog, open_class_log
from calcnb.classroom.view import REFRESH_SECONDS, ClassView
from calcnb.core.settings import CLASS_VIEW, CLASS_VIEW_LESSON
from calcnb.lessons import ALL_LESSONS, BANK, DEFAULT_LESSON, Lesson, lesson_for
from calcnb.lessons import lesson as find_lesson

__all__ = ["LessonClassView", "class_view"]


class LessonClassView(ClassView):
    """A class view whose exercises follow the lesson of the answers in the log (or ``lesson``, a lesson's name).

    ``lesson`` is the lesson shown (:data:`~calcnb.lessons.DEFAULT_LESSON` until the log says which);
    ``panels`` holds the panels of the lessons that have one, made when first shown.
    """

    def __init__(
        self, log: ClassLog | None, *, lesson: str | None = None, refresh_seconds: float = REFRESH_SECONDS
    ) -> None:
        self.chosen = lesson is not None
        self.lesson: Lesson = DEFAULT_LESSON if lesson is None else find_lesson(lesson)
        self.panels: dict[str, Any] = {}
        super().__init__(log, order=self.lesson.exercises, bank=BANK, refresh_seconds=refresh_seconds)

    @property
    def lesson_name(self) -> str:
        """The key of the lesson shown."""
        return self.lesson.key

    def _panel(self, shown: Lesson) -> Any:
        """The lesson's own panel, made once and placed under the status line."""
        if shown.key not in self.panels:
            panel = self.panels[shown.key] = shown.class_panel()
            children = list(self.children)
            children.insert(children.index(self.status) + 1, panel.widget)
            self.children = tuple(children)
        return self.panels[shown.key]

    def refresh(self) -> bool:
        """Read the log, take the order of the lesson its answers belong to, and redraw (see ClassView.refresh);
        for a lesson with a panel of its own, show the class's games there too."""
        games: list[dict] | None = None
        if self.class_log is not None:
            try:
                found = lesson_for(row["exercise_id"] for row in self.class_log.attempts())
                games = self.class_log.games()
            except Exception:  # the database, just now: ClassView.refresh says so on the page
                found = None
            if found is None and games and not self.chosen:  # games before any answer: a lesson that plays them
                found = next((known for known in ALL_LESSONS if known.records_games), None)
            if found is not None:
                self.lesson, self.order = found, found.exercises
        read = super().refresh()
        if read and games is not None and self.lesson.class_panel is not None:
            self._panel(self.lesson).show(games)
        return read

    @property
    def panel(self) -> Any:
        """The panel of the lesson shown, or None (it has none, or it has not been shown yet)."""
        return self.panels.get(self.lesson.key)


def class_view(
    location: str | None = None, *, lesson: str | None = None, refresh_seconds: float = REFRESH_SECONDS
) -> LessonClassView:
    """The live class view of ``location`` (default: the log named by ``python -m calcnb class-view``), its
    exercises numbered and ordered as their lesson's; see :func:`calcnb.classroom.view.class_view`."""
    location = location or CLASS_VIEW.read()
    lesson = lesson or CLASS_VIEW_LESSON.read()
    if location is None:
        return LessonClassView(None, lesson=lesson)
    return LessonClassView(open_class_log(location), lesson=lesson, refresh_seconds=refresh_seconds).start()
