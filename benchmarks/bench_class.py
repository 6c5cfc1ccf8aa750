"""A class on the play page, against both class servers: Solara (the default) and Voila, in one run.

Usage: ``python benchmarks/bench_class.py [--students 30] [--browsers 2] [--seconds 120] [--interval 2]
[--spread 60] [--servers solara,voila] [--patterns one,at-once,spread] [--notebook NAME] [--setup laptop|hub]
[--app-log PREFIX] [--profile DIR] [-- EXTRA APP OPTIONS]``. Anything after ``--`` goes to every ``app`` command
unchanged.

``--setup hub`` measures the school's hub instead (Solara only): the hub of ``deploy/jupyterhub_config.py`` on
127.0.0.1 (``bench_hub.hub``), the class server its service at ``/services/calcnb/``; each pupil (client or
chromium page) logs in through the hub's form and the service's OAuth before the lesson, untimed, and the
server measured is the hub's whole tree (the hub, its proxy, the class server); its virtual kernels are not
counted ("?"). Otherwise (``laptop``, the default):

Each server is started as a teacher starts it, ``python -m calcnb app NOTEBOOK --server solara|voila`` on a
copy of the notebooks, fresh for each measurement, and stopped with Ctrl-C. Three measurements per server,
taken in turn (Solara's, then Voila's, pattern by pattern, so that whatever else the machine runs weighs on
both alike):

* ``one``: one pupil at a time, the baseline: first a chromium page alone (the real page's figures, and the
  list of files a page loads, which the protocol clients then load too), then one protocol-level pupil alone;
  the class's figures are divided by this pupil's;
* ``at-once``: ``--students`` pupils all opening the page within the same second;
* ``spread``: ``--students`` pupils arriving one by one over ``--spread`` seconds (one in each equal slot of
  it, at a random moment of the slot).

Each pupil, once the board is there, clicks a legal move every ``--interval`` seconds for ``--seconds``
seconds (a foundation move, else Turn, else the turned card to the next waste; New deal when a game ends),
then closes the page as a closed tab does. ``--browsers`` of a class are real chromium pages (Debian's,
through playwright); the rest are protocol-level clients, so that the figures measure the server rather than
thirty browsers on the same two cores. A protocol client does what the page does, in the page's order:

* Voila: it requests the page (Voila runs the notebook in a kernel of its own for it) and the files the
  page loads, reads the kernel's id in the page, connects to ``/api/kernels/<id>/channels``, lists the
  widget comms (``comm_info_request``) and asks each for its state (``request_state``);
* Solara: it requests the page (which sets the ``solara-session-id`` cookie) and the files the page loads,
  makes up a kernel id as the page's script does, connects with the cookie to
  ``/jupyter/api/kernels/<id>/channels?session_id=<a page id>``, sends ``kernel_info_request``, opens a
  ``solara.control`` comm and sends it ``{"method": "run", "args": {"path": "/", ...}}``; the server runs the
  page in a new virtual kernel, sends a ``comm_open`` (and ``update``s) for every widget model, and answers
  ``finished`` on the control comm. Closing, it closes its websocket and sends the page's close beacon
  (``POST /_solara/api/close/<kernel id>?session_id=<page id>``), as ``beforeunload`` does.

The board is found by what it holds, whatever widgets it is made of: the widget state with a PNG in it
(a ``data:image/png`` string, as an ``<img>`` in an HTML widget's ``value`` or a template's picture source, or
PNG bytes in a binary buffer), and its buttons by their CSS class ``calcnb-btn-NAME`` (``calcnb-btn-T`` is
Turn): an ipywidgets Button (its ``_dom_classes``; a click is ``{"method": "custom", "content": {"event":
"click"}}``) or an entry of a Vue template's dict of controls (``controls[NAME].cls``; a click is the
template's ``press`` event, ``{"event": "press", "data": NAME}``, as jupyter-vue sends it). A click's time
runs to the first message that brings the board's new picture.

Printed, for each server and pattern:

* first board p50 / p95: from the page request to the board's picture and buttons received with their
  state (a client) or shown (a page); and a client's steps to it: the page, its files, the websocket, the
  widgets (where a slow first board's time goes);
* click to picture p50 / p95: from a click on a move button to the new PNG received (a client) or decoded
  and painted (a page); and the same two for the chromium pages alone, to check the clients against;
* peak memory of the whole server (the launcher, the server and every process it started: PSS, which
  shares a library's pages out among the processes using it, and RSS), sampled every second;
* the processor seconds used by the server and by the pupils (this process and its chromium pages, which
  share the machine with it), from the first arrival until the count 60 s after the last page closed, and
  the server's busiest 5 s in cores; of the pupils', those of this process alone (the protocol clients and
  the sampler);
* errors (a board that never came, a click never answered within 30 s);
* what was left 60 s after every pupil closed their page: Voila's kernels (beyond a ``--preheat`` pool),
  Solara's virtual kernels (read inside the server by ``benchmarks/class_probe/sitecustomize.py``), and the
  server's memory then;
* the class against one pupil (ratios), and a markdown table for ``docs/performance.md``.

What the pupils cost, and where: every pupil of a class runs on the server's machine, sharing its cores
with the server, where in a classroom each runs on a device of its own. The protocol clients are all in this
one process, on one asyncio loop: each keeps the widgets' states (a JSON parse of each message, no drawing,
no script), and together they are light: a class of 30 at once playing 20 s took this process about 2 s of
processor time (measured 7 December 2026, 2-core machine). A chromium page is not: one page alone takes about
3 s of processor (Solara's 3.6 MB front end parsed and run, the page laid out and painted in software) before
its first board, and the two pages of a class (with playwright's driver) took about 9 s in the same run,
as much as the server for the whole class. So on a 2-core machine the chromium pages slow the server and
the clients, and the class's first boards are later than on a class's own devices; the printed CPU rows say
how much each took. The clients never skip what their time measures: each times from its page's request to
its first board's picture and buttons received.

``--profile DIR``: records the Solara server with py-spy (``pip install py-spy``) while a class arrives (the
first 30 s of a class at once, the ``--spread`` of a spread one), writes DIR/solara-PATTERN.txt (its costliest
functions, inclusive and own) and the raw stacks; the profiler slows the server, so a profiled run's figures
are not the measurement. ``--plain-files`` is an experiment, not a class: the clients ask for the page's
files uncompressed, to see the server's time without compressing them for every pupil.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import html
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import psutil
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

REPO = Path(__file__).resolve().parent.parent
PROBE_DIR = Path(__file__).resolve().parent / "class_probe"
sys.path.insert(0, str(REPO / "tests"))  # the browser tests' move chooser

from browser.pages import live_move  # noqa: E402

from calcnb.serve.cli.commands import server_environment  # noqa: E402
from calcnb.serve.cli.process import free_port, start_server, stop_server, wait_until_serving  # noqa: E402
from calcnb.serve.shared.notebooks import notebooks_dir  # noqa: E402
from calcnb.serve.shared.settings import (  # noqa: E402
    CHROMIUM_ARGS,
    CHROMIUM_PATH,
    DEFAULT_APP_NOTEBOOK,
    LOCALHOST,
    MAX_PAGES,
)
from calcnb.stats import percentile  # noqa: E402

#: The class server's targets for a class arriving at once on Solara (issue 55), by the class's size: the first
#: board's p95 for the protocol pupils and for the chromium pages, and the whole server's peak memory (PSS).
TARGETS = {30: {"open_p95": 3.0, "page_p95": 3.0, "memory_gb": 1.0}, 60: {"open_p95": 6.0, "memory_gb": 1.5}}
CLICK_P95 = 0.300  # a click's new picture, whatever the class's size
SERVERS = ("solara", "voila")
PATTERNS = ("one", "at-once", "spread")
PATTERN_NAMES = {"one": "one pupil", "at-once": "at once", "spread": "spread"}
BUTTON_PREFIX = "calcnb-btn-"  # calcnb.ui's css_class(NAME): what pages and tests find a button by
CONTROLS = ("undo", "redo", "hint", "new")
BOARD_CLASS = "calcnb-board"  # the box around the board's <img> in the page
POOL_FILLED = re.compile(r"Kernel pool of .* is filled with (\d+) kernel")
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')
PNG_MAGIC = b"\x89PNG"
OPEN_TIMEOUT = 120.0  # a board that has not come in 2 minutes never comes
CLICK_TIMEOUT = 30.0  # nor a picture 30 s after its click
LEFT_AFTER = 60.0  # what is left is counted this long after the last page closed
PAGE_CHECK_SECONDS = 60.0  # how long the baseline's chromium page plays, at most
ACCEPT = "gzip, deflate, br"  # what a browser accepts: a server that compresses pays for it here too
FILES_AT_ONCE = 6  # a browser's connections to one server


@dataclass
class Figures:
    """What one measurement (a server, a pattern) gave."""

    server: str
    pattern: str
    students: int
    opens: list[float] = field(default_factory=list)  # protocol clients
    clicks: list[float] = field(default_factory=list)
    page_opens: list[float] = field(default_factory=list)  # chromium pages
    page_clicks: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    peak_rss: int = 0
    peak_pss: int = 0
    server_cpu: float = 0.0  # processor seconds of the server (and its kernels) while the class ran
    students_cpu: float = 0.0  # ... and of this process with its browsers (the pupils, on the same machine)
    clients_cpu: float = 0.0  # ... of which this process alone (the protocol clients, all in one asyncio loop)
    busiest_cores: float = 0.0  # the server's busiest 5 s, in cores
    kernels_left: int = -1  # Voila: kernel processes beyond the pool; Solara: virtual kernels (-1: unseen)
    kernels_peak: int = -1  # the most kernels (or virtual kernels) held at once
    memory_left: int = 0  # the server's PSS when the left-overs were counted
    pool: int = 0  # Voila's ready kernels (--preheat), not counted as left
    files: int = 0  # files a page loads besides itself (what each protocol client loads too)
    phases: dict[str, list[float]] = field(default_factory=dict)  # a client's first board, step by step
    left_after: float = LEFT_AFTER
    pages: int = 0  # pupils in chromium pages (the baseline's page played alone, before its one client)
    load: tuple[float, ...] = ()  # the machine's load average when the measurement started

    def merge(self, other: Figures) -> None:
        """Add ``other``'s pupils (another phase of the same measurement)."""
        self.opens += other.opens
        for name, values in other.phases.items():
            self.phases.setdefault(name, []).extend(values)
        self.clicks += other.clicks
        self.page_opens += other.page_opens
        self.page_clicks += other.page_clicks
        self.errors += other.errors
        self.peak_rss, self.peak_pss = max(self.peak_rss, other.peak_rss), max(self.peak_pss, other.peak_pss)
        self.kernels_peak = max(self.kernels_peak, other.kernels_peak)


