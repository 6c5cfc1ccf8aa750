"""What the widget tests share: the widget models open in this process."""

from __future__ import annotations

import warnings

import ipywidgets as widgets


def open_models() -> dict[str, widgets.Widget]:
    """Every widget model open in this process, by id."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # ipywidgets 8 keeps it for this use
        return dict(widgets.Widget.widgets)
