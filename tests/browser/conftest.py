"""Real-browser fixtures: Voila, the class server (Solara) and JupyterLab on local ports, driven by Debian's chromium.

The servers serve a temporary copy of ``notebooks/`` (plus the harness's own
notebooks in ``fixtures/``), so notebooks that save files write nowhere in the
checkout. Each server is started once per test session and stopped at its end,
whatever the tests did (:func:`calcnb.serve.cli.process.stop_server` ends the server, its
process group and its kernels). The class server is started as ``calcnb app NOTEBOOK
--server solara`` starts it, one per notebook, when a test first asks for the notebook's
page (:class:`pages.SolaraApps`); a folder served whole by the class server is tested in
``tests/test_solara_server.py``. A test of the pages that both servers serve takes
``app_server``, and runs once against each. Playwright drives ``/usr/bin/chromium``; no
browser is ever downloaded.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from calcnb.serve.cli.commands import lab_command, server_environment, solara_command, voila_command
from calcnb.serve.cli.process import free_port, start_server, stop_server, wait_until_serving
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import CHROMIUM_ARGS, CHROMIUM_PATH, LOCALHOST, MAX_PAGES

from .pages import SERVERS, AnyServer, Server, SolaraApps

FIXTURES = Path(__file__).parent / "fixtures"

# Settings of the test JupyterLab (kept apart from the user's): every cell stays in the page, so the
# tests see every output, and no news prompt covers the notebook.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
}

# The harness notebooks are pages to serve, not notebooks for nbval to run.
collect_ignore_glob = ["fixtures/*"]


def _serve_copy(target: Path) -> Path:
    """Copy the notebooks and the harness notebooks into ``target`` and return it."""
    source = notebooks_dir()
    if source.is_dir():
        shutil.copytree(source, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints"), dirs_exist_ok=True)
    target.mkdir(parents=True, exist_ok=True)
    for notebook in FIXTURES.glob("*.ipynb"):
        shutil.copy(notebook, target / notebook.name)
    return target


def _start(command: list[str], port: int, log_path: Path, root: Path) -> Iterator[Server]:
    with log_path.open("wb") as log:
        process = start_server(command, cwd=root, log=log)
        try:
            wait_until_serving(process, LOCALHOST, port, timeout=90)
            yield Server(f"http://{LOCALHOST}:{port}", root, log_path)
        finally:
            stop_server(process)


def notebook_language(notebook: str) -> str:
    """The language ``calcnb app`` is given to serve ``notebook``: ``pt`` for a Portuguese twin (``pt/NAME``)."""
    return "pt" if notebook.startswith("pt/") else "en"


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt("terminated")


def pytest_configure(config: pytest.Config) -> None:
    """A run ended by SIGTERM (say, a CI time limit) still stops its servers: pytest tears down on Ctrl-C."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _interrupt)


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Voila serving a copy of the notebooks folder; pages at ``/voila/render/<name>``."""
    root = _serve_copy(tmp_path_factory.mktemp("voila") / "notebooks")
    port = free_port()
    command = voila_command(
        root, port=port, pages_per_device=MAX_PAGES
    )  # a whole class's pages come from this one machine: no cap per device
    yield from _start(command, port, root.parent / "voila.log", root)


@pytest.fixture(scope="session")
def solara_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SolaraApps]:
    """The class server on a copy of the notebooks folder, one per notebook (``calcnb app NOTEBOOK --server solara``).

    A Portuguese twin (``pt/NAME``) is served in Portuguese, as ``calcnb app NAME --lang pt`` serves it.
    """
    root = _serve_copy(tmp_path_factory.mktemp("solara") / "notebooks")
    processes: dict[Server, subprocess.Popen] = {}

    def start(notebook: str) -> Server:
        port = free_port()
        log_path = root.parent / f"solara-{notebook.replace('/', '-')}-{port}.log"
        command = solara_command(root / notebook, port=port, pages_per_device=MAX_PAGES)  # a class from one machine
        with log_path.open("wb") as log:
            process = start_server(
                command, cwd=root, log=log, env=server_environment(language=notebook_language(notebook))
            )
        try:
            wait_until_serving(process, LOCALHOST, port, timeout=90)
        except BaseException:
            stop_server(process)
            raise
        server = Server(f"http://{LOCALHOST}:{port}", root, log_path, kind="solara", notebook=notebook)
        processes[server] = process
        return server

    def stop(server: Server) -> None:
        stop_server(processes.pop(server))

    apps = SolaraApps(root, start, stop)
    try:
        yield apps
    finally:
        apps.close()


@pytest.fixture(params=SERVERS)
def app_server(request: pytest.FixtureRequest) -> AnyServer:
    """The app's server serving the notebooks: Voila, then the class server (the test runs once with each)."""
    return request.getfixturevalue(f"{request.param}_server")


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """JupyterLab (token disabled, local only) on a copy of the notebooks folder."""
    base = tmp_path_factory.mktemp("lab")
    root = _serve_copy(base / "notebooks")
    settings = base / "user-settings"
    for plugin, values in LAB_SETTINGS.items():
        path = settings / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    port = free_port()
    command = [
        *lab_command(root, port=port, token="", allow_root=True),
        # The tests read notebook outputs through the application object.
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        f"--LabApp.user_settings_dir={settings}",
        f"--LabApp.workspaces_dir={base / 'workspaces'}",
    ]
    yield from _start(command, port, root.parent / "lab.log", root)


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium under playwright, one for the whole session."""
    if not Path(CHROMIUM_PATH).exists():
        reason = f"{CHROMIUM_PATH} is missing (apt-get install chromium-headless-shell); the browser tests need it"
        # CI installs chromium, so there a missing browser is a failure, never a quiet skip.
        if os.environ.get("CALCNB_REQUIRE_BROWSER"):
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS))
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser):
    """A fresh page (its own context) that records console messages in ``page.console_messages``."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(60_000)
    new_page = context.new_page()
    messages: list[str] = []
    new_page.on("console", lambda entry: messages.append(f"{entry.type}: {entry.text}"))
    new_page.on("pageerror", lambda error: messages.append(f"pageerror: {error}"))
    new_page.console_messages = messages  # type: ignore[attr-defined]
    yield new_page
    context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failure, attach the tail of the server logs: the kernel's traceback is usually there."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and (report.failed or hasattr(report, "wasxfail")):
        shown: set[Path] = set()
        for name in ("app_server", "voila_server", "solara_server", "lab_server"):
            server = item.funcargs.get(name) if hasattr(item, "funcargs") else None
            if not isinstance(server, (Server, SolaraApps)):
                continue
            for log in server.logs()[-2:]:  # a class server's: the last notebooks' it served
                if log.exists() and log not in shown:
                    shown.add(log)
                    report.sections.append((f"{name} log {log.name} (tail)", log.read_text(errors="replace")[-4000:]))
        own = item.funcargs.get("tmp_path") if hasattr(item, "funcargs") else None
        for log in sorted(own.glob("*.log")) if isinstance(own, Path) else ():  # servers a test started itself
            report.sections.append((f"{log.name} (tail)", log.read_text(errors="replace")[-4000:]))
