"""A class at once: N students open the app served by ``python -m calcnb app`` and play, against one student.

Usage: ``python benchmarks/bench_class.py [--students 30] [--browsers 3] [--seconds 120] [--interval 2]
[--notebook NAME] [--lang pt] [-- EXTRA APP OPTIONS]``. Anything after ``--`` goes to the ``app`` command
unchanged, so the same class can be measured with a server option on and off. (``-- --class-log PATH``
is accepted, but the play app has no exercises, so nothing is recorded there: what recording the lesson's
answers costs a student, click to feedback, is measured by ``benchmarks/bench_class_log.py``.)

The server is the teacher's: ``python -m calcnb app`` on a copy of the notebooks, started as a teacher
starts it and stopped with Ctrl-C. All students start opening the page within the same second; then each
clicks a legal move every ``--interval`` seconds (a foundation move, else Turn, else the turned card to
the next waste; New deal when a game ends) for ``--seconds``. ``--browsers`` of them are real chromium
pages (Debian's, through playwright); the rest are protocol-level clients, so that the figures measure the
server rather than thirty browsers on the same two cores. A protocol client does what the page's widget
manager does: it loads the page (Voila runs the notebook in a kernel of its own for it), reads its kernel
id, connects to the kernel's websocket, lists the widget comms and asks each for its state, then clicks
by sending the button's ``click`` event and waits for the board image's new value.

Printed, for the class and for one student (the baseline, measured in the same run):

* open to interactive board: from the page request to the board's image and buttons shown (a page) or
  received with their state (a client), p50 and p95;
* click to updated image: from the click to the new PNG shown (a page: decoded and painted) or received
  (a client), p50 and p95;
* peak memory of the server and its kernels, RSS and PSS (PSS shares a library's pages out among the
  processes that use it, so its sum is what the machine really gives them), sampled every second;
* errors (a page or state that never came, a click never answered) and the kernels left 60 s after
  every student closed their page;
* the processor seconds used, from the students' arrival until the kernels-left count: by the server and
  its kernels, and by the students (this process, its protocol clients and its chromium pages, which share
  the machine with the server), and the server's busiest 5 s in cores: what sizing a machine needs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

import psutil
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the browser tests' move chooser and button names

from browser.pages import live_move  # noqa: E402

from calcnb.serve.notebooks import notebooks_dir  # noqa: E402
from calcnb.serve.process import free_port, start_server, stop_server, wait_until_serving  # noqa: E402
from calcnb.serve.settings import (  # noqa: E402
    CHROMIUM_ARGS,
    CHROMIUM_PATH,
    CULL_IDLE_SECONDS,
    CULL_INTERVAL_SECONDS,
    DEFAULT_APP_NOTEBOOK,
    LOCALHOST,
    MAX_PAGES,
)
from calcnb.stats import percentile  # noqa: E402
from calcnb.ui.play import css_class  # noqa: E402

TARGETS = {"open_p95": 5.0, "click_p95": 0.300, "memory_gb": 6.0}
BUTTON_PREFIX = css_class("")
BOARD_CLASS = "calcnb-board"  # the board picture's widget (an <img> inside, replaced with every picture)
POOL_FILLED = re.compile(r"Kernel pool of .* is filled with (\d+) kernel")
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')
TIMEOUT = 120.0


@dataclass
class Figures:
    """What one run of a class measured."""

    students: int
    opens: list[float] = field(default_factory=list)
    clicks: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    peak_rss: int = 0
    peak_pss: int = 0
    server_cpu: float = 0.0  # processor seconds of the server and its kernels while the class ran
    students_cpu: float = 0.0  # ... and of this process with its browsers (the students, on the same machine)
    busiest_cores: float = 0.0  # the server and its kernels' busiest 5 s, in cores
    kernels_left: int = -1
    pool: int = 0  # kernels kept ready by the server (--preheat), not counted as left


# ------------------------------------------------------------ a protocol-level student


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


class ProtocolStudent:
    """A student without a browser: the page, then the widgets over the kernel's websocket."""

    def __init__(self, url: str, figures: Figures) -> None:
        self.url = url
        self.figures = figures
        self.session = uuid.uuid4().hex
        self.states: dict[str, dict] = {}
        self.socket = None
        self.image_id: str | None = None
        self.image_updated = asyncio.Event()

    async def open(self) -> None:
        start = time.perf_counter()
        response = await AsyncHTTPClient().fetch(HTTPRequest(self.url, request_timeout=TIMEOUT))
        kernel = KERNEL_ID.search(response.body.decode()).group(1)
        base = "ws://" + urlsplit(self.url).netloc
        self.socket = await websocket_connect(f"{base}/api/kernels/{kernel}/channels?session_id={self.session}")
        asyncio.get_running_loop().create_task(self._listen())
        await self._send("comm_info_request", {"target_name": "jupyter.widget"})
        await asyncio.wait_for(self._all_states(), TIMEOUT)
        self.figures.opens.append(time.perf_counter() - start)

    async def _send(self, msg_type: str, content: dict) -> None:
        await self.socket.write_message(_message(msg_type, content, self.session))

    async def _listen(self) -> None:
        while (frame := await self.socket.read_message()) is not None:
            message = _decode(frame)
            kind, content = message["header"]["msg_type"], message["content"]
            if kind == "comm_info_reply":
                for comm in content["comms"]:
                    self.states.setdefault(comm, {})
                    await self._send("comm_msg", {"comm_id": comm, "data": {"method": "request_state"}})
            elif kind == "comm_msg" and content["data"].get("method") in ("update", "echo_update"):
                comm, data = content["comm_id"], content["data"]
                self.states.setdefault(comm, {}).update(data.get("state", {}))
                self.states[comm]["_received"] = True
                paths = data.get("buffer_paths", [])
                if comm == self.image_id and (["value"] in paths or "value" in data.get("state", {})):
                    self.image_updated.set()
            elif kind == "comm_open":
                self.states[content["comm_id"]] = dict(content["data"].get("state", {}), _received=True)

    async def _all_states(self) -> None:
        while not self.states or not all(state.get("_received") for state in self.states.values()):
            await asyncio.sleep(0.02)
        images = [comm for comm, state in self.states.items() if BOARD_CLASS in state.get("_dom_classes", ())]
        if not images:
            raise RuntimeError("no board image among the widgets")
        self.image_id = images[0]

    def buttons(self) -> dict[str, str]:
        """The enabled buttons: move or control name -> comm id."""
        found = {}
        for comm, state in self.states.items():
            for name in state.get("_dom_classes", ()):
                if name.startswith(BUTTON_PREFIX) and not state.get("disabled"):
                    found[name[len(BUTTON_PREFIX) :].replace("-", ">")] = comm
        return found

    async def click(self, clicks: int) -> None:
        enabled = self.buttons()
        moves = [name for name in enabled if name not in ("undo", "redo", "hint", "new")]
        name = live_move(moves, clicks) if moves else "new"
        self.image_updated.clear()
        start = time.perf_counter()
        await self._send(
            "comm_msg", {"comm_id": enabled[name], "data": {"method": "custom", "content": {"event": "click"}}}
        )
        await asyncio.wait_for(self.image_updated.wait(), TIMEOUT)
        self.figures.clicks.append(time.perf_counter() - start)

    async def close(self) -> None:
        if self.socket is not None:
            self.socket.close()


