"""The command lines and environment that start a server: the app's Voila, JupyterLab, and a hub's options.

Built here as lists of arguments (never run here: :mod:`calcnb.serve.cli.process` starts them), so the
command line, a hub's configuration (``deploy/jupyterhub_config.py``), the browser tests and the
benchmarks start the very same servers. Secrets (a token, a class code) never go on a command line,
which any local user can read: they travel in the server's environment (:func:`server_environment`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from calcnb.core.settings import LANGUAGE
from calcnb.serve.shared.settings import (
    CLASSROOM_KERNEL_MANAGER,
    CULL_IDLE_SECONDS,
    CULL_INTERVAL_SECONDS,
    DEFAULT_APP_PORT,
    DEFAULT_LAB_PORT,
    IOPUB_OUTPUT_SECONDS,
    JUPYTER_DATA_DIR,
    LOCALHOST,
    POOL_REFILL_DELAY_SECONDS,
    SOLARA_MODULE,
    VOILA_EXTENSIONS,
    VOILA_LABEXTENSIONS,
    VOILA_MODULE,
    VOILA_TEMPLATE,
)

__all__ = [
    "cap_options",
    "culling_options",
    "curve_available",
    "ipc_available",
    "kernel_options",
    "lab_command",
    "preheat_options",
    "server_environment",
    "solara_command",
    "voila_command",
    "voila_options",
]


def culling_options(section: str = "MappingKernelManager") -> list[str]:
    """Command-line settings that shut down kernels no page is connected to (see ``docs/design.md``)."""
    return [
        f"--{section}.cull_idle_timeout={CULL_IDLE_SECONDS}",
        f"--{section}.cull_interval={CULL_INTERVAL_SECONDS}",
        f"--{section}.cull_connected=False",
        f"--{section}.cull_busy=False",
    ]


def voila_options() -> list[str]:
    """Command-line settings of Voila's pages, for Voila alone or as a Jupyter server extension (JupyterHub).

    The calcnb template (nothing fetched from outside; the server's environment
    must come from :func:`server_environment` for Voila to find it), the widget
    extensions only, no Python tracebacks shown to a class, and a page rendered
    with its cells' output however late the output reaches a busy server.
    """
    return [
        "--VoilaConfiguration.show_tracebacks=False",
        # A cell's output (the board's widget view) can reach the server seconds after the cell's reply when
        # a class loads the machine; Voila's executor waits 4 s for it, then renders the page without it, and
        # that page never shows its board. Wait as long as it takes to come (an ended cell's output does).
        f"--VoilaExecutor.iopub_timeout={IOPUB_OUTPUT_SECONDS}",
        f"--VoilaConfiguration.template={VOILA_TEMPLATE}",
        *(f"--VoilaConfiguration.extension_allowlist={name}" for name in VOILA_EXTENSIONS),
        f"--VoilaConfiguration.extra_labextensions_path={VOILA_LABEXTENSIONS}",
    ]


#: Platforms whose kernels stay on local TCP even where pyzmq has ipc: a Unix socket's path holds at most 103
#: bytes on macOS, which its long temporary folders (``/var/folders/…/T/``) nearly fill; Windows has no ipc in
#: pyzmq's wheels, or only recently.
TCP_PLATFORMS = ("darwin", "win32", "cygwin")


def ipc_available() -> bool:
    """Whether kernels can talk to their server over Unix sockets here: pyzmq has ipc, and the platform's paths fit."""
    import zmq

    return zmq.has("ipc") and not sys.platform.startswith(TCP_PLATFORMS)


def curve_available() -> bool:
    """Whether jupyter_client can give each kernel CurveZMQ keys (8.10 and later, with a pyzmq that has curve)."""
    import zmq
    from jupyter_client.manager import KernelManager

    return zmq.has("curve") and "transport_encryption" in KernelManager.class_trait_names()


def kernel_options() -> list[str]:
    """Command-line settings of the kernels of any server (the app's Voila, JupyterLab, a hub's servers).

    Where the platform has them (:func:`ipc_available`), the kernels talk to the server over Unix sockets,
    which only this machine's users reach. Elsewhere (Windows, macOS) over local TCP, with the messages
    encrypted (CurveZMQ keys the server gives each kernel) where jupyter_client and pyzmq can.
    """
    if ipc_available():
        return ["--KernelManager.transport=ipc"]
    options = ["--KernelManager.transport=tcp"]
    if curve_available():
        options.append("--KernelManager.transport_encryption=auto")
    return options


def cap_options(max_kernels: int | None = None, pages_per_device: int | None = None) -> list[str]:
    """Command-line settings of the caps on pages with a kernel (:mod:`calcnb.serve.voila.gate`); None: the default.

    ``max_kernels`` caps the pages in all (default: what the machine's memory holds), ``pages_per_device``
    the pages from one client address (default :data:`calcnb.serve.shared.caps.DEFAULT_PAGES_PER_DEVICE`).
    """
    options = []
    if max_kernels is not None:
        options.append(f"--ClassroomGate.max_kernels={max_kernels}")
    if pages_per_device is not None:
        options.append(f"--ClassroomGate.max_pages_per_device={pages_per_device}")
    return options


