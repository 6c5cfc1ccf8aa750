"""One client cannot fill the server, and a stranger without the class code gets no kernel: the caps on pages,
the class code check, the pages that say why a visit was refused, and the command line that sets them."""

from __future__ import annotations

import re
import tempfile

import pytest
from tornado import web

from calcnb.core.settings import CLASS_CODE
from calcnb.i18n import set_language
from calcnb.serve.cli.address import address_page, print_for_the_class, with_class_code
from calcnb.serve.cli.commands import kernel_options, voila_command
from calcnb.serve.cli.environments import class_code_environment
from calcnb.serve.cli.parser import build_parser
from calcnb.serve.shared import caps
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.voila import gate


def test_the_default_cap_leaves_room_for_the_system_and_fits_the_memory():
    gib = 1024**3
    for memory in (1 * gib, 2 * gib, 4 * gib, 8 * gib, 24 * gib, 64 * gib):
        most = caps.default_max_kernels(memory)
        assert most >= 1
        # The kernels' memory and the headroom fit in the machine (a 1 GiB machine still serves one page).
        assert most * caps.KERNEL_MEGABYTES * 1024**2 <= max(memory * (1 - caps.HEADROOM_FRACTION), 1)
    assert caps.default_max_kernels(8 * gib) == 68
    assert caps.default_max_kernels(24 * gib) > caps.default_max_kernels(8 * gib)
    assert caps.default_max_kernels() == caps.default_max_kernels(caps.memory_bytes())


def test_ten_quick_pages_from_one_address_get_three_places():
    page_caps = caps.PageCaps(max_kernels=50, max_per_address=3)
    answers = [page_caps.admit("10.0.0.9", live_kernels=()) for _ in range(10)]
    admitted = [answer for answer in answers if isinstance(answer, caps.Visit)]
    assert len(admitted) == 3 and answers[3:] == ["device"] * 7
    # Another device still gets in.
    assert isinstance(page_caps.admit("10.0.0.10", live_kernels=()), caps.Visit)


def test_a_place_is_free_again_when_its_kernel_ends_or_its_page_got_none():
    page_caps = caps.PageCaps(max_kernels=50, max_per_address=2)
    first, second = (page_caps.admit("10.0.0.9", ()) for _ in range(2))
    first.kernel_id, second.kernel_id = "k1", "k2"
    assert page_caps.admit("10.0.0.9", ("k1", "k2")) == "device"
    assert isinstance(page_caps.admit("10.0.0.9", ("k2",)), caps.Visit)  # k1 ended (closed page, culled)
    assert page_caps.admit("10.0.0.9", ("k2",)) == "device"  # the new page's kernel is still starting
    pending = next(visit for visit in page_caps.visits if visit.kernel_id is None)
    page_caps.release(pending)  # its request ended without a kernel
    assert isinstance(page_caps.admit("10.0.0.9", ("k2",)), caps.Visit)


def test_the_class_is_full_at_the_overall_cap_whoever_comes():
    page_caps = caps.PageCaps(max_kernels=4, max_per_address=3)
    for address in ("a", "b", "c", "d"):
        assert isinstance(page_caps.admit(address, ()), caps.Visit)
    assert page_caps.admit("e", ()) == "full"
    assert page_caps.admit("a", ()) == "full"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_class_code_is_compared_as_typed_on_any_keyboard():
    check = caps.CodeCheck("Ab12-34")
    for typed in ("ab1234", "AB1234", " ab 12 34 ", "ab-12-34", "ＡＢ１２３４"):  # full-width from a phone keyboard
        assert check.check("10.0.0.9", typed) == "right", typed
    assert check.check("10.0.0.9", "ab1235") == "wrong"
    assert check.check("10.0.0.9", "") == "wrong"


