# ruff: noqa: E501  (the message catalogue reads best one message a line, however long)
"""The lesson's pure content: tables, positions, the exercise bank and its judge (no widgets here).

Every table is computed from calcnb's arithmetic, so a lesson prints it and never types a number
in by hand. The exercises are data: each :class:`Item` holds its question, its answer and the
reasoning (computed by calcnb), the forms of answer accepted, and the feedback for each common
wrong answer, named by a misconception identifier (:data:`MISCONCEPTIONS`). One function,
:func:`judge`, reads any text a student types and never raises. :data:`BANK` holds the exercises
by stable identifier; each has variants, and :func:`variant_for` gives each student (by the name
they type, or by a seed drawn per visit) their own.

:class:`Attempt` is the record of one check, handed to every answer listener (see
:func:`calcnb.lessons.add_answer_listener`), for example to gather a class's answers.

>>> print(order_table(steps=(2,)).splitlines()[-1])
+2   | 2 4 6 8 10 Q A 3 5 7  9  J  K
>>> item = BANK["next-wrap"].item(0)
>>> judge(item, item.solution).correct, judge(item, "²").correct, judge(item, "--5").correct
(True, None, None)
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .cards import (
    DECK,
    RANK_COUNT,
    SUITS,
    Card,
    foundation_order,
    modular_inverse,
    next_rank,
    parse_cards,
    position_in_order,
    rank_name,
)
from .deals import SeededRandom
from .engine import ALL_MOVES, STOCK_TO_FOUNDATION, IllegalMove, InvalidMove, Move, State, render_text
from .i18n import message, register
from .rules import STEPS, MoveKind, order_of
from .session import Game, save_field

__all__ = [
    "BANK",
    "LESSON_EXERCISES",
    "MISCONCEPTIONS",
    "POSITIONS",
    "WORKSHEET_EXERCISES",
    "Attempt",
    "ExerciseKind",
    "Feedback",
    "Item",
    "answer_key",
    "attempt",
    "clock_table",
    "coverage_table",
    "game_summary",
    "inverse_table",
    "judge",
    "lesson_game",
    "misconception_name",
    "move_table",
    "multiples_table",
    "nearly_won_game",
    "next_card_table",
    "order_summary",
    "order_table",
    "played_again",
    "position_table",
    "position_text",
    "positions_check",
    "question_with_answer",
    "replay_lines",
    "replay_script",
    "same_game",
    "save_summary",
    "script_text",
    "status_summary",
    "student_items",
    "took_back",
    "variant_for",
    "wrong_answers",
]


class Feedback(NamedTuple):
    """What a check says: ``correct`` is True, False, or None when the answer could not be read.

    ``misconception`` names the wrong idea a wrong answer shows (one of :data:`MISCONCEPTIONS`), or is None.
    """

    correct: bool | None
    text: str
    misconception: str | None = None


@dataclass(frozen=True)
class Attempt:
    """One check of an exercise: which exercise and variant, what was typed, and the verdict.

    ``correct`` is False for an answer that could not be read (``misconception`` is then
    ``"unreadable"``); ``language`` is the language the student saw; ``timestamp`` is seconds
    since the epoch (:func:`time.time`).
    """

    exercise_id: str
    variant: int | str
    answer: str
    correct: bool
    misconception: str | None
    language: str
    timestamp: float


# The wrong ideas the exercises recognise, by stable identifier (their names are messages "lessons.mis.<id>").
MISCONCEPTIONS = (
    "off_by_one",
    "no_wraparound",
    "counting_the_start",
    "zero_for_king",
    "multiple_for_king",
    "counted_laps",
    "buried_card",
    "past_complete",
    "wrong_step",
    "every_number_reached",
    "reciprocal",
    "multiplied_not_divided",
    "rank_as_place",
    "unreadable",
)

register(
    {
        "en": {
            "lessons.right": "✓ Right: {why}",
            "lessons.wrong": "✗ Not {answer}: {reason} Try again.",
            "lessons.unread": "? {reason}",
            "lessons.answer_is": "The answer is {answer}: {why}",
            "lessons.key_line": "{number}. {question}\n   Answer: {answer}. {why}",
            "lessons.question_answer": "{question}  (answer: {answer})",
            "lessons.mis.off_by_one": "off by one",
            "lessons.mis.no_wraparound": "forgets the wraparound past K",
            "lessons.mis.counting_the_start": "counts the start wrongly",
            "lessons.mis.zero_for_king": "0 for K (the clock has no 0)",
            "lessons.mis.multiple_for_king": "13 × k for K (not reduced)",
            "lessons.mis.counted_laps": "the number of laps instead of where it lands",
            "lessons.mis.buried_card": "takes a card buried in a waste pile",
            "lessons.mis.past_complete": "a complete foundation (K on top) takes more",
            "lessons.mis.wrong_step": "adds the wrong step",
            "lessons.mis.every_number_reached": "assumes every number is reached",
            "lessons.mis.reciprocal": "reads k⁻¹ as the fraction 1/k",
            "lessons.mis.multiplied_not_divided": "multiplies by k instead of by k⁻¹",
            "lessons.mis.rank_as_place": "takes the rank for its place",
            "lessons.mis.unreadable": "answer could not be read",
            # reading answers
            "lessons.read_rank": "Write a rank: A, 2 to 10, J, Q or K (or a number 1 to 13).",
            "lessons.read_number": "Write a whole number, like 7.",
            "lessons.read_rank_or_none": "Write a rank (A, 2 to 10, J, Q, K), or 'none' if no card may go on.",
            "lessons.read_yes_no": "Answer yes or no.",
            "lessons.read_foundation": "Write a foundation number, 1 to 4 (or several, like '1 and 4'), or 'waste' if no foundation takes the card.",
            "lessons.waste_word": "waste",
            "lessons.none_word": "none",
            "lessons.yes": "yes",
            "lessons.no": "no",
            # the clock of 13
            "lessons.clock.question": "On the clock of 13, where does {total} land? (Answer 1 to 13; 13 is K.)",
            "lessons.clock.why": "{total} = {laps} × 13 + {left}, so it lands on {answer}",
            "lessons.clock.why_zero": "{total} = {laps} × 13 + 0: remainder 0 is read as 13, the K",
            "lessons.clock.past": "{value} is past 13: the clock goes round again after K, so take 13 away (as often as needed).",
            "lessons.clock.once": "{value} is still past 13: take 13 away once more.",
            "lessons.clock.zero": "there is no 0 on the clock of 13: a remainder of 0 is read as 13, the K.",
            "lessons.clock.multiple": "{value} = {laps} × 13 lands exactly where 13 does: on the K, not past it.",
            "lessons.clock.laps": "{value} is how many times 13 goes into {total} (the laps), not where it lands.",
            "lessons.clock.near": "close: count again from {start} = {laps_before} × 13 + {start_left}.",
            "lessons.clock.other": "take 13 away (as often as needed) until what is left is between 1 and 13.",
            # the next card
            "lessons.next.question": "Foundation +{step} has {top} on top. Which rank goes on next?",
            "lessons.next.why": "{top_value} + {step} = {total}, so {answer} comes next",
            "lessons.next.why_wrap": "{top_value} + {step} = {total}, which is past K: {total} − 13 = {answer_value}, so {answer} comes next",
            "lessons.next.no_such_rank": "there is no rank {total}; after K the count goes on from A, so take 13 away.",
            "lessons.next.near": "close: {top_value} + {step} is exactly {step} more than {top}, no more and no less.",
            "lessons.next.wrong_step": "foundation +{step} adds {step}, not 1.",
            "lessons.next.other": "foundation +{step} adds {step} to the value of its top card, {top}.",
            # a complete foundation
            "lessons.complete.question": "Foundation +{step} has K on top. Which rank goes on next? (A rank, or 'none'.)",
            "lessons.complete.why": "K is the 13th and last card of every foundation: with K on top foundation +{step} holds all 13 ranks and is complete, so no card goes on",
            "lessons.complete.past": "on the clock 13 + {step} would land on {rank}, but a foundation with K on top is complete (all 13 ranks) and takes nothing more.",
            "lessons.complete.other": "look at how many cards a foundation holds when K is on top.",
            # the card at a place
            "lessons.nth.question": "Foundation +{step} starts with {step}. Which rank is its card number {place}?",
            "lessons.nth.why": "card number {place} is {place} × {step} = {product} = {laps} × 13 + {left} on the clock, so {answer}",
            "lessons.nth.why_zero": "card number {place} is {place} × {step} = {product} = {laps} × 13 + 0, and remainder 0 is read as 13, the K",
            "lessons.nth.unreduced": "{value} is {place} × {step} itself, but ranks stop at 13: take away 13s.",
            "lessons.nth.start": "that is card number {later}: the starter {step} is card number 1, so card {place} is {place} × {step}.",
            "lessons.nth.before": "that is card number {earlier}, one card too early.",
            "lessons.nth.other": "card number {place} of foundation +{step} is {place} × {step}, counted round the clock of 13.",
            # visits on other clocks
            "lessons.visits.question": "Count round a clock of {ranks} in steps of {step}, starting at {step}. How many different numbers does the count land on before it comes back to {step}? (Count {step} itself once.)",
            "lessons.visits.why": "the count lands on {visited}: {count} numbers. gcd({step}, {ranks}) = {factor}, and {ranks} ÷ {factor} = {count}",
            "lessons.visits.twice": "you counted {step} twice: when the count comes back to {step}, that is not a new number.",
            "lessons.visits.left_out": "count {step} itself too: it is the first number the count lands on.",
            "lessons.visits.every": "{step} and {ranks} share the factor {factor}, so the count cannot reach every number: it comes back to {step} early.",
            "lessons.visits.too_many": "a clock of {ranks} has only {ranks} numbers.",
            "lessons.visits.other": "write the numbers down as you count, starting at {step}, and stop when {step} comes round again.",
            # the inverse
            "lessons.inverse.question": "Which whole number x from 1 to 12 makes {step} × x ≡ 1 (mod 13), that is, leaves remainder 1 when divided by 13?",
            "lessons.inverse.why": "{step} × {answer} = {product} = {laps} × 13 + 1, so {step}⁻¹ ≡ {answer} (mod 13)",
            "lessons.inverse.wrong": "{step} × {value} = {product} = {laps} × 13 + {left}: remainder {left}, not 1.",
            "lessons.inverse.reciprocal": "on the clock k⁻¹ is not the fraction 1/{step}: it is a whole number x from 1 to 12 with {step} × x ≡ 1 (mod 13).",
            "lessons.inverse.off": "look for a whole number x between 1 and 12.",
            # positions on a foundation
            "lessons.position.question": "At which place (1 to 13) does {rank} sit on foundation +{step}?",
            "lessons.position.why": "{step}⁻¹ ≡ {inverse} (mod 13) and {rank_value} × {inverse} = {product} = {laps} × 13 + {left}, so place {answer}; the order agrees: {order}",
            "lessons.position.rank": "{rank} sits at place {rank_value} only on foundation +1; foundation +{step} counts in steps of {step}.",
            "lessons.position.multiplied": "place {rank_value} of foundation +{step} holds {holds}: you multiplied by {step}, but to go back from a rank to its place multiply by {step}⁻¹.",
            "lessons.position.wrong": "place {value} of foundation +{step} holds {holds}, not {rank}.",
            "lessons.position.off": "places on a foundation run from 1 to 13.",
            # which foundation takes the turned card
            "lessons.fits.question": "The turned card is {card}. Which foundation takes it? (1 to 4, or 'waste' if none does.)",
            "lessons.fits.why_one": "{explanation}",
            "lessons.fits.why_many": "{explanation}; it also fits foundation {others}, so you may choose",
            "lessons.fits.why_none": "no foundation needs {rank} now (they need {needs}), so it goes on a waste pile",
            "lessons.fits.waste_but": "a waste pile always takes it, but foundation {foundations} needs {rank} now.",
            "lessons.fits.waste_wraps": "a waste pile always takes it, but foundation {foundation} needs {rank} now: {top} + {step} = {total} wraps past K to {rank}.",
            "lessons.fits.no": "{reason}.",
            # is this move legal
            "lessons.legal.question": "May you play {move} here? (yes or no)",
            "lessons.legal.question_waste": "May the top card of waste {waste} go to foundation {foundation} now? (yes or no)",
            "lessons.legal.why_yes": "{explanation}",
            "lessons.legal.why_no": "{reason}",
            "lessons.legal.buried": "{card} would fit foundation {foundation}, but it is buried under {top} in waste {waste}: only the top card of a waste pile may move.",
            "lessons.legal.it_is_illegal": "{reason}.",
            "lessons.legal.it_is_legal": "it is legal; look at what {move} moves and where it goes.",
            # tables
            "lessons.table.step": "step",
            "lessons.table.place": "place",
            "lessons.table.top": "top",
            "lessons.table.rank": "rank",
            "lessons.table.clock": "clock",
            "lessons.table.ranks": "ranks",
            "lessons.table.reached": "reached",
            "lessons.table.closes_after": "closes after",
            "lessons.table.every": "every rank?",
            "lessons.table.inverse": "inverse",
            "lessons.table.check": "check",
            "lessons.table.complete_mark": "done",
            "lessons.order_summary": "+{step}: {count} cards, {different} different ranks, the last one {last}",
            "lessons.table.complete_note": "done: K on top, the foundation is complete and takes nothing more",
            "lessons.multiple_line": "{count:>2} × {step} = {product:>2} = {laps} × 13 + {left:>2} → {rank}",
            "lessons.positions_agree": "r × k⁻¹ (mod 13) agrees with the orders for all {count} pairs of rank and foundation.",
            "lessons.positions_disagree": "r × k⁻¹ (mod 13) disagrees with the orders for {pairs}.",
            # move tables and attempts
            "lessons.legal_mark": "legal",
            "lessons.illegal_mark": "illegal",
            "lessons.table.move": "move",
            "lessons.table.why": "why",
            "lessons.no_card": "no {rank} is left for foundation {foundation}: every {rank} is already shown elsewhere",
            "lessons.height": "foundation {foundation} holds 1 to 13 cards; {height} was asked for",
            "lessons.replay_start": "Start: {cards} cards on the foundations.",
            "lessons.replay_line": "{number}. {move}: {explanation}",
        },
        "pt": {
            "lessons.right": "✓ Certo: {why}",
            "lessons.wrong": "✗ Não é {answer}: {reason} Tente de novo.",
            "lessons.unread": "? {reason}",
            "lessons.answer_is": "A resposta é {answer}: {why}",
            "lessons.key_line": "{number}. {question}\n   Resposta: {answer}. {why}",
            "lessons.question_answer": "{question}  (resposta: {answer})",
            "lessons.mis.off_by_one": "erro de um",
            "lessons.mis.no_wraparound": "esquece a volta depois do K",
            "lessons.mis.counting_the_start": "conta mal o início",
            "lessons.mis.zero_for_king": "0 em vez de K (o relógio não tem 0)",
            "lessons.mis.multiple_for_king": "13 × k em vez de K (sem reduzir)",
            "lessons.mis.counted_laps": "o número de voltas em vez de onde cai",
            "lessons.mis.buried_card": "tira uma carta enterrada num descarte",
            "lessons.mis.past_complete": "uma base completa (K no topo) aceita mais",
            "lessons.mis.wrong_step": "soma o passo errado",
            "lessons.mis.every_number_reached": "supõe que todos os números são alcançados",
            "lessons.mis.reciprocal": "lê k⁻¹ como a fração 1/k",
            "lessons.mis.multiplied_not_divided": "multiplica por k em vez de por k⁻¹",
            "lessons.mis.rank_as_place": "toma o valor pelo lugar",
            "lessons.mis.unreadable": "resposta ilegível",
            "lessons.read_rank": "Escreva um valor: A, 2 a 10, J, Q ou K (ou um número de 1 a 13).",
            "lessons.read_number": "Escreva um número inteiro, como 7.",
            "lessons.read_rank_or_none": "Escreva um valor (A, 2 a 10, J, Q, K), ou 'nenhum' se nenhuma carta pode ir.",
            "lessons.read_yes_no": "Responda sim ou não.",
            "lessons.read_foundation": "Escreva o número de uma base, 1 a 4 (ou várias, como '1 e 4'), ou 'descarte' se nenhuma base aceita a carta.",
            "lessons.waste_word": "descarte",
            "lessons.none_word": "nenhum",
            "lessons.yes": "sim",
            "lessons.no": "não",
            "lessons.clock.question": "No relógio de 13, onde cai {total}? (Responda de 1 a 13; 13 é K.)",
            "lessons.clock.why": "{total} = {laps} × 13 + {left}, por isso cai em {answer}",
            "lessons.clock.why_zero": "{total} = {laps} × 13 + 0: o resto 0 lê-se 13, o K",
            "lessons.clock.past": "{value} passa de 13: depois do K o relógio dá outra volta, por isso tire 13 (as vezes que for preciso).",
            "lessons.clock.once": "{value} ainda passa de 13: tire 13 mais uma vez.",
            "lessons.clock.zero": "não há 0 no relógio de 13: um resto 0 lê-se 13, o K.",
            "lessons.clock.multiple": "{value} = {laps} × 13 cai exatamente onde cai o 13: no K, não depois.",
            "lessons.clock.laps": "{value} é quantas vezes o 13 cabe em {total} (as voltas), não onde cai.",
            "lessons.clock.near": "quase: conte de novo a partir de {start} = {laps_before} × 13 + {start_left}.",
            "lessons.clock.other": "tire 13 (as vezes que for preciso) até o que resta ficar entre 1 e 13.",
            "lessons.next.question": "A base +{step} tem {top} no topo. Que valor vem a seguir?",
            "lessons.next.why": "{top_value} + {step} = {total}, por isso vem {answer}",
            "lessons.next.why_wrap": "{top_value} + {step} = {total}, que passa de K: {total} − 13 = {answer_value}, por isso vem {answer}",
            "lessons.next.no_such_rank": "não há valor {total}; depois do K a contagem continua em A, por isso tire 13.",
            "lessons.next.near": "quase: {top_value} + {step} é exatamente {step} a mais do que {top}, nem mais nem menos.",
            "lessons.next.wrong_step": "a base +{step} soma {step}, não 1.",
            "lessons.next.other": "a base +{step} soma {step} ao valor da carta do topo, {top}.",
            "lessons.complete.question": "A base +{step} tem K no topo. Que valor vem a seguir? (Um valor, ou 'nenhum'.)",
            "lessons.complete.why": "o K é a 13.ª e última carta de todas as bases: com K no topo a base +{step} tem os 13 valores e está completa, por isso não leva mais nenhuma carta",
            "lessons.complete.past": "no relógio 13 + {step} cairia em {rank}, mas uma base com K no topo está completa (os 13 valores) e não aceita mais nada.",
            "lessons.complete.other": "veja quantas cartas tem uma base quando o K está no topo.",
            "lessons.nth.question": "A base +{step} começa com {step}. Que valor é a sua carta número {place}?",
            "lessons.nth.why": "a carta número {place} é {place} × {step} = {product} = {laps} × 13 + {left} no relógio, por isso {answer}",
            "lessons.nth.why_zero": "a carta número {place} é {place} × {step} = {product} = {laps} × 13 + 0, e o resto 0 lê-se 13, o K",
            "lessons.nth.unreduced": "{value} é o próprio {place} × {step}, mas os valores param em 13: tire os 13.",
            "lessons.nth.start": "essa é a carta número {later}: a carta inicial {step} é a número 1, por isso a carta {place} é {place} × {step}.",
            "lessons.nth.before": "essa é a carta número {earlier}, uma carta cedo demais.",
            "lessons.nth.other": "a carta número {place} da base +{step} é {place} × {step}, contado no relógio de 13.",
            "lessons.visits.question": "Conte num relógio de {ranks} de {step} em {step}, a começar em {step}. Em quantos números diferentes cai a contagem antes de voltar a {step}? (Conte o próprio {step} uma vez.)",
            "lessons.visits.why": "a contagem cai em {visited}: {count} números. mdc({step}, {ranks}) = {factor}, e {ranks} ÷ {factor} = {count}",
            "lessons.visits.twice": "contou o {step} duas vezes: quando a contagem volta a {step}, não é um número novo.",
            "lessons.visits.left_out": "conte também o próprio {step}: é o primeiro número em que a contagem cai.",
            "lessons.visits.every": "{step} e {ranks} têm o fator comum {factor}, por isso a contagem não chega a todos os números: volta a {step} mais cedo.",
            "lessons.visits.too_many": "um relógio de {ranks} só tem {ranks} números.",
            "lessons.visits.other": "escreva os números enquanto conta, a começar em {step}, e pare quando {step} voltar.",
            "lessons.inverse.question": "Que número inteiro x de 1 a 12 faz {step} × x ≡ 1 (mod 13), isto é, deixa resto 1 na divisão por 13?",
            "lessons.inverse.why": "{step} × {answer} = {product} = {laps} × 13 + 1, por isso {step}⁻¹ ≡ {answer} (mod 13)",
            "lessons.inverse.wrong": "{step} × {value} = {product} = {laps} × 13 + {left}: resto {left}, não 1.",
            "lessons.inverse.reciprocal": "no relógio k⁻¹ não é a fração 1/{step}: é um número inteiro x de 1 a 12 com {step} × x ≡ 1 (mod 13).",
            "lessons.inverse.off": "procure um número inteiro x entre 1 e 12.",
            "lessons.position.question": "Em que lugar (1 a 13) fica {rank} na base +{step}?",
            "lessons.position.why": "{step}⁻¹ ≡ {inverse} (mod 13) e {rank_value} × {inverse} = {product} = {laps} × 13 + {left}, por isso lugar {answer}; a ordem confirma: {order}",
            "lessons.position.rank": "{rank} fica no lugar {rank_value} só na base +1; a base +{step} conta de {step} em {step}.",
            "lessons.position.multiplied": "o lugar {rank_value} da base +{step} tem {holds}: multiplicou por {step}, mas para ir de um valor ao seu lugar multiplica-se por {step}⁻¹.",
            "lessons.position.wrong": "o lugar {value} da base +{step} tem {holds}, não {rank}.",
            "lessons.position.off": "os lugares numa base vão de 1 a 13.",
            "lessons.fits.question": "A carta virada é {card}. Que base a aceita? (1 a 4, ou 'descarte' se nenhuma aceita.)",
            "lessons.fits.why_one": "{explanation}",
            "lessons.fits.why_many": "{explanation}; também serve na base {others}, por isso pode escolher",
            "lessons.fits.why_none": "nenhuma base precisa agora de {rank} (precisam de {needs}), por isso vai para um descarte",
            "lessons.fits.waste_but": "um descarte aceita-a sempre, mas a base {foundations} precisa agora de {rank}.",
            "lessons.fits.waste_wraps": "um descarte aceita-a sempre, mas a base {foundation} precisa agora de {rank}: {top} + {step} = {total} passa K e volta a {rank}.",
            "lessons.fits.no": "{reason}.",
            "lessons.legal.question": "Pode jogar {move} aqui? (sim ou não)",
            "lessons.legal.question_waste": "A carta do topo do descarte {waste} pode ir agora para a base {foundation}? (sim ou não)",
            "lessons.legal.why_yes": "{explanation}",
            "lessons.legal.why_no": "{reason}",
            "lessons.legal.buried": "{card} serviria na base {foundation}, mas está enterrada sob {top} no descarte {waste}: só a carta do topo de um descarte se pode mover.",
            "lessons.legal.it_is_illegal": "{reason}.",
            "lessons.legal.it_is_legal": "é permitida; veja que carta {move} move e para onde vai.",
            "lessons.table.step": "passo",
            "lessons.table.place": "lugar",
            "lessons.table.top": "topo",
            "lessons.table.rank": "valor",
            "lessons.table.clock": "relógio",
            "lessons.table.ranks": "valores",
            "lessons.table.reached": "alcançados",
            "lessons.table.closes_after": "fecha após",
            "lessons.table.every": "todos?",
            "lessons.table.inverse": "inverso",
            "lessons.table.check": "verificação",
            "lessons.table.complete_mark": "fim",
            "lessons.order_summary": "+{step}: {count} cartas, {different} valores diferentes, a última {last}",
            "lessons.table.complete_note": "fim: K no topo, a base está completa e não aceita mais nada",
            "lessons.multiple_line": "{count:>2} × {step} = {product:>2} = {laps} × 13 + {left:>2} → {rank}",
            "lessons.positions_agree": "r × k⁻¹ (mod 13) coincide com as ordens para todos os {count} pares de valor e base.",
            "lessons.positions_disagree": "r × k⁻¹ (mod 13) não coincide com as ordens para {pairs}.",
            "lessons.legal_mark": "permitida",
            "lessons.illegal_mark": "proibida",
            "lessons.table.move": "jogada",
            "lessons.table.why": "porquê",
            "lessons.no_card": "não resta nenhum {rank} para a base {foundation}: todos os {rank} já aparecem noutro sítio",
            "lessons.height": "a base {foundation} tem de 1 a 13 cartas; foi pedido {height}",
            "lessons.replay_start": "Início: {cards} cartas nas bases.",
            "lessons.replay_line": "{number}. {move}: {explanation}",
        },
    }
)

# ---------------------------------------------------------------- tables


def _table(header: Sequence[str], rows: Iterable[Sequence[object]], *, first_sep: str = " | ") -> str:
    """Columns padded to their widest cell; the first column set apart by ``first_sep``."""
    rows = [[str(cell) for cell in row] for row in rows]
    header = [str(cell) for cell in header]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = " ".join(cell.ljust(width) for cell, width in zip(cells[1:], widths[1:]))
        return (first + first_sep + rest).rstrip()

    return "\n".join([line(header), *map(line, rows)])


def _step_label(step: int) -> str:
    return f"+{step}"


def order_table(steps: Sequence[int] = STEPS) -> str:
    """The foundation orders, one row a step, one column a place (1..13), in card names.

    >>> print(order_table(steps=(1,)))
    step | 1 2 3 4 5 6 7 8 9 10 11 12 13
    +1   | A 2 3 4 5 6 7 8 9 10 J  Q  K
    """
    header = [message("lessons.table.step"), *range(1, RANK_COUNT + 1)]
    rows = [[_step_label(step), *map(rank_name, foundation_order(step))] for step in steps]
    return _table(header, rows)


def next_card_table(steps: Sequence[int] = STEPS, tops: Sequence[int] = range(1, RANK_COUNT + 1)) -> str:
    """For each step and each top card, the rank that goes on next: ``(top + step - 1) mod 13 + 1``.

    Under a K the table says the foundation is complete (a K is the 13th and last card of every
    foundation, so it takes nothing more), and a note under the table says so.
    """
    done = message("lessons.table.complete_mark")
    # a top that is the last card of its order (K for every step) means the foundation is complete
    header = [f"{message('lessons.table.step')} \\ {message('lessons.table.top')}", *map(rank_name, tops)]
    rows = [
        [_step_label(step), *(done if top == order_of(step)[-1] else rank_name(next_rank(top, step)) for top in tops)]
        for step in steps
    ]
    table = _table(header, rows)
    return table + "\n" + message("lessons.table.complete_note") if RANK_COUNT in tops else table


def clock_table(totals: Iterable[int]) -> str:
    """Where each whole number lands on the clock of 13 (0 read as 13, shown as its card name)."""
    totals = list(totals)
    header = ["n", *totals]
    row = [message("lessons.table.clock"), *(rank_name((total - 1) % RANK_COUNT + 1) for total in totals)]
    return _table(header, [row])


def order_summary(step: int) -> str:
    """One line on foundation ``step``: how many cards, how many different ranks, and its last card."""
    order = foundation_order(step)
    return message(
        "lessons.order_summary", step=step, count=len(order), different=len(set(order)), last=rank_name(order[-1])
    )


def multiples_table(step: int) -> str:
    """The places 1..13 of foundation ``step`` as multiples: ``n × step = laps × 13 + left → rank``.

    Shows why every order ends in K: 13 × step leaves remainder 0, read as K.
    """
    lines = []
    for count in range(1, RANK_COUNT + 1):
        product = count * step
        laps, left = divmod(product, RANK_COUNT)
        rank = rank_name(left or RANK_COUNT)
        lines.append(
            message("lessons.multiple_line", count=count, step=step, product=product, laps=laps, left=left, rank=rank)
        )
    return "\n".join(lines)


def inverse_table(steps: Iterable[int] = range(1, RANK_COUNT)) -> str:
    """Each step's inverse mod 13, checked: ``k × k⁻¹ = laps × 13 + 1``."""
    header = [message("lessons.table.step"), message("lessons.table.inverse"), message("lessons.table.check")]
    rows = []
    for step in steps:
        inverse = modular_inverse(step)
        product = step * inverse
        laps, left = divmod(product, RANK_COUNT)
        rows.append([step, inverse, f"{step} × {inverse} = {product} = {laps} × 13 + {left}"])
    return _table(header, rows)


