"""What is written into the class log and read back: a check with every field, each check once within the rate
limits, the games of "Is the 80% true?".

Every test taking ``location`` or ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import pytest
from class_log_support import an_attempt

from calcnb.classlog.schema import ClassLogError
from calcnb.classlog.store import ALREADY_WRITTEN, REFUSED, WRITTEN, within_rate
from calcnb.exercises.items import Outcome

pytest_plugins = ["class_log_fixtures"]


def test_a_check_is_recorded_with_every_field(log):
    log.join("ana", "pt", when=1_800_000_000.0)
    log.record("ana", an_attempt("last_card", "2-7", "52", Outcome.WRONG, "fifty_two_for_k", "pt", 1_800_000_001.5))
    (row,) = log.attempts()
    assert row == {
        "recorded_at": 1_800_000_001.5,
        "nickname": "ana",
        "exercise_id": "last_card",
        "variant": "2-7",
        "answer": "52",
        "correct": False,
        "outcome": "wrong",
        "misconception": "fifty_two_for_k",
        "language": "pt",
    }
    assert type(row["outcome"]) is str  # the text the log has always stored, read as it is
    assert log.students() == ["ana"]


def test_answers_that_waited_for_the_log_are_judged_by_when_they_were_checked(log):
    """A page that could not write for a minute sends its answers all at once: checked at a normal pace,
    none is refused."""
    written = [
        log.record_keyed("page", number + 1, "ana", an_attempt(timestamp=1_800_000_000.0 + 3 * number))
        for number in range(20)
    ]
    assert written == [WRITTEN] * 20
    assert log.record_keyed("page", 5, "ana", an_attempt(timestamp=1_800_000_012.0)) == ALREADY_WRITTEN
    burst = [log.record_keyed("other", n, "ana", an_attempt(timestamp=1_800_000_100.0)) for n in range(1, 8)]
    assert burst == [WRITTEN] * 5 + [REFUSED] * 2 and log.count() == 25


def test_the_rate_limits_count_answers_on_both_sides_of_a_late_one():
    assert within_rate([100.0, 100.2, 100.4, 100.6], 100.3)
    assert not within_rate([100.0, 100.2, 100.4, 100.6, 100.8], 100.3)  # five within a second of it
    assert not within_rate([95.5 + 0.4 * n for n in range(20)], 95.0)  # twenty within ten seconds after it


def test_a_students_games_are_kept_once_each_and_read_back_in_order(log):
    from calcnb.lessons.evidence.exercises import PLAYER_KEY

    log.join("Ana")
    assert log.record_game("Ana", 10_000_000, PLAYER_KEY, True, 52, when=1.0) == WRITTEN
    assert log.record_game("Ana", 10_000_001, PLAYER_KEY, False, 31, when=2.0) == WRITTEN
    # a retry of a write that went through writes nothing twice
    assert log.record_game("Ana", 10_000_000, PLAYER_KEY, True, 52, when=3.0) == ALREADY_WRITTEN
    # another student's same deal (a shared block) is their game: kept, and pooled once by the lesson
    assert log.record_game("Bruno", 10_000_000, PLAYER_KEY, True, 52, when=4.0) == WRITTEN
    games = log.games()
    assert [(game["nickname"], game["seed"], game["won"], game["score"]) for game in games] == [
        ("Ana", 10_000_000, True, 52),
        ("Ana", 10_000_001, False, 31),
        ("Bruno", 10_000_000, True, 52),
    ]
    assert [game["seed"] for game in log.games("Bruno")] == [10_000_000]
    with pytest.raises(ClassLogError, match="seed"):
        log.record_game("Ana", "10", PLAYER_KEY, True, 52)
    assert len(log.games()) == 3
