"""The class server: one Solara process for the whole class, a virtual kernel (not a process) per pupil's page.

``python -m calcnb.serve.class_server.app NOTEBOOK`` serves the notebook (or a folder's notebooks) the way the
Voila server does, code hidden, on a classroom laptop: each visit runs the notebook in its own virtual
kernel (:mod:`calcnb.serve.class_server.page`), so a pupil costs megabytes and a fraction of a second, not a
Python process. In front of Solara sits :class:`ClassGate`, the same class code and caps as the Voila
server's (:mod:`calcnb.serve.shared.caps`): the code page for a visitor without the code's cookie, the refusal
pages over a cap, and the same checks on the page's websocket (a pupil cannot skip the page). A visitor's
address is the connection's own, never a header a browser could send. Solara's assets come from the
installed ``solara-assets`` (nothing is fetched from outside), and Solara's telemetry is off.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import re
import secrets
import threading
import time
import warnings
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from calcnb.core.settings import CLASS_CODE
from calcnb.i18n import get_language, message
from calcnb.serve.class_server.asset_cache import AssetCache
from calcnb.serve.shared.caps import (
    BROWSER_COOKIE,
    CODE_COOKIE,
    CODE_FIELD,
    DEFAULT_PAGES_PER_DEVICE,
    CodeCheck,
    PageCaps,
    Visit,
    default_max_kernels,
)
from calcnb.serve.shared.gate_pages import READY_PATH, code_page, missing_page, refusal_page, server_watch_script
from calcnb.serve.shared.launcher import LauncherWatch
from calcnb.serve.shared.notebooks import SERVED_VARIABLE, Served
from calcnb.serve.shared.settings import LOCALHOST

__all__ = ["KERNEL_KEEP_SECONDS", "ClassGate", "build_app", "main", "solara_environment"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_log = logging.getLogger("calcnb.serve")

#: How long a visit's virtual kernel outlives its page (a closed tab, a lost connection): long enough for a
#: laptop that dozed off or a wifi that dropped to reconnect to the same page, short enough that a class's
#: closed tabs never pile up. Its places under the caps are freed at once, when the page's connection ends.
KERNEL_KEEP_SECONDS = 120

#: How long a page's place is kept for its websocket after the page was sent: a tab opened over a cap is told so
#: at once by a refusal page (not left loading for ever), and a tab closed before it connected frees its place
#: within this time. Long enough for a page's scripts to load on a busy class's laptop.
RESERVED_SECONDS = 30.0

#: Addresses that hold no class data and that every page needs before it can ask anything (scripts, styles,
#: fonts, widget front-ends): served to anyone, code or not.
_PUBLIC = re.compile(rf"^/(static|_solara/cdn|jupyter/nbextensions|{READY_PATH})(/|$)")
#: The public addresses of fixed files (the same for every visitor): kept in memory, compressed once.
_FIXED_FILES = re.compile(r"^/(static|_solara/cdn|jupyter/nbextensions)/")
#: Solara's addresses that tell about other visitors' kernels: never served to a class.
_PRIVATE = re.compile(r"^/(resourcez|_solara/api/evict)(/|$)")
#: A page's websocket: ``/jupyter/api/kernels/<kernel id>/<channel>``.
_KERNEL_SOCKET = re.compile(r"^/jupyter/api/kernels/(?P<kernel>[^/]+)/")


def solara_environment(environment: MutableMapping[str, str] | None = None) -> None:
    """Solara's settings for a class server, set in ``environment`` (this process's) before Solara is imported."""
    environment = os.environ if environment is None else environment
    environment["SOLARA_APP"] = "calcnb.serve.class_server.page"
    environment["SOLARA_TELEMETRY_MIXPANEL_ENABLE"] = "False"  # nothing leaves the classroom
    environment["SOLARA_KERNEL_CULL_TIMEOUT"] = f"{KERNEL_KEEP_SECONDS}s"
    environment["SOLARA_ASSETS_PROXY"] = "True"  # assets from the installed solara-assets, never a CDN
    environment["SOLARA_THEME_LOADER"] = "plain"  # the page says nothing of its server while it loads
    environment["SOLARA_THEME_SHOW_BANNER"] = "False"
    environment.setdefault("SOLARA_MODE", "production")


def _cookies(scope: Scope) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except CookieError:
                continue
    return {key: morsel.value for key, morsel in jar.items()}


def _set_cookie(name: str, value: str) -> tuple[bytes, bytes]:
    return b"set-cookie", f"{name}={value}; Path=/; HttpOnly; SameSite=Lax".encode()


def _browser_name(scope: Scope) -> tuple[str, list[tuple[bytes, bytes]]]:
    """This browser's name (:data:`~calcnb.serve.shared.caps.BROWSER_COOKIE`), and the header naming it if new."""
    name = _cookies(scope).get(BROWSER_COOKIE, "")[:64]
    if name:
        return name, []
    name = secrets.token_urlsafe(16)
    return name, [_set_cookie(BROWSER_COOKIE, name)]


