"""Every sentence of "Is the 80% true?" that states a number is true of the numbers it shows, in both languages.

Each sentence is read back with its own template from the catalogue (``{low}``, ``{width}``… become the text
that stands there), its percentages are parsed as shown, and each claim is checked on them: a percentage is
a true rounding of what it stands for (never half-way: 13 of 40 is 32.5%, not 32% or 33%), a width is the
shown high bound less the shown low one, half a width is that width halved, "above 80%" and "below 80%" are
true of the bound shown, and the verdict (above, below, too few deals to tell) follows the bounds shown.
Every variant of every exercise of the lesson is checked (the question on a student's own deals for every
count of deals the lab allows), then the lab's sentences and the class view's pooled sample for a range of
wins and deals, and the page's sentence comparing the Wilson and the textbook intervals.
"""

from __future__ import annotations

import functools
import html
import json
import re
import string
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from calcnb.i18n import catalogue, get_language, message, set_language
from calcnb.lessons import lesson
from calcnb.lessons.evidence.exercises import (
    CLAIM,
    OWN_EXERCISE,
    PLAYER_KEY,
    TOLERANCE,
    Deal,
    pool,
    pooled_path,
    textbook_interval,
    verdict_of,
)
from calcnb.stats import wilson_interval

LANGUAGES = ("en", "pt")
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
KINDS = {kind.exercise_id: kind for kind in lesson("evidence").kinds}
CLAIM_SHOWN = Decimal(80)  # the claim, as every sentence shows it ("80%")


@pytest.fixture(params=LANGUAGES)
def language(request):
    set_language(request.param)
    yield request.param
    set_language("en")


# ---------------------------------------------------------------- reading a sentence back


def _pattern(key: str) -> re.Pattern:
    """The message ``key`` of the current language as a pattern: each ``{name}`` stands for some text."""
    return _language_pattern(get_language(), key)


@functools.cache
def _language_pattern(language: str, key: str) -> re.Pattern:
    template = catalogue(language).get(key) or catalogue("en")[key]
    parts, seen = [], set()
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
    return re.compile("".join(parts), re.DOTALL)


def _read(key: str, text: str) -> dict[str, str]:
    """The fields of ``text``, which must be the message ``key``, as they stand in it."""
    found = _pattern(key).fullmatch(text)
    assert found, f"not the message {key}: {text!r}"
    return found.groupdict()


def _is(key: str, text: str) -> bool:
    return _pattern(key).fullmatch(text) is not None


def _percent(text: str) -> Decimal:
    """A percentage as shown ("32.5%", "32,5%") as the number it shows."""
    value = _read("evidence.percent", text)["value"]
    mark = message("evidence.decimal_mark")
    assert re.fullmatch(rf"\d+({re.escape(mark)}\d+)?", value), f"no percentage of this language: {text!r}"
    return Decimal(value.replace(mark, "."))


def _bounds(text: str) -> tuple[Decimal, Decimal]:
    """An interval as shown ("from 6% to 51%") as its two bounds."""
    fields = _read("evidence.interval", text)
    return _percent(fields["low"]), _percent(fields["high"])


def _places(shown: Decimal) -> int:
    return max(0, -shown.as_tuple().exponent)


def _exact(share: float | Fraction) -> Fraction:
    """A share as an exact percentage: a rate as its fraction, a bound as the very number its float is."""
    return Fraction(share) * 100


def _rounds(shown: Decimal, share: float | Fraction) -> bool:
    """Is ``shown`` a true rounding of ``share`` (as a percentage): nearer to it than half its last place, or
    equal to it? Half-way is no rounding: the sentence could as well say the number above."""
    gap = abs(_exact(share) - Fraction(shown))
    return gap == 0 or gap < Fraction(1, 2 * 10 ** _places(shown))


