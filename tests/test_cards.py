"""Cards, their text forms, and the modular arithmetic of the four foundation orders."""

from __future__ import annotations

import copy
import pickle

import pytest
from reference_rules import SEED_ORDER_TEXT

from calcnb import Card, foundation_order, modular_inverse, next_rank, position_in_order, rank_name
from calcnb.game.cards import DECK, SUITS, full_deck, parse_cards
from calcnb.i18n import set_language

# The seed's table of complete foundation orders, typed in from seeds/000 ("Legal actions").
SEED_TABLE = {
    1: "A 2 3 4 5 6 7 8 9 10 J Q K",
    2: "2 4 6 8 10 Q A 3 5 7 9 J K",
    3: "3 6 9 Q 2 5 8 J A 4 7 10 K",
    4: "4 8 Q 3 7 J 2 6 10 A 5 9 K",
}
RANK_OF_NAME = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}


# ------------------------------------------------------------------ parsing and printing


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("A♠", 1, "♠"),
        ("AS", 1, "♠"),
        ("as", 1, "♠"),
        ("10♦", 10, "♦"),
        ("10D", 10, "♦"),
        ("10d", 10, "♦"),
        ("TD", 10, "♦"),
        ("td", 10, "♦"),
        ("q♦", 12, "♦"),
        ("Q♦", 12, "♦"),
        ("kh", 13, "♥"),
        ("J♣", 11, "♣"),
        ("2c", 2, "♣"),
        (" 7H ", 7, "♥"),
        ("9♡", 9, "♥"),  # outline suit symbols count as the same suit
        ("3♧", 3, "♣"),
        ("4♢", 4, "♦"),
        ("5♤", 5, "♠"),
    ],
)
def test_parse_accepts_every_written_form(text, rank, suit):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert card is Card(rank, suit)


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_card_round_trips_through_its_text_forms(card):
    assert Card.parse(str(card)) is card
    assert Card.parse(card.ascii) is card
    assert Card.parse(card.ascii.lower()) is card
    assert Card.parse(str(card).lower()) is card
    assert eval(repr(card), {"Card": Card}) is card
    assert Card.parse(card) is card


def test_text_forms():
    assert str(Card(1, "♠")) == "A♠"
    assert Card(1, "♠").ascii == "AS"
    assert str(Card(10, "D")) == "10♦"
    assert Card(10, "♦").ascii == "10D"
    assert repr(Card(12, "♦")) == "Card.parse('Q♦')"
    assert [rank_name(r) for r in range(1, 14)] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert " ".join(str(Card(13, s)) for s in "CDHS") == "K♣ K♦ K♥ K♠"


@pytest.mark.parametrize(
    "text", ["", " ", "1S", "11D", "0H", "A", "S", "AX", "ZZ", "10", "♠", "A♠♠", "AS AS", "1O♦", "Joker"]
)
def test_bad_text_is_refused_naming_the_text(text):
    with pytest.raises(ValueError) as caught:
        Card.parse(text)
    assert f"{text!r} is not a card" in str(caught.value)


@pytest.mark.parametrize("thing", [None, 1, 1.5, ("A", "♠"), b"AS"])
def test_non_text_is_not_a_card(thing):
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse(thing)


@pytest.mark.parametrize("rank", [0, 14, -1, True, 1.0, "1", None])
def test_card_refuses_a_bad_rank(rank):
    with pytest.raises(ValueError, match="is not a rank"):
        Card(rank, "♠")


@pytest.mark.parametrize("suit", ["X", "", "spades", None, 3])
def test_card_refuses_a_bad_suit(suit):
    with pytest.raises(ValueError, match="is not a suit"):
        Card(1, suit)


def test_bad_card_in_portuguese():
    set_language("pt")
    with pytest.raises(ValueError, match="'ZZ' não é uma carta"):
        Card.parse("ZZ")


# ------------------------------------------------------------------ identity and the deck


