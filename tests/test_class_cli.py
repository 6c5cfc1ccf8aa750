"""The command line with a class log: the app records only when asked, the kernels find the log, the class view
serves only the teacher's notebook, the summary is written without serving, and no password is ever printed.

Every test taking ``location`` or ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import pytest
from class_log_support import a_summary_class, an_attempt

from calcnb.classlog.schema import ClassLogError
from calcnb.classlog.store import open_class_log
from calcnb.core.settings import CLASS_LOG, CLASS_VIEW

pytest_plugins = ["class_log_fixtures"]


def test_the_app_records_only_with_a_class_log(tmp_path, monkeypatch, capsys):
    from calcnb.serve.cli.environments import class_log_environment

    monkeypatch.chdir(tmp_path)
    left_over = {CLASS_LOG.variable: "old.db", CLASS_VIEW.variable: "old.db", "HOME": "/home/x"}
    assert class_log_environment(left_over, None) == {"HOME": "/home/x"}  # a value left in the shell records nothing
    environment = class_log_environment(left_over, "lesson.db")
    assert environment[CLASS_LOG.variable] == f"sqlite:///{tmp_path / 'lesson.db'}"  # absolute: kernels run elsewhere
    assert CLASS_VIEW.variable not in environment  # students' kernels never learn the class view's log
    assert (tmp_path / "lesson.db").exists() and "class-view lesson.db" in capsys.readouterr().out
    url = "sqlite:///" + str(tmp_path / "b.db")
    assert class_log_environment({}, url)[CLASS_LOG.variable] == url  # a URL is passed on as given


@pytest.mark.parametrize("command", [["app", "02_wraparound", "--class-log", ""], ["class-view", ""],
                                     ["class-view", "nosuchdialect://x/y"]])  # fmt: skip
def test_a_bad_class_log_stops_the_command_with_a_clear_message(command, capsys):
    from calcnb.serve.cli.main import main

    assert main([*command, "--no-browser", "--port", "0"]) == 2
    error = capsys.readouterr().err
    assert "is not a class log" in error or "cannot be opened" in error
    assert "Traceback" not in error


def test_the_class_view_command_serves_only_the_teacher_notebook():
    from calcnb.serve.cli.parser import build_parser
    from calcnb.serve.shared.notebooks import notebooks_dir
    from calcnb.serve.shared.settings import CLASS_VIEW_NOTEBOOK

    assert (notebooks_dir() / CLASS_VIEW_NOTEBOOK).is_file()
    arguments = build_parser().parse_args(["class-view", "lesson.db"])
    # no port asked for: the runner takes the class view's, or with --projector the projector's own
    assert arguments.host == "127.0.0.1" and arguments.port is None and arguments.log == "lesson.db"


@pytest.mark.parametrize(
    ("projector", "notebook", "port"), [(False, "class_view.ipynb", 8867), (True, "projector.ipynb", 8869)]
)
def test_the_class_view_and_the_projector_are_served_apart(monkeypatch, tmp_path, projector, notebook, port):
    from calcnb.core.settings import CLASS_PROJECTOR, CLASS_VIEW
    from calcnb.serve.cli import runners
    from calcnb.serve.cli.parser import build_parser

    served = {}
    monkeypatch.setattr(runners, "chosen_port", lambda arguments, default=None: default)
    monkeypatch.setattr(runners, "serve", lambda command, **options: served.update(command=command, **options) or 0)
    arguments = ["class-view", str(tmp_path / "lesson.db"), "--no-browser"] + (["--projector"] if projector else [])
    assert runners.run_class_view(build_parser().parse_args(arguments)) == 0
    assert served["port"] == port and any(str(part).endswith(notebook) for part in served["command"])
    assert (CLASS_PROJECTOR.read(served["env"]) is not None) is projector
    assert (CLASS_VIEW.read(served["env"]) is not None) is not projector


def test_the_class_view_command_writes_the_summary(log, location, tmp_path, capsys):
    from calcnb.serve.cli.main import main

    a_summary_class(log)
    assert main(["class-view", location, "--summary", str(tmp_path / "end.pdf")]) == 0
    assert (tmp_path / "end.pdf").read_bytes()[:5] == b"%PDF-" and "end.pdf" in capsys.readouterr().out
    assert main(["class-view", location, "--summary", str(tmp_path / "end.csv"), "--lang", "pt"]) == 0
    assert (tmp_path / "end.csv").read_text(encoding="utf-8-sig").startswith("Alcunha,Certos,Errados,")
    assert main(["class-view", location, "--summary", str(tmp_path / "end.docx")]) == 2
    assert ".pdf" in capsys.readouterr().err


def test_the_kernels_read_a_relative_log_where_the_teacher_typed_it(tmp_path, monkeypatch):
    from calcnb.serve.cli.environments import log_argument

    monkeypatch.chdir(tmp_path)
    for typed in ("rel.db", "sqlite:///rel.db"):
        assert log_argument(typed) == f"sqlite:///{tmp_path / 'rel.db'}"
    with pytest.raises(ClassLogError, match="memory"):
        log_argument("sqlite://")
    assert log_argument("postgresql://teacher:secret@db/lesson").startswith("postgresql+psycopg://teacher:secret@")


def test_no_password_is_printed_and_the_log_is_one_file_after_the_app_stops(tmp_path, capsys):
    from calcnb.serve.cli.environments import checkpoint_class_log, class_log_environment
    from calcnb.serve.shared.errors import AppError

    with pytest.raises(AppError) as refused:  # no server there: refused, and the password never shown
        class_log_environment({}, "postgresql://teacher:secret@127.0.0.1:1/none")
    assert "secret" not in str(refused.value) and "secret" not in capsys.readouterr().out
    database = tmp_path / "lesson.db"
    log = open_class_log(database)
    log.join("ana")
    log.record("ana", an_attempt())
    checkpoint_class_log(str(database))
    log.close()
    wal = tmp_path / "lesson.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0  # every answer is in lesson.db itself
    copy = tmp_path / "copy.db"
    copy.write_bytes(database.read_bytes())
    assert open_class_log(copy).count() == 1
