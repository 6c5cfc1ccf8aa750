"""The teacher's path, word for word: the two commands of the teacher notebook, run as written, serve the lesson
and the play app side by side on their own ports, each page works in a browser, the address page the
teacher projects shows the address and its QR code, and Ctrl-C stops both.

The commands run exactly as written; the browser they open is a program that does nothing.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from calcnb.serve.cli.process import port_is_free
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import DEFAULT_APP_PORT, DEFAULT_LESSON_PORT

TEACHER = {"en": "teacher/02_wraparound_teacher.ipynb", "pt": "pt/teacher/02_wraparound_teacher.ipynb"}
LAPTOP = {"width": 1366, "height": 768}


def teacher_commands(language: str) -> list[str]:
    """The command lines the teacher notebook tells the teacher to type (its indented ``python -m calcnb`` lines)."""
    notebook = json.loads((notebooks_dir() / TEACHER[language]).read_text(encoding="utf-8"))
    first = "".join(notebook["cells"][0]["source"])
    return [line.strip() for line in first.splitlines() if line.startswith("    python -m calcnb ")]


def test_the_teacher_notebooks_give_the_same_two_commands_in_each_language():
    english, portuguese = teacher_commands("en"), teacher_commands("pt")
    assert len(english) == 2 and all("--host 0.0.0.0" in line for line in english)
    assert "02_wraparound" in english[0] and "--class-log lesson.db" in english[0]
    assert portuguese == [f"{line} --lang pt" for line in english]


class _Output:
    """A command's standard output, read as it comes (so a full pipe never stalls the server)."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.lines: list[str] = []
        self._changed = threading.Condition()
        threading.Thread(target=self._read, args=(process,), daemon=True).start()

    def _read(self, process: subprocess.Popen) -> None:
        for line in process.stdout:
            with self._changed:
                self.lines.append(line)
                self._changed.notify_all()

    def wait_for(self, pattern: str, timeout: float = 180) -> re.Match:
        with self._changed:
            found = self._changed.wait_for(lambda: self._search(pattern), timeout=timeout)
        assert found, f"{pattern!r} not printed; got:\n{''.join(self.lines)}"
        return found

    def _search(self, pattern: str) -> re.Match | None:
        return re.search(pattern, "".join(self.lines))


# Longer than this test takes: what the other language's run needs to give the ports back.
PORTS_WAIT_SECONDS = 240


@pytest.mark.server
@pytest.mark.parametrize("language", ["en", "pt"])
def test_the_lesson_and_the_play_app_run_side_by_side_from_the_teachers_commands(page, tmp_path, language):
    # The commands use the default ports, as the teacher's do: the other language's run of this test (on the other
    # worker) may hold them for a while, so wait for them rather than skip.
    deadline = time.monotonic() + PORTS_WAIT_SECONDS
    while not (port_is_free("0.0.0.0", DEFAULT_LESSON_PORT) and port_is_free("0.0.0.0", DEFAULT_APP_PORT)):
        if time.monotonic() > deadline:
            pytest.skip("the default ports are in use on this machine")
        time.sleep(0.5)
    environment = {**os.environ, "BROWSER": "true"}  # "opening a browser" runs a program that does nothing
    processes = []
    try:
        outputs = []
        for line in teacher_commands(language):
            arguments = line.split()[3:]  # after "python -m calcnb"
            process = subprocess.Popen(
                [sys.executable, "-m", "calcnb", *arguments],
                cwd=tmp_path,  # the teacher's project folder: lesson.db goes here
                env=environment,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,
            )
            processes.append(process)
            outputs.append(_Output(process))
        lesson, play = outputs
        for output, port in ((lesson, DEFAULT_LESSON_PORT), (play, DEFAULT_APP_PORT)):
            output.wait_for(rf"http://127\.0\.0\.1:{port}/")
            shown = output.wait_for(r"(file://\S+calcnb-address-\S+\.html)")
            address_page = Path(shown[1].removeprefix("file://"))
            text = address_page.read_text(encoding="utf-8")
            network = re.search(rf">(http://[^<]+:{port}/)</p>", text)[1]  # the address for other machines
            assert network in "".join(output.lines) and "<svg" in text
        assert (tmp_path / "lesson.db").exists()

        page.set_viewport_size(LAPTOP)
        page.goto(address_page.as_uri())  # what the projector shows
        assert page.locator("p").nth(1).inner_text() == network
        assert page.locator("svg").bounding_box()["height"] > 250  # big enough to scan from the back

        page.goto(f"http://127.0.0.1:{DEFAULT_LESSON_PORT}/", wait_until="domcontentloaded", timeout=120_000)
        page.locator(".calcnb-exercise").first.wait_for(state="visible", timeout=120_000)
        title = {"en": "The clock of 13", "pt": "O relógio de 13"}[language]
        assert title in page.locator("body").inner_text()

        page.goto(f"http://127.0.0.1:{DEFAULT_APP_PORT}/", wait_until="domcontentloaded", timeout=120_000)
        turn = page.locator(".calcnb-play button.calcnb-btn-T")
        turn.wait_for(state="visible", timeout=120_000)
        turn.click()
        page.locator(".calcnb-play button.calcnb-btn-S-W1:not([disabled])").wait_for(timeout=60_000)
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)  # Ctrl-C, as the notebook says
        codes = []
        for process in processes:
            try:
                codes.append(process.wait(timeout=60))
            except subprocess.TimeoutExpired:
                process.kill()
                codes.append(None)
    assert codes == [0, 0]
