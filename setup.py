"""The build steps ``pyproject.toml`` cannot declare: the solver's compiled core, and the notebooks and data shipped.

The solver's modules are compiled by Cython when a C compiler is present. Without a compiler (or without
Python's headers) the build says so in one line and calcnb installs as plain Python:
``calcnb.solver.COMPILED`` is then False and the same modules run interpreted.

The repository keeps the notebooks and the data at its top level (``notebooks/``, ``data/``), once. A wheel
carries them inside the package, as ``calcnb/_resources/notebooks`` and ``calcnb/_resources/data``:
:class:`BuildPyWithShippedFiles` copies them into the build, and :mod:`calcnb.core.resources` reads them
from there (or from the checkout, in an editable install). Everything else is in ``pyproject.toml``.
"""

from __future__ import annotations

import fnmatch
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# The solver's hot path: each module compiled from its own .py (with the .pxd beside it, if any).
COMPILED_MODULES = ["dead", "ordering", "position", "relaxed", "search", "table", "witness"]

NO_COMPILER = "calcnb: no working C compiler here, so the solver runs interpreted (slower, same results)"


class OptionalBuildExt(build_ext):
    """Build the extensions if a compiler works; otherwise print one line and leave them out."""

    def run(self) -> None:
        try:
            super().run()
        except Exception:  # no compiler at all (setuptools raises a platform error)
            self._give_up()

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception:  # the compiler or the linker failed (CC=/bin/false, no Python.h, ...)
            self._give_up()
            raise _GaveUp from None

    def build_extensions(self) -> None:
        try:
            super().build_extensions()
        except _GaveUp:
            self.extensions = []

    def _give_up(self) -> None:
        if not getattr(self, "_said", False):
            print(NO_COMPILER, file=sys.stderr)
            self._said = True
        self.extensions = []

    def get_outputs(self) -> list[str]:
        return [] if getattr(self, "_said", False) else super().get_outputs()


class _GaveUp(Exception):
    pass


# The top-level folders a wheel ships inside the package (calcnb.core.resources.SHIPPED_FOLDERS), and where.
SHIPPED_FOLDERS = ("notebooks", "data")
PACKAGED = Path("calcnb") / "_resources"
ROOT = Path(__file__).resolve().parent
# Never shipped: a study's working files and logs (see .gitignore), checkpoints, caches, hidden files, and the
# worksheets a teacher notebook writes beside itself when it runs.
NOT_SHIPPED = (
    "winnability.csv",
    "*.log",
    "live_*.csv",
    ".*",
    "__pycache__",
    "*.pyc",
    ".ipynb_checkpoints",
    "worksheets",
)


def shipped_files(root: Path) -> list[Path]:
    """The files of the shipped folders under ``root`` (a checkout, or an unpacked sdist), relative to it."""
    found = []
    for folder in SHIPPED_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            relative = path.relative_to(root)
            left_out = any(fnmatch.fnmatch(part, rule) for part in relative.parts for rule in NOT_SHIPPED)
            if path.is_file() and not left_out:
                found.append(relative)
    return found


class BuildPyWithShippedFiles(build_py):
    """build_py, then the notebooks and the data copied into the build as ``calcnb/_resources/...``."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # an editable install reads them from the checkout
            return
        for relative in self._shipped():
            target = Path(self.build_lib) / PACKAGED / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / relative, target)

    def _shipped(self) -> list[Path]:
        return shipped_files(ROOT)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        copied = [str(Path(self.build_lib) / PACKAGED / relative) for relative in self._shipped()]
        return [*super().get_outputs(include_bytecode), *copied]


def extensions() -> list:
    """The Cython extensions, or none when Cython itself is missing (a plain sdist build without it)."""
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("calcnb: Cython is not installed, so the solver runs interpreted", file=sys.stderr)
        return []
    from setuptools import Extension

    modules = [Extension(f"calcnb.solver.{name}", [f"calcnb/solver/{name}.py"]) for name in COMPILED_MODULES]
    # the .pxd files give the C types; the annotations stay for readers and type checkers. No pickling: a search
    # lives inside one call (and Cython's generated pickling of 2-D C arrays does not compile cleanly)
    return cythonize(
        modules, compiler_directives={"language_level": 3, "annotation_typing": False, "auto_pickle": False}, quiet=True
    )


if __name__ == "__main__":  # as setuptools runs it; tests import shipped_files without building
    setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithShippedFiles})
