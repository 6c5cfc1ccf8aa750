"""Games the player and coach tests start from: one reached late by a fair player, and a stock shuffled."""

from __future__ import annotations

import random

from calcnb.game.engine import State
from calcnb.game.game import Game
from calcnb.players.ladder import ReverseNeed


def late_game(seed: int, left: int) -> Game:
    """A game ``left`` cards before the end of the stock, reached by reverse need, with a card turned."""
    game = Game.new(seed)
    for move in ReverseNeed().play(seed).moves:
        if len(game.state.stock) <= left and game.state.pending is not None:
            break
        game.play(move)
    return game


def permuted_stock(state: State, rng: random.Random) -> State:
    """``state`` with its stock in another order (what a player who cannot see the stock must allow for)."""
    stock = list(state.stock)
    rng.shuffle(stock)
    return state._replace(stock=tuple(stock))