def _address(scope: Scope) -> str:
    """The visitor's address: the connection's own (a browser may send any X-Forwarded-For or X-Real-Ip)."""
    client = scope.get("client")
    return client[0] if client else ""


async def _send_html(send: Send, status: int, body: str, headers: list[tuple[bytes, bytes]] = ()) -> None:
    data = body.encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"content-length", str(len(data)).encode()),
                (b"cache-control", b"no-store"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


async def _redirect(send: Send, location: str, headers: list[tuple[bytes, bytes]] = ()) -> None:
    """A 303 to ``location`` (a path of this server)."""
    start = [(b"location", location.encode()), (b"cache-control", b"no-store"), *headers]
    await send({"type": "http.response.start", "status": 303, "headers": start})
    await send({"type": "http.response.body", "body": b""})


async def _read_body(receive: Receive, limit: int = 4096) -> bytes:
    body = b""
    while True:
        event = await receive()
        body += event.get("body", b"")
        if len(body) > limit or not event.get("more_body"):
            return body[:limit]


class ClassGate:
    """The class code and the caps in front of the Solara server (an ASGI middleware).

    A page (any address but Solara's public assets) needs the class code's cookie when the server has a
    code, and a place under the caps: ``caps.max_kernels`` pages at once in all, ``caps.max_per_address``
    from one address. Sending a page takes a place, kept :data:`RESERVED_SECONDS` for the page's websocket
    (so a tab over a cap gets a refusal page, not a page that never loads); the websocket holds it while it
    is open, and the place is free the moment it closes (a closed tab, a reload), so abandoned pages never
    fill the class.
    """

    def __init__(self, app: ASGIApp, *, caps: PageCaps, code: CodeCheck | None, served: Served | None = None) -> None:
        self.app = app
        self.caps = caps
        self.code = code
        self.served = served
        self.fixed_files = AssetCache(app, _FIXED_FILES)
        self.open_pages: dict[int, Visit] = {}  # by id() of the page's websocket scope
        self.reserved: list[tuple[float, Visit]] = []  # (when, place) of the pages sent, awaiting their websocket
        self.clock: Callable[[], float] = time.monotonic

    def _drop_unclaimed(self) -> None:
        """Free the places of pages sent whose websocket never came (a tab closed while loading)."""
        oldest = self.clock() - RESERVED_SECONDS
        for when, visit in [entry for entry in self.reserved if entry[0] < oldest]:
            self.reserved.remove((when, visit))
            self.caps.release(visit)

    def _place(self, address: str) -> Visit | str:
        """A place for a page from ``address`` (a :class:`Visit`), or why there is none ("full", "device")."""
        self._drop_unclaimed()
        return self.caps.admit(address, self._live())

    def _claim(self, address: str) -> Visit | str:
        """The place a page from ``address`` was given when it was sent, or a new one (a page reconnecting)."""
        self._drop_unclaimed()
        for entry in self.reserved:
            if entry[1].address == address:
                self.reserved.remove(entry)
                return entry[1]
        return self.caps.admit(address, self._live())

    def _live(self) -> list[str]:
        return [visit.kernel_id for visit in self.open_pages.values() if visit.kernel_id]

    def admitted(self, scope: Scope) -> bool:
        """Whether the visitor may go on: no class code, or the right code's cookie."""
        return self.code is None or self.code.cookie_ok(_cookies(scope).get(CODE_COOKIE))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one request or connection: through to Solara, or the code page, a refusal, a 404."""
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        if _PUBLIC.match(path):
            await self.fixed_files(scope, receive, send)
            return
        if _PRIVATE.match(path):
            await _send_html(send, 404, "<!DOCTYPE html><title>404</title><p>Not found</p>")
            return
        if scope["method"] == "POST" and self.code is not None and not path.startswith("/_solara/"):
            await self._code_typed(scope, receive, send)
            return
        if not self.admitted(scope):
            if path.startswith(("/_solara/", "/jupyter/")):
                await _send_html(send, 403, "<!DOCTYPE html><title>403</title><p>Forbidden</p>")
            else:
                _browser, named = _browser_name(scope)
                await _send_html(send, 200, code_page(""), named)
            return
        if scope["method"] == "GET" and not path.startswith(("/_solara/", "/jupyter/")):
            canonical = self._canonical(path)
            if canonical is None:
                await _send_html(send, 404, missing_page())
                return
            if canonical != path:
                await _redirect(send, canonical)
                return
            place = self._place(_address(scope))
            if isinstance(place, str):
                most = self.caps.max_kernels if place == "full" else self.caps.max_per_address
                _log.info("calcnb: a page refused (%s: %d pages)", place, most)
                await _send_html(send, 503 if place == "full" else 429, refusal_page(place, most=most))
                return
            self.reserved.append((self.clock(), place))
            await self.app(_without_compression(scope), receive, _with_language(send))
            return
        await self.app(scope, receive, send)

    def _canonical(self, path: str) -> str | None:
        """The address a page at ``path`` is served at (``path`` itself, or another to redirect to), or None."""
        if self.served is None or (path == "/" and self.served.target.is_dir()):
            return path
        notebook = self.served.notebook(path)
        return None if notebook is None else self.served.address(notebook)

    async def _code_typed(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert self.code is not None
        fields = parse_qs((await _read_body(receive)).decode("utf-8", "replace"))
        address = _address(scope)
        browser, named = _browser_name(scope)
        verdict = self.code.check(address, (fields.get(CODE_FIELD) or [""])[0], browser)
        if verdict == "right":
            await _redirect(send, scope["path"], [_set_cookie(CODE_COOKIE, self.code.cookie_value()), *named])
        elif verdict in ("locked", "busy"):  # this browser guessed too often; this address's credit is spent
            minutes = max(1, math.ceil(self.code.locked_seconds(address, browser) / 60))
            note = message(f"gate.code_{verdict}", minutes=minutes)
            await _send_html(send, 429, code_page("", note=note), named)
        else:
            await _send_html(send, 403, code_page("", note=message("gate.code_wrong")), named)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        socket = _KERNEL_SOCKET.match(scope["path"])
        if not self.admitted(scope) or socket is None:
            await receive()  # the connection request
            await send({"type": "websocket.close", "code": 4403})
            return
        admitted = self._claim(_address(scope))
        if isinstance(admitted, str):
            await receive()
            await send({"type": "websocket.close", "code": 4429})
            return
        admitted.kernel_id = socket["kernel"]
        self.open_pages[id(scope)] = admitted
        try:
            await self.app(scope, receive, send)
        finally:
            self.open_pages.pop(id(scope), None)
            self.caps.release(admitted)


def _without_compression(scope: Scope) -> Scope:
    """The request without Accept-Encoding: the page's HTML is given its language below, which needs it plain."""
    headers = [(name, value) for name, value in scope.get("headers", []) if name != b"accept-encoding"]
    return {**scope, "headers": headers}


def _with_language(send: Send) -> Send:
    """``send`` that marks an HTML page with the server's language (``<html lang="pt">``, for screen readers) and
    gives it the script that tells the pupil when the server is gone
    (:func:`calcnb.serve.shared.gate_pages.server_watch_script`)."""
    state: dict[str, Any] = {"html": False, "start": None}

    async def marked(event: MutableMapping[str, Any]) -> None:
        if event["type"] == "http.response.start":
            headers = dict(event.get("headers", []))
            if headers.get(b"content-type", b"").startswith(b"text/html"):
                state["html"], state["start"] = True, event
                return
        elif event["type"] == "http.response.body" and state["html"]:
            body = event.get("body", b"").replace(b"<html>", f'<html lang="{get_language()}">'.encode(), 1)
            body = body.replace(b"<head>", b"<head>" + server_watch_script(f"/{READY_PATH}").encode(), 1)
            start = state["start"]
            headers = [(name, value) for name, value in start.get("headers", []) if name != b"content-length"]
            headers.append((b"content-length", str(len(body)).encode()))
            await send({**start, "headers": headers})
            await send({**event, "body": body, "more_body": False})
            state["html"] = False
            return
        await send(event)

    return marked


def build_app(target: Path, *, max_pages: int | None = None, pages_per_device: int | None = None) -> ASGIApp:
    """The class server's ASGI app for ``target`` (a notebook or a folder): Solara behind :class:`ClassGate`.

    The class code is read from the environment once (:data:`calcnb.core.settings.CLASS_CODE`) and removed.
    """
    solara_environment()
    os.environ[SERVED_VARIABLE] = str(target)  # Solara reads the page module's routes as it is imported
    from solara.server import starlette as solara_starlette

    from calcnb.serve.class_server.page import serve_target

    serve_target(target)
    code = CLASS_CODE.pop()
    caps = PageCaps(max_pages or default_max_kernels(), max(1, pages_per_device or DEFAULT_PAGES_PER_DEVICE))
    gate = ClassGate(solara_starlette.app, caps=caps, code=CodeCheck(code) if code else None, served=Served(target))
    return gate


def main(argv: list[str] | None = None) -> None:
    """``python -m calcnb.serve.class_server.app NOTEBOOK --host H --port P``: serve until stopped."""
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m calcnb.serve.class_server.app")
    parser.add_argument("target", type=Path)
    parser.add_argument("--host", default=LOCALHOST)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--max-pages", type=int, default=None)
    parser.add_argument("--pages-per-device", type=int, default=None)
    arguments = parser.parse_args(argv)
    app = build_app(arguments.target, max_pages=arguments.max_pages, pages_per_device=arguments.pages_per_device)
    # Solara's session cookie falls back to SameSite=Lax on plain http, as a class's local server is: not news.
    warnings.filterwarnings("ignore", message="Cookies with samesite=none require https")
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    _log.setLevel(logging.INFO)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=arguments.host,
            port=arguments.port,
            proxy_headers=False,  # a visitor's address is the connection's own (see _address)
            log_level="warning",
            access_log=False,
            ws="websockets-sansio",
        )
    )
    watch = LauncherWatch.from_environment()
    if watch is not None:
        threading.Thread(target=_stop_when_gone, args=(watch, server), daemon=True).start()
    server.run()


def _stop_when_gone(watch: LauncherWatch, server: Any) -> None:
    """Stop the server once the command that started it is gone (killed outright, on any platform)."""
    while not server.should_exit:
        if watch.gone():
            _log.warning("calcnb: the command that started this server has gone; stopping")
            server.should_exit = True
            return
        time.sleep(1.0)


if __name__ == "__main__":
    main()
