"""What the class view reads in the log's rows: each exercise across the class, who is stuck, how each student ended;
unreadable answers and Show answer each counted as what they are.

Every test taking ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import pytest
from class_log_support import a_class, record_checks

from calcnb.classlog.readings import OTHER, class_status, exercise_outcomes, exercise_stats, student_summaries
from calcnb.exercises.items import Outcome

pytest_plugins = ["class_log_fixtures"]


def test_exercise_stats_count_students_and_misconceptions(log):
    a_class(log)
    stats = {item.exercise_id: item for item in exercise_stats(log.attempts(), order=["last_card", "next_card"])}
    assert list(stats) == ["last_card", "next_card"]
    assert (stats["next_card"].tried, stats["next_card"].right, stats["next_card"].attempts) == (3, 2, 5)
    assert stats["next_card"].shares() == pytest.approx({"forgot_wraparound": 2 / 3, "zero_for_k": 1 / 3})
    assert (stats["last_card"].tried, stats["last_card"].right) == (2, 0)
    assert stats["last_card"].misconceptions == {"fifty_two_for_k": 1, OTHER: 1}


def test_class_status_finds_students_not_started_and_stuck(log):
    a_class(log)
    status = class_status(log.students(), log.attempts())
    assert status.not_started == ["duda"]
    assert status.stuck == {"bia": "last_card"}  # three wrong in a row
    assert status.working == 3


def test_an_unreadable_answer_is_logged_as_unreadable_never_wrong_and_never_makes_a_student_stuck(log):
    log.join("ana")
    record_checks(log, [("ana", "clock", text, Outcome.UNREADABLE, None) for text in ("?", "zzz", "", "no idea")])
    (row, *_) = log.attempts()
    assert (row["outcome"], row["correct"], row["misconception"]) == ("unreadable", False, None)
    (stats,) = exercise_stats(log.attempts())
    assert (stats.tried, stats.right, stats.attempts, stats.unreadable, stats.misconceptions) == (1, 0, 4, 4, {})
    assert class_status(log.students(), log.attempts()).stuck == {}
    # Unreadable answers between wrong ones neither count nor break the run: three judged wrong is stuck.
    record_checks(
        log,
        [("ana", "clock", "0", Outcome.WRONG, "zero_for_king"), ("ana", "clock", "?", Outcome.UNREADABLE, None)] * 3,
    )
    assert class_status(log.students(), log.attempts()).stuck == {"ana": "clock"}
    assert exercise_outcomes(log.attempts()) == {"ana": {"clock": Outcome.WRONG}}


def test_a_revealed_exercise_is_never_counted_right_even_when_answered_right_afterwards(log):
    record_checks(
        log,
        [
            ("ana", "clock", "0", Outcome.WRONG, "zero_for_king"),
            ("ana", "clock", "", Outcome.REVEALED, None),
            ("ana", "clock", "5", Outcome.RIGHT, None),  # typed after the answer was shown
            ("bia", "clock", "0", Outcome.WRONG, "zero_for_king"),
            ("bia", "clock", "5", Outcome.RIGHT, None),
            ("caio", "clock", "0", Outcome.WRONG, "zero_for_king"),
            ("caio", "clock", "", Outcome.REVEALED, None),
        ],
    )
    (stats,) = exercise_stats(log.attempts())
    assert (stats.tried, stats.right, stats.revealed, stats.attempts) == (3, 1, 2, 5)  # a reveal is not a check
    ended = exercise_outcomes(log.attempts())
    assert ended == {"ana": {"clock": "revealed"}, "bia": {"clock": "right"}, "caio": {"clock": "revealed"}}
    assert ended["ana"]["clock"] is Outcome.REVEALED  # the stored text read as its outcome
    summaries = {summary.nickname: summary for summary in student_summaries([], log.attempts())}
    assert summaries["ana"].count(Outcome.REVEALED) == 1 and summaries["ana"].count(Outcome.RIGHT) == 0
    assert class_status([], log.attempts()).stuck == {}  # two wrong answers each, a reveal is no answer


def test_the_summaries_take_the_students_once_even_as_a_generator(log):
    a_class(log)
    summaries = student_summaries((name for name in log.students()), log.attempts())
    assert [summary.nickname for summary in summaries] == ["ana", "bia", "caio", "duda"]
    assert [summary.stuck_on for summary in summaries] == [None, "last_card", None, None]
