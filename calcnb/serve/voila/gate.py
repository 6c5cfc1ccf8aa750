"""Who may open a page of the app: caps on kernels (overall and per client address) and an optional class code.

This is Voila's gate, a tornado adapter: what to answer is decided by the shared caps
(:class:`calcnb.serve.shared.caps.ClassDoor`, the class server's gate asks the same), and the handlers here
read tornado's request for it and write its answer. What is Voila's own is a page's kernel: every page
starts a kernel of its own, so one client reloading could fill the machine. The page handler
(:class:`GatedVoilaHandler`, in place of Voila's) counts the pages holding a kernel and refuses a visit
over :data:`~ClassroomGate.max_kernels` or :data:`~ClassroomGate.max_pages_per_device` with a page in the
class's language, before any kernel starts. A place is freed when its kernel
ends, and an aborted load holds none: a visitor gone before their kernel started gets none, one gone
while it started or ran the notebook has it shut down (without rendering the page, if it had not begun),
and a page sent whole whose visitor never connects gives its kernel back within seconds if it says it
is leaving (:func:`leaving_script`), else after :data:`calcnb.serve.voila.kernels.PAGE_CONNECT_SECONDS`.
With a class code, a visitor is asked for it first; the cookie holds an HMAC under this run's key
(never the code), a browser that types wrong codes is locked out alone and guessing is limited per
address (:class:`calcnb.serve.shared.caps.CodeCheck`), and the code never reaches a server log. The client
address is tornado's ``remote_ip`` (no forwarding header trusted). Details and the reasons behind them:
docs/design.md, "calcnb.serve.voila.gate".
"""

from __future__ import annotations

import asyncio
import contextlib

from jupyter_core.utils import ensure_async
from jupyter_server.utils import url_path_join
from tornado import web
from traitlets import Integer
from traitlets.config import LoggingConfigurable
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from calcnb.serve.shared.caps import (
    BROWSER_COOKIE,
    CODE_COOKIE,
    CODE_FIELD,
    DEFAULT_PAGES_PER_DEVICE,
    ClassDoor,
    CodeCheck,
    PageCaps,
    Refusal,
    Visit,
    browser_name,
)
from calcnb.serve.shared.gate_pages import READY_PATH, code_page, refusal_page, server_watch_script

#: How long a page waits for the pages its device has left to give their places back, before it is refused.
LEAVING_WAIT_SECONDS = 30.0
LEAVING_POLL_SECONDS = 0.25
GATE_SETTING = "calcnb_gate"  # where the server's gate lives in the tornado settings
LEFT_FIELD = "calcnb_left"  # the field of a page's "I am leaving" beacon: its kernel's id

# ------------------------------------------------------------ the server's gate


class ClassroomGate(LoggingConfigurable):
    """The caps and the class code of one server (configurable: ``--ClassroomGate.max_kernels=N`` ...): its
    :class:`~calcnb.serve.shared.caps.ClassDoor`, made from these settings."""

    max_kernels = Integer(0, config=True, help="Pages with a kernel at once, in all; 0: what the memory holds.")
    max_pages_per_device = Integer(
        DEFAULT_PAGES_PER_DEVICE, config=True, help="Pages with a kernel at once from one client address."
    )

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.door = ClassDoor.from_settings(self.max_kernels, self.max_pages_per_device)

    @property
    def caps(self) -> PageCaps:
        """The caps on this server's pages."""
        return self.door.caps

    @property
    def code(self) -> CodeCheck | None:
        """This server's class code, if it asks for one."""
        return self.door.code


def leaving_script() -> str:
    """A script for the head of a page: when the page is closed or left, it tells the gate (a beacon, as Voila's page
    does once its scripts have connected it), which shuts its kernel down if no page ever connected to it.

    Between the page's last byte and its connection the server sees nothing of a visitor (the scripts may
    come from the browser's cache), so a tab closed then is told from a slow one only by this; and it must
    come before Voila's own scripts, which hold the rest of the page up while they load. The kernel's id
    is read, when the page leaves, from the page's configuration (none yet: the page was still being
    made, and its closed connection told the gate already). Both ``beforeunload`` (a desktop browser's
    closed tab, where Voila's page listens too) and ``pagehide`` (a phone's) send it, once.
    """
    return (
        "<script>(function(){var sent=false;function left(e){if(e.persisted||sent)return;"
        "var c=document.getElementById('jupyter-config-data'),k;try{k=c&&JSON.parse(c.textContent).kernelId}"
        "catch(_){}if(!k)return;sent=true;var x=document.cookie.match(/\\b_xsrf=([^;]*)\\b/),f=new FormData();"
        f"f.append('_xsrf',x&&x[1]||'');f.append('{LEFT_FIELD}',k);"
        "navigator.sendBeacon(location.pathname+location.search,f);}"
        "addEventListener('beforeunload',left);addEventListener('pagehide',left);})();</script>"
    )


