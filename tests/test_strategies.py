"""Players see only what a person sees, play legal games that replay through Game, and the Hint explains itself."""

import pickle
import random

import pytest
from game_support import permuted_stock
from hypothesis import given, settings
from hypothesis import strategies as st
from sweeps import examples

from calcnb import Game, Move, State
from calcnb.game.cards import DECK, parse_cards
from calcnb.game.engine import TURN
from calcnb.game.rules import MoveKind
from calcnb.i18n import catalogue, set_language
from calcnb.players.advice import advise, hint, hint_player, hint_player_for, hint_player_sentence
from calcnb.players.blind import MOST_ORDERS, Determinized
from calcnb.players.ladder import FirstFit, KingsApart, MonteCarlo, RandomPlayer, ReverseNeed
from calcnb.players.registry import LADDER, ladder
from calcnb.players.table import PlayerView
from calcnb.solver import COMPILED

FAST_PLAYERS = [RandomPlayer(), FirstFit(), ReverseNeed(), KingsApart()]
ALL_PLAYERS = [*FAST_PLAYERS, MonteCarlo(samples=4)]

MONTE_CARLO_HINT = hint_player_for(compiled=False)
"""The hint's player where the solver runs interpreted: the wording of its reasons is tested on it."""


def _mid_game(seed: int, moves: int) -> Game:
    """A game some way in, reached by reverse need, so every kind of decision appears."""
    game = Game.new(seed)
    for move in ReverseNeed().play(seed).moves[:moves]:
        game.play(move)
    return game


# ---------------------------------------------------------------- the view hides the stock order


def test_view_has_no_stock_order():
    state = Game.new(7).state
    view = PlayerView.of(state)
    assert view.stock_count == 48
    assert view.unseen == frozenset(state.stock)
    assert not hasattr(view, "stock")
    # a view of the same position with the stock in another order is the very same view
    assert PlayerView.of(permuted_stock(state, random.Random(1))) == view


@pytest.mark.parametrize("player", ALL_PLAYERS, ids=lambda p: p.name)
@pytest.mark.parametrize("seed, moves", [(3, 0), (3, 1), (11, 20), (11, 45), (19, 70), (23, 101)])
def test_choice_does_not_change_when_the_stock_is_permuted(player, seed, moves):
    state = _mid_game(seed, moves).state
    choice = player.choose(state)
    for trial in range(5):
        shuffled = permuted_stock(state, random.Random(trial))
        assert shuffled.stock != state.stock or len(state.stock) < 2
        assert player.choose(shuffled) is choice


@pytest.mark.parametrize("player", ALL_PLAYERS, ids=lambda p: p.name)
def test_choice_is_legal_and_none_only_at_the_end(player):
    for seed, moves in [(5, 0), (5, 33), (8, 60)]:
        game = _mid_game(seed, moves)
        move = player.choose(game)
        assert move in game.legal_moves()
    over = Game.new(5)
    over.play_many(FirstFit().play(5).moves)
    assert over.status == "lost"
    assert player.choose(over) is None


def test_choose_refuses_what_is_not_a_position():
    with pytest.raises(TypeError, match="State, a Game or a PlayerView"):
        FirstFit().choose("S>F1")
    with pytest.raises(TypeError, match="seed, a Game or a State"):
        FirstFit().play(3.5)


# ---------------------------------------------------------------- the fast loop agrees with the engine


@pytest.mark.parametrize("player", ALL_PLAYERS, ids=lambda p: p.name)
def test_moves_replay_through_game_to_the_same_score(player):
    seeds = range(40) if player.name != "monte carlo" else range(3)
    for seed in seeds:
        result = player.play(seed)
        game = Game.new(seed)
        game.play_many(result.moves)  # raises IllegalMove if the fast loop broke a rule
        assert game.score == result.score
        assert game.status == result.outcome  # the fast loop stops only when the game is over
        assert tuple(rank or 0 for rank in game.state.needs()) == result.needs


@pytest.mark.parametrize("player", [FirstFit(), ReverseNeed(), KingsApart()], ids=lambda p: p.name)
def test_fast_loop_makes_the_moves_choose_makes_through_the_public_api(player):
    for seed in (0, 1, 2):
        game = Game.new(seed)
        while (move := player.choose(game)) is not None:
            game.play(move)
        assert game.history == player.play(seed).moves


def test_random_player_is_reproducible_per_deal_and_differs_between_deals():
    player = RandomPlayer()
    assert player.play(4) == player.play(4)
    assert player.play(4).moves != player.play(5).moves
    assert player.play(4, rng=random.Random(1)) != player.play(4, rng=random.Random(2))


def test_players_win_sometimes_and_order_as_expected():
    """Over 300 deals reverse need wins some games and scores far above first fit, which scores above nothing."""
    seeds = range(300)
    mean = {p.name: sum(p.play(s).score for s in seeds) / len(seeds) for p in FAST_PLAYERS}
    wins = {p.name: sum(p.play(s).outcome == "won" for s in seeds) for p in FAST_PLAYERS}
    assert mean["reverse need"] > mean["first fit"] + 5
    assert mean["reverse need"] > mean["random"] + 5
    assert wins["reverse need"] > 0 and wins["kings apart"] > 0
    assert wins["first fit"] == 0


