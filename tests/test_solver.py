"""The solver against plain exhaustive search, and its winning lines against the engine.

Two independent references:

- small games (5 or 7 ranks, 2 to 4 foundations, 1 to 3 wastes) searched exhaustively by
  :func:`exhaustive`, written here from the rules with no pruning at all (every move, in every
  order, memoised on the exact position);
- real positions near the end of a deal, searched exhaustively through the engine itself
  (cards with suits, every legal move including the turn).

Each pruning rule of :mod:`calcnb.solver` is checked on its own (only that rule on) and all
together, so a rule that ever threw away the last winning line would show up as a "lost"
where exhaustive search wins.
"""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError
from functools import cache

import pytest

from calcnb import Game, State, set_language
from calcnb.deals import format_deal
from calcnb.engine import Move
from calcnb.solver import RESTART_NODES, RULES, search_ranks, solve

# ------------------------------------------------------------------ small games, exhaustively


def rank_at(step: int, position: int, ranks: int) -> int:
    """The rank at 0-based ``position`` of the foundation of ``step``: step * (position + 1), 0 read as the top rank."""
    return (step * (position + 1)) % ranks or ranks


def exhaustive(ranks: int, foundations: tuple, wastes: tuple, stock: tuple) -> bool:
    """Is the small game winnable? Every move in every order, memoised; no pruning whatsoever.

    ``foundations``: cards on each foundation; ``wastes``: tuples of ranks bottom first;
    ``stock``: ranks in turning order, none turned yet.
    """
    steps = range(1, len(foundations) + 1)

    def needs(counts):
        return [None if c == ranks else rank_at(s, c, ranks) for s, c in zip(steps, counts)]

    @cache
    def winnable(counts, piles, index, turned):
        if all(c == ranks for c in counts) and index == len(stock):
            return True
        wanted = needs(counts)
        successors = []
        if not turned and index < len(stock):
            successors.append((counts, piles, index, True))
        if turned:
            card = stock[index]
            for k, need in enumerate(wanted):
                if need == card:
                    successors.append(((*counts[:k], counts[k] + 1, *counts[k + 1 :]), piles, index + 1, False))
            for w in range(len(piles)):
                placed = (*piles[:w], piles[w] + (card,), *piles[w + 1 :])
                successors.append((counts, placed, index + 1, False))
        for w, pile in enumerate(piles):
            if pile:
                for k, need in enumerate(wanted):
                    if need == pile[-1]:
                        grown = (*counts[:k], counts[k] + 1, *counts[k + 1 :])
                        successors.append((grown, (*piles[:w], pile[:-1], *piles[w + 1 :]), index, turned))
        return any(winnable(*successor) for successor in successors)

    return winnable(tuple(foundations), tuple(tuple(p) for p in wastes), 0, False)


def replays_to_win(ranks: int, foundations, wastes, stock, line) -> bool:
    """Play a solver line ``(kind, waste, foundation)`` by the rules; True if every move is legal and it wins."""
    counts = list(foundations)
    piles = [list(p) for p in wastes]
    index = 0
    for kind, w, k in line:
        need = None if counts[k] == ranks else rank_at(k + 1, counts[k], ranks) if k >= 0 else None
        if kind == 0:
            if not piles[w] or piles[w][-1] != need:
                return False
            piles[w].pop()
            counts[k] += 1
        elif kind == 1:
            if index >= len(stock) or stock[index] != need:
                return False
            counts[k] += 1
            index += 1
        else:
            if index >= len(stock):
                return False
            piles[w].append(stock[index])
            index += 1
    return index == len(stock) and all(c == ranks for c in counts) and not any(piles)