def position_table(steps: Sequence[int] = STEPS) -> str:
    """Where each rank sits on each foundation, computed as ``r × k⁻¹ (mod 13)`` (0 read as 13)."""
    header = [f"{message('lessons.table.step')} \\ {message('lessons.table.rank')}", *map(rank_name, range(1, 14))]
    rows = [[_step_label(step), *(position_in_order(rank, step) for rank in range(1, 14))] for step in steps]
    return _table(header, rows)


def positions_check(steps: Sequence[int] = STEPS) -> str:
    """Compare ``r × k⁻¹ (mod 13)`` with the place of ``r`` in each computed order, and say the result."""
    disagreements = [
        f"{rank_name(rank)} on +{step}"
        for step in steps
        for rank in range(1, RANK_COUNT + 1)
        if foundation_order(step)[position_in_order(rank, step) - 1] != rank
    ]
    if disagreements:
        return message("lessons.positions_disagree", pairs=", ".join(disagreements))
    return message("lessons.positions_agree", count=len(steps) * RANK_COUNT)


def coverage_table(clocks: Sequence[int] = (12, 13, 16), steps: Sequence[int] = STEPS) -> str:
    """For each clock size and step: how many ranks the order reaches, and whether it reaches them all.

    Computed by :func:`calcnb.orders.walk`, the same computation the OrderExplorer draws.
    """
    from .orders import walk

    header = [
        message("lessons.table.ranks"),
        message("lessons.table.step"),
        message("lessons.table.reached"),
        message("lessons.table.every"),
    ]
    rows = []
    for ranks in clocks:
        for step in steps:
            order = walk(step, ranks)
            every = message("lessons.yes") if order.reaches_every_rank else message("lessons.no")
            rows.append([ranks, _step_label(step), f"{order.closes_after}/{ranks}", every])
    return _table(header, rows)


