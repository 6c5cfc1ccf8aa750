"""Every word calcnb shows a person, looked up by key in the language in use.

Each language is one module of this package, named by its code (``en.py``, ``pt.py``): its
``NAME`` in itself, its ``MESSAGES`` by key and the ``ANSWER_WORDS`` a student may type.
They are found when calcnb is imported, so adding a language is adding one file (and its
translated notebooks). English is the reference: a key another language lacks is shown in
English, and ``tests/test_i18n.py`` names every such key.

Those modules hold only this package's own words and those with no better owner: every other
package keeps its words beside its code, in a ``lang/`` folder of one module per language
(``calcnb/game/lang/en.py``, ``.../pt.py``, each a ``MESSAGES`` dict), and registers them once in its
``__init__.py`` with :func:`add_words`. A lesson folder, in calcnb or in another package, is
registered the same way by the lesson discovery. ``python -m calcnb.i18n pt`` lists every word of
one language, whoever owns it.
"""

from __future__ import annotations

import pkgutil
import re
import reprlib
from collections.abc import Mapping
from importlib import import_module
from pathlib import Path
from types import ModuleType

from calcnb.core.errors import CalcnbError
from calcnb.core.settings import LANGUAGE
from calcnb.core.visits import visit_values

REFERENCE = "en"
"""The language every other one translates, and the one shown where a translation lacks a key."""

# The language a process starts in is the setting calcnb.core.settings.LANGUAGE (``CALCNB_LANG``, a language code)
# when set, so a server started with ``python -m calcnb app --lang pt`` runs its kernels in Portuguese; anything
# else means English.

_CATALOGUE: dict[str, dict[str, str]] = {}
_NAMES: dict[str, str] = {}
_ANSWER_WORDS: dict[str, dict[str, tuple[str, ...]]] = {}
# answer_words(kind), read for every answer typed: worked out once, until a language is added or removed
_WORDS_OF_KIND: dict[str, frozenset[str]] = {}
_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}")  # an ISO 639 code: the name of a catalogue module

LANGUAGES: tuple[str, ...] = ()
"""The codes of the languages calcnb speaks, English first."""

_edition = 0  # counts the changes to the catalogues: what was worked out from words is good until it changes


def words_edition() -> int:
    """A number that changes whenever a language or a word is added or removed: a cache of worded things (an
    exercise worked out in a language) keyed on it stays true to the catalogues."""
    return _edition


def _new_edition() -> None:
    global _edition
    _edition += 1


def add_language(code: str, name: str, messages: dict[str, str], answer_words: dict[str, tuple[str, ...]]) -> None:
    """Make ``code`` a language calcnb speaks: its name in itself, its messages by key, and its answer words.

    Every catalogue module of this package is added this way when calcnb is imported; a test or a
    translator trying a draft may add one more. A key missing from ``messages`` is shown in English.
    """
    global LANGUAGES
    if not _LANGUAGE_CODE.fullmatch(code):
        raise ValueError(f"a language code is two or three lower-case letters (ISO 639); got {code!r}")
    _CATALOGUE[code] = dict(messages)
    _NAMES[code] = name
    _ANSWER_WORDS[code] = {kind: tuple(words) for kind, words in answer_words.items()}
    _WORDS_OF_KIND.clear()
    LANGUAGES = (REFERENCE, *sorted(set(_CATALOGUE) - {REFERENCE}))
    _new_edition()


def add_messages(code: str, messages: Mapping[str, str]) -> None:
    """Add ``messages`` to the language ``code`` (a lesson of another package brings its words this way).

    A key the catalogue has already keeps its text: an added lesson words only its own keys. A language
    calcnb does not speak is ignored (its words would never be shown).
    """
    if code in _CATALOGUE:
        for key, text in messages.items():
            _CATALOGUE[code].setdefault(key, text)
        _new_edition()


WORDS_FOLDER = "lang"
"""The folder of a package that holds its words: one module per language code, each with ``MESSAGES``."""

# The packages whose words are registered, and which package gave each key (a translator's listing says where
# a key lives; a key given twice is a mistake add_words refuses).
_OWNERS: list[str] = []
_OWNER_OF: dict[str, str] = {}


