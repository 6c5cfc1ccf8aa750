"""The lessons, youngest first: each one folder, found the way languages are, and lessons of other packages too.

A lesson is a folder of this package (``calcnb/lessons/<key>/``) whose ``__init__.py`` holds a
:class:`Lesson` named ``LESSON``: its exercises in the order it asks them, its notebooks (under the
project's ``notebooks/``), its ages and length, and what it adds to the worksheet and to the class
view. Folders are found by name when this package is imported, so adding a lesson adds no line
here. A package that is not calcnb publishes a lesson under the entry point group
:data:`ENTRY_POINT_GROUP` (``[project.entry-points."calcnb.lessons"] mine = "my_lesson:LESSON"``):
``python -m calcnb lessons`` lists it, the class view shows its answers, the worksheets print it.
Either way a lesson's words sit in its own ``lang/`` folder (``lang/en.py``, ``lang/pt.py``, each a
``MESSAGES`` dict; see :func:`calcnb.i18n.add_words`), registered when the lesson is found.

>>> [found.key for found in LESSONS]
['counting', 'wraparound', 'evidence']
>>> lesson_of("count-on").title, lesson("02_wraparound").title
('Counting in steps', 'The clock of 13')
"""

from __future__ import annotations

import pkgutil
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from calcnb.exercises.bank import Bank
from calcnb.exercises.items import ExerciseKind, Item
from calcnb.i18n import WORDS_FOLDER, add_messages, add_words, get_language, has_message, has_words, message

__all__ = [
    "ALL_LESSONS",
    "BANK",
    "DEFAULT_LESSON",
    "ENTRY_POINT_GROUP",
    "LESSONS",
    "MISCONCEPTIONS",
    "Lesson",
    "discover",
    "lesson",
    "lesson_for",
    "lesson_index",
    "lesson_of",
]

#: The entry point group under which another installed package publishes a :class:`Lesson`.
ENTRY_POINT_GROUP = "calcnb.lessons"


