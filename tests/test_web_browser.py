"""rulebook serve in a real browser: Debian's chromium under Selenium (chromium-driver).

A person plays a whole Lantern Row game against an agent by clicking, and
part of a Terraforming Mars generation (starting cards bought as a set, a
card paid with steel, its tile placed by clicking the map); two people at two
browsers each see their own hand only; a replay is opened and stepped,
jumped and scrubbed through. ``.ci/run`` installs chromium and its driver, so
in CI (``CI`` set) these tests never skip; on a machine without them they
skip with the command that installs them. Screenshots (the TM map, the Legacy
timeline, the Timespan board, Lantern Row, a replay) and the click-to-decision
latencies go to ``RULEBOOK_WEB_SHOTS`` (default ``tests/.screenshots``).
"""

from __future__ import annotations

import os
import shutil
import statistics
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
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


class Site(str):
    """The server's address, and its records folder."""
    records: Path


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
    address = Site(f"http://127.0.0.1:{sock.getsockname()[1]}")
    address.records = records
    yield address
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


def shots() -> Path:
    """Where screenshots go: RULEBOOK_WEB_SHOTS, else tests/.screenshots (not in git)."""
    folder = Path(os.environ.get("RULEBOOK_WEB_SHOTS") or
                  Path(__file__).resolve().parent / ".screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def fill_lobby(driver, site, seats, ruleset="lantern_row", seed="3", delay="0"):
    """The lobby's form filled in: the ruleset, the seats, the seed, the pace; not started."""
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
    Select(driver.find_element(By.ID, "delay")).select_by_value(delay)


def new_game(driver, site, seats, ruleset="lantern_row", seed="3"):
    fill_lobby(driver, site, seats, ruleset, seed)
    driver.find_element(By.ID, "start").click()


def test_a_person_plays_a_whole_lantern_row_game_against_an_agent_by_clicking(driver, site):
    # the lobby's default agent, with its ruleset's search settings: a person's game keeps
    # a log, and the agent is told of each question taken for it (a fresh install's
    # terminal game stopped there once, test_agent_hooks)
    new_game(driver, site, ["human", "ismcts"])
    wait = WebDriverWait(driver, 30)
    wait.until(lambda d: "/play/" in d.current_url)
    clicks = 0
    shot = shots()
    agent_moves_seen = 0  # questions with the agent's moves shown beside them
    while True:
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-decision")
                   or d.find_element(By.TAG_NAME, "body").get_attribute("data-over"))
        body = driver.find_element(By.TAG_NAME, "body")
        if body.get_attribute("data-over"):
            break
        number = body.get_attribute("data-decision")
        news = driver.find_element(By.ID, "news-box")
        if news.is_displayed() and "Since your last move" in news.text and \
                any(line.startswith("Player 2") for line in news.text.splitlines()):
            agent_moves_seen += 1
        if clicks == 0:
            # what a person sees: the question, keys per option, refusals with reasons
            assert "choose an action" in driver.find_element(By.ID, "prompt").text
            assert "not now: needs at least 4 coins" in driver.find_element(By.ID, "not-now").text
            hand = driver.find_element(By.ID, "hand").text
            assert "Twin Flame" in hand and "Sleight of Hand" in hand
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
    # the agent's turns were shown beside the person's questions, not only in the log
    assert agent_moves_seen >= 5, agent_moves_seen
    latencies = driver.execute_script("return window.__latencies || []")
    assert len(latencies) > 10
    q = statistics.quantiles(latencies, n=20)
    summary = (f"click to next decision on screen, {len(latencies)} clicks: median "
               f"{statistics.median(latencies):.1f} ms, 95th percentile {q[-1]:.1f} ms, "
               f"most {max(latencies):.1f} ms")
    print(summary)
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


# ------------------------------------------------------------ games from a record's start
def body(driver):
    return driver.find_element(By.TAG_NAME, "body")


def decision_open(driver, timeout=30):
    WebDriverWait(driver, timeout).until(lambda d: body(d).get_attribute("data-decision")
                                         or body(d).get_attribute("data-over"))
    return body(driver).get_attribute("data-decision")


def next_decision(driver, number, timeout=30):
    """Wait until the page asks a decision after ``number``; the new number."""
    WebDriverWait(driver, timeout).until(
        lambda d: body(d).get_attribute("data-decision") not in ("", number)
        or body(d).get_attribute("data-over"))
    return body(driver).get_attribute("data-decision")


