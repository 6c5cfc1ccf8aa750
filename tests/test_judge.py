"""The judge is fair to every right answer: every form a student would write is right, in every exercise,
variant and language; a mark meaning "I don't know" is never right; no feedback names its exercise's answer.

The forms covered (``right_forms`` below), each also in quotes ("…", '…', «…», “…”), with a full stop, "!", ";"
or a doubtful "?" after it ("7?" is an answer), with spaces round it, and in capitals:

- a number: ``7``, ``7.``, ``7.0``, ``7.00``, ``7,0`` (the Portuguese decimal comma), ``x = 7``, ``x=7``, ``(7)``;
- a rank: its letter (``K``, ``k``), its words in every language (``king``, ``rei``, ``the king``, ``o rei``),
  ``13``, ``K (13)``, ``13 (K)``, ``K = 13``;
- a place: ``12``, ``12th`` (and the right suffix of 1st, 2nd, 3rd), ``12º``, ``12.º``, ``12ª``, ``12.ª``,
  ``12°``, ``place 12``, ``12th place``, ``position 12``, ``card number 12``, ``lugar 12``, ``no lugar 12``,
  ``o 12.º lugar``, the ordinal words ("twelfth", "décimo segundo", "décima segunda");
- no card: every word for it in every language ("none", "no card", "no cards", "nothing", "nenhum",
  "nenhuma", "nenhuma carta", "nada" ...);
- foundations: ``3``, ``F3``, ``f3``, ``B3``, ``+3``, ``foundation 3``, ``base 3``, ``the foundation 3``,
  ``a base 3``, and for several ``1 and 4``, ``1 e 4``, ``1, 4``, ``1/4``, ``F1 F4``, ``foundations 1 and 4``,
  ``bases 1 e 4``, ``both``, ``ambas``, ``ambos``, ``as duas``; a waste pile: "waste", "descarte", "none", "no card";
- yes or no: every word for them ("yes", "y", "sim", "s", "no", "n", "não", "nao").

The marks read as "I don't know" (never right, never wrong: ``DONT_KNOW_MARKS``): ``-``, ``—``, ``–``, ``?``,
``??``, ``...``, ``…``, ``_``, any string of dashes, dots and question marks, "idk", "I don't know",
"dont know", "dunno", "no idea", "não sei", "nao sei", "sei lá", "sei la".
"""

import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sweeps import SIZES, examples, sample_of_each

from calcnb.exercises.answers import DONT_KNOW, echo, read_foundations, read_place, read_rank
from calcnb.exercises.items import Item, judge, misconception_name, wrong_answers
from calcnb.exercises.tables import order_table
from calcnb.game.cards import RANK_COUNT, next_rank, rank_name
from calcnb.i18n import answer_words, set_language
from calcnb.lessons import BANK, MISCONCEPTIONS

LANGUAGES = ("en", "pt")
RANK_WORDS = {"ace": 1, "ten": 10, "jack": 11, "queen": 12, "king": 13}
SUFFIX = {1: "st", 2: "nd", 3: "rd"}


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def _variants() -> list[tuple[str, int]]:
    return [(exercise_id, variant) for exercise_id, kind in BANK.items() for variant in range(len(kind.variants))]


VARIANTS = _variants()


def _of_each_exercise(size: str) -> list[tuple[str, int]]:
    """Every variant of every exercise, or (the fast tier's sample) a dozen of each, spread over its variants
    (evidence-own has 5,150, all worked out by one function)."""
    return sample_of_each(VARIANTS, lambda where: where[0], size, most=12)


def _in_every_language(size: str) -> Iterator[tuple[str, str, int, Item]]:
    """``(language, exercise, variant, item)`` for the variants of :func:`_of_each_exercise`, in each language in
    turn: the language is set while its items are made and judged."""
    for language in LANGUAGES:
        set_language(language)
        for exercise_id, variant in _of_each_exercise(size):
            yield language, exercise_id, variant, BANK[exercise_id].item(variant)


def _number_forms(value: int) -> list[str]:
    decimals = [f"{value}.", f"{value}.0", f"{value}.00", f"{value},0"]  # "7,0": the Portuguese decimal comma
    return [str(value), *decimals, f"x = {value}", f"x={value}", f"({value})"]


