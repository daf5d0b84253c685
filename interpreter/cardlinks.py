"""Where a card is on the cards gallery of ``rulebook serve``: its anchor and its address.

The gallery (``/cards/RULESET``, docs/web.md) gives every card an element
whose id is :func:`card_anchor` of the card's id, and the lab's report page
links card names there (:func:`gallery_link`), so the two agree on one
function. An anchor is an address, not text a person reads as the card: the
id's letters and digits as they are, ``_`` as ``-``, and any other character
as ``.`` and its code in hex, so two ids never share an anchor.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

_PLAIN = set("abcdefghijklmnopqrstuvwxyz0123456789")


def card_anchor(card_id: str) -> str:
    """``card-night-market`` for ``night_market``: the same for the same id, always."""
    out = []
    for ch in str(card_id):
        if ch in _PLAIN:
            out.append(ch)
        elif ch == "_":
            out.append("-")
        else:
            out.append(f".{ord(ch):x}.")
    return "card-" + "".join(out)


def gallery_path(ruleset: str, mods=()) -> str:
    """``/cards/RULESET?mod=NAME…``: the gallery of a ruleset (its folder's name) with the
    mods of those file names (without ``.yaml``) layered in, as the server offers them."""
    path = "/cards/" + quote(str(ruleset), safe="")
    if mods:
        path += "?" + urlencode([("mod", str(m)) for m in mods])
    return path


def gallery_link(server: str, ruleset: str, card_id: str, mods=()) -> str:
    """A card's address on the gallery of the server at ``server`` (``http://HOST:PORT``)."""
    return server.rstrip("/") + gallery_path(ruleset, mods) + "#" + card_anchor(card_id)
