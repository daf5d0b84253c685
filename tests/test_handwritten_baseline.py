"""The hand-written Legacy baseline of the benchmarks still plays the ruleset's game.

``benchmarks/handwritten_legacy.py`` is the yardstick the interpreter's speed is
measured against (``bench_engine.py --baseline``); a yardstick that drifted
away from the ruleset would make the ratio meaningless. So a few games of it
must reach the end with sane results, ask about as many decisions per game as
Rulebook does on the same seeds, and in fact play the same games (it is
seeded like Rulebook's random agents). No timing is measured or asserted here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.play.session import build_game, run

ROOT = Path(__file__).resolve().parents[1]
SEEDS = range(1, 4)
COUNTS = (2, 3, 4)


@pytest.fixture(scope="module")
def handwritten():
    spec = importlib.util.spec_from_file_location(
        "handwritten_legacy", ROOT / "benchmarks" / "handwritten_legacy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def games(handwritten):
    """(players, seed) -> (Rulebook's result, the hand-written result)."""
    rs = load_ruleset("legacy_gears_of_time")
    data = handwritten.RulesetData(str(ROOT / "rulesets" / "legacy_gears_of_time"))
    out = {}
    for players in COUNTS:
        for seed in SEEDS:
            game = build_game(rs, players, seed, ["random"] * players)
            game.keep_log = False
            out[players, seed] = (run(game), handwritten.play_game(data, players, seed))
    return out


def test_baseline_games_reach_the_end(games):
    for (players, seed), (_, hand) in games.items():
        assert hand["rounds"] == 4, (players, seed)
        assert len(hand["scores"]) == players
        assert all(score >= 0 for score in hand["scores"])
        assert sum(hand["scores"]) > 0, (players, seed)  # something was scored
        assert len(hand["winners"]) == 1  # the tie-breaks always separate the players
        assert hand["scores"][hand["winners"][0]] == max(hand["scores"])


def test_baseline_asks_as_many_decisions_as_rulebook(games):
    for players in COUNTS:
        ours = sum(games[players, s][1]["decisions"] for s in SEEDS) / len(SEEDS)
        theirs = sum(games[players, s][0].decisions for s in SEEDS) / len(SEEDS)
        assert 0.9 * theirs <= ours <= 1.1 * theirs, (players, ours, theirs)
        assert ours > 100 * players / 2  # a real game, not one that stopped early


def test_baseline_plays_the_same_games_as_rulebook(games):
    # when this fails after a change to the ruleset's rules, benchmarks/handwritten_legacy.py
    # needs the same change
    for (players, seed), (rulebook, hand) in games.items():
        assert (hand["scores"], hand["winners"], hand["decisions"]) == \
            (rulebook.scores, rulebook.winners, rulebook.decisions), (players, seed)


def test_baseline_refuses_card_effects_it_does_not_implement(handwritten, tmp_path):
    # a ruleset whose cards carry an effect block the baseline has no hand-written
    # version of is refused, rather than played without it
    source = ROOT / "rulesets" / "legacy_gears_of_time"
    for path in source.rglob("*.yaml"):
        target = tmp_path / path.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text(encoding="utf-8")
        if path.name == "technologies.yaml":
            line = ("    fields: {points: 2, prerequisites: [basic_science], "
                    "earliest_frame: 2}\n")
            assert line in text  # Mathematics's fields, the first such line
            text = text.replace(line, line + "    blocks:\n"
                                "      completion: draw(1, deck, hand)\n", 1)
        target.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="mathematics"):
        handwritten.RulesetData(str(tmp_path))