def _rank_forms(value: int) -> list[str]:
    forms = _number_forms(value)
    name = rank_name(value)
    forms += [name, name.lower(), f"{name} ({value})", f"{value} ({name})", f"{name} = {value}"]
    for kind, kind_value in RANK_WORDS.items():
        if kind_value == value:
            words = sorted(answer_words(kind))
            forms += words + [f"the {word}" for word in words] + [f"o {word}" for word in words]
    return forms


def _place_forms(place: int) -> list[str]:
    forms = _number_forms(place)
    forms += [f"{place}{SUFFIX.get(place % 10 if place not in (11, 12, 13) else 0, 'th')}", f"{place}th"]
    forms += [f"{place}{mark}" for mark in ("º", ".º", "ª", ".ª", "°")]
    forms += [f"place {place}", f"{place}th place", f"lugar {place}", f"o {place}.º lugar", f"position {place}"]
    forms += [f"no lugar {place}", f"card number {place}"]
    forms += sorted(answer_words(f"place_{place}"))
    return forms


def _foundation_forms(foundations: frozenset[int]) -> list[str]:
    numbers = sorted(foundations)
    if len(numbers) == 1:
        (n,) = numbers
        worded = [f"foundation {n}", f"base {n}", f"the foundation {n}", f"a base {n}"]
        return [str(n), f"F{n}", f"f{n}", f"B{n}", f"+{n}", *worded]
    first, *rest = numbers
    others = " and ".join(map(str, rest))
    return [
        f"{first} and {others}",
        f"{first} e {others.replace('and', 'e')}",
        ", ".join(map(str, numbers)),
        "/".join(map(str, numbers)),
        " ".join(f"F{n}" for n in numbers),
        f"foundations {first} and {others}",
        f"bases {first} e {others.replace('and', 'e')}",
    ]


def right_forms(item: Item) -> list[str]:
    """Every form of ``item``'s right answer this test expects the judge to accept."""
    forms = [item.solution]
    for reading in item.accepted:
        if isinstance(reading, int):
            if item.kind == "place":
                forms += _place_forms(reading)
            elif item.solution != str(reading):  # a rank shown by its name, "K (13)"
                forms += _rank_forms(reading)
            else:
                forms += _number_forms(reading)
        elif isinstance(reading, frozenset):
            forms += _foundation_forms(reading)
        elif reading == "both":
            forms += sorted(answer_words("both"))
        elif reading == "none":
            forms += [*sorted(answer_words("none")), "None.", "No cards!", "«nenhuma carta»"]
        elif reading == "waste":
            forms += [*sorted(answer_words("waste")), "none", "no card", "nenhuma"]
        elif reading in ("yes", "no"):
            forms += sorted(answer_words(reading))
    return forms


WRAPPERS = ("{}", "{}.", "{}!", "{};", " {} ", '"{}"', "'{}'", "«{}»", "“{}”", "“{}.”", "{}?")
DONT_KNOW_MARKS = ("-", "—", "–", "?", "??", "???", "...", "…", "_", "- ?", "'?'")
DONT_KNOW_MARKS += ("idk", "IDK", "I don't know", "I don’t know", "dont know", "dunno", "no idea")
DONT_KNOW_MARKS += ("não sei", "Nao sei", "sei lá", "sei la", "Não sei.")


@pytest.mark.parametrize("size", SIZES)
def test_every_right_form_of_every_answer_is_right_in_every_variant_and_language(size):
    for language, exercise_id, variant, item in _in_every_language(size):
        for form in right_forms(item):
            verdict = judge(item, form)
            assert verdict.correct is True, (language, exercise_id, variant, form, verdict)


@settings(max_examples=examples(400), deadline=None)
@given(
    where=st.sampled_from(VARIANTS),
    language=st.sampled_from(LANGUAGES),
    pick=st.integers(min_value=0),
    wrapper=st.sampled_from(WRAPPERS),
    upper=st.booleans(),
)
def test_a_right_answer_in_quotes_with_punctuation_or_capitals_is_still_right(where, language, pick, wrapper, upper):
    set_language(language)
    item = BANK[where[0]].item(where[1])
    forms = right_forms(item)
    form = wrapper.format(forms[pick % len(forms)])
    if upper:
        form = form.upper()
    assert judge(item, form).correct is True, (where, language, form)


