"""A server's watch on the command that started it (its launcher): a server stops once its launcher is gone.

A launcher killed outright (SIGKILL, the Task Manager) cannot stop its server itself, so each server it
starts tied (:func:`calcnb.serve.cli.process.start_server` with ``tied=True``) is told its process id in
the environment, and both servers (the class server and the app's Voila) look for it every second.
Shared because the command line writes the variable and both servers read it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import MutableMapping

import psutil

__all__ = ["LAUNCHER_VARIABLE", "LauncherWatch"]

#: The variable of a server's environment that names its launcher's process id (``start_server`` with
#: ``tied=True``): a server that reads it (:class:`LauncherWatch`) stops when that process is gone.
LAUNCHER_VARIABLE = "CALCNB_LAUNCHER_PID"


class LauncherWatch:
    """Whether the command that started this server (its launcher) is gone: what a server started with
    ``tied=True`` looks at every second or so, to stop itself when it is.

    A launcher killed outright stops nothing, so its server watches it, as a Jupyter kernel watches its server.
    The launcher need not be the parent (on Windows a virtual environment's ``python.exe`` starts the real
    Python as its own child), but it must have started before this server: a process id is reused once its
    process is gone, and psutil tells a process from a later one with the same id, on every platform.
    """

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.launcher: psutil.Process | None = None
        with contextlib.suppress(psutil.Error):
            launcher = psutil.Process(pid)
            if launcher.create_time() <= psutil.Process().create_time():
                self.launcher = launcher

    @classmethod
    def from_environment(cls, environ: MutableMapping[str, str] = os.environ) -> LauncherWatch | None:
        """The watch this server's environment asks for (:data:`LAUNCHER_VARIABLE`), None if none; the variable is
        taken out of the environment, so that the server's kernels do not inherit it."""
        text = environ.pop(LAUNCHER_VARIABLE, "")
        return cls(int(text)) if text.strip().isdigit() else None

    def gone(self) -> bool:
        """Whether the launcher has exited (or was already gone when this server started)."""
        return self.launcher is None or not self.launcher.is_running()