def test_first_fit_places_everything_on_waste_one():
    moves = FirstFit().play(9).moves
    assert {m.waste for m in moves if m.kind == MoveKind.STOCK_TO_WASTE} == {1}


def test_kings_apart_keeps_kings_on_their_own_pile():
    for seed in range(30):
        game = Game.new(seed)
        for move in KingsApart().play(seed).moves:
            if move.kind == MoveKind.STOCK_TO_WASTE and game.state.pending.rank == 13:
                assert move.waste == 4
            game.play(move)


def _position(foundations, wastes, pending) -> State:
    """A position whose stock holds every other card (its order never matters to a player)."""
    shown = {str(c) for pile in (*foundations, *wastes) for c in parse_cards(pile)} | {pending}
    stock = [card for card in DECK if str(card) not in shown]
    return State.from_position(foundations=foundations, wastes=wastes, stock=stock, pending=pending)


def test_a_card_that_fits_goes_to_its_foundation_first():
    state = _position(["A♣", "2♦", "3♥", "4♠"], [["K♣"], ["5♦"], [], []], "2♠")
    for player in FAST_PLAYERS[1:]:
        assert player.choose(state) == Move.parse("S>F1")


def test_reverse_need_puts_the_card_on_the_tightest_later_top():
    # How soon each rank is needed (1 = next), from position_in_order with one card per foundation:
    # 3: 2, 7: 4, J: 5, K: 12 (last everywhere)
    state = _position(["A♣", "2♦", "3♥", "4♠"], [["K♣"], ["3♦"], ["7♦"], ["J♦"]], "J♠")
    # J may not bury the 3 or the 7 (needed sooner); of the tops needed no sooner, the J is the tightest fit
    assert ReverseNeed().choose(state) == Move.parse("S>W4")
    state = _position(["A♣", "2♦", "3♥", "4♠"], [["K♣"], ["3♦"], ["7♦"], []], "J♠")
    assert ReverseNeed().choose(state) == Move.parse("S>W1")  # on the K rather than the empty pile


def test_reverse_need_buries_the_top_needed_latest_when_every_pile_is_sooner():
    state = _position(["A♣", "2♦", "3♥", "4♠"], [["3♦"], ["7♦"], ["J♦"], ["10♣"]], "K♠")
    # every top is needed before the K; the J (5) is needed latest of them (3: 2, 7: 4, 10: 4)
    assert ReverseNeed().choose(state) == Move.parse("S>W3")
    _, sentence = advise(state, MONTE_CARLO_HINT)
    assert "K♠" in sentence


def test_tie_between_foundations_prefers_the_one_whose_next_need_is_on_show():
    # F1 is at 5 (needs 6), F2 at 4 (needs 6): a 6 fits both; F2 then needs 8, which tops waste 1
    state = _position(["A♣ 2♣ 3♣ 4♣ 5♣", "2♦ 4♦", "3♥ 6♥", "4♠"], [["8♦"], [], [], []], "6♠")
    assert ReverseNeed().choose(state) == Move.parse("S>F2")
    assert FirstFit().choose(state) == Move.parse("S>F1")
    assert advise(state, MONTE_CARLO_HINT) == (
        Move.parse("S>F2"),
        "Play 6♠ on foundation 2 rather than foundation 1: foundation 2 then needs 8, which is on show.",
    )
    # with nothing on show, the foundation furthest behind: F3 (3 then 6) beside F1 (A to 5) and F2
    state = _position(["A♣ 2♣ 3♣ 4♣ 5♣", "2♦ 4♦", "3♥", "4♠"], [[], [], [], []], "6♠")
    assert advise(state, MONTE_CARLO_HINT) == (
        Move.parse("S>F3"),
        "Play 6♠ on foundation 3 rather than foundations 1 and 2: it holds the fewest cards, "
        "so it has the most still to come.",
    )
    set_language("pt")
    assert advise(state, MONTE_CARLO_HINT)[1].startswith("Joga 6♠ na base 3 e não nas bases 1 e 2:")


def test_players_pickle_for_process_pools():
    for player in ALL_PLAYERS:
        assert pickle.loads(pickle.dumps(player)) == player
    assert MonteCarlo(samples=4) != MonteCarlo(samples=5)


def test_monte_carlo_tries_each_distinct_pile_on_the_same_orders():
    player = MonteCarlo(samples=6)
    game = _mid_game(2, 9)
    while game.state.pending is None or any(m.kind != MoveKind.STOCK_TO_WASTE for m in game.legal_moves()):
        game.play(ReverseNeed().choose(game))
    pile, evaluation = player.evaluate(PlayerView.of(game).table(), random.Random(3))
    empty = sum(1 for pile in game.state.wastes if not pile)
    assert len(evaluation) == 4 - max(0, empty - 1)
    assert evaluation[pile] == max(evaluation.values())
    for wins, total in evaluation.values():
        assert 0 <= wins <= 6 and 6 * game.state.score <= total <= 6 * 52


