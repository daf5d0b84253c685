"""Hostile rule files that are merely large: loading must take time in proportion to them.

``validate`` runs in CI on strangers' pull requests, so a card file that
makes it take time growing with the square of its size is a way to stall a
mod repository's checks (issue 24, item 7: 29 s on a 1.4 MB card file, the
whole file split into lines again for every effect). Each case here runs the
real command line on a generated ruleset of 0.2 MB of cards and on one of
2 MB, and compares their CPU times: ten times the input may take at most
25 times as long, so a quadratic path (about 100 times) fails and noise on a
shared machine does not. This is the one place the suite looks at timings,
and only as a generous ratio. The cache is off, so every run loads afresh.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

MINI = Path(__file__).parent / "fixtures" / "mini"
SMALL, LARGE = 200_000, 2_000_000  # bytes of cards
MAX_RATIO = 25


def _card(i: int) -> str:
    """One plain card of about 300 bytes with an effect, a condition, a trigger and points."""
    return (f"  - id: card_{i:05d}\n"
            f"    name: Card {i}\n"
            "    type: active\n"
            f"    cost: {i % 30 + 1}\n"
            "    tags: [plant]\n"
            f"    requires: temperature >= {-30 + 2 * (i % 10)}\n"
            "    play: |\n"
            f"      gain {i % 4 + 1} plants\n"
            "      if stock(heat) >= 2:\n"
            "        lose 2 heat\n"
            "        raise temperature\n"
            "    triggers:\n"
            "      - on: card_played\n"
            "        scope: you\n"
            "        if: has_tag(event.card, plant)\n"
            "        do: add 1 microbes to this\n"
            f"    vp: resources_on(this, microbe) // {i % 3 + 2}\n")


def _misspelt_card(i: int, cards: int) -> str:
    """A card whose effects name things that do not exist, each close to another card's id,
    so every error looks for a 'did you mean' among all the ruleset's names."""
    return (f"  - id: card_{i:05d}\n"
            f"    name: Card {i}\n"
            "    type: active\n"
            "    cost: 3\n"
            "    tags: [plant]\n"
            f"    vp: crad_{i:05d}\n"
            f"    play: gain crad_{(i * 7) % cards:05d} heat\n")


def _ruleset(where: Path, size: int, card) -> Path:
    shutil.copytree(MINI, where)
    with open(where / "components.yaml", "a", encoding="utf-8") as fh:
        fh.write("zones:\n  - {id: hand, scope: player, visibility: owner}\n")
    per = len(card(0, 1))
    cards = size // per
    body = "".join(card(i, cards) for i in range(cards))
    (where / "cards.yaml").write_text("kind: cards\ncards:\n" + body, encoding="utf-8")
    return where


def _cpu_of_validate(ruleset: Path, expect: int) -> float:
    """CPU seconds the real ``rulebook validate`` takes on ``ruleset``, in a fresh process."""
    env = dict(os.environ, RULEBOOK_NO_CACHE="1")
    env.pop("GITHUB_ACTIONS", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "validate", str(ruleset), "-q"],
                          env=env, capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = proc.stdout + proc.stderr
    assert proc.returncode == expect, out[-2000:]
    assert "Traceback" not in out and "internal error" not in out, out[-2000:]
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


@pytest.mark.parametrize("shape, expect", [
    pytest.param(lambda i, n: _card(i), 0, id="valid-cards"),
    pytest.param(_misspelt_card, 1, id="misspelt-names-near-card-ids"),
])
@pytest.mark.slow
def test_item7_validate_time_grows_linearly_with_the_card_file(tmp_path, shape, expect):
    small = _ruleset(tmp_path / "small", SMALL, shape)
    large = _ruleset(tmp_path / "large", LARGE, shape)
    assert (large / "cards.yaml").stat().st_size >= 9 * (small / "cards.yaml").stat().st_size
    t_small = _cpu_of_validate(small, expect)
    t_large = _cpu_of_validate(large, expect)
    assert t_large <= MAX_RATIO * t_small, (
        f"validate took {t_large:.1f} s on 2 MB of cards against {t_small:.1f} s on 0.2 MB: "
        f"{t_large / t_small:.0f} times as long for 10 times the input")


def test_item7_hints_under_the_budget_small_pools_always_large_ones_until_spent():
    """'Did you mean' over thousands of names is what made errors quadratic: inside a load,
    large pools share a budget, small ones (resources, keywords) always give their hint."""
    from rulebook_games.errors import FREE_POOL, suggest, suggestion_budget
    big = [f"card_{i:05d}" for i in range(5000)]
    small = ["plant", "heat", "mc"]
    assert len(small) <= FREE_POOL < len(big)
    with suggestion_budget(12_000):
        assert suggest("card_00012x", big).startswith("did you mean 'card_00012'")
        assert suggest("card_00013x", big, ["you"]).startswith("did you mean 'card_00013'")
        assert suggest("card_00014x", big) is None  # 10,001 compared; 5,000 more do not fit
        for _ in range(1000):
            assert suggest("plants", small) == "did you mean 'plant'?"
    # outside a load there is no budget
    assert suggest("card_00014x", big).startswith("did you mean 'card_00014'")


def _cpu_of(args: list, expect: int) -> float:
    """CPU seconds a real ``rulebook`` command takes, in a fresh process, without the cache."""
    env = dict(os.environ, RULEBOOK_NO_CACHE="1")
    env.pop("GITHUB_ACTIONS", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = proc.stdout + proc.stderr
    assert proc.returncode == expect, out[-2000:]
    assert "Traceback" not in out and "internal error" not in out, out[-2000:]
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


@pytest.mark.slow
def test_a_mods_changes_to_one_entry_are_checked_in_time_linear_in_their_number(tmp_path):
    # each change was checked against every earlier change of the same entry: 40,000
    # patches of one card took a minute. Two mods, so changes are checked across mods too
    tiny = Path(__file__).parent / "fixtures" / "tiny"

    def mods(n: int) -> list:
        made = []
        for name in ("a", "b"):
            path = tmp_path / f"{name}{n}.yaml"
            path.write_text(f"kind: mod\nid: {name}\ntarget: tiny\nchanges:\n" + "".join(
                f"  - {{op: patch, in: cards, id: lamp, value: {{cost: {i % 50}}}}}\n"
                for i in range(n)), encoding="utf-8")
            made += ["--mod", path]
        return made
    # the two mods disagree on the cost, so each load ends in RB501 conflicts (exit 1)
    t_small = _cpu_of(["validate", tiny, *mods(500)], 1)
    t_large = _cpu_of(["validate", tiny, *mods(5000)], 1)
    assert t_large <= MAX_RATIO * t_small, (
        f"{t_large:.1f} s for 10,000 changes against {t_small:.1f} s for 1,000")
