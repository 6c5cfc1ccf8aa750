"""Page helpers for the browser tests: find the play board's parts, click, and wait for the kernel's answer.

The play widget's buttons are found by their place in the board, in the
order the widget documents (``T``, ``S>F1`` .. ``S>F4``, ``S>W1`` .. ``S>W4``,
``W1>F1`` .. ``W4>F4``, then Undo, Redo, Hint, New deal), and their texts are
checked against that order, so a changed layout fails loudly instead of
clicking the wrong button. CSS classes (``calcnb-btn-S-F1``, ``calcnb-message``,
``calcnb-board-image``, ``calcnb-caption``) are preferred when the widgets provide them.

The pages come from either of the app's servers (:data:`SERVERS`): Voila, which serves a folder's
notebooks at ``/voila/render/NAME``, each page a kernel, in its ``calcnb`` template; and the class
server (``--server solara``), which serves one notebook at ``/`` as ``calcnb app NOTEBOOK`` does, each
page a virtual kernel in one process, inside a box of class ``calcnb-page``. What differs between them
(the page's address, what shows the page is drawn) is here, behind :meth:`Server.page_url` and
:func:`wait_until_shown`, and nowhere in the tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import APIResponse, BrowserContext, Frame, Locator, Page, Response, WebSocket

from calcnb.game.engine import ALL_MOVES

MOVE_NAMES = [move.text for move in ALL_MOVES]
CONTROL_NAMES = ["undo", "redo", "hint", "new"]
BOARD_BUTTONS = MOVE_NAMES + CONTROL_NAMES


def live_move(enabled: list[str], clicks: int) -> str:
    """A move that keeps a game going: a foundation move, else Turn, else the turned card to the wastes in turn."""
    moves = [name for name in enabled if name in MOVE_NAMES]
    for name in moves:
        if ">F" in name:
            return name
    if "T" in moves:
        return "T"
    wastes = [name for name in moves if name.startswith("S>W")]
    return wastes[clicks % len(wastes)]


# The smallest widget box holding both a button reading ``buttonText`` and an image: a widget's root (an
# ipywidgets box, or the root of a widget drawn by a template, calcnb.ui.view).
_FIND_ROOT = """
([buttonText, marker]) => {
    const buttons = [...document.querySelectorAll('button.jupyter-button')]
        .filter(b => b.textContent.trim() === buttonText);
    const root = (node) => node.classList.contains('jupyter-widgets') || node.classList.contains('calcnb-view');
    for (const button of buttons) {
        let node = button.parentElement;
        while (node && !(root(node) && node.querySelector('img'))) {
            node = node.parentElement;
        }
        if (node) { node.setAttribute('data-test-root', marker); return true; }
    }
    return false;
}
"""

_ENABLED = """
(root, classes) => classes.map(c => { const b = root.querySelector('button.' + c); return !!b && !b.disabled; })
"""

_SHOWS = """
([root, alt]) => { const img = root.querySelector('img.calcnb-board-image'); return !!img && img.alt === alt; }
"""

_DIGEST = """
async (img) => {
    for (let attempt = 0; attempt < 5; attempt++) {
        try {
            const bytes = await (await fetch(img.src)).arrayBuffer();
            const digest = await crypto.subtle.digest('SHA-256', bytes);
            return [...new Uint8Array(digest)].map(x => x.toString(16).padStart(2, '0')).join('');
        } catch (error) {
            // the blob was replaced (and revoked) while it was read: read the new one
            await new Promise(resolve => setTimeout(resolve, 50));
        }
    }
    throw new Error('could not read the board image');
}
"""


#: The app's servers (``calcnb app --server NAME``): the browser tests of the pages run against both.
SERVERS = ("voila", "solara")

#: The box every page of the class server is drawn in (:data:`calcnb.serve.class_server.notebook_widgets.PAGE_CLASS`).
SOLARA_PAGE = ".calcnb-page"


@dataclass(frozen=True)
class Server:
    """A local server started by a fixture: its address, the folder it serves, its log file, and which server.

    ``url`` is Voila's root for a folder (pages at ``/voila/render/NAME``), or the address of the one
    notebook a server was started on (``calcnb app NOTEBOOK``: Voila's or the class server's page at ``/``).
    """

    url: str
    root: Path
    log: Path
    kind: str = "voila"
    notebook: str | None = None  # the one notebook served at ``/``; None: a folder, served by Voila

    def voila_page(self, notebook: str) -> str:
        """The address of ``notebook`` rendered as an app by a Voila serving a folder."""
        return f"{self.url}/voila/render/{notebook}"

    def page_url(self, notebook: str) -> str:
        """The address of ``notebook``'s page on this server."""
        if self.notebook is not None:
            assert notebook == self.notebook, f"this server serves {self.notebook}, not {notebook}"
            return f"{self.url}/"
        return self.voila_page(notebook)

    def logs(self) -> list[Path]:
        """The server's log files (for a failure's report)."""
        return [self.log]


