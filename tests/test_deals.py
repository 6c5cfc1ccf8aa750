"""Deals: seeded shuffles that are the same everywhere, and one-line deal codes."""

from __future__ import annotations

import hashlib

import pytest

from calcnb import Card, Game
from calcnb.game.cards import DECK, parse_cards
from calcnb.game.deals import STOCK_SIZE, SeededRandom, check_starters, deal, format_deal, parse_deal, seeds
from calcnb.i18n import set_language

# Pinned: if one of these changes, every saved seed in every notebook deals a different game.
SEED_0 = (
    "A♥ 2♥ 3♣ 4♥ | A♦ 9♣ 10♣ 10♦ K♦ 7♥ A♣ K♣ 3♥ 5♠ 5♥ 2♣ 8♥ Q♦ 4♣ 5♣ 7♦ J♦ Q♥ 3♦ 9♠ 4♠ J♠ K♥ 10♥ 6♣"
    " K♠ 9♥ 2♠ 9♦ Q♣ 7♣ 10♠ 3♠ 6♠ 2♦ 6♦ 8♦ A♠ 7♠ 4♦ 8♣ 6♥ J♥ J♣ 8♠ 5♦ Q♠"
)
SEED_0_SPADES = (
    "AS 2S 3S 4S | 9D 4D 2H 5S 7H QS JS 10S 3D 7D 9S JD 10C 2D QC KS 8C 10D AC 6D 8D QH 10H KH 8H 4C 9H"
    " JH AD 9C 6H 7C 6C 6S 5D KC JC KD 5C 5H 4H 2C 7S 8S QD 3H AH 3C"
)


def documented_below(seed, count: int, bound: int) -> list[int]:
    """The recipe in the deals module's docstring, written out again: SHA-256 of
    ``calcnb:<seed>:<counter>``, big-endian 64-bit words, rejection against modulo bias."""
    words = []
    for counter in range(count * 2 + 4):
        digest = hashlib.sha256(f"calcnb:{seed}:{counter}".encode()).digest()
        words += [int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)]
    limit = (1 << 64) - (1 << 64) % bound
    return [word % bound for word in words if word < limit][:count]


# ------------------------------------------------------------------ seeds


def test_the_same_seed_gives_the_same_deal():
    assert deal(0) == deal(0)
    assert deal("lesson 3") == deal("lesson 3")
    assert Game.new(7).deal_code == Game.new(7).deal_code
    assert Game.new(7).state == Game.new(7).state


def test_pinned_deals_are_the_same_on_every_run_and_platform():
    assert format_deal(*deal(0)) == SEED_0
    assert format_deal(*deal(0, "A♠ 2♠ 3♠ 4♠"), ascii=True) == SEED_0_SPADES


def test_seeded_random_follows_its_documented_recipe():
    rng = SeededRandom(42)
    assert [rng.below(1000) for _ in range(20)] == documented_below(42, 20, 1000)
    rng = SeededRandom("x")
    assert [rng.below(7) for _ in range(30)] == documented_below("x", 30, 7)


def test_seeded_random_draws_cover_their_range_and_shuffle_permutes():
    rng = SeededRandom(1)
    draws = [rng.below(6) for _ in range(600)]
    assert set(draws) == set(range(6))
    assert all(60 <= draws.count(v) <= 140 for v in range(6))
    items = list(range(30))
    SeededRandom(1).shuffle(items)
    assert sorted(items) == list(range(30)) and items != list(range(30))


@pytest.mark.parametrize("seed", [1.5, True, None, ("a",), b"x"])
def test_a_seed_is_a_whole_number_or_a_string(seed):
    with pytest.raises(ValueError, match="a seed is a whole number or a string"):
        SeededRandom(seed)


def test_different_seeds_give_different_deals():
    codes = {format_deal(*deal(seed)) for seed in range(200)}
    assert len(codes) == 200
    assert deal(1) != deal(2)


@pytest.mark.parametrize("seed", [*range(20), "a", "calcnb", -5, 10**30])
def test_a_deal_is_an_a_2_3_4_and_the_other_48_cards(seed):
    starters, stock = deal(seed)
    assert [card.rank for card in starters] == [1, 2, 3, 4]
    assert len(stock) == STOCK_SIZE == 48
    assert sorted(starters + stock) == list(DECK)


def test_the_seed_chooses_the_starter_suits_unless_they_are_given():
    suits = {tuple(card.suit for card in deal(seed)[0]) for seed in range(100)}
    assert len(suits) > 20  # the seed really chooses
    starters, stock = deal(5, "A♣ 2♦ 3♥ 4♠")
    assert starters == parse_cards("A♣ 2♦ 3♥ 4♠")
    assert not set(starters) & set(stock)
    assert deal(5, ["AC", "2D", "3H", "4S"]) == (starters, stock)
    game = Game.new(5, starters="A♣ 2♦ 3♥ 4♠")
    assert game.deal_code == format_deal(starters, stock)
    assert game.seed == 5


@pytest.mark.parametrize(
    ("starters", "fault"),
    [
        ("A♣ 2♦ 3♥", "a deal needs 4 starters (an A, 2, 3 and 4); found 3"),
        ("A♣ 2♦ 3♥ 4♠ 5♠", "a deal needs 4 starters (an A, 2, 3 and 4); found 5"),
        ("2♣ A♦ 3♥ 4♠", "starter 1 must be of rank A (foundation 1 builds in steps of 1); found 2♣"),
        ("A♣ 2♦ 3♥ 5♠", "starter 4 must be of rank 4 (foundation 4 builds in steps of 4); found 5♠"),
    ],
)
def test_bad_starters_are_refused_naming_the_fault(starters, fault):
    with pytest.raises(ValueError) as caught:
        deal(1, starters)
    assert str(caught.value) == fault
    with pytest.raises(ValueError):
        Game.new(1, starters=starters)


