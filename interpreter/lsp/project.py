"""Which ruleset an open file belongs to, and that ruleset loaded with the unsaved buffers.

An editor's file is a rule file of some ruleset (found by walking up to the
nearest ``ruleset.yaml``, as ``rulebook validate FILE`` does), a mod (whose
``target:`` names a ruleset id, looked up in the ruleset the mod lies in,
then the rulesets of the editor's workspace folders, then the shipped ones:
never as a path), or neither. :class:`Project` is one ruleset together with
the mods layered on it; :meth:`Project.load` runs the loader's own stages
(the same :class:`~rulebook_games.load.assemble.Assembler` and builder that
``validate`` uses) with the editor's open buffers read in place of the
files on disk, keeps the result even when it has errors (so names can still
be completed), and sorts every diagnostic by the file it points into. The
assembler keeps every read inside the ruleset's tree, as it always does, and
what is read here to find a ruleset (a manifest's ``id:``) is read the same
way (:func:`manifest_id`); the workspace folders are walked without following
a link out of them (:func:`workspace_rulesets`).
"""

from __future__ import annotations

import functools
import os
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..load.assemble import Assembler, display_path
from ..errors import Diagnostic, Diagnostics, suggest
from ..lang.ast import Node
from ..paths import RULESET_FILE, find_ruleset, shipped_rulesets
from ..span import SealedSpan, Span
from ..load.tree import is_inside, tree_of
from ..load.userfiles import Unreadable, read_regular
from ..load.yamlload import Document, load_yaml


@functools.lru_cache(maxsize=4096)
def _norm(path: str, cwd: str) -> str:
    return os.path.realpath(os.path.join(cwd, path))


def norm(path: str | os.PathLike) -> str:
    """One spelling for a file, however it is named: what buffers and spans are keyed by."""
    return _norm(os.fspath(path), os.getcwd())


def head_value(text: str, key: str) -> str | None:
    """A top-level ``key: value`` of YAML text, read without parsing it."""
    for line in text.splitlines()[:400]:
        if line.startswith(f"{key}:"):
            return line.split(":", 1)[1].split("#", 1)[0].strip().strip("'\"") or None
    return None


class OverlayAssembler(Assembler):
    """The loader's assembler, reading open buffers instead of the files they were opened from."""

    def __init__(self, diags: Diagnostics, root: Path, overlay: dict[str, str]):
        super().__init__(diags, root)
        self.overlay = overlay
        self.kinds: dict[str, tuple[Document, str]] = {}

    def _read(self, path: Path, name: str) -> Document | None:
        return load_yaml(path, self.diags, name, text=self.overlay.get(norm(path)))

    def document(self, path, real, expected):
        found = super().document(path, real, expected)
        if found is not None:
            self.kinds[norm(path)] = found
        return found

    def load_mod(self, mod: str) -> Document | None:
        doc = super().load_mod(mod)
        if doc is not None:
            self.kinds[norm(mod)] = (doc, "mod")
        return doc


# Effect text already parsed, per file: for each piece of text (with its grammar rule
# and its place counted from its own first line) the tree as the parser made it (before
# checking annotates it) and the file line it was parsed at. A full load keeps, for each
# file it read, only the trees it used, so the memory held is one load's trees however
# many edits come; text moved up or down by an edit is found again, its places moved.
# Trees parsed by a check of one card file between full loads go to _RECENT, at most
# MAX_RECENT a file, the oldest dropped first.
_PARSED: dict[str, dict[tuple, tuple[int, object]]] = {}
_RECENT: dict[str, dict[tuple, tuple[int, object]]] = {}
MAX_RECENT = 512


def _moved_copy(value, delta: int):
    """A copy of a parsed tree (nodes, lists, spans) with every span moved ``delta`` lines."""
    if isinstance(value, Span):
        if not delta:
            return value
        return replace(value, line=value.line + delta,
                       end_line=None if value.end_line is None else value.end_line + delta)
    if isinstance(value, Node):
        new = object.__new__(type(value))
        new.__dict__.update({k: _moved_copy(v, delta) for k, v in vars(value).items()})
        return new
    if isinstance(value, list):
        return [_moved_copy(v, delta) for v in value]
    if isinstance(value, tuple):
        return tuple(_moved_copy(v, delta) for v in value)
    if isinstance(value, dict):
        return {k: _moved_copy(v, delta) for k, v in value.items()}
    return value  # text, numbers and other values the parser does not change


