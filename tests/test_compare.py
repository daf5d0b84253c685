"""rulebook compare: paired games with and without mods, and the calibration the issue asks for.

Calibration: a mod that changes nothing must show no significant change in
at least 95% of the measures, and so must two runs of the same rules on
different seeds (an A/A comparison: the statistics themselves, not only
identical games, keep quiet when nothing changed); a mod with a large known
effect (doubling one card's points) must be found in the measure it
changes. Legacy with random agents is the quickest ruleset to play, so the
whole module plays about 900 games.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_games.cli import main
from rulebook_games.lab import commands, paired, results
from rulebook_games.lab.names import Names

pytestmark = pytest.mark.xdist_group("compare")

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures" / "lab"
GAME = "legacy_gears_of_time"
CALIBRATION_GAMES = 200


def run(capsys, *args):
    with pytest.raises(SystemExit) as info:
        main([str(a) for a in args])
    out = capsys.readouterr()
    return info.value.code, " ".join(out.out.split()), " ".join(out.err.split())


def _quiet_share(cmp) -> float:
    tested = [t for t in cmp.tests if t.p is not None]
    return sum(1 for t in tested if not t.significant) / len(tested)


@pytest.fixture(scope="module")
def noop(tmp_path_factory):
    """The no-op mod compared over the calibration games, run once for the module."""
    folder = tmp_path_factory.mktemp("noop")
    base, mod = folder / "base.jsonl", folder / "mod.jsonl"
    capture = pytest.MonkeyPatch()
    import io
    import sys
    out = io.StringIO()
    capture.setattr(sys, "stdout", out)
    try:
        with pytest.raises(SystemExit) as info:
            main(["compare", GAME, "--mod", str(FIXTURES / "noop_legacy.yaml"),
                  "-n", str(CALIBRATION_GAMES), "-p", "3", "--no-check",
                  "--out-base", str(base), "--out-mod", str(mod)])
    finally:
        capture.undo()
    assert info.value.code == 0
    return base, mod, " ".join(out.getvalue().split())


@pytest.mark.slow
def test_a_mod_that_changes_nothing_shows_no_significant_change(noop):
    base_path, mod_path, out = noop
    base, mod = results.read(base_path), results.read(mod_path)
    pairs = paired.pairs_by_seed(base, mod)
    assert len(pairs) == CALIBRATION_GAMES
    cmp = paired.build(base, mod, pairs, Names(), 0.95)
    assert len([t for t in cmp.tests if t.p is not None]) > 100  # cards, seats, scores...
    assert _quiet_share(cmp) >= 0.95
    tested = len([t for t in cmp.tests if t.p is not None])
    assert f"No significant change in {tested} measures." in out
    assert f"{CALIBRATION_GAMES} paired games" in out and "Same number of rounds" in out


@pytest.mark.slow
def test_two_runs_of_the_same_rules_on_other_seeds_show_no_significant_change(
        noop, tmp_path, capsys):
    base_path, _, _ = noop
    other = tmp_path / "other.jsonl"
    code, _, err = run(capsys, "simulate", GAME, "-n", CALIBRATION_GAMES, "-p", 3,
                       "--seed", 100_001, "--no-check", "--out", other)
    assert code == 0, err
    a, b = results.read(base_path), results.read(other)
    pairs = list(zip(range(a.games), range(b.games)))  # paired by order, not by seed
    cmp = paired.build(a, b, pairs, Names(), 0.95)
    share = _quiet_share(cmp)
    print(f"A/A calibration: {share:.1%} of {len(cmp.tests)} measures not significant")
    assert share >= 0.95


@pytest.mark.slow
def test_a_card_worth_twice_its_points_is_found(tmp_path, capsys):
    page = tmp_path / "compare.html"
    code, out, err = run(capsys, "compare", GAME, "--mod", FIXTURES / "double_fire.yaml",
                         "-n", 100, "-p", 3, "--no-check", "--html", page, "--png",
                         tmp_path / "plots", "--out-base", tmp_path / "b.jsonl",
                         "--out-mod", tmp_path / "m.jsonl")
    assert code == 0, err
    base, mod = results.read(tmp_path / "b.jsonl"), results.read(tmp_path / "m.jsonl")
    from rulebook_games import load_ruleset
    rs = load_ruleset(GAME, [str(FIXTURES / "double_fire.yaml")])
    cmp = paired.build(base, mod, paired.pairs_by_seed(base, mod), Names(rs), 0.95)
    scores = next(t for t in cmp.tables if t.title == "Scores")
    mean = next(r for r in scores.rows if r[0] == "Mean score")
    assert mean[4].significant and mean[3].startswith("+")
    assert any(v.startswith("Mean score") and "higher" in v for v in cmp.verdicts)
    assert "Mean score" in out and "higher" in out
    text = page.read_text(encoding="utf-8")
    assert 'src="data:image/png;base64,' in text and "http" not in text.lower()
    assert "Double Fire" in text and "Verdict" in text
    assert (tmp_path / "plots" / "changes.png").is_file()


def test_a_bonus_for_everyone_is_said_in_words(tmp_path, capsys):
    code, out, err = run(capsys, "compare", GAME, "--mod", FIXTURES / "bonus_legacy.yaml",
                         "-n", 8, "-p", 2, "--no-check")
    assert code == 0, err
    assert "Mean score 10.0 higher (± 0.0)" in out
    assert "Technologies: 10.0 points more per player" in out
    assert "Ten-point bonus" in out


def test_a_shipped_house_rule_by_name(tmp_path, capsys):
    from rulebook_games.paths import find_ruleset
    root = find_ruleset(GAME).parent
    assert commands.find_mod("three_rounds", root) == root / "mods" / "three_rounds.yaml"
    for outside in ("../ruleset", "../../README", "/etc/passwd", "mods/three_rounds"):
        assert commands.find_mod(outside, root) is None or Path(outside).is_file()
    code, _, err = run(capsys, "compare", GAME, "--mod", "no_such_rule", "-n", 2)
    assert code == 2
    assert "neither a file nor one of Legacy: Gears of Time's house rules" in err
    assert "three_rounds" in err
    code, out, err = run(capsys, "compare", GAME, "--mod", "three_rounds", "-n", 4, "-p", 2,
                         "--no-check")
    assert code == 0, err
    assert "Three rounds" in out and "Games are 1.0 rounds shorter" in out


def test_bad_options_are_usage_errors(capsys):
    code, _, err = run(capsys, "compare", GAME, "--mod", FIXTURES / "noop_legacy.yaml",
                       "-n", 4, "-p", 9)
    assert code == 2 and "2–4 players" in err
    code, _, err = run(capsys, "compare", GAME, "--mod", FIXTURES / "noop_legacy.yaml",
                       "--agents", "human")
    assert code == 2 and "AI agents only" in err
    code, _, err = run(capsys, "compare", "no_such_game", "--mod", "x")
    assert code == 2 and "neither a file, a directory nor a shipped ruleset" in err
