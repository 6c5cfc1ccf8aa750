"""The rules' worked example (notebook ``03_worked_example``): its positions and the exercises asked on them.

A page of exercises with no teacher's notes of its own: served like a lesson, not listed among them.
"""

from __future__ import annotations

from calcnb.lessons import Lesson
from calcnb.lessons.rules_example.exercises import KINDS, MISCONCEPTIONS, POSITIONS

__all__ = ["LESSON", "POSITIONS"]

LESSON = Lesson(
    key="rules_example",
    ages=(12, 99),
    minutes=20,
    kinds=KINDS,
    exercises=tuple(kind.exercise_id for kind in KINDS),
    misconceptions=MISCONCEPTIONS,
    name="03_worked_example",
    teacher_notebook=None,
    listed=False,
)
