"""Shell completion of the words a command takes: rulesets, variants, agents and mods.

click completes commands and options by itself once the shell has loaded
its script (``_RULEBOOK_COMPLETE=bash_source rulebook``, ``zsh_source``,
``fish_source``: see the README). What a parameter may hold is completed
here, each function being a click ``shell_complete``:

- :func:`rulesets`: the shipped rulesets' names, and folders (a ruleset of
  your own);
- :func:`paths`: the same, and files (``validate`` takes any rule file);
- :func:`variants`: the variants of the ruleset already typed, with mods
  typed before them layered on (a mod may add one);
- :func:`agents`: the built-in and installed agents, each seat of a
  comma-separated list in turn, and a built-in agent's parameters after a
  colon;
- :func:`mods`: the mods the chosen ruleset keeps in its ``mods/`` folder,
  as paths from the current folder (:func:`mod_names`: by name, for
  ``compare``, which finds a mod by its name), and files.

Completion runs on every Tab, so it must be quick and must never fail
aloud: a ruleset that does not load, or anything else that goes wrong, just
completes nothing. A word from a rule file or a file name that a shell
could not take as one word (a space, a control character) is not offered.
(fish's script is click's, with a value read whole even when it holds a
comma.) Imports click and the base modules only
(``rulebook --help`` loads this); the loader only when variants are asked
for.
"""

from __future__ import annotations

import os
from pathlib import Path

from click.shell_completion import CompletionItem, FishComplete, add_completion_class

from ..paths import find_ruleset, shipped_rulesets


class _Fish(FishComplete):
    """click's fish script, reading each candidate's value whole: click's splits the line
    at every comma, so ``human,greedy`` (the agents of two seats) came back ``human``."""

    source_template = FishComplete.source_template.replace(
        'string split "," $completion', 'string split --max 1 "," $completion')


add_completion_class(_Fish, "fish")  # the script of _RULEBOOK_COMPLETE=fish_source


def _quiet(function):
    """A completion that fails completes nothing (never a traceback in the shell)."""
    def complete(ctx, param, incomplete):
        try:
            return function(ctx, param, incomplete or "")
        except Exception:
            return []
    complete.__doc__ = function.__doc__
    return complete


def _one_word(text: str) -> bool:
    """Text a shell takes as one word, as it is shown (no space, no control character)."""
    from ..safe_text import visible
    return bool(text) and visible(text) == text and not any(c.isspace() for c in text)


def _looks_like_path(text: str) -> bool:
    return os.sep in text or "/" in text or text.startswith(("~", "."))


def _and_paths(items: list, incomplete: str, kind: str) -> list:
    """``items`` with the shell's own completion of paths (``kind``: dir or file) beside
    them. bash's script empties what came before a path item, so there it goes first
    (and bash offers paths when no name matches); zsh's script reads the answer three
    lines at a time and drops an empty line, which a path item with nothing typed yet
    is, so there it goes last, where the lines left still read right."""
    path = CompletionItem(incomplete, type=kind)
    if os.environ.get("_RULEBOOK_COMPLETE", "").startswith("zsh"):
        return [*items, path]
    return [path, *items]


def _names(incomplete: str, kind: str):
    """The shipped rulesets whose names start with what is typed, and paths."""
    items = []
    if not _looks_like_path(incomplete):
        items = [CompletionItem(name) for name in shipped_rulesets()
                 if name.startswith(incomplete)]
    return _and_paths(items, incomplete, kind)


@_quiet
def rulesets(ctx, param, incomplete):
    """A RULESET: a shipped ruleset's name, or a folder."""
    return _names(incomplete, "dir")


@_quiet
def paths(ctx, param, incomplete):
    """A PATH of ``validate``: a shipped ruleset's name, a folder or a rule file."""
    return _names(incomplete, "file")


def _typed(ctx) -> dict:
    """The parameters typed so far. While an option waits for its value (``--variant``
    then Tab) click's parse of the words before it fails and keeps none of them, so
    they are read again without that option."""
    words = list(getattr(ctx.parent, "args", None) or ())
    if any(ctx.params.get(key) for key in ("ruleset", "ruleset_path", "paths")) or not words:
        return ctx.params
    with ctx.command.make_context(ctx.info_name, words[:-1], parent=ctx.parent,
                                  resilient_parsing=True) as again:
        return again.params


def _chosen_ruleset(params) -> Path | None:
    """The manifest of the ruleset the command line names so far (its RULESET,
    ``--ruleset``, or the first PATH of ``validate``), or None."""
    paths = params.get("paths") or ()
    for raw in (params.get("ruleset"), params.get("ruleset_path"), *paths[:1]):
        if isinstance(raw, str) and raw:
            manifest = find_ruleset(raw)
            if manifest is not None and manifest.is_file():
                return manifest
    return None


