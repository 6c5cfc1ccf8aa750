"""The lesson "Is the 80% true?": each student's own deals, the games played for real, the class's pooled sample
and its interval, the verdict, and the judge of its exercises in both languages."""

from __future__ import annotations

import csv
import html
from decimal import Decimal
from fractions import Fraction

import pytest

from calcnb.exercises.items import judge
from calcnb.exercises.keys import student_digest
from calcnb.game.game import Game
from calcnb.game.rules import Status
from calcnb.i18n import message, set_language
from calcnb.lessons import BANK, lesson
from calcnb.lessons.evidence.exercises import (
    BLOCK,
    BLOCKS,
    CLAIM,
    FIRST_LESSON_SEED,
    ORDER,
    OWN_EXERCISE,
    PLAYER_KEY,
    TOLERANCE,
    batches,
    collision_chance,
    lesson_player,
    own_variant,
    percent,
    play_deal,
    pool,
    pooled_path,
    seed_block,
    shown_interval,
    shown_overlap,
    shown_rate,
    shown_width,
    textbook_interval,
    verdict_of,
)
from calcnb.stats import wilson_interval
from calcnb.studies.folklore import SET_ASIDE, STUDY
from calcnb.studies.winnability import TABLE, read_table

CLASS = [f"student {number}" for number in range(30)] + ["Ana", "Bruno", "Carla", "ana silva", "Zé"]


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language("en")


# ---------------------------------------------------------------- each student's own deals


def test_a_students_deals_are_their_own_reproducible_and_follow_the_class_key():
    block = seed_block("Ana", "the class key")
    assert len(block) == BLOCK and block == seed_block("  ANA ", "the class key")  # however typed
    assert block != seed_block("Ana", "another class")  # another class: other deals
    assert block != seed_block("Bruno", "the class key")
    # the block is the keyed digest of the nickname, the helper the exercise variants use (no second copy)
    number = int.from_bytes(student_digest("evidence-deals", "Ana", "the class key")[:8], "big") % BLOCKS
    assert block.start == FIRST_LESSON_SEED + number * BLOCK


def test_a_class_gets_disjoint_blocks_and_a_shared_block_is_rare():
    for key in ("key one", "key two", "key three"):
        blocks = [seed_block(name, key) for name in CLASS]
        seeds = [seed for block in blocks for seed in block]
        assert len(seeds) == len(set(seeds)) == BLOCK * len(CLASS)
    assert collision_chance(30) < 1 / 2000  # the birthday problem over a million blocks


def test_no_lesson_deal_is_a_deal_the_studies_use():
    studied = {int(row["seed"]) for row in csv.DictReader(STUDY.open(encoding="utf-8"))}
    decided = set(read_table(TABLE))
    highest = max(studied | decided | set(SET_ASIDE))
    assert highest < FIRST_LESSON_SEED
    for name in CLASS:
        assert min(seed_block(name, "key")) >= FIRST_LESSON_SEED


def test_on_a_shared_block_the_pooled_sample_counts_each_deal_once():
    # two students whose digests picked the same block play the same deals, which the player plays the same way:
    # the class's sample holds each deal once, and says how many games it left out
    shared = [dict(nickname="Ana", seed=seed, player=PLAYER_KEY, won=seed % 3 == 0) for seed in range(100, 110)]
    again = [dict(row, nickname="Bruno") for row in shared]
    other = [dict(nickname="Carla", seed=seed, player=PLAYER_KEY, won=True) for seed in range(200, 205)]
    evidence = pool(shared + again + other)
    assert (evidence.deals, evidence.repeated) == (15, 10)
    assert evidence.wins == sum(row["won"] for row in shared) + 5
    # another player's games are another sample
    assert pool([dict(row, player="kings apart") for row in shared]).deals == 0


# ---------------------------------------------------------------- the games are played, not looked up