class SolaraApps:
    """The class server as ``calcnb app NOTEBOOK --server solara`` starts it: one per notebook, page at ``/``.

    A notebook's server is started the first time a test asks for its page (``start(notebook)``, which
    returns its :class:`Server`) and kept for the next tests; at most ``keep`` run at once, the one asked
    for longest ago stopped first (``stop(server)``). :meth:`close` stops them all.
    """

    kind = "solara"

    def __init__(
        self, root: Path, start: Callable[[str], Server], stop: Callable[[Server], None], keep: int = 3
    ) -> None:
        self.root = root
        self._start, self._stop, self._keep = start, stop, keep
        self._running: OrderedDict[str, Server] = OrderedDict()
        self._logs: list[Path] = []

    def server_for(self, notebook: str) -> Server:
        """The server of ``notebook`` (started now if it is not running)."""
        assert (self.root / notebook).exists(), f"notebooks/{notebook} is missing"
        if notebook in self._running:
            self._running.move_to_end(notebook)
            return self._running[notebook]
        while len(self._running) >= self._keep:
            _, oldest = self._running.popitem(last=False)
            self._stop(oldest)
        server = self._start(notebook)
        self._running[notebook] = server
        self._logs.append(server.log)
        return server

    def page_url(self, notebook: str) -> str:
        return self.server_for(notebook).page_url(notebook)

    def logs(self) -> list[Path]:
        return list(self._logs)

    def close(self) -> None:
        while self._running:
            _, server = self._running.popitem()
            self._stop(server)


#: What a test is given as "the server": Voila on a folder, or the class servers of its notebooks.
AnyServer = Server | SolaraApps


def app_command(
    kind: str, target: Path, *, port: int, max_kernels: int | None = None, pages_per_device: int | None = None
) -> list[str]:
    """The command line ``calcnb app TARGET --server KIND`` runs (with these caps)."""
    from calcnb.serve.cli.commands import solara_command, voila_command

    command = solara_command if kind == "solara" else voila_command
    return command(target, port=port, max_kernels=max_kernels, pages_per_device=pages_per_device)


def assert_secured(response: APIResponse | Response | None) -> None:
    """``response`` carries the security headers every page of both servers sends (calcnb.serve.shared.headers):
    only the page's own origin, never framed by another site, never sniffed."""
    assert response is not None
    headers = response.headers  # names in lower case
    assert headers.get("x-content-type-options") == "nosniff", (response.url, headers)
    assert headers.get("x-frame-options") == "SAMEORIGIN", response.url
    policy = {part.split()[0]: part.split()[1:] for part in headers.get("content-security-policy", "").split(";")}
    assert policy.get("default-src") == ["'self'"] and policy.get("frame-ancestors") == ["'self'"], response.url
    assert policy.get("object-src") == ["'none'"], response.url


def kernel_processes(root: Path) -> list:
    """The kernel processes of the Voila whose notebooks are in ``root`` (a kernel runs in its notebook's folder).

    The class server starts none: its pages are virtual kernels in its one process (see :class:`KernelSockets`).
    """
    import psutil

    kernels = []
    for process in psutil.process_iter(["cmdline", "cwd"]):
        cmdline = " ".join(process.info["cmdline"] or ())
        cwd = process.info["cwd"] or ""
        if "ipykernel" in cmdline and (cwd == str(root) or cwd.startswith(f"{root}{os.sep}")):
            kernels.append(process)
    return kernels


