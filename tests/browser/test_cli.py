"""``python -m calcnb app|lab``: the address printed, Ctrl-C stops the server and its kernels with no traceback,
bad command lines refused with exit status 2, the lab's token kept off every command line, ``--lang``.

The tests that start a server are marked ``server``; the command lines refused at once (a subprocess of
a tenth of a second) and the parser's tests run in the fast tier."""

import contextlib
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from calcnb.serve.cli.parser import build_parser
from calcnb.serve.cli.process import free_port
from calcnb.serve.shared import notebooks as app_module
from calcnb.serve.shared.errors import AppError
from calcnb.serve.shared.notebooks import notebooks_dir, resolve_target

FIXTURES = Path(__file__).parent / "fixtures"


@contextlib.contextmanager
def _running_cli(*arguments: str) -> Iterator[subprocess.Popen]:
    """``python -m calcnb ARGUMENTS --no-browser``, its output piped as text; killed at the block's end if it
    is still running (a test that failed before stopping it)."""
    cli = subprocess.Popen(
        [sys.executable, "-m", "calcnb", *arguments, "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a terminal's Ctrl-C goes to the command's group: this test plays the terminal
    )
    try:
        yield cli
    finally:
        if cli.poll() is None:
            cli.kill()


def _stop(cli: subprocess.Popen, signum: int) -> tuple[str, str]:
    """Send ``signum`` to the command as a terminal would, and wait for it to end; its output and errors."""
    cli.send_signal(signum)
    return cli.communicate(timeout=60)


def _refused(*arguments: str) -> str:
    """What ``python -m calcnb ARGUMENTS --no-browser`` says on refusing them: exit status 2, no traceback."""
    result = subprocess.run(
        [sys.executable, "-m", "calcnb", *arguments, "--no-browser"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return result.stderr


def _kernels_of(process: subprocess.Popen) -> list[psutil.Process]:
    return [
        child
        for child in psutil.Process(process.pid).children(recursive=True)
        if "ipykernel" in " ".join(child.cmdline())
    ]


@pytest.mark.server
def test_app_serves_a_notebook_and_ctrl_c_stops_it_and_its_kernel():
    port = free_port()
    with _running_cli("app", str(FIXTURES / "transport.ipynb"), "--port", str(port), "--server", "voila") as cli:
        first_line = cli.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first_line, first_line
        # Opening the page runs the notebook in a kernel of its own.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as response:
            assert response.status == 200
            assert b"transport" in response.read().lower()
        kernels = _kernels_of(cli)
        assert len(kernels) == 1

        out, err = _stop(cli, signal.SIGINT)  # what Ctrl-C in the terminal sends
    assert cli.returncode == 0
    assert "Traceback" not in err and "Traceback" not in out
    assert "Stopped." in out
    _gone, alive = psutil.wait_procs(kernels, timeout=10)
    assert alive == []


@pytest.mark.server
@pytest.mark.parametrize("language", ["en", "pt"])
def test_the_class_server_is_the_default_and_ctrl_c_stops_it_whole(language):
    port = free_port()
    with _running_cli("app", str(FIXTURES / "transport.ipynb"), "--port", str(port), "--lang", language) as cli:
        first_line = cli.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first_line, first_line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as response:
            assert response.status == 200
            assert f'<html lang="{language}">'.encode() in response.read()  # the page's language, for screen readers
        server = psutil.Process(cli.pid).children(recursive=True)
        assert [" ".join(child.cmdline()).count("calcnb.serve.class_server.app") for child in server] == [1]
        out, err = _stop(cli, signal.SIGINT)  # what Ctrl-C in the terminal sends
    assert cli.returncode == 0
    assert "Traceback" not in err and "Traceback" not in out
    assert ("Stopped." if language == "en" else "Parado.") in out, out
    _gone, alive = psutil.wait_procs(server, timeout=10)
    assert alive == []


@pytest.mark.server
def test_lab_prints_an_address_with_a_token_and_stops_on_sigterm(tmp_path):
    (tmp_path / "empty.ipynb").write_text((FIXTURES / "transport.ipynb").read_text())
    port = free_port()
    with _running_cli("lab", str(tmp_path), "--port", str(port)) as cli:
        first_line = cli.stdout.readline()
        assert f"http://127.0.0.1:{port}/lab?token=" in first_line, first_line
        address = first_line.split()[-1]
        with urllib.request.urlopen(address, timeout=60) as response:
            assert response.status == 200
        # Without the token the server refuses its API.
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/contents", timeout=30)
        _out, err = _stop(cli, signal.SIGTERM)
    assert cli.returncode == 0, err[-2000:]
    assert "Traceback" not in err


@pytest.mark.server
def test_the_lab_token_is_on_no_command_line_only_in_the_servers_environment(tmp_path):
    port = free_port()
    with _running_cli("lab", str(tmp_path), "--port", str(port)) as cli:
        address = cli.stdout.readline().split()[-1]
        token = address.split("token=")[1]
        assert len(token) >= 32
        processes = [psutil.Process(cli.pid), *psutil.Process(cli.pid).children(recursive=True)]
        servers = [process for process in processes if "jupyterlab" in " ".join(process.cmdline())]
        assert servers, [process.cmdline() for process in processes]
        for process in processes:
            assert token not in " ".join(process.cmdline())
        # The server has it in its environment, which only its own user can read.
        assert servers[0].environ().get("JUPYTER_TOKEN") == token
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=30) as response:
            assert response.status == 200
        _stop(cli, signal.SIGTERM)


@pytest.mark.server  # runs python -m calcnb in a subprocess
@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--port", "-1", "'-1' is not a port"),
        ("--port", "70000", "'70000' is not a port"),
        ("--port", "eighty", "'eighty' is not a port"),
        ("--host", "", "the host is empty"),
        ("--host", "no-such-host.invalid", "'no-such-host.invalid' is not an address"),
        ("--host", "x" * 300, "is not an address"),
    ],
)
@pytest.mark.parametrize("command", ["app", "lab"])
def test_a_bad_port_or_host_is_refused_with_status_2_and_no_traceback(command, option, value, said):
    stderr = _refused(command, option, value)
    assert said in stderr, stderr
    assert "x" * 81 not in stderr  # at most 80 characters of the input are quoted


