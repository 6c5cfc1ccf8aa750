"""The message catalogues: every language has every key of English, every message formats, a language is
one file, and the language switch."""

from __future__ import annotations

import re
import string

import pytest

from calcnb import Game, i18n
from calcnb.i18n import (
    LANGUAGES,
    REFERENCE,
    CalcnbError,
    UnknownLanguage,
    add_language,
    answer_words,
    catalogue,
    get_language,
    message,
    missing_keys,
    remove_language,
    set_language,
)
from calcnb.i18n.__main__ import import_owners

# Every package's words, registered before the tests read the catalogues: each key of each owner is checked.
OWNERS = import_owners()

ENGINE_PREFIXES = ("card.", "move.", "illegal.", "explain.", "deal.", "position.", "status.", "board.", "save.")


class Anything(int):
    """A stand-in for any placeholder value: a number for format specs, with any attribute or item."""

    def __getattr__(self, name: str) -> Anything:
        return self

    def __getitem__(self, key: object) -> Anything:
        return self


def fields(template: str) -> set[str]:
    """The names a template fills in (``{card}``, ``{text!r}``, ``{n:,}`` -> card, text, n)."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None:
            names.add(re.split(r"[.\[]", field)[0])
    return names


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_message(language):
    """A key a translation lacks would show in English: named here, never a crash at import."""
    assert missing_keys(language) == [], f"{language} has no text for these keys: {missing_keys(language)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_language_has_a_key_english_lacks(language):
    extra = sorted(set(catalogue(language)) - set(catalogue(REFERENCE)))
    assert extra == [], f"{language} has keys no English message has (misspelt or left over): {extra}"


def test_english_and_portuguese_are_the_languages_shipped():
    assert LANGUAGES == ("en", "pt")
    assert len(catalogue("en")) > 500


@pytest.mark.parametrize("key", sorted(catalogue("en")))
def test_every_message_formats_with_its_placeholders_in_both_languages(key):
    english, portuguese = catalogue("en")[key], catalogue("pt")[key]
    assert fields(english) == fields(portuguese), key
    values = {name: Anything(7) for name in fields(english)}
    for language in LANGUAGES:
        set_language(language)
        text = message(key, **values)  # a missing or misspelt placeholder raises here
        assert isinstance(text, str) and text


@pytest.mark.parametrize("key", sorted(k for k in catalogue("en") if k.startswith(ENGINE_PREFIXES)))
def test_engine_messages_are_translated(key):
    english, portuguese = catalogue("en")[key], catalogue("pt")[key]
    words = re.sub(r"\{[^}]*\}", "", english)
    if sum(ch.isalpha() for ch in words) > 2:  # "{move}: {reason}" needs no translation
        assert english != portuguese, key


def test_set_language_switches_every_message():
    assert get_language() == "en"
    assert message("status.lost") == "lost"
    set_language("pt")
    assert get_language() == "pt"
    assert message("status.lost") == "perdido"
    assert message("illegal.waste_empty", waste=2) == "o descarte 2 está vazio"
    set_language("en")
    assert message("illegal.waste_empty", waste=2) == "waste 2 is empty"


@pytest.mark.parametrize("language", ["fr", "", None, "pt-BR", " pt", b"pt"])
def test_set_language_rejects_unknown_languages(language):
    with pytest.raises(CalcnbError, match="unknown language") as refused:
        set_language(language)
    assert isinstance(refused.value, ValueError)
    assert str(refused.value) == message("language.unknown", language=repr(language), choices=_CHOICES["en"])
    assert get_language() == "en"


@pytest.mark.parametrize("typed, code", [("PT", "pt"), ("Pt", "pt"), ("EN", "en")])
def test_language_codes_are_taken_in_any_case(typed, code):
    set_language("pt" if code == "en" else "en")
    set_language(typed)
    assert get_language() == code
    assert message("illegal.waste_empty", waste=2) == {"pt": "o descarte 2 está vazio", "en": "waste 2 is empty"}[code]


# Each language is named in itself, so a reader finds their own language whatever the one in use.
_CHOICES = {"en": "en (English), pt (Português)", "pt": "en (English), pt (Português)"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unknown_language_is_refused_in_the_language_in_use_naming_the_languages(language):
    set_language(language)
    with pytest.raises(UnknownLanguage) as refused:
        set_language("xx")
    said = str(refused.value)
    assert said.startswith({"en": "unknown language 'xx': calcnb speaks", "pt": "língua desconhecida 'xx'"}[language])
    assert said.endswith(_CHOICES[language])
    assert get_language() == language


def test_an_unknown_language_is_quoted_short():
    with pytest.raises(UnknownLanguage) as refused:
        set_language("x" * 10_000)
    assert len(str(refused.value)) < 120
    assert get_language() == "en"


def test_message_without_values_returns_the_template():
    assert message("board.foundations") == "Foundations"
    with pytest.raises(KeyError):
        message("no.such.key")


def test_catalogue_is_a_copy():
    copy = catalogue("en")
    copy["status.lost"] = "changed"
    assert message("status.lost") == "lost"


MARK = "⟪{}⟫"  # the test language: English, each message marked, so anything shown unmarked was not looked up


@pytest.fixture
def marked_language():
    """A third language, made from English with every message marked, added as a translator's file would be."""
    messages = {key: MARK.format(text) for key, text in catalogue(REFERENCE).items()}
    words = {kind: (f"xx-{kind}",) for kind in ("ace", "ten", "jack", "queen", "king", "none", "waste", "yes", "no")}
    words |= {"and": ("und",), "or": ("oder",)}
    add_language("xx", "Marked", messages, words)
    yield "xx"
    set_language(REFERENCE)
    remove_language("xx")


