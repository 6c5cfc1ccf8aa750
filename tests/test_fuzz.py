"""Every parser and loader against arbitrary and hostile input, by hypothesis.

Each reader either returns a value that the input really describes or refuses it with a
calcnb error (a :class:`~calcnb.game.errors.CalcnbError`, a ValueError) whose message quotes
at most about 80 characters of the input; nothing else escapes. The accepted spellings are
written out here independently of the parsers (``SPELLINGS``), so a parser that reads too
much (``Aſ`` as A♠, ``W²`` as W2) fails. ``benchmarks/bench_fuzz.py`` runs the same checks
over every code point and many more inputs.
"""

from __future__ import annotations

import json
import random
import string

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sweeps import examples

from calcnb import Card, Game, IllegalMove, InvalidMove, Move, State
from calcnb.game.cards import DECK
from calcnb.game.deals import check_seed, deal, format_deal, parse_deal
from calcnb.game.engine import ALL_MOVES
from calcnb.game.errors import (
    MAX_DEAL_CHARS,
    MAX_SAVE_CHARS,
    MAX_SEED_CHARS,
    QUOTE_LIMIT,
    CalcnbError,
    InvalidCard,
    InvalidDeal,
    InvalidSave,
    InvalidSeed,
    quote,
)
from calcnb.players.ladder import FirstFit
from calcnb.studies.measure import study

FUZZ = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONGEST_MESSAGE = 4 * QUOTE_LIMIT + 300  # a message's own words plus a few quoted inputs

# The spellings a person may type, written out from the rules' own words: rank names (T for 10)
# and suit letters in either ASCII case, the suit symbols filled and outlined. Nothing else.
RANK_SPELLINGS = {"A": 1, **{str(n): n for n in range(2, 11)}, "T": 10, "J": 11, "Q": 12, "K": 13}
SUIT_SPELLINGS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "♣": "♣", "♦": "♦", "♥": "♥", "♠": "♠"}
SUIT_SPELLINGS |= {"♧": "♣", "♢": "♦", "♡": "♥", "♤": "♠"}
SPELLINGS = {
    variant: (rank, suit)
    for r, rank in RANK_SPELLINGS.items()
    for s, suit in SUIT_SPELLINGS.items()
    for variant in {r + s, (r + s).lower(), r.lower() + s, r + s.lower()}
}
MOVE_TEXTS = {"T", *(f"S>F{k}" for k in range(1, 5)), *(f"S>W{k}" for k in range(1, 5))}
MOVE_TEXTS |= {f"W{w}>F{k}" for w in range(1, 5) for k in range(1, 5)}
ASCII_SPACE = " \t\n\r\f\v"

hostile_text = st.one_of(
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30),
    st.text(alphabet="A23456789TJQKajqkt10CDHScdhs♣♦♥♠♧♢♡♤ſıİ²³¹⁴٣߃ ＡＳ\t\u00a0\u3000|>WFSw", max_size=12),
)
huge_text = st.builds(lambda piece, times: piece * times, st.text(min_size=1, max_size=5), st.integers(100, 50_000))
seeds = st.one_of(st.integers(), st.text(max_size=40))


def assert_refusal(error: BaseException, text: object) -> None:
    """A refusal is a calcnb error with a short message that quotes the input (shortened)."""
    assert isinstance(error, CalcnbError), f"{type(error).__name__}: {error}"
    assert len(str(error)) <= LONGEST_MESSAGE
    if isinstance(text, str) and len(text) <= QUOTE_LIMIT:
        assert quote(text) in str(error)


def fold(text: str) -> str:
    """What the readers make of typed text: ASCII whitespace gone, ASCII letters upper-cased."""
    kept = "".join(c for c in text if c not in ASCII_SPACE)
    return "".join(c.upper() if c in string.ascii_lowercase else c for c in kept)


# ---------------------------------------------------------------- cards


