"""A page's websocket whose sends do not wait: each message is queued, in order, for the server's event loop.

Solara runs a page's work (its build, a click) on threads and sends what they make through the one event loop
that serves the whole class; its own websocket makes the sending thread wait until the loop has sent each
message. A build sends some thirty, so a build in its turn spent most of it waiting for a loop that a class
arriving keeps busy. :class:`QueuedWebsocket` queues each message and lets the thread go on; the loop sends the
queue in order. A thread waits only when :data:`MAX_UNSENT` messages of its page are unsent (a pupil's slow
network), so memory stays bounded; once the pupil has gone, sending raises Solara's ``WebSocketDisconnect`` as
before. Measured in ``docs/performance.md`` ("The eighth pass").
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import deque
from typing import Any

from solara.server import starlette as solara_starlette
from solara.server import websocket

__all__ = ["MAX_UNSENT", "QueuedWebsocket", "install"]

_log = logging.getLogger("calcnb.serve")

#: Messages of one page that may wait unsent before a sending thread waits too (a board's picture is ~20 KB).
MAX_UNSENT = 256


class QueuedWebsocket(solara_starlette.WebsocketWrapper):
    """Solara's websocket for a page, sending in order without making the sending thread wait for the loop.

    Made on the server's event loop, as Solara makes its own (``self.event_loop`` is that loop). ``max_unsent``:
    how many messages may be queued before a thread (not the loop's) sending one more waits for room.
    """

    def __init__(self, ws: Any, portal: Any, max_unsent: int = MAX_UNSENT) -> None:
        super().__init__(ws, portal)
        self._lock = threading.Lock()  # guards what follows: threads queue, the loop sends
        self._unsent: deque[tuple[str | bytes, bool]] = deque()  # each message, and whether it holds a place
        self._sending = False  # a task on the loop sends the queue, or is about to: nobody need wake the loop
        self._gone = False  # the connection failed: every later send raises, as Solara's own does
        self._places = threading.Semaphore(max_unsent)

    def send_text(self, data: str) -> None:
        self._queue(data)

    def send_bytes(self, data: bytes) -> None:
        self._queue(data)

    def _queue(self, data: str | bytes) -> None:
        if self._gone:
            raise websocket.WebSocketDisconnect()
        on_loop = threading.get_ident() == self._thread_id  # the loop must not wait for itself
        if not on_loop:
            while not self._places.acquire(timeout=0.5):  # a full queue: wait for room, unless the pupil has gone
                if self._gone:
                    raise websocket.WebSocketDisconnect()
        with self._lock:
            if self._gone:
                if not on_loop:
                    self._places.release()
                raise websocket.WebSocketDisconnect()
            self._unsent.append((data, not on_loop))
            if self._sending:  # the task sending the queue will send this too
                return
            self._sending = True
        # Waking the loop costs a system call, and a moment's hold on Python's one thread: once per burst, then.
        if on_loop:
            self._start_sending()
            return
        try:
            self.event_loop.call_soon_threadsafe(self._start_sending)
        except RuntimeError as closed:  # the server's loop has stopped: nobody is left to send to
            self._give_up()
            raise websocket.WebSocketDisconnect() from closed

    def _start_sending(self) -> None:
        task = self.event_loop.create_task(self._send_unsent())
        self.tasks.add(task)  # a strong reference until it ends (asyncio keeps only weak ones)
        task.add_done_callback(self.tasks.discard)

    async def _send_unsent(self) -> None:
        try:
            while True:
                with self._lock:
                    if not self._unsent:
                        self._sending = False
                        return
                    data, holds_place = self._unsent.popleft()
                try:
                    if isinstance(data, bytes):
                        await self._send_bytes_exc(data)
                    else:
                        await self._send_text_exc(data)
                finally:
                    if holds_place:
                        self._places.release()
        except websocket.WebSocketDisconnect:
            self._give_up()
        except asyncio.CancelledError:  # the server is stopping
            self._give_up()
            raise
        except Exception:
            _log.exception("calcnb: a page's message could not be sent; its connection is given up")
            self._give_up()

    def _give_up(self) -> None:
        """The connection is gone: what is queued is dropped and every place it held is free."""
        with self._lock:
            self._gone = True
            self._sending = False
            dropped = list(self._unsent)
            self._unsent.clear()
        for _data, holds_place in dropped:
            if holds_place:
                self._places.release()

    async def _sent(self) -> None:
        """Wait until everything queued so far has been sent (or dropped with the connection)."""
        while self._unsent or self._sending:
            await asyncio.sleep(0.005)

    def close(self) -> None:
        """Close once what was queued before has been sent, as Solara's waiting sends would have been."""
        if self.portal is not None and threading.get_ident() != self._thread_id:
            self.portal.call(self._sent)
        super().close()


def install() -> None:
    """Have Solara make :class:`QueuedWebsocket` for each page's connection (from now on, in this process)."""
    solara_starlette.WebsocketWrapper = QueuedWebsocket  # what Solara's kernel connection makes, by this name
