"""The page the class server gives each visitor: the served notebook, run in that visitor's virtual kernel.

Solara imports this module once (it is the server's app) and renders :func:`Page` once per visit, in the
visit's own virtual kernel: everything a visit holds (its widgets, its quiz and nickname, its class log
connection, its language) lives in that kernel's namespace and dies with it. The language is kept per
visit through :func:`calcnb.core.visits.use_visit_scope`, so a Portuguese page beside an English one in the same
process each speak their own. What is served is set once by :func:`serve_target`, before the server starts.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Callable, MutableMapping
from pathlib import Path

import ipywidgets as widgets
import solara
from solara.server import kernel_context

from calcnb.core.visits import use_visit_scope
from calcnb.i18n import message
from calcnb.serve.class_server.notebook_widgets import notebook_page, warm_up
from calcnb.serve.class_server.turns import TakingTurns, TooLong
from calcnb.serve.shared.notebooks import SERVED_VARIABLE, Served
from calcnb.serve.shared.settings import BUILD_SECONDS

__all__ = ["PAGE_TURNS", "Page", "Served", "load_apps_in_turn", "page_for", "routes", "serve_target"]
__all__ += ["visit_values"]


_log = logging.getLogger("calcnb.serve")

_served: Served | None = Served(Path(os.environ[SERVED_VARIABLE])) if os.environ.get(SERVED_VARIABLE) else None


def serve_target(target: Path) -> None:
    """Set what the server serves (once, before it starts)."""
    global _served
    _served = Served(Path(target))
    routes[:] = _routes(_served)
    for address in _served.listing() or [""]:
        notebook = _served.notebook(address)
        if notebook is not None:
            warm_up(notebook)


def visit_values() -> MutableMapping[str, object] | None:
    """The current visit's own values (its language ...), or None outside any visit."""
    if not kernel_context.has_current_context():
        return None
    return kernel_context.get_current_context().user_dicts.setdefault("calcnb", {})


use_visit_scope(visit_values)


def _listing_page(served: Served) -> widgets.Widget:
    links = "".join(f'<li><a href="{name}">{name}</a></li>' for name in served.listing())
    return widgets.HTML(f"<main><h1>calcnb</h1><ul>{links}</ul></main>")


def page_for(path: str) -> tuple[widgets.Widget, str]:
    """The visitor's page for the address ``path`` and its title; a page that fails says so, in plain words."""
    served = _served
    if served is None:
        raise RuntimeError("serve_target() was not called before the server started")
    notebook = served.notebook(path)
    if notebook is None:
        if served.target.is_dir() and not path.strip("/"):
            return _listing_page(served), "calcnb"
        return widgets.HTML(f"<main><h1>{message('serve.page_missing')}</h1></main>"), message("serve.page_missing")
    try:
        page = notebook_page(notebook)
    except Exception:
        _log.exception("calcnb: the page %s could not be built", notebook)
        failed = message("serve.page_failed")
        return widgets.HTML(f'<main><h1 role="alert">{failed}</h1></main>'), failed
    return page, message("serve.page_title", name=notebook.stem)


#: The turns pages are built in, each within its time limit (see :class:`TakingTurns`; ``--build-seconds``).
PAGE_TURNS = TakingTurns(limit=BUILD_SECONDS)


def _built_in_turn(path: str) -> tuple[widgets.Widget, str]:
    """The visit's page, built in its turn; a build past :data:`PAGE_TURNS`' limit is stopped, its pupil told."""
    # The build runs on a thread of its own (so it can be left behind): it takes the visit's virtual kernel along.
    visit = kernel_context.get_current_context() if kernel_context.has_current_context() else None

    def build() -> tuple[widgets.Widget, str]:
        if visit is None:
            return page_for(path)
        try:
            with visit:
                return page_for(path)
        finally:  # Solara keeps a slot per thread that entered a kernel: this thread's ends with it
            kernel_context.clear_context_for_thread(threading.current_thread())

    try:
        return PAGE_TURNS.run(build)
    except TooLong as late:
        _log.warning("calcnb: the page %s was still being built after %g s: stopped, the next pupil served", path,
                     late.seconds)  # fmt: skip
        said = message("serve.page_too_long")
        return widgets.HTML(f'<main><h1 role="alert">{said}</h1></main>'), said


def load_apps_in_turn() -> None:
    """Have Solara load each visit's whole app in the visit's turn of :data:`PAGE_TURNS`, not its page's build alone.

    Solara makes a visit's own widgets around the page (its app's frame and router) on the visit's thread. Made
    outside the turns, sixty visits arriving make theirs all at once, and a pupil's click, sharing Python's one
    thread at a time with all of them, waits the longer; in turn there is one visit's work at a time beside the
    clicks. The page's build inside takes the turn its thread already holds.
    """
    from solara.server import app as solara_app

    load: Callable[..., object] = solara_app.load_app_widget
    if getattr(load, "in_turn", False):
        return

    @functools.wraps(load)
    def load_in_turn(*args: object, **kwargs: object) -> object:
        with PAGE_TURNS:
            return load(*args, **kwargs)

    load_in_turn.in_turn = True  # type: ignore[attr-defined]
    solara_app.load_app_widget = load_in_turn  # what Solara's "run" calls, by this name


@solara.component
def Page() -> None:
    """One visit's page: built once for the visit, at the address it opened, in its turn (:data:`PAGE_TURNS`)."""
    router = solara.use_router()
    page, title = solara.use_memo(lambda: _built_in_turn(router.path), [router.path])
    solara.Title(title)
    solara.Column(children=[page], style={"padding": "0"})


@solara.component
def PageLayout(children: list | None = None) -> None:
    """Every page's frame: the page alone, with none of Solara's app layout (no bar, no navigation: a pupil's page
    links to no other), so a visit opens as few widget models as it shows."""
    solara.Div(children=children or [])


def _routes(served: Served | None) -> list[solara.Route]:
    """Solara's routes for what is served: ``/`` and, for a folder, one route per notebook (``more/second`` nests)."""
    root = solara.Route("/", component=Page, layout=PageLayout)
    if served is None:
        return [root]
    tree: dict = {}
    for name in served.listing():
        branch = tree
        for part in name.split("/"):
            branch = branch.setdefault(part, {})
        branch[_NOTEBOOK] = {}
    return [root, *_branches(tree)]


_NOTEBOOK = "/"  # in _routes' tree: the mark of a name that is a notebook (no file name holds a slash)


def _branches(tree: dict) -> list[solara.Route]:
    found = []
    for part, below in sorted(tree.items()):
        if part == _NOTEBOOK:
            continue
        children = _branches(below)
        if _NOTEBOOK in below and children:  # both a notebook and a folder: the notebook is the folder's index
            found.append(solara.Route(part, children=[solara.Route("/", component=Page), *children]))
        else:
            found.append(solara.Route(part, component=Page if _NOTEBOOK in below else None, children=children))
    return found


#: Solara's routes (read once, at start-up; see :data:`SERVED_VARIABLE`).
routes: list[solara.Route] = _routes(_served)
