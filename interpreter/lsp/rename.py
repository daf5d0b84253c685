"""Find references, rename, and workspace symbols: a declared name across every file.

A name's uses are found in the text of every file of the project: the
ruleset's own files (its manifest, components, flow, card files, scenarios,
the mods in its folder) and the mods of the editor's workspace folders whose
``target:`` is the ruleset's id, read from the open buffers first. Each
whole-word occurrence is placed the way completion places the cursor
(:func:`~.locate.place_at`), and counted only where it names the thing:

- in effect text, as a name (not after a ``.``, which makes it a field; not
  inside a quoted text such as a ``require``'s reason; not in a comment);
- in a plain value whose key names ids of the name's kind (``tags:`` for a
  tag, ``holds:`` for a card resource, a scenario's zones for a card…);
- as the ``id:`` (or ``plural:``) that declares it, or an ``id:`` a mod's
  change or another entry points at, unless that ``id:`` declares something
  of another kind (a list of tags, say, when a resource is renamed).

Names inside card text (``name:``, ``description:``), other names holding it
(``golds`` for ``gold``, ``crown_jewel`` for ``crown``) and keys are left
alone. A name declared as several kinds at once (a tag and a resource both
called ``gold``) is found wherever it is written, but not renamed: in
effect text Rulebook could not tell which of the two each use means.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..lang.builtins import AGGREGATES, BUILTINS, STATEMENTS
from ..load.userfiles import Unreadable, read_regular
from ..load.yamlload import MAX_FILE_BYTES
from ..span import Span
from .complete import keywords
from .locate import place_at, word_at
from .lookup import SECTIONS
from .project import Project, head_value, norm

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_FILES = 2000  # YAML files looked at in one ruleset's folder
MAX_WORKSPACE_FILES = 5000  # and in the workspace folders, looking for mods


class Refused(Exception):
    """A rename that cannot be made, with the words that say why."""


@dataclass(frozen=True)
class Use:
    file: str  # normalised path
    line: int  # 0-based
    col: int  # 0-based, where the name starts
    length: int


def _read(path: str, overlay: dict[str, str]) -> str | None:
    if path in overlay:
        return overlay[path]
    try:
        raw = read_regular(path, MAX_FILE_BYTES)
    except (Unreadable, OSError, ValueError):
        return None
    return raw[:MAX_FILE_BYTES].decode("utf-8", errors="replace")


def _yaml_below(folder: Path, budget: int) -> list[str]:
    """The .yaml files below ``folder`` (no hidden folders, no links), sorted: a link is
    never followed, so nothing outside the folder is read."""
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                             and not os.path.islink(os.path.join(dirpath, d)))
        for f in sorted(filenames):
            if f.endswith((".yaml", ".yml")) and not f.startswith(".") and \
                    not os.path.islink(os.path.join(dirpath, f)):  # nothing read from elsewhere
                out.append(norm(os.path.join(dirpath, f)))
                if len(out) >= budget:
                    return out
    return out


def project_files(project: Project, overlay: dict[str, str], roots: list[str],
                  ruleset_id: str | None) -> dict[str, str]:
    """Every file of the project, and the workspace's mods of its ruleset: path -> text."""
    out: dict[str, str] = {}
    for path in _yaml_below(project.root, MAX_FILES):
        text = _read(path, overlay)
        if text is not None:
            out[path] = text
    for mod in project.mods:
        text = _read(norm(mod), overlay)
        if text is not None:
            out[norm(mod)] = text
    candidates = set(p for p in overlay if p.endswith((".yaml", ".yml")))
    for root in roots:
        candidates.update(_yaml_below(Path(root), MAX_WORKSPACE_FILES))
    for path in sorted(candidates - set(out)):
        if ruleset_id is None or _mod_target(path, overlay) != ruleset_id:
            continue
        text = _read(path, overlay)
        if text is not None:
            out[path] = text
    return out