def test_wrong_codes_lock_out_the_browser_that_typed_them_and_it_is_not_even_compared():
    clock = Clock()
    check = caps.CodeCheck("4821", tries=5, seconds=600, clock=clock)
    for guess in range(5):
        assert check.check("10.0.0.66", f"{guess:04d}", "guesser") == "wrong"
    assert check.check("10.0.0.66", "4821", "guesser") == "locked"  # the right code too: guessing gains nothing
    assert 0 < check.locked_seconds("10.0.0.66", "guesser") <= 600
    assert check.check("10.0.0.66", "4821", "classmate") == "right"  # another browser at the same address
    assert check.check("10.0.0.7", "4821", "another") == "right"
    clock.now += 601
    assert check.locked_seconds("10.0.0.66", "guesser") == 0 and check.check("10.0.0.66", "4821", "guesser") == "right"


def test_the_door_answers_a_typed_code_as_both_gates_write_it():
    door = caps.ClassDoor(caps.PageCaps(30, 4), caps.CodeCheck("4821", clock=Clock()))
    right = door.answer_code("10.0.0.9", "48-21", "pupil")
    assert (right.verdict, right.status, right.note) == ("right", 303, "")
    assert door.admitted(right.cookie) and not door.admitted(None) and not door.admitted("4821")
    wrong = door.answer_code("10.0.0.9", "1234", "pupil")
    assert (wrong.verdict, wrong.status, wrong.cookie) == ("wrong", 403, None) and wrong.note
    for guess in range(caps.CODE_TRIES):
        door.answer_code("10.0.0.66", f"{guess:04d}", "guesser")
    locked = door.answer_code("10.0.0.66", "4821", "guesser")
    assert (locked.verdict, locked.status, locked.cookie) == ("locked", 429, None)
    assert "10 min" in locked.note  # CODE_TRY_SECONDS, said in whole minutes
    assert caps.ClassDoor(caps.PageCaps(30, 4)).admitted(None)  # no class code: everyone may go on


def test_a_refusal_says_its_reason_its_cap_and_its_status():
    door = caps.ClassDoor(caps.PageCaps(max_kernels=3, max_per_address=2))
    places = [door.place(address, ()) for address in ("a", "a", "a", "b", "c")]
    assert [type(place).__name__ for place in places] == ["Visit", "Visit", "Refusal", "Visit", "Refusal"]
    assert places[2] == caps.Refusal("device", 2) and places[2].status == 429
    assert places[4] == caps.Refusal("full", 3) and places[4].status == 503


def test_a_browser_keeps_its_name_and_a_browser_without_one_gets_a_new_one():
    assert caps.browser_name("abc") == ("abc", False)
    assert caps.browser_name("x" * 100) == ("x" * caps.BROWSER_NAME_LENGTH, False)
    first, second = caps.browser_name(None), caps.browser_name("")
    assert first[1] and second[1] and first[0] != second[0]


def test_a_page_sent_holds_its_place_for_its_connection_and_frees_it_when_the_connection_closes():
    clock = Clock()
    places = caps.ConnectedPlaces(caps.PageCaps(30, 2), reserve_seconds=30, clock=clock)
    assert isinstance(places.page_sent("p"), caps.Visit) and isinstance(places.page_sent("p"), caps.Visit)
    assert places.page_sent("p") == caps.Refusal("device", 2)  # two pages sent, awaiting their connections
    first = places.connected("socket 1", "p", "kernel 1")
    assert isinstance(first, caps.Visit) and first.kernel_id == "kernel 1" and len(places.reserved) == 1
    clock.now += 31  # the second page never connected: its place is free again
    assert isinstance(places.page_sent("p"), caps.Visit)
    assert places.page_sent("p") == caps.Refusal("device", 2)
    places.closed("socket 1")  # a closed tab frees its place at once
    assert isinstance(places.connected("socket 2", "p", "kernel 2"), caps.Visit)
    assert isinstance(places.connected("socket 3", "p", "kernel 3"), caps.Visit)  # a page reconnecting
    assert places.connected("socket 4", "p", "kernel 4") == caps.Refusal("device", 2)


def _connected(places: caps.ConnectedPlaces, count: int, browser: str | None, address: str = "p") -> list[object]:
    """What ``count`` connections of ``browser``'s pages at ``address`` are given, in order (a place or a refusal)."""
    return [places.connected(object(), address, f"kernel {n}", browser) for n in range(count)]


