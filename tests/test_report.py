"""rulebook report: the statistics, reading results files, and what the report shows.

The statistics are checked against values worked out here from their
definitions (the Wilson score interval, the t interval, Newcombe's
interval, the Benjamini–Hochberg step-up rule), not against the code under
test. Results files are hand-made where a field or a fault matters, and
simulated for real once per shipped ruleset.
"""

from __future__ import annotations

import json
import math
import random
import re
import shutil
from pathlib import Path
from statistics import NormalDist

import pytest

from rulebook_games import load_ruleset
from rulebook_games.cli import main
from rulebook_games.lab import measures, results, stats
from rulebook_games.lab.names import Names
from rulebook_games.paths import shipped_rulesets
from rulebook_games.lab.table import Table, correct
from rulebook_games.lab.table import Test as LabTest

HERE = Path(__file__).parent
MINI = HERE / "fixtures" / "mini"


def run(capsys, *args):
    with pytest.raises(SystemExit) as info:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return info.value.code, flat(out.out), flat(out.err)


def flat(text: str) -> str:
    """Printed text with the terminal's line wrapping undone."""
    return " ".join(text.split())


def wilson(k, n, confidence=0.95):
    """The Wilson score interval, from its definition."""
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


# ------------------------------------------------------------------ statistics
def test_wilson_interval_of_7_in_20():
    est = stats.rate(7, 20, 0.95)
    low, high = wilson(7, 20)
    assert est.value == 0.35
    assert est.low == pytest.approx(low, abs=1e-9) and est.high == pytest.approx(high, abs=1e-9)
    assert (round(low, 4), round(high, 4)) == (0.1812, 0.5671)


def test_wilson_interval_at_another_level_and_at_the_edges():
    for k, n, c in ((0, 10, 0.9), (10, 10, 0.99), (3, 1000, 0.95)):
        est = stats.rate(k, n, c)
        assert (est.low, est.high) == pytest.approx(wilson(k, n, c), abs=1e-9)
    assert stats.rate(0, 0, 0.95) is None


def test_t_interval_of_a_mean():
    est = stats.mean([1, 2, 3, 4, 5], 0.95)
    # mean 3, standard error sqrt(2.5 / 5); t with 4 degrees of freedom at 97.5%: 2.7764
    half = 2.776445105197799 * math.sqrt(2.5 / 5)
    assert est.value == 3
    assert (est.low, est.high) == pytest.approx((3 - half, 3 + half), abs=1e-9)
    same = stats.mean([4, 4, 4], 0.95)
    assert (same.value, same.low, same.high) == (4, 4, 4)


def test_newcombe_interval_for_two_rates():
    d = stats.two_rates(30, 50, 20, 50, 0.95)
    l1, u1 = wilson(30, 50)
    l2, u2 = wilson(20, 50)
    expect_low = 0.2 - math.sqrt((0.6 - l1) ** 2 + (u2 - 0.4) ** 2)
    expect_high = 0.2 + math.sqrt((u1 - 0.6) ** 2 + (0.4 - l2) ** 2)
    assert d.value == pytest.approx(0.2)
    assert (d.low, d.high) == pytest.approx((expect_low, expect_high), abs=1e-9)
    # Fisher's exact test on [[30, 20], [20, 30]]: the two-sided p-value is about 0.0713
    assert d.p == pytest.approx(0.0713, abs=5e-4)


def test_welch_difference_matches_its_definition():
    a = [12.0, 15.0, 11.0, 18.0, 14.0, 16.0]
    b = [10.0, 9.0, 13.0, 8.0, 11.0]
    d = stats.two_means(a, b, 0.95)
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1)
    se = math.sqrt(va / len(a) + vb / len(b))
    df = (va / len(a) + vb / len(b)) ** 2 / ((va / len(a)) ** 2 / (len(a) - 1)
                                             + (vb / len(b)) ** 2 / (len(b) - 1))
    from scipy.stats import t as student
    half = student.ppf(0.975, df) * se
    assert d.value == pytest.approx(ma - mb)
    assert (d.low, d.high) == pytest.approx((ma - mb - half, ma - mb + half), abs=1e-9)
    assert d.p == pytest.approx(2 * student.sf((ma - mb) / se, df), abs=1e-9)