# ---------------------------------------------------------------- positions and moves


def move_table(state: State | Game, moves: Iterable[Move | str] | None = None) -> str:
    """Each move (all 25 by default) marked legal or illegal, with the engine's explanation or reason."""
    if isinstance(state, Game):
        state = state.state
    chosen = ALL_MOVES if moves is None else [Move.parse(move) for move in moves]
    rows = []
    for move in chosen:
        reason = state.why_illegal(move)
        if reason is None:
            rows.append([move.text, "✓ " + message("lessons.legal_mark"), state.explain(move)])
        else:
            rows.append([move.text, "✗ " + message("lessons.illegal_mark"), reason])
    header = [message("lessons.table.move"), "", message("lessons.table.why")]
    return _table(header, rows, first_sep="  ")


def attempt(game: Game, move: Move | str) -> str:
    """Try ``move`` in ``game``: play it and say what it did, or say why not and change nothing.

    The sentences are the engine's own: :meth:`Game.explain` for a legal move, the
    :class:`~calcnb.engine.IllegalMove` or :class:`~calcnb.engine.InvalidMove` message otherwise.
    """
    try:
        parsed = Move.parse(move)
        sentence = game.explain(parsed)
    except (InvalidMove, IllegalMove) as error:
        return f"✗ {error}"
    game.play(parsed)
    return f"✓ {parsed.text}: {sentence}"


