"""The package's shape: each subpackage is a layer, layers only look down, and no private name crosses a folder.

Every calcnb module is read as source (ast), so imports inside functions count too. A module must sit
in one of the subpackages of LAYERS (only the front door, ``calcnb/__init__.py`` and ``__main__.py``,
sits at the top); a new folder gets its place in LAYERS or the test fails.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "calcnb"

# Lowest first: a module may import from its own subpackage or any subpackage below it, never above.
LAYERS: tuple[str, ...] = (
    "core",  # the base error, text enums, the settings every process reads, the hook a game's picture is drawn by
    "i18n",  # the lookup and one catalogue per language
    "game",  # the rules core, cards, deals, engine, the game in progress, errors
    "stats",  # intervals and percentiles
    "solver",  # the clairvoyant search and its relaxed game
    "players",  # the lean table, the ladder, the blind player, the coach's analysis, one registry
    "studies",  # studies, folklore, winnability, charts
    "exercises",  # items, attempts, the answer reader and judge, keys, tables, worksheets: names no lesson
    "classlog",  # the class log without widgets: schema, store, outbox, readings, health, exports
    "ui",  # the board, the widgets, one palette
    "classroom",  # the class log's pages (widgets): the students' recorder and the teacher's class view
    "lessons",  # the Lesson record and its discovery; one folder per lesson
    "serve",  # the command line, the class server, Voila and the hub, and what they share (tests/test_serve_rooms.py)
)
FRONT_DOOR = "calcnb"  # calcnb/__init__.py and __main__.py: above every layer
LEVEL = {name: level for level, name in enumerate(LAYERS)} | {FRONT_DOOR: len(LAYERS)}

# Imports by a string that are allowed, by module: the i18n package finds its own catalogues by name.
KNOWN_STRING_IMPORTS = {
    "calcnb": "the front door's lazy table: it stands above every layer, and its TYPE_CHECKING imports name each home",
    "calcnb.i18n": "finds its language catalogues, and the words folder a package names when it calls add_words",
    "calcnb.i18n.__main__": "the translator's listing imports every package with a words folder, found on disk",
    "calcnb.lessons": "finds its lesson folders, its own packages, by name",
}

LONG_FUNCTION_LIMIT = 100


def _files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _layer_of(module: str) -> str:
    """The subpackage (layer) a dotted calcnb module belongs to; the front door for calcnb itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] != "__main__" else FRONT_DOOR


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _resolve(path: Path, node: ast.ImportFrom) -> str:
    """The absolute dotted module an ``ImportFrom`` names (relative imports resolved against ``path``)."""
    if node.level == 0:
        return node.module or ""
    package = _module_name(path).split(".")
    if not _is_package(path):
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _imports(path: Path) -> list[tuple[str, list[str], int]]:
    """Every calcnb import of the file: (module, names imported from it, line); names empty for ``import x``."""
    return _imports_in(_tree(path), path)


def _imports_in(tree: ast.Module, path: Path) -> list[tuple[str, list[str], int]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = _resolve(path, node)
            if module == "calcnb" or module.startswith("calcnb."):
                names = [alias.name for alias in node.names]
                if module == "calcnb" and all((PACKAGE / name).is_dir() for name in names):
                    found += [(f"calcnb.{name}", [], node.lineno) for name in names]  # "from . import game"
                else:
                    found.append((module, names, node.lineno))
        elif isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names if alias.name.startswith("calcnb")]
    return found


def _string_imports(path: Path) -> list[int]:
    return _string_imports_in(_tree(path))


def _string_imports_in(tree: ast.Module) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__"):
                lines.append(node.lineno)
    return lines


