"""Shared by the tests of learned weights: a ruleset copied without its weights, and a
weights file's data written by hand (every feature's value given, no scaling)."""

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
