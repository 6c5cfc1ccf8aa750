"""The package's shape: layers that only look down, no cycles, no string imports, short functions.

Every calcnb module is read as source (ast), so imports inside functions count too.
A module not named in LAYERS counts as the top layer (an application): it may import
anything, and nothing below it may import it. Give a new module its layer in LAYERS.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "calcnb"

# Lower numbers sit lower: a module may import from its own layer or any layer below, never above.
# cards and the rules core -> engine -> session -> board -> widgets -> notebooks (GUIDE.md);
# strategies, solver, relaxed game and studies build on the engine only, so they sit below the session.
LAYERS: dict[str, int] = {
    # 0: facts and words, no calcnb imports below them
    "i18n": 0,
    "rules": 0,
    "errors": 1,
    # 1: cards, deals and the engine
    "cards": 2,
    "deals": 3,
    "engine": 4,
    # 2: pure computation on the engine
    "orders": 5,
    "relaxed": 5,
    "solver": 5,
    "strategies": 5,
    "studies": 5,
    # 3: a game in progress
    "session": 6,
    # 4: content and drawing on top of games
    "board": 7,
    "charts": 7,
    "examples": 7,
    "winnability": 7,
    "lesson_content": 7,
    "worksheet": 8,
    "classlog": 7,
    # 5: widgets
    "widgets": 8,
    "explorer": 8,
    "lessons": 8,
    # 6: applications and the package's front door
    "classroom": 9,
    "classview": 9,
    "app": 9,
    "__main__": 9,
    "__init__": 9,
}

# Upward imports that are being removed, each with the module that still has it. Remove the entry
# when the import goes; the test fails on an entry that no longer matches anything.
KNOWN_UPWARD: dict[tuple[str, str], str] = {}

# Functions over the limit that are being split, by module. Remove the entry when the split lands.
LONG_FUNCTION_LIMIT = 150
KNOWN_LONG: dict[str, str] = {}


def _modules() -> list[str]:
    """Every calcnb module; a subpackage (``calcnb/solver/``) counts as one module, its files together."""
    files = {path.stem for path in PACKAGE.glob("*.py")}
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    return sorted(files | packages)


def _files(module: str) -> list[Path]:
    package = PACKAGE / module
    return sorted(package.glob("*.py")) if package.is_dir() else [PACKAGE / f"{module}.py"]


@cache
def _tree(module: str) -> ast.Module:
    """The module's source as one tree (a subpackage's files one after the other)."""
    body = []
    for path in _files(module):
        body += ast.parse(path.read_text(encoding="utf-8")).body
    return ast.Module(body=body, type_ignores=[])


def _imports(module: str) -> set[str]:
    """The calcnb modules ``module`` imports, anywhere in its source (functions included)."""
    if (PACKAGE / module).is_dir():  # inside a subpackage, ".x" is its own part and "..x" a calcnb module
        found = set()
        for path in _files(module):
            found |= _imports_in(ast.parse(path.read_text(encoding="utf-8")), depth=1)
        return found
    return _imports_in(_tree(module))


def _imports_in(tree: ast.Module, depth: int = 0) -> set[str]:
    """The calcnb modules a tree imports; ``depth``: how deep in calcnb its file sits (1 in a subpackage)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if node.module and node.module.startswith("calcnb."):
                    found.add(node.module.split(".")[1])
                elif node.module == "calcnb":
                    found.update(alias.name for alias in node.names if (PACKAGE / f"{alias.name}.py").exists())
            elif node.level <= depth:
                continue  # a part of the same subpackage
            elif node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[1] for alias in node.names if alias.name.startswith("calcnb."))
    return found


def _string_imports(module: str) -> list[int]:
    """Lines where ``module`` imports by a string (``import_module``, ``__import__``)."""
    return _string_imports_in(_tree(module))


def _string_imports_in(tree: ast.Module) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__"):
                lines.append(node.lineno)
    return lines


TOP = max(LAYERS.values())


def _layer(module: str) -> int:
    return LAYERS.get(module, TOP)


@pytest.mark.parametrize("module", _modules())
def test_imports_only_look_down(module):
    upward = [
        imported
        for imported in sorted(_imports(module) - {module})
        if _layer(imported) > _layer(module) and (module, imported) not in KNOWN_UPWARD
    ]
    assert not upward, f"calcnb.{module} (layer {_layer(module)}) imports the higher layer(s) {upward}"


def test_known_upward_imports_are_still_there():
    gone = [edge for edge in KNOWN_UPWARD if edge[1] not in _imports(edge[0])]
    assert not gone, f"{gone} no longer happen: remove them from KNOWN_UPWARD"


def test_the_engine_and_session_never_import_the_board_or_widgets():
    for module in ("rules", "cards", "deals", "engine", "session", "strategies", "studies"):
        assert not _imports(module) & {"board", "widgets", "explorer", "lessons", "charts"}, module


def test_no_import_cycles():
    graph = {module: _imports(module) & set(_modules()) - {module} for module in _modules()}
    state: dict[str, int] = {}  # 1 on the current path, 2 finished

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for imported in sorted(graph[module]):
            if imported == "__init__":
                continue
            if state.get(imported) == 1:
                cycle = [*path[path.index(imported) :], imported]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if imported not in state:
                visit(imported, [*path, imported])
        state[module] = 2

    for module in graph:
        if module not in state:
            visit(module, [module])


@pytest.mark.parametrize("module", _modules())
def test_no_string_imports(module):
    assert not _string_imports(module), f"calcnb.{module} imports by a string at lines {_string_imports(module)}"


@pytest.mark.parametrize("module", _modules())
def test_no_function_over_the_limit(module):
    long = []
    for node in ast.walk(_tree(module)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > LONG_FUNCTION_LIMIT and KNOWN_LONG.get(module) != node.name:
                long.append(f"{node.name} ({length} lines)")
    assert not long, f"calcnb.{module}: functions over {LONG_FUNCTION_LIMIT} lines: {long}"


def test_known_long_functions_are_still_long():
    shortened = []
    for module, name in KNOWN_LONG.items():
        if module not in _modules():
            shortened.append(module)
            continue
        lengths = [
            node.end_lineno - node.lineno + 1
            for node in ast.walk(_tree(module))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
        ]
        if not lengths or max(lengths) <= LONG_FUNCTION_LIMIT:
            shortened.append(f"{module}.{name}")
    assert not shortened, f"{shortened} are split now: remove them from KNOWN_LONG"


def test_the_checks_see_what_they_look_for():
    """The readers find relative, absolute and in-function imports, and string imports."""
    tree = ast.parse(
        "from . import board\nfrom .engine import State\nimport calcnb.session\n"
        "def f():\n    from .widgets import PlayBoard\n    import importlib\n"
        "    return importlib.import_module('calcnb.board'), __import__('calcnb.cards')\n"
    )
    assert _imports_in(tree) == {"board", "engine", "session", "widgets"}
    assert _string_imports_in(tree) == [7, 7]
    # inside a subpackage, one dot is a part of it and two dots a calcnb module
    assert _imports_in(ast.parse("from .position import P\nfrom ..rules import ORDERS\n"), depth=1) == {"rules"}