def test_cards_are_interned_and_immutable():
    assert Card(1, "♠") is Card(1, "S") is Card(1, "s") is Card.parse("A♠")
    card = Card.parse("7♥")
    with pytest.raises(AttributeError):
        card.rank = 8
    with pytest.raises(AttributeError):
        del card.rank
    assert card.rank == 7
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_the_deck_has_52_distinct_cards_indexed_0_to_51():
    assert len(DECK) == 52 == len(set(DECK))
    assert full_deck() == DECK
    assert [card.index for card in DECK] == list(range(52))
    assert sorted(DECK, key=lambda c: c.index) == list(DECK)
    assert sorted(reversed(DECK)) == list(DECK)
    assert DECK[0] is Card.parse("A♣") and DECK[-1] is Card.parse("K♠")
    for card in DECK:
        assert card.index == (card.rank - 1) * 4 + SUITS.index(card.suit)
    assert sum(card.is_red for card in DECK) == 26
    assert Card.parse("A♦").is_red and Card.parse("A♥").is_red and not Card.parse("A♠").is_red


def test_parse_cards_reads_text_and_iterables():
    assert parse_cards("A♠ 10D, td") == (Card(1, "♠"), Card(10, "♦"), Card(10, "♦"))
    assert parse_cards(["A♠", Card(2, "♣")]) == (Card(1, "♠"), Card(2, "♣"))
    assert parse_cards(Card(3, "♥")) == (Card(3, "♥"),)
    assert parse_cards(None) == ()
    assert parse_cards("") == ()
    with pytest.raises(ValueError, match="'XX' is not a card"):
        parse_cards("A♠ XX")


# ------------------------------------------------------------------ the arithmetic


def test_next_rank_wraps_past_king():
    assert next_rank(12, 2) == 1  # the seed's worked example: 12 + 2 = 14 -> A
    assert next_rank(1, 1) == 2
    assert next_rank(12, 1) == 13
    assert next_rank(13, 1) == 1
    assert next_rank(11, 3) == 1
    assert next_rank(12, 4) == 3
    assert next_rank(13, 4) == 4
    for step in range(1, 5):
        for top in range(1, 14):
            expected = top + step if top + step <= 13 else top + step - 13
            assert next_rank(top, step) == expected


@pytest.mark.parametrize("step", [1, 2, 3, 4])
def test_the_four_orders_equal_the_seed_table(step):
    assert foundation_order(step) == tuple(RANK_OF_NAME[name] for name in SEED_TABLE[step].split())
    assert " ".join(map(rank_name, foundation_order(step))) == SEED_TABLE[step]
    assert SEED_TABLE[step] == SEED_ORDER_TEXT[step]  # the reference rules use the same table


@pytest.mark.parametrize("step", range(1, 13))
def test_every_step_visits_each_rank_once_and_ends_in_king(step):
    order = foundation_order(step)
    assert sorted(order) == list(range(1, 14))
    assert order[0] == step and order[-1] == 13


def test_other_pack_sizes_show_where_the_game_breaks():
    # 12 ranks: steps 2, 3 and 4 share a factor with 12 and return to their start early
    assert foundation_order(1, 12) == tuple(range(1, 13))
    assert foundation_order(2, 12) == (2, 4, 6, 8, 10, 12)
    assert foundation_order(3, 12) == (3, 6, 9, 12)
    assert foundation_order(4, 12) == (4, 8, 12)
    assert len(foundation_order(2, 16)) == 8
    assert len(foundation_order(3, 16)) == 16


@pytest.mark.parametrize("step", [1, 2, 3, 4])
def test_position_in_order_agrees_with_the_order(step):
    order = foundation_order(step)
    for place, rank in enumerate(order, start=1):
        assert position_in_order(rank, step) == place


def test_position_in_order_uses_the_modular_inverse():
    assert [modular_inverse(k) for k in (1, 2, 3, 4)] == [1, 7, 9, 10]
    for k in range(1, 13):
        assert k * modular_inverse(k) % 13 == 1
    for step in (1, 2, 3, 4):
        for rank in range(1, 14):
            assert position_in_order(rank, step) == (rank * modular_inverse(step)) % 13 or 13
    assert position_in_order(1, 2) == 7  # the seed's ace on foundation 2 comes 7th
    assert position_in_order(13, 3) == 13


def test_arithmetic_refuses_nonsense():
    with pytest.raises(ValueError, match="no inverse modulo 12"):
        modular_inverse(2, 12)
    with pytest.raises(ValueError, match="is not a rank"):
        position_in_order(14, 1)
    with pytest.raises(ValueError, match="is not a rank"):
        position_in_order(0, 1)
    for step in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="step must be a positive whole number"):
            next_rank(1, step)
        with pytest.raises(ValueError, match="step must be a positive whole number"):
            foundation_order(step)
    with pytest.raises(ValueError, match="the number of ranks must be a whole number of at least 2"):
        foundation_order(1, 1)