@pytest.mark.slow
def test_a_deal_is_played_by_the_lessons_player_and_its_win_is_the_engines():
    player = lesson_player()
    assert player.name == "monte carlo" and PLAYER_KEY == "monte carlo 32"
    won = lost = 0
    for seed in seed_block("Ana", "key")[:6]:
        deal = play_deal(seed)
        result = player.play(seed)
        game = Game.new(seed)
        game.play_many(result.moves)  # every move legal, replayed by the engine
        assert deal.won == (game.status == Status.WON) and deal.score == game.score
        assert deal == play_deal(seed)  # the same deal is played the same way
        won, lost = won + deal.won, lost + (not deal.won)
    assert won + lost == 6


def test_batches_of_ten_and_their_rates():
    results = [True] * 7 + [False] * 3 + [True] * 4 + [False] * 6 + [True, False]
    assert batches(results) == [(7, 10), (4, 10), (1, 2)]


# ---------------------------------------------------------------- the statistics the lesson shows


def test_the_pooled_interval_is_wilson_of_the_pooled_counts_and_narrows_with_deals():
    rows = [dict(nickname=f"s{seed % 3}", seed=seed, player=PLAYER_KEY, won=seed % 5 < 2) for seed in range(400)]
    evidence = pool(rows)
    assert (evidence.wins, evidence.deals) == (160, 400)
    assert evidence.interval == wilson_interval(160, 400)
    path = pooled_path(rows)
    assert [step[0] for step in path] == list(range(1, 401))
    assert path[-1][1:] == wilson_interval(160, 400)
    assert path[99][1:] == wilson_interval(40, 100)
    width = [high - low for _count, low, high in path]
    assert width[399] < width[99] < width[24]  # 4 times the deals, about half the width
    assert width[399] == pytest.approx(width[99] / 2, abs=0.01)


@pytest.mark.parametrize("deals", [10, 20, 40, 100, 400])
def test_the_verdict_follows_the_interval(deals):
    for wins in range(deals + 1):
        low, high = wilson_interval(wins, deals)
        expected = "above" if low > CLAIM else "below" if high < CLAIM else "unclear"
        assert verdict_of((low, high)) == expected
        rows = [dict(seed=seed, player=PLAYER_KEY, won=seed < wins) for seed in range(deals)]
        assert pool(rows).verdict == expected


def test_ten_deals_of_the_lessons_player_cannot_show_more_than_80_percent():
    # even ten wins of ten leave rates below 80% possible: only "too few deals to tell" or "below" can follow
    assert {verdict_of(wilson_interval(wins, 10)) for wins in range(11)} == {"below", "unclear"}


# ---------------------------------------------------------------- the percentages the sentences show


@pytest.mark.parametrize("language", ["en", "pt"])
def test_a_percentage_is_whole_unless_rounding_would_make_its_sentence_false(language):
    set_language(language)
    mark = message("evidence.decimal_mark")
    assert percent(0.7) == "70%" and percent(Fraction(1, 3)) == "33%" and percent(Fraction(2, 3)) == "67%"
    # 13 of 40 is 32.5%: half-way between 32% and 33%, so shown exactly (as a fraction and as the float 13 / 40)
    assert percent(Fraction(13, 40)) == percent(13 / 40) == f"32{mark}5%"
    assert percent(Fraction(1, 8)) == f"12{mark}5%" and percent(Fraction(1, 200)) == f"0{mark}5%"
    assert percent(Fraction(1, 80)) == "1%"  # 1.25% is no tie: whole, rounded
    # a rate or a bound set against the claim's 80% stays on its side of 80%, as shown
    assert shown_rate(321, 400) == Decimal("80.25") and shown_rate(8, 10) == 80 and shown_rate(79, 100) == 79
    assert shown_interval(wilson_interval(150, 200)) == (Decimal(69), Decimal("80.5"))  # not "69% to 80%"
    assert shown_interval(wilson_interval(150, 200), None) == (69, 80)  # no sentence sets it against 80%
    for wins, deals in ((150, 200), (9, 10), (300, 400), (380, 400), (7, 10)):
        low, high = shown_interval(wilson_interval(wins, deals))
        shown = "above" if low > 80 else "below" if high < 80 else "unclear"
        assert shown == verdict_of(wilson_interval(wins, deals)) and (shown != "unclear" or low < 80 < high)


