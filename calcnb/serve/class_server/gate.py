"""The class server's gate: the class code and the caps in front of Solara, an ASGI adapter of the shared caps.

:class:`ClassGate` reads each request (its address, its cookies, a typed code), asks the server's
:class:`~calcnb.serve.shared.caps.ClassDoor` and :class:`~calcnb.serve.shared.caps.ConnectedPlaces`, and
writes their answer as ASGI events: the pages of :mod:`calcnb.serve.shared.gate_pages`, a redirect, a closed
websocket. A visitor's address is the connection's own, never a header a browser could send.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from calcnb.i18n import get_language
from calcnb.serve.class_server.asset_cache import AssetCache, linked_files
from calcnb.serve.shared.caps import (
    BROWSER_COOKIE,
    CODE_COOKIE,
    CODE_FIELD,
    ClassDoor,
    ConnectedPlaces,
    Refusal,
    Visit,
    browser_name,
)
from calcnb.serve.shared.gate_pages import (
    READY_PATH,
    REFUSED_CLOSE_CODES,
    code_page,
    missing_page,
    refusal_page,
    refusal_script,
    server_watch_script,
)
from calcnb.serve.shared.headers import security_headers
from calcnb.serve.shared.notebooks import Served

__all__ = ["PAGE_STYLE", "WIDGET_SCRIPTS", "ClassGate", "request_cookies"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_log = logging.getLogger("calcnb.serve")

#: Addresses that hold no class data and that every page needs before it can ask anything (scripts, styles,
#: fonts, widget front-ends): served to anyone, code or not.
_PUBLIC = re.compile(rf"^/(static|_solara/cdn|jupyter/nbextensions|{READY_PATH})(/|$)")
#: The public addresses of fixed files (the same for every visitor): kept in memory, compressed once.
_FIXED_FILES = re.compile(r"^/(static|_solara/cdn|jupyter/nbextensions)/")
#: Solara's addresses that tell about other visitors' kernels: never served to a class.
_PRIVATE = re.compile(r"^/(resourcez|_solara/api/evict)(/|$)")
#: A page's websocket: ``/jupyter/api/kernels/<kernel id>/<channel>``.
_KERNEL_SOCKET = re.compile(r"^/jupyter/api/kernels/(?P<kernel>[^/]+)/")
#: How long a page or a websocket of a browser that has a connected page at its cap waits for a place before it
#: is refused: a reloaded page is asked for (and its new websocket may open) a moment before the old page's
#: websocket has closed and freed its place.
PLACE_WAIT_SECONDS = 2.0
_PLACE_POLL_SECONDS = 0.05


def request_cookies(scope: Scope) -> dict[str, str]:
    """The cookies a request sent, by name (a malformed cookie header is skipped)."""
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
    """This browser's name (:func:`~calcnb.serve.shared.caps.browser_name`), and the header naming it if new."""
    name, new = browser_name(request_cookies(scope).get(BROWSER_COOKIE))
    return name, [_set_cookie(BROWSER_COOKIE, name)] if new else []


