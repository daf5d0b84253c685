"""Check one edited card file against a ruleset that is already loaded.

A keystroke in a card file can only change that file's cards, so re-loading
the whole ruleset for it would waste a second on a large game. Instead the
file's buffer is read and schema-checked alone, its cards take the place of
the ones the file held in the loaded ruleset (so a duplicate id with another
file is still found), and the loader's own checks run on them: references
to types, tags and zones, and every effect, condition and amount, against a
copy of the loaded symbol table with this file's card names swapped in.
Nothing is compiled. What only a whole load can see (what needs an acting
player, other files naming a card that was renamed) is left to the full
check that follows lazily; :func:`recheck_cards` says whether one is needed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..load import schema as schemas
from ..load.assemble import display_path
from ..load.entries import Entry
from ..errors import Diagnostic, Diagnostics
from ..lang.checker import Checker
from ..lang.symbols import SymbolTable
from ..load.yamlload import Document
from .chunks import parse_cards
from .project import Loaded, builder_class, norm


class _NoCompiler:
    """Stands in for the compiler: an edit being checked is not run."""

    def effect(self, tree):
        return None

    def expression(self, tree, number=False):
        return None

    def finish(self):
        return None


@dataclass
class Rechecked:
    diagnostics: list[Diagnostic]
    document: Document | None
    # the file reads and fits the schema, and its card ids differ from the loaded ones:
    # other files may name them, so the whole ruleset is worth checking again
    ids_changed: bool


def _table_without(table: SymbolTable, names: set[str]) -> SymbolTable:
    """A copy of ``table`` in which the card symbols ``names`` are not declared."""
    overloads = {}
    symbols = dict(table.symbols)
    for name, syms in table.overloads.items():
        if name in names:
            kept = [s for s in syms if s.kind != "card"]
            if kept:
                overloads[name] = kept
                symbols[name] = kept[0]
            else:
                symbols.pop(name, None)
        else:
            overloads[name] = syms
    return SymbolTable(symbols=symbols, callables=table.callables, events=table.events,
                       card_fields=table.card_fields, modifier_params=table.modifier_params,
                       needs_acting=table.needs_acting, overloads=overloads)


def _item_text(doc: Document, lines: list[str], i: int) -> tuple[int, str]:
    """The first line of card ``i`` and its source text, which is what its findings depend on."""
    sp = doc.spans.get(("cards", i))
    if sp is None or sp.end_line is None:
        return 0, repr(doc.data["cards"][i])
    body = lines[sp.line - 1:sp.end_line - 1]
    if sp.end_line - 1 < len(lines):
        body.append(lines[sp.end_line - 1][:max(sp.end_col - 1, 0)])
    return sp.line, "\n".join(body)


def _shifted(d: Diagnostic, delta: int) -> Diagnostic:
    def move(s):
        if s is None or not delta:
            return s
        return replace(s, line=s.line + delta,
                       end_line=None if s.end_line is None else s.end_line + delta)
    return Diagnostic(d.code, d.message, move(d.span), d.hint, d.context, d.severity,
                      [move(r) for r in d.related])


# per card file: the load it was checked against, and for each card (by its index and
# text) the line it started at and what checking it found
_MEMO: dict[str, tuple[Loaded, dict]] = {}


def recheck_cards(loaded: Loaded, path: str, text: str) -> Rechecked | None:
    """The diagnostics of a card file's buffer, or None when it is not a card file of the load.

    Cards whose text has not changed since the last call (against the same load)
    are not checked again: their findings are moved to where the card now starts."""
    rs = loaded.ruleset
    key = norm(path)
    if rs is None or not loaded.clean_files or key not in loaded.documents \
            or loaded.documents[key][1] != "cards":
        return None
    _Builder = builder_class()  # the loader's checks, run on this file's cards only
    diags = Diagnostics()
    name = display_path(Path(path))
    doc = parse_cards(text[1:] if text.startswith("\ufeff") else text, name, diags)
    if doc is None:
        return Rechecked(list(diags), None, False)
    kind = schemas.check_kind(doc, diags, "cards")
    if kind is None:
        return Rechecked(list(diags), None, False)
    memo_load, memo = _MEMO.get(key, (None, {}))
    if memo_load is not loaded:
        memo = {}
    fresh: dict = {}
    lines = text.splitlines()
    items = doc.data.get("cards") if isinstance(doc.data, dict) else None
    skeleton = dict(doc.data, cards=[]) if isinstance(items, list) else doc.data
    for err in sorted(schemas.validator("cards").iter_errors(skeleton),
                      key=lambda e: (list(map(str, e.absolute_path)), e.validator)):
        schemas._report(doc, err, diags)
    places: list[tuple[int, str]] = []
    for i, item in enumerate(items if isinstance(items, list) else []):
        start, itext = _item_text(doc, lines, i)
        places.append((start, itext))
        got = memo.get((i, itext))
        if got is None:
            found = Diagnostics()
            errs = sorted(schemas.sub_validator("cards.schema.json#/$defs/card").iter_errors(item),
                          key=lambda e: (list(map(str, e.absolute_path)), e.validator))
            for err in errs:
                schemas.report_at(doc, ("cards", i), err, found)
            got = (start, list(found), None)
        fresh[(i, itext)] = got
        diags.extend(_shifted(d, start - got[0]) for d in got[1])
    if diags.errors:  # the file's own errors first, as validate does; the rest waits
        _MEMO[key] = (loaded, fresh)
        return Rechecked(list(diags), None, False)
    old = {ident for ident, e in rs.cards.items() if norm(e.doc.file) == key}
    builder = _Builder.__new__(_Builder)
    builder.asm = None
    builder.diags = diags
    builder.manifest_path = rs.root
    builder.sections = {s: dict(v) for s, v in rs.sections.items()}
    for ident in old:
        builder.sections["cards"].pop(ident, None)
    builder.singles = rs.singles
    builder.constants = {}
    builder.table = _table_without(rs.table, old)
    builder.code, builder.asts = {}, {}
    builder.parsed = None  # the buffer's effects are parsed, never taken from the cache
    builder.compiler = _NoCompiler()
    builder.checker = Checker(builder.table, diags)
    builder.adjacency = rs.adjacency
    new: list[tuple[int, str]] = []
    for i, item in enumerate(items):
        entry = Entry(item["id"], item, doc, ("cards", i), "cards")
        before = len(builder.sections["cards"])
        builder._add("cards", entry)
        if len(builder.sections["cards"]) > before:
            new.append((i, item["id"]))
            builder._declare(item["id"], "card", entry, entry.span("id"))
    builder.check_references()
    for i, ident in new:
        start, itext = places[i]
        start0, schema_found, checked = fresh[(i, itext)]
        if checked is None:
            before = len(diags)
            builder._check_card(ident, builder.sections["cards"][ident])
            checked = [_shifted(d, start0 - start) for d in diags[before:]]
            fresh[(i, itext)] = (start0, schema_found, checked)
        else:
            diags.extend(_shifted(d, start - start0) for d in checked)
    _MEMO[key] = (loaded, fresh)
    mine = [d for d in diags if d.span is None or norm(d.span.file) == key]
    return Rechecked(mine, doc, {ident for _, ident in new} != old)