@dataclass(frozen=True)
class Login:
    """A pupil logged in to the hub before the lesson: the hub's cookies, and the class server's address there."""

    cookies: dict[str, str]
    prefix: str


# ------------------------------------------------------------ the widgets, as the page's widget manager holds them


def _message(msg_type: str, content: dict, session: str) -> str:
    header = {
        "msg_id": uuid.uuid4().hex,
        "username": "student",
        "session": session,
        "msg_type": msg_type,
        "version": "5.3",
        "date": datetime.now(timezone.utc).isoformat(),
    }
    return json.dumps(
        {"header": header, "parent_header": {}, "metadata": {}, "content": content, "channel": "shell", "buffers": []}
    )


def _decode(frame: str | bytes) -> dict:
    """A kernel message from the websocket: JSON text, or Jupyter's binary frame (offsets, JSON, buffers)."""
    if isinstance(frame, str):
        return json.loads(frame)
    count = int.from_bytes(frame[:4], "big")
    offsets = [int.from_bytes(frame[4 + 4 * i : 8 + 4 * i], "big") for i in range(count)] + [len(frame)]
    message = json.loads(frame[offsets[0] : offsets[1]].decode())
    message["buffers"] = [frame[offsets[i] : offsets[i + 1]] for i in range(1, count)]
    return message


def _with_buffers(state: dict, paths: list, buffers: list) -> dict:
    """``state`` with each binary buffer put at its path (as ipywidgets' ``put_buffers``)."""
    for path, buffer in zip(paths, buffers):
        target = state
        for key in path[:-1]:
            target = target.setdefault(key, {}) if isinstance(target, dict) else target[key]
        target[path[-1]] = bytes(buffer)
    return state


def _is_picture(value: object) -> bool:
    if isinstance(value, str):
        return "data:image/png" in value
    return isinstance(value, (bytes, bytearray)) and bytes(value[:4]) == PNG_MAGIC


def _button_name(classes: object) -> str | None:
    """A button's name from its CSS classes (a list, or a string of them): ``calcnb-btn-S-F1`` -> ``S>F1``."""
    names = classes.split() if isinstance(classes, str) else classes if isinstance(classes, (list, tuple)) else ()
    for css in names:
        if isinstance(css, str) and css.startswith(BUTTON_PREFIX):
            return css[len(BUTTON_PREFIX) :].replace("-", ">", 1)
    return None


@dataclass
class Button:
    """A button found in the widget states, and the message that clicks it."""

    comm: str
    content: dict


