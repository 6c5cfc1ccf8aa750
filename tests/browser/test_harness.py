"""The browser harness itself, on a page with no game in it (fixtures/transport.ipynb).

If these fail, the server fixture, chromium or the widget transport is broken,
not the game: the other browser tests would fail for the same reason.
"""

import pytest

from .pages import open_app, wait_for_new_src

pytestmark = pytest.mark.browser


def test_a_click_reaches_the_kernel_and_the_new_picture_comes_back(page, voila_server):
    root = open_app(page, voila_server, "transport.ipynb", "Flip", "transport")
    image = root.locator("img").first
    message = root.locator(".calcnb-message")
    assert message.inner_text() == "ready"
    first = image.get_attribute("src")

    root.locator("button.jupyter-button", has_text="Flip").click()
    wait_for_new_src(page, image, first)

    assert message.inner_text() == "flipped 1"
    assert image.get_attribute("src") != first


def test_a_disabled_button_sends_nothing_even_when_forced(page, voila_server):
    root = open_app(page, voila_server, "transport.ipynb", "Flip", "transport")
    off = root.locator("button.jupyter-button", has_text="Off")
    assert off.is_disabled()

    off.click(force=True)
    # Messages come back in order: once Ping's answer is shown, an answer to Off would have been too.
    root.locator("button.jupyter-button", has_text="Ping").click()
    page.wait_for_function("() => document.querySelector('.calcnb-message').textContent.startsWith('ping 1')")

    assert root.locator(".calcnb-message").inner_text() == "ping 1, off 0"