@FUZZ
@given(text=st.one_of(hostile_text, huge_text))
def test_any_text_is_a_card_it_spells_or_an_invalid_card(text):
    try:
        card = Card.parse(text)
    except Exception as error:
        assert_refusal(error, text)
        assert isinstance(error, InvalidCard)
        assert text.strip(ASCII_SPACE) not in SPELLINGS
    else:
        assert SPELLINGS[text.strip(ASCII_SPACE)] == (card.rank, card.suit)


@FUZZ
@given(char=st.characters(codec="utf-8"))
def test_a_code_point_is_a_suit_or_a_rank_only_when_the_rules_say_so(char):
    """The sampled version of the every-code-point sweep in bench_fuzz.py."""
    for text, accepted in (
        ("A" + char, fold(char) in SUIT_SPELLINGS),
        (char + "S", fold(char) in RANK_SPELLINGS),
        ("1" + char + "S", char == "0"),
    ):
        try:
            Card.parse(text)
        except InvalidCard as error:
            assert not accepted, text
            assert_refusal(error, text)
        else:
            assert accepted, text


@FUZZ
@given(rank=st.one_of(st.integers(), st.floats(), st.booleans(), st.text(max_size=3)), suit=st.text(max_size=3))
def test_cards_by_value_are_refused_unless_a_rank_and_a_suit(rank, suit):
    try:
        card = Card(rank, suit)
    except Exception as error:
        assert_refusal(error, None)
    else:
        assert type(rank) is int and 1 <= rank <= 13 and card.rank == rank
        assert SUIT_SPELLINGS[fold(suit)] == card.suit


# ---------------------------------------------------------------- moves


@FUZZ
@given(text=st.one_of(hostile_text, huge_text, st.from_regex(r"\s*[TSWF][^>]{0,3}>[WF].{0,3}", fullmatch=True)))
def test_any_text_is_the_move_it_spells_or_an_invalid_move(text):
    try:
        move = Move.parse(text)
    except Exception as error:
        assert_refusal(error, text)
        assert isinstance(error, InvalidMove)
        assert fold(text) not in MOVE_TEXTS
    else:
        assert move in ALL_MOVES and fold(text) == move.text


@FUZZ
@given(char=st.characters(codec="utf-8"), digits=st.integers(1, 6000))
def test_pile_numbers_are_ascii_digits_1_to_4_and_nothing_else(char, digits):
    for text in (f"W{char}>F1", f"S>F{char}", f"W1>F{'9' * digits}", f"S>W{'0' * digits}1"):
        try:
            move = Move.parse(text)
        except InvalidMove as error:
            assert_refusal(error, text)
        else:
            assert char in "1234" and move.text == fold(text)


# ---------------------------------------------------------------- deal codes


def mutate(text: str, rng: random.Random) -> str:
    """One random edit: a character changed, inserted or dropped, two tokens swapped or one doubled."""
    tokens = text.split(" ")
    choice = rng.randrange(5)
    if choice == 0 and text:
        i = rng.randrange(len(text))
        return text[:i] + chr(rng.choice([rng.randrange(0x20, 0x7F), rng.randrange(0x80, 0x3000)])) + text[i + 1 :]
    if choice == 1:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(["|", " ", "1", "ſ", "²", ",", "\u00a0", "S"]) + text[i:]
    if choice == 2 and text:
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1 :]
    if choice == 3:
        i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
        tokens[i], tokens[j] = tokens[j], tokens[i]
        return " ".join(tokens)
    i = rng.randrange(len(tokens))
    return " ".join(tokens[: i + 1] + tokens[i:])


