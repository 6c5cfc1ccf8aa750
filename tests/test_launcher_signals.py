"""A server never outlives the command that started it: ``calcnb app`` takes its server and kernels down on SIGHUP,
SIGTERM, a closed terminal and, on Windows, a closed console window; killed outright (SIGKILL), its server stops
by itself. A second signal while the server stops changes nothing, and ``nohup`` keeps the server running.
Voila's server is tested through every way, Solara's (one process, no kernel processes) through the two that
need more than the launcher's own handlers.

The real command runs in a terminal of its own (a pseudo-terminal it controls, as in a teacher's terminal
window), with a page open, so that a kernel runs too; Windows is played on Linux, as in ``test_platforms.py``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import signal
import socket
import subprocess
import sys
import termios
import threading
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from calcnb.serve.cli import process
from calcnb.serve.cli.process import free_port
from calcnb.serve.shared.launcher import LAUNCHER_VARIABLE, LauncherWatch
from calcnb.serve.shared.settings import LOCALHOST

FIXTURES = Path(__file__).parent / "browser" / "fixtures"
# Seconds: the server has STOP_SECONDS to shut its kernels down before the command kills them, then the kill itself
# (a loaded machine can take that long: the server is only ever waited for, never killed by the test).
GONE_WITHIN = process.STOP_SECONDS + 10
STOPPED_WITHIN = 10  # a server stops in a second or two: after this, what each process waits on is noted


def _waits(processes: list[psutil.Process]) -> str:
    """Each process's state and, for each of its threads, the kernel function it sleeps in (Linux's /proc)."""
    lines = []
    for proc in processes:
        with contextlib.suppress(psutil.Error, OSError):
            lines.append(f"{proc.pid} {proc.status()} {' '.join(proc.cmdline())[:160]}")
            for task in sorted(Path(f"/proc/{proc.pid}/task").iterdir()):
                with contextlib.suppress(OSError):
                    wchan = (task / "wchan").read_text()
                    name = (task / "comm").read_text().strip()
                    lines.append(f"    thread {task.name} {name}: {wchan}")
    return "\n".join(lines)


pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="a POSIX terminal")


def _in_a_new_terminal() -> None:
    """In the child, as a shell in a new terminal window starts it: the terminal its controlling terminal, and a
    hang-up stopping it (the test's own process may have inherited SIGHUP ignored: ``nohup``, a CI runner)."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


class Terminal:
    """A pseudo-terminal, and a command running in it as a shell's would: the leader of a session of its own,
    with the terminal as its controlling terminal. What it prints is read as it comes (a full terminal would
    block it)."""

    def __init__(self, command: list[str]) -> None:
        self.master, slave = os.openpty()
        self.process = subprocess.Popen(
            command,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            preexec_fn=_in_a_new_terminal,
        )
        os.close(slave)
        self.output = b""
        self._reading = True
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while self._reading:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # EIO: nothing has the terminal open any more
                    return
                if not chunk:
                    return
                self.output += chunk

    def wait_for(self, pattern: str, timeout: float = 90) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.output.decode(errors="replace"))
            if found:
                return found
            assert self.process.poll() is None, self.output.decode(errors="replace")[-3000:]
            time.sleep(0.1)
        raise AssertionError(self.output.decode(errors="replace")[-3000:])

    def close(self) -> None:
        """Close the terminal's window: the terminal hangs up."""
        self._reading = False
        self._reader.join()
        with contextlib.suppress(OSError):
            os.close(self.master)


