"""The replay viewer's decision times and bots' lines, end to end: a night with sandboxed
bots that write to their logs, its site built, its games opened in headless Chromium
(the browser fixture of ``test_site_browser``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from site_nights import play_nights
from test_site_browser import browser, console_errors, stored  # noqa: F401 - (browser: a fixture)

from kotarena.cli import cli
from kotarena.sandbox.botlog import log_text

LOGBOTS = Path(__file__).parent.parent / "fixtures" / "logbots"

LADDER = """
name = "talk"
players = 3
games = 3
seed = 6
time_limit = 1.0

[[bots]]
name = "log-honest"
label = "honest"
trusted = false

[[bots]]
name = "log-forger"
label = "forger"
trusted = false

[[bots]]
name = "random"
label = "quiet"
"""


@pytest.fixture(scope="module")
def talk_site(tmp_path_factory, sandbox):
    """A night of the logging bots (tests/fixtures/logbots, untrusted: in the sandbox) and
    its site: the database's path and the site's folder."""
    folder = tmp_path_factory.mktemp("talk")
    db, out = str(folder / "talk.db"), folder / "site"
    path = folder / "talk.toml"
    path.write_text(LADDER)
    play_nights(db, [(path, 1)], LOGBOTS, "kotarena_logbots")
    result = CliRunner().invoke(cli, ["site", "build", str(out), "--workers", "0", "-q", "--db", db])
    assert result.exit_code == 0, result.output
    return db, out


def _open(driver, site: Path, row: int) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get((site / "talk" / "night-1.html").as_uri())
    links = driver.find_elements(By.CSS_SELECTOR, "table.matches a.view")
    driver.get(f"{links[row].get_attribute('href')}&t=1")
    driver.refresh()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))


def test_each_game_shows_its_bots_own_lines_as_text_under_their_names(browser, talk_site):  # noqa: F811
    from selenium.webdriver.common.by import By

    db, site = talk_site
    for row, match in enumerate(stored(db, "talk")):
        _open(browser, site, row)
        blocks = browser.find_elements(By.CSS_SELECTOR, "#bot-logs .bot-log")
        assert browser.find_element(By.ID, "bot-logs").is_displayed()
        by_seat = {int(block.get_attribute("data-seat")) - 1: block for block in blocks}
        logs = {seat["seat"]: seat["log"] for seat in match["seats"]}
        assert sorted(by_seat) == sorted(seat for seat, log in logs.items() if log)
        for seat in match["seats"]:
            if seat["entrant"] == "quiet":
                assert seat["seat"] not in by_seat  # (the random bot writes nothing)
                continue
            block = by_seat[seat["seat"]]
            assert seat["entrant"] in block.find_element(By.TAG_NAME, "h4").text
            assert f"bot {seat['bot']}" in block.find_element(By.TAG_NAME, "h4").text
            # The stored lines, word for word, as text: the forger's HTML is not markup.
            assert block.find_element(By.TAG_NAME, "pre").get_attribute("textContent") == log_text(seat["log"])
            assert block.find_elements(By.CSS_SELECTOR, "pre *") == []
        assert browser.execute_script("return window.pwned === undefined")
        assert console_errors(browser) == []


def test_each_decision_of_a_sandboxed_seat_shows_its_share_of_its_batch(browser, talk_site):  # noqa: F811
    from selenium.webdriver.common.by import By

    _, site = talk_site
    _open(browser, site, 0)
    shown = browser.find_elements(By.CSS_SELECTOR, "#decisions li.decision")
    assert shown
    for item in shown:
        entrant = item.find_element(By.CSS_SELECTOR, ".asked").text
        took = item.find_element(By.CSS_SELECTOR, ".asked .time").text
        if "(quiet)" in entrant:
            assert took == "· under a guard tick of CPU" or took.endswith("CPU (guard ticks)")
        else:
            assert took.endswith("ms CPU (a share of its batch)")
    timing = browser.find_element(By.ID, "timing").text
    assert "its share of the CPU time of the batch that answered it" in timing


def test_each_decision_shows_the_lines_its_bot_wrote_while_deciding_it(browser, talk_site):  # noqa: F811
    from selenium.webdriver.common.by import By

    _, site = talk_site
    _open(browser, site, 0)
    seen = 0
    for _ in range(12):  # (the first turns: every seat decides in them)
        for item in browser.find_elements(By.CSS_SELECTOR, "#decisions li.decision"):
            asked = item.find_element(By.CSS_SELECTOR, ".asked").text
            choice = item.find_element(By.CSS_SELECTOR, ".asked code.choice").text
            wrote = item.find_elements(By.CSS_SELECTOR, ".wrote pre")
            if "(quiet)" in asked:
                assert wrote == []
                continue
            # Its own lines of this decision, as text: what it chose (logged and printed).
            text = wrote[0].get_attribute("textContent").split("\n")
            assert f"printed {choice}" in text and f"chose {choice}" in text
            assert wrote[0].find_elements(By.CSS_SELECTOR, "*") == []
            seen += 1
        browser.find_element(By.ID, "forward").click()
    assert seen
