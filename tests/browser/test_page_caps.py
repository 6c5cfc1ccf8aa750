"""One client cannot fill the app's server, and strangers without the class code get no kernel (issue 35, item 4):
ten quick loads from one address with a cap of three start three kernels and are told, in English and in
Portuguese, that too many pages are open on this device; with ``--class-code``, no kernel starts before the
code, a wrong code is refused, and the right one, typed or carried by the QR code's address, opens the app."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from calcnb.serve.address import with_class_code
from calcnb.serve.caps import CODE_TRIES
from calcnb.serve.commands import server_environment, voila_command
from calcnb.serve.environments import class_code_environment
from calcnb.serve.notebooks import notebooks_dir
from calcnb.serve.process import free_port, start_server, stop_server, wait_until_serving
from calcnb.serve.settings import DEFAULT_APP_NOTEBOOK, LOCALHOST

from .pages import Server
from .test_serving import _kernels_serving

pytestmark = pytest.mark.browser

CLASS_CODE = "4821"


def _app(tmp_path: Path, *, language: str = "en", code: str | None = None, **caps: int):
    """The play app as ``python -m calcnb app`` serves it, with these caps and class code; yields its Server."""
    root = tmp_path / "notebooks"
    root.mkdir()
    (root / DEFAULT_APP_NOTEBOOK).write_bytes((notebooks_dir() / DEFAULT_APP_NOTEBOOK).read_bytes())
    port = free_port()
    log_path = tmp_path / "voila.log"
    environment = class_code_environment(server_environment(language=language), code)
    with log_path.open("wb") as log:
        command = voila_command(root / DEFAULT_APP_NOTEBOOK, port=port, **caps)
        process = start_server(command, cwd=root, log=log, env=environment)
        try:
            wait_until_serving(process, LOCALHOST, port, timeout=90)
            yield Server(f"http://{LOCALHOST}:{port}", root, log_path)
        finally:
            stop_server(process)


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


@pytest.fixture
def capped_app(tmp_path):
    yield from _app(tmp_path, pages_per_device=3)


@pytest.fixture
def capped_app_pt(tmp_path):
    yield from _app(tmp_path, language="pt", pages_per_device=1)


@pytest.fixture
def coded_app(tmp_path):
    yield from _app(tmp_path, code=CLASS_CODE)


def _context(browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(120_000)
    return context


def test_ten_quick_loads_from_one_device_start_three_kernels_and_the_rest_are_told_why(browser, capped_app):
    answers = _quick_loads(f"{capped_app.url}/", 10)
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] * 3 + [429] * 7, statuses
    assert len(_kernels_serving(capped_app.root)) == 3
    refused = [text for status, text in answers if status == 429]
    for text in refused:
        assert "Too many pages open on this device" in text and "Close one of the other tabs" in text
    # A student's browser over the cap sees that page, readable on a classroom laptop, and starts nothing.
    context = _context(browser)
    page = context.new_page()
    response = page.goto(f"{capped_app.url}/")
    assert response.status == 429
    heading = page.get_by_role("heading", name="Too many pages open on this device")
    box = heading.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 768
    assert page.locator("html").get_attribute("lang") == "en"
    assert len(_kernels_serving(capped_app.root)) == 3
    context.close()


def test_the_page_over_the_cap_speaks_portuguese_in_a_portuguese_class(browser, capped_app_pt):
    context = _context(browser)
    first = context.new_page()
    first.goto(f"{capped_app_pt.url}/")
    first.locator("button.jupyter-button").first.wait_for(state="visible")  # the one page this device may have
    second = context.new_page()
    response = second.goto(f"{capped_app_pt.url}/")
    assert response.status == 429
    assert second.get_by_role("heading", name="Demasiadas páginas abertas neste dispositivo").is_visible()
    assert "Fecha um dos outros separadores" in second.locator("main").inner_text()
    assert second.locator("html").get_attribute("lang") == "pt"
    assert len(_kernels_serving(capped_app_pt.root)) == 1
    # Closing the first tab frees its place: the page's own shutdown request ends its kernel, and a reload gets in
    # (once the server has had the request: a few reloads at most).
    first.close(run_before_unload=True)
    for _ in range(20):
        if second.reload().status == 200:
            break
        second.wait_for_timeout(500)
    second.locator("button.jupyter-button").first.wait_for(state="visible")
    assert len(_kernels_serving(capped_app_pt.root)) == 1
    context.close()


def _type_code(page, code: str) -> None:
    page.get_by_label("Class code").fill(code)
    page.get_by_role("button", name="Open the app").click()


def test_with_a_class_code_no_kernel_starts_before_the_right_code(browser, coded_app):
    context = _context(browser)
    page = context.new_page()
    response = page.goto(f"{coded_app.url}/")
    assert response.status == 200
    assert page.get_by_role("heading", name="Class code").is_visible()
    assert len(_kernels_serving(coded_app.root)) == 0

    _type_code(page, "1111")
    page.get_by_role("alert").wait_for(state="visible")
    assert "That is not the class code" in page.get_by_role("alert").inner_text()
    assert len(_kernels_serving(coded_app.root)) == 0

    _type_code(page, CLASS_CODE)
    page.locator("button.jupyter-button").first.wait_for(state="visible")
    assert len(_kernels_serving(coded_app.root)) == 1
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
    before = len(_kernels_serving(coded_app.root))
    guesser = _context(browser)
    page = guesser.new_page()
    page.goto(f"{coded_app.url}/")
    for guess in range(CODE_TRIES):
        _type_code(page, f"{guess:04d}")
        page.get_by_role("alert").wait_for(state="visible")
    _type_code(page, CLASS_CODE)
    page.get_by_role("alert").wait_for(state="visible")
    assert "Too many wrong codes from this device" in page.get_by_role("alert").inner_text()
    assert len(_kernels_serving(coded_app.root)) <= before
    guesser.close()