class KernelSockets:
    """The kernel websockets the pages of a browser context open (``/api/kernels/ID/channels``, on either server).

    A page shows a kernel's widgets only through such a socket, so the sockets the server answered and that
    are still open are the pages holding a kernel (a process of Voila's, a virtual one of the class server's).

    A page's new document ends its earlier one, and the earlier one's sockets with it; but playwright forgets a
    page's sockets when its main frame commits a new document, and never reports their close (a reload whose old
    socket closes a moment after the new page arrived, F5 held down). So a main-frame navigation counts as the
    close of the page's sockets opened before it. The apps make no same-document navigations (history API), which
    would also count as one.
    """

    def __init__(self, context: BrowserContext) -> None:
        self.opened: list[WebSocket] = []
        self.answered: set[int] = set()
        self.closed: set[int] = set()
        self._page_of: dict[int, Page] = {}
        context.on("page", self._watch)
        for page in context.pages:
            self._watch(page)

    def _watch(self, page: Page) -> None:
        page.on("websocket", lambda socket: self._socket(page, socket))
        page.on("framenavigated", lambda frame: self._navigated(page, frame))

    def _navigated(self, page: Page, frame: Frame) -> None:
        if frame == page.main_frame:
            self.closed.update(key for key, owner in self._page_of.items() if owner is page)

    def _socket(self, page: Page, socket: WebSocket) -> None:
        if "/api/kernels/" not in socket.url:
            return
        self.opened.append(socket)
        key = id(socket)
        self._page_of[key] = page
        socket.on("framereceived", lambda _frame: self.answered.add(key))
        socket.on("close", lambda _socket: self.closed.add(key))

    def open_answered(self) -> int:
        """How many sockets the server answered and that are still open.

        A closed tab holds no socket: playwright reports no close event for the sockets of a page it has closed,
        so those count as closed with their page.
        """
        return sum(1 for key in self.answered - self.closed if not self._page_of[key].is_closed())

    def settle_at(self, page: Page, expected: int, seconds: float = 15) -> int:
        """How many are open once ``expected`` are, or after ``seconds``: a closed tab's socket is reported closed
        by the browser a moment after the tab itself (later on a busy machine), so a count read at once may be one
        too many."""
        deadline = time.monotonic() + seconds
        while self.open_answered() != expected and time.monotonic() < deadline:
            page.wait_for_timeout(200)  # lets playwright deliver the sockets' events meanwhile
        return self.open_answered()


# Whether every finite animation on the page has ended (the class server's page fades in: Solara's solara-fade-in).
_SETTLED = """
() => document.getAnimations().every(
    a => a.playState !== 'running' || a.effect === null || a.effect.getComputedTiming().endTime === Infinity)
"""


def wait_until_settled(page: Page) -> None:
    """Wait until nothing on the page is moving or fading (what a person reads, and what axe-core measures).

    The class server's page fades in; a colour measured mid-fade is the button's blended with the white
    behind it, a contrast lower than anyone sees once the page is there.
    """
    page.wait_for_function(_SETTLED)


def wait_until_shown(page: Page, server: AnyServer) -> None:
    """Wait until the page's notebook has run and its widgets (or its outputs) are drawn."""
    if server.kind == "solara":
        page.locator(SOLARA_PAGE).first.wait_for(state="attached")
    else:
        page.wait_for_function(
            "() => !document.querySelector('#loading') || !document.body.innerText.includes('Loading')"
        )


def open_app(
    page: Page, server: AnyServer, notebook: str, button_text: str, marker: str, *, navigate: bool = True
) -> Locator:
    """Open ``notebook``'s page, wait for its widget with a button reading ``button_text``; return its root.

    ``navigate=False`` finds the widget in the page already there (one a login led to, say).
    Raises a clear AssertionError when the notebook is missing or shows no such widget.
    """
    assert (server.root / notebook).exists(), f"notebooks/{notebook} is missing"
    if navigate:
        page.goto(server.page_url(notebook), wait_until="domcontentloaded")
    page.locator("button.jupyter-button", has_text=button_text).first.wait_for(state="visible")
    page.locator("img").first.wait_for(state="visible")
    assert page.evaluate(_FIND_ROOT, [button_text, marker]), f"no widget with a {button_text!r} button and an image"
    return page.locator(f"[data-test-root='{marker}']")


