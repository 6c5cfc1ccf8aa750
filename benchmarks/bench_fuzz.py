"""The big sweep: every code point, mutated inputs, tampered saves, history operations and widget clicks.

Run: ``python benchmarks/bench_fuzz.py [--seed 1] [--every 1] [--mutations 10000] [--saves 10000]
[--operations 10000] [--clicks 2000]``

Each reader either returns what its input really says or refuses it with a calcnb error
(:class:`~calcnb.game.errors.CalcnbError`) whose message quotes at most about 80 characters of the
input. What the input "really says" comes from oracles written apart from the parsers
(``tests/test_fuzz.py``: the accepted spellings, the reference deal reader) and from the
reference rules (``tests/reference_rules.py``) for moves in a save. The printed table counts,
per sweep: inputs tried, accepted (and right), refused cleanly, wrong exception type, silently
accepted (invalid input taken, or valid input read wrong), wrongly refused, refused with a
message too long, and slower than 1 s of CPU time (CPU rather than wall-clock time, so other work
on a shared machine does not count as a hang; the last column gives each sweep's wall-clock time).
The goal is zeros in every column after "refused cleanly".
``--every 97`` samples the code points for a quick run; the default tries all 1,114,112.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the oracles live beside the property tests

import reference_rules as ref  # noqa: E402
import test_fuzz as oracle  # noqa: E402

from calcnb import Card, Game, Move  # noqa: E402
from calcnb.game.deals import check_seed, deal, format_deal, parse_deal  # noqa: E402
from calcnb.game.engine import ALL_MOVES  # noqa: E402
from calcnb.game.errors import QUOTE_LIMIT, CalcnbError  # noqa: E402

SLOW = 1.0  # CPU seconds: an input taking longer counts as a hang (CPU time, as the machine may be shared)
LONGEST_MESSAGE = oracle.LONGEST_MESSAGE
COLUMNS = ("tried", "accepted", "refused", "wrong type", "silent", "wrongly refused", "long message", "slow")
"""Per sweep: inputs tried; accepted and right; refused cleanly; then the faults."""


@dataclass
class Tally:
    """The outcome counts of one sweep, with the first few failures kept to show."""

    name: str
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COLUMNS, 0))
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def fail(self, column: str, shown: object, detail: object) -> None:
        self.counts[column] += 1
        if self.counts[column] <= 3:  # the first three of each kind are shown under the table
            self.failures.append(f"{column}: {oracle.quote(shown)} -> {' '.join(str(detail).split())[:160]}")

    def check(
        self, run: Callable[[], object], valid: bool, shown: object, verify: Callable[[object], bool] | None = None
    ):
        """Run one input: ``valid`` says whether it must be accepted; ``verify`` checks an accepted result."""
        self.counts["tried"] += 1
        started = time.process_time()
        try:
            result = run()
        except CalcnbError as error:
            self._timed(started, shown)
            if valid:
                self.fail("wrongly refused", shown, error)
            elif len(str(error)) > LONGEST_MESSAGE:
                self.fail("long message", shown, f"{len(str(error)):,} characters")
            else:
                self.counts["refused"] += 1
            return None
        except Exception as error:  # anything else escaping a reader is a fault
            self._timed(started, shown)
            self.fail("wrong type", shown, f"{type(error).__name__}: {error}")
            return None
        self._timed(started, shown)
        if not valid or (verify is not None and not verify(result)):
            self.fail("silent", shown, result)
        else:
            self.counts["accepted"] += 1
        return result

    def _timed(self, started: float, shown: object) -> None:
        seconds = time.process_time() - started
        if seconds > SLOW:
            self.fail("slow", shown, f"{seconds:.2f} s")


# ---------------------------------------------------------------- oracles


def card_is(text: str) -> Callable[[Card], bool]:
    return lambda card: oracle.SPELLINGS.get(text.strip(oracle.ASCII_SPACE)) == (card.rank, card.suit)


def card_valid(text: str) -> bool:
    return len(text) <= 64 and text.strip(oracle.ASCII_SPACE) in oracle.SPELLINGS


def move_valid(text: str) -> bool:
    return len(text) <= 64 and oracle.fold(text) in oracle.MOVE_TEXTS


def move_is(text: str) -> Callable[[Move], bool]:
    return lambda move: move.text == oracle.fold(text)


def read_save(text: str) -> tuple | None:
    """What a save says, read without calcnb's readers: its opening cards and the final position
    after its moves under the reference rules, or None when it is no valid save of a deal."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != "calcnb-save":
        return None
    if type(data.get("version")) is not int or data["version"] != 1 or not isinstance(data.get("moves"), list):
        return None
    if not isinstance(data.get("deal"), str):
        return None
    cards = oracle.reference_deal(data["deal"])
    if cards is None:
        return None
    seed = data.get("seed")
    if seed is not None:
        if type(seed) not in (int, str) or len(str(seed)) > 256:
            return None
        if isinstance(seed, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in seed):
            return None
        by_seed = {tuple(tuple((c.rank, c.suit) for c in part) for part in deal(seed))}
        starters = [Card(rank, suit) for rank, suit in cards[0]]
        by_seed.add(tuple(tuple((c.rank, c.suit) for c in part) for part in deal(seed, starters)))
        if cards not in by_seed:
            return None
    starters, stock = ([ref.parse_card(f"{ref.RANK_TEXT[rank]}{suit}") for rank, suit in part] for part in cards)
    position = ref.Position.opening(starters, stock)
    for move in data["moves"]:
        if not isinstance(move, str) or not move_valid(move) or not position.is_legal(oracle.fold(move)):
            return None
        position.play(oracle.fold(move))
    return cards, position.snapshot()


