"""The play app (notebooks/04_play.ipynb in Voila, code hidden), clicked as a person clicks it."""

import os

import pytest

from .pages import MOVE_NAMES, PlayApp, live_move

pytestmark = pytest.mark.browser

PLAY_NOTEBOOK = os.environ.get("CALCNB_PLAY_NOTEBOOK", "04_play.ipynb")

# Records every text the message line shows, so a test can tell what was said in between.
_RECORD_MESSAGES = """
(line) => {
    window.__messages = [];
    new MutationObserver(() => window.__messages.push(line.innerText.trim()))
        .observe(line, {childList: true, subtree: true, characterData: true});
}
"""


@pytest.fixture
def app(page, voila_server) -> PlayApp:
    return PlayApp(page, voila_server, PLAY_NOTEBOOK)


def test_the_board_image_appears(app):
    assert app.image.is_visible()
    assert app.image_src().startswith("blob:")
    box = app.image.bounding_box()
    assert box is not None and box["width"] > 400 and box["height"] > 200
    # The picture really decoded: a broken PNG has no natural size.
    assert app.image.evaluate("img => img.complete && img.naturalWidth > 400")
    # Nothing is played yet: only Turn (and New deal, Hint) can be clicked.
    assert "T" in app.enabled() and "undo" not in app.enabled()


def test_turn_shows_a_pending_card(app):
    before = app.image_digest()

    said = app.click("T")

    assert said.startswith("Turned "), said
    assert app.image_digest() != before
    # The turned card must now be placed: Turn is off, and every waste accepts it.
    enabled = app.enabled()
    assert "T" not in enabled
    assert {"S>W1", "S>W2", "S>W3", "S>W4"} <= set(enabled)
    assert "must be placed" in app.tooltip("T")


def test_placing_on_a_waste_changes_the_board_and_the_message(app):
    app.click("T")
    turned = app.message()
    before = app.image_digest()

    said = app.click("S>W1")

    assert said != turned
    assert "onto waste 1" in said, said
    assert app.image_digest() != before
    assert "T" in app.enabled()


def test_undo_restores_the_previous_board(app):
    start = app.image_digest()
    app.click("T")
    with_pending = app.image_digest()
    app.click("S>W2")
    assert app.image_digest() != with_pending

    said = app.click("undo")

    assert said.startswith("Took back S>W2"), said
    assert app.image_digest() == with_pending
    app.click("undo")
    assert app.image_digest() == start
    assert "undo" not in app.enabled()


def test_a_disabled_button_cannot_be_clicked(app):
    # Nothing is turned yet, so no turned card can go to a foundation.
    button = app.buttons["S>F1"]
    assert button.is_disabled()
    assert "no card is turned" in app.tooltip("S>F1")
    board = app.image_digest()
    app.message_line.evaluate(_RECORD_MESSAGES)

    button.click(force=True)  # the browser must not deliver it
    # The kernel answers clicks in order: once Turn's answer is shown, an answer to S>F1 would have been too.
    said = app.click("T")

    shown = app.page.evaluate("() => window.__messages")
    assert not any("S>F1" in text for text in shown), shown
    assert said.startswith("Turned ")
    app.click("undo")
    assert app.image_digest() == board


def test_a_whole_game_can_be_played_by_clicks_to_its_end(app):
    clicks = 0
    said = app.message()
    while clicks < 250:  # 48 turns, 48 placements and at most 48 waste moves end any game
        moves = [name for name in app.enabled() if name in MOVE_NAMES]
        if not moves:
            break
        said = app.click(live_move(moves, clicks))
        clicks += 1

    assert not [name for name in app.enabled() if name in MOVE_NAMES], "the game did not end"
    assert "Won!" in said or "Lost:" in said, said
    assert "T" not in app.enabled()
    assert "hint" not in app.enabled()  # nothing to hint once the game is over
    assert clicks >= 48 * 2  # every stock card was turned and placed
