"""calcnb: learn, teach and explore the patience game Calculation (Broken Intervals).

The rules engine is exact and light: :class:`Game` (a game in progress),
:class:`State` (an immutable position), :class:`Move` and :class:`Card`, and
the modular arithmetic of the four foundation orders.
"""

from .cards import Card, foundation_order, modular_inverse, next_rank, position_in_order, rank_name
from .engine import IllegalMove, InvalidMove, Move, State
from .i18n import get_language, set_language
from .session import Game

# The drawing and widget layers load on first use, so ``import calcnb`` stays free of matplotlib and ipywidgets.
_LAZY = {
    "PlayBoard": ("calcnb.widgets", "PlayBoard"),
    "Stepper": ("calcnb.widgets", "Stepper"),
    "OrderExplorer": ("calcnb.explorer", "OrderExplorer"),
    "draw": ("calcnb.board", "draw"),
    "examples": ("calcnb.examples", None),
    # strategies, solver and studies build on the engine only, but load on first use too
    "hint": ("calcnb.strategies", "hint"),
    "Player": ("calcnb.strategies", "Player"),
    "PlayerView": ("calcnb.strategies", "PlayerView"),
    "RandomPlayer": ("calcnb.strategies", "RandomPlayer"),
    "FirstFit": ("calcnb.strategies", "FirstFit"),
    "ReverseNeed": ("calcnb.strategies", "ReverseNeed"),
    "KingsApart": ("calcnb.strategies", "KingsApart"),
    "MonteCarlo": ("calcnb.strategies", "MonteCarlo"),
    "solve": ("calcnb.solver", "solve"),
    "study": ("calcnb.studies", "study"),
    "StudyResult": ("calcnb.studies", "StudyResult"),
    "wilson_interval": ("calcnb.studies", "wilson_interval"),
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module 'calcnb' has no attribute {name!r}")
    from importlib import import_module

    module_name, attribute = _LAZY[name]
    module = import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Card",
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
    "draw",
    "examples",
    "foundation_order",
    "get_language",
    "hint",
    "modular_inverse",
    "next_rank",
    "position_in_order",
    "rank_name",
    "set_language",
    "solve",
    "study",
    "wilson_interval",
]
