"""The base of every refusal calcnb makes.

It sits below every other layer, so the language lookup, the rules and the servers all refuse
with the same kind of error; :mod:`calcnb.game.errors` holds the kinds of refusal built on it.
"""

from __future__ import annotations


class CalcnbError(ValueError):
    """Input calcnb refuses: the message says why, in the catalogue's language; nothing was changed.

    Most carry their reason as a message not yet worded (:class:`calcnb.i18n.Words`: a catalogue key and its
    values), so ``str(error)`` words it in the language in use when it is read: :attr:`key` and
    :attr:`values` give the reason to code that chooses its own words.
    """

    @property
    def key(self) -> str | None:
        """The catalogue key of the reason (``"card.bad"``), or None when the error holds plain text."""
        return getattr(self.args[0], "key", None) if self.args else None

    @property
    def values(self) -> dict[str, object]:
        """The values the reason's words need (``{"text": "'AX'"}``); empty when the error holds plain text."""
        return dict(getattr(self.args[0], "values", {})) if self.args else {}