def reference_deal(text: str) -> tuple[tuple, tuple] | None:
    """The deal a code spells by the rules' own words, or None: 4 starters A 2 3 4, a bar, 48 cards.

    Cards are separated by ASCII whitespace or commas; bars after the first separate too.
    """
    if "|" not in text:
        return None
    head, _, tail = text.partition("|")
    separate = str.maketrans(dict.fromkeys(ASCII_SPACE + ",|", " "))
    head_tokens = [t for t in head.translate(separate).split(" ") if t]
    tail_tokens = [t for t in tail.translate(separate).split(" ") if t]
    if not all(t in SPELLINGS for t in head_tokens + tail_tokens):
        return None
    head_cards = tuple(SPELLINGS[t] for t in head_tokens)
    tail_cards = tuple(SPELLINGS[t] for t in tail_tokens)
    if [rank for rank, _ in head_cards] != [1, 2, 3, 4] or len(tail_cards) != 48:
        return None
    if len(set(head_cards + tail_cards)) != 52:
        return None
    return head_cards, tail_cards


@FUZZ
@given(seed=seeds, mutation=st.integers(0, 2**32), edits=st.integers(1, 3), ascii=st.booleans())
def test_a_mutated_deal_code_is_refused_unless_it_is_still_a_deal(seed, mutation, edits, ascii):
    rng = random.Random(mutation)
    text = format_deal(*deal(seed), ascii=ascii)
    for _ in range(edits):
        text = mutate(text, rng)
    expected = reference_deal(text)
    try:
        starters, stock = parse_deal(text)
    except Exception as error:
        assert_refusal(error, None)
        assert isinstance(error, (InvalidDeal, InvalidCard))
        assert expected is None, text
    else:
        assert expected == (
            tuple((c.rank, c.suit) for c in starters),
            tuple((c.rank, c.suit) for c in stock),
        ), text


@FUZZ
@given(text=st.one_of(hostile_text, huge_text))
def test_any_text_is_a_deal_or_an_invalid_deal(text):
    try:
        Game.from_deal(text)
    except Exception as error:
        assert_refusal(error, None)  # the message names the faulty card or count, not the whole code
    else:  # pragma: no cover - hypothesis will not type a whole deal
        assert reference_deal(text) is not None


def test_a_deal_code_longer_than_any_real_one_is_refused_unread():
    real = format_deal(*deal(1))
    code = real + " " * (MAX_DEAL_CHARS + 1 - len(real))
    with pytest.raises(InvalidDeal, match="longer than any real one") as caught:
        parse_deal(code)
    assert len(str(caught.value)) < 200
    assert parse_deal(code[:MAX_DEAL_CHARS]) == deal(1)  # the limit itself is still read


# ---------------------------------------------------------------- positions

pile_like = st.recursive(
    st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=8), st.sampled_from([str(c) for c in DECK])),
    lambda inner: st.lists(inner, max_size=5),
    max_leaves=20,
)


@FUZZ
@given(foundations=pile_like, wastes=pile_like, stock=pile_like, pending=pile_like)
def test_any_piles_are_a_position_or_refused_naming_the_fault(foundations, wastes, stock, pending):
    try:
        state = State.from_position(foundations, wastes, stock, pending)
    except Exception as error:
        assert_refusal(error, None)
    else:  # pragma: no cover - random piles are never the whole pack
        assert state.score + len(state.stock) + sum(map(len, state.wastes)) + (state.pending is not None) == 52


@pytest.mark.parametrize("index", range(4))
def test_a_pile_that_is_not_cards_is_named(index):
    piles = [["A♣"], ["2♦"], ["3♥"], ["4♠"]]
    piles[index] = 7
    with pytest.raises(CalcnbError, match=f"foundation {index + 1} must be cards"):
        State.from_position(piles, stock="")
    with pytest.raises(CalcnbError, match=f"waste {index + 1} must be cards"):
        State.from_position([["A♣"], ["2♦"], ["3♥"], ["4♠"]], [*[[], [], [], []][:index], 3.5], stock="")
    with pytest.raises(CalcnbError, match="the stock must be cards"):
        State.from_position([["A♣"], ["2♦"], ["3♥"], ["4♠"]], stock=object())


# ---------------------------------------------------------------- seeds