def _check_rounding(shown: Decimal, share: float | Fraction, near_claim: bool, context: str) -> None:
    """``shown`` rounds ``share`` truly, on the side of the claim ``share`` is, with decimals only when a whole
    percentage would be half-way or (``near_claim``: the sentence sets it against 80%) on the wrong side."""
    assert _rounds(shown, share), f"{shown}% is not {float(_exact(share))}%: {context}"
    exact = _exact(share)
    if near_claim:
        assert (Fraction(shown) > 80) == (exact > 80) and (Fraction(shown) < 80) == (exact < 80), context
    if _places(shown):
        half_way = exact - int(exact) == Fraction(1, 2)
        whole = Fraction(int(exact + Fraction(1, 2)))
        wrong_side = near_claim and ((whole > 80) != (exact > 80) or (whole < 80) != (exact < 80))
        assert half_way or wrong_side, f"{shown}% has decimals it does not need: {context}"


def _claim_in(text: str) -> None:
    """The claim's number, where a message writes it out, is the lesson's claim."""
    assert message("evidence.percent", value=80) in text and CLAIM == 0.8


# ---------------------------------------------------------------- the exercises, every variant


def _items(exercise_id: str):
    kind = KINDS[exercise_id]
    for variant, arguments in enumerate(kind.variants):
        yield kind.item(variant), arguments


def test_every_rate_is_the_share_won_exactly(language):
    for item, (wins, deals) in _items("evidence-rate"):
        asked = _read("evidence.rate.question", item.question)
        assert (int(asked["wins"]), int(asked["deals"])) == (wins, deals)
        why = _read("evidence.rate.why", item.why)
        assert (int(why["wins"]), int(why["deals"])) == (wins, deals)
        # "14 ÷ 25 = 56%": an equation, so exact
        assert Fraction(_percent(why["percent"])) == Fraction(100 * wins, deals), item.why
        solution = _read("evidence.rate.solution", item.solution)
        share = Decimal(solution["share"].replace(message("evidence.decimal_mark"), "."))
        assert share * 100 == _percent(solution["percent"]) == _percent(why["percent"]), item.solution
        for reading in (wins / 100, wins / (deals + wins)):
            _misconception, said = item.reason_for(reading)
            for key in ("evidence.rate.count", "evidence.rate.whole"):
                if _is(key, said):
                    assert int(_read(key, said)["deals"]) == deals, said
        assert int(_read("evidence.rate.other", item.other)["deals"]) == deals


def test_every_interval_and_the_rate_it_starts_from_are_shown_as_they_are(language):
    assert TOLERANCE["interval"] == 0.02  # "each bound within two percentage points"
    two = {"en": "within two percentage points", "pt": "a menos de dois pontos percentuais"}[language]
    for item, (wins, deals) in _items("evidence-interval"):
        context = f"{wins} of {deals}: {item.why}"
        asked = _read("evidence.interval.question", item.question)
        assert (int(asked["wins"]), int(asked["deals"])) == (wins, deals)
        why = _read("evidence.interval.why", item.why)
        assert int(why["deals"]) == deals and two in item.why
        # "The rate is 32.5% of 40 deals": 13 of 40 is exactly half-way between 32% and 33%
        _check_rounding(_percent(why["rate"]), Fraction(wins, deals), False, context)
        wilson, textbook = _bounds(why["wilson"]), _bounds(why["textbook"])
        for shown, share in zip(wilson + textbook, wilson_interval(wins, deals) + textbook_interval(wins, deals)):
            _check_rounding(shown, share, False, context)
            assert _places(shown) == 0, context  # nothing here is set against 80%
        solution = _read("evidence.interval_short", item.solution)
        assert (_percent(solution["low"]), _percent(solution["high"])) == wilson, item.solution
        _misconception, said = item.reason_for((0.0, 1.0))
        assert int(_read("evidence.interval.no_n", said)["deals"]) == deals
        _misconception, said = item.reason_for((0.0, 0.01))
        outside = _read("evidence.interval.outside", said)
        assert (int(outside["wins"]), int(outside["deals"])) == (wins, deals)