def test_ladder_is_listed_weakest_first():
    assert list(ladder()) == ["random", "first fit", "reverse need", "kings apart", "monte carlo", "determinized"]
    assert [cls.__name__ for cls in LADDER] == [
        "RandomPlayer",
        "FirstFit",
        "ReverseNeed",
        "KingsApart",
        "MonteCarlo",
        "Determinized",
    ]


# ---------------------------------------------------------------- the Hint


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 120))
def test_hint_is_a_legal_move_with_a_sentence_and_ignores_the_stock_order(seed, moves):
    full = ReverseNeed().play(seed).moves
    game = Game.new(seed)
    game.play_many(full[: min(moves, len(full))])
    move, sentence = hint(game)
    if game.status == "playing":
        assert move in game.legal_moves()
    else:
        assert move is None
    assert isinstance(sentence, str) and sentence.endswith(".") and "{" not in sentence
    shuffled = permuted_stock(game.state, random.Random(seed))
    assert hint(shuffled) == (move, sentence)


def test_hint_sentences_name_the_card_and_the_reason():
    game = Game.new(3)
    move, sentence = hint(game)
    assert move is TURN and "48 left" in sentence
    game.play(move)
    move, sentence = hint(game)
    assert move.kind == MoveKind.STOCK_TO_WASTE and str(game.state.pending) in sentence
    assert "every waste pile is empty" in sentence


def test_hint_at_a_foundation_move_explains_the_arithmetic_need():
    game = _mid_game(11, 0)
    while not any(m.kind == MoveKind.STOCK_TO_FOUNDATION for m in game.legal_moves()):
        game.play(ReverseNeed().choose(game))
    move, sentence = advise(game, MONTE_CARLO_HINT)
    assert move.kind == MoveKind.STOCK_TO_FOUNDATION
    assert f"foundation {move.foundation}" in sentence and str(game.state.pending) in sentence


def test_hint_monte_carlo_sentence_reports_its_imagined_orders():
    game = _mid_game(2, 30)
    while game.state.pending is None or any(m.kind != MoveKind.STOCK_TO_WASTE for m in game.legal_moves()):
        game.play(ReverseNeed().choose(game))
    _, sentence = advise(game, MONTE_CARLO_HINT)
    assert f"{MONTE_CARLO_HINT.samples} imagined orders" in sentence


def test_the_hint_uses_the_strongest_blind_player_where_the_solver_is_compiled():
    strongest, interpreted = hint_player_for(True), hint_player_for(False)
    assert isinstance(strongest, Determinized) and strongest.samples == MOST_ORDERS
    assert strongest.name == "determinized with 64 orders"
    assert isinstance(interpreted, MonteCarlo)
    assert hint_player() == (strongest if COMPILED else interpreted)
    assert hint_player_sentence(strongest) == (
        "Hints come from determinized with 64 orders, the strongest player here that sees only what you see: "
        "this computer runs the solver compiled, fast enough for it."
    )
    assert hint_player_sentence(interpreted) == (
        "Hints come from Monte Carlo: this installation runs the solver interpreted, too slow "
        "for the strongest player, determinized with 64 orders, to answer at once."
    )
    set_language("pt")
    assert hint_player_sentence(strongest).startswith("As sugestões vêm do jogador determinizado com 64 ordens")
    assert "interpretado" in hint_player_sentence(interpreted)


def test_the_determinized_hint_says_the_arithmetic_when_nothing_was_weighed():
    game = Game.new(3)
    move, sentence = advise(game, Determinized(samples=MOST_ORDERS))
    assert move is TURN and sentence == "Nothing else was worth weighing here."  # Watch's words for it
    if COMPILED:  # the hint itself: the rules' arithmetic is the whole reason
        assert hint(game) == (TURN, "Turn the next card (48 left): no card on show fits a foundation.")
        game.play(TURN)
        move, sentence = hint(game)
        assert move.kind == MoveKind.STOCK_TO_WASTE and "every waste pile is empty" in sentence


def test_hint_at_the_end_says_the_game_is_over():
    game = Game.new(5)
    game.play_many(FirstFit().play(5).moves)
    assert hint(game) == (None, "No move is left: the game is lost.")


def test_hint_speaks_portuguese():
    game = Game.new(3)
    set_language("pt")
    move, sentence = hint(game)
    assert move is TURN and sentence.startswith("Vira a próxima carta")


def test_hint_messages_exist_in_both_languages():
    english = {k for k in catalogue("en") if k.startswith("hint.")}
    assert english and english == {k for k in catalogue("pt") if k.startswith("hint.")}


def test_hint_at_a_won_game_says_so():
    seed = 32  # reverse need wins this deal
    game = Game.new(seed)
    game.play_many(ReverseNeed().play(seed).moves)
    assert game.status == "won"
    assert hint(game) == (None, "The game is won: there is nothing left to do.")
