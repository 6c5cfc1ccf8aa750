"""A student's server on a school's hub: the Voila apps and nothing else.

``deploy/jupyterhub_config.py`` starts every student's Jupyter server with :func:`student_server_options`:
no JupyterLab, no terminals, no code sent by the browser run in a kernel, and an authorizer
(:class:`StudentAuthorizer`) that refuses every REST call a Voila page does not make (creating
kernels, reading or writing files, sessions, terminals). The students' notebooks are served from a
folder of links that leaves out ``teacher/`` (:func:`student_notebooks`), so the teacher's answers
are on no student's server at all.

This module is also a Jupyter server extension of a student's server: once Voila has made its routes,
it puts the caps on pages of :mod:`calcnb.serve.voila.gate` in front of Voila's pages (the same
``--ClassroomGate.*`` settings as the app's), and gives the kernel websockets the app's ping
(Jupyter Server's alone, :mod:`calcnb.serve.voila.app`).

A student's server holds one student's pages: at most :data:`STUDENT_MAX_KERNELS` with a kernel at once
unless ``--ClassroomGate.max_kernels=N`` says otherwise (the app's default, what the whole machine's
memory holds, would let one student fill the machine). The caps go by the visitor's address, and
JupyterHub's student servers believe the forwarding headers of every request (``trust_xheaders``),
where tornado takes a browser's own ``X-Real-Ip`` first: rotating it, one student passed for a dozen
devices. Here a request's address is the one the hub's proxy saw (:class:`HubProxy`): the last entry
of ``X-Forwarded-For``, which configurable-http-proxy appends to whatever the browser sent, believed
only when the request comes from the proxy itself; ``X-Real-Ip`` never.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import shutil
import socket
from pathlib import Path
from urllib.parse import urlsplit

from jupyter_server.auth import Authorizer
from tornado import httputil, web
from traitlets import List, TraitError, Unicode, validate
from traitlets.config import LoggingConfigurable

from calcnb.serve.shared.caps import DEFAULT_PAGES_PER_DEVICE

# Server extensions a student's server loads: Voila only (no JupyterLab, no notebook, no language server).
STUDENT_EXTENSIONS = {
    "voila": True,
    "calcnb.serve.voila.hub": True,  # this module: the caps in front of Voila's pages
    "jupyterlab": False,
    "notebook": False,
    "notebook_shim": False,
    "jupyter_lsp": False,
    "jupyter_server_terminals": False,
    "nbclassic": False,
    # Installed with the class server, Solara enables its own Jupyter extension everywhere; a pupil's server
    # on a hub serves Voila's pages only.
    "solara.server.jupyter.server_extension": False,
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
STUDENT_AUTHORIZER = "calcnb.serve.voila.hub.StudentAuthorizer"
# The pages with a kernel a student's server holds at once: one student's (a device's worth, and two more for a
# phone beside the laptop). ``--ClassroomGate.max_kernels=N`` gives another number (0: what the memory holds).
STUDENT_MAX_KERNELS = DEFAULT_PAGES_PER_DEVICE + 2
# Where the hub's proxy reaches a student's server from on one machine (The Littlest JupyterHub, the trial hub).
LOOPBACK = ("127.0.0.1", "::1")
NO_ADDRESS = "0.0.0.0"  # tornado's remote_ip for a connection that is not over IP (a Unix socket)


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


def _ip(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``text`` as an IP address (an IPv4 address mapped into IPv6 as IPv4), or None if it is not one."""
    try:
        address = ipaddress.ip_address((text or "").strip())
    except ValueError:
        return None
    return getattr(address, "ipv4_mapped", None) or address


def _hub_address() -> list[str]:
    """The hub's own address as its students' servers are told it (``JUPYTERHUB_API_URL``), if it is an IP address."""
    host = urlsplit(os.environ.get("JUPYTERHUB_API_URL", "")).hostname
    return [str(_ip(host))] if _ip(host) is not None else []