def small_game(seed: int):
    """A random small game: ranks 5 or 7, 2-4 foundations, 1-3 wastes, sometimes a few moves in."""
    rng = random.Random(seed)
    ranks = rng.choice((5, 7))
    foundation_count = rng.choice((2, 3, 4)) if ranks == 5 else rng.choice((2, 3))
    waste_count = rng.choice((1, 1, 2, 2, 3))
    deck = [r for r in range(1, ranks + 1) for _ in range(foundation_count)]
    for starter in range(1, foundation_count + 1):
        deck.remove(starter)
    rng.shuffle(deck)
    counts = [1] * foundation_count
    piles: list[list[int]] = [[] for _ in range(waste_count)]
    stock = deck
    # sometimes start mid-game: a few random placements first
    for _ in range(rng.choice((0, 0, 2, 4))):
        card = stock[0]
        stock = stock[1:]
        wanted = [k for k in range(foundation_count) if counts[k] < ranks and rank_at(k + 1, counts[k], ranks) == card]
        if wanted and rng.random() < 0.7:
            counts[rng.choice(wanted)] += 1
        else:
            rng.choice(piles).append(card)
    # keep the exhaustive search small
    limit = 12 if waste_count <= 2 else 10
    while len(stock) > limit:
        # move surplus cards straight onto their foundations from the front of the stock when they fit
        card = stock[0]
        wanted = [k for k in range(foundation_count) if counts[k] < ranks and rank_at(k + 1, counts[k], ranks) == card]
        if wanted:
            counts[wanted[0]] += 1
        else:
            piles[rng.randrange(waste_count)].append(card)
        stock = stock[1:]
    return ranks, tuple(counts), tuple(tuple(p) for p in piles), tuple(stock)


SMALL_GAMES = [small_game(seed) for seed in range(160)]


@cache
def truths_cache() -> tuple[bool, ...]:
    """Exhaustive answers for every small game (computed once)."""
    return tuple(exhaustive(*game) for game in SMALL_GAMES)


@pytest.fixture(scope="module")
def truths():
    return truths_cache()


def test_small_games_cover_both_outcomes(truths):
    assert 25 <= sum(truths) <= len(truths) - 25, "the sample should hold plenty of won and lost games"


@pytest.mark.parametrize(
    "rules",
    [
        RULES,
        frozenset(),
        *(frozenset({rule}) for rule in sorted(RULES - {"dominance"})),
        frozenset({"forbid", "dominance"}),  # dominance reads the marks forbid leaves
    ],
    ids=lambda rules: "+".join(sorted(rules)) or "none",
)
def test_solver_agrees_with_exhaustive_search(truths, rules):
    """Each rule alone, none and all: the same verdict as exhaustive search, and wins that replay.

    Without the forbid rule the search repeats itself a lot, so partial sets run on the first 90 games.
    """
    count = len(SMALL_GAMES) if rules == RULES else 90
    # restarts are for finding wins in big games; without forbid they would only slow these proofs down
    restart_nodes = RESTART_NODES if rules == RULES else None
    for game, truth in zip(SMALL_GAMES[:count], truths[:count]):
        ranks, counts, piles, stock = game
        outcome, line, _ = search_ranks(
            list(counts),
            [list(p) for p in piles],
            stock,
            ranks=ranks,
            rules=rules,
            restart_nodes=restart_nodes,
            relaxed_stock=len(stock),  # the relaxed rule checks every position, not only late ones
        )
        assert outcome == ("won" if truth else "lost"), (game, rules)
        if truth:
            assert replays_to_win(ranks, counts, piles, stock, line), (game, line)
        else:
            assert line == []


def test_many_restarts_keep_the_verdicts(truths):
    """Attempts of a few nodes each: going back to the root, clearing marks and the stale budgets stay sound."""
    restarted = 0
    for game, truth in zip(SMALL_GAMES, truths):
        ranks, counts, piles, stock = game
        args = (list(counts), [list(p) for p in piles], stock)
        outcome, line, nodes = search_ranks(*args, ranks=ranks, restart_nodes=3, relaxed_stock=len(stock))
        assert outcome == ("won" if truth else "lost"), game
        if truth:
            assert replays_to_win(ranks, counts, piles, stock, line), (game, line)
        restarted += nodes > 3
    assert restarted > 50, "most games should need more than one attempt"


def test_dead_rule_prunes_something():
    """The dead-position rule is not idle: it saves nodes on the small lost games."""
    with_rule = without = 0
    for ranks, counts, piles, stock in SMALL_GAMES:
        args = (list(counts), [list(p) for p in piles], stock)
        with_rule += search_ranks(*args, ranks=ranks)[2]
        without += search_ranks(*args, ranks=ranks, rules=RULES - {"dead"})[2]
    assert with_rule < without


