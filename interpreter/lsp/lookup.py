"""Hover and go-to-definition: what a name under the cursor is, and where it is declared.

A name is looked up in the ruleset the file is checked in (with its mods,
so a mod's file reaches into its target ruleset): a builtin shows its
signature and documentation, a card its rendered text (the words players
read, made by :mod:`rulebook_games.lang.words.cards`), a procedure or function its
signature, description and phrase, and any other declared name its kind,
its name and where it is declared. Definitions are the places of the
declarations, in whichever file of the ruleset they are. Hovers are
Markdown; every piece of text taken from a rule file is made literal first
(:func:`~.complete.md_text`), so a card named ``![x](http://…)`` shows those
characters and never loads a picture.
"""

from __future__ import annotations

from ..lang.builtins import AGGREGATES, BUILTINS, STATEMENTS
from ..lang.docgen import statement_doc
from ..span import Span
from .complete import aggregate_doc, builtin_doc, callable_signature, md_code, md_text, words
from .locate import place_at, word_at

# declaration lists whose entries are looked up by id when the name is no symbol
# words that carry on a statement, shown as it
STATEMENT_OF = {"elif": "if", "else": "if"}

SECTIONS = {"actions": "action", "events": "event", "variants": "variant", "phases": "phase",
            "scoring": "scoring rule", "invariants": "invariant", "boards": "board"}


def _entry_span(entry) -> Span | None:
    try:
        return entry.span("id") if isinstance(entry.data, dict) else entry.span()
    except Exception:  # an entry made by a mod with no place of its own
        return None


def declarations(rs, name: str, kinds: tuple[str, ...] = ()) -> list[tuple[str, Span]]:
    """(kind, place) of every declaration of ``name``, those of ``kinds`` first."""
    out: list[tuple[str, Span]] = []
    canonical = name
    for sym in rs.table.candidates(name):
        if sym.canonical:
            canonical = sym.canonical
        span = sym.span
        if sym.kind == "card" and name in rs.cards:
            span = _entry_span(rs.cards[name]) or span
        if span is not None:
            out.append((sym.kind, span))
    if canonical != name:
        out += [(k, s) for k, s in declarations(rs, canonical) if (k, s) not in out]
    for section, kind in SECTIONS.items():
        entry = rs.sections.get(section, {}).get(name)
        if entry is not None:
            span = _entry_span(entry)
            if span is not None and (kind, span) not in out:
                out.append((kind, span))
    out.sort(key=lambda ks: 0 if ks[0] in kinds else 1)
    return out


def _card_hover(rs, ident: str) -> str:
    from ..lang.words import catalogue_entry, facts_line
    try:
        entry = catalogue_entry(rs, ident)
    except Exception:  # a card whose effects do not check yet: its printed facts only
        data = rs.cards[ident].data
        name = data.get("name", ident) if isinstance(data, dict) else ident
        return f"**{md_text(name)}** (card)"
    head = f"**{md_text(entry['name'])}** (card)"
    facts = facts_line(entry)
    out = [head] + ([md_text(facts)] if facts else []) + \
        ["", *(md_text(ln) for ln in entry["lines"] if ln is not None)]
    return "\n\n".join(out)


def _callable_hover(rs, name: str, kind: str) -> str:
    c = rs.table.callables[name]
    entry = rs.sections[kind + "s"].get(name)
    out = [f"```\n{md_code(callable_signature(c))}\n```", f"{kind}"]
    if entry is not None:
        if entry.get("description"):
            out.append(md_text(entry.get("description")))
        if entry.get("phrase"):
            out.append(f"Reads: “{md_text(entry.get('phrase'))}”")
    return "\n\n".join(out)


def _starts_statement(text: str, line: int, col: int, word: str) -> bool:
    """Whether the word at ``col`` is a statement's first word (after ``:``, ``;``, ``-``,
    a key, or the line's start), and so a keyword, not a name that happens to match."""
    before = text.split("\n")[line][:col].rstrip()
    if not before:
        return True
    return before[-1] in ":;-|>" or before.endswith(("else", "\"", "'"))


def hover_text(rs, text: str, line: int, col: int) -> str | None:
    """Markdown for the name at the 0-based (line, col), or None."""
    name = word_at(text, line, col)
    if not name or rs is None:
        return None
    place = place_at(text, line, col)
    parts = []
    if place.in_effect and place.dotted is None:
        keyword = STATEMENT_OF.get(name, name)
        if keyword in STATEMENTS and _starts_statement(text, line, place.word_start, name):
            return statement_doc(STATEMENTS[keyword])
        if name in BUILTINS:
            parts.append(builtin_doc(BUILTINS[name]))
        elif name in AGGREGATES:
            parts.append(aggregate_doc(AGGREGATES[name]))
    if name in rs.cards:
        parts.append(_card_hover(rs, name))
    for sym in rs.table.candidates(name):
        if sym.kind == "card":
            continue
        if sym.kind in ("procedure", "function") and name in rs.table.callables:
            parts.append(_callable_hover(rs, name, sym.kind))
            continue
        data = sym.data if isinstance(sym.data, dict) else {}
        line_ = f"**{md_text(name)}**: {words(sym.kind)}"
        if sym.canonical:
            line_ += f" (plural of {md_text(sym.canonical)})"
        if data.get("name") and data["name"] != name:
            line_ += f", “{md_text(data['name'])}”"
        if data.get("description"):
            line_ += f"\n\n{md_text(data['description'])}"
        parts.append(line_)
    if not parts:
        for section, kind in SECTIONS.items():
            entry = rs.sections.get(section, {}).get(name)
            if entry is not None:
                desc = entry.get("description") or entry.get("name") or ""
                parts.append(f"**{md_text(name)}**: {kind}" +
                             (f"\n\n{md_text(desc)}" if desc else ""))
    return "\n\n---\n\n".join(parts) if parts else None


def definition(rs, text: str, line: int, col: int) -> list[Span]:
    """The declarations of the name at the 0-based (line, col)."""
    name = word_at(text, line, col)
    if not name or rs is None:
        return []
    place = place_at(text, line, col)
    found = declarations(rs, name, place.value_kinds)
    if place.value_kinds:
        wanted = [s for k, s in found if k in place.value_kinds]
        if wanted:
            return wanted
    return [s for _, s in found]
