"""One message catalogue for every user-facing string, in English and Portuguese.

Every sentence the engine, the board and the widgets show a person is looked
up here by key, so a lesson can run in either language of the seed rules.
Keys are shared by all languages; ``tests/test_i18n.py`` checks that they match.
Other layers add their keys with :func:`register` so each module keeps its own
strings next to it while the catalogue stays one lookup.
"""

from __future__ import annotations

import os
import reprlib

LANGUAGES = ("en", "pt")

# The language a process starts in: ``CALCNB_LANG`` (``en`` or ``pt``) when set, so a server started with
# ``python -m calcnb app --lang pt`` runs its kernels in Portuguese; anything else means English.
LANGUAGE_VARIABLE = "CALCNB_LANG"

_CATALOGUE: dict[str, dict[str, str]] = {"en": {}, "pt": {}}
_current_language = os.environ.get(LANGUAGE_VARIABLE, "").strip().lower()
if _current_language not in LANGUAGES:
    _current_language = "en"


class CalcnbError(ValueError):
    """Input calcnb refuses: the message says why, in the catalogue's language; nothing was changed.

    It lives here, beside the catalogue that words every refusal, so that the language switch
    itself refuses in words; :mod:`calcnb.errors` holds the kinds of refusal built on it.
    """


class UnknownLanguage(CalcnbError):
    """A language calcnb has no messages in (it speaks those of :data:`LANGUAGES`)."""


# How an unknown language is quoted: a language is a two-letter code, so a few characters say which was given.
_QUOTE_LANGUAGE = reprlib.Repr()
_QUOTE_LANGUAGE.maxstring = _QUOTE_LANGUAGE.maxother = 24


def register(messages: dict[str, dict[str, str]]) -> None:
    """Add messages: ``{"en": {key: text}, "pt": {key: text}}``; both languages needed."""
    missing = set(LANGUAGES) - set(messages)
    if missing:
        raise ValueError(f"messages for {sorted(missing)} are missing")
    if len({frozenset(messages[lang]) for lang in LANGUAGES}) != 1:
        raise ValueError("every language must define the same message keys")
    for lang in LANGUAGES:
        _CATALOGUE[lang].update(messages[lang])


def set_language(language: str) -> None:
    """Switch every user-facing string to ``"en"`` (English, the default) or ``"pt"``, in any case (``"PT"``).

    Raises :class:`UnknownLanguage`, in the language in use, for any other value, and keeps the language.
    """
    global _current_language
    wanted = language.lower() if isinstance(language, str) else language  # language tags ignore case (BCP 47)
    if wanted not in LANGUAGES:
        choices = ", ".join(
            message("language.choice", code=code, name=message(f"language.{code}")) for code in LANGUAGES
        )
        raise UnknownLanguage(message("language.unknown", language=_QUOTE_LANGUAGE.repr(language), choices=choices))
    _current_language = wanted


def get_language() -> str:
    """The language currently in use (``"en"`` or ``"pt"``)."""
    return _current_language


def catalogue(language: str) -> dict[str, str]:
    """A copy of every message of one language, keyed by message key."""
    return dict(_CATALOGUE[language])


def message(key: str, /, **values: object) -> str:
    """The message ``key`` in the current language, with ``values`` filled in."""
    try:
        template = _CATALOGUE[_current_language][key]
    except KeyError:
        template = _CATALOGUE["en"][key]
    return template.format(**values) if values else template


