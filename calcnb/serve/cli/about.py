"""Which calcnb runs: its version, the solver's form (compiled or interpreted), and where its notebooks are.

``calcnb --version`` prints :func:`version_lines`; ``calcnb lessons`` ends with the same facts. Running
``python -m calcnb`` inside a clone where calcnb was installed with ``pip install .`` imports the clone's
own folder, not the installed package: the solver then runs interpreted and nothing would say why.
:func:`shadow_note` says so, and every command prints it (on stderr) when it applies.
"""

from __future__ import annotations

import platform

from calcnb.core.resources import installed_version, notebooks_root, package_root, shadowed_install
from calcnb.i18n import message
from calcnb.serve.cli.workspace import default_workspace

__all__ = ["shadow_note", "version_lines"]


def shadow_note() -> str | None:
    """One line when this process runs a clone's ``calcnb`` folder instead of the installed package, else None."""
    installed = shadowed_install()
    if installed is None:
        return None
    return message("app.shadowed", running=package_root(), installed=installed)


def version_lines(*, note: bool = True) -> list[str]:
    """The version, the solver's form, the Python, the package's folder, the shipped notebooks and the workspace;
    with ``note``, the :func:`shadow_note` when it applies."""
    from calcnb.solver import COMPILED  # the solver's modules load here, and only here

    form = message("app.form_compiled" if COMPILED else "app.form_interpreted")
    lines = [
        message("app.version", version=installed_version(), form=form, python=platform.python_version()),
        message("app.version_package", path=package_root()),
        message("app.version_notebooks", path=notebooks_root(), workspace=default_workspace()),
    ]
    said = shadow_note() if note else None
    return [*lines, said] if said else lines
