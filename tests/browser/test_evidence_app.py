"""Is the 80% true? as a class of three meets it: ``python -m calcnb app evidence --class-log`` (with each of the app's
servers) in a browser at a classroom laptop's size, nicknames typed key by key, each student's own deals played ten
at a time, their interval shown, the exercises answered rightly, wrongly and oddly; and the teacher's class view,
opened with ``--lesson evidence`` before anyone has answered, pooling the three students' deals live: the right
total and the interval :func:`calcnb.stats.wilson_interval` gives on the pooled counts. Then the same in
Portuguese, shorter."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from calcnb.classlog.store import open_class_log, read_class_key
from calcnb.i18n import message, set_language
from calcnb.lessons import BANK, lesson
from calcnb.lessons.evidence.exercises import OWN_EXERCISE, own_variant, percent, pool, seed_block
from calcnb.serve.shared.settings import LOCALHOST
from calcnb.stats import wilson_interval

from .pages import SERVERS, calcnb_serving
from .test_class_view import _wait_for_rows

pytestmark = pytest.mark.browser

LESSON = lesson("evidence")
PARAGRAPH = (
    "I think the player wins a lot of the time but not always, so maybe it is true and maybe it is not, it "
    "depends on the deals and on how lucky the player was with the cards that came up."
)


@contextlib.contextmanager
def _page(browser, url: str):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(120_000)
    page = context.new_page()
    try:
        page.goto(url, wait_until="domcontentloaded")
        yield page
    finally:
        context.close()


def _join(page, nickname: str, joined: str = "Joined as") -> None:
    """Type the nickname key by key, as a student does, and press Enter."""
    recorder = page.locator(".calcnb-class-recorder")
    recorder.wait_for(state="visible")
    box = recorder.locator("input[type=text]").first
    box.click()
    box.press_sequentially(nickname, delay=30)
    box.press("Enter")
    recorder.get_by_text(f"{joined} {nickname}").wait_for()


def _games(database: Path) -> list[dict]:
    log = open_class_log(database)
    try:
        return log.games()
    finally:
        log.close()


def _wait_for_games(database: Path, count: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while len(_games(database)) < count:
        assert time.monotonic() < deadline, f"the class log holds {len(_games(database))} games, not {count}"
        time.sleep(0.2)


def _play(page, database: Path, batch: int, name: str = "Play 10 deals", said: str = "Batch") -> None:
    """Press Play and wait until the batch is played and its ten games are in the class log."""
    before = len(_games(database))
    lab = page.locator(".calcnb-evidence-lab")
    button = lab.get_by_role("button", name=name)
    button.scroll_into_view_if_needed()
    button.click()
    lab.locator(".calcnb-evidence-said").get_by_text(f"{said} {batch}:").wait_for()
    _wait_for_games(database, before + 10)


def _answer(page, database: Path, exercise, text: str, check: str = "Check") -> str:
    """Type ``text`` in ``exercise`` (a locator), press Check, wait until it is recorded; return the feedback."""
    feedback = exercise.locator(".calcnb-feedback")
    log = open_class_log(database)
    recorded = log.count()
    log.close()
    exercise.scroll_into_view_if_needed()
    exercise.locator("input[type=text]").fill(text)
    exercise.get_by_role("button", name=check).click()
    _wait_for_rows(database, recorded + 1)
    checks = exercise.evaluate("node => node.dataset.checks = String(Number(node.dataset.checks || 0) + 1)")
    feedback.locator(f"[data-check='{checks}']").wait_for()
    return feedback.inner_text().strip()


def _exercise(page, number: int):
    """The lesson's exercise numbered ``number`` (1 to 5) on the page (the lab's own exercise comes first)."""
    return page.locator(".calcnb-exercise:not(.calcnb-evidence-lab .calcnb-exercise)").nth(number - 1)


def _solution(database: Path, nickname: str, exercise_id: str) -> str:
    key = read_class_key(database)
    return BANK[exercise_id].item(BANK.variant_for(exercise_id, nickname, key)).solution


def _own_solution(database: Path, nickname: str) -> str:
    mine = [game for game in _games(database) if game["nickname"] == nickname]
    return BANK[OWN_EXERCISE].item(own_variant(sum(game["won"] for game in mine), len(mine))).solution


def _shoot(page, shots: Path, name: str, locator=None) -> None:
    if locator is not None:
        locator.evaluate("node => node.scrollIntoView({block: 'center'})")
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=shots / f"{name}.png")


def _pooled_sentence(database: Path) -> tuple[str, int]:
    evidence = pool(_games(database))
    low, high = wilson_interval(evidence.wins, evidence.deals)
    assert (low, high) == evidence.interval
    said = message(
        "classview.evidence.pooled",
        wins=evidence.wins,
        deals=evidence.deals,
        rate=percent(evidence.rate),
        low=percent(low),
        high=percent(high),
    )
    return said, evidence.deals


@pytest.mark.parametrize("server", SERVERS)
def test_a_class_of_three_plays_its_own_deals_and_the_class_view_pools_them(browser, tmp_path, server):
    set_language("en")
    database = tmp_path / "lesson.db"
    shots = Path(os.environ.get("CALCNB_SHOTS") or tmp_path)
    app = ("app", "evidence", "--server", server, "--class-log", str(database))
    with (
        calcnb_serving(*app, log=tmp_path / "app.log") as port,
        calcnb_serving("class-view", str(database), "--lesson", "evidence", log=tmp_path / "view.log") as view_port,
        _page(browser, f"http://{LOCALHOST}:{view_port}/") as view,
    ):
        url = f"http://{LOCALHOST}:{port}/"
        # the teacher opens the view before anyone has answered: this lesson's exercises, an empty sample
        pooled = view.locator(".calcnb-evidence-pooled")
        pooled.get_by_text(message("classview.evidence.none")).wait_for()

        # ana plays two batches, shows her interval, and answers rightly (some answers as a student types them)
        with _page(browser, url) as page:
            play = page.locator(".calcnb-evidence-lab").get_by_role("button", name="Play 10 deals")
            play.wait_for()
            assert play.is_disabled()  # nothing is played before she joins: her deals follow her nickname
            assert "Join the class with your nickname" in page.locator(".calcnb-evidence-lab").inner_text()
            _join(page, "ana")
            assert "Is the 80% true?" in page.locator("body").inner_text()
            assert page.locator(".calcnb-exercise").count() == len(LESSON.exercises) + 1  # and her own verdict
            block = seed_block("ana", read_class_key(database))
            # the lab hears of the join after the recorder says it: wait for its words, do not read them at once
            expect(page.locator(".calcnb-evidence-lab")).to_contain_text(f"numbers {block[0]} to {block[-1]}")
            _play(page, database, 1)
            _play(page, database, 2)
            lab = page.locator(".calcnb-evidence-lab")
            assert "batch 2" in lab.locator(".calcnb-evidence-table").inner_text()
            picture = lab.locator("img").bounding_box()
            assert picture["width"] >= 400 and picture["x"] + picture["width"] <= 1366
            _shoot(page, shots, "evidence-batches", lab)
            lab.get_by_role("button", name="Show my 95% interval").click()
            lab.get_by_text("The 95% interval of the player's win rate runs from").wait_for()
            own = lab.locator(".calcnb-exercise")
            assert _answer(page, database, own, _own_solution(database, "ana")).startswith("✓ Right")
            _shoot(page, shots, "evidence-own-interval", lab)
            rate = _solution(database, "ana", "evidence-rate")  # "0.35 (35%)": typed as 35%, and as 0,35
            assert _answer(page, database, _exercise(page, 1), rate.split()[1].strip("()")).startswith("✓ Right")
            assert _answer(page, database, _exercise(page, 1), rate.split()[0].replace(".", ",")).startswith("✓")
            claim = _solution(database, "ana", "evidence-claim")  # "(d) too few deals to tell": typed as its words
            assert _answer(page, database, _exercise(page, 4), claim.partition(" ")[2]).startswith("✓ Right")
            assert _answer(page, database, _exercise(page, 5), "(c)").startswith("✓ Right")

        # bia plays one batch and slips: the sample's rate as the truth, "proven", overlap as "the same"; odd text
        with _page(browser, url) as page:
            _join(page, "bia")
            _play(page, database, 1)
            said = _answer(page, database, _exercise(page, 5), "a")
            assert said.startswith("✗ Not a:") and "Overlapping intervals do not show" in said
            claim = _exercise(page, 4)
            solution = _solution(database, "bia", "evidence-claim")
            said = _answer(page, database, claim, "c")
            assert said.startswith("✗ Not c:") and solution not in said
            for odd in ("", "²", PARAGRAPH):
                assert _answer(page, database, _exercise(page, 1), odd).startswith("?")
            assert "Show answer" in _exercise(page, 4).inner_text()
            _shoot(page, shots, "evidence-exercise-slip", claim)

        # caio plays one batch, gets the width wrong by a quarter, then has the answer shown
        with _page(browser, url) as page:
            _join(page, "caio")
            _play(page, database, 1)
            width = _exercise(page, 3)
            item = BANK["evidence-width"].item(BANK.variant_for("evidence-width", "caio", read_class_key(database)))
            wins, deals = BANK["evidence-width"].variants[item.variant]
            low, high = wilson_interval(wins, deals)
            said = _answer(page, database, width, f"{(high - low) / 4:.3f}")
            assert "Four times the deals do not make the interval four times narrower" in said
            log = open_class_log(database)
            recorded = log.count()
            log.close()
            width.get_by_role("button", name="Show answer").click()
            _wait_for_rows(database, recorded + 1)
            width.get_by_text("The answer is").wait_for()

        # the view, open all along, pools the 40 deals: the total and the interval of the pooled counts
        sentence, deals = _pooled_sentence(database)
        assert deals == 40 and len(_games(database)) == 40
        pooled.get_by_text(sentence).wait_for()
        evidence = pool(_games(database))
        verdict = message(f"classview.evidence.{evidence.verdict}", claim="80%")
        assert verdict in pooled.inner_text()
        students = pooled.locator("table.calcnb-evidence-students").inner_text()
        assert "ana\t20" in students and "bia\t10" in students and "caio\t10" in students
        view.locator(".calcnb-class-view").get_by_text("3 joined").wait_for()
        _shoot(view, shots, "evidence-class-view", pooled)
        view.screenshot(path=shots / "evidence-class-view-full.png", full_page=True)

    log = open_class_log(database)
    rows = log.attempts()
    log.close()
    mistakes = [(row["nickname"], row["exercise_id"], row["outcome"], row["misconception"]) for row in rows]
    assert ("bia", "evidence-overlap", "wrong", "overlap_means_same") in mistakes
    assert ("caio", "evidence-width", "wrong", "width_linear") in mistakes
    assert ("caio", "evidence-width", "revealed", None) in mistakes
    assert [row["outcome"] for row in rows if row["nickname"] == "bia" and row["exercise_id"] == "evidence-rate"] == [
        "unreadable"
    ] * 3


@pytest.mark.parametrize("server", SERVERS)
def test_in_portuguese_a_student_plays_and_the_class_view_pools_the_deals(browser, tmp_path, server):
    set_language("pt")
    try:
        database = tmp_path / "lesson.db"
        shots = Path(os.environ.get("CALCNB_SHOTS") or tmp_path)
        app = ("app", "evidence", "--server", server, "--class-log", str(database), "--lang", "pt")
        with (
            calcnb_serving(*app, log=tmp_path / "app.log") as port,
            calcnb_serving(
                "class-view", str(database), "--lesson", "evidence", "--lang", "pt", log=tmp_path / "view.log"
            ) as view_port,
        ):  # fmt: skip
            with _page(browser, f"http://{LOCALHOST}:{port}/") as page:
                _join(page, "zé", joined="Entraste como")
                assert "Os 80% são verdade?" in page.locator("body").inner_text()
                _play(page, database, 1, name="Jogar 10 jogos", said="Lote")
                lab = page.locator(".calcnb-evidence-lab")
                lab.get_by_role("button", name="Mostrar o meu intervalo de 95%").click()
                own = lab.locator(".calcnb-exercise")
                mine = _own_solution(database, "zé")  # "(d) poucos jogos para saber": typed as its letter
                assert _answer(page, database, own, mine.split()[0], check="Verificar").startswith("✓")
                _shoot(page, shots, "evidence-pt-own-interval", lab)
                rate = _solution(database, "zé", "evidence-rate")
                assert _answer(page, database, _exercise(page, 1), rate.split()[0], check="Verificar").startswith("✓")
            with _page(browser, f"http://{LOCALHOST}:{view_port}/") as view:
                sentence, deals = _pooled_sentence(database)
                assert deals == 10
                view.locator(".calcnb-evidence-pooled").get_by_text(sentence).wait_for()
                _shoot(view, shots, "evidence-pt-class-view", view.locator(".calcnb-evidence-pooled"))
    finally:
        set_language("en")
