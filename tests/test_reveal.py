"""Show answer: only after an answer was read and judged wrong, every reveal told to the listeners, and the
teacher's switch (``--no-reveal``) that turns it off for a class, which the page then says."""

from __future__ import annotations

import dataclasses

import pytest

from calcnb import set_language
from calcnb.exercises.items import OUTCOMES, Attempt
from calcnb.lessons import BANK
from calcnb.serve.cli.environments import reveal_environment
from calcnb.serve.cli.parser import build_parser
from calcnb.ui.lesson import NO_REVEAL_ENV_VAR, Exercise, add_answer_listener, remove_answer_listener, reveal_allowed


@pytest.fixture
def heard():
    """Every attempt the exercises tell their listeners, while the test runs."""
    told: list[Attempt] = []
    add_answer_listener(told.append)
    yield told
    remove_answer_listener(told.append)


def _wrong(exercise: Exercise) -> str:
    """A readable wrong answer to the exercise's item."""
    top, step = BANK["next-wrap"].variants[exercise.item.variant]
    return str(top + step)


def _right(exercise: Exercise) -> str:
    return exercise.item.solution.split()[0]


def _check(exercise: Exercise, text: str) -> None:
    exercise.answer_box.value = text
    exercise.check_button.click()


def test_show_answer_is_refused_before_any_answer_and_after_empty_or_unreadable_ones(heard):
    exercise = Exercise(BANK["next-wrap"].item(0), reveal=True)
    for typed in (None, "", "   ", "²", "banana"):
        if typed is not None:
            _check(exercise, typed)
            assert exercise.last.correct is None
        assert exercise.show_button.layout.display == "none"
        exercise.show_button.click()  # a page can still send the hidden button's click
        assert (
            exercise.item.solution not in exercise.feedback.value and exercise.item.why not in exercise.feedback.value
        )
        assert "try an answer first" in exercise.feedback.value
        assert not exercise.revealed
    assert "revealed" not in [attempt.outcome for attempt in heard]
    assert [attempt.outcome for attempt in heard] == ["unreadable"] * 4


def test_show_answer_opens_after_a_wrong_answer_and_each_reveal_is_told(heard):
    exercise = Exercise(BANK["next-wrap"].item(2), reveal=True)
    _check(exercise, _wrong(exercise))
    assert exercise.show_button.layout.display is None and exercise.off_note.layout.display == "none"
    _check(exercise, "??")  # an unreadable answer afterwards does not close it again
    assert exercise.show_button.layout.display is None
    exercise.show_button.click()
    assert exercise.revealed and exercise.item.solution in exercise.feedback.value
    revealed = heard[-1]
    assert (revealed.exercise_id, revealed.variant, revealed.outcome, revealed.answer) == (
        "next-wrap",
        2,
        "revealed",
        "",
    )
    assert revealed.misconception is None and not revealed.correct
    exercise.show_button.click()
    assert [attempt.outcome for attempt in heard] == ["wrong", "unreadable", "revealed", "revealed"]  # each press
    _check(exercise, _right(exercise))
    assert heard[-1].outcome == "right" and exercise.show_button.layout.display == "none"
    said = exercise.feedback.value
    assert exercise.reveal() == "" and exercise.feedback.value == said  # after a right answer: nothing to show


def test_a_new_variant_closes_show_answer_again():
    exercise = Exercise(BANK["next-wrap"].item(0), reveal=True)
    _check(exercise, _wrong(exercise))
    exercise.set_item(BANK["next-wrap"].item(1))
    assert exercise.show_button.layout.display == "none" and not exercise.may_reveal()


def test_with_show_answer_off_the_exercise_says_so_and_never_shows_the_answer(heard, monkeypatch):
    monkeypatch.setenv(NO_REVEAL_ENV_VAR, "1")
    assert not reveal_allowed()
    exercise = Exercise(BANK["next-wrap"].item(0))
    assert exercise.off_note.layout.display == "none"  # nothing to say before an answer was judged wrong
    _check(exercise, _wrong(exercise))
    assert exercise.show_button.layout.display == "none"
    assert exercise.off_note.layout.display is None and "Show answer is off" in exercise.off_note.value
    assert exercise.reveal() == ""
    assert "Show answer is off" in exercise.feedback.value and exercise.item.solution not in exercise.feedback.value
    assert [attempt.outcome for attempt in heard] == ["wrong"]
    set_language("pt")
    assert "Mostrar resposta está desligado" in Exercise(BANK["next-wrap"].item(0)).off_note.value


@pytest.mark.parametrize(("value", "allowed"), [("", True), ("0", True), ("1", False), ("yes", False)])
def test_the_switch_is_read_from_the_environment(monkeypatch, value, allowed):
    monkeypatch.setenv(NO_REVEAL_ENV_VAR, value)
    assert reveal_allowed() is allowed
    monkeypatch.delenv(NO_REVEAL_ENV_VAR)
    assert reveal_allowed()


def test_the_app_option_turns_show_answer_off_in_the_kernels(capsys):
    arguments = build_parser().parse_args(["app", "02_wraparound", "--no-reveal"])
    assert arguments.no_reveal
    assert not build_parser().parse_args(["app", "02_wraparound"]).no_reveal
    left_over = {NO_REVEAL_ENV_VAR: "1", "HOME": "/home/x"}
    assert reveal_environment(left_over, reveal=True) == {"HOME": "/home/x"}  # a value left in the shell: on
    assert reveal_environment({}, reveal=False) == {NO_REVEAL_ENV_VAR: "1"}
    assert "Show answer is off" in capsys.readouterr().out


def test_an_attempt_has_one_of_four_outcomes_and_correct_follows_it():
    attempt = Attempt("clock", 0, "5", "right", None, "en", 0.0)
    assert attempt.correct and OUTCOMES == ("right", "wrong", "unreadable", "revealed")
    for outcome in ("wrong", "unreadable", "revealed"):
        assert not dataclasses.replace(attempt, outcome=outcome).correct
    with pytest.raises(ValueError, match="outcome"):
        dataclasses.replace(attempt, outcome="maybe")
    assert "correct" not in {field.name for field in dataclasses.fields(Attempt)}  # one home: the outcome
