"""The class server's fixed files served from memory: compressed once for a whole class, whole and right for each."""

from __future__ import annotations

import asyncio
import gzip
import re

from loop_thread import LoopThread

from calcnb.serve.class_server.asset_cache import AssetCache, linked_files
from calcnb.serve.class_server.gate import ClassGate
from calcnb.serve.shared.caps import ClassDoor, PageCaps

SCRIPT = b"console.log('calcnb');\n" * 400  # 9 kB of script: worth compressing
FILES = {"/static/main.js": (b"application/javascript", SCRIPT), "/static/font.woff2": (b"font/woff2", b"\x00" * 5000)}


class Files:
    """A server of FILES (with an ETag each) that counts the requests it answers."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        self.asked.append(scope["path"])
        await asyncio.sleep(0.01)  # a file read: thirty requests can arrive meanwhile
        if scope["path"] not in FILES:
            await send({"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"Not Found"})
            return
        kind, body = FILES[scope["path"]]
        headers = [(b"content-type", kind), (b"etag", b'"v1"'), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


async def _request(cache: AssetCache, path: str, headers: dict[str, str]) -> tuple[int, dict[bytes, bytes], bytes]:
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b""}

    async def send(event: dict) -> None:
        sent.append(event)

    raw = [(name.lower().replace("_", "-").encode(), value.encode()) for name, value in headers.items()]
    await cache({"type": "http", "method": "GET", "path": path, "query_string": b"", "headers": raw}, receive, send)
    start, body = sent[0], b"".join(event.get("body", b"") for event in sent[1:])
    return start["status"], dict(start["headers"]), body


def _cache(files: Files) -> AssetCache:
    return AssetCache(files, re.compile(r"^/static/"))


def test_a_class_asking_at_once_gets_one_read_and_each_pupil_the_whole_file():
    files = Files()
    cache = _cache(files)
    with LoopThread() as loop:

        async def class_of_thirty():
            asks = [_request(cache, "/static/main.js", {"accept_encoding": "gzip, deflate"}) for _ in range(30)]
            return await asyncio.gather(*asks)

        answers = loop.run(class_of_thirty())
    assert files.asked == ["/static/main.js"]  # read and compressed once for thirty
    for status, headers, body in answers:
        assert status == 200 and headers[b"content-encoding"] == b"gzip"
        assert gzip.decompress(body) == SCRIPT and int(headers[b"content-length"]) == len(body)
        assert headers[b"vary"] == b"Accept-Encoding" and headers[b"etag"] == b'"v1"'


def test_a_browser_that_takes_no_gzip_gets_the_plain_file_and_one_that_has_it_is_told_not_modified():
    files = Files()
    cache = _cache(files)
    with LoopThread() as loop:
        status, headers, body = loop.run(_request(cache, "/static/main.js", {}))
        assert status == 200 and body == SCRIPT and b"content-encoding" not in headers
        status, headers, body = loop.run(_request(cache, "/static/main.js", {"if_none_match": '"v1"'}))
        assert status == 304 and body == b""
        status, headers, body = loop.run(_request(cache, "/static/font.woff2", {"accept_encoding": "gzip"}))
        assert status == 200 and body == FILES["/static/font.woff2"][1] and b"content-encoding" not in headers
    assert files.asked == ["/static/main.js", "/static/font.woff2"]


def test_what_is_not_a_whole_fixed_file_passes_through_untouched_and_unkept():
    files = Files()
    cache = _cache(files)
    with LoopThread() as loop:
        for _ in range(2):
            status, _headers, body = loop.run(_request(cache, "/static/missing.js", {"accept_encoding": "gzip"}))
            assert status == 404 and body == b"Not Found"
        status, _headers, _body = loop.run(_request(cache, "/lesson", {}))
        assert status == 404
    assert files.asked == ["/static/missing.js", "/static/missing.js", "/lesson"]
    assert cache.assets == {}


def test_past_its_memory_the_cache_keeps_nothing_more_and_still_answers():
    files = Files()
    cache = AssetCache(files, re.compile(r"^/static/"), max_bytes=100)
    with LoopThread() as loop:
        for _ in range(2):
            status, _headers, body = loop.run(_request(cache, "/static/main.js", {}))
            assert status == 200 and body == SCRIPT
    assert files.asked == ["/static/main.js"] * 2 and cache.cached_bytes == 0


class StreamedFiles(Files):
    """FILES sent in two parts, stopped as soon as the request says its browser has gone (as Starlette's files are)."""

    async def __call__(self, scope, receive, send) -> None:
        self.asked.append(scope["path"])
        kind, body = FILES[scope["path"]]
        await receive()  # the request
        headers = [(b"content-type", kind), (b"etag", b'"v1"'), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body[:100], "more_body": True})
        left = asyncio.ensure_future(receive())
        await asyncio.sleep(0.01)  # the rest of the file is read meanwhile
        if left.done() and left.result()["type"] == "http.disconnect":
            return
        left.cancel()
        await send({"type": "http.response.body", "body": body[100:]})


