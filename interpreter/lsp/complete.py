"""Completion: the names a ruleset declares, the builtins and the keywords, where they fit.

Inside effect text the list holds every declared name (resources, tags,
tracks, zones, cards, procedures, functions…, each labelled with its kind),
the builtins with their signatures and documentation, the aggregates, the
language's keywords and the names bound nearby (``for c in``, ``let``);
after a dot it holds fields instead (an event's own fields after
``event.``, otherwise the fields of cards, spaces and players). In a plain
value it holds the ids that key names: tags after ``tags:``, card types
after ``type:``, card ids in a scenario's zones, and so on.

Documentation is Markdown, and any text in it that comes from a rule file
(a description, a name, a phrase) goes through :func:`md_text` first, so a
rule file cannot make the editor show a picture, a link or a heading.
"""

from __future__ import annotations

import functools
import re

import attrs
from lsprotocol import types as lsp

from ..lang.builtins import AGGREGATES, ANY_NOUNS, BUILTINS
from ..lang.symbols import PLAYER_FIELDS, SPACE_FIELDS
from ..lang import types as T
from ..paths import grammar_file, shipped_rulesets
from .locate import effect_locals, place_at, trigger_event

K = lsp.CompletionItemKind
KIND_ICON = {"resource": K.Value, "card_resource": K.Value, "tag": K.EnumMember,
             "card_type": K.TypeParameter, "marker": K.Constant, "block": K.Module,
             "zone": K.Folder, "tile": K.Struct, "space_type": K.EnumMember, "bonus": K.Value,
             "space": K.Reference, "card": K.Class, "modifier": K.Operator, "track": K.Variable,
             "player_track": K.Variable, "procedure": K.Method, "function": K.Function,
             "constant": K.Constant, "event": K.Event, "action": K.Method, "variant": K.Enum,
             "ruleset": K.Module}
VARIABLES = {"you": "the acting player", "this": "the card this effect belongs to",
             "event": "the event a trigger answers"}


def words(kind: str) -> str:
    return kind.replace("_", " ")


_MD_SPECIAL = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation mark


def md_text(text) -> str:
    """Text from a rule file made literal in Markdown: nothing in it formats, links or loads.

    Every ASCII punctuation mark is escaped with a backslash (CommonMark shows
    it as itself), which also keeps web addresses from turning into links;
    line breaks stay line breaks and indentation is dropped, so no line
    becomes a code block, a quote or a list."""
    lines = str(text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "  \n".join(_MD_SPECIAL.sub(r"\\\1", ln.strip()) for ln in lines)


def md_code(text: str) -> str:
    """Text shown in a fenced code block: a line of backticks cannot close the fence early."""
    return str(text).replace("`", "\u02cb")


@functools.lru_cache(maxsize=1)
def keywords() -> tuple[str, ...]:
    """The words the grammar reserves, read from the grammar file."""
    try:
        text = grammar_file().read_text(encoding="utf-8")
    except OSError:
        return ()
    return tuple(sorted(set(re.findall(r'"([a-z_]{2,})"', text))))


def builtin_doc(b) -> str:
    out = [f"```\n{md_code(b.signature())}\n```", "", b.doc]
    if b.example:
        out += ["", f"Example: `{b.example}`"]
    if getattr(b, "phrase", ""):
        out += ["", f"Reads: “{md_text(b.phrase)}”"]
    return "\n".join(out)


def aggregate_form(a) -> str:
    form = f"{a.name}(x in list where cond"
    form += {"required": " : value", "optional": " [: value]"}.get(a.value, "")
    return form + ")"


def aggregate_doc(a) -> str:
    out = [f"```\n{aggregate_form(a)}\n```", "", a.doc]
    if a.example:
        out += ["", f"Example: `{a.example}`"]
    return "\n".join(out)


def _md(text: str) -> lsp.MarkupContent:
    return lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text)


def callable_signature(c) -> str:
    params = ", ".join(f"{n}: {T.describe(t)}" for n, t, _ in c.params)
    returns = "" if c.kind == "procedure" else f" -> {T.describe(c.returns)}"
    return f"{c.name}({params}){returns}"


