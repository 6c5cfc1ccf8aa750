"""Every sentence the order explorer says is true, for every clock it offers and every step, in both languages.

The truth is worked out here by brute force (count round the clock and look), independently of
:mod:`calcnb.exercises.orders`, and each sentence's numbers and claims are checked against it.
"""

from __future__ import annotations

import math
import re

import pytest

from calcnb.exercises.orders import clock_verdict, walk
from calcnb.i18n import set_language
from calcnb.ui.explorer import OrderExplorer

CLOCKS = range(2, 25)  # the explorer's Ranks field runs from 2 to 24
STEPS = range(1, 25)
LANGUAGES = ("en", "pt")


def _counted(step: int, ranks: int) -> list[int]:
    """Count step, 2 × step, … round a clock of ``ranks`` (0 read as ``ranks``) until a value comes back."""
    seen: list[int] = []
    value = step % ranks or ranks
    while value not in seen:
        seen.append(value)
        value = (value + step) % ranks or ranks
    return seen


def _is_prime(number: int) -> bool:
    return number > 1 and all(number % divisor for divisor in range(2, number))


def _numbers(sentence: str) -> list[int]:
    return [int(found) for found in re.findall(r"\d+", sentence)]


@pytest.fixture(params=LANGUAGES)
def language(request):
    set_language(request.param)
    yield request.param
    set_language("en")


@pytest.mark.parametrize("ranks", CLOCKS)
def test_every_finding_is_true_on_every_clock_for_every_step(language, ranks):
    singular = {"en": (" is reached", "1 card:"), "pt": (" é alcançado", "1 carta:")}[language]
    plural = {"en": (" are reached", "cards:"), "pt": (" são alcançados", "cartas:")}[language]
    for step in STEPS:
        counted = _counted(step, ranks)
        missed = [rank for rank in range(1, ranks + 1) if rank not in counted]
        common = math.gcd(step, ranks)
        visited, reach, closes, why, *rest = walk(step, ranks).lines()
        context = f"step {step}, {ranks} ranks: "
        # the labels are numbers except on the clock of 13, where A, J, Q, K stand for 1, 11, 12, 13
        if ranks != 13:
            assert _numbers(visited) == counted, context + visited
        assert len(re.split("→", visited)) == len(counted), context + visited
        if missed:
            assert _numbers(reach)[:2] == [len(counted), ranks], context + reach
            if ranks != 13:
                assert _numbers(reach)[2:] == missed, context + reach
            assert (singular if len(counted) == 1 else plural)[0] in reach, context + reach
        else:
            assert _numbers(reach) == [ranks, len(counted)], context + reach
        assert _numbers(closes)[0] == len(counted), context + closes
        assert (singular if len(counted) == 1 else plural)[1] in closes, context + closes
        if common == 1:
            assert set(_numbers(why)) == {step, ranks, 1}, context + why
            assert not missed
        else:
            # the largest common factor, and so the count lands on 1 rank in it
            assert set(_numbers(why)) == {step, ranks, common, 1} and _numbers(why)[:3] == [step, ranks, common], (
                context + why
            )
            assert len(counted) * common == ranks and all(rank % common == 0 for rank in counted)
        if common == 1:
            position, verdict = rest
            inverse = _numbers(position)[0]
            assert step * inverse % ranks == 1 % ranks, context + position
            for rank in range(1, ranks + 1):  # rank r sits at place r × inverse, 0 read as the top
                place = rank * inverse % ranks or ranks
                assert counted[place - 1] == rank, context + position
        else:
            (verdict,) = rest
        assert verdict == clock_verdict(ranks)


@pytest.mark.parametrize("ranks", CLOCKS)
def test_the_verdict_on_a_clock_is_true(language, ranks):
    verdict = clock_verdict(ranks)
    broken = [step for step in range(1, ranks) if len(_counted(step, ranks)) < ranks]
    prime_word = {"en": " is prime", "pt": " é primo"}[language]
    game_word = {"en": "Calculation", "pt": "Cálculo"}[language]
    assert (prime_word in verdict) == _is_prime(ranks) == (not broken)
    # only the clock of 13 is the game's: no other clock is said to make its foundations work
    assert (game_word in verdict) == (ranks == 13)
    if broken:
        assert _numbers(verdict)[1:] == broken, verdict
    elif ranks > 2:
        assert _numbers(verdict)[:3] == [ranks, 1, ranks - 1], verdict


def test_the_prime_sentence_for_eleven_no_longer_speaks_of_the_game():
    set_language("en")
    assert clock_verdict(11) == "11 is prime: every step from 1 to 10 reaches every rank."
    assert "13 ranks" in clock_verdict(13)


def test_the_explorer_shows_the_same_sentences(language):
    explorer = OrderExplorer(step=6, ranks=15)
    assert explorer.text.splitlines() == walk(6, 15).lines()