def test_a_width_is_the_shown_high_less_the_shown_low():
    # 76 of 100 runs from 66.8% to 83.3%: shown as 67% to 83%, it is 16% wide as shown (16.5% unrounded)
    assert shown_interval(wilson_interval(76, 100), None) == (67, 83)
    assert shown_width(wilson_interval(76, 100)) == 16
    assert shown_width(wilson_interval(3, 10)) == 60 - 11  # the teacher's notes print 3/10 as 11% .. 60%
    item = BANK["evidence-width"].item(BANK["evidence-width"].variants.index((19, 25)))
    assert "from 67% to 83%, 16% wide" in item.why
    item = BANK["evidence-width"].item(BANK["evidence-width"].variants.index((2, 10)))
    assert "from 6% to 51%, 45% wide" in item.question and "45% ÷ 2 = 22.5%" in item.why
    assert item.solution == "22.5%" and judge(item, "22.5%").correct and judge(item, "23%").correct


def test_overlapping_intervals_overlap_as_shown():
    shown = shown_overlap((0.30, 0.5049), (0.5041, 0.70))  # whole, they would meet at 50%: one decimal apart
    assert (shown["one_high"], shown["two_low"]) == (Decimal("50.5"), Decimal("50.4"))
    assert shown_overlap(wilson_interval(5, 10), wilson_interval(2, 10)) == {
        "one_low": 24, "one_high": 76, "two_low": 6, "two_high": 51
    }  # fmt: skip


# ---------------------------------------------------------------- the judge of the lesson's exercises


def _item(exercise_id: str, wanted: tuple):
    kind = BANK[exercise_id]
    return kind.item(kind.variants.index(wanted))


@pytest.mark.parametrize("language", ["en", "pt"])
def test_every_form_of_a_right_rate_is_right_in_both_languages(language):
    set_language(language)
    item = _item("evidence-rate", (7, 10))
    for typed in ("0.7", "0,7", ".7", "70%", "70 %", "70", "0.70", "7/10", "7 of 10", "7 de 10", "about 0.7", "≈ 70%"):
        assert judge(item, typed).correct is True, typed
    assert judge(item, "0.3").misconception == "losses_for_wins"
    assert judge(item, "7").misconception == "count_for_share"  # 7 read as 7%
    for unreadable in ("", "²", "a paragraph of words " * 5, "seventy-ish, I think, maybe more than that"):
        assert judge(item, unreadable).correct is None
    item = _item("evidence-rate", (2, 25))  # 8%: the tolerance is half a percentage point
    assert judge(item, "0.08").correct and judge(item, "8,4%").correct and not judge(item, "9%").correct
    assert TOLERANCE["rate"] == 0.005


@pytest.mark.parametrize("language", ["en", "pt"])
def test_an_interval_is_right_as_wilson_or_as_the_textbook_formula_within_its_tolerance(language):
    set_language(language)
    item = _item("evidence-interval", (28, 40))
    low, high = wilson_interval(28, 40)
    wald = textbook_interval(28, 40)
    forms = [
        f"{low:.2f} to {high:.2f}",
        f"[{low:.2f}, {high:.2f}]".replace(".", ","),
        f"{100 * low:.0f}% – {100 * high:.0f}%",
        f"between {100 * low:.0f} and {100 * high:.0f}",
        f"de {100 * low:.0f}% a {100 * high:.0f}%",
        f"{wald[0]:.3f}; {wald[1]:.3f}",
        f"{high:.2f} to {low:.2f}",  # highest first is the same interval
        f"{28 / 40:.2f} ± {(wald[1] - wald[0]) / 2:.2f}",  # the textbook formula as it is written: p ± margin
        f"{2800 / 40:.0f}% +/- {50 * (wald[1] - wald[0]):.0f}%",
        f"{2800 / 40:.0f} +- {50 * (wald[1] - wald[0]):.0f}",
    ]
    for typed in forms:
        assert judge(item, typed).correct is True, typed
    assert judge(item, f"{low - 0.05:.2f} to {high:.2f}").correct is False  # outside the tolerance
    assert judge(item, f"{1 - high:.2f} to {1 - low:.2f}").misconception == "losses_for_wins"
    assert judge(item, "0.63 to 0.77").misconception == "forgot_z"  # one standard error each side
    assert judge(item, "0.1 to 0.3").misconception == "rate_outside"
    assert judge(item, "0.7").correct is None  # one number is no interval
    assert judge(item, "0.7 ± 0.07").misconception == "forgot_z"  # p ± one standard error
    assert judge(item, "0.7 ± ²").correct is None


