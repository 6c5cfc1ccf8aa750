"""A page's websocket on the class server: a thread's sends are queued for the server's loop without waiting for it,
go out in the order sent, wait only when too many are unsent, fail once the pupil has gone, and are all out before
the connection closes."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator

import anyio.from_thread
import pytest
from solara.server import starlette as solara_starlette
from solara.server import websocket

from calcnb.serve.class_server import sending
from calcnb.serve.class_server.sending import QueuedWebsocket

WAIT = 10.0  # seconds a test waits for what must happen before it fails


class HeldSocket:
    """Starlette's websocket as Solara's wrapper uses it: its sends wait while :attr:`gate` is shut."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.sent: list[str | bytes] = []
        self.failing = False
        self.sent_before_close: list[str | bytes] | None = None

    async def _go(self) -> None:
        while not self.gate.is_set():
            await asyncio.sleep(0.001)
        if self.failing:  # what Starlette raises for a send after the connection closed
            raise RuntimeError("Unexpected ASGI message 'websocket.send', after sending 'websocket.close'.")

    async def send_text(self, data: str) -> None:
        await self._go()
        self.sent.append(data)

    async def send_bytes(self, data: bytes) -> None:
        await self._go()
        self.sent.append(data)

    async def close(self) -> None:
        self.sent_before_close = list(self.sent)


@pytest.fixture
def portal() -> Iterator[anyio.from_thread.BlockingPortal]:
    """An event loop in a thread of its own, reached through a portal, as Solara's server loop is."""
    with anyio.from_thread.start_blocking_portal() as running:
        yield running


def _socket(portal, held: HeldSocket, max_unsent: int = sending.MAX_UNSENT) -> QueuedWebsocket:
    return portal.call(lambda: QueuedWebsocket(held, portal, max_unsent))  # made on the loop, as Solara does


def _in_thread(work: Callable[[], object]) -> tuple[threading.Thread, list[BaseException]]:
    failures: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as error:
            failures.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, failures


def _until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, "what the test waited for did not happen"
        time.sleep(0.005)


def _messages(count: int) -> list[str | bytes]:
    return [f"message {n}" if n % 2 else f"picture {n}".encode() for n in range(count)]


def test_a_threads_sends_do_not_wait_for_the_loop_and_go_out_in_order(portal):
    held = HeldSocket()
    page = _socket(portal, held)
    wakes: list[object] = []
    wake = page.event_loop.call_soon_threadsafe
    page.event_loop.call_soon_threadsafe = lambda *call: (wakes.append(call), wake(*call))[1]
    messages = _messages(30)  # a page's build: some thirty widgets, text and pictures mixed
    sender, failures = _in_thread(lambda: [page.send(message) for message in messages])
    sender.join(WAIT)
    assert not sender.is_alive() and not failures  # done while the loop could send nothing
    assert held.sent == []
    assert len(wakes) == 1  # the loop is woken once for the burst, not once a message
    held.gate.set()
    _until(lambda: len(held.sent) == len(messages))
    assert held.sent == messages


def test_sends_on_the_loop_itself_are_queued_behind_the_threads(portal):
    held = HeldSocket()
    page = _socket(portal, held)
    page.send_text("from a thread")
    portal.call(lambda: page.send_text("from the loop"))  # it must not wait for itself
    held.gate.set()
    _until(lambda: len(held.sent) == 2)
    assert held.sent == ["from a thread", "from the loop"]


def test_a_sender_waits_only_when_its_page_has_too_many_unsent(portal):
    held = HeldSocket()
    page = _socket(portal, held, max_unsent=3)
    messages = _messages(5)
    sender, failures = _in_thread(lambda: [page.send(message) for message in messages])
    sender.join(0.3)
    assert sender.is_alive()  # three queued, the fourth waits for room
    assert held.sent == []
    held.gate.set()
    sender.join(WAIT)
    assert not sender.is_alive() and not failures
    _until(lambda: len(held.sent) == 5)
    assert held.sent == messages


def test_once_the_pupil_has_gone_sending_fails_and_a_waiting_sender_is_let_go(portal):
    held = HeldSocket()
    held.failing = True
    page = _socket(portal, held, max_unsent=2)
    sender, failures = _in_thread(lambda: [page.send(message) for message in _messages(4)])
    sender.join(0.3)
    assert sender.is_alive()  # waiting for room that never comes
    held.gate.set()  # the first send fails: the connection is gone
    sender.join(WAIT)
    assert not sender.is_alive()
    assert len(failures) == 1 and isinstance(failures[0], websocket.WebSocketDisconnect)
    with pytest.raises(websocket.WebSocketDisconnect):
        page.send_text("after the pupil left")
    assert held.sent == []
    assert page._places.acquire(blocking=False)  # every place held by what was dropped is free again


def test_close_comes_after_everything_queued_before_it(portal):
    held = HeldSocket()
    page = _socket(portal, held)
    page.send_text("the last picture")
    page.send_text("the last message")
    threading.Timer(0.2, held.gate.set).start()
    page.close()
    assert held.sent_before_close == ["the last picture", "the last message"]


def test_install_has_solara_make_the_queued_socket(monkeypatch):
    monkeypatch.setattr(solara_starlette, "WebsocketWrapper", solara_starlette.WebsocketWrapper)
    sending.install()
    assert solara_starlette.WebsocketWrapper is QueuedWebsocket
