"""The class server's scripts, styles and fonts, compressed once and kept in memory for the whole class.

Thirty pupils opening the app at once each fetch the same few megabytes of Solara's front end. Solara's
server compresses every response anew (Starlette's GZipMiddleware), on the one thread that also runs every
pupil's page: that compression was most of the class's wait for its first board. :class:`AssetCache`
answers those fixed files from memory instead, compressed once (in a worker thread, one compression per
file however many ask at once), with the file's own ETag so a browser that has it is told "not modified".
Only the addresses given (assets that are the same for everyone) are kept; everything else passes through.

:meth:`AssetCache.warm_up` does that once before the class comes: the files a page names (its scripts and
styles) are read and compressed while the server starts, so the first pupils of a class arriving at once do
not all wait while the largest script (3.6 MB, about 0.14 s of gzip on an idle core) is compressed for them.
"""

from __future__ import annotations

import asyncio
import gzip
import html
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_CACHED_BYTES", "AssetCache", "CachedAsset", "linked_files"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: How many bytes of assets (plain and compressed) are kept at most; past it, assets are served as before.
MAX_CACHED_BYTES = 96 * 1024**2
#: Smaller files gain nothing from compression.
_MIN_COMPRESSED_BYTES = 1000
#: Kinds of file worth compressing (fonts and images are compressed already).
_COMPRESSIBLE = re.compile(rb"^(text/|application/(javascript|json|xml|wasm)|image/svg)")
#: Request headers that would make the server answer with less than the whole file.
_CONDITIONAL = {b"accept-encoding", b"if-none-match", b"if-modified-since", b"range", b"if-range"}
#: Response headers that describe one encoding of the body (set anew for each answer).
_PER_BODY = {b"content-length", b"content-encoding", b"vary"}
#: A page's scripts and style sheets: ``<script src=...>`` and ``<link href=...>``.
_LINKED = re.compile(r"""<(?:script[^>]*\ssrc|link[^>]*\shref)=["']([^"'#]+)["']""", re.IGNORECASE)


def linked_files(page: str) -> list[str]:
    """The addresses on this server (``/...``, query kept) that ``page``'s scripts and style sheets name, once
    each, in order; addresses of other sites or relative to the page are left out."""
    found = [html.unescape(link) for link in _LINKED.findall(page)]
    return list(dict.fromkeys(link for link in found if link.startswith("/") and not link.startswith("//")))


@dataclass(frozen=True)
class CachedAsset:
    """One file as the server first sent it: its headers (without length or encoding), its body, gzipped body."""

    headers: tuple[tuple[bytes, bytes], ...]
    body: bytes
    gzipped: bytes | None

    @property
    def size(self) -> int:
        """The bytes this file holds in memory."""
        return len(self.body) + len(self.gzipped or b"")

    def etag(self) -> bytes | None:
        """The file's ETag, if the server gave one."""
        return next((value for name, value in self.headers if name == b"etag"), None)


def _header(scope: Scope, name: bytes) -> bytes:
    return next((value for key, value in scope.get("headers", []) if key == name), b"")


def _accepts_gzip(scope: Scope) -> bool:
    codings = [part.split(b";")[0].strip() for part in _header(scope, b"accept-encoding").split(b",")]
    return b"gzip" in codings


