"""What an open class log reads back: the checks, the students, the games and the pages' health, as plain rows.

:class:`LogQueries` is the reading half of :class:`calcnb.classlog.store.ClassLog`: each
method is one query of the tables of :mod:`calcnb.classlog.schema` on the log's engine, and hands back
dicts keyed by column names, oldest first. What the class view makes of the rows is worked out elsewhere
(:mod:`calcnb.classlog.readings`, :mod:`calcnb.classlog.tally`), without a database.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from calcnb.classlog.schema import (
    ATTEMPT_COLUMNS,
    ATTEMPTS,
    GAME_COLUMNS,
    GAMES,
    STUDENTS,
    WRITERS,
    clean_nickname,
    student_key,
)

__all__ = ["LogQueries"]


class LogQueries:
    """The reads of a class log; mixed into :class:`~calcnb.classlog.store.ClassLog`, which gives the ``engine``."""

    engine: Engine

    def _read(self, query: sa.Select) -> list[dict[str, Any]]:
        with self.engine.connect() as connection:
            return [dict(row._mapping) for row in connection.execute(query)]

    def attempts(self) -> list[dict[str, Any]]:
        """Every recorded check, oldest first, as dicts keyed by :data:`~calcnb.classlog.schema.ATTEMPT_COLUMNS`."""
        columns = [ATTEMPTS.c[name] for name in ATTEMPT_COLUMNS]
        return self._read(sa.select(*columns).order_by(ATTEMPTS.c.recorded_at, ATTEMPTS.c.id))

    def attempts_after(self, after: int = 0) -> list[dict[str, Any]]:
        """The checks recorded since the one numbered ``after`` (0: all), in the order they were written,
        each with its ``id`` besides :data:`~calcnb.classlog.schema.ATTEMPT_COLUMNS`: what a reader that saw up
        to ``after`` has not seen.

        Answers are numbered in the order their transactions commit (see
        :meth:`ClassLog.record_keyed <calcnb.classlog.store.ClassLog.record_keyed>`), so no answer can turn up
        later with a smaller number.
        """
        columns = [ATTEMPTS.c.id, *(ATTEMPTS.c[name] for name in ATTEMPT_COLUMNS)]
        return self._read(sa.select(*columns).where(ATTEMPTS.c.id > after).order_by(ATTEMPTS.c.id))

    def student_attempts(self, nickname: str, up_to: int) -> list[dict[str, Any]]:
        """One student's checks numbered up to ``up_to``, oldest first (as :meth:`attempts` orders them), with ids."""
        columns = [ATTEMPTS.c.id, *(ATTEMPTS.c[name] for name in ATTEMPT_COLUMNS)]
        query = (
            sa.select(*columns)
            .where(ATTEMPTS.c.nickname == nickname, ATTEMPTS.c.id <= up_to)
            .order_by(ATTEMPTS.c.recorded_at, ATTEMPTS.c.id)
        )
        return self._read(query)

    def count(self) -> int:
        """How many checks are recorded."""
        with self.engine.connect() as connection:
            return connection.execute(sa.select(sa.func.count()).select_from(ATTEMPTS)).scalar_one()

    def students(self) -> list[str]:
        """The nicknames of everyone who joined, in the order they joined (each once)."""
        query = sa.select(STUDENTS.c.nickname).order_by(STUDENTS.c.joined_at, STUDENTS.c.id)
        with self.engine.connect() as connection:
            return list(dict.fromkeys(connection.execute(query).scalars()))

    def taken_as(self, nickname: str) -> str | None:
        """The nickname someone already joined under that ``nickname`` is, or looks like; None if it is free.

        Nicknames are compared by their key, kept with each student's first join
        (:func:`~calcnb.classlog.schema.student_key`): "Ana", "ana", a Cyrillic "аna" and "Ana" with an invisible
        character are one nickname, so nobody can pass for another student with a look-alike.
        """
        query = sa.select(STUDENTS.c.nickname).where(STUDENTS.c.nickname_key == student_key(nickname))
        with self.engine.connect() as connection:
            return connection.execute(query).scalar_one_or_none()

    def has_joined(self, nickname: str) -> bool:
        """Has someone already joined the class under ``nickname``, or under a nickname that looks the same?"""
        return self.taken_as(nickname) is not None

    def games(self, nickname: str | None = None) -> list[dict[str, Any]]:
        """Every recorded game (only ``nickname``'s, when given), in the order written, as dicts keyed by
        :data:`~calcnb.classlog.schema.GAME_COLUMNS`."""
        query = sa.select(*(GAMES.c[name] for name in GAME_COLUMNS)).order_by(GAMES.c.id)
        if nickname is not None:
            query = query.where(GAMES.c.nickname == clean_nickname(nickname))
        return self._read(query)

    def writers(self) -> list[dict[str, Any]]:
        """The health row of every page that recorded, oldest heartbeat first
        (see :meth:`ClassLog.report <calcnb.classlog.store.ClassLog.report>`)."""
        return self._read(sa.select(WRITERS).order_by(WRITERS.c.heartbeat, WRITERS.c.writer))
