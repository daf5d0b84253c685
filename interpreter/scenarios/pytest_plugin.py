"""A pytest plugin: a repository's own ``pytest`` collects and runs its scenario files.

Installed with Rulebook (the ``pytest11`` entry point ``rulebook``), so a
ruleset or mod repository needs no conftest: ``pytest`` collects every YAML
file of ``kind: scenarios`` in a folder named ``scenarios``, and plays it on
the rules it belongs to:

- ``GAME/scenarios/*.yaml``, where ``GAME/ruleset.yaml`` is beside the folder:
  the ruleset alone, as ``rulebook test GAME`` plays them;
- ``scenarios/NAME.yaml`` beside a mod file ``NAME.yaml`` (a ``kind: mod``
  file in the folder that holds ``scenarios/``): that mod layered on the
  ruleset its ``target:`` names, found as ``rulebook validate`` finds it (the
  ruleset the mod lies in, one of the repository, or a shipped one).

Each scenario is one test, named by its id (so ``-k`` selects by id); a
failure says the ``file:line:col`` of the step that failed and why. A
scenario file, ruleset or mod that does not load is one failing test with
its positioned errors, never a crash of the collection. Nothing is
imported at pytest's start but pytest, this module and the package's light
top (about 50 ms); Rulebook's loader and engine are imported when a
scenario file is first collected. Imports what the ``scenarios`` room may:
``load`` (the rules, and :mod:`~rulebook_games.load.modtarget` for a mod's
ruleset) and the base modules.
``-p no:rulebook`` turns the plugin off (Rulebook's own test suite does, and
runs the shipped rulesets' scenarios itself).
"""

from __future__ import annotations

from pathlib import Path

import pytest

SUFFIXES = (".yaml", ".yml")


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix not in SUFFIXES or file_path.parent.name != "scenarios":
        return None
    from ..load.walk import top_level_value
    if top_level_value(file_path, "kind") != "scenarios":
        return None  # some other YAML file in a folder of that name: not ours
    return ScenarioFile.from_parent(parent, path=file_path)


class ScenarioFile(pytest.File):
    """A scenario file: a test per scenario, played on the rules it belongs to."""

    def collect(self):
        from ..errors import Diagnostics
        from ..scenarios.files import load_scenarios
        rs, problem = _rules_for(self.config, self.path)
        if problem is not None:
            yield ProblemItem.from_parent(self, name="rules", text=problem)
            return
        diags = Diagnostics()
        scenarios = load_scenarios(rs, self.path, diags)
        if diags:
            yield ProblemItem.from_parent(self, name="load", text=_text(diags.sorted()))
        for sc in scenarios:
            yield ScenarioItem.from_parent(self, name=sc.id, ruleset=rs, scenario=sc)


class ScenarioFailed(Exception):
    """A scenario whose check did not hold; its text has the place."""


class ScenarioItem(pytest.Item):
    def __init__(self, *, ruleset, scenario, **kwargs):
        super().__init__(**kwargs)
        self.ruleset, self.scenario = ruleset, scenario

    def runtest(self):
        from ..scenarios.files import run_scenario
        from ..safe_text import visible
        outcome = run_scenario(self.ruleset, self.scenario)
        if not outcome.passed:
            where = f"{outcome.span}: " if outcome.span else ""
            raise ScenarioFailed(visible(f"{where}{outcome.message}", multiline=True))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return f"scenario {self.name} failed\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, self.scenario.span.line - 1, f"scenario {self.name}"


class ProblemItem(pytest.Item):
    """Rules or a scenario file that do not load: one failing test with the errors."""

    def __init__(self, *, text: str, **kwargs):
        super().__init__(**kwargs)
        self.text = text

    def runtest(self):
        from ..safe_text import visible
        raise ScenarioFailed(visible(self.text, multiline=True))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, f"{self.path.name}: {self.name}"


_LOADED = pytest.StashKey[dict]()


def _rules_for(config, path: Path):
    """The loaded rules a scenario file is played on, or None and why there are none."""
    owner = _owner(path)
    if isinstance(owner, str):
        return None, owner
    manifest, mods = owner
    cache = config.stash.setdefault(_LOADED, {})
    key = (manifest, tuple(mods))
    if key not in cache:
        from ..errors import Diagnostics, RulebookError
        from ..load.ruleset import load_ruleset
        try:
            cache[key] = (load_ruleset(manifest, list(mods)), None)
        except RulebookError as exc:
            cache[key] = (None, _text(Diagnostics(exc.diagnostics).sorted()))
    return cache[key]


def _owner(path: Path) -> tuple[str, list[str]] | str:
    """The ruleset manifest and mods a scenario file belongs to, or why it has none."""
    from ..load.walk import top_level_value
    from ..paths import RULESET_FILE
    home = path.parent.parent
    if (home / RULESET_FILE).is_file():
        return str(home / RULESET_FILE), []
    for suffix in SUFFIXES:
        mod = home / f"{path.stem}{suffix}"
        if mod.is_file() and top_level_value(mod, "kind") == "mod":
            from ..load.modtarget import Repository, mod_target
            target, problems = mod_target(mod, str(mod), {}, Repository())
            if target is None:
                return _text(list(problems))
            return target, [str(mod)]
    return (f"{path}: no rules to play these scenarios on: there is no {RULESET_FILE} "
            f"beside the scenarios folder, nor a mod {path.stem}.yaml (a file of kind: mod) "
            "beside it; put the scenarios in a ruleset's scenarios/ folder, or name the file "
            "after the mod it tests")


def _text(diags) -> str:
    """Diagnostics as lines for the test report: ``file:line:col: error[CODE]: …`` and
    the hint under each (the safe_text escapes are added where the text is shown)."""
    lines = []
    for d in diags:
        lines.append(d.headline())
        if d.hint:
            lines.append(f"    = hint: {d.hint}")
    return "\n".join(lines)
