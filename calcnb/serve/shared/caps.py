"""The caps on a server's pages and its class code, as plain logic (no server): both servers' gates adapt them.

:func:`default_max_kernels` says how many kernels the machine's memory holds; :class:`PageCaps`
counts the pages holding a kernel, overall and by client address; :class:`CodeCheck` checks typed
class codes, locks out a browser that keeps typing wrong ones and limits guessing per address.
:class:`ClassDoor` holds one server's caps and code and gives its answers (a place or a :class:`Refusal`,
a :class:`CodeAnswer` to a typed code, a browser's name); :class:`ConnectedPlaces` keeps the places of a
server whose pages hold a connection rather than a kernel process (the class server). Each server's gate
(:mod:`calcnb.serve.voila.gate`, :mod:`calcnb.serve.class_server.gate`) only reads its request, asks here,
and writes the answer as its framework does. The command line (:mod:`calcnb.serve.cli.parser`) checks a
teacher's code with :func:`code_problem` without loading a server. Nothing here knows a web framework: a
server passes addresses, cookies' values and typed text.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import ipaddress
import math
import os
import secrets
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from calcnb.core.settings import CLASS_CODE
from calcnb.i18n import message

KERNEL_MEGABYTES = 90  # a kernel running a calcnb notebook, measured (issue 35)
HEADROOM_FRACTION = 0.25  # of the memory, kept for the system, the server and the notebooks' own growth
MIN_HEADROOM_MEGABYTES = 1024
DEFAULT_PAGES_PER_DEVICE = 4  # a lesson and the play app open, and a reload or two

CODE_COOKIE = "calcnb_class"
BROWSER_COOKIE = "calcnb_browser"  # a random name for one browser, so that its wrong codes lock out it alone
CODE_FIELD = "code"
CODE_TRIES = 5  # wrong codes one browser may type within CODE_TRY_SECONDS; then it waits (see CodeCheck)
CODE_TRY_SECONDS = 600
CLASS_TYPOS = 90  # wrong codes an address may have outstanding at once: a class of thirty, three typos each
BRUTE_FORCE_SECONDS = 30 * 86_400  # the least a brute force from one address needs, on average, for any code
MIN_GUESS_SECONDS = 1.0  # an address earns a wrong code at least this often, however strong the code
_ROUNDING = 1e-9
MIN_CODE_LENGTH = 4
MAX_CODE_LENGTH = 32
CGROUP_MEMORY_FILES = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")
BROWSER_NAME_LENGTH = 64  # the most of a browser's cookie read as its name (a new name is 22 characters)
#: How long a page's place is kept for its connection after the page was sent (:class:`ConnectedPlaces`): a tab
#: opened over a cap is told so at once by a refusal page (not left loading for ever), and a tab closed before it
#: connected frees its place within this time. Long enough for a page's scripts to load on a busy class's laptop.
RESERVED_SECONDS = 30.0


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
    browser: str | None = None  # the browser's name (BROWSER_COOKIE), where the server reads it (ConnectedPlaces)


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

    def leaving(self, address: str) -> int:
        """How many of ``address``'s places are held by pages whose visitor has gone (their kernels are ending)."""
        return sum(visit.address == address and visit.abandoned for visit in self.visits)

    def release(self, visit: Visit) -> None:
        """Free ``visit``'s place (its page got no kernel)."""
        with contextlib.suppress(ValueError):
            self.visits.remove(visit)

    def refused(self, reason: str) -> Refusal:
        """The :class:`Refusal` for ``reason`` (``"full"``, ``"device"``), with the cap it hit."""
        return Refusal(reason, self.max_kernels if reason == "full" else self.max_per_address)

    def place(self, address: str, live_kernels: Iterable[str]) -> Visit | Refusal:
        """:meth:`admit`, with a refusal said as a :class:`Refusal` (the cap and the HTTP status)."""
        answer = self.admit(address, live_kernels)
        return self.refused(answer) if isinstance(answer, str) else answer


