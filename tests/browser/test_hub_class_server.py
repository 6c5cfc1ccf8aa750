"""A school's hub serving its classes the class server's way: ``deploy/jupyterhub_config.py`` started for real on
127.0.0.1 with a class log. Two pupils log in through the hub and answer in the lesson served by its one
class-server service, their answers land in the class log under the nicknames they typed, the teacher's class
view (a second service) shows them, and the projector view (a third) shows the class's counts and no nickname;
a pupil is refused both views; a request without the hub's login is sent to the hub's login page, never served; a
pupil cannot reach another's page; a pupil's pages are capped by their hub name (every pupil reaches the service
from the hub's proxy, one address); the server-gone check asks the service, under its prefix. The hub starts
no server per pupil, and stops everything it started."""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from playwright.sync_api import expect

from calcnb.classlog.store import open_class_log
from calcnb.i18n import catalogue, message
from calcnb.serve.cli.process import free_port
from calcnb.serve.shared.caps import DEFAULT_PAGES_PER_DEVICE
from calcnb.serve.shared.settings import LOCALHOST

from .conftest import _serve_copy
from .hub_support import log_in, require_the_proxy, serving_hub

pytestmark = pytest.mark.browser

PUPILS = ("ana", "bruno")
# What each pupil types when joining: not their hub name, and words no page holds by chance (the projector's page
# is searched for them).
NICKNAMES = {"ana": "Anabela7", "bruno": "bruno_q9"}
TEACHER = "teacher"
LESSON = "02_wraparound"
SERVICE = "/services/calcnb/"
CLASS_VIEW = "/services/calcnb-class-view/"
PROJECTOR = "/services/calcnb-projector/"


class Hub:
    """The running hub: its address, its class log, its console's log, and the hub's process."""

    def __init__(self, url: str, database: Path, log: Path, process) -> None:
        self.url, self.database, self.log, self.process = url, database, log, process


def _three_free_ports() -> int:
    """A free port whose next two are free too (the class server's, the class view's and the projector's)."""
    for _ in range(50):
        port = free_port()
        try:
            for following in (port + 1, port + 2):
                with socket.socket() as probe:
                    probe.bind((LOCALHOST, following))
        except OSError:
            continue
        return port
    raise AssertionError("no three free ports in a row")


@contextlib.contextmanager
def _hub(folder: Path, **settings: str) -> Iterator[Hub]:
    """The school's hub with the class server as its service, a class log and ``settings`` (environment variables
    of the hub); everything it started is gone afterwards."""
    require_the_proxy()
    root = _serve_copy(folder / "notebooks")  # teacher/ included: the service must leave it out
    database = folder / "lesson.db"
    environment = {**os.environ}
    for name in ("CALCNB_HUB_SERVER", "CALCNB_CLASS_CODE", "CALCNB_LANG", "CALCNB_NO_REVEAL"):
        environment.pop(name, None)
    environment |= {
        "CALCNB_HUB_NOTEBOOKS": str(root),
        "CALCNB_CLASS_LOG": str(database),
        "CALCNB_HUB_SERVICE_PORT": str(_three_free_ports()),
        "CALCNB_HUB_TEACHERS": TEACHER,
        **settings,
    }
    log_path = folder / "hub.log"
    with serving_hub(folder, environment, log_path) as (url, process):
        yield Hub(url, database, log_path, process)


@pytest.fixture(scope="module")
def hub(tmp_path_factory) -> Iterator[Hub]:
    """The school's hub, in English, with no class code."""
    with _hub(tmp_path_factory.mktemp("class_hub")) as running:
        yield running


def _log_in(browser, hub: Hub, name: str):
    """A pupil logs in to the hub in a browser of their own and lands on the class server's list of lessons."""
    page = log_in(browser, hub.url, name, timeout_ms=120_000)
    page.wait_for_url(f"**{SERVICE}", timeout=120_000)
    return page


def _wait_for_rows(database: Path, count: int, timeout: float = 120) -> list[dict]:
    """The class log's checks once it holds ``count`` of them."""
    deadline = time.monotonic() + timeout
    while True:
        log = open_class_log(database)
        try:
            rows = log.attempts()
        finally:
            log.close()
        if len(rows) >= count:
            return rows
        assert time.monotonic() < deadline, f"the class log holds {len(rows)} checks, not {count}"
        time.sleep(0.2)


def _answer(page, nickname: str, answer: str) -> None:
    """On the lesson's page: join the class as ``nickname`` and check ``answer`` in the first exercise."""
    recorder = page.locator(".calcnb-class-recorder")
    recorder.wait_for(state="visible")
    recorder.get_by_placeholder("a nickname").fill(nickname)
    recorder.get_by_placeholder("a nickname").press("Enter")
    recorder.get_by_text(f"Joined as {nickname}").wait_for()
    exercise = page.locator(".calcnb-exercise").first
    exercise.locator("input[type=text]").fill(answer)
    exercise.get_by_role("button", name="Check").click()


