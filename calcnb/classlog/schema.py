"""The class log's schema, in one place: its tables, its version, and what may be stored in them.

Every table a class log has is declared here (:data:`METADATA`, versioned by :data:`SCHEMA_VERSION`), with the
limits of what a column keeps and the cleaning every text goes through before it is stored (:func:`clean_text`,
:func:`clean_nickname`, :func:`student_key`). Nothing here opens a database: :class:`calcnb.classlog.store.ClassLog`
does, and writes and reads the rows. Kept apart so the shape of a log, which every
version of calcnb must read the same, changes only here.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import sqlalchemy as sa

from calcnb.classlog.names import nickname_key, visible_nickname
from calcnb.exercises.items import Outcome
from calcnb.game.errors import quote
from calcnb.i18n import message

__all__ = [
    "ANSWER_MAX",
    "ATTEMPTS",
    "ATTEMPT_COLUMNS",
    "CLASS_KEY",
    "DISCUSSED",
    "DISCUSSED_COLUMNS",
    "FAILURE_MAX",
    "GAMES",
    "GAME_COLUMNS",
    "KEY_MAX",
    "METADATA",
    "NAME_MAX",
    "NICKNAME_MAX",
    "OUTCOME_MAX",
    "PACING",
    "SCHEMA_TABLE",
    "SCHEMA_VERSION",
    "STUDENTS",
    "WRITERS",
    "WRITER_MAX",
    "WRITES",
    "ClassLogError",
    "ClassLogMoved",
    "NicknameTaken",
    "clean_nickname",
    "clean_text",
    "row_outcome",
    "student_key",
]

#: Version of the schema below; a log written with a newer version is refused, never silently mixed, and an
#: older one is brought up to date when opened (version 1 had no ``outcome`` column, version 2 no ``nickname_key``,
#: version 3 no ``calcnb_discussed``, version 4 no ``calcnb_pacing``).
SCHEMA_VERSION = 5
#: Longest nickname kept, in characters.
NICKNAME_MAX = 40
#: Longest nickname key kept (:func:`student_key`): a character's key is at most 7 characters long (a Hangul
#: syllable's confusable skeleton), so the key of a nickname of :data:`NICKNAME_MAX` characters always fits.
KEY_MAX = 8 * NICKNAME_MAX
#: Longest answer kept, in characters (a typed answer is a few characters; anything longer is cut).
ANSWER_MAX = 200
#: Longest exercise identifier, variant, misconception name or language code kept.
NAME_MAX = 80
#: Longest outcome (one of :data:`calcnb.exercises.items.OUTCOMES`).
OUTCOME_MAX = 16
#: Length of a page's writer key (:meth:`ClassLog.record_keyed <calcnb.classlog.store.ClassLog.record_keyed>`).
WRITER_MAX = 32
#: Longest reason of a failed write kept in a writer's health row.
FAILURE_MAX = 200


class ClassLogError(ValueError):
    """A class log that cannot be used as asked (a bad location, another schema version, a bad nickname)."""


class ClassLogMoved(ClassLogError):
    """The SQLite file of the log was deleted or replaced since it was opened: nothing is written to it."""


class NicknameTaken(ClassLogError):
    """A new student's nickname is, or looks like, one someone has already joined under: ``nickname``, as stored.

    Raised by :meth:`ClassLog.join <calcnb.classlog.store.ClassLog.join>` when the log's unique nickname key
    refuses the row, so of two students joining under one nickname at the same instant only one joins.
    """

    def __init__(self, nickname: str) -> None:
        super().__init__(message("classroom.taken", nickname=nickname))
        self.nickname = nickname


# ---------------------------------------------------------------- the tables

METADATA = sa.MetaData()

SCHEMA_TABLE = sa.Table(
    "calcnb_schema",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),  # always 1: one row
    sa.Column("version", sa.Integer, nullable=False),
)

# One row per join. A student's first join holds the key of the nickname (student_key), unique in the log (a log
# is one class): two students can never both join under one nickname or two look-alikes, however close in time.
# A rejoin's row (a page closed or reloaded, the rejoin code typed) holds none: NULL, which UNIQUE lets repeat.
STUDENTS = sa.Table(
    "calcnb_students",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    sa.Column("joined_at", sa.Float, nullable=False),  # seconds since the epoch, UTC
    sa.Column("language", sa.String(NAME_MAX), nullable=False),
    sa.Column("nickname_key", sa.String(KEY_MAX), nullable=True),  # since version 3
    sa.Index("calcnb_students_once", "nickname_key", unique=True),
)

ATTEMPTS = sa.Table(
    "calcnb_attempts",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("recorded_at", sa.Float, nullable=False),  # seconds since the epoch, UTC
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    sa.Column("exercise_id", sa.String(NAME_MAX), nullable=False),
    sa.Column("variant", sa.String(NAME_MAX), nullable=False),
    sa.Column("answer", sa.String(ANSWER_MAX), nullable=False),
    sa.Column("correct", sa.Boolean, nullable=False),  # outcome == "right", kept for readers of version 1
    sa.Column("outcome", sa.String(OUTCOME_MAX), nullable=False),
    sa.Column("misconception", sa.String(NAME_MAX), nullable=True),
    sa.Column("language", sa.String(NAME_MAX), nullable=False),
    sa.Index("calcnb_attempts_by_student", "nickname", "recorded_at"),
)

# The class's secret (one row): the exercises' variants follow it and the nickname, so nobody can
# work out a student's answers from the nickname alone (calcnb.exercises.bank.Bank.variant_for).
CLASS_KEY = sa.Table(
    "calcnb_class_key",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),  # always 1: one row
    sa.Column("secret", sa.String(64), nullable=False),
)

# Every answer a page sends carries the page's writer key and its number, written in the answer's own
# transaction: a retry after a write whose outcome was unknown finds the key taken and writes nothing twice.
WRITES = sa.Table(
    "calcnb_writes",
    METADATA,
    sa.Column("writer", sa.String(WRITER_MAX), primary_key=True),
    sa.Column("sequence", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("attempt_id", sa.Integer, nullable=False),
)

# One row per page that records (a writer): its health, for the class view. Written when the log can be
# written; a row whose heartbeat stops, or that says answers are waiting, is a page whose answers do not arrive.
WRITERS = sa.Table(
    "calcnb_writers",
    METADATA,
    sa.Column("writer", sa.String(WRITER_MAX), primary_key=True),
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    sa.Column("waiting", sa.Integer, nullable=False),  # answers checked and not yet in the log
    sa.Column("written", sa.Integer, nullable=False),
    sa.Column("last_write", sa.Float, nullable=True),  # seconds since the epoch, UTC
    sa.Column("last_failure", sa.Float, nullable=True),
    sa.Column("failure", sa.String(FAILURE_MAX), nullable=True),
    sa.Column("heartbeat", sa.Float, nullable=False),
)

# The deals a lesson's player played for a student ("Is the 80% true?"): each deal's seed, the player (its
# name and setting), whether the engine's replay of its game was won, and its score. One row per student,
# deal and player (a retry writes nothing twice); the class view pools them (calcnb.lessons.evidence).
GAMES = sa.Table(
    "calcnb_games",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("recorded_at", sa.Float, nullable=False),  # seconds since the epoch, UTC
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("player", sa.String(NAME_MAX), nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    sa.UniqueConstraint("nickname", "seed", "player", name="calcnb_games_once"),
)

# The one answer the teacher put up on the projector to discuss (one row, or none: nothing is up). A copy of the
# answer's exercise, variant and text, never its nickname: the projector's server reads it and shows it to the class.
# Written only by the teacher's class view; every process that reads it sees the same answer.
DISCUSSED = sa.Table(
    "calcnb_discussed",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),  # always 1: one answer up at a time
    sa.Column("attempt_id", sa.Integer, nullable=False),  # the answer in calcnb_attempts it was copied from
    sa.Column("exercise_id", sa.String(NAME_MAX), nullable=False),
    sa.Column("variant", sa.String(NAME_MAX), nullable=False),
    sa.Column("answer", sa.String(ANSWER_MAX), nullable=False),
    sa.Column("shown_at", sa.Float, nullable=False),  # seconds since the epoch, UTC
)

#: The columns of the answer up for discussion, as :meth:`ClassLog.discussed
#: <calcnb.classlog.store.ClassLog.discussed>` gives them.
DISCUSSED_COLUMNS = ("attempt_id", "exercise_id", "variant", "answer", "shown_at")

# How far the class may go, set by the teacher's class view (one row, or none: every exercise, not paused). Every
# pupil's page reads it every few seconds, and a page opened late reads it first: up_to is the last exercise open
# (its number in the lesson, as on the pupils' screens; NULL: all), paused dims every page ("Eyes on the board").
PACING = sa.Table(
    "calcnb_pacing",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),  # always 1: one pacing for the class
    sa.Column("up_to", sa.Integer, nullable=True),
    sa.Column("paused", sa.Boolean, nullable=False),
    sa.Column("changed_at", sa.Float, nullable=False),  # seconds since the epoch, UTC
)

#: The columns of a game, in the order :meth:`ClassLog.games <calcnb.classlog.store.ClassLog.games>` gives them.
GAME_COLUMNS = ("recorded_at", "nickname", "seed", "player", "won", "score")

#: The columns of an attempt, in the order of the CSV export.
ATTEMPT_COLUMNS = (
    "recorded_at",
    "nickname",
    "exercise_id",
    "variant",
    "answer",
    "correct",
    "outcome",
    "misconception",
    "language",
)


def row_outcome(row: dict[str, Any]) -> Outcome:
    """The outcome of a row of :meth:`ClassLog.attempts <calcnb.classlog.store.ClassLog.attempts>`; a row without
    one (version 1) is read from what it kept.

    Version 1 logged an unreadable answer as wrong, with the misconception ``"unreadable"``, and never a reveal.

    >>> row_outcome({"outcome": "revealed", "correct": False}) is Outcome.REVEALED
    True
    >>> row_outcome({"correct": False, "misconception": "unreadable"})
    <Outcome.UNREADABLE: 'unreadable'>
    """
    outcome = row.get("outcome")
    if outcome:
        return Outcome(outcome)
    if row["correct"]:
        return Outcome.RIGHT
    return Outcome.UNREADABLE if row.get("misconception") == "unreadable" else Outcome.WRONG


# ---------------------------------------------------------------- text kept as text


def clean_text(text: object, limit: int) -> str:
    """``text`` as a string any database stores: cut to ``limit`` characters, NUL and lone surrogates replaced.

    Everything else (quotes, semicolons, markup, other control characters) is kept exactly:
    it is data, bound as a parameter, and escaped wherever it is shown.

    >>> clean_text("a\\x00b; DROP TABLE x", 9) == "a\\ufffdb; DROP"
    True
    """
    value = str(text)[:limit]
    # PostgreSQL text cannot hold NUL; UTF-8 cannot hold a lone surrogate (a browser can send one).
    return value.replace("\x00", "\ufffd").encode("utf-8", "replace").decode("utf-8")


def _readable(text: str) -> bool:
    """Has ``text`` a letter, digit, punctuation mark or symbol (anything but marks, separators and controls)?"""
    return any(unicodedata.category(char)[0] in "LNPS" and char != "\ufffd" for char in text)


def clean_nickname(nickname: object) -> str:
    """A nickname as stored: as it is seen (:func:`~calcnb.classlog.names.visible_nickname`), cut to
    :data:`NICKNAME_MAX` characters.

    Raises :class:`ClassLogError` when nothing readable is left: an empty nickname, one of spaces or control
    characters only, or one of characters a screen draws as nothing (a Hangul filler, a blank Braille pattern,
    a zero-width space), said so in words a student understands.
    """
    # kept as it is seen: no zero-width or bidirectional characters to hide in, full-width letters made plain
    value = clean_text(visible_nickname(nickname), NICKNAME_MAX).strip()
    if not _readable(value) or not nickname_key(value):
        typed = unicodedata.normalize("NFKC", str(nickname))
        if any(not char.isspace() and unicodedata.category(char) != "Cc" for char in typed):  # shows nothing
            raise ClassLogError(message("classroom.blank_nickname"))
        raise ClassLogError(message("classlog.bad_nickname", nickname=quote(nickname), limit=NICKNAME_MAX))
    return value


def student_key(nickname: object) -> str:
    """The key a student's first join keeps in the log (:data:`STUDENTS`): the cleaned nickname's
    :func:`~calcnb.classlog.names.nickname_key`, at most :data:`KEY_MAX` characters.

    Raises :class:`ClassLogError` as :func:`clean_nickname` does.

    >>> student_key(" ANA\\u3164 ") == student_key("\\u0430na") == "ana"
    True
    """
    return nickname_key(clean_nickname(nickname))[:KEY_MAX]