register(
    {
        "en": {
            # cards
            "card.bad": "{text} is not a card: write a rank (A, 2..10 or T, J, Q, K) then a suit (♣ ♦ ♥ ♠ or C D H S), like A♠, 10D or TD",
            "card.bad_rank": "{rank} is not a rank: ranks run 1 (A) to 13 (K)",
            "card.bad_suit": "{suit} is not a suit: use ♣ ♦ ♥ ♠ or C D H S",
            # move notation
            "move.bad": "{text} is not a move: write T, S>F2, S>W3 or W3>F2",
            "move.waste_to_waste": "{text} is not a move: waste piles only move to foundations, never to another waste",
            "move.from_foundation": "{text} is not a move: foundations never give cards back",
            "move.to_stock": "{text} is not a move: nothing goes back to the stock",
            "move.bad_foundation": "{text} is not a move: there are 4 foundations, F1 to F4",
            "move.bad_waste": "{text} is not a move: there are 4 waste piles, W1 to W4",
            # why a move is illegal
            "illegal.prefix": "{move}: {reason}",
            "illegal.pending_first": "the turned card {card} must be placed before the next turn",
            "illegal.stock_empty": "the stock is empty; there is no second pass",
            "illegal.nothing_pending": "no card is turned; turn one with T first",
            "illegal.complete": "foundation {foundation} is complete (it ends in K) and accepts nothing more",
            "illegal.needs_pending": "foundation {foundation} needs {need} after {top}; the turned card is {card}",
            "illegal.needs_waste": "foundation {foundation} needs {need} after {top}; the top of waste {waste} is {card}",
            "illegal.waste_empty": "waste {waste} is empty",
            # explanations
            "explain.turn": "Turned {card} from the stock ({left} left): place it on a foundation that needs it or on a waste pile",
            "explain.onto": "{card} onto {top} on foundation {foundation}: {top_value} + {step} = {total}",
            "explain.wrap": ", and {total} wraps past K to {wrapped} ({name})",
            "explain.complete": "; foundation {foundation} is complete",
            "explain.to_waste": "{card} onto waste {waste}: any card may go on a waste, and only the top stays available",
            "explain.to_waste_on": "{card} onto waste {waste}, on top of {under}: any card may go on a waste, and only the top stays available",
            # deals and positions
            "deal.no_bar": "a deal code is the 4 starters, a '|', then the 48 stock cards; there is no '|' in {text}",
            "deal.starter_count": "a deal needs 4 starters (an A, 2, 3 and 4); found {count}",
            "deal.starter_rank": "starter {index} must be of rank {need} (foundation {index} builds in steps of {index}); found {card}",
            "deal.stock_count": "a deal needs 48 stock cards; found {count}",
            "deal.duplicate": "{card} appears more than once",
            "deal.missing": "{cards} missing: a game uses each of the 52 cards exactly once",
            "position.piles": "{what} must be 4 piles; found {count}",
            "position.empty_foundation": "foundation {foundation} is empty; it starts with its starter, of rank {need}",
            "position.foundation_order": "foundation {foundation} cannot hold {card} after {top}: it needs {need}",
            "position.foundation_start": "foundation {foundation} must start with rank {need}; found {card}",
            "position.foundation_full": "foundation {foundation} is complete with its 13 cards (it ends in K) and cannot hold {card}",
            # status and board text
            "status.playing": "playing",
            "status.won": "won",
            "status.lost": "lost",
            "board.title": "Calculation: {status}, score {score}/52",
            "board.foundations": "Foundations",
            "board.foundation_line": "F{foundation} (+{foundation}): {cards}",
            "board.next": "next {need}",
            "board.complete": "complete",
            "board.wastes": "Waste piles (bottom to top)",
            "board.waste_line": "W{waste}: {cards}",
            "board.empty": "empty",
            "board.top": "top {card}",
            "board.stock": "Stock: {count} cards face down",
            "board.pending": "Turned card: {card} (place it before the next turn)",
            "board.no_pending": "Turned card: none",
            # saves
            "save.bad_json": "not a calcnb save: {detail}",
            "save.bad_field": "not a calcnb save: {detail}",
            "save.version": "this save has version {version}; this calcnb reads version {supported}",
            "save.bad_move": "move {number} of the save, {move}, cannot be played: {reason}",
            # the language switch
            "language.unknown": "unknown language {language}: calcnb speaks {choices}",
            "language.choice": "{code} ({name})",
            "language.en": "English",
            "language.pt": "Portuguese",
        },
        "pt": {
            "card.bad": "{text} não é uma carta: escreva um valor (A, 2..10 ou T, J, Q, K) e um naipe (♣ ♦ ♥ ♠ ou C D H S), como A♠, 10D ou TD",
            "card.bad_rank": "{rank} não é um valor: os valores vão de 1 (A) a 13 (K)",
            "card.bad_suit": "{suit} não é um naipe: use ♣ ♦ ♥ ♠ ou C D H S",
            "move.bad": "{text} não é uma jogada: escreva T, S>F2, S>W3 ou W3>F2",
            "move.waste_to_waste": "{text} não é uma jogada: um descarte só vai para uma base, nunca para outro descarte",
            "move.from_foundation": "{text} não é uma jogada: as bases nunca devolvem cartas",
            "move.to_stock": "{text} não é uma jogada: nada volta ao monte",
            "move.bad_foundation": "{text} não é uma jogada: há 4 bases, F1 a F4",
            "move.bad_waste": "{text} não é uma jogada: há 4 descartes, W1 a W4",
            "illegal.prefix": "{move}: {reason}",
            "illegal.pending_first": "a carta virada {card} tem de ser colocada antes de virar outra",
            "illegal.stock_empty": "o monte está vazio; não há segunda passagem",
            "illegal.nothing_pending": "não há carta virada; vire uma com T primeiro",
            "illegal.complete": "a base {foundation} está completa (termina em K) e não aceita mais nada",
            "illegal.needs_pending": "a base {foundation} precisa de {need} após {top}; a carta virada é {card}",
            "illegal.needs_waste": "a base {foundation} precisa de {need} após {top}; o topo do descarte {waste} é {card}",
            "illegal.waste_empty": "o descarte {waste} está vazio",
            "explain.turn": "Virou {card} do monte (restam {left}): coloque-a numa base que a aceite ou num descarte",
            "explain.onto": "{card} sobre {top} na base {foundation}: {top_value} + {step} = {total}",
            "explain.wrap": ", e {total} passa K e volta a {wrapped} ({name})",
            "explain.complete": "; a base {foundation} está completa",
            "explain.to_waste": "{card} no descarte {waste}: qualquer carta pode ir para um descarte, e só o topo fica disponível",
            "explain.to_waste_on": "{card} no descarte {waste}, sobre {under}: qualquer carta pode ir para um descarte, e só o topo fica disponível",
            "deal.no_bar": "um código de distribuição tem as 4 cartas iniciais, um '|', e as 48 cartas do monte; não há '|' em {text}",
            "deal.starter_count": "uma distribuição precisa de 4 cartas iniciais (um A, 2, 3 e 4); esta tem {count}",
            "deal.starter_rank": "a carta inicial {index} tem de ser um {need} (a base {index} avança em passos de {index}); é {card}",
            "deal.stock_count": "uma distribuição precisa de 48 cartas no monte; esta tem {count}",
            "deal.duplicate": "{card} aparece mais de uma vez",
            "deal.missing": "cartas em falta: {cards}; um jogo usa cada uma das 52 cartas exatamente uma vez",
            "position.piles": "{what} tem de ter 4 pilhas, não {count}",
            "position.empty_foundation": "a base {foundation} está vazia; começa com a sua carta inicial, um {need}",
            "position.foundation_order": "a base {foundation} não pode ter {card} após {top}: precisa de {need}",
            "position.foundation_start": "a base {foundation} tem de começar com um {need}, não com {card}",
            "position.foundation_full": "a base {foundation} está completa com as suas 13 cartas (termina em K) e não pode ter {card}",
            "status.playing": "em jogo",
            "status.won": "ganho",
            "status.lost": "perdido",
            "board.title": "Cálculo: {status}, pontos {score}/52",
            "board.foundations": "Bases",
            "board.foundation_line": "B{foundation} (+{foundation}): {cards}",
            "board.next": "a seguir {need}",
            "board.complete": "completa",
            "board.wastes": "Descartes (de baixo para o topo)",
            "board.waste_line": "D{waste}: {cards}",
            "board.empty": "vazio",
            "board.top": "topo {card}",
            "board.stock": "Monte: {count} cartas tapadas",
            "board.pending": "Carta virada: {card} (coloque-a antes de virar outra)",
            "board.no_pending": "Carta virada: nenhuma",
            "save.bad_json": "não é um jogo guardado do calcnb: {detail}",
            "save.bad_field": "não é um jogo guardado do calcnb: {detail}",
            "save.version": "este jogo guardado tem a versão {version}; este calcnb lê a versão {supported}",
            "save.bad_move": "a jogada {number} do jogo guardado, {move}, não pode ser feita: {reason}",
            "language.unknown": "língua desconhecida {language}: o calcnb fala {choices}",
            "language.choice": "{code} ({name})",
            "language.en": "inglês",
            "language.pt": "português",
        },
    }
)


# Messages of the rules core layers (cards arithmetic, deals, strategies, studies): kept in a block of their own.
register(
    {
        "en": {
            "arithmetic.bad_step": "a step must be a positive whole number; got {step}",
            "arithmetic.bad_modulus": "the number of ranks must be a whole number of at least 2; got {modulus}",
            "arithmetic.no_inverse": "{value} has no inverse modulo {modulus}: they share a factor",
            "position.not_a_position": "expected a Game, a State or a deal code; got {kind}",
            "card.immutable": "cards are immutable: make another card instead",
            "position.what_foundations": "the foundations",
            "position.what_wastes": "the wastes",
        },
        "pt": {
            "arithmetic.bad_step": "um passo tem de ser um número inteiro positivo; recebi {step}",
            "arithmetic.bad_modulus": "o número de valores tem de ser um inteiro de pelo menos 2; recebi {modulus}",
            "arithmetic.no_inverse": "{value} não tem inverso módulo {modulus}: têm um fator comum",
            "position.not_a_position": "esperava um Game, um State ou um código de distribuição; recebi {kind}",
            "card.immutable": "as cartas não se alteram: faça outra carta",
            "position.what_foundations": "as bases",
            "position.what_wastes": "os descartes",
        },
    }
)