class AssetCache:
    """An ASGI middleware that serves the GETs of fixed files (addresses matching ``paths``) from memory."""

    def __init__(self, app: ASGIApp, paths: re.Pattern[str], *, max_bytes: int = MAX_CACHED_BYTES) -> None:
        self.app = app
        self.paths = paths
        self.max_bytes = max_bytes
        self.assets: dict[str, CachedAsset] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    @property
    def cached_bytes(self) -> int:
        """The bytes held now."""
        return sum(asset.size for asset in self.assets.values())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a fixed file's GET from memory (loading it once); pass anything else through."""
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD") or not self.paths.match(scope["path"]):
            await self.app(scope, receive, send)
            return
        key = scope["path"] + "?" + scope.get("query_string", b"").decode("latin-1")
        asset = self.assets.get(key)
        if asset is None:
            lock = self._loading.setdefault(key, asyncio.Lock())
            async with lock:  # thirty pupils asking at once: the first loads it, the others wait for it
                asset = self.assets.get(key)
                if asset is None:
                    asset = await self._load(key, scope, receive, send)
                    if asset is None:  # not a whole file (a 404 ...): answered already, as the server gave it
                        return
            self._loading.pop(key, None)
        await self._answer(asset, scope, send)

    async def warm_up(self, addresses: Iterable[str]) -> int:
        """Load (read and compress) the fixed files among ``addresses`` now, as a first visitor would; return how
        many are held. A file that cannot be loaded is left for its first visitor, as without a warm-up."""
        for address in addresses:
            path, _, query = address.partition("?")
            if not self.paths.match(path):
                continue
            scope = {"type": "http", "method": "GET", "path": path, "query_string": query.encode("latin-1")}
            scope["headers"] = [(b"accept-encoding", b"gzip")]
            try:
                await self(scope, _nothing_more, _dropped)
            except Exception:  # a file its first visitor will be told about, as before
                continue
        return len(self.assets)

    async def _load(self, key: str, scope: Scope, receive: Receive, send: Send) -> CachedAsset | None:
        whole = {**scope, "method": "GET", "headers": [h for h in scope.get("headers", []) if h[0] not in _CONDITIONAL]}
        start: dict[str, Any] = {}
        chunks: list[bytes] = []
        ended = asyncio.Event()
        asked = False

        async def keep(event: MutableMapping[str, Any]) -> None:
            if event["type"] == "http.response.start":
                start.update(event)
            elif event["type"] == "http.response.body":
                chunks.append(event.get("body", b""))
                if not event.get("more_body"):
                    ended.set()

        async def never_left() -> MutableMapping[str, Any]:
            # The file is read whole whatever its first asker does: were a page left while loading (a reload) and
            # its disconnect passed on, the server would stop mid-file, and the class be given the cut copy.
            nonlocal asked
            if not asked:
                asked = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await asyncio.Event().wait()  # no disconnect, ever: the server's own read ends this wait
            raise AssertionError("unreachable")

        await self.app(whole, never_left, keep)
        body = b"".join(chunks)
        headers = tuple((name, value) for name, value in start.get("headers", []) if name not in _PER_BODY)
        if not start or not ended.is_set():  # nothing, or not a whole file: kept for nobody
            raise RuntimeError(f"{scope['path']}: the server's answer ended before the file")
        if start.get("status") != 200:
            await send({**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body if scope["method"] == "GET" else b""})
            return None
        kind = next((value for name, value in headers if name == b"content-type"), b"")
        gzipped = None
        if len(body) >= _MIN_COMPRESSED_BYTES and _COMPRESSIBLE.match(kind):
            gzipped = await asyncio.to_thread(gzip.compress, body, 6)  # off the loop that runs the pupils' pages
        asset = CachedAsset(headers, body, gzipped)
        if self.cached_bytes + asset.size <= self.max_bytes:
            self.assets[key] = asset
        return asset

    @staticmethod
    async def _answer(asset: CachedAsset, scope: Scope, send: Send) -> None:
        etag = asset.etag()
        if etag is not None and etag in [tag.strip() for tag in _header(scope, b"if-none-match").split(b",")]:
            await send({"type": "http.response.start", "status": 304, "headers": [(b"etag", etag)]})
            await send({"type": "http.response.body", "body": b""})
            return
        headers = [*asset.headers]
        body = asset.body
        if asset.gzipped is not None:
            headers.append((b"vary", b"Accept-Encoding"))
            if _accepts_gzip(scope):
                body = asset.gzipped
                headers.append((b"content-encoding", b"gzip"))
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body if scope["method"] == "GET" else b""})


async def _nothing_more() -> MutableMapping[str, Any]:
    return {"type": "http.request", "body": b"", "more_body": False}


async def _dropped(_event: MutableMapping[str, Any]) -> None:
    """A warm-up's answer: nobody asked for it."""