def test_a_browsers_reloads_replace_its_own_pages_still_loading_and_never_lock_it_out():
    """F5 held down: twelve pages sent to one browser, none of which connected, then one more: each is given a
    place, and the browser never holds more than its device's cap of them."""
    clock = Clock()
    places = caps.ConnectedPlaces(caps.PageCaps(30, 3), reserve_seconds=30, clock=clock)
    for _ in range(12):
        assert isinstance(places.page_sent("p", "browser A"), caps.Visit)
        clock.now += 0.1
    assert len(places.reserved) == len(places.caps.visits) == 3  # the last three pages' places only
    clock.now += 1
    last = places.page_sent("p", "browser A")
    assert isinstance(last, caps.Visit) and len(places.caps.visits) == 3
    # The page shown connects: it takes a place of its browser's (the oldest: all are alike).
    assert isinstance(places.connected("socket 1", "p", "kernel 1", "browser A"), caps.Visit)
    assert len(places.caps.visits) == 3 and len(places.open) == 1


def test_tabs_of_one_browser_opened_in_a_row_all_connect_up_to_the_cap_and_the_next_is_refused_when_it_connects():
    """Four tabs opened at once (ctrl-click) under a cap of four all get the app; five under a cap of four are all
    sent their page (the fifth took the first's place), and the one that connects last is refused."""
    places = caps.ConnectedPlaces(caps.PageCaps(30, 4), clock=Clock())
    assert all(isinstance(places.page_sent("p", "browser A"), caps.Visit) for _ in range(4))
    assert all(isinstance(place, caps.Visit) for place in _connected(places, 4, "browser A"))

    places = caps.ConnectedPlaces(caps.PageCaps(30, 4), clock=Clock())
    assert all(isinstance(places.page_sent("p", "browser A"), caps.Visit) for _ in range(5))
    answers = _connected(places, 5, "browser A")
    assert [type(answer).__name__ for answer in answers] == ["Visit"] * 4 + ["Refusal"]
    assert answers[4] == caps.Refusal("device", 4) and len(places.open) == 4 and not places.reserved
    # With its four pages connected, a fifth tab is refused as its page is asked for (a refusal page at once).
    assert places.page_sent("p", "browser A") == caps.Refusal("device", 4)
    assert places.holds_open("p", "browser A") and not places.holds_open("p", "browser B")
    assert not places.holds_open("p", None)


def test_a_connected_page_reloaded_gets_its_place_back_and_a_page_reconnecting_under_the_cap_gets_one():
    places = caps.ConnectedPlaces(caps.PageCaps(30, 2), clock=Clock())
    for _ in range(2):
        places.page_sent("p", "browser A")
    _connected(places, 2, "browser A")
    assert places.page_sent("p", "browser A") == caps.Refusal("device", 2)  # asked for before the old page closed
    places.closed(next(iter(places.open)))  # the reloaded page's websocket closes: its place is free
    assert isinstance(places.page_sent("p", "browser A"), caps.Visit)
    assert isinstance(_connected(places, 1, "browser A")[0], caps.Visit)
    places.closed(next(iter(places.open)))
    # A page whose place was taken by a tab of its browser connects while the device is under its cap: it may.
    assert isinstance(_connected(places, 1, "browser A")[0], caps.Visit)
    assert _connected(places, 1, "browser A")[0] == caps.Refusal("device", 2)


def test_reloads_replace_only_their_own_browsers_places_and_a_browser_without_a_name_replaces_none():
    clock = Clock()
    places = caps.ConnectedPlaces(caps.PageCaps(30, 2), clock=clock)
    other = places.page_sent("p", "browser B")  # another browser at the same address (a family's one network)
    assert isinstance(places.page_sent("p", "browser A"), caps.Visit)
    for _ in range(5):  # A's reloads replace A's place, never B's
        assert isinstance(places.page_sent("p", "browser A"), caps.Visit)
    assert other in [visit for _when, visit in places.reserved]
    assert places.page_sent("p", "browser C") == caps.Refusal("device", 2)  # a browser with no place here
    assert places.page_sent("p") == caps.Refusal("device", 2)  # a client without a name (a script): as before
    assert places.connected("socket B", "p", "kernel B", "browser B") is other
    # A browser's places at another address (its laptop moved to another network) are not taken.
    assert isinstance(places.page_sent("q", "browser A"), caps.Visit)
    assert places.page_sent("p", "browser A") is not None and len(places.caps.visits) == 3