def test_a_part_against_the_rest_is_welch_on_the_two_groups():
    """What the report gives each card (the players who played it against the others) is
    worked out from the part alone; it is the Welch comparison of the two groups."""
    rng = random.Random(5)
    scores = [float(rng.randint(0, 40)) for _ in range(300)] + [1e9 + rng.random()
                                                                for _ in range(3)]
    split = stats.Split(scores)
    for size in (2, 5, 50, 298):
        part = sorted(rng.sample(range(len(scores)), size))
        rest = [x for i, x in enumerate(scores) if i not in set(part)]
        want = stats.two_means([scores[i] for i in part], rest, 0.95)
        got = split.part_against_rest(part, 0.95)
        assert (got.value, got.low, got.high) == pytest.approx(
            (want.value, want.low, want.high), rel=1e-9, abs=1e-9)
        assert got.p == pytest.approx(want.p, abs=1e-9)
    assert split.part_against_rest([0], 0.95) is None
    # a rest with no spread and a part with none: the exact case, as two_means has it
    flat = stats.Split([7.0] * 10 + [3.0, 3.0])
    d = flat.part_against_rest([10, 11], 0.95)
    assert (d.value, d.low, d.high, d.p) == (-4.0, -4.0, -4.0, 0.0)
    same = stats.Split([0.1] * 12).part_against_rest([0, 1, 2], 0.95)
    assert (same.value, same.p) == (0.0, 1.0)


def test_paired_difference_and_a_sample_without_spread():
    before = [10, 12, 9, 11, 13]
    after = [12, 15, 10, 12, 16]
    d = stats.paired(after, before, 0.95)
    diffs = [2, 3, 1, 1, 3]
    m = sum(diffs) / 5
    sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / 4)
    half = 2.776445105197799 * sd / math.sqrt(5)
    assert (d.value, d.low, d.high) == pytest.approx((m, m - half, m + half), abs=1e-9)
    same = stats.paired([5, 6, 7], [5, 6, 7], 0.95)
    assert (same.value, same.low, same.high, same.p) == (0, 0, 0, 1.0)
    shifted = stats.paired([6, 7, 8], [5, 6, 7], 0.95)
    assert (shifted.value, shifted.p) == (1, 0.0)


def test_benjamini_hochberg_flags():
    # step-up at 5%: sorted p_(i) <= i/m * 0.05 holds up to i = 4 (0.04 <= 0.04)
    tests = [LabTest(p) for p in (0.04, 0.01, 0.5, 0.03, 0.02)]
    correct([], tests, 0.05)
    assert [t.significant for t in tests] == [True, True, False, True, True]
    assert [t.q for t in tests] == pytest.approx([0.05, 0.05, 0.5, 0.05, 0.05])
    tests = [LabTest(0.001), LabTest(0.2), LabTest(0.3), LabTest(None)]
    correct([], tests, 0.05)
    assert [t.significant for t in tests] == [True, False, False, False]
    assert tests[0].q == pytest.approx(0.003)  # 0.001 * 3 tests / rank 1
    assert tests[3].q is None  # no test, no flag
    # a p-value that is significant alone is not once many tests are made
    tests = [LabTest(0.02)] + [LabTest(0.9) for _ in range(20)]
    correct([], tests, 0.05)
    assert not tests[0].significant


# ------------------------------------------------------------------ reading files
def _line(seed, players=2, **extra):
    rng = random.Random(seed)
    scores = [rng.randint(0, 30) for _ in range(players)]
    best = max(scores)
    line = {"format": 1, "ruleset": {"id": "mini", "name": "Mini", "version": "1",
                                     "content_hash": "abc"},
            "mods": [], "variants": [], "players": players, "seed": seed,
            "agents": ["random"] * players, "scores": scores,
            "winners": [s + 1 for s in range(players) if scores[s] == best],
            "rounds": rng.randint(3, 6), "decisions": rng.randint(20, 40), "error": None,
            "finished": True, "solo_won": None, "ranks": [None] * players,
            "score_parts": [{"cards": s} for s in scores],
            "played": [{"comet": 1} if rng.random() < 0.5 else {} for _ in range(players)],
            "features": [{"flavour": rng.choice(["sweet", "sour"]), "tiles": rng.randint(0, 5)}
                         for _ in range(players)]}
    line.update(extra)
    return line