def _parsed_key(value: str, start: str, origin) -> tuple[tuple, int]:
    """The key of effect text where ``origin`` puts it, and the file line it is counted from."""
    base = origin.lines[0][0][1] if origin.lines and origin.lines[0] else 0
    rel = tuple(tuple((tcol, fline - base, fcol) for tcol, fline, fcol in segments)
                for segments in origin.lines)
    return (value, start, rel), base


@functools.lru_cache(maxsize=1)
def builder_class():
    """The loader's builder, with effect text that did not change taken from :data:`_PARSED`.

    Parsing is most of a load's work, and a tree depends only on its text and
    where it sits; everything after parsing (checking, compiling) runs as usual.
    A full load (:meth:`build`) replaces the kept trees of the files it read by
    those it used; a check of one card file (:mod:`.recheck`) reads them and
    keeps what it parsed in :data:`_RECENT`."""
    from ..load.ruleset import _Builder

    class Builder(_Builder):
        used: dict[str, dict] | None = None

        def build(self, mod_docs, cached=None):
            self.used = {}
            try:
                return super().build(mod_docs, cached)
            finally:
                for doc in [d for d, _, _ in getattr(self.asm, "docs", ())] + list(mod_docs):
                    _PARSED[doc.file] = self.used.get(doc.file, {})
                    _RECENT.pop(doc.file, None)
                self.used = None

        def _parse(self, e, path, start, label):
            value = e.data
            for p in path:
                value = value[p]
            if not isinstance(value, str) or not value.strip():
                return super()._parse(e, path, start, label)
            origin = e.origin(*path)
            key, base = _parsed_key(value, start, origin)
            file = origin.file
            kept = _PARSED.get(file, {}).get(key) or _RECENT.get(file, {}).get(key)
            if kept is None and self.used is not None:
                kept = self.used.get(file, {}).get(key)
            if kept is not None:
                if self.used is not None:
                    self.used.setdefault(file, {})[key] = kept
                return _moved_copy(kept[1], base - kept[0])
            before = len(self.diags)
            tree = super()._parse(e, path, start, label)
            if tree is not None and len(self.diags) == before:
                kept = (base, _moved_copy(tree, 0))
                if self.used is not None:
                    self.used.setdefault(file, {})[key] = kept
                else:
                    recent = _RECENT.setdefault(file, {})
                    recent[key] = kept
                    while len(recent) > MAX_RECENT:
                        del recent[next(iter(recent))]
            return tree
    return Builder


@dataclass
class Loaded:
    """One load of a project: the ruleset (None if it could not be built) and its findings."""

    ruleset: object | None
    diagnostics: dict[str, list[Diagnostic]]  # normalised file -> its diagnostics
    documents: dict[str, tuple[Document, str]]  # normalised file -> (document, kind)
    clean_files: bool  # no file-level error (YAML, schema, includes)
    texts: dict[str, str] = field(default_factory=dict)  # the buffer texts it was made from


def by_file(diags: list[Diagnostic], into: dict[str, list[Diagnostic]] | None = None
            ) -> dict[str, list[Diagnostic]]:
    out = into if into is not None else {}
    for d in diags:
        if d.span is not None:
            # a file Rulebook refused to read (a link out of its tree) is named as it
            # is written, never by where it leads
            key = (os.path.abspath(d.span.file) if isinstance(d.span, SealedSpan)
                   else norm(d.span.file))
            out.setdefault(key, []).append(d)
    return out


