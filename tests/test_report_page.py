"""The balance lab's page as a designer reads it (issue 30, item 4).

A table of contents; each plot beside its table; every card listed, each row
with its sample size, rows of a handful of player-games last (and hidden at
first by the page's minimum-count filter); tables that sort and filter; the
title naming the game and the agents; compare's rates per round, and one
verdict for the cards game length alone explains; plots with whole-number
ticks for whole-number measures, the equal-share line and aligned bins;
never ``-0.0``. The page's script is checked in a real browser (chromium
under Selenium) when it is installed.
"""

from __future__ import annotations

import os
import re
import shutil
from html.parser import HTMLParser

import pytest

pytest.importorskip("scipy")
pytest.importorskip("matplotlib")

from test_report import MINI, _line, _write, run  # noqa: E402

from rulebook_games.lab import paired, plots, results, stats  # noqa: E402
from rulebook_games.lab.names import Names  # noqa: E402
from rulebook_games.lab.table import (diff_cell, mean_cell, min_count, num, pct,  # noqa: E402
                                      rate_cell)


class Page(HTMLParser):
    """What the tests read of a page: sections, the contents' links, tables with their rows
    and cells (and the attributes of each), figures by section, the controls."""

    def __init__(self, text: str):
        super().__init__()
        self.links, self.sections, self.stack = [], [], []
        self.tables, self.figures, self.inputs, self.title = [], {}, [], ""
        self._cell = None
        self._in_title = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "title":
            self._in_title = True
        if tag == "a" and a.get("href", "").startswith("#"):
            self.links.append(a["href"][1:])
        if tag == "section":
            self.sections.append(a["id"])
        if tag == "table":
            self.tables.append({"section": self.sections[-1], "attrs": a, "head": [],
                                "rows": []})
        if tag == "tr" and self.tables:
            self.tables[-1]["rows"].append([])
        if tag in ("td", "th"):
            self._cell = [tag, a, ""]
        if tag == "img" and self.sections:
            self.figures.setdefault(self.sections[-1], []).append(a["alt"])
        if tag == "input":
            self.inputs.append(a)

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False
        if tag in ("td", "th") and self._cell:
            kind, attrs, text = self._cell
            t = self.tables[-1]
            if kind == "th":
                t["head"].append(text)
            else:
                t["rows"][-1].append((text, attrs))
            self._cell = None

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        if self._cell is not None:
            self._cell[2] += data

    def table(self, first_header: str, n: int = 0):
        found = [t for t in self.tables if t["head"][:1] == [first_header]]
        t = found[n]
        t["rows"] = [r for r in t["rows"] if r]
        return t


def _many_cards(tmp_path, games=60):
    """Forty cards: c00..c29 played often, c30..c39 (the rare ones) by one player in all;
    each rare card's one player wins (a rate of 100%, which must not lead)."""
    lines = []
    for seed in range(1, games + 1):
        played = [{}, {}]
        for c in range(30):
            if (seed + c) % 3:
                played[(seed + c) % 2][f"c{c:02d}"] = 1
        scores = [10, 20] if seed % 2 else [20, 10]
        winner = 1 if scores[0] > scores[1] else 0
        if seed <= 10:
            played[winner][f"c{29 + seed:02d}"] = 1
        lines.append(_line(seed, scores=scores, winners=[winner + 1], played=played,
                           agents=["greedy", "random"]))
    return _write(tmp_path / "r.jsonl", lines)


def test_the_page_has_contents_plots_beside_tables_and_every_card(tmp_path, capsys):
    page = tmp_path / "report.html"
    code, out, err = run(capsys, "report", _many_cards(tmp_path), "--ruleset", MINI,
                         "--top", 5, "--html", page)
    assert code == 0, err
    doc = Page(page.read_text(encoding="utf-8"))
    # the title names the game (the ruleset's name) and the agents of the results rows
    assert doc.title.startswith("Report: Mini, agents greedy and random")
    # the contents link to every section, and only to sections that are there
    assert doc.links == doc.sections and len(doc.links) >= 6
    # each plot beside its table: in the table's own section
    by_title = {t["section"]: t["head"] for t in doc.tables}
    seat = next(t for t in doc.tables if "Against an equal share" in t["head"])
    assert len(doc.figures[seat["section"]]) == 1, (doc.figures, by_title)
    cards = doc.table("Card")
    assert "top_items" not in doc.figures  # no loose "Plots" section: every plot is placed
    assert doc.figures.get(cards["section"]), doc.figures
    # every card, though --top is 5 (the terminal shows 5)
    assert len(cards["rows"]) == 40
    assert "The first 5 of 40 are shown (--top)." in out
    # each row its sample size, in the column the page filters on
    assert cards["head"][1] == "Player-games" and cards["attrs"]["data-size"] == "1"
    sizes = [int(r[1][1]["data-v"]) for r in cards["rows"]]
    assert sizes == [int(r[1][0]) for r in cards["rows"]]
    # the rare cards (one player-game each, 100% win rate) come last, not first
    assert sizes[-10:] == [1] * 10 and min(sizes[:30]) >= 12
    # the minimum-count box starts at the run's minimum count: 120 player-games, 12
    least = [i for i in doc.inputs if i.get("class") == "least"]
    assert least and least[0]["value"] == "12" == str(min_count(120))