class Widgets:
    """The widget models a page holds: their states by comm id, kept up to date from the kernel's messages."""

    def __init__(self) -> None:
        self.states: dict[str, dict] = {}
        self.received: set[str] = set()  # comms whose state has come
        self.board: tuple[str, str] | None = None  # (comm, key) of the board's picture
        self.board_changed = asyncio.Event()

    def take(self, message: dict) -> None:
        """Read one kernel message: a comm opened (with its state) or a state's update."""
        kind, content = message["header"]["msg_type"], message["content"]
        if kind == "comm_open":
            data = content.get("data", {})
            state = _with_buffers(dict(data.get("state", {})), data.get("buffer_paths", []), message.get("buffers", []))
            self.states[content["comm_id"]] = state
            self.received.add(content["comm_id"])
        elif kind == "comm_msg" and content["data"].get("method") in ("update", "echo_update"):
            comm, data = content["comm_id"], content["data"]
            update = _with_buffers(
                dict(data.get("state", {})), data.get("buffer_paths", []), message.get("buffers", [])
            )
            self.states.setdefault(comm, {}).update(update)
            self.received.add(comm)
            if self.board is not None and comm == self.board[0] and self.board[1] in update:
                self.board_changed.set()

    def find_board(self) -> bool:
        """Whether a state holds the board's picture (a PNG); remembers where."""
        for comm, state in self.states.items():
            for key, value in state.items():
                if _is_picture(value):
                    self.board = (comm, key)
                    return True
        return False

    def buttons(self) -> dict[str, Button]:
        """The enabled buttons, by name (``T``, ``S>F1``, ``new`` ...), however the board exposes them."""
        found: dict[str, Button] = {}
        for comm, state in self.states.items():
            name = _button_name(state.get("_dom_classes", ()))
            if name is not None and not state.get("disabled"):  # an ipywidgets Button
                found[name] = Button(comm, {"event": "click"})
            events = state.get("events") or []
            for value in state.values():  # a template's controls: {NAME: {"cls": ..., "disabled": ...}}
                if not isinstance(value, dict):
                    continue
                for key, control in value.items():
                    if not isinstance(control, dict) or control.get("disabled"):
                        continue
                    name = _button_name(control.get("cls", ""))
                    if name is not None and "press" in events:
                        found[name] = Button(comm, {"event": "press", "data": key})
        return found


def _choose(buttons: dict[str, Button], clicks: int) -> str:
    moves = [name for name in buttons if name not in CONTROLS]
    return live_move(moves, clicks) if moves else "new"


# ------------------------------------------------------------ a protocol-level pupil