def _nothing_listens(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(2)
        return probe.connect_ex((LOCALHOST, port)) != 0


def _serving_a_page(server: str) -> tuple[Terminal, int, list[psutil.Process]]:
    """``calcnb app --server SERVER`` started in a terminal of its own and a page opened; its port, and the processes
    it started (Voila's: the server and the page's kernel)."""
    port = free_port()
    app = [sys.executable, "-m", "calcnb", "app", str(FIXTURES / "transport.ipynb"), "--server", server]
    terminal = Terminal([*app, "--port", str(port), "--no-browser"])
    terminal.wait_for(rf"http://127\.0\.0\.1:{port}/")
    with urllib.request.urlopen(f"http://{LOCALHOST}:{port}/", timeout=120) as response:
        assert response.status == 200
    started = psutil.Process(terminal.process.pid).children(recursive=True)
    assert started
    if server == "voila":  # the page ran its notebook in a kernel of its own
        assert any("ipykernel" in " ".join(child.cmdline()) for child in started), started
    return terminal, port, started


def _cleanup(terminal: Terminal, started: list[psutil.Process]) -> None:
    terminal.close()
    for leftover in [terminal.process, *started]:
        with contextlib.suppress(Exception):
            leftover.kill()


HOW = ["SIGHUP", "SIGTERM", "the terminal closed", "SIGKILL"]


@pytest.mark.server
@pytest.mark.parametrize(
    ("server", "how"), [("voila", how) for how in HOW] + [("solara", "the terminal closed"), ("solara", "SIGKILL")]
)
def test_the_server_and_its_kernels_go_with_the_command(server, how):
    terminal, port, started = _serving_a_page(server)
    try:
        if how == "the terminal closed":
            terminal.close()
        else:
            terminal.process.send_signal(getattr(signal, how))
        try:
            terminal.process.wait(STOPPED_WITHIN)
        except subprocess.TimeoutExpired:
            # What each process is waiting on, noted while it waits (the launcher still has the rest of its time).
            stalled = _waits([psutil.Process(terminal.process.pid), *started])
            try:
                terminal.process.wait(GONE_WITHIN - STOPPED_WITHIN)
            except subprocess.TimeoutExpired:
                said = terminal.output.decode(errors="replace")[-2000:]
                raise AssertionError(f"{how}: still running\n{stalled}\n{said}") from None
        _gone, alive = psutil.wait_procs(started, timeout=GONE_WITHIN)
        assert alive == [], [" ".join(child.cmdline()) for child in alive]
        assert _nothing_listens(port)
    finally:
        _cleanup(terminal, started)
    if how in ("SIGHUP", "SIGTERM"):  # the terminal is still there to say so
        assert "Stopped." in terminal.output.decode(errors="replace")
        assert terminal.process.returncode == 0


LAUNCHER_WITHOUT_PRCTL = """
import subprocess, sys
from pathlib import Path
from calcnb.serve.cli import process
from calcnb.serve.cli.commands import voila_command
process._death_signal = lambda: None  # as on macOS and Windows: no PR_SET_PDEATHSIG, the server's own watch alone
command = voila_command(Path(sys.argv[1]), port=int(sys.argv[2]))
server = process.start_server(command, log=subprocess.DEVNULL, tied=True)
print(server.pid, flush=True)
server.wait()
"""


@pytest.mark.server
def test_the_apps_voila_stops_by_itself_when_its_launcher_is_killed_on_every_platform():
    port = free_port()
    launcher = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER_WITHOUT_PRCTL, str(FIXTURES / "transport.ipynb"), str(port)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    server = psutil.Process(int(launcher.stdout.readline()))
    started = [server]
    try:
        deadline = time.monotonic() + 90
        while _nothing_listens(port) and time.monotonic() < deadline:
            time.sleep(0.2)
        with urllib.request.urlopen(f"http://{LOCALHOST}:{port}/", timeout=120) as response:
            assert response.status == 200
        started += server.children(recursive=True)
        assert len(started) > 1  # the page's kernel
        launcher.kill()
        launcher.wait()
        _gone, alive = psutil.wait_procs(started, timeout=GONE_WITHIN)
        assert alive == [], [" ".join(child.cmdline()) for child in alive]
        assert _nothing_listens(port)
    finally:
        for leftover in started:
            with contextlib.suppress(psutil.Error):
                leftover.kill()
        launcher.kill()


# ------------------------------------------------------------ in this process: the signals themselves

SLEEPER = [sys.executable, "-c", "import time; time.sleep(600)"]


@pytest.fixture
def fake_serve(monkeypatch):
    """`process.serve` on a server that only sleeps, taken for serving at once; yields the servers started."""
    started: list[subprocess.Popen] = []
    real_start = process.start_server

    def start(command, **options):
        started.append(real_start(command, **options))
        return started[-1]

    monkeypatch.setattr(process, "start_server", start)
    monkeypatch.setattr(process, "wait_until_serving", lambda *_arguments, **_options: None)
    yield started
    for server in started:
        with contextlib.suppress(OSError):
            server.kill()


def _serve() -> int:
    return process.serve(SLEEPER, host=LOCALHOST, port=free_port(), path="/", what="x", open_browser=False)


def test_sighup_stops_the_command_as_ctrl_c_does_unless_it_is_ignored():
    # Not SIG_DFL: if SIGHUP were left alone, the test would end pytest itself.
    before = signal.signal(signal.SIGHUP, lambda _signum, _frame: None)
    try:
        previous = process.stop_on_signals()
        try:
            assert signal.SIGHUP in previous
            with pytest.raises(KeyboardInterrupt):
                os.kill(os.getpid(), signal.SIGHUP)
                time.sleep(1)
        finally:
            process._restore(previous)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # nohup calcnb app: the teacher asked it to outlive the terminal
        previous = process.stop_on_signals()
        try:
            assert signal.SIGHUP not in previous and signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        finally:
            process._restore(previous)
    finally:
        signal.signal(signal.SIGHUP, before)


def test_a_second_signal_while_the_server_stops_changes_nothing(fake_serve, monkeypatch, capsys):
    """A closed terminal sends SIGHUP twice; here the second comes while the server is being stopped."""
    real_stop = process.stop_server

    def stop_after_another_signal(server, timeout=20.0):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.5)  # its handler runs here
        return real_stop(server, timeout)

    monkeypatch.setattr(process, "stop_server", stop_after_another_signal)
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM)).start()
    try:
        code = _serve()
    except KeyboardInterrupt:  # left to itself, it would end the whole test run
        pytest.fail("the second signal interrupted the stopping of the server")
    assert code == 0
    assert fake_serve[0].poll() is not None
    assert "Stopped." in capsys.readouterr().out


