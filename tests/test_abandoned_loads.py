"""A page load its visitor abandons gives its kernel and its place back within seconds, and a page that is merely
slow to connect keeps its kernel (:mod:`calcnb.serve.voila.kernels`, :mod:`calcnb.serve.voila.gate`).

The kernel manager's rules run first on the manager itself (no server), then on a real kernel, then on the app's
real server: a client that takes the whole page and never connects, one that hangs up mid-render, and a
browser tab closed after its page arrived but before its scripts connected it (the hostile trial's two
abandoned loads that made a class of two "full" for two minutes).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import psutil
import pytest
from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

from calcnb.serve.cli.commands import server_environment, voila_command
from calcnb.serve.cli.process import free_port, start_server, stop_server, wait_until_serving
from calcnb.serve.shared import caps
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import CHROMIUM_ARGS, CHROMIUM_PATH, DEFAULT_APP_NOTEBOOK, LOCALHOST
from calcnb.serve.voila.gate import LEFT_FIELD, leaving_script
from calcnb.serve.voila.kernels import PAGE_CONNECT_SECONDS, PAGE_LOAD_SECONDS, ClassroomKernelManager


def _run(coroutine):
    """Run ``coroutine`` in a loop of its own thread (a browser test's Playwright may hold the main thread's)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(asyncio.run, coroutine).result(timeout=120)


# ------------------------------------------------------------ the manager's rules (no kernel, no server)


def _manager(monkeypatch, *kernel_ids: str, seconds: float = 0.2) -> tuple[ClassroomKernelManager, list[str]]:
    """A manager holding idle kernels ``kernel_ids`` whose shutdowns are recorded (and forget the kernel)."""
    shut: list[str] = []

    async def shutdown(manager, kernel_id, *args, **kwargs):
        shut.append(kernel_id)
        manager._kernels.pop(kernel_id)

    monkeypatch.setattr(AsyncMappingKernelManager, "shutdown_kernel", shutdown)
    manager = ClassroomKernelManager(page_connect_seconds=seconds)
    for kernel_id in kernel_ids:
        manager._kernels[kernel_id] = SimpleNamespace(last_activity=utcnow(), execution_state="idle")
        manager._kernel_connections[kernel_id] = 0
    return manager, shut


def test_a_kernel_whose_page_was_sent_and_never_connected_ends_at_the_deadline_and_frees_its_place(monkeypatch):
    async def scenario() -> tuple[list[str], object, object]:
        manager, shut = _manager(monkeypatch, "abandoned", "connected", "blipped", "rendering")
        page_caps = caps.PageCaps(max_kernels=4, max_per_address=4)
        for kernel_id in ("abandoned", "connected", "blipped", "rendering"):
            visit = page_caps.admit("10.0.0.9", manager.list_kernel_ids())
            visit.kernel_id = kernel_id
        for kernel_id in ("abandoned", "connected", "blipped"):
            manager.page_sent(kernel_id)  # "rendering": its page is still being made
        refused = page_caps.admit("10.0.0.9", manager.list_kernel_ids())
        await asyncio.sleep(0.05)
        manager.notify_connect("connected")
        manager.notify_connect("blipped")
        manager.notify_disconnect("blipped")  # a network blip: the page reconnects on its own
        await asyncio.sleep(0.5)
        return shut, refused, page_caps.admit("10.0.0.9", manager.list_kernel_ids())

    shut, refused, admitted = _run(scenario())
    assert refused == "full"
    assert shut == ["abandoned"]  # a connected page's kernel is the culler's, as before; one rendering is the gate's
    assert isinstance(admitted, caps.Visit)  # its place is free


def test_a_page_leaving_before_it_connected_ends_its_kernel_at_once_and_no_other(monkeypatch):
    async def scenario() -> tuple[list[str], list[bool]]:
        manager, shut = _manager(monkeypatch, "closed-tab", "playing", "stranger", seconds=PAGE_CONNECT_SECONDS)
        manager.page_sent("closed-tab")
        manager.page_sent("playing")
        manager.notify_connect("playing")
        answers = [
            await manager.page_left("closed-tab"),
            await manager.page_left("playing"),  # connected: Voila's own beacon ends it
            await manager.page_left("stranger"),  # no page was sent for it: not a page's to end
            await manager.page_left("closed-tab"),  # twice: nothing more
        ]
        return shut, answers

    shut, answers = _run(scenario())
    assert shut == ["closed-tab"] and answers == [True, False, False, False]


