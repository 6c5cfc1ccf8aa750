"""The lesson "Is the 80% true?" (ages 15–18): statistics with the game, on deals of the student's own.

Its exercises and the sample arithmetic (:mod:`.exercises`), the lab where a player plays the deals
(:mod:`.widgets`) and the class view's pooled sample (:mod:`.panel`); its words are in the catalogues.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from calcnb.lessons import Lesson
from calcnb.lessons.evidence.exercises import KINDS, MISCONCEPTIONS, ORDER


def _widgets() -> ModuleType:
    from calcnb.lessons.evidence import widgets

    return widgets


def _class_panel() -> Any:
    from calcnb.lessons.evidence.panel import EvidencePanel  # ipywidgets, only in the class view

    return EvidencePanel()


def _projector_panel(games: list[dict[str, Any]]) -> str:
    from calcnb.lessons.evidence.panel import projector_html

    return projector_html(games)


LESSON = Lesson(
    key="evidence",
    ages=(15, 18),
    minutes=50,
    kinds=KINDS,
    exercises=ORDER,
    misconceptions=MISCONCEPTIONS,
    widgets=_widgets,
    class_panel=_class_panel,
    projector_panel=_projector_panel,
    records_games=True,
)
