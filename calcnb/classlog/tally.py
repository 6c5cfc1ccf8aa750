"""The class view's figures kept up to date answer by answer, so a reading of the log costs what is new in it.

A :class:`Tally` takes the checks of :meth:`ClassLog.attempts_after <calcnb.classlog.store.ClassLog.attempts_after>`
(each with its ``id``, in the order they were written) and keeps, per exercise and per student, what
:func:`~calcnb.classlog.readings.exercise_stats`, :func:`~calcnb.classlog.readings.class_status` and
:func:`~calcnb.classlog.readings.student_summaries` compute from every row: the same figures, in the same order.
Counts are sums and do not care about order; what does (where each student ended on each exercise, their
last answers judged) is folded in the order of the answers' times. A check that arrives after a later one
of the same student (two pages of one student, one of them sending answers that waited) makes that one
student's part be read again from the log, in order (``history``); everybody else's stays as it is.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from calcnb.classlog.readings import (
    JUDGED,
    OTHER,
    STUCK_AFTER,
    ClassStatus,
    ExerciseStats,
    StudentSummary,
    settle,
)
from calcnb.classlog.schema import row_outcome
from calcnb.exercises.items import Outcome

__all__ = ["Tally"]

Key = tuple[float, int]  # (recorded_at, id): the order of the full reading (ClassLog.attempts)


@dataclass
class _Student:
    """What depends on the order of one student's answers."""

    first: Key
    last: Key
    outcomes: dict[str, Outcome] = field(default_factory=dict)  # exercise -> where it ended (readings.settle)
    judged: deque = field(default_factory=deque)  # (outcome, exercise) of the last answers judged


class Tally:
    """The class's figures from every check seen so far; :meth:`add` the new ones, then read them.

    ``seen`` is the id of the last check taken in (give it to ``attempts_after``).
    """

    def __init__(self, stuck_after: int = STUCK_AFTER) -> None:
        self.stuck_after = stuck_after
        self.seen = 0
        self.checks = 0  # answers checked (Show answer is no answer)
        self._students: dict[str, _Student] = {}
        self._tried: dict[str, set[str]] = defaultdict(set)
        self._exercise_first: dict[str, Key] = {}
        self._answers: Counter[str] = Counter()
        self._unreadable: Counter[str] = Counter()
        self._wrong: dict[str, Counter[str]] = defaultdict(Counter)

    def add(self, rows: Iterable[dict[str, Any]], history: Callable[[str, int], list[dict[str, Any]]]) -> int:
        """Take in new checks (ids above :attr:`seen`, in id order); returns how many.

        ``history(nickname, up_to)`` reads one student's checks with ids up to ``up_to`` in the order of
        their times (:meth:`ClassLog.student_attempts <calcnb.classlog.store.ClassLog.student_attempts>`):
        asked for only when a check of that student arrives after a later one.
        """
        again: set[str] = set()
        taken = 0
        for row in rows:
            if row["id"] <= self.seen:
                continue  # read twice: counted once
            taken += 1
            self.seen = row["id"]
            name, exercise, outcome = row["nickname"], row["exercise_id"], row_outcome(row)
            key = (row["recorded_at"], row["id"])
            self._tried[exercise].add(name)
            if exercise not in self._exercise_first or key < self._exercise_first[exercise]:
                self._exercise_first[exercise] = key
            if outcome is not Outcome.REVEALED:
                self.checks += 1
                self._answers[exercise] += 1
                if outcome is Outcome.UNREADABLE:
                    self._unreadable[exercise] += 1
                elif outcome is Outcome.WRONG:
                    self._wrong[exercise][row["misconception"] or OTHER] += 1
            if name in again:
                continue
            student = self._students.get(name)
            if student is None:
                student = self._students[name] = self._new(key)
            elif key < student.last:  # an earlier answer arriving late: this student is read again, in order
                again.add(name)
                continue
            self._fold(student, key, exercise, outcome)
        for name in again:
            student = None
            for row in history(name, self.seen):
                key = (row["recorded_at"], row["id"])
                if student is None:
                    student = self._new(key)
                self._fold(student, key, row["exercise_id"], row_outcome(row))
            self._students[name] = student
        return taken

    def _new(self, key: Key) -> _Student:
        return _Student(first=key, last=key, judged=deque(maxlen=self.stuck_after))

    @staticmethod
    def _fold(student: _Student, key: Key, exercise: str, outcome: Outcome) -> None:
        student.last = key
        settle(student.outcomes, exercise, outcome)
        if outcome in JUDGED:
            student.judged.append((outcome, exercise))

    def _in_order(self) -> list[str]:
        """Nicknames in the order of their first answer, as a full reading meets them."""
        return sorted(self._students, key=lambda name: self._students[name].first)

    def _stuck(self) -> dict[str, str]:
        stuck = {}
        for name in self._in_order():
            last = list(self._students[name].judged)[-self.stuck_after :]
            if len(last) == self.stuck_after and all(outcome is Outcome.WRONG for outcome, _ in last):
                stuck[name] = last[-1][1]
        return stuck

    def stats(self, order: Sequence[str] = ()) -> list[ExerciseStats]:
        """What :func:`~calcnb.classlog.readings.exercise_stats` says of every check seen."""
        ended = Counter(
            (exercise, outcome) for student in self._students.values() for exercise, outcome in student.outcomes.items()
        )
        first_seen = sorted(self._tried, key=self._exercise_first.__getitem__)
        ids = [name for name in order if name in self._tried] + [name for name in first_seen if name not in order]
        return [
            ExerciseStats(
                name,
                tried=len(self._tried[name]),
                right=ended[name, Outcome.RIGHT],
                attempts=self._answers[name],
                revealed=ended[name, Outcome.REVEALED],
                unreadable=self._unreadable[name],
                misconceptions=dict(self._wrong[name]),
            )
            for name in ids
        ]

    def status(self, students: Iterable[str]) -> ClassStatus:
        """What :func:`~calcnb.classlog.readings.class_status` says of ``students`` and every check seen."""
        not_started = [name for name in dict.fromkeys(students) if name not in self._students]
        return ClassStatus(not_started, self._stuck(), len(self._students))

    def summaries(self, students: Iterable[str]) -> list[StudentSummary]:
        """What :func:`~calcnb.classlog.readings.student_summaries` says of ``students`` and every check seen."""
        stuck = self._stuck()
        names = list(dict.fromkeys([*students, *self._in_order()]))
        return [
            StudentSummary(name, dict(self._students[name].outcomes) if name in self._students else {}, stuck.get(name))
            for name in names
        ]
