"""Enums that are their text: a value compares, prints and stores as the plain string it stands for.

Stored logs and saves keep the text (``"right"``, ``"won"``), so an enum here changes nothing on disk.
"""

from __future__ import annotations

from enum import Enum


class TextEnum(str, Enum):
    """A str enum that prints as its value (``str(Status.WON) == "won"``), so it compares and formats as text."""

    __str__ = str.__str__
    __format__ = str.__format__