def _sent_browser_name(scope: Scope) -> str | None:
    """The name the browser sent (:data:`~calcnb.serve.shared.caps.BROWSER_COOKIE`), or None: a websocket's request
    cannot be given one."""
    name, new = browser_name(request_cookies(scope).get(BROWSER_COOKIE))
    return None if new else name


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
    """The class code and the caps in front of the Solara server (an ASGI middleware over a
    :class:`~calcnb.serve.shared.caps.ClassDoor`).

    A page (any address but Solara's public assets) needs the class code's cookie when the server has a
    code, and a place under the caps (``door.caps``); the places are kept by
    :class:`~calcnb.serve.shared.caps.ConnectedPlaces`: a page sent takes one, its websocket claims and
    holds it, and it is free once the websocket closes or the page never connects. Each page names its browser
    (:data:`~calcnb.serve.shared.caps.BROWSER_COOKIE`), so that the browser's reloads take the places of its own
    pages still loading; a websocket over a cap is accepted and closed at once with a code of
    :data:`~calcnb.serve.shared.gate_pages.REFUSED_CLOSE_CODES`, which its page shows as the refusal page's words.
    """

    def __init__(
        self,
        app: ASGIApp,
        door: ClassDoor,
        *,
        served: Served | None = None,
        clock: Callable[[], float] | None = None,
        place_wait: float = PLACE_WAIT_SECONDS,
    ) -> None:
        self.app = app
        self.door = door
        self.served = served
        self.place_wait = place_wait
        self.places = ConnectedPlaces(door.caps) if clock is None else ConnectedPlaces(door.caps, clock=clock)
        self.fixed_files = AssetCache(app, _FIXED_FILES)

    def admitted(self, scope: Scope) -> bool:
        """Whether the visitor may go on: no class code, or the right code's cookie."""
        return self.door.admitted(request_cookies(scope).get(CODE_COOKIE))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one request or connection: through to Solara, or the code page, a refusal, a 404."""
        if scope["type"] == "http":
            await self._http(scope, receive, _with_security_headers(send, _host(scope)))
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        elif scope["type"] == "lifespan":
            await self.app(scope, receive, self._warmed_before_ready(send))
        else:
            await self.app(scope, receive, send)

    def _warmed_before_ready(self, send: Send) -> Send:
        """``send``, with the server's "started" held back until :meth:`warm_up` is done: the server takes no
        visitor before then, so the class's first pupils find the page's files ready."""

        async def ready_when_warm(event: MutableMapping[str, Any]) -> None:
            if event.get("type") == "lifespan.startup.complete":
                await self.warm_up()
            await send(event)

        return ready_when_warm

    async def warm_up(self) -> None:
        """Ask Solara for a page once, as a first visitor would (its template and extensions are read then), and
        read and compress the fixed files it names (:meth:`AssetCache.warm_up`). Never stops the server: what is
        not warmed is done for its first visitor, as without a warm-up."""
        page = bytearray()
        answer: dict[str, int] = {}

        async def nothing_more() -> MutableMapping[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def kept(event: MutableMapping[str, Any]) -> None:
            if event["type"] == "http.response.start":
                answer["status"] = event["status"]
            elif event["type"] == "http.response.body":
                page.extend(event.get("body", b""))

        scope = {"type": "http", "method": "GET", "path": "/", "raw_path": b"/", "query_string": b"", "headers": []}
        scope.update(scheme="http", http_version="1.1", root_path="", server=None, client=None)
        try:
            await self.app(scope, nothing_more, kept)
            if answer.get("status") == 200:
                held = await self.fixed_files.warm_up(linked_files(page.decode("utf-8", "replace")))
                _log.debug("calcnb: %d fixed files read and compressed before the class came", held)
        except Exception:  # a warm-up is a saving, never a reason not to serve
            _log.warning("calcnb: the page's files could not be prepared at start; each is at its first visit")

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        if _PUBLIC.match(path):
            await self.fixed_files(scope, receive, send)
            return
        if _PRIVATE.match(path):
            await _send_html(send, 404, "<!DOCTYPE html><title>404</title><p>Not found</p>")
            return
        if scope["method"] == "POST" and self.door.code is not None and not path.startswith("/_solara/"):
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
            await self._page(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _page(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A page: at its address, with a place under the caps; else a 404, a redirect or a refusal."""
        canonical = self._canonical(scope["path"])
        if canonical is None:
            await _send_html(send, 404, missing_page())
            return
        if canonical != scope["path"]:
            await _redirect(send, canonical)
            return
        address = _address(scope)
        browser, named = _browser_name(scope)  # named: the cookie that names a new browser, so its reloads are known
        place = await self._place(lambda: self.places.page_sent(address, browser), address, browser)
        if isinstance(place, Refusal):
            _log.info("calcnb: a page refused (%s: %d pages)", place.reason, place.most)
            await _send_html(send, place.status, refusal_page(place.reason, most=place.most), named)
            return
        caps = self.door.caps
        head = (
            server_watch_script(f"/{READY_PATH}")
            + refusal_script(per_device=caps.max_per_address, in_all=caps.max_kernels)
            + _preloads()
            + f"<style>{PAGE_STYLE}</style>"  # in the head: styled from the first paint, and no widget to open for it
        )
        await self.app(_without_compression(scope), receive, _with_language(_with_headers(send, named), head))

    async def _place(self, take: Callable[[], Visit | Refusal], address: str, browser: str | None) -> Visit | Refusal:
        """``take()``'s place; while it is refused and ``browser`` has a connected page at ``address`` (one it may be
        reloading), asked again for up to :attr:`place_wait` seconds."""
        place = take()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.place_wait
        while isinstance(place, Refusal) and loop.time() < deadline and self.places.holds_open(address, browser):
            await asyncio.sleep(_PLACE_POLL_SECONDS)
            place = take()
        return place

    def _canonical(self, path: str) -> str | None:
        """The address a page at ``path`` is served at (``path`` itself, or another to redirect to), or None."""
        if self.served is None or (path == "/" and self.served.target.is_dir()):
            return path
        notebook = self.served.notebook(path)
        return None if notebook is None else self.served.address(notebook)

    async def _code_typed(self, scope: Scope, receive: Receive, send: Send) -> None:
        fields = parse_qs((await _read_body(receive)).decode("utf-8", "replace"))
        browser, named = _browser_name(scope)
        answer = self.door.answer_code(_address(scope), (fields.get(CODE_FIELD) or [""])[0], browser)
        if answer.cookie is not None:
            await _redirect(send, scope["path"], [_set_cookie(CODE_COOKIE, answer.cookie), *named])
        else:
            await _send_html(send, answer.status, code_page("", note=answer.note), named)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        socket = _KERNEL_SOCKET.match(scope["path"])
        if not self.admitted(scope) or socket is None:  # no code, or not a page's websocket
            await receive()  # the connection request
            await send({"type": "websocket.close", "code": 4403})
            return
        address, browser = _address(scope), _sent_browser_name(scope)
        place = await self._place(
            lambda: self.places.connected(id(scope), address, socket["kernel"], browser), address, browser
        )
        if isinstance(place, Refusal):  # over a cap: accepted, then closed with a code its page reads and shows
            _log.info("calcnb: a page's connection refused (%s: %d pages)", place.reason, place.most)
            await receive()  # the connection request
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": REFUSED_CLOSE_CODES[place.reason]})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.places.closed(id(scope))


