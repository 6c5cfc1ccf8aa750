"""Advice in one sentence: a player's move for a position and why, for the Hint button and the coach's Watch.

:func:`advise` asks any player for its move and words its reason from the catalogue; :func:`hint`
is the advice of :func:`hint_player`, the strongest player that answers within a fraction of a second.
"""

from __future__ import annotations

from calcnb.game.cards import rank_name
from calcnb.game.engine import ALL_MOVES, TURN, Move, State
from calcnb.game.rules import NEXT, WIN_SCORE, MoveKind
from calcnb.i18n import message
from calcnb.players.blind import Determinized
from calcnb.players.ladder import MonteCarlo, RandomPlayer, ReverseNeed
from calcnb.players.player import Player
from calcnb.players.table import FOUNDATION_RANGE, Evaluation, PlayerView, Table

__all__ = ["advise", "hint", "hint_player"]

# ---------------------------------------------------------------- the Hint


def hint_player() -> Player:
    """The player behind :func:`hint`: the strongest that answers within a fraction of a second."""
    return _HINT_PLAYER


_HINT_PLAYER: Player = MonteCarlo(samples=128)


def advise(position: State | PlayerView | object, player: Player | None = None) -> tuple[Move | None, str]:
    """``player``'s move in ``position`` (a State, Game or view) and one plain sentence saying why.

    The player sees only what a person sees, never the order of the stock, and draws its random
    numbers from what is visible (:meth:`PlayerView.rng`), so the same position gets the same advice.
    Without ``player``, the hint's (:func:`hint_player`). Returns ``(None, sentence)`` when the game is over.
    """
    view = PlayerView.of(position)
    table = view.table()
    player = _HINT_PLAYER if player is None else player
    index, evaluation = player.deliberate(table.copy(), view.rng())
    if index is None:
        return None, message("hint.won" if table.score == WIN_SCORE else "hint.lost")
    move = ALL_MOVES[index]
    return move, _reason(view, table, move, player, evaluation)


def hint(position: State | PlayerView | object) -> tuple[Move | None, str]:
    """The Hint button's advice: :func:`advise` by :func:`hint_player`, a move and one sentence of why."""
    return advise(position)


def _reason(view: PlayerView, table: Table, move: Move, player: Player, evaluation: Evaluation) -> str:
    """Why ``player`` chose ``move``, in its own terms (the arithmetic of a foundation move or a turn)."""
    if isinstance(player, Determinized):
        return _determinized_reason(player, move)
    if move.kind == MoveKind.STOCK_TO_WASTE and not isinstance(player, ReverseNeed):
        return message("coach.widget.random" if isinstance(player, RandomPlayer) else "coach.widget.first_fit")
    return _why(view, table, move, player, evaluation)


def _determinized_reason(player: Determinized, move: Move) -> str:
    """What the determinized player found: the imagined futures won with ``move``, and how ties were broken."""
    results = player.last_results
    if not results:
        return message("coach.widget.forced")
    chosen = results[move.id]
    found = message("coach.widget.determinized", won=chosen.won, unknown=chosen.unknown, futures=chosen.futures)
    tied, choices = player.last_played_out, len(results)
    if len(tied) <= 1:
        return found + message("coach.widget.determinized_best", choices=choices)
    ending = "coach.widget.determinized_all_tied" if len(tied) == choices else "coach.widget.determinized_tie"
    tie_break = message("coach.widget.tie_break", rollouts=player.rollouts, wins=tied[move.id][0])
    return found + message(ending, tied=len(tied), choices=choices) + " " + tie_break


def _foundations_text(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return message("hint.one_foundation", number=numbers[0])
    return message("hint.some_foundations", numbers=", ".join(map(str, numbers[:-1])), last=numbers[-1])


def _why(view: PlayerView, table: Table, move: Move, player: Player, evaluation: Evaluation) -> str:
    if move is TURN:
        return message("hint.turn", left=table.stock_left)
    if move.kind != MoveKind.STOCK_TO_WASTE:
        card = view.pending if move.kind == MoveKind.STOCK_TO_FOUNDATION else view.wastes[move.waste_index][-1]
        k = move.foundation_index
        top = view.foundations[k][-1]
        rivals = [other + 1 for other in FOUNDATION_RANGE if other != k and table.need[other] == card.rank]
        if rivals:
            following = NEXT[k][card.rank]
            shown = view.pending is not None and view.pending is not card and view.pending.rank == following
            shown = shown or any(pile and pile[-1].rank == following for pile in view.wastes)
            return message(
                "hint.foundation_tie_shown" if shown else "hint.foundation_tie_behind",
                card=card,
                foundation=k + 1,
                others=_foundations_text(rivals),
                following=rank_name(following),
            )
        return message("hint.foundation", card=card, foundation=k + 1, top=top, step=k + 1)
    card = view.pending
    w = move.waste_index
    pile = view.wastes[w]
    if isinstance(player, MonteCarlo) and w in evaluation:
        wins, total = evaluation[w]
        samples = player.samples
        if not table.stock_left:  # nothing left unseen: every imagined order is the same one
            return message(
                "hint.monte_carlo_last", card=card, waste=w + 1, choices=len(evaluation), score=round(total / samples)
            )
        return message(
            "hint.monte_carlo",
            card=card,
            waste=w + 1,
            samples=samples,
            unseen=table.stock_left,
            choices=len(evaluation),
            wins=wins,
            average=f"{total / samples:.1f}",
        )
    card_soon = table.soonness(card.rank)
    if not pile:
        if not any(view.wastes):
            return message("hint.waste_first", card=card, waste=w + 1)
        return message("hint.waste_empty", card=card, waste=w + 1)
    top = pile[-1]
    top_soon = table.soonness(top.rank)
    values = dict(
        card=card,
        waste=w + 1,
        top=top,
        card_wait=card_soon - 1,
        card_foundation=table.soonest_foundation(card.rank) + 1,
        top_wait=top_soon - 1,
        top_foundation=table.soonest_foundation(top.rank) + 1,
    )
    return message("hint.waste_fit" if top_soon >= card_soon else "hint.waste_bury", **values)