@pytest.mark.server  # runs python -m calcnb in a subprocess
@pytest.mark.parametrize("value", ["-1", "201", "many"])
def test_a_bad_preheat_count_is_refused_with_status_2(value):
    stderr = _refused("app", "--preheat", value)
    assert f"{value!r} is not a number of kernels" in stderr, stderr


@pytest.mark.server  # runs python -m calcnb in a subprocess
def test_an_address_of_another_machine_is_refused_with_status_2():
    stderr = _refused("app", "--host", "192.0.2.1")  # TEST-NET-1: never ours
    assert "'192.0.2.1' is not an address of this machine" in stderr


@pytest.mark.server
def test_port_0_serves_on_a_free_port_and_says_which():
    with _running_cli("app", str(FIXTURES / "transport.ipynb"), "--port", "0") as cli:
        chosen = cli.stdout.readline()
        serving = cli.stdout.readline()
        port = int(chosen.split()[1])
        assert 0 < port <= 65535, chosen
        assert f"http://127.0.0.1:{port}/" in serving, serving
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as response:
            assert response.status == 200
        _out, err = _stop(cli, signal.SIGINT)
    assert cli.returncode == 0, err[-2000:]


@pytest.mark.server
def test_lang_pt_runs_the_kernels_in_portuguese():
    port = free_port()
    with _running_cli(
        "app", str(FIXTURES / "transport.ipynb"), "--port", str(port), "--lang", "pt", "--server", "voila"
    ) as cli:
        first_line = cli.stdout.readline()
        assert "está a correr em" in first_line, first_line  # the command itself speaks Portuguese
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as response:
            assert response.status == 200
        kernels = _kernels_of(cli)
        assert [kernel.environ().get("CALCNB_LANG") for kernel in kernels] == ["pt"]
        _stop(cli, signal.SIGINT)


def test_lang_pt_prefers_the_portuguese_twin_of_a_notebook(tmp_path, monkeypatch):
    (tmp_path / "pt").mkdir()
    for name in ("play.ipynb", "pt/play.ipynb", "rules.ipynb"):
        (tmp_path / name).write_text("{}")
    monkeypatch.setattr(app_module, "notebooks_dir", lambda: tmp_path)
    assert resolve_target("play", language="pt") == tmp_path / "pt" / "play.ipynb"
    assert resolve_target("play.ipynb", language="en") == tmp_path / "play.ipynb"
    assert resolve_target("play") == tmp_path / "play.ipynb"
    # No twin: the English notebook, whose kernel still runs in Portuguese.
    assert resolve_target("rules", language="pt") == tmp_path / "rules.ipynb"
    assert resolve_target(None, "play.ipynb", language="pt") == tmp_path / "pt" / "play.ipynb"
    assert resolve_target(None, "rules.ipynb", language="pt") == tmp_path / "rules.ipynb"


@pytest.mark.server  # runs python -m calcnb in a subprocess
def test_a_missing_notebook_is_a_one_line_error():
    stderr = _refused("app", "no_such_lesson.ipynb")
    assert "no_such_lesson.ipynb does not exist" in stderr


@pytest.mark.server  # runs python -m calcnb in a subprocess
@pytest.mark.parametrize("command", ["app", "lab"])
def test_a_notebook_name_too_long_for_the_system_is_a_one_line_error(command):
    stderr = _refused(command, "x" * 5000)
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert "(5,000 characters) is too long to name a notebook or a folder" in stderr, stderr
    assert "x" * 81 not in stderr  # at most 80 characters of the input are quoted