class PlayApp:
    """The play widget in a page: buttons by move name, the board picture, the message area."""

    def __init__(self, page: Page, server: AnyServer, notebook: str = "play.ipynb", *, navigate: bool = True) -> None:
        """``navigate=False`` finds the app in the page already there (one a login led to, say)."""
        self.page = page
        assert (server.root / notebook).exists(), f"notebooks/{notebook} is missing"
        if navigate:
            page.goto(server.page_url(notebook), wait_until="domcontentloaded")
        self.root = page.locator(".calcnb-play").first
        self.image = self.root.locator("img.calcnb-board-image")
        self.board = self.root.locator(".calcnb-board")  # the picture's box: it stays while pictures change
        self.image.wait_for(state="visible")
        self.buttons: dict[str, Locator] = {
            name: self.root.locator(f"button.calcnb-btn-{css_name(name)}") for name in BOARD_BUTTONS
        }
        self.buttons["T"].wait_for(state="visible")
        self.message_line = self.root.locator(".calcnb-message")
        self.seed_input = self.root.locator(".calcnb-controls input[type=text]")

    # ------------------------------------------------------------ reading

    def message(self) -> str:
        return self.message_line.inner_text().strip()

    def ending(self) -> str:
        ending = self.root.locator(".calcnb-ending")
        return ending.inner_text().strip() if ending.count() else ""

    def alt(self) -> str:
        """The picture's alternative text: the text board."""
        return self.image.get_attribute("alt") or ""

    def image_src(self) -> str:
        return self.image.get_attribute("src") or ""

    def image_digest(self) -> str:
        """SHA-256 of the PNG the board picture shows."""
        return self.image.evaluate(_DIGEST)

    def enabled(self) -> list[str]:
        """The names of the enabled buttons, in board order."""
        classes = [f"calcnb-btn-{css_name(name)}" for name in BOARD_BUTTONS]
        on = self.root.evaluate(
            _ENABLED,
            classes,
        )
        return [name for name, enabled in zip(BOARD_BUTTONS, on) if enabled]

    def tooltip(self, name: str) -> str:
        return self.buttons[name].get_attribute("title") or ""

    def place_point(self, place: str) -> dict[str, float]:
        """Where to click ``place`` (a name of calcnb.ui.board.place_regions) on the picture, in CSS pixels."""
        from calcnb.ui.board import HEIGHT, WIDTH, place_regions

        left, bottom, width, height = place_regions()[place]
        box = self.board.bounding_box()
        assert box is not None
        scale = box["width"] / WIDTH
        # the top of a waste pile's column is where its first cards lie; the middle of anything else
        y = bottom + height - 0.6 if place.startswith("W") else bottom + height / 2
        return {"x": (left + width / 2) * scale, "y": (HEIGHT - y) * scale}

    # ------------------------------------------------------------ acting

    def wait_for_board(self, text_board: str) -> None:
        """Wait until the picture shows the position whose text board is ``text_board`` (its alt text)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_function(_SHOWS, arg=[self.root.element_handle(), text_board])
        except PlaywrightTimeout:
            shown = f"the board shows\n{self.alt()}\ninstead of\n{text_board}\n({self.message()})"
            raise AssertionError(shown) from None

    def wait_for_message(self, before: str) -> str:
        """Wait until the message line says something other than ``before``; return it."""
        self.page.wait_for_function(  # the line is made anew with each message: find it each time
            "([root, before]) => { const line = root.querySelector('.calcnb-message');"
            " return !!line && line.innerText.trim() !== before; }",
            arg=[self.root.element_handle(), before],
        )
        return self.message()

    def click(self, name: str) -> str:
        """Click an enabled button and wait for the board to show a new picture; return the new message."""
        before = self.image_src()
        self.buttons[name].click()
        self.page.wait_for_function(  # the picture is a new <img>, or the same one with a new src
            "([root, before]) => { const img = root.querySelector('img.calcnb-board-image');"
            " return !!img && img.getAttribute('src') !== before; }",
            arg=[self.root.element_handle(), before],
        )
        return self.message()

    def deal(self, seed: int) -> None:
        """Deal the game of ``seed`` through the seed field and New deal."""
        from calcnb import Game

        self.seed_input.fill(str(seed))
        self.buttons["new"].click()
        self.wait_for_board(str(Game.new(seed).state))
        assert f"seed {seed}" in self.message(), self.message()


def _preferred(root: Locator, by_class: str, fallback: str) -> Locator:
    """The one element with the widget's CSS class when it has one, else the first ``fallback``."""
    marked = root.locator(by_class)
    return marked if marked.count() == 1 else root.locator(fallback).first