def test_the_culler_spares_a_sent_page_until_its_deadline_however_long_its_kernel_has_been_idle(monkeypatch):
    async def scenario() -> list[bool]:
        manager, _ = _manager(monkeypatch, "sent", "unsent", "old", seconds=PAGE_CONNECT_SECONDS)
        manager._kernels["old"].last_activity = utcnow() - timedelta(seconds=PAGE_LOAD_SECONDS + 5)
        manager._kernels["sent"].last_activity = utcnow() - timedelta(seconds=PAGE_LOAD_SECONDS + 5)
        manager.page_sent("sent")
        return [manager.waiting_for_its_page(kernel_id) for kernel_id in ("sent", "unsent", "old")]

    assert _run(scenario()) == [True, True, False]


def test_the_leaving_script_sends_its_pages_kernel_once_it_is_known():
    script = leaving_script()
    assert script.startswith("<script>") and script.count("</script>") == 1
    assert "sendBeacon" in script and LEFT_FIELD in script and "pagehide" in script and "_xsrf" in script
    assert "jupyter-config-data" in script and "kernelId" in script  # read when the page leaves, not before


@pytest.mark.slow  # starts a real kernel
def test_a_real_kernel_whose_page_never_connects_is_shut_down_at_the_deadline():
    async def scenario() -> tuple[bool, float]:
        manager = ClassroomKernelManager(page_connect_seconds=2)
        kernel_id = await manager.start_kernel(kernel_name="python3")
        try:
            sent = time.monotonic()
            manager.page_sent(kernel_id)
            while kernel_id in manager.list_kernel_ids() and time.monotonic() - sent < 30:
                await asyncio.sleep(0.1)
            return kernel_id in manager.list_kernel_ids(), time.monotonic() - sent
        finally:
            await manager.shutdown_all()

    alive, after = _run(scenario())
    assert not alive and 2 <= after < 10


# ------------------------------------------------------------ the app's real server


def _kernels(root: Path) -> list[psutil.Process]:
    """The kernel processes of the server whose notebooks are in ``root`` (a kernel runs in its notebook's folder)."""
    found = []
    for process in psutil.process_iter(["cmdline", "cwd"]):
        with_kernel = "ipykernel" in " ".join(process.info["cmdline"] or ())
        cwd = process.info["cwd"] or ""
        if with_kernel and (cwd == str(root) or cwd.startswith(f"{root}{os.sep}")):
            found.append(process)
    return found


def _app(tmp_path: Path, *options: str) -> Iterator[SimpleNamespace]:
    """The play app as ``python -m calcnb app --max-kernels 1`` serves it, with ``options`` added."""
    root = tmp_path / "notebooks"
    root.mkdir()
    (root / DEFAULT_APP_NOTEBOOK).write_bytes((notebooks_dir() / DEFAULT_APP_NOTEBOOK).read_bytes())
    port = free_port()
    with (tmp_path / "voila.log").open("wb") as log:
        command = [*voila_command(root / DEFAULT_APP_NOTEBOOK, port=port, max_kernels=1), *options]
        process = start_server(command, cwd=root, log=log, env=server_environment())
        try:
            wait_until_serving(process, LOCALHOST, port, timeout=90)
            yield SimpleNamespace(url=f"http://{LOCALHOST}:{port}/", port=port, root=root, log=tmp_path / "voila.log")
        finally:
            stop_server(process)


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def _request(port: int) -> socket.socket:
    client = socket.create_connection((LOCALHOST, port))
    client.sendall(f"GET / HTTP/1.1\r\nHost: {LOCALHOST}:{port}\r\n\r\n".encode())
    return client