def preheat_options(pool_size: int) -> list[str]:
    """Voila settings that keep ``pool_size`` kernels ready with the notebook already run (none for 0)."""
    if pool_size <= 0:
        return []
    return [
        "--VoilaConfiguration.preheat_kernel=True",
        f"--VoilaConfiguration.default_pool_size={pool_size}",
        # A class arrives together: the pool refills once the class has its pages, one kernel at a time behind
        # any student whose kernel is starting (calcnb.serve.voila.kernels). A student arriving after the pool is spent
        # waits for the refill of the oldest place: at most this delay and one kernel's start.
        f"--VoilaKernelManager.fill_delay={POOL_REFILL_DELAY_SECONDS}",
    ]


def voila_command(
    target: Path,
    *,
    host: str = LOCALHOST,
    port: int = DEFAULT_APP_PORT,
    preheat: int = 0,
    max_kernels: int | None = None,
    pages_per_device: int | None = None,
) -> list[str]:
    """The command line that serves ``target`` (a notebook or a folder) with Voila, code hidden.

    The browser is never opened by Voila itself; :func:`calcnb.serve.cli.process.serve` opens it once the
    server answers. Voila hides code cells by default (``strip_sources``). Start it with
    :func:`calcnb.serve.cli.process.start_server`, which lets Voila find the ``calcnb`` template.
    ``max_kernels`` and ``pages_per_device`` are the caps (:func:`cap_options`); a class code goes in
    the server's environment (:func:`calcnb.serve.cli.environments.class_code_environment`).
    """
    return [
        sys.executable,
        "-m",
        VOILA_MODULE,
        str(target),
        f"--Voila.ip={host}",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",  # the address we print must be the one in use
        "--no-browser",
        *voila_options(),
        *culling_options(),
        # Kernels warm up a few at a time, students first; the culler spares kernels with no page yet (serve.kernels).
        f"--VoilaConfiguration.multi_kernel_manager_class={CLASSROOM_KERNEL_MANAGER}",
        *kernel_options(),
        *cap_options(max_kernels, pages_per_device),
        *preheat_options(preheat),
    ]


def solara_command(
    target: Path,
    *,
    host: str = LOCALHOST,
    port: int = DEFAULT_APP_PORT,
    max_kernels: int | None = None,
    pages_per_device: int | None = None,
) -> list[str]:
    """The command line that serves ``target`` (a notebook or a folder) with the class server, code hidden.

    One process for the whole class (:mod:`calcnb.serve.class_server.app`): each page is a virtual kernel in it.
    ``max_kernels`` and ``pages_per_device`` are the caps on pages, as for :func:`voila_command`; the class
    code, the language and the class log go in the server's environment, as for Voila.
    """
    command = [sys.executable, "-m", SOLARA_MODULE, str(target), f"--host={host}", f"--port={port}"]
    if max_kernels is not None:
        command.append(f"--max-pages={max_kernels}")
    if pages_per_device is not None:
        command.append(f"--pages-per-device={pages_per_device}")
    return command


NOTEBOOK_SHIM = "notebook_shim"


def lab_command(
    root: Path,
    *,
    host: str = LOCALHOST,
    port: int = DEFAULT_LAB_PORT,
    token: str | None = None,
    allow_root: bool | None = None,
) -> list[str]:
    """The command line that runs JupyterLab on the folder ``root``.

    The access token is never put on the command line (anyone on the machine can
    read a command line): pass it in the server's environment, with
    :func:`server_environment`. Only ``token=""`` (no token: local test servers)
    is written here. ``allow_root`` defaults to whether this process runs as root
    (containers do; Jupyter refuses root unless told).
    """
    if allow_root is None:
        allow_root = hasattr(os, "geteuid") and os.geteuid() == 0
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        # notebook_shim (installed with JupyterLab, for the classic notebook's extensions, which calcnb has none
        # of) reads every attribute of the server as it starts, the deprecated ServerApp.token among them: the
        # teacher's terminal would open on its DeprecationWarning (Voila's import shows traitlets' warnings).
        f"--ServerApp.jpserver_extensions={NOTEBOOK_SHIM}=False",
        f"--ServerApp.root_dir={root}",
        f"--ServerApp.ip={host}",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.open_browser=False",
        *kernel_options(),
    ]
    if token == "":
        command.append("--IdentityProvider.token=")
    if allow_root:
        command.append("--ServerApp.allow_root=True")
    return command


def server_environment(*, language: str | None = None, token: str | None = None) -> dict[str, str]:
    """The environment of a server: this one's, plus where the calcnb template is, the language and the token.

    The server's kernels inherit it, so ``language`` (the setting :data:`calcnb.core.settings.LANGUAGE`)
    sets the language of everything they show; ``token`` (``JUPYTER_TOKEN``) is readable only by the
    server's own user (``/proc/PID/environ``), unlike a command line.
    """
    environment = dict(os.environ)
    paths = [str(JUPYTER_DATA_DIR), *filter(None, environment.get("JUPYTER_PATH", "").split(os.pathsep))]
    environment["JUPYTER_PATH"] = os.pathsep.join(dict.fromkeys(paths))
    if language is not None:
        LANGUAGE.write(environment, language)
    if token is not None:
        environment["JUPYTER_TOKEN"] = token
    return environment