def lesson_game(
    foundations: Sequence[str | int],
    wastes: Sequence[str] = ("", "", "", ""),
    pending: str | Card | None = None,
    *,
    seed: int | str = "lesson",
) -> Game:
    """A complete 52-card position for a lesson, built with :meth:`Game.from_position`.

    Each foundation is either its cards as text (``"2♣ 4♥ 6♦"``) or a height (how
    many cards of its order it holds; the suits are the first not shown elsewhere).
    Every card not shown goes to the stock, in an order shuffled from ``seed``.
    """
    shown = [card for pile in foundations if isinstance(pile, str) for card in parse_cards(pile)]
    shown += [card for pile in wastes for card in parse_cards(pile)]
    if pending is not None:
        shown.append(Card.parse(pending))
    used = set(shown)
    piles: list[Sequence[Card] | str] = []
    for number, pile in enumerate(foundations, start=1):
        if isinstance(pile, str):
            piles.append(pile)
            continue
        if not 1 <= pile <= RANK_COUNT:
            raise ValueError(message("lessons.height", foundation=number, height=pile))
        cards = []
        for rank in foundation_order(number)[:pile]:
            free = [Card(rank, suit) for suit in SUITS if Card(rank, suit) not in used]
            if not free:
                raise ValueError(message("lessons.no_card", rank=rank_name(rank), foundation=number))
            cards.append(free[0])
            used.add(free[0])
        piles.append(cards)
    stock = [card for card in DECK if card not in used]
    SeededRandom(seed).shuffle(stock)
    return Game.from_position(foundations=piles, wastes=wastes, stock=stock, pending=pending)