def test_pupils_answer_on_the_hubs_class_server_under_their_names(browser, hub):
    pages = {name: _log_in(browser, hub, name) for name in PUPILS}
    sockets: dict[str, list[str]] = {name: [] for name in PUPILS}
    for name, page in pages.items():
        page.locator(f"a[href='{LESSON}']").wait_for()  # the list of lessons, without the teacher's
        assert "teacher" not in page.locator(".calcnb-page, main").first.inner_text()
        page.on("websocket", lambda socket, name=name: sockets[name].append(socket.url))
        page.goto(f"{hub.url}{SERVICE}{LESSON}", wait_until="domcontentloaded")
    for count, (name, page) in enumerate(pages.items(), start=1):
        _answer(page, NICKNAMES[name], "0")
        _wait_for_rows(hub.database, count)
    rows = _wait_for_rows(hub.database, len(PUPILS))
    assert [row["nickname"] for row in rows] == [NICKNAMES[name] for name in PUPILS]
    assert all(row["outcome"] == "wrong" for row in rows)

    # The server-gone check asks the service under its prefix (the hub would say 404 to /readyz), and is answered.
    ana = pages["ana"]
    assert f'fetch("{SERVICE}readyz"' in ana.content()
    assert ana.context.request.get(f"{hub.url}{SERVICE}readyz").status == 200
    assert not ana.locator(".calcnb-server-gone").count()

    # Bruno cannot reach Ana's page: neither her kernel's websocket nor its address, though he is logged in.
    (ana_socket,) = {url for url in sockets["ana"] if "/jupyter/api/kernels/" in url}
    kernel = ana_socket.split("/jupyter/api/kernels/")[1].split("/")[0]
    bruno = pages["bruno"]
    closed = bruno.evaluate(
        """url => new Promise(done => { const s = new WebSocket(url);
             s.onopen = () => { s.close(); done('opened'); }; s.onclose = event => done(event.code); })""",
        ana_socket,
    )
    assert closed != "opened", closed
    assert hub.log.read_text(errors="replace").count("calcnb: bruno asked for a page that is not theirs") == 1
    assert bruno.context.request.get(f"{hub.url}{SERVICE}jupyter/api/kernels/{kernel}").status == 403
    assert ana.context.request.get(f"{hub.url}{SERVICE}jupyter/api/kernels/{kernel}").status != 403

    # A pupil's pages are capped by their hub name: Ana logged in on more browsers (her hub login in each) gets
    # her cap's worth of pages in all, with the lesson open, and no more; Bruno, reaching the service from the
    # same proxy, still gets his.
    login = [cookie for cookie in ana.context.cookies() if cookie["name"] == "service-calcnb"]
    others = [browser.new_context() for _ in range(DEFAULT_PAGES_PER_DEVICE)]
    for other in others:
        other.add_cookies(login)
    for other in others[:-1]:
        assert other.request.get(f"{hub.url}{SERVICE}{LESSON}").status == 200
    over = others[-1].request.get(f"{hub.url}{SERVICE}{LESSON}")
    assert over.status == 429 and "Too many pages open on this device" in over.text()
    assert bruno.context.request.get(f"{hub.url}{SERVICE}{LESSON}").status == 200
    for other in others:
        other.close()

    # The class view is the teacher's: a pupil is refused it, the teacher sees both pupils.
    assert bruno.context.request.get(f"{hub.url}{CLASS_VIEW}").status == 403
    teacher = _log_in_to_the_view(browser, hub)
    view = teacher.locator(".calcnb-class-view")
    view.get_by_text("2 joined, 2 answering, 2 answers checked").wait_for()
    for name in PUPILS:
        assert view.locator(f"tr.calcnb-student[data-nickname='{NICKNAMES[name]}']").count() == 1

    # Pacing from the hub's class view reaches the pupils' pages on the hub's class server: up to exercise 1
    # holds the second (which Ana has not opened), "every exercise" lets it go again.
    second = ana.locator(".calcnb-exercise").nth(1).locator("input[type=text]")
    expect(second).to_be_enabled()
    pace = teacher.locator(".calcnb-pace-choice select")
    pace.select_option(label=message("classview.pace.up_to", number=1))
    expect(second).to_be_disabled(timeout=30_000)  # a page reads the pacing every two seconds
    pace.select_option(label=message("classview.pace.all"))
    expect(second).to_be_enabled(timeout=30_000)

    # The projector view is the teacher's too, a service of its own: a pupil is refused it; the teacher's shows the
    # class's counts, and no nickname anywhere in its page (its text or its markup).
    assert bruno.context.request.get(f"{hub.url}{PROJECTOR}").status in (403, 404)
    wall = teacher.context.new_page()
    wall.goto(f"{hub.url}{PROJECTOR}", wait_until="domcontentloaded")
    projected = wall.locator(".calcnb-projector-page")
    projected.get_by_text("In the class: 2").wait_for()
    projected.get_by_text("0 of 2 got it right").wait_for()
    text, markup = wall.inner_text("body"), wall.content()
    for nickname in {row["nickname"] for row in rows}:  # every nickname in the log
        assert nickname not in text and nickname not in markup, nickname

    # One class-server process for the class (and one each for the two views): no server, no kernel per pupil.
    processes = psutil.Process(hub.process.pid).children(recursive=True)
    lines = [" ".join(process.cmdline()) for process in processes]
    assert sum("calcnb.serve.class_server.hub" in line for line in lines) == 3, lines
    assert not [line for line in lines if "jupyterhub.singleuser" in line or "ipykernel" in line]
    for page in [*pages.values(), teacher]:
        page.context.close()