def prefix_record(records: Path, name: str, seed: int, decisions: int,
                  players: int = 2) -> str:
    """A game of ``name`` played by greedy agents for about ``decisions`` answers, saved in
    the records folder with seat 1 a person's (stopped at one of seat 1's decisions)."""
    from rulebook_games.agents.registry import agent_seed, make_agent
    from rulebook_games.load.ruleset import load_ruleset
    from rulebook_games.paths import shipped_rulesets_dir
    from rulebook_games.play.session import make_record
    from rulebook_games.play.stream import DecisionStream
    rs = load_ruleset(str(shipped_rulesets_dir() / name))
    kinds = ["human"] + ["greedy"] * (players - 1)
    agents = [make_agent("greedy", agent_seed(seed, s)) for s in range(players)]
    stream = DecisionStream(rs, players, seed, kinds=kinds)
    while stream.current is not None and (len(stream.game.record) < decisions
                                          or stream.current.player != 0):
        d = stream.current
        stream.answer(agents[d.player].decide(d, stream.game.view(d.player), stream.game))
    file = f"{name}-{seed}-{decisions}.json"
    make_record(stream.game, rs, kinds, None, []).save(records / file)
    stream.close()
    return file


def resumed(driver, site, file):
    """Seat 1's page of the saved game ``file``, resumed."""
    import httpx
    r = httpx.post(site + "/api/resume", json={"file": file, "delay": 0},
                   headers={"origin": site}, timeout=60)
    assert r.status_code == 200, r.text
    driver.get(site + r.json()["seats"][0]["link"])
    decision_open(driver)


def option(driver, label):
    return next(b for b in driver.find_elements(By.CSS_SELECTOR, "button.option")
                if b.find_element(By.CSS_SELECTOR, ".label").text.startswith(label))


# Scrolled to each panel's top and bottom, which panels the side column (decision, hand)
# overlaps, and whether the decision is then out of reach (neither in sight nor above it,
# in the page's flow, as on a narrow screen where the column comes first)
COVERED = """
const side = document.getElementById('side'), decision = document.getElementById('decision-panel');
const out = [];
const panels = [...document.querySelectorAll('#board-area, main .panel')]
  .filter(p => !side.contains(p) && p.offsetParent !== null);
for (const panel of panels) {
  for (const at of ['start', 'end']) {
    panel.scrollIntoView({block: at});
    const a = side.getBoundingClientRect();
    for (const other of panels) {
      const b = other.getBoundingClientRect();
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) out.push(`${other.id} under the side column (at ${panel.id} ${at})`);
    }
    const d = decision.getBoundingClientRect();
    const stuck = getComputedStyle(side).position === 'sticky';
    if (stuck && (d.top < -1 || d.top > innerHeight - 40))
      out.push(`the decision out of sight (at ${panel.id} ${at}: ${d.top} ${innerHeight})`);
  }
}
return [...new Set(out)];
"""


def covered(driver) -> list[str]:
    return driver.execute_script(COVERED)


BOARDS = [  # (ruleset, seed, decisions before the picture, what it is)
    ("terraforming_mars", 7, 200, "map"),
    ("legacy_gears_of_time", 7, 80, "timeline"),
    ("timespan", 7, 80, "board"),
]