@dataclass(frozen=True, eq=False)  # a lesson is itself: compared and hashed by identity
class Lesson:
    """One lesson: its key, ages, length, exercises in the order asked, notebooks and what it adds to the pages.

    - ``key``: one lower-case word or words joined by ``_`` ("counting", "wraparound"); its messages are
      ``catalogue.<key>.title``, ``catalogue.<key>.summary`` and, if the lesson has one,
      ``catalogue.<key>.worksheet_intro``.
    - ``kinds``: every exercise the lesson owns; ``exercises``: the identifiers it asks, in order (the
      numbering of the students' screens, the worksheet, the teacher's key and the class view).
    - ``name``: the student's notebook's name (``notebooks/<name>.ipynb``, its Portuguese twin in
      ``notebooks/pt/``; default: the key), what ``python -m calcnb app NAME`` serves; ``teacher_notebook``
      the teacher's notes inside ``notebooks/`` (None: none);
      ``notebook_folder`` the folder holding them for a lesson of another package (None: calcnb's).
    - ``listed``: whether ``python -m calcnb lessons`` lists it (a page of exercises with no teacher's
      notes is served, not listed).
    - ``widgets``: loads the module of the lesson's own widgets (on first use: ipywidgets is heavy).
    - ``draw_on_worksheet(pdf, size)``: draws what the lesson adds at the top of each worksheet page, given
      the room in millimetres (the clock of 13 cards for "Counting in steps").
    - ``class_panel()``: makes the lesson's own panel of the class view (see
      :class:`calcnb.lessons.class_view.LessonClassView`); ``records_games``: the lesson records deals played;
      ``projector_panel(games)``: what the projector view adds for the class's games (HTML, with no nickname;
      see :mod:`calcnb.lessons.projector`).
    - ``default``: the lesson a class view or summary follows when nothing says which (one lesson says so).
    - ``messages``: words by language code then key, kept for lessons written before the ``lang/`` folder
      (a lesson package's ``lang/`` folder is the way: it is registered when the lesson is found).
    """

    key: str
    ages: tuple[int, int]
    minutes: int
    kinds: tuple[ExerciseKind, ...]
    exercises: tuple[str, ...]
    misconceptions: tuple[str, ...] = ()
    name: str = ""
    teacher_notebook: str | None = ""
    notebook_folder: Path | None = None
    listed: bool = True
    widgets: Callable[[], ModuleType] | None = None
    draw_on_worksheet: Callable[[Any, float], None] | None = None
    class_panel: Callable[[], Any] | None = None
    records_games: bool = False
    projector_panel: Callable[[list[dict[str, Any]]], str] | None = None
    default: bool = False
    messages: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.key.replace("_", "").isalnum() or not self.key.islower():
            raise ValueError(message("catalogue.bad_key", key=repr(self.key)))
        if not self.name:
            object.__setattr__(self, "name", self.key)
        if self.teacher_notebook == "":
            object.__setattr__(self, "teacher_notebook", f"teacher/{self.name}_teacher.ipynb")
        missing = [exercise_id for exercise_id in self.exercises if exercise_id not in self.bank]
        if missing:
            raise ValueError(message("catalogue.missing_exercises", key=self.key, exercises=", ".join(missing)))

    @cached_property
    def bank(self) -> Bank:
        """The lesson's exercises by identifier, with the misconceptions their feedback names."""
        return Bank(self.kinds, self.misconceptions)

    @property
    def notebook(self) -> str:
        """The student's notebook, inside ``notebooks/`` (the Portuguese twin has the same name in ``pt/``)."""
        return f"{self.name}.ipynb"

    @property
    def title(self) -> str:
        """The lesson's title in the current language ("Counting in steps")."""
        return message(f"catalogue.{self.key}.title")

    @property
    def summary(self) -> str:
        """What the lesson covers, in one sentence of the current language."""
        return message(f"catalogue.{self.key}.summary")

    @property
    def worksheet_intro(self) -> str:
        """The line at the top of the lesson's worksheet: the lesson's own, else the general one."""
        key = f"catalogue.{self.key}.worksheet_intro"
        return message(key) if has_message(key) else message("worksheet.intro")

    def command(self, *, class_log: str | None = "lesson.db") -> str:
        """The command that serves the lesson to a class (keeping its answers in ``class_log``, unless None)."""
        return f"python -m calcnb app {self.name}" + (f" --class-log {class_log}" if class_log else "")

    def ages_text(self) -> str:
        """The ages in words: "ages 9–11"."""
        return message("catalogue.ages", low=self.ages[0], high=self.ages[1])

    def minutes_text(self) -> str:
        """The length in words: "about 40 minutes"."""
        return message("catalogue.minutes", minutes=self.minutes)

    def student_items(self, seed: object, class_key: str | None = None) -> list[Item]:
        """The lesson's exercises as one student gets them (their variants fixed by ``seed`` and ``class_key``)."""
        return self.bank.student_items(seed, self.exercises, class_key)

    def quiz(self, seed: object = None, *, class_key: str | None = None) -> Any:
        """A :class:`calcnb.ui.lesson.Quiz` of the lesson's exercises, in its order (``quiz.next()`` shows them)."""
        from calcnb.ui.lesson import Quiz  # ipywidgets, only where a page shows exercises

        return Quiz(self.bank, self.exercises, seed, class_key=class_key)

    def widget(self, name: str) -> Any:
        """One of the lesson's own widgets (a class of its widgets module), by name."""
        if self.widgets is None:
            raise KeyError(message("catalogue.no_widgets", key=self.key))
        return getattr(self.widgets(), name)


def _add_lesson_words(module_name: str) -> None:
    """Register the words of the lesson package ``module_name`` (or of the package holding that module)."""
    module = import_module(module_name)
    package = module_name if hasattr(module, "__path__") else module.__package__
    if package and has_words(package):
        add_words(package)


def _folder_lessons() -> list[Lesson]:
    """The lessons of this package: each subfolder's ``LESSON``, its words registered from its ``lang/`` folder."""
    found = []
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg and module.name != WORDS_FOLDER:  # lang/ holds the words the lessons share
            name = f"{__name__}.{module.name}"
            found.append(import_module(name).LESSON)
            _add_lesson_words(name)
    return found


