"""The app's server: Voila, with the two routes Voila answers with an error of its own answering as they should.

``python -m calcnb.serve.voila.app`` takes Voila's command line (:func:`calcnb.serve.cli.commands.voila_command`
builds it). Voila's standalone server answers ``GET /logout`` by rendering a page its templates do
not have, and any address under ``/voila/templates/`` that is not a template's static file
(``/voila/templates/calcnb/conf.json``) by failing to split it: both were HTTP 500, the answer of
a server in trouble. Here ``/logout`` forgets any login and goes back to the app's page (the app
has no accounts), and the rest of ``/voila/templates/`` is not found (404), as any missing file is.
Every static file it serves (the templates', the widget extensions' under ``/voila/labextensions/``, the themes',
``/voila/static/``, ``/voila/files/``) is looked for inside its folder only: a path that steps out of it
(``..``, encoded or not, a backslash, a drive) is not found, before any file is looked at. A missing file is
a plain 404 and one line in the log (Jupyter Server's error page, which needs a setting Voila's own server does
not have, printed a traceback of 44 lines for each). The server stops when the command that started it is gone
(:data:`calcnb.serve.shared.launcher.LAUNCHER_VARIABLE`), even killed outright, and its kernels with it.
Its kernel websockets are kept alive by Jupyter Server's ping alone (every 30 s, closed after 90 s
without an answer): tornado reads Jupyter Server's milliseconds as seconds, so its own ping is left
off, and the first visit prints no warning about a ping timeout longer than the ping interval.
The notebooks it serves that are calcnb's own (byte for byte) are signed as trusted when it starts,
so no visit prints "Notebook … is not trusted". A hub's students' servers take the same websocket fix
(:class:`ServerKernelWebsocket`, from :mod:`calcnb.serve.voila.hub`). Its pages are behind the caps on
kernels and the optional class code of :mod:`calcnb.serve.voila.gate` (``--ClassroomGate.max_kernels=N``,
``--ClassroomGate.max_pages_per_device=N``). Its pages say they are in the server's language (``<html lang="pt">``
for ``calcnb app --lang pt``, :func:`set_page_language`), for screen readers.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import nbformat
from jupyter_server.auth.logout import LogoutHandler
from jupyter_server.base.handlers import FileFindHandler
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
from jupyter_server.utils import url_path_join
from jupyterlab_server.themes_handler import ThemesHandler
from nbformat.sign import NotebookNotary
from tornado import httputil, ioloop, web
from traitlets.config import Config
from voila.app import Voila
from voila.static_file_handler import AllowListFileHandler, MultiStaticFileHandler, TemplateStaticFileHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from calcnb.i18n import get_language
from calcnb.serve.shared.gate_pages import READY_PATH
from calcnb.serve.shared.headers import security_headers
from calcnb.serve.shared.launcher import LauncherWatch
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.voila.gate import GATE_SETTING, GATED_HANDLERS, ClassroomGate, ReadyHandler

__all__ = ["AppVoila", "KernelWebsocket", "LogoutToApp", "ServerKernelWebsocket", "TemplateFiles", "TornadoPingOff"]
__all__ += ["FILE_HANDLERS", "ExtensionFiles", "NotebookFiles", "PlainFiles", "StaticFiles"]
__all__ += ["ThemeFiles", "inside", "main", "set_page_language", "trust_shipped_notebooks"]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def trust_shipped_notebooks(served: Path) -> list[Path]:
    """Sign as trusted the notebooks in ``served`` (a notebook or a folder) that are calcnb's own; return them.

    A notebook is calcnb's own when its bytes are those of a notebook in
    :func:`~calcnb.serve.shared.notebooks.notebooks_dir`: a copy a teacher changed, or any other notebook, is left
    as it is. The signature goes to the user's Jupyter signature store, where Jupyter Server checks it when a page
    opens the notebook.
    """
    shipped = {_digest(path) for path in notebooks_dir().rglob("*.ipynb")}
    candidates = [served] if served.is_file() else sorted(served.rglob("*.ipynb"))
    notary = NotebookNotary()
    trusted = []
    for path in candidates:
        if ".ipynb_checkpoints" in path.parts or _digest(path) not in shipped:
            continue
        notebook = nbformat.read(path, as_version=nbformat.NO_CONVERT)
        if not notary.check_signature(notebook):
            notary.sign(notebook)
        trusted.append(path)
    return trusted


#: What no part of a served file's path may hold: a backslash (a separator on Windows), a colon (a drive, or an
#: NTFS stream), a NUL.
UNSAFE_CHARACTERS = frozenset("\\:\0")


def inside(path: str) -> str:
    """``path`` (an address's path, decoded: ``%2e%2e%2f`` is ``../`` here) if it stays inside the folder it is
    served from; HTTP 404 if it could step out: a part ``..`` or ``.``, a backslash, a drive, a leading ``/``.

    >>> inside("calcnb/static/labvariables.css")
    'calcnb/static/labvariables.css'
    >>> inside("calcnb/static/../../../cli.py")
    Traceback (most recent call last):
    ...
    tornado.web.HTTPError: HTTP 404: Not Found
    """
    parts = path.split("/")
    if path.startswith("/") or any(part in ("..", ".") or UNSAFE_CHARACTERS.intersection(part) for part in parts):
        raise web.HTTPError(404)
    return path


class PlainFiles:
    """A static file handler (mixed in before it) that never looks outside its folder (:func:`inside`), and whose
    errors are tornado's plain pages: Jupyter Server's need ``static_path``, a setting Voila's server lacks, and
    every 404 of a Jupyter handler printed 44 lines of traceback instead."""

    def parse_url_path(self, url_path: str) -> str:
        """The file's path (see :func:`inside`), as the handler reads it."""
        return super().parse_url_path(inside(url_path))

    def write_error(self, status_code: int, **kwargs) -> None:
        """Tornado's plain error page (the access log has its one line)."""
        web.RequestHandler.write_error(self, status_code, **kwargs)


class TemplateFiles(PlainFiles, TemplateStaticFileHandler):
    """A template's static files, ``/voila/templates/NAME/static/PATH``; any other path there is not found."""

    def parse_url_path(self, path: str) -> str:
        """The file's path, or HTTP 404 for a path that names no template's static file."""
        parts = path.split("/", 2)
        if len(parts) < 3 or parts[1] != "static" or not parts[0] or not parts[2]:
            raise web.HTTPError(404)
        return super().parse_url_path(path)


class ExtensionFiles(PlainFiles, FileFindHandler):
    """The widget extensions' files, ``/voila/labextensions/PATH``."""


class ThemeFiles(PlainFiles, ThemesHandler):
    """The page's themes, ``/voila/api/themes/PATH``."""


class StaticFiles(PlainFiles, MultiStaticFileHandler):
    """Voila's own scripts and styles, ``/voila/static/PATH``: a missing one is not found (404).

    Voila's handler looks in each of its folders in turn and, finding the file in none, answers with the
    path in the last folder checked against the first: 403 Forbidden and two lines of log for any missing file.
    """

    def get_absolute_path(self, root: str, path: str) -> str:
        """The file in the first of the folders that has it, else where the first folder would have it."""
        found = super().get_absolute_path(root, path)
        if os.path.exists(found):
            return found
        self.root = self.roots[0]
        return os.path.abspath(os.path.join(self.root, path))


class NotebookFiles(PlainFiles, AllowListFileHandler):
    """The files beside the notebooks that Voila's allow list lets out, ``/voila/files/PATH``."""


#: Voila's static file handlers, and those this server uses in their place.
FILE_HANDLERS: dict[type, type] = {
    TemplateStaticFileHandler: TemplateFiles,
    FileFindHandler: ExtensionFiles,
    ThemesHandler: ThemeFiles,
    MultiStaticFileHandler: StaticFiles,
    AllowListFileHandler: NotebookFiles,
}


class LogoutToApp(LogoutHandler):
    """``GET /logout``: forget any login and go back to the app's page (a redirect)."""

    def get(self) -> None:
        """Clear the login cookie, then redirect to the app."""
        self.identity_provider.clear_login_cookie(self)
        self.redirect(url_path_join(self.base_url, "/"))


class TornadoPingOff:
    """A kernel websocket handler (Voila's or Jupyter Server's) pinged by Jupyter Server only."""

    def get_websocket_protocol(self):
        """Tornado's protocol with tornado's own ping off.

        Jupyter Server's ``ping_interval`` and ``ping_timeout`` are in milliseconds and drive its own
        ping (a ``PeriodicCallback`` that closes the socket after 90 s without a pong). Tornado reads
        the same two values as seconds: a ping every 30,000 s, never sent, and a warning that a 90,000
        timeout is longer than the interval. A timeout of one interval, which would silence tornado,
        makes Jupyter Server close every page's socket at its first ping, 30 s after it opened.
        """
        protocol = super().get_websocket_protocol()
        if protocol is not None:
            protocol.params.ping_interval = None
            protocol.params.ping_timeout = None
        return protocol


class KernelWebsocket(TornadoPingOff, VoilaKernelWebsocketHandler):
    """A page's kernel websocket in the app, pinged by Jupyter Server only (see :mod:`calcnb.serve.voila.app`)."""


class ServerKernelWebsocket(TornadoPingOff, KernelWebsocketHandler):
    """A page's kernel websocket on a Jupyter server (a hub's student's), pinged by Jupyter Server only."""


#: The exporters' sections of a Voila server's settings that may set its pages' language (Voila's own first).
EXPORTER_SECTIONS = ("VoilaExporter", "HTMLExporter")


def set_page_language(config: Config, language: str | None = None) -> str:
    """Have the pages Voila renders with ``config`` (its server's settings) say they are in ``language`` (by
    default the server's, :func:`calcnb.i18n.get_language`, from ``CALCNB_LANG``); return the pages' language.

    A page's ``<html lang>`` is the ``language_code`` of the exporter that renders it (nbconvert's, ``"en"``
    unless set), which Voila makes from its server's settings; one set on the command line is kept.

    >>> config = Config()
    >>> set_page_language(config, "pt"), config.VoilaExporter.language_code
    ('pt', 'pt')
    >>> set_page_language(Config({"HTMLExporter": {"language_code": "en"}}), "pt")
    'en'
    """
    for section in EXPORTER_SECTIONS:
        if section in config and "language_code" in config[section]:
            return config[section].language_code
    config.VoilaExporter.language_code = language or get_language()
    return config.VoilaExporter.language_code


class SecurityHeaders(web.OutputTransform):
    """Every response of the server, pages, files, errors and refusals alike, with the security headers of
    :mod:`calcnb.serve.shared.headers` (in place of Jupyter Server's narrower policy)."""

    def __init__(self, request: httputil.HTTPServerRequest) -> None:
        super().__init__(request)
        self.host = request.host

    def transform_first_chunk(
        self, status_code: int, headers: httputil.HTTPHeaders, chunk: bytes, finishing: bool
    ) -> tuple[int, httputil.HTTPHeaders, bytes]:
        for name, value in security_headers(self.host).items():
            headers[name] = value
        return status_code, headers, chunk


class AppVoila(Voila):
    """Voila with the routes and kernel websockets that :mod:`calcnb.serve.voila.app` describes, and its pages
    behind the caps and the class code (:mod:`calcnb.serve.voila.gate`)."""

    classes = [*Voila.classes, ClassroomGate]  # noqa: RUF012  (traitlets reads it as Voila does)

    def initialize(self, argv: list[str] | None = None) -> None:
        """Voila's set-up from ``argv`` and its config files; then its pages are in the server's language."""
        super().initialize(argv)
        set_page_language(self.config)

    def init_settings(self) -> dict:
        """Voila's settings, with this server's gate (its caps and class code, from the command line), and every
        response given the security headers (:class:`SecurityHeaders`)."""
        settings = super().init_settings()
        settings[GATE_SETTING] = ClassroomGate(parent=self)
        # tornado's own transforms, as it would choose them, then ours (tornado.web.Application's "transforms").
        compress = settings.get("compress_response") or settings.get("gzip")
        settings["transforms"] = [*([web.GZipContentEncoding] if compress else []), SecurityHeaders]
        return settings

    #: How often the server looks for the command that started it, in seconds.
    launcher_poll_seconds = 1.0

    def start(self) -> None:
        """Trust calcnb's own notebooks among those served, watch the launcher, then serve."""
        trust_shipped_notebooks(Path(self.notebook_path or self.root_dir))
        self.watch_launcher(LauncherWatch.from_environment())
        super().start()

    def watch_launcher(self, watch: LauncherWatch | None) -> None:
        """Stop (as on SIGTERM) once the command that started this server is gone; no watch, nothing to do."""
        if watch is None:
            return

        def look() -> None:
            if watch.gone():
                poll.stop()
                self.log.warning("The command that started this server (process %d) is gone: stopping.", watch.pid)
                ioloop.IOLoop.current().stop()

        poll = ioloop.PeriodicCallback(look, self.launcher_poll_seconds * 1000)
        poll.start()

    def init_handlers(self) -> list:
        """Voila's routes, with :data:`FILE_HANDLERS` and :class:`LogoutToApp` in place of Voila's own, and
        ``/readyz`` (:class:`~calcnb.serve.voila.gate.ReadyHandler`)."""
        provider = getattr(self, "identity_provider", None)  # made by Voila with Jupyter Server 2 only
        if provider is not None:
            provider.logout_handler_class = LogoutToApp
        handlers = []
        for pattern, handler, *rest in super().init_handlers():
            if handler is VoilaKernelWebsocketHandler:
                handler = KernelWebsocket
            handler = FILE_HANDLERS.get(handler, handler)
            handler = GATED_HANDLERS.get(handler, handler)
            handlers.append((pattern, handler, *rest))
        # The address a pupil's page asks to know the server is up (calcnb.serve.shared.gate_pages.server_watch_script).
        return [(url_path_join(self.base_url, READY_PATH), ReadyHandler), *handlers]


main = AppVoila.launch_instance

if __name__ == "__main__":
    main()
