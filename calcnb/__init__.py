"""calcnb: learn, teach and explore the patience game Calculation (Broken Intervals).

The rules engine is exact and light: :class:`Game` (a game in progress),
:class:`State` (an immutable position), :class:`Move` and :class:`Card`, and
the modular arithmetic of the four foundation orders. A Game or a State shows
itself as its board in a notebook (``_repr_png_``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from calcnb.core.pictures import use_painter
from calcnb.game.cards import Card, foundation_order, modular_inverse, next_rank, position_in_order, rank_name
from calcnb.game.engine import IllegalMove, InvalidMove, Move, State
from calcnb.game.errors import CalcnbError
from calcnb.game.game import Game
from calcnb.i18n import get_language, set_language

if TYPE_CHECKING:  # what the lazy names are, for type checkers, editors and autodoc; the same homes as _LAZY
    from calcnb.exercises import examples
    from calcnb.players.advice import advise, hint
    from calcnb.players.blind import Determinized
    from calcnb.players.coach import analyse, review
    from calcnb.players.ladder import FirstFit, KingsApart, MonteCarlo, RandomPlayer, ReverseNeed
    from calcnb.players.player import Player
    from calcnb.players.table import PlayerView
    from calcnb.solver import solve
    from calcnb.stats import wilson_interval
    from calcnb.studies.measure import StudyResult, study
    from calcnb.ui.board import draw
    from calcnb.ui.coach import CoachedBoard
    from calcnb.ui.explorer import OrderExplorer
    from calcnb.ui.play import PlayBoard, Stepper

__all__ = [
    "CalcnbError",
    "Card",
    "CoachedBoard",
    "Determinized",
    "FirstFit",
    "Game",
    "IllegalMove",
    "InvalidMove",
    "KingsApart",
    "MonteCarlo",
    "Move",
    "OrderExplorer",
    "PlayBoard",
    "Player",
    "PlayerView",
    "RandomPlayer",
    "ReverseNeed",
    "State",
    "Stepper",
    "StudyResult",
    "advise",
    "analyse",
    "draw",
    "examples",
    "foundation_order",
    "get_language",
    "hint",
    "modular_inverse",
    "next_rank",
    "position_in_order",
    "rank_name",
    "review",
    "set_language",
    "solve",
    "study",
    "wilson_interval",
]

# Loaded on first use, so ``import calcnb`` stays free of matplotlib, ipywidgets, the players and the solver:
# each name and its home, "module:attribute" (a module alone for a module). The players are the ladder of
# calcnb.players.registry; tests/test_exports.py checks this table against it and against the imports above.
_LAZY: dict[str, str] = {
    "PlayBoard": "calcnb.ui.play:PlayBoard",
    "Stepper": "calcnb.ui.play:Stepper",
    "CoachedBoard": "calcnb.ui.coach:CoachedBoard",
    "OrderExplorer": "calcnb.ui.explorer:OrderExplorer",
    "draw": "calcnb.ui.board:draw",
    "examples": "calcnb.exercises.examples",
    "advise": "calcnb.players.advice:advise",
    "hint": "calcnb.players.advice:hint",
    "Player": "calcnb.players.player:Player",
    "PlayerView": "calcnb.players.table:PlayerView",
    "RandomPlayer": "calcnb.players.ladder:RandomPlayer",
    "FirstFit": "calcnb.players.ladder:FirstFit",
    "ReverseNeed": "calcnb.players.ladder:ReverseNeed",
    "KingsApart": "calcnb.players.ladder:KingsApart",
    "MonteCarlo": "calcnb.players.ladder:MonteCarlo",
    "Determinized": "calcnb.players.blind:Determinized",
    "solve": "calcnb.solver:solve",
    "analyse": "calcnb.players.coach:analyse",
    "review": "calcnb.players.coach:review",
    "study": "calcnb.studies.measure:study",
    "StudyResult": "calcnb.studies.measure:StudyResult",
    "wilson_interval": "calcnb.stats:wilson_interval",
}


def __getattr__(name: str) -> object:
    """A name of :data:`_LAZY`, imported from its home the first time it is asked for, then kept."""
    if name not in _LAZY:
        raise AttributeError(f"module 'calcnb' has no attribute {name!r}")
    module, _, attribute = _LAZY[name].partition(":")
    value = importlib.import_module(module)
    if attribute:
        value = getattr(value, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def _board_png(game_or_state: object) -> bytes:
    """The board as PNG bytes (:func:`calcnb.ui.board.to_png`): loads the drawing layer when a game is first shown."""
    from calcnb.ui.board import to_png

    return to_png(game_or_state)


# The engine may not import the board, which sits far above it; its _repr_png_ asks calcnb.core.pictures,
# and the drawing is named here, from above. Nothing is drawn or imported until a game is shown.
use_painter(_board_png)