def add_words(package: str) -> None:
    """Register the words of ``package`` (a dotted name, usually ``__name__``): its ``lang/<code>.py`` modules.

    Each module of the folder named by a language code gives that language's ``MESSAGES``; a language calcnb
    does not speak is ignored, and a key the package's words lack is shown in English. Registering a package
    twice does nothing. Raises ValueError if another package already gave one of its English keys.
    """
    if package in _OWNERS:
        return
    folder = import_module(f"{package}.{WORDS_FOLDER}")
    languages = {
        found.name: import_module(f"{folder.__name__}.{found.name}").MESSAGES
        for found in pkgutil.iter_modules(folder.__path__)
        if _LANGUAGE_CODE.fullmatch(found.name)
    }
    given = set(languages.get(REFERENCE, {}))
    taken = sorted(key for key in given if _OWNER_OF.get(key, package) != package)
    if taken:
        raise ValueError(f"{package} gives keys another package already gave: {', '.join(taken)}")
    for code, messages in languages.items():
        add_messages(code, messages)
    _OWNER_OF.update(dict.fromkeys(given, package))
    _OWNERS.append(package)


def has_words(package: str) -> bool:
    """Whether ``package`` (a dotted name) has a words folder for :func:`add_words`."""
    module = import_module(package)
    paths = getattr(module, "__path__", ())
    return any((Path(path) / WORDS_FOLDER).is_dir() for path in paths)


def owners() -> tuple[str, ...]:
    """The packages whose words are registered so far, in the order they were."""
    return tuple(_OWNERS)


def owner_of(key: str) -> str:
    """The package that gives ``key`` (``calcnb.i18n`` for its own and those a lesson's ``messages`` gave)."""
    return _OWNER_OF.get(key, __name__)


def has_message(key: str) -> bool:
    """Whether ``key`` is a message (in English, the reference every language falls back to)."""
    return key in _CATALOGUE[REFERENCE]


def remove_language(code: str) -> None:
    """Stop speaking ``code`` (a language added for a trial); English, the reference, always stays."""
    global LANGUAGES, _current_language
    if code == REFERENCE:
        raise ValueError("English is the reference every other language falls back to: it cannot be removed")
    for table in (_CATALOGUE, _NAMES, _ANSWER_WORDS):
        table.pop(code, None)
    _WORDS_OF_KIND.clear()
    LANGUAGES = tuple(language for language in LANGUAGES if language != code)
    _new_edition()
    if _current_language == code:
        _current_language = REFERENCE


def _add_catalogue(module: ModuleType) -> None:
    code = module.__name__.rpartition(".")[2]
    add_language(code, module.NAME, module.MESSAGES, module.ANSWER_WORDS)


# The catalogues are this package's own modules, found by name: a new language needs no line here.
for _found in pkgutil.iter_modules(__path__):
    if _LANGUAGE_CODE.fullmatch(_found.name):
        _add_catalogue(import_module(f"{__name__}.{_found.name}"))

_current_language = (LANGUAGE.read() or "").lower()
if _current_language not in LANGUAGES:
    _current_language = REFERENCE


def missing_keys(language: str) -> list[str]:
    """The reference's message keys that ``language`` has no text for (shown in English there), sorted."""
    return sorted(set(_CATALOGUE[REFERENCE]) - set(_CATALOGUE[language]))


def answer_words(kind: str) -> frozenset[str]:
    """The words of one kind (``"none"``, ``"yes"``, ``"king"`` ...) in every language calcnb speaks.

    A student may answer in any of them, whatever the page's language: "K" and "rei" are both the king.
    """
    words = _WORDS_OF_KIND.get(kind)
    if words is None:
        words = _WORDS_OF_KIND[kind] = frozenset(
            word for language in _ANSWER_WORDS.values() for word in language.get(kind, ())
        )
    return words


class UnknownLanguage(CalcnbError):
    """A language calcnb has no messages in (it speaks those of :data:`LANGUAGES`)."""


# How an unknown language is quoted: a language is a two-letter code, so a few characters say which was given.
_QUOTE_LANGUAGE = reprlib.Repr()
_QUOTE_LANGUAGE.maxstring = _QUOTE_LANGUAGE.maxother = 24