@FUZZ
@given(seed=st.one_of(seeds, st.floats(), st.booleans(), st.none(), st.lists(st.integers(), max_size=2)))
def test_a_seed_is_a_whole_number_or_a_short_text(seed):
    try:
        game = Game.new(seed)
    except Exception as error:
        assert_refusal(error, seed)
        assert isinstance(error, InvalidSeed) or seed is None
        assert not (isinstance(seed, (int, str)) and not isinstance(seed, bool) and len(str(seed)) <= MAX_SEED_CHARS)
    else:
        assert game.seed == (seed if seed is not None else game.seed)
        assert game.deal_code == format_deal(*deal(game.seed))


@FEW
@given(length=st.integers(MAX_SEED_CHARS + 1, 10**5), digits=st.booleans())
def test_a_seed_longer_than_any_real_one_is_refused_unread(length, digits):
    seed = 10**length if digits else "7" * length
    with pytest.raises(InvalidSeed, match="longer than any real one"):
        check_seed(seed)


def test_a_seed_that_cannot_be_written_is_refused():
    with pytest.raises(InvalidSeed, match="lone surrogate"):
        Game.new("seed \ud800")


# ---------------------------------------------------------------- saves


def played(seed: int | str, moves: int, choices: random.Random) -> Game:
    game = Game.new(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(choices.choice(legal))
    return game


def tamper(data: dict, rng: random.Random) -> tuple[dict, bool]:
    """One edit to a save's fields, and whether it surely makes the save a lie (refused)."""
    data = json.loads(json.dumps(data))
    kind = rng.randrange(4)
    if kind == 0:  # another seed: a different deal
        data["seed"] = data["seed"] + rng.randrange(1, 10**6) if isinstance(data["seed"], int) else data["seed"] + "x"
        return data, True
    if kind == 1:  # two stock cards swapped, the seed kept
        tokens = data["deal"].split(" ")
        i, j = rng.sample(range(5, len(tokens)), 2)
        tokens[i], tokens[j] = tokens[j], tokens[i]
        data["deal"] = " ".join(tokens)
        return data, True
    if kind == 2 and data["moves"]:  # one move replaced by any other
        data["moves"][rng.randrange(len(data["moves"]))] = rng.choice([m.text for m in ALL_MOVES] + ["W²>F1", "Aſ", 5])
        return data, False
    data[rng.choice(["seed", "deal", "moves", "version", "format"])] = rng.choice([None, 1.5, [], {}, "x" * 500, True])
    return data, False


@FUZZ
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 60), choice=st.integers(0, 2**32))
def test_a_tampered_save_is_refused_or_is_the_game_it_says(seed, moves, choice):
    rng = random.Random(choice)
    game = played(seed, moves, rng)
    data, must_refuse = tamper(json.loads(game.to_json()), rng)
    text = json.dumps(data, ensure_ascii=False)
    try:
        loaded = Game.from_json(text)
    except Exception as error:
        assert isinstance(error, InvalidSave), f"{type(error).__name__}: {error}"
        assert len(str(error)) <= LONGEST_MESSAGE
    else:
        assert not must_refuse, data
        # accepted: it is exactly the game its deal and moves describe, and its seed deals that deal
        replay = Game.from_deal(data["deal"])
        replay.play_many(data["moves"])
        assert loaded.states == replay.states and loaded.history == replay.history
        if loaded.seed is not None:
            assert format_deal(*deal(loaded.seed, parse_deal(loaded.deal_code)[0])) == loaded.deal_code or (
                format_deal(*deal(loaded.seed)) == loaded.deal_code
            )