def test_every_width_is_the_shown_high_less_the_shown_low_and_its_half_is_exact(language):
    for item, (wins, deals) in _items("evidence-width"):
        context = f"{wins} of {deals}: {item.question} {item.why}"
        asked = _read("evidence.width.question", item.question)
        assert (int(asked["wins"]), int(asked["deals"]), int(asked["more"])) == (wins, deals, 4 * deals)
        low, high = _bounds(asked["interval"])
        for shown, share in zip((low, high), wilson_interval(wins, deals)):
            _check_rounding(shown, share, False, context)
        width = _percent(asked["width"])
        assert width == high - low, context  # "from 67% to 83%, 16% wide", never 17%
        why = _read("evidence.width.why", item.why)
        assert _percent(why["width"]) == width, context
        half = _percent(why["half"])
        assert half * 2 == width, context  # "45% ÷ 2 = 22.5%", never 23%
        assert _percent(_read("evidence.width.solution", item.solution)["width"]) == half, context
        assert (int(why["wins"]), int(why["more"])) == (4 * wins, 4 * deals), context
        wider_low, wider_high = _bounds(why["interval"])
        for shown, share in zip((wider_low, wider_high), wilson_interval(4 * wins, 4 * deals)):
            _check_rounding(shown, share, False, context)
        assert _percent(why["computed"]) == wider_high - wider_low, context
        # the answer the sentences give is judged right, and so is the half of the true width
        assert item.accepts(float(half) / 100)


def _check_claim_item(item, wins: int, deals: int) -> None:
    context = f"{wins} of {deals}: {item.question}"
    asked = _read("evidence.claim.question", item.question)
    assert (int(asked["wins"]), int(asked["deals"])) == (wins, deals), context
    assert _percent(asked["claim"]) == CLAIM_SHOWN and CLAIM == 0.8
    rate = _percent(asked["rate"])  # "13 of 40 deals (32.5%)"
    _check_rounding(rate, Fraction(wins, deals), True, context)
    low, high = _bounds(asked["interval"])
    for shown, share in zip((low, high), wilson_interval(wins, deals)):
        _check_rounding(shown, share, True, context)
    # the verdict, read off the bounds as shown, is the one the item counts right
    shown_verdict = "above" if low > CLAIM_SHOWN else "below" if high < CLAIM_SHOWN else "unclear"
    assert item.accepted == {shown_verdict} == {verdict_of(wilson_interval(wins, deals))}, context
    why_key = f"evidence.claim.why_{shown_verdict}"
    why = _read(why_key, item.why)
    assert _bounds(why["interval"]) == (low, high) and _percent(why["claim"]) == CLAIM_SHOWN, item.why
    if shown_verdict == "unclear":  # "holds rates below 80% and above it"
        assert low < CLAIM_SHOWN < high, item.why
    assert item.solution == message(f"evidence.claim.choice_{shown_verdict}")
    if shown_verdict != "unclear":  # "(a) more than 80%", "(b) less than 80%"
        _claim_in(item.solution)
    # each wrong choice's feedback, on the numbers shown
    for _misconception, said in item.wrong.values():
        if "80" in said:
            _claim_in(said)
        if _is("evidence.claim.rate_above", said):  # "the rate is above 80% … reaches below 80% too"
            assert rate > CLAIM_SHOWN and low < CLAIM_SHOWN, f"{said} {context}"
        elif _is("evidence.claim.rate_below", said):  # "the rate is below 80% … reaches above 80% too"
            assert rate < CLAIM_SHOWN and high > CLAIM_SHOWN, f"{said} {context}"
        elif _is("evidence.claim.not_above", said):  # "the whole interval would have to lie above 80%. Does it?"
            assert not low > CLAIM_SHOWN, f"{said} {context}"
        elif _is("evidence.claim.not_below", said):
            assert not high < CLAIM_SHOWN, f"{said} {context}"
        elif _is("evidence.claim.proven", said):  # "an interval holding 80%"
            assert low <= CLAIM_SHOWN <= high, f"{said} {context}"
        elif _is("evidence.claim.proven_outside", said):  # "80% is not in it"
            assert not low <= CLAIM_SHOWN <= high, f"{said} {context}"
        else:
            assert said in {message("evidence.claim.enough_above"), message("evidence.claim.enough_below")}, said