class ProtocolStudent:
    """A pupil without a browser: the page and its files over HTTP, then the widgets over the kernel's websocket."""

    kind = "client"

    def __init__(
        self, url: str, figures: Figures, files: list[str], accept: str = ACCEPT, login: Login | None = None
    ) -> None:
        self.url = url
        self.prefix = login.prefix if login is not None else ""  # the hub's service address: "/services/calcnb"
        self.base = "{0.scheme}://{0.netloc}".format(urlsplit(url)) + self.prefix
        self.figures = figures
        self.files = files  # what the page loads besides itself (learnt from a chromium page)
        self.session = str(uuid.uuid4())  # the page's id for the server (Jupyter's session_id)
        self.cookies: dict[str, str] = dict(login.cookies) if login is not None else {}
        self.widgets = Widgets()
        self.socket = None
        self.listener: asyncio.Task | None = None
        self.failure: BaseException | None = None
        self.lap = 0.0
        self.accept = accept  # what the page's files are asked for in (--plain-files: identity)

    def _phase(self, name: str) -> None:
        """The time since the last step of opening the page, as step ``name`` (where a first board's time goes)."""
        now = time.perf_counter()
        self.figures.phases.setdefault(name, []).append(now - self.lap)
        self.lap = now

    async def _get(self, address: str, page: bool = False) -> bytes:
        """GET ``address`` as a browser does, compressed if the server compresses (only the page is decompressed)."""
        headers = {"Accept-Encoding": "gzip" if page else self.accept}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        response = await AsyncHTTPClient().fetch(
            HTTPRequest(address, headers=headers, request_timeout=OPEN_TIMEOUT, decompress_response=page)
        )
        for line in response.headers.get_list("Set-Cookie"):
            name, _, value = line.split(";")[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        return response.body

    async def _page(self) -> str:
        """The page, then the files it loads (a browser's few connections at a time)."""
        self.lap = time.perf_counter()
        body = (await self._get(self.url, page=True)).decode("utf-8", "replace")
        self._phase("1 page")
        queue = [urljoin(self.url, path) for path in self.files or _linked_files(body, self.url)]

        async def loader() -> None:
            while queue:
                with contextlib.suppress(HTTPClientError):  # a missing file is the page's problem, not a figure
                    await self._get(queue.pop(0))

        await asyncio.gather(*(loader() for _ in range(FILES_AT_ONCE)))
        self._phase("2 its files")
        return body

    async def _connect(self, path: str) -> None:
        headers = {"Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items())}
        address = "ws" + self.base[len("http") :] + path
        self.socket = await websocket_connect(
            HTTPRequest(address, headers=headers, request_timeout=OPEN_TIMEOUT), max_message_size=256 * 2**20
        )
        self.listener = asyncio.get_running_loop().create_task(self._listen())
        await self._send("kernel_info_request", {})  # what the page's kernel connection asks first
        self._phase("3 websocket")

    async def _send(self, msg_type: str, content: dict) -> None:
        await self.socket.write_message(_message(msg_type, content, self.session))

    async def _listen(self) -> None:
        try:
            while (frame := await self.socket.read_message()) is not None:
                message = _decode(frame)
                self.widgets.take(message)
                await self.heard(message)
        except Exception as error:  # told by the next wait, not lost in a task nobody awaits
            self.failure = error

    async def heard(self, message: dict) -> None:
        """What a server's client does with a message besides keeping the widgets' states."""

    async def _until(self, ready, timeout: float, what: str) -> None:
        deadline = time.perf_counter() + timeout
        while not ready():
            if self.failure is not None:
                raise RuntimeError(f"{what}: the websocket failed: {self.failure!r}")
            if self.listener is not None and self.listener.done():
                raise RuntimeError(f"{what}: the server closed the websocket")
            if time.perf_counter() > deadline:
                raise TimeoutError(f"{what} within {timeout:.0f} s")
            await asyncio.sleep(0.01)

    def _board_ready(self) -> bool:
        return self.widgets.find_board() and bool(self.widgets.buttons())

    async def click(self, clicks: int) -> None:
        buttons = self.widgets.buttons()
        name = _choose(buttons, clicks)
        button = buttons[name]
        self.widgets.board_changed.clear()
        start = time.perf_counter()
        await self._send("comm_msg", {"comm_id": button.comm, "data": {"method": "custom", "content": button.content}})
        try:
            await asyncio.wait_for(self.widgets.board_changed.wait(), CLICK_TIMEOUT)
        except asyncio.TimeoutError:
            raise TimeoutError(f"no new picture {CLICK_TIMEOUT:.0f} s after a click on {name}") from None
        self.figures.clicks.append(time.perf_counter() - start)

    async def close(self) -> None:
        if self.socket is not None:
            self.socket.close()


class VoilaStudent(ProtocolStudent):
    """A pupil of the Voila server: the notebook runs in a kernel of its own, started by the page's request."""

    async def open(self) -> None:
        start = time.perf_counter()
        page = await self._page()
        found = KERNEL_ID.search(page)
        if found is None:
            raise RuntimeError("no kernel id in the page")
        await self._connect(f"/api/kernels/{found.group(1)}/channels?session_id={self.session}")
        await self._send("comm_info_request", {"target_name": "jupyter.widget"})
        await self._until(self._all_states, OPEN_TIMEOUT, "no board")
        self._phase("4 widgets")
        self.figures.opens.append(time.perf_counter() - start)

    async def heard(self, message: dict) -> None:
        if message["header"]["msg_type"] == "comm_info_reply":
            for comm in message["content"]["comms"]:
                self.widgets.states.setdefault(comm, {})
                await self._send("comm_msg", {"comm_id": comm, "data": {"method": "request_state"}})

    def _all_states(self) -> bool:
        states = self.widgets.states
        return bool(states) and set(states) <= self.widgets.received and self._board_ready()


class SolaraStudent(ProtocolStudent):
    """A pupil of the Solara server: the page runs in a virtual kernel made for it in the server's process."""

    def __init__(
        self, url: str, figures: Figures, files: list[str], accept: str = ACCEPT, login: Login | None = None
    ) -> None:
        super().__init__(url, figures, files, accept, login)
        self.kernel = str(uuid.uuid4())  # made up by the page's script, as solaraInit does
        self.control = uuid.uuid4().hex
        self.finished = False

    async def open(self) -> None:
        start = time.perf_counter()
        await self._page()
        await self._connect(f"/jupyter/api/kernels/{self.kernel}/channels?session_id={self.session}")
        # The page's widget manager: a control comm, then "run the app for this path".
        await self._send(
            "comm_open", {"comm_id": self.control, "target_name": "solara.control", "data": {}, "metadata": {}}
        )
        path = urlsplit(self.url).path[len(self.prefix) :] or "/"  # the address less the hub's prefix
        run = {"method": "run", "args": {"path": path, "dark": False, "themes": {}, "appName": None}}
        await self._send("comm_msg", {"comm_id": self.control, "data": run})
        await self._until(lambda: self.finished and self._board_ready(), OPEN_TIMEOUT, "no board")
        self._phase("4 widgets")
        self.figures.opens.append(time.perf_counter() - start)

    async def heard(self, message: dict) -> None:
        content = message["content"]
        if message["header"]["msg_type"] == "comm_msg" and content.get("comm_id") == self.control:
            data = content.get("data", {})
            if data.get("method") == "finished":
                self.finished = True
            elif data.get("method") not in ("reload", "app-status"):
                self.failure = RuntimeError(f"the app did not run: {str(data)[:200]}")
        elif message["header"]["msg_type"] == "comm_close" and content.get("comm_id") == self.control:
            self.failure = RuntimeError("the server closed the control comm")

    async def close(self) -> None:
        # beforeunload: the kernel connection is disposed, then the close beacon goes (a POST)
        await super().close()
        if self.socket is not None:
            headers = {"Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items())}
            beacon = f"{self.base}/_solara/api/close/{self.kernel}?session_id={self.session}"
            with contextlib.suppress(Exception):
                await AsyncHTTPClient().fetch(HTTPRequest(beacon, method="POST", body=b"", headers=headers))


_LINKED = re.compile(r"""<(?:script[^>]*\ssrc|link[^>]*\shref)=["']([^"']+)["']""", re.IGNORECASE)


def _linked_files(page: str, url: str) -> list[str]:
    """The files a page names in its scripts and links (when no chromium page has shown what it loads)."""
    origin = urlsplit(url).netloc
    files = [urlsplit(urljoin(url, html.unescape(link))) for link in _LINKED.findall(page)]
    paths = [f.path + (f"?{f.query}" if f.query else "") for f in files if f.netloc == origin]
    return list(dict.fromkeys(paths))


# ------------------------------------------------------------ a pupil in chromium


# Click in the page and time until the board shows a new picture, decoded and painted.
_TIME_CLICK = """
async ([button, board]) => {
    const picture = () => { const img = board.querySelector('img'); return img && img.src; };
    const before = picture();
    const noAnswer = new Promise((_, reject) => setTimeout(() => reject(new Error('no new picture in 30 s')), 30000));
    const changed = new Promise(resolve => {
        const observer = new MutationObserver(() => {
            if (picture() && picture() !== before) { observer.disconnect(); resolve(); }
        });
        observer.observe(board, {attributes: true, childList: true, subtree: true});
    });
    const start = performance.now();
    button.click();
    await Promise.race([changed, noAnswer]);
    await board.querySelector('img').decode();
    await new Promise(resolve => requestAnimationFrame(() => resolve()));
    return performance.now() - start;
}
"""

_ENABLED = f"""() => [...document.querySelectorAll('button[class*="{BUTTON_PREFIX}"]')]
    .filter(b => !b.disabled)
    .map(b => [...b.classList].find(c => c.startsWith('{BUTTON_PREFIX}')))
    .map(c => c.slice({len(BUTTON_PREFIX)}).replace('-', '>'))"""


class BrowserStudent:
    """A pupil in a chromium page of their own (a context of its own: no cache or cookie shared)."""

    kind = "page"

    def __init__(
        self, browser, url: str, figures: Figures, files: list[str] | None = None, login: Login | None = None
    ) -> None:
        self.browser, self.url, self.figures = browser, url, figures
        self.login = login
        self.files = files  # when a list: every file the page loads is added to it
        self.page = None
        self.console: list[str] = []  # the page's errors, told when it fails

    def _note(self, message) -> None:
        if message.type == "error" or "kernel" in message.text.lower():
            self.console.append(f"{message.type}: {message.text[:300]}")

    def _loaded(self, request) -> None:
        address = request.url
        same_server = urlsplit(address).netloc == urlsplit(self.url).netloc
        talk = "/api/kernels" in address or "/_solara/api/" in address  # the page's kernel, not a file
        if request.method == "GET" and address != self.url and same_server and not talk:
            parts = urlsplit(address)
            self.files.append(parts.path + (f"?{parts.query}" if parts.query else ""))  # each server has its port

    def diagnosis(self) -> str:
        """What the page said before it failed (its last errors and kernel messages)."""
        return "\n    ".join(self.console[-8:])

    async def open(self) -> None:
        context = await self.browser.new_context(viewport={"width": 1366, "height": 768})
        context.set_default_timeout(OPEN_TIMEOUT * 1000)
        if self.login is not None:  # logged in to the hub before the lesson: its cookies in the browser
            origin = "{0.scheme}://{0.netloc}".format(urlsplit(self.url))
            await context.add_cookies([{"name": k, "value": v, "url": origin} for k, v in self.login.cookies.items()])
        self.page = await context.new_page()
        self.page.on("console", self._note)
        self.page.on("pageerror", lambda error: self.console.append(f"page error: {error}"))
        if self.files is not None:
            self.page.on("requestfinished", self._loaded)
        start = time.perf_counter()
        await self.page.goto(self.url, wait_until="commit")
        await self.page.locator(f"button.{BUTTON_PREFIX}T").wait_for(state="visible")
        await self.page.locator(f".{BOARD_CLASS} img").wait_for(state="visible")
        self.figures.page_opens.append(time.perf_counter() - start)

    async def click(self, clicks: int) -> None:
        enabled = await self.page.evaluate(_ENABLED)
        name = _choose(dict.fromkeys(enabled), clicks)  # type: ignore[arg-type]
        button = await self.page.query_selector(f"button.{BUTTON_PREFIX}{name.replace('>', '-')}")
        board = await self.page.query_selector(f".{BOARD_CLASS}")
        shown = await self.page.evaluate(_TIME_CLICK, [button, board])
        self.figures.page_clicks.append(shown / 1000)

    async def close(self) -> None:
        if self.page is not None:
            # a closed tab: the page's beforeunload runs (Solara's close beacon), then the page goes
            await self.page.close(run_before_unload=True)
            await asyncio.sleep(1.0)
            await self.page.context.close()


# ------------------------------------------------------------ the class


async def _pupil(pupil, offset: float, seconds: float, interval: float) -> None:
    await asyncio.sleep(offset)
    try:
        await pupil.open()
        end = time.perf_counter() + seconds
        clicks = 0
        while time.perf_counter() < end:
            due = time.perf_counter() + interval
            await pupil.click(clicks)
            clicks += 1
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
    except Exception as error:  # counted, not raised: one pupil's failure is a figure of the class
        pupil.figures.errors.append(f"{pupil.kind}: {type(error).__name__}: {str(error)[:160]}")
        if isinstance(pupil, BrowserStudent):
            print(f"a chromium pupil failed at {time.strftime('%H:%M:%S')}; its page said:", file=sys.stderr)
            print("    " + pupil.diagnosis(), file=sys.stderr, flush=True)
    finally:
        with contextlib.suppress(Exception):
            await pupil.close()


def _tree(pid: int) -> list[psutil.Process]:
    with contextlib.suppress(psutil.Error):
        return [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    return []


def _kernels(pid: int) -> list[psutil.Process]:
    kernels = []
    for process in _tree(pid):
        with contextlib.suppress(psutil.Error):
            if "ipykernel" in " ".join(process.cmdline()):
                kernels.append(process)
    return kernels


def _server_process(pid: int, marker: str) -> psutil.Process | None:
    """The process of the tree whose command line holds ``marker`` (Solara's server under the launcher)."""
    for process in _tree(pid):
        with contextlib.suppress(psutil.Error):
            if marker in " ".join(process.cmdline()):
                return process
    return None


def _pss(processes: list[psutil.Process]) -> tuple[int, int]:
    rss = pss = 0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            memory = process.memory_full_info()
            rss, pss = rss + memory.rss, pss + getattr(memory, "pss", memory.rss)
    return rss, pss


def _cpu_seconds(processes: list[psutil.Process]) -> dict[int, float]:
    seconds = {}
    for process in processes:
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            seconds[process.pid] = times.user + times.system
    return seconds


def _used(seen: dict[int, float], now: dict[int, float]) -> float:
    """Processor seconds used since the last reading of each process (a process never read before: since it
    was born); ``seen`` keeps each process's last reading, so one missed in a reading is not counted twice."""
    used = sum(seconds - seen.get(pid, 0.0) for pid, seconds in now.items())
    seen.update(now)
    return used


class Probe:
    """The virtual kernels the Solara server holds, as its probe writes them (benchmarks/class_probe)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def kernels(self) -> int:
        """Virtual kernels not yet closed, or -1 when the probe has not written (yet)."""
        if self.path is None:
            return -1
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int(self.path.read_text().split()[2])
        return -1


class Sampler:
    """Every second, in a thread of its own (reading the kernels' memory maps takes long enough to delay the
    pupils' messages if done between them): the server's memory and kernels, and the processor time of the
    server's processes and of the pupils' (this process and its browsers)."""

    def __init__(self, pid: int, figures: Figures, count_kernels) -> None:
        self.pid, self.figures, self.count_kernels = pid, figures, count_kernels
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Sampler:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        self.thread.join()

    def _run(self) -> None:
        figures = self.figures
        me = psutil.Process()
        window: list[float] = []  # the server's processor seconds in each of the last five seconds
        server_before = _cpu_seconds(_tree(self.pid))
        pupils_before = _cpu_seconds([me, *me.children(recursive=True)])
        clients_before = _cpu_seconds([me])
        while not self.stop.is_set():
            server = _tree(self.pid)
            rss, pss = _pss(server)
            figures.peak_rss, figures.peak_pss = max(figures.peak_rss, rss), max(figures.peak_pss, pss)
            figures.kernels_peak = max(figures.kernels_peak, self.count_kernels())
            server_now = _cpu_seconds(server)
            pupils_now = _cpu_seconds([p for p in [me, *me.children(recursive=True)] if p.pid not in server_now])
            window = [*window[-4:], _used(server_before, server_now)]
            figures.server_cpu += window[-1]
            figures.students_cpu += _used(pupils_before, pupils_now)
            figures.clients_cpu += _used(clients_before, _cpu_seconds([me]))
            figures.busiest_cores = max(figures.busiest_cores, sum(window) / 5)
            self.stop.wait(1.0)


class Profiler:
    """py-spy recording the Solara server while a class arrives (``--profile``)."""

    def __init__(self, directory: Path | None, pid: int, name: str, seconds: float) -> None:
        self.process = None
        self.raw = self.summary = None
        if directory is None:
            return
        server = _server_process(pid, "calcnb.serve.class_server.app")
        py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        if server is None or not Path(py_spy).exists():
            print("--profile: no Solara server or no py-spy (pip install py-spy); not profiled", file=sys.stderr)
            return
        directory.mkdir(parents=True, exist_ok=True)
        self.raw, self.summary = directory / f"{name}.raw.txt", directory / f"{name}.txt"
        command = [py_spy, "record", "--pid", str(server.pid), "--duration", str(max(1, round(seconds)))]
        command += ["--rate", "100", "--nonblocking", "--threads", "--format", "raw", "--output", str(self.raw)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def finish(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(120)
        if self.raw is not None and self.raw.exists():
            self.summary.write_text(profile_summary(self.raw))


def profile_summary(raw: Path, top: int = 40) -> str:
    """py-spy's raw stacks (``frame;frame;... count``) as the functions that cost most: inclusive and own samples."""
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    threads: collections.Counter[str] = collections.Counter()
    total = 0
    for line in raw.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames = stack.split(";")
        samples = int(count)
        total += samples
        threads[re.sub(r"\(\d+\)", "", frames[0])] += samples
        functions = [re.sub(r":\d+\)$", ")", frame) for frame in frames[1:]]  # a function, whatever its line
        for function in set(functions):
            inclusive[function] += samples
        own[functions[-1] if functions else frames[0]] += samples
    lines = [f"{total} samples (100 a second) of the Solara server's threads, while the class arrived", ""]
    lines += ["by thread:"] + [f"  {n:7d} {100 * n / total:5.1f}%  {name}" for name, n in threads.most_common(12)]
    lines += ["", "inclusive (the function and what it called):"]
    lines += [f"  {n:7d} {100 * n / total:5.1f}%  {name}" for name, n in inclusive.most_common(top)]
    lines += ["", "own (the function itself):"]
    lines += [f"  {n:7d} {100 * n / total:5.1f}%  {name}" for name, n in own.most_common(top)]
    return "\n".join(lines) + "\n"


def _offsets(pattern: str, students: int, spread: float, rng: random.Random) -> list[float]:
    if pattern == "spread":  # one pupil in each equal slot of the spread, at a random moment of it
        return [(index + rng.random()) * spread / students for index in range(students)]
    return [rng.random() for _ in range(students)]  # all within the same second


async def _class(
    server: str,
    url: str,
    pid: int,
    people: list[tuple[str, float]],
    seconds: float,
    interval: float,
    files: list[str],
    count_kernels,
    figures: Figures,
    profile: Profiler | None = None,
    learn: bool = False,
    plain_files: bool = False,
    logins: list[Login] | None = None,
) -> None:
    """Run one class (``people``: each pupil's kind, ``page`` or ``client``, and arrival offset) to its end.

    ``learn``: the chromium page puts every file it loads into ``files`` (empty before). ``logins``: on the hub,
    one for each pupil (taken in turn).
    """
    from playwright.async_api import async_playwright

    client = SolaraStudent if server == "solara" else VoilaStudent
    accept = "identity" if plain_files else ACCEPT
    async with async_playwright() as playwright:
        chromium = None
        if any(kind == "page" for kind, _ in people):
            chromium = await playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS))
        given = iter(logins or [])
        pupils = [
            (
                BrowserStudent(chromium, url, figures, files if learn else None, next(given, None))
                if kind == "page"
                else client(url, figures, files, accept, next(given, None)),
                offset,
            )
            for kind, offset in people
        ]
        await asyncio.gather(*(_pupil(pupil, offset, seconds, interval) for pupil, offset in pupils))
        if learn:  # each file once, in the order the page asked for them
            files[:] = list(dict.fromkeys(files))
        if chromium is not None:
            await chromium.close()
    if profile is not None:
        await asyncio.get_running_loop().run_in_executor(None, profile.finish)


def measure(
    server: str,
    pattern: str,
    arguments: argparse.Namespace,
    files: list[str],
    log_copy: Path | None = None,
) -> Figures:
    """Start the app as a teacher does, run one pattern's class against it, count what is left, stop it (Ctrl-C).

    ``files``: what a page loads besides itself; filled by the first chromium page when empty.
    """
    students = 1 if pattern == "one" else arguments.students
    figures = Figures(server, pattern, students, load=psutil.getloadavg())
    with tempfile.TemporaryDirectory(prefix="calcnb-class-") as scratch:
        root = Path(scratch) / "notebooks"
        shutil.copytree(notebooks_dir(), root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        port = free_port()
        command = [sys.executable, "-m", "calcnb", "app", str(root / arguments.notebook), "--port", str(port)]
        command += ["--no-browser", "--server", server]
        command += ["--max-pages-per-device", str(MAX_PAGES)]  # the whole class's pages come from this machine
        environment = server_environment()
        probe = Probe(None)
        if server == "solara":
            probe = Probe(Path(scratch) / "probe.txt")
            environment["CALCNB_BENCH_PROBE"] = str(probe.path)
            environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROBE_DIR), environment.get("PYTHONPATH")]))
        log_path = Path(scratch) / "app.log"
        with log_path.open("wb") as log:
            process = start_server([*command, *arguments.extra], cwd=root, log=log, env=environment)
            try:
                wait_until_serving(process, LOCALHOST, port, timeout=120)
                figures.pool = _wait_for_the_pool(log_path, process)  # the teacher starts the app before the class
                url = f"http://{LOCALHOST}:{port}/"  # the address the app prints for the class

                def count_kernels() -> int:
                    return probe.kernels() if server == "solara" else len(_kernels(process.pid)) - figures.pool

                asyncio.run(_measure_class(server, pattern, url, process.pid, arguments, files, count_kernels, figures))
                return figures
            finally:
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signal.SIGINT)  # the teacher's Ctrl-C
                with contextlib.suppress(Exception):
                    process.wait(60)
                stop_server(process)
                if log_copy is not None:
                    shutil.copyfile(log_path, log_copy)


