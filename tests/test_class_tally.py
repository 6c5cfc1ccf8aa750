"""The class view reading only what is new in the log: its tally says what a full reading of every row says.

Every test taking ``location`` or ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import random

import pytest
from class_log_support import VIEWED, a_class, an_attempt, figures

from calcnb.classlog.readings import class_status, exercise_stats, student_summaries
from calcnb.classlog.schema import row_outcome
from calcnb.classlog.store import open_class_log
from calcnb.classlog.tally import Tally
from calcnb.classroom.view import ClassView
from calcnb.exercises.items import OUTCOMES, Outcome

pytest_plugins = ["class_log_fixtures"]


def _random_class(log, rng: random.Random, rows: int, view=None) -> None:
    """``rows`` random checks into ``log`` (reveals, unreadable answers, rejoins, students who never joined,
    equal times, and pages whose answers arrive after later ones), reading ``view`` now and then."""
    names = ["ana", "bia", "caio", "duda", "eva", "fay", "gil"]
    exercises = ["next-wrap", "clock", "inverse", "zz-unknown", "aa-unknown", "visits"]
    wrong_ideas = [None, "no_wraparound", "off_by_one", "zero_for_k"]
    outcomes = [Outcome.RIGHT, *[Outcome.WRONG] * 3, Outcome.UNREADABLE, Outcome.REVEALED]
    assert set(outcomes) == set(OUTCOMES)
    clock = 1_800_000_000.0
    for _ in range(rows):
        name = rng.choice(names)
        if rng.random() < 0.05:
            log.join(rng.choice(names))  # a join, or a rejoin under a nickname already there
        clock += rng.choice([0.0, 0.0, 0.5, 1.0, 3.0])  # equal times too: the id breaks the tie
        late = rng.random() < 0.15  # a page's answer that waited: checked before answers already in the log
        when = clock - rng.choice([1.0, 4.0, 30.0]) if late else clock
        outcome = rng.choice(outcomes)
        misconception = rng.choice(wrong_ideas) if outcome is Outcome.WRONG else None
        answer = "" if outcome is Outcome.REVEALED else str(rng.randrange(15))
        log.record(name, an_attempt(rng.choice(exercises), 0, answer, outcome, misconception, "en", when))
        if view is not None and rng.random() < 0.2:
            assert view.refresh()


# One random class in the fast tier; three more (the last one larger) in the full run.
@pytest.mark.parametrize("seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 4))])
def test_the_class_view_reading_only_new_answers_says_what_a_full_reading_says(location, seed):
    """Read after every few answers, the view's figures (in the same order) are those of a view that reads
    the whole log at once, and those the full functions compute from every row."""
    rng = random.Random(seed)
    log = open_class_log(location)
    order = ["clock", "next-wrap", "visits", "last-card"]
    live = ClassView(log, order=order, bank=VIEWED["bank"])
    assert live.refresh()
    _random_class(log, rng, 120 if seed < 3 else 300, view=live)
    assert live.refresh()
    fresh = ClassView(open_class_log(location), order=order, bank=VIEWED["bank"])
    assert fresh.refresh()
    assert figures(live) == figures(fresh)
    rows, students = log.attempts(), log.students()
    tally = Tally()
    tally.add(log.attempts_after(0), log.student_attempts)
    assert live.tally.stats(order) == exercise_stats(rows, order) == tally.stats(order)
    full = class_status(students, rows)
    for status in (live.tally.status(students), tally.status(students)):
        assert status == full and list(status.stuck) == list(full.stuck)  # the same students, in the same order
    summaries = student_summaries(students, rows)
    assert live.tally.summaries(students) == summaries
    assert [list(item.outcomes) for item in live.tally.summaries(students)] == [list(s.outcomes) for s in summaries]
    assert live.tally.checks == sum(1 for row in rows if row_outcome(row) is not Outcome.REVEALED)
    live.close()
    fresh.close()


def test_the_class_view_reads_only_the_answers_written_since_its_last_reading(log):
    a_class(log)
    view = ClassView(log, **VIEWED)
    asked = []
    reading = log.attempts_after
    log.attempts_after = lambda after: asked.append(after) or reading(after)
    assert view.refresh()
    log.record("ana", an_attempt("clock", 1, "5", Outcome.RIGHT, None, "en", 1_800_000_100.0))
    assert view.refresh() and view.refresh()
    ids = [row["id"] for row in reading(0)]  # numbered in the order written (PostgreSQL may skip numbers)
    assert asked == [0, ids[6], ids[7]] and view.tally.checks == 8