def test_a_save_with_a_changed_seed_or_two_stock_cards_swapped_is_refused_naming_the_card():
    game = Game.new(5)
    game.play("T")
    data = json.loads(game.to_json())
    with pytest.raises(InvalidSave, match=r"seed 6 does not deal its deal: card 1 of the stock"):
        Game.from_json(json.dumps({**data, "seed": 6}))
    tokens = data["deal"].split(" ")
    tokens[10], tokens[20] = tokens[20], tokens[10]  # stock cards 6 and 16
    with pytest.raises(InvalidSave, match=r"seed 5 does not deal its deal: card 6 of the stock is"):
        Game.from_json(json.dumps({**data, "deal": " ".join(tokens)}))
    chosen = Game.new(5, starters="A♠ 2♠ 3♠ 4♠")  # chosen starters, the rest shuffled by the seed
    assert Game.from_json(chosen.to_json()).seed == 5


@FUZZ
@given(text=st.one_of(hostile_text, huge_text, st.just("["), st.builds(lambda n: "[" * n, st.integers(1, 100_000))))
def test_any_text_is_a_save_or_an_invalid_save(text):
    with pytest.raises(InvalidSave) as caught:
        Game.from_json(text)
    assert len(str(caught.value)) <= LONGEST_MESSAGE


def test_a_save_longer_than_any_real_one_is_refused_unread():
    text = Game.new(3).to_json()
    with pytest.raises(InvalidSave, match="longer than any real one"):
        Game.from_json(text + " " * MAX_SAVE_CHARS)


def test_a_bad_move_inside_a_save_keeps_its_number():
    data = json.loads(Game.new(5).to_json())
    for bad in ("W²>F1", "W" + "9" * 5000 + ">F1", "Aſ", 7, None):
        with pytest.raises(InvalidSave, match=r"move 2 of the save") as caught:
            Game.from_json(json.dumps({**data, "moves": ["T", bad]}))
        assert len(str(caught.value)) <= LONGEST_MESSAGE


# ---------------------------------------------------------------- history and messages


@FEW
@given(seed=st.integers(0, 10**6), operations=st.lists(st.integers(0, 99), max_size=120))
def test_random_history_operations_keep_the_game_exact(seed, operations):
    game = Game.new(seed)
    for op in operations:
        before = (game.states, game.history, game.redo_moves)
        if op < 50:
            legal = game.legal_moves()
            if legal:
                game.play(legal[op % len(legal)])
        elif op < 70:
            game.undo()
        elif op < 85:
            game.redo()
        elif op < 95:
            move = ALL_MOVES[op % len(ALL_MOVES)]
            if not game.is_legal(move):
                with pytest.raises(IllegalMove):
                    game.play(move)
                assert (game.states, game.history, game.redo_moves) == before
        else:
            loaded = Game.from_json(game.to_json())
            assert loaded.state == game.state and loaded.history == game.history and loaded.seed == game.seed
        assert sorted(every_card(game.state)) == sorted(DECK)


def every_card(state: State) -> list[Card]:
    cards = [c for pile in state.foundations for c in pile] + [c for pile in state.wastes for c in pile]
    return cards + list(state.stock) + ([state.pending] if state.pending is not None else [])


@FEW
@given(text=huge_text)
def test_no_message_repeats_more_than_80_characters_of_a_huge_input(text):
    assume(len(text) > QUOTE_LIMIT)
    for reader in (Card.parse, Move.parse, parse_deal, Game.from_json, Game.new):
        try:
            reader(text)
        except CalcnbError as error:
            assert len(str(error)) <= LONGEST_MESSAGE
            assert text not in str(error)


# ---------------------------------------------------------------- studies


@FUZZ
@given(seeds=st.one_of(st.text(max_size=5), st.integers(max_value=-1), st.floats(), st.just(None)))
def test_a_study_refuses_a_string_a_negative_count_or_no_seeds(seeds):
    with pytest.raises(InvalidSeed):
        study(FirstFit(), seeds, executor="serial")