def test_stopping_goes_on_when_the_terminal_is_gone(fake_serve, monkeypatch):
    """After a hang-up, writing to the terminal fails (EIO): the server is stopped all the same."""

    class HungUp:
        def write(self, _text):
            raise OSError(5, "Input/output error")

        def flush(self):
            raise OSError(5, "Input/output error")

    def hang_up(*_arguments):
        monkeypatch.setattr(sys, "stdout", HungUp())
        monkeypatch.setattr(sys, "stderr", HungUp())
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Timer(0.3, hang_up).start()
    assert _serve() == 0
    assert fake_serve[0].poll() is not None


@pytest.mark.server  # real processes: a launcher and its server
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_on_linux_a_tied_server_is_sent_sigterm_when_its_launcher_dies():
    launcher = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from calcnb.serve.cli import process;"
            f"s = process.start_server({SLEEPER!r}, env={{}}, tied=True); print(s.pid, flush=True); time.sleep(600)",
        ],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    server = psutil.Process(int(launcher.stdout.readline()))
    try:
        assert server.environ().get(LAUNCHER_VARIABLE) == str(launcher.pid)
        launcher.kill()
        launcher.wait()
        _gone, alive = psutil.wait_procs([server], timeout=10)
        assert alive == []
    finally:
        with contextlib.suppress(psutil.Error):
            server.kill()
        launcher.kill()


def test_an_untied_server_keeps_running_without_its_launcher_variable(monkeypatch):
    started = {}

    class Popen:
        def __init__(self, command, **options):
            started.update(options)

    monkeypatch.setattr(subprocess, "Popen", Popen)
    process.start_server(["server"], env={"A": "1"})
    assert started["env"] == {"A": "1"} and "preexec_fn" not in started


# ------------------------------------------------------------ Windows, played on Linux


@pytest.fixture
def windows_console(monkeypatch):
    """Windows as calcnb sees it, with the console's control handlers recorded instead of given to Windows."""
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.delattr(os, "killpg", raising=False)
    handlers: list = []

    def set_console_handler(handler):
        handlers.append(handler)
        return lambda: handlers.remove(handler)

    monkeypatch.setattr(process, "_set_console_handler", set_console_handler)
    # Popen on Linux takes no Windows creation flags: the server gets a session, as on POSIX.
    monkeypatch.setattr(process, "session_options", lambda: {"start_new_session": True})
    return handlers


CTRL_C_EVENT, CTRL_BREAK_EVENT, CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT = 0, 1, 2, 5, 6


def test_on_windows_a_closed_console_stops_the_server_before_windows_ends_the_command(windows_console):
    stopped = []
    undo = process.on_console_close(lambda: stopped.append(True))
    [handler] = windows_console
    assert handler(CTRL_C_EVENT) is False and handler(CTRL_BREAK_EVENT) is False  # Python's: SIGINT, SIGBREAK
    assert stopped == []
    for event in (CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT):
        assert handler(event) is True
    assert len(stopped) == 3
    undo()
    assert windows_console == []


def test_on_windows_serve_stops_its_server_when_the_console_closes(windows_console, fake_serve):
    answers = []

    def close_the_console():
        while not windows_console:
            time.sleep(0.05)
        answers.append(windows_console[0](CTRL_CLOSE_EVENT))  # in a thread of its own, as Windows calls it

    closer = threading.Thread(target=close_the_console)
    closer.start()
    _serve()
    closer.join(20)
    assert answers == [True]
    assert fake_serve[0].poll() is not None
    assert windows_console == []  # taken off when the command ends


def test_elsewhere_no_console_handler_is_set(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(process, "_set_console_handler", lambda handler: pytest.fail("set on macOS"))
    process.on_console_close(lambda: None)()


# ------------------------------------------------------------ the server's watch on its launcher


def test_the_watch_sees_its_launcher_whether_parent_or_further_up():
    assert not LauncherWatch(os.getppid()).gone()
    assert not LauncherWatch(1).gone()  # not the parent (as under a Windows venv's python.exe), but older


def test_the_watch_takes_a_process_gone_or_younger_than_the_server_for_a_launcher_gone():
    younger = subprocess.Popen(SLEEPER)  # a process id reused after the launcher's end belongs to a later process
    try:
        assert LauncherWatch(younger.pid).gone()
    finally:
        younger.kill()
        younger.wait()
    assert LauncherWatch(younger.pid).gone()


def test_the_watch_is_read_from_the_environment_and_taken_out_of_it():
    environment = {LAUNCHER_VARIABLE: str(os.getppid()), "OTHER": "1"}
    watch = LauncherWatch.from_environment(environment)
    assert watch is not None and watch.pid == os.getppid() and not watch.gone()
    assert environment == {"OTHER": "1"}  # the kernels do not inherit it
    assert LauncherWatch.from_environment({}) is None
