"""rulebook serve in a real browser: Debian's chromium under Selenium (chromium-driver).

A person plays a whole Lantern Row game against an agent by clicking, and two
people at two browsers each see their own hand only. ``.ci/run`` installs
chromium and its driver, so in CI (``CI`` set) these tests never skip; on a
machine without them they skip with the command that installs them.
Screenshots and the click-to-decision latencies go to ``RULEBOOK_WEB_SHOTS``
when it names a folder.
"""

from __future__ import annotations

import os
import shutil
import statistics
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from rulebook_games.web.app import Server, make_app  # noqa: E402
from rulebook_games.web.lobby import Lobby  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
HAVE = os.path.exists(CHROMIUM) and os.path.exists(DRIVER)
if not HAVE:
    if os.environ.get("CI"):
        raise RuntimeError("CI must run the browser tests: chromium and chromium-driver "
                           "are missing (.ci/run installs them)")
    pytestmark = pytest.mark.skip(reason="needs chromium: apt-get install chromium "
                                         "chromium-driver")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A real server on a free port of this machine, in a thread of the test."""
    import socket
    records = tmp_path_factory.mktemp("records")
    server = Server(Lobby(None, (), records), records)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    config = uvicorn.Config(make_app(server), log_level="warning", access_log=False,
                            ws="auto")
    web = uvicorn.Server(config)
    thread = threading.Thread(target=web.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if web.started:
            break
        time.sleep(0.02)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    web.should_exit = True
    thread.join(timeout=10)
    server.close_all()


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1000"):
        options.add_argument(arg)
    return webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER),
                            options=options)


@pytest.fixture
def driver():
    d = browser()
    yield d
    d.quit()


def shots() -> Path | None:
    folder = os.environ.get("RULEBOOK_WEB_SHOTS")
    if not folder:
        return None
    Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder)


def new_game(driver, site, seats, ruleset="lantern_row", seed="3"):
    driver.get(site + "/")
    wait = WebDriverWait(driver, 20)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#ruleset option"))
    Select(driver.find_element(By.ID, "ruleset")).select_by_value(ruleset)
    players = driver.find_element(By.ID, "players")
    players.clear()
    players.send_keys(str(len(seats)))
    driver.execute_script("document.getElementById('players').dispatchEvent(new Event('change'))")
    for i, kind in enumerate(seats, 1):
        Select(driver.find_element(By.CSS_SELECTOR, f".seat-kind[data-seat='{i}']")) \
            .select_by_value(kind)
    driver.find_element(By.ID, "seed").send_keys(seed)
    Select(driver.find_element(By.ID, "delay")).select_by_value("0")
    driver.find_element(By.ID, "start").click()


def test_a_person_plays_a_whole_lantern_row_game_against_an_agent_by_clicking(driver, site):
    new_game(driver, site, ["human", "greedy"])
    wait = WebDriverWait(driver, 30)
    wait.until(lambda d: "/play/" in d.current_url)
    clicks = 0
    shot = shots()
    while True:
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-decision")
                   or d.find_element(By.TAG_NAME, "body").get_attribute("data-over"))
        body = driver.find_element(By.TAG_NAME, "body")
        if body.get_attribute("data-over"):
            break
        number = body.get_attribute("data-decision")
        if clicks == 0:
            # what a person sees: the question, keys per option, refusals with reasons
            assert "choose an action" in driver.find_element(By.ID, "prompt").text
            assert "not now: needs at least 4 coins" in driver.find_element(By.ID, "not-now").text
            hand = driver.find_element(By.ID, "hand").text
            assert "Twin Flame" in hand and "Sleight of Hand" in hand
            if shot:
                driver.save_screenshot(str(shot / "lantern_row.png"))
        options = driver.find_elements(By.CSS_SELECTOR, "button.option")
        if clicks % 3 == 2:  # keyboard play: the option's key
            driver.find_element(By.TAG_NAME, "body").send_keys("1")
        else:
            options[-1 if clicks % 2 else 0].click()
        clicks += 1
        assert clicks < 400
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-decision")
                   != number)
    result = driver.find_element(By.ID, "result").text
    assert "Final scores" in result and "winner" in result
    latencies = driver.execute_script("return window.__latencies || []")
    assert len(latencies) > 10
    q = statistics.quantiles(latencies, n=20)
    summary = (f"click to next decision on screen, {len(latencies)} clicks: median "
               f"{statistics.median(latencies):.1f} ms, 95th percentile {q[-1]:.1f} ms, "
               f"most {max(latencies):.1f} ms")
    print(summary)
    if shot:
        (shot / "latency.txt").write_text(summary + "\n")
        driver.save_screenshot(str(shot / "lantern_row_end.png"))


def test_two_people_at_two_browsers_see_only_their_own_hand(driver, site):
    new_game(driver, site, ["human", "human"], seed="3")
    wait = WebDriverWait(driver, 20)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "a.seat-link"))
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a.seat-link")]
    assert len(links) == 2
    other = browser()
    try:
        driver.get(links[0])
        other.get(links[1])
        hands = []
        for d in (driver, other):
            WebDriverWait(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
            hands.append({e.text for e in d.find_elements(By.CSS_SELECTOR, "#hand .card-name")})
            assert "Hand: 2 cards" in d.find_element(By.ID, "players").text  # the other's
        public = {e.text for e in driver.find_elements(
            By.CSS_SELECTOR, "#rows .card-name, #players .chip-name")}
        mine, theirs = hands
        assert mine - theirs - public and theirs - mine - public
        for name in theirs - mine - public:
            assert name not in driver.find_element(By.TAG_NAME, "body").text
        for name in mine - theirs - public:
            assert name not in other.find_element(By.TAG_NAME, "body").text
        # a link with its token changed opens nothing
        other.get("about:blank")
        other.get(links[1][:-3] + "xyz")
        WebDriverWait(other, 20).until(
            lambda d: d.find_element(By.ID, "refused").is_displayed())
        assert "does not open a seat" in other.find_element(By.ID, "refused").text
    finally:
        other.quit()
