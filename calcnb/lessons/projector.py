"""The projector view of any lesson: :class:`~calcnb.classroom.projector.ProjectorView`, its exercises numbered as
the lesson the class is answering numbers them, and the lesson's own part for the class (the pooled deals of
"Is the 80% true?", against 80%) when it has one.

``python -m calcnb class-view lesson.db --projector`` serves ``notebooks/teacher/projector.ipynb``, which shows
:func:`projector_view`. The lesson is found as :mod:`calcnb.lessons.class_view` finds it: from the answers in the
log, else ``--lesson``, else the lesson that records games when the log holds games, else the default lesson.

>>> LessonProjectorView(None).lesson.key
'wraparound'
"""

from __future__ import annotations

from calcnb.classlog.store import ClassLog, open_class_log
from calcnb.classroom.projector import REFRESH_SECONDS, ProjectorView
from calcnb.core.settings import CLASS_PROJECTOR, CLASS_VIEW_LESSON
from calcnb.lessons import ALL_LESSONS, BANK, DEFAULT_LESSON, Lesson, lesson_for
from calcnb.lessons import lesson as find_lesson

__all__ = ["LessonProjectorView", "projector_view"]


class LessonProjectorView(ProjectorView):
    """A projector view whose exercises follow the lesson of the answers in the log (or ``lesson``, a lesson's name)."""

    def __init__(
        self, log: ClassLog | None, *, lesson: str | None = None, refresh_seconds: float = REFRESH_SECONDS
    ) -> None:
        self.chosen = lesson is not None
        self.lesson: Lesson = DEFAULT_LESSON if lesson is None else find_lesson(lesson)
        self._games: list[dict] = []
        super().__init__(log, order=self.lesson.exercises, bank=BANK, refresh_seconds=refresh_seconds)

    def follow(self) -> None:
        """Read the class's games, and take the lesson of the answers counted so far (the tally knows every
        exercise tried), else the lesson that records games when there are games."""
        self._games = self.class_log.games()
        found = lesson_for(item.exercise_id for item in self.tally.stats())
        if found is None and self._games and not self.chosen:
            found = next((known for known in ALL_LESSONS if known.records_games), None)
        if found is not None:
            self.lesson, self.order = found, found.exercises

    def extra_html(self) -> str:
        """The lesson's own part for the class, from the games in the log (nothing for a lesson without one)."""
        if self.lesson.projector_panel is None:
            return ""
        return self.lesson.projector_panel(self._games)


def projector_view(
    location: str | None = None, *, lesson: str | None = None, refresh_seconds: float = REFRESH_SECONDS
) -> LessonProjectorView:
    """The live projector view of ``location`` (default: the log named by ``python -m calcnb class-view --projector``,
    which only that command sets); without a log it says how to name one."""
    location = location or CLASS_PROJECTOR.read()
    lesson = lesson or CLASS_VIEW_LESSON.read()
    if location is None:
        return LessonProjectorView(None, lesson=lesson)
    return LessonProjectorView(open_class_log(location), lesson=lesson, refresh_seconds=refresh_seconds).start()
