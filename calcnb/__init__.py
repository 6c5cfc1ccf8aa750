"""calcnb: learn, teach and explore the patience game Calculation (Broken Intervals).

The rules engine is exact and light: :class:`Game` (a game in progress),
:class:`State` (an immutable position), :class:`Move` and :class:`Card`, and
the modular arithmetic of the four foundation orders.
"""

import sys
from types import ModuleType

from calcnb.game.cards import Card, foundation_order, modular_inverse, next_rank, position_in_order, rank_name
from calcnb.game.engine import IllegalMove, InvalidMove, Move, State
from calcnb.game.errors import CalcnbError
from calcnb.game.game import Game
from calcnb.i18n import get_language, set_language

# The drawing and widget layers load on first use, so ``import calcnb`` stays free of matplotlib and ipywidgets.
# Each name maps to the module holding it (None: the module itself); _module imports it by a plain import.
_LAZY = {
    "PlayBoard": ("ui.play", "PlayBoard"),
    "Stepper": ("ui.play", "Stepper"),
    "CoachedBoard": ("ui.coach", "CoachedBoard"),
    "OrderExplorer": ("ui.explorer", "OrderExplorer"),
    "draw": ("ui.board", "draw"),
    "examples": ("lessons.examples", None),
    # players, solver and studies build on the engine only, but load on first use too;
    # the players of the ladder come from their registry (calcnb.players.registry), by class name
    "advise": ("players.advice", "advise"),
    "hint": ("players.advice", "hint"),
    "Player": ("players.player", "Player"),
    "PlayerView": ("players.table", "PlayerView"),
    "solve": ("solver", "solve"),
    "analyse": ("players.coach", "analyse"),
    "review": ("players.coach", "review"),
    "study": ("studies.measure", "study"),
    "StudyResult": ("studies.measure", "StudyResult"),
    "wilson_interval": ("stats", "wilson_interval"),
}


def _module(name: str) -> ModuleType:
    """One of the lazily loaded modules, by plain imports (so the import graph shows every edge)."""
    if name == "ui.play":
        from .ui import play as module
    elif name == "ui.explorer":
        from .ui import explorer as module
    elif name == "ui.board":
        from .ui import board as module
    elif name == "lessons.examples":
        from .lessons import examples as module
    elif name == "players.player":
        from .players import player as module
    elif name == "players.table":
        from .players import table as module
    elif name == "players.advice":
        from .players import advice as module
    elif name == "solver":
        from . import solver as module
    elif name == "players.coach":
        from .players import coach as module
    elif name == "ui.coach":
        from .ui import coach as module
    elif name == "stats":
        from . import stats as module
    else:
        from .studies import measure as module
    return module


def _player_names() -> list[str]:
    """The class names of the registry's ladder (loading the players)."""
    from .players.registry import LADDER

    return [cls.__name__ for cls in LADDER]


def __getattr__(name: str) -> object:
    if name == "__all__":
        return sorted([*_EAGER, *_LAZY, *_player_names()])
    if name in _LAZY:
        module_name, attribute = _LAZY[name]
        module = _module(module_name)
        value = module if attribute is None else getattr(module, attribute)
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