# ------------------------------------------------------------ a student in chromium


# Click in the page and time until the board shows a new picture, decoded and painted.
_TIME_CLICK = """
async ([button, board]) => {
    const picture = () => { const img = board.querySelector('img'); return img && img.src; };
    const before = picture();
    const noAnswer = new Promise((_, reject) => setTimeout(() => reject(new Error('no new picture in 120 s')), 120000));
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
    """A student in a chromium page of their own."""

    def __init__(self, browser, url: str, figures: Figures) -> None:
        self.browser, self.url, self.figures = browser, url, figures
        self.page = None
        self.console: list[str] = []  # the page's errors, told when it fails

    def _note(self, message) -> None:
        if message.type == "error" or "kernel" in message.text.lower():
            self.console.append(f"{message.type}: {message.text[:300]}")

    def diagnosis(self) -> str:
        """What the page said before it failed (its last errors and kernel messages)."""
        return "\n    ".join(self.console[-8:])

    async def open(self) -> None:
        context = await self.browser.new_context(viewport={"width": 1366, "height": 768})
        context.set_default_timeout(TIMEOUT * 1000)
        self.page = await context.new_page()
        self.page.on("console", self._note)
        self.page.on("pageerror", lambda error: self.console.append(f"page error: {error}"))
        start = time.perf_counter()
        await self.page.goto(self.url, wait_until="commit")
        await self.page.locator(f"button.{css_class('T')}").wait_for(state="visible")
        await self.page.locator(f".{BOARD_CLASS} img").wait_for(state="visible")
        self.figures.opens.append(time.perf_counter() - start)

    async def click(self, clicks: int) -> None:
        enabled = await self.page.evaluate(_ENABLED)
        moves = [name for name in enabled if name not in ("undo", "redo", "hint", "new")]
        name = live_move(moves, clicks) if moves else "new"
        button = await self.page.query_selector(f"button.{css_class(name)}")
        board = await self.page.query_selector(f".{BOARD_CLASS}")
        shown = await self.page.evaluate(_TIME_CLICK, [button, board])
        self.figures.clicks.append(shown / 1000)

    async def close(self) -> None:
        if self.page is not None:
            await self.page.context.close()


# ------------------------------------------------------------ the class


async def _student(student, offset: float, seconds: float, interval: float) -> None:
    await asyncio.sleep(offset)  # everyone within the same second
    try:
        await student.open()
        end = time.perf_counter() + seconds
        clicks = 0
        while time.perf_counter() < end:
            due = time.perf_counter() + interval
            await student.click(clicks)
            clicks += 1
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
    except Exception as error:  # counted, not raised: one student's failure is a figure of the class
        student.figures.errors.append(f"{type(error).__name__}: {str(error)[:160]}")
        if isinstance(student, BrowserStudent):
            print(f"a chromium student failed at {time.strftime('%H:%M:%S')}; its page said:", file=sys.stderr)
            print("    " + student.diagnosis(), file=sys.stderr, flush=True)
    finally:
        with contextlib.suppress(Exception):
            await student.close()


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


def _sample_memory(pid: int, figures: Figures, stop: threading.Event) -> None:
    """Sum the memory of the server and its kernels every second, in a thread of its own: reading the
    kernels' memory maps takes long enough to delay the students' messages if done between them. The
    processor time of the server's processes and of the students' (this process and its browsers) is
    read at the same pace."""
    me = psutil.Process()
    window: list[float] = []  # the server's processor seconds in each of the last five seconds
    server_before = _cpu_seconds(_tree(pid))
    students_before = _cpu_seconds([me, *me.children(recursive=True)])
    while not stop.is_set():
        rss = pss = 0
        server = _tree(pid)
        for process in server:
            with contextlib.suppress(psutil.Error):
                memory = process.memory_full_info()
                rss, pss = rss + memory.rss, pss + getattr(memory, "pss", memory.rss)
        figures.peak_rss, figures.peak_pss = max(figures.peak_rss, rss), max(figures.peak_pss, pss)
        server_now = _cpu_seconds(server)
        students_now = _cpu_seconds([p for p in [me, *me.children(recursive=True)] if p.pid not in server_now])
        window = [*window[-4:], _used(server_before, server_now)]
        figures.server_cpu += window[-1]
        figures.students_cpu += _used(students_before, students_now)
        figures.busiest_cores = max(figures.busiest_cores, sum(window) / 5)
        stop.wait(1.0)


async def _run_class(
    url: str, pid: int, students: int, browsers: int, seconds: float, interval: float, pool: int
) -> Figures:
    from playwright.async_api import async_playwright

    AsyncHTTPClient.configure(None, max_clients=students)  # every student's page requested at once

    figures = Figures(students)
    stop = threading.Event()
    sampler = threading.Thread(target=_sample_memory, args=(pid, figures, stop), daemon=True)
    sampler.start()
    async with async_playwright() as playwright:
        chromium = None
        if browsers:
            chromium = await playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS))
        people = [BrowserStudent(chromium, url, figures) for _ in range(min(browsers, students))]
        people += [ProtocolStudent(url, figures) for _ in range(students - len(people))]
        random.shuffle(people)
        await asyncio.gather(*(_student(person, random.random(), seconds, interval) for person in people))
        if chromium is not None:
            await chromium.close()
    # Every student has closed their page: wait for their kernels to go (at most the culling time and a margin).
    deadline = time.perf_counter() + CULL_IDLE_SECONDS + CULL_INTERVAL_SECONDS + 10
    while len(_kernels(pid)) > pool and time.perf_counter() < deadline:
        await asyncio.sleep(1)
    figures.kernels_left = len(_kernels(pid)) - pool
    stop.set()
    sampler.join()
    return figures


def measure(
    students: int,
    browsers: int,
    seconds: float,
    interval: float,
    notebook: str,
    extra: list[str],
    keep_log: Path | None = None,
) -> Figures:
    """Start the app as a teacher does, run a class of ``students`` against it, stop it with Ctrl-C.

    ``keep_log``: where to copy the server's log afterwards (to read why a student failed).
    """
    with tempfile.TemporaryDirectory(prefix="calcnb-class-") as scratch:
        root = Path(scratch) / "notebooks"
        shutil.copytree(notebooks_dir(), root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        port = free_port()
        command = [sys.executable, "-m", "calcnb", "app", str(root / notebook), "--port", str(port), "--no-browser"]
        command += ["--max-pages-per-device", str(MAX_PAGES)]  # the whole class's pages come from this machine
        log_path = Path(scratch) / "app.log"
        with log_path.open("wb") as log:
            process = start_server([*command, *extra], cwd=root, log=log)
            try:
                wait_until_serving(process, LOCALHOST, port, timeout=120)
                ready = _wait_for_the_pool(log_path, process)  # the teacher starts the app before the class
                url = f"http://{LOCALHOST}:{port}/"  # the address the app prints for the class
                figures = asyncio.run(_run_class(url, process.pid, students, browsers, seconds, interval, ready))
                figures.pool = ready
                return figures
            finally:
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signal.SIGINT)  # the teacher's Ctrl-C
                with contextlib.suppress(Exception):
                    process.wait(60)
                stop_server(process)
                if keep_log is not None:
                    shutil.copyfile(log_path, keep_log)


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


def report(figures: Figures) -> list[str]:
    """The figures of one run, one column of the printed table."""
    return [
        f"{figures.students}",
        f"{percentile(figures.opens, 0.5):.2f} / {percentile(figures.opens, 0.95):.2f} s",
        f"{1000 * percentile(figures.clicks, 0.5):.0f} / {1000 * percentile(figures.clicks, 0.95):.0f} ms",
        f"{len(figures.clicks)}",
        f"{figures.peak_rss / 2**30:.2f} / {figures.peak_pss / 2**30:.2f} GB",
        f"{len(figures.errors)}",
        f"{figures.kernels_left}",
        f"{figures.server_cpu:.0f} / {figures.students_cpu:.0f} s",
        f"{figures.busiest_cores:.2f}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--browsers", type=int, default=3, help="students in real chromium pages (default 3)")
    parser.add_argument("--seconds", type=float, default=120.0, help="how long the class plays (default 120)")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between a student's clicks (default 2)")
    parser.add_argument("--notebook", default=DEFAULT_APP_NOTEBOOK)
    parser.add_argument("--app-log", metavar="PREFIX", help="keep each run's server log as PREFIX-N.log (N students)")
    parser.add_argument("extra", nargs="*", help="options for python -m calcnb app, after --")
    arguments = parser.parse_args()

    runs = []
    for students, browsers in ((1, min(1, arguments.browsers)), (arguments.students, arguments.browsers)):
        print(f"running a class of {students} ({browsers} in chromium) ...", flush=True)
        runs.append(
            measure(
                students,
                browsers,
                arguments.seconds,
                arguments.interval,
                arguments.notebook,
                arguments.extra,
                Path(f"{arguments.app_log}-{students}.log") if arguments.app_log else None,
            )
        )
    rows = [
        "students",
        "open to board p50 / p95",
        "click to image p50 / p95",
        "clicks",
        "peak memory RSS / PSS",
        "errors",
        "kernels left (beyond the pool)",
        "CPU: server / students",
        "server's busiest 5 s, cores",
    ]
    columns = [report(figures) for figures in runs]
    print(f"\n{'':26}" + "".join(f"{'one student':>26}{'the class':>26}"[: 26 * len(columns)]))
    for index, row in enumerate(rows):
        print(f"{row:26}" + "".join(f"{column[index]:>26}" for column in columns))
    baseline, group = runs
    print(
        f"\nratios, class / one: open p95 {percentile(group.opens, 0.95) / percentile(baseline.opens, 0.95):.1f}x, "
        f"click p95 {percentile(group.clicks, 0.95) / percentile(baseline.clicks, 0.95):.1f}x"
    )
    met = {
        "p95 open <= 5 s": percentile(group.opens, 0.95) <= TARGETS["open_p95"],
        "p95 click <= 300 ms": percentile(group.clicks, 0.95) <= TARGETS["click_p95"],
        "no errors": not group.errors,
        "peak memory (PSS) <= 6 GB": group.peak_pss / 2**30 <= TARGETS["memory_gb"],
        "no kernel left": group.kernels_left == 0,
    }
    print("targets: " + ", ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in met.items()))
    for error in sorted(set(group.errors))[:10]:
        print(f"  error ({group.errors.count(error)}x): {error}")
    print(f"machine: {psutil.cpu_count()} cores, load average {', '.join(f'{x:.1f}' for x in psutil.getloadavg())}")


if __name__ == "__main__":
    main()