def test_game_new_without_a_seed_records_a_fresh_one():
    game = Game.new()
    assert isinstance(game.seed, int)
    assert Game.new(game.seed).deal_code == game.deal_code


def test_seeds_names_a_run_of_deals():
    assert list(seeds(3)) == [0, 1, 2]
    assert list(seeds(2, start=10)) == [10, 11]


# ------------------------------------------------------------------ deal codes


@pytest.mark.parametrize("seed", range(30))
def test_deal_codes_round_trip_in_unicode_and_ascii(seed):
    starters, stock = deal(seed)
    code = format_deal(starters, stock)
    ascii_code = format_deal(starters, stock, ascii=True)
    assert ascii_code.isascii()
    assert parse_deal(code) == (starters, stock)
    assert parse_deal(ascii_code) == (starters, stock)
    assert parse_deal(ascii_code.lower()) == (starters, stock)
    game = Game.from_deal(ascii_code)
    assert game.deal_code == code  # the canonical form is the Unicode one
    assert Game.from_deal(code).state == Game.new(seed).state


def test_deal_code_shape():
    code = Game.new(0).deal_code
    assert code == SEED_0
    left, right = code.split(" | ")
    assert len(left.split()) == 4 and len(right.split()) == 48
    assert "\n" not in code


def test_the_deal_code_lists_the_stock_in_turning_order():
    game = Game.from_deal(SEED_0)
    stock = SEED_0.split("|")[1].split()
    for text in stock[:5]:
        game.play("T")
        assert str(game.state.pending) == text
        game.play("S>W1")


def _seed0_parts() -> tuple[list[str], list[str]]:
    left, right = SEED_0.split("|")
    return left.split(), right.split()


def _code(starters: list[str], stock: list[str]) -> str:
    return " ".join(starters) + " | " + " ".join(stock)


def test_a_duplicate_card_is_named():
    starters, stock = _seed0_parts()
    stock[10] = stock[3]  # 10♦ twice, 5♥ gone
    with pytest.raises(ValueError, match=r"^10♦ appears more than once$"):
        Game.from_deal(_code(starters, stock))
    # a starter repeated in the stock
    stock = _seed0_parts()[1]
    stock[0] = "A♥"
    with pytest.raises(ValueError, match=r"^A♥ appears more than once$"):
        parse_deal(_code(starters, stock))


def test_a_missing_card_is_named_with_the_wrong_count():
    starters, stock = _seed0_parts()
    del stock[5]  # 7♥
    with pytest.raises(ValueError) as caught:
        Game.from_deal(_code(starters, stock))
    assert str(caught.value) == (
        "a deal needs 48 stock cards; found 47; 7♥ missing: a game uses each of the 52 cards exactly once"
    )


def test_too_many_cards_is_a_duplicate():
    starters, stock = _seed0_parts()
    with pytest.raises(ValueError, match=r"^Q♠ appears more than once$"):
        parse_deal(_code(starters, [*stock, "Q♠"]))


def test_an_empty_stock_is_a_wrong_count():
    with pytest.raises(ValueError, match=r"^a deal needs 48 stock cards; found 0; "):
        parse_deal("A♣ 2♦ 3♥ 4♠ |")


def test_a_starter_of_the_wrong_rank_is_named():
    starters, stock = _seed0_parts()
    starters[2], stock[0] = "A♦", "3♣"  # swap the 3♣ starter with the A♦ at the top of the stock
    with pytest.raises(ValueError) as caught:
        Game.from_deal(_code(starters, stock))
    assert str(caught.value) == "starter 3 must be of rank 3 (foundation 3 builds in steps of 3); found A♦"


def test_a_wrong_number_of_starters_is_named():
    starters, stock = _seed0_parts()
    with pytest.raises(ValueError, match=r"^a deal needs 4 starters \(an A, 2, 3 and 4\); found 3$"):
        parse_deal(_code(starters[:3], [starters[3], *stock]))


@pytest.mark.parametrize(
    ("code", "fault"),
    [
        ("A♣ 2♦ 3♥ 4♠ 5♠ 6♠", "there is no '|' in"),
        ("", "there is no '|' in ''"),
        (None, "there is no '|' in None"),
        (42, "there is no '|' in 42"),
        ("A♣ 2♦ 3♥ 4♠ | XX", "'XX' is not a card"),
        ("A♣ 2♦ 3♥ 4Z | 5♠", "'4Z' is not a card"),
    ],
)
def test_text_that_is_not_a_deal_code_is_refused(code, fault):
    with pytest.raises(ValueError) as caught:
        parse_deal(code)
    assert fault in str(caught.value)


def test_deal_faults_in_portuguese():
    set_language("pt")
    starters, stock = _seed0_parts()
    stock[10] = stock[3]
    with pytest.raises(ValueError, match="10♦ aparece mais de uma vez"):
        parse_deal(_code(starters, stock))


def test_check_starters_returns_them_unchanged():
    cards = parse_cards("A♠ 2♠ 3♠ 4♠")
    assert check_starters(cards) == cards
    assert check_starters(list(cards)) == cards
    assert all(isinstance(card, Card) for card in check_starters(cards))
