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


# ---------------------------------------------------------------- the drawn table, texts, autoplay, decisions

def turns_replayed(replay_text: str):
    """The engine's state as each turn of a stored game ends (``[0]`` the first turn's),
    and each turn's decisions as (seat, legal action texts, chosen text), the setup's first."""
    replay = replay_from_text(replay_text)
    state = new_game(replay.game, list(replay.players), seed=replay.seed, deck=replay.deck,
                     first_player=replay.first_player, record=True)
    state.pause_between_turns = True
    ends, decisions = [], {0: []}
    for _, action in replay.actions:
        if state.between_turns:
            ends.append(state.clone())
            state.next_turn()
        decisions.setdefault(state.turn, []).append((state.decision.player, [a.text for a in state.legal], action))
        state.apply(action)
    return ends + [state], decisions


def open_viewer(browser, site, ladder: str, step: int) -> None:
    """The viewer showing the night's first match of ``ladder`` at frame ``step``."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get((site / ladder / "night-1.html").as_uri())
    link = browser.find_element(By.CSS_SELECTOR, "table.matches a.view").get_attribute("href")
    browser.get(f"{link}&t={step}")
    browser.refresh()  # (a new hash on the same page is not a new load)
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))


def drawn(browser, css: str) -> list[int]:
    from selenium.webdriver.common.by import By

    return [int(figure.get_attribute("data-value")) for figure in browser.find_elements(By.CSS_SELECTOR, css)]


@pytest.mark.parametrize("ladder", ["four", "duo", "duel"])
def test_the_drawn_table_shows_the_monsters_tokyo_dice_and_tracks_as_the_engine_had_them(
        browser, built_site, season_db, ladder, tmp_path):
    from selenium.webdriver.common.by import By

    from kotarena.games.duel.faces import FACE_NAMES as DUEL_FACES
    from kotarena.games.kot.faces import FACE_NAMES

    match = stored(season_db, ladder)[0]
    ends, _ = turns_replayed(match["replay"])
    faces = DUEL_FACES if ladder == "duel" else FACE_NAMES
    open_viewer(browser, built_site, ladder, 0)
    assert browser.find_elements(By.CSS_SELECTOR, "#board .monster")  # the table is drawn
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg.die") == []  # nobody rolled yet
    for turn in (1, 3, match["turns"]):
        open_viewer(browser, built_site, ladder, turn)
        state = ends[turn - 1]
        assert drawn(browser, "#board .monster .stat.health") == list(state.health)
        assert drawn(browser, "#board .monster .stat.energy") == list(state.energy)
        assert [die.get_attribute("data-face") for die in browser.find_elements(By.CSS_SELECTOR, "#board svg.die")] \
            == [faces[face] for face in state.dice]
        if ladder == "duel":
            assert [int(track.get_attribute("data-marker")) for track in
                    browser.find_elements(By.CSS_SELECTOR, "#board svg.track")] == [state.board.index(0),
                                                                                      state.board.index(1)]
            assert len(browser.find_elements(By.CSS_SELECTOR, "#board svg.track .marker")) == 2
        else:
            assert drawn(browser, "#board .monster .stat.stars") == list(state.stars)
            city = browser.find_element(By.CSS_SELECTOR, "#board .spot.city").get_attribute("data-seat")
            assert city == (str(state.city + 1) if state.city >= 0 else "")
    assert browser.get_screenshot_as_png().startswith(b"\x89PNG")
    browser.save_screenshot(str(tmp_path / f"{ladder}.png"))  # (kept with the test's files, to look at)
    assert console_errors(browser) == []


@pytest.mark.parametrize("ladder", ["four", "duo", "duel"])
def test_pointing_at_a_card_or_tapping_it_shows_its_text(browser, built_site, season_db, ladder):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    from kotarena.games import get_game

    match = stored(season_db, ladder)[0]
    replay = replay_from_text(match["replay"])
    if ladder == "duel":
        texts = {row["id"]: row["effect"] for row in get_game("duel").card_rows()}
    else:
        texts = {info.id: info.text for info in new_game(replay.game, list(replay.players), seed=replay.seed,
                                                          deck=replay.deck).cards_info}
    open_viewer(browser, built_site, ladder, 1)
    tip = browser.find_element(By.ID, "tip")
    assert not tip.is_displayed()
    card = browser.find_element(By.CSS_SELECTOR, "#board .market .card[data-card]")
    ActionChains(browser).move_to_element(card).perform()
    assert tip.is_displayed() and tip.find_element(By.TAG_NAME, "b").text == card.text
    assert tip.find_element(By.CSS_SELECTOR, ".text").text.startswith(texts[card.get_attribute("data-card")])
    ActionChains(browser).move_to_element(browser.find_element(By.ID, "heading")).perform()
    assert not tip.is_displayed()
    card.click()  # a tap
    assert tip.is_displayed()
    if ladder == "duel":  # the monster's chip names its superpower, and says what it does
        from kotarena.games.duel.monsters import BY_ID

        chip = browser.find_element(By.CSS_SELECTOR, "#board .monster[data-seat='1'] .monster-board")
        chip.click()
        monster = BY_ID[chip.get_attribute("data-card").removeprefix("monster:")]
        assert chip.text == f"superpower: {monster.power}"
        assert tip.find_element(By.CSS_SELECTOR, ".text").text == monster.text
    assert console_errors(browser) == []


@pytest.mark.parametrize("ladder", ["four", "duo", "duel"])
def test_autoplay_runs_to_the_last_turn_at_the_speed_chosen_and_pauses(browser, built_site, season_db, ladder):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    match = stored(season_db, ladder)[0]
    open_viewer(browser, built_site, ladder, 0)
    Select(browser.find_element(By.ID, "speed")).select_by_value("250")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(" ")  # the space bar plays
    assert body.get_attribute("data-playing") == "true"
    WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "frame-title").text != "Setup")
    body.send_keys(" ")  # and pauses
    assert body.get_attribute("data-playing") == "false"
    paused = browser.find_element(By.ID, "frame-title").text
    browser.find_element(By.ID, "play").click()
    assert browser.find_element(By.ID, "play").get_attribute("aria-pressed") == "true"
    WebDriverWait(browser, 0.25 * match["turns"] + 10).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-playing") == "false")
    assert browser.find_element(By.ID, "frame-title").text == f"Turn {match['turns']}" != paused
    assert browser.find_element(By.ID, "play").text == "play"
    body.send_keys(Keys.HOME)
    assert browser.find_element(By.ID, "frame-title").text == "Setup"
    assert console_errors(browser) == []


@pytest.mark.parametrize("ladder", ["four", "duo", "duel"])
def test_each_decision_shows_the_seat_its_legal_actions_its_choice_and_the_time_stored(
        browser, built_site, season_db, ladder):
    from selenium.webdriver.common.by import By

    match = stored(season_db, ladder)[0]
    _, decisions = turns_replayed(match["replay"])
    open_viewer(browser, built_site, ladder, 1)
    shown = browser.find_elements(By.CSS_SELECTOR, "#decisions li.decision")
    assert len(shown) == len(decisions[1])
    names = replay_from_text(match["replay"]).players
    for item, (seat, _, choice) in zip(shown, decisions[1]):
        assert item.get_attribute("data-seat") == str(seat + 1)
        assert item.find_element(By.CSS_SELECTOR, ".asked b").text == names[seat]
        assert item.find_element(By.CSS_SELECTOR, "code.choice").text == choice
    first = shown[0]
    first.find_element(By.TAG_NAME, "summary").click()
    seat, legal, choice = decisions[1][0]
    actions = [option.text for option in first.find_elements(By.CSS_SELECTOR, ".actions li")]
    assert actions == legal and first.find_element(By.CSS_SELECTOR, ".actions li.chosen").text == choice
    timing = browser.find_element(By.ID, "timing").text
    assert "not each decision's" not in timing  # (the night stored each decision's time)
    for name, facts in zip(names, match["seats"]):
        said = next(part for part in timing.split(". ") if f"{name}: {facts['decisions']} decisions, " in part)
        if facts["cpu_seconds"]:
            assert f"{facts['cpu_seconds']:.3f}"[:4] in said and "ms a decision on average" in said
        else:
            assert "too little CPU time to measure" in said
        assert "each decision's time is its CPU time" in said
    # Each decision says its time as stored (these trusted bots': the guard's readings).
    times = [item.find_element(By.CSS_SELECTOR, ".asked .time").text for item in shown]
    assert all(text == "· under a guard tick of CPU" or text.endswith("CPU (guard ticks)") for text in times)
    if ladder == "duel":  # the monsters were chosen before the first turn
        open_viewer(browser, built_site, ladder, 0)
        assert [item.find_element(By.CSS_SELECTOR, "code.choice").text for item in
                browser.find_elements(By.CSS_SELECTOR, "#decisions li.decision")] == [c for _, _, c in decisions[0]]
    assert console_errors(browser) == []


@pytest.mark.parametrize("ladder", ["four", "duel"])
def test_at_phone_width_nothing_is_cut_off(browser, built_site, ladder):
    from selenium.webdriver.common.by import By

    size = browser.get_window_size()
    browser.set_window_size(390, 844)
    try:
        open_viewer(browser, built_site, ladder, 2)
        # The page itself never scrolls sideways; the table of figures scrolls in its own box.
        assert browser.execute_script("return document.documentElement.scrollWidth") <= \
            browser.execute_script("return window.innerWidth")
        for element in browser.find_elements(By.CSS_SELECTOR, "#board .monster, #board svg, .controls button"):
            box = element.rect
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, element.get_attribute("outerHTML")[:80]
        wrapper = browser.find_element(By.CSS_SELECTOR, ".facts .scroll")
        assert browser.execute_script("return getComputedStyle(arguments[0]).overflowX", wrapper) == "auto"
    finally:
        browser.set_window_size(size["width"], size["height"])
    assert console_errors(browser) == []
