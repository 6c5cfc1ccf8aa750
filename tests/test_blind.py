"""The determinized player: blind to the stock order, legal, and its shortcuts are the sound ones."""

from __future__ import annotations

import csv
import pickle
import random
from pathlib import Path

import pytest
from game_support import late_game, permuted_stock

from calcnb import Game
from calcnb.game.engine import ALL_MOVES, Move
from calcnb.game.rules import POSITION
from calcnb.players import blind
from calcnb.players.blind import (
    MORE_ORDERS,
    PLAIN_NAME,
    SECOND_LOOK_NAME,
    SECOND_LOOK_NODES,
    UNKNOWN,
    WON,
    Determinized,
    candidates,
    evaluate,
    hidden_orders,
    solve_sample,
)
from calcnb.players.ladder import ReverseNeed
from calcnb.players.table import PlayerView
from calcnb.solver import solve
from calcnb.studies.folklore import timed_play

SMALL = Determinized(samples=4, nodes=100, total_nodes=2000)


@pytest.mark.parametrize("seed, left", [(0, 6), (3, 10), (7, 14)])
def test_choice_does_not_change_when_the_stock_is_permuted(seed, left):
    state = late_game(seed, left).state
    choice = SMALL.choose(state)
    assert choice in state.legal_moves()
    for trial in range(3):
        assert SMALL.choose(permuted_stock(state, random.Random(trial))) is choice


def test_candidates_keep_one_of_interchangeable_piles_and_every_other_choice():
    game = Game.new(5)
    game.play("T")
    table = PlayerView.of(game.state).table()
    moves = [ALL_MOVES[m] for m in candidates(table)]
    assert Move.parse("S>W1") in moves and not {Move.parse(f"S>W{w}") for w in (2, 3, 4)} & set(moves)
    state = late_game(0, 6).state
    moves = [ALL_MOVES[m] for m in candidates(PlayerView.of(state).table())]
    assert moves == [move for move in state.legal_moves() if move in moves]  # the engine's order
    assert len(moves) > 2


def _positions(seeds: range):
    """Every position reverse need passes through on these deals, as lean tables."""
    for seed in seeds:
        game = Game.new(seed)
        for move in ReverseNeed().play(seed).moves:
            yield PlayerView.of(game.state).table()
            game.play(move)


def _needed_later(table, rank: int) -> bool:
    """Does a foundation that does not need ``rank`` now still need it later?"""
    return any(table.need[k] != rank and table.count[k] < 13 and POSITION[k][rank] > table.count[k] for k in range(4))


def test_a_card_needed_now_by_every_foundation_that_needs_it_goes_there_at_once_and_no_other_is_forced():
    safe = choice = 0
    for table in _positions(range(30)):
        rank = table.pending
        if not rank or table.need.count(rank) != 1 or any(pile and pile[-1] in table.need for pile in table.wastes):
            continue
        found = candidates(table)
        if _needed_later(table, rank):
            choice += 1
            assert 1 + table.need.index(rank) in found and 5 in found  # to the foundation, or keep it on a waste
        else:
            safe += 1
            assert found == [1 + table.need.index(rank)]
    assert safe > 50 and choice > 5


def test_with_no_card_pending_turning_is_the_only_candidate_unless_a_move_is_safe():
    seen = 0
    for table in _positions(range(30)):
        if table.pending or not table.stock_left:
            continue
        found = candidates(table)
        assert found == [0] or (len(found) == 1 and found[0] >= 9)
        seen += found == [0] and len(table.legal()) > 1
    assert seen > 0


def test_every_candidate_faces_the_same_orders_and_a_won_order_is_a_real_win():
    state = late_game(3, 10).state
    table = PlayerView.of(state).table()
    moves = candidates(table)
    orders = hidden_orders(table, 6, random.Random(2))
    assert all(sorted(order) == sorted(orders[0]) for order in orders)
    results = evaluate(table, moves, orders, 200)
    assert all(result.futures == 6 for result in results.values())
    # check the won answers against the full solver on the very position and order
    for order in orders[:2]:
        outcome, _ = solve_sample(table, order, 5000)
        stock = [c for c in state.stock]
        by_rank = {}
        for card in stock:
            by_rank.setdefault(card.rank, []).append(card)
        real = state._replace(stock=tuple(by_rank[rank].pop() for rank in order))
        truth = solve(real, budget_seconds=None, budget_nodes=50_000).outcome
        assert outcome in (truth, "unknown")


def test_a_game_replays_through_the_rules_and_the_player_pickles():
    game = late_game(2, 8)
    result = SMALL.play(game)
    game.play_many(result.moves)
    assert game.status == result.outcome
    assert pickle.loads(pickle.dumps(SMALL)) == SMALL


def _replay_quickest_study_game(player: Determinized) -> tuple[dict[str, str], tuple[str, int, int, int]]:
    """The stored study's quickest game of ``player``'s name, and what this code's player does on that seed."""
    with (Path(__file__).resolve().parent.parent / "data" / "player_study.csv").open(encoding="utf-8") as handle:
        rows = [row for row in csv.DictReader(handle) if row["player"] == player.name]
    row = min(rows, key=lambda row: float(row["think_seconds"]))
    game = timed_play(player, int(row["seed"]))
    return row, (game.outcome, game.score, game.decisions, game.choices)