_VISIT_LANGUAGE = "calcnb.language"  # a visitor's own language, in their values (calcnb.core.visits)


def set_language(language: str) -> None:
    """Switch every user-facing string to one of :data:`LANGUAGES` (``"en"``, the default, or ``"pt"``), in any case.

    Raises :class:`UnknownLanguage`, in the language in use, for any other value, and keeps the language.
    Inside a visit (see :func:`calcnb.core.visits.use_visit_scope`) only that visitor's language changes.
    """
    global _current_language
    wanted = language.lower() if isinstance(language, str) else language  # language tags ignore case (BCP 47)
    if wanted not in LANGUAGES:
        choices = ", ".join(message("language.choice", code=code, name=_NAMES[code]) for code in LANGUAGES)
        raise UnknownLanguage(Words("language.unknown", language=_QUOTE_LANGUAGE.repr(language), choices=choices))
    visit = visit_values()
    if visit is None:
        _current_language = wanted
    else:
        visit[_VISIT_LANGUAGE] = wanted


def get_language() -> str:
    """The language currently in use (one of :data:`LANGUAGES`): the visitor's own, inside a visit."""
    visit = visit_values()
    if visit is None:
        return _current_language
    language = visit.get(_VISIT_LANGUAGE, _current_language)
    return language if language in _CATALOGUE else REFERENCE


def catalogue(language: str) -> dict[str, str]:
    """A copy of every message of one language, keyed by message key."""
    return dict(_CATALOGUE[language])


def message(key: str, /, **values: object) -> str:
    """The message ``key`` in the current language, with ``values`` filled in (English where it has no text)."""
    template = _CATALOGUE[get_language()].get(key)
    if template is None:
        template = _CATALOGUE[REFERENCE][key]
    return template.format(**values) if values else template


class Words:
    """A message not yet worded: its ``key`` and ``values``, put into words each time it is shown.

    An error holds one (``raise InvalidCard(Words("card.bad", text=...))``) so that it says why in the
    language of whoever reads it, not of whoever raised it: ``str()`` and ``format()`` word it then, and a
    value that is itself a :class:`Words` (or an error holding one) is worded with it.

    >>> said = Words("status.won")
    >>> str(said), said.key, f"{said:>6}"
    ('won', 'status.won', '   won')
    """

    __slots__ = ("key", "values")

    def __init__(self, key: str, /, **values: object) -> None:
        self.key = key
        self.values = values

    def __str__(self) -> str:
        return message(self.key, **self.values)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        values = "".join(f", {name}={value!r}" for name, value in self.values.items())
        return f"Words({self.key!r}{values})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Words) and (self.key, self.values) == (other.key, other.values)

    def __hash__(self) -> int:
        return hash(self.key)

    def __reduce__(self) -> tuple[object, ...]:
        # pickled by its key and values (a refusal crossing to a worker process), worded where it lands
        return (_words, (self.key, self.values))

    def __add__(self, other: object) -> Joined:
        return Joined((self, other))

    def __radd__(self, other: object) -> Joined:
        return Joined((other, self))


def _words(key: str, values: dict[str, object]) -> Words:
    return Words(key, **values)


class Joined:
    """Messages and plain text said one after another (``Words(...) + "; " + Words(...)``), each worded when shown.

    Its :attr:`key` and :attr:`values` are those of its first message: the reason an error gives first.
    """

    __slots__ = ("parts",)

    def __init__(self, parts: tuple[object, ...]) -> None:
        self.parts = parts

    @property
    def key(self) -> str | None:
        """The key of the first message said."""
        return next((part.key for part in self.parts if isinstance(part, Words)), None)

    @property
    def values(self) -> dict[str, object]:
        """The values of the first message said."""
        return next((part.values for part in self.parts if isinstance(part, Words)), {})

    def __str__(self) -> str:
        return "".join(map(str, self.parts))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return " + ".join(map(repr, self.parts))

    def __add__(self, other: object) -> Joined:
        return Joined((*self.parts, other))

    def __radd__(self, other: object) -> Joined:
        return Joined((other, *self.parts))
