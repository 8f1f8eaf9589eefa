"""The built site opened in a real browser (Debian's headless Chromium, driven by
Selenium): what a person sees on the leaderboard and in the replay viewer, and no
errors on the browser's console.

Chromium and its driver come from Debian (``apt-get install chromium chromium-driver``;
``.ci/run`` installs them). Without them these tests skip with a message, except in CI
(``CI`` set), where they fail. One browser serves the whole module.
"""

from __future__ import annotations

import shutil
import tempfile

import pytest

from kotarena.games import new_game
from kotarena.replay import replay_from_text
from kotarena.storage import open_db, season
from kotarena.testing import missing

BROWSER = "chromium"
DRIVER = "chromedriver"
#: Chromium's switches for a machine without a display, a sandbox for it, or a network.
SWITCHES = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--window-size=1280,1024")


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for program, package in ((BROWSER, "chromium"), (DRIVER, "chromium-driver")):
        if shutil.which(program) is None:
            return f"{program} is not installed (apt-get install {package})"
    return None


@pytest.fixture(scope="module")
def browser():
    problem = _missing()
    if problem is not None:
        missing(f"no browser here: {problem}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which(BROWSER)
    for switch in SWITCHES:
        options.add_argument(switch)
    profile = tempfile.mkdtemp(prefix="kotarena-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which(DRIVER)), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def console_errors(driver) -> list[str]:
    """The browser console's errors since it was last read."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def stored(db: str, ladder: str) -> list[dict]:
    engine = open_db(db)
    return list(season.season_matches(engine, season.ladder(engine, ladder)["id"]))


def health_after_turns(replay_text: str) -> list[list[int]]:
    """Each monster's health as each turn of a stored game ends, from the engine."""
    replay = replay_from_text(replay_text)
    state = new_game(replay.game, list(replay.players), seed=replay.seed, deck=replay.deck,
                     first_player=replay.first_player, record=True)
    state.pause_between_turns = True
    after = []
    for _, action in replay.actions:
        if state.between_turns:
            after.append(list(state.health))
            state.next_turn()
        state.apply(action)
    return after + [list(state.health)]


def test_the_leaderboard_lists_every_entrant_in_rank_order_with_its_interval_and_draws_the_chart(
        browser, built_site, season_db):
    from selenium.webdriver.common.by import By

    from kotarena.storage.queries import leaderboard

    browser.get((built_site / "four" / "index.html").as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "table.leaderboard tbody tr")
    expected = leaderboard(open_db(season_db), "four")
    assert [row.find_elements(By.TAG_NAME, "td")[1].text for row in rows] == [row["entrant"] for row in expected]
    assert rows[0].find_elements(By.TAG_NAME, "td")[3].text == f"{expected[0]['low']:.1f} – {expected[0]['high']:.1f}"
    chart = browser.find_element(By.CSS_SELECTOR, "svg.chart")
    assert chart.is_displayed() and chart.size["width"] > 300
    assert len(chart.find_elements(By.CSS_SELECTOR, "polyline")) == len(expected)
    assert console_errors(browser) == []


@pytest.mark.parametrize("ladder", ["four", "duo", "duel"])
def test_the_viewer_steps_forward_and_back_through_a_game_showing_the_health_after_each_turn(
        browser, built_site, season_db, ladder):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    match = stored(season_db, ladder)[0]
    expected = health_after_turns(match["replay"])
    browser.get((built_site / ladder / "night-1.html").as_uri())
    browser.find_element(By.CSS_SELECTOR, "table.matches a.view").click()  # the night's first match
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))

    def title() -> str:
        return browser.find_element(By.ID, "frame-title").text

    def health() -> list[int]:
        return [int(cell.text) for cell in browser.find_elements(By.CSS_SELECTOR, "#seats tbody td[data-key=health]")]

    def press(button: str, times: int = 1) -> None:
        for _ in range(times):
            browser.find_element(By.ID, button).click()

    assert browser.find_element(By.ID, "heading").text.startswith(f"Match {match['id']}")
    # The seed exactly (seeds are larger than JavaScript's numbers hold exactly).
    assert f"Seed {replay_from_text(match['replay']).seed}," in browser.find_element(By.ID, "about").text
    assert title() == "Setup" and browser.find_element(By.ID, "back").get_attribute("disabled")
    press("forward", 3)
    assert title() == "Turn 3" and health() == expected[2]
    press("back")
    assert title() == "Turn 2" and health() == expected[1]
    if ladder == "duel":  # the tracks, each with its marker, and the hype tokens beside them
        facts = {dd.get_attribute("data-key"): dd.text for dd in browser.find_elements(By.CSS_SELECTOR, "#table-facts dd")}
        assert facts["fame track"].split().count("@") == facts["destruction track"].split().count("@") == 1
        assert {"fame marker", "hype tokens", "dice", "market"} <= set(facts)
    assert browser.find_elements(By.CSS_SELECTOR, "#lines li")[0].text  # the turn in words
    press("last")
    assert title() == f"Turn {match['turns']}" and health() == expected[-1]
    assert health() == [seat["facts"]["health"] for seat in match["seats"]]
    assert browser.find_element(By.ID, "forward").get_attribute("disabled")
    browser.get(browser.current_url.replace(f"&t={match['turns']}", "&t=2"))  # a link to a turn
    browser.refresh()
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    assert title() == "Turn 2" and health() == expected[1]
    assert console_errors(browser) == []


def test_a_link_to_a_game_the_site_does_not_hold_says_so(browser, built_site):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get((built_site / "viewer.html").as_uri() + "#m=999999&b=four-night-1-part-1")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "problem").is_displayed())
    assert "Match 999999 is not in the replays file four-night-1-part-1" in browser.find_element(By.ID, "problem").text
    assert console_errors(browser) == []