@pytest.mark.parametrize("size", SIZES)
def test_a_dont_know_mark_is_never_right_nor_wrong_and_is_answered_kindly(size):
    for _language, exercise_id, _variant, item in _in_every_language(size):
        for mark in DONT_KNOW_MARKS:
            verdict = judge(item, mark)
            assert verdict.correct is None and verdict.misconception is None, (exercise_id, mark, verdict)
            assert verdict.text.startswith("?")


@settings(max_examples=examples(300), deadline=None)
@given(
    where=st.sampled_from(VARIANTS),
    language=st.sampled_from(LANGUAGES),
    mark=st.text(alphabet="-‐–—―−?¿._… ", min_size=1, max_size=8),
)
def test_any_string_of_dashes_dots_and_question_marks_is_never_right(where, language, mark):
    set_language(language)
    assert judge(BANK[where[0]].item(where[1]), mark).correct is not True


def _answer_patterns(item: Item) -> list[re.Pattern[str]]:
    """The answer as a standalone token (written here independently of calcnb's own guard): the solution as
    shown, the right rank's name, the right number unless the question writes it ("1 to 13", "+3"), the
    foundation that takes the card, the words for none and waste."""

    def alone(token: str, flags: int = 0) -> re.Pattern[str]:
        return re.compile(rf"(?<![\w+\-−]){re.escape(token)}(?![\w⁻])", flags)

    patterns = [] if item.solution.isdecimal() else [alone(item.solution)]
    for reading in item.accepted:
        if isinstance(reading, int):
            if item.solution != str(reading):
                patterns.append(alone(rank_name(reading)))
            if not re.search(rf"(?<!\d){reading}(?!\d)", item.question):  # "1 to 13", "foundation +3"
                patterns.append(alone(str(reading)))
        elif isinstance(reading, frozenset) and len(reading) == 1:
            (number,) = reading
            patterns.append(re.compile(rf"(?i)\b(?:foundation|base)\s+\+?{number}(?!\w)"))
        elif reading in ("none", "waste"):
            words = answer_words(reading) | {"none", "nenhum", "waste", "descarte"}
            patterns += [alone(word, re.IGNORECASE) for word in words if len(word) > 1]
    return patterns