def save_is(expected: tuple | None) -> Callable[[Game], bool]:
    """Whether a loaded game is the one :func:`read_save` read: the same opening and final position."""

    def verify(game: Game) -> bool:
        start, state = game.start, game.state
        opening = (
            tuple((pile[0].rank, pile[0].suit) for pile in start.foundations),
            tuple((c.rank, c.suit) for c in start.stock),
        )
        final = (
            tuple(tuple(c.ascii for c in p) for p in state.foundations),
            tuple(tuple(c.ascii for c in p) for p in state.wastes),
            tuple(c.ascii for c in state.stock),
            None if state.pending is None else state.pending.ascii,
        )
        return expected == (opening, final)

    return verify


# ---------------------------------------------------------------- sweeps


def sweep_code_points(every: int) -> list[Tally]:
    """Every code point (or every ``every``-th) as a suit, a rank, a pile number and a whole move."""
    cards, moves = Tally("card: every code point"), Tally("move: every code point")
    card_texts = {text: (rank, suit) for text, (rank, suit) in oracle.SPELLINGS.items()}
    for point in range(0, 0x110000, every):
        char = chr(point)
        for text in ("A" + char, char + "♠", "1" + char + "D"):
            _check_fast(cards, Card.parse, text, card_texts.get(text), lambda card: (card.rank, card.suit))
        for text in (f"W{char}>F1", f"S>F{char}", char):
            _check_fast(moves, Move.parse, text, oracle.fold(text) if move_valid(text) else None, lambda m: m.text)
    return [cards, moves]


def _check_fast(tally: Tally, parse: Callable, text: str, expected: object, read: Callable) -> None:
    """:meth:`Tally.check` for the million-input sweep: ``expected`` is the reading, or None for a refusal."""
    counts = tally.counts
    counts["tried"] += 1
    started = time.process_time()
    try:
        got = parse(text)
    except CalcnbError as error:
        if time.process_time() - started > SLOW:
            tally.fail("slow", text, "")
        if expected is not None:
            tally.fail("wrongly refused", text, error)
        elif len(str(error)) > LONGEST_MESSAGE:
            tally.fail("long message", text, error)
        else:
            counts["refused"] += 1
        return
    except Exception as error:
        tally.fail("wrong type", text, f"{type(error).__name__}: {error}")
        return
    if time.process_time() - started > SLOW:
        tally.fail("slow", text, "")
    if expected is None or read(got) != expected:
        tally.fail("silent", text, got)
    else:
        counts["accepted"] += 1


def sweep_mutations(rng: random.Random, count: int) -> list[Tally]:
    """Valid cards, moves, deal codes and saves, each with one to three random edits."""
    cards, moves = Tally("card: mutated"), Tally("move: mutated")
    deals, saves = Tally("deal code: mutated"), Tally("save: mutated text")
    spellings, move_texts = sorted(oracle.SPELLINGS), sorted(oracle.MOVE_TEXTS)
    for index in range(count):
        text = rng.choice(spellings)
        for _ in range(rng.randint(1, 3)):
            text = oracle.mutate(text, rng)
        cards.check(lambda text=text: Card.parse(text), card_valid(text), text, card_is(text))
        text = rng.choice(move_texts)
        for _ in range(rng.randint(1, 3)):
            text = oracle.mutate(text, rng)
        moves.check(
            lambda text=text: Move.parse(text), move_valid(text), text, lambda m, t=text: m.text == oracle.fold(t)
        )
        code = format_deal(*deal(index), ascii=rng.random() < 0.5)
        for _ in range(rng.randint(1, 3)):
            code = oracle.mutate(code, rng)
        expected = oracle.reference_deal(code)
        deals.check(
            lambda code=code: parse_deal(code),
            expected is not None,
            code,
            lambda got, e=expected: e == tuple(tuple((c.rank, c.suit) for c in part) for part in got),
        )
        if index % 4 == 0:  # saves are longer to load: a quarter as many
            text = oracle.played(index, rng.randrange(80), rng).to_json()
            for _ in range(rng.randint(1, 3)):
                text = oracle.mutate(text, rng)
            expected = read_save(text)
            saves.check(lambda text=text: Game.from_json(text), expected is not None, text, save_is(expected))
    return [cards, moves, deals, saves]


