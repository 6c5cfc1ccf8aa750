"""What the teacher's terminal gives the class: a lesson's own port beside the play app's, and the address
in big type and as a QR code that decodes to it."""

from __future__ import annotations

import re

from calcnb.i18n import set_language
from calcnb.serve import cli


def test_a_lesson_and_the_play_app_listen_on_ports_of_their_own():
    lesson = cli.resolve_target("02_wraparound")
    play = cli.resolve_target(None, cli.DEFAULT_APP_NOTEBOOK)
    assert cli.is_lesson(lesson) and not cli.is_lesson(play)
    assert cli.default_app_port(lesson) == cli.DEFAULT_LESSON_PORT != cli.DEFAULT_APP_PORT == cli.default_app_port(play)
    assert cli.default_app_port(cli.resolve_target("02_wraparound", language="pt")) == cli.DEFAULT_LESSON_PORT
    parsed = cli.build_parser().parse_args(["app", "02_wraparound"])
    assert parsed.port is None and cli._chosen_port(parsed, cli.default_app_port(lesson)) == 8868
    assert cli._chosen_port(cli.build_parser().parse_args(["app", "--port", "9000"]), 8866) == 9000


def test_the_address_page_shows_the_address_big_and_as_a_qr_code_of_it():
    url = "http://192.168.1.20:8868/"
    page = cli.address_page(url)
    assert f">{url}</p>" in page and "font-size:7vh" in page and "<svg" in page
    set_language("pt")
    assert "Abra este endereço" in cli.address_page(url)


def test_the_qr_code_encodes_exactly_the_address(capsys, tmp_path, monkeypatch):
    import segno

    url = "http://10.0.0.7:8868/"
    monkeypatch.setattr(cli.tempfile, "tempdir", str(tmp_path))
    path = cli.print_for_the_class(url, open_browser=False)
    printed = capsys.readouterr().out
    assert path.parent == tmp_path and path.read_text(encoding="utf-8") == cli.address_page(url)
    assert path.as_uri() in printed and ("█" in printed or "▀" in printed)  # the code, drawn in the terminal
    # the SVG on the page is the same symbol segno makes for the address (same modules, so it scans to it)
    expected = segno.make(url, error="m").svg_inline(scale=12, dark="#000", light="#fff")
    assert re.sub(r"\s+", " ", expected) in re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))


def test_a_port_a_server_just_left_is_free_again_at_once():
    import socket

    # a server that served one connection and stopped first leaves its side in TIME_WAIT for a minute
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((cli.LOCALHOST, 0))
    server.listen()
    port = server.getsockname()[1]
    client = socket.create_connection((cli.LOCALHOST, port))
    accepted, _ = server.accept()
    assert not cli.port_is_free(cli.LOCALHOST, port)  # listening: busy
    accepted.close()  # the server closes first, as a stopped server does
    server.close()
    client.close()
    assert cli.port_is_free(cli.LOCALHOST, port)
    cli._check_can_listen(cli.LOCALHOST, port)  # and the app would start on it again