def _wrong_texts(item: Item) -> list[str]:
    """Answers the item recognises as wrong, typed: each reading of its wrong-answer map, and 0 to 100."""
    typed = [
        str(reading) if not isinstance(reading, frozenset) else " ".join(map(str, sorted(reading)))
        for reading in item.wrong
    ]
    typed = [item.typed.get(reading, text) for reading, text in zip(item.wrong, typed)]
    return [*typed, *map(str, range(101)), "A", "J", "Q", "K", "1/2", "0.5", "waste", "yes", "no", "both", "1 2 3 4"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_feedback_on_a_wrong_answer_names_the_answer_of_its_exercise(language, size):
    set_language(language)
    checked = 0
    for exercise_id, variant in _of_each_exercise(size):
        item = BANK[exercise_id].item(variant)
        if item.kind == "yes_no":
            continue  # a wrong "yes" is answered by "no" whatever the feedback says
        patterns = _answer_patterns(item)
        for text in _wrong_texts(item):
            verdict = judge(item, text)
            if verdict.correct is not False:
                continue
            reason = verdict.text.replace(echo(text), "", 1)
            for pattern in patterns:
                assert not pattern.search(reason), (exercise_id, variant, item.solution, text, verdict.text)
            checked += 1
        for hint in (item.other, judge(item, "?").text):
            assert not any(pattern.search(hint) for pattern in patterns), (exercise_id, variant, hint)
    assert checked > 3000


# ---------------------------------------------------------------- each defect of issue 34, as it was found


def _variant(exercise_id: str, *parameters: object) -> Item:
    return BANK[exercise_id].item(BANK[exercise_id].variants.index(tuple(parameters)))


def test_right_answers_that_were_refused_or_unread_are_right():
    inverse = _variant("inverse", 4)  # 4 × 10 = 40 = 3 × 13 + 1
    assert judge(inverse, "10.0").correct is True  # was the reciprocal misconception
    assert judge(inverse, "x = 10").correct is True and judge(inverse, "x=10").correct is True
    assert judge(inverse, "10,0").correct is True
    assert judge(inverse, "0.25").misconception == "reciprocal" and judge(inverse, "1/4").misconception == "reciprocal"
    clock = _variant("clock", 45)
    assert judge(clock, "6.0").correct is True and judge(clock, "6.").correct is True
    seven = next(item for item in map(BANK["next-plain"].item, range(9)) if item.accepted == {7})
    assert judge(seven, "7.0").correct is True
    twelve = next(item for item in map(BANK["position"].item, range(22)) if item.accepted == {12})
    for text in ("12.0", "12th", "12º", "12.º", "12ª", "twelfth", "décimo segundo"):
        assert judge(twelve, text).correct is True, text
    past = BANK["fits-past-the-king"].item(0)  # only foundation 3 takes A♠
    for text in ("foundation 3", "base 3", "F3", "3."):
        assert judge(past, text).correct is True, text
    two = BANK["fits-two-choices"].item(0)  # 5♥ fits foundations 1 and 4
    for language in LANGUAGES:
        set_language(language)
        for text in ("both", "ambas", "ambos", "1 e 4", "1 and 4"):
            assert judge(two, text).correct is True, (language, text)
    set_language("en")
    assert judge(past, "both").correct is False  # a single foundation takes it: "both" is wrong, not right
    for step in (1, 2, 3, 4):
        complete = _variant("next-complete", step)
        for text in ("no cards", "nenhuma carta", "none.", "no card", "nenhuma", "“none”"):
            assert judge(complete, text).correct is True, (step, text)
    king = BANK["clock-king"].item(0)
    assert judge(king, "13 (K)").correct is True and judge(king, "K (13)").correct is True


def test_a_dash_on_the_complete_foundation_question_is_dont_know_not_right():
    for step in (1, 2, 3, 4):
        complete = _variant("next-complete", step)
        for mark in ("-", "—"):
            verdict = judge(complete, mark)
            assert verdict.correct is None and verdict.text.startswith("?"), (step, mark, verdict)
    assert read_rank("—") == DONT_KNOW and read_foundations("?") == DONT_KNOW and read_place("não sei") == DONT_KNOW


def test_zero_on_the_complete_foundation_question_is_neither_right_nor_a_misconception():
    # A student who writes 0 for "which rank goes on a foundation with K on top" most likely means
    # "no card": 0 is no rank, so a teacher would ask for a rank or 'none' rather than mark it wrong,
    # and would not call it "0 for K". The judge does the same: not right, not wrong, no misconception.
    for step in (1, 2, 3, 4):
        verdict = judge(_variant("next-complete", step), "0")
        assert verdict.correct is None and verdict.misconception is None
        assert verdict.text.startswith("? 0 is not a rank") and "'none'" in verdict.text


def test_a_after_k_is_recognised_on_every_foundation():
    for step in (1, 2, 3, 4):
        complete = _variant("next-complete", step)
        for text in ("A", "ace", "ás", "1"):
            verdict = judge(complete, text)
            assert verdict.correct is False and verdict.misconception == "past_complete", (step, text)
        wrapped = judge(complete, rank_name(next_rank(RANK_COUNT, step)))
        assert wrapped.misconception == "past_complete"


def test_taking_13_away_says_exactly_how_many_more_times():
    clock = _variant("clock", 45)  # 45 → 32 → 19 → 6
    assert "take 13 away three times" in judge(clock, "45").text
    assert "take 13 away twice more" in judge(clock, "32").text
    assert "take 13 away once more" in judge(clock, "19").text
    assert "once more" not in judge(clock, "45").text + judge(clock, "32").text
    sixty_four = _variant("clock", 64)  # 64 → 51 → 38 → 25 → 12
    assert "take 13 away four times" in judge(sixty_four, "64").text
    for value in (51, 38, 25):
        assert judge(sixty_four, str(value)).misconception == "no_wraparound"
    # a number past 13 not on the way from 45 does not lead anywhere by taking 13s from it: start again
    assert "start again from 45" in judge(clock, "50").text
    set_language("pt")
    assert "tira 13 três vezes" in judge(_variant("clock", 45), "45").text
    assert "tira 13 mais duas vezes" in judge(_variant("clock", 45), "32").text


def test_every_number_on_the_way_down_is_told_the_right_count():
    words = {1: "once", 2: "twice", 3: "three times", 4: "four times", 5: "five times", 6: "six times"}
    for exercise_id in ("clock", "clock-king"):
        for item in map(BANK[exercise_id].item, range(len(BANK[exercise_id].variants))):
            (total,) = BANK[exercise_id].variants[item.variant]
            (answer,) = item.accepted
            for value in range(total, RANK_COUNT, -RANK_COUNT):
                assert f"take 13 away {words[(value - answer) // RANK_COUNT]}" in judge(item, str(value)).text


def test_zero_on_a_number_that_is_not_a_multiple_of_13_does_not_point_at_k():
    verdict = judge(_variant("clock", 45), "0")
    assert verdict.correct is False and "K" not in verdict.text
    assert verdict.misconception == "zero_not_on_clock"  # a real misconception: the class view names it too
    assert "zero_not_on_clock" in MISCONCEPTIONS and misconception_name("zero_not_on_clock").startswith("0")
    assert judge(BANK["clock-king"].item(0), "0").misconception == "zero_for_king"
    for item in map(BANK["clock"].item, range(len(BANK["clock"].variants))):
        assert judge(item, "0").misconception == "zero_not_on_clock"


def test_an_off_by_one_answer_does_not_give_the_answer_away():
    clock = _variant("clock", 45)
    for text in ("5", "7"):
        verdict = judge(clock, text)
        assert verdict.misconception == "off_by_one" and not re.search(r"(?<!\d)6(?!\d)", verdict.text), verdict


def test_visits_feedback_speaks_of_common_factors_not_gcd():
    for language, banned in (("en", "gcd"), ("pt", "mdc")):
        set_language(language)
        for item in map(BANK["visits"].item, range(len(BANK["visits"].variants))):
            (count,) = item.accepted
            _step, ranks = BANK["visits"].variants[item.variant]
            said = judge(item, str(ranks))
            assert said.misconception == "every_number_reached"
            assert banned not in said.text.lower() and banned not in item.why.lower()
            assert not re.search(rf"(?<!\d){count}(?!\d)", said.text.replace(str(ranks), "")), said.text
    set_language("en")
    nine = _variant("visits", 6, 9)  # 6 and 9 share 3, and the count lands on 3 numbers
    assert "share the factor 3" not in judge(nine, "9").text and "common factor" in judge(nine, "9").text


def test_the_order_table_labels_its_top_row_places():
    assert order_table().splitlines()[0].split("|")[0].strip() == "place"
    set_language("pt")
    assert order_table().splitlines()[0].split("|")[0].strip() == "lugar"


def test_the_teachers_list_of_misconceptions_names_the_zero_misconception():
    shown = {name for _typed, name, _said in wrong_answers(_variant("clock", 45))}
    assert misconception_name("zero_not_on_clock") in shown


def test_the_page_and_the_class_view_name_the_same_misconception_for_zero(tmp_path):
    from calcnb.classlog.readings import exercise_stats
    from calcnb.classlog.store import ClassLog
    from calcnb.classlog.summary import misconception_label
    from calcnb.ui.lesson import Exercise, add_answer_listener, remove_answer_listener

    log = ClassLog(tmp_path / "class.db").prepare()
    log.join("ana")
    add_answer_listener(heard := lambda attempt: log.record("ana", attempt))
    try:
        page = Exercise(_variant("clock", 45)).check("0")
    finally:
        remove_answer_listener(heard)
    (stats,) = exercise_stats(log.attempts())
    assert stats.misconceptions == {"zero_not_on_clock": 1}  # not "other"
    assert page.text.startswith("✗ Not 0: there is no 0 on the clock")
    assert misconception_label("zero_not_on_clock", BANK) == misconception_name(page.misconception)
    log.close()


@settings(max_examples=examples(300), deadline=None)
@given(
    where=st.sampled_from(VARIANTS),
    language=st.sampled_from(LANGUAGES),
    text=st.one_of(
        st.text(max_size=50),
        st.text(alphabet="0123456789.,=x ()/+-ºª°'\"«»“”!?;kKaAJQ", max_size=12),
        st.from_regex(r"[xX]? ?= ?\d{1,3}([.,]\d{0,3})?[.!?]?", fullmatch=True),
    ),
)
def test_the_judge_never_raises_on_any_variant_and_says_why_it_cannot_read(where, language, text):
    set_language(language)
    verdict = judge(BANK[where[0]].item(where[1]), text)
    assert verdict.correct in (True, False, None) and verdict.text
    assert verdict.text.startswith("?") == (verdict.correct is None)
