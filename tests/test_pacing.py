"""Pacing: the teacher's class view sets how far the pupils' pages may go, and pauses them ("Eyes on the board");
each page reads it from the class log, keeps what was typed, and has no control of its own.

Every test taking ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

from calcnb.lessons import BANK, lesson
from calcnb.ui.lesson import Quiz

pytest_plugins = ["class_log_fixtures"]

WRAPAROUND = lesson("wraparound")


def test_a_held_exercise_keeps_what_was_typed_and_judges_nothing_until_let_go():
    quiz = Quiz(BANK, WRAPAROUND.exercises, seed="ana")
    (exercise,) = quiz.next().exercises
    exercise.answer_box.value = "4"
    exercise.hold("wait")
    assert exercise.held and exercise.answer_box.disabled and exercise.check_button.disabled
    assert "wait" in exercise.held_note.value and exercise.held_note.layout.display is None
    assert exercise.check() is None and exercise.attempts == 0 and exercise.feedback.value == ""
    assert exercise.answer_box.value == "4"
    exercise.hold(None)
    assert not exercise.held and exercise.held_note.layout.display == "none" and exercise.answer_box.value == "4"
    assert exercise.check() is not None and exercise.attempts == 1