@pytest.mark.parametrize("language", ["en", "pt"])
def test_four_times_the_deals_halves_the_width_and_a_quarter_is_named(language):
    set_language(language)
    item = _item("evidence-width", (5, 10))
    low, high = wilson_interval(5, 10)
    width = high - low
    assert judge(item, f"{width / 2:.2f}").correct is True
    assert judge(item, f"{100 * width / 2:.0f}%").correct is True
    assert judge(item, f"{width / 4:.3f}").misconception == "width_linear"
    assert judge(item, f"{width:.2f}").misconception == "width_not_narrower"


CLAIM_WORDS = {
    "en": {
        "above": "more than 80%",
        "below": "less than 80%",
        "proven": "80% is proven",
        "unclear": "too few deals to tell",
    },
    "pt": {
        "above": "mais de 80%",
        "below": "menos de 80%",
        "proven": "80% está provado",
        "unclear": "poucos jogos para saber",
    },
}


@pytest.mark.parametrize("language", ["en", "pt"])
def test_judging_the_claim_names_each_misconception(language):
    set_language(language)
    words = CLAIM_WORDS[language]
    # 9 of 10: the sample's rate is above 80%, its interval holds 80%: too few deals to tell
    item = _item("evidence-claim", (9, 10))
    for typed in ("d", "(d)", "D)", words["unclear"], f"(d) {words['unclear']}", "can't tell", "não dá para saber"):
        assert judge(item, typed).correct is True, typed
    # the letter with its words after a dash or a colon, the letter after "option", as students write them
    for typed in (f"d - {words['unclear']}", f"d: {words['unclear']}", "option d", "opção (d)", "we cannot tell"):
        assert judge(item, typed).correct is True, typed
    assert judge(item, f"a - {words['unclear']}").correct is None  # a letter and another choice's words
    assert judge(item, "a").misconception == "sample_rate_as_truth"
    assert judge(item, words["above"]).misconception == "sample_rate_as_truth"
    assert judge(item, "c").misconception == "contains_so_proven"
    assert judge(item, words["proven"]).misconception == "contains_so_proven"
    assert judge(item, "b").correct is False
    # 5 of 10: the whole interval lies below 80%: these deals do tell
    item = _item("evidence-claim", (5, 10))
    assert judge(item, "b").correct is True and judge(item, words["below"]).correct is True
    assert judge(item, "d").misconception == "too_few_when_enough"
    # a class's worth of deals above 80%
    item = _item("evidence-claim", (380, 400))
    assert judge(item, "a").correct is True
    for unreadable in ("", "²", "e", "I think that it depends on the deals and on the player " * 3):
        assert judge(item, unreadable).correct is None


@pytest.mark.parametrize("language", ["en", "pt"])
def test_overlapping_intervals_read_as_the_same_or_as_different_are_named(language):
    set_language(language)
    kind = BANK["evidence-overlap"]
    for variant in range(len(kind.variants)):
        first, second, deals = kind.variants[variant]
        one, two = wilson_interval(first, deals), wilson_interval(second, deals)
        assert one[0] < two[1] and two[0] < one[1]  # every variant's intervals overlap
        item = kind.item(variant)
        assert judge(item, "c").correct is True
        assert judge(item, "c - these deals cannot tell").correct is True
        assert judge(item, "a").misconception == "overlap_means_same"
        assert judge(item, "b").misconception == "overlap_means_different"
    item = kind.item(0)
    assert judge(item, "the same" if language == "en" else "iguais").misconception == "overlap_means_same"