def _busy_port() -> socket.socket:
    """A socket listening on a free port of this machine: that port is busy until it is closed."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    return listener


@pytest.mark.server  # runs python -m calcnb in a subprocess
@pytest.mark.parametrize("command", ["app", "class-view"])
def test_a_busy_port_is_refused_before_anything_is_made(command, tmp_path):
    with _busy_port() as listener:
        port = str(listener.getsockname()[1])
        arguments = ["app", "--class-log", "lesson.db"] if command == "app" else ["class-view", "lesson.db"]
        result = subprocess.run(
            [sys.executable, "-m", "calcnb", *arguments, "--port", port, "--no-browser"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
    assert result.returncode == 2
    assert f"port {port} on 127.0.0.1 is already in use" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""  # not even "answers are being recorded"
    assert list(tmp_path.iterdir()) == []  # no class log was created


@pytest.mark.server  # runs python -m calcnb in a subprocess
def test_port_0_on_an_address_of_another_machine_is_refused_with_status_2():
    stderr = _refused("app", "--host", "192.0.2.1", "--port", "0")
    assert "'192.0.2.1' is not an address of this machine" in stderr


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


@pytest.mark.parametrize("typed, language", [("pt", "pt"), ("PT", "pt"), ("En", "en")])
def test_the_language_option_takes_a_code_in_any_case(typed, language):
    assert build_parser().parse_args(["app", "--lang", typed]).lang == language


def test_the_language_option_refuses_a_language_calcnb_does_not_speak(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["app", "--lang", "fr"])
    assert "invalid choice: 'fr'" in capsys.readouterr().err


def test_a_notebook_may_be_named_without_its_folder_or_extension():
    from calcnb.serve.shared.notebooks import notebooks_dir, resolve_target

    expected = (notebooks_dir() / "03_worked_example.ipynb").resolve()
    assert resolve_target("03_worked_example") == expected
    assert resolve_target("03_worked_example.ipynb") == expected


# ------------------------------------------------------------ worksheets and --version, from any folder


def _pdf_text(data: bytes) -> str:
    import io

    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


@pytest.mark.server  # runs python -m calcnb in a subprocess
def test_worksheets_read_the_class_key_of_a_log_in_another_folder(tmp_path):
    from calcnb.classlog.store import open_class_log
    from calcnb.exercises.worksheet import answer_sheet_pdf
    from calcnb.lessons import lesson

    (tmp_path / "class").mkdir()
    (tmp_path / "elsewhere").mkdir()
    log = open_class_log(tmp_path / "class" / "lesson.db")
    key = log.class_key()
    log.close()
    sheets = ["worksheets", "02_wraparound", "--class-log", "../class/lesson.db", "--students", "Ana, Bruno"]
    result = subprocess.run(
        [sys.executable, "-m", "calcnb", *sheets, "--paper", "letter", "--folder", "sheets"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path / "elsewhere",
    )
    assert result.returncode == 0, result.stderr
    written = sorted(path.name for path in (tmp_path / "elsewhere" / "sheets").iterdir())
    assert written == ["wraparound-answers-Letter.pdf", "wraparound-worksheet-Letter.pdf"]
    assert "../class/lesson.db" in result.stdout and "students' screens" in result.stdout
    # The answers are the students' own: those of the class key in the log, not of a lesson without one.
    made = _pdf_text((tmp_path / "elsewhere" / "sheets" / "wraparound-answers-Letter.pdf").read_bytes())
    found = lesson("02_wraparound")
    assert made == _pdf_text(answer_sheet_pdf(found, ["Ana", "Bruno"], class_key=key, paper="Letter"))
    assert made != _pdf_text(answer_sheet_pdf(found, ["Ana", "Bruno"], class_key=None, paper="Letter"))


@pytest.mark.server  # runs python -m calcnb in a subprocess
def test_worksheets_refuse_a_class_log_that_is_not_there_naming_where_they_looked(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "calcnb", "worksheets", "counting", "--class-log", "lesson.db", "--students", "30"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"there is no class log at {tmp_path / 'lesson.db'}" in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []  # no log made, no sheet written


def test_read_class_key_says_why_when_a_log_it_needs_is_missing(tmp_path, monkeypatch):
    from calcnb.classlog.schema import ClassLogError
    from calcnb.classlog.store import read_class_key

    monkeypatch.chdir(tmp_path)
    assert read_class_key("lesson.db") is None  # the lesson not started with a log (yet)
    with pytest.raises(ClassLogError, match="there is no class log at"):
        read_class_key("lesson.db", required=True)


@pytest.mark.server  # runs python -m calcnb in a subprocess
def test_version_names_the_version_the_solver_and_the_notebooks():
    result = subprocess.run([sys.executable, "-m", "calcnb", "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith("calcnb "), result
    assert "the solver runs" in result.stdout and f"notebooks: shipped in {notebooks_dir()}" in result.stdout
