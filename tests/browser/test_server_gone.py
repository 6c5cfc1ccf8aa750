"""A pupil's page says so, within seconds, when the class server is gone (killed outright, mid-lesson)."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from calcnb.i18n import catalogue
from calcnb.serve.cli.commands import server_environment, solara_command, voila_command
from calcnb.serve.cli.process import free_port, start_server, wait_until_serving
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import LOCALHOST

pytestmark = [pytest.mark.browser, pytest.mark.slow]


COMMANDS = {"solara": solara_command, "voila": voila_command}


@pytest.mark.parametrize(("server_kind", "language"), [("solara", "en"), ("solara", "pt"), ("voila", "en")])
def test_the_page_says_the_server_is_gone_after_a_kill(page, tmp_path, server_kind, language):
    port = free_port()
    folder = notebooks_dir() if language == "en" else notebooks_dir() / "pt"
    target = folder / ("play.ipynb" if language == "en" else "counting.ipynb")
    with (tmp_path / "server.log").open("wb") as log:  # started as `calcnb app` starts it (Voila finds its template)
        server = start_server(
            COMMANDS[server_kind](target, port=port), cwd=tmp_path, log=log, env=server_environment(language=language)
        )
    try:
        wait_until_serving(server, LOCALHOST, port)
        page.goto(f"http://{LOCALHOST}:{port}/")
        page.wait_for_selector(".calcnb-page" if server_kind == "solara" else ".calcnb-view", timeout=60_000)
        assert page.locator(".calcnb-server-gone").count() == 0  # nothing is said while the server answers
        page.wait_for_timeout(5_000)
        assert page.locator(".calcnb-server-gone").count() == 0
        os.kill(server.pid, signal.SIGKILL if sys.platform != "win32" else signal.SIGTERM)
        server.wait(10)
        banner = page.locator(".calcnb-server-gone")
        banner.wait_for(timeout=15_000)
        assert banner.get_attribute("role") == "alert"
        assert banner.inner_text().strip() == catalogue(language)["serve.server_gone"]
        box = banner.bounding_box()
        assert box is not None and box["y"] <= 1 and box["width"] >= page.viewport_size["width"] - 1  # across the top
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