def _write(path: Path, lines) -> Path:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n"
                            for x in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("bad, message", [
    ("{not json", "not a JSON object"),
    ("[1, 2]", "not a JSON object"),
    (json.dumps(_line(9, format=7)), "results format 7 is not one this Rulebook reads"),
    (json.dumps({k: v for k, v in _line(9).items() if k != "seed"}), "missing field 'seed'"),
    (json.dumps({k: v for k, v in _line(9).items() if k != "winners"}),
     "missing or malformed field 'winners'"),
    (json.dumps(_line(9, scores=[1, 2, 3])), "'scores' lists 3 seats for a 2-player game"),
    (json.dumps(_line(9, players=3, scores=[1, 2, 3], agents=["random"] * 3)),
     "other player count than line 1 (3 here, 2 there)"),
    (json.dumps(_line(9, ruleset={"id": "mini", "content_hash": "other"})),
     "other ruleset content than line 1"),
    (json.dumps(_line(9, mods=[{"id": "m", "file": "m.yaml", "content_hash": "h"}])),
     "other mods than line 1"),
])
def test_bad_lines_get_positioned_errors(tmp_path, capsys, bad, message):
    path = _write(tmp_path / "r.jsonl", [_line(1), bad, _line(3)])
    with pytest.raises(results.ResultsProblem) as info:
        results.read(path)
    assert str(info.value).startswith(f"{path}:2: ")
    assert message in str(info.value)
    code, out, err = run(capsys, "report", path)
    assert code == 1 and f"{path}:2: " in err and "Traceback" not in out + err