def position_text(position: State | Game) -> str:
    """The position in plain text without the board's hints (no "next" rank, no top marked): for exercises.

    The engine's own text board (``print(game)``) names the rank each foundation needs,
    which would answer a "which foundation takes it?" question before it is asked.
    """
    state = position.state if isinstance(position, Game) else position
    return render_text(state, hints=False)


def nearly_won_game() -> Game:
    """A position one move from a win: three foundations complete, the fourth waiting for the K on waste 1."""
    last_of_four = rank_name(foundation_order(4)[-1])
    return lesson_game((13, 13, 13, 12), wastes=(f"{last_of_four}♠", "", "", ""))


def script_text(script: Iterable, *, width: int = 100) -> str:
    """A script of steps (such as :func:`calcnb.examples.worked_example`) as numbered, wrapped text."""
    import textwrap

    blocks = []
    for number, step in enumerate(script, start=1):
        title = getattr(step, "title", "")
        heading = f"{number}. {title}" if title else f"{number}."
        body = textwrap.fill(step.caption, width=width, initial_indent="   ", subsequent_indent="   ")
        blocks.append(f"{heading}\n{body}")
    return "\n".join(blocks)


def replay_lines(game: Game) -> str:
    """The game's moves, one a line, each with the engine's explanation from the position it was played in."""
    lines = [message("lessons.replay_start", cards=game.start.score)]
    for number, (before, move) in enumerate(zip(game.states, game.history), start=1):
        lines.append(message("lessons.replay_line", number=number, move=move.text, explanation=before.explain(move)))
    return "\n".join(lines)


def replay_script(game: Game) -> list:
    """The game as a script for :class:`calcnb.Stepper`: the start, then one step per move played."""
    from .examples import Step

    lines = replay_lines(game).splitlines()
    steps = [Step(game.start, lines[0])]
    for index, move in enumerate(game.history, start=1):
        steps.append(Step(game.states[index], lines[index], last_move=move))
    return steps


# ---------------------------------------------------------------- a game in words

# What a notebook prints about a game it plays, undoes, saves and loads: a block of its own.
register(
    {
        "en": {
            "lessons.status_summary": "{status}, score {score}/52",
            "lessons.game_summary": "after {moves}: {summary}",
            "lessons.one_move": "1 move",
            "lessons.moves": "{count} moves",
            "lessons.took_back": "took back {moves}",
            "lessons.played_again": "played again {moves}",
            "lessons.no_move": "nothing",
            "lessons.and": "{first} and {last}",
            "lessons.save_summary": "saved: {fields} - {moves}",
            "lessons.same_game": "same moves: {moves} - same position: {position}",
        },
        "pt": {
            "lessons.status_summary": "{status}, pontos {score}/52",
            "lessons.game_summary": "após {moves}: {summary}",
            "lessons.one_move": "1 jogada",
            "lessons.moves": "{count} jogadas",
            "lessons.took_back": "desfez {moves}",
            "lessons.played_again": "jogou de novo {moves}",
            "lessons.no_move": "nada",
            "lessons.and": "{first} e {last}",
            "lessons.save_summary": "guardado: {fields} - {moves}",
            "lessons.same_game": "mesmas jogadas: {moves} - mesma posição: {position}",
        },
    }
)


def _and(items: Sequence[object]) -> str:
    """``items`` as a list in words: ``A``, ``A and B``, ``A, B and C`` (``e`` in Portuguese)."""
    texts = [str(item) for item in items]
    if len(texts) < 2:
        return "".join(texts)
    return message("lessons.and", first=", ".join(texts[:-1]), last=texts[-1])


def _yes_no(answer: bool) -> str:
    return message("lessons.yes") if answer else message("lessons.no")


def _moves(count: int) -> str:
    """``count`` moves, in words (``1 move``, ``103 moves``)."""
    return message("lessons.one_move") if count == 1 else message("lessons.moves", count=count)


def status_summary(position: Game | State) -> str:
    """Where a game or position stands, in words: its status and its score (``playing, score 51/52``)."""
    return message("lessons.status_summary", status=message(f"status.{position.status}"), score=position.score)


def game_summary(game: Game) -> str:
    """What a game has come to, in words: how many moves it has, then its status and score."""
    return message("lessons.game_summary", moves=_moves(len(game.history)), summary=status_summary(game))


def _moves_said(moves: Sequence[Move | None]) -> str:
    """The moves :meth:`Game.undo` or :meth:`Game.redo` returned (None: there was none), in words."""
    played = [move.text for move in moves if move is not None]
    return _and(played) if played else message("lessons.no_move")


def took_back(*moves: Move | None) -> str:
    """What undoing took back, in words: pass the moves :meth:`Game.undo` returned, in order."""
    return message("lessons.took_back", moves=_moves_said(moves))


def played_again(*moves: Move | None) -> str:
    """What redoing played again, in words: pass the moves :meth:`Game.redo` returned, in order."""
    return message("lessons.played_again", moves=_moves_said(moves))


def save_summary(save: Mapping[str, object]) -> str:
    """What a save (:meth:`Game.to_json`, read back as JSON) holds, in words: its fields and how many moves."""
    moves = save.get("moves")
    count = _moves(len(moves) if isinstance(moves, list) else 0)
    return message("lessons.save_summary", fields=", ".join(map(save_field, save)), moves=count)


def same_game(first: Game, second: Game) -> str:
    """Whether two games have played the same moves and reached the same position, in words."""
    return message(
        "lessons.same_game",
        moves=_yes_no(first.history == second.history),
        position=_yes_no(first.state == second.state),
    )


# ---------------------------------------------------------------- reading answers

# Answers longer than this are not read (a paragraph is no answer); numbers have at most 6 digits.
_LONGEST = 40
_NUMBER = re.compile(r"[+\-−]?\d{1,6}")  # \d: a decimal digit of any script; "²" is not one
_FRACTION = re.compile(r"\d{1,6}\s*/\s*\d{1,6}|\d{0,6}[.,]\d{1,6}")
_WITH_VALUE = re.compile(r"(\w+) ?\((\d{1,2})\)")
_RANK_WORDS = {
    "a": 1, "ace": 1, "ás": 1, "as": 1, "às": 1,
    "t": 10, "j": 11, "jack": 11, "valete": 11, "q": 12, "queen": 12, "dama": 12, "k": 13, "king": 13, "rei": 13,
}  # fmt: skip
_NONE_WORDS = {"none", "nothing", "no card", "no rank", "complete", "nenhum", "nenhuma", "nada", "completa", "-", "—"}
_WASTE_WORDS = {"waste", "w", "a waste", "waste pile", "descarte", "d", "um descarte"}
_YES_WORDS = {"yes", "y", "sim", "s"}
_NO_WORDS = {"no", "n", "não", "nao"}
_FOUNDATION_SPLIT = re.compile(r"\s*(?:,|;|&|\+|/|\band\b|\bor\b|\be\b|\bou\b|\s)\s*")