def test_the_minimum_count_is_a_tenth_of_a_small_run_and_twenty_in_a_large_one():
    assert [min_count(n) for n in (0, 49, 80, 120, 200, 10_000)] == [5, 5, 8, 12, 20, 20]


def test_hover_text_and_gallery_link_are_kept(tmp_path, capsys):
    page = tmp_path / "report.html"
    lines = [_line(s, played=[{"comet": 1}, {}]) for s in range(1, 31)]
    code, _, err = run(capsys, "report", _write(tmp_path / "r.jsonl", lines), "--ruleset",
                       MINI, "--html", page, "--gallery", "http://127.0.0.1:8000")
    assert code == 0, err
    cards = Page(page.read_text(encoding="utf-8")).table("Card")
    assert any("Comet" == r[0][0] for r in cards["rows"])
    text = page.read_text(encoding="utf-8")
    assert re.search(r'<a class="card" href="http://127\.0\.0\.1:8000/cards/mini#card-comet" '
                     r'data-text="cost 21 · event', text)


# ------------------------------------------------------------------ no -0.0
def test_a_value_that_rounds_to_zero_is_never_minus_zero():
    assert num(-0.04) == "0.0" and num(-0.0) == "0.0" and num(-0.06) == "-0.1"
    assert pct(-0.0004) == "0.0%"
    tiny = stats.Difference(-0.0001, -0.0004, 0.0003, 0.5)
    assert diff_cell(tiny, 100) == "0.0 (0.0 to 0.0)".replace("0.0", "+0.0")
    assert "-0" not in diff_cell(stats.Difference(-1e-6, -1e-6, -1e-6, 1.0))
    assert rate_cell(stats.Estimate(0.0, -0.0, 0.01)) == "0.0% (0.0–1.0)"
    assert mean_cell(stats.Estimate(-0.01, -0.02, 0.0)) == "0.0 (0.0 to 0.0)"


def test_no_minus_zero_on_a_real_page(tmp_path, capsys):
    page = tmp_path / "report.html"
    lines = [_line(s, scores=[0, 0], winners=[1, 2], score_parts=[{"cards": 0}, {"cards": 0}])
             for s in range(1, 31)]
    code, _, err = run(capsys, "report", _write(tmp_path / "r.jsonl", lines), "--html", page)
    assert code == 0, err
    text = re.sub(r'src="data:[^"]*"', "", page.read_text(encoding="utf-8"))
    assert not re.search(r"-0(\.0+)?(?![.\d])", text)


