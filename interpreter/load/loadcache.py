"""A ruleset load from the cache: what a fresh load found, kept so the next skips the work.

A fresh load reads YAML with positions, checks it against the schemas, parses
and checks every effect. When it finds no error, :func:`save` keeps the
slow part of that in the per-user cache (:mod:`rulebook_games.cache`) as one
JSON entry: each file's data with its positions, and every effect's tree as
the parser made it, with its spans (:mod:`rulebook_games.lang.astjson`). A
load from the entry skips reading YAML, the schemas and parsing; it checks
every tree again, as a fresh load does, so what the checker concludes is
never taken from the cache. The entry's key is the
ruleset's content hash together with Rulebook's code and data and the
Python running it; a small pointer, keyed by where the manifest and mods
lie, says which entry the last load there made.

:func:`lookup` walks the includes again exactly as a fresh load does (the
same :class:`~rulebook_games.load.assemble.Assembler`, so the same files in the same
order and the same content hash), reading every file but taking its parsed
content from the entry once its text is seen to be the one the entry was
made from. Any difference (an edited, added or removed file, a changed
link, a damaged entry) makes it return None, and the caller loads afresh;
nothing here is ever an error. A load with errors is never kept, so errors
are always found and reported by a fresh load.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .. import cache
from .assemble import Assembler, display_path, hash_name
from ..errors import Diagnostics
from ..lang import astjson
from ..span import Span
from .yamlload import Document, _Scalar, read_text

ENTRY = "ruleset"
WHERE = "where"


class _Miss(Exception):
    """The entry does not describe the files as they are now."""


class Stale(Exception):
    """The entry lacks a tree a load needs: the ruleset is loaded afresh instead."""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _where_key(manifest_path: Path, mods: list[str]) -> str:
    return cache.key_for(WHERE, str(Path(manifest_path).resolve()),
                         *(str(Path(m).resolve()) for m in mods))


# ------------------------------------------------------------------ documents
def encode_document(doc: Document, kind: str, name: str) -> dict:
    """A loaded file as JSON data: its data, the position of each node, its text's hash."""
    def positions(table: dict) -> dict:
        paths, rows = [], []
        for path, sp in table.items():
            if sp.file != doc.file or type(sp) is not Span:
                raise astjson.Unencodable("a position in another file")
            paths.append(list(path))
            rows += (sp.line, sp.col, sp.end_line, sp.end_col)
        return {"paths": paths, "rows": rows, "width": 4}
    scalars = {"paths": [list(path) for path in doc.scalars], "rows": [], "width": 5}
    for sc in doc.scalars.values():
        scalars["rows"] += (sc.line, sc.col, sc.end_line, sc.end_col, sc.style)
    return {"name": name, "sha": _sha(doc.text), "kind": kind, "data": doc.data,
            "spans": positions(doc.spans), "key_spans": positions(doc.key_spans),
            "scalars": scalars}


class _Positions(dict):
    """path -> position, each made from its cached row when first looked up.

    A document has a position for every node, and a load looks up few of them;
    making them all would be most of the time a cached load takes. The rows
    are one flat list of numbers, ``width`` to a row; the dict holds each
    path's row number until the position is made.
    """

    def __init__(self, table: dict, make):
        super().__init__(zip(map(tuple, table["paths"]), range(len(table["paths"]))))
        self.rows = table["rows"]
        self.width = table["width"]
        self.make = make

    def __getitem__(self, path):
        value = dict.__getitem__(self, path)
        if value.__class__ is int:
            at = value * self.width
            value = self.make(*self.rows[at:at + self.width])
            dict.__setitem__(self, path, value)
        return value

    def get(self, path, default=None):
        return self[path] if path in self else default

    def values(self):
        return [self[p] for p in self]

    def items(self):
        return [(p, self[p]) for p in self]


def decode_document(record: dict, file: str, text: str) -> Document:
    """The :class:`Document` :func:`encode_document` describes, for the file named ``file``."""
    def span(line, col, end_line, end_col):
        return Span(file, line, col, end_line, end_col)
    return Document(file, text, record["data"], _Positions(record["spans"], span),
                    _Positions(record["key_spans"], span),
                    _Positions(record["scalars"], _Scalar))


