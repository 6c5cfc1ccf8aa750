"""The class server (``calcnb app --server solara``): its gate, caps and pages, and a visit's own page and language.

The gate and the caps are tested on the real server, started as ``calcnb app`` starts it (a subprocess, marked
``server``): the class code page, the code's cookie, the page's websocket refused without it, the caps on pages
(all of them, and one device's; a closed websocket frees its place at once), Solara's addresses about other
visitors not served, the page's ``<html lang>``, a folder's pages. A page's websocket is opened as a browser
opens it (``/jupyter/api/kernels/<id>/channels?session_id=<id>``): it holds a place under the caps while open.
Several devices are played by several loopback addresses (127.0.0.2 ..., Linux's whole 127/8 is this machine).

In this process, without a server (the fast tier): a notebook run into one visit's page of widgets
(:func:`calcnb.serve.class_server.notebook_widgets.notebook_page`) and two visits' languages kept apart
(:func:`calcnb.core.visits.use_visit_scope`).
"""

from __future__ import annotations

import asyncio
import html
import http.client
import json
import re
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import ipywidgets as widgets
import nbformat
import pytest

from calcnb import i18n
from calcnb.i18n import get_language, message, set_language
from calcnb.serve.class_server.gate import PAGE_STYLE, WIDGET_SCRIPTS
from calcnb.serve.class_server.notebook_widgets import PAGE_CLASS, notebook_page
from calcnb.serve.cli.commands import server_environment, solara_command
from calcnb.serve.cli.environments import class_code_environment
from calcnb.serve.cli.process import free_port, start_server, stop_server, wait_until_serving
from calcnb.serve.shared.caps import CODE_COOKIE, CODE_FIELD, CODE_TRIES
from calcnb.serve.shared.settings import LOCALHOST

CLASS_CODE = "4821"

# ------------------------------------------------------------ notebooks


def _notebook(path: Path, *cells: tuple[str, str]) -> Path:
    """Write a notebook of ``(kind, source)`` cells (``"markdown"`` or ``"code"``) at ``path``; return it."""
    notebook = nbformat.v4.new_notebook()
    for kind, source in cells:
        make = nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell
        notebook.cells.append(make(source))
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path


def _small_lesson(path: Path, title: str = "A small lesson") -> Path:
    return _notebook(path, ("markdown", f"# {title}"), ("code", "print('hello from the lesson')"))


# ------------------------------------------------------------ the real server


