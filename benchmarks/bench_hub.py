"""Memory a pupil costs on a school's hub: the class server's way (one service for the whole class) against each
pupil's own Voila server, on the hub of ``deploy/jupyterhub_config.py`` started on 127.0.0.1.

Usage: ``python benchmarks/bench_hub.py [--pupils 1,10,30] [--voila 3] [--notebook play.ipynb] [--clicks 3]``.

* **class server** (the hub's default): the hub is started, each pupil logs in through the hub (its login form,
  then the service's OAuth, as a browser does) and opens the notebook on ``/services/calcnb/`` as a protocol-level
  client (``SolaraStudent`` of ``bench_class.py``: the page, its files, the kernel's websocket, the board), then
  clicks ``--clicks`` moves. Pupils arrive in stages and stay (1, then up to 10, then up to 30, ...): after each
  stage the class server's memory (RSS, and PSS) is read, and the cost of a pupil is the growth since the stage
  before, divided by the pupils added.
* **each pupil's own server** (``CALCNB_HUB_SERVER=voila``): ``--voila`` pupils log in, have their server started
  (the hub's API, as the Start button does) and open the notebook in it (``VoilaStudent``: a kernel process per
  page); the memory of each pupil's server and of its kernel is read. ``--voila 0`` skips it.

Printed: a table of both, and the ratio of a Voila pupil's memory to a class-server pupil's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import re
import shutil
import socket
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import psutil
import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_class import Figures, SolaraStudent, VoilaStudent
from bench_class import _pss as _memory  # (RSS, PSS) of processes
from browser.hub_support import serving_hub  # tests/ is on the path: bench_class put it there

from calcnb.serve.cli.process import free_port, wait_until_serving
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import DEFAULT_APP_NOTEBOOK, LOCALHOST

SERVICE = "/services/calcnb"
PASSWORD = "calcnb"
MB = 2**20
_XSRF = re.compile(r'name="_xsrf"\s+value="([^"]+)"')


class HubStudent(SolaraStudent):
    """A pupil of the hub's class server: logged in to the hub, the page under the service's prefix."""

    def __init__(self, hub: str, notebook: str, cookies: dict[str, str]) -> None:
        super().__init__(f"{hub}{SERVICE}/{Path(notebook).stem}", Figures("solara", "hub", 0), [])
        self.base = f"{hub}{SERVICE}"  # the websocket and the close beacon under the prefix too
        self.cookies.update(cookies)

    async def open(self) -> None:
        """The page as its script opens it, the path it asks Solara to run being the address less the prefix."""
        await self._page()
        await self._connect(f"/jupyter/api/kernels/{self.kernel}/channels?session_id={self.session}")
        await self._send(
            "comm_open", {"comm_id": self.control, "target_name": "solara.control", "data": {}, "metadata": {}}
        )
        path = urlsplit(self.url).path[len(SERVICE) :] or "/"
        run = {"method": "run", "args": {"path": path, "dark": False, "themes": {}, "appName": None}}
        await self._send("comm_msg", {"comm_id": self.control, "data": run})
        await self._until(lambda: self.finished and self._board_ready(), 180, "no board")


class OwnServerStudent(VoilaStudent):
    """A pupil with a Voila server of their own on the hub: the page at ``/user/NAME/voila/render/NOTEBOOK``."""

    def __init__(self, hub: str, name: str, notebook: str, cookies: dict[str, str]) -> None:
        super().__init__(f"{hub}/user/{name}/voila/render/{notebook}", Figures("voila", "hub", 0), [])
        self.base = f"{hub}/user/{name}"
        self.cookies.update(cookies)


def log_in(hub: str, name: str, landing: str) -> requests.Session:
    """A pupil's session after the hub's login form, sent on to ``landing`` (the OAuth of a service or server)."""
    session = requests.Session()
    form = session.get(f"{hub}/hub/login", timeout=60)
    found = _XSRF.search(form.text)
    fields = {"username": name, "password": PASSWORD, **({"_xsrf": found.group(1)} if found else {})}
    session.post(f"{hub}/hub/login?next={landing}", data=fields, timeout=180)
    return session


def _cookies(session: requests.Session) -> dict[str, str]:
    return {cookie.name: cookie.value for cookie in session.cookies}


def _children(pid: int, marker: str) -> list[psutil.Process]:
    found = []
    for process in psutil.Process(pid).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if marker in " ".join(process.cmdline()):
                found.append(process)
    return found


@contextlib.contextmanager
def hub(folder: Path, way: str):
    """The hub of ``deploy/jupyterhub_config.py`` (its class server, or each pupil's own server) on free ports."""
    service = free_port()
    environment = {**os.environ, "CALCNB_HUB_SERVER": way, "CALCNB_HUB_SERVICE_PORT": str(service)}
    environment["CALCNB_HUB_NOTEBOOKS"] = str(notebooks_dir())
    for name in ("CALCNB_CLASS_LOG", "CALCNB_CLASS_CODE"):
        environment.pop(name, None)
    with serving_hub(folder, environment, folder / f"hub-{way}.log", 180, all_stopped=False) as (url, process):
        if way == "class":
            wait_until_serving(process, LOCALHOST, service, timeout=180)
        yield url, process


async def _open_all(pupils: list, clicks: int) -> None:
    async def one(pupil) -> None:
        await pupil.open()
        for click in range(clicks):
            await pupil.click(click)

    await asyncio.gather(*(one(pupil) for pupil in pupils))


async def _close_all(pupils: list) -> None:
    await asyncio.gather(*(pupil.close() for pupil in pupils))


def measure_class(folder: Path, stages: list[int], notebook: str, clicks: int) -> list[tuple[int, int, int]]:
    """(pupils, RSS, PSS) of the class server: with nobody, then after each stage of arrivals (all staying)."""
    rows = []
    with hub(folder, "class") as (url, process):
        (server,) = _children(process.pid, "calcnb.serve.class_server.hub")
        time.sleep(5)  # the service's start-up (its notebooks run once ahead) is over
        rows.append((0, *_memory([server])))
        pupils: list[HubStudent] = []
        loop = asyncio.new_event_loop()
        try:
            for stage in stages:
                names = [f"pupil{n}" for n in range(len(pupils), stage)]
                arrivals = [HubStudent(url, notebook, _cookies(log_in(url, name, f"{SERVICE}/"))) for name in names]
                loop.run_until_complete(_open_all(arrivals, clicks))
                pupils += arrivals
                time.sleep(2)
                rows.append((len(pupils), *_memory([server])))
                print(f"  class server, {len(pupils)} pupils: {rows[-1][1] / MB:.0f} MB RSS", flush=True)
            loop.run_until_complete(_close_all(pupils))
        finally:
            loop.close()
    return rows


def _start_own_server(url: str, session: requests.Session, name: str) -> None:
    """The pupil's own server started through the hub's API (as the hub's Start button does), until it is ready."""
    xsrf = {"X-XSRFToken": session.cookies.get("_xsrf", path="/hub/") or ""}
    session.post(f"{url}/hub/api/users/{name}/server", headers=xsrf, timeout=60)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        user = session.get(f"{url}/hub/api/users/{name}", headers=xsrf, timeout=60).json()
        if user.get("servers", {}).get("", {}).get("ready"):
            return
        time.sleep(0.5)
    raise TimeoutError(f"{name}'s server did not start")


def measure_voila(folder: Path, count: int, notebook: str, clicks: int) -> list[tuple[int, int]]:
    """The memory (RSS) of each pupil's own server and of its page's kernel, ``count`` pupils on one page each."""
    with hub(folder, "voila") as (url, process):
        pupils = []
        for n in range(count):
            name = f"own{n}"
            session = log_in(url, name, "/hub/home")
            _start_own_server(url, session, name)
            # The server's own OAuth: an address that runs no notebook, so no kernel is started for it.
            session.get(f"{url}/user/{name}/voila/render/{uuid.uuid4().hex}.ipynb", timeout=120)
            pupils.append(OwnServerStudent(url, name, notebook, _cookies(session)))
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(_open_all(pupils, clicks))
            time.sleep(2)
            servers = _children(process.pid, "jupyterhub.singleuser")
            each = [(_memory([server])[0], _memory(server.children(recursive=True))[0]) for server in servers]
            loop.run_until_complete(_close_all(pupils))
        finally:
            loop.close()
    return each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pupils", default="1,10,30", help="the class's stages of arrivals (default 1,10,30)")
    parser.add_argument("--voila", type=int, default=3, help="pupils with a server of their own (default 3; 0: none)")
    parser.add_argument("--notebook", default=DEFAULT_APP_NOTEBOOK)
    parser.add_argument("--clicks", type=int, default=3, help="moves each pupil plays once the board is there")
    arguments = parser.parse_args()
    if shutil.which("configurable-http-proxy") is None:
        sys.exit("configurable-http-proxy is missing (npm install -g configurable-http-proxy)")
    stages = [int(stage) for stage in arguments.pupils.split(",")]
    with tempfile.TemporaryDirectory(prefix="calcnb-bench-hub-") as temporary:
        folder = Path(temporary)
        print(f"bench_hub: {arguments.notebook}, {os.cpu_count()} cores, {socket.gethostname()}", flush=True)
        rows = measure_class(folder, stages, arguments.notebook, arguments.clicks)
        own = measure_voila(folder, arguments.voila, arguments.notebook, arguments.clicks) if arguments.voila else []
    print("\n| hub set-up | pupils | memory (RSS) | per pupil |")
    print("|---|---:|---:|---:|")
    idle = rows[0][1]
    print(f"| class server (one service) | 0 | {idle / MB:.0f} MB | |")
    per_pupil = []
    for (before, rss_before, _), (after, rss, _pss) in itertools.pairwise(rows):
        added = (rss - rss_before) / (after - before) / MB
        per_pupil.append((after, (rss - idle) / after / MB))
        stage = f"{added:.1f} MB (pupils {before + 1}-{after})"
        print(f"| class server (one service) | {after} | {rss / MB:.0f} MB | {stage} |")
    if own:
        total = sum(server + kernel for server, kernel in own)
        mean, kernels = total / len(own) / MB, sum(kernel for _server, kernel in own) / len(own) / MB
        each = f"{mean:.0f} MB (server {mean - kernels:.0f}, kernel {kernels:.0f})"
        print(f"| each pupil's own Voila server | {len(own)} | {total / MB:.0f} MB | {each} |")
        last, average = per_pupil[-1]
        print(f"\nA pupil's own server costs {mean / average:.0f} times a class-server pupil's memory "
              f"({mean:.0f} MB against {average:.1f} MB, the class server's growth over {last} pupils).")  # fmt: skip


if __name__ == "__main__":
    main()
