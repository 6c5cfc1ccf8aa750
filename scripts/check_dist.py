"""Check a built wheel and sdist hold what calcnb needs: ``python scripts/check_dist.py DIST_FOLDER``.

The wheel must hold every notebook and data file of the repository (as ``calcnb/_resources/...``, where
``calcnb.core.resources`` reads them), every module of the package, the Voila template and widget
manager, the ``calcnb`` command, and the solver's compiled modules (``--interpreted`` accepts a wheel
built without a compiler). The sdist must hold everything needed to build that wheel and to run the test
suite: every file git tracks (the ``.pxd`` files, notebooks, data, ``tests/`` with ``tests/browser/`` and
the conftest files), and none of the generated C. Prints one line per check; exits 1 naming what is missing.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGED = "calcnb/_resources"
# Files of the wheel besides the package's modules and the shipped notebooks and data.
WHEEL_FILES = (
    "calcnb/share/voila/templates/calcnb/conf.json",
    "calcnb/share/voila/templates/calcnb/index.html.j2",
    "calcnb/share/voila/labextensions/@voila-dashboards/widgets-manager8/package.json",
)
ENTRY_POINT = "calcnb = calcnb.serve.cli.main:main"
# What the sdist needs even where git cannot say what it tracks.
SDIST_FILES = (
    "setup.py",
    "pyproject.toml",
    "MANIFEST.in",
    "README.md",
    "conftest.py",
    "tests/conftest.py",
    "tests/browser/conftest.py",
    "tests/browser/__init__.py",
    "tests/sanitize.cfg",
    ".ci/run",
)
NOT_IN_SDIST = (".gitignore",)  # tracked, but no part of building or testing


def _setup_module():
    """The repository's setup.py as a module (its setup() runs only as a script): the shipped files' rule."""
    spec = importlib.util.spec_from_file_location("calcnb_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tracked_files() -> list[str] | None:
    """The files git tracks in the repository, or None outside a git checkout."""
    try:
        listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [line for line in listed.splitlines() if line and (ROOT / line).is_file()]


def check_wheel(wheel: Path, *, compiled: bool) -> list[str]:
    """What the wheel lacks (empty: nothing)."""
    setup = _setup_module()
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = [f"{PACKAGED}/{path.as_posix()}" for path in setup.shipped_files(ROOT)]
    modules = [path.relative_to(ROOT).as_posix() for path in sorted((ROOT / "calcnb").rglob("*.py"))]
    missing = [name for name in [*shipped, *modules, *WHEEL_FILES] if name not in names]
    if compiled:
        for module in setup.COMPILED_MODULES:
            prefix = f"calcnb/solver/{module}."
            if not any(name.startswith(prefix) and name.endswith((".so", ".pyd")) for name in names):
                missing.append(f"{prefix}so or .pyd (the compiled {module})")
    entry_points = next((name for name in names if name.endswith(".dist-info/entry_points.txt")), None)
    text = zipfile.ZipFile(wheel).read(entry_points).decode() if entry_points else ""
    if ENTRY_POINT not in text:
        missing.append(f"the console script ({ENTRY_POINT})")
    notebooks = sum(name.startswith(f"{PACKAGED}/notebooks/") for name in names)
    data = sum(name.startswith(f"{PACKAGED}/data/") for name in names)
    extensions = sum(name.startswith("calcnb/solver/") and name.endswith((".so", ".pyd")) for name in names)
    print(f"wheel {wheel.name}: {len(names)} files, {notebooks} notebooks, {data} data files, {extensions} compiled")
    return missing


def check_sdist(sdist: Path) -> list[str]:
    """What the sdist lacks, or holds and must not (empty: nothing)."""
    with tarfile.open(sdist) as archive:
        members = [member.name for member in archive.getmembers() if member.isfile()]
    top = members[0].split("/")[0]
    names = {name.removeprefix(f"{top}/") for name in members}
    required = set(SDIST_FILES) | {path.relative_to(ROOT).as_posix() for path in (ROOT / "calcnb").rglob("*.pxd")}
    required |= {path.as_posix() for path in _setup_module().shipped_files(ROOT)}
    tracked = tracked_files()
    if tracked is not None:
        required |= {name for name in tracked if name not in NOT_IN_SDIST}
    problems = sorted(name for name in required if name not in names)
    # a database is generated (a class log left by a run), unless git tracks it (a test's fixture)
    generated = sorted(
        name
        for name in names
        if name.endswith((".c", ".so", ".pyd", ".pyc")) or (name.endswith(".db") and name not in (tracked or set()))
    )
    problems += [f"{name} (generated: must not be shipped)" for name in generated]
    tests = sum(name.startswith("tests/") for name in names)
    print(f"sdist {sdist.name}: {len(names)} files, {tests} of tests/, every tracked file: {tracked is not None}")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Check the newest wheel and sdist in the folder given; 0 when both are complete."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", type=Path, help="the folder python -m build wrote the wheel and the sdist into")
    parser.add_argument("--interpreted", action="store_true", help="accept a wheel without the compiled solver")
    arguments = parser.parse_args(argv)
    wheels = sorted(arguments.dist.glob("calcnb-*.whl"), key=lambda path: path.stat().st_mtime)
    sdists = sorted(arguments.dist.glob("calcnb-*.tar.gz"), key=lambda path: path.stat().st_mtime)
    if not wheels or not sdists:
        print(f"no calcnb wheel and sdist in {arguments.dist}", file=sys.stderr)
        return 1
    missing = check_wheel(wheels[-1], compiled=not arguments.interpreted)
    missing += [f"sdist: {name}" for name in check_sdist(sdists[-1])]
    for name in missing:
        print(f"missing: {name}", file=sys.stderr)
    print("the wheel and the sdist are complete" if not missing else f"{len(missing)} problems", flush=True)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
