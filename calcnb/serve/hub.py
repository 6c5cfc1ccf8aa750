"""A student's server on a school's hub: the Voila apps and nothing else.

``deploy/jupyterhub_config.py`` starts every student's Jupyter server with :func:`student_server_options`:
no JupyterLab, no terminals, no code sent by the browser run in a kernel, and an authorizer
(:class:`StudentAuthorizer`) that refuses every REST call a Voila page does not make (creating
kernels, reading or writing files, sessions, terminals). The students' notebooks are served from a
folder of links that leaves out ``teacher/`` (:func:`student_notebooks`), so the teacher's answers
are on no student's server at all.

This module is also a Jupyter server extension of a student's server: once Voila has made its routes,
it puts the caps on pages of :mod:`calcnb.serve.gate` in front of Voila's pages (the same
``--ClassroomGate.*`` settings as the app's), and gives the kernel websockets the app's ping
(Jupyter Server's alone, :mod:`calcnb.serve.voila_app`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

from jupyter_server.auth import Authorizer

# Server extensions a student's server loads: Voila only (no JupyterLab, no notebook, no language server).
STUDENT_EXTENSIONS = {
    "voila": True,
    "calcnb.serve.hub": True,  # this module: the caps in front of Voila's pages
    "jupyterlab": False,
    "notebook": False,
    "notebook_shim": False,
    "jupyter_lsp": False,
    "jupyter_server_terminals": False,
    "nbclassic": False,
}
# The kernel messages a Voila page sends (the widgets' comms): never an execute request.
PAGE_MESSAGE_TYPES = (
    "comm_open",
    "comm_close",
    "comm_msg",
    "comm_info_request",
    "kernel_info_request",
    "shutdown_request",
)
# What a Voila page asks of the server beside its own routes: its kernel's state and channels, kernel specs.
ALLOWED = {("kernels", "read"), ("kernels", "execute"), ("kernelspecs", "read")}
TEACHER_FOLDER = "teacher"
STUDENT_AUTHORIZER = "calcnb.serve.hub.StudentAuthorizer"


class StudentAuthorizer(Authorizer):
    """Allows a student's page what Voila needs (:data:`ALLOWED`) and refuses the rest of the REST API.

    Voila's own pages and static files are not REST resources and are unaffected; creating a kernel
    (``POST /api/kernels``), any file access (``/api/contents``, ``/files``), sessions and terminals are
    answered 403.
    """

    def is_authorized(self, handler, user, action: str, resource: str) -> bool:
        """Whether ``action`` on ``resource`` is something a Voila page does."""
        if (
            handler.request.method == "POST"
            and resource == "kernels"
            and handler.request.path.rstrip("/").endswith("/api/kernels")
        ):
            return False
        return (resource, action) in ALLOWED


def student_server_options() -> list[str]:
    """Command-line settings of a student's Jupyter server: Voila only, no terminals, page messages only."""
    return [
        *(f"--ServerApp.jpserver_extensions={name}={value}" for name, value in STUDENT_EXTENSIONS.items()),
        "--ServerApp.terminals_enabled=False",
        f"--ServerApp.authorizer_class={STUDENT_AUTHORIZER}",
        *(f"--MappingKernelManager.allowed_message_types={kind}" for kind in PAGE_MESSAGE_TYPES),
    ]


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """This module is a Jupyter server extension (the caps on a student's server's pages)."""
    return [{"module": "calcnb.serve.hub"}]


def _load_jupyter_server_extension(serverapp) -> None:
    """Give the server its gate (the caps, configured on its command line)."""
    from calcnb.serve.gate import GATE_SETTING, ClassroomGate

    serverapp.web_app.settings[GATE_SETTING] = ClassroomGate(parent=serverapp)


async def _start_jupyter_server_extension(serverapp) -> None:
    """Once every extension has made its routes (Voila's come after this module's, by name): gate Voila's pages,
    and give the kernel websockets the app's ping (:class:`calcnb.serve.voila_app.ServerKernelWebsocket`)."""
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler

    from calcnb.serve.gate import GATED_HANDLERS, replace_routes
    from calcnb.serve.voila_app import ServerKernelWebsocket

    replacements = {**GATED_HANDLERS, KernelWebsocketHandler: ServerKernelWebsocket}
    routers = (serverapp.web_app.default_router, serverapp.web_app.wildcard_router)
    if not sum(replace_routes(router, replacements) for router in routers):
        serverapp.log.error("calcnb: Voila's pages were not found; the caps on pages are not in place")


def _link_or_copy(entry: Path, target: Path) -> None:
    """A link to ``entry`` at ``target``; a copy where links cannot be made (Windows without the right to)."""
    try:
        os.symlink(entry, target, target_is_directory=entry.is_dir())
    except (OSError, NotImplementedError, AttributeError):
        if entry.is_dir():
            shutil.copytree(entry, target)
        else:
            shutil.copy2(entry, target)


def _remove(path: Path) -> None:
    """Remove a link, or a copy made by :func:`_link_or_copy`, if there is one."""
    with contextlib.suppress(FileNotFoundError):
        if path.is_symlink() or not path.is_dir():
            path.unlink()
        else:
            shutil.rmtree(path)


def student_notebooks(source: Path, folder: Path) -> Path:
    """A folder of links to everything in ``source`` except the teacher's notebooks, in every language.

    ``source/teacher`` and ``source/<language>/teacher`` are left out; the folder is rebuilt each time
    (links only: the notebooks stay where they are). Where links cannot be made (Windows gives the right
    to make them to administrators only) the entries are copied instead. Returns ``folder``.
    """
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.rglob("*"):
        if old.is_symlink():
            old.unlink()
    for entry in sorted(source.iterdir()):
        if entry.name == TEACHER_FOLDER or entry.name.startswith("."):
            continue
        if entry.is_dir() and (entry / TEACHER_FOLDER).is_dir():  # a language's twins, with their own teacher/
            student_notebooks(entry, folder / entry.name)
            continue
        _remove(folder / entry.name)  # a copy made last time, where links could not be made
        _link_or_copy(entry, folder / entry.name)
    return folder
