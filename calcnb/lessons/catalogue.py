"""The lessons, youngest first: one registry that the command line, the README, the notebooks and the class view use.

A :class:`Lesson` is a notebook served with ``python -m calcnb app NAME`` (``notebooks/NAME.ipynb``,
its Portuguese twin ``notebooks/pt/NAME.ipynb``, the teacher's notes
``notebooks/teacher/NAME_teacher.ipynb``), for an age range and a length, with its exercises in the
order the lesson asks them: the numbering of the students' screens, the worksheets, the teacher's
key and the class view. A lesson added here is listed by ``python -m calcnb lessons``.

>>> [lesson.name for lesson in LESSONS]
['counting', '02_wraparound', 'evidence']
>>> lesson_of("count-on").title, lesson_of("inverse").title
('Counting in steps', 'The clock of 13')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from calcnb.i18n import get_language, message
from calcnb.lessons import bank, counting, evidence

__all__ = ["LESSONS", "Lesson", "lesson", "lesson_for", "lesson_index", "lesson_of"]


@dataclass(frozen=True)
class Lesson:
    """One lesson: its notebook's name, the ages it is written for, about how long it takes, its exercises."""

    name: str
    ages: tuple[int, int]
    minutes: int
    exercises: tuple[str, ...]

    @property
    def title(self) -> str:
        """The lesson's title in the current language ("Counting in steps")."""
        return message(f"catalogue.{self.name}.title")

    @property
    def summary(self) -> str:
        """What the lesson covers, in one sentence of the current language."""
        return message(f"catalogue.{self.name}.summary")

    @property
    def notebook(self) -> str:
        """The student's notebook, inside ``notebooks/`` (the Portuguese twin has the same name in ``pt/``)."""
        return f"{self.name}.ipynb"

    @property
    def teacher_notebook(self) -> str:
        """The teacher's notes, inside ``notebooks/``."""
        return f"teacher/{self.name}_teacher.ipynb"

    def command(self, *, class_log: str | None = "lesson.db") -> str:
        """The command that serves the lesson to a class (keeping its answers in ``class_log``, unless None)."""
        return f"python -m calcnb app {self.name}" + (f" --class-log {class_log}" if class_log else "")

    def ages_text(self) -> str:
        """The ages in words: "ages 9–11"."""
        return message("catalogue.ages", low=self.ages[0], high=self.ages[1])

    def minutes_text(self) -> str:
        """The length in words: "about 40 minutes"."""
        return message("catalogue.minutes", minutes=self.minutes)


#: Every lesson, youngest first (a lesson's number is its place here, from 1).
LESSONS: tuple[Lesson, ...] = (
    Lesson("counting", (9, 11), 40, counting.LESSON_EXERCISES),
    Lesson("02_wraparound", (12, 15), 45, bank.LESSON_EXERCISES),
    Lesson("evidence", (15, 18), 50, evidence.LESSON_EXERCISES),
)


def lesson(name: str) -> Lesson:
    """The lesson called ``name`` (its notebook's name, with or without ``.ipynb``); KeyError saying which there are."""
    wanted = name.removesuffix(".ipynb")
    for known in LESSONS:
        if known.name == wanted:
            return known
    raise KeyError(message("catalogue.unknown", name=name, names=", ".join(known.name for known in LESSONS)))


def lesson_of(exercise_id: str) -> Lesson | None:
    """The lesson that asks ``exercise_id`` (the first one, youngest first), or None."""
    return next((known for known in LESSONS if exercise_id in known.exercises), None)


def lesson_for(exercise_ids: Iterable[str]) -> Lesson | None:
    """The lesson most of ``exercise_ids`` belong to (a class log's answers, say), or None when none does."""
    counts = Counter(found for exercise_id in exercise_ids if (found := lesson_of(exercise_id)) is not None)
    if not counts:
        return None
    return max(LESSONS, key=lambda known: counts[known])  # on a tie, the younger lesson


def lesson_index() -> str:
    """The list ``python -m calcnb lessons`` prints: each lesson with its ages, length, command and teacher's notes."""
    lines = [message("catalogue.heading"), ""]
    folder = "" if get_language() == "en" else f"{get_language()}/"  # the teacher's notes in the teacher's language
    for number, known in enumerate(LESSONS, start=1):
        lines.append(
            message(
                "catalogue.line",
                number=number,
                title=known.title,
                ages=known.ages_text(),
                minutes=known.minutes_text(),
                count=len(known.exercises),
                summary=known.summary,
                command=known.command(),
                teacher=f"notebooks/{folder}{known.teacher_notebook}",
            )
        )
    return "\n".join(lines)