def sweep_tampered_saves(rng: random.Random, count: int) -> Tally:
    """Saves with one field changed: another seed, two stock cards swapped, a move replaced, junk."""
    tally = Tally("save: tampered")
    for _ in range(count):
        game = oracle.played(rng.randrange(10**6), rng.randrange(100), rng)
        data, must_refuse = oracle.tamper(json.loads(game.to_json()), rng)
        text = json.dumps(data, ensure_ascii=False)
        expected = read_save(text)
        if must_refuse and expected is not None:
            tally.fail("silent", text, "the oracle reads a save that the tampering should have spoilt")
        tally.check(lambda text=text: Game.from_json(text), expected is not None, text, save_is(expected))
    return tally


def sweep_history(rng: random.Random, count: int) -> Tally:
    """Play, undo, redo, load and bad input in random order, each checked against the reference rules."""
    tally = Tally("history: operations")
    game = Game.new(rng.randrange(10**6))
    reference = [ref.Position.opening(*ref.parse_deal_code(format_deal(*deal(game.seed), ascii=True)))]
    undone: list[ref.Position] = []
    junk = ["W²>F1", "Aſ", "S>F5", "W1>W2", "F1>W1", "", "x" * 100_000, 5, None]
    for _ in range(count):
        op = rng.randrange(100)
        if op < 45:  # any of the 25 moves, legal or not
            move = rng.choice(ALL_MOVES)
            legal = reference[-1].is_legal(move.text)
            tally.check(lambda m=move, g=game: g.play(m), legal, move.text)
            if legal:
                reference.append(reference[-1].copy())
                reference[-1].play(move.text)
                undone.clear()
        elif op < 65:
            tally.check(game.undo, True, "undo")
            if len(reference) > 1:
                undone.append(reference.pop())
        elif op < 80:
            tally.check(game.redo, True, "redo")
            if undone:
                reference.append(undone.pop())
        elif op < 90:
            bad = rng.choice(junk)
            tally.check(lambda bad=bad, g=game: g.play(bad), False, bad)
        elif op < 97:
            text = game.to_json()
            loaded = tally.check(lambda text=text: Game.from_json(text), True, "load")
            if loaded is not None:  # a save keeps no redo list: the game goes on from the loaded one
                game = loaded
                undone.clear()
        else:
            game = Game.new(rng.randrange(10**6))
            reference = [ref.Position.opening(*ref.parse_deal_code(format_deal(*deal(game.seed), ascii=True)))]
            undone.clear()
        state = game.state
        mine = (
            tuple(tuple(c.ascii for c in p) for p in state.foundations),
            tuple(tuple(c.ascii for c in p) for p in state.wastes),
            tuple(c.ascii for c in state.stock),
            None if state.pending is None else state.pending.ascii,
        )
        if mine != reference[-1].snapshot():
            tally.fail("silent", "history", f"position differs from the reference after op {op}")
            reference = [reference[-1]]  # report once, then follow the game again
            break
    return tally


