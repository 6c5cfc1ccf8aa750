"""The lesson "Counting in steps" (ages 9–11): counting in ones, twos, threes and fours round the clock of 13 cards.

Its exercises (:mod:`.exercises`), the clock to click (:mod:`.widgets`) and the clock drawn on its
worksheet (:mod:`.worksheet`); its words are in its own folder, ``lang/`` (English and Portuguese).
"""

from __future__ import annotations

from types import ModuleType

from calcnb.lessons import Lesson
from calcnb.lessons.counting.exercises import KINDS, MISCONCEPTIONS, ORDER
from calcnb.lessons.counting.worksheet import draw_clock


def _widgets() -> ModuleType:
    from calcnb.lessons.counting import widgets

    return widgets


LESSON = Lesson(
    key="counting",
    ages=(9, 11),
    minutes=40,
    kinds=KINDS,
    exercises=ORDER,
    misconceptions=MISCONCEPTIONS,
    widgets=_widgets,
    draw_on_worksheet=draw_clock,
)
