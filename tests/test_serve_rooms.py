"""serve/'s rooms: the command line, the class server, Voila and the hub, and what the three share.

A room imports its own modules and the shared room's, never another room's (imports inside functions count):
the command line starts a server by its module's name, in a process of its own, and the two servers share
only what ``serve/shared/`` holds. The shared room imports no other room and no web server, so the command
line, a test or a hub's configuration loads none by using it. The module names the rooms pass one another as
strings (the servers' modules, Solara's page, the kernel manager, the hub's extension) must name real modules.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

SERVE = Path(__file__).resolve().parent.parent / "calcnb" / "serve"

#: Each room, and the rooms it may import besides its own.
ROOMS: dict[str, frozenset[str]] = {
    "cli": frozenset({"shared"}),  # the command line: what a teacher types, the servers' processes
    "class_server": frozenset({"shared"}),  # one Solara process for the class, behind its gate
    "voila": frozenset({"shared"}),  # Voila behind its gate, its kernel manager, a hub's student server
    "shared": frozenset(),  # settings, notebooks, caps and the class code, the gates' pages, the launcher's watch
}
#: What the shared room never imports: a web server or a widget library (the servers' rooms bring their own).
SERVERS = ("tornado", "jupyter_server", "voila", "solara", "starlette", "uvicorn", "ipywidgets")

FILES = sorted(path for path in SERVE.rglob("*.py") if path != SERVE / "__init__.py")
IDS = [str(path.relative_to(SERVE)) for path in FILES]


def _room(path: Path) -> str | None:
    """The room a file of serve/ sits in (None: loose in serve/)."""
    parts = path.relative_to(SERVE).parts
    return parts[0] if len(parts) > 1 else None


def _module_room(module: str) -> str | None:
    """The room a dotted module of ``calcnb.serve`` belongs to (None: not inside a room)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["calcnb", "serve"] else None


def _imports_in(tree: ast.Module, path: Path) -> list[tuple[str, list[str], int]]:
    """Every import of the tree (module, names, line), relative ones resolved as if the tree were ``path``."""
    package = ["calcnb", "serve", *path.relative_to(SERVE).parent.parts]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - (node.level - 1)] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            found.append((module, [alias.name for alias in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
    return found


def _imports(path: Path) -> list[tuple[str, list[str], int]]:
    return _imports_in(ast.parse(path.read_text(encoding="utf-8")), path)


def _rooms_entered(imports: list[tuple[str, list[str], int]]) -> list[tuple[str, int]]:
    """The rooms the imports enter, with their lines: ``from calcnb.serve import cli`` enters the cli room."""
    entered = []
    for module, names, line in imports:
        if module == "calcnb.serve":
            entered += [(name, line) for name in names]
        elif _module_room(module) is not None:
            entered.append((_module_room(module), line))
    return entered


def test_serve_holds_its_rooms_and_nothing_loose():
    folders = {path.name for path in SERVE.iterdir() if path.is_dir() and path.name != "__pycache__"}
    assert folders == set(ROOMS)
    assert [path.name for path in SERVE.glob("*.py")] == ["__init__.py"]
    assert all((SERVE / room / "__init__.py").exists() for room in ROOMS)


def test_the_map_of_serve_names_every_room_and_imports_nothing():
    source = (SERVE / "__init__.py").read_text(encoding="utf-8")
    assert all(f"calcnb.serve.{room}" in source for room in ROOMS)
    assert not _imports(SERVE / "__init__.py")


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_a_room_imports_only_its_own_modules_and_the_shared_room(path):
    room = _room(path)
    allowed = {room, *ROOMS[room]}
    crossing = [
        f"{entered} (line {line})" for entered, line in _rooms_entered(_imports(path)) if entered not in allowed
    ]
    assert not crossing, f"{path.relative_to(SERVE)} (room {room}) enters other rooms: {crossing}"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_no_private_name_crosses_a_room(path):
    others = [
        (module, names) for module, names, _line in _imports(path) if _module_room(module) not in (None, _room(path))
    ]
    private = {f"{module}.{name}" for module, names in others for name in names if re.match(r"_(?!_)", name)}
    assert not private, f"{path.relative_to(SERVE)} imports private names of another room: {sorted(private)}"


@pytest.mark.parametrize("path", sorted((SERVE / "shared").glob("*.py")), ids=lambda path: path.name)
def test_the_shared_room_imports_no_web_server(path):
    servers = [module for module, _names, _line in _imports(path) if module.split(".")[0] in SERVERS]
    assert not servers, f"shared/{path.name} imports {servers}"


def _named_modules() -> dict[str, str]:
    """The modules the rooms name by string, by what names them."""
    from calcnb.serve.class_server.app import solara_environment
    from calcnb.serve.shared import settings
    from calcnb.serve.voila import hub

    environment: dict[str, str] = {}
    solara_environment(environment)
    named = {
        "settings.SOLARA_MODULE": settings.SOLARA_MODULE,
        "settings.VOILA_MODULE": settings.VOILA_MODULE,
        "settings.CLASSROOM_KERNEL_MANAGER": settings.CLASSROOM_KERNEL_MANAGER.rpartition(".")[0],
        "SOLARA_APP": environment["SOLARA_APP"],
        "hub.STUDENT_AUTHORIZER": hub.STUDENT_AUTHORIZER.rpartition(".")[0],
    }
    named |= {f"hub.STUDENT_EXTENSIONS[{name}]": name for name in hub.STUDENT_EXTENSIONS if name.startswith("calcnb")}
    return named


def test_the_modules_named_by_string_exist_in_their_rooms():
    named = _named_modules()
    assert len(named) == 6
    missing = {what: module for what, module in named.items() if importlib.util.find_spec(module) is None}
    assert not missing
    assert {_module_room(module) for module in named.values()} == {"class_server", "voila"}


def test_the_checks_see_what_they_look_for():
    """Absolute, relative, in-function and ``from calcnb.serve import room`` imports are all read."""
    as_if_in_the_class_server = SERVE / "class_server" / "example.py"  # never written: the tree below is its source
    tree = ast.parse(
        "from ..shared.caps import PageCaps\nfrom .turns import TakingTurns\nfrom calcnb.serve import voila\n"
        "def f():\n    from calcnb.serve.cli.process import _kill_all\n    import calcnb.serve.shared.settings\n"
    )
    imports = _imports_in(tree, as_if_in_the_class_server)
    assert {module for module, _names, _line in imports} == {
        "calcnb.serve.shared.caps",
        "calcnb.serve.class_server.turns",
        "calcnb.serve",
        "calcnb.serve.cli.process",
        "calcnb.serve.shared.settings",
    }
    assert sorted(_rooms_entered(imports)) == [
        ("class_server", 2),
        ("cli", 5),
        ("shared", 1),
        ("shared", 6),
        ("voila", 3),
    ]
