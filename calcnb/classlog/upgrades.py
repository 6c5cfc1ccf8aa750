"""Older class logs brought up to date: each step one function of a connection, inside the transaction that claims it.

:meth:`calcnb.classlog.store.ClassLog.prepare` runs :data:`UPGRADES` from the version it finds until
:data:`~calcnb.classlog.schema.SCHEMA_VERSION`. A log written by an older calcnb opens and reads unchanged.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import sqlalchemy as sa

from calcnb.classlog.schema import ATTEMPTS, DISCUSSED, OUTCOME_MAX, PACING, STUDENTS, ClassLogError, student_key
from calcnb.exercises.items import Outcome

__all__ = ["UPGRADES", "from_1", "from_2", "from_3", "from_4"]


def from_1(connection: sa.Connection) -> None:
    """Add the outcome column to a version-1 log, each row's outcome read as
    :func:`~calcnb.classlog.schema.row_outcome` reads it."""
    # NOT NULL needs a default for the rows already there; every row is then given its own.
    connection.execute(
        sa.text(
            f"ALTER TABLE {ATTEMPTS.name} ADD COLUMN outcome VARCHAR({OUTCOME_MAX})"
            f" NOT NULL DEFAULT '{Outcome.WRONG.value}'"
        )
    )
    connection.execute(sa.update(ATTEMPTS).where(ATTEMPTS.c.correct).values(outcome=Outcome.RIGHT.value))
    unreadable = sa.and_(~ATTEMPTS.c.correct, ATTEMPTS.c.misconception == "unreadable")
    connection.execute(sa.update(ATTEMPTS).where(unreadable).values(outcome=Outcome.UNREADABLE.value))


def from_2(connection: sa.Connection) -> None:
    """Add the nickname key and its unique index to a version-2 log; no row is taken away or changed otherwise.

    Each key is given to the first join under it, as :meth:`ClassLog.taken_as <calcnb.classlog.store.ClassLog.taken_as>`
    read the log before: the rows after it (rejoins, which version 2 also kept as rows, and a look-alike
    that older rules let join, such as "Ana" with a Hangul filler after "Ana") keep none, like a rejoin's
    row, and are read as they were. So is a nickname that shows nothing by today's rules: nobody can join
    under it again. Nothing here can be refused by the index, however the names fold.
    """
    column = STUDENTS.c.nickname_key
    kind = column.type.compile(dialect=connection.dialect)
    connection.execute(sa.text(f"ALTER TABLE {STUDENTS.name} ADD COLUMN {column.name} {kind}"))
    rows = connection.execute(sa.select(STUDENTS.c.id, STUDENTS.c.nickname).order_by(STUDENTS.c.id)).all()
    first: dict[str, int] = {}
    for row_id, nickname in rows:
        with contextlib.suppress(ClassLogError):  # shows nothing now: no key
            first.setdefault(student_key(nickname), row_id)
    if first:
        by_id = STUDENTS.c.id == sa.bindparam("row_id")
        connection.execute(
            sa.update(STUDENTS).where(by_id).values(nickname_key=sa.bindparam("key")),
            [{"row_id": row_id, "key": key} for key, row_id in first.items()],
        )
    for index in STUDENTS.indexes:
        index.create(connection)


def from_3(connection: sa.Connection) -> None:
    """Add the table of the answer up for discussion to a version-3 log, empty: nothing is up. No row of the log is
    changed. (Opening a log makes any table it lacks first, so the table may be there already: it is left as it is.)"""
    DISCUSSED.create(connection, checkfirst=True)


def from_4(connection: sa.Connection) -> None:
    """Add the table of the class's pacing to a version-4 log, empty: every exercise open, nothing paused. No row of
    the log is changed (the table may be there already, made when the log was opened: it is left as it is)."""
    PACING.create(connection, checkfirst=True)


#: The step that brings a log of each older schema version to the next one.
UPGRADES: dict[int, Callable[[sa.Connection], None]] = {1: from_1, 2: from_2, 3: from_3, 4: from_4}
