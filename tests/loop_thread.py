"""An asyncio loop of the tests' own, running in a thread of its own.

A browser test's sync Playwright (``tests/browser/conftest.py``, one for the whole session) keeps an asyncio
loop marked running in the main thread of its test process, so a later test in the same process (an xdist
worker, say) cannot call ``asyncio.run`` or ``loop.run_until_complete`` there. A test that runs its
coroutines here does not depend on what ran before it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

TIMEOUT = 120  # seconds a coroutine may take before the test fails rather than hangs


class LoopThread:
    """An asyncio loop running forever in a daemon thread, until :meth:`close`; a context manager."""

    def __init__(self, name: str = "test-loop") -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:  # as asyncio.run ends: what is left is cancelled, then the loop is closed, all in this thread
            tasks = asyncio.all_tasks(self.loop)
            for task in tasks:
                task.cancel()
            self.loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.run_until_complete(self.loop.shutdown_default_executor())
            self.loop.close()

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float = TIMEOUT) -> T:
        """Run ``coroutine`` on the loop and return its result (or raise its exception) in the calling thread."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        """Stop the loop and wait for its thread to close it."""
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=TIMEOUT)

    def __enter__(self) -> LoopThread:
        return self

    def __exit__(self, *_exc_info: object) -> None:
        self.close()


def run_in_thread(coroutine: Coroutine[Any, Any, T], timeout: float = TIMEOUT) -> T:
    """``asyncio.run(coroutine)``, but on a loop of its own thread, whatever loop the calling thread has running."""
    with LoopThread() as thread:
        return thread.run(coroutine, timeout)