def test_relaxed_rule_prunes_something():
    """The relaxed rule is not idle: with it on everywhere, the small lost games take fewer nodes."""
    with_rule = without = 0
    for (ranks, counts, piles, stock), truth in zip(SMALL_GAMES, truths_cache()):
        if truth:
            continue
        args = (list(counts), [list(p) for p in piles], stock)
        with_rule += search_ranks(*args, ranks=ranks, relaxed_stock=len(stock))[2]
        without += search_ranks(*args, ranks=ranks, rules=RULES - {"relaxed"})[2]
    assert with_rule < without


def test_every_foundation_move_is_not_safe():
    """Moving the turned card to the foundation that wants it can lose where keeping it wins.

    5 ranks, 2 foundations (orders 1 2 3 4 5 and 2 4 1 3 5), 1 waste, stock 4 3 4 5 3 2 1 5.
    Foundation 2 wants the first 4 at once, but foundation 1 will want a 4 too; giving this one
    to foundation 2 loses, keeping it on the waste wins. The solver must not treat the move as safe.
    """
    ranks, counts, piles, stock = 5, (1, 1), ((),), (4, 3, 4, 5, 3, 2, 1, 5)
    assert exhaustive(ranks, counts, piles, stock)
    assert not exhaustive(ranks, (1, 2), piles, stock[1:])  # the greedy move, then the rest
    outcome, line, _ = search_ranks(list(counts), [list(p) for p in piles], stock, ranks=ranks)
    assert outcome == "won"
    assert line[0] == (2, 0, -1)  # the 4 goes on the waste
    assert replays_to_win(ranks, counts, piles, stock, line)


# ------------------------------------------------------------------ real positions near the end


def engine_winnable(state: State) -> bool:
    """Exhaustive search through the engine itself: every legal move, memoised on the state."""
    memo: dict[State, bool] = {}

    def win(s: State) -> bool:
        if s in memo:
            return memo[s]
        status = s.status
        if status != "playing":
            memo[s] = status == "won"
            return memo[s]
        memo[s] = False  # no position repeats (cards only move forward), this is just a guard
        result = any(win(s._apply_legal(m)) for m in s.legal_moves())
        memo[s] = result
        return result

    return win(state)


def late_position(seed: int, stock_left: int) -> State | None:
    """A position with ``stock_left`` cards face down: deal ``seed`` played along a winning line, then disturbed.

    The line comes from the solver itself (a win it found and the engine checked); a few random
    legal moves after it make some positions lost. The verdict is then settled independently by
    :func:`engine_winnable`. None when the solver found no line for the deal within a small budget.
    """
    rng = random.Random(seed)
    found = solve(Game.new(seed), budget_seconds=None, budget_nodes=100_000)
    if found.outcome != "won":
        return None
    state = Game.new(seed).state
    for move in found.moves:
        if len(state.stock) <= stock_left:
            break
        state = state.apply(move)
    for _ in range(rng.choice((0, 1, 2, 3, 4, 5))):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.apply(rng.choice(moves))
    return state


def random_late_position(seed: int, stock_left: int) -> State:
    """Deal ``seed`` played by a seeded random policy (foundation moves preferred) down to ``stock_left`` cards."""
    rng = random.Random(seed)
    state = Game.new(seed).state
    while len(state.stock) > stock_left and state.status == "playing":
        moves = state.legal_moves()
        foundation = [m for m in moves if m.kind in ("stock_to_foundation", "waste_to_foundation")]
        move = rng.choice(foundation) if foundation and rng.random() < 0.8 else rng.choice(moves)
        state = state.apply(move)
    return state


LATE = [s for s in (late_position(seed, stock_left=5 + seed % 2) for seed in range(30)) if s is not None]
LATE += [random_late_position(seed, stock_left=4) for seed in range(20)]


@pytest.fixture(scope="module")
def late_truths():
    return [engine_winnable(state) for state in LATE]


def test_late_positions_match_engine_exhaustive_search(late_truths):
    assert any(late_truths) and not all(late_truths)
    for state, truth in zip(LATE, late_truths):
        solution = solve(state, budget_seconds=None)
        assert solution.outcome == ("won" if truth else "lost")
        if truth:
            replayed = state
            for move in solution.moves:
                replayed = replayed.apply(move)
            assert replayed.status == "won"
        else:
            assert solution.moves == ()