def _clean(text: object) -> str | None:
    """The text as typed, lower-cased with spaces tidied, or None when it is too long to be an answer."""
    cleaned = " ".join(unicodedata.normalize("NFC", str(text)).split()).casefold()
    return cleaned if len(cleaned) <= _LONGEST else None


def _read_rank(text: str) -> int | str | None:
    """A number (any whole number, so 0, 14 and 52 can be told apart), a rank name, 'none', 'fraction' or None."""
    cleaned = _clean(text)
    if cleaned is None:
        return None
    if _NUMBER.fullmatch(cleaned):
        return int(cleaned.replace("−", "-"))
    shown = _WITH_VALUE.fullmatch(cleaned)  # the answer as the lesson shows it: "K (13)"
    if shown and _RANK_WORDS.get(shown[1]) == int(shown[2]):
        return int(shown[2])
    if cleaned in _RANK_WORDS:
        return _RANK_WORDS[cleaned]
    if cleaned in _NONE_WORDS or cleaned == message("lessons.none_word"):
        return "none"
    if _FRACTION.fullmatch(cleaned):
        return "fraction"
    return None


def _read_foundations(text: str) -> frozenset[int] | str | None:
    """One or more foundation numbers (``"1"``, ``"F4"``, ``"1 and 4"``) as a set, 'waste', or None."""
    cleaned = _clean(text)
    if cleaned is None or not cleaned:
        return None
    if cleaned in _WASTE_WORDS or cleaned == message("lessons.waste_word"):
        return "waste"
    numbers = set()
    for token in filter(None, _FOUNDATION_SPLIT.split(cleaned)):
        token = token.removeprefix("f")
        if not (len(token) == 1 and token.isdecimal() and 1 <= int(token) <= len(STEPS)):
            return None
        numbers.add(int(token))
    return frozenset(numbers) or None


def _read_yes_no(text: str) -> str | None:
    cleaned = _clean(text)
    if cleaned in _YES_WORDS or cleaned == message("lessons.yes"):
        return "yes"
    if cleaned in _NO_WORDS or cleaned == message("lessons.no"):
        return "no"
    return None


# kind of answer -> (reader, the message saying what to write)
_READERS: dict[str, tuple[Callable[[str], object], str]] = {
    "rank": (_read_rank, "lessons.read_rank"),
    "rank_or_none": (_read_rank, "lessons.read_rank_or_none"),
    "number": (_read_rank, "lessons.read_number"),
    "foundation": (_read_foundations, "lessons.read_foundation"),
    "yes_no": (_read_yes_no, "lessons.read_yes_no"),
}