def test_a_solver_study_gets_a_node_budget_unless_told_otherwise():
    budgets = []

    def solver(game, *, budget_seconds, budget_nodes):
        budgets.append((budget_seconds, budget_nodes))
        from types import SimpleNamespace

        return SimpleNamespace(outcome="unknown", moves=(), nodes=0, seconds=0.0)

    study(solver, [1, 2], executor="serial")
    study(solver, [3], executor="serial", budget_seconds=0.5)
    from calcnb.studies.measure import STUDY_BUDGET_NODES

    assert budgets == [(None, STUDY_BUDGET_NODES), (None, STUDY_BUDGET_NODES), (0.5, None)]


# ---------------------------------------------------------------- the play app's seed field


@settings(FEW, max_examples=examples(15))  # a board is drawn for each: few examples, the sweep clicks 2,000 times
@given(
    text=st.one_of(
        hostile_text,
        st.builds(lambda n: "9" * n, st.integers(250, 6000)),
        st.just("1_000"),
        st.builds(lambda seed, cut: format_deal(*deal(seed))[cut:], st.integers(0, 99), st.sampled_from([0, 0, 3, 40])),
    )
)
def test_the_seed_field_deals_the_game_it_names_or_says_why_and_keeps_the_game(text):
    from calcnb.ui import play as widgets  # here, not above: the other readers' tests need no drawing

    board = widgets.PlayBoard(seed=1)
    before, said = board.game, board.message
    board.seed_input.value = text
    board.press("new")  # runs the action directly: nothing may escape
    seed = None if "|" in text else widgets.parse_seed(text)
    try:
        valid = reference_deal(text) is not None if "|" in text else seed is None or check_seed(seed) == seed
    except CalcnbError:
        valid = False
    if valid:
        assert board.game is not before
        if "|" in text:
            assert [(c.rank, c.suit) for c in board.game.stock] == list(reference_deal(text)[1])
        elif seed is not None:
            assert board.game.deal_code == format_deal(*deal(seed))
    else:
        assert board.game is before and board.message != said
        assert len(board.message) <= LONGEST_MESSAGE + 200  # the widget's own words around the reason


@pytest.mark.parametrize("version", [True, 1.0, "1", [1]])
def test_a_save_version_is_the_whole_number_1_not_something_equal_to_it(version):
    data = json.loads(Game.new(2).to_json())
    with pytest.raises(InvalidSave, match="this save has version"):
        Game.from_json(json.dumps({**data, "version": version}))


def test_a_solver_study_on_a_node_budget_gives_the_same_table_every_time():
    # seeds 8 and 39 need thousands of nodes: 300 leaves them open, the same way on every run
    first = study("solver", [2, 8, 39], executor="serial", budget_nodes=300)
    again = study("solver", [2, 8, 39], executor="serial", budget_nodes=300)
    assert first == again
    assert "unknown" in [row.outcome for row in first.rows]  # the budget binds, so equality is not luck


def test_endless_or_huge_piles_are_refused_without_being_read_to_the_end():
    import itertools

    starters = [["A♣"], ["2♦"], ["3♥"], ["4♠"]]
    with pytest.raises(CalcnbError, match=r"foundations must be 4 piles; found 5\+"):
        State.from_position(itertools.repeat([]))
    with pytest.raises(CalcnbError, match="more than 52 cards"):
        State.from_position(starters, stock=itertools.repeat("5♣"))
    with pytest.raises(CalcnbError, match="longer than any real one"):
        State.from_position(starters, stock="5♣ " * 1_000_000)


def test_no_message_repeats_input_by_repr_itself():
    """Input reaches a message through errors.quote (cut to 80 characters, escapes counted), never through
    a template's own ``!r``, which would repeat the whole input."""
    import importlib
    import pkgutil
    import re

    import calcnb
    from calcnb.i18n import LANGUAGES, catalogue

    for module in pkgutil.iter_modules(calcnb.__path__):
        if module.name != "__main__":
            importlib.import_module(f"calcnb.{module.name}")
    for language in LANGUAGES:
        raw = {key: text for key, text in catalogue(language).items() if re.search(r"\{[^{}]*![rsa]", text)}
        assert not raw, raw
