"""Advice in one sentence: a player's move for a position and why, for the Hint button and the coach's Watch.

:func:`advise` asks any player for its move and words its reason from the catalogue; :func:`hint`
is the advice of :func:`hint_player`: the strongest blind player where the solver runs compiled,
and where it runs interpreted the strongest that still answers within a fraction of a second
(:func:`hint_player_sentence` says which, and why).
"""

from __future__ import annotations

from calcnb.game.cards import rank_name
from calcnb.game.engine import ALL_MOVES, TURN, Move, State
from calcnb.game.rules import NEXT, WIN_SCORE, MoveKind
from calcnb.i18n import message
from calcnb.players.blind import MOST_ORDERS, Determinized
from calcnb.players.ladder import MonteCarlo, RandomPlayer, ReverseNeed
from calcnb.players.player import Player
from calcnb.players.table import FOUNDATION_RANGE, Evaluation, PlayerView, Table
from calcnb.solver import COMPILED

__all__ = ["advise", "hint", "hint_player", "hint_player_for", "hint_player_sentence"]

# ---------------------------------------------------------------- the Hint

HINT_SAMPLES_INTERPRETED = 128
"""Imagined orders of the Monte Carlo player that hints where the solver runs interpreted."""


def hint_player_for(compiled: bool) -> Player:
    """The hint's player where the solver runs compiled (``Determinized(samples=MOST_ORDERS)``, the strongest
    blind player, a fraction of a second a choice compiled) or interpreted (Monte Carlo, about as quick there)."""
    return Determinized(samples=MOST_ORDERS) if compiled else MonteCarlo(samples=HINT_SAMPLES_INTERPRETED)


def hint_player() -> Player:
    """The player behind :func:`hint` here: :func:`hint_player_for` this installation's solver."""
    return _HINT_PLAYER


_HINT_PLAYER: Player = hint_player_for(COMPILED)


def hint_player_sentence(player: Player | None = None) -> str:
    """One sentence for the person asking: which player the hints come from, and why that one."""
    player = _HINT_PLAYER if player is None else player
    name = message(f"coach.player.{player.name.replace(' ', '_')}")
    if isinstance(player, Determinized):
        return message("hint.player.strongest", player=name)
    strongest = message("coach.player." + Determinized(samples=MOST_ORDERS).name.replace(" ", "_"))
    return message("hint.player.interpreted", player=name, strongest=strongest)


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
    """The Hint button's advice: :func:`advise` by :func:`hint_player`, a move and one sentence of why.

    When the determinized player had nothing to weigh (one sensible move), a move the rules' arithmetic
    explains in full (:func:`_arithmetic_says_it_all`) is explained that way.
    """
    move, why = advise(position)
    player = _HINT_PLAYER
    if move is not None and isinstance(player, Determinized) and not player.last_results:
        view = PlayerView.of(position)
        table = view.table()
        if _arithmetic_says_it_all(view, table, move):
            why = _why(view, table, move, player, {})
    return move, why


def _arithmetic_says_it_all(view: PlayerView, table: Table, move: Move) -> bool:
    """Is the rules' arithmetic the whole reason for a move nothing else was weighed against?

    A turn that is the only move, the first card put on empty wastes, a card only one foundation takes.
    """
    if move is TURN:
        return len(table.legal()) == 1
    if move.kind == MoveKind.STOCK_TO_WASTE:
        return not any(view.wastes)
    return not _rivals(table, view, move)


def _rivals(table: Table, view: PlayerView, move: Move) -> list[int]:
    """The other foundations (numbered from 1) that need the card a foundation move plays."""
    card = view.pending if move.kind == MoveKind.STOCK_TO_FOUNDATION else view.wastes[move.waste_index][-1]
    k = move.foundation_index
    return [other + 1 for other in FOUNDATION_RANGE if other != k and table.need[other] == card.rank]


def _reason(view: PlayerView, table: Table, move: Move, player: Player, evaluation: Evaluation) -> str:
    """Why ``player`` chose ``move``, in its own terms (the arithmetic of a foundation move or a turn)."""
    if isinstance(player, Determinized):
        return _determinized_reason(player, move, table.stock_left)
    if move.kind == MoveKind.STOCK_TO_WASTE and not isinstance(player, ReverseNeed):
        return message("coach.widget.random" if isinstance(player, RandomPlayer) else "coach.widget.first_fit")
    return _why(view, table, move, player, evaluation)


def _determinized_reason(player: Determinized, move: Move, stock_left: int) -> str:
    """What the determinized player found: the imagined futures won with ``move``, and how ties were broken.

    With no card face down there is nothing to imagine: the solver saw the whole game, and says so.
    """
    results = player.last_results
    if not results:
        return message("coach.widget.forced")
    chosen = results[move.id]
    if not stock_left and not any(result.unknown for result in results.values()):
        return message("coach.widget.determinized_last_won" if chosen.won else "coach.widget.determinized_last_lost")
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
        rivals = _rivals(table, view, move)
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
