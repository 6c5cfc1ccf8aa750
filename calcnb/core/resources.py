"""Where calcnb's shipped files are (the notebooks, the data, the Voila share folder), read with importlib.resources.

A wheel carries the notebooks and the data inside the package, in ``calcnb/_resources/notebooks`` and
``calcnb/_resources/data``: ``setup.py`` copies them there at build time from the repository's top-level
``notebooks/`` and ``data/``, so git keeps one copy of each. A checkout (an editable install, or a clone on
``sys.path``) has no ``_resources`` folder, and the same files are read where the repository keeps them.
Every module finds a shipped file through this one, so none of them assumes a checkout or a wheel. The
files must be on disk (Jupyter and Voila serve them by path): calcnb does not run from a zip archive.
"""

from __future__ import annotations

import json
from importlib.metadata import PackageNotFoundError, distributions, version
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importlib.resources.abc is Python 3.11's; the name is only an annotation here
    from importlib.resources.abc import Traversable

__all__ = [
    "PACKAGED",
    "SHIPPED_FOLDERS",
    "data_file",
    "data_root",
    "from_checkout",
    "installed_version",
    "notebooks_root",
    "package_root",
    "shadowed_install",
    "share_dir",
]

PACKAGE = "calcnb"
#: The folder of the package that holds the shipped notebooks and data in a wheel (made by ``setup.py``).
PACKAGED = "_resources"
#: The repository's top-level folders that a wheel ships inside the package, in :data:`PACKAGED`.
SHIPPED_FOLDERS = ("notebooks", "data")


def _on_disk(resource: Traversable) -> Path:
    """``resource`` as a path of the file system (calcnb's files are served by path, never from a zip)."""
    if isinstance(resource, Path):
        return resource
    raise RuntimeError(f"calcnb's files must be on disk to be served, not in {resource}: install calcnb with pip")


def package_root() -> Path:
    """The folder of the calcnb package this process runs (its ``__init__.py`` is there)."""
    return _on_disk(files(PACKAGE))


def _shipped(folder: str) -> Path:
    """A shipped folder: inside the package when installed from a wheel, else the checkout's top-level one."""
    packaged = files(PACKAGE) / PACKAGED / folder
    if packaged.is_dir():
        return _on_disk(packaged)
    return package_root().parent / folder


def from_checkout() -> bool:
    """Whether the shipped files are read from a checkout of the repository (no packaged copy in the package)."""
    return not (files(PACKAGE) / PACKAGED).is_dir()


def notebooks_root() -> Path:
    """The shipped notebooks: the students' ones at the top, ``pt/`` with their twins, ``teacher/`` with the notes."""
    return _shipped("notebooks")


def data_root() -> Path:
    """The shipped data: the stored studies and the table of seeds decided by the solver."""
    return _shipped("data")


def data_file(name: str) -> Path:
    """One shipped data file, by name (``"player_study.csv"``); it may not exist (a study not stored yet)."""
    return data_root() / name


def share_dir() -> Path:
    """The Jupyter data folder calcnb ships (its Voila template and the widget manager its pages load)."""
    return _on_disk(files(PACKAGE) / "share")


def installed_version() -> str:
    """The version of the installed calcnb distribution ("0.1.0"), or ``"unknown"`` when none is installed."""
    try:
        return version(PACKAGE)
    except PackageNotFoundError:
        return "unknown"


def _editable(distribution) -> bool:
    """Whether ``distribution`` is an editable install (pip's ``direct_url.json`` says so)."""
    try:
        said = json.loads(distribution.read_text("direct_url.json") or "{}")
    except ValueError:
        return False
    return bool(said.get("dir_info", {}).get("editable"))


def shadowed_install() -> Path | None:
    """The folder of an installed calcnb that this process does not run, or None.

    ``pip install .`` inside a clone installs calcnb (compiled) into ``site-packages``, but ``python -m
    calcnb`` run in the clone imports the clone's own ``calcnb`` folder first (the current folder leads
    ``sys.path``): interpreted, with the checkout's notebooks. This finds that case, so it can be said.
    An editable install runs the checkout by design and is never "shadowed".
    """
    running = package_root().resolve()
    for distribution in distributions(name=PACKAGE):
        if distribution.read_text("INSTALLER") is None or _editable(distribution):
            continue  # an egg-info of a checkout, or an editable install
        installed = Path(str(distribution.locate_file(PACKAGE)))
        if (installed / "__init__.py").is_file() and installed.resolve() != running:
            return installed
    return None