async def _measure_class(
    server, pattern, url, pid, arguments, files, count_kernels, figures: Figures, logins: list[Login] | None = None
) -> None:
    AsyncHTTPClient.configure(None, max_clients=arguments.students * FILES_AT_ONCE + 10)
    rng = random.Random(f"{arguments.seed}-{pattern}")  # the same arrivals for both servers
    common = dict(server=server, url=url, pid=pid, interval=arguments.interval, count_kernels=count_kernels)
    common.update(plain_files=arguments.plain_files, logins=logins)
    if pattern == "one":
        if arguments.browsers:  # the real page alone first: its figures, and the files it loads
            page = Figures(server, pattern, 1)
            with Sampler(pid, page, count_kernels):
                await _class(
                    **common,
                    people=[("page", 0.0)],
                    seconds=min(arguments.seconds, PAGE_CHECK_SECONDS),
                    files=files,
                    figures=page,
                    learn=not files,
                )
            figures.page_opens, figures.page_clicks, figures.errors = page.page_opens, page.page_clicks, page.errors
            figures.peak_rss, figures.peak_pss, figures.kernels_peak = page.peak_rss, page.peak_pss, page.kernels_peak
            await asyncio.sleep(2.0)
        people = [("client", 0.0)]
        figures.pages = 1 if arguments.browsers else 0
    else:
        offsets = _offsets(pattern, arguments.students, arguments.spread, rng)
        kinds = ["page"] * min(arguments.browsers, arguments.students)
        kinds += ["client"] * (arguments.students - len(kinds))
        rng.shuffle(kinds)
        people = list(zip(kinds, offsets))
        figures.pages = kinds.count("page")
    figures.files = len(files)
    arrival = arguments.spread if pattern == "spread" else 30.0  # a class at once: its first half minute
    profile = Profiler(arguments.profile, pid, f"{server}-{pattern}", arrival) if server == "solara" else None
    with Sampler(pid, figures, count_kernels):
        await _class(**common, people=people, seconds=arguments.seconds, files=files, figures=figures, profile=profile)
        # Every pupil has closed their page: what is left a minute later?
        await asyncio.sleep(arguments.left_after)
        figures.left_after = arguments.left_after
        figures.kernels_left = count_kernels()
        figures.memory_left = _pss(_tree(pid))[1]


