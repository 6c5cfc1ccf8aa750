"""Starting and stopping a server process: free ports, a server in a session of its own, and a clean stop.

The command line runs every server through :func:`serve` (in the foreground: the address printed, a
browser opened, Ctrl-C or SIGTERM stopping it and every kernel it started). The browser tests, the
screenshot script and the benchmarks start and stop theirs with the same :func:`start_server`,
:func:`wait_until_serving` and :func:`stop_server`. Why a session of its own: ``docs/design.md``.

Every platform is served: on POSIX a server gets a session of its own and its process group is killed
if it does not stop; on Windows (no sessions, no ``os.killpg``, and SIGTERM is TerminateProcess) it gets
a process group of its own, and Ctrl-Break stops the command as Ctrl-C does. Either way the kernels are
found in the server's process tree (psutil) and stopped with it.
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
from collections.abc import Callable, Sequence
from typing import IO

import psutil

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
    "on_windows",
    "port_is_free",
    "serve",
    "session_options",
    "start_server",
    "stop_on_signals",
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


def on_windows() -> bool:
    """Whether this is Windows (read when asked, so tests can play Windows on Linux)."""
    return sys.platform == "win32"


#: subprocess.CREATE_NEW_PROCESS_GROUP, which only Windows' subprocess module defines.
CREATE_NEW_PROCESS_GROUP = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x200)


def session_options() -> dict[str, object]:
    """How a server is kept apart from the terminal's Ctrl-C: a session of its own (POSIX), or a process group of
    its own (Windows, where ``start_new_session`` does not exist)."""
    if on_windows():
        return {"creationflags": CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}


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
        env=env if env is not None else server_environment(),
        **session_options(),
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


def _descendants(pid: int) -> list[psutil.Process]:
    """Every process ``pid`` started, and theirs (none if it is already gone)."""
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def _kill_group(process: subprocess.Popen) -> None:
    """Kill a server that did not stop: its whole process group where there are groups (POSIX), else itself."""
    killpg = getattr(os, "killpg", None)
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        if killpg is not None and not on_windows():
            killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()


def _kill_all(processes: list[psutil.Process], timeout: float = 5.0) -> None:
    """Kill whichever of ``processes`` still run (kernels left behind), and wait for them to go."""
    for child in processes:
        with contextlib.suppress(psutil.Error):
            child.kill()
    psutil.wait_procs(processes, timeout=timeout)


def stop_server(process: subprocess.Popen, timeout: float = 20.0) -> int:
    """Stop a server started by :func:`start_server` and everything it started; return its exit code.

    One ``terminate()`` (SIGTERM: Voila or Jupyter Server shuts its kernels down and exits; on Windows it
    ends the server at once) and, after ``timeout`` seconds, a kill of whatever is left of the server.
    Its kernels, noted first from its process tree (they may live in sessions of their own), are then
    killed if still running: no kernel outlives its server on any platform.
    """
    children = _descendants(process.pid)
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError, OSError):
            process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            process.wait()
    _kill_all(children)
    return process.returncode


# ------------------------------------------------------------ a server in the foreground

#: The signals that stop a command in the foreground as Ctrl-C does, where the platform has them: SIGTERM (a
#: process manager) and, on Windows, SIGBREAK (Ctrl-Break, what a console sends a process group of its own).
STOP_SIGNALS = ("SIGTERM", "SIGBREAK")


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def stop_on_signals(handler: Callable[[int, object], None] = _interrupt) -> dict[int, object]:
    """Make :data:`STOP_SIGNALS` stop this command as Ctrl-C does; return the handlers they had, to put back.

    Started in the background by a shell, Python inherits SIGINT ignored: Ctrl-C is made to stop it too.
    """
    previous: dict[int, object] = {}
    for name in STOP_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            previous[number] = signal.signal(number, handler)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return previous


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

    previous = stop_on_signals()
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
        for number, handler in previous.items():
            signal.signal(number, handler)
