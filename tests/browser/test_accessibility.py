"""axe-core (through axe-playwright-python) finds no serious or critical violation on the apps students use, served by
Voila and by the class server; and the page says its language (``<html lang>``) for screen readers."""

import pytest

from .pages import PlayApp, StepperApp, wait_until_settled

pytestmark = pytest.mark.browser

SERIOUS = ("serious", "critical")


def serious_violations(page) -> list[str]:
    """Each serious or critical axe-core violation on the page, with the elements it names."""
    from axe_playwright_python.sync_playwright import Axe

    wait_until_settled(page)
    results = Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in SERIOUS:
            targets = [node["target"] for node in violation["nodes"]][:5]
            found.append(f"{violation['impact']} {violation['id']}: {violation['help']} {targets}")
    language = page.locator("html").get_attribute("lang")
    if language != "en":  # these pages are English: a screen reader must read them as English
        found.append(f"the page's language is {language!r}, not 'en'")
    return found


def test_the_play_app_has_no_serious_violation(page, app_server):
    app = PlayApp(page, app_server)
    app.click("T")
    app.click("hint")  # a message with its detail, and the hint's marks
    app.root.locator("button.calcnb-coach-analyse").click()  # the coach's chart of chances
    app.root.locator(".calcnb-chances").wait_for(state="visible", timeout=60_000)
    assert serious_violations(page) == []


def test_the_lesson_app_has_no_serious_violation(page, app_server):
    page.goto(app_server.page_url("02_wraparound.ipynb"), wait_until="domcontentloaded")
    page.locator("button.jupyter-button").first.wait_for(state="visible")
    page.wait_for_load_state("networkidle")
    assert serious_violations(page) == []


def test_the_worked_example_has_no_serious_violation(page, app_server):
    app = StepperApp(page, app_server, "03_worked_example.ipynb")
    app.click(app.next)
    assert serious_violations(page) == []


def test_the_evidence_lesson_has_no_serious_violation(page, app_server):
    page.goto(app_server.page_url("evidence.ipynb"), wait_until="domcontentloaded")
    lab = page.locator(".calcnb-evidence-lab")
    lab.get_by_role("button", name="Play 10 deals").click()
    lab.locator(".calcnb-evidence-said").get_by_text("Batch 1:").wait_for(timeout=60_000)
    lab.get_by_role("button", name="Show my 95% interval").click()
    lab.locator(".calcnb-exercise").wait_for(state="visible")
    assert "95% interval of all your deals" in lab.locator("img").get_attribute("alt")
    page.wait_for_load_state("networkidle")
    assert serious_violations(page) == []
