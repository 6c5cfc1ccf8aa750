"""Serving a class: kernels end with their pages, nothing is fetched from beyond the machine, and
``--lang pt`` shows the app in Portuguese; with Voila and with the class server (``--server solara``)."""

from __future__ import annotations

import contextlib
import http.client
import os
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import psutil
import pytest
from jupyter_server.base.websocket import WS_PING_INTERVAL

from calcnb.serve.cli.commands import server_environment
from calcnb.serve.cli.process import free_port, start_server, stop_server, wait_until_serving
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import (
    CULL_IDLE_SECONDS,
    CULL_INTERVAL_SECONDS,
    DEFAULT_APP_NOTEBOOK,
    LOCALHOST,
    MAX_PAGES,
)

from .pages import (
    PLACEHOLDER_ROOM,
    SERVERS,
    PlayApp,
    Server,
    app_command,
    kernel_processes,
    live_move,
    open_app,
    wait_until_shown,
)

pytestmark = pytest.mark.browser

PLAY_NOTEBOOK = os.environ.get("CALCNB_PLAY_NOTEBOOK", DEFAULT_APP_NOTEBOOK)
LESSON_NOTEBOOK = "02_wraparound.ipynb"
LOCAL_HOSTS = {LOCALHOST, "localhost"}
LOCAL_SCHEMES = {"data", "blob", "about"}
#: How often each server pings a page's websocket, in ms: Jupyter Server's (Voila), uvicorn's default (class server).
PING_MS = {"voila": WS_PING_INTERVAL, "solara": 20_000}

# The only version warnings a page may log: Voila's page is built on one JupyterLab release and the widget
# extensions on a later one, so module federation reports the page's own @jupyterlab/* modules as older than
# asked and uses them (see calcnb/serve/shared/settings.py). A warning about the widgets' own modules would be a
# real mismatch.


def _kernels_serving(root: Path) -> list[psutil.Process]:
    """The kernel processes of the Voila whose notebooks are in ``root`` (see :func:`pages.kernel_processes`)."""
    return kernel_processes(root)


def _own_server(tmp_path: Path, kind: str, notebooks: set[str], *, language: str = "en") -> Iterator[Server]:
    """The app's server (``kind``) of this test's own on a folder holding ``notebooks``: a folder for Voila, the
    one notebook for the class server (as ``calcnb app NOTEBOOK --server solara`` serves it)."""
    root = tmp_path / "notebooks"
    root.mkdir()
    for name in notebooks:
        (root / name).write_bytes((notebooks_dir() / name).read_bytes())
    port = free_port()
    log_path = tmp_path / f"{kind}.log"
    served = root if kind == "voila" else root / next(iter(notebooks))
    assert served.is_dir() or len(notebooks) == 1
    with log_path.open("wb") as log:
        command = app_command(kind, served, port=port, pages_per_device=MAX_PAGES)  # a class from one machine
        process = start_server(command, cwd=root, log=log, env=server_environment(language=language))
        try:
            wait_until_serving(process, LOCALHOST, port, timeout=90)
            single = None if kind == "voila" else served.name
            yield Server(f"http://{LOCALHOST}:{port}", root, log_path, kind=kind, notebook=single)
        finally:
            stop_server(process)


@pytest.fixture
def own_voila(tmp_path) -> Server:
    """A Voila of this test's own (the app's command line), so every kernel counted is one of its pages'."""
    yield from _own_server(tmp_path, "voila", {PLAY_NOTEBOOK, LESSON_NOTEBOOK})


@pytest.fixture(params=SERVERS)
def own_app(tmp_path, request) -> Server:
    """The play app served by each of the app's servers, of this test's own: its log is this test's alone."""
    yield from _own_server(tmp_path, request.param, {PLAY_NOTEBOOK})


