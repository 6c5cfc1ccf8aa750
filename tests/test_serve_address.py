"""What the teacher's terminal gives the class: a lesson's own port beside the play app's, and the address
in big type and as a QR code that decodes to it; and the command's help, in the language asked."""

from __future__ import annotations

import re
import tempfile

import pytest

from calcnb.i18n import set_language
from calcnb.serve.cli.address import address_page, print_for_the_class
from calcnb.serve.cli.main import main
from calcnb.serve.cli.parser import build_parser, requested_language
from calcnb.serve.cli.process import check_can_listen, port_is_free
from calcnb.serve.cli.runners import chosen_port
from calcnb.serve.shared.notebooks import default_app_port, is_lesson, resolve_target
from calcnb.serve.shared.settings import DEFAULT_APP_NOTEBOOK, DEFAULT_APP_PORT, DEFAULT_LESSON_PORT, LOCALHOST


def test_a_lesson_and_the_play_app_listen_on_ports_of_their_own():
    lesson = resolve_target("02_wraparound")
    play = resolve_target(None, DEFAULT_APP_NOTEBOOK)
    assert is_lesson(lesson) and not is_lesson(play)
    assert default_app_port(lesson) == DEFAULT_LESSON_PORT != DEFAULT_APP_PORT == default_app_port(play)
    assert default_app_port(resolve_target("02_wraparound", language="pt")) == DEFAULT_LESSON_PORT
    parsed = build_parser().parse_args(["app", "02_wraparound"])
    assert parsed.port is None and chosen_port(parsed, default_app_port(lesson)) == 8868
    assert chosen_port(build_parser().parse_args(["app", "--port", "9000"]), 8866) == 9000


def test_the_address_page_shows_the_address_big_and_as_a_qr_code_of_it():
    url = "http://192.168.1.20:8868/"
    page = address_page(url)
    assert f">{url}</p>" in page and "font-size:7vh" in page and "<svg" in page
    set_language("pt")
    assert "Abra este endereço" in address_page(url)


def test_the_qr_code_encodes_exactly_the_address(capsys, tmp_path, monkeypatch):
    import segno

    url = "http://10.0.0.7:8868/"
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    path = print_for_the_class(url, open_browser=False)
    printed = capsys.readouterr().out
    assert path.parent == tmp_path and path.read_text(encoding="utf-8") == address_page(url)
    assert path.as_uri() in printed and ("█" in printed or "▀" in printed)  # the code, drawn in the terminal
    # the SVG on the page is the same symbol segno makes for the address (same modules, so it scans to it)
    expected = segno.make(url, error="m").svg_inline(scale=12, dark="#000", light="#fff")
    assert re.sub(r"\s+", " ", expected) in re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))


def test_a_port_a_server_just_left_is_free_again_at_once():
    import socket

    # a server that served one connection and stopped first leaves its side in TIME_WAIT for a minute
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((LOCALHOST, 0))
    server.listen()
    port = server.getsockname()[1]
    client = socket.create_connection((LOCALHOST, port))
    accepted, _ = server.accept()
    assert not port_is_free(LOCALHOST, port)  # listening: busy
    accepted.close()  # the server closes first, as a stopped server does
    server.close()
    client.close()
    assert port_is_free(LOCALHOST, port)
    check_can_listen(LOCALHOST, port)  # and the app would start on it again


def test_the_help_speaks_the_language_asked_even_before_the_command_is_read(capsys):
    for command in (["lessons", "--lang", "pt", "--help"], ["app", "--lang=PT", "--help"]):
        with pytest.raises(SystemExit):
            main(command)
        said = " ".join(capsys.readouterr().out.split())
        assert "a língua de tudo o que a aplicação mostra" in said and "the language of everything" not in said
    assert requested_language(["lab", "--lang", "pt", "--lang", "en"]) == "en"  # the last one, as argparse reads it
    assert requested_language(["lab", "--lang", "xx"]) is requested_language(["--", "--lang", "pt"]) is None
    for name in ("app", "lab", "lessons", "class-view"):  # one --lang, the same everywhere
        command = build_parser()._subparsers._group_actions[0].choices[name]
        assert [action.dest for action in command._actions].count("lang") == 1