def measure_on_hub(pattern: str, arguments: argparse.Namespace, files: list[str]) -> Figures:
    """One pattern's class on the hub set-up: the hub of ``deploy/jupyterhub_config.py`` (``bench_hub.hub``), its
    class server a service at ``/services/calcnb/``; every pupil logs in through the hub's form and the service's
    OAuth before the lesson (not timed: a class logs in before it opens the lesson), then opens the page there.
    The server measured is the hub's whole tree: the hub, its proxy and the class server."""
    import bench_hub  # its hub and login (it imports this module by name: imported here, not at the top)

    students = 1 if pattern == "one" else arguments.students
    figures = Figures("solara", pattern, students)
    with (
        tempfile.TemporaryDirectory(prefix="calcnb-class-hub-") as scratch,
        bench_hub.hub(Path(scratch), "class") as (hub_url, process),
    ):
        time.sleep(5)  # the service's start-up is over, as a teacher's hub is before the lesson
        count = students + (1 if pattern == "one" else 0)  # "one": the chromium page and then the client
        logins = []
        for number in range(count):
            session = bench_hub.log_in(hub_url, f"pupil{number}", f"{bench_hub.SERVICE}/")
            logins.append(Login(bench_hub._cookies(session), bench_hub.SERVICE))
        figures.load = psutil.getloadavg()
        url = f"{hub_url}{bench_hub.SERVICE}/{Path(arguments.notebook).stem}"
        asyncio.run(_measure_class("solara", pattern, url, process.pid, arguments, files, lambda: -1, figures, logins))
    return figures