def _log_in_to_the_view(browser, hub: Hub):
    page = _log_in(browser, hub, TEACHER)
    page.goto(f"{hub.url}{CLASS_VIEW}", wait_until="domcontentloaded")
    return page


def test_no_page_without_the_hubs_login(browser, hub):
    context = browser.new_context()
    request = context.request
    # A page: sent to the hub's OAuth, which sends a browser without the hub's cookie to the hub's login page.
    first = request.get(f"{hub.url}{SERVICE}{LESSON}", max_redirects=0)
    assert first.status == 302 and first.headers["location"].startswith("/hub/api/oauth2/authorize?")
    landed = request.get(f"{hub.url}{SERVICE}{LESSON}")
    assert "/hub/login" in landed.url and "calcnb-page" not in landed.text()
    # Anything else: refused, not redirected (a websocket, the class server's own addresses, a forged callback).
    page = context.new_page()
    page.goto(f"{hub.url}/hub/login", wait_until="domcontentloaded")
    socket_url = hub.url.replace("http", "ws") + f"{SERVICE}jupyter/api/kernels/anything/channels"
    closed = page.evaluate(
        """url => new Promise(done => { const s = new WebSocket(url);
             s.onopen = () => { s.close(); done('opened'); }; s.onclose = event => done(event.code); })""",
        socket_url,
    )
    assert closed != "opened"
    assert request.post(f"{hub.url}{SERVICE}{LESSON}", form={"code": "x"}, max_redirects=0).status == 401
    forged = request.get(f"{hub.url}{SERVICE}oauth_callback?code=made-up&state=made-up", max_redirects=0)
    assert forged.status == 302 and "set-cookie" in forged.headers
    assert "service-calcnb=" not in forged.headers["set-cookie"].split(";")[0]
    # A token the hub never gave: refused too.
    faked = request.get(f"{hub.url}{SERVICE}{LESSON}", headers={"Authorization": "token made-up"}, max_redirects=0)
    assert faked.status == 302
    context.close()


def test_a_portuguese_class_behind_its_class_code_told_when_the_server_is_gone(browser, tmp_path):
    with _hub(tmp_path, CALCNB_LANG="pt", CALCNB_CLASS_CODE="Mesa-42") as hub:
        page = _log_in(browser, hub, "carla")
        # The class code first, in the class's language; once typed, the lessons (the Portuguese ones).
        page.get_by_role("heading", name=catalogue("pt")["gate.code_title"]).wait_for()
        assert page.locator("html").get_attribute("lang") == "pt"
        page.fill("#code", "mesa 42")
        page.get_by_role("button", name=catalogue("pt")["gate.code_button"]).click()
        page.wait_for_url(f"**{SERVICE}")
        page.locator(f"a[href='{LESSON}']").wait_for()
        page.goto(f"{hub.url}{SERVICE}{LESSON}", wait_until="domcontentloaded")
        page.locator(".calcnb-class-recorder").wait_for(state="visible")
        assert page.locator("html").get_attribute("lang") == "pt"
        assert not page.locator(".calcnb-server-gone").count()

        # The class server stops answering (paused): the page says so, in Portuguese; answering again, it stops.
        (service,) = [
            process
            for process in psutil.Process(hub.process.pid).children(recursive=True)
            if "calcnb.serve.class_server.hub" in " ".join(process.cmdline())
            and not process.cmdline()[-1].endswith(".ipynb")  # the pupils' folder, not a teacher's view
        ]
        service.suspend()
        try:
            banner = page.locator(".calcnb-server-gone")
            banner.wait_for(state="visible", timeout=60_000)
            assert banner.inner_text().strip() == catalogue("pt")["serve.server_gone"]
        finally:
            service.resume()
        banner.wait_for(state="detached", timeout=60_000)
        page.context.close()