def test_every_claim_question_and_its_feedback_are_true_of_the_bounds_shown(language):
    for item, (wins, deals) in _items("evidence-claim"):
        _check_claim_item(item, wins, deals)


@pytest.mark.slow
def test_the_question_on_a_students_own_deals_is_true_for_every_count(language):
    for item, (wins, deals) in _items(OWN_EXERCISE):
        _check_claim_item(item, wins, deals)


def test_the_bounds_that_rounding_would_put_on_80_are_shown_with_a_decimal(language):
    # 150 of 200: the interval's high bound is 80.5%, above 80%: "69% to 80%" with "it reaches above 80%" was false
    item = KINDS["evidence-claim"].item(KINDS["evidence-claim"].variants.index((150, 200)))
    low, high = _bounds(_read("evidence.claim.question", item.question)["interval"])
    assert (low, high) == (Decimal(69), Decimal("80.5"))
    kind = KINDS[OWN_EXERCISE]
    item = kind.item(kind.variants.index((13, 40)))
    assert _percent(_read("evidence.claim.question", item.question)["rate"]) == Decimal("32.5")


def test_every_pair_of_overlapping_intervals_overlaps_as_shown(language):
    for item, (first, second, deals) in _items("evidence-overlap"):
        context = item.question
        asked = _read("evidence.overlap.question", item.question)
        assert (int(asked["deals"]), int(asked["first"]), int(asked["second"])) == (deals, first, second)
        one, two = _bounds(asked["one"]), _bounds(asked["two"])
        for shown, share in zip(one + two, wilson_interval(first, deals) + wilson_interval(second, deals)):
            _check_rounding(shown, share, False, context)
        assert one[0] < two[1] and two[0] < one[1], context  # "The two intervals overlap"
        why = _read("evidence.overlap.why", item.why)  # "Both intervals hold the rates from … to …"
        low, high = _percent(why["low"]), _percent(why["high"])
        assert (low, high) == (max(one[0], two[0]), min(one[1], two[1])) and low < high, item.why


# ---------------------------------------------------------------- the lab, the pictures' words, the class view


