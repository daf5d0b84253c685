"""Read a card file's buffer card by card, so a keystroke re-reads one card, not the file.

A card file is a short head (``kind:``, ``include:``) and one ``cards:`` list
written in block style, one ``- id: …`` item after another. This module
cuts the text into that head and the items, reads each item with the same
YAML reader as the loader (padded with blank lines so every position is the
file's own), keeps what it read per item text, and joins the pieces into one
:class:`~rulebook_games.load.yamlload.Document` just like reading the whole file
would make. A card that moved without changing has its positions moved.
Any file that does not have that plain shape (a flow-style list, anchors,
keys after the list, odd indentation) is read whole, as the loader does.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..errors import Diagnostics
from ..span import Span
from ..load.yamlload import Document, parse_yaml

ITEM = re.compile(r"^( *)- ")
ALIAS = re.compile(r"(^|[\s\[{,:-])\*[A-Za-z0-9_]")  # anchors alone are harmless
# file -> card text -> (its first line, its document as card number index there, index)
_MEMO: dict[str, dict[str, tuple]] = {}


def _split(lines: list[str]) -> tuple[int, list[tuple[int, int]]] | None:
    """The 0-based line of 'cards:' and each item's (first, last + 1) lines, or None."""
    head = next((i for i, ln in enumerate(lines) if ln.rstrip() == "cards:"), None)
    if head is None:
        return None
    items: list[tuple[int, int]] = []
    indent = None
    start = None
    for i in range(head + 1, len(lines)):
        ln = lines[i]
        if not ln.strip() or ln.lstrip().startswith("#"):
            continue
        m = ITEM.match(ln)
        lead = len(ln) - len(ln.lstrip(" "))
        if indent is None:
            if not m:
                return None
            indent = len(m.group(1))
        if m and len(m.group(1)) == indent:
            if start is not None:
                items.append((start, i))
            start = i
        elif lead <= indent:
            return None  # a key after the list, or an item out of line: read it whole
    if start is None:
        return None
    items.append((start, len(lines)))
    return head, items


def _moved(doc: Document, delta: int, index: int) -> Document:
    """The document of one item, its positions moved ``delta`` lines, as item ``index``."""
    def move(sp: Span) -> Span:
        if not delta:
            return sp
        return replace(sp, line=sp.line + delta,
                       end_line=None if sp.end_line is None else sp.end_line + delta)

    def key(path):
        return ("cards", index) + path[2:]
    out = Document(doc.file, "", doc.data)
    out.spans = {key(p): move(s) for p, s in doc.spans.items() if p[:1] == ("cards",)
                 and len(p) > 1}
    out.key_spans = {key(p): move(s) for p, s in doc.key_spans.items()
                     if p[:1] == ("cards",) and len(p) > 1}
    out.scalars = {key(p): replace(s, line=s.line + delta, end_line=s.end_line + delta)
                   for p, s in doc.scalars.items() if p[:1] == ("cards",) and len(p) > 1}
    return out


def _meet_next(part: Document, end: int, indent: int) -> None:
    """Lists and mappings that close where the next card starts end at its dash, as in the file."""
    for path, sp in list(part.spans.items()):
        info = part.scalars.get(path)
        if sp.end_line == end + 1 and sp.end_col == 1 and (info is None or info.style
                                                            not in ("|", ">")):
            part.spans[path] = replace(sp, end_col=indent + 1)


def parse_cards(text: str, name: str, diags: Diagnostics) -> Document | None:
    """The card file's document, as :func:`~rulebook_games.load.yamlload.parse_yaml` would make it."""
    lines = text.split("\n")
    shape = _split(lines) if not ALIAS.search(text) and "\t" not in text else None
    if shape is None:
        _MEMO.pop(name, None)
        return parse_yaml(text, name, diags)
    head, items = shape
    memo = _MEMO.get(name, {})
    fresh: dict[str, tuple] = {}
    head_text = "\n".join(lines[:head])
    head_doc = parse_yaml(head_text + "\n", name, diags) if head_text.strip() and any(
        ln.strip() and not ln.lstrip().startswith("#") for ln in lines[:head]) else None
    if diags:
        return None
    data = dict(head_doc.data) if head_doc is not None and isinstance(head_doc.data, dict) \
        else {}
    if "cards" in data:
        return parse_yaml(text, name, diags)
    doc = Document(name, text, data)
    if head_doc is not None:
        doc.spans.update(head_doc.spans)
        doc.key_spans.update(head_doc.key_spans)
        doc.scalars.update(head_doc.scalars)
    cards: list = []
    for index, (first, end) in enumerate(items):
        body = "\n".join(lines[first:end])
        last = index == len(items) - 1
        got = memo.get(body) if not last else None
        if got is None:
            found = Diagnostics()
            # padded so the text ends where the next card starts, as it does in the file
            padded = "\n" * (first - 1) + "cards:\n" + body + ("" if last else "\n")
            part = parse_yaml(padded, name, found)
            if part is None or found:
                diags.extend(found)
                return None
            if not last:
                _meet_next(part, end, len(lines[end]) - len(lines[end].lstrip(" ")))
            got = (first, part, 0)
        if got[0] != first or len(got) < 3 or got[2] != index:
            got = (first, _moved(got[1], first - got[0], index), index)
        fresh[body] = got
        part = got[1]
        cards.append(part.data["cards"][0])
        doc.spans.update(part.spans)
        doc.key_spans.update(part.key_spans)
        doc.scalars.update(part.scalars)
    _MEMO[name] = fresh
    data["cards"] = cards
    last = items[-1][1]
    end_line = min(last, len(lines))
    doc.key_spans[("cards",)] = Span(name, head + 1, 1, head + 1, 6)
    doc.spans[("cards",)] = Span(name, items[0][0] + 1, len(lines[items[0][0]]) -
                                 len(lines[items[0][0]].lstrip(" ")) + 1, end_line + 1, 1)
    return doc
