"""The outline of a rule file: its cards, procedures, functions, actions and the like.

Each entry with an ``id`` in one of the lists below becomes a symbol named by
its id, with its ``name`` as the detail, spanning its lines. A buffer that is
not valid YAML just now still gets an outline, from its ``- id:`` lines.
"""

from __future__ import annotations

import re

from lsprotocol import types as lsp

from ..errors import Diagnostics
from ..load.yamlload import parse_yaml

S = lsp.SymbolKind
LISTS = {"cards": S.Class, "procedures": S.Method, "functions": S.Function,
         "actions": S.Event, "phases": S.Namespace, "scenarios": S.Module,
         "resources": S.Constant, "tags": S.EnumMember, "tracks": S.Variable,
         "zones": S.Array, "events": S.Event, "variants": S.Enum, "scoring": S.Number,
         "card_types": S.TypeParameter, "tiles": S.Struct, "modifiers": S.Operator}
ID_LINE = re.compile(r"^(\s*)-\s+(?:\{\s*)?id:\s*([A-Za-z_]\w*)")


def _range(sp) -> lsp.Range:
    end_line = (sp.end_line or sp.line) - 1
    end_col = (sp.end_col or sp.col) - 1
    return lsp.Range(lsp.Position(sp.line - 1, sp.col - 1), lsp.Position(end_line, end_col))


def outline(text: str) -> list[lsp.DocumentSymbol]:
    doc = parse_yaml(text, "buffer", Diagnostics()) if text.strip() else None
    if doc is None or not isinstance(doc.data, dict):
        return _from_lines(text)
    out = []
    for section, kind in LISTS.items():
        items = doc.data.get(section)
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            ident = item if isinstance(item, str) else (
                item.get("id") if isinstance(item, dict) else None)
            if not isinstance(ident, str):
                continue
            whole = doc.span((section, i))
            sel = doc.span((section, i, "id")) if isinstance(item, dict) else whole
            name = item.get("name") if isinstance(item, dict) else None
            out.append(lsp.DocumentSymbol(
                name=ident, kind=kind, range=_range(whole), selection_range=_range(sel),
                detail=f"{section[:-1] if section.endswith('s') else section}"
                       + (f": {name}" if isinstance(name, str) else "")))
    changes = doc.data.get("changes")
    if isinstance(changes, list):  # a mod: what it adds, replaces, patches or removes
        for i, ch in enumerate(changes):
            if not isinstance(ch, dict):
                continue
            value = ch.get("value") if isinstance(ch.get("value"), dict) else {}
            ident = ch.get("id") or value.get("id") or ch.get("name")
            if isinstance(ident, str):
                whole = doc.span(("changes", i))
                out.append(lsp.DocumentSymbol(
                    name=ident, kind=S.Key, range=_range(whole), selection_range=_range(whole),
                    detail=f"{ch.get('op', 'change')} in {ch.get('in', '?')}"))
    return out


def _from_lines(text: str) -> list[lsp.DocumentSymbol]:
    out = []
    for n, line in enumerate(text.split("\n")):
        m = ID_LINE.match(line)
        if m:
            rng = lsp.Range(lsp.Position(n, m.start(2)), lsp.Position(n, m.end(2)))
            out.append(lsp.DocumentSymbol(name=m.group(2), kind=S.Object, range=rng,
                                          selection_range=rng))
    return out
