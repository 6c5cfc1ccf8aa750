"""The study script: its rows, its resuming, and ``--alone`` refusing a game that did not make the stored moves."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "player_study.py"


def _script():
    spec = importlib.util.spec_from_file_location("player_study", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_a_game_played_again_is_written_only_when_it_made_the_stored_moves(tmp_path):
    script = _script()
    out = tmp_path / "alone.csv"
    game = script.timed_play(script.make("monte carlo"), 3)
    row = script._row("monte carlo", 3, game)
    assert row[:6] == ["monte carlo", 3, game.outcome, game.score, game.decisions, game.choices]
    stored = {("monte carlo", 3): dict(zip(script.COLUMNS, map(str, row), strict=True))}
    script._play([("monte carlo", 3)], out, check=stored)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == ",".join(script.COLUMNS)
    assert lines[1].split(",")[:6] == [str(value) for value in row[:6]]
    script._play([("monte carlo", 3)], out, check=stored)  # already written: not played again
    assert out.read_text(encoding="utf-8").splitlines() == lines
    wrong = ["monte carlo", "4", "won", "52", "1", "1", "0", "0", "0"]  # no game of seed 4 goes like this
    with pytest.raises(SystemExit, match="seed 4"):
        script._play([("monte carlo", 4)], out, check={("monte carlo", 4): dict(zip(script.COLUMNS, wrong))})
    assert out.read_text(encoding="utf-8").splitlines() == lines  # and nothing was written for it


def test_the_study_names_each_player_as_the_player_names_itself():
    from calcnb.players.blind import MORE_ORDERS, MOST_ORDERS, Determinized

    script = _script()
    for samples in (MORE_ORDERS, MOST_ORDERS):
        player = script.make(Determinized(samples=samples).name)
        assert isinstance(player, Determinized) and player.samples == samples
        assert player.name == f"determinized with {samples} orders"
    assert script.make("next card").name == "next card"
    with pytest.raises(KeyError):
        script.make("determinized with 48 orders")  # no such player in the study