def _mod_file(raw: str, root: Path) -> Path | None:
    from ..load.tree import is_inside, tree_of
    p = Path(raw)
    if p.is_file():
        return p
    if p.name != raw or raw in (".", ".."):
        return None
    for candidate in (root / "mods" / raw, root / "mods" / f"{raw}.yaml"):
        if candidate.is_file() and is_inside(candidate, tree_of(root)):
            return candidate
    return None


@_quiet
def variants(ctx, param, incomplete):
    """A ``--variant``: the ids of the chosen ruleset's variants, each with its name."""
    params = _typed(ctx)
    manifest = _chosen_ruleset(params)
    if manifest is None:
        return []
    from ..errors import RulebookError
    from ..load.ruleset import load_ruleset
    from ..safe_text import visible
    mod_files = [_mod_file(m, manifest.parent) for m in params.get("mods") or ()]
    try:
        rs = load_ruleset(manifest, [str(m) for m in mod_files if m is not None])
    except RulebookError:
        try:  # a mod that does not load: the ruleset's own variants still complete
            rs = load_ruleset(manifest, [])
        except RulebookError:
            return []
    chosen = set(params.get("variants") or ())
    out = []
    for vid, entry in rs.sections["variants"].items():
        if vid.startswith(incomplete) and vid not in chosen and _one_word(vid):
            name = (getattr(entry, "data", None) or {}).get("name")
            out.append(CompletionItem(vid, help=visible(str(name)) if name else None))
    return out


def _mods_of(ctx, incomplete: str, as_names: bool):
    items = []
    manifest = _chosen_ruleset(_typed(ctx))
    if manifest is None:
        return _and_paths(items, incomplete, "file")
    from ..load.walk import top_level_value
    from ..safe_text import visible
    here = Path.cwd()
    for path in sorted((manifest.parent / "mods").glob("*.yaml")):
        if top_level_value(path, "kind") != "mod":
            continue
        if as_names:
            word = path.stem
        else:  # the file, as a path from here when it lies below the current folder
            full = path.absolute()
            word = str(full.relative_to(here)) if full.is_relative_to(here) else str(full)
        if word.startswith(incomplete) and _one_word(word):
            name = top_level_value(path, "name")
            items.append(CompletionItem(word, help=visible(name) if name else None))
    return _and_paths(items, incomplete, "file")


@_quiet
def mods(ctx, param, incomplete):
    """A ``--mod`` of a command that takes mod files: the files of the chosen ruleset's
    mods (its ``mods/`` folder), as paths from the current folder, or any file."""
    return _mods_of(ctx, incomplete, False)


@_quiet
def mod_names(ctx, param, incomplete):
    """A ``--mod`` of ``compare``, which takes a name too: the names of the chosen ruleset's
    mods, or any file."""
    if _looks_like_path(incomplete):
        return _mods_of(ctx, incomplete, False)
    return _mods_of(ctx, incomplete, True)


@_quiet
def agents(ctx, param, incomplete):
    """An ``--agents`` list: the agent of the seat being typed (after the last comma), or,
    after a built-in agent's name and a colon, one of its parameters."""
    from ..agents.specs import PARAMS, known_names
    before, comma, last = incomplete.rpartition(",")
    head = before + comma
    if ":" in last:  # a parameter of a built-in agent: ismcts:it → ismcts:iterations=
        spec, _, typed = last.rpartition(":")
        name = spec.split(":", 1)[0]
        given = {part.split("=", 1)[0] for part in spec.split(":")[1:]}
        if "=" in typed or name not in PARAMS:
            return []
        return [CompletionItem(f"{head}{spec}:{key}=") for key in PARAMS[name]
                if key.startswith(typed) and key not in given]
    return [CompletionItem(head + name) for name in known_names() if name.startswith(last)]


# What each parameter completes to, by the name every command gives it. A new command
# that names its parameters so completes them too (tests/test_completion.py checks
# that every command's are covered).
BY_PARAMETER = {
    "ruleset": rulesets,
    "ruleset_path": rulesets,
    "paths": paths,
    "variants": variants,
    "agent_spec": agents,
    "mods": mods,
}
# compare finds a mod by its name in the ruleset's mods/ folder too
BY_COMMAND = {("compare", "mods"): mod_names}


def attach(group) -> None:
    """Give the parameters of every command of ``group`` their completion."""
    for command_name, command in group.commands.items():
        for param in command.params:
            complete = BY_COMMAND.get((command_name, param.name)) or BY_PARAMETER.get(param.name)
            if complete is not None and param._custom_shell_complete is None:
                param._custom_shell_complete = complete
