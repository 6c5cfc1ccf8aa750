"""The kernel manager of a classroom app: kernels start a few at a time, students first, and end with their page.

A class arrives at once, and kernels started all together share the processor evenly, so every
student would wait as long as the last one. This manager (Voila's
``VoilaConfiguration.multi_kernel_manager_class``) lets at most two kernels per processor core
warm up at once, in the order the students came; pool refills (``--preheat N``) wait behind every
student and warm up one at a time. The server culls kernels no page is connected to
(:func:`calcnb.serve.cli.commands.culling_options`), but not one waiting in Voila's pool, nor one whose page is still
loading (:data:`PAGE_LOAD_SECONDS`). Why: ``docs/design.md``; measured: ``docs/performance.md``.

A page that never connects to its kernel (its visitor went away while it loaded) gives it back soon: once
the gate (:mod:`calcnb.serve.voila.gate`) has sent the page whole (:meth:`~ClassroomKernelManager.page_sent`),
its kernel is shut down if no page has connected to it within :data:`PAGE_CONNECT_SECONDS`, and at once
if the page says it is leaving before it connected (:meth:`~ClassroomKernelManager.page_left`: a closed
or reloaded tab). Before, such a kernel held its place for :data:`PAGE_LOAD_SECONDS` idle and a cull:
two abandoned loads filled a class of two for two minutes.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import heapq
import itertools
import os
import shutil
import tempfile
from datetime import timedelta

import zmq
from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Float, Integer

from calcnb.core.settings import VOILA_PREHEAT

# A kernel no page has connected to yet is left this long idle for its page to load (see the module notes).
PAGE_LOAD_SECONDS = 120
# Once its page has been sent whole, a kernel is shut down if no page connects to it within this long. A page
# connects once it has loaded its scripts (4 MB, or their revalidation): about 1 s on an idle machine, and up
# to 26 s measured with twelve chromium pages loading at once on the server's own two cores (the slowest a
# class's devices and a classroom's Wi-Fi should make it); twice that, rounded up.
PAGE_CONNECT_SECONDS = 60
# A warming kernel holds its turn until it has been quiet (no message) this long, or at most WARM_UP_LIMIT.
WARM_UP_QUIET_SECONDS = 0.5
WARM_UP_LIMIT_SECONDS = 60.0
# The longest name of a kernel's Unix socket in its connection folder (--KernelManager.transport=ipc).
IPC_SOCKET_NAME = "/kernel-00000000-0000-0000-0000-000000000000-ipc-4"


def processor_cores() -> int:
    """The cores this process may run on."""
    with contextlib.suppress(AttributeError, OSError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Jupyter Server's kernel manager: kernels warm up a few at a time; the culler spares those with no page yet."""

    warm_up_slots = Integer(
        0,
        config=True,
        help="Kernels warming up (starting and running the notebook) at once; 0: two per processor core.",
    )
    page_connect_seconds = Float(
        PAGE_CONNECT_SECONDS,
        config=True,
        help="Seconds a page sent whole has to connect to its kernel, else the kernel is shut down.",
    )

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        if len(self.connection_dir) + len(IPC_SOCKET_NAME) > getattr(zmq, "IPC_PATH_MAX_LEN", 107):
            # A Unix socket's path has at most ~107 bytes; a deep runtime folder (a long user name's home on a
            # hub) would leave the kernels without sockets: use a short folder only this user can open.
            self.connection_dir = tempfile.mkdtemp(prefix="calcnb-kernels-")
            atexit.register(functools.partial(shutil.rmtree, self.connection_dir, ignore_errors=True))
        self._connected_once: set[str] = set()
        self._pages_due: dict[str, asyncio.TimerHandle] = {}  # kernel -> its page's deadline to connect
        self._ending: set[str] = set()  # kernels being shut down: listed until their process is reaped
        self._shutdowns: set[asyncio.Task] = set()
        self._a_page_came = False  # pool kernels started after this are refills
        self._watchers: set[asyncio.Task] = set()
        self._warming = 0
        self._turns: list[tuple[int, int]] = []  # (0 for a student, 1 for a pool refill; arrival), in turn order
        self._arrivals = itertools.count()
        self._turn_changed: asyncio.Condition | None = None

    # ------------------------------------------------------------ culling

    def pooled_kernels(self) -> set[str]:
        """The ids of the kernels ready in a pool (none without Voila's pooling)."""
        ready = set()
        for pool in getattr(self, "_pools", {}).values():
            for task in pool:
                if task.done() and not task.cancelled() and task.exception() is None:
                    ready.add(task.result()["kernel_id"])
        return ready

    def notify_connect(self, kernel_id: str) -> None:
        """A page connected to ``kernel_id``: from now on it is culled as soon as it is left idle."""
        super().notify_connect(kernel_id)
        self._connected_once.add(kernel_id)
        self._a_page_came = True
        deadline = self._pages_due.pop(kernel_id, None)
        if deadline is not None:
            deadline.cancel()

    def page_sent(self, kernel_id: str) -> None:
        """``kernel_id``'s page has been sent whole: unless a page connects within ``page_connect_seconds``, it ends."""
        if kernel_id in self._connected_once or kernel_id not in self._kernels or kernel_id in self._pages_due:
            return
        loop = asyncio.get_running_loop()
        self._pages_due[kernel_id] = loop.call_later(self.page_connect_seconds, self._page_never_came, kernel_id)

    def _page_never_came(self, kernel_id: str) -> None:
        self._pages_due.pop(kernel_id, None)
        if kernel_id in self._connected_once or kernel_id not in self._kernels:
            return
        self.log.info(
            "calcnb: no page connected to kernel %s within %g s: shut down", kernel_id, self.page_connect_seconds
        )
        self._shut_down_soon(kernel_id)

    def _shut_down_soon(self, kernel_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self._shut_down_quietly(kernel_id))
        self._shutdowns.add(task)
        task.add_done_callback(self._shutdowns.discard)

    async def _shut_down_quietly(self, kernel_id: str) -> None:
        try:
            await self.shutdown_kernel(kernel_id)
        except Exception:  # already gone (its page's beacon, a cull): nothing left to do
            self.log.debug("calcnb: kernel %s was already shut down", kernel_id, exc_info=True)

    async def page_left(self, kernel_id: str) -> bool:
        """``kernel_id``'s page is leaving (closed, reloaded): if no page ever connected to it, shut it down now.

        Returns whether it was shut down; a kernel a page has connected to is left to Voila's own beacon and the
        culler, and one no page of the gate was sent for is not this page's to end.
        """
        if kernel_id not in self._pages_due or kernel_id in self._connected_once:
            return False
        self._pages_due.pop(kernel_id).cancel()
        self.log.info("calcnb: the page of kernel %s left before it connected: shut down", kernel_id)
        await self._shut_down_quietly(kernel_id)
        return True

    def waiting_for_its_page(self, kernel_id: str) -> bool:
        """Whether no page has connected to ``kernel_id`` yet and it has been idle less than PAGE_LOAD_SECONDS.

        A kernel whose page has been sent (:meth:`page_sent`) waits for it until its own deadline, however idle.
        """
        if kernel_id in self._connected_once:
            return False
        if kernel_id in self._pages_due:
            return True
        kernel = self._kernels.get(kernel_id)
        last_activity = getattr(kernel, "last_activity", None)
        return last_activity is not None and utcnow() - last_activity < timedelta(seconds=PAGE_LOAD_SECONDS)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Cull as Jupyter Server does, except a kernel still waiting for its student or its page."""
        if kernel_id in self.pooled_kernels() or self.waiting_for_its_page(kernel_id):
            return
        await super().cull_kernel_if_idle(kernel_id)

    async def shutdown_kernel(self, kernel_id: str, *args, **kwargs):
        """Shut the kernel down and forget it."""
        self._connected_once.discard(kernel_id)
        deadline = self._pages_due.pop(kernel_id, None)
        if deadline is not None:
            deadline.cancel()
        self._ending.add(kernel_id)
        try:
            return await super().shutdown_kernel(kernel_id, *args, **kwargs)
        finally:
            self._ending.discard(kernel_id)

    def kernels_holding_places(self) -> list[str]:
        """The kernels that hold a page's place under the caps: all but those being shut down (a closed tab's place
        is free as soon as its kernel's shutdown starts, not once the process has been reaped and forgotten)."""
        return [kernel_id for kernel_id in self.list_kernel_ids() if kernel_id not in self._ending]

    # ------------------------------------------------------------ warming up in turns

    def _slots(self, refill: bool) -> int:
        """How many kernels may be warming when a kernel of this kind takes its turn."""
        if refill:
            return 1
        # Two per core: a warming kernel also waits, and the other keeps the processor busy meanwhile.
        return self.warm_up_slots or 2 * processor_cores()

    async def _take_turn(self, refill: bool) -> None:
        """Wait until it is this kernel's turn to warm up: students in arrival order, then pool refills."""
        if self._turn_changed is None:
            self._turn_changed = asyncio.Condition()
        turn = (1 if refill else 0, next(self._arrivals))
        heapq.heappush(self._turns, turn)
        async with self._turn_changed:
            self._turn_changed.notify_all()
            await self._turn_changed.wait_for(lambda: self._turns[0] == turn and self._warming < self._slots(refill))
            heapq.heappop(self._turns)
            self._warming += 1
            self._turn_changed.notify_all()  # the next in line may fit too

    async def _end_turn_when_warm(self, kernel_id: str) -> None:
        """Hold the turn until the kernel has run the notebook (quiet and idle), then pass it on."""
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + WARM_UP_LIMIT_SECONDS
            quiet = timedelta(seconds=WARM_UP_QUIET_SECONDS)
            while loop.time() < deadline:
                await asyncio.sleep(WARM_UP_QUIET_SECONDS / 5)
                kernel = self._kernels.get(kernel_id)
                if kernel is None:
                    break
                state = getattr(kernel, "execution_state", None)
                if state == "dead" or (state == "idle" and utcnow() - kernel.last_activity >= quiet):
                    break
        finally:
            self._warming -= 1
            async with self._turn_changed:
                self._turn_changed.notify_all()

    async def start_kernel(self, *args, **kwargs) -> str:
        """Start a kernel in its turn (see the module notes); the turn passes on once it has run the notebook.

        A pool refill is a kernel Voila starts for its pool once a page has connected to any
        kernel; the pool's first filling, before any student, goes at a student's pace.
        """
        refill = self._a_page_came and VOILA_PREHEAT.read(kwargs.get("env") or {})  # a kernel Voila pools
        await self._take_turn(refill)
        try:
            kernel_id = await super().start_kernel(*args, **kwargs)
        except BaseException:
            self._warming -= 1
            async with self._turn_changed:
                self._turn_changed.notify_all()
            raise
        watcher = asyncio.get_running_loop().create_task(self._end_turn_when_warm(kernel_id))
        self._watchers.add(watcher)
        watcher.add_done_callback(self._watchers.discard)
        return kernel_id