FILES = _files()
IDS = [str(path.relative_to(PACKAGE.parent)) for path in FILES]


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_every_module_sits_in_a_layer(path):
    module = _module_name(path)
    layer = _layer_of(module)
    if layer == FRONT_DOOR:
        assert path.parent == PACKAGE, f"{module} is not in any layer"
        assert path.name in ("__init__.py", "__main__.py"), f"{module} sits loose in calcnb/: give it a layer"
    else:
        assert layer in LEVEL, f"calcnb/{layer}/ is not a layer: add it to LAYERS in its place"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_imports_only_look_down(path):
    module = _module_name(path)
    level = LEVEL.get(_layer_of(module), LEVEL[FRONT_DOOR])
    upward = [
        f"{imported} (line {line})"
        for imported, _names, line in _imports(path)
        if LEVEL.get(_layer_of(imported), LEVEL[FRONT_DOOR]) > level
    ]
    assert not upward, f"{module} (layer {_layer_of(module)}) imports higher layers: {upward}"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_no_private_name_crosses_a_folder(path):
    module = _module_name(path)
    crossing = [
        f"{name} from {imported} (line {line})"
        for imported, names, line in _imports(path)
        if _layer_of(imported) != _layer_of(module)
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert not crossing, f"{module} imports private names of another folder: {crossing}"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_no_string_imports(path):
    module = _module_name(path)
    if module in KNOWN_STRING_IMPORTS:
        return
    assert not _string_imports(path), f"{module} imports by a string at lines {_string_imports(path)}"


def test_no_import_cycles_between_modules():
    graph: dict[str, set[str]] = {}
    modules = {_module_name(path) for path in FILES}
    for path in FILES:
        module = _module_name(path)
        targets = set()
        for imported, names, _ in _imports(path):
            # "from calcnb.players import ladder" imports the module calcnb.players.ladder
            submodules = {f"{imported}.{name}" for name in names} & modules
            targets |= submodules or ({imported} & modules)
        graph[module] = targets - {module, "calcnb"}
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for imported in sorted(graph.get(module, ())):
            if (
                imported.endswith(tuple(f".{name}" for name in LAYERS))
                and imported in graph
                and module.startswith(imported)
            ):
                continue  # a module of a package importing its package's own __init__
            if state.get(imported) == 1:
                pytest.fail("import cycle: " + " -> ".join([*path[path.index(imported) :], imported]))
            if imported not in state:
                visit(imported, [*path, imported])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_no_function_over_the_limit(path):
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(_tree(path))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > LONG_FUNCTION_LIMIT
    ]
    assert not long, f"{_module_name(path)}: functions over {LONG_FUNCTION_LIMIT} lines: {long}"


def _outside_imports(folder: str) -> dict[str, set[str]]:
    """The top-level names of the packages each module of ``calcnb/<folder>/`` imports (in functions too)."""
    found: dict[str, set[str]] = {}
    for path in sorted((PACKAGE / folder).rglob("*.py")):
        for node in ast.walk(_tree(path)):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            found.setdefault(_module_name(path), set()).update(name.split(".")[0] for name in names)
    return found


def test_the_engine_never_imports_drawing_widgets_or_numpy():
    heavy = {"matplotlib", "ipywidgets", "numpy", "IPython"}
    for module, names in _outside_imports("game").items():
        assert not names & heavy, (module, names & heavy)


def test_the_class_log_imports_no_widget():
    """The store, its writes and reads, the outbox and the readings work in any process: a server, a script,
    a test without a kernel. The widgets that show them (calcnb.classroom) sit above the drawing layer."""
    modules = _outside_imports("classlog")
    assert {"calcnb.classlog.store", "calcnb.classlog.schema"} <= modules.keys()
    for module, names in modules.items():
        assert not names & {"ipywidgets", "IPython", "traitlets"}, (module, names)
    assert LEVEL["classlog"] < LEVEL["ui"] < LEVEL["classroom"]


def test_the_checks_see_what_they_look_for():
    """The readers resolve relative, absolute and in-function imports, and find string imports."""
    as_if_in_players = PACKAGE / "players" / "example.py"  # never written: the tree below is read as its source
    tree = ast.parse(
        "from . import ladder\nfrom ..game.engine import State\nimport calcnb.ui.board\n"
        "def f():\n    from calcnb.studies.measure import _secret\n    import importlib\n"
        "    return importlib.import_module('calcnb.ui.board'), __import__('calcnb.game.cards')\n"
    )
    found = {(module, tuple(names)) for module, names, _ in _imports_in(tree, as_if_in_players)}
    assert found == {
        ("calcnb.players", ("ladder",)),
        ("calcnb.game.engine", ("State",)),
        ("calcnb.ui.board", ()),
        ("calcnb.studies.measure", ("_secret",)),
    }
    assert _string_imports_in(tree) == [7, 7]
    assert LEVEL[_layer_of("calcnb.ui.board")] > LEVEL["players"] > LEVEL[_layer_of("calcnb.game.engine")]
    assert _layer_of("calcnb") == _layer_of("calcnb.__main__") == FRONT_DOOR
