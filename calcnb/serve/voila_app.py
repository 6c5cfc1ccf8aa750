"""The app's server: Voila, with the two routes Voila answers with an error of its own answering as they should.

``python -m calcnb.serve.voila_app`` takes Voila's command line (:func:`calcnb.serve.cli.voila_command`
builds it). Voila's standalone server answers ``GET /logout`` by rendering a page its templates do
not have, and any address under ``/voila/templates/`` that is not a template's static file
(``/voila/templates/calcnb/conf.json``) by failing to split it: both were HTTP 500, the answer of
a server in trouble. Here ``/logout`` forgets any login and goes back to the app's page (the app
has no accounts), and the rest of ``/voila/templates/`` is not found (404), as any missing file is.
Its websockets ask for the ping timeout tornado allows, so the first visit prints no warning about it.
"""

from __future__ import annotations

from jupyter_server.auth.logout import LogoutHandler
from jupyter_server.base.websocket import WS_PING_INTERVAL
from jupyter_server.utils import url_path_join
from tornado import web
from traitlets import default
from voila.app import Voila
from voila.static_file_handler import TemplateStaticFileHandler

__all__ = ["AppVoila", "LogoutToApp", "TemplateFiles", "main"]


class TemplateFiles(TemplateStaticFileHandler):
    """A template's static files, ``/voila/templates/NAME/static/PATH``; any other path there is not found."""

    def parse_url_path(self, path: str) -> str:
        """The file's path, or HTTP 404 for a path that names no template's static file."""
        parts = path.split("/", 2)
        if len(parts) < 3 or parts[1] != "static" or not parts[0] or not parts[2]:
            raise web.HTTPError(404)
        return super().parse_url_path(path)


class LogoutToApp(LogoutHandler):
    """``GET /logout``: forget any login and go back to the app's page (a redirect)."""

    def get(self) -> None:
        """Clear the login cookie, then redirect to the app."""
        self.identity_provider.clear_login_cookie(self)
        self.redirect(url_path_join(self.base_url, "/"))


class AppVoila(Voila):
    """Voila whose ``/logout`` and ``/voila/templates/`` answer as :mod:`calcnb.serve.voila_app` says."""

    @default("tornado_settings")
    def _tornado_settings_default(self) -> dict:
        # Jupyter Server asks for a ping timeout of three ping intervals, which tornado refuses (and says so,
        # alarmingly, at the first visit) and cuts to one interval: ask for that one interval.
        return {"ws_ping_timeout": WS_PING_INTERVAL}

    def init_handlers(self) -> list:
        """Voila's routes, with :class:`TemplateFiles` and :class:`LogoutToApp` in place of Voila's own."""
        provider = getattr(self, "identity_provider", None)  # made by Voila with Jupyter Server 2 only
        if provider is not None:
            provider.logout_handler_class = LogoutToApp
        handlers = []
        for pattern, handler, *rest in super().init_handlers():
            if handler is TemplateStaticFileHandler:
                handler = TemplateFiles
            handlers.append((pattern, handler, *rest))
        return handlers


main = AppVoila.launch_instance

if __name__ == "__main__":
    main()