def test_a_browsers_reloads_in_a_full_class_replace_its_own_page_and_connections_never_pass_the_class_cap():
    places = caps.ConnectedPlaces(caps.PageCaps(max_kernels=3, max_per_address=3), clock=Clock())
    places.page_sent("a", "browser A")
    places.page_sent("b", "browser B")
    places.page_sent("c", "browser C")
    assert places.page_sent("d", "browser D") == caps.Refusal("full", 3)
    assert isinstance(places.page_sent("a", "browser A"), caps.Visit)  # a reload in a full class
    assert len(places.caps.visits) == 3
    for address, browser in (("a", "browser A"), ("b", "browser B"), ("c", "browser C")):
        assert isinstance(_connected(places, 1, browser, address)[0], caps.Visit)
    assert _connected(places, 1, "browser A", "a")[0] == caps.Refusal("full", 3)
    assert _connected(places, 1, "browser D", "d")[0] == caps.Refusal("full", 3)


def _one_character_changed(value: str) -> str:
    """``value`` with its last character replaced by another (never by itself: a changed cookie is changed)."""
    return value[:-1] + ("1" if value.endswith("0") else "0")


def test_the_cookie_proves_the_code_without_holding_it_and_only_for_this_run():
    check = caps.CodeCheck("4821")
    value = check.cookie_value()
    assert check.cookie_ok(value) and "4821" not in value
    assert not check.cookie_ok(None) and not check.cookie_ok("") and not check.cookie_ok(_one_character_changed(value))
    assert not caps.CodeCheck("4821").cookie_ok(value)  # a restarted server asks again


@pytest.mark.parametrize("code", ["abc", "", "a" * 33, "ab!cd", "12 3", "<b>12345</b>"])
def test_a_class_code_too_short_too_long_or_not_letters_and_digits_is_refused(code):
    assert caps.code_problem(code) is not None
    with pytest.raises(SystemExit):
        build_parser().parse_args(["app", "--class-code", code])


def test_the_pages_of_a_refused_visit_say_why_in_the_class_language():
    full = gate.refusal_page("full", most=30)
    device = gate.refusal_page("device", most=3)
    assert 'lang="en"' in full and "The class is full" in full and "30 pages" in full
    assert "Too many pages open on this device" in device and "Close one of the other tabs" in device
    assert "<script" not in full + device
    set_language("pt")
    full = gate.refusal_page("full", most=30)
    assert 'lang="pt"' in full and "A turma está cheia" in full
    assert "Fecha um dos outros separadores" in gate.refusal_page("device", most=3)


def test_a_page_whose_connection_a_cap_refuses_says_why_in_the_class_language():
    """The class server's pages carry the refusal pages' words, for the codes its gate closes a refused websocket
    with; nothing in them can end the script early."""
    from calcnb.serve.shared.gate_pages import REFUSED_CLOSE_CODES, refusal_script

    script = refusal_script(per_device=3, in_all=30)
    assert script.count("<script") == 1 and script.count("</") == 1  # only its own end tag
    for code in REFUSED_CLOSE_CODES.values():
        assert f'"{code}"' in script
    assert "Too many pages open on this device" in script and "30 pages" in script
    set_language("pt")
    try:
        assert "Fecha um dos outros separadores" in refusal_script(per_device=3, in_all=30)
    finally:
        set_language("en")