@pytest.mark.parametrize("name, seed, decisions, what", BOARDS, ids=[b[0] for b in BOARDS])
def test_each_board_is_drawn_from_the_view_model(driver, site, name, seed, decisions, what):
    resumed(driver, site, prefix_record(site.records, name, seed, decisions))
    driver.set_window_size(1400, 1000)
    board = driver.find_element(By.ID, "board-area")
    if what == "map":  # Tharsis: a hexagon a space, tiles with their owners' cubes
        spaces = driver.find_elements(By.CSS_SELECTOR, "#board svg.map-svg g.space")
        assert len(spaces) >= 61
        tiled = driver.find_elements(By.CSS_SELECTOR, "g.space.tiled")
        assert tiled and driver.find_elements(By.CSS_SELECTOR, "rect.owner-cube")
        assert "Ocean area" in board.text and "Temperature" in board.text
    elif what == "timeline":  # a frame a time, technologies with cubes, travellers
        frames = driver.find_elements(By.CSS_SELECTOR, ".frame-board .frame")
        assert len(frames) == 10
        assert driver.find_elements(By.CSS_SELECTOR, ".frame .cube")
        assert driver.find_elements(By.CSS_SELECTOR, ".frame-here .token")
        # a technology on the timeline shows its whole text when pointed at, and hides
        # it when the pointer leaves (a keen player: names alone, nothing on hover)
        chip = driver.find_element(By.CSS_SELECTOR, ".frame-cards .chip.has-face")
        tech = chip.find_element(By.CSS_SELECTOR, ".chip-name").text
        ActionChains(driver).move_to_element(chip).perform()
        pop = WebDriverWait(driver, 5).until(
            lambda d: d.find_element(By.ID, "card-pop") if d.find_element(
                By.ID, "card-pop").is_displayed() else None)
        assert pop.find_element(By.CSS_SELECTOR, ".card-name").text == tech
        assert pop.find_elements(By.CSS_SELECTOR, ".card-line")  # what it does, in words
        driver.save_screenshot(str(shots() / f"{name}_card_pointed_at.png"))
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "title")).perform()
        WebDriverWait(driver, 5).until(
            lambda d: not d.find_element(By.ID, "card-pop").is_displayed())
    else:  # Timespan's tracks, each player's token on them, the market with prices
        assert len(driver.find_elements(By.CSS_SELECTOR, ".track-svg g.player-token")) >= 10
        assert driver.find_elements(By.CSS_SELECTOR, ".card-price")
    assert driver.find_elements(By.CSS_SELECTOR, "#hand .card")  # the seat's own cards
    folder = shots()
    driver.save_screenshot(str(folder / f"{name}.png"))
    if what == "map":  # the side column (decision, hand) covers nothing, at any scroll
        for width, height in ((1400, 1000), (1280, 800), (1000, 800), (700, 900)):
            driver.set_window_size(width, height)
            assert covered(driver) == [], (width, height)
        driver.execute_script("document.getElementById('facts-panel').scrollIntoView()")
        driver.save_screenshot(str(folder / f"{name}_narrow.png"))
        driver.set_window_size(1280, 800)
        driver.execute_script("document.getElementById('players-panel').scrollIntoView()")
        driver.save_screenshot(str(folder / f"{name}_1280_players.png"))
    driver.set_window_size(1400, 2200)  # the whole board in the picture
    board.screenshot(str(folder / f"{name}_{what}.png"))


def test_part_of_a_terraforming_mars_generation_by_clicking(driver, site):
    # seed 6: the person may take Mining Guild (5 steel) and buy Natural Preserve
    # (9 M€, building): paid with steel, its special tile placed on the map
    new_game(driver, site, ["human", "greedy"], ruleset="terraforming_mars", seed="6")
    WebDriverWait(driver, 30).until(lambda d: "/play/" in d.current_url)
    number = decision_open(driver)
    assert "Which corporation" in driver.find_element(By.ID, "prompt").text
    option(driver, "Mining Guild").click()
    number = next_decision(driver, number)
    # the starting cards: a set, chosen with toggles and one confirm
    assert driver.find_element(By.ID, "set-controls").is_displayed()
    option(driver, "Natural Preserve").click()
    assert option(driver, "Natural Preserve").get_attribute("aria-pressed") == "true"
    assert driver.find_element(By.ID, "set-count").text == "1 chosen (up to 10)"
    driver.find_element(By.ID, "set-confirm").click()
    number = next_decision(driver, number, timeout=60)
    assert "choose an action" in driver.find_element(By.ID, "prompt").text
    hand = driver.find_element(By.ID, "hand").text
    assert "Natural Preserve" in hand and "Black Polar Dust" not in hand  # one card bought
    me = driver.find_element(By.CSS_SELECTOR, ".player-panel.you").text
    assert "27" in me.split("\n")[me.split("\n").index("M€") + 1]  # 30 M€ less 3
    option(driver, "Play a card").click()
    number = next_decision(driver, number)
    # the price in steel: a number in its range
    assert "how many steel" in driver.find_element(By.ID, "prompt").text
    # the one card to play was not asked, and the panel says so, with its question
    taken = driver.find_element(By.ID, "taken")
    assert taken.is_displayed() and "→ Natural Preserve (the only choice, taken for you)" \
        in taken.text, taken.text
    driver.save_screenshot(str(shots() / "terraforming_mars_taken.png"))
    assert driver.find_element(By.ID, "range").is_displayed()
    field = driver.find_element(By.ID, "range-input")
    assert (field.get_attribute("min"), field.get_attribute("max")) == ("0", "5")
    field.clear()
    field.send_keys("5")
    driver.find_element(By.ID, "range-send").click()
    number = next_decision(driver, number)
    # where the tile goes: the spaces asked are marked on the map, and clicked there
    assert "where do you place" in driver.find_element(By.ID, "prompt").text
    asked = driver.find_elements(By.CSS_SELECTOR, "g.space.askable")
    assert len(asked) == len([o for o in driver.find_elements(By.CSS_SELECTOR, "button.option")])
    # clearly: the other spaces dimmed, a thick ring, and each one reached by Tab too
    plain = driver.find_element(By.CSS_SELECTOR, "g.space:not(.askable)")
    assert float(plain.value_of_css_property("opacity")) < 0.6
    ring = asked[0].find_element(By.CSS_SELECTOR, ".ask-ring")
    assert float(ring.value_of_css_property("stroke-width").rstrip("px")) >= 4
    assert all(a.get_attribute("tabindex") == "0" for a in asked)
    driver.save_screenshot(str(shots() / "terraforming_mars_asked.png"))
    # (which spaces are free depends on the agent's moves before: the first one asked
    # with no printed bonus, so the steel left is what was paid)
    target = next(a for a in asked if not a.find_elements(By.CSS_SELECTOR, ".bonus-symbol"))
    space = target.get_attribute("data-space")
    ActionChains(driver).move_to_element(target).click().perform()
    number = next_decision(driver, number)
    placed = driver.find_element(By.CSS_SELECTOR, f"g.space.tiled[data-space='{space}']")
    assert placed.find_elements(By.CSS_SELECTOR, "rect.owner-cube")
    # the special tile's own symbol (the steel bonus is 'S'), its card's name whole
    assert placed.find_element(By.CSS_SELECTOR, ".tile-symbol").text == "Sp"
    assert [t.text for t in placed.find_elements(By.CSS_SELECTOR, ".tile-card")] == \
        ["Natural", "Preserve"]
    assert f"{space}: Natural Preserve (Player 1 (human))" in \
        driver.find_element(By.ID, "board").text
    me = driver.find_element(By.CSS_SELECTOR, ".player-panel.you").text
    assert "Natural Preserve" in me  # played
    lines = me.split("\n")
    assert lines[lines.index("Steel") + 1] == "0"  # the 5 steel paid
    driver.set_window_size(1400, 2000)  # the whole board in the picture
    driver.find_element(By.ID, "board-area").screenshot(str(shots() / "terraforming_mars_played.png"))
    option(driver, "end turn").click()
    next_decision(driver, number)


