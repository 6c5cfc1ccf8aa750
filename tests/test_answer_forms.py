"""Answers as pupils write them: every plausible right form is right, every hedge and card-for-count is refused.

The forms are made from each exercise's own right answer, for every variant, in English and Portuguese:
number words ("thirteen", "treze"), an article, a noun or a unit ("the 7", "o 7", "card J", "4 steps"), the
lesson's notation ("8 (mod 13)", "≡ 8", "x ≡ 8"), ordinals ("a 12.ª carta"), a division for a share
("8÷25") and an inequality for an interval ("0.63 < p < 0.81"). Two answers at once ("A K") are never right,
and a card's name where a count is asked ("A", "ás") is no count.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sweeps import examples

from calcnb.exercises.items import Item, judge
from calcnb.game.cards import RANK_COUNT, rank_name
from calcnb.i18n import set_language
from calcnb.lessons import BANK

LANGUAGES = ("en", "pt")
# Number words as a pupil writes them (test data: the judge reads them with text2num, not from this list).
WORDS = {
    "en": ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
           "twelve", "thirteen"],
    "pt": ["zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez", "onze", "doze",
           "treze"],
}  # fmt: skip
ORDINALS = {
    "en": ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
           "eleventh", "twelfth", "thirteenth"],
    "pt": ["", "primeira", "segunda", "terceira", "quarta", "quinta", "sexta", "sétima", "oitava", "nona", "décima",
           "décima primeira", "décima segunda", "décima terceira"],
}  # fmt: skip
CARD_KINDS = ("rank", "card", "number", "rank_or_none")
COUNT_KINDS = ("count", "count_or_none")


@cache
def _items(kinds: tuple[str, ...]) -> list[Item]:
    found = []
    for kind in BANK.values():
        for variant in range(len(kind.variants)):
            item = kind.item(variant)
            if item.kind in kinds:
                found.append(item)
    return found


def _answer(item: Item) -> int | None:
    numbers = [reading for reading in item.accepted if isinstance(reading, int) and not isinstance(reading, bool)]
    return numbers[0] if numbers else None


def right_forms(item: Item, language: str) -> list[str]:
    """Ways a pupil writes ``item``'s right answer, beyond the plain one."""
    answer = _answer(item)
    if answer is None:
        return []
    forms = [f"{answer} (mod 13)", f"{answer} mod 13", f"≡ {answer}", f"x ≡ {answer}"]
    if answer <= RANK_COUNT:
        forms.append(WORDS[language][answer])
    if language == "en":
        forms += [f"the {answer}"]
    else:
        forms += [f"o {answer}", f"a {answer}"]
    if item.kind in CARD_KINDS and 1 <= answer <= RANK_COUNT:
        name = rank_name(answer)
        forms += [f"card {name}", f"the card {name}"] if language == "en" else [f"carta {name}", f"a carta {name}"]
    if item.kind in COUNT_KINDS:
        forms += (
            [f"{answer} steps", f"{answer} cards"] if language == "en" else [f"{answer} passos", f"{answer} cartas"]
        )
    return forms


def place_forms(item: Item, language: str) -> list[str]:
    (place,) = [reading for reading in item.accepted if isinstance(reading, int)]
    if language == "en":
        return [f"the {place}th card" if place > 3 else f"the {ORDINALS['en'][place]} card", ORDINALS["en"][place]]
    return [f"a {place}.ª carta", f"a {ORDINALS['pt'][place]} carta", ORDINALS["pt"][place]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_right_form_of_a_number_or_card_is_right_on_every_variant(language):
    set_language(language)
    try:
        tried = 0
        for item in _items(CARD_KINDS + COUNT_KINDS):
            for form in right_forms(item, language):
                verdict = judge(item, form)
                assert verdict.correct is True, (language, item.exercise_id, item.variant, form, verdict.text)
                tried += 1
        assert tried > 1000
    finally:
        set_language("en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_place_is_read_as_an_ordinal_in_words_or_digits(language):
    set_language(language)
    try:
        for item in _items(("place",)):
            for form in place_forms(item, language):
                assert judge(item, form).correct is True, (language, item.variant, form)
    finally:
        set_language("en")


def test_a_share_as_a_division_and_an_interval_as_an_inequality_are_read():
    rate = BANK["evidence-rate"]
    for variant, (wins, deals) in enumerate(rate.variants):
        item = rate.item(variant)
        assert judge(item, f"{wins}÷{deals}").correct is True, (wins, deals)
        assert judge(item, f"{wins} ÷ {deals}").correct is True
    interval = BANK["evidence-interval"]
    for variant in range(0, len(interval.variants), 7):
        item = interval.item(variant)
        low, high = (part.strip() for part in item.solution.replace("–", " to ").split(" to ")[:2])
        for form in (f"{low} < p < {high}", f"{low}<p<{high}", f"{low} ≤ p ≤ {high}"):
            assert judge(item, form).correct is True, (item.solution, form)


@settings(max_examples=examples(300), deadline=None)
@given(
    index=st.integers(min_value=0),
    other=st.integers(min_value=1, max_value=RANK_COUNT),
    language=st.sampled_from(LANGUAGES),
    joiner=st.sampled_from([" ", ", ", " or ", " ou ", "/", " and "]),
    right_first=st.booleans(),
)
def test_two_answers_at_once_are_never_right_and_the_feedback_names_both(index, other, language, joiner, right_first):
    items = [item for item in _items(CARD_KINDS) if _answer(item) is not None and 1 <= _answer(item) <= RANK_COUNT]
    item = items[index % len(items)]
    answer = _answer(item)
    if other == answer:
        other = answer % RANK_COUNT + 1
    pair = [rank_name(answer), rank_name(other)]
    if not right_first:
        pair.reverse()
    if joiner == " " and pair[0] == "A" and not pair[1].isalpha():
        pair[0] = "K" if pair[1] != "K" else "Q"  # "A 10" is "the 10" (an article, as "a 10" in Portuguese)
    if joiner == "/" and all(name.isdecimal() for name in pair):
        joiner = " or "  # "2/9" is a fraction, and read as one
    set_language(language)
    try:
        verdict = judge(item, joiner.join(pair))
        assert verdict.correct is None, (item.exercise_id, joiner.join(pair), verdict.text)
        assert verdict.text.startswith("?") and pair[0] in verdict.text and pair[1] in verdict.text
    finally:
        set_language("en")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("typed", ["A", "a", "ace", "ás", "J", "K", "the king", "o rei", "A K", "Q K"])
def test_a_cards_name_is_no_count(language, typed):
    set_language(language)
    try:
        for item in _items(COUNT_KINDS):
            verdict = judge(item, typed)
            assert verdict.correct is None, (item.exercise_id, item.variant, typed, verdict.text)
            assert "rank" not in verdict.text.casefold()
    finally:
        set_language("en")


def test_an_article_before_one_answer_is_no_second_answer_but_a_before_a_card_letter_is():
    item = BANK["count-ones"].item(0)  # which card comes after 8, counting in ones: 9
    assert [judge(item, typed).correct for typed in ("the 9", "A 9", "the card 9")] == [True, True, True]
    king = next(item for item in _items(("card",)) if _answer(item) == RANK_COUNT)
    assert judge(king, "the K").correct is True and judge(king, "A K").correct is None  # ace or king: a hedge
    set_language("pt")
    try:
        assert [judge(item, typed).correct for typed in ("o 9", "a 9", "a carta 9")] == [True, True, True]
        assert judge(king, "o rei").correct is True and judge(king, "a K").correct is None
    finally:
        set_language("en")
