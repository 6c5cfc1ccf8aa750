"""The base of every refusal calcnb makes.

It sits below every other layer, so the language lookup, the rules and the servers all refuse
with the same kind of error; :mod:`calcnb.game.errors` holds the kinds of refusal built on it.
"""

from __future__ import annotations


class CalcnbError(ValueError):
    """Input calcnb refuses: the message says why, in the catalogue's language; nothing was changed."""