def test_a_students_own_deals_get_the_claim_exercise_of_their_own_counts():
    for wins, deals in ((7, 10), (0, 1), (40, 40), (13, 37)):
        item = BANK[OWN_EXERCISE].item(own_variant(wins, deals))
        assert BANK[OWN_EXERCISE].variants[item.variant] == (wins, deals)
        assert item.accepted == {verdict_of(wilson_interval(wins, deals))}
    with pytest.raises(ValueError, match="deals"):
        own_variant(11, 10)
    assert OWN_EXERCISE not in ORDER  # not on the printed sheets: its numbers are the student's


def test_the_lessons_variants_differ_between_students():
    assert len({BANK.variant_for("evidence-claim", name, "key") for name in CLASS}) > 10


def test_the_student_pages_carry_no_answer_and_the_teacher_notes_give_the_commands_word_for_word():
    import json
    from pathlib import Path

    notebooks = Path(__file__).resolve().parent.parent / "notebooks"
    for name in ("evidence.ipynb", "pt/evidence.ipynb"):
        cells = json.loads((notebooks / name).read_text(encoding="utf-8"))["cells"]
        text = json.dumps([cell["source"] for cell in cells]) + json.dumps([cell.get("outputs", []) for cell in cells])
        for words in ("Answer:", "Resposta:", "answer_key", "Teacher", "Professor", "below 80%", "abaixo de 80%"):
            assert words not in text, (name, words)
    for name, tail in (("teacher/evidence_teacher.ipynb", ""), ("pt/teacher/evidence_teacher.ipynb", " --lang pt")):
        text = (notebooks / name).read_text(encoding="utf-8")
        assert f"python -m calcnb app evidence --host 0.0.0.0 --class-log lesson.db{tail}" in text
        assert f"python -m calcnb class-view lesson.db --lesson evidence{tail}" in text


def test_the_app_tells_the_teacher_the_class_views_command_for_the_lesson_it_serves(tmp_path, capsys, monkeypatch):
    from calcnb.serve.cli.environments import class_log_environment
    from calcnb.serve.cli.main import main
    from calcnb.serve.cli.runners import lesson_name
    from calcnb.serve.shared.notebooks import resolve_target

    monkeypatch.chdir(tmp_path)
    class_log_environment({}, "lesson.db", lesson="evidence")
    assert "python -m calcnb class-view lesson.db --lesson evidence" in capsys.readouterr().out
    assert lesson_name(resolve_target("evidence", None)) == "evidence"
    assert lesson_name(resolve_target("play", None)) is None
    assert main(["class-view", "other.db", "--lesson", "nope"]) == 2
    said = capsys.readouterr().err
    assert "there is no lesson nope" in said and "evidence" in said
    assert not (tmp_path / "other.db").exists()  # refused before anything was opened


def test_the_lab_plays_its_students_block_in_batches_and_tells_the_listeners(monkeypatch):
    from calcnb.lessons.evidence import exercises as evidence
    from calcnb.lessons.evidence import widgets as lab_module
    from calcnb.ui.lesson import Quiz, add_game_listener, remove_game_listener

    played = []

    def quick(seed: int) -> evidence.Deal:  # the lab's bookkeeping, not the player, is tested here
        played.append(seed)
        return evidence.Deal(seed, PLAYER_KEY, seed % 3 == 0, 52 if seed % 3 == 0 else 20)

    monkeypatch.setattr(lab_module, "play_deal", quick)
    told = []
    add_game_listener(told.append)
    try:
        quiz = Quiz(BANK)
        lab = lab_module.EvidenceLab(quiz)
        quiz.use_name("Ana", class_key="key")
        assert lab.block == seed_block("Ana", "key")
        assert lab.interval_button.disabled and lab.show_interval() is None
        first = lab.play_batch()
        assert [deal.seed for deal in first] == list(seed_block("Ana", "key")[:10]) and told == first
        lab.show_interval()
        wins = sum(deal.won for deal in first)
        assert lab.interval == wilson_interval(wins, 10) and lab.verdict == verdict_of(wilson_interval(wins, 10))
        assert BANK[OWN_EXERCISE].variants[lab.own.item.variant] == (wins, 10)
        while lab.play_batch():
            pass
        assert played == list(seed_block("Ana", "key")) and lab.play_button.disabled
        assert "all 100 of your deals" in lab.said.value
        quiz.use_name("Bruno", class_key="key")  # another name: other deals, from the start
        assert lab.played == [] and lab.block == seed_block("Bruno", "key") and not lab.play_button.disabled
    finally:
        remove_game_listener(told.append)