def _new_tab(browser):
    """A page in a context of its own: a student's tab."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(120_000)
    return context.new_page()


def _open(browser, server: Server, notebook: str):
    """A student's tab showing ``notebook``'s app (not waited for); returns the page."""
    page = _new_tab(browser)
    page.goto(server.page_url(notebook), wait_until="domcontentloaded")
    return page


def _wait_until_interactive(page) -> None:
    page.locator("button.jupyter-button").first.wait_for(state="visible")
    page.locator("img").first.wait_for(state="visible")


def test_kernels_end_with_their_pages_closed_or_reloaded(browser, own_voila):
    # A student who stays: their kernel must survive the culling of everyone else's.
    stayer = PlayApp(_new_tab(browser), own_voila, PLAY_NOTEBOOK)
    assert len(_kernels_serving(own_voila.root)) == 1

    # A tab that could not ask for its kernel's end (a browser that crashed, a laptop shut): closed without
    # its unload handlers running. Only the culler ends that kernel; it does so while the class goes on.
    lost = _open(browser, own_voila, PLAY_NOTEBOOK)
    _wait_until_interactive(lost)
    lost.context.close()
    lost_at = time.monotonic()

    visits = 1
    for notebook in (PLAY_NOTEBOOK, LESSON_NOTEBOOK):
        # Tabs one after the other (the machine is small), each reloaded once (a reload is a new visit) and
        # then closed as a student closes a tab (its unload handlers run): five tabs, ten visits.
        for _ in range(3 if notebook == LESSON_NOTEBOOK else 2):
            page = _open(browser, own_voila, notebook)
            _wait_until_interactive(page)
            page.reload(wait_until="domcontentloaded")
            _wait_until_interactive(page)
            with page.expect_event("close"):  # the close waits for the unload handlers, which send the beacon
                page.close(run_before_unload=True)
            page.context.close()
            visits += 2
    assert visits == 11

    # Each leaving page asked for its kernel's shutdown, which the server granted: of the eleven visits, only
    # the lost tab's kernel may still be there, besides the open page's.
    deadline = time.monotonic() + 30
    while len(_kernels_serving(own_voila.root)) > 2 and time.monotonic() < deadline:
        time.sleep(1)
    assert len(_kernels_serving(own_voila.root)) <= 2

    # The culler ends the lost tab's kernel once it has been idle CULL_IDLE_SECONDS, at its next look (every
    # CULL_INTERVAL_SECONDS); the kernel's last activity may come a little after the tab closed (its socket's end,
    # seen late on a busy machine): a look more, and some slack, then only the open page's kernel is left.
    deadline = lost_at + CULL_IDLE_SECONDS + 2 * CULL_INTERVAL_SECONDS + 20
    while len(_kernels_serving(own_voila.root)) > 1 and time.monotonic() < deadline:
        time.sleep(2)
    left = _kernels_serving(own_voila.root)
    assert len(left) == 1, f"{len(left)} kernels {deadline - lost_at:.0f} s after the lost tab closed"

    # The page that stayed open still plays: its kernel was not culled.
    said = stayer.click("T")
    assert said.startswith("You turned "), said
    stayer.page.context.close()


def _notebooks() -> list[str]:
    return sorted(path.name for path in notebooks_dir().glob("*.ipynb"))


@pytest.mark.parametrize("notebook", _notebooks())
def test_no_page_requests_anything_beyond_this_machine(page, app_server, notebook):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.on("websocket", lambda socket: requested.append(socket.url))
    page.goto(app_server.page_url(notebook), wait_until="load")
    # The notebook has run and its widgets are drawn (or, for a page without widgets, its outputs are shown).
    wait_until_shown(page, app_server)
    page.wait_for_load_state("networkidle")

    outside = [
        url
        for url in requested
        if urlparse(url).scheme not in LOCAL_SCHEMES and urlparse(url).hostname not in LOCAL_HOSTS
    ]
    assert outside == []
    assert len(requested) > 5  # the page, its scripts, its styles and the kernel's websocket were recorded
    errors = [text for text in page.console_messages if text.startswith(("error:", "pageerror:"))]
    assert errors == []
    # Not one warning: the widget manager's JupyterLab versions agree with the page's (no "Unsatisfied version").
    assert [text for text in page.console_messages if text.startswith("warning:")] == []


def _get(server: Server, path: str) -> tuple[int, str]:
    """The status and Location of a GET of ``path``, redirects not followed."""
    connection = http.client.HTTPConnection(urlparse(server.url).netloc, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Location") or ""
    finally:
        connection.close()


@pytest.mark.parametrize(
    ("path", "answer"),
    [
        ("/logout", (302, "/")),  # nothing to log out of: back to the app
        ("/voila/templates/calcnb/conf.json", (404, "")),  # the template's settings are not a page
        ("/voila/templates/calcnb", (404, "")),
        ("/voila/templates/calcnb/static/", (404, "")),
        ("/voila/templates/calcnb/static/labvariables.css", (200, "")),  # a template's static file is served
    ],
)
def test_the_servers_odd_addresses_answer_as_a_web_server_should(voila_server, path, answer):
    assert _get(voila_server, path) == answer


def test_a_visit_leaves_no_alarming_line_in_the_servers_log(browser, own_app):
    app = PlayApp(_new_tab(browser), own_app, PLAY_NOTEBOOK)
    assert app.click("T").startswith("You turned ")
    app.page.context.close()
    time.sleep(1)  # what the page's leaving makes the server write
    log = own_app.log.read_text(errors="replace")
    if own_app.kind == "voila":
        assert "Kernel started" in log  # the log is the server's, and the visit is in it
        assert "websocket_ping_timeout" not in log
        assert "not trusted" not in log  # the app's own notebooks are signed when it starts
        assert "running over TCP without encryption" not in log  # the kernels talk over Unix sockets
    # The teacher's terminal shows this log: nothing in it may look like something went wrong.
    alarming = [
        line for line in log.splitlines() if any(word in line.lower() for word in ("warning", "error", "traceback"))
    ]
    assert alarming == [], "\n".join(alarming)


@pytest.fixture
def own_apps(tmp_path) -> Iterator[list[Server]]:
    """The play app served by each of the app's servers at once, each of this test's own."""
    with contextlib.ExitStack() as servers:
        started = []
        for kind in SERVERS:
            folder = tmp_path / kind
            folder.mkdir()
            started.append(servers.enter_context(contextlib.contextmanager(_own_server)(folder, kind, {PLAY_NOTEBOOK})))
        yield started


def test_a_page_keeps_its_kernel_connection_through_the_servers_pings(browser, own_apps):
    # The server pings every page's websocket (Jupyter Server every 30 s, uvicorn every 20 s); a ping timeout no
    # longer than the interval once closed every socket at its first ping, and the page went on only by
    # reconnecting each time. The first ping, and the pong that answers it, show it: one page on each server,
    # waited for together.
    apps, consoles = [], []
    for server in own_apps:
        page = _new_tab(browser)
        console: list[str] = []
        page.on("console", lambda entry, console=console: console.append(entry.text))
        app = PlayApp(page, server, PLAY_NOTEBOOK)
        assert app.click("T").startswith("You turned ")
        apps.append(app)
        consoles.append(console)
    apps[-1].page.wait_for_timeout(max(PING_MS[server.kind] for server in own_apps) + 5_000)
    for server, app, console in zip(own_apps, apps, consoles, strict=True):
        before = app.message()
        assert app.click(live_move(app.enabled(), 1)) != before, server.kind  # the kernel answers on the first socket
        app.page.context.close()
        assert [line for line in console if "Connection lost" in line] == [], server.kind
        assert len([line for line in console if line.startswith("Starting WebSocket")]) == 1, server.kind
        log = server.log.read_text(errors="replace")
        if server.kind == "voila":
            assert "Connecting to kernel" in log
        assert "ping timeout" not in log.lower(), server.kind


@pytest.fixture(params=SERVERS)
def app_in_portuguese(tmp_path, request) -> Server:
    """The app's server started as ``python -m calcnb app --lang pt`` starts it: CALCNB_LANG=pt in its environment."""
    yield from _own_server(tmp_path, request.param, {PLAY_NOTEBOOK}, language="pt")


def test_lang_pt_shows_the_play_app_in_portuguese(page, app_in_portuguese):
    root = open_app(page, app_in_portuguese, PLAY_NOTEBOOK, "Virar", "play")
    texts = [text.strip() for text in root.locator("button.jupyter-button").all_inner_texts()]
    assert "Virar" in texts and "Turn" not in texts
    assert "Undo" not in texts and "New deal" not in texts
    assert page.locator("html").get_attribute("lang") == "pt"  # a screen reader reads the page as Portuguese
    text, room = root.locator(".calcnb-seed input").evaluate(PLACEHOLDER_ROOM)  # "vazio: ao acaso", whole
    assert 0 < text <= room