def symbol_items(rs) -> list[lsp.CompletionItem]:
    """Every name the ruleset declares, once per kind it is declared as."""
    table = rs.table
    out = []
    for name, syms in table.overloads.items():
        for sym in syms:
            item = lsp.CompletionItem(label=name, kind=KIND_ICON.get(sym.kind, K.Text),
                                      detail=words(sym.kind), sort_text=f"1{name}")
            data = sym.data if isinstance(sym.data, dict) else {}
            if sym.kind == "card":
                card = rs.cards.get(name)
                if card is not None and isinstance(card.data, dict):
                    item.detail = f"card: {card.data.get('name', name)}"
            elif sym.kind in ("procedure", "function") and name in table.callables:
                c = table.callables[name]
                item.detail = callable_signature(c)
                entry = rs.sections[sym.kind + "s"].get(name)
                desc = entry.get("description") if entry is not None else None
                if desc:
                    item.documentation = _md(md_text(desc))
            elif sym.canonical:
                item.detail = f"{words(sym.kind)} ({sym.canonical}, plural)"
            elif data.get("name") and data.get("name") != name:
                item.detail = f"{words(sym.kind)}: {data['name']}"
            out.append(item)
    return out


def builtin_items() -> list[lsp.CompletionItem]:
    out = []
    for b in BUILTINS.values():
        out.append(lsp.CompletionItem(label=b.name, kind=K.Function, detail=b.signature(),
                                      documentation=_md(builtin_doc(b)), sort_text=f"2{b.name}"))
    for a in AGGREGATES.values():
        out.append(lsp.CompletionItem(label=a.name, kind=K.Function, detail=aggregate_form(a),
                                      documentation=_md(aggregate_doc(a)), sort_text=f"2{a.name}"))
    return out


def field_items(rs, dotted: str, text: str, line: int) -> list[lsp.CompletionItem]:
    if dotted == "event":
        name = trigger_event(text, line)
        record = rs.table.events.get(name) if name else None
        records = [record] if record is not None else list(rs.table.events.values())
        seen, out = set(), []
        for rec in records:
            for fname, ftype in rec.fields:
                if fname not in seen:
                    seen.add(fname)
                    out.append(lsp.CompletionItem(label=fname, kind=K.Field,
                                                  detail=f"{rec.name} event field: "
                                                         f"{T.describe(ftype)}"))
        return out
    out = []
    for owner, fields in (("card", rs.table.card_fields), ("space", SPACE_FIELDS),
                          ("player", PLAYER_FIELDS)):
        for fname, ftype in fields.items():
            out.append(lsp.CompletionItem(label=fname, kind=K.Field,
                                          detail=f"{owner} field: {T.describe(ftype)}",
                                          sort_text=f"{owner}{fname}"))
    return out


def value_items(rs, kinds: tuple[str, ...], roots_rulesets) -> list[lsp.CompletionItem]:
    """Completion of a value; ``roots_rulesets`` (ruleset id -> manifest, or a function
    giving it) is looked at only where a ruleset is named, as finding it reads folders."""
    out = []
    for kind in kinds:
        if kind == "card":
            for ident, e in rs.cards.items():
                name = e.data.get("name", ident) if isinstance(e.data, dict) else ident
                out.append(lsp.CompletionItem(label=ident, kind=K.Class, detail=f"card: {name}"))
        elif kind in ("event", "action", "variant"):
            pool = rs.table.events if kind == "event" else rs.sections[kind + "s"]
            out += [lsp.CompletionItem(label=i, kind=KIND_ICON[kind], detail=kind)
                    for i in pool]
        elif kind == "ruleset":
            named = roots_rulesets() if callable(roots_rulesets) else roots_rulesets
            names = sorted(set(shipped_rulesets()) | set(named or {}))
            out += [lsp.CompletionItem(label=n, kind=K.Module, detail="ruleset") for n in names]
        else:
            for name in rs.table.of_kind(kind):
                sym = rs.table.get(name, (kind,))
                out.append(lsp.CompletionItem(label=name, kind=KIND_ICON.get(kind, K.Text),
                                              detail=words(kind) + (
                                                  f" ({sym.canonical}, plural)"
                                                  if sym and sym.canonical else "")))
    return out


def _names(rs) -> tuple:
    """The items every place in effect text offers, made once per loaded ruleset."""
    made = rs.__dict__.get("_completion_items")
    if made is None:
        items = symbol_items(rs) + builtin_items()
        items += [lsp.CompletionItem(label=k, kind=K.Keyword, sort_text=f"3{k}")
                  for k in keywords()]
        items += [lsp.CompletionItem(label=v, kind=K.Variable, detail=d, sort_text=f"0{v}")
                  for v, d in VARIABLES.items()]
        made = rs.__dict__["_completion_items"] = tuple(items)
    return made


