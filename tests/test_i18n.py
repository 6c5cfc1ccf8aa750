"""The message catalogue: the same keys in English and Portuguese, every message formats, and the
language switch."""

from __future__ import annotations

import importlib
import pkgutil
import re
import string

import pytest

import calcnb
from calcnb import i18n
from calcnb.i18n import (
    LANGUAGES,
    CalcnbError,
    UnknownLanguage,
    catalogue,
    get_language,
    message,
    register,
    set_language,
)

# Every module registers its own messages on import: load them all so the whole catalogue is checked.
for _module in pkgutil.iter_modules(calcnb.__path__):
    if _module.name != "__main__":
        importlib.import_module(f"calcnb.{_module.name}")

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


def test_both_languages_have_the_same_keys():
    english, portuguese = catalogue("en"), catalogue("pt")
    assert set(english) == set(portuguese)
    assert len(english) > 50
    assert LANGUAGES == ("en", "pt")


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


_CHOICES = {"en": "en (English), pt (Portuguese)", "pt": "en (inglês), pt (português)"}


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


def test_register_adds_messages_in_both_languages():
    register({"en": {"test_i18n.hello": "Hello {name}"}, "pt": {"test_i18n.hello": "Olá {name}"}})
    assert message("test_i18n.hello", name="Ana") == "Hello Ana"
    set_language("pt")
    assert message("test_i18n.hello", name="Ana") == "Olá Ana"


def test_register_refuses_a_missing_language_or_unmatched_keys():
    before = {language: catalogue(language) for language in LANGUAGES}
    with pytest.raises(ValueError, match=r"messages for \['pt'\] are missing"):
        register({"en": {"test_i18n.only_en": "x"}})
    with pytest.raises(ValueError, match="every language must define the same message keys"):
        register({"en": {"test_i18n.a": "a"}, "pt": {"test_i18n.b": "b"}})
    assert {language: catalogue(language) for language in LANGUAGES} == before


def test_the_default_language_is_english():
    assert i18n.LANGUAGES[0] == "en"
    assert get_language() == "en"
