"""What ``validate`` checks: its PATHs turned into rulesets, each with the mods to layer on it.

A PATH may be a folder (walked for rulesets and mods), a manifest, a shipped
ruleset's name, any rule file (its ruleset is checked) or a mod (checked
against the ruleset its ``target:`` names). Each ruleset is checked alone and
each mod on its ruleset alone, so a mod never hides a ruleset's errors
(:func:`rulesets_to_check`). A PATH that cannot be checked
becomes an ``Uncheckable`` with the positioned errors that say why. Imports
the base modules, ``options``, ``loading`` and the loader's light readers
(``load.tree``, ``load.walk``, and ``load.modtarget``, which finds the ruleset
a mod is for), which import no YAML parser until a file is read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import click

from .loading import no_such_ruleset
from ..errors import Diagnostic
from ..paths import RULESET_FILE, find_ruleset
from ..span import SealedSpan
from ..load.tree import is_inside, tree_of
from ..load.modtarget import Repository, mod_target, ruleset_of


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


_ruleset_of = ruleset_of


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
    """What to load, in order: each ruleset with the mods to layer on it, each check once.

    A linter checks each thing in its own right. Every ruleset named or found
    is checked alone, so that no mod can hide its errors (a mod that removes a
    broken card would); every mod named or found is checked layered on its
    target alone, one mod at a time (the mods of a folder are alternatives a
    group picks from, and two may change one card differently). The ``--mod``
    files are the one combination asked for: layered together, in order, on
    each ruleset named or found, besides that ruleset alone. The checks of one
    ruleset come together, the ruleset alone first.
    """
    by_target: dict[str | Uncheckable, list[tuple[str, ...]]] = {}

    def add(target: str | Uncheckable, mod_list: tuple[str, ...] = ()):
        checks = by_target.setdefault(target, [])
        if mod_list not in checks:
            checks.append(mod_list)

    paths = _expand_folders(paths or (".",))  # no PATH: the current folder, as ruff does
    named = _named_rulesets(paths)
    repository = _Repository()
    for raw in paths:
        p = Path(raw)
        if _links_out(p):
            add(Uncheckable(raw, (Diagnostic(
                "RB405", "this file is a link to a place outside the folder rulebook runs "
                "in; it is not read", SealedSpan(raw, 1, 1)),)))
            continue
        manifest = find_ruleset(raw)
        if p.is_file() and p.name != RULESET_FILE:
            kind = _kind_of(p)
            if kind == "mod":
                found = _mod_target(p, raw, named, repository)
                add(found, () if isinstance(found, Uncheckable) else (raw,))
                continue
            if kind != "ruleset":
                manifest = _ruleset_of(p)
                if manifest is None:
                    if kind is None:
                        # not a rule file (e.g. a CI workflow seen by a pre-commit hook)
                        continue
                    add(f"orphan:{raw}")
                    continue
        if manifest is None:
            if not p.exists():
                raise no_such_ruleset(raw)
            add(f"special:{raw}")  # (a folder was walked: it is not here)
            continue
        add(str(manifest))
        if mods:
            add(str(manifest), tuple(mods))
    return [(target, list(mod_list)) for target, checks in by_target.items()
            for mod_list in sorted(checks, key=bool)]  # the ruleset alone first


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


def _named_rulesets(paths) -> dict[str, list[str]]:
    """Ruleset id → its manifests, for each ruleset given (or found) as a PATH: a folder, a
    manifest, or a rule file of the ruleset (the same ruleset once, however it is named)."""
    out: dict[str, list[str]] = {}
    seen: set[str] = set()
    for raw in paths:
        p = Path(raw)
        if p.is_dir() or p.name == RULESET_FILE:
            manifest = find_ruleset(raw)
        elif p.is_file() and _kind_of(p) not in ("mod", None):
            manifest = _ruleset_of(p)
        else:
            continue
        ruleset_id = _top_level_value(manifest, "id") if manifest else None
        if ruleset_id and os.path.realpath(manifest) not in seen:
            seen.add(os.path.realpath(manifest))
            out.setdefault(ruleset_id, []).append(str(manifest))
    return out


_Repository = Repository


def _mod_target(path: Path, raw: str, named: dict[str, list[str]],
                repository: Repository) -> str | Uncheckable:
    """The manifest of the ruleset a mod's ``target:`` names, or the errors that say why
    not (:func:`rulebook_games.load.modtarget.mod_target`)."""
    manifest, diagnostics = mod_target(path, raw, named, repository)
    return manifest if manifest is not None else Uncheckable(raw, diagnostics)