def _wait_for_the_pool(log_path: Path, process, timeout: float = 900) -> int:
    """With ``--preheat N``, wait until Voila says its pool holds N ready kernels; return N (0 without)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        filled = POOL_FILLED.search(log_path.read_text(errors="replace"))
        if filled:
            return int(filled.group(1))
        if "preheat" not in " ".join(psutil.Process(process.pid).cmdline()):
            return 0
        time.sleep(1)
    raise RuntimeError("the pool of ready kernels was never filled")


# ------------------------------------------------------------ the report


def _p(values: list[float], share: float) -> float:
    return percentile(values, share)


def _seconds(values: list[float]) -> str:
    return f"{_p(values, 0.5):.2f} / {_p(values, 0.95):.2f} s" if values else "-"


def _millis(values: list[float]) -> str:
    return f"{1000 * _p(values, 0.5):.0f} / {1000 * _p(values, 0.95):.0f} ms" if values else "-"


def _gb(size: int) -> str:
    return f"{size / 2**30:.2f} GB"


def _left(figures: Figures) -> str:
    what = "virtual kernels" if figures.server == "solara" else "kernels"
    count = "?" if figures.kernels_left < 0 else str(figures.kernels_left)
    return f"{count} {what}, {_gb(figures.memory_left)}"


def _errors(figures: Figures) -> str:
    pages = sum(1 for error in figures.errors if error.startswith("page"))
    clients = len(figures.errors) - pages
    return f"{clients}" + (f" (+ {pages} in chromium)" if pages else "")


def _ratio(value: float, baseline: float, digits: int = 1) -> str:
    if not baseline or value != value or baseline != baseline:
        return "-"
    return f"{value / baseline:.{digits}f}x"


def rows(figures: Figures, baseline: Figures | None) -> dict[str, str]:
    """One measurement's column of the printed table, by row."""
    column = {
        "pupils (+ chromium pages)": f"{figures.students - figures.pages if figures.pattern != 'one' else 1}"
        f" + {figures.pages}",
        "first board p50 / p95": _seconds(figures.opens),
        "click to picture p50 / p95": _millis(figures.clicks),
        **{f"  {name[2:]} p50 / p95": _seconds(values) for name, values in sorted(figures.phases.items())},
        "clicks": f"{len(figures.clicks)}",
        "chromium: first board p50/p95": _seconds(figures.page_opens),
        "chromium: click p50 / p95": _millis(figures.page_clicks),
        "peak memory PSS / RSS": f"{_gb(figures.peak_pss)} / {_gb(figures.peak_rss)}",
        "kernels at most": "?" if figures.kernels_peak < 0 else f"{figures.kernels_peak}",
        "server CPU": f"{figures.server_cpu:.0f} s",
        "pupils' CPU (this machine)": f"{figures.students_cpu:.0f} s",
        "  of which protocol clients": f"{figures.clients_cpu:.0f} s",
        "server's busiest 5 s": f"{figures.busiest_cores:.2f} cores",
        "errors": _errors(figures),
        f"left {figures.left_after:.0f} s after": _left(figures),
        "load average at start": ", ".join(f"{x:.1f}" for x in figures.load),
    }
    if baseline is not None and figures is not baseline:
        column["vs one: board p95"] = _ratio(_p(figures.opens, 0.95), _p(baseline.opens, 0.95))
        column["vs one: click p95"] = _ratio(_p(figures.clicks, 0.95), _p(baseline.clicks, 0.95))
        column["vs one: peak memory"] = _ratio(figures.peak_pss, baseline.peak_pss)
        column["vs one: CPU per pupil"] = _ratio(figures.server_cpu / figures.students, baseline.server_cpu)
    return column


