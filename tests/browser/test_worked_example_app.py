"""The worked example as an app (notebooks/03_worked_example.ipynb in Voila): Next and Previous walk it."""

import os

import pytest

from calcnb.examples import worked_example

from .pages import StepperApp

pytestmark = pytest.mark.browser

STEPPER_NOTEBOOK = os.environ.get("CALCNB_STEPPER_NOTEBOOK", "03_worked_example.ipynb")


def test_next_and_previous_step_through_every_caption_and_back(page, voila_server):
    app = StepperApp(page, voila_server, STEPPER_NOTEBOOK)
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