class _VisitKernels:
    """The kernel manager as one page's request sees it: the kernel it starts or takes is the visit's."""

    def __init__(self, manager, visit: Visit) -> None:
        self._manager = manager
        self._visit = visit

    def __getattr__(self, name: str):
        return getattr(self._manager, name)

    async def start_kernel(self, *args, **kwargs) -> str:
        """Start the page's kernel, unless its visitor has already gone (then :class:`VisitAbandoned`)."""
        if self._visit.abandoned:
            raise VisitAbandoned
        kernel_id = await ensure_async(self._manager.start_kernel(*args, **kwargs))
        if self._visit.abandoned:  # gone while it waited for its turn and started: no page to render for it
            with contextlib.suppress(Exception):
                await ensure_async(self._manager.shutdown_kernel(kernel_id))
            raise VisitAbandoned
        self._visit.kernel_id = kernel_id
        return kernel_id

    async def get_rendered_notebook(self, *args, **kwargs):
        """Take a kernel from the pool (with ``--preheat``): it is the visit's."""
        result = await self._manager.get_rendered_notebook(*args, **kwargs)
        self._visit.kernel_id = result[2]
        return result


class ReadyHandler(web.RequestHandler):
    """``GET /readyz``: 200 while the server is up (a pupil's page asks it every few seconds; no login, no data)."""

    def get(self) -> None:
        """Say the server is up."""
        self.set_header("Cache-Control", "no-store")
        self.finish("ok")


class VisitAbandoned(Exception):
    """The visitor went away before their kernel started (none is started) or while it started (it is shut down)."""


def _gate(handler: web.RequestHandler) -> ClassroomGate:
    gate = handler.settings.get(GATE_SETTING)
    if gate is None:  # a server that made none (the app and the hub's servers make theirs): the defaults
        gate = handler.settings[GATE_SETTING] = ClassroomGate()
    return gate


class _CodeMixin:
    """The class code in front of a page: the code page for a visitor without the cookie, and its form's POST."""

    def code_admitted(self) -> bool:
        """Whether this visitor may go on (no class code, or the right one's cookie); else the code page is sent."""
        if _gate(self).door.admitted(self.get_cookie(CODE_COOKIE)):
            return True
        self.browser()
        self.set_header("Cache-Control", "no-store")
        self.finish(code_page(self.xsrf_form_html()))
        return False

    def browser(self) -> str:
        """This browser's name (:data:`~calcnb.serve.shared.caps.BROWSER_COOKIE`), given it now if it had none."""
        name, new = browser_name(self.get_cookie(BROWSER_COOKIE))
        if new:
            self.set_cookie(BROWSER_COOKIE, name, path=self.base_url, httponly=True, samesite="Lax")
        return name

    @web.authenticated
    def post(self, path: str | None = None) -> None:
        """A typed class code: the right one sets the cookie and reloads the page; a wrong one is refused."""
        door = _gate(self).door
        if door.code is None:
            raise web.HTTPError(405)
        answer = door.answer_code(self.request.remote_ip or "", self.get_body_argument(CODE_FIELD, ""), self.browser())
        self.set_header("Cache-Control", "no-store")
        if answer.cookie is not None:
            self.set_cookie(CODE_COOKIE, answer.cookie, path=self.base_url, httponly=True, samesite="Lax")
            self.redirect(self.request.path, status=303)
            return
        self.set_status(answer.status)
        self.finish(code_page(self.xsrf_form_html(), note=answer.note))


async def _finished(answer) -> None:
    """Wait for Voila's handler (a coroutine, or None when its login check answered with a redirect)."""
    if answer is not None:
        await answer