def test_a_replay_is_opened_stepped_jumped_and_scrubbed(driver, site):
    file = prefix_record(site.records, "legacy_gears_of_time", 5, 40)
    driver.get(site + "/replays")
    wait = WebDriverWait(driver, 20)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"button.replay-open[data-file='{file}']"))
    driver.find_element(By.CSS_SELECTOR, f"button.replay-open[data-file='{file}']").click()

    def at(n):
        wait.until(lambda d: body(d).get_attribute("data-step") == str(n))
    at(1)
    assert "Decision 1 ·" in driver.find_element(By.ID, "decision-head").text
    assert driver.find_elements(By.CSS_SELECTOR, ".frame-board .frame")  # the same table
    driver.find_element(By.ID, "next").click()
    at(2)
    body(driver).send_keys(Keys.ARROW_RIGHT)
    at(3)
    answer = driver.find_element(By.ID, "answer").text
    assert answer.startswith("The record's answer:") or "not shown" in answer
    field = driver.find_element(By.ID, "replay-step")
    field.clear()
    field.send_keys("25", Keys.ENTER)
    at(25)
    driver.execute_script("const s = document.getElementById('scrub'); s.value = 12;"
                          "s.dispatchEvent(new Event('input'))")
    at(12)
    driver.find_element(By.ID, "last").click()
    count = int(driver.find_element(By.ID, "scrub").get_attribute("max"))
    at(count)
    assert "stops here" in driver.find_element(By.ID, "result").text
    # this machine's own record: a seat's own view, with its hand
    Select(driver.find_element(By.ID, "seat")).select_by_value("1")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    driver.find_element(By.ID, "back").click()
    at(count - 1)
    driver.save_screenshot(str(shots() / "replay.png"))
    # the lobby's and a results file's link to a record: /replay?record=NAME
    driver.get(site + "/replay?record=" + file)
    at(1)
    assert driver.find_element(By.ID, "count").text.startswith(f"of {count - 1}")


def test_an_exploration_set_is_offered_with_its_discovery_tile(driver, site):
    """Playtest (Timespan, browser): each set offered named only its face-up card; its
    discovery tile (Newcomers, a population) was invisible. Each option's card now shows
    the tile that goes with it, with the tile's text."""
    resumed(driver, site, prefix_record(site.records, "timespan", 2911, 0))
    prompt = driver.find_element(By.ID, "prompt").text
    assert "exploration set" in prompt
    items = driver.find_elements(By.CSS_SELECTOR, "#options li .card")
    withs = driver.find_elements(By.CSS_SELECTOR, "#options li .card-with .card-name")
    assert withs and len(withs) * 2 == len(items)  # a set: its card and its tile
    assert all(w.text for w in withs)
    assert "discovery tile" in driver.find_element(By.CSS_SELECTOR, "#options li .card-with").text