class HubProxy(LoggingConfigurable):
    """The hub's proxy as a student's server sees it: whose ``X-Forwarded-For`` tells a visitor's address.

    configurable-http-proxy appends the address it was reached from to ``X-Forwarded-For`` and passes on
    the rest of the request, a browser's own ``X-Real-Ip`` and ``X-Forwarded-For`` included. So the
    visitor's address is the last entry of ``X-Forwarded-For`` of a request from the proxy, and the
    address a request came from otherwise; ``X-Real-Ip`` is never read.
    """

    addresses = List(
        Unicode(),
        config=True,
        help="The addresses or networks (10.0.0.0/8) the hub's proxy reaches a student's server from; "
        "default: this machine, and the hub's address when it is an IP address.",
    )

    def _addresses_default(self) -> list[str]:
        return [*LOOPBACK, *_hub_address()]

    @validate("addresses")
    def _valid_addresses(self, proposal) -> list[str]:
        for text in proposal["value"]:
            try:
                ipaddress.ip_network(text.strip(), strict=False)
            except ValueError as error:
                raise TraitError(f"HubProxy.addresses: {text!r} is not an address or a network") from error
        return proposal["value"]

    def is_proxy(self, peer: str | None) -> bool:
        """Whether a connection from ``peer`` comes from the hub's proxy (one of :attr:`addresses`)."""
        address = _ip(peer)
        return address is not None and any(
            address in ipaddress.ip_network(text.strip(), strict=False) for text in self.addresses
        )

    def visitor_address(self, peer: str | None, forwarded_for: str | None) -> str:
        """The address of the visitor of a request that came from ``peer`` with ``X-Forwarded-For: forwarded_for``.

        From the proxy: the last entry of ``forwarded_for``, the one the proxy added (the entries before it
        are the browser's word); the proxy's own address if there is none, or it is not an IP address.
        From anywhere else: ``peer``, whatever the headers say.
        """
        if peer is None:
            return NO_ADDRESS
        if self.is_proxy(peer) and forwarded_for:
            last = _ip(forwarded_for.split(",")[-1])
            if last is not None:
                return str(last)
        return str(_ip(peer) or peer)

    def transform(self, request: httputil.HTTPServerRequest) -> web.OutputTransform:
        """Set ``request.remote_ip`` to its visitor's address (:meth:`visitor_address`), before any handler reads it.

        Tornado makes an output transform of each request before its handler (``Application.add_transform``);
        the one returned here leaves the answer as it is. The address a request came from is its
        connection's, not the ``remote_ip`` tornado took from the headers.
        """
        request.remote_ip = self.visitor_address(_peer(request), request.headers.get("X-Forwarded-For"))
        return web.OutputTransform(request)


def _peer(request: httputil.HTTPServerRequest) -> str | None:
    """The address the request's connection came from (whatever its headers say); None if not over IP."""
    context = getattr(request.connection, "context", None)
    address = getattr(context, "address", None)
    if getattr(context, "address_family", None) in (socket.AF_INET, socket.AF_INET6) and address:
        return address[0]
    return None


def student_gate(serverapp):
    """A student's server's gate: the ``--ClassroomGate.*`` settings, and :data:`STUDENT_MAX_KERNELS` pages at most
    unless ``--ClassroomGate.max_kernels`` is given."""
    from calcnb.serve.voila.gate import ClassroomGate

    given = serverapp.config.get("ClassroomGate", {})
    defaults = {} if "max_kernels" in given else {"max_kernels": STUDENT_MAX_KERNELS}
    return ClassroomGate(parent=serverapp, **defaults)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """This module is a Jupyter server extension (the caps on a student's server's pages)."""
    return [{"module": "calcnb.serve.voila.hub"}]


def _load_jupyter_server_extension(serverapp) -> None:
    """Give the server its gate (the caps, configured on its command line: :func:`student_gate`), and the visitors'
    addresses the hub's proxy saw (:class:`HubProxy`, ``--HubProxy.addresses=...``)."""
    from jupyter_server.utils import url_path_join

    from calcnb.serve.shared.gate_pages import READY_PATH
    from calcnb.serve.voila.app import set_page_language
    from calcnb.serve.voila.gate import GATE_SETTING, ReadyHandler

    serverapp.web_app.settings[GATE_SETTING] = student_gate(serverapp)
    ready = url_path_join(serverapp.web_app.settings.get("base_url", "/"), READY_PATH)
    serverapp.web_app.add_handlers(".*$", [(ready, ReadyHandler)])  # asked by the pupil's page (gate_pages)
    set_page_language(serverapp.config)  # Voila's pages say the class's language (<html lang>)
    serverapp.web_app.add_transform(HubProxy(parent=serverapp).transform)


async def _start_jupyter_server_extension(serverapp) -> None:
    """Once every extension has made its routes (Voila's come after this module's, by name): gate Voila's pages,
    and give the kernel websockets the app's ping (:class:`calcnb.serve.voila.app.ServerKernelWebsocket`)."""
    from jupyter_server.services.kernels.websocket import KernelWebsocketHandler

    from calcnb.serve.voila.app import ServerKernelWebsocket
    from calcnb.serve.voila.gate import GATED_HANDLERS, replace_routes

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
