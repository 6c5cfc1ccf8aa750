"""Wrong class codes lock out the browser that typed them, never the class behind the same address (a school's
NAT), and a brute force from one address, however many browsers it pretends to be, needs weeks for the
weakest code the command accepts (:class:`calcnb.serve.shared.caps.CodeCheck`; the arithmetic is in its notes).

Every test runs on a fake clock: a brute force of months takes a fraction of a second.
"""

from __future__ import annotations

import itertools

import pytest

from calcnb.serve.shared import caps

NAT = "203.0.113.7"  # the school's one public address: every pupil's requests come from it
CODE = "4821"  # four digits: the weakest code the command takes
DAY = 86_400.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _typo(code: str, pupil: int, attempt: int) -> str:
    """A wrong code one key away from ``code``, different for each pupil and attempt."""
    position = (pupil + attempt) % len(code)
    digit = str((int(code[position]) + 1 + (pupil * 3 + attempt) % 9) % 10)
    assert digit != code[position]
    return code[:position] + digit + code[position + 1 :]


def test_thirty_pupils_behind_one_address_get_in_while_one_of_them_spams_wrong_codes():
    clock = Clock()
    check = caps.CodeCheck(CODE, clock=clock)
    pupils = [f"pupil-{n}" for n in range(29)]
    spammer = "spammer"
    verdicts: dict[str, list[str]] = {browser: [] for browser in [*pupils, spammer]}
    # All at once, interleaved: every pupil makes two typos before the right code, and between any two of the
    # class's tries the spammer sends three wrong codes from his browser (its every tab shares its cookie).
    guesses = itertools.count()
    for attempt in range(3):
        for number, pupil in enumerate(pupils):
            typed = CODE if attempt == 2 else _typo(CODE, number, attempt)
            verdicts[pupil].append(check.check(NAT, typed, pupil))
            for _ in range(3):
                verdicts[spammer].append(check.check(NAT, f"{next(guesses) % 10_000:04d}", spammer))
            clock.now += 0.5
    for number, pupil in enumerate(pupils):
        assert verdicts[pupil] == ["wrong", "wrong", "right"], (number, verdicts[pupil])
    # The spammer's browser is stopped after five wrong codes, and its own right code is not even compared.
    assert verdicts[spammer][: caps.CODE_TRIES] == ["wrong"] * caps.CODE_TRIES
    assert set(verdicts[spammer][caps.CODE_TRIES :]) == {"locked"}
    assert check.check(NAT, CODE, spammer) == "locked"
    assert 0 < check.locked_seconds(NAT, spammer) <= caps.CODE_TRY_SECONDS
    # A latecomer behind the same address, with a typo of their own, is not held up by any of it.
    assert check.check(NAT, _typo(CODE, 3, 0), "latecomer") == "wrong"
    assert check.check(NAT, CODE, "latecomer") == "right"


def test_the_right_code_refunds_the_typos_it_followed():
    clock = Clock()
    check = caps.CodeCheck(CODE, clock=clock)
    # Class after class behind one address, each pupil with two typos: far more wrong codes than the address's
    # credit, and nobody is ever held up, because each right code gives its browser's typos back.
    for pupil in range(10 * check.burst):
        browser = f"pupil-{pupil}"
        assert check.check(NAT, _typo(CODE, pupil, 0), browser) == "wrong"
        assert check.check(NAT, _typo(CODE, pupil, 1), browser) == "wrong"
        assert check.check(NAT, CODE, browser) == "right", pupil
        clock.now += 1


def test_a_pupil_rotating_cookies_spends_only_the_addresss_credit_and_waits_like_a_brute_force():
    clock = Clock()
    check = caps.CodeCheck(CODE, clock=clock)
    fresh = (f"cookie-{n}" for n in itertools.count())
    guesses = (f"{n:04d}" for n in itertools.count())  # never the code: 4821 is far down the list
    verdicts = [check.check(NAT, next(guesses), next(fresh)) for _ in range(check.burst + 50)]
    # Each new cookie is a new browser, so no browser is locked, but every wrong code spends the address's credit:
    # once it is spent nobody there is compared (else a fresh cookie would be a free guess), for one interval.
    assert verdicts == ["wrong"] * check.burst + ["busy"] * 50
    assert check.check(NAT, CODE, "a-pupil-arriving-now") == "busy"
    wait = check.locked_seconds(NAT, "a-pupil-arriving-now")
    assert 0 < wait <= check.interval
    clock.now += wait
    assert check.check(NAT, CODE, "a-pupil-arriving-now") == "right"
    # Another address (the next classroom's) never notices.
    assert check.check("198.51.100.20", CODE, "next-door") == "right"


def test_one_address_gets_one_credit_however_many_ipv6_addresses_it_has():
    check = caps.CodeCheck(CODE, clock=Clock())
    # A home router hands out a whole /64; each of its 2**64 addresses is the same device's.
    for n in range(check.burst):
        assert check.check(f"2001:db8:1:2::{n + 1:x}", "0000", f"cookie-{n}") == "wrong"
    assert check.check("2001:db8:1:2:ffff::1", CODE, "another") == "busy"
    assert check.check("2001:db8:1:3::1", CODE, "another") == "right"  # another network
    assert caps.address_key("::ffff:203.0.113.7") == caps.address_key("203.0.113.7") == "203.0.113.7"
    assert caps.address_key("2001:db8:1:2:aaaa::1") == caps.address_key("2001:db8:1:2::9") == "2001:db8:1:2::/64"
    assert caps.address_key("not an address") == "not an address"


