"""What ``validate`` checks: its PATHs turned into rulesets, each with the mods to layer on it.

A PATH may be a folder (walked for rulesets and mods), a manifest, a shipped
ruleset's name, any rule file (its ruleset is checked) or a mod (checked
against the ruleset its ``target:`` names). A PATH that cannot be checked
becomes an ``Uncheckable`` with the positioned errors that say why. Imports
the base modules, ``options``, ``loading`` and the loader's light readers
(``load.tree``, ``load.yamlload``, ``load.walk``), which import no YAML
parser until a file is read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import click

from .loading import no_such_ruleset
from ..errors import Diagnostic, Diagnostics, suggest
from ..paths import RULESET_FILE, find_ruleset, shipped_rulesets
from ..span import SealedSpan
from ..load.tree import is_inside, tree_of
from ..load.yamlload import load_yaml


def _links_out(path: Path) -> bool:
    """A file named in the working folder that is a link to a place outside it.

    pre-commit hands ``validate`` the names of a repository's changed files,
    and a pull request can add a link to anywhere on the machine that runs
    it; such a file is reported, never read.
    """
    here = os.getcwd()
    named = os.path.abspath(path)
    return (os.path.commonpath([named, here]) == here and path.is_file()
            and not is_inside(path, tree_of(Path(here))))


def _ruleset_of(path: Path) -> Path | None:
    """The manifest of the ruleset a rule file belongs to (walking up the directories).

    The folders are the ones the path names, not where a link in it leads: a
    link does not move a file into another ruleset.
    """
    path = Path(os.path.abspath(path))
    for parent in [path.parent, *path.parent.parents]:
        if (parent / RULESET_FILE).is_file():
            return parent / RULESET_FILE
    return None


def _top_level_value(path: Path, key: str) -> str | None:
    """A top-level ``key: value`` of a YAML file, read cheaply before loading it."""
    from ..load.walk import top_level_value
    return top_level_value(path, key)


def _kind_of(path: Path) -> str | None:
    return _top_level_value(path, "kind")


class _OneLine(click.ClickException):
    """A usage error said in one line (no usage text above it), exit 2."""

    exit_code = 2


@dataclass(eq=False, frozen=True)
class Uncheckable:
    """A PATH that cannot be checked, with the positioned errors that say why."""

    name: str
    diagnostics: tuple[Diagnostic, ...]


def rulesets_to_check(paths: tuple[str, ...],
                      mods: tuple[str, ...]) -> list[tuple[str | Uncheckable, list[str]]]:
    """Which rulesets to load, each with the mods to layer on it."""
    plan: dict[str | Uncheckable, list[str]] = {}
    order: list[str | Uncheckable] = []
    paths = _expand_folders(paths or (".",))  # no PATH: the current folder, as ruff does
    named = _named_rulesets(paths)

    def add(target: str | Uncheckable, mod_list: list[str]):
        if target not in plan:
            plan[target] = []
            order.append(target)
        for m in mod_list:
            if m not in plan[target]:
                plan[target].append(m)

    for raw in paths:
        p = Path(raw)
        if _links_out(p):
            add(Uncheckable(raw, (Diagnostic(
                "RB405", "this file is a link to a place outside the folder rulebook runs "
                "in; it is not read", SealedSpan(raw, 1, 1)),)), [])
            continue
        manifest = find_ruleset(raw)
        if p.is_file() and p.name != RULESET_FILE:
            kind = _kind_of(p)
            if kind == "mod":
                found = _mod_target(p, raw, named)
                if isinstance(found, Uncheckable):
                    add(found, [])
                else:
                    add(found, [raw, *mods])
                continue
            if kind != "ruleset":
                manifest = _ruleset_of(p)
                if manifest is None:
                    if kind is None:
                        # not a rule file (e.g. a CI workflow seen by a pre-commit hook)
                        continue
                    add(f"orphan:{raw}", [])
                    continue
        if manifest is None:
            if not p.exists():
                raise no_such_ruleset(raw)
            add(f"special:{raw}", [])  # (a folder was walked: it is not here)
            continue
        add(str(manifest), list(mods))
    return [(t, plan[t]) for t in order]


def _expand_folders(paths) -> list[str]:
    """The PATHs with each folder replaced by the rulesets and mods found in it and below.

    A folder with none below it that lies inside a ruleset (its ``cards/``)
    stands for that ruleset, as a file there does. Any other folder with
    nothing to check is a usage error: a linter that checks nothing must not
    look like one that found nothing wrong.
    """
    from ..load.walk import TooLarge, rule_files_below
    out: list[str] = []
    for raw in paths:
        if not os.path.isdir(raw):
            out.append(raw)
            continue
        try:
            found = rule_files_below(raw)
        except TooLarge as exc:
            raise _OneLine(exc.message) from None
        if not found:  # a folder of a ruleset (its cards/, say) belongs to that ruleset
            enclosing = _ruleset_of(Path(raw) / RULESET_FILE)
            if enclosing is not None:
                out.append(os.path.relpath(enclosing) if not os.path.isabs(raw)
                           else str(enclosing))
                continue
            where = "the current folder" if os.path.abspath(raw) == os.getcwd() else f"'{raw}'"
            raise _OneLine(f"nothing to check in {where}: no {RULESET_FILE} and no mod "
                           "(a YAML file of kind: mod) in it or below, outside hidden folders")
        out.extend(path for path, _ in found)
    return out


def _named_rulesets(paths) -> dict[str, str]:
    """Ruleset id → manifest, for each ruleset given as a directory or a manifest."""
    out: dict[str, str] = {}
    for raw in paths:
        p = Path(raw)
        if p.is_dir() or p.name == RULESET_FILE:
            manifest = find_ruleset(raw)
            ruleset_id = _top_level_value(manifest, "id") if manifest else None
            if ruleset_id:
                out.setdefault(ruleset_id, str(manifest))
    return out


def _mod_target(path: Path, raw: str, named: dict[str, str]) -> str | Uncheckable:
    """The manifest of the ruleset a mod's ``target:`` names, or the error that says why not.

    The target is a ruleset id. It is looked up among the rulesets given as
    PATHs, then the ruleset the mod file lies in, then the shipped ones; never
    as a path, so a mod cannot make ``validate`` read files of its choosing.
    An error points at the ``target:`` line.
    """
    diags = Diagnostics()
    doc = load_yaml(path, diags, raw)
    if doc is None:
        return Uncheckable(raw, tuple(diags))
    target = doc.data.get("target") if isinstance(doc.data, dict) else None
    if target is None:
        return Uncheckable(raw, (Diagnostic(
            "RB500", "this mod has no 'target:', so there is no ruleset to check it against",
            doc.span(()), hint="add 'target: RULESET_ID', or check it with "
                               "'rulebook validate RULESET --mod FILE'"),))
    if not isinstance(target, str):
        return Uncheckable(raw, (Diagnostic("RB500", "'target' must be the id of a ruleset",
                                         doc.span(("target",))),))
    if target in named:
        return named[target]
    enclosing = _ruleset_of(path)
    if enclosing is not None and _top_level_value(enclosing, "id") == target:
        return str(enclosing)
    shipped = shipped_rulesets()
    if target in shipped:
        return str(find_ruleset(target))
    hint = suggest(target, [*shipped, *named]) or (
        f"if it is your own ruleset, give its folder too: rulebook validate "
        f"path/to/{target} {raw}")
    return Uncheckable(raw, (Diagnostic(
        "RB500", f"this mod targets '{target}', which is neither a shipped ruleset "
                 f"({', '.join(shipped)}) nor a ruleset given as a PATH",
        doc.span(("target",)), hint=hint),))

