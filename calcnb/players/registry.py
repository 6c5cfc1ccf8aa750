"""One registry of players: the ladder, weakest first, that Watch offers and calcnb exports by name.

To add a player, write its class (a :class:`~calcnb.players.player.Player`) and list it in
:data:`LADDER`: Watch and the studies' tables read it from here; ``calcnb.<ClassName>`` is a line of the front
door's lazy table (``calcnb/__init__.py``), which ``tests/test_exports.py`` checks against the ladder.
Its ``name`` is its key (the same in every language); the catalogues word it as ``coach.player.<name>``.
"""

from __future__ import annotations

from calcnb.i18n import has_message, message
from calcnb.players.blind import Determinized
from calcnb.players.ladder import FirstFit, KingsApart, MonteCarlo, RandomPlayer, ReverseNeed
from calcnb.players.player import Player

__all__ = ["LADDER", "ladder", "player_class", "player_label"]

LADDER: tuple[type[Player], ...] = (RandomPlayer, FirstFit, ReverseNeed, KingsApart, MonteCarlo, Determinized)
"""Every player class, weakest first: from random moves to the determinized search."""


def ladder() -> dict[str, Player]:
    """One player of each class of :data:`LADDER` with its default settings, weakest first, by name."""
    players = [cls() for cls in LADDER]
    return {player.name: player for player in players}


def player_class(class_name: str) -> type[Player] | None:
    """The class of the ladder called ``class_name`` (``"MonteCarlo"``), or None for no such player."""
    for cls in LADDER:
        if cls.__name__ == class_name:
            return cls
    return None


def player_label(name: str) -> str:
    """A player's name (its key, the same in every language) as the current language words it."""
    key = "coach.player." + name.replace(" ", "_")
    return message(key) if has_message(key) else name
