"""The coach: every legal move's chance with its interval, blind to the stock order; the review of a game."""

from __future__ import annotations

import random

import pytest
from game_support import late_game

from calcnb import Game
from calcnb.game.engine import Move
from calcnb.i18n import set_language
from calcnb.players.coach import (
    ANSWER_FUTURES,
    ANSWER_SECONDS,
    MINIMUM,
    Mistake,
    analyse,
    describe_move,
    example_game,
    game_to_review,
    review,
)
from calcnb.players.ladder import FirstFit, ReverseNeed
from calcnb.solver import COMPILED, solve


def test_analyse_gives_every_legal_move_once_best_first_with_an_interval_around_it():
    game = late_game(0, 8)
    chances = analyse(game, seconds=0.1, futures=8)
    assert sorted(map(str, (c.move for c in chances))) == sorted(map(str, game.legal_moves()))
    assert [c.chance for c in chances] == sorted((c.chance for c in chances), reverse=True)
    for chance in chances:
        low, high = chance.interval
        assert chance.futures >= MINIMUM and chance.won + chance.unknown <= chance.futures
        assert 0 <= low <= chance.chance <= high <= 1


def test_analyse_does_not_look_at_the_stock_order():
    game = late_game(3, 10)
    state = game.state
    stock = list(state.stock)
    random.Random(1).shuffle(stock)
    shuffled = state._replace(stock=tuple(stock))
    first = [(c.move, c.won, c.unknown) for c in analyse(state, seconds=0.0, futures=4)]
    assert [(c.move, c.won, c.unknown) for c in analyse(shuffled, seconds=0.0, futures=4)] == first


def test_with_the_stock_spent_one_future_is_the_whole_truth():
    game = Game.new(6)
    line = solve(game).moves
    game.play_many(line[:-3])
    chances = analyse(game)
    assert all(c.futures == 1 for c in chances) and chances[0].chance == 1.0
    game.play_many(line[-3:])
    assert analyse(game) == []


def test_chance_sentences_in_plain_words_in_both_languages():
    chance = analyse(late_game(0, 8), seconds=60.0, futures=4)[0]
    text = str(chance)
    assert f"wins about {round(100 * chance.chance)} in 100 futures" in text and "4 futures tried" in text
    assert describe_move(Move.parse("S>W2")) == "put it on waste 2"
    set_language("pt")
    try:
        assert "de 100 futuros" in str(chance)
        assert describe_move(Move.parse("W1>F3")) == "passar o topo do descarte 1 para a base 3"
    finally:
        set_language("en")


@pytest.mark.slow
def test_review_marks_the_decisions_that_lost_most_chance_with_a_better_move():
    start = late_game(5, 12)  # reverse need's position, 12 cards before the end; then first fit plays on
    game = Game.from_position(start.foundations, start.wastes, start.stock, start.pending)
    game.play_many(FirstFit().play(game).moves)
    result = review(game, worst=2, seconds=60.0, futures=8)
    assert result.decisions > 0
    assert len(result.mistakes) == 2
    losses = [mistake.lost_chance for mistake in result.mistakes]
    assert losses == sorted(losses, reverse=True) and all(loss > 0 for loss in losses)
    for mistake in result.mistakes:
        assert isinstance(mistake, Mistake)
        assert mistake.played.move is game.history[mistake.index]
        assert mistake.best.move in game.states[mistake.index].legal_moves()
        assert describe_move(mistake.best.move) in str(mistake)
    assert str(result).splitlines()[0].startswith(f"{result.decisions} decisions examined")


def test_with_no_time_left_the_minimum_of_futures_is_tried_and_the_words_say_so():
    game = late_game(1, 20)
    quick = analyse(game, seconds=0.0)
    assert {c.futures for c in quick} == {MINIMUM}
    longer = analyse(game, seconds=30.0, futures=12)
    assert {c.futures for c in longer} == {12}
    assert all(f"{MINIMUM} futures tried" in str(c) for c in quick)  # the words say how little was tried
    assert sorted(str(c.move) for c in quick) == sorted(str(c.move) for c in longer)


def test_a_card_on_either_of_two_same_waste_piles_gets_the_same_answer():
    game = Game.new(2)
    game.play(Move.parse("T"))
    assert sum(1 for pile in game.state.wastes if not pile) == 4
    chances = analyse(game, seconds=60.0, futures=4)
    on_wastes = [(c.won, c.unknown, c.futures) for c in chances if c.move.text.startswith("S>W")]
    assert len(on_wastes) == 4 and len(set(on_wastes)) == 1


def test_the_review_cell_reviews_the_finished_game_or_says_it_reviews_another():
    unfinished = Game.new(9)
    unfinished.play_many(ReverseNeed().play(9).moves[:10])
    reviewed, which = game_to_review(unfinished)
    assert reviewed.status != "playing" and reviewed.history
    assert reviewed.history == example_game().history
    assert which.startswith("The game on the board is not finished") and "first fit" in which
    assert f"({len(reviewed.history)} moves; {reviewed.status}, score {reviewed.score}/52)" in which
    finished = Game.new(9)
    finished.play_many(ReverseNeed().play(9).moves)
    reviewed, which = game_to_review(finished)
    assert reviewed is finished
    assert (
        which
        == f"The game you played on the board: lost after {len(finished.history)} moves, score {finished.score}/52."
    )
    set_language("pt")
    try:
        assert game_to_review(unfinished)[1].startswith("O jogo no tabuleiro ainda não acabou")
        assert game_to_review(finished)[1].startswith("O jogo que jogaste no tabuleiro: perdido")
    finally:
        set_language("en")


def test_the_default_analysis_stops_at_its_count_of_futures():
    """Compiled, a quarter of a second and 28 futures at most (so clicks do not queue); interpreted, as before."""
    assert ((0.25, 28) if COMPILED else (1.0, 64)) == (ANSWER_SECONDS, ANSWER_FUTURES)
    chances = analyse(late_game(0, 8), seconds=60.0)
    assert chances and all(chance.futures == ANSWER_FUTURES for chance in chances)