class Project:
    """A ruleset and the mods on it, as the editor's files see it; loads are serialised."""

    def __init__(self, manifest: Path, mods: tuple[str, ...] = ()):
        self.manifest = manifest
        self.root = Path(norm(manifest.parent))
        self.mods = mods
        self.loaded: Loaded | None = None
        self.good = None  # the last ruleset that was built, for names while a file is broken
        self.clean: Loaded | None = None  # the last load with no file-level error
        self.lock = threading.Lock()

    @property
    def key(self) -> tuple:
        return (norm(self.manifest), self.mods)

    def owns(self, path: str) -> bool:
        p = norm(path)
        return p.startswith(str(self.root) + os.sep) or p in {norm(m) for m in self.mods}

    def load(self, overlay: dict[str, str]) -> Loaded:
        """Load and check the whole project with ``overlay`` (normalised path -> text)."""
        with self.lock:
            diags = Diagnostics()
            asm = OverlayAssembler(diags, self.root, overlay)
            asm.load_tree(self.manifest, "ruleset", [], None)
            for mod in self.mods:
                asm.load_mod(mod)
            clean = not diags.errors
            kept = len(diags)
            ruleset = None
            try:
                ruleset = builder_class()(asm, diags, self.manifest).build(asm.mod_docs)
            except Exception:  # a file left out by its errors can leave the rest unbuildable
                ruleset = None
            if not clean:
                del diags[kept:]  # like validate: file errors first, the rest once they are fixed
            if ruleset is not None:
                self.good = ruleset
            self.loaded = Loaded(ruleset, by_file(diags), asm.kinds, clean,
                                 {p: overlay[p] for p in overlay if self.owns(p)})
            if clean and ruleset is not None:
                self.clean = self.loaded
            return self.loaded

    @property
    def base(self) -> Loaded | None:
        """What a single card file is checked against: the last load, or the last clean one."""
        if self.loaded is not None and self.loaded.clean_files:
            return self.loaded
        return self.clean or self.loaded

    def scenario_files(self, overlay: dict[str, str]) -> list[str]:
        """The normalised paths of the ruleset's scenario files, open or on disk."""
        loaded = self.base
        if loaded is None or loaded.ruleset is None or not loaded.clean_files:
            return []
        from ..scenarios.files import discover
        paths = {norm(p) for p in discover(loaded.ruleset)}
        for p, text in overlay.items():  # an open scenario file not yet under scenarios/
            if p.startswith(str(self.root) + os.sep) and head_value(text, "kind") == "scenarios":
                paths.add(p)
        return sorted(paths)

    def check_scenarios(self, path: str, text: str | None) -> dict[str, list[Diagnostic]]:
        """The diagnostics of one scenario file (its buffer ``text``) against the last load."""
        loaded = self.base
        if loaded is None or loaded.ruleset is None or not loaded.clean_files:
            return {}
        from ..scenarios.files import load_scenarios
        diags = Diagnostics()
        load_scenarios(loaded.ruleset, Path(path), diags, text=text)
        return by_file(diags, {norm(path): []})


# ------------------------------------------------------------- finding a project
@dataclass
class Orphan:
    """A file that belongs to no ruleset Rulebook can find, with the reason as a diagnostic."""

    diagnostic: Diagnostic | None


def enclosing_manifest(path: str) -> Path | None:
    p = Path(os.path.abspath(path))
    for parent in [p.parent, *p.parent.parents]:
        try:
            if (parent / RULESET_FILE).is_file():
                return parent / RULESET_FILE
        except OSError:  # a folder name longer than the system allows: no ruleset there
            continue
    return None


MANIFEST_HEAD = 64 * 1024  # what is read of a ruleset.yaml to learn its id
MAX_WORKSPACE_ENTRIES = 20_000  # names looked at below one workspace folder
MAX_WORKSPACE_RULESETS = 200  # manifests read below one workspace folder


def manifest_id(manifest: Path) -> str | None:
    """The ``id:`` a ruleset.yaml declares, or None when it cannot be read or says none.

    It is read as the loader reads a rule file (:func:`~rulebook_games.load.userfiles.
    read_regular`): a regular file only, opened without blocking (a pipe or a device
    is never read), its first :data:`MANIFEST_HEAD` bytes; and never when it is a link
    to a place outside its folder, which the loader refuses to read too."""
    try:
        if not is_inside(manifest, tree_of(manifest.parent)):
            return None
        raw = read_regular(manifest, MANIFEST_HEAD)
    except (Unreadable, OSError, ValueError):
        return None
    return head_value(raw[:MANIFEST_HEAD].decode("utf-8", errors="replace"), "id")