def test_error_lines_are_counted_not_analysed_and_a_torn_last_line_is_skipped(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    lines = [_line(s) for s in range(1, 11)]
    lines[3] = {"seed": 4, "players": 2, "agents": ["random"] * 2, "error": "a rule broke",
                "ruleset": lines[0]["ruleset"], "mods": [], "variants": []}
    _write(path, lines)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write('{"seed": 11, "sco')  # an interrupted run
    res = results.read(path)
    assert res.games == 9 and res.errors == [(4, 4, "a rule broke")]
    assert res.skipped == [(11, "the last line is cut short")]
    code, out, _ = run(capsys, "report", path)
    assert code == 0
    assert "1 games stopped on a rule error" in out and "seed 4" in out
    assert "line skipped" in out


def test_older_lines_without_the_new_fields_are_read(tmp_path):
    old = [{k: v for k, v in _line(s).items()
            if k not in ("format", "score_parts", "played", "features", "rounds")}
           for s in range(1, 6)]
    res = results.read(_write(tmp_path / "r.jsonl", old))
    rep = measures.build(res, Names(), 0.95, 10)
    titles = [t.title for t in rep.tables]
    assert "Win rate by seat" in titles and "Cards played" not in titles
    assert "Rounds" not in str([t.rows for t in rep.tables if t.title == "Game length"])


def test_an_empty_or_missing_file(tmp_path, capsys):
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    code, _, err = run(capsys, "report", tmp_path / "empty.jsonl")
    assert code == 1 and "holds no games" in err
    code, _, err = run(capsys, "report", tmp_path / "nothing.jsonl")
    assert code == 2 and "not found" in err


# ------------------------------------------------------------------ the measures
def _table(rep, title) -> Table:
    return next(t for t in rep.tables if t.title.startswith(title))


def test_card_and_feature_measures_on_a_known_file(tmp_path):
    # comet's players always win, the others never: the largest possible effect
    lines = []
    for seed in range(1, 61):
        with_comet = seed % 2  # seat 1 plays it in odd games, seat 2 in even ones
        seat = 0 if with_comet else 1
        scores = [10, 10]
        scores[seat] = 20
        lines.append(_line(seed, scores=scores, winners=[seat + 1],
                           played=[{"comet": 1} if s == seat else {"decomposers": 1}
                                   for s in range(2)]))
    res = results.read(_write(tmp_path / "r.jsonl", lines))
    rep = measures.build(res, Names(), 0.95, 10)
    cards = _table(rep, "Cards played")
    comet = next(r for r in cards.rows if r[0] == "comet")
    assert comet[1] == "60"  # its sample: the player-games that played it
    assert comet[2].startswith("50.0%")  # played in half the player-games
    assert comet[3].startswith("100.0%") and comet[4].startswith("0.0%")
    assert comet[5].startswith("+100.0 points") and comet[6].significant
    assert comet[7].startswith("+10.0") and comet[8].significant
    seats = _table(rep, "Win rate by seat")
    assert [r[3] for r in seats.rows] == ["30", "30"] and not any(r[6].significant
                                                                  for r in seats.rows)
    assert _table(rep, "Win rate by flavour").rows
    assert _table(rep, "Numeric features").rows[0][0] == "tiles"


def test_solo_files_give_the_solo_win_rate_and_titles(tmp_path):
    lines = [_line(s, players=1, scores=[s], winners=[1] if s % 4 == 0 else [],
                   solo_won=s % 4 == 0, ranks=["Gold" if s % 4 == 0 else "Bronze"],
                   played=[{}], features=[{}], score_parts=[{"cards": s}])
             for s in range(1, 21)]
    res = results.read(_write(tmp_path / "r.jsonl", lines))
    rep = measures.build(res, Names(), 0.95, 10)
    solo = _table(rep, "Solo win rate")
    assert solo.rows[0][4].startswith("25.0%")
    titles = _table(rep, "Titles earned")
    assert {r[0]: r[1] for r in titles.rows} == {"Bronze": "15", "Gold": "5"}


# ------------------------------------------------------------------ output files
def without_own_script(text: str) -> str:
    """The page less its one script, which must be the page's own, inline (no ``src``),
    word for word; whatever else says ``<script`` came from a name."""
    from rulebook_games.lab.page import _SCRIPT
    own = f"<script>{_SCRIPT}</script>"
    assert text.count(own) == 1
    return text.replace(own, "")


def test_html_is_self_contained_and_escapes_hostile_names(tmp_path, capsys):
    hostile = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'
    rules = tmp_path / "mini"
    shutil.copytree(MINI, rules)
    cards = rules / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "name: Comet", f"name: {json.dumps(hostile)}", 1), encoding="utf-8")
    lines = [_line(s, played=[{"comet": 1}, {"<b>bold</b>": 1}]) for s in range(1, 31)]
    path = _write(tmp_path / "r.jsonl", lines)
    page, png = tmp_path / "out" / "report.html", tmp_path / "plots"
    code, out, err = run(capsys, "report", path, "--ruleset", rules, "--html", page,
                         "--png", png)
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    assert 'src="data:image/png;base64,' in text
    text = without_own_script(re.sub(r'src="data:image/png;base64,[^"]*"', "", text))
    assert "http" not in text.lower() and "<script" not in text and "<link" not in text
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img" in text
    assert "&lt;b&gt;bold&lt;/b&gt;" in text and "<b>" not in text
    drawn = sorted(p.name for p in png.iterdir())
    for name in ("scores_by_seat.png", "score_parts.png", "lengths.png", "seat_rates.png",
                 "top_items.png"):
        assert name in drawn
        assert (png / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_names_come_from_the_ruleset_and_a_missing_one_is_said_once(tmp_path, capsys):
    path = _write(tmp_path / "r.jsonl", [_line(s) for s in range(1, 11)])
    code, out, _ = run(capsys, "report", path, "--ruleset", MINI)
    assert code == 0 and "Comet" in out and "comet" not in out
    assert out.count("another content hash") == 1
    lost = [_line(s, ruleset={"id": "no_such_game", "content_hash": "abc"})
            for s in range(1, 11)]
    code, out, _ = run(capsys, "report", _write(tmp_path / "lost.jsonl", lost))
    assert code == 0 and out.count("showing ids") == 1 and "comet" in out


# every shipped ruleset with two players, and a solo file
SIMULATED = [(game, 2, 3) for game in shipped_rulesets()] + [("timespan", 1, 3)]


@pytest.mark.slow
@pytest.mark.parametrize("game, players, games", SIMULATED,
                         ids=[f"{g}-{p}p" for g, p, _ in SIMULATED])
def test_report_on_real_simulated_games(tmp_path, capsys, game, players, games):
    path = tmp_path / "r.jsonl"
    code, _, err = run(capsys, "simulate", game, "-n", games, "-p", players, "--out", path)
    assert code == 0, err
    code, out, err = run(capsys, "report", path, "--top", 5)
    assert code == 0, err
    assert "Traceback" not in out + err and "showing ids" not in out
    rs = load_ruleset(game)
    res = results.read(path)
    rep = measures.build(res, Names(rs), 0.95, 5)
    titles = [t.title for t in rep.tables]
    assert ("Solo win rate" if players == 1 else "Win rate by seat") in titles
    assert "Scores" in titles and "Game length" in titles
    played = [t for t in rep.tables if t.title == "Cards played"]
    assert played and played[0].rows
    for row in played[0].rows:  # a card is shown by its name
        assert row[0] not in rs.cards and row[0] in {e.get("name") for e in rs.cards.values()}
    shown = [r[0] for r in _table(rep, "Scores").rows]
    for entry in res.parts:  # a scoring entry too
        assert rs.sections["scoring"][entry].get("name") in shown
    assert ("Solo win rate" if players == 1 else "Win rate by seat") in out


def test_without_the_report_extra_a_one_line_hint(tmp_path, capsys, monkeypatch):
    import sys
    path = _write(tmp_path / "r.jsonl", [_line(1), _line(2)])
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    code, out, err = run(capsys, "report", path)
    assert code == 2 and "pip install 'rulebook-games[report]'" in err
    assert "Traceback" not in out + err and len(err.splitlines()) == 1


def test_help_and_play_never_import_the_lab_libraries():
    import subprocess
    import sys
    probe = ("import sys\nfrom rulebook_games.cli import main\n"
             "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('scipy', 'matplotlib', 'numpy') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip().endswith("[]")
