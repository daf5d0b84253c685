"""The cards gallery: every card of a ruleset with its generated text, mods' changes marked.

:func:`gallery` is the data of ``/cards/RULESET`` (``/api/cards/RULESET``):
each card as ``rulebook cards`` prints it (its name, the line of facts and
the lines of text generated from its effects: :func:`~rulebook_games.lang.
words.catalogue_entry`), its anchor on the page
(:func:`~rulebook_games.cardlinks.card_anchor`), its cost, type and tags to
search by, and, when mods are layered in, whether a mod added or changed it
(by comparing the card with the ruleset's own, so a change made through a
constant the text names counts too) and which mods did, with the card as it
was before. Cards a mod removed are listed apart. Every string here comes
from rule files: the page puts them in with ``textContent`` only.
"""

from __future__ import annotations

from pathlib import Path

from ..cardlinks import card_anchor
from ..lang.words import catalogue_entry, facts_line


def _text(rs, cid: str, entry: dict | None = None) -> dict:
    entry = entry or catalogue_entry(rs, cid)
    return {"name": entry["name"], "facts": facts_line(entry), "lines": list(entry["lines"])}


def _by_mods(entry, mod_names: dict[str, str]) -> list[str]:
    """The mods (their names) whose files hold the card's declaration or a patch of it."""
    docs = [doc for doc, _ in (getattr(entry, "patched", None) or {}).values()]
    docs.append(entry.doc)
    out = []
    for doc in docs:
        try:
            name = mod_names.get(str(Path(doc.file).resolve()))
        except (OSError, ValueError):
            name = None
        if name and name not in out:
            out.append(name)
    return out


def gallery(rs, base, applied: list[tuple[Path, str]], name: str, offered: list[dict]) -> dict:
    """The gallery of ``rs`` (``base`` with the ``applied`` mods, each (file, name), layered in).

    ``base`` is the ruleset without mods (``rs`` itself when none are applied);
    ``offered`` lists the mods the server offers for this ruleset, for the page
    to switch on and off."""
    mod_names = {str(Path(p).resolve()): n for p, n in applied}
    cards = []
    for cid, entry in rs.cards.items():
        words = catalogue_entry(rs, cid)
        text = _text(rs, cid, words)
        cost = words.get("cost")
        card = {"anchor": card_anchor(cid), **text,
                "cost": cost if isinstance(cost, (int, float)) and not isinstance(cost, bool)
                else None,
                "type": words.get("type"), "tags": list(words["tags"]), "mark": None,
                "by": []}
        if base is not rs:
            if cid not in base.cards:
                card["mark"] = "added"
            else:
                before = _text(base, cid)
                if before != text or base.cards[cid].data != entry.data:
                    card["mark"] = "changed"
                    card["before"] = before
            if card["mark"]:
                card["by"] = _by_mods(entry, mod_names)
        cards.append(card)
    removed = [{"anchor": card_anchor(cid), **_text(base, cid), "mark": "removed"}
               for cid in base.cards if cid not in rs.cards] if base is not rs else []
    return {"ruleset": rs.name, "key": name, "mods": [n for _, n in applied],
            "offered": offered, "cards": cards, "removed": removed}
