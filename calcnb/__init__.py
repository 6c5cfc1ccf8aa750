"""calcnb: learn, teach and explore the patience game Calculation (Broken Intervals).

The rules engine is exact and light: :class:`Game` (a game in progress),
:class:`State` (an immutable position), :class:`Move` and :class:`Card`, and
the modular arithmetic of the four foundation orders.
"""

from .cards import Card, foundation_order, modular_inverse, next_rank, position_in_order, rank_name
from .engine import IllegalMove, InvalidMove, Move, State
from .i18n import get_language, set_language
from .session import Game

__all__ = [
    "Card",
    "Game",
    "IllegalMove",
    "InvalidMove",
    "Move",
    "State",
    "foundation_order",
    "get_language",
    "modular_inverse",
    "next_rank",
    "position_in_order",
    "rank_name",
    "set_language",
]
