"""Starting and stopping a server process: free ports, a server in a session of its own, and a clean stop.

The command line runs every server through :func:`serve` (in the foreground: the address printed, a
browser opened, Ctrl-C or SIGTERM stopping it and every kernel it started). The browser tests, the
screenshot script and the benchmarks start and stop theirs with the same :func:`start_server`,
:func:`wait_until_serving` and :func:`stop_server`. Why a session of its own: ``docs/design.md``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import socket
import subprocess
import sys
import time
import webbrowser
from collections.abc import Sequence
from typing import IO

from calcnb.game.errors import quote as quote_input
from calcnb.i18n import message
from calcnb.serve.address import (
    browser_address,
    class_code_banner,
    network_address,
    print_for_the_class,
    with_class_code,
)
from calcnb.serve.commands import server_environment
from calcnb.serve.errors import AppError
from calcnb.serve.settings import ALL_INTERFACES, LOCALHOST

__all__ = [
    "check_can_listen",
    "free_port",
    "port_is_free",
    "serve",
    "start_server",
    "stop_server",
    "wait_until_serving",
]


# ------------------------------------------------------------ ports


def free_port(host: str = LOCALHOST) -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def _probe() -> socket.socket:
    """A socket to try a port with, as the servers bind theirs: SO_REUSEADDR, so the connections of a server
    stopped a moment ago (TIME_WAIT, for a minute) do not make a free port look busy."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    return probe


def port_is_free(host: str, port: int) -> bool:
    """Whether ``port`` can be listened on at ``host``."""
    with _probe() as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
        return True


def check_can_listen(host: str, port: int) -> None:
    """AppError unless ``port`` can be listened on at ``host``: busy port, or an address not of this machine."""
    with _probe() as probe:
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise AppError(message("app.port_busy", host=host, port=port)) from None
            reason = error.strerror or error
            raise AppError(message("app.unknown_host", text=quote_input(host), reason=reason)) from None


# ------------------------------------------------------------ start and stop


def start_server(
    command: Sequence[str],
    *,
    cwd: str | os.PathLike | None = None,
    log: IO | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.Popen:
    """Start a server command in a session of its own (a terminal's Ctrl-C does not reach it).

    ``log`` is a file to receive its output (default: this process's terminal);
    ``env`` its environment (default: :func:`calcnb.serve.commands.server_environment`).
    """
    return subprocess.Popen(
        list(command),
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT if log is not None else None,
        start_new_session=True,
        env=env if env is not None else server_environment(),
    )


def wait_until_serving(process: subprocess.Popen, host: str, port: int, timeout: float = 60.0) -> None:
    """Wait until ``process`` accepts connections on ``port``; AppError if it exits or takes too long.

    Only a connection is tried: a request to a Voila page would run the notebook.
    """
    probe_host = LOCALHOST if host in (ALL_INTERFACES, "") else host
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AppError(message("app.exited", code=process.returncode))
        with contextlib.suppress(OSError), socket.create_connection((probe_host, port), timeout=0.5):
            return
        time.sleep(0.1)
    raise AppError(message("app.no_start", seconds=timeout))


def _descendants(pid: int) -> list:
    try:
        import psutil  # installed with ipykernel

        return psutil.Process(pid).children(recursive=True)
    except Exception:  # psutil missing, or the process already gone
        return []


def stop_server(process: subprocess.Popen, timeout: float = 20.0) -> int:
    """Stop a server started by :func:`start_server` and everything it started; return its exit code.

    One SIGTERM lets Voila or Jupyter Server shut its kernels down and exit;
    whatever is still alive after ``timeout`` seconds (the server's process
    group, and any kernel it started in a session of its own) is killed.
    """
    children = _descendants(process.pid)  # kernels live in sessions of their own: note them now
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    for child in children:
        with contextlib.suppress(Exception):
            if child.is_running():
                child.kill()
    return process.returncode


# ------------------------------------------------------------ a server in the foreground


def serve(
    command: Sequence[str],
    *,
    host: str,
    port: int,
    path: str,
    what: str,
    open_browser: bool,
    token: str = "",
    env: dict[str, str] | None = None,
    class_code: str | None = None,
    notes: Sequence[str] = (),
) -> int:
    """Run a server in the foreground: print its address, open a browser, stop it cleanly on Ctrl-C.

    With a ``class_code`` (the server's own is in ``env``), the code is printed big with the address
    and carried by the QR code and the address the browser opens; ``notes`` are printed after the
    address. Returns 0 after Ctrl-C (or SIGTERM), or the server's own exit code if it stops by itself.
    """
    local_host = LOCALHOST if host == ALL_INTERFACES else host
    check_can_listen(local_host, port)
    query = f"?token={token}" if token else ""
    url = f"http://{local_host}:{port}{path}{query}"

    # SIGTERM (from a process manager) stops us as Ctrl-C does.
    def _terminate(_signum, _frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, _terminate)
    # Started in the background by a shell, Python inherits SIGINT ignored; Ctrl-C must still stop us.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    process = start_server(command, env=env)
    try:
        with browser_address(with_class_code(url, class_code)) as address:
            wait_until_serving(process, host, port)
            print(message("app.serving", what=what, url=url), flush=True)
            if host == ALL_INTERFACES:
                network_url = f"http://{network_address()}:{port}{path}{query}"
                print(message("app.serving_network", url=network_url), flush=True)
                if not token:  # an app for a class (never a token-carrying address on a projector)
                    print_for_the_class(network_url, open_browser=open_browser, class_code=class_code)
            elif class_code:
                print(class_code_banner(class_code), flush=True)
            for note in notes:
                print(note, flush=True)
            print(message("app.stop_hint"), flush=True)
            if open_browser:
                webbrowser.open(address)
            code = process.wait()
        print(message("app.exited", code=code), file=sys.stderr, flush=True)
        return code or 1
    except KeyboardInterrupt:
        # A second Ctrl-C while stopping must not leave a traceback or a half-stopped server.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print("\n" + message("app.stopping"), flush=True)
        stop_server(process)
        print(message("app.stopped"), flush=True)
        return 0
    except BaseException:
        stop_server(process)
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)
