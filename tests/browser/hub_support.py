"""The school's hub of ``deploy/jupyterhub_config.py``, started for real on 127.0.0.1: for the hub's browser tests
(``test_hub.py``, ``test_hub_class_server.py``) and the hub's memory benchmark (``benchmarks/bench_hub.py``).

The hub gets free ports, and its database and cookie secret in a folder of the caller's; what it serves and how is
said by its environment variables (``CALCNB_HUB_*``), which the caller gives.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import psutil

from calcnb.serve.cli.process import free_port, start_server, stop_server, wait_until_serving
from calcnb.serve.shared.settings import LOCALHOST

if TYPE_CHECKING:  # the benchmark imports this module without playwright's objects
    from playwright.sync_api import Browser, Page

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "jupyterhub_config.py"


def require_the_proxy() -> None:
    """Skip the test when the hub's proxy is not installed (fail it where the browser tests are required)."""
    import pytest  # here: the benchmark imports this module without pytest

    if shutil.which("configurable-http-proxy") is None:
        reason = "configurable-http-proxy is missing (npm install -g configurable-http-proxy); the hub test needs it"
        if os.environ.get("CALCNB_REQUIRE_BROWSER"):
            pytest.fail(reason)
        pytest.skip(reason)


def log_in(browser: Browser, url: str, name: str, timeout_ms: int) -> Page:
    """``name`` logs in through the login form of the hub at ``url``, in a browser context of their own (a
    classroom laptop's screen); the page, which the hub then sends on."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(timeout_ms)
    page = context.new_page()
    page.goto(f"{url}/hub/login", wait_until="domcontentloaded")
    page.fill("#username_input", name)
    page.fill("#password_input", "calcnb")
    page.click("#login_submit")
    return page


def hub_command(folder: Path, port: int) -> list[str]:
    """The command line of the hub on ``port``, its other ports free ones, its database and secret in ``folder``."""
    return [
        sys.executable,
        "-m",
        "jupyterhub",
        "-f",
        str(CONFIG),
        f"--JupyterHub.port={port}",
        f"--JupyterHub.hub_port={free_port()}",
        f"--ConfigurableHTTPProxy.api_url=http://{LOCALHOST}:{free_port()}",
        f"--JupyterHub.db_url=sqlite:///{folder / 'hub.sqlite'}",
        f"--JupyterHub.cookie_secret_file={folder / 'cookie_secret'}",
    ]


def wait_for_the_hub(url: str, process: subprocess.Popen, timeout: float = 120) -> None:
    """The proxy answers before the hub behind it: wait until the hub's own API does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/hub/api", timeout=5) as response:
            if response.status == 200:
                return
        time.sleep(0.5)
    raise AssertionError(f"the hub did not answer at {url}/hub/api")


@contextlib.contextmanager
def serving_hub(
    folder: Path, environment: dict[str, str], log_path: Path, timeout: float = 120, *, all_stopped: bool = True
) -> Iterator[tuple[str, subprocess.Popen]]:
    """The hub with ``environment``, its output in ``log_path``, until the block ends; yields its address and
    process once its API answers. Leaving the block stops the hub, its process group and its kernels;
    ``all_stopped``: then asserts that every process it had started has ended (the tests' check; the benchmark
    wants only its figures)."""
    port = free_port()
    started: list[psutil.Process] = []
    with log_path.open("wb") as log:
        process = start_server(hub_command(folder, port), cwd=folder, log=log, env=environment)
        try:
            wait_until_serving(process, LOCALHOST, port, timeout=timeout)
            url = f"http://{LOCALHOST}:{port}"
            wait_for_the_hub(url, process, timeout)
            yield url, process
            started = psutil.Process(process.pid).children(recursive=True)  # read while the hub still runs
        finally:
            stop_server(process, timeout=60)
    if all_stopped:
        _gone, alive = psutil.wait_procs(started, timeout=30)
        assert alive == [], [process.cmdline() for process in alive]
