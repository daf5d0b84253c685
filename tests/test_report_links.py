"""The lab's report page and the cards gallery (issue 27): a card's name shows its text on
hover, and links to the gallery of a 'rulebook serve' only when the command is given its
address (--gallery URL). The page is a file that may be mailed: by default it links nowhere."""

from __future__ import annotations

import html
import json
import re
import shutil

import pytest

pytest.importorskip("scipy")
pytest.importorskip("matplotlib")

from test_report import MINI, _line, _write, run, without_own_script  # noqa: E402

from rulebook_games import load_ruleset  # noqa: E402
from rulebook_games.lang.words import catalogue_entry, facts_line  # noqa: E402


def comet_text() -> str:
    entry = catalogue_entry(load_ruleset(str(MINI)), "comet")
    return " · ".join([facts_line(entry)] + entry["lines"])


def results(tmp_path):
    return _write(tmp_path / "r.jsonl", [_line(s) for s in range(1, 31)])


def test_a_card_name_on_the_page_shows_its_text_on_hover_and_links_nowhere(tmp_path, capsys):
    page = tmp_path / "report.html"
    code, _, err = run(capsys, "report", results(tmp_path), "--ruleset", MINI, "--html", page)
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    title = html.escape(comet_text(), quote=True)
    assert title.startswith("cost 21 · event · space · Raise the temperature")  # its own tag once
    assert f'<span class="card" data-text="{title}" tabindex="0">Comet</span>' in text
    # the page links to its own sections only (base64 images may spell "http" by chance)
    assert "http" not in re.sub(r'src="data:image/png;base64,[^"]*"', "", text).lower()
    assert text.count("<a ") == text.count('<a href="#')


def test_with_gallery_a_card_name_links_to_that_card_on_the_server(tmp_path, capsys):
    page = tmp_path / "report.html"
    code, _, err = run(capsys, "report", results(tmp_path), "--ruleset", MINI, "--html", page,
                       "--gallery", "http://127.0.0.1:8000/")
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    title = html.escape(comet_text(), quote=True)
    assert (f'<a class="card" href="http://127.0.0.1:8000/cards/mini#card-comet" '
            f'data-text="{title}" tabindex="0">Comet</a>') in text
    # only card names link out (the rest are the contents' links to the page's own
    # sections): a feature's value or an id of no card stays text
    assert (len(re.findall(r"<a ", text)) - text.count('<a href="#')
            == text.count('class="card" href='))


def test_a_hostile_card_name_and_text_stay_text_in_the_link(tmp_path, capsys):
    hostile = '"><script>alert(1)</script>'
    rules = tmp_path / "mini"
    shutil.copytree(MINI, rules)
    cards = rules / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "name: Comet", f"name: {json.dumps(hostile)}", 1), encoding="utf-8")
    page = tmp_path / "report.html"
    code, _, err = run(capsys, "report", results(tmp_path), "--ruleset", rules, "--html", page,
                       "--gallery", "http://127.0.0.1:8000")
    assert code == 0, err
    text = without_own_script(page.read_text(encoding="utf-8"))
    assert "<script" not in text
    assert re.search(r'<a class="card" href="http://127\.0\.0\.1:8000/cards/mini#card-comet" '
                     r'data-text="[^"<>]*" tabindex="0">&quot;&gt;&lt;script&gt;alert\(1\)&lt;/script&gt;</a>',
                     text)


@pytest.mark.parametrize("args, words", [
    (["--gallery", "http://127.0.0.1:8000"], "give --html too"),
    (["--html", "p.html", "--gallery", "javascript:alert(1)"], "not the address of a server"),
    (["--html", "p.html", "--gallery", "127.0.0.1:8000"], "not the address of a server"),
    (["--html", "p.html", "--gallery", "http://a b"], "not the address of a server"),
    (["--html", "p.html", "--gallery", "http://h:port"], "not the address of a server"),
    (["--html", "p.html", "--gallery", "http://h/?q=1"], "not the address of a server"),
])
def test_a_gallery_address_that_is_not_a_servers_is_refused_in_one_line(tmp_path, capsys,
                                                                        args, words):
    code, out, err = run(capsys, "report", results(tmp_path), "--ruleset", MINI,
                         *[str(tmp_path / a) if a == "p.html" else a for a in args])
    assert code == 2 and words in err and "Traceback" not in out + err
    assert not (tmp_path / "p.html").exists()


def test_compare_links_to_the_gallery_with_its_mods(tmp_path, capsys):
    page = tmp_path / "compare.html"
    code, _, err = run(capsys, "compare", "lantern_row", "--mod", "rich_start", "-n", 6,
                       "--agents", "greedy", "--html", page, "--gallery",
                       "http://127.0.0.1:8000")
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    links = re.findall(r'<a class="card" href="([^"]+)"', text)
    assert links and all(link.startswith(
        "http://127.0.0.1:8000/cards/lantern_row?mod=rich_start#card-") for link in links)
