"""How a game shows itself as a picture in a notebook, while the engine never imports the drawing.

``Game._repr_png_`` and ``State._repr_png_`` (:mod:`calcnb.game`) ask :func:`picture` for their PNG, and a layer
above says once which function draws it (:func:`use_painter`; the front door, :mod:`calcnb`, gives the board of
:mod:`calcnb.ui.board`). The engine sits far below the board and may not import it, not even by its name, so
the edge points down: the drawing layer is loaded by the painter, when a notebook first shows a game. Without
a painter a game has no picture, and shows as its text.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Painter", "picture", "use_painter"]

#: A function that draws a Game or a State as PNG bytes.
Painter = Callable[[object], bytes]

_painter: Painter | None = None


def use_painter(painter: Painter | None) -> Painter | None:
    """Draw every game shown from now on with ``painter`` (None: no picture); returns the painter it replaces."""
    global _painter
    previous, _painter = _painter, painter
    return previous


def picture(game_or_state: object) -> bytes | None:
    """The PNG of ``game_or_state`` as the painter draws it, or None when no painter was given."""
    return None if _painter is None else _painter(game_or_state)
