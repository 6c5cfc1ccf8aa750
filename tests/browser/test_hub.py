"""A school's hub, each student with a server of their own (``CALCNB_HUB_SERVER=voila``):
``deploy/jupyterhub_config.py`` started for real on 127.0.0.1, two students log in,
each plays a move in their own app, a student finds everything but the apps refused (JupyterLab,
terminals, kernels, files, the teacher's notebooks) and their pages from one device capped, whatever address
their browser claims, the servers' kernels talk over Unix sockets, and the hub and every server it started are
stopped at the end."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import psutil
import pytest

from calcnb.serve.cli.commands import kernel_options, server_environment
from calcnb.serve.shared.caps import DEFAULT_PAGES_PER_DEVICE
from calcnb.serve.shared.settings import CLASSROOM_KERNEL_MANAGER, DEFAULT_APP_NOTEBOOK

from .conftest import _serve_copy
from .hub_support import log_in, require_the_proxy, serving_hub
from .pages import PlayApp, Server

pytestmark = pytest.mark.browser

STUDENTS = ("ana", "bruno")


@pytest.fixture
def hub(tmp_path) -> Iterator[Server]:
    """The school's hub with its own ports, database and folders; everything it started is gone afterwards."""
    require_the_proxy()
    root = _serve_copy(tmp_path / "notebooks")  # teacher/ included: the hub must leave it out
    # Each student's own server (Voila), the hub's other way; tests/browser/test_hub_class_server.py: the default.
    environment = {**server_environment(), "CALCNB_HUB_NOTEBOOKS": str(root), "CALCNB_HUB_SERVER": "voila"}
    log_path = tmp_path / "hub.log"
    with serving_hub(tmp_path, environment, log_path) as (url, _process):
        yield Server(url, root, log_path)


def _log_in(browser, hub: Server, name: str) -> PlayApp:
    """A student logs in in a browser of their own and lands on their play app."""
    page = log_in(browser, hub.url, name, timeout_ms=180_000)
    # The hub starts the student's server and sends them to its default page: the play app.
    page.wait_for_url(f"**/user/{name}/voila/render/{DEFAULT_APP_NOTEBOOK}*", timeout=180_000)
    return PlayApp(page, Server(f"{hub.url}/user/{name}", hub.root, hub.log), DEFAULT_APP_NOTEBOOK, navigate=False)


def test_two_students_log_in_and_each_plays_in_their_own_app(browser, hub):
    apps = {name: _log_in(browser, hub, name) for name in STUDENTS}

    for name, app in apps.items():
        said = app.click("T")
        assert said.startswith("You turned "), (name, said)
        assert f"/user/{name}/" in app.page.url

    # One server per student, each with the kernel of its page.
    processes = psutil.Process(os.getpid()).children(recursive=True)
    servers = [p for p in processes if "jupyterhub.singleuser" in " ".join(p.cmdline())]
    users = sorted(p.environ().get("JUPYTERHUB_USER", "") for p in servers)
    assert users == sorted(STUDENTS)
    for server in servers:
        # the classroom kernel manager, which spares a kernel until its page has connected, runs there too
        assert f"--ServerApp.kernel_manager_class={CLASSROOM_KERNEL_MANAGER}" in server.cmdline()
        assert set(kernel_options()) <= set(server.cmdline())  # kernels over Unix sockets, as in the app
        kernels = [p for p in server.children(recursive=True) if "ipykernel" in " ".join(p.cmdline())]
        assert len(kernels) == 1, server.environ().get("JUPYTERHUB_USER")
    # A move in one student's app leaves the other's board as it was: ana places her card, bruno's still waits.
    said = apps["ana"].click("S>W1")
    assert re.fullmatch(r"Put \S+ on waste pile 1\.", said), said
    assert "S>W1" in apps["bruno"].enabled() and "T" not in apps["bruno"].enabled()
    for app in apps.values():
        app.page.context.close()
    # The servers' console has none of the lines that alarmed teachers about the app's (issue 35, item 10).
    console = hub.log.read_text(errors="replace")
    assert "over TCP without encryption" not in console and "websocket_ping_timeout" not in console


def _xsrf_headers(context) -> dict[str, str]:
    """The XSRF header a page of the student's server sends: refusals must not be mere XSRF refusals."""
    tokens = [cookie["value"] for cookie in context.cookies() if cookie["name"] == "_xsrf"]
    assert tokens, [cookie["name"] for cookie in context.cookies()]
    return {"X-XSRFToken": tokens[0]}


