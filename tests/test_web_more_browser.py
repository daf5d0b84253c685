"""The watch page and the cards gallery in a real browser (chromium under Selenium).

The server, the browser and their skipping rules are test_web_browser's.
"""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.slow

pytest.importorskip("selenium.webdriver")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

import test_web_browser  # noqa: E402
from test_web_browser import driver, fill_lobby, shots, site  # noqa: E402,F401

if hasattr(test_web_browser, "pytestmark"):  # no chromium here (and not CI): skipped alike
    pytestmark = test_web_browser.pytestmark


def where(driver) -> str:
    return driver.find_element(By.ID, "where").text


def test_watching_agents_from_the_lobby_pausing_stepping_and_to_the_end(driver, site):
    fill_lobby(driver, site, ["greedy", "random"], delay="0.5")
    assert driver.find_element(By.ID, "start").text == "Watch"
    driver.find_element(By.ID, "start").click()
    wait = WebDriverWait(driver, 30)
    wait.until(lambda d: "/watch/" in d.current_url)
    bar = wait.until(lambda d: d.find_element(By.ID, "watch-bar"))
    assert "Watching agents" in bar.text
    # the moves come at the pace chosen (at least one has; a loaded machine's polling may
    # see the second move's number, not the first's)
    wait.until(lambda d: where(d).startswith("decision ") and int(where(d).split()[-1]) >= 2)
    driver.find_element(By.ID, "watch-pause").click()
    wait.until(lambda d: d.find_element(By.ID, "watch-status").text == "paused")
    # paused: nothing moves until a step lets one move through
    before = where(driver)
    time.sleep(1.2)
    assert where(driver) == before
    driver.find_element(By.ID, "watch-step").click()
    wait.until(lambda d: where(d) != before)
    assert where(driver) == f"decision {int(before.split()[-1]) + 1}"
    if shots():
        driver.save_screenshot(str(shots() / "watch_paused.png"))
    Select(driver.find_element(By.ID, "watch-pace")).select_by_value("0")
    driver.find_element(By.ID, "watch-pause").click()  # resume, at once
    wait.until(lambda d: d.find_element(By.ID, "watch-status").text == "the game is over")
    assert "Final scores" in driver.find_element(By.ID, "result").text
    assert driver.find_element(By.ID, "hand-panel").is_displayed() is False
    # the seat's own pace control is not the watcher's: one pace control on the page
    assert not driver.find_element(By.ID, "pace").is_displayed()


def test_the_lobby_names_the_start_button_for_what_it_does(driver, site):
    driver.get(site + "/")
    wait = WebDriverWait(driver, 20)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".seat-kind"))
    start = driver.find_element(By.ID, "start")
    assert start.text == "Start"
    Select(driver.find_element(By.CSS_SELECTOR, ".seat-kind[data-seat='1']")) \
        .select_by_value("greedy")
    assert start.text == "Watch"
    Select(driver.find_element(By.CSS_SELECTOR, ".seat-kind[data-seat='2']")) \
        .select_by_value("human")
    assert start.text == "Start"


def shown_cards(driver) -> list[str]:
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#gallery .card .card-name")]


def test_the_cards_gallery_searches_marks_a_mods_changes_and_opens_at_a_card(driver, site):
    driver.get(site + "/cards/terraforming_mars?mod=costlier_predators#card-predators")
    wait = WebDriverWait(driver, 20)
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    assert driver.find_element(By.ID, "title").text == \
        "Cards of Terraforming Mars with Costlier Predators"
    every = shown_cards(driver)
    assert len(every) > 200
    # opened at the card of the link, marked with what the mod changed and how it was
    card = driver.find_element(By.ID, "card-predators")
    assert "target" in card.get_attribute("class")
    assert driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return r.top >= 0 && r.bottom <= window.innerHeight;", card)
    assert "changed by Costlier Predators" in card.text
    assert "cost 17" in card.text and "Before the mods: cost 14" in card.text
    if shots():
        driver.save_screenshot(str(shots() / "cards_gallery.png"))
    # searched here, by a name, words of the text, a tag, a cost
    search = driver.find_element(By.ID, "search")
    search.send_keys("predators")
    assert shown_cards(driver) == ["Predators"]
    search.clear()
    search.send_keys("cost>=30")
    dear = shown_cards(driver)
    assert dear and len(dear) < 20
    for box in driver.find_elements(By.CSS_SELECTOR, "#gallery .card .card-facts"):
        assert int(box.text.split()[1]) >= 30
    search.clear()
    search.send_keys("cost 12 building")
    boxes = driver.find_elements(By.CSS_SELECTOR, "#gallery .card .card-facts")
    assert boxes
    for box in boxes:
        assert box.text.startswith("cost 12 ") and "building" in box.text.lower()
    search.clear()
    search.send_keys("nothing-is-called-this")
    assert shown_cards(driver) == []
    assert "No card matches" in driver.find_element(By.ID, "gallery").text
    search.clear()
    driver.find_element(By.ID, "only-changed").click()
    assert shown_cards(driver) == ["Predators"]


def test_the_lobby_links_the_cards_of_the_game_with_the_mods_ticked(driver, site):
    driver.get(site + "/")
    wait = WebDriverWait(driver, 20)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#ruleset option"))
    Select(driver.find_element(By.ID, "ruleset")).select_by_value("lantern_row")
    link = driver.find_element(By.ID, "cards-link")
    assert link.get_attribute("href") == site + "/cards/lantern_row"
    driver.find_element(By.CSS_SELECTOR, ".mod[data-file='rich_start']").click()
    assert link.get_attribute("href") == site + "/cards/lantern_row?mod=rich_start"
    driver.get(link.get_attribute("href"))
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    assert "Red Dragon" in shown_cards(driver)
    # rich start changes coins, no card: nothing is marked
    assert not driver.find_elements(By.CSS_SELECTOR, "#gallery .card.marked")
