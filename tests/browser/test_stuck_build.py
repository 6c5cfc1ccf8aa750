"""A page build that never ends cannot stall the class: the class server stops it at its time limit
(``--build-seconds``, default :data:`calcnb.serve.shared.settings.BUILD_SECONDS`), tells its pupil in the class's
language, and builds the next pupil's page.

Pages are built one at a time, in the order the pupils came (:mod:`calcnb.serve.class_server.turns`): a notebook
whose first cell never ends would otherwise hold the turn of every pupil after it.
"""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
import pytest

from calcnb.i18n import add_words, catalogue
from calcnb.serve.cli.commands import server_environment, solara_command
from calcnb.serve.cli.process import free_port, start_server, stop_server, wait_until_serving
from calcnb.serve.shared.settings import LOCALHOST

from .pages import SOLARA_PAGE

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LIMIT = 4  # seconds: short, so the test does not wait the default's half minute


def _notebook(path: Path, *sources: str) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell(f"# {path.stem}"), *map(nbformat.v4.new_code_cell, sources)]
    nbformat.write(notebook, path)


@pytest.mark.parametrize("language", ["en", "pt"])
def test_a_stuck_build_is_stopped_its_pupil_told_and_the_next_pupil_served(browser, tmp_path, language):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    started = tmp_path / "stuck-started"
    stopped = tmp_path / "stuck-stopped"
    # The first cell marks that it runs, then never ends (until it is stopped: then it marks that too).
    _notebook(
        folder / "stuck.ipynb",
        f"import pathlib, time\npathlib.Path({str(started)!r}).touch()\n"
        f"try:\n    while True:\n        time.sleep(0.05)\nfinally:\n    pathlib.Path({str(stopped)!r}).touch()",
    )
    _notebook(folder / "lesson.ipynb", "print('hello from the lesson')")
    port = free_port()
    command = [*solara_command(folder, port=port, pages_per_device=10), f"--build-seconds={LIMIT}"]
    with (tmp_path / "server.log").open("wb") as log:
        server = start_server(command, cwd=tmp_path, log=log, env=server_environment(language=language))
    contexts = [browser.new_context(viewport={"width": 1366, "height": 768}) for _ in range(2)]
    try:
        wait_until_serving(server, LOCALHOST, port, timeout=90)
        first, second = (context.new_page() for context in contexts)
        first.goto(f"http://{LOCALHOST}:{port}/stuck", wait_until="domcontentloaded")
        deadline = time.monotonic() + 60
        while not started.exists():  # the stuck build holds the turn now
            assert time.monotonic() < deadline, "the stuck notebook never started"
            first.wait_for_timeout(100)
        second.goto(f"http://{LOCALHOST}:{port}/lesson", wait_until="domcontentloaded")
        # The second pupil gets their page: the stuck build was stopped at its limit and the turn given on.
        second.locator(SOLARA_PAGE).get_by_text("hello from the lesson").wait_for(timeout=60_000)
        said = first.get_by_role("alert")
        said.wait_for(timeout=60_000)
        add_words("calcnb.serve.class_server")  # the class server's words, read here without importing Solara
        assert said.inner_text().strip() == catalogue(language)["serve.page_too_long"]
        assert first.locator(SOLARA_PAGE).count() == 0  # no half-built page
        assert stopped.exists()  # the stuck cell was stopped, not only left running
        assert "was still being built after 4 s" in (tmp_path / "server.log").read_text()
    finally:
        for context in contexts:
            context.close()
        stop_server(server)
