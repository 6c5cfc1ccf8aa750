"""Where the notebooks are: the notebooks folder, the notebook or folder a command names, and which are lessons.

The command line, the app's Voila (which trusts the notebooks shipped here) and a hub's configuration
all find the notebooks through this module, so none of them depends on the command line. The shipped
notebooks are package resources (:func:`calcnb.core.resources.notebooks_root`: inside the installed
package, or the checkout's ``notebooks/``); ``lab`` opens the user's own copy of them instead
(:mod:`calcnb.serve.cli.workspace`).
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from calcnb.core.resources import notebooks_root
from calcnb.game.errors import quote as quote_input
from calcnb.i18n import message
from calcnb.serve.shared.errors import AppError
from calcnb.serve.shared.settings import DEFAULT_APP_PORT, DEFAULT_LESSON_PORT

__all__ = [
    "SERVED_VARIABLE",
    "Served",
    "default_app_port",
    "existing_path",
    "is_lesson",
    "lookup_error",
    "notebooks_dir",
    "resolve_target",
]


def notebooks_dir() -> Path:
    """The shipped notebooks folder (in the installed package, or the checkout's ``notebooks/``)."""
    return notebooks_root()


def resolve_target(
    path: str | os.PathLike | None,
    default_name: str | None = None,
    *,
    language: str | None = None,
    root: Path | None = None,
) -> Path:
    """The notebook or folder to serve, as an absolute path.

    ``path`` may be absolute, relative to the current folder, or a name inside
    the notebooks folder (``02_wraparound.ipynb``; ``root``, default the shipped
    notebooks). None means ``default_name`` in the notebooks folder, or the
    notebooks folder itself. With a ``language`` other than English, a name
    inside the notebooks folder is looked for first among that language's twins
    (``notebooks/pt/``). Raises :class:`AppError` saying what is missing.
    """
    root = notebooks_dir() if root is None else root
    folders = [root]
    if language and language != "en":
        folders.insert(0, root / language)
    if path is None:
        if not folders[-1].is_dir():
            raise AppError(message("app.no_notebooks_dir", path=folders[-1]))
        for folder in folders:
            target = folder / default_name if default_name else folder
            if target.exists():
                return target
        raise AppError(message("app.not_found", path=target))
    try:
        candidate = Path(path).expanduser()
        if not candidate.exists() and not candidate.is_absolute():
            # A bare name inside the notebooks folder (the language's twin first), with or without its .ipynb.
            inside = [folder / name for folder in folders for name in (candidate, f"{candidate}.ipynb")]
            candidate = next((option for option in inside if option.exists()), candidate)
        if not candidate.exists():
            raise AppError(message("app.not_found", path=path))
        if candidate.is_file() and candidate.suffix != ".ipynb":
            raise AppError(message("app.not_notebook", path=path))
        return candidate.resolve()
    except OSError as error:  # a name the system cannot even look up: too long, or in a folder it may not read
        raise lookup_error(path, error) from None


def lookup_error(path: str | os.PathLike, error: OSError) -> AppError:
    """The error to show for a notebook or folder name the system cannot look up (too long, unreadable)."""
    text = os.fspath(path)
    if error.errno == errno.ENAMETOOLONG:
        return AppError(message("app.name_too_long", text=quote_input(text)))
    return AppError(message("app.unreadable_path", text=quote_input(text), reason=error.strerror or error))


def existing_path(path: str | os.PathLike) -> Path | None:
    """``path`` as typed (absolute, or relative to the current folder) if something is there, else None.

    AppError when the system cannot even look it up (see :func:`lookup_error`).
    """
    try:
        candidate = Path(path).expanduser()
        return candidate.resolve() if candidate.exists() else None
    except OSError as error:
        raise lookup_error(path, error) from None


def is_lesson(target: Path) -> bool:
    """Whether ``target`` is a lesson: a notebook with teacher's notes (``teacher/NAME_teacher.ipynb``)."""
    if not target.is_file():
        return False
    return any(
        (folder / "teacher" / f"{target.stem}_teacher.ipynb").exists() for folder in (target.parent, notebooks_dir())
    )


def default_app_port(target: Path) -> int:
    """The port ``app`` listens on unless told: a lesson's own, so the play app can run beside it."""
    return DEFAULT_LESSON_PORT if is_lesson(target) else DEFAULT_APP_PORT


#: The environment variable naming what the class server serves, set before Solara imports its page module
#: (:mod:`calcnb.serve.class_server.page`; Solara reads the module's routes once, at start-up).
SERVED_VARIABLE = "CALCNB_SERVED"


@dataclass(frozen=True)
class Served:
    """What the server serves: a notebook at ``/``, or a folder's notebooks at ``/NAME``."""

    target: Path

    def notebook(self, path: str) -> Path | None:
        """The notebook the address ``path`` asks for, or None when it asks for none that is served."""
        name = path.strip("/")
        if self.target.is_file():
            return self.target if name in ("", self.target.stem, self.target.name) else None
        if not name:
            return None
        wanted = name if name.endswith(".ipynb") else f"{name}.ipynb"
        candidate = (self.target / wanted).resolve()
        inside = self.target.resolve() in candidate.parents
        return candidate if inside and candidate.is_file() else None

    def address(self, notebook: Path) -> str:
        """The address a served ``notebook`` is served at: ``/`` for a lone notebook, ``/NAME`` in a folder."""
        if self.target.is_file():
            return "/"
        return "/" + notebook.resolve().relative_to(self.target.resolve()).with_suffix("").as_posix()

    def listing(self) -> list[str]:
        """The served folder's notebooks, by address (empty when one notebook is served)."""
        if self.target.is_file():
            return []
        found = self.target.rglob("*.ipynb")
        return sorted(
            path.relative_to(self.target).with_suffix("").as_posix()
            for path in found
            if ".ipynb_checkpoints" not in path.parts
        )