def test_the_code_page_has_one_field_and_says_a_wrong_code_plainly():
    page = gate.code_page('<input type="hidden" name="_xsrf" value="x">')
    assert page.count("<input") == 2 and 'name="code"' in page and 'method="post"' in page
    assert "Class code" in page and 'role="alert"' not in page
    wrong = gate.code_page("", note="That is not the class code.")
    assert 'role="alert"' in wrong
    set_language("pt")
    assert "Código da turma" in gate.code_page("") and "Abrir a aplicação" in gate.code_page("")


def test_the_gated_handlers_take_the_place_of_voilas_in_any_application():
    from voila.tornado.handler import TornadoVoilaHandler
    from voila.tornado.treehandler import TornadoVoilaTreeHandler

    application = web.Application([(r"/voila/render/(.*)", TornadoVoilaHandler), (r"/voila", TornadoVoilaTreeHandler)])
    application.add_handlers(".*$", [(r"/user/ana/voila/render/(.*)", TornadoVoilaHandler)])
    changed = gate.replace_routes(application.default_router, gate.GATED_HANDLERS)
    changed += gate.replace_routes(application.wildcard_router, gate.GATED_HANDLERS)
    assert changed >= 3
    targets = []

    def collect(router):
        for rule in getattr(router, "rules", ()):
            (targets.append(rule.target) if isinstance(rule.target, type) else collect(rule.target))

    collect(application.default_router)
    collect(application.wildcard_router)
    assert TornadoVoilaHandler not in targets and TornadoVoilaTreeHandler not in targets
    assert gate.GatedVoilaHandler in targets and gate.GatedTreeHandler in targets


def test_the_app_command_caps_pages_and_keeps_the_code_off_its_command_line():
    parsed = build_parser().parse_args(
        ["app", "--max-kernels", "30", "--max-pages-per-device", "3", "--class-code", "4821"]
    )
    assert (parsed.max_kernels, parsed.max_pages_per_device, parsed.class_code) == (30, 3, "4821")
    command = voila_command(notebooks_dir(), max_kernels=30, pages_per_device=3)
    assert "--ClassroomGate.max_kernels=30" in command and "--ClassroomGate.max_pages_per_device=3" in command
    assert set(kernel_options()) <= set(command) and not any("4821" in part for part in command)
    defaults = voila_command(notebooks_dir())
    assert not any("ClassroomGate" in part for part in defaults)  # the server's own defaults
    environment = class_code_environment({CLASS_CODE.variable: "stale"}, " 48-21 ")
    assert environment[CLASS_CODE.variable] == "4821"
    assert CLASS_CODE.variable not in class_code_environment({CLASS_CODE.variable: "stale"}, None)
    for bad in ("0", "-1", "many", "10001"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["app", "--max-pages-per-device", bad])


def test_the_help_names_the_caps_and_the_class_code():
    text = build_parser()._subparsers._group_actions[0].choices["app"].format_help()
    text = re.sub(r"\s+", " ", text)
    assert "--max-kernels N" in text and "--max-pages-per-device N" in text and "--class-code CODE" in text
    assert f"{caps.default_max_kernels()} here" in text and f"(default {caps.DEFAULT_PAGES_PER_DEVICE})" in text


def test_the_projected_page_shows_the_code_big_and_the_qr_code_carries_it(capsys, tmp_path, monkeypatch):
    import segno

    url = "http://10.0.0.7:8866/"
    page = address_page(url, "ab-12")
    assert "Class code:" in page and ">AB12</p>" in page and "font-size:12vh" in page
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    path = print_for_the_class(url, open_browser=False, class_code="ab-12")
    printed = capsys.readouterr().out
    assert "Class code: A B 1 2" in printed and path.read_text(encoding="utf-8") == page
    # The page's QR code is the one of the address with the code after '#' (never sent to the server).
    assert with_class_code(url, "ab-12") == "http://10.0.0.7:8866/#code=ab12"
    symbol = segno.make("http://10.0.0.7:8866/#code=ab12", error="m").svg_inline(scale=12, dark="#000", light="#fff")
    assert symbol in page
    assert address_page(url) == address_page(url, None) and "Class code" not in address_page(url)
