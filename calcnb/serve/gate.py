"""Who may open a page of the app: caps on kernels (overall and per client address) and an optional class code.

Every page starts a kernel of its own, so one client reloading could fill the machine. The page
handler (:class:`GatedVoilaHandler`, in place of Voila's) counts the pages holding a kernel and
refuses a visit over :data:`~ClassroomGate.max_kernels` or :data:`~ClassroomGate.max_pages_per_device`
with a page in the class's language, before any kernel starts. A place is freed when its kernel
ends, and an aborted load holds none. With a class code, a visitor is asked for it first; the cookie
holds an HMAC under this run's key (never the code), wrong codes are limited per address, and the
code never reaches a server log. The client address is tornado's ``remote_ip`` (no forwarding header
trusted). Details and the reasons behind them: docs/design.md, "calcnb.serve.gate".
"""

from __future__ import annotations

import contextlib
import html

from jupyter_core.utils import ensure_async
from tornado import web
from traitlets import Integer
from traitlets.config import LoggingConfigurable
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from calcnb.core.settings import CLASS_CODE
from calcnb.i18n import get_language, message
from calcnb.serve.caps import (
    CODE_COOKIE,
    CODE_FIELD,
    DEFAULT_PAGES_PER_DEVICE,
    MAX_CODE_LENGTH,
    CodeCheck,
    PageCaps,
    Visit,
    default_max_kernels,
)

GATE_SETTING = "calcnb_gate"  # where the server's gate lives in the tornado settings

# ------------------------------------------------------------ the server's gate


class ClassroomGate(LoggingConfigurable):
    """The caps and the class code of one server (configurable: ``--ClassroomGate.max_kernels=N`` ...)."""

    max_kernels = Integer(0, config=True, help="Pages with a kernel at once, in all; 0: what the memory holds.")
    max_pages_per_device = Integer(
        DEFAULT_PAGES_PER_DEVICE, config=True, help="Pages with a kernel at once from one client address."
    )

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.caps = PageCaps(self.max_kernels or default_max_kernels(), max(1, self.max_pages_per_device))
        code = CLASS_CODE.pop()  # read once; the kernels, started later, never see it
        self.code = CodeCheck(code) if code else None


def _page(title: str, body: str, *, status_note: str = "") -> str:
    """A small page of the app's own (no script from outside), in the class's language; ``body`` is HTML."""
    note = f'<p role="alert" class="note">{html.escape(status_note)}</p>' if status_note else ""
    return (
        f'<!DOCTYPE html><html lang="{html.escape(get_language())}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>"
        "body{font-family:sans-serif;max-width:40em;margin:10vh auto;padding:0 1em;line-height:1.5;color:#111}"
        "h1{font-size:1.8em}.note{border-left:.3em solid #b00020;padding-left:.6em;color:#7a0016}"
        "input,button{font-size:1.4em;padding:.3em .5em}input{width:9em;letter-spacing:.1em}"
        "</style></head><body>"
        f"<main><h1>{html.escape(title)}</h1>{note}{body}</main></body></html>\n"
    )


def refusal_page(reason: str, *, most: int) -> str:
    """The page of a visit refused over a cap (``"full"`` or ``"device"``; ``most``: the cap)."""
    title = message(f"gate.{reason}_title")
    return _page(title, f"<p>{html.escape(message(f'gate.{reason}', most=most))}</p>")