def _text(value: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", value))


COUNTS = [
    (wins, deals) for deals in (1, 2, 3, 7, 10, 13, 20, 30, 37, 40, 50, 63, 80, 99, 100) for wins in range(deals + 1)
]


def test_the_labs_sentences_table_and_alt_text_show_the_numbers_of_its_question(language, monkeypatch):
    from calcnb.lessons.evidence import widgets as lab_module

    drawn = lab_module.png(lab_module.draw_batches([]))  # the words are tested here, not the picture: one for all
    monkeypatch.setattr(lab_module, "png", lambda figure: drawn)
    monkeypatch.setattr(lab_module, "draw_batches", lambda counts, interval=None: None)
    lab = lab_module.EvidenceLab(seed="Ana", class_key="key")
    for wins, deals in COUNTS:
        context = f"{wins} of {deals}"
        lab.played = [Deal(seed, PLAYER_KEY, index < wins, 0) for index, seed in enumerate(lab.block[:deals])]
        lab.show_interval()
        said = _read("evidence.lab.interval", _text(lab.said.value))
        assert (int(said["wins"]), int(said["deals"])) == (wins, deals), context
        low, high = _percent(said["low"]), _percent(said["high"])
        for shown, share in zip((low, high), wilson_interval(wins, deals)):
            _check_rounding(shown, share, True, context)
        shown_verdict = "above" if low > CLAIM_SHOWN else "below" if high < CLAIM_SHOWN else "unclear"
        assert lab.verdict == shown_verdict, context
        # the question under it shows the same numbers
        asked = _read("evidence.claim.question", lab.own.item.question)
        assert _bounds(asked["interval"]) == (low, high), context
        # the table's rates, the total's as the question's
        cells = re.findall(r"<t[dh]>([^<]*)</t[dh]>", lab.table.value)
        total = _percent(html.unescape(cells[-1]))
        assert total == _percent(asked["rate"]), context
        _check_rounding(total, Fraction(wins, deals), True, context)
        # the picture's words: each batch's rate, then the interval as the sentence says it
        both = f"{_pattern('evidence.alt.batches').pattern} {_pattern('evidence.alt.interval').pattern}"
        alt = re.fullmatch(both, lab.picture.alt, re.DOTALL)
        assert alt, lab.picture.alt
        assert (_percent(alt["low"]), _percent(alt["high"])) == (low, high), context
        assert _percent(alt["claim"]) == CLAIM_SHOWN
        rates = alt["rates"].split("; ")
        batch_counts = [(sum(deal.won for deal in lab.played[at : at + 10]), len(lab.played[at : at + 10]))
                        for at in range(0, deals, 10)]  # fmt: skip
        assert len(rates) == len(batch_counts), context
        for number, (said_rate, (batch_wins, batch_deals)) in enumerate(zip(rates, batch_counts), start=1):
            batch = _read("evidence.alt.batch", said_rate)
            assert int(batch["number"]) == number
            _check_rounding(_percent(batch["rate"]), Fraction(batch_wins, batch_deals), True, context)


POOLED = [(wins, deals) for deals in (1, 5, 10, 40, 41, 100, 200, 400) for wins in range(deals + 1)]


def test_the_class_views_pooled_sentences_and_picture_words_are_true_of_the_bounds_shown(language):
    from calcnb.lessons.evidence.panel import evidence_html
    from calcnb.lessons.evidence.widgets import pooled_alt

    for wins, deals in POOLED:
        context = f"{wins} of {deals}"
        rows = [dict(seed=seed, player=PLAYER_KEY, won=seed < wins, nickname="ana") for seed in range(deals)]
        evidence = pool(rows)
        lines = [_text(line) for line in re.findall(r"<p[^>]*>(.*?)</p>", evidence_html(evidence, rows))]
        pooled = _read("classview.evidence.pooled", lines[0])
        assert (int(pooled["wins"]), int(pooled["deals"])) == (wins, deals), context
        _check_rounding(_percent(pooled["rate"]), Fraction(wins, deals), True, context)
        low, high = _percent(pooled["low"]), _percent(pooled["high"])
        for shown, share in zip((low, high), wilson_interval(wins, deals)):
            _check_rounding(shown, share, True, context)
        shown_verdict = "above" if low > CLAIM_SHOWN else "below" if high < CLAIM_SHOWN else "unclear"
        assert evidence.verdict == shown_verdict, context
        verdict = _read(f"classview.evidence.{shown_verdict}", lines[1])
        assert _percent(verdict["claim"]) == CLAIM_SHOWN
        if shown_verdict == "unclear":  # "The interval holds 80%"
            assert low <= CLAIM_SHOWN <= high, context
        # the picture's words speak of the path's last interval: the whole sample's (the path is tested once)
        path = pooled_path(rows) if deals == 41 else [(deals, *wilson_interval(wins, deals))]
        assert path[-1] == (deals, *evidence.interval)
        alt = _read("evidence.alt.pooled", pooled_alt(path))
        assert int(alt["deals"]) == deals and (_percent(alt["low"]), _percent(alt["high"])) == (low, high), context
        assert _percent(alt["claim"]) == CLAIM_SHOWN


# ---------------------------------------------------------------- the pages


@pytest.mark.parametrize("name", ["evidence.ipynb", "pt/evidence.ipynb"])
def test_the_pages_comparison_of_the_wilson_and_the_textbook_interval_is_computed(name):
    cells = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))["cells"]
    prose = " ".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
    prose = " ".join(prose.split())
    assert "almost the same" not in prose and "quase igual" not in prose
    found = re.search(r"(\d+) (?:wins of|vitórias em) (\d+) (?:give|dão) (.*?)\.", prose)
    assert found, "the page compares the two intervals on a sample of its own"
    wins, deals = int(found[1]), int(found[2])
    shown = [Decimal(value.replace(",", ".")) for value in re.findall(r"(\d+(?:[.,]\d+)?)%", found[3])]
    computed = wilson_interval(wins, deals) + textbook_interval(wins, deals)
    assert len(shown) == 4, found[0]
    for value, share in zip(shown, computed):
        assert _rounds(value, share), (found[0], [round(100 * bound, 2) for bound in computed])
    assert max(abs(a - b) for a, b in zip(shown[:2], shown[2:])) >= 2  # "they differ by a few points"