def sweep_widget_clicks(rng: random.Random, count: int) -> Tally:
    """Clicks on every PlayBoard button, with hostile text in the seed field before some New deals."""
    from calcnb.ui.play import PlayBoard, parse_seed

    tally = Tally("widget: clicks")
    board = PlayBoard(seed=rng.randrange(10**6))
    names = sorted(board.buttons)
    fields = ["", "7", "-3", "1_000", "x" * 300, "9" * 5000, "٣", "Aſ | 2", "A♣ 2♦ 3♥ 4♠ | 5♠", "\x00" * 100]
    fields += [format_deal(*deal(5)), oracle.mutate(format_deal(*deal(6)), rng)]

    def click(name: str) -> None:
        board.press(name)  # runs the action directly, so an escaping exception shows

    counts = tally.counts
    for _ in range(count):
        name = rng.choice(names)
        before, said = board.game.state, board.message
        if name == "new":
            text = board.seed_input.value = rng.choice(fields)
        counts["tried"] += 1
        started = time.process_time()
        try:
            click(name)
        except Exception as error:  # a click must never raise: the person would see nothing
            tally.fail("wrong type", name, f"{type(error).__name__}: {error}")
            continue
        finally:
            tally._timed(started, name)
        changed = board.game.state is not before
        if name == "new":
            expected = oracle.reference_deal(text) if "|" in text else None
            seed = None if "|" in text else parse_seed(text)
            try:
                valid = expected is not None or ("|" not in text and (seed is None or check_seed(seed) == seed))
            except CalcnbError:
                valid = False  # the seed itself is no seed
            if not valid:
                if changed or board.message == said:
                    tally.fail("silent", text, "the board changed" if changed else "nothing was said")
                else:
                    counts["refused"] += 1
            elif expected is not None:
                got = parse_deal(board.game.deal_code)
                if expected == tuple(tuple((c.rank, c.suit) for c in part) for part in got):
                    counts["accepted"] += 1
                else:
                    tally.fail("silent", text, "another deal")
            elif seed is not None and board.game.deal_code != format_deal(*deal(seed)):
                tally.fail("wrongly refused", text, board.message)
            else:
                counts["accepted"] += 1
        elif name in ("undo", "redo", "hint"):
            counts["accepted"] += 1
        else:
            legal = before.is_legal(name)
            if changed != legal:
                tally.fail("silent", name, f"legal={legal} but the board {'changed' if changed else 'stayed'}")
            else:
                counts["accepted" if legal else "refused"] += 1
        if board.displayed_state is not board.game.state:
            tally.fail("silent", name, "the picture shows another position than the game")
    return tally


def sweep_sizes() -> Tally:
    """Inputs far larger than any real one: each refused at once with a short message."""
    tally = Tally("size: huge inputs")
    code = format_deal(*deal(1))
    huge = {
        "10 MB deal code": (parse_deal, code + " " + "A♠ " * 3_500_000),
        "10 MB control characters as a deal code": (parse_deal, "\x00" * 10_000_000),
        "10 MB save": (Game.from_json, Game.new(1).to_json() + " " * 10_000_000),
        "1 MB of nested brackets as a save": (Game.from_json, "[" * 1_000_000),
        "10 MB card": (Card.parse, "\x01" * 10_000_000),
        "10 MB move": (Move.parse, "W" * 10_000_000),
        "10 MB seed": (Game.new, "7" * 10_000_000),
        "a seed of 100,000 digits": (Game.new, 10**100_000),
    }
    for shown, (reader, value) in huge.items():
        tally.check(lambda reader=reader, value=value: reader(value), False, shown)
    return tally


# ---------------------------------------------------------------- the table


def print_table(tallies: list[Tally], seconds: float) -> None:
    width = max(len(t.name) for t in tallies)
    header = f"{'sweep':<{width}}  " + "  ".join(f"{c:>{max(len(c), 9)}}" for c in COLUMNS) + "  seconds"
    print(header)
    print("-" * len(header))
    total = dict.fromkeys(COLUMNS, 0)
    for tally in tallies:
        row = "  ".join(f"{tally.counts[c]:>{max(len(c), 9)},}" for c in COLUMNS)
        print(f"{tally.name:<{width}}  {row}  {tally.seconds:7.1f}")
        for column in COLUMNS:
            total[column] += tally.counts[column]
    print("-" * len(header))
    print(f"{'total':<{width}}  " + "  ".join(f"{total[c]:>{max(len(c), 9)},}" for c in COLUMNS))
    print(
        f"\n{seconds:.0f} s in all ({time.process_time():.0f} s of CPU time); messages quote at most {QUOTE_LIMIT}"
        " characters of input."
    )
    for tally in tallies:
        for failure in tally.failures:
            print(f"  {tally.name}: {failure}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the random mutations")
    parser.add_argument("--every", type=int, default=1, help="try every n-th code point (1: all)")
    parser.add_argument("--mutations", type=int, default=10_000)
    parser.add_argument("--saves", type=int, default=10_000)
    parser.add_argument("--operations", type=int, default=10_000)
    parser.add_argument("--clicks", type=int, default=2_000)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started = time.perf_counter()
    sweeps = [
        lambda: sweep_code_points(args.every),
        lambda: sweep_mutations(rng, args.mutations),
        lambda: sweep_tampered_saves(rng, args.saves),
        lambda: sweep_history(rng, args.operations),
        lambda: sweep_widget_clicks(rng, args.clicks),
        sweep_sizes,
    ]
    tallies = []
    for sweep in sweeps:
        begun = time.perf_counter()
        done = sweep()
        done = done if isinstance(done, list) else [done]
        for tally in done:
            tally.seconds = (time.perf_counter() - begun) / len(done)  # shared sweeps split their time
        tallies += done
    print_table(tallies, time.perf_counter() - started)


if __name__ == "__main__":
    main()
