"""A small lesson, "Halves" (one exercise: half of an even number), for the tests that add a lesson to calcnb.

``tests/test_lesson_plugin.py`` publishes it from another package with its words in ``Lesson.messages``;
``tests/test_lesson_added.py`` adds it as a folder with its words in ``lang/``, inside calcnb and out.
"""

from __future__ import annotations

LESSON_SOURCE = '''"""Halves (ages 7–8): half of an even number, by splitting it in two."""

from calcnb.exercises.items import ExerciseKind
from calcnb.lessons import Lesson


def _half(variant, number):
    return dict(
        question=f"What is half of {number}?",
        kind="count",
        accepted=frozenset({number // 2}),
        solution=str(number // 2),
        why=f"{number} = {number // 2} + {number // 2}",
        wrong={number: ("doubled", "that is the number itself, not half of it.")},
        other="split the number into two equal parts.",
    )


LESSON = Lesson(
    key="halves",
    ages=(7, 8),
    minutes=15,
    kinds=(ExerciseKind("halves-even", ((8,), (12,), (20,)), _half),),
    exercises=("halves-even",),
    misconceptions=("doubled",),
    teacher_notebook=None,
)
'''

WORDS = {
    "en": {
        "catalogue.halves.title": "Halves",
        "catalogue.halves.summary": "Half of an even number, by splitting it in two.",
        "lessons.mis.doubled": "doubled instead of halved",
        "classview.ex.halves-even": "What is half of an even number?",
    },
    "pt": {
        "catalogue.halves.title": "Metades",
        "catalogue.halves.summary": "Metade de um número par, dividindo-o em dois.",
        "lessons.mis.doubled": "dobrou em vez de dividir",
        "classview.ex.halves-even": "Qual é a metade de um número par?",
    },
}


def lesson_source(*, messages: bool = False) -> str:
    """The lesson's ``__init__.py``; with ``messages``, its words inside the Lesson (the older way)."""
    if not messages:
        return LESSON_SOURCE
    return LESSON_SOURCE.replace(
        "    teacher_notebook=None,\n)", f"    teacher_notebook=None,\n    messages={WORDS!r},\n)"
    )