@pytest.mark.parametrize("name", sorted(str(path.relative_to(NOTEBOOKS)) for path in NOTEBOOKS.rglob("*.ipynb")))
def test_a_page_that_says_when_show_answer_appears_says_what_the_exercise_does(name):
    # Show answer appears once an answer was read and judged wrong (calcnb.ui.lesson.Exercise.may_reveal),
    # not after any first try: an answer that cannot be read does not open it
    cells = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))["cells"]
    prose = " ".join(" ".join("".join(cell["source"]).split()) for cell in cells if cell["cell_type"] == "markdown")
    for said in re.findall(r"\*\*(?:Show answer|Mostrar resposta)\*\* (?:appears|aparece)[^.]*\.", prose):
        assert "after a wrong answer" in said or "depois de uma resposta errada" in said, (name, said)


# ---------------------------------------------------------------- the other lessons' arithmetic

EXPRESSION = r"\d+(?:\s*[+−×÷]\s*\d+)*"
# whole numbers: not part of a decimal ("0,5"), nor a percentage ("14 ÷ 25 = 56%" is the evidence lesson's, above)
EQUATION = re.compile(rf"(?<![\d.,])({EXPRESSION})\s*=\s*({EXPRESSION})(?![\d%]|[.,]\d|\s*%)")


def _value(expression: str) -> Fraction:
    """An expression of the lessons' sentences ("3 × 13 + 6", "14 ÷ 2") worked out exactly, left to right by
    precedence: × and ÷ before + and −."""
    terms = re.split(r"\s*([+−])\s*", expression)
    total, sign = Fraction(0), 1
    for term in terms:
        if term in "+−":
            sign = 1 if term == "+" else -1
            continue
        factors = re.split(r"\s*([×÷])\s*", term)
        product = Fraction(int(factors[0]))
        for operator, factor in zip(factors[1::2], factors[2::2]):
            product = product * int(factor) if operator == "×" else product / int(factor)
        total += sign * product
    return total


@pytest.mark.parametrize("key", ["counting", "wraparound", "rules_example"])
def test_every_equation_in_the_other_lessons_exercises_holds(language, key):
    # whole numbers only, so no rounding: "45 = 3 × 13 + 6", "10 + 5 = 15, which is past K: 15 − 13 = 2"
    checked = 0
    for kind in lesson(key).kinds:
        for variant in range(len(kind.variants)):
            item = kind.item(variant)
            for text in (
                item.question,
                item.why,
                item.solution,
                item.other,
                *(said for _m, said in item.wrong.values()),
            ):
                for left, right in EQUATION.findall(text):
                    assert _value(left) == _value(right), f"{kind.exercise_id} {variant}: {text}"
                    checked += 1
    assert checked or key == "counting"  # counting's sentences count cards, with no equation to check