def _echo(text: str) -> str:
    """The typed answer as quoted in feedback: one line, at most 40 characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= _LONGEST else line[: _LONGEST - 1] + "…"


# ---------------------------------------------------------------- the exercise bank


@dataclass(frozen=True)
class Item:
    """One exercise, fully worked out: the data :func:`judge` needs and nothing else.

    ``kind`` says how an answer is read (a rank, a number, foundations, yes or no);
    ``accepted`` holds the readings counted right; ``wrong`` maps the readings of common wrong
    answers to ``(misconception, reason)``; ``too_big`` (when set) is ``(limit, misconception,
    reason)`` for any number above ``limit``, ``reason(number)`` saying why; ``other`` is the reason given for any other answer
    (``reason_for``, when set, computes it from the reading). ``solution`` and ``why`` are the
    answer as shown and its reasoning, computed by calcnb; ``wraps`` says whether the answer needs
    the wraparound past K; ``typed`` gives an example of how a reading may be typed (for a teacher's list).
    """

    exercise_id: str
    variant: int
    question: str
    kind: str
    accepted: frozenset
    solution: str
    why: str
    wrong: Mapping[object, tuple[str | None, str]] = field(default_factory=dict)
    other: str = ""
    too_big: tuple[int, str | None, Callable[[int], str]] | None = None
    reason_for: Callable[[object], str | None] | None = None
    wraps: bool = False
    typed: Mapping[object, str] = field(default_factory=dict)


def judge(item: Item, text: str) -> Feedback:
    """Judge one typed answer to ``item``: always a :class:`Feedback`, never an exception, whatever the text."""
    reader, unreadable = _READERS[item.kind]
    reading = reader(str(text))
    if reading is None:
        return Feedback(None, message("lessons.unread", reason=message(unreadable)))
    if reading in item.accepted:
        return Feedback(True, message("lessons.right", why=item.why))
    misconception, reason = item.wrong.get(reading, (None, ""))
    if not reason and item.too_big is not None and isinstance(reading, int) and reading > item.too_big[0]:
        _limit, misconception, explain = item.too_big
        reason = explain(reading)
    if not reason and item.reason_for is not None:
        reason = item.reason_for(reading) or ""
    return Feedback(False, message("lessons.wrong", answer=_echo(text), reason=reason or item.other), misconception)


def _rank_with_value(rank: int) -> str:
    name = rank_name(rank)
    return name if name == str(rank) else f"{name} ({rank})"


def _clock(total: int) -> int:
    """Where ``total`` lands on the clock of 13 (remainder 0 read as 13, the K)."""
    return total % RANK_COUNT or RANK_COUNT


def _off_by_one(answer: int, reason: str, low: int = 1, high: int = RANK_COUNT) -> dict:
    return {value: ("off_by_one", reason) for value in (answer - 1, answer + 1) if low <= value <= high}


def _past_thirteen(value: int) -> str:
    return message("lessons.clock.past", value=value)


def _clock_item(variant: int, total: int) -> dict:
    laps, left = divmod(total, RANK_COUNT)
    answer = _clock(total)
    if left:
        why = message("lessons.clock.why", total=total, laps=laps, left=left, answer=_rank_with_value(answer))
    else:
        why = message("lessons.clock.why_zero", total=total, laps=laps)
    near = message("lessons.clock.near", start=total, laps_before=laps, start_left=left)
    wrong = _off_by_one(answer, near) if left else {}
    wrong[0] = ("zero_for_king" if not left else None, message("lessons.clock.zero"))
    if laps and laps != answer:
        wrong[laps] = ("counted_laps", message("lessons.clock.laps", value=laps, total=total))
    for value in range(total, RANK_COUNT, -RANK_COUNT):
        key = "lessons.clock.multiple" if value % RANK_COUNT == 0 else "lessons.clock.once"
        misconception = "multiple_for_king" if value % RANK_COUNT == 0 else "no_wraparound"
        wrong[value] = (misconception, message(key, value=value, laps=value // RANK_COUNT))
    return dict(
        question=message("lessons.clock.question", total=total),
        kind="number",
        accepted=frozenset({answer}),
        solution=_rank_with_value(answer),
        why=why,
        wrong=wrong,
        other=message("lessons.clock.other"),
        too_big=(RANK_COUNT, "no_wraparound", _past_thirteen),
        wraps=True,
    )


def _next_item(variant: int, top: int, step: int) -> dict:
    answer = next_rank(top, step)
    total = top + step
    values = dict(top_value=top, step=step, total=total, answer=rank_name(answer), answer_value=answer)
    wraps = total > RANK_COUNT
    near = message("lessons.next.near", top_value=top, step=step, top=rank_name(top))
    wrong = _off_by_one(answer, near)
    if step != 1:
        wrong[next_rank(top, 1)] = ("wrong_step", message("lessons.next.wrong_step", step=step))
    if wraps:
        wrong[total] = ("no_wraparound", message("lessons.next.no_such_rank", total=total))
    return dict(
        question=message("lessons.next.question", step=step, top=rank_name(top)),
        kind="rank",
        accepted=frozenset({answer}),
        solution=_rank_with_value(answer),
        why=message("lessons.next.why_wrap" if wraps else "lessons.next.why", **values),
        wrong=wrong,
        other=message("lessons.next.other", step=step, top=_rank_with_value(top)),
        too_big=(RANK_COUNT, "no_wraparound", lambda value: message("lessons.next.no_such_rank", total=value)),
        wraps=wraps,
    )


def _complete_item(variant: int, step: int) -> dict:
    after = next_rank(RANK_COUNT, step)
    past = ("past_complete", message("lessons.complete.past", step=step, rank=rank_name(after)))
    return dict(
        question=message("lessons.complete.question", step=step),
        kind="rank_or_none",
        accepted=frozenset({"none"}),
        solution=message("lessons.none_word"),
        why=message("lessons.complete.why", step=step),
        wrong={after: past, RANK_COUNT + step: past, 0: ("zero_for_king", message("lessons.clock.zero"))},
        other=message("lessons.complete.other"),
    )


def _nth_item(variant: int, place: int, step: int) -> dict:
    order = foundation_order(step)
    answer = order[place - 1]
    product = place * step
    laps, left = divmod(product, RANK_COUNT)
    key = "lessons.nth.why" if left else "lessons.nth.why_zero"
    why = message(key, place=place, step=step, product=product, laps=laps, left=left, answer=_rank_with_value(answer))
    wrong: dict = {}
    if place > 1:
        wrong[order[place - 2]] = ("off_by_one", message("lessons.nth.before", earlier=place - 1))
    if place < RANK_COUNT:
        start = message("lessons.nth.start", later=place + 1, step=step, place=place)
        wrong[order[place]] = ("counting_the_start", start)
    if product > RANK_COUNT:
        wrong[product] = (
            "multiple_for_king" if not left else "no_wraparound",
            message("lessons.nth.unreduced", value=product, place=place, step=step),
        )
    if not left:
        wrong[0] = ("zero_for_king", message("lessons.clock.zero"))
    return dict(
        question=message("lessons.nth.question", step=step, place=place),
        kind="rank",
        accepted=frozenset({answer}),
        solution=_rank_with_value(answer),
        why=why,
        wrong=wrong,
        other=message("lessons.nth.other", place=place, step=step),
        too_big=(RANK_COUNT, "no_wraparound", _past_thirteen),
        wraps=product > RANK_COUNT,
    )


def _visits_item(variant: int, step: int, ranks: int) -> dict:
    from .orders import walk

    order = walk(step, ranks)
    count = order.closes_after
    factor = math.gcd(step, ranks)
    why = message(
        "lessons.visits.why",
        visited=" → ".join(map(str, order.visited)),
        count=count,
        step=step,
        ranks=ranks,
        factor=factor,
    )
    wrong = {
        count + 1: ("counting_the_start", message("lessons.visits.twice", step=step)),
        count - 1: ("counting_the_start", message("lessons.visits.left_out", step=step)),
    }
    wrong[ranks] = ("every_number_reached", message("lessons.visits.every", step=step, ranks=ranks, factor=factor))
    return dict(
        question=message("lessons.visits.question", step=step, ranks=ranks),
        kind="number",
        accepted=frozenset({count}),
        solution=str(count),
        why=why,
        wrong=wrong,
        other=message("lessons.visits.other", step=step),
        too_big=(ranks, None, lambda _value: message("lessons.visits.too_many", ranks=ranks)),
        wraps=True,
    )


def _inverse_item(variant: int, step: int) -> dict:
    answer = modular_inverse(step)
    product = step * answer
    why = message("lessons.inverse.why", step=step, answer=answer, product=product, laps=product // RANK_COUNT)
    wrong: dict = {"fraction": ("reciprocal", message("lessons.inverse.reciprocal", step=step))}
    for value in range(1, RANK_COUNT):
        laps, left = divmod(step * value, RANK_COUNT)
        reason = message("lessons.inverse.wrong", step=step, value=value, product=step * value, laps=laps, left=left)
        wrong.setdefault(value, (None, reason))
    return dict(
        question=message("lessons.inverse.question", step=step),
        kind="number",
        accepted=frozenset({answer}),
        solution=str(answer),
        why=why,
        wrong=wrong,
        other=message("lessons.inverse.off"),
        wraps=True,
        typed={"fraction": f"1/{step}"},
    )


def _position_item(variant: int, rank: int, step: int) -> dict:
    order = foundation_order(step)
    inverse = modular_inverse(step)
    product = rank * inverse
    laps, left = divmod(product, RANK_COUNT)
    answer = position_in_order(rank, step)
    shown = " ".join(f"[{rank_name(r)}]" if place == answer else rank_name(r) for place, r in enumerate(order, 1))
    why = message(
        "lessons.position.why",
        step=step,
        inverse=inverse,
        rank_value=rank,
        product=product,
        laps=laps,
        left=left,
        answer=answer,
        order=shown,
    )
    wrong: dict = {}
    for value in range(1, RANK_COUNT + 1):
        holds = rank_name(order[value - 1])
        reason = message("lessons.position.wrong", value=value, step=step, holds=holds, rank=rank_name(rank))
        wrong[value] = (None, reason)
    for value in (answer - 1, answer + 1):
        if 1 <= value <= RANK_COUNT:
            wrong[value] = ("off_by_one", wrong[value][1])
    multiplied = _clock(rank * step)
    wrong[multiplied] = (
        "multiplied_not_divided",
        message("lessons.position.multiplied", rank_value=rank, step=step, holds=rank_name(order[rank - 1])),
    )
    wrong[rank] = ("rank_as_place", message("lessons.position.rank", rank=rank_name(rank), rank_value=rank, step=step))
    wrong.pop(answer, None)
    return dict(
        question=message("lessons.position.question", rank=rank_name(rank), step=step),
        kind="number",
        accepted=frozenset({answer}),
        solution=str(answer),
        why=why,
        wrong=wrong,
        other=message("lessons.position.off"),
        wraps=True,
    )


# ---- exercises on a position (the worked example's kind): one variant each, judged by the engine


def _fits_item(variant: int, position: Callable[[], Game]) -> dict:
    state = position().state
    card = state.pending
    fitting = [move.foundation for move in STOCK_TO_FOUNDATION if state.is_legal(move)]
    if not fitting:
        needs = ", ".join(rank_name(need) for need in state.needs() if need is not None)
        why = message("lessons.fits.why_none", rank=rank_name(card.rank), needs=needs)
        accepted = frozenset({"waste"})
        solution = message("lessons.waste_word")
    else:
        explanation = state.explain(STOCK_TO_FOUNDATION[fitting[0] - 1])
        if len(fitting) == 1:
            why = message("lessons.fits.why_one", explanation=explanation)
        else:
            why = message("lessons.fits.why_many", explanation=explanation, others=", ".join(map(str, fitting[1:])))
        # any one of the fitting foundations is right, and so is naming several of them
        accepted = frozenset(
            frozenset(number for bit, number in enumerate(fitting) if mask >> bit & 1)
            for mask in range(1, 2 ** len(fitting))
        )
        solution = " / ".join(map(str, fitting))
    wrong: dict = {}
    wrapping = [number for number in fitting if state.foundations[number - 1][-1].rank + number > RANK_COUNT]
    if wrapping:  # the card fits only past K: saying "waste" is forgetting the wraparound
        number = wrapping[0]
        top = state.foundations[number - 1][-1].rank
        said = message(
            "lessons.fits.waste_wraps",
            foundation=number,
            rank=rank_name(card.rank),
            top=top,
            step=number,
            total=top + number,
        )
        wrong["waste"] = ("no_wraparound", said)
    elif fitting:
        foundations = " / ".join(map(str, fitting))
        wrong["waste"] = (None, message("lessons.fits.waste_but", foundations=foundations, rank=rank_name(card.rank)))

    def reason_for(reading: object) -> str | None:
        if not isinstance(reading, frozenset):
            return None
        refused = sorted(reading - set(fitting))
        move = STOCK_TO_FOUNDATION[refused[0] - 1]
        return message("lessons.fits.no", reason=state.why_illegal(move))

    return dict(
        question=message("lessons.fits.question", card=card),
        kind="foundation",
        accepted=accepted,
        solution=solution,
        why=why,
        wrong=wrong,
        reason_for=reason_for,
        wraps=bool(wrapping),
    )


def _buried(state: State, move: Move) -> tuple[Card, Card, int] | None:
    """For a waste-to-foundation move: a card the foundation needs lying under the waste top, if any."""
    if move.kind != MoveKind.WASTE_TO_FOUNDATION:
        return None
    pile = state.wastes[move.waste_index]
    need = state.needs()[move.foundation_index]
    for card in pile[:-1]:
        if card.rank == need:
            return card, pile[-1], move.waste
    return None


def _legal_item(variant: int, position: Callable[[], Game], move_text: str) -> dict:
    state = position().state
    move = Move.parse(move_text)
    reason = state.why_illegal(move)
    legal = reason is None
    why = message("lessons.legal.why_yes", explanation=state.explain(move)) if legal else reason
    wrong: dict = {}
    if legal:
        wrong["no"] = (None, message("lessons.legal.it_is_legal", move=move.text))
    else:
        buried = _buried(state, move)
        if buried is not None:
            card, top, waste = buried
            said = message("lessons.legal.buried", card=card, foundation=move.foundation, top=top, waste=waste)
            wrong["yes"] = ("buried_card", said)
            why = f"{reason}; {said}"
        else:
            wrong["yes"] = (None, message("lessons.legal.it_is_illegal", reason=reason))
    return dict(
        question=(
            message("lessons.legal.question_waste", waste=move.waste, foundation=move.foundation)
            if move.kind == MoveKind.WASTE_TO_FOUNDATION
            else message("lessons.legal.question", move=move.text)
        ),
        kind="yes_no",
        accepted=frozenset({"yes" if legal else "no"}),
        solution=message("lessons.yes") if legal else message("lessons.no"),
        why=why,
        wrong=wrong,
    )


@dataclass(frozen=True)
class ExerciseKind:
    """One exercise of the bank: a stable identifier, its variants (their parameters) and how each is worked out."""

    exercise_id: str
    variants: tuple[tuple, ...]
    build: Callable[..., dict]

    def item(self, variant: int) -> Item:
        """Variant number ``variant`` (taken modulo the number of variants), worked out in the current language."""
        variant %= len(self.variants)
        worked = self.build(variant, *self.variants[variant])
        worked["wrong"] = {key: said for key, said in worked.get("wrong", {}).items() if key not in worked["accepted"]}
        return Item(self.exercise_id, variant, **worked)


def _past_the_king() -> Game:
    return lesson_game((3, 4, 8, 1), wastes=("K♦", "5♣ 9♠", "", ""), pending="A♠")


def _two_choices() -> Game:
    return lesson_game((4, 6, 6, 10), wastes=("", "J♣", "", ""), pending="5♥")


def _buried_position() -> Game:
    return lesson_game((3, 4, 8, 1), wastes=("", "7♣ 4♦ K♠", "", ""), pending="9♥")


# The positions of notebook 03, by name (each a complete, legal 52-card position).
POSITIONS: dict[str, Callable[[], Game]] = {
    "past-the-king": _past_the_king,
    "two-choices": _two_choices,
    "buried": _buried_position,
}

# Worked in the lesson's prose, so kept out of the variants (no answer can be read from the page).
_SHOWN_NEXT = {(12, 2)}

_KINDS = [
    # the clock of 13: numbers beyond the table printed in the lesson (11 to 30), none a multiple of 13
    ExerciseKind("clock", tuple((total,) for total in range(31, 78) if total % RANK_COUNT), _clock_item),
    ExerciseKind("clock-king", tuple((total,) for total in (39, 52, 65, 78, 91)), _clock_item),
    # the next card: two without the wraparound, one with it, one on a complete foundation
    ExerciseKind("next-plain", tuple((top, 3) for top in range(4, RANK_COUNT - 3)), _next_item),
    ExerciseKind("next-small", tuple((top, 4) for top in range(2, RANK_COUNT - 4)), _next_item),
    ExerciseKind(
        "next-wrap",
        tuple(
            (top, step)
            for step in (2, 3, 4)
            for top in range(RANK_COUNT - step + 1, RANK_COUNT)
            if (top, step) not in _SHOWN_NEXT
        ),
        _next_item,
    ),
    ExerciseKind("next-complete", tuple((step,) for step in (2, 3, 4, 1)), _complete_item),
    # the card at a place, on the foundations not printed in the lesson
    ExerciseKind("nth-card", tuple((place, step) for step in (3, 4) for place in range(4, RANK_COUNT)), _nth_item),
    ExerciseKind("last-card", tuple((RANK_COUNT, step) for step in (4, 3)), _nth_item),
    # other clocks: none of the clock sizes tabled in the lesson (12, 13, 16)
    ExerciseKind(
        "visits", ((4, 10), (6, 14), (6, 15), (4, 14), (8, 20), (6, 20), (10, 15), (4, 18), (6, 9)), _visits_item
    ),
    # the inverse (2 is the lesson's worked example)
    ExerciseKind("inverse", tuple((step,) for step in (3, 4, 5, 6, 8, 9, 10, 11)), _inverse_item),
    ExerciseKind("position", tuple((rank, step) for step in (3, 4) for rank in range(2, RANK_COUNT)), _position_item),
    # notebook 03's positions
    ExerciseKind("fits-past-the-king", ((POSITIONS["past-the-king"],),), _fits_item),
    ExerciseKind("fits-two-choices", ((POSITIONS["two-choices"],),), _fits_item),
    ExerciseKind("legal-buried", ((POSITIONS["buried"], "W2>F1"),), _legal_item),
    ExerciseKind("fits-buried", ((POSITIONS["buried"],),), _fits_item),
]

# Every exercise by its stable identifier (the class view and the worksheets use these).
BANK: dict[str, ExerciseKind] = {kind.exercise_id: kind for kind in _KINDS}

# The exercises of the lesson on the clock of 13 (notebook 02), in the order they are asked. The printed
# worksheet adds the last card (on the lesson's page "every foundation ends in K" would give it away).
LESSON_EXERCISES = (
    "clock",
    "clock-king",
    "next-plain",
    "next-small",
    "next-wrap",
    "next-complete",
    "nth-card",
    "visits",
    "inverse",
    "position",
)
WORKSHEET_EXERCISES = (*LESSON_EXERCISES[:7], "last-card", *LESSON_EXERCISES[7:])


def wrong_answers(item: Item) -> list[tuple[str, str, str]]:
    """The common wrong answers ``item`` recognises: ``(answer as typed, misconception name, feedback)``.

    For a teacher's list of misconceptions: one example answer per misconception the item names.
    """
    shown: list[tuple[str, str, str]] = []
    named: set[str] = set()
    for reading, (misconception, _reason) in item.wrong.items():
        if misconception is None or misconception in named:
            continue
        named.add(misconception)
        typed = item.typed.get(reading) or {"waste": message("lessons.waste_word")}.get(str(reading), str(reading))
        if isinstance(reading, frozenset):
            typed = " ".join(map(str, sorted(reading)))
        typed = {"yes": message("lessons.yes"), "no": message("lessons.no")}.get(typed, typed)
        shown.append((typed, misconception_name(misconception), judge(item, typed).text))
    return shown


def misconception_name(misconception: str | None) -> str:
    """The misconception's name in the current language ("off by one", ...), or "" for None."""
    return message(f"lessons.mis.{misconception}") if misconception else ""


def variant_for(exercise_id: str, seed: object) -> int:
    """The variant of ``exercise_id`` a student gets: fixed by ``seed`` (a name, or a number drawn per visit).

    A name counts the same however it is capitalised or spaced ("Ana  Silva" is "ana silva").
    """
    kind = BANK[exercise_id]
    key = " ".join(str(seed).split()).casefold()
    digest = hashlib.sha256(f"{exercise_id}\n{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % len(kind.variants)


def student_items(seed: object, exercise_ids: Iterable[str] = LESSON_EXERCISES) -> list[Item]:
    """The exercises one student gets (their variants fixed by ``seed``), worked out."""
    return [BANK[exercise_id].item(variant_for(exercise_id, seed)) for exercise_id in exercise_ids]


def question_with_answer(item: Item) -> str:
    """One question and its answer on one line, for the teacher's lists."""
    return message("lessons.question_answer", question=item.question, answer=item.solution)


def answer_key(items: Iterable[Item]) -> str:
    """The teacher's answers: each question, its answer and why, numbered."""
    return "\n".join(
        message("lessons.key_line", number=number, question=item.question, answer=item.solution, why=item.why)
        for number, item in enumerate(items, start=1)
    )
