"""Invariants of the rules over random play, found by hypothesis.

- always exactly the 52 cards, each once, and every foundation a start of its order;
- the score never falls;
- undo then redo restores the exact state;
- random illegal or malformed input (text and moves) never changes anything;
- saves load back to the same game.
"""

from __future__ import annotations

import json
import random

import pytest
import reference_rules as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sweeps import examples

from calcnb import Card, Game, IllegalMove, InvalidMove, Move, State, foundation_order
from calcnb.game.cards import DECK
from calcnb.game.deals import parse_deal
from calcnb.game.engine import ALL_MOVES
from calcnb.game.errors import quote

# whole games are long examples: fewer of them, each playing to the end
PLAY = settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
QUICK = settings(max_examples=examples(300), deadline=None)

seeds = st.one_of(st.integers(min_value=0, max_value=10**9), st.text(max_size=12))
# text a person might type: move-like and card-like fragments as well as anything at all
move_like = st.text(alphabet="TSWFtswf>0123456789 -", max_size=8)
card_like = st.text(alphabet="A23456789TJQKajqkt10CDHScdhs♣♦♥♠♧♢♡♤ ", max_size=5)
any_text = st.one_of(move_like, card_like, st.text(max_size=20))


def every_card(state: State) -> list[Card]:
    cards = [c for pile in state.foundations for c in pile] + [c for pile in state.wastes for c in pile]
    return cards + list(state.stock) + ([state.pending] if state.pending is not None else [])


def check_invariants(state: State) -> None:
    cards = every_card(state)
    assert len(cards) == 52
    assert set(cards) == set(DECK)
    for step, pile in enumerate(state.foundations, start=1):
        assert 1 <= len(pile) <= 13
        assert tuple(card.rank for card in pile) == foundation_order(step)[: len(pile)]
    assert state.score == sum(map(len, state.foundations))


def snapshot(game: Game) -> tuple:
    return game.state, game.history, game.redo_moves, game.states


def try_bad_input(game: Game, data: st.DataObject) -> None:
    """A refused move or a malformed text: it raises a ValueError and changes nothing."""
    before = snapshot(game)
    illegal = [move for move in ALL_MOVES if not game.is_legal(move)]
    attempt = data.draw(st.one_of(st.sampled_from(illegal), any_text), label="bad input")
    if isinstance(attempt, str):
        try:
            move = Move.parse(attempt)
        except InvalidMove:
            with pytest.raises(InvalidMove):
                game.play(attempt)
            assert snapshot(game) == before
            return
        if game.is_legal(move):
            return  # the text happened to name a legal move
    with pytest.raises(IllegalMove):
        game.play(attempt)
    with pytest.raises(ValueError):
        game.play_many([attempt, *game.legal_moves()[:1]])  # all or nothing
    assert snapshot(game) == before


@PLAY
@given(seed=seeds, data=st.data())
def test_random_play_keeps_every_invariant(seed, data):
    game = Game.new(seed)
    check_invariants(game.state)
    score = game.score
    while moves := game.legal_moves():
        if data.draw(st.booleans(), label="try bad input"):
            try_bad_input(game, data)
        previous = game.state
        move = data.draw(st.sampled_from(moves), label="move")
        assert game.play(move) is move
        check_invariants(game.state)
        assert game.score >= score
        score = game.score
        # undo then redo restores the exact state
        current, history = game.state, game.history
        assert game.undo() is move
        assert game.state == previous
        assert game.redo() is move
        assert (game.state, game.history) == (current, history)
    assert game.status in ("won", "lost")
    assert game.is_terminal()
    try_bad_input(game, data)


@PLAY
@given(seed=seeds, data=st.data())
def test_saves_load_back_to_the_same_game_at_any_point(seed, data):
    game = Game.new(seed)
    steps = data.draw(st.integers(min_value=0, max_value=150), label="steps")
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(data.draw(st.sampled_from(moves), label="move"))
    undo = data.draw(st.integers(min_value=0, max_value=5), label="undo")
    for _ in range(undo):
        game.undo()
    text = game.to_json()
    loaded = Game.from_json(text)
    assert loaded.state == game.state
    assert loaded.history == game.history
    assert loaded.deal_code == game.deal_code
    assert loaded.seed == game.seed
    # and a game begun from that position saves and loads too
    state = game.state
    positioned = Game.from_position(state.foundations, state.wastes, state.stock, state.pending)
    assert Game.from_json(positioned.to_json()).state == state


@PLAY
@given(seed=seeds, data=st.data())
def test_a_tampered_save_is_refused_at_its_first_bad_move(seed, data):
    game = Game.new(seed)
    for _ in range(data.draw(st.integers(min_value=1, max_value=80), label="steps")):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(data.draw(st.sampled_from(moves), label="move"))
    save = json.loads(game.to_json())
    number = data.draw(st.integers(min_value=0, max_value=len(save["moves"]) - 1), label="which move")
    replay = Game.from_deal(game.deal_code)
    replay.play_many(save["moves"][:number])
    illegal = [m.text for m in ALL_MOVES if not replay.is_legal(m)]
    save["moves"][number] = data.draw(st.sampled_from(illegal), label="tampered move")
    with pytest.raises(
        ValueError, match=rf"^move {number + 1} of the save, '{save['moves'][number]}', cannot be played"
    ):
        Game.from_json(json.dumps(save))


@PLAY
@given(seed=st.integers(min_value=0, max_value=10**6), data=st.data())
def test_random_positions_keep_every_invariant_and_agree_with_the_reference(seed, data):
    rng = random.Random(seed)
    reference = ref.random_position(rng, tie=rng.random() < 0.5, complete=rng.random() < 0.5)
    state = State.from_position(**reference.as_text_piles())
    check_invariants(state)
    while moves := state.legal_moves():
        assert [m.text for m in moves] == reference.legal()
        move = data.draw(st.sampled_from(moves), label="move")
        state = state.apply(move)
        reference.play(move.text)
        check_invariants(state)
    assert state.status == reference.status


@QUICK
@given(text=any_text)
def test_any_text_is_a_card_or_a_clear_value_error(text):
    try:
        card = Card.parse(text)
    except ValueError as error:
        assert quote(text) in str(error)  # the input, cut to 80 characters of its repr
    else:
        assert card in DECK
        assert Card.parse(card.ascii) is card


@QUICK
@given(text=any_text)
def test_any_text_is_a_move_or_an_invalid_move(text):
    try:
        move = Move.parse(text)
    except InvalidMove as error:
        assert quote(text) in str(error)  # the input, cut to 80 characters of its repr
    else:
        assert move in ALL_MOVES
        assert "".join(text.split()).upper() == move.text


@QUICK
@given(text=st.one_of(st.text(max_size=60), st.builds(lambda a, b: a + "|" + b, card_like, card_like)))
def test_any_text_is_a_deal_or_a_value_error(text):
    with pytest.raises(ValueError):
        parse_deal(text)


@QUICK
@given(
    text=st.one_of(st.text(max_size=60), st.from_regex(r'\{"format": "calcnb-save", "version": 1.*', fullmatch=True))
)
def test_any_text_is_a_save_or_a_value_error(text):
    with pytest.raises(ValueError):
        Game.from_json(text)
