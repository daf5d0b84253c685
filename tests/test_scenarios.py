"""Every scenario file of every shipped ruleset, collected as pytest tests."""

from __future__ import annotations


import pytest

from rulebook_games import load_ruleset
from rulebook_games.scenarios.files import discover, load_scenarios, run_scenario
from rulebook_games.errors import Diagnostics
from rulebook_games.load.ruleset import shipped_rulesets

_CACHE: dict = {}


def _ruleset(name):
    if name not in _CACHE:
        _CACHE[name] = load_ruleset(name)
    return _CACHE[name]


def collect():
    out = []
    for name in shipped_rulesets():
        rs = _ruleset(name)
        for path in discover(rs):
            diags = Diagnostics()
            scenarios = load_scenarios(rs, path, diags)
            if diags:
                out.append(pytest.param(name, path, None, diags,
                                        id=f"{name}/{path.name}:load"))
            for sc in scenarios:
                out.append(pytest.param(name, path, sc, None, id=f"{name}/{sc.id}"))
    return out


CASES = collect()


def test_every_playable_ruleset_has_scenarios():
    names = {c.values[0] for c in CASES}
    assert "legacy_gears_of_time" in names


@pytest.mark.parametrize("name, path, scenario, diags", CASES)
def test_scenario(name, path, scenario, diags):
    if diags is not None:
        pytest.fail("\n".join(d.headline() for d in diags))
    outcome = run_scenario(_ruleset(name), scenario)
    assert outcome.passed, f"{outcome.span}: {outcome.message}"
