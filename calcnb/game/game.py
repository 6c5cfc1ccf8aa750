"""A game in progress: a state plus its history, undo and redo, and saves.

:class:`Game` is the mutable object a person (or a widget) plays with. It
never changes a :class:`~calcnb.game.engine.State`; it keeps the list of states it
has passed through, which makes undo and redo exact.

A save (``to_json``) holds the start (a deal code, or the position for games
begun with :meth:`Game.from_position`) and the moves. Loading replays every
move through the rules, so a tampered file is refused at its first bad move;
nothing is ever unpickled or evaluated.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from inspect import signature
from typing import Any

from calcnb.core.pictures import picture
from calcnb.game.cards import Card, parse_cards
from calcnb.game.deals import Seed, check_seed, deal, format_deal, new_seed, parse_deal
from calcnb.game.engine import IllegalMove, InvalidMove, Move, State, render_text
from calcnb.game.errors import ASCII_SPACE, MAX_SAVE_CHARS, CalcnbError, InvalidSave, check_length, quote
from calcnb.game.rules import Status
from calcnb.i18n import Words, has_message, message

SAVE_FORMAT = "calcnb-save"
SAVE_VERSION = 1


class Game:
    """A game of Calculation in progress, with undo and redo.

    Make one with :meth:`new` (a seeded deal), :meth:`from_deal` (a deal code),
    :meth:`from_position` (any consistent position) or :meth:`from_json` (a save).
    """

    def __init__(self, state: State, *, deal_code: str | None = None, seed: Seed | None = None) -> None:
        self._start = state
        self._states: list[State] = [state]
        self._history: list[Move] = []
        self._redo: list[Move] = []
        self.deal_code: str | None = deal_code
        """The one-line deal this game began from, or None for a game begun from a position."""
        self.seed: Seed | None = seed
        """The seed of the deal, when it was made by :meth:`new`."""

    # ------------------------------------------------------------ making games

    @classmethod
    def new(cls, seed: Seed | None = None, starters: Sequence[Card | str] | str | None = None) -> Game:
        """A fresh deal from ``seed`` (a new random one when None, kept in ``game.seed``).

        ``starters`` names the A, 2, 3, 4 to use (``"A♣ 2♦ 3♥ 4♠"``); otherwise
        the seed chooses their suits. The same seed gives the same deal everywhere.
        """
        if seed is None:
            seed = new_seed()
        starter_cards, stock = deal(seed, starters)
        return cls(State.initial(starter_cards, stock), deal_code=format_deal(starter_cards, stock), seed=seed)

    @classmethod
    def from_deal(cls, code: str) -> Game:
        """The game dealt by a deal code (``A♣ 2♦ 3♥ 4♠ | 7♠ K♦ ...``; ASCII accepted)."""
        starters, stock = parse_deal(code)
        return cls(State.initial(starters, stock), deal_code=format_deal(starters, stock))

    @classmethod
    def from_position(cls, *position: Any, **piles: Any) -> Game:
        """A game starting from any consistent position, given and checked as :meth:`State.from_position` does."""
        return cls(State.from_position(*position, **piles))

    # help() and editors show the parameters of the one signature, State.from_position's.
    from_position.__func__.__signature__ = signature(State.from_position.__func__).replace(return_annotation="Game")

    # ------------------------------------------------------------ the position

    @property
    def state(self) -> State:
        """The current position."""
        return self._states[-1]

    @property
    def start(self) -> State:
        """The position the game began from."""
        return self._start

    @property
    def states(self) -> tuple[State, ...]:
        """Every position so far, the start first and the current one last."""
        return tuple(self._states)

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves played, in order (undone moves excluded)."""
        return tuple(self._history)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """The undone moves that :meth:`redo` would play again, the next one first."""
        return tuple(reversed(self._redo))

    @property
    def status(self) -> Status:
        """``"playing"``, ``"won"`` or ``"lost"`` (a :class:`~calcnb.game.rules.Status`)."""
        return self.state.status

    @property
    def score(self) -> int:
        """Cards on the foundations, the 4 starters included (52 = solved)."""
        return self.state.score

    @property
    def foundations(self) -> tuple[tuple[Card, ...], ...]:
        return self.state.foundations

    @property
    def wastes(self) -> tuple[tuple[Card, ...], ...]:
        return self.state.wastes

    @property
    def stock(self) -> tuple[Card, ...]:
        return self.state.stock

    @property
    def pending(self) -> Card | None:
        return self.state.pending

    @property
    def last_move(self) -> Move | None:
        """The move that led to the current position, or None at the start."""
        return self._history[-1] if self._history else None

    def legal_moves(self) -> list[Move]:
        """The legal moves here, in the engine's documented order."""
        return self.state.legal_moves()

    def why_illegal(self, move: Move | str) -> str | None:
        """Why ``move`` is not legal here, or None when it is."""
        return self.state.why_illegal(move)

    def is_legal(self, move: Move | str) -> bool:
        return self.state.is_legal(move)

    def explain(self, move: Move | str) -> str:
        """One teaching sentence about ``move`` here (raises IllegalMove if it is not legal)."""
        return self.state.explain(move)

    def is_terminal(self) -> bool:
        """True when the game is over (won or lost): the same question as :meth:`State.is_terminal`."""
        return self.state.is_terminal()

    # ------------------------------------------------------------ changing it

    def play(self, move: Move | str) -> Move:
        """Play ``move`` (a Move or text like ``"S>F2"``) and return it.

        Raises :class:`InvalidMove` or :class:`IllegalMove` and changes nothing
        when the move cannot be played. Playing clears the redo list.
        """
        move = Move.parse(move)
        self._states.append(self.state.apply(move))
        self._history.append(move)
        self._redo.clear()
        return move

    def play_many(self, moves: Iterable[Move | str] | str) -> None:
        """Play several moves (a list, or text separated by spaces or commas); all or none."""
        if isinstance(moves, str):  # separated by ASCII whitespace or commas, as cards are
            moves = [move for move in moves.translate(_SEPARATORS).split(" ") if move]
        state = self.state
        states, parsed = [], []
        for move in moves:  # parsed as played: the work stops at the first move that fails
            parsed.append(Move.parse(move))
            state = state.apply(parsed[-1])
            states.append(state)
        self._states.extend(states)
        self._history.extend(parsed)
        self._redo.clear()

    def can_undo(self) -> bool:
        return bool(self._history)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Move | None:
        """Take back the last move and return it (None when there is nothing to undo)."""
        if not self._history:
            return None
        self._states.pop()
        move = self._history.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move | None:
        """Play again the last undone move and return it (None when there is nothing to redo)."""
        if not self._redo:
            return None
        move = self._redo.pop()
        self._states.append(self.state.apply(move))
        self._history.append(move)
        return move

    def restart(self) -> None:
        """Back to the starting position; the moves can be redone."""
        while self.undo() is not None:
            pass

    def copy(self) -> Game:
        """An independent game at the same point with the same history."""
        twin = Game(self._start, deal_code=self.deal_code, seed=self.seed)
        twin._states = list(self._states)
        twin._history = list(self._history)
        twin._redo = list(self._redo)
        return twin

    # ------------------------------------------------------------ saves

    def to_json(self) -> str:
        """A versioned save: the deal (or start position) and the moves, as JSON text."""
        data: dict[str, object] = {"format": SAVE_FORMAT, "version": SAVE_VERSION}
        if self.deal_code is not None:
            data["deal"] = self.deal_code
            if self.seed is not None:
                data["seed"] = self.seed
        else:
            start = self._start
            data["position"] = {
                "foundations": [_card_text(pile) for pile in start.foundations],
                "wastes": [_card_text(pile) for pile in start.wastes],
                "stock": _card_text(start.stock),
                "pending": None if start.pending is None else str(start.pending),
            }
        data["moves"] = [move.text for move in self._history]
        return json.dumps(data, ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """A game from :meth:`to_json` text, every move replayed through the rules.

        Raises :class:`~calcnb.game.errors.InvalidSave` naming what is wrong (not JSON, a missing
        field, a bad deal, a seed that does not deal the saved deal, or the first move that
        cannot be played). A text over :data:`~calcnb.game.errors.MAX_SAVE_CHARS` is refused unread.
        """
        check_length(text, MAX_SAVE_CHARS, "input.save", InvalidSave)
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as error:  # RecursionError: absurdly deep nesting
            raise InvalidSave(Words("save.bad_json", detail=_json_fault(error, text))) from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            detail = Words("save.detail_format", field=_field("format"), format=repr(SAVE_FORMAT))
            raise InvalidSave(Words("save.bad_field", detail=detail))
        if "version" not in data:
            raise InvalidSave(Words("save.no_version", supported=SAVE_VERSION))
        if type(data["version"]) is not int or data["version"] != SAVE_VERSION:  # JSON true is no version
            raise InvalidSave(Words("save.version", version=quote(data["version"]), supported=SAVE_VERSION))
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise InvalidSave(Words("save.bad_field", detail=Words("save.detail_moves", field=_field("moves"))))
        game = cls._start_of_save(data)
        for number, move in enumerate(moves, start=1):
            try:
                game.play(move)
            except (InvalidMove, IllegalMove) as error:
                reason = error.values["reason"] if isinstance(error, IllegalMove) else error
                raise InvalidSave(Words("save.bad_move", number=number, move=quote(move), reason=reason)) from None
        return game

    @classmethod
    def _start_of_save(cls, data: dict) -> Game:
        """The game a save's ``deal`` (checked against its ``seed``) or ``position`` begins."""
        if "deal" in data:
            try:
                game = cls.from_deal(data["deal"])
            except CalcnbError as error:
                raise InvalidSave(Words("save.bad_deal", reason=error)) from None
            if data.get("seed") is not None:
                game.seed = _seed_of_save(data["seed"], game.deal_code)
            return game
        if not isinstance(data.get("position"), dict):
            detail = Words("save.detail_no_start", deal=_field("deal"), position=_field("position"))
            raise InvalidSave(Words("save.bad_field", detail=detail))
        position = data["position"]
        missing = [key for key in ("foundations", "wastes", "stock", "pending") if key not in position]
        if missing:
            field = _field(missing[0])
            detail = Words("save.detail_position_missing", position=_field("position"), field=field)
            raise InvalidSave(Words("save.bad_field", detail=detail))
        try:
            return cls.from_position(
                foundations=position["foundations"],
                wastes=position["wastes"],
                stock=position["stock"],
                pending=position["pending"],
            )
        except CalcnbError as error:
            raise InvalidSave(Words("save.bad_position", reason=error)) from None

    # ------------------------------------------------------------ display

    def __str__(self) -> str:
        return render_text(self.state)

    def _repr_png_(self) -> bytes | None:
        """The board as PNG bytes, how a notebook shows a Game (its last move marked); drawn by the painter a
        layer above gives (:mod:`calcnb.core.pictures`). None (text only) without one."""
        return picture(self)

    def __repr__(self) -> str:
        where = f"seed={self.seed!r}" if self.seed is not None else f"deal_code={self.deal_code!r}"
        if self.deal_code is None:
            where = "from_position"
        return f"<Game {where} moves={len(self._history)} score={self.score} status={self.status}>"


_SEPARATORS = str.maketrans(dict.fromkeys(ASCII_SPACE + ",", " "))


def _seed_of_save(seed: object, deal_code: str) -> Seed:
    """A save's seed, or :class:`InvalidSave` naming the first card where the deal it deals differs."""
    try:
        check_seed(seed)
    except CalcnbError as error:
        raise InvalidSave(Words("save.bad_seed", reason=error)) from None
    saved_starters, saved_stock = parse_deal(deal_code)
    starters, stock = deal(seed)
    if starters != saved_starters:  # a game dealt with chosen starters shuffles the rest from the same seed
        starters, stock = deal(seed, saved_starters)
    for index, (saved, dealt) in enumerate(zip(saved_stock, stock), start=1):
        if saved != dealt:
            raise InvalidSave(Words("save.seed_mismatch", seed=quote(seed), index=index, saved=saved, dealt=dealt))
    return seed


def save_field(key: object) -> str:
    """A save's field named for the reader: its key, glossed in the language in use (``'deal' (a distribuição)``);
    a key no calcnb save has is only quoted."""
    try:
        return message(f"save.field_{key}")
    except KeyError:
        return quote(key)


def _field(key: str) -> Words | str:
    """A save's field for an error: :func:`save_field`, worded when the error is shown."""
    return Words(f"save.field_{key}") if has_message(f"save.field_{key}") else quote(key)


def _json_fault(error: Exception, text: object) -> Words:
    """What keeps ``text`` from being read as JSON, worded when shown (Python's own words are English)."""
    if isinstance(error, json.JSONDecodeError):
        if not error.doc.strip(ASCII_SPACE):
            return Words("save.detail_empty")
        if not error.doc[error.pos :].strip(ASCII_SPACE):
            return Words("save.detail_json_end", line=error.lineno, column=error.colno)
        rest = error.doc[error.pos :]
        near = quote(rest[:_NEAR], limit=_NEAR) + ("…" if len(rest) > _NEAR else "")
        return Words("save.detail_json_at", line=error.lineno, column=error.colno, near=near)
    if isinstance(error, UnicodeDecodeError):
        return Words("save.detail_not_unicode")
    if isinstance(error, RecursionError):
        return Words("save.detail_too_deep")
    return Words("save.detail_not_text", value=quote(text))


_NEAR = 24  # how much of the text a JSON fault quotes, from where reading stopped


def _card_text(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


__all__ = ["Game", "parse_cards", "save_field"]