def _published_lessons(known: Iterable[Lesson]) -> list[Lesson]:
    """The lessons other installed packages publish; one that cannot be loaded is left out with a warning."""
    taken = {found.key for found in known}
    exercises = {exercise_id for found in known for exercise_id in found.bank}
    published = []
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
            if not isinstance(loaded, Lesson):
                raise TypeError(message("catalogue.not_a_lesson", found=type(loaded).__name__))
            clash = sorted((exercises & set(loaded.bank)) | ({loaded.key} & taken))
            if clash:
                raise ValueError(message("catalogue.clash", names=", ".join(clash)))
            _add_lesson_words(entry.module)
        except Exception as error:  # a broken plugin must not stop calcnb: say which and why, and go on
            warnings.warn(message("catalogue.plugin_failed", entry=entry.value, error=error), stacklevel=2)
            continue
        for language, said in loaded.messages.items():  # the older way, kept for plugins written before lang/
            add_messages(language, said)
        taken.add(loaded.key)
        exercises |= set(loaded.bank)
        published.append(loaded)
    return published


def discover() -> tuple[Lesson, ...]:
    """Every lesson, this package's and other packages', youngest first (then by key)."""
    own = _folder_lessons()
    return tuple(sorted([*own, *_published_lessons(own)], key=lambda found: (found.ages, found.key)))


add_words(__name__)  # the words every lesson shares (the list, ages, misconceptions), before any lesson is found

#: Every lesson, listed or not, youngest first.
ALL_LESSONS: tuple[Lesson, ...] = discover()
#: The lessons ``python -m calcnb lessons`` lists, youngest first (a lesson's number is its place here, from 1).
LESSONS: tuple[Lesson, ...] = tuple(found for found in ALL_LESSONS if found.listed)
#: Every exercise of every lesson, by identifier.
BANK: Bank = Bank(
    [kind for found in ALL_LESSONS for kind in found.kinds],
    [name for found in ALL_LESSONS for name in found.misconceptions],
)
#: Every misconception any lesson names.
MISCONCEPTIONS: tuple[str, ...] = BANK.misconceptions


def lesson(name: str) -> Lesson:
    """The lesson called ``name``: its key or its notebook's name (with or without ``.ipynb``).

    Raises KeyError saying which lessons there are.
    """
    wanted = str(name).removesuffix(".ipynb")
    for known in ALL_LESSONS:
        if wanted in (known.key, known.name):
            return known
    raise KeyError(message("catalogue.unknown", name=name, names=", ".join(known.key for known in LESSONS)))


#: The lesson a class view or summary follows when nothing says which (the one that says so, else the first).
DEFAULT_LESSON: Lesson = next((found for found in LESSONS if found.default), LESSONS[0])


def lesson_of(exercise_id: str) -> Lesson | None:
    """The lesson that asks ``exercise_id`` (the first one, youngest first), or None."""
    return next((known for known in ALL_LESSONS if exercise_id in known.exercises), None)


def lesson_for(exercise_ids: Iterable[str]) -> Lesson | None:
    """The lesson most of ``exercise_ids`` belong to (a class log's answers, say), or None when none does."""
    counts = Counter(found for exercise_id in exercise_ids if (found := lesson_of(exercise_id)) is not None)
    if not counts:
        return None
    return max(ALL_LESSONS, key=lambda known: counts[known])  # on a tie, the younger lesson


def lesson_index(notebooks: str = "notebooks") -> str:
    """The list ``python -m calcnb lessons`` prints: each lesson with its ages, length, command and teacher's notes
    (inside ``notebooks``: the folder the teacher opens them from)."""
    lines = [message("catalogue.heading"), ""]
    folder = "" if get_language() == "en" else f"{get_language()}/"  # the teacher's notes in the teacher's language
    for number, known in enumerate(LESSONS, start=1):
        teacher = known.teacher_notebook
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
                teacher=f"{notebooks}/{folder}{teacher}" if teacher else message("catalogue.no_teacher_notes"),
            )
        )
    return "\n".join(lines)
