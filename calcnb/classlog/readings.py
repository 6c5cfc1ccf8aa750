"""What the class view reads in the class log's rows: how each exercise went, who is stuck, how each student ended.

Plain functions of the rows :meth:`ClassLog.attempts <calcnb.classlog.store.ClassLog.attempts>` gives (oldest
first), with no database and no widget, so they are the figures' one definition: the class view's
:class:`~calcnb.classlog.tally.Tally` keeps the same figures answer by answer and is tested against them,
and the end-of-lesson summary (:mod:`calcnb.classlog.summary`) prints them.

>>> rows = [{"nickname": "ana", "exercise_id": "clock", "outcome": outcome, "misconception": None, "correct": False}
...         for outcome in ("wrong", "revealed", "right")]
>>> exercise_outcomes(rows)["ana"]["clock"]
<Outcome.REVEALED: 'revealed'>
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from calcnb.classlog.schema import row_outcome
from calcnb.exercises.items import Outcome

__all__ = [
    "JUDGED",
    "OTHER",
    "STUCK_AFTER",
    "ClassStatus",
    "ExerciseStats",
    "StudentSummary",
    "class_status",
    "exercise_outcomes",
    "exercise_stats",
    "settle",
    "student_summaries",
]

#: Three wrong answers in a row (unreadable ones aside) and a student counts as stuck.
STUCK_AFTER = 3
#: The outcomes that are answers judged right or wrong: the only ones "stuck" counts.
JUDGED = (Outcome.RIGHT, Outcome.WRONG)
#: The name a wrong check without a named misconception is counted under.
OTHER = "other"


def exercise_outcomes(rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, Outcome]]:
    """Where each student ended on each exercise they tried: nickname -> exercise -> outcome.

    From the rows of :meth:`ClassLog.attempts <calcnb.classlog.store.ClassLog.attempts>` (oldest first). Whichever
    came first of a right answer and Show answer decides: an exercise whose answer was shown is
    :attr:`~Outcome.REVEALED`, even if the right answer was typed afterwards. Otherwise :attr:`~Outcome.WRONG`
    if any answer was judged wrong, else :attr:`~Outcome.UNREADABLE`.
    """
    seen: dict[str, dict[str, Outcome]] = defaultdict(dict)
    for row in rows:
        settle(seen[row["nickname"]], row["exercise_id"], row_outcome(row))
    return dict(seen)


def settle(mine: dict[str, Outcome], exercise: str, outcome: Outcome) -> None:
    """One student's next check of ``exercise`` folded into ``mine`` (exercise -> outcome), as
    :func:`exercise_outcomes` reads them: a right answer or Show answer settles it; unreadable never undoes wrong."""
    before = mine.get(exercise)
    if before in (Outcome.RIGHT, Outcome.REVEALED):
        return  # settled
    if before == Outcome.WRONG and outcome == Outcome.UNREADABLE:
        return
    mine[exercise] = outcome


@dataclass(frozen=True)
class ExerciseStats:
    """One exercise across the class: who tried it, who got it right, whose answer was shown, the wrong ideas seen."""

    exercise_id: str
    tried: int  # students who checked at least one answer
    right: int  # students with a right answer before any Show answer
    attempts: int  # checks (right, wrong and unreadable; Show answer is not a check)
    revealed: int = 0  # students who pressed Show answer before any right answer
    unreadable: int = 0  # checks whose answer could not be read (never counted as wrong)
    misconceptions: dict[str, int] = field(default_factory=dict)  # wrong checks by misconception name

    def shares(self) -> dict[str, float]:
        """Each misconception's share of the wrong checks (0..1), largest first."""
        total = sum(self.misconceptions.values())
        ranked = sorted(self.misconceptions.items(), key=lambda item: (-item[1], item[0]))
        return {name: count / total for name, count in ranked} if total else {}


def exercise_stats(rows: Iterable[dict[str, Any]], order: Sequence[str] = ()) -> list[ExerciseStats]:
    """Per exercise, from the rows of :meth:`ClassLog.attempts <calcnb.classlog.store.ClassLog.attempts>`: in
    ``order`` first, then as first seen."""
    rows = list(rows)
    tried: dict[str, set[str]] = defaultdict(set)
    checks: Counter[str] = Counter()
    unreadable: Counter[str] = Counter()
    wrong: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        exercise, outcome = row["exercise_id"], row_outcome(row)
        tried[exercise].add(row["nickname"])
        if outcome is Outcome.REVEALED:
            continue
        checks[exercise] += 1
        if outcome is Outcome.UNREADABLE:
            unreadable[exercise] += 1
        elif outcome is Outcome.WRONG:
            wrong[exercise][row["misconception"] or OTHER] += 1
    ended = Counter(
        (exercise, outcome) for mine in exercise_outcomes(rows).values() for exercise, outcome in mine.items()
    )
    ids = [name for name in order if name in tried] + [name for name in tried if name not in order]
    return [
        ExerciseStats(
            name,
            tried=len(tried[name]),
            right=ended[name, Outcome.RIGHT],
            attempts=checks[name],
            revealed=ended[name, Outcome.REVEALED],
            unreadable=unreadable[name],
            misconceptions=dict(wrong[name]),
        )
        for name in ids
    ]


@dataclass(frozen=True)
class ClassStatus:
    """Who needs the teacher: students who joined but checked nothing, and students stuck on an exercise."""

    not_started: list[str]
    stuck: dict[str, str]  # nickname -> the exercise of their last wrong answer
    working: int  # students with at least one check


def class_status(
    students: Iterable[str], rows: Iterable[dict[str, Any]], stuck_after: int = STUCK_AFTER
) -> ClassStatus:
    """Who has not started and who is stuck, from the log's rows.

    Stuck: the last ``stuck_after`` answers judged (right or wrong) all wrong. An unreadable answer is
    not judged, and Show answer is not an answer: neither counts, either way.
    """
    history: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:  # oldest first
        history[row["nickname"]].append(row)
    stuck = {}
    for name, checks in history.items():
        judged = [check for check in checks if row_outcome(check) in JUDGED]
        last = judged[-stuck_after:]
        if len(last) == stuck_after and all(row_outcome(check) is Outcome.WRONG for check in last):
            stuck[name] = last[-1]["exercise_id"]
    not_started = [name for name in dict.fromkeys(students) if name not in history]
    return ClassStatus(not_started, stuck, len(history))


@dataclass(frozen=True)
class StudentSummary:
    """One student at the end of the lesson: how many exercises ended each way, and where they are stuck."""

    nickname: str
    outcomes: dict[str, Outcome]  # exercise -> outcome (see exercise_outcomes); exercises not tried are absent
    stuck_on: str | None  # the exercise of the last wrong answer, when stuck (see class_status)

    def count(self, outcome: Outcome) -> int:
        """How many exercises ended with ``outcome`` (one of :data:`calcnb.exercises.items.OUTCOMES`)."""
        return sum(1 for ended in self.outcomes.values() if ended == outcome)


def student_summaries(
    students: Iterable[str], rows: Iterable[dict[str, Any]], stuck_after: int = STUCK_AFTER
) -> list[StudentSummary]:
    """The end-of-lesson summary: every student who joined or answered, in the order they joined."""
    rows = list(rows)
    students = list(students)
    ended = exercise_outcomes(rows)
    status = class_status(students, rows, stuck_after)
    names = list(dict.fromkeys([*students, *(row["nickname"] for row in rows)]))
    return [StudentSummary(name, ended.get(name, {}), status.stuck.get(name)) for name in names]