def css_name(name: str) -> str:
    """The CSS class suffix for a button name: ``S>F1`` -> ``S-F1``."""
    return name.replace(">", "-")


def wait_for_new_src(page: Page, image: Locator, before: str) -> None:
    """Wait until ``image`` shows a picture other than the blob ``before``.

    The widget sends its message line and buttons before the image, and the
    browser applies a kernel's messages in order, so once the image has changed
    the rest of the board is up to date too.
    """
    handle = image.element_handle()
    page.wait_for_function("([img, before]) => img.src && img.src !== before", arg=[handle, before])


class StepperApp:
    """The worked-example stepper in a page: Previous, Next, Back to the start, the caption and counter."""

    def __init__(self, page: Page, server: AnyServer, notebook: str = "03_worked_example.ipynb") -> None:
        self.page = page
        self.root = open_app(page, server, notebook, "Next ▶", "stepper")
        self.image = _preferred(self.root, "img.calcnb-board-image", "img")
        self.next = self.root.locator("button.jupyter-button", has_text="Next")
        self.prev = self.root.locator("button.jupyter-button", has_text="Previous")
        self.reset = self.root.locator("button.jupyter-button", has_text="Back to the start")
        # Without a class, the caption is the second HTML widget (after the title).
        by_class = self.root.locator(".calcnb-caption")
        self.caption_line = by_class if by_class.count() == 1 else self.root.locator(".widget-html").nth(1)
        self.counter = self.root.locator(".widget-label", has_text="Step ")

    def caption(self) -> str:
        return self.caption_line.inner_text().strip()

    def position(self) -> tuple[int, int]:
        """(step number, step count) as the counter shows them."""
        words = self.counter.inner_text().split()
        return int(words[1]), int(words[3])

    def click(self, button: Locator) -> None:
        """Click and wait until the counter and then the caption (sent after it) have changed."""
        counter, caption = self.counter.inner_text(), self.caption()
        button.click()
        changed = "([node, before]) => node.innerText.trim() !== before"
        self.page.wait_for_function(changed, arg=[self.counter.element_handle(), counter])
        self.page.wait_for_function(changed, arg=[self.caption_line.element_handle(), caption])


@contextmanager
def voila_on_a_copy(prefix: str, prepare: Callable[[Path], None] | None = None) -> Iterator[Server]:
    """Voila on a free local port, serving a temporary copy of the notebooks; stopped on leaving.

    ``prepare(root)`` may add notebooks to the copy before the server starts. Used by the
    scripts that drive the app outside pytest (the screenshots and the latency benchmark).
    """
    from calcnb.serve.cli.commands import voila_command
    from calcnb.serve.cli.process import free_port, start_server, stop_server, wait_until_serving
    from calcnb.serve.shared.notebooks import notebooks_dir
    from calcnb.serve.shared.settings import LOCALHOST, MAX_PAGES

    with tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        root = Path(scratch) / "notebooks"
        shutil.copytree(notebooks_dir(), root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        if prepare is not None:
            prepare(root)
        port = free_port()
        log_path = Path(scratch) / "voila.log"
        with log_path.open("wb") as log:
            command = voila_command(
                root, port=port, pages_per_device=MAX_PAGES
            )  # a whole class's pages come from this one machine: no cap per device
            process = start_server(command, cwd=root, log=log)
            try:
                wait_until_serving(process, LOCALHOST, port)
                yield Server(f"http://{LOCALHOST}:{port}", root, log_path)
            finally:
                stop_server(process)


@contextmanager
def calcnb_serving(*arguments: str, log: Path) -> Iterator[int]:
    """``python -m calcnb ARGUMENTS --port P --no-browser`` running until the block ends; yields P.

    The server is started exactly as a teacher starts it; its output goes to ``log``.
    """
    from calcnb.serve.cli.process import free_port, stop_server, wait_until_serving
    from calcnb.serve.shared.settings import LOCALHOST

    port = free_port()
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "calcnb", *arguments, "--port", str(port), "--no-browser"],
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            wait_until_serving(process, LOCALHOST, port, timeout=120)
            yield port
        finally:
            stop_server(process, timeout=60)


#: Script for an ``<input>``: the width of its placeholder in its font, and the room its box gives the text (px).
PLACEHOLDER_ROOM = """input => {
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d');
    context.font = style.font;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return [context.measureText(input.placeholder).width, room];
}"""
