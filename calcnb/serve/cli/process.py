"""Starting and stopping a server process: free ports, a server in a session of its own, and a clean stop.

The command line runs every server through :func:`serve` (in the foreground: the address printed, a
browser opened, Ctrl-C or SIGTERM stopping it and every kernel it started). The browser tests, the
screenshot script and the benchmarks start and stop theirs with the same :func:`start_server`,
:func:`wait_until_serving` and :func:`stop_server`. Why a session of its own: ``docs/design.md``.

Every platform is served: on POSIX a server gets a session of its own and its process group is killed
if it does not stop; on Windows (no sessions, no ``os.killpg``, and SIGTERM is TerminateProcess) it gets
a process group of its own, and Ctrl-Break stops the command as Ctrl-C does. Either way the kernels are
found in the server's process tree (psutil) and stopped with it.

A server in the foreground never outlives the command that started it (its launcher): SIGTERM, SIGHUP
(the teacher closed the terminal, unless the command runs under ``nohup``) and, on Windows, a closed
console window stop it as Ctrl-C does. A launcher killed outright (SIGKILL, or the Task Manager) cannot
stop anything itself, so its server watches it: on Linux the kernel sends the server SIGTERM when its
launcher dies (``PR_SET_PDEATHSIG``), and the app's Voila, on every platform, looks for its launcher
every second and stops when it is gone (:class:`calcnb.serve.shared.launcher.LauncherWatch`).
Its kernels follow it, as every Jupyter kernel follows its server.
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
from calcnb.serve.cli.address import (
    browser_address,
    class_code_banner,
    network_address,
    print_for_the_class,
    with_class_code,
)
from calcnb.serve.cli.commands import server_environment
from calcnb.serve.shared.errors import AppError
from calcnb.serve.shared.launcher import LAUNCHER_VARIABLE
from calcnb.serve.shared.settings import ALL_INTERFACES, LOCALHOST

__all__ = [
    "check_can_listen",
    "free_port",
    "on_console_close",
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


#: prctl's option that asks the kernel for a signal when the parent dies (``<linux/prctl.h>``).
PR_SET_PDEATHSIG = 1


def _death_signal() -> Callable[[], None] | None:
    """On Linux, what the server runs before its program: SIGTERM to it when its launcher dies; else None.

    Looked up in the launcher (no library is loaded between fork and exec). If the launcher died before
    the call, nothing would send the signal: the server is not started (the exception ends the child).
    None where there is no prctl (macOS, Windows, a libc without it): the server's own watch serves there.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    launcher = os.getpid()

    def die_with_launcher() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != launcher:
            raise ChildProcessError("the command that started this server is gone")

    return die_with_launcher


