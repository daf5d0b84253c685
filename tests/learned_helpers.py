"""Shared by the tests of learned weights: a ruleset copied without its weights, a
weights file's data written by hand (every feature's value given, no scaling), and
positions of a random game to read features at."""

import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def copy_ruleset(tmp_path, name="lantern_row") -> Path:
    """A copy of a shipped ruleset with no learned weights, its mods' included."""
    dest = tmp_path / name
    shutil.copytree(ROOT / "rulesets" / name, dest)
    (dest / "learned.json").unlink(missing_ok=True)
    for p in (dest / "mods").glob("*.learned.json"):
        p.unlink()
    return dest


def weights(rs, features: dict, intercept=0.0, late=None, **extra) -> dict:
    """A weights file's data for ``rs`` valuing each feature as ``features`` says."""
    names = list(features)
    data = {"format": 1, "ruleset": rs.id, "ruleset_hash": rs.content_hash, "mods": [],
            "target": "margin", "features": names, "weights": [features[n] for n in names],
            "late_weights": [(late or {}).get(n, 0.0) for n in names],
            "intercept": intercept, "mean": [0.0] * len(names), "scale": [1.0] * len(names),
            "rounds": 10, "games": 0, "seed": 0, "agent": "test"}
    data.update(extra)
    return data


def ruleset_with_search(tmp_path, search=None):
    """Lantern Row copied with a weights file of one feature whose ``search`` settings
    are ``search`` (none when None), loaded."""
    from rulebook_games import load_ruleset
    root = copy_ruleset(tmp_path)
    rs = load_ruleset(root)
    extra = {"search": search} if search is not None else {}
    (root / "learned.json").write_text(json.dumps(weights(rs, {"round": 0.0}, **extra)))
    return load_ruleset(root)


def random_positions(name: str, seed: int, players: int = 2, every: int = 7):
    """Copies of a random game of a shipped ruleset at every ``every``-th decision,
    each with the seat asked there."""
    from rulebook_games import load_ruleset
    from rulebook_games.agents.base import RandomAgent
    from rulebook_games.engine.infosets import copy_game
    from rulebook_games.play.session import build_game, run
    rs = load_ruleset(name)
    game = build_game(rs, players, seed, ["random"] * players, ())
    game.keep_log = False
    found, count = [], [0]

    class Watch(RandomAgent):
        def decide(self, decision, view, g):
            count[0] += 1
            if count[0] % every == 0:
                found.append((copy_game(g), decision.player))
            return super().decide(decision, view, g)
    game.agents = [Watch(s + 1) for s in range(players)]
    run(game)
    return rs, found
