"""Windows and macOS, played on Linux: the command line and a server's start and stop where POSIX calls are missing.

CI runs here on Linux only (the hosted workflow in ``.github/workflows/ci.yml`` cannot run on this machine),
so each platform-dependent path is met as Windows or macOS would meet it: ``sys.platform`` says so,
``os.sysconf``, ``os.killpg`` and ``os.geteuid`` are missing, pyzmq has no ipc, a link needs rights the
user lacks. ``study()`` runs under the spawn start method (Windows' and macOS's default) in a script
without the ``__main__`` guard, as a teacher might write one.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
import zmq

from calcnb.i18n import set_language
from calcnb.serve.cli import commands, process
from calcnb.serve.cli.commands import kernel_options, lab_command, voila_command
from calcnb.serve.cli.main import main
from calcnb.serve.shared import caps
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.voila import hub

PLATFORMS = ["win32", "darwin"]


@pytest.fixture
def windows(monkeypatch):
    """Windows, as far as calcnb can tell: no sysconf, no killpg, no geteuid, no ipc."""
    monkeypatch.setattr(sys, "platform", "win32")
    for name in ("sysconf", "killpg", "geteuid"):
        monkeypatch.delattr(os, name, raising=False)
    monkeypatch.setattr(zmq, "has", lambda capability: capability != "ipc")


@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_command_line_builds_without_posix_calls(platform, monkeypatch, capsys):
    monkeypatch.setattr(sys, "platform", platform)
    if platform == "win32":
        for name in ("sysconf", "killpg", "geteuid"):
            monkeypatch.delattr(os, name, raising=False)
    set_language("en")
    assert main(["lessons"]) == 0
    assert "02_wraparound" in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and "calcnb " in capsys.readouterr().out
    for command in ("app", "lab", "class-view", "worksheets"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "usage:" in capsys.readouterr().out


def test_the_memory_is_read_without_os_sysconf(windows):
    assert caps.machine_memory_bytes() == psutil.virtual_memory().total
    assert caps.default_max_kernels() >= 1


@pytest.mark.parametrize(
    ("platform", "has_ipc", "transport"),
    [("linux", True, "ipc"), ("linux", False, "tcp"), ("darwin", True, "tcp"), ("win32", False, "tcp")],
)
def test_kernels_use_ipc_only_where_the_platform_and_pyzmq_offer_it(platform, has_ipc, transport, monkeypatch):
    real_has = zmq.has
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setattr(zmq, "has", lambda capability: has_ipc if capability == "ipc" else real_has(capability))
    options = kernel_options()
    assert f"--KernelManager.transport={transport}" in options
    if transport == "tcp" and commands.curve_available():  # encrypted, so the kernel has no warning to give
        assert "--KernelManager.transport_encryption=auto" in options
    assert set(options) <= set(voila_command(notebooks_dir())) and set(options) <= set(lab_command(notebooks_dir()))


def test_lab_runs_as_root_only_where_there_is_root(windows):
    assert "--ServerApp.allow_root=True" not in lab_command(notebooks_dir())


def test_a_server_starts_in_a_process_group_of_its_own_on_windows(windows, monkeypatch):
    started = {}

    class Popen:
        def __init__(self, command, **options):
            started.update(options, command=command)

    monkeypatch.setattr(subprocess, "Popen", Popen)
    process.start_server(["server"], env={})
    assert started["creationflags"] == process.CREATE_NEW_PROCESS_GROUP and "start_new_session" not in started
    monkeypatch.setattr(sys, "platform", "darwin")
    process.start_server(["server"], env={})
    assert started["start_new_session"] is True


FAKE_SERVER = """
import signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a server that does not stop when asked
kernel = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
print(kernel.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.server  # real processes, a server and its kernel
@pytest.mark.parametrize("platform", ["win32", "darwin", "linux"])
def test_stopping_a_server_stops_its_kernels_on_every_platform(platform, monkeypatch):
    """A server that ignores SIGTERM, with a kernel in a session of its own: both are gone after stop_server."""
    server = subprocess.Popen(
        [sys.executable, "-c", FAKE_SERVER], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    kernel = psutil.Process(int(server.stdout.readline()))
    monkeypatch.setattr(sys, "platform", platform)
    if platform == "win32":
        monkeypatch.delattr(os, "killpg", raising=False)
    started = time.monotonic()
    process.stop_server(server, timeout=1)
    assert server.poll() is not None and time.monotonic() - started < 15
    psutil.wait_procs([kernel], timeout=10)
    assert not kernel.is_running()


@pytest.mark.skipif(not hasattr(signal, "SIGUSR1"), reason="plays Ctrl-Break with SIGUSR1, a POSIX signal")
def test_ctrl_break_stops_the_command_as_ctrl_c_does_where_there_is_one(monkeypatch):
    monkeypatch.setattr(signal, "SIGBREAK", signal.SIGUSR1, raising=False)  # Windows' Ctrl-Break, played by SIGUSR1
    previous = process.stop_on_signals()
    try:
        assert signal.SIGUSR1 in previous and signal.SIGTERM in previous
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGUSR1)
            time.sleep(1)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def test_the_students_folder_is_copied_where_links_need_rights_the_user_lacks(tmp_path, monkeypatch):
    source = tmp_path / "notebooks"
    (source / "teacher").mkdir(parents=True)
    (source / "pt" / "teacher").mkdir(parents=True)
    for name in ("play.ipynb", "teacher/play_teacher.ipynb", "pt/play.ipynb", "pt/teacher/play_teacher.ipynb"):
        (source / name).write_text(name, encoding="utf-8")

    def no_symlinks(*_arguments, **_options):
        raise OSError(1314, "A required privilege is not held by the client")  # Windows' answer

    monkeypatch.setattr(os, "symlink", no_symlinks)
    folder = hub.student_notebooks(source, tmp_path / "students")
    assert (folder / "play.ipynb").read_text(encoding="utf-8") == "play.ipynb"
    assert (folder / "pt" / "play.ipynb").exists() and not (folder / "teacher").exists()
    assert not (folder / "pt" / "teacher").exists()
    hub.student_notebooks(source, folder)  # rebuilt over its own copies
    assert (folder / "play.ipynb").exists()


UNGUARDED = """
import multiprocessing
multiprocessing.set_start_method("spawn")
from calcnb import study
result = study("solver", range(16), budget_nodes=200)
print("games", result.games, flush=True)
"""
GUARDED = """
import multiprocessing
from calcnb import study

if __name__ == "__main__":
    multiprocessing.set_start_method("spawn")
    result = study("solver", range(16), budget_nodes=200)
    print("games", result.games, flush=True)
"""


@pytest.mark.parametrize("guarded", [False, True])
def test_study_works_under_spawn_with_or_without_the_main_guard(guarded, tmp_path):
    """Without the guard: one core, and one line saying why and how to use every core; never BrokenProcessPool."""
    script = tmp_path / "my_study.py"
    script.write_text(GUARDED if guarded else UNGUARDED, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "games 16" in done.stdout and "BrokenProcessPool" not in done.stderr
    said = [line for line in done.stderr.splitlines() if "one core" in line]
    if guarded:
        assert said == []
    else:
        assert len(said) == 1 and "my_study.py" in said[0] and '__name__ == "__main__"' in said[0], done.stderr
