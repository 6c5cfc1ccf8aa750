"""The class server: one Solara process for the whole class, a virtual kernel (not a process) per pupil's page.

``python -m calcnb.serve.class_server.app NOTEBOOK`` serves the notebook (or a folder's notebooks) the way the
Voila server does, code hidden, on a classroom laptop: each visit runs the notebook in its own virtual
kernel (:mod:`calcnb.serve.class_server.page`), so a pupil costs megabytes and a fraction of a second, not a
Python process. In front of Solara sits its gate (:class:`calcnb.serve.class_server.gate.ClassGate`), the
same class code and caps as the Voila server's (:mod:`calcnb.serve.shared.caps`): the code page for a visitor
without the code's cookie, the refusal pages over a cap, and the same checks on the page's websocket (a pupil
cannot skip the page). Solara's assets come from the installed ``solara-assets`` (nothing is fetched from
outside), and Solara's telemetry is off.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import threading
import time
import warnings
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from calcnb.serve.class_server import kernel_pool
from calcnb.serve.class_server.gate import ASGIApp, ClassGate
from calcnb.serve.shared.caps import ClassDoor
from calcnb.serve.shared.launcher import LauncherWatch
from calcnb.serve.shared.notebooks import SERVED_VARIABLE, Served
from calcnb.serve.shared.settings import BUILD_SECONDS, LOCALHOST

__all__ = ["KERNEL_KEEP_SECONDS", "build_app", "main", "solara_environment"]

_log = logging.getLogger("calcnb.serve")

#: How long a visit's virtual kernel outlives its page (a closed tab, a lost connection): long enough for a
#: laptop that dozed off or a wifi that dropped to reconnect to the same page, short enough that a class's
#: closed tabs never pile up. Its places under the caps are freed at once, when the page's connection ends.
KERNEL_KEEP_SECONDS = 120


def solara_environment(environment: MutableMapping[str, str] | None = None) -> None:
    """Solara's settings for a class server, set in ``environment`` (this process's) before Solara is imported."""
    environment = os.environ if environment is None else environment
    environment["SOLARA_APP"] = "calcnb.serve.class_server.page"
    environment["SOLARA_TELEMETRY_MIXPANEL_ENABLE"] = "False"  # nothing leaves the classroom
    environment["SOLARA_KERNEL_CULL_TIMEOUT"] = f"{KERNEL_KEEP_SECONDS}s"
    environment["SOLARA_ASSETS_PROXY"] = "True"  # assets from the installed solara-assets, never a CDN
    environment["SOLARA_THEME_LOADER"] = "plain"  # the page says nothing of its server while it loads
    environment["SOLARA_THEME_SHOW_BANNER"] = "False"
    environment.setdefault("SOLARA_MODE", "production")


def build_app(
    target: Path,
    *,
    max_pages: int | None = None,
    pages_per_device: int | None = None,
    build_seconds: float = BUILD_SECONDS,
    kernels_ahead: int = 0,
) -> ASGIApp:
    """The class server's ASGI app for ``target`` (a notebook or a folder): Solara behind its gate.

    The class code is read from the environment once (:meth:`~calcnb.serve.shared.caps.ClassDoor.from_settings`).
    ``build_seconds``: how long one page's notebook may run before it is stopped and its pupil told.
    ``kernels_ahead``: how many pages' virtual kernels to keep made ahead (:mod:`.kernel_pool`; a server's, not a
    test's: 0 makes none), no more than ``max_pages``.
    """
    solara_environment()
    os.environ[SERVED_VARIABLE] = str(target)  # Solara reads the page module's routes as it is imported
    from solara.server import starlette as solara_starlette

    from calcnb.serve.class_server import sending
    from calcnb.serve.class_server.page import PAGE_TURNS, load_apps_in_turn, serve_target

    sending.install()  # a page's sends are queued for the loop, not waited for by its thread
    load_apps_in_turn()  # one arriving visit's work at a time beside the clicks (see the function)
    PAGE_TURNS.limit = build_seconds
    serve_target(target)
    # What is imported and warmed by now (Solara, calcnb, matplotlib, the notebooks' code) lives as long as the
    # server: frozen out of the garbage collector's sight, no full collection walks it again while a class waits.
    gc.collect()
    gc.freeze()
    if kernels_ahead > 0:
        kernel_pool.install(min(kernels_ahead, max_pages or kernels_ahead), busy=lambda: PAGE_TURNS.busy)
    door = ClassDoor.from_settings(max_pages, pages_per_device)
    return ClassGate(solara_starlette.app, door, served=Served(target))


def server_config(app: Any, host: str, port: int) -> Any:
    """The web server's settings for a class server (on a laptop or behind the hub): a ``uvicorn.Config``.

    Its websockets are not compressed (``permessage-deflate``): nearly all they carry is the board's PNG, compressed
    already, whose base64 deflate only shrinks by a quarter for about 3 ms of the server's processor a click, the
    processor a class shares, where a classroom's network has bytes to spare.
    """
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        proxy_headers=False,  # a pupil is known by the connection (or their hub name), never by a header's address
        log_level="warning",
        access_log=False,
        ws="websockets-sansio",
        ws_per_message_deflate=False,
    )


def main(argv: list[str] | None = None) -> None:
    """``python -m calcnb.serve.class_server.app NOTEBOOK --host H --port P``: serve until stopped."""
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m calcnb.serve.class_server.app")
    parser.add_argument("target", type=Path)
    parser.add_argument("--host", default=LOCALHOST)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--max-pages", type=int, default=None)
    parser.add_argument("--pages-per-device", type=int, default=None)
    parser.add_argument("--build-seconds", type=float, default=BUILD_SECONDS)
    arguments = parser.parse_args(argv)
    app = build_app(
        arguments.target,
        max_pages=arguments.max_pages,
        pages_per_device=arguments.pages_per_device,
        build_seconds=arguments.build_seconds,
        kernels_ahead=kernel_pool.POOL_SIZE,
    )
    # Solara's session cookie falls back to SameSite=Lax on plain http, as a class's local server is: not news.
    warnings.filterwarnings("ignore", message="Cookies with samesite=none require https")
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    _log.setLevel(logging.INFO)
    # A visitor's address is the connection's own (the gate reads no header for it).
    server = uvicorn.Server(server_config(app, arguments.host, arguments.port))
    watch = LauncherWatch.from_environment()
    if watch is not None:
        threading.Thread(target=_stop_when_gone, args=(watch, server), daemon=True).start()
    server.run()


def _stop_when_gone(watch: LauncherWatch, server: Any) -> None:
    """Stop the server once the command that started it is gone (killed outright, on any platform)."""
    while not server.should_exit:
        if watch.gone():
            _log.warning("calcnb: the command that started this server has gone; stopping")
            server.should_exit = True
            return
        time.sleep(1.0)


if __name__ == "__main__":
    main()