@pytest.mark.slow
def test_the_stored_study_measured_the_players_this_code_plays(monkeypatch):
    players = (
        Determinized(escalate=SECOND_LOOK_NODES),
        Determinized(samples=MORE_ORDERS),
        Determinized(),
        Determinized(rollouts=0),
    )
    for player in players:
        row, replayed = _replay_quickest_study_game(player)
        assert replayed == (row["outcome"], int(row["score"]), int(row["decisions"]), int(row["choices"]))
    names = [SECOND_LOOK_NAME, "determinized with 32 orders", "determinized", PLAIN_NAME]
    assert [player.name for player in players] == names
    # the solver's own default (the relaxed test at every position) makes another player
    monkeypatch.setattr(blind, "SAMPLE_RELAXED_STOCK", None)
    assert _replay_quickest_study_game(players[-1])[1] != replayed


def test_the_second_look_solves_again_only_the_undecided_orders_of_the_moves_still_in_the_race(monkeypatch):
    table = PlayerView.of(late_game(3, 10).state).table()
    moves = candidates(table)
    assert len(moves) >= 3
    settled, close, behind = moves[:3]
    orders = hidden_orders(table, 8, random.Random(2))
    by_key = {_key(blind._after(table, move)): move for move in moves}
    asked: list[tuple[int, int]] = []

    def fake_solver(after, order, nodes):
        """``settled``: undecided by the small budget, won by the large one; ``close``: wins half;
        ``behind``: half undecided, half lost (dropped from the race); the rest lose."""
        move, index = by_key[_key(after)], orders.index(order)
        asked.append((move, nodes))
        if move == settled:
            return (WON if nodes > 600 else UNKNOWN), nodes
        if move == close:
            return ("won" if index % 2 else "lost"), nodes
        if move == behind:
            return (UNKNOWN if index % 2 else "lost"), nodes
        return "lost", nodes

    monkeypatch.setattr(blind, "solve_sample", fake_solver)
    once = evaluate(table, moves, orders, 600, race=True)
    assert (once[settled].unknown, once[close].won, once[behind].unknown) == (8, 4, 4)
    assert all(nodes == 600 for _, nodes in asked)
    asked.clear()
    twice = evaluate(table, moves, orders, 600, race=True, escalate=6000)
    second = [move for move, nodes in asked if nodes == 6000]
    assert second == [settled] * 8  # only the undecided orders of the moves left in the race
    assert (twice[settled].won, twice[settled].unknown, twice[settled].futures) == (8, 0, 8)
    assert twice[behind].unknown == 4 and twice[close].won == 4


def _choices_with_spied_rollouts(player: Determinized, monkeypatch) -> list[tuple[int, dict, dict]]:
    """Each real choice ``player`` makes on early positions: (move, its evaluations, play-out results by move)."""
    spied: dict[tuple, tuple[int, int]] = {}

    def spy(table, orders, policy, rng):
        result = real(table, orders, policy, rng)
        spied[_key(table)] = result
        return result

    real = blind.rollouts
    monkeypatch.setattr(blind, "rollouts", spy)
    seen = []
    for seed, left in [(0, 36), (0, 32), (1, 32), (1, 40), (4, 28), (7, 44)]:
        table = PlayerView.of(late_game(seed, left).state).table()
        spied.clear()
        move = player.next_move(table, random.Random(seed))
        by_move = {
            m: spied[_key(blind._after(table, m))] for m in player.last_results if _key(blind._after(table, m)) in spied
        }
        seen.append((move, dict(player.last_results), by_move))
    return seen


def _key(table) -> tuple:
    return (tuple(table.count), tuple(map(tuple, table.wastes)), table.pending)


@pytest.mark.slow
def test_a_tie_goes_to_the_move_whose_blind_play_outs_win_most_and_only_a_tie(monkeypatch):
    ties = clear = 0
    for move, results, played_out in _choices_with_spied_rollouts(Determinized(samples=8, nodes=200), monkeypatch):
        best = max(result.points for result in results.values())
        tied = {m for m, result in results.items() if result.points == best}
        assert move in tied
        if len(tied) == 1:
            assert not played_out  # a clear winner needs no play-outs
            clear += 1
            continue
        ties += 1
        assert set(played_out) == tied  # every tied move, and only those, is played out on the same orders
        assert played_out[move] == max(played_out.values())
    assert ties >= 3 and clear >= 1  # early on, most moves win every imagined order


@pytest.mark.slow
def test_the_plain_player_breaks_ties_by_reverse_need_without_play_outs(monkeypatch):
    for move, results, played_out in _choices_with_spied_rollouts(
        Determinized(samples=8, nodes=200, rollouts=0), monkeypatch
    ):
        assert not played_out
        best = max(result.points for result in results.values())
        assert results[move].points == best