def _seconds_until_free(url: str, root: Path, limit: float) -> float:
    """How long until the class of one takes a visitor again and its abandoned kernel is gone (``limit``: gave up)."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        if not _kernels(root) and _status(url) == 200:
            return time.monotonic() - started
        time.sleep(0.5)
    return limit


CONNECT_SECONDS = 6  # the deadline of the servers below: short, so that the tests wait little


@pytest.fixture
def quick_app(tmp_path) -> Iterator[SimpleNamespace]:
    yield from _app(tmp_path, f"--ClassroomKernelManager.page_connect_seconds={CONNECT_SECONDS}")


@pytest.mark.server
def test_a_client_that_takes_the_whole_page_and_never_connects_frees_the_class_at_the_deadline(quick_app):
    client = _request(quick_app.port)  # and never closed before the end: a device gone silent (Wi-Fi lost)
    try:
        received = b""
        while not received.endswith(b"\r\n0\r\n\r\n"):  # the last chunk: the page is whole
            chunk = client.recv(65536)
            assert chunk, received[-300:]
            received += chunk
        sent = time.monotonic()
        # The page carries its leaving beacon, before Voila's scripts (which hold the rest of the page up).
        assert b"sendBeacon" in received and received.index(b"sendBeacon") < received.index(b"/voila.js")
        assert _status(quick_app.url) == 503  # a class of one, and its place is taken
        free_after = _seconds_until_free(quick_app.url, quick_app.root, limit=60) + time.monotonic() - sent
        # Before: the kernel waited 120 s idle and a cull (the trial's 121-126 s). After the deadline the kernel's
        # shutdown is waited for, which took 15.4 s in a CI run on both loaded cores: the bound tells the deadline
        # from the cull, not a quiet machine from a busy one.
        assert free_after < CONNECT_SECONDS + 40, free_after
        assert "no page connected to kernel" in quick_app.log.read_text(errors="replace")
    finally:
        client.close()


@pytest.mark.server
def test_a_client_that_hangs_up_mid_render_frees_the_class_within_seconds(quick_app):
    client = _request(quick_app.port)
    assert client.recv(4096).startswith(b"HTTP/1.1 200")  # the page has begun: its kernel is running the notebook
    while not _kernels(quick_app.root):
        time.sleep(0.1)
    client.close()
    assert _seconds_until_free(quick_app.url, quick_app.root, limit=60) < 15


@pytest.mark.browser
def test_a_tab_closed_before_its_scripts_connected_frees_the_class_and_a_slow_tab_keeps_its_kernel(tmp_path):
    from playwright.sync_api import sync_playwright

    app = _app(tmp_path)  # the default deadline, PAGE_CONNECT_SECONDS: only the page's beacon can free it sooner
    server = next(app)

    def visit() -> None:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS))
            context = browser.new_context(viewport={"width": 1366, "height": 768})
            context.set_default_timeout(120_000)
            page = context.new_page()
            arrived = []
            page.on("requestfinished", lambda request: arrived.append(request.url == server.url) or None)
            page.route("**/voila/static/**", lambda route: None)  # scripts that never come: a slow network
            page.goto(server.url, wait_until="commit")
            while not any(arrived):  # the page has arrived whole; its scripts have not
                page.wait_for_timeout(100)
            assert len(_kernels(server.root)) == 1
            page.close(run_before_unload=True)
            closed = time.monotonic()
            while _kernels(server.root) and time.monotonic() - closed < 2 * PAGE_CONNECT_SECONDS:
                time.sleep(0.2)
            # Before: 121-126 s (the hostile trial); the deadline alone would take PAGE_CONNECT_SECONDS. The page's
            # beacon ends the kernel at once.
            assert not _kernels(server.root) and time.monotonic() - closed < 10
            assert "left before it connected" in server.log.read_text(errors="replace")

            # The class of one takes a visitor again: a tab whose scripts come late, which connects to its kernel.
            slow = context.new_page()

            def late(route) -> None:
                time.sleep(3)
                route.continue_()

            slow.route("**/voila/static/voila.js", late)
            with slow.expect_websocket(lambda socket: "/channels" in socket.url):
                assert slow.goto(server.url).status == 200
            slow.wait_for_timeout(1000)
            assert len(_kernels(server.root)) == 1
            assert server.log.read_text(errors="replace").count("left before it connected") == 1  # the first tab's
            slow.close(run_before_unload=True)
            context.close()
            browser.close()

    try:
        # In a thread of its own: a browser test's Playwright, earlier in this process, keeps an asyncio loop marked
        # running in the main thread, and a second sync Playwright refuses to start there.
        with concurrent.futures.ThreadPoolExecutor(1) as thread:
            thread.submit(visit).result()
    finally:
        next(app, None)
