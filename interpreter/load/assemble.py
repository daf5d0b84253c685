"""Stage 0: follow a ruleset's includes and read each file once, hashing as it goes.

The :class:`Assembler` starts at the manifest, reads and schema-checks each
file it includes, never leaving the manifest's folder, and keeps the
documents in the order it met them. It also computes the ruleset's content
hash: every file by its path from the ruleset's folder and its text, then
each mod by its text. The hash is what a game record names its ruleset by.

Reading a file is one method, :meth:`Assembler.document`, so the cached load
(:mod:`rulebook_games.load.loadcache`) walks the includes the same way, in the same
order and with the same hash, while taking each file's parsed content from
the cache instead of parsing it again.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from . import schema as schemas
from ..errors import Diagnostics, suggest
from ..numtext import clipped
from ..paths import RULESET_FILE
from ..span import SealedSpan, Span
from .tree import MAGIC, GlobTooLarge, OutsideTree, glob_in, is_inside, resolve_in, tree_of
from .userfiles import kind_problem, name_problem
from .yamlload import Document, load_yaml


def display_path(path: Path) -> str:
    """How messages name a file: from the working directory when it lies below it, else in full."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - different drive on Windows
        return os.path.abspath(path)
    return os.path.abspath(path) if rel == ".." or rel.startswith(".." + os.sep) else rel


def hash_name(real: Path, root: Path | None) -> str:
    """How the content hash names a file: its path from the ruleset root, '/'-separated."""
    if root is not None:
        try:
            return real.relative_to(root).as_posix()
        except ValueError:
            pass
    return real.name


def hash_text(text: str) -> bytes:
    """A file's text as the content hash sees it: line endings do not count."""
    return text.replace("\r\n", "\n").encode()


class Assembler:
    """Reads a ruleset's files from its manifest on, and its mods; see the module text."""

    def __init__(self, diags: Diagnostics, root: Path | None = None):
        self.diags = diags
        self.root = root
        self.docs: list[tuple[Document, str, Path]] = []
        self.loaded: set[Path] = set()
        self.hasher = hashlib.sha256()
        self.files: list[str] = []
        self.mod_docs: list[Document] = []

    def load_tree(self, path: Path, expected: str | None, stack: list[Path],
                  from_span: Span | None) -> None:
        if not stack:
            # the tree every include must stay in: the folder holding the manifest
            self.tree = tree_of(path.parent)
            if not is_inside(path, self.tree):
                self.diags.error("RB405", f"{path.name} is a link to a place outside its "
                                 "folder; it is not read", SealedSpan(display_path(path), 1, 1))
                return
        real = path.resolve()
        if real in stack:
            chain = " → ".join(display_path(p) for p in stack[stack.index(real):] + [real])
            self.diags.error("RB402", f"include cycle: {chain}", from_span)
            return
        if real in self.loaded:
            return
        self.loaded.add(real)
        got = self.document(path, real, expected)
        if got is None:
            return
        doc, kind = got
        self.docs.append((doc, kind, real))
        for i, pattern in enumerate(doc.data.get("include", []) or []):
            span = doc.span(("include", i))
            for target in self._expand(path.parent, pattern, span):
                self.load_tree(target, None, stack + [real], span)

    def count(self, real: Path, doc: Document) -> None:
        """Add a ruleset file to the content hash and the list of files."""
        # the hash names files relative to the ruleset root with '/' separators, so
        # it is the same from any working directory and on any machine
        self.hasher.update(hash_name(real, self.root).encode() + b"\0")
        self.hasher.update(hash_text(doc.text) + b"\0")
        self.files.append(doc.file)

    def count_mod(self, doc: Document) -> None:
        # a mod counts by its content only: where it lies or what it is called
        # does not change the game
        self.mod_docs.append(doc)
        self.hasher.update(b"mod\0" + hash_text(doc.text) + b"\0")

    def _read(self, path: Path, name: str) -> Document | None:
        """A file's YAML (an editor's assembler reads its open buffers instead)."""
        return load_yaml(path, self.diags, name)

    def document(self, path: Path, real: Path, expected: str | None
                 ) -> tuple[Document, str] | None:
        """One ruleset file, read, hashed and checked: its document and kind, or None."""
        doc = self._read(path, display_path(path))
        if doc is None:
            return None
        self.count(real, doc)
        kind = schemas.check_kind(doc, self.diags, expected)
        if kind is None:
            return None
        if kind in ("mod", "scenarios"):
            how = "pass it with --mod" if kind == "mod" else "put it in scenarios/"
            self.diags.error("RB404", f"a {kind} file cannot be included in a ruleset; {how} "
                             "instead", doc.span(("kind",)))
            return None
        if not schemas.validate(doc, kind, self.diags):
            return None
        return doc, kind

    def load_mod(self, mod: str) -> Document | None:
        """One mod file, read, checked and hashed after the ruleset's own files.

        Its document, or None when it cannot be used."""
        doc = self._read(Path(mod), display_path(Path(mod)))
        if doc is None:
            return None
        if schemas.check_kind(doc, self.diags, "mod") and schemas.validate(doc, "mod",
                                                                          self.diags):
            self.count_mod(doc)
            return doc
        return None

    def _expand(self, base: Path, pattern: str, span: Span) -> list[Path]:
        """The files an include names, never leaving the ruleset's tree."""
        try:
            if any(ch in pattern for ch in MAGIC):
                matches = glob_in(base, self.tree, pattern, "the include", "the ruleset")
                if not matches:
                    self.diags.error("RB403", f"no file matches '{pattern}'", span)
                return matches
            full = resolve_in(base, self.tree, pattern, "the include", "the ruleset")
        except GlobTooLarge as exc:
            self.diags.error("RB404", exc.message, span)
            return []
        except OutsideTree as exc:
            self.diags.error("RB405", exc.message, span,
                             hint=f"a ruleset is the folder of its {RULESET_FILE}; its files "
                                  "include only files in that folder and below")
            return []
        problem = name_problem(full)
        if problem:  # a name the system refuses (too long, a loop of links)
            self.diags.error("RB403", f"included file '{clipped(pattern)}' cannot be read: "
                             f"{problem}", span)
            return []
        try:
            problem = kind_problem(os.stat(full).st_mode)
        except OSError:
            problem = None  # not there: said below, with names to suggest
        if problem:  # a folder, a pipe (never opened: reading it would wait), a device
            self.diags.error("RB403", f"included file '{clipped(pattern)}' is not read: "
                             f"{problem}", span)
            return []
        if not full.is_file():
            # names to suggest, from the folder it names only if that is in the tree too
            near = ([p.name for p in full.parent.glob("*.yaml")]
                    if full.parent.is_dir() and is_inside(full.parent, self.tree) else [])
            self.diags.error("RB403", f"included file '{clipped(pattern)}' not found", span,
                             hint=suggest(full.name, near))
            return []
        return [full]