@pytest.mark.parametrize(
    ("code", "space"),
    [("4821", 10**4), ("482193", 10**6), ("ab12", 36**4), ("k7-q9-x2", 36**6), ("7Q2K-9XW4", 36**8)],
)
def test_the_code_space_and_the_brute_forces_mean_time_follow_from_the_code(code, space):
    check = caps.CodeCheck(code)
    assert caps.code_space(code) == check.space == space
    # The notes' arithmetic: beyond the burst, an address earns one wrong code per interval, and an average search
    # tries half the codes, so it needs (space / 2 - burst) intervals: at least the target, for any code.
    assert check.interval == max(caps.MIN_GUESS_SECONDS, caps.BRUTE_FORCE_SECONDS / (space / 2 - check.burst))
    assert check.mean_brute_force_seconds() == pytest.approx((space / 2 - check.burst) * check.interval)
    assert check.mean_brute_force_seconds() >= caps.BRUTE_FORCE_SECONDS >= 30 * DAY
    # A wrong code the class might type, one a second (the burst spent), is never refused for a strong code.
    if space >= 36**6:
        assert check.interval == caps.MIN_GUESS_SECONDS


def test_a_brute_force_from_one_address_finds_a_four_digit_code_only_after_weeks():
    clock = Clock()
    check = caps.CodeCheck(CODE, clock=clock)
    started = clock.now
    tries = 0
    fresh = (f"cookie-{n}" for n in itertools.count())  # a new browser for every guess: no browser is ever locked
    for guess in (f"{n:04d}" for n in range(10_000)):  # in order: 4821 is the 4,822nd code tried
        browser = next(fresh)
        while (verdict := check.check(NAT, guess, browser)) == "busy":
            wait = check.locked_seconds(NAT, browser)
            assert wait > 0
            clock.now += wait  # the attacker waits exactly as long as told, never longer
        tries += 1
        if verdict == "right":
            break
        assert verdict == "wrong"
    assert guess == CODE and tries == 4822
    elapsed = clock.now - started
    # The burst for free, then one code per interval, the right one too (it is compared only with a credit).
    assert elapsed == pytest.approx((tries - check.burst) * check.interval)
    assert elapsed > 28 * DAY
    # Within a lesson (an hour) such a search tries under 1 % of the four-digit codes.
    assert (check.burst + 3600 / check.interval) / check.space < 0.01


def test_a_brute_force_keeping_its_cookie_is_slower_still():
    clock = Clock()
    check = caps.CodeCheck(CODE, clock=clock)
    compared = 0
    for guess in (f"{n:04d}" for n in range(200)):
        while (verdict := check.check(NAT, guess, "one-browser")) in ("busy", "locked"):
            clock.now += check.locked_seconds(NAT, "one-browser")
        compared += verdict == "wrong"
    # Five wrong codes per ten minutes: 200 codes take about 200 / 5 * 10 minutes.
    assert clock.now - 1000.0 >= (200 / caps.CODE_TRIES - 1) * caps.CODE_TRY_SECONDS
    assert compared == 200


def test_without_a_browser_only_the_addresss_credit_applies():
    """A server that cannot tell browsers apart (no cookie) still limits guessing per address."""
    check = caps.CodeCheck(CODE, clock=Clock())
    verdicts = [check.check(NAT, f"{n:04d}") for n in range(check.burst + 1)]
    assert verdicts == ["wrong"] * check.burst + ["busy"]
    assert check.locked_seconds(NAT) > 0


# ------------------------------------------------------------ the app's real server


def _browser(url: str):
    """A client with a cookie jar of its own (one browser), and a function that posts a code from it."""
    import http.cookiejar
    import re
    import urllib.error
    import urllib.parse
    import urllib.request

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def answer(request) -> tuple[int, str]:
        try:
            with opener.open(request, timeout=120) as response:
                return response.status, response.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def post(code: str) -> tuple[int, str]:
        status, page = answer(url)  # the code page: the _xsrf cookie, the browser's name
        assert status == 200, status
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({"_xsrf": xsrf, caps.CODE_FIELD: code}).encode()
        return answer(urllib.request.Request(url, data=body, method="POST"))

    return post


@pytest.mark.server
def test_on_the_app_a_guessing_browser_is_locked_out_and_a_classmate_at_its_address_gets_in(tmp_path):
    from calcnb.serve.cli.commands import server_environment, voila_command
    from calcnb.serve.cli.environments import class_code_environment
    from calcnb.serve.cli.process import free_port, start_server, stop_server, wait_until_serving
    from calcnb.serve.shared.notebooks import notebooks_dir
    from calcnb.serve.shared.settings import DEFAULT_APP_NOTEBOOK, LOCALHOST

    root = tmp_path / "notebooks"
    root.mkdir()
    (root / DEFAULT_APP_NOTEBOOK).write_bytes((notebooks_dir() / DEFAULT_APP_NOTEBOOK).read_bytes())
    port = free_port()
    with (tmp_path / "voila.log").open("wb") as log:
        environment = class_code_environment(server_environment(), CODE)
        process = start_server(
            voila_command(root / DEFAULT_APP_NOTEBOOK, port=port), cwd=root, log=log, env=environment
        )
        try:
            wait_until_serving(process, LOCALHOST, port, timeout=90)
            url = f"http://{LOCALHOST}:{port}/"
            guesser, classmate = _browser(url), _browser(url)  # both from 127.0.0.1: one address
            for guess in range(caps.CODE_TRIES):
                status, page = guesser(f"{guess:04d}")
                assert status == 403 and "That is not the class code" in page
            status, page = guesser(CODE)
            assert status == 429 and "Too many wrong codes from this device" in page
            status, page = classmate("4812")  # a typo of their own
            assert status == 403
            status, page = classmate(CODE)  # in: the redirect to the app's page, which now starts a kernel
            assert status == 200 and "Class code" not in page and "jupyter-config-data" in page
        finally:
            stop_server(process)
