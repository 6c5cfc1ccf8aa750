"""Nicknames that show the same are one student's, and a nickname that shows nothing is refused.

A hostile trial in a classroom joined seven invisible look-alikes of "Ana" as new students (a combining grapheme
joiner, variation selectors, a Hangul filler, a Khmer inherent vowel, a blank Braille pattern, a Mongolian free
variation selector) and two nicknames that show nothing at all. Every default-ignorable code point and every
blank now folds away (:mod:`calcnb.classlog.names`): the look-alikes are Ana, asked for Ana's rejoin code, and
the blank nicknames are refused in words the pupil reads, in English and Portuguese.

Every test taking ``location``, ``log`` or ``recorder`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import html
import sys

import pytest
import regex
from class_log_support import an_attempt, joins
from hypothesis import given, settings
from hypothesis import strategies as st
from sweeps import examples

from calcnb.classlog.names import nickname_key, rejoin_code, visible_nickname
from calcnb.classlog.schema import ClassLogError, clean_nickname
from calcnb.classroom.recorder import ClassRecorder
from calcnb.i18n import message, set_language

pytest_plugins = ["class_log_fixtures"]

#: The look-alikes of "Ana" the hostile trial joined as new students.
LOOK_ALIKES = {
    "combining grapheme joiner": "An\u034fa",
    "variation selector 16": "Ana\ufe0f",
    "variation selector 17": "Ana\U000e0100",
    "Hangul filler": "Ana\u3164",
    "Khmer inherent vowel": "Ana\u17b4",
    "blank Braille pattern": "Ana\u2800",
    "Mongolian variation selector": "Ana\u180b",
}
#: Nicknames that show nothing: the trial's two, and others made of what a screen draws as nothing.
BLANKS = {
    "Hangul filler": "\u3164",
    "blank Braille patterns": "\u2800\u2800",
    "half-width Hangul filler and choseong filler": "\uffa0\u115f",
    "ideographic space and variation selector": "\u3000\ufe0f",
    "Khitan filler and null notehead": "\U00016fe4\U0001d159",
    "no-break spaces and a tag": "\u00a0\u202f\U000e0041",
}

_EVERY_CHARACTER = "".join(chr(point) for point in range(sys.maxunicode + 1) if not 0xD800 <= point < 0xE000)
#: Every default-ignorable code point (Unicode's Default_Ignorable_Code_Point, as ``regex`` knows it).
DEFAULT_IGNORABLE = regex.findall(r"\p{Default_Ignorable_Code_Point}", _EVERY_CHARACTER)
#: Every white-space character.
WHITE_SPACE = regex.findall(r"\p{White_Space}", _EVERY_CHARACTER)


@pytest.mark.parametrize("kind", LOOK_ALIKES)
def test_each_look_alike_of_the_trial_is_ana(kind):
    look_alike = LOOK_ALIKES[kind]
    assert nickname_key(look_alike) == nickname_key("Ana") == "ana"
    assert visible_nickname(look_alike) == clean_nickname(look_alike) == "Ana"  # kept and shown as Ana


def test_every_default_ignorable_code_point_folds_away_anywhere_in_a_nickname():
    assert len(DEFAULT_IGNORABLE) > 4000 and "\u3164" in DEFAULT_IGNORABLE and "\U000e0100" in DEFAULT_IGNORABLE
    kept = [char for char in DEFAULT_IGNORABLE if nickname_key(f"{char}A{char}n{char}a{char}") != "ana"]
    assert kept == []


def test_every_blank_is_a_space_between_words_and_nothing_at_either_end():
    blanks = [*WHITE_SPACE, "\u2800", "\U0001d159"]
    assert [char for char in blanks if visible_nickname(f"{char}Ana{char}{char}Bia{char}") != "Ana Bia"] == []
    assert nickname_key("Ana\u2800Bia") == nickname_key("ana bia") != nickname_key("AnaBia")  # a space is seen


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=12), st.integers(0, 12), st.sampled_from(DEFAULT_IGNORABLE))
def test_a_nickname_is_kept_as_it_is_seen_and_an_invisible_character_changes_nothing(text, where, invisible):
    seen = visible_nickname(text)
    assert visible_nickname(seen) == seen and nickname_key(seen) == nickname_key(text)  # folding twice: the same
    assert not regex.search(r"[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\u2800]|\s\s|^\s|\s$", seen)
    assert nickname_key(text[:where] + invisible + text[where:]) == nickname_key(text)


@pytest.mark.parametrize("kind", LOOK_ALIKES)
def test_a_look_alike_of_ana_is_asked_for_anas_code_and_goes_on_as_ana(recorder, log, kind):
    assert recorder.join("Ana")
    look_alike = ClassRecorder(log)
    try:
        assert not look_alike.join(LOOK_ALIKES[kind])  # not a new student: asked for Ana's rejoin code
        assert "already joined as Ana" in look_alike.status.value and look_alike.same_student.layout.display is None
        assert log.students() == ["Ana"] and joins(log) == ["Ana"]
        look_alike.code_box.value = rejoin_code(log.class_key(), "Ana")  # Ana's own page, reloaded: her code
        look_alike.same_student_button.click()
        assert look_alike.nickname == "Ana" and "Going on as Ana" in look_alike.status.value
    finally:
        look_alike.close()
    assert log.students() == ["Ana"] and log.taken_as(LOOK_ALIKES[kind]) == "Ana"


@pytest.mark.parametrize("kind", LOOK_ALIKES)
def test_a_look_alike_joined_first_makes_ana_the_same_student(log, kind):
    assert log.join(LOOK_ALIKES[kind]) == "Ana"  # kept as it is seen
    log.record("Ana", an_attempt())
    log.record(LOOK_ALIKES[kind], an_attempt())
    assert log.students() == ["Ana"] and [row["nickname"] for row in log.attempts()] == ["Ana", "Ana"]


@pytest.mark.parametrize("kind", BLANKS)
def test_a_nickname_that_shows_nothing_is_refused_in_words_the_pupil_reads(recorder, log, kind):
    assert not recorder.join(BLANKS[kind])
    assert recorder.nickname is None and not recorder.nickname_box.disabled
    assert "shows nothing on screen" in recorder.status.value and "letters or digits" in recorder.status.value
    assert log.students() == [] and joins(log) == []
    with pytest.raises(ClassLogError, match="shows nothing on screen"):
        log.join(BLANKS[kind])
    with pytest.raises(ClassLogError, match="shows nothing on screen"):
        log.record(BLANKS[kind], an_attempt())
    assert log.count() == 0
    assert recorder.join("Ana") and log.students() == ["Ana"]  # a nickname that shows joins as usual


def test_a_nickname_that_shows_nothing_is_refused_in_portuguese_too(log):
    set_language("pt")
    recorder = ClassRecorder(log)
    try:
        assert not recorder.join("\u3164") and not recorder.join("\u2800\u2800")
        assert "não mostra nada no ecrã" in recorder.status.value and "Escreve uma alcunha" in recorder.status.value
        assert recorder.status.value == html.escape(message("classroom.blank_nickname"))
    finally:
        recorder.close()


def test_a_nickname_of_control_characters_only_is_still_not_a_nickname():
    with pytest.raises(ClassLogError, match="is not a nickname"):
        clean_nickname("\x1b\x07\t\u3000")
