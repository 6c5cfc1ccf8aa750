"""The caps on a server's pages and its class code, as plain logic (no server): :mod:`calcnb.serve.gate` uses them.

:func:`default_max_kernels` says how many kernels the machine's memory holds; :class:`PageCaps`
counts the pages holding a kernel, overall and by client address; :class:`CodeCheck` checks typed
class codes and limits wrong ones per address. The command line (:mod:`calcnb.serve.parser`) checks a
teacher's code with :func:`code_problem` without loading the server.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from calcnb.i18n import message

KERNEL_MEGABYTES = 90  # a kernel running a calcnb notebook, measured (issue 35)
HEADROOM_FRACTION = 0.25  # of the memory, kept for the system, the server and the notebooks' own growth
MIN_HEADROOM_MEGABYTES = 1024
DEFAULT_PAGES_PER_DEVICE = 4  # a lesson and the play app open, and a reload or two

CODE_COOKIE = "calcnb_class"
CODE_FIELD = "code"
CODE_TRIES = 5
CODE_TRY_SECONDS = 600
MIN_CODE_LENGTH = 4
MAX_CODE_LENGTH = 32
CGROUP_MEMORY_FILES = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")


# ------------------------------------------------------------ how many kernels the machine holds


def machine_memory_bytes() -> int:
    """The machine's memory: from ``os.sysconf`` where it is offered (Linux, macOS), else psutil (Windows)."""
    sysconf = getattr(os, "sysconf", None)
    if sysconf is not None:
        with contextlib.suppress(ValueError, OSError):
            return sysconf("SC_PAGE_SIZE") * sysconf("SC_PHYS_PAGES")
    import psutil

    return psutil.virtual_memory().total


def memory_bytes() -> int:
    """The memory this process may use: the machine's, or its container's limit (cgroup, Linux) when lower."""
    total = machine_memory_bytes()
    for name in CGROUP_MEMORY_FILES:
        with contextlib.suppress(OSError, ValueError):
            limit = int(Path(name).read_text().strip())  # "max" (no limit) is not a number
            total = min(total, limit)
    return total


def default_max_kernels(memory: int | None = None) -> int:
    """How many kernels ``memory`` bytes (default: :func:`memory_bytes`) hold, after the headroom; at least 1.

    >>> default_max_kernels(8 * 1024**3)
    68
    """
    memory = memory_bytes() if memory is None else memory
    megabytes = memory / 1024**2
    headroom = max(MIN_HEADROOM_MEGABYTES, HEADROOM_FRACTION * megabytes)
    return max(1, int((megabytes - headroom) // KERNEL_MEGABYTES))


# ------------------------------------------------------------ the caps


@dataclass(eq=False)
class Visit:
    """One page given a place: its client's address, and its kernel once started (None before)."""

    address: str
    kernel_id: str | None = None
    abandoned: bool = False  # the visitor went away before the page arrived


@dataclass
class PageCaps:
    """The pages holding a kernel (or about to), by client address, under two caps (see the module notes)."""

    max_kernels: int
    max_per_address: int
    visits: list[Visit] = field(default_factory=list)

    def forget_ended(self, live_kernels: Iterable[str]) -> None:
        """Free the places of the pages whose kernel has ended (is not among ``live_kernels``)."""
        live = set(live_kernels)
        self.visits = [visit for visit in self.visits if visit.kernel_id is None or visit.kernel_id in live]

    def refusal(self, address: str) -> str | None:
        """Why a new page from ``address`` may not have a kernel (``"full"``, ``"device"``), or None if it may."""
        if len(self.visits) >= self.max_kernels:
            return "full"
        if sum(visit.address == address for visit in self.visits) >= self.max_per_address:
            return "device"
        return None

    def admit(self, address: str, live_kernels: Iterable[str]) -> Visit | str:
        """A place for a page from ``address`` (a :class:`Visit`), or why there is none (see :meth:`refusal`)."""
        self.forget_ended(live_kernels)
        reason = self.refusal(address)
        if reason is not None:
            return reason
        visit = Visit(address)
        self.visits.append(visit)
        return visit

    def release(self, visit: Visit) -> None:
        """Free ``visit``'s place (its page got no kernel)."""
        with contextlib.suppress(ValueError):
            self.visits.remove(visit)


# ------------------------------------------------------------ the class code


def normal_code(text: str) -> str:
    """A class code as compared: compatibility forms folded (NFKC), case folded, spaces and hyphens dropped.

    >>> normal_code(" Ab-12 34 ")
    'ab1234'
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(character for character in folded if not character.isspace() and character != "-")


def code_problem(text: str) -> str | None:
    """Why ``text`` cannot be a class code (a message), or None: 4 to 32 letters or digits once normalized."""
    code = normal_code(text)
    if not MIN_CODE_LENGTH <= len(code) <= MAX_CODE_LENGTH or not code.isalnum():
        return message("gate.bad_class_code", shortest=MIN_CODE_LENGTH, longest=MAX_CODE_LENGTH)
    return None


class CodeCheck:
    """Checks typed class codes (:func:`hmac.compare_digest`), with :data:`CODE_TRIES` wrong ones per address."""

    def __init__(
        self,
        code: str,
        *,
        tries: int = CODE_TRIES,
        seconds: float = CODE_TRY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._code = normal_code(code).encode()
        self._key = secrets.token_bytes(32)  # this run's: a cookie of an earlier run is not accepted
        self._tries = tries
        self._seconds = seconds
        self._clock = clock
        self._wrong: dict[str, deque[float]] = {}

    def _recent_wrong(self, address: str) -> deque[float]:
        now = self._clock()
        for other in [key for key, times in self._wrong.items() if not times or now - times[-1] >= self._seconds]:
            del self._wrong[other]  # forget addresses whose wrong tries have all aged out
        times = self._wrong.get(address, deque())
        while times and now - times[0] >= self._seconds:
            times.popleft()
        return times

    def locked_seconds(self, address: str) -> float:
        """How long ``address`` must wait before its next try (0: it may try now)."""
        times = self._recent_wrong(address)
        if len(times) < self._tries:
            return 0.0
        return max(0.0, self._seconds - (self._clock() - times[0]))

    def check(self, address: str, typed: str) -> str:
        """``"right"``, ``"wrong"`` (counted against ``address``) or ``"locked"`` (not even compared)."""
        if self.locked_seconds(address) > 0:
            return "locked"
        if hmac.compare_digest(normal_code(typed).encode(), self._code):
            return "right"
        self._wrong.setdefault(address, deque()).append(self._clock())
        return "wrong"

    def cookie_value(self) -> str:
        """The cookie of a visitor who gave the right code: an HMAC of the code under this run's key."""
        return hmac.new(self._key, self._code, hashlib.sha256).hexdigest()

    def cookie_ok(self, value: str | None) -> bool:
        """Whether ``value`` is the cookie :meth:`cookie_value` gives."""
        return value is not None and hmac.compare_digest(value.encode(), self.cookie_value().encode())
