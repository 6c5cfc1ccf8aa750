"""calcnb: learn, teach and explore the patience game Calculation (Broken Intervals).

The rules engine is exact and light: :class:`Game` (a game in progress),
:class:`State` (an immutable position), :class:`Move` and :class:`Card`, and
the modular arithmetic of the four foundation orders.
"""

import sys
from types import ModuleType

from .cards import Card, foundation_order, modular_inverse, next_rank, position_in_order, rank_name
from .engine import IllegalMove, InvalidMove, Move, State
from .errors import CalcnbError
from .i18n import get_language, set_language
from .session import Game

# The drawing and widget layers load on first use, so ``import calcnb`` stays free of matplotlib and ipywidgets.
# Each name maps to the module holding it (None: the module itself); _module imports it by a plain import.
_LAZY = {
    "PlayBoard": ("widgets", "PlayBoard"),
    "Stepper": ("widgets", "Stepper"),
    "CoachedBoard": ("coach_widgets", "CoachedBoard"),
    "OrderExplorer": ("explorer", "OrderExplorer"),
    "draw": ("board", "draw"),
    "examples": ("examples", None),
    # strategies, solver and studies build on the engine only, but load on first use too
    "hint": ("strategies", "hint"),
    "Player": ("strategies", "Player"),
    "PlayerView": ("strategies", "PlayerView"),
    "RandomPlayer": ("strategies", "RandomPlayer"),
    "FirstFit": ("strategies", "FirstFit"),
    "ReverseNeed": ("strategies", "ReverseNeed"),
    "KingsApart": ("strategies", "KingsApart"),
    "MonteCarlo": ("strategies", "MonteCarlo"),
    "solve": ("solver", "solve"),
    "Determinized": ("blind", "Determinized"),
    "analyse": ("coach", "analyse"),
    "review": ("coach", "review"),
    "study": ("studies", "study"),
    "StudyResult": ("studies", "StudyResult"),
    "wilson_interval": ("studies", "wilson_interval"),
}


def _module(name: str) -> ModuleType:
    """One of the lazily loaded modules, by plain imports (so the import graph shows every edge)."""
    if name == "widgets":
        from . import widgets as module
    elif name == "explorer":
        from . import explorer as module
    elif name == "board":
        from . import board as module
    elif name == "examples":
        from . import examples as module
    elif name == "strategies":
        from . import strategies as module
    elif name == "solver":
        from . import solver as module
    elif name == "blind":
        from . import blind as module
    elif name == "coach":
        from . import coach as module
    elif name == "coach_widgets":
        from . import coach_widgets as module
    else:
        from . import studies as module
    return module


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module 'calcnb' has no attribute {name!r}")
    module_name, attribute = _LAZY[name]
    module = _module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def _board_png(game_or_state: Game | State) -> bytes:
    """The board as PNG bytes: how a Game or a State shows itself in a notebook."""
    from .board import to_png

    return to_png(game_or_state)


def show_boards_in(shell: object | None = None) -> bool:
    """Make IPython show every :class:`Game` and :class:`State` as its board (a PNG); True when it did.

    Called when calcnb is imported inside IPython or Jupyter, with the running shell; the
    engine and session know nothing of the board: the wiring is done here, from above.
    Without a shell (plain Python) nothing is registered and the board is never imported.
    """
    if shell is None:
        ipython = sys.modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
        if shell is None:
            return False
    png = shell.display_formatter.formatters["image/png"]
    png.for_type(State, _board_png)
    png.for_type(Game, _board_png)
    return True


show_boards_in()


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
    "show_boards_in",
    "solve",
    "study",
    "wilson_interval",
]