@dataclass
class Running:
    """A class server started for a test: its port, its log, and what it serves."""

    port: int
    log: Path
    target: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def request(
        self,
        method: str,
        path: str,
        *,
        body: str | None = None,
        cookie: str | None = None,
        source: str = LOCALHOST,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        """``method path`` from the address ``source``: (status, headers with lowercase names, body)."""
        connection = http.client.HTTPConnection(LOCALHOST, self.port, timeout=60, source_address=(source, 0))
        sent = dict(headers or {})
        if cookie is not None:
            sent["Cookie"] = cookie
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            headers = {name.lower(): value for name, value in response.getheaders()}
            if "set-cookie" in headers:  # several Set-Cookie headers: one line each
                headers["set-cookie"] = "\n".join(response.msg.get_all("set-cookie"))
            return response.status, headers, text
        finally:
            connection.close()

    def get(self, path: str = "/", **options) -> tuple[int, dict[str, str], str]:
        return self.request("GET", path, **options)

    @contextmanager
    def page_socket(self, *, cookie: str | None = None, source: str = LOCALHOST) -> Iterator[object]:
        """A page's websocket to its virtual kernel, from ``source``, open for the block.

        Raises ``websockets.exceptions.InvalidStatus`` when the server refuses it (a closed handshake).
        """
        from websockets.sync.client import connect

        kernel, session = uuid.uuid4(), uuid.uuid4()
        uri = f"ws://{LOCALHOST}:{self.port}/jupyter/api/kernels/{kernel}/channels?session_id={session}"
        sock = socket.create_connection((LOCALHOST, self.port), timeout=30, source_address=(source, 0))
        headers = {"Cookie": cookie} if cookie else None
        try:
            with connect(uri, sock=sock, additional_headers=headers, open_timeout=30, close_timeout=5) as websocket:
                yield websocket
        finally:
            sock.close()


def _serve(
    tmp_path: Path,
    target: Path,
    *,
    language: str = "en",
    code: str | None = None,
    max_pages: int | None = None,
    per_device: int | None = None,
) -> Iterator[Running]:
    """The class server on ``target``, started as ``calcnb app TARGET --server solara`` starts it."""
    port = free_port()
    log_path = tmp_path / f"solara-{port}.log"
    environment = class_code_environment(server_environment(language=language), code)
    command = solara_command(target, port=port, max_kernels=max_pages, pages_per_device=per_device)
    with log_path.open("wb") as log:
        process = start_server(command, cwd=tmp_path, log=log, env=environment)
    try:
        wait_until_serving(process, LOCALHOST, port, timeout=90)
        yield Running(port, log_path, target)
    finally:
        stop_server(process)


@pytest.fixture(scope="module")
def coded(tmp_path_factory) -> Iterator[Running]:
    """A notebook served in English with a class code."""
    base = tmp_path_factory.mktemp("coded")
    yield from _serve(base, _small_lesson(base / "lesson.ipynb"), code=CLASS_CODE)


@pytest.fixture(scope="module")
def coded_pt(tmp_path_factory) -> Iterator[Running]:
    """A notebook served in Portuguese (``--lang pt``) with a class code."""
    base = tmp_path_factory.mktemp("coded-pt")
    yield from _serve(base, _small_lesson(base / "lesson.ipynb"), language="pt", code=CLASS_CODE)


@pytest.fixture
def capped(tmp_path) -> Iterator[Running]:
    """A notebook served with at most 3 pages at once, 2 from one device, and no class code."""
    yield from _serve(tmp_path, _small_lesson(tmp_path / "lesson.ipynb"), max_pages=3, per_device=2)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Iterator[Running]:
    """A folder served: two notebooks, one in a subfolder."""
    base = tmp_path_factory.mktemp("folder")
    root = base / "notebooks"
    _small_lesson(root / "first.ipynb", "The first lesson")
    _small_lesson(root / "more" / "second.ipynb", "The second lesson")
    yield from _serve(base, root)


def _cookie(server: Running, code: str = CLASS_CODE, source: str = LOCALHOST) -> str:
    """The cookie the right code gives (``name=value``), typed from ``source``."""
    status, headers, _ = server.request("POST", "/", body=urlencode({CODE_FIELD: code}), source=source)
    assert status == 303, status
    return _set_cookie(headers, CODE_COOKIE).split(";")[0]


def _set_cookie(headers: dict[str, str], name: str) -> str:
    """The Set-Cookie line (``name=value; Path=...``) that sets ``name``, or "" when none does."""
    lines = headers.get("set-cookie", "").splitlines()
    return next((line for line in lines if line.startswith(f"{name}=")), "")


def _refused(server: Running, **options) -> bool:
    """Whether the server refuses a page's websocket (from ``source``, with ``cookie``): before it opens (no class
    code), or at once after, with the code its page shows a cap's refusal for."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    from calcnb.serve.shared.gate_pages import REFUSED_CLOSE_CODES

    try:
        with server.page_socket(**options) as websocket:
            # An accepted socket stays open: a refused one is closed now.
            with suppress(TimeoutError):
                websocket.recv(timeout=0.3)
            return False
    except InvalidStatus:
        return True
    except ConnectionClosed as closed:
        return closed.rcvd is not None and closed.rcvd.code in REFUSED_CLOSE_CODES.values()


def _html_lang(page: str) -> str:
    start = page.index("<html")
    tag = page[start : page.index(">", start)]
    assert 'lang="' in tag, tag
    return tag.split('lang="')[1].split('"')[0]


# ------------------------------------------------------------ the class code


@pytest.mark.server
def test_without_the_code_a_visitor_gets_the_code_page_and_no_page(coded):
    status, headers, page = coded.get("/")
    assert status == 200
    assert message("gate.code_title") in page and f'name="{CODE_FIELD}"' in page
    assert "solara" not in page.lower()  # Solara's page (its scripts, its kernel) is not sent
    assert "no-store" in headers.get("cache-control", "")
    # Nor any of the page's own addresses: its kernel's websocket, Solara's API.
    assert coded.get("/_solara/api/cache")[0] == 403
    assert _refused(coded)


@pytest.mark.server
def test_a_wrong_code_is_refused_with_403_and_no_cookie(coded):
    status, headers, page = coded.request("POST", "/", body=urlencode({CODE_FIELD: "1111"}), source="127.0.0.5")
    assert status == 403
    assert not _set_cookie(headers, CODE_COOKIE)  # the browser is only given its name
    assert html.escape(message("gate.code_wrong")) in page
    assert CLASS_CODE not in page


@pytest.mark.server
def test_the_right_code_sets_the_cookie_and_sends_the_visitor_back_to_the_page(coded):
    status, headers, _ = coded.request("POST", "/", body=urlencode({CODE_FIELD: CLASS_CODE}))
    assert status == 303
    assert headers["location"] == "/"
    cookie = _set_cookie(headers, CODE_COOKIE)
    assert cookie.startswith(f"{CODE_COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert CLASS_CODE not in cookie.split(";")[0].split("=", 1)[1]  # an HMAC, never the code
    status, _, page = coded.get("/", cookie=cookie.split(";")[0])
    assert status == 200
    assert message("gate.code_title") not in page and "solara" in page.lower()  # Solara's page now
    assert CLASS_CODE not in coded.log_text()


@pytest.mark.server
def test_the_pages_websocket_is_refused_without_the_cookie_and_accepted_with_it(coded):
    cookie = _cookie(coded)
    assert _refused(coded)
    assert _refused(coded, cookie=f"{CODE_COOKIE}=0123456789abcdef")  # a made-up cookie
    assert not _refused(coded, cookie=cookie)


@pytest.mark.server
def test_the_pages_websocket_is_not_compressed_again(coded):
    """Its pictures are PNGs: the page offers permessage-deflate (browsers do), and the server declines it."""
    with coded.page_socket(cookie=_cookie(coded)) as websocket:
        assert "permessage-deflate" in websocket.request.headers["Sec-WebSocket-Extensions"]
        assert "Sec-WebSocket-Extensions" not in websocket.response.headers
        assert websocket.protocol.extensions == []


@pytest.mark.server
def test_solaras_addresses_about_other_visitors_are_not_served(coded):
    cookie = _cookie(coded)
    for path in ("/resourcez", "/resourcez?verbose", "/resourcez/", "/_solara/api/evict"):
        status, _, text = coded.get(path, cookie=cookie)
        assert status == 404, (path, status, text[:200])
        assert "kernel" not in text.lower()


class Browser:
    """The cookies of one browser, sent with each of its requests and kept from each answer."""

    def __init__(self, server: Running, source: str) -> None:
        self.server, self.source, self.jar = server, source, {}

    def request(self, method: str, path: str = "/", **options) -> tuple[int, dict[str, str], str]:
        cookie = "; ".join(f"{name}={value}" for name, value in self.jar.items()) or None
        status, headers, body = self.server.request(method, path, cookie=cookie, source=self.source, **options)
        if "set-cookie" in headers:
            for part in headers["set-cookie"].splitlines():
                name, _, value = part.split(";")[0].partition("=")
                self.jar[name.strip()] = value
        return status, headers, body

    def type_code(self, code: str) -> tuple[int, str]:
        status, _, page = self.request("POST", "/", body=urlencode({CODE_FIELD: code}))
        return status, page


@pytest.mark.server
def test_a_browser_that_guesses_is_locked_out_alone_and_the_right_code_is_not_even_compared(coded):
    guesser = Browser(coded, "127.0.0.7")
    guesser.request("GET")  # the code page: the browser is given its name
    for guess in range(CODE_TRIES):
        assert guesser.type_code(f"{guess:04d}")[0] == 403
    status, page = guesser.type_code(CLASS_CODE)
    assert status == 429, status
    assert "Too many wrong codes from this device" in page
    assert CODE_COOKIE not in guesser.jar
    # A classmate behind the same address (a school's network) is not locked out.
    classmate = Browser(coded, "127.0.0.7")
    classmate.request("GET")
    assert classmate.type_code(CLASS_CODE)[0] == 303
    assert CODE_COOKIE in classmate.jar


# ------------------------------------------------------------ the page's language


@pytest.mark.server
def test_the_served_page_says_its_language_in_english(coded):
    assert _html_lang(coded.get("/")[2]) == "en"  # the code page
    status, _, page = coded.get("/", cookie=_cookie(coded))
    assert status == 200 and _html_lang(page) == "en"  # Solara's page


@pytest.mark.server
def test_the_page_brings_its_style_in_its_head(coded):
    _, _, page = coded.get("/", cookie=_cookie(coded))
    head = page.split("</head>", 1)[0]
    assert f"<style>{PAGE_STYLE}</style>" in head and ".calcnb-page" in PAGE_STYLE


@pytest.mark.server
def test_the_page_fetches_the_widget_scripts_ahead_and_each_is_served(coded):
    # require.js asks for them one after the other once the kernel has connected: the page's head asks at once
    cookie = _cookie(coded)
    _, _, page = coded.get("/", cookie=cookie)
    preloaded = re.findall(r'<link rel="preload" as="script" href="([^"]+)">', page)
    assert preloaded == [f"/jupyter/nbextensions/{name}.js" for name in WIDGET_SCRIPTS]
    for address in preloaded:
        status, headers, _ = coded.get(address, cookie=cookie)
        assert status == 200 and "javascript" in headers.get("content-type", "")


@pytest.mark.server
def test_the_served_page_says_its_language_in_portuguese(coded_pt):
    status, _, page = coded_pt.get("/")
    assert status == 200 and _html_lang(page) == "pt"
    set_language("pt")
    assert message("gate.code_title") in page
    status, _, page = coded_pt.request("POST", "/", body=urlencode({CODE_FIELD: "1111"}), source="127.0.0.6")
    assert status == 403 and html.escape(message("gate.code_wrong")) in page
    status, _, page = coded_pt.get("/", cookie=_cookie(coded_pt))
    assert status == 200 and _html_lang(page) == "pt"
    assert page.count("<html") == 1


# ------------------------------------------------------------ the caps


@pytest.mark.server
def test_one_device_holds_at_most_its_pages_and_the_class_at_most_its_own(capped):
    first = "127.0.0.1"
    with capped.page_socket(source=first), capped.page_socket(source=first):
        assert capped.get("/", source=first)[0] == 429  # this device's two pages are open
        status, _, page = capped.get("/", source=first)
        assert message("gate.device_title") in page and _html_lang(page) == "en"
        assert _refused(capped, source=first)  # a third page's socket, sent all the same
        assert capped.get("/", source="127.0.0.2")[0] == 200  # another device still may
        with capped.page_socket(source="127.0.0.2"):
            status, _, page = capped.get("/", source="127.0.0.3")
            assert status == 503 and message("gate.full_title") in page  # three pages: the class is full
            assert _refused(capped, source="127.0.0.3")
    assert "a page refused (device: 2 pages)" in capped.log_text()
    assert "a page refused (full: 3 pages)" in capped.log_text()


def _status_within(server: Running, source: str, seconds: float) -> int:
    """The status of a GET from ``source``, asked again until it is 200 or ``seconds`` have passed.

    A closed page's place is free once the server has heard the close (tens of milliseconds here), not when
    its virtual kernel ends (:data:`calcnb.serve.class_server.app.KERNEL_KEEP_SECONDS` later).
    """
    deadline = time.monotonic() + seconds
    while True:
        status = server.get("/", source=source)[0]
        if status == 200 or time.monotonic() > deadline:
            return status
        time.sleep(0.05)


@pytest.mark.server
def test_a_closed_websocket_frees_its_place_at_once(capped):
    source = "127.0.0.4"
    with capped.page_socket(source=source):
        with capped.page_socket(source=source):
            assert capped.get("/", source=source)[0] == 429
        # the second page closed (its virtual kernel is kept for a reconnection, but not its place)
        assert _status_within(capped, source, 2) == 200
        with capped.page_socket(source=source):  # and a new page gets in
            assert capped.get("/", source=source)[0] == 429
    for _ in range(3):  # pages opened and closed one after the other never fill the device's places
        # Two tabs, each sent its page (a place each, once the server has heard of both closes: milliseconds)...
        assert _status_within(capped, source, 2) == 200
        assert _status_within(capped, source, 2) == 200
        with capped.page_socket(source=source), capped.page_socket(source=source):  # ... then each connects
            assert capped.get("/", source=source)[0] == 429
    assert _status_within(capped, source, 2) == 200


# ------------------------------------------------------------ what is served


@pytest.mark.server
def test_a_folders_root_lists_its_notebooks_and_each_is_served_at_its_name(folder):
    assert folder.get("/")[0] == 200
    for name in ("first", "more/second"):
        status, _, page = folder.get(f"/{name}")
        assert status == 200, (name, status, page[:200])
        assert _html_lang(page) == "en"


@pytest.mark.server
def test_an_unknown_page_says_so_in_plain_words(folder):
    status, headers, page = folder.get("/no-such-lesson")
    assert status == 404
    assert headers.get("content-type", "").startswith("text/html")
    assert message("serve.page_missing") in page
    assert "Solara" not in page


# What page_for gives for an address, run where Solara is imported (not in the tests' own process).
_PAGE_FOR = """
import json, sys
from pathlib import Path
from calcnb.serve.class_server.page import page_for, serve_target
serve_target(Path(sys.argv[1]))
answers = {}
for path in sys.argv[2:]:
    page, title = page_for(path)
    answers[path] = {"title": title, "kind": type(page).__name__, "html": getattr(page, "value", ""),
                     "classes": list(getattr(page, "_dom_classes", ()))}
print(json.dumps(answers))
"""


def _pages_for(target: Path, *paths: str, language: str = "en") -> dict[str, dict]:
    done = subprocess.run(
        [sys.executable, "-c", _PAGE_FOR, str(target), *paths],
        capture_output=True,
        text=True,
        timeout=300,
        env=server_environment(language=language),
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_the_page_of_a_folders_root_links_its_notebooks_and_an_unknown_address_says_so(tmp_path):
    root = tmp_path / "notebooks"
    _small_lesson(root / "first.ipynb")
    _small_lesson(root / "more" / "second.ipynb")
    _small_lesson(root / ".ipynb_checkpoints" / "first-checkpoint.ipynb")
    pages = _pages_for(root, "/", "/first", "/more/second", "/nope", "/../first")
    assert '<a href="first">first</a>' in pages["/"]["html"]
    assert '<a href="more/second">more/second</a>' in pages["/"]["html"]
    assert "checkpoint" not in pages["/"]["html"]
    assert pages["/first"]["classes"] == [PAGE_CLASS] and pages["/first"]["title"] == "calcnb: first"
    assert pages["/more/second"]["classes"] == [PAGE_CLASS]
    for unknown in ("/nope", "/../first"):
        assert message("serve.page_missing") in pages[unknown]["html"]
        assert pages[unknown]["title"] == message("serve.page_missing")
    set_language("pt")
    said = _pages_for(root, "/nope", language="pt")["/nope"]["html"]
    assert message("serve.page_missing") in said


@pytest.mark.slow
def test_a_page_that_fails_says_so_and_shows_no_traceback(tmp_path):
    broken = _notebook(tmp_path / "broken.ipynb", ("markdown", "# Broken"), ("code", "1 / 0"))
    page = _pages_for(broken, "/")["/"]
    assert message("serve.page_failed") in page["html"] and 'role="alert"' in page["html"]
    assert "ZeroDivisionError" not in page["html"]


# ------------------------------------------------------------ a notebook as one visit's page (no server)


def _texts(page: widgets.VBox) -> list[object]:
    """The page's pieces: an HTML widget's value, anything else as the widget itself."""
    return [child.value if isinstance(child, widgets.HTML) else child for child in page.children]


def test_a_notebook_page_shows_prose_printed_text_and_last_values_in_order_and_joins_them_between_widgets(tmp_path):
    path = _notebook(
        tmp_path / "page.ipynb",
        ("markdown", "# Title\n\nSome *prose*."),
        ("code", "print('one')\nprint('two', 3, sep='-')"),
        ("code", "x = 20\nx + 1"),  # a last bare expression's value is shown
        ("code", "y = x  # no value shown"),
        ("code", "import ipywidgets as widgets\nbutton = widgets.Button(description='B')\nbutton"),
        ("code", "print('<b>after</b>')\ndisplay(widgets.Label('L'), 'shown')"),
        ("code", "class Rich:\n    def _repr_html_(self):\n        return '<i>rich</i>'\nRich()"),
        ("code", "   "),
        ("markdown", "The end."),
        ("code", "print('last', end='')\nNone"),
    )
    page = notebook_page(path)
    assert PAGE_CLASS in page._dom_classes
    first, button, between, label, rest = _texts(page)
    assert isinstance(button, widgets.Button) and button.description == "B"
    assert isinstance(label, widgets.Label) and label.value == "L"
    # before the button: the prose, the printed lines (as printed), the value 21, joined in one HTML widget
    assert first.index("<h1") < first.index("one\ntwo-3") < first.index(">21<")
    assert "<em>prose</em>" in first and first.count('class="calcnb-output"') == 2
    # printed between the button and the label: between them, as text (escaped), not as markup
    assert between == '<pre class="calcnb-output">&lt;b&gt;after&lt;/b&gt;</pre>'
    # after the label: 'shown' displayed (its repr), the rich value as its HTML, the prose, the last print
    assert rest.index("&#x27;shown&#x27;") < rest.index("<i>rich</i>") < rest.index("The end.") < rest.index("last")


def test_printed_text_between_two_widgets_is_one_html_widget_placed_between_them(tmp_path):
    path = _notebook(
        tmp_path / "between.ipynb",
        ("code", "import ipywidgets as widgets\nwidgets.Button(description='first')"),
        ("code", "print('<between>')"),
        ("markdown", "and prose"),
        ("code", "widgets.Button(description='second')"),
    )
    children = _texts(notebook_page(path))
    assert len(children) == 3
    assert children[0].description == "first" and children[2].description == "second"
    assert "&lt;between&gt;" in children[1] and "and prose" in children[1]


def test_a_cell_that_fails_raises_and_no_page_is_made(tmp_path):
    path = _notebook(tmp_path / "fails.ipynb", ("code", "print('before')"), ("code", "raise ValueError('the cell')"))
    with pytest.raises(ValueError, match="the cell"):
        notebook_page(path)
    with pytest.raises(SyntaxError):
        notebook_page(_notebook(tmp_path / "syntax.ipynb", ("code", "def (")))


def test_each_visit_runs_the_notebook_afresh_in_a_namespace_of_its_own(tmp_path):
    path = _notebook(
        tmp_path / "fresh.ipynb",
        ("code", "try:\n    seen\nexcept NameError:\n    seen = 'first time'\nelse:\n    seen = 'again'\nseen"),
    )
    for _ in range(2):
        (text,) = _texts(notebook_page(path))
        assert "first time" in text


def test_two_visits_run_at_once_never_mix_their_printed_text(tmp_path):
    path = _notebook(
        tmp_path / "busy.ipynb",
        ("code", "import threading, time\nme = threading.current_thread().name"),
        ("code", "for i in range(200):\n    print(me, i)\n    time.sleep(0.0005)"),
        ("code", "display(me)\nprint('done', me)"),
    )
    pages: dict[str, widgets.VBox] = {}
    start = threading.Barrier(2)

    def visit() -> None:
        start.wait()
        pages[threading.current_thread().name] = notebook_page(path)

    threads = [threading.Thread(target=visit, name=name) for name in ("ana", "bia")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert sorted(pages) == ["ana", "bia"]
    for name, other in (("ana", "bia"), ("bia", "ana")):
        (text,) = _texts(pages[name])
        printed = text.split('<pre class="calcnb-output">')[1].split("</pre>")[0]
        assert printed.splitlines() == [f"{name} {i}" for i in range(200)]
        assert other not in text
        assert text.rstrip().endswith(f"done {name}</pre>")


# ------------------------------------------------------------ a visit's language


def test_two_visits_languages_are_kept_apart(visits):
    ana, bia = {}, {}
    with visits(ana):
        set_language("pt")
        assert get_language() == "pt"
    with visits(bia):
        assert get_language() == "en"  # a new visit speaks the process's language
        set_language("en")
    with visits(ana):
        assert get_language() == "pt"
        assert message("gate.code_title") == i18n.catalogue("pt")["gate.code_title"]
    assert get_language() == "en"  # outside any visit: the process's language, untouched
    assert ana == {"calcnb.language": "pt"} and bia == {"calcnb.language": "en"}


def test_two_visits_at_once_each_read_their_own_language(visits):
    said: dict[str, list[tuple[str, str]]] = {"en": [], "pt": []}
    together = threading.Barrier(2)

    def visit(language: str) -> None:
        with visits({}):
            set_language(language)
            for _ in range(200):
                together.wait(10)  # both visits read at the same moments, each after the other set its own
                said[language].append((get_language(), message("gate.code_title")))

    threads = [threading.Thread(target=visit, args=(language,)) for language in ("en", "pt")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    set_language("pt")
    portuguese = message("gate.code_title")
    set_language("en")
    assert set(said["en"]) == {("en", message("gate.code_title"))}
    assert set(said["pt"]) == {("pt", portuguese)}
    assert portuguese != message("gate.code_title")
    assert get_language() == "en"


# ------------------------------------------------------------ a page's place, kept for its websocket


def _gate_answers(requests: list[tuple[str, str]], *, per_device: int = 2, later: float = 0.0) -> list[int]:
    """The statuses the class gate (in front of an app that accepts everything) gives ``(kind, address)``
    requests in order: ``("page", a)`` a page sent to ``a``, ``("socket", a)`` its websocket, ``("wait", "")``
    ``later`` seconds passing."""
    from loop_thread import LoopThread

    from calcnb.serve.class_server.gate import ClassGate
    from calcnb.serve.shared.caps import ClassDoor, PageCaps

    async def app(scope, receive, send) -> None:
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b""})
        else:
            await receive()
            await send({"type": "websocket.accept"})
            await receive()  # open until the page closes it (never, here)

    now = [1000.0]
    gate = ClassGate(app, ClassDoor(PageCaps(30, per_device)), clock=lambda: now[0])

    open_sockets = []

    async def answer(kind: str, address: str) -> int:
        sent: list[dict] = []
        received = 0

        async def receive() -> dict:
            nonlocal received
            received += 1
            if kind == "page":
                return {"type": "http.request", "body": b""}
            if received > 1:
                await asyncio.Event().wait()
            return {"type": "websocket.connect"}

        async def send(event: dict) -> None:
            sent.append(event)

        if kind == "page":
            await gate(
                {"type": "http", "method": "GET", "path": "/", "headers": [], "client": (address, 1)}, receive, send
            )
            return sent[0]["status"]
        path = f"/jupyter/api/kernels/{uuid.uuid4()}/channels"
        scope = {"type": "websocket", "path": path, "headers": [], "client": (address, 1)}
        open_sockets.append(asyncio.ensure_future(gate(scope, receive, send)))  # an accepted socket stays open
        await asyncio.sleep(0.01)
        return 101 if sent and sent[0]["type"] == "websocket.accept" else sent[0]["code"]

    async def run_all() -> list[int]:
        answers = []
        for kind, address in requests:
            if kind == "wait":
                now[0] += later
                continue
            answers.append(await answer(kind, address))
        for connection in open_sockets:
            connection.cancel()
        return answers

    with LoopThread() as loop:
        return loop.run(run_all())


def test_tabs_opened_over_a_devices_cap_get_a_refusal_page_not_a_page_that_never_loads():
    pupil = "10.0.0.5"
    pages = [("page", pupil)] * 4 + [("socket", pupil)] * 2
    assert _gate_answers(pages) == [200, 200, 429, 429, 101, 101]  # the two pages sent claim their two places


def test_reloads_held_down_in_one_browser_never_lock_it_out_and_its_tab_over_the_cap_is_told_why():
    """Twelve quick loads by one browser (one cookie jar) whose pages never connect, then one more: the app. Its
    pages then connect up to the device's cap of three; a fourth connection is accepted and closed with the code
    its page shows the refusal for, and a page asked for then is refused at once."""
    from loop_thread import LoopThread

    from calcnb.serve.class_server.gate import ClassGate
    from calcnb.serve.shared.caps import BROWSER_COOKIE, ClassDoor, PageCaps
    from calcnb.serve.shared.gate_pages import REFUSED_CLOSE_CODES

    async def app(scope, receive, send) -> None:
        if scope["type"] == "http":
            headers = [(b"content-type", b"text/html"), (b"set-cookie", b"solara-session-id=s; Path=/")]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": b"<html><head></head><body>the app</body></html>"})
        else:
            await receive()
            await send({"type": "websocket.accept"})
            await asyncio.Event().wait()  # open until the page closes it (never, here)

    gate = ClassGate(app, ClassDoor(PageCaps(30, 3)), place_wait=0.2)
    open_sockets = []

    def scope_of(kind: str, cookie: str | None) -> dict:
        headers = [(b"host", b"127.0.0.1:8866")] + ([(b"cookie", cookie.encode())] if cookie else [])
        path = "/" if kind == "http" else f"/jupyter/api/kernels/{uuid.uuid4()}/channels"
        return {"type": kind, "method": "GET", "path": path, "headers": headers, "client": ("10.0.0.9", 1)}

    async def load(cookie: str | None) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        sent: list[dict] = []

        async def receive() -> dict:
            return {"type": "http.request", "body": b""}

        async def send(event: dict) -> None:
            sent.append(event)

        await gate(scope_of("http", cookie), receive, send)
        return sent[0]["status"], sent[0]["headers"], b"".join(event.get("body", b"") for event in sent[1:])

    async def connect(cookie: str) -> list[dict]:
        sent: list[dict] = []

        async def receive() -> dict:
            return {"type": "websocket.connect"}

        async def send(event: dict) -> None:
            sent.append(event)

        open_sockets.append(asyncio.ensure_future(gate(scope_of("websocket", cookie), receive, send)))
        for _ in range(100):  # until the gate has answered (a refusal waits place_wait first, then says all)
            await asyncio.sleep(0.01)
            if sent:
                break
        return sent

    async def visits() -> None:
        status, headers, body = await load(None)  # the first visit: the browser is given its name
        assert status == 200
        cookies = [value.decode() for name, value in headers if name == b"set-cookie"]
        assert any(value.startswith("solara-session-id=") for value in cookies)  # the app's own cookie is kept
        named = next(value for value in cookies if value.startswith(f"{BROWSER_COOKIE}=")).split(";")[0]
        assert b"window.WebSocket=Watched" in body  # the page shows a refusal of its websocket
        statuses = [(await load(named))[0] for _ in range(12)]
        assert statuses == [200] * 12
        answers = [await connect(named) for _ in range(4)]
        assert [[event["type"] for event in sent] for sent in answers[:3]] == [["websocket.accept"]] * 3
        assert answers[3] == [
            {"type": "websocket.accept"},
            {"type": "websocket.close", "code": REFUSED_CLOSE_CODES["device"]},
        ]
        status, _headers, body = await load(named)  # a fourth tab, its browser's three pages connected
        assert status == 429 and message("gate.device_title").encode() in body
        for connection in open_sockets:
            connection.cancel()

    with LoopThread() as loop:  # the gate runs in an event loop, as in the server
        loop.run(visits())


def test_a_page_closed_before_it_connected_frees_its_place_after_a_while():
    pupil = "10.0.0.6"
    requests = [("page", pupil), ("page", pupil), ("page", pupil), ("wait", ""), ("page", pupil), ("socket", pupil)]
    assert _gate_answers(requests, later=31) == [200, 200, 429, 200, 101]
    assert _gate_answers(requests, later=5) == [200, 200, 429, 429, 101]  # within the time a slow page may take