def _workspace_manifests(base: Path) -> list[Path]:
    """The ruleset.yaml at folder ``base`` and one or two levels below, shallowest first.

    Folders are walked by name (sorted; names starting with '.' are left out, as
    includes' globs leave them out) and only while they stay inside ``base``: a
    link to a folder elsewhere is not followed. At most
    :data:`MAX_WORKSPACE_ENTRIES` names are looked at."""
    try:
        tree = tree_of(base)
    except (OSError, ValueError):
        return []
    budget = MAX_WORKSPACE_ENTRIES
    found: list[Path] = []
    level = [base]
    for depth in range(3):
        below: list[Path] = []
        for folder in level:
            found.append(folder / RULESET_FILE)
            if depth == 2 or budget <= 0:
                continue
            try:
                with os.scandir(folder) as listing:
                    entries = []
                    for entry in listing:
                        budget -= 1
                        if budget < 0:
                            break
                        entries.append(entry)
            except (OSError, ValueError):
                continue
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name.startswith("."):
                    continue
                try:
                    if not entry.is_dir():
                        continue
                except OSError:
                    continue
                sub = folder / entry.name
                if is_inside(sub, tree):
                    below.append(sub)
        level = below
    return found


def workspace_rulesets(roots: list[str]) -> dict[str, Path]:
    """Ruleset id -> manifest (the first found), for rulesets at a workspace folder or one
    or two levels below (see :func:`rulesets_by_id`)."""
    return {rid: found[0] for rid, found in rulesets_by_id(roots).items()}


def rulesets_by_id(roots: list[str]) -> dict[str, list[Path]]:
    """Ruleset id -> every manifest with that id, for rulesets at a workspace folder or one
    or two levels below.

    Nothing outside a workspace folder is looked at (see :func:`_workspace_manifests`),
    and each manifest is read as :func:`manifest_id` reads it: the server's memory and
    time stay bounded whatever the folder holds (a pipe, /dev/zero, a huge file)."""
    out: dict[str, list[Path]] = {}
    for root in roots:
        read = 0
        for manifest in _workspace_manifests(Path(root)):
            if read >= MAX_WORKSPACE_RULESETS:
                break
            if not os.path.lexists(manifest):
                continue
            read += 1
            rid = manifest_id(manifest)
            if rid and manifest not in out.setdefault(rid, []):
                out[rid].append(manifest)
    return out


def _line_of(text: str, start: str) -> int:
    """The first line that starts with ``start`` (1 when none does)."""
    return next((i + 1 for i, ln in enumerate(text.splitlines()) if ln.startswith(start)), 1)


def project_for(path: str, text: str, roots: list[str]) -> tuple[Path, tuple[str, ...]] | Orphan:
    """The (manifest, mods) a file is checked in, or an :class:`Orphan` saying why there is none."""
    kind = head_value(text, "kind")
    if kind == "mod":
        target = head_value(text, "target")
        here = display_path(Path(path))
        if target is None:
            return Orphan(Diagnostic("RB500", "this mod has no 'target:', so there is no "
                                     "ruleset to check it against", Span(here, 1, 1),
                                     hint="add 'target: RULESET_ID'"))
        enclosing = enclosing_manifest(path)
        if enclosing is not None and manifest_id(enclosing) == target:
            return enclosing, (path,)
        named = rulesets_by_id(roots)
        found = named.get(target, [])
        if len(found) == 1:
            return found[0], (path,)
        if found:  # as `rulebook validate` says it: which one is meant is not clear
            shown = ", ".join(display_path(m.parent) for m in found)
            return Orphan(Diagnostic(
                "RB500", f"this mod targets '{target}', the id of {len(found)} rulesets "
                f"({shown}), so which one it is for is not clear",
                Span(here, _line_of(text, "target:"), 1),
                hint="move it into the folder of the ruleset it is for"))
        shipped = shipped_rulesets()
        if target in shipped:
            return find_ruleset(target), (path,)
        return Orphan(Diagnostic("RB500", f"this mod targets '{target}', which is neither a "
                                 f"shipped ruleset ({', '.join(shipped)}) nor a ruleset in "
                                 "the editor's folders",
                                 Span(here, _line_of(text, "target:"), 1),
                                 hint=suggest(target, [*shipped, *named])))
    if kind == "ruleset" or Path(path).name == RULESET_FILE:
        return Path(path), ()
    manifest = enclosing_manifest(path)
    if manifest is None:
        return Orphan(None if kind is None else Diagnostic(
            "RB404", f"this file is not inside a ruleset (no {RULESET_FILE} above it)",
            Span(display_path(Path(path)), 1, 1)))
    return manifest, ()
