"""A throwaway PostgreSQL server for the tests: initdb into a temporary folder, start on 127.0.0.1, stop, delete.

Debian's server binaries live in ``/usr/lib/postgresql/<version>/bin`` (``.ci/run`` installs them).
PostgreSQL refuses to run as root, so under root the server runs as the ``postgres`` user
(``runuser``), in a folder that user owns. The server listens on a free port of 127.0.0.1
only, trusts local connections (it lives for one test run and holds nothing), and is
stopped (``pg_ctl stop -m immediate``) and deleted at the end.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from calcnb.serve.cli.process import free_port
from calcnb.serve.shared.settings import LOCALHOST

USER = "calcnb"  # the database superuser of the throwaway cluster

# Each running throwaway server by its URL: how to stop and start it again (see stop_for_a_while).
_CONTROLS: dict[str, tuple[list[str], list[str]]] = {}


def server_binaries() -> Path | None:
    """The folder of the newest installed PostgreSQL server's binaries (``initdb``, ``pg_ctl``), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(path.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@contextlib.contextmanager
def throwaway_server() -> Iterator[str]:
    """Run a fresh PostgreSQL cluster for the duration of the block; yields its URL (database ``postgres``)."""
    binaries = server_binaries()
    if binaries is None:
        raise FileNotFoundError("no PostgreSQL server binaries (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="calcnb-postgres-"))
    if os.geteuid() == 0:
        account = pwd.getpwnam("postgres")
        os.chown(folder, account.pw_uid, account.pw_gid)
    data, log = folder / "data", folder / "server.log"
    port = free_port()
    run = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "timeout": 120}
    try:
        subprocess.run(
            _as_server_user([str(binaries / "initdb"), "-D", str(data), "-U", USER, "-A", "trust", "-E", "UTF8",
                             "--no-sync"]),
            **run,
        )  # fmt: skip
        options = f"-h {LOCALHOST} -p {port} -k {folder} -c fsync=off -c max_connections=120"
        subprocess.run(
            _as_server_user([str(binaries / "pg_ctl"), "start", "-D", str(data), "-l", str(log), "-w", "-o", options]),
            **run,
        )
        url = f"postgresql://{USER}@{LOCALHOST}:{port}/postgres"
        pg_ctl = str(binaries / "pg_ctl")
        _CONTROLS[url] = (
            _as_server_user([pg_ctl, "stop", "-D", str(data), "-m", "fast", "-w"]),
            _as_server_user([pg_ctl, "start", "-D", str(data), "-l", str(log), "-w", "-o", options]),
        )
        try:
            yield url
        finally:
            _CONTROLS.pop(url, None)
            subprocess.run(
                _as_server_user([str(binaries / "pg_ctl"), "stop", "-D", str(data), "-m", "immediate", "-w"]),
                check=False,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=60,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def stopped(url: str) -> Iterator[None]:
    """The throwaway server at ``url`` stopped for the block (every connection dropped), then started again."""
    stop, start = _CONTROLS[url]
    run = {"check": True, "stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "timeout": 120}
    subprocess.run(stop, **run)
    try:
        yield
    finally:
        subprocess.run(start, **run)