def markdown(runs: dict[tuple[str, str], Figures], arguments: argparse.Namespace) -> str:
    """The compact table for docs/performance.md."""
    keys = [
        (server, pattern) for server in arguments.servers for pattern in arguments.patterns if (server, pattern) in runs
    ]
    names = {
        "one": "1 pupil",
        "at-once": f"{arguments.students} at once",
        "spread": f"{arguments.students} over {arguments.spread:.0f} s",
    }
    setup = getattr(arguments, "setup", "laptop")
    header = (
        "| | "
        + " | ".join(f"{server.capitalize()} ({setup}), {names[pattern]}" for server, pattern in keys)
        + " | target |"
    )
    lines = [header, "|---" * (len(keys) + 2) + "|"]

    def line(title: str, cell, target: str = "") -> None:
        lines.append(f"| {title} | " + " | ".join(cell(runs[key]) for key in keys) + f" | {target} |")

    def versus(figures: Figures, value) -> str:
        baseline = runs.get((figures.server, "one"))
        if baseline is None or figures.pattern == "one":
            return ""
        return f" ({_ratio(value(figures), value(baseline))})"

    line(
        "first board, p50 / p95",
        lambda f: _seconds(f.opens) + versus(f, lambda g: _p(g.opens, 0.95)),
        "p95 ≤ 3 s (30), 6 s (60)",
    )
    line(
        "click to picture, p50 / p95",
        lambda f: _millis(f.clicks) + versus(f, lambda g: _p(g.clicks, 0.95)),
        "p95 ≤ 300 ms",
    )

    def page(f: Figures) -> str:
        if f.page_opens:
            return f"{_p(f.page_opens, 0.95):.2f} s / {1000 * _p(f.page_clicks, 0.95):.0f} ms"
        return "no board" if f.pages else "-"

    line("chromium page: first board / click p95", page, "≤ 3 s (30)")
    line(
        "peak memory, whole server (PSS)",
        lambda f: _gb(f.peak_pss) + versus(f, lambda g: g.peak_pss),
        "≤ 1 GB (30), 1.5 GB (60)",
    )
    line("server CPU", lambda f: f"{f.server_cpu:.0f} s", "")
    line(
        "pupils' CPU: protocol clients / chromium",
        lambda f: f"{f.clients_cpu:.0f} s / {f.students_cpu - f.clients_cpu:.0f} s",
        "",
    )
    line("errors", _errors, "0")
    line(f"left {arguments.left_after:.0f} s after the last page closed", _left, "")
    return "\n".join(lines)


def _targets_met(group: Figures) -> str:
    """Issue 55's targets for the class's size (the nearest size at or above it: 30, else 60), met or missed."""
    size = min((size for size in TARGETS if size >= group.students), default=max(TARGETS))
    target = TARGETS[size]
    met = {f"first board p95 <= {target['open_p95']:g} s": _p(group.opens, 0.95) <= target["open_p95"]}
    if "page_p95" in target and group.page_opens:
        met[f"chromium first board <= {target['page_p95']:g} s"] = max(group.page_opens) <= target["page_p95"]
    met[f"click p95 <= {1000 * CLICK_P95:.0f} ms"] = _p(group.clicks, 0.95) <= CLICK_P95
    met[f"peak memory (PSS) <= {target['memory_gb']:g} GB"] = group.peak_pss / 2**30 <= target["memory_gb"]
    met["no errors"] = not group.errors
    return ", ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in met.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--browsers", type=int, default=2, help="pupils of a class in chromium pages (default 2)")
    parser.add_argument("--seconds", type=float, default=120.0, help="how long each pupil plays (default 120)")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between a pupil's clicks (default 2)")
    parser.add_argument("--spread", type=float, default=60.0, help="the spread arrival's length (default 60 s)")
    parser.add_argument("--servers", default=",".join(SERVERS), help="default solara,voila")
    parser.add_argument("--patterns", default=",".join(PATTERNS), help="default one,at-once,spread")
    parser.add_argument("--notebook", default=DEFAULT_APP_NOTEBOOK)
    parser.add_argument(
        "--setup",
        choices=("laptop", "hub"),
        default="laptop",
        help="laptop: python -m calcnb app (default); hub: the class server as the hub's service (Solara only)",
    )
    parser.add_argument("--seed", default="calcnb", help="the arrivals' random seed")
    parser.add_argument("--left-after", type=float, default=LEFT_AFTER, help=argparse.SUPPRESS)  # shorter in tests
    parser.add_argument(
        "--plain-files",
        action="store_true",
        help="an experiment, not a class: the protocol clients ask for the page's files uncompressed "
        "(what the server's time is without compressing them for every pupil)",
    )
    parser.add_argument("--app-log", metavar="PREFIX", help="keep each server's log as PREFIX-SERVER-PATTERN.log")
    parser.add_argument("--profile", type=Path, metavar="DIR", help="py-spy the Solara server while a class arrives")
    parser.add_argument("extra", nargs="*", help="options for python -m calcnb app, after --")
    arguments = parser.parse_args()
    arguments.servers = [name for name in arguments.servers.split(",") if name]
    arguments.patterns = [name for name in arguments.patterns.split(",") if name]
    if not set(arguments.servers) <= set(SERVERS) or not set(arguments.patterns) <= set(PATTERNS):
        parser.error(f"--servers from {SERVERS}, --patterns from {PATTERNS}")
    if arguments.setup == "hub" and arguments.servers != ["solara"]:
        parser.error("--setup hub measures the hub's class server: --servers solara")

    started = time.time()
    print(
        f"started {time.strftime('%Y-%m-%d %H:%M:%S')}; machine: {psutil.cpu_count()} cores, "
        f"{psutil.virtual_memory().total / 2**30:.1f} GB; load average "
        f"{', '.join(f'{x:.1f}' for x in psutil.getloadavg())}",
        flush=True,
    )
    files: dict[str, list[str]] = {server: [] for server in arguments.servers}
    runs: dict[tuple[str, str], Figures] = {}
    for pattern in arguments.patterns:
        for server in arguments.servers:
            students = 1 if pattern == "one" else arguments.students
            print(
                f"{time.strftime('%H:%M:%S')} {server}, {PATTERN_NAMES[pattern]}: {students} pupil(s) ...", flush=True
            )
            log_copy = Path(f"{arguments.app_log}-{server}-{pattern}.log") if arguments.app_log else None
            if arguments.setup == "hub":
                runs[server, pattern] = measure_on_hub(pattern, arguments, files[server])
            else:
                runs[server, pattern] = measure(server, pattern, arguments, files[server], log_copy)
            learnt = f"{len(files[server])} files a chromium page loaded" if files[server] else "the files it names"
            print(f"    {server}: each client loads the page and {learnt}", flush=True)

    for server in arguments.servers:
        columns = {pattern: runs[server, pattern] for pattern in arguments.patterns if (server, pattern) in runs}
        baseline = columns.get("one")
        table = {pattern: rows(figures, baseline) for pattern, figures in columns.items()}
        titles = list(dict.fromkeys(title for column in table.values() for title in column))
        print(
            f"\n{server.upper() + ', ' + arguments.setup:32}"
            + "".join(f"{PATTERN_NAMES[pattern]:>28}" for pattern in table)
        )
        for title in titles:
            print(f"{title:32}" + "".join(f"{column.get(title, ''):>28}" for column in table.values()))
        for pattern, figures in columns.items():
            for error in sorted(set(figures.errors))[:10]:
                print(f"  {PATTERN_NAMES[pattern]}: error ({figures.errors.count(error)}x): {error}")

    group = runs.get(("solara", "at-once"))
    if group is not None:
        print(f"\nSolara on the {arguments.setup}, {group.students} at once, targets: " + _targets_met(group))
    print(
        f"\nfinished {time.strftime('%H:%M:%S')} after {(time.time() - started) / 60:.0f} min; load average now "
        f"{', '.join(f'{x:.1f}' for x in psutil.getloadavg())}"
    )
    print("\n" + markdown(runs, arguments))


if __name__ == "__main__":
    main()
