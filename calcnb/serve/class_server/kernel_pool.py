"""Solara's virtual kernels made ahead, while the class server is quiet, so an arriving pupil never waits for one.

Solara makes a page's virtual kernel (an IPython shell) when the page connects, on the server's one Python thread
at a time: a class arriving together would wait for each of them in turn before its boards. A :class:`KernelPool`
keeps kernels made ready and hands one to each new page; it makes more only once no page has taken one for a
moment and no page waits for its build, so the making never competes with a class arriving. Solara is given the
pool in place of its kernel class (:func:`install`): a kernel from the pool is the same object Solara would have
made, not yet used by anyone. What it saves is measured in ``docs/performance.md`` ("The sixth pass").
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

__all__ = ["POOL_SIZE", "QUIET_SECONDS", "KernelPool", "install"]

_log = logging.getLogger("calcnb.serve")

#: Kernels kept ready: two classes arriving at once.
POOL_SIZE = 60
#: How long no page must have taken a kernel before the pool makes more (a class arriving takes one each).
QUIET_SECONDS = 2.0


class KernelPool:
    """Ready-made objects from ``make``, handed out by calling the pool (made on the spot when none is ready).

    :meth:`start` keeps ``size`` ready on a thread of its own, making each only when nothing has been taken for
    ``quiet_seconds`` and ``busy()`` is false (pages still being built: the kernels taken a moment ago are the
    class's first step, their builds come after). Any other attribute is ``make``'s (Solara also asks its kernel
    class for ``instance()``).
    """

    def __init__(
        self,
        make: Callable[[], Any],
        size: int = POOL_SIZE,
        quiet_seconds: float = QUIET_SECONDS,
        busy: Callable[[], bool] = lambda: False,
    ) -> None:
        self.make = make
        self.size = size
        self.quiet_seconds = quiet_seconds
        self.busy = busy
        self._ready: deque[Any] = deque()
        self._last_taken = time.monotonic()  # as if one was just taken: the server starting up is busy enough
        self._taken = threading.Event()
        self._thread: threading.Thread | None = None

    def __call__(self) -> Any:
        """A ready kernel (a new one when none is ready)."""
        self._last_taken = time.monotonic()
        try:
            made = self._ready.popleft()
        except IndexError:
            made = self.make()
        self._taken.set()
        return made

    def __getattr__(self, name: str) -> Any:
        return getattr(self.make, name)

    @property
    def ready(self) -> int:
        """How many are ready now."""
        return len(self._ready)

    def fill_once(self) -> bool:
        """Make one more if the pool is short and has been quiet; whether one was made."""
        if len(self._ready) >= self.size or time.monotonic() - self._last_taken < self.quiet_seconds or self.busy():
            return False
        self._ready.append(self.make())
        return True

    def start(self) -> None:
        """Keep the pool filled from now on, on a daemon thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._keep_filled, name="calcnb-kernel-pool", daemon=True)
            self._thread.start()

    def _keep_filled(self) -> None:
        while True:
            try:
                if self.fill_once():
                    continue
            except Exception:  # a kernel that cannot be made here will be made (and fail visibly) for its page
                _log.exception("calcnb: a virtual kernel could not be made ahead; pages make their own")
                return
            if len(self._ready) >= self.size:
                self._taken.wait()
                self._taken.clear()
            else:  # short, but a class is arriving or being built
                time.sleep(max(0.1, self.quiet_seconds - (time.monotonic() - self._last_taken)))


def install(size: int = POOL_SIZE, busy: Callable[[], bool] = lambda: False) -> KernelPool | None:
    """Give Solara a started pool of ``size`` kernels in place of its kernel class, made only while ``busy()`` is
    false; None if this Solara makes its kernels some other way (then nothing is changed)."""
    from solara.server import kernel_context

    kind = getattr(kernel_context, "Kernel", None)
    if isinstance(kind, KernelPool):
        return kind
    if not isinstance(kind, type):
        _log.warning("calcnb: this Solara makes its kernels another way; none is made ahead")
        return None
    pool = KernelPool(kind, size, busy=busy)
    kernel_context.Kernel = pool  # what initialize_virtual_kernel calls for a new page's kernel
    pool.start()
    return pool
