"""Are the students' answers reaching the class log? Each student's pages, as their health rows say.

Every page that records writes a health row into the log (:meth:`ClassLog.report
<calcnb.classroom.store.ClassLog.report>`): answers waiting on the page, answers written, its last write and
failure, and a heartbeat. :func:`student_health` sums a student's pages and says whose answers are not
arriving, so the class view can say it loudly (:func:`calcnb.classroom.view.health_html` draws the table).
Kept apart from the drawing: it is the one rule for "not reaching the log", tested without widgets.

>>> now = 1000.0
>>> row = dict(writer="p", nickname="ana", waiting=2, written=1, last_write=900.0, last_failure=None, failure=None)
>>> [item.stuck for item in student_health([dict(row, heartbeat=990.0)], now)]
[False]
>>> [item.stuck for item in student_health([dict(row, heartbeat=900.0)], now)]  # quiet for 100 s, answers waiting
[True]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["QUIET_AFTER", "StudentHealth", "in_class_order", "student_health"]

#: Seconds without a word from a page that has answers waiting before the view says they are not arriving
#: (a page reports at least every :data:`calcnb.classroom.saving.HEARTBEAT` seconds while it can).
QUIET_AFTER = 45.0


@dataclass(frozen=True)
class StudentHealth:
    """One student's pages, as their health rows in the log say: answers waiting, the last write and failure."""

    nickname: str
    waiting: int
    written: int
    last_write: float | None
    last_failure: float | None
    failure: str | None
    heard: float  # the last word from any of the student's pages (seconds since the epoch)
    stuck: bool  # answers wait and are not arriving: a failure since the last write, or the page fell quiet


def student_health(writers: Sequence[dict[str, Any]], now: float | None = None) -> list[StudentHealth]:
    """Each student's pages (:meth:`ClassLog.writers <calcnb.classroom.store.ClassLog.writers>`) summed up.

    A page's answers are not arriving when some wait and its last failure is newer than its last write,
    or when it has not been heard from for :data:`QUIET_AFTER` seconds.
    """
    now = time.time() if now is None else now
    pages: dict[str, list[dict[str, Any]]] = {}
    for row in writers:
        pages.setdefault(row["nickname"], []).append(row)
    found = []
    for name, rows in pages.items():
        stuck = any(
            row["waiting"]
            and (
                (row["last_failure"] is not None and row["last_failure"] >= (row["last_write"] or 0))
                or now - row["heartbeat"] > QUIET_AFTER
            )
            for row in rows
        )
        failed = max(rows, key=lambda row: row["last_failure"] or 0)
        found.append(
            StudentHealth(
                name,
                waiting=sum(row["waiting"] for row in rows),
                written=sum(row["written"] for row in rows),
                last_write=max((row["last_write"] for row in rows if row["last_write"]), default=None),
                last_failure=failed["last_failure"],
                failure=failed["failure"] if failed["last_failure"] else None,
                heard=max(row["heartbeat"] for row in rows),
                stuck=stuck,
            )
        )
    return found


def in_class_order(health: Sequence[StudentHealth], students: Sequence[str]) -> list[StudentHealth]:
    """In the order the students joined (pages of nicknames that never joined last)."""
    rank = {name: number for number, name in enumerate(dict.fromkeys(students))}
    return sorted(health, key=lambda item: rank.get(item.nickname, len(rank)))
