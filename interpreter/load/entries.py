"""Declarations as the loader collects them: one Entry per card, resource, action…

An :class:`Entry` is one declaration of a rule file together with the
document and path it came from, so any later stage can point at it. A mod's
patch makes a :class:`PatchedEntry`, whose patched keys point into the mod
file and the rest into the original. The loader (:mod:`rulebook_games.load.ruleset`)
and the mods (:mod:`rulebook_games.load.mods`) both build entries; this module is
what they share, so neither needs the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..span import Span
from .yamlload import Document

# Lists of entries keyed by id, per document kind; mods address them by these names.
COMPONENT_LISTS = ("resources", "card_resources", "tags", "card_types", "markers", "blocks",
                   "tracks", "zones", "tiles", "boards", "events", "modifiers", "card_fields")
FLOW_LISTS = ("phases", "actions", "procedures", "functions", "scoring", "variants", "triggers",
              "invariants", "features")
FLOW_SINGLES = ("setup", "rounds", "end", "tie_breaks", "evaluation", "view")


@dataclass
class Entry:
    """One declaration (a card, a resource, an action…) and where it came from."""

    id: str | None
    data: Any
    doc: Document
    path: tuple
    section: str = ""

    def span(self, *sub) -> Span:
        return self.doc.span(self.path + sub)

    def key_span(self, *sub) -> Span:
        return self.doc.key_span(self.path + sub)

    def origin(self, *sub):
        return self.doc.origin(self.path + sub)

    def get(self, key, default=None):
        return self.data.get(key, default) if isinstance(self.data, dict) else default

    def __repr__(self) -> str:
        # one line: the declaration's data and its document can be large
        where = str(self.span())
        where = where if len(where) <= 120 else "…" + where[-119:]
        ident = self.id if self.id is None or len(self.id) <= 40 else self.id[:39] + "…"
        return f"<Entry {self.section or 'declaration'} {ident!r} at {where}>"


@dataclass(repr=False)  # (an Entry's one line)
class PatchedEntry(Entry):
    """An entry whose listed top-level keys come from a mod's patch."""

    base: Entry | None = None
    patched: dict = field(default_factory=dict)  # key -> (doc, path of the value)

    def _where(self, sub):
        if sub and sub[0] in self.patched:
            doc, path = self.patched[sub[0]]
            return doc, path + tuple(sub[1:])
        if self.base is not None:
            return self.base.doc, self.base.path + tuple(sub)
        return self.doc, self.path + tuple(sub)

    def span(self, *sub) -> Span:
        doc, path = self._where(sub)
        return doc.span(path)

    def key_span(self, *sub) -> Span:
        doc, path = self._where(sub)
        return doc.key_span(path)

    def origin(self, *sub):
        doc, path = self._where(sub)
        return doc.origin(path)