# The slot a statement's words leave for the name typed next, and the kinds of names that
# fit it: read from the text before the word on its line (the statement as written so far).
_AMOUNT = r"(?:\d+|[A-Za-z_]\w*|[A-Za-z_]\w*\([^()]*\)|\([^()]*\))"
SLOTS = [
    (re.compile(rf"\b(?:gain|lose|pay)\s+{_AMOUNT}\s+$"), ("resource",)),
    (re.compile(rf"\b(?:add|remove|move|steal)\s+(?:up\s+to\s+)?{_AMOUNT}\s+$"),
     ("card_resource", "resource")),
    (re.compile(r"\bplace\s+$"), ("tile",)),
    (re.compile(r"\b(?:raise|lower)\s+$"), ("track", "player_track")),
    (re.compile(r"\bemit\s+$"), ("event",)),
    (re.compile(r"\brun\s+[A-Za-z_]\w*\s+of\s+$"), ("card",)),
    (re.compile(r"\bplace\s+[A-Za-z_]\w*\s+on\s+$"), ("space",)),
    (re.compile(r"\b(?:add|move)\s+.*\bto\s+$"), ("card",)),
]
# a builtin's parameter type -> the kinds of declared names that are values of it
TYPE_KINDS = {T.RESOURCE: ("resource",), T.CARD_RESOURCE: ("card_resource",),
              T.CARD: ("card",), T.CARD_ID: ("card",), T.TILE: ("tile",),
              T.TAG: ("tag",), T.CARD_TYPE: ("card_type",), T.ZONE: ("zone",),
              T.TRACK: ("track", "player_track"), T.MARKER: ("marker",), T.BONUS: ("bonus",),
              T.SPACE_TYPE: ("space_type",), T.MODIFIER: ("modifier",), T.SPACE: ("space",),
              T.BLOCK: ("block",)}


def _argument_kinds(before: str) -> tuple[str, ...]:
    """The kinds fitting the argument of a builtin call the cursor is in, or ()."""
    depth, i = 0, len(before) - 1
    commas = 0
    while i >= 0:
        ch = before[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                m = re.search(r"([A-Za-z_]\w*)\s*$", before[:i])
                b = BUILTINS.get(m.group(1)) if m else None
                if b is None or not b.params:
                    return ()
                param = b.params[min(commas, len(b.params) - 1)]
                if commas >= len(b.params) and not b.params[-1].variadic:
                    return ()
                types = param.type if isinstance(param.type, tuple) else (param.type,)
                return tuple(k for t in types for k in TYPE_KINDS.get(t, ()))
            depth -= 1
        elif ch == "," and depth == 0:
            commas += 1
        i -= 1
    return ()


def slot_kinds(before: str) -> tuple[str, ...]:
    """The kinds of names that fit where the cursor is, from the line's text before it."""
    for pattern, kinds in SLOTS:
        if pattern.search(before):
            return kinds
    return _argument_kinds(before)


def _fitting_first(rs, items: list, kinds: tuple[str, ...]) -> list:
    """``items`` with the names of ``kinds`` moved to the top (and the first preselected)."""
    fit = set()
    for kind in kinds:
        fit.update(rs.cards if kind == "card" else rs.table.of_kind(kind))
    icons = {KIND_ICON.get(k) for k in kinds}
    out, rest = [], []
    for item in items:
        if item.label in fit and item.kind in icons:
            out.append(attrs.evolve(item, sort_text=f"00{item.label}"))
        else:
            rest.append(item)
    if out:
        out.sort(key=lambda i: i.sort_text)
        out[0] = attrs.evolve(out[0], preselect=True)
    return out + rest


def complete(rs, text: str, line: int, col: int, roots_rulesets=None
             ) -> list[lsp.CompletionItem]:
    """The completion items at the 0-based (line, col) of ``text``, for ruleset ``rs``."""
    place = place_at(text, line, col)
    if rs is None:
        return []
    if place.in_value:
        return value_items(rs, place.value_kinds, roots_rulesets or {})
    if not place.in_effect:
        return []
    if place.dotted is not None:
        return field_items(rs, place.dotted, text, line)
    before = text.split("\n")[line][:place.word_start]
    if re.search(r"\bany\s+$", before):
        return [lsp.CompletionItem(label=n, kind=K.Keyword, detail=f"any {n}: {t}",
                                   documentation=doc) for n, (t, doc) in ANY_NOUNS.items()]
    items = list(_names(rs))
    items += [lsp.CompletionItem(label=v, kind=K.Variable, detail="bound here",
                                 sort_text=f"0{v}") for v in effect_locals(text, line)]
    kinds = slot_kinds(before)
    if kinds:
        items = _fitting_first(rs, items, kinds)
    return items
