"""The seed's worked example: a consistent 52-card position, captions from the engine."""

import pytest

from calcnb import Card, Move, State, set_language
from calcnb.exercises.examples import Step, worked_example, worked_example_game
from calcnb.game.cards import DECK


def _rebuilt(state: State) -> State:
    return State.from_position(
        foundations=state.foundations, wastes=state.wastes, stock=state.stock, pending=state.pending
    )


@pytest.fixture
def steps():
    return worked_example()


def test_six_steps_each_a_legal_engine_position(steps):
    assert len(steps) == 6
    for step in steps:
        assert isinstance(step, Step)
        assert _rebuilt(step.state) == step.state  # from_position accepts it: all 52 cards once, orders right
        cards = [c for pile in step.state.foundations + step.state.wastes for c in pile]
        cards += list(step.state.stock) + [step.state.pending] * (step.state.pending is not None)
        assert sorted(cards) == sorted(DECK)
        assert step.caption and step.title


def test_the_position_is_the_seeds(steps):
    state = steps[0].state
    assert [card.rank for card in state.foundations[1]] == [2, 4, 6, 8, 10, 12]
    assert state.foundations[1][-1] is Card.parse("Q♦")
    assert state.foundations[0][-1].rank == 12 and len(state.foundations[0]) == 12
    assert state.pending is Card.parse("A♠")
    assert steps[0].last_move == Move.parse("T")
    assert state.status == "playing"
    # a card that would fit a foundation lies under a waste top
    needs = state.needs()
    assert any(card.rank in needs for pile in state.wastes for card in pile[:-1])
    # ...while no waste top fits, so the turned card is the whole story
    assert not any(move.kind == "waste_to_foundation" for move in state.legal_moves())
    assert "2-4-6-8-10-Q" in steps[0].caption


def test_why_the_ace_fits_foundation_two(steps):
    step = steps[1]
    assert step.highlight == (Move.parse("S>F2"),)
    assert step.state.is_legal("S>F2")
    assert step.state.explain("S>F2") in step.caption
    assert "12 + 2 = 14" in step.caption and "wraps past K to 1 (A)" in step.caption


def test_why_it_does_not_fit_foundation_one(steps):
    step = steps[2]
    assert step.highlight == (Move.parse("S>F1"),)
    reason = step.state.why_illegal("S>F1")
    assert reason is not None and reason in step.caption
    assert "12 + 1 = 13 (K)" in step.caption


def test_the_ace_is_played_onto_the_queen(steps):
    step = steps[3]
    assert step.state == steps[0].state.apply("S>F2")
    assert step.last_move == Move.parse("S>F2")
    assert step.state.foundations[1][-2:] == (Card.parse("Q♦"), Card.parse("A♠"))
    assert "regardless of suit" in step.caption


def test_foundation_two_now_awaits_a_three(steps):
    step = steps[4]
    assert step.state.needs()[1] == 3
    assert "1 + 2 = 3" in step.caption and "a 3 of any suit" in step.caption


def test_the_buried_card_may_not_be_taken(steps):
    step = steps[5]
    (blocked,) = step.highlight
    assert blocked.kind == "waste_to_foundation"
    pile = step.state.wastes[blocked.waste_index]
    need = step.state.needs()[blocked.foundation_index]
    assert any(card.rank == need for card in pile[:-1])  # it would fit, but it is buried
    reason = step.state.why_illegal(blocked)
    assert reason is not None and reason in step.caption
    assert str(pile[-1]) in step.caption


def test_captions_follow_the_language():
    english = [step.caption for step in worked_example()]
    set_language("pt")
    portuguese = worked_example()
    assert all(pt.caption != en for pt, en in zip(portuguese, english))
    assert "passa K e volta a 1 (A)" in portuguese[1].caption  # the engine's own Portuguese arithmetic
    assert portuguese[0].title == "A posição"


def test_the_example_game_plays_on():
    game = worked_example_game()
    assert game.state == worked_example()[0].state
    game.play("S>F2")
    assert game.state.needs()[1] == 3
    assert len(game.state.stock) > 0