@dataclass(frozen=True)
class Refusal:
    """A page refused over a cap: why (``"full"``: the class's cap; ``"device"``: one address's) and the cap.

    >>> Refusal("full", 30).status, Refusal("device", 4).status
    (503, 429)
    """

    reason: str
    most: int

    @property
    def status(self) -> int:
        """The HTTP status: 503 (the server is full for now), or 429 (this device has too many pages)."""
        return 503 if self.reason == "full" else 429


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


def code_space(code: str) -> int:
    """How many codes have this one's length and alphabet: what a brute force that knows both must search.

    Digits only: 10 a character; else letters and digits (case folded): 36, a lower bound when the code has
    letters beyond ASCII.

    >>> code_space("4821"), code_space("ab-12")
    (10000, 1679616)
    """
    code = normal_code(code)
    return (10 if code.isascii() and code.isdigit() else 36) ** len(code)


def address_key(address: str) -> str:
    """The client an address stands for: itself (IPv4, an IPv4 address in IPv6 clothes), or an IPv6 address's /64.

    One home or school network is given a whole /64 of IPv6 addresses, and any device on it may take as
    many of them as it likes: counted one by one, they would give a guesser a fresh address at will.

    >>> address_key("::ffff:10.0.0.9"), address_key("2001:db8:5:6:7::1")
    ('10.0.0.9', '2001:db8:5:6::/64')
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


class CodeCheck:
    """Checks typed class codes (:func:`hmac.compare_digest`): a browser that guesses is locked out, alone, and an
    address may guess only as fast as makes a brute force hopeless.

    **A browser** (a random cookie, :data:`BROWSER_COOKIE`; every tab of a browser shares it) that types
    :data:`CODE_TRIES` wrong codes within :data:`CODE_TRY_SECONDS` is locked until the oldest ages out:
    its codes, the right one too, are not even compared. Nobody else notices: thirty pupils behind one
    address (a school's NAT, a hub reached over the internet) are thirty browsers.

    **An address** (:func:`address_key`) has a credit of wrong codes, :data:`CLASS_TYPOS` at most (a
    class of thirty arriving at once, three typos each): each wrong code spends one, one comes back every
    :attr:`interval` seconds, and a right code gives back its browser's own recent wrong codes (its
    typos). With no credit left, no code from that address is compared, the right one neither, until the
    next credit comes (``"busy"``): were the right code still let in, a guesser who changes cookies at each
    try would learn from every try whether it was right, at any speed.

    **The arithmetic.** A guesser at one address, with as many cookies as he likes, has at most
    ``burst + t / interval`` codes compared within ``t`` seconds (``burst``: :data:`CLASS_TYPOS`), and
    only the right code gives credit back. A code drawn from ``space`` codes (:func:`code_space`; the guesser
    is granted its length and alphabet) is found, on average, after ``space / 2`` tries, so he needs
    ``(space / 2 - burst) * interval`` seconds. The interval is chosen to make that
    :data:`BRUTE_FORCE_SECONDS` (30 days), and never less than :data:`MIN_GUESS_SECONDS`:

    ============  ===========  ===============  ===========================================
    code          space        interval         mean time of a brute force from one address
    ============  ===========  ===============  ===========================================
    4 digits      10^4         528 s (8.8 min)  30 days; under 1 % of the codes in an hour
    6 digits      10^6         5.2 s            30 days
    4 letters     36^4 = 1.7e6 3.1 s            30 days
    6 letters     36^6 = 2.2e9 1 s              35 years
    ============  ===========  ===============  ===========================================

    (letters: letters and digits.) What it costs the class: nothing, unless someone at its address
    spends the credit on purpose, changing cookies every five codes (his own browser locks after five).
    Then every pupil there who has not got in yet waits one interval, and he gains nothing (he knows the
    code). For a four-digit code that wait is minutes; for six letters and digits, a second: a class that
    shares its address with others (a school's NAT) is better served by a longer code. Wrong codes of a
    browser that never sends a cookie (``browser=None``) count against its address alone.
    """

    def __init__(
        self,
        code: str,
        *,
        tries: int = CODE_TRIES,
        seconds: float = CODE_TRY_SECONDS,
        class_typos: int = CLASS_TYPOS,
        brute_force_seconds: float = BRUTE_FORCE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._code = normal_code(code).encode()
        self._key = secrets.token_bytes(32)  # this run's: a cookie of an earlier run is not accepted
        self._tries = tries
        self._seconds = seconds
        self._clock = clock
        self.space = code_space(code)
        self.burst = class_typos
        searched = self.space / 2 - class_typos  # the tries an average search makes beyond the free ones
        self.interval = max(MIN_GUESS_SECONDS, brute_force_seconds / searched) if searched > 0 else brute_force_seconds
        self._credit: dict[str, tuple[float, float]] = {}  # address key -> (credit, when), while not full
        self._wrong: dict[str, deque[tuple[float, str]]] = {}  # browser -> (when, address key) of its wrong codes
        self._lock = threading.Lock()  # a server may check codes from several threads

    def mean_brute_force_seconds(self) -> float:
        """How long a brute force from one address needs, on average, to find this code (see the notes)."""
        return (self.space / 2 - self.burst) * self.interval

    # ------------------------------------------------------------ the state, as of now

    def _credit_now(self, key: str, now: float) -> float:
        credit, when = self._credit.get(key, (self.burst, now))
        return min(self.burst, credit + (now - when) / self.interval)

    def _set_credit(self, key: str, credit: float, now: float) -> None:
        if credit >= self.burst:
            self._credit.pop(key, None)
        else:
            self._credit[key] = (credit, now)

    def _recent_wrong(self, browser: str | None, now: float) -> deque[tuple[float, str]]:
        times = self._wrong.get(browser, deque()) if browser is not None else deque()
        while times and now - times[0][0] >= self._seconds:
            times.popleft()
        return times

    def _forget_old(self, now: float) -> None:
        """Drop the addresses whose credit is full again and the browsers whose wrong codes have all aged out."""
        for key in [key for key in self._credit if self._credit_now(key, now) >= self.burst]:
            del self._credit[key]
        aged = [browser for browser, times in self._wrong.items() if not times or now - times[-1][0] >= self._seconds]
        for browser in aged:
            del self._wrong[browser]

    def locked_seconds(self, address: str, browser: str | None = None) -> float:
        """How long ``browser`` at ``address`` must wait before its next code is compared (0: it may try now)."""
        with self._lock:
            now = self._clock()
            wait = 0.0
            times = self._recent_wrong(browser, now)
            if len(times) >= self._tries:
                wait = self._seconds - (now - times[0][0])
            credit = self._credit_now(address_key(address), now)
            if credit < 1 - _ROUNDING:
                wait = max(wait, (1 - credit) * self.interval)
            return max(0.0, wait)

    def check(self, address: str, typed: str, browser: str | None = None) -> str:
        """``"right"``, ``"wrong"``, or not compared: ``"locked"`` (this browser) or ``"busy"`` (this address).

        ``browser`` is the value of the browser's :data:`BROWSER_COOKIE` (None: the browser sent none).
        """
        with self._lock:
            now = self._clock()
            self._forget_old(now)
            key = address_key(address)
            wrong = self._recent_wrong(browser, now)
            if len(wrong) >= self._tries:
                return "locked"
            credit = self._credit_now(key, now)
            if credit < 1 - _ROUNDING:  # a visitor who waited as long as told is compared
                return "busy"
            if hmac.compare_digest(normal_code(typed).encode(), self._code):
                for _when, where in wrong:  # its typos, given back to the addresses they were typed from
                    self._set_credit(where, self._credit_now(where, now) + 1, now)
                self._wrong.pop(browser, None)
                return "right"
            self._set_credit(key, credit - 1, now)
            if browser is not None:
                self._wrong.setdefault(browser, deque()).append((now, key))
            return "wrong"

    def cookie_value(self) -> str:
        """The cookie of a visitor who gave the right code: an HMAC of the code under this run's key."""
        return hmac.new(self._key, self._code, hashlib.sha256).hexdigest()

    def cookie_ok(self, value: str | None) -> bool:
        """Whether ``value`` is the cookie :meth:`cookie_value` gives."""
        return value is not None and hmac.compare_digest(value.encode(), self.cookie_value().encode())


def browser_name(sent: str | None) -> tuple[str, bool]:
    """This browser's name: the :data:`BROWSER_COOKIE` it sent (cut to :data:`BROWSER_NAME_LENGTH`), or a new one;
    and whether it is new (the gate then gives the browser the cookie)."""
    name = (sent or "")[:BROWSER_NAME_LENGTH]
    return (name, False) if name else (secrets.token_urlsafe(16), True)


@dataclass(frozen=True)
class CodeAnswer:
    """What a gate answers a typed class code: the verdict (:meth:`CodeCheck.check`), the HTTP status, the code
    page's note (the right code has none: the visitor is sent back to the page), and the code's cookie to set."""

    verdict: str
    status: int
    note: str = ""
    cookie: str | None = None  # the value of CODE_COOKIE, given for the right code only


class ClassDoor:
    """The caps on one server's pages and its class code, as the answers its gate gives (no server here).

    A gate reads the request (the visitor's address, cookies, typed code), asks its door, and writes the
    answer as its framework does: both servers answer the same visitor the same way.
    """

    def __init__(self, caps: PageCaps, code: CodeCheck | None = None) -> None:
        self.caps = caps
        self.code = code

    @classmethod
    def from_settings(cls, max_pages: int | None = None, pages_per_device: int | None = None) -> ClassDoor:
        """The door of a server started with these caps (None or 0: what the memory holds; the default per device).

        The class code is read once from the environment (:data:`calcnb.core.settings.CLASS_CODE`) and taken out
        of it, so the kernels a server starts later never see it.
        """
        code = CLASS_CODE.pop()
        caps = PageCaps(max_pages or default_max_kernels(), max(1, pages_per_device or DEFAULT_PAGES_PER_DEVICE))
        return cls(caps, CodeCheck(code) if code else None)

    def admitted(self, cookie: str | None) -> bool:
        """Whether a visitor whose :data:`CODE_COOKIE` is ``cookie`` may go on: no class code, or the right one's."""
        return self.code is None or self.code.cookie_ok(cookie)

    def place(self, address: str, live_kernels: Iterable[str]) -> Visit | Refusal:
        """A place for a page from ``address`` (:meth:`PageCaps.place`)."""
        return self.caps.place(address, live_kernels)

    def answer_code(self, address: str, typed: str, browser: str | None) -> CodeAnswer:
        """The answer to ``typed`` from ``browser`` at ``address``: the right code's cookie (303 back to the page),
        a wrong code (403), or a browser or an address that must wait, for so many minutes (429)."""
        if self.code is None:
            raise ValueError("this server asks for no class code")
        verdict = self.code.check(address, typed, browser)
        if verdict == "right":
            return CodeAnswer(verdict, 303, cookie=self.code.cookie_value())
        if verdict in ("locked", "busy"):  # this browser guessed too often; this address's credit is spent
            minutes = max(1, math.ceil(self.code.locked_seconds(address, browser) / 60))
            return CodeAnswer(verdict, 429, message(f"gate.code_{verdict}", minutes=minutes))
        return CodeAnswer(verdict, 403, message("gate.code_wrong"))


class ConnectedPlaces:
    """The places of a server whose pages hold a connection (a websocket), not a kernel process of their own.

    Sending a page takes a place (:meth:`page_sent`), kept :data:`RESERVED_SECONDS` for the page's connection, so
    a tab over a cap gets a refusal page, not a page that never loads. The connection claims it
    (:meth:`connected`) and holds it while open; the place is free the moment it closes (:meth:`closed`: a closed
    tab, a reload), or once its time runs out unclaimed (a tab closed while loading), so abandoned pages never
    fill the class.

    **Reloads never lock a browser out.** A page reloaded before it connected (F5 held down) leaves its place
    reserved and unclaimed, and the server cannot tell such a reload from a new tab. So a page sent to a browser
    that names itself (its :data:`BROWSER_COOKIE`) and is at a cap takes the place of that browser's oldest
    unclaimed one at the same address instead of being refused: its places, loading and connected, never grow
    past the caps, and its reloads never run out of them. What a connection may hold is checked when it comes:
    it claims a place (its browser's own unclaimed one first, else any of its address's) only while its
    address has fewer *connected* pages than the device's cap, and the class fewer than its own. A tab whose
    place another tab of its browser took is so refused when it connects, and its page says why
    (:func:`calcnb.serve.shared.gate_pages.refusal_script`). A browser without the cookie (a script, a first
    visit) replaces nothing: it is refused at the cap, as before.
    """

    def __init__(
        self, caps: PageCaps, *, reserve_seconds: float = RESERVED_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.caps = caps
        self.reserve_seconds = reserve_seconds
        self.clock = clock
        self.reserved: list[tuple[float, Visit]] = []  # (when, place) of the pages sent, awaiting their connection
        self.open: dict[object, Visit] = {}  # by connection

    def _drop_unclaimed(self) -> None:
        oldest = self.clock() - self.reserve_seconds
        for when, visit in [entry for entry in self.reserved if entry[0] < oldest]:
            self.reserved.remove((when, visit))
            self.caps.release(visit)

    def _live(self) -> list[str]:
        return [visit.kernel_id for visit in self.open.values() if visit.kernel_id]

    def _oldest_reserved(self, address: str, browser: str | None) -> tuple[float, Visit] | None:
        """The oldest unclaimed place at ``address``: ``browser``'s own, or anyone's if ``browser`` is None."""
        return next(
            (
                entry
                for entry in self.reserved
                if entry[1].address == address and (browser is None or entry[1].browser == browser)
            ),
            None,
        )

    def holds_open(self, address: str, browser: str | None) -> bool:
        """Whether ``browser`` (a name, not None) at ``address`` has a connected page: a page it asks for now may be
        one of them reloaded, whose connection closes in a moment."""
        return browser is not None and any(
            visit.address == address and visit.browser == browser for visit in self.open.values()
        )

    def page_sent(self, address: str, browser: str | None = None) -> Visit | Refusal:
        """A place for a page about to be sent to ``browser`` at ``address``, kept for its connection (at a cap: in
        place of that browser's oldest unclaimed one at ``address``, if any); or why there is none."""
        self._drop_unclaimed()
        place = self.caps.place(address, self._live())
        if isinstance(place, Refusal) and browser is not None:
            own = self._oldest_reserved(address, browser)
            if own is not None:  # a reload of a page still loading, or a tab over the cap: its connection will say
                self.reserved.remove(own)
                self.caps.release(own[1])
                place = self.caps.place(address, self._live())  # one place fewer at this address and in all
        if isinstance(place, Visit):
            place.browser = browser
            self.reserved.append((self.clock(), place))
        return place

    def connected(
        self, connection: object, address: str, kernel_id: str, browser: str | None = None
    ) -> Visit | Refusal:
        """``connection`` (a page's, from ``browser`` at ``address``, to ``kernel_id``) claims a place: its browser's
        unclaimed one, else its address's, else a new one (a page reconnecting); or why there is none (its address
        or the class has as many connected pages as its cap allows)."""
        self._drop_unclaimed()
        if sum(visit.address == address for visit in self.open.values()) >= self.caps.max_per_address:
            return self.caps.refused("device")
        if len(self.open) >= self.caps.max_kernels:
            return self.caps.refused("full")
        claimed = (self._oldest_reserved(address, browser) if browser is not None else None) or self._oldest_reserved(
            address, None
        )
        if claimed is not None:
            self.reserved.remove(claimed)
            place: Visit | Refusal = claimed[1]
        else:  # none left here: the address's places are its connected pages, fewer than its cap
            place = self.caps.place(address, self._live())
        if isinstance(place, Visit):
            place.kernel_id = kernel_id
            place.browser = browser
            self.open[connection] = place
        return place

    def closed(self, connection: object) -> None:
        """``connection`` has closed: its place is free."""
        visit = self.open.pop(connection, None)
        if visit is not None:
            self.caps.release(visit)
