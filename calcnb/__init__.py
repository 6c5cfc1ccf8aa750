"""calcnb: learn, teach and explore the patience game Calculation (Broken Intervals).

The rules engine is exact and light: :class:`Game` (a game in progress),
:class:`State` (an immutable position), :class:`Move` and :class:`Card`, and
the modular arithmetic of the four foundation orders.
"""

import sys
from collections.abc import Callable
from types import ModuleType

from calcnb.game.cards import Card, foundation_order, modular_inverse, next_rank, position_in_order, rank_name
from calcnb.game.engine import IllegalMove, InvalidMove, Move, State
from calcnb.game.errors import CalcnbError
from calcnb.game.game import Game
from calcnb.i18n import get_language, set_language

# The drawing and widget layers load on first use, so ``import calcnb`` stays free of matplotlib and ipywidgets;
# players, solver and studies build on the engine only, but load on first use too. Each lazy name has a loader
# below, a plain relative import inside a function, so the import graph (read from the source) shows every edge.


def _play_board() -> type:
    from .ui.play import PlayBoard

    return PlayBoard


def _stepper() -> type:
    from .ui.play import Stepper

    return Stepper


def _coached_board() -> type:
    from .ui.coach import CoachedBoard

    return CoachedBoard


def _order_explorer() -> type:
    from .ui.explorer import OrderExplorer

    return OrderExplorer


def _draw() -> Callable:
    from .ui.board import draw

    return draw


def _examples() -> ModuleType:
    from .exercises import examples

    return examples


def _advise() -> Callable:
    from .players.advice import advise

    return advise


def _hint() -> Callable:
    from .players.advice import hint

    return hint


def _player() -> type:
    from .players.player import Player

    return Player


def _player_view() -> type:
    from .players.table import PlayerView

    return PlayerView


def _solve() -> Callable:
    from .solver import solve

    return solve


def _analyse() -> Callable:
    from .players.coach import analyse

    return analyse


def _review() -> Callable:
    from .players.coach import review

    return review


def _study() -> Callable:
    from .studies.measure import study

    return study


def _study_result() -> type:
    from .studies.measure import StudyResult

    return StudyResult


def _wilson_interval() -> Callable:
    from .stats import wilson_interval

    return wilson_interval


_LAZY: dict[str, Callable[[], object]] = {
    "PlayBoard": _play_board,
    "Stepper": _stepper,
    "CoachedBoard": _coached_board,
    "OrderExplorer": _order_explorer,
    "draw": _draw,
    "examples": _examples,
    "advise": _advise,
    "hint": _hint,
    "Player": _player,
    "PlayerView": _player_view,
    "solve": _solve,
    "analyse": _analyse,
    "review": _review,
    "study": _study,
    "StudyResult": _study_result,
    "wilson_interval": _wilson_interval,
}
"""The names loaded on first use, each with its loader. The players of the ladder load on first use too, from
their registry (:mod:`calcnb.players.registry`), by class name."""


def _player_names() -> list[str]:
    """The class names of the registry's ladder (loading the players)."""
    from .players.registry import LADDER

    return [cls.__name__ for cls in LADDER]


def __getattr__(name: str) -> object:
    if name == "__all__":
        return sorted([*_EAGER, *_LAZY, *_player_names()])
    if name in _LAZY:
        value = _LAZY[name]()
    else:
        from .players.registry import player_class

        value = player_class(name)
        if value is None:
            raise AttributeError(f"module 'calcnb' has no attribute {name!r}")
    globals()[name] = value
    return value


def _board_png(game_or_state: Game | State) -> bytes:
    """The board as PNG bytes: how a Game or a State shows itself in a notebook."""
    from calcnb.ui.board import to_png

    return to_png(game_or_state)


def show_boards_in(shell: object | None = None) -> bool:
    """Make IPython show every :class:`Game` and :class:`State` as its board (a PNG); True when it did.

    Called when calcnb is imported inside IPython or Jupyter, with the running shell; the
    engine and session know nothing of the board: the wiring is done here, from above.
    Without a shell (plain Python), or in a shell with no display formatters (a Solara server's
    virtual kernels), nothing is registered and the board is never imported.
    """
    if shell is None:
        ipython = sys.modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
        if shell is None:
            return False
    formatter = getattr(shell, "display_formatter", None)
    if formatter is None:
        return False
    png = formatter.formatters["image/png"]
    png.for_type(State, _board_png)
    png.for_type(Game, _board_png)
    return True


show_boards_in()


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_player_names()))


# The names ``import calcnb`` loads at once; ``calcnb.__all__`` adds the lazy ones and the registry's players.
_EAGER = [
    "CalcnbError",
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
    "show_boards_in",
]
