"""A notebook as one visitor's page of widgets: its prose as HTML, its code run in the visitor's own namespace.

The class server runs every pupil's page in one process, so a page cannot be a kernel of its own: each
visit runs the notebook's code cells in a fresh namespace, and what a cell shows (a widget it ends with,
what it prints or displays) joins the page in order, the way Voila shows the same notebook with its code
hidden. Printing and displaying are given to the cells as their own ``print`` and ``display``, so two
visitors running at once never write into each other's page (``sys.stdout`` is shared by the process).
Prose and printed text between two widgets are joined into one HTML widget: a page opens as few widget
models as it shows pieces.
"""

from __future__ import annotations

import ast
import html
import io
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import nbformat
from nbconvert.filters.markdown_mistune import markdown2html_mistune

__all__ = ["PAGE_CLASS", "PageBuilder", "notebook_cells", "notebook_page", "prose_html", "warm_up"]

#: The CSS class of a served page's outer box (the server's style sheet and the browser tests find the page by it).
PAGE_CLASS = "calcnb-page"


@lru_cache(maxsize=256)
def prose_html(markdown: str) -> str:
    """A markdown cell's HTML, as Jupyter renders it (the same renderer Voila uses)."""
    return markdown2html_mistune(markdown)


@lru_cache(maxsize=64)
def _read(path: Path, modified: float) -> tuple[tuple[str, str], ...]:
    notebook = nbformat.read(path, as_version=4)
    return tuple((cell.cell_type, cell.source) for cell in notebook.cells if cell.cell_type in ("markdown", "code"))


def notebook_cells(path: Path) -> tuple[tuple[str, str], ...]:
    """The notebook's markdown and code cells as ``(kind, source)`` pairs, read once while the file is unchanged."""
    return _read(path, path.stat().st_mtime)


def _preformatted(text: str) -> str:
    return f'<pre class="calcnb-output">{html.escape(text)}</pre>'


class PageBuilder:
    """Collects what one visit's cells show, in order: widgets as they are, text and prose joined as HTML."""

    def __init__(self) -> None:
        self.children: list[widgets.Widget] = []
        self._html: list[str] = []
        self._printed = io.StringIO()

    def _flush_printed(self) -> None:
        text = self._printed.getvalue()
        if text:
            self._html.append(_preformatted(text.rstrip("\n")))
            self._printed = io.StringIO()

    def _flush(self) -> None:
        self._flush_printed()
        if self._html:
            self.children.append(widgets.HTML("\n".join(self._html)))
            self._html = []

    def prose(self, markdown: str) -> None:
        """Add a markdown cell's text."""
        self._flush_printed()
        self._html.append(prose_html(markdown))

    def print(self, *values: object, sep: str | None = " ", end: str | None = "\n", **_ignored: object) -> None:
        """The cells' ``print``: the text goes on the page (a ``file=`` argument is ignored)."""
        self._printed.write((" " if sep is None else sep).join(str(value) for value in values))
        self._printed.write("\n" if end is None else end)

    def display(self, *values: object, **_ignored: object) -> None:
        """The cells' ``display``: widgets join the page, anything else as its text (its HTML when it has one)."""
        for value in values:
            self.show(value)

    def show(self, value: object) -> None:
        """Put one value on the page: a widget as itself, anything else as its HTML or its text."""
        if value is None:
            return
        if isinstance(value, widgets.Widget):
            self._flush()
            self.children.append(value)
            return
        self._flush_printed()
        to_html = getattr(value, "_repr_html_", None)
        rendered = to_html() if callable(to_html) else None
        self._html.append(rendered if isinstance(rendered, str) else _preformatted(repr(value)))

    def finish(self) -> list[widgets.Widget]:
        """The page's pieces, in order."""
        self._flush()
        return self.children


def run_cell(source: str, namespace: dict[str, Any], show: Callable[[object], None], filename: str) -> None:
    """Run one code cell in ``namespace``; a last bare expression's value is shown, as a notebook shows it."""
    tree = ast.parse(source, filename=filename)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, filename, "exec"), namespace)
    if last is not None:
        show(eval(compile(ast.Expression(last.value), filename, "eval"), namespace))


def notebook_page(path: Path) -> widgets.VBox:
    """One visitor's page of the notebook at ``path``: run now, in a namespace of its own.

    Raises whatever a cell raises: a page that cannot be built is not half shown.
    """
    builder = PageBuilder()
    namespace: dict[str, Any] = {"__name__": "__main__", "print": builder.print, "display": builder.display}
    for number, (kind, source) in enumerate(notebook_cells(path)):
        if kind == "markdown":
            builder.prose(source)
        elif source.strip():
            run_cell(source, namespace, builder.show, filename=f"<{path.name} cell {number}>")
    page = widgets.VBox(builder.finish(), _dom_classes=(PAGE_CLASS,))  # the class in its first state
    return page


def warm_up(path: Path) -> None:
    """Do ahead, once, what every visit to the notebook at ``path`` would otherwise first do: read it, render its
    prose and import what its code imports (the modules, matplotlib's fonts ...), so the first pupil to arrive
    waits no longer than the others. Nothing is run but the cells' import statements."""
    for kind, source in notebook_cells(path):
        if kind == "markdown":
            prose_html(source)
            continue
        try:
            tree = ast.parse(source)
        except SyntaxError:  # the visit will say so; nothing to warm
            continue
        imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
        if imports:
            exec(compile(ast.Module(body=imports, type_ignores=[]), f"<{path.name}>", "exec"), {"__name__": "__main__"})