HEAD_BYTES = 16 * 1024  # what is read of a workspace file to learn whether it is a mod
_HEADS: dict[str, tuple[tuple[int, int], str | None]] = {}  # path -> (mtime, size), target


def _mod_target(path: str, overlay: dict[str, str]) -> str | None:
    """The ``target:`` of a file that says ``kind: mod``, else None; a file on disk is read
    (its head only) once for each time it changes."""
    if path in overlay:
        text = overlay[path]
        return head_value(text, "target") if head_value(text, "kind") == "mod" else None
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    stamp = (st.st_mtime_ns, st.st_size)
    kept = _HEADS.get(path)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    try:
        raw = read_regular(path, HEAD_BYTES)[:HEAD_BYTES].decode("utf-8", errors="replace")
    except (Unreadable, OSError, ValueError):
        raw = ""
    target = head_value(raw, "target") if head_value(raw, "kind") == "mod" else None
    if len(_HEADS) > 4 * MAX_WORKSPACE_FILES:
        _HEADS.clear()
    _HEADS[path] = (stamp, target)
    return target


def kinds_of(rs, name: str) -> list[str]:
    """The kinds of thing ``name`` is declared as in the ruleset (card, resource, …)."""
    found = [sym.kind for sym in rs.table.candidates(name)]  # a plural: its own kind only
    found += [kind for section, kind in SECTIONS.items() if name in rs.sections.get(section, {})]
    if name in rs.cards:
        found.append("card")
    return list(dict.fromkeys(found))


def _section_kinds(rs) -> dict[str, set[str]]:
    """Which kinds of thing the entries of each declaring list (by its key) are."""
    out: dict[str, set[str]] = {}
    for syms in rs.table.overloads.values():
        for sym in syms:
            out.setdefault(sym.kind + "s", set()).add(sym.kind)
    for section, kind in SECTIONS.items():
        out.setdefault(section, set()).add(kind)
    out.setdefault("cards", set()).add("card")
    out.setdefault("procedures", set()).add("procedure")
    out.setdefault("functions", set()).add("function")
    out.setdefault("scenarios", set()).add("scenario")
    return out


def _in_text(line: str, value_start: int, col: int) -> bool:
    """Whether ``col`` lies inside a double-quoted text of effect code on ``line``."""
    before = line[value_start:col]
    stripped = before.lstrip()
    if stripped.startswith('"'):  # the YAML value itself is quoted: that quote is YAML's
        stripped = stripped[1:]
    return stripped.replace('\\"', "").count('"') % 2 == 1


def uses(rs, files: dict[str, str], name: str, kinds: list[str]) -> list[Use]:
    """Every place in ``files`` where ``name`` names the thing of ``kinds``."""
    sections = _section_kinds(rs)
    wanted = set(kinds)
    plural_kinds = {"resource", "card_resource"}
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
    out: list[Use] = []
    for path in sorted(files):
        text = files[path]
        if name not in text:
            continue
        lines = text.split("\n")
        memo: dict = {}
        for i, line in enumerate(lines):
            if name not in line or line.lstrip().startswith("#"):
                continue
            for m in word.finditer(line):
                col = m.start()
                if _counts(text, lines, memo, i, col, line, wanted, sections, plural_kinds):
                    out.append(Use(path, i, col, len(name)))
    return out


def _counts(text, lines, memo, i, col, line, wanted, sections, plural_kinds) -> bool:
    place = place_at(text, i, col, lines, memo)
    if place.key is None:
        return False  # a key, a comment, or text outside any value
    if place.in_effect:
        if col > 0 and line[:col].rstrip().endswith("."):
            return False  # a field
        start = line.find(place.key + ":") + len(place.key) + 1 if place.key_line == i else 0
        return not _in_text(line, max(start, 0), col)
    if place.value_kinds:
        return bool(wanted & set(place.value_kinds))
    if place.key == "id" or (place.key == "plural" and wanted & plural_kinds):
        declared = set()
        for parent in place.parents[:2]:
            if parent in sections:
                declared = sections[parent]
                break
        return not declared or bool(declared & wanted)
    return False