# ------------------------------------------------------------------ plots
def test_histogram_bins_are_whole_numbers_wide_and_centred_on_whole_numbers():
    import numpy as np
    for low, high in ((3, 9), (0, 100), (17, 170)):
        bins = plots.bins_for([low, high, (low + high) // 2])
        widths = np.diff(bins)
        assert np.all(widths == widths[0]) and widths[0] == round(widths[0]) >= 1
        assert np.all(bins + 0.5 == np.round(bins + 0.5))  # edges at k + 0.5
        assert bins[0] < low and bins[-1] > high and len(bins) <= 32


def test_integer_ticks_and_the_equal_share_line():
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    fig = plots._lengths(plt, [("Rounds", {"base": [4, 5, 5, 6], "with the mods": [3, 4]})],
                         "Game length", "", 0.95)
    for ax in fig.axes:
        for ticks in (ax.get_xticks(), ax.get_yticks()):
            assert all(t == int(t) for t in ticks), ticks
    plt.close(fig)
    share = (([("Seat 1", stats.rate(30, 100, 0.95)), ("Seat 2", stats.rate(20, 100, 0.95))],
              1 / 3))
    fig = plots._rates(plt, share, "Win rate by seat", "win rate", 0.95)
    lines = [ln for ln in fig.axes[0].lines
             if list(ln.get_xdata()) == pytest.approx([100 / 3, 100 / 3])]
    assert lines, "the equal-share line"
    plt.close(fig)


# ------------------------------------------------------------------ compare: game length
def test_length_alone_explains_a_change_only_when_the_rate_per_round_holds_or_goes_against():
    shorter = stats.Difference(-5.0, -6.0, -4.0, 0.0)
    less = stats.Difference(-0.3, -0.4, -0.2, 0.0)
    explains = paired.length_explains
    assert explains(less, stats.Difference(0.001, -0.01, 0.01, 0.8), shorter) == "unchanged"
    # less per game, but more per round (a card dealt at the start): the length explains it
    assert explains(less, stats.Difference(0.02, 0.01, 0.03, 0.0), shorter) == "against"
    # the rate per round fell too: the card itself is played less
    assert explains(less, stats.Difference(-0.02, -0.03, -0.01, 0.0), shorter) is None
    # played more often while games got shorter: not the length
    more = stats.Difference(0.3, 0.2, 0.4, 0.0)
    assert explains(more, stats.Difference(0.0, -0.1, 0.1, 1), shorter) is None


def _side(tmp_path, name, mods: bool):
    """Sixty games; ten cards each played by both players in 3 games of 5 on the base
    rules; with the mods the games last half as many rounds and each of those cards is
    played by one player instead (its rate per round unchanged); "dropped" is played by
    both players in every game of the base rules and never with the mods."""
    lines = []
    for seed in range(1, 61):
        rounds = (10 if seed % 2 else 12) // (2 if mods else 1)
        played = [{}, {}]
        for c in range(10):
            if (seed + c) % 5 < 3:
                who = [seed % 2] if mods else [0, 1]
                for w in who:
                    played[w][f"c{c}"] = 1
        if not mods:
            played[0]["dropped"] = played[1]["dropped"] = 1
        lines.append(_line(seed, scores=[20, 10], winners=[1], rounds=rounds, decisions=30,
                           played=played))
    return results.read(_write(tmp_path / name, lines))


def test_cards_played_less_only_because_games_are_shorter_get_one_verdict(tmp_path):
    base, mod = _side(tmp_path, "b.jsonl", False), _side(tmp_path, "m.jsonl", True)
    cmp = paired.build(base, mod, paired.pairs_by_seed(base, mod), Names(), 0.95, 15)
    grouped = [v for v in cmp.verdicts if "only because games are shorter" in v]
    assert grouped == ["10 cards played less often only because games are shorter: their "
                       "rate per round is unchanged (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9)"]
    assert not any(re.match(r"c\d played", v) for v in cmp.verdicts), cmp.verdicts
    assert any(v.startswith("Games are 5.5 rounds shorter") for v in cmp.verdicts)
    assert any(v.startswith("dropped played 100% less often") for v in cmp.verdicts)
    # the table shows the rate per round beside the rate per game
    t = next(t for t in cmp.tables if t.title.startswith("Cards played"))
    assert t.columns[:2] == ["Card", "Player-games"]
    assert t.columns[6:] == ["Per round: base", "Per round: with the mods", "Per round: change"]
    assert len(set(t.columns)) == len(t.columns)  # a script finds a column by its name
    row = next(r for r in t.rows if r[0] == "c0: played by")
    assert row[6] == row[7] and row[8] == "+0.00 points (+0.00 to +0.00)"


# ------------------------------------------------------------------ the script, in a browser
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.mark.slow
@pytest.mark.skipif(not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)),
                    reason="needs chromium: apt-get install chromium chromium-driver")
def test_the_tables_sort_and_filter_in_a_browser(tmp_path, capsys):
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.common.by import By
    page = tmp_path / "report.html"
    code, _, err = run(capsys, "report", _many_cards(tmp_path), "--ruleset", MINI,
                       "--html", page)
    assert code == 0, err
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=1400,1000"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    browser = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER),
                               options=options)
    try:
        browser.get(page.as_uri())
        table = next(t for t in browser.find_elements(By.CSS_SELECTOR, "table.lab")
                     if [h.text for h in t.find_elements(By.TAG_NAME, "th")][:1] == ["Card"])
        box = table.find_element(By.XPATH, "..")

        def shown():
            return [r.find_element(By.TAG_NAME, "td").text
                    for r in table.find_elements(By.CSS_SELECTOR, "tbody tr")
                    if r.is_displayed()]
        # at first the rare cards are hidden by the minimum count
        assert len(shown()) == 30 and "c35" not in shown()
        assert "10 under the minimum count hidden" in box.find_element(
            By.CLASS_NAME, "count").text
        least = box.find_element(By.CLASS_NAME, "least")
        least.clear()
        least.send_keys("0")
        assert len(shown()) == 40
        # sort by the card's name: a click sorts down, a second click up
        head = table.find_element(By.TAG_NAME, "th")
        head.click()
        assert shown()[0] == "c39"
        head.click()
        assert shown()[:2] == ["c00", "c01"]
        # sort by the sample size, largest first
        table.find_elements(By.TAG_NAME, "th")[1].click()
        sizes = [int(r.find_elements(By.TAG_NAME, "td")[1].text)
                 for r in table.find_elements(By.CSS_SELECTOR, "tbody tr")]
        assert sizes == sorted(sizes, reverse=True)
        # the text filter
        find = box.find_element(By.CLASS_NAME, "find")
        find.send_keys("c1")
        assert sorted(shown()) == [f"c{i}" for i in range(10, 20)]
        shots = os.environ.get("RULEBOOK_WEB_SHOTS")
        if shots:
            browser.save_screenshot(os.path.join(shots, "report_page.png"))
    finally:
        browser.quit()
