"""Pacing: the teacher's class view sets how far the pupils' pages may go, and pauses them ("Eyes on the board");
each page reads it from the class log, keeps what was typed, and has no control of its own.

Every test taking ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import time

import ipywidgets as widgets
import pytest
from class_log_support import made_without_a_loop

import calcnb.classroom.recorder as recorder_module
from calcnb.classlog.schema import ClassLogError
from calcnb.classlog.store import ClassLog, Pacing, open_class_log
from calcnb.classroom.recorder import join_class
from calcnb.i18n import message
from calcnb.lessons import BANK, lesson
from calcnb.lessons.class_view import LessonClassView
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


def _page(location, nickname=None):
    """A pupil's page of the lesson: its quiz with the first three exercises shown, and its recorder."""
    quiz = Quiz(BANK, WRAPAROUND.exercises, seed="x")
    recorder = join_class(quiz, location)
    quiz.next(2)
    quiz.next(1)
    if nickname is not None:
        assert recorder.join(nickname)
    return quiz, recorder


def _open(quiz) -> list[bool]:
    return [not exercise.held for exercise in quiz.exercises]


def test_the_class_view_paces_every_page_a_late_one_included_and_pause_keeps_what_was_typed(location):
    teacher = LessonClassView(open_class_log(location))
    pages = [_page(location, name) for name in ("ana", "bia", "caio")]
    try:
        teacher.refresh()
        assert teacher.pacing == Pacing() and "every exercise" in teacher.pace_status.value
        teacher.pace_choice.value = 2  # "up to exercise 2", as the teacher picks it
        assert teacher.class_log.pacing() == Pacing(2, False)
        for quiz, recorder in pages:
            recorder.pace(recorder.class_log.pacing())  # what the page's own thread reads
            assert _open(quiz) == [True, True, False]
            assert "has not opened this exercise yet" in quiz.exercises[2].held_note.value
        late_quiz, late = _page(location)  # opened after the teacher paced the class, before joining
        pages.append((late_quiz, late))
        assert late.pacing == Pacing(2, False)
        late.pace(late.pacing)  # its exercises, shown after the page read the pacing, are held too
        assert _open(late_quiz) == [True, True, False]
        for index, (quiz, _recorder) in enumerate(pages):
            quiz.exercises[0].answer_box.value = f"typed {index}"
        teacher.pause_button.click()
        assert teacher.class_log.pacing() == Pacing(2, True) and teacher.pause_button.description == "Carry on"
        for index, (quiz, recorder) in enumerate(pages):
            recorder.pace(recorder.class_log.pacing())
            assert _open(quiz) == [False, False, False] and "Eyes on the board" in recorder.eyes.value
            assert quiz.exercises[0].check() is None  # a check sent all the same judges nothing
            assert quiz.exercises[0].answer_box.value == f"typed {index}"
        teacher.pause_button.click()
        teacher.pace_choice.value = 0  # every exercise
        assert teacher.class_log.pacing() == Pacing(None, False)
        for index, (quiz, recorder) in enumerate(pages):
            recorder.pace(recorder.class_log.pacing())
            assert _open(quiz) == [True, True, True] and recorder.eyes.value == ""
            assert quiz.exercises[0].answer_box.value == f"typed {index}"
    finally:
        for _quiz, recorder in pages:
            recorder.close()
        teacher.close()


def test_the_pages_own_thread_follows_the_pacing(location, monkeypatch):
    monkeypatch.setattr(recorder_module, "PACING_SECONDS", 0.05)
    quiz, recorder = made_without_a_loop(lambda: _page(location, "ana"))
    log = open_class_log(location)
    try:
        log.set_pacing(Pacing(1, False))
        deadline = time.monotonic() + 60
        while _open(quiz) != [True, False, False]:  # a wait for the thread, never a measure of its speed
            assert time.monotonic() < deadline, _open(quiz)
            time.sleep(0.02)
    finally:
        recorder.close()
        log.close()
    assert not recorder._pacer.is_alive()


def test_a_pages_first_readings_send_what_it_holds_again_and_others_only_what_changed(location, monkeypatch):
    # Voila's front end, connecting, drops a change sent while it fetches the widgets' states: a page held just then
    # would show its exercise open for ever, since only changes go to the page.
    sent = []
    send_state = widgets.Widget.send_state

    def recorded(widget, key=None):
        sent.append((widget, key))
        return send_state(widget, key)

    monkeypatch.setattr(widgets.Widget, "send_state", recorded)
    quiz, recorder = _page(location)
    try:
        recorder.pace(Pacing(2, True))
        sent.clear()
        recorder.pace(Pacing(2, True))
        assert sent == []  # nothing changed: nothing goes to the page
        recorder.pace(Pacing(2, True), send_again=True)
        again = {(widget, key) for widget, key in sent}
        for exercise in quiz.exercises:  # every exercise is held while paused, and the cover is sent too
            assert (exercise.answer_box, "disabled") in again and (exercise.held_note, "value") in again
        assert (recorder.eyes, "value") in again
        recorder.pace(Pacing(2, False))
        sent.clear()
        recorder.pace(Pacing(2, False), send_again=True)
        assert {widget for widget, _key in sent} == {  # only the held exercise's parts: no cover, no open exercise
            *(quiz.exercises[2].answer_box, quiz.exercises[2].check_button, quiz.exercises[2].show_button),
            *(quiz.exercises[2].held_note, quiz.exercises[2].held_note.layout),
        }
        assert _open(quiz) == [True, True, False]
    finally:
        recorder.close()


def test_the_pages_thread_ends_with_its_widgets(location, monkeypatch):
    """The class server closes a page's widgets when the page goes, not its recorder: the thread ends all the same."""
    monkeypatch.setattr(recorder_module, "PACING_SECONDS", 0.05)
    _quiz, recorder = _page(location, "ana")
    try:
        widgets.Widget.close(recorder)
        recorder._pacer.join(timeout=60)
        assert not recorder._pacer.is_alive()
    finally:
        recorder.close()


def test_a_pupils_page_has_no_control_over_the_pacing(location, monkeypatch):
    written = []
    monkeypatch.setattr(ClassLog, "set_pacing", lambda self, pacing, **_: written.append(pacing))
    _quiz, recorder = _page(location, "ana")
    try:
        controls = [
            widget for widget in _all_widgets(recorder) if isinstance(widget, widgets.ValueWidget | widgets.Button)
        ]
        words = {message("classview.pace.pause"), message("classview.pace.release"), message("classview.pace.label")}
        assert not any(getattr(widget, "description", "") in words for widget in controls)
        for widget in controls:  # every control of the page, pressed or changed: none sets the pacing
            if isinstance(widget, widgets.Button):
                widget.click()
        recorder.pace(Pacing(1, True))
        assert written == []
    finally:
        recorder.close()


def _all_widgets(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _all_widgets(child)


def test_pacing_is_refused_below_one_and_read_as_all_in_a_log_that_never_set_it(log):
    assert log.pacing() == Pacing()
    for bad in (0, -1, True, "2"):
        with pytest.raises(ClassLogError):
            log.set_pacing(Pacing(bad, False))
    assert Pacing(2).open(2) and not Pacing(2).open(3) and not Pacing(None, True).open(1) and Pacing().open(None)
