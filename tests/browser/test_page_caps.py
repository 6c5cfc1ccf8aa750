"""One client cannot fill the app's server, and strangers without the class code get no kernel (issue 35, item 4):
ten quick loads from one address with a cap of three start three kernels and are told, in English and in
Portuguese, that too many pages are open on this device; with ``--class-code``, no kernel starts before the
code, a wrong code is refused, and the right one, typed or carried by the QR code's address, opens the app.

Each test runs against both of the app's servers (``calcnb app --server voila|solara``). Voila starts a kernel
process for a page when it is asked for the page; the class server gives a page a virtual kernel when the page
connects to it. Either way a page holding a kernel holds an open kernel websocket, counted in the browser
(:class:`pages.KernelSockets`); Voila's kernel processes are counted as well."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from calcnb.serve.cli.address import with_class_code
from calcnb.serve.cli.commands import server_environment
from calcnb.serve.cli.environments import class_code_environment
from calcnb.serve.cli.process import free_port, start_server, stop_server, wait_until_serving
from calcnb.serve.shared.caps import CODE_TRIES
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import DEFAULT_APP_NOTEBOOK, LOCALHOST

from .pages import SERVERS, KernelSockets, Server, app_command, assert_secured, kernel_processes

pytestmark = pytest.mark.browser

CLASS_CODE = "4821"


def _app(tmp_path: Path, server: str, *, language: str = "en", code: str | None = None, **caps: int):
    """The play app as ``python -m calcnb app --server SERVER`` serves it, with these caps and class code."""
    root = tmp_path / "notebooks"
    root.mkdir()
    (root / DEFAULT_APP_NOTEBOOK).write_bytes((notebooks_dir() / DEFAULT_APP_NOTEBOOK).read_bytes())
    port = free_port()
    log_path = tmp_path / f"{server}.log"
    environment = class_code_environment(server_environment(language=language), code)
    with log_path.open("wb") as log:
        command = app_command(server, root / DEFAULT_APP_NOTEBOOK, port=port, **caps)
        process = start_server(command, cwd=root, log=log, env=environment)
        try:
            wait_until_serving(process, LOCALHOST, port, timeout=90)
            yield Server(f"http://{LOCALHOST}:{port}", root, log_path, kind=server, notebook=DEFAULT_APP_NOTEBOOK)
        finally:
            stop_server(process)


def _kernels(server: Server) -> int | None:
    """The kernel processes the server's pages started (Voila's); None for the class server, which starts none."""
    return len(kernel_processes(server.root)) if server.kind == "voila" else None


def _quick_loads(url: str, count: int) -> list[tuple[int, str]]:
    """``count`` loads of ``url`` at once from this machine: (status, text) of each."""
    answers: list[tuple[int, str]] = []

    def load() -> None:
        try:
            with urllib.request.urlopen(url, timeout=300) as response:
                answers.append((response.status, response.read().decode(errors="replace")))
        except urllib.error.HTTPError as error:
            answers.append((error.code, error.read().decode(errors="replace")))

    threads = [threading.Thread(target=load) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.fixture(params=SERVERS)
def capped_app(tmp_path, request):
    yield from _app(tmp_path, request.param, pages_per_device=3)


@pytest.fixture(params=SERVERS)
def capped_app_pt(tmp_path, request):
    yield from _app(tmp_path, request.param, language="pt", pages_per_device=1)


@pytest.fixture(params=SERVERS)
def coded_app(tmp_path, request):
    yield from _app(tmp_path, request.param, code=CLASS_CODE)


def _context(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(120_000)
    return context


def test_ten_quick_loads_from_one_device_start_three_kernels_and_the_rest_are_told_why(browser, capped_app):
    if capped_app.kind == "voila":  # Voila starts a page's kernel when the page is asked for: ten loads, no browser
        answers = _quick_loads(f"{capped_app.url}/", 10)
        statuses = sorted(status for status, _ in answers)
        assert statuses == [200] * 3 + [429] * 7, statuses
        assert _kernels(capped_app) == 3
        refused = [text for status, text in answers if status == 429]
        for text in refused:
            assert "Too many pages open on this device" in text and "Close one of the other tabs" in text
    # A student's browser over the cap sees that page, readable on a classroom laptop, and starts nothing.
    context = _context(browser)
    sockets = KernelSockets(context)
    if capped_app.kind == "solara":  # the class server gives a page its kernel when the page connects: three pages
        for _ in range(3):
            tab = context.new_page()
            tab.goto(f"{capped_app.url}/")
            tab.locator("button.calcnb-btn-T").wait_for(state="visible")
        assert sockets.open_answered() == 3
    page = context.new_page()
    response = page.goto(f"{capped_app.url}/")
    assert response.status == 429
    heading = page.get_by_role("heading", name="Too many pages open on this device")
    box = heading.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 768
    assert page.locator("html").get_attribute("lang") == "en"
    assert _kernels(capped_app) in (3, None)
    assert sockets.open_answered() == (3 if capped_app.kind == "solara" else 0)
    context.close()


def test_five_tabs_opened_at_once_on_one_device_show_three_apps_and_two_refusals(browser, capped_app):
    """A student who opens the app in five tabs at once (a double-click too many, a restored session): three
    tabs show the app, each of the two others says why it does not, and the server holds three kernels."""
    context = _context(browser)
    sockets = KernelSockets(context)
    tabs = [context.new_page() for _ in range(5)]
    for tab in tabs:  # each load is sent before any page has arrived or connected
        tab.goto(f"{capped_app.url}/", wait_until="commit")
    apps = refusals = 0
    for tab in tabs:
        shown = tab.locator("button.calcnb-btn-T").or_(tab.get_by_role("heading", name="Too many pages open"))
        shown.first.wait_for(state="visible", timeout=60_000)
        if tab.locator("button.calcnb-btn-T").count():
            apps += 1
        else:
            refusals += 1
            assert "Close one of the other tabs" in tab.locator("main").inner_text()
    assert (apps, refusals) == (3, 2)
    assert sockets.open_answered() == 3
    assert _kernels(capped_app) in (3, None)
    context.close()


@pytest.fixture
def capped_class_server(tmp_path):
    """The class server alone, three pages a device: how its pages are sent before they connect is its own."""
    yield from _app(tmp_path, "solara", pages_per_device=3)


def _shows_app(tab) -> None:
    tab.locator("button.calcnb-btn-T").wait_for(state="visible")


def test_a_browsers_reloads_never_lock_it_out_and_its_tabs_get_the_app_up_to_the_cap(browser, capped_class_server):
    """F5 held down (twelve loads, each before its page could connect) then one more a second later: the app, not
    "Too many pages open on this device". Then tabs opened in a row up to the device's cap of three all show the
    app, one more is told why not, and a connected tab, reloaded once or held down, shows the app again."""
    url = f"{capped_class_server.url}/"
    context = _context(browser)
    sockets = KernelSockets(context)
    first = context.new_page()
    for _ in range(12):
        first.goto(url, wait_until="commit")
    first.wait_for_timeout(1000)
    response = first.goto(url)
    assert response.status == 200, response.status
    _shows_app(first)

    tabs = [context.new_page() for _ in range(2)]
    for tab in tabs:  # opened in a row, each before the other's page has connected
        tab.goto(url, wait_until="commit")
    for tab in tabs:
        _shows_app(tab)
    assert sockets.settle_at(first, 3) == 3

    over = context.new_page()
    refused = over.goto(url)
    assert refused.status == 429
    assert over.get_by_role("heading", name="Too many pages open on this device").is_visible()
    assert "Close one of the other tabs" in over.locator("main").inner_text()
    over.close()

    reloaded = tabs[0]
    assert reloaded.reload().status == 200  # its place is its own again once its old page's websocket has closed
    _shows_app(reloaded)
    for _ in range(6):  # held down, at the device's cap (loads of its address: playwright's reloads cannot overlap)
        reloaded.goto(url, wait_until="commit")
    assert reloaded.goto(url).status == 200
    _shows_app(reloaded)
    assert sockets.settle_at(first, 3) == 3
    context.close()


def test_the_page_over_the_cap_speaks_portuguese_in_a_portuguese_class(browser, capped_app_pt):
    context = _context(browser)
    sockets = KernelSockets(context)
    first = context.new_page()
    first.goto(f"{capped_app_pt.url}/")
    first.locator("button.jupyter-button").first.wait_for(state="visible")  # the one page this device may have
    second = context.new_page()
    response = second.goto(f"{capped_app_pt.url}/")
    assert response.status == 429
    assert_secured(response)  # a refusal too
    assert second.get_by_role("heading", name="Demasiadas páginas abertas neste dispositivo").is_visible()
    assert "Fecha um dos outros separadores" in second.locator("main").inner_text()
    assert second.locator("html").get_attribute("lang") == "pt"
    assert _kernels(capped_app_pt) in (1, None) and sockets.open_answered() == 1
    # Closing the first tab frees its place: the page's own shutdown request ends its kernel (Voila), its
    # closed connection frees its place (the class server), and a reload gets in (once the server has had the
    # request: a few reloads at most).
    first.close(run_before_unload=True)
    for _ in range(20):
        if second.reload().status == 200:
            break
        second.wait_for_timeout(500)
    second.locator("button.jupyter-button").first.wait_for(state="visible")
    assert second.locator("html").get_attribute("lang") == "pt"
    assert _kernels(capped_app_pt) in (1, None) and sockets.settle_at(second, 1) == 1
    context.close()


def _type_code(page, code: str) -> None:
    page.get_by_label("Class code").fill(code)
    page.get_by_role("button", name="Open the app").click()


def test_with_a_class_code_no_kernel_starts_before_the_right_code(browser, coded_app):
    context = _context(browser)
    sockets = KernelSockets(context)
    page = context.new_page()
    response = page.goto(f"{coded_app.url}/")
    assert response.status == 200
    assert page.get_by_role("heading", name="Class code").is_visible()
    assert_secured(response)  # the gate's own page
    assert page.locator("html").get_attribute("lang") == "en"
    assert _kernels(coded_app) in (0, None) and sockets.opened == []

    _type_code(page, "1111")
    page.get_by_role("alert").wait_for(state="visible")
    assert "That is not the class code" in page.get_by_role("alert").inner_text()
    assert _kernels(coded_app) in (0, None) and sockets.opened == []

    _type_code(page, CLASS_CODE)
    page.locator("button.jupyter-button").first.wait_for(state="visible")
    assert _kernels(coded_app) in (1, None) and sockets.open_answered() == 1
    for address in (f"{coded_app.url}/", f"{coded_app.url}/no-such-page.ipynb"):  # with the code: the app, a 404
        served = context.request.get(address)
        assert served.status in ((200,) if address.endswith("/") else (403, 404)), (address, served.status)
        assert_secured(served)
    # The cookie lets the same student reload without the code.
    page.reload()
    page.locator("button.jupyter-button").first.wait_for(state="visible")
    assert "Class code" not in page.title()
    context.close()

    # Scanning the QR code opens the address with the code after '#': straight into the app, and the code
    # leaves the address bar.
    scanned = _context(browser)
    phone = scanned.new_page()
    phone.goto(with_class_code(f"{coded_app.url}/", CLASS_CODE))
    phone.locator("button.jupyter-button").first.wait_for(state="visible")
    assert CLASS_CODE not in phone.url
    scanned.close()

    # The code is in no line of the server's log.
    assert CLASS_CODE not in coded_app.log.read_text(errors="replace")

    # A device that guesses is stopped after a few wrong codes, the right one included, and starts nothing.
    before = _kernels(coded_app)
    guesser = _context(browser)
    guessing = KernelSockets(guesser)
    page = guesser.new_page()
    page.goto(f"{coded_app.url}/")
    for guess in range(CODE_TRIES):
        _type_code(page, f"{guess:04d}")
        page.get_by_role("alert").wait_for(state="visible")
    _type_code(page, CLASS_CODE)
    page.get_by_role("alert").wait_for(state="visible")
    assert "Too many wrong codes from this device" in page.get_by_role("alert").inner_text()
    assert before is None or _kernels(coded_app) <= before
    assert guessing.opened == []
    guesser.close()
