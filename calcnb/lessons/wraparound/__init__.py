"""The lesson "The clock of 13" (ages 12–15, notebook ``02_wraparound``): modular arithmetic with the game.

Its exercises are in :mod:`.exercises`; its page uses the general widgets (the order explorer, the
quiz); its words are in its own folder, ``lang/`` (English and Portuguese).
"""

from __future__ import annotations

from calcnb.lessons import Lesson
from calcnb.lessons.wraparound.exercises import KINDS, MISCONCEPTIONS, ORDER

LESSON = Lesson(
    key="wraparound",
    ages=(12, 15),
    minutes=45,
    kinds=KINDS,
    exercises=ORDER,
    misconceptions=MISCONCEPTIONS,
    name="02_wraparound",
    default=True,  # the lesson a class view shows before anything says which
)
