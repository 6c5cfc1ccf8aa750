"""``python -m calcnb app|lab``: the address printed, Ctrl-C stops the server and its kernels with no traceback."""

import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import pytest

from calcnb.app import AppError, build_parser, free_port, notebooks_dir, resolve_target

FIXTURES = Path(__file__).parent / "fixtures"


def _start_cli(*arguments: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "calcnb", *arguments, "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a terminal's Ctrl-C goes to the command's group: this test plays the terminal
    )


def _kernels_of(process: subprocess.Popen) -> list[psutil.Process]:
    return [
        child
        for child in psutil.Process(process.pid).children(recursive=True)
        if "ipykernel" in " ".join(child.cmdline())
    ]


def test_app_serves_a_notebook_and_ctrl_c_stops_it_and_its_kernel():
    port = free_port()
    cli = _start_cli("app", str(FIXTURES / "transport.ipynb"), "--port", str(port))
    try:
        first_line = cli.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first_line, first_line
        # Opening the page runs the notebook in a kernel of its own.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as response:
            assert response.status == 200
            assert b"transport" in response.read().lower()
        kernels = _kernels_of(cli)
        assert len(kernels) == 1

        cli.send_signal(signal.SIGINT)  # what Ctrl-C in the terminal sends
        out, err = cli.communicate(timeout=60)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode == 0
    assert "Traceback" not in err and "Traceback" not in out
    assert "Stopped." in out
    _gone, alive = psutil.wait_procs(kernels, timeout=10)
    assert alive == []


def test_lab_prints_an_address_with_a_token_and_stops_on_sigterm(tmp_path):
    (tmp_path / "empty.ipynb").write_text((FIXTURES / "transport.ipynb").read_text())
    port = free_port()
    cli = _start_cli("lab", str(tmp_path), "--port", str(port))
    try:
        first_line = cli.stdout.readline()
        assert f"http://127.0.0.1:{port}/lab?token=" in first_line, first_line
        address = first_line.split()[-1]
        with urllib.request.urlopen(address, timeout=60) as response:
            assert response.status == 200
        # Without the token the server refuses its API.
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/contents", timeout=30)
        cli.send_signal(signal.SIGTERM)
        _out, err = cli.communicate(timeout=60)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode == 0, err[-2000:]
    assert "Traceback" not in err


def test_a_missing_notebook_is_a_one_line_error():
    result = subprocess.run(
        [sys.executable, "-m", "calcnb", "app", "no_such_lesson.ipynb", "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "no_such_lesson.ipynb does not exist" in result.stderr
    assert "Traceback" not in result.stderr


def test_notebook_names_are_found_in_the_notebooks_folder():
    assert notebooks_dir() == Path(__file__).resolve().parents[2] / "notebooks"
    assert resolve_target(None, "04_play.ipynb") == notebooks_dir() / "04_play.ipynb"
    assert resolve_target("02_wraparound.ipynb") == notebooks_dir() / "02_wraparound.ipynb"
    assert resolve_target(str(FIXTURES)) == FIXTURES.resolve()
    with pytest.raises(AppError, match="is not a notebook"):
        resolve_target(__file__)


def test_help_explains_serving_a_classroom_network():
    parser = build_parser()
    app_help = parser._subparsers._group_actions[0].choices["app"].format_help()
    assert "--host" in app_help and "0.0.0.0" in app_help and "trusted" in app_help
    arguments = parser.parse_args(["app", "--host", "0.0.0.0", "--port", "9000", "--no-browser"])
    assert (arguments.command, arguments.host, arguments.port, arguments.no_browser) == ("app", "0.0.0.0", 9000, True)


def test_a_notebook_may_be_named_without_its_folder_or_extension():
    from calcnb.app import notebooks_dir, resolve_target

    expected = (notebooks_dir() / "03_worked_example.ipynb").resolve()
    assert resolve_target("03_worked_example") == expected
    assert resolve_target("03_worked_example.ipynb") == expected
