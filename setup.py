"""The solver's compiled core: its modules compiled by Cython when a C compiler is present.

Everything else is in ``pyproject.toml``. Without a compiler (or without Python's headers) the
build says so in one line and calcnb installs as plain Python: ``calcnb.solver.COMPILED`` is then
False and the same modules run interpreted.
"""

from __future__ import annotations

import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

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


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