class GatedVoilaHandler(_CodeMixin, TornadoVoilaHandler):
    """Voila's page handler behind the class code and the caps (see the module notes)."""

    _visit: Visit | None = None
    _leaving_written = False

    def write(self, chunk) -> None:
        """Write as Voila does, with the page's :func:`leaving_script` and the script that tells the pupil when the
        server is gone (:func:`~calcnb.serve.shared.gate_pages.server_watch_script`) put in its head."""
        if self._visit is not None and not self._leaving_written and isinstance(chunk, str) and "<head>" in chunk:
            watch = server_watch_script(url_path_join(self.base_url, READY_PATH))
            chunk = chunk.replace("<head>", f"<head>{leaving_script()}{watch}", 1)
            self._leaving_written = True
        super().write(chunk)

    @property
    def kernel_manager(self):
        """The server's kernel manager; during a page's visit, as the visit sees it (:class:`_VisitKernels`)."""
        manager = self.settings["kernel_manager"]
        return manager if self._visit is None else _VisitKernels(manager, self._visit)

    @web.authenticated
    async def post(self, path: str | None = None) -> None:
        """A page's beacon that it is leaving (:func:`leaving_script`), else a typed class code."""
        kernel_id = self.get_body_argument(LEFT_FIELD, None)
        if kernel_id is None:
            return super().post(path)
        if not _gate(self).door.admitted(self.get_cookie(CODE_COOKIE)):
            raise web.HTTPError(403)
        page_left = getattr(self.settings["kernel_manager"], "page_left", None)
        if page_left is not None:
            await page_left(kernel_id[:64])
        self.set_status(204)
        self.finish()

    def on_connection_close(self) -> None:
        """The visitor went away: their kernel, if not started yet, never starts; if started, it ends with the page."""
        if self._visit is not None:
            self._visit.abandoned = True
        super().on_connection_close()

    @web.authenticated  # on a hub, the login comes first (a visitor sent to log in holds no place)
    async def get(self, path: str | None = None) -> None:
        """The page, if the visitor has the code (or none is asked) and the caps leave a place; else why not."""
        if not self.code_admitted():
            return
        self.xsrf_token  # noqa: B018  (sets the _xsrf cookie, which the page's shutdown request on leaving sends)
        gate = _gate(self)
        manager = self.settings["kernel_manager"]
        holding = getattr(manager, "kernels_holding_places", manager.list_kernel_ids)
        address = self.request.remote_ip or ""
        place = gate.door.place(address, holding())
        # Reloads held down: the pages this device left hold their places until their kernels end (seconds). Wait
        # for them rather than refuse: the device's cap still holds, and the pupil is not locked out.
        waited = 0.0
        while isinstance(place, Refusal) and place.reason == "device" and gate.caps.leaving(address):
            if waited >= LEAVING_WAIT_SECONDS or self.request.connection.stream.closed():
                break
            await asyncio.sleep(LEAVING_POLL_SECONDS)
            waited += LEAVING_POLL_SECONDS
            place = gate.door.place(address, holding())
        if isinstance(place, Refusal):
            self.log.info("calcnb: a page refused (%s: %d pages)", place.reason, place.most)
            self.set_status(place.status)
            self.set_header("Cache-Control", "no-store")
            self.finish(refusal_page(place.reason, most=place.most))
            return
        self._visit = visit = place
        try:
            await _finished(super().get(path))
        except VisitAbandoned:
            pass
        else:
            page_sent = getattr(manager, "page_sent", None)
            if visit.kernel_id is not None and not visit.abandoned and not self._finished and page_sent is not None:
                page_sent(visit.kernel_id)  # the page is whole: it connects soon, or its kernel ends
                if not self._leaving_written:  # a template without a head: at the end, then (still run, if late)
                    self.write(leaving_script() + "\n")
        finally:
            self._visit = None
            if visit.kernel_id is None:
                gate.caps.release(visit)
            elif visit.abandoned:  # nobody will ever connect to it
                with contextlib.suppress(Exception):
                    await ensure_async(manager.shutdown_kernel(visit.kernel_id))


class GatedTreeHandler(_CodeMixin, TornadoVoilaTreeHandler):
    """Voila's list of notebooks (a folder served) behind the class code."""

    @web.authenticated
    async def get(self, path: str = "") -> None:
        """The list, if the visitor has the code (or none is asked); else the code page."""
        if self.code_admitted():
            await _finished(super().get(path))


GATED_HANDLERS = {TornadoVoilaHandler: GatedVoilaHandler, TornadoVoilaTreeHandler: GatedTreeHandler}


def replace_routes(router, replacements: dict[type, type]) -> int:
    """Put each handler class of ``replacements`` in place of its key in ``router``'s routes and sub-routers.

    Returns how many routes were changed. The hub's servers load Voila as a server extension, whose
    routes are made by Voila itself: :mod:`calcnb.serve.voila.hub` changes them this way once they exist.
    """
    changed = 0
    for rule in getattr(router, "rules", ()):
        target = rule.target
        if isinstance(target, type) and target in replacements:
            rule.target = replacements[target]
            changed += 1
        else:
            changed += replace_routes(target, replacements)
    return changed


__all__ = ["GATED_HANDLERS", "GATE_SETTING", "ClassroomGate", "GatedTreeHandler", "GatedVoilaHandler", "code_page"]
__all__ += ["ReadyHandler", "leaving_script", "refusal_page", "replace_routes"]