def start_server(
    command: Sequence[str],
    *,
    cwd: str | os.PathLike | None = None,
    log: IO | None = None,
    env: dict[str, str] | None = None,
    tied: bool = False,
) -> subprocess.Popen:
    """Start a server command in a session of its own (a terminal's Ctrl-C does not reach it).

    ``log`` is a file to receive its output (default: this process's terminal);
    ``env`` its environment (default: :func:`calcnb.serve.cli.commands.server_environment`).
    ``tied``: the server stops when this process dies, even killed outright (see the module's notes);
    :func:`serve` ties its server, the tests' servers are stopped by their fixtures.
    """
    environment = dict(env) if env is not None else server_environment()
    options: dict[str, object] = session_options()
    if tied:
        environment[LAUNCHER_VARIABLE] = str(os.getpid())
        preexec = _death_signal()
        if preexec is not None:
            options["preexec_fn"] = preexec
    return subprocess.Popen(
        list(command),
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT if log is not None else None,
        env=environment,
        **options,
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


#: Seconds a stopping server has to shut its kernels down and exit before it and they are killed.
STOP_SECONDS = 20.0


def stop_server(process: subprocess.Popen, timeout: float = STOP_SECONDS) -> int:
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
#: process manager), SIGHUP (the terminal closed, or the user's session ended) and, on Windows, SIGBREAK
#: (Ctrl-Break, what a console sends a process group of its own).
STOP_SIGNALS = ("SIGTERM", "SIGHUP", "SIGBREAK")

#: Stop signals left ignored when the command starts with them ignored: ``nohup calcnb app`` asks to outlive
#: its terminal.
KEPT_IF_IGNORED = ("SIGHUP",)


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def stop_on_signals(handler: Callable[[int, object], None] = _interrupt) -> dict[int, object]:
    """Make Ctrl-C and :data:`STOP_SIGNALS` stop this command as Ctrl-C does; return the handlers they had, to put back.

    Started in the background by a shell, Python inherits SIGINT ignored: Ctrl-C is made to stop it too.
    SIGHUP inherited ignored (``nohup``) stays ignored.
    """
    previous: dict[int, object] = {}
    for name in ("SIGINT", *STOP_SIGNALS):
        number = getattr(signal, name, None)
        if number is None or (name in KEPT_IF_IGNORED and signal.getsignal(number) == signal.SIG_IGN):
            continue
        previous[number] = signal.signal(number, handler)
    return previous


def _restore(previous: dict[int, object]) -> None:
    """Put back the handlers :func:`stop_on_signals` replaced (but one installed outside Python, which it cannot)."""
    for number, handler in previous.items():
        if handler is not None:
            signal.signal(number, handler)


class _StopOnce:
    """The handler of the stop signals while a server runs: the first one stops the server as Ctrl-C does, the
    others are ignored.

    A closed terminal sends SIGHUP twice (the terminal to its foreground group, then the shell to its jobs),
    and Ctrl-C may be pressed again while the kernels shut down: a second KeyboardInterrupt inside
    :func:`stop_server` would leave the server running. A signal that comes while the server is being
    started is held until it has started (:meth:`arm`), so that no server is left that nobody stops.
    """

    def __init__(self) -> None:
        self.asked = False
        self.armed = False

    def __call__(self, _signum: int, _frame: object) -> None:
        if self.asked:
            return
        self.asked = True
        if self.armed:
            raise KeyboardInterrupt

    def arm(self) -> None:
        """The server has started: stop it now if a signal came meanwhile, else at the first one."""
        self.armed = True
        if self.asked:
            raise KeyboardInterrupt

    def stopping(self) -> None:
        """The server is being stopped (or has stopped): later signals change nothing."""
        self.asked = True


def _say(text: str, file: IO | None = None) -> None:
    """Print ``text`` if the terminal is still there: once it is closed, writing to it fails (EIO), and
    stopping the server matters more than saying so."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=file if file is not None else sys.stdout, flush=True)


#: Windows' console events after which Windows ends every process of the console as soon as their handlers
#: return (5 s at most): the window closed, the user logged off, Windows shut down. (Ctrl-C and Ctrl-Break,
#: 0 and 1, come to Python as SIGINT and SIGBREAK.)
CONSOLE_CLOSE_EVENTS = frozenset({2, 5, 6})  # CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT


def _set_console_handler(handler: Callable[[int], bool]) -> Callable[[], None]:
    """Windows: put ``handler`` first among the console's control handlers; return what takes it off again."""
    import ctypes
    from ctypes import wintypes

    routine = ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.DWORD)(handler)
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    if not kernel32.SetConsoleCtrlHandler(routine, True):
        return lambda: None

    def remove() -> None:  # holds ``routine``: a callback collected while Windows may call it would crash
        kernel32.SetConsoleCtrlHandler(routine, False)

    return remove


def on_console_close(stop: Callable[[], None]) -> Callable[[], None]:
    """On Windows, run ``stop`` when the console window closes (or the user logs off), before Windows ends this
    command; return what undoes it. Elsewhere nothing is done (a closed terminal is SIGHUP there).

    Python's own handler only notes such an event (as SIGBREAK) and returns, and Windows ends the process
    then and there: so ``stop`` runs in the handler itself, in the thread Windows calls it in, and Windows
    waits for it. Ctrl-C and Ctrl-Break are passed on to Python's handler.
    """
    if not on_windows():
        return lambda: None

    def handler(event: int) -> bool:
        if event not in CONSOLE_CLOSE_EVENTS:
            return False
        with contextlib.suppress(Exception):  # nothing can be said: the console is gone
            stop()
        return True

    try:
        return _set_console_handler(handler)
    except (ImportError, AttributeError, OSError, ValueError):
        return lambda: None


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
    address. Returns 0 after Ctrl-C (or SIGTERM, SIGHUP, a closed console), or the server's own exit code if it
    stops by itself. The server is tied to this command (:func:`start_server`): it stops if this command is killed.
    """
    local_host = LOCALHOST if host == ALL_INTERFACES else host
    check_can_listen(local_host, port)
    query = f"?token={token}" if token else ""
    url = f"http://{local_host}:{port}{path}{query}"

    stop = _StopOnce()
    previous = stop_on_signals(stop)
    try:
        process = start_server(command, env=env, tied=True)
    except BaseException:
        _restore(previous)
        raise

    def stop_on_close() -> None:
        stop.stopping()
        stop_server(process, timeout=3)  # within the 5 s Windows gives a closing console

    undo_console = on_console_close(stop_on_close)
    try:
        stop.arm()
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
        stop.stopping()
        _say(message("app.exited", code=code), sys.stderr)
        return code or 1
    except KeyboardInterrupt:
        # Ctrl-C, SIGTERM or SIGHUP (the terminal may be gone: nothing said must keep the server from stopping).
        stop.stopping()
        _say("\n" + message("app.stopping"))
        stop_server(process)
        _say(message("app.stopped"))
        return 0
    except BaseException:
        stop.stopping()
        stop_server(process)
        raise
    finally:
        undo_console()
        _restore(previous)
