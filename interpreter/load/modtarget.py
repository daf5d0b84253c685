"""The ruleset a mod is for: its ``target:`` id, looked up the same way everywhere.

``rulebook validate`` (a mod named as a file or found in a folder) and the
pytest plugin (a mod's scenario files) both find a mod's ruleset here: the
ruleset the mod lies in, then rulesets named in the same command, then the
rulesets of the repository (the current folder and below), then the shipped
ones. A target is an id, never a path, so a mod cannot make a command read
files of its choosing. Imports the base modules and the light readers of
``load`` (``yamlload``, ``walk``), which import no YAML parser until a file is read.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import Diagnostic, Diagnostics, suggest
from ..paths import RULESET_FILE, find_ruleset, shipped_rulesets
from .walk import top_level_value
from .yamlload import load_yaml


def ruleset_of(path: Path) -> Path | None:
    """The manifest of the ruleset a rule file belongs to (walking up the directories).

    The folders are the ones the path names, not where a link in it leads: a
    link does not move a file into another ruleset.
    """
    path = Path(os.path.abspath(path))
    for parent in [path.parent, *path.parent.parents]:
        if (parent / RULESET_FILE).is_file():
            return parent / RULESET_FILE
    return None


class Repository:
    """The rulesets of the repository a command runs in (the current folder and below,
    walked as a folder PATH is), by id; walked once, when a mod first needs it."""

    def __init__(self):
        self._by_id: dict[str, list[str]] | None = None

    def get(self, ruleset_id: str) -> list[str]:
        if self._by_id is None:
            from ..load.walk import TooLarge, rule_files_below
            self._by_id = {}
            try:
                found = rule_files_below(".", mods=False)
            except TooLarge:  # too large to walk: only PATHs and shipped rulesets are known
                found = []
            for manifest, _ in found:
                key = top_level_value(Path(manifest), "id")
                if key:
                    self._by_id.setdefault(key, []).append(manifest)
        return self._by_id.get(ruleset_id, [])


def mod_target(path: Path, raw: str, named: dict[str, list[str]],
               repository: Repository) -> tuple[str | None, tuple[Diagnostic, ...]]:
    """The manifest of the ruleset a mod's ``target:`` names (and no errors), or None and
    the errors that say why not.

    The target is a ruleset id, looked up the same way whether the mod is
    named as a file (as pre-commit does) or found in a folder: the ruleset the
    mod file lies in, then the rulesets given as PATHs (a folder, a manifest
    or one of its files, or found in a folder PATH), then the rulesets of the
    repository (the current folder and below, walked as a folder PATH is),
    then the shipped ones. Two rulesets of that id in one place are an error,
    never a choice made silently. A target is never taken as a path, so a mod
    cannot make ``validate`` read files of its choosing. An error points at
    the ``target:`` line.
    """
    diags = Diagnostics()
    doc = load_yaml(path, diags, raw)
    if doc is None:
        return None, tuple(diags)
    target = doc.data.get("target") if isinstance(doc.data, dict) else None
    if target is None:
        return None, (Diagnostic(
            "RB500", "this mod has no 'target:', so there is no ruleset to check it against",
            doc.span(()), hint="add 'target: RULESET_ID', or check it with "
                               "'rulebook validate RULESET --mod FILE'"),)
    if not isinstance(target, str):
        return None, (Diagnostic("RB500", "'target' must be the id of a ruleset",
                                  doc.span(("target",))),)
    enclosing = ruleset_of(path)
    if enclosing is not None and top_level_value(enclosing, "id") == target:
        return str(enclosing), ()
    for where in (named.get(target, []), repository.get(target)):
        if len(where) == 1:
            return where[0], ()
        if where:
            return None, (Diagnostic(
                "RB500", f"this mod targets '{target}', the id of {len(where)} rulesets "
                         f"({', '.join(where)}), so which one it is for is not clear",
                doc.span(("target",)),
                hint=f"move it into the folder of the ruleset it is for, or check it with "
                     f"'rulebook validate path/to/{target} --mod {raw}'"),)
    shipped = shipped_rulesets()
    if target in shipped:
        return str(find_ruleset(target)), ()
    hint = suggest(target, [*shipped, *named]) or (
        f"if it is your own ruleset, give its folder too: rulebook validate "
        f"path/to/{target} {raw}")
    return None, (Diagnostic(
        "RB500", f"this mod targets '{target}', which is neither a shipped ruleset "
                 f"({', '.join(shipped)}), a ruleset given as a PATH, nor one in the "
                 "current folder", doc.span(("target",)), hint=hint),)
