"""A game told in words: its status, what was taken back or played again, a save, two games compared."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from calcnb.game.engine import Move, State
from calcnb.game.game import Game, save_field
from calcnb.i18n import message

# ---------------------------------------------------------------- a game in words


def _and(items: Sequence[object]) -> str:
    """``items`` as a list in words: ``A``, ``A and B``, ``A, B and C`` (``e`` in Portuguese)."""
    texts = [str(item) for item in items]
    if len(texts) < 2:
        return "".join(texts)
    return message("lessons.and", first=", ".join(texts[:-1]), last=texts[-1])


def _yes_no(answer: bool) -> str:
    return message("lessons.yes") if answer else message("lessons.no")


def _moves(count: int) -> str:
    """``count`` moves, in words (``1 move``, ``103 moves``)."""
    return message("lessons.one_move") if count == 1 else message("lessons.moves", count=count)


def status_summary(position: Game | State) -> str:
    """Where a game or position stands, in words: its status and its score (``playing, score 51/52``)."""
    return message("lessons.status_summary", status=message(f"status.{position.status}"), score=position.score)


def game_summary(game: Game) -> str:
    """What a game has come to, in words: how many moves it has, then its status and score."""
    return message("lessons.game_summary", moves=_moves(len(game.history)), summary=status_summary(game))


def _moves_said(moves: Sequence[Move | None]) -> str:
    """The moves :meth:`Game.undo` or :meth:`Game.redo` returned (None: there was none), in words."""
    played = [move.text for move in moves if move is not None]
    return _and(played) if played else message("lessons.no_move")


def took_back(*moves: Move | None) -> str:
    """What undoing took back, in words: pass the moves :meth:`Game.undo` returned, in order."""
    return message("lessons.took_back", moves=_moves_said(moves))


def played_again(*moves: Move | None) -> str:
    """What redoing played again, in words: pass the moves :meth:`Game.redo` returned, in order."""
    return message("lessons.played_again", moves=_moves_said(moves))


def save_summary(save: Mapping[str, object]) -> str:
    """What a save (:meth:`Game.to_json`, read back as JSON) holds, in words: its fields and how many moves."""
    moves = save.get("moves")
    count = _moves(len(moves) if isinstance(moves, list) else 0)
    return message("lessons.save_summary", fields=", ".join(map(save_field, save)), moves=count)


def same_game(first: Game, second: Game) -> str:
    """Whether two games have played the same moves and reached the same position, in words."""
    return message(
        "lessons.same_game",
        moves=_yes_no(first.history == second.history),
        position=_yes_no(first.state == second.state),
    )