def test_a_third_language_is_one_catalogue(marked_language):
    set_language(marked_language)
    assert get_language() == "xx" and "xx" in i18n.LANGUAGES
    assert missing_keys("xx") == []
    for key, template in catalogue(REFERENCE).items():
        values = {name: Anything(7) for name in fields(template)}
        assert message(key, **values).startswith("⟪"), key


def test_a_third_language_reaches_the_engine_the_board_and_the_answers(marked_language):
    from calcnb.exercises.answers import read_answer
    from calcnb.ui.board import board_texts, draw

    set_language(marked_language)
    game = Game.new(seed=42)
    game.play("T")
    assert all(line.strip().startswith("⟪") for line in str(game).splitlines() if line.strip())
    with pytest.raises(CalcnbError, match=r"^⟪"):
        game.play("T")
    # every label of the drawn board with words in it comes from the catalogue (card names need none)
    worded = [text for text in board_texts(draw(game)) if sum(ch.isalpha() for ch in text) > 2]
    assert worded and all("⟪" in text for text in worded), worded
    # a student may answer in the new language's words
    assert read_answer("rank", "xx-king") == 13
    assert read_answer("rank", "xx-none") == "none"
    assert read_answer("foundation", "1 und 3") == frozenset({1, 3})
    assert "xx-yes" in answer_words("yes") and "sim" in answer_words("yes")


def test_a_language_code_is_checked_and_the_reference_stays():
    with pytest.raises(ValueError, match="ISO 639"):
        add_language("X-1", "bad", {}, {})
    with pytest.raises(ValueError, match="English"):
        remove_language(REFERENCE)
    assert i18n.LANGUAGES == ("en", "pt")


def test_the_default_language_is_english():
    assert i18n.LANGUAGES[0] == "en"
    assert get_language() == "en"


def test_a_package_brings_its_words_from_its_own_folder(tmp_path, monkeypatch):
    """A package's ``lang/`` folder is registered in one call: each language's words, its owner named."""
    owner = tmp_path / "words_owner"
    (owner / "lang").mkdir(parents=True)
    (owner / "__init__.py").write_text("from calcnb.i18n import add_words\n\nadd_words(__name__)\n", encoding="utf-8")
    (owner / "lang" / "__init__.py").write_text('"""Words."""\n', encoding="utf-8")
    (owner / "lang" / "en.py").write_text('MESSAGES = {"owner_test.hello": "Hello, {name}"}\n', encoding="utf-8")
    (owner / "lang" / "pt.py").write_text('MESSAGES = {"owner_test.hello": "Olá, {name}"}\n', encoding="utf-8")
    (owner / "lang" / "notes.py").write_text("MESSAGES = {}\n", encoding="utf-8")  # not a language: left alone
    monkeypatch.syspath_prepend(str(tmp_path))
    __import__("words_owner")
    assert i18n.has_words("words_owner") and "words_owner" in i18n.owners()
    assert message("owner_test.hello", name="Ana") == "Hello, Ana"
    set_language("pt")
    try:
        assert message("owner_test.hello", name="Ana") == "Olá, Ana"
    finally:
        set_language(REFERENCE)
    assert i18n.owner_of("owner_test.hello") == "words_owner" and i18n.owner_of("language.unknown") == "calcnb.i18n"
    i18n.add_words("words_owner")  # a second call changes nothing
    (tmp_path / "thief").mkdir()
    (tmp_path / "thief" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "thief" / "lang").mkdir()
    (tmp_path / "thief" / "lang" / "en.py").write_text('MESSAGES = {"owner_test.hello": "Hi"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"owner_test\.hello"):
        i18n.add_words("thief")
    assert message("owner_test.hello", name="Ana") == "Hello, Ana"