def test_the_end_of_lesson_summary_numbers_the_exercises_as_the_lesson_of_the_answers(tmp_path):
    import time

    from calcnb.classlog.store import open_class_log
    from calcnb.exercises.items import Attempt
    from calcnb.serve.cli.runners import write_summary

    log = open_class_log(tmp_path / "lesson.db")
    log.join("ana")
    log.record("ana", Attempt("evidence-claim", 3, "c", "wrong", "contains_so_proven", "en", time.time()))
    write_summary(log, tmp_path / "summary.csv")
    head = (tmp_path / "summary.csv").read_text(encoding="utf-8-sig").splitlines()[0]
    assert "1. A player's wins of some deals: what is its win rate?" in head and "On the clock of 13" not in head
    write_summary(log, tmp_path / "counting.csv", "counting")
    assert "1. Counting in ones" in (tmp_path / "counting.csv").read_text(encoding="utf-8-sig")
    log.close()


@pytest.mark.parametrize("language", ["en", "pt"])
def test_the_worksheet_and_answer_sheet_match_the_screens(language):
    import io
    import re

    from pypdf import PdfReader

    from calcnb.exercises.worksheet import answer_sheet_pdf, worksheet_pdf
    from calcnb.lessons import BANK
    from calcnb.ui.lesson import Quiz

    set_language(language)
    quiz = Quiz(BANK, seed="Ana", class_key="key")
    quiz.show(*ORDER)
    screen = [re.sub(r"<[^>]+>", "", exercise.prompt.value) for exercise in quiz.exercises]
    sheet = worksheet_pdf(lesson("evidence"), ["Ana"], class_key="key")
    answers = answer_sheet_pdf(lesson("evidence"), ["Ana"], class_key="key")
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(sheet)).pages)
    answer_text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(answers)).pages)
    assert lesson("evidence").title in text and "p ± 1" in text
    for number, (shown, item) in enumerate(zip(screen, BANK.student_items("Ana", ORDER, "key")), 1):
        assert shown.replace("&#x27;", "'") == f"{number}. {item.question}"
        assert " ".join(item.question.split())[:60] in text
        assert item.solution in answer_text


def test_with_a_class_log_the_lab_plays_nothing_before_the_student_joins():
    from calcnb.lessons.evidence.widgets import EvidenceLab
    from calcnb.ui.lesson import Quiz

    quiz = Quiz(BANK)
    lab = EvidenceLab(quiz, need_name=True)
    assert lab.play_button.disabled and lab.play_batch() == [] and lab.played == []
    assert "nickname" in lab.said.value
    quiz.use_name("Ana", class_key="key")  # the class recorder does this when Ana joins
    assert not lab.play_button.disabled and lab.block == seed_block("Ana", "key") and lab.said.value == ""


def test_a_log_that_cannot_be_read_on_joining_leaves_the_table_empty_and_says_so():
    from calcnb.lessons.evidence.widgets import EvidenceLab
    from calcnb.ui.lesson import Quiz

    def unreadable() -> list:
        raise OSError("the database is not answering")

    quiz = Quiz(BANK)
    lab = EvidenceLab(quiz, need_name=True, history=unreadable)
    quiz.use_name("Ana", class_key="key")
    assert lab.played == [] and not lab.play_button.disabled
    assert lab.said.value == html.escape(message("evidence.lab.history_failed"))