def code_page(xsrf_form_html: str, *, note: str = "") -> str:
    """The page that asks for the class code: one field; ``#code=...`` in the address fills and sends it."""
    label = html.escape(message("gate.code_label"))
    form = (
        f"<p>{html.escape(message('gate.code_prompt'))}</p>"
        f'<form method="post" id="calcnb-code">{xsrf_form_html}'
        f'<label for="{CODE_FIELD}">{label}</label><br>'
        f'<input id="{CODE_FIELD}" name="{CODE_FIELD}" autocomplete="off" autocapitalize="off" spellcheck="false"'
        f' autofocus required maxlength="{4 * MAX_CODE_LENGTH}"> '
        f'<button type="submit">{html.escape(message("gate.code_button"))}</button></form>'
        # The QR code's address carries the code after '#', which the browser never sends: send it from here.
        "<script>(function(){var m=location.hash.match(/^#code=([^&]*)/);if(!m)return;"
        "history.replaceState(null,'',location.pathname+location.search);"
        f"var f=document.getElementById('calcnb-code');f.elements['{CODE_FIELD}'].value=decodeURIComponent(m[1]);"
        "f.submit();})();</script>"
    )
    return _page(message("gate.code_title"), form, status_note=note)


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
        self._visit.kernel_id = kernel_id
        return kernel_id

    async def get_rendered_notebook(self, *args, **kwargs):
        """Take a kernel from the pool (with ``--preheat``): it is the visit's."""
        result = await self._manager.get_rendered_notebook(*args, **kwargs)
        self._visit.kernel_id = result[2]
        return result


class VisitAbandoned(Exception):
    """The visitor went away before their kernel started: none is started."""


def _gate(handler: web.RequestHandler) -> ClassroomGate:
    gate = handler.settings.get(GATE_SETTING)
    if gate is None:  # a server that made none (the app and the hub's servers make theirs): the defaults
        gate = handler.settings[GATE_SETTING] = ClassroomGate()
    return gate


class _CodeMixin:
    """The class code in front of a page: the code page for a visitor without the cookie, and its form's POST."""

    def code_admitted(self) -> bool:
        """Whether this visitor may go on (no class code, or the right one's cookie); else the code page is sent."""
        gate = _gate(self)
        if gate.code is None or gate.code.cookie_ok(self.get_cookie(CODE_COOKIE)):
            return True
        self.set_header("Cache-Control", "no-store")
        self.finish(code_page(self.xsrf_form_html()))
        return False

    @web.authenticated
    def post(self, path: str | None = None) -> None:
        """A typed class code: the right one sets the cookie and reloads the page; a wrong one is refused."""
        gate = _gate(self)
        if gate.code is None:
            raise web.HTTPError(405)
        address = self.request.remote_ip or ""
        verdict = gate.code.check(address, self.get_body_argument(CODE_FIELD, ""))
        self.set_header("Cache-Control", "no-store")
        if verdict == "right":
            self.set_cookie(CODE_COOKIE, gate.code.cookie_value(), path=self.base_url, httponly=True, samesite="Lax")
            self.redirect(self.request.path, status=303)
            return
        if verdict == "locked":
            minutes = max(1, round(gate.code.locked_seconds(address) / 60))
            self.set_status(429)
            self.finish(code_page(self.xsrf_form_html(), note=message("gate.code_locked", minutes=minutes)))
            return
        self.set_status(403)
        self.finish(code_page(self.xsrf_form_html(), note=message("gate.code_wrong")))


async def _finished(answer) -> None:
    """Wait for Voila's handler (a coroutine, or None when its login check answered with a redirect)."""
    if answer is not None:
        await answer


class GatedVoilaHandler(_CodeMixin, TornadoVoilaHandler):
    """Voila's page handler behind the class code and the caps (see the module notes)."""

    _visit: Visit | None = None

    @property
    def kernel_manager(self):
        """The server's kernel manager; during a page's visit, as the visit sees it (:class:`_VisitKernels`)."""
        manager = self.settings["kernel_manager"]
        return manager if self._visit is None else _VisitKernels(manager, self._visit)

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
        admitted = gate.caps.admit(self.request.remote_ip or "", manager.list_kernel_ids())
        if isinstance(admitted, str):
            most = gate.caps.max_kernels if admitted == "full" else gate.caps.max_per_address
            self.log.info("calcnb: a page refused (%s: %d pages)", admitted, most)
            self.set_status(503 if admitted == "full" else 429)
            self.set_header("Cache-Control", "no-store")
            self.finish(refusal_page(admitted, most=most))
            return
        self._visit = visit = admitted
        try:
            await _finished(super().get(path))
        except VisitAbandoned:
            pass
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
    routes are made by Voila itself: :mod:`calcnb.serve.hub` changes them this way once they exist.
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
__all__ += ["refusal_page", "replace_routes"]