class _CachedAssembler(Assembler):
    """Walks the includes as a fresh load does, taking each file's content from the entry."""

    def __init__(self, diags: Diagnostics, root: Path, files: list, mods: list):
        super().__init__(diags, root)
        self.records = iter(files)
        self.mod_records = iter(mods)

    def _text(self, path, record: dict | None, name: str | None) -> str:
        text = read_text(path, Diagnostics(), str(path))
        if record is None or text is None or record["sha"] != _sha(text) \
                or (name is not None and record["name"] != name):
            raise _Miss()
        return text

    def document(self, path: Path, real: Path, expected: str | None):
        record = next(self.records, None)
        text = self._text(path, record, hash_name(real, self.root))
        if expected is not None and record["kind"] != expected:
            raise _Miss()
        doc = decode_document(record, display_path(path), text)
        self.count(real, doc)
        return doc, record["kind"]

    def load_mod(self, mod: str) -> None:
        record = next(self.mod_records, None)
        text = self._text(mod, record, None)
        self.count_mod(decode_document(record, display_path(Path(mod)), text))

    def finished(self) -> bool:
        return next(self.records, None) is None and next(self.mod_records, None) is None


class Cached:
    """The parsed trees of a cached load, by the key a fresh load gives each."""

    def __init__(self, entry: dict, files: list[str]):
        self.entry = entry  # the whole JSON entry, for whatever else it carries
        self.files = files

    def trees(self) -> dict:
        """{key: tree}: every effect and expression as the parser made it (to be checked)."""
        out = {}
        for key, tree in astjson.loads(self.entry.pop("asts"), self.files):
            if type(key) is not tuple or not all(type(k) in (str, int) for k in key) \
                    or not isinstance(tree, (astjson.ast.Effect, astjson.ast.Expr)):
                raise ValueError("an entry that is not a key and a tree")
            out[key] = tree
        return out


def lookup(manifest_path: Path, mods: list[str]) -> tuple[Assembler, Cached] | None:
    """The files read as from the cache, and the cached trees; None to load afresh."""
    if cache.cache_dir() is None:
        return None
    where = cache.load(_where_key(manifest_path, mods))
    if where is None or not isinstance(where.get("entry"), str):
        return None
    entry = cache.load(where["entry"])
    if entry is None:
        return None
    try:
        asm = _CachedAssembler(Diagnostics(), Path(manifest_path).resolve().parent,
                               entry["files"], entry["mods"])
        asm.load_tree(Path(manifest_path), "ruleset", [], None)
        for mod in mods:
            asm.load_mod(mod)
        content_hash = asm.hasher.hexdigest()
        if len(asm.diags) or not asm.finished() or content_hash != entry["content_hash"] \
                or cache.key_for(ENTRY, content_hash) != where["entry"]:
            return None
    except Exception:  # _Miss, or an entry that is not what it should be
        return None
    del entry["files"], entry["mods"]  # in the documents now
    return asm, Cached(entry, asm.files + [d.file for d in asm.mod_docs])


def save(asm: Assembler, ruleset, manifest_path: Path, mods: list[str],
         extra: dict | None = None) -> bool:
    """Keep a fresh, error-free load for the next run; False if it was not kept."""
    if cache.cache_dir() is None:
        return False
    files = asm.files + [d.file for d in asm.mod_docs]
    try:
        entry = {
            "content_hash": ruleset.content_hash,
            "files": [encode_document(doc, kind, hash_name(real, asm.root))
                      for doc, kind, real in asm.docs],
            "mods": [encode_document(doc, "mod", "") for doc in asm.mod_docs],
            # the trees as parsed: a load from the cache checks them again
            "asts": astjson.dumps([[key, tree] for key, tree in ruleset.asts.items()], files),
        }
    except astjson.Unencodable:
        return False
    entry.update(extra or {})
    key = cache.key_for(ENTRY, ruleset.content_hash)
    return cache.store(key, entry) and cache.store(_where_key(manifest_path, mods),
                                                  {"entry": key})
