"""A page's outbox without any widget: checks and deals written in order and once each by its own thread, the
owner called back as the figures change, answers too fast kept out, and a log that cannot be written keeping
every check, in order, for the next try.

Every test taking ``location`` or ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from class_log_support import an_attempt, made_without_a_loop, unwritable

from calcnb.classlog.outbox import Outbox
from calcnb.classlog.store import RATE_LIMITS
from calcnb.exercises.items import Outcome

pytest_plugins = ["class_log_fixtures"]

T0 = 1_800_000_000.0


@dataclass(frozen=True)
class PlayedDeal:
    seed: int
    player: str
    won: bool
    score: int


def test_an_outbox_writes_in_order_once_each_and_tells_its_owner(log):
    told = []
    outbox = made_without_a_loop(lambda: Outbox(log, on_change=lambda: told.append(threading.current_thread().name)))
    assert outbox.record(an_attempt("clock", 0, "early")) and outbox.checks == ()  # not started: nothing kept
    log.join("ana")
    outbox.start("ana")
    answers = [f"answer {number}" for number in range(6)]
    for number, answer in enumerate(answers):
        assert outbox.record(an_attempt("clock", 0, answer, Outcome.WRONG, None, "en", T0 + 2 * number)) is True
    outbox.record_game(PlayedDeal(10_000_000, "Monte Carlo 32", True, 52))
    assert outbox.flush(timeout=30) is True
    assert (outbox.waiting, outbox.recorded, outbox.refused, outbox.games_recorded) == (0, 6, 0, 1)
    assert [row["answer"] for row in log.attempts_after(0)] == answers
    assert [(row["seed"], row["won"], row["score"]) for row in log.games("ana")] == [(10_000_000, True, 52)]
    assert [row["writer"] for row in log.writers()] == [outbox.writer_key]  # its health row, for the class view
    outbox.stop()
    assert log.count() == 6  # stopping writes nothing twice
    # told on the caller's thread for what it did, and from the saver thread (no loop here) for what it wrote
    assert told[0] == threading.current_thread().name and "calcnb-class-log" in told


def test_an_outbox_keeps_out_what_comes_too_fast(log):
    seconds, count = RATE_LIMITS[0]
    outbox = Outbox(log)
    outbox.start("bia")
    kept = [
        outbox.record(an_attempt("clock", 0, "1", timestamp=T0 + step * seconds / (2 * count)))
        for step in range(2 * count)
    ]
    assert kept == [True] * count + [False] * count and outbox.refused_here == outbox.refused == count
    assert outbox.flush(timeout=30) and log.count() == count
    outbox.stop()


def test_an_outbox_keeps_every_check_while_the_log_cannot_take_them(location):
    with unwritable("read_only", location) as log:
        told = []
        outbox = Outbox(log, on_change=lambda: told.append(outbox.waiting))
        outbox.start("ana")
        assert outbox.record(an_attempt("clock", 0, "first", timestamp=T0))
        assert outbox.flush(timeout=30) is False  # a write failed: the check waits
        assert outbox.record(an_attempt("clock", 0, "second", timestamp=T0 + 5))
        outbox.flush(timeout=30)
        assert outbox.waiting == 2 and [check.answer for check in outbox.checks] == ["first", "second"]
        assert outbox.error is not None and outbox.failures >= 2 and outbox.recorded == 0 and told
        outbox.stop()
