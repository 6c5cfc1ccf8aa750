"""The user's own copy of the notebooks: the folder ``calcnb lab`` opens, made on first use and kept up to date.

The shipped notebooks live inside the installed package, where a user should never edit them (an
upgrade would replace them, and a school's install may be read-only). ``calcnb lab`` therefore opens a
workspace: a folder the user owns and can find (``Documents/calcnb`` by default, or ``--workspace DIR``),
holding a copy of every shipped notebook (the students' ones, ``pt/`` and the teacher's notes).

A manifest in the workspace (:data:`MANIFEST`) keeps the hash of each shipped file as last copied, so
each later start can tell a notebook the user changed from one calcnb changed (as nbgitpuller does):

- a shipped notebook missing from the workspace is copied (a new one, or one the user deleted to get it back);
- a notebook the user left as copied is replaced by the new version after an upgrade;
- a notebook the user changed is never overwritten: a newer shipped version is written beside it as
  ``NAME (new).ipynb``, said in one line.

A copy names its kernel and its Python version as this machine's ``python3`` kernel does (:func:`as_run_here`):
JupyterLab writes the running kernel's names into a notebook as it opens it, and a notebook whose names differ
would be changed (the unsaved-changes dot) before the teacher has touched it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from calcnb.core.resources import installed_version, notebooks_root
from calcnb.i18n import message

__all__ = [
    "MANIFEST",
    "Sync",
    "as_run_here",
    "default_workspace",
    "new_version_name",
    "shipped_notebooks",
    "sync_workspace",
]

#: The workspace's record of the shipped files as last copied (hidden: JupyterLab does not list dot files).
MANIFEST = ".calcnb-manifest.json"
WORKSPACE_FOLDER = "calcnb"
NEW_SUFFIX = " (new)"


def default_workspace() -> Path:
    """Where ``calcnb lab`` puts the user's notebooks unless told: ``calcnb`` in the user's documents folder."""
    try:
        from platformdirs import user_documents_path
    except ImportError:  # platformdirs comes with Jupyter; never mind if not
        return Path.home() / WORKSPACE_FOLDER
    return user_documents_path() / WORKSPACE_FOLDER


def shipped_notebooks(source: Path | None = None) -> list[str]:
    """The shipped notebooks, as paths relative to the notebooks folder with ``/`` (``"pt/teacher/x.ipynb"``)."""
    source = notebooks_root() if source is None else source
    return sorted(
        path.relative_to(source).as_posix()
        for path in source.rglob("*.ipynb")
        if ".ipynb_checkpoints" not in path.relative_to(source).parts
    )


def new_version_name(relative: str) -> str:
    """Where a newer shipped version goes beside a notebook the user changed: ``"x.ipynb"`` → ``"x (new).ipynb"``."""
    path = Path(relative)
    return path.with_name(f"{path.stem}{NEW_SUFFIX}{path.suffix}").as_posix()


def _digest(path: Path) -> str | None:
    """The SHA-256 of a file's bytes, or None if there is no such file."""
    try:
        return _digest_of(path.read_bytes())
    except FileNotFoundError:
        return None


def _digest_of(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


@cache
def _kernel_metadata() -> dict[str, Any]:
    """The ``kernelspec`` and ``language_info`` this machine's ``python3`` kernel gives a notebook it runs."""
    from ipykernel.ipkernel import IPythonKernel  # the kernel's own names, as it reports them to JupyterLab
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        spec = KernelSpecManager().get_kernel_spec("python3")
        kernelspec = {"display_name": spec.display_name, "language": spec.language, "name": "python3"}
    except NoSuchKernel:  # ipykernel's own spec, as JupyterLab finds it when none is installed
        kernelspec = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    return {"kernelspec": kernelspec, "language_info": dict(IPythonKernel.language_info)}


def as_run_here(content: bytes) -> bytes:
    """A shipped notebook's bytes with its kernel named as this machine's ``python3`` kernel names it.

    Unchanged when the names already agree (the notebook as shipped) or when ``content`` is not a notebook.
    """
    try:
        notebook = json.loads(content)
        metadata = notebook["metadata"]
    except (ValueError, TypeError, KeyError):
        return content
    here = _kernel_metadata()
    if all(metadata.get(key) == value for key, value in here.items()):
        return content
    metadata.update(here)
    return (json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")  # as nbformat


@dataclass
class Sync:
    """What one :func:`sync_workspace` did: the notebooks copied, updated, kept with a new version beside them."""

    folder: Path
    first: bool = False
    copied: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """What to tell the user, one line each (nothing when the workspace was already up to date)."""
        said = []
        if self.first:
            said.append(message("app.workspace_made", count=len(self.copied), folder=self.folder))
        elif self.copied:
            said.append(message("app.workspace_copied", count=len(self.copied), folder=self.folder))
        if self.updated:
            said.append(message("app.workspace_updated", count=len(self.updated), folder=self.folder))
        said += [message("app.workspace_kept", name=name, new=new_version_name(name)) for name in self.kept]
        return said


def _read_manifest(folder: Path) -> dict[str, str]:
    try:
        recorded = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = recorded.get("files", {}) if isinstance(recorded, dict) else {}
    return {str(name): str(digest) for name, digest in files.items()} if isinstance(files, dict) else {}


def _write_manifest(folder: Path, files: dict[str, str]) -> None:
    record = {"calcnb": installed_version(), "files": dict(sorted(files.items()))}
    (folder / MANIFEST).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def sync_workspace(folder: Path, source: Path | None = None, *, say: Callable[[str], None] | None = print) -> Sync:
    """Bring the workspace ``folder`` up to date with the shipped notebooks (``source``), never losing an edit.

    See the module notes for the rules. ``say`` prints each line of :meth:`Sync.lines` (None: silent).
    Raises OSError when the folder cannot be made or written.
    """
    source = notebooks_root() if source is None else source
    folder = folder.expanduser().resolve()
    first = not (folder / MANIFEST).exists()
    folder.mkdir(parents=True, exist_ok=True)
    recorded = _read_manifest(folder)
    done = Sync(folder, first=first)
    for relative in shipped_notebooks(source):
        shipped, mine = source / relative, folder / relative
        content = as_run_here(shipped.read_bytes())
        new = _digest_of(content)
        current, last = _digest(mine), recorded.get(relative)
        if current is None:  # new, or deleted by the user to get it back
            done.copied.append(relative)
            _write(content, mine)
        elif current == new:
            pass
        elif current == last:  # untouched by the user: the new version replaces it
            done.updated.append(relative)
            _write(content, mine)
        elif new != last:  # changed by the user (or theirs all along), and calcnb has another version
            done.kept.append(relative)
            _write(content, folder / new_version_name(relative))
        else:  # changed by the user, and calcnb's version is the one they started from
            continue
        recorded[relative] = new
    _write_manifest(folder, recorded)
    if say is not None:
        for line in done.lines():
            say(line)
    return done


def _write(content: bytes, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content)