def check_new_name(rs, old: str, new: str) -> None:
    """Raise :class:`Refused` when ``new`` cannot be the name of what ``old`` names."""
    if not NAME.match(new or ""):
        raise Refused(f"'{new}' is not a name: a name is letters, digits and underscores, "
                      "starting with a letter or an underscore (such as heat_wave)")
    if new == old:
        raise Refused(f"the name is already '{new}'")
    if new in keywords() or new in STATEMENTS:
        raise Refused(f"'{new}' is a word of the effect language, so it cannot be a name")
    if new in BUILTINS or new in AGGREGATES:
        raise Refused(f"'{new}' is a builtin of the effect language, so it cannot be a name")
    taken = kinds_of(rs, new)
    if taken:
        what = " and a ".join(k.replace("_", " ") for k in taken)
        raise Refused(f"'{new}' is already the name of a {what} in this ruleset: "
                      "choose another name")


def renamable(rs, text: str, line: int, col: int) -> tuple[str, list[str], int]:
    """The name at the cursor, its kinds and where it starts; :class:`Refused` if none."""
    name = word_at(text, line, col)
    if not name:
        raise Refused("there is no name here to rename")
    if rs is None:
        raise Refused("this file's ruleset has not been loaded (fix its errors first)")
    kinds = kinds_of(rs, name)
    if not kinds:
        if name in STATEMENTS or name in keywords() or name in BUILTINS or name in AGGREGATES:
            raise Refused(f"'{name}' is a word of the effect language, not a name the ruleset "
                          "declares")
        raise Refused(f"'{name}' is not declared in this ruleset, so there is nothing to rename")
    start = text.split("\n")[line].find(name, max(0, col - len(name)))
    return name, kinds, start


def refuse_ambiguous(name: str, kinds: list[str]) -> None:
    if len(kinds) > 1:
        what = " and a ".join(k.replace("_", " ") for k in kinds)
        raise Refused(f"'{name}' names a {what}: Rulebook cannot tell which one each use in "
                      "effect text means, so it does not rename it; rename one of the "
                      "declarations by hand first")


# ----------------------------------------------------------------- workspace symbols
def symbols(rs, query: str, limit: int = 500) -> list[tuple[str, str, str, Span | None]]:
    """(name, kind, detail, place) of the ruleset's cards (by name and id), resources,
    procedures, functions, actions, phases and the other declared names that match
    ``query`` (its letters in order, case aside; every one when it is empty)."""
    q = query.lower()

    def fits(*texts: str) -> bool:
        if not q:
            return True
        for t in texts:
            it = iter(t.lower())
            if all(ch in it for ch in q):
                return True
        return False

    out: list[tuple[str, str, str, Span | None]] = []
    seen = set()
    for ident, entry in rs.cards.items():
        data = entry.data if isinstance(entry.data, dict) else {}
        shown = str(data.get("name", ident))
        if fits(shown, ident):
            out.append((shown, "card", ident, _span(entry)))
            seen.add(("card", ident))
    for name, syms in rs.table.overloads.items():
        for sym in syms:
            if (sym.kind, name) in seen or sym.canonical:
                continue
            if fits(name):
                seen.add((sym.kind, name))
                out.append((name, sym.kind, sym.kind.replace("_", " "), sym.span))
    for section, kind in SECTIONS.items():
        for name, entry in rs.sections.get(section, {}).items():
            if (kind, name) in seen or not fits(name):
                continue
            seen.add((kind, name))
            out.append((name, kind, kind, _span(entry)))
    out.sort(key=lambda s: (not s[0].lower().startswith(q), s[0].lower()))
    return out[:limit]


def _span(entry) -> Span | None:
    try:
        return entry.span("id") if isinstance(entry.data, dict) else entry.span()
    except Exception:
        return None
