"""The package's top-level names: each is what it says (the right kind of object, from its home module), and the
lazy ones stay lazy until used."""

import ast
import importlib
import inspect
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import ipywidgets

import calcnb
from calcnb.players.player import Player
from calcnb.players.registry import LADDER, player_class

FUNCTIONS = {
    "advise",
    "analyse",
    "draw",
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
}
CLASSES = {"Card", "Game", "Move", "State", "Player", "PlayerView", "StudyResult"}
WIDGETS = {"PlayBoard", "Stepper", "CoachedBoard", "OrderExplorer"}
ERRORS = {"CalcnbError": ValueError, "IllegalMove": calcnb.CalcnbError, "InvalidMove": calcnb.CalcnbError}
"""Each exception and the class it must derive from."""
PLAYERS = {cls.__name__ for cls in LADDER}
MODULES = {"examples": "calcnb.exercises.examples"}

LAZY_HOMES = {
    "PlayBoard": "calcnb.ui.play",
    "Stepper": "calcnb.ui.play",
    "CoachedBoard": "calcnb.ui.coach",
    "OrderExplorer": "calcnb.ui.explorer",
    "draw": "calcnb.ui.board",
    "advise": "calcnb.players.advice",
    "hint": "calcnb.players.advice",
    "Player": "calcnb.players.player",
    "PlayerView": "calcnb.players.table",
    "solve": "calcnb.solver",
    "analyse": "calcnb.players.coach",
    "review": "calcnb.players.coach",
    "study": "calcnb.studies.measure",
    "StudyResult": "calcnb.studies.measure",
    "wilson_interval": "calcnb.stats",
}
"""Each lazily loaded name and the module it must come from, written out here (not read from calcnb)."""


def test_every_exported_name_has_a_kind_here():
    """A new name in ``calcnb.__all__`` fails here until it is given its kind above."""
    kinds = [FUNCTIONS, CLASSES, WIDGETS, set(ERRORS), PLAYERS, set(MODULES)]
    assert sum(len(kind) for kind in kinds) == len(set().union(*kinds)), "a name is listed under two kinds"
    assert sorted(calcnb.__all__) == sorted(set().union(*kinds))
    assert set(calcnb.__all__) >= set(LAZY_HOMES)


def _front_door() -> ast.Module:
    return ast.parse(Path(calcnb.__file__).read_text(encoding="utf-8"))


def test_all_is_a_literal_and_computes_nothing():
    """``__all__`` is written out, so type checkers, editors and autodoc read it without running calcnb."""
    (assigned,) = [
        node.value
        for node in _front_door().body
        if isinstance(node, ast.Assign) and any(getattr(target, "id", "") == "__all__" for target in node.targets)
    ]
    assert ast.literal_eval(assigned) == calcnb.__all__ == sorted(set(calcnb.__all__))


def test_the_lazy_table_names_the_homes_the_type_checkers_see():
    """Each lazy name's home in the table is where the ``if TYPE_CHECKING:`` block imports it from, and the
    ladder's players are all in it."""
    (block,) = [
        node for node in _front_door().body if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
    ]
    seen = {}
    for node in block.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                home = f"{node.module}.{alias.name}" if alias.name in MODULES else f"{node.module}:{alias.name}"
                seen[alias.name] = home
    assert seen == calcnb._LAZY
    assert set(calcnb._LAZY) == set(LAZY_HOMES) | PLAYERS | set(MODULES)


def test_functions_are_functions_under_their_own_names():
    for name in FUNCTIONS:
        value = getattr(calcnb, name)
        assert inspect.isfunction(value) and value.__name__ == name, name


def test_classes_are_classes_under_their_own_names():
    for name in CLASSES | WIDGETS | set(ERRORS) | PLAYERS:
        value = getattr(calcnb, name)
        assert inspect.isclass(value) and value.__name__ == name, name


def test_errors_derive_from_the_base_error_and_value_error():
    for name, base in ERRORS.items():
        assert issubclass(getattr(calcnb, name), base), (name, base)
    assert issubclass(calcnb.IllegalMove, ValueError) and issubclass(calcnb.InvalidMove, ValueError)
    assert calcnb.IllegalMove is not calcnb.InvalidMove


def test_players_are_the_registrys_player_classes():
    assert calcnb.Player is Player
    for name in PLAYERS:
        value = getattr(calcnb, name)
        assert issubclass(value, Player) and value is not Player, name
        assert value is player_class(name), name


def test_widgets_are_widgets_and_the_coach_is_a_play_board():
    for name in WIDGETS:
        assert issubclass(getattr(calcnb, name), ipywidgets.DOMWidget), name
    assert issubclass(calcnb.CoachedBoard, calcnb.PlayBoard)


def test_examples_is_the_exercises_module():
    import calcnb.exercises.examples

    assert isinstance(calcnb.examples, ModuleType)
    assert calcnb.examples is calcnb.exercises.examples
    assert calcnb.examples.__name__ == MODULES["examples"]


def test_each_lazy_name_is_the_very_object_of_its_home_module():
    for name, home in LAZY_HOMES.items():
        assert getattr(calcnb, name) is getattr(importlib.import_module(home), name), (name, home)


def test_each_eager_name_is_the_very_object_where_it_is_defined():
    lazy = set(LAZY_HOMES) | PLAYERS | set(MODULES)
    for name in set(calcnb.__all__) - lazy:
        value = getattr(calcnb, name)
        assert getattr(sys.modules.get(value.__module__), name, None) is value, (name, value.__module__)


def test_study_and_solve_are_functions_even_after_their_modules_are_imported():
    import calcnb.solver
    import calcnb.studies.measure

    assert callable(calcnb.study) and calcnb.study.__name__ == "study"
    assert callable(calcnb.solve) and calcnb.solve.__name__ == "solve"


def test_importing_calcnb_loads_no_strategies_solver_or_drawing():
    code = (
        "import sys, calcnb; "
        "loaded = [m for m in ('calcnb.players.ladder', 'calcnb.solver', 'calcnb.studies.measure', "
        "'matplotlib', 'ipywidgets') "
        "if m in sys.modules]; print(loaded)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_game_shows_as_its_board_drawn_only_when_first_shown_and_nothing_is_registered_with_ipython():
    code = (
        "import sys\n"
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "png = shell.display_formatter.formatters['image/png']\n"
        "printers = (dict(png.type_printers), dict(png.deferred_printers))\n"
        "import calcnb.game\n"
        "from calcnb.game.game import Game\n"
        "assert 'matplotlib' not in sys.modules and 'calcnb.ui.board' not in sys.modules\n"
        "assert (png.type_printers, png.deferred_printers) == printers\n"
        "data, _ = shell.display_formatter.format(Game.new(3))\n"
        "print(data['image/png'][:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'matplotlib' in sys.modules, 'text/plain' in data)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True", "True"]


def test_without_a_painter_a_game_shows_as_its_text_only():
    from calcnb.core.pictures import use_painter

    game = calcnb.Game.new(3)
    previous = use_painter(None)
    try:
        assert game._repr_png_() is None and game.state._repr_png_() is None
    finally:
        use_painter(previous)
    assert game._repr_png_().startswith(b"\x89PNG") and game.state._repr_png_().startswith(b"\x89PNG")


def test_an_unknown_name_is_an_attribute_error():
    try:
        calcnb.no_such_thing  # noqa: B018
    except AttributeError as error:
        assert "no_such_thing" in str(error)
    else:
        raise AssertionError("calcnb.no_such_thing should not exist")
