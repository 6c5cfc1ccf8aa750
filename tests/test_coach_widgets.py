"""The coach's controls on the play board: Analyse shows each move's chance; Watch plays, explains and stops."""

from __future__ import annotations

from calcnb import Game
from calcnb.coach_widgets import CoachPanel, coach, watch_players
from calcnb.i18n import set_language
from calcnb.strategies import ReverseNeed
from calcnb.widgets import PlayBoard


def _board_at(seed: int, moves: int) -> PlayBoard:
    game = Game.new(seed)
    game.play_many(ReverseNeed().play(seed).moves[:moves])
    return PlayBoard(game)


def test_coach_sits_beside_the_board():
    board = PlayBoard(seed=3)
    panel = coach(board)
    assert isinstance(panel, CoachPanel) and panel in board.panel.children


def test_analyse_shows_every_legal_move_as_a_bar_and_a_sentence():
    board = _board_at(0, 80)
    panel = CoachPanel(board, seconds=0.0)
    panel.buttons["analyse"].click()
    assert bytes(panel.chart.value).startswith(b"\x89PNG")
    lines = panel.text.value.split("<br>")
    assert len(lines) == len(board.game.legal_moves()) == len(panel.chances)
    assert all("in 100 futures" in line for line in lines)
    assert board.game.history == tuple(ReverseNeed().play(0).moves[:80])  # analysing plays nothing


def test_watch_plays_the_chosen_players_moves_with_a_reason_each():
    board = PlayBoard(seed=4)
    panel = CoachPanel(board)
    panel.player.value = "reverse need"
    expected = ReverseNeed().play(4).moves
    for count in range(1, 13):
        assert panel.step()
        assert board.game.history == expected[:count]
        assert panel.text.value.startswith("reverse need chose to")
    assert board.message  # the board's own line says what the move did


def test_watch_runs_until_stopped_and_stops_at_the_end():
    board = PlayBoard(seed=4)
    panel = CoachPanel(board)
    panel.player.value = "first fit"
    panel.pace.value = 0.2
    panel.buttons["watch"].click()
    panel.buttons["stop"].click()
    panel._thread.join(timeout=30)
    assert not panel._thread.is_alive()
    played = len(board.game.history)
    while panel.step():
        pass
    assert board.game.status != "playing" and len(board.game.history) > played
    assert not panel.step()


def test_every_player_of_the_ladder_can_be_watched_and_says_why():
    assert list(watch_players()) == [
        "random",
        "first fit",
        "reverse need",
        "kings apart",
        "monte carlo",
        "determinized",
    ]
    board = _board_at(2, 60)
    panel = CoachPanel(board)
    for name in ("random", "first fit", "kings apart", "determinized"):
        panel.player.value = name
        if board.game.state.pending is None:
            panel.step()  # a turn
        assert panel.step()
        assert panel.text.value.startswith(f"{name} chose to")


def test_controls_speak_portuguese():
    set_language("pt")
    try:
        panel = CoachPanel(PlayBoard(seed=1))
        assert panel.buttons["analyse"].description == "Analisar"
        assert panel.buttons["watch"].description == "Ver jogar"
        panel.step()
        assert "escolheu" in panel.text.value
    finally:
        set_language("en")