#: The page's own style: a readable column at a classroom laptop's width, output text as the notebook shows it
#: (in the head of the page the gate passes on).
PAGE_STYLE = """
.calcnb-page { max-width: 1340px; margin: 0 auto; padding: 0 12px 48px; font-size: 15px; line-height: 1.5; }
.calcnb-page h1 { font-size: 1.9em; margin: 0.6em 0 0.3em; }
.calcnb-page h2 { font-size: 1.45em; margin: 1em 0 0.3em; }
.calcnb-page h3 { font-size: 1.2em; margin: 0.8em 0 0.3em; }
.calcnb-page p, .calcnb-page li { max-width: 60em; margin: 0.4em 0; }
.calcnb-page ul { list-style: disc; padding-left: 1.6em; }
.calcnb-page ol { list-style: decimal; padding-left: 1.6em; }
.calcnb-page .widget-html, .calcnb-page .widget-html-content { height: auto; line-height: 1.5; }
.calcnb-page a.anchor-link { display: none; }
.calcnb-page pre.calcnb-output { font-size: 14px; background: none; margin: 0.4em 0; white-space: pre-wrap; }
.calcnb-page table { border-collapse: collapse; }
.calcnb-page th, .calcnb-page td { padding: 0.2em 0.6em; border: 1px solid #ccc; }
"""


@functools.cache
def _preloads() -> str:
    """Links that fetch the widget libraries' scripts while the page's own script starts (require.js asks for them
    only once the page's kernel has connected, one after the other), under Solara's root (the hub's prefix)."""
    from solara.server import settings

    root = (settings.main.root_path or "").rstrip("/")
    return "".join(
        f'<link rel="preload" as="script" href="{root}/jupyter/nbextensions/{name}.js">' for name in WIDGET_SCRIPTS
    )


#: The widget libraries' scripts a page loads, in the order require.js asks for them.
WIDGET_SCRIPTS = ("jupyter-vuetify/nodeps", "jupyter-vue/nodeps", "jupyter-vue/nodeps-vue-sfc")


def _host(scope: Scope) -> str | None:
    """The Host header the request was sent with (what its page's websocket will connect to), if any."""
    return next((value.decode("latin-1") for name, value in scope.get("headers", []) if name == b"host"), None)


def _with_headers(send: Send, headers: list[tuple[bytes, bytes]]) -> Send:
    """``send`` that adds ``headers`` to the response's start, in place of any of the same names (but cookies: the
    app's own are kept beside those added)."""
    if not headers:
        return send
    names = {name for name, _value in headers} - {b"set-cookie"}

    async def added(event: MutableMapping[str, Any]) -> None:
        if event["type"] == "http.response.start":
            kept = [(name, value) for name, value in event.get("headers", []) if name.lower() not in names]
            event = {**event, "headers": [*kept, *headers]}
        await send(event)

    return added


def _with_security_headers(send: Send, host: str | None) -> Send:
    """``send`` whose every response carries the security headers (:mod:`calcnb.serve.shared.headers`)."""
    headers = [(name.lower().encode(), value.encode()) for name, value in security_headers(host).items()]
    return _with_headers(send, headers)


def _without_compression(scope: Scope) -> Scope:
    """The request without Accept-Encoding: the page's HTML is given its language below, which needs it plain."""
    headers = [(name, value) for name, value in scope.get("headers", []) if name != b"accept-encoding"]
    return {**scope, "headers": headers}


def _with_language(send: Send, head: str) -> Send:
    """``send`` that marks an HTML page with the server's language (``<html lang="pt">``, for screen readers) and
    puts ``head`` first in its head: the scripts that tell the pupil when the server is gone and when a cap refused
    the page (:func:`calcnb.serve.shared.gate_pages.server_watch_script`, :func:`~.gate_pages.refusal_script`)."""
    state: dict[str, Any] = {"html": False, "start": None}

    async def marked(event: MutableMapping[str, Any]) -> None:
        if event["type"] == "http.response.start":
            headers = dict(event.get("headers", []))
            if headers.get(b"content-type", b"").startswith(b"text/html"):
                state["html"], state["start"] = True, event
                return
        elif event["type"] == "http.response.body" and state["html"]:
            body = event.get("body", b"").replace(b"<html>", f'<html lang="{get_language()}">'.encode(), 1)
            body = body.replace(b"<head>", b"<head>" + head.encode(), 1)
            start = state["start"]
            headers = [(name, value) for name, value in start.get("headers", []) if name != b"content-length"]
            headers.append((b"content-length", str(len(body)).encode()))
            await send({**start, "headers": headers})
            await send({**event, "body": body, "more_body": False})
            state["html"] = False
            return
        await send(event)

    return marked
