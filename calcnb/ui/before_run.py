"""What a widget says in a notebook whose cells have not run yet.

JupyterLab shows a saved notebook's outputs as they were stored, and shows a widget's plain text until the
notebook has run (always, in a notebook not yet trusted, as every freshly copied one is). ipywidgets puts the
widget's repr there, which means nothing to a teacher opening a lesson; a :class:`ShownWhenRun` widget says
instead, in the notebook's language, what will appear in its place and how to make it appear.
"""

from __future__ import annotations

from typing import Any, ClassVar

import ipywidgets as widgets

from calcnb.i18n import message

__all__ = ["ShownWhenRun"]


class ShownWhenRun(widgets.DOMWidget):
    """A widget whose plain text (what a notebook shows before it runs) says what appears there once it runs.

    ``shown_as`` is the catalogue key that names it ("the board to play on"); a widget whose name takes values
    overrides :meth:`shown_text`. The repr is left alone: it is for programmers, the plain text for the reader.
    """

    shown_as: ClassVar[str] = "before_run.widget"

    def shown_text(self) -> str:
        """What appears in this widget's place once the notebook runs, in the current language."""
        return message(self.shown_as)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:  # None once the widget is closed: nothing is shown then
            bundle["text/plain"] = message("before_run.say", what=self.shown_text())
        return bundle
