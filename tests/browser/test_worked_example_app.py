"""The worked example as an app (notebooks/03_worked_example.ipynb served by Voila and by the class server): Next and
Previous walk it."""

import os

import pytest

from calcnb.exercises.examples import worked_example

from .pages import StepperApp, wait_until_settled

pytestmark = pytest.mark.browser

STEPPER_NOTEBOOK = os.environ.get("CALCNB_STEPPER_NOTEBOOK", "03_worked_example.ipynb")


def test_next_and_previous_step_through_every_caption_and_back(page, app_server):
    app = StepperApp(page, app_server, STEPPER_NOTEBOOK)
    script = worked_example()
    assert app.position() == (1, len(script))
    assert app.prev.is_disabled() and app.reset.is_disabled()

    forward = [app.caption()]
    while not app.next.is_disabled():
        app.click(app.next)
        forward.append(app.caption())
    assert app.position() == (len(script), len(script))
    # The page shows the engine's own captions, every one of them, in order.
    assert forward == [step.caption for step in script]

    backward = [app.caption()]
    while not app.prev.is_disabled():
        app.click(app.prev)
        backward.append(app.caption())
    assert backward == forward[::-1]
    assert app.position() == (1, len(script))


def test_the_board_and_its_buttons_fit_a_laptop_screen_and_next_stays_put(page, app_server):
    screen = {"width": 1280, "height": 800}
    page.set_viewport_size(screen)
    app = StepperApp(page, app_server, STEPPER_NOTEBOOK)
    wait_until_settled(page)  # the whole page laid out, as a reader sees it before scrolling
    # Scrolled to the example, as a reader does; at once (the page scrolls smoothly, and is measured now).
    app.root.evaluate("root => root.scrollIntoView({block: 'start', behavior: 'instant'})")

    def on_screen(locator) -> dict:
        box = None
        for _ in range(20):  # the board's <img> is replaced with every new picture: measure the one shown now
            locator.wait_for(state="visible")
            box = locator.bounding_box()
            if box is not None:
                break
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= screen["width"], box
        assert box["y"] >= 0 and box["y"] + box["height"] <= screen["height"], box
        return box

    places = set()
    while True:
        on_screen(app.image)
        on_screen(app.prev)
        places.add(tuple(round(on_screen(app.next)[key]) for key in ("x", "y")))
        if app.next.is_disabled():
            break
        app.click(app.next)
    assert len(places) == 1, places  # Next never moves while the captions change
    assert app.image.bounding_box()["width"] >= 700
