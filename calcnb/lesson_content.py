"""The lesson's pure content: what a check of an exercise says and records (no widgets here).

:class:`Feedback` is a judge's verdict on one typed answer; :class:`Attempt` is the record of one
check, handed to every answer listener (see :func:`calcnb.lessons.add_answer_listener`), for
example to gather a class's answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["Attempt", "Feedback"]


class Feedback(NamedTuple):
    """What a check says: ``correct`` is True, False, or None when the answer could not be read.

    ``misconception`` names the wrong idea a wrong answer shows (an identifier such as
    ``"off_by_one"``), or is None.
    """

    correct: bool | None
    text: str
    misconception: str | None = None


@dataclass(frozen=True)
class Attempt:
    """One check of an exercise: which exercise and variant, what was typed, and the verdict.

    ``correct`` is False for an answer that could not be read (``misconception`` is then
    ``"unreadable"``); ``language`` is the language the student saw; ``timestamp`` is seconds
    since the epoch (:func:`time.time`).
    """

    exercise_id: str
    variant: int | str
    answer: str
    correct: bool
    misconception: str | None
    language: str
    timestamp: float