def test_game_input_uses_the_current_position(late_truths):
    state = next(s for s, t in zip(LATE, late_truths) if t and s.pending is not None)
    game = Game.from_position(
        foundations=state.foundations, wastes=state.wastes, stock=state.stock, pending=state.pending
    )
    solution = solve(game, budget_seconds=None)
    assert solution.outcome == "won"
    game.play_many(solution.moves)
    assert game.status == "won"


# ------------------------------------------------------------------ whole deals


@pytest.mark.parametrize("seed", [0, 2, 6, 9, 17, 24])
def test_won_deals_replay_through_the_game(seed):
    solution = solve(Game.new(seed), budget_seconds=None, budget_nodes=200_000)
    assert solution.outcome == "won"
    game = Game.new(seed)
    game.play_many(solution.moves)
    assert game.status == "won"
    assert all(isinstance(move, Move) for move in solution.moves)
    assert solution.nodes > 0 and solution.seconds >= 0


def test_deal_code_and_mid_game_start():
    game = Game.new(6)
    by_code = solve(game.deal_code, budget_seconds=None, budget_nodes=100_000)
    assert by_code.outcome == "won"
    game.play_many(by_code.moves[:10])
    rest = solve(game, budget_seconds=None, budget_nodes=100_000)
    assert rest.outcome == "won"
    game.play_many(rest.moves)
    assert game.status == "won"


def test_a_finished_game():
    game = Game.new(6)
    game.play_many(solve(game, budget_seconds=None).moves)
    assert game.status == "won"
    solution = solve(game)
    assert (solution.outcome, solution.moves) == ("won", ())


def test_budget_runs_out_as_unknown():
    # seed 8 is hard: a handful of nodes cannot decide it
    solution = solve(Game.new(8), budget_seconds=None, budget_nodes=50)
    assert solution.outcome == "unknown"
    assert solution.moves == ()
    assert solution.nodes <= 51
    assert not solution.decided


def test_solution_is_frozen_and_readable():
    solution = solve(Game.new(6))
    with pytest.raises(FrozenInstanceError):
        solution.outcome = "lost"  # type: ignore[misc]
    assert str(solution).startswith("won in ")
    set_language("pt")
    assert str(solution).startswith("ganho em ")


def test_bad_input_is_refused_clearly():
    with pytest.raises(TypeError, match="Game, a State or a deal code"):
        solve(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        solve("not a deal")
    with pytest.raises(ValueError, match="budget_seconds"):
        solve(Game.new(1), budget_seconds=0)
    with pytest.raises(ValueError, match="budget_nodes"):
        solve(Game.new(1), budget_nodes=-5)
    with pytest.raises(ValueError, match="unknown solver rule: telepathy"):
        solve(Game.new(1), rules={"dead", "telepathy"})


def test_solve_without_the_relaxed_rule_still_wins_and_the_rule_saves_nodes():
    """The rules knob reaches the search: the same deal, with and without the relaxed rule."""
    seeds = range(8)  # deals both searches decide in well under a second
    with_rule = [solve(Game.new(seed), budget_seconds=None, budget_nodes=60_000) for seed in seeds]
    without = [
        solve(Game.new(seed), budget_seconds=None, budget_nodes=60_000, rules=RULES - {"relaxed"}) for seed in seeds
    ]
    for seed, solution in zip(seeds, without):
        if solution.outcome == "won":
            game = Game.new(seed)
            game.play_many(solution.moves)
            assert game.status == "won"
    decided = sum(s.decided for s in with_rule)
    assert decided >= sum(s.decided for s in without)
    both = [(a.nodes, b.nodes) for a, b in zip(with_rule, without) if a.decided and b.decided]
    assert sum(a for a, _ in both) < sum(b for _, b in both)


def test_deal_code_round_trip_matches_seed():
    starters, stock = Game.new(3).start.foundations, Game.new(3).start.stock
    code = format_deal([pile[0] for pile in starters], stock)
    assert (
        solve(code, budget_seconds=None, budget_nodes=100_000).outcome
        == solve(Game.new(3), budget_seconds=None, budget_nodes=100_000).outcome
    )