def test_a_student_reaches_the_apps_and_nothing_else(browser, hub):
    app = _log_in(browser, hub, "mallory")
    assert app.click("T").startswith("You turned ")  # the lesson's play app still plays
    context = app.page.context
    server = f"{hub.url}/user/mallory"
    request = context.request
    headers = _xsrf_headers(context)

    # What the page itself uses is allowed: its own kernel, seen through the API.
    kernels = request.get(f"{server}/api/kernels", headers=headers)
    assert kernels.status == 200, kernels.status
    assert len(kernels.json()) == 1

    refused = {
        "GET /lab": request.get(f"{server}/lab", max_redirects=0),
        "GET /tree": request.get(f"{server}/tree", max_redirects=0),
        "POST /api/terminals": request.post(f"{server}/api/terminals", headers=headers),
        "POST /api/kernels": request.post(f"{server}/api/kernels", headers=headers, data={"name": "python3"}),
        "PUT /api/contents": request.put(
            f"{server}/api/contents/evil.ipynb",
            headers=headers,
            data={"type": "notebook", "content": {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}},
        ),
        "POST /api/contents": request.post(f"{server}/api/contents", headers=headers, data={"type": "notebook"}),
        "GET /api/contents": request.get(f"{server}/api/contents", headers=headers),
        "POST /api/sessions": request.post(
            f"{server}/api/sessions", headers=headers, data={"path": "x.ipynb", "type": "notebook"}
        ),
        "GET /files/play.ipynb": request.get(f"{server}/files/{DEFAULT_APP_NOTEBOOK}", max_redirects=0),
        "GET /voila/render/teacher": request.get(
            f"{server}/voila/render/teacher/02_wraparound_teacher.ipynb", max_redirects=0
        ),
        "GET /voila/render/pt/teacher": request.get(
            f"{server}/voila/render/pt/teacher/02_wraparound_teacher.ipynb", max_redirects=0
        ),
    }
    for what, response in refused.items():
        assert response.status in (403, 404, 405), (what, response.status, response.text()[:300])
    assert not any(hub.root.rglob("evil.ipynb"))
    # Still one kernel: the page's own.
    assert len(request.get(f"{server}/api/kernels", headers=headers).json()) == 1

    # The student's pages from one device are capped as in the app: the page over the cap says so and
    # starts no kernel (the pages loaded here never connect, so their kernels stay for now).
    page_url = f"{server}/voila/render/{DEFAULT_APP_NOTEBOOK}"
    for _ in range(DEFAULT_PAGES_PER_DEVICE - 1):
        assert request.get(page_url).status == 200
    over = request.get(page_url)
    assert over.status == 429 and "Too many pages open on this device" in over.text(), over.status
    assert len(request.get(f"{server}/api/kernels", headers=headers).json()) == DEFAULT_PAGES_PER_DEVICE
    context.close()


def test_a_student_cannot_pass_for_other_devices_with_forwarded_headers(browser, hub):
    # A hostile trial: a browser's own X-Real-Ip, rotated, made one student a dozen devices (12 kernels). The hub's
    # proxy passes such headers on; the student's server takes the address the proxy saw
    # (calcnb.serve.voila.hub.HubProxy).
    app = _log_in(browser, hub, "eve")  # the app's page: one place taken
    request = app.page.context.request
    server = f"{hub.url}/user/eve"
    page_url = f"{server}/voila/render/{DEFAULT_APP_NOTEBOOK}"
    claims = [{"X-Real-Ip": f"10.0.0.{n}", "X-Forwarded-For": f"10.1.0.{n}"} for n in range(1, 10)]
    for claim in claims[: DEFAULT_PAGES_PER_DEVICE - 1]:
        assert request.get(page_url, headers=claim).status == 200
    for claim in claims[DEFAULT_PAGES_PER_DEVICE - 1 :]:
        over = request.get(page_url, headers=claim)
        assert over.status == 429 and "Too many pages open on this device" in over.text(), (claim, over.status)
    kernels = request.get(f"{server}/api/kernels", headers=_xsrf_headers(app.page.context))
    assert len(kernels.json()) == DEFAULT_PAGES_PER_DEVICE
    app.page.context.close()