def test_a_page_left_while_its_file_loads_leaves_the_class_the_whole_file():
    """A pupil reloads while the first copy of a script is read for them: the file is still read whole, and the
    next pupil is given all of it, never the part the first page had when it left."""
    files = StreamedFiles()
    cache = _cache(files)
    sent: list[dict] = []
    messages = iter([{"type": "http.request", "body": b""}, {"type": "http.disconnect"}])

    async def receive() -> dict:
        return next(messages, {"type": "http.disconnect"})

    async def send(event: dict) -> None:
        sent.append(event)

    scope = {"type": "http", "method": "GET", "path": "/static/main.js", "query_string": b"", "headers": []}
    with LoopThread() as loop:
        loop.run(cache(scope, receive, send))
        status, _headers, body = loop.run(_request(cache, "/static/main.js", {}))
    assert status == 200 and body == SCRIPT
    assert files.asked == ["/static/main.js"]


PAGE = """<html><head><link rel="stylesheet" href="/static/a.css?v=1&amp;x=2"><link href="https://cdn.example/b.css">
<script src="/static/main.js"></script><script src="relative.js"></script><script src="/static/main.js"></script>
</head><body></body></html>"""


def test_the_files_a_page_names_on_its_own_server_once_each_in_order():
    assert linked_files(PAGE) == ["/static/a.css?v=1&x=2", "/static/main.js"]


def test_a_warm_up_reads_and_compresses_the_fixed_files_before_anyone_asks():
    files = Files()
    cache = _cache(files)
    with LoopThread() as loop:
        held = loop.run(cache.warm_up(["/static/main.js", "/static/missing.js", "/page", "/static/main.js"]))
        assert held == 1 and files.asked == ["/static/main.js", "/static/missing.js"]  # a 404 is not kept
        status, headers, body = loop.run(_request(cache, "/static/main.js", {"accept_encoding": "gzip"}))
    assert status == 200 and headers[b"content-encoding"] == b"gzip" and gzip.decompress(body) == SCRIPT
    assert files.asked == ["/static/main.js", "/static/missing.js"]  # the pupil's ask was answered from memory


def test_the_class_server_says_it_has_started_only_once_the_page_s_files_are_ready():
    served: list[str] = []

    async def solara(scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await receive()
            await send({"type": "lifespan.startup.complete"})
            return
        served.append(scope["path"])
        if scope["path"] == "/":
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/html")]})
            await send({"type": "http.response.body", "body": PAGE.encode()})
            return
        await Files()(scope, receive, send)

    gate = ClassGate(solara, ClassDoor(PageCaps(30, 3)))
    told: list[dict] = []

    async def started() -> None:
        async def receive() -> dict:
            return {"type": "lifespan.startup"}

        async def send(event: dict) -> None:
            told.append({**event, "files": sorted(gate.fixed_files.assets)})

        await gate({"type": "lifespan"}, receive, send)

    with LoopThread() as loop:
        loop.run(started())
    assert served == ["/", "/static/a.css", "/static/main.js"]
    assert told == [{"type": "lifespan.startup.complete", "files": ["/static/main.js?"]}]  # a.css: no such file
