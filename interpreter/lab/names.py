"""Names for people: turn the rule ids of a results file into the ruleset's own names.

A results file holds ids (a card's, a scoring entry's, a feature's). The
report shows the names the ruleset gives them, so it loads the ruleset:
the one given with ``--ruleset``, else the shipped ruleset the file names.
The file's mods are layered in when their files can still be found, so a
card a mod adds has its name too. When the loaded rules are not the ones
the games were played with (another content hash), the names are still
used and one warning says so; when no ruleset can be found, one note says
so and ids are shown. Nothing here executes anything but loading rules.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import RulebookError
from ..paths import find_ruleset

# where an id used as a value (a feature's category, an item) is looked up, in order
_VALUE_SECTIONS = ("cards", "tags", "resources", "card_types", "tracks", "markers", "zones",
                   "tiles", "boards", "variants", "actions", "scoring", "features")


class Names:
    """Look-ups from ids to names; every one falls back to the id itself."""

    def __init__(self, rs=None):
        self.rs = rs
        self.notes: list[str] = []

    def _in(self, section: str, ident: str) -> str | None:
        if self.rs is None:
            return None
        entry = self.rs.sections.get(section, {}).get(ident)
        name = entry.get("name") if entry is not None else None
        return str(name) if name else None

    def ruleset(self, fallback: str) -> str:
        return self.rs.name if self.rs is not None else fallback

    def card(self, ident: str) -> str:
        return self._in("cards", ident) or ident

    def entry(self, ident: str) -> str:
        """A scoring entry."""
        return self._in("scoring", ident) or ident

    def action(self, ident: str) -> str:
        """A flow action, or a card's action (named after its card when it has no name)."""
        name = self._in("actions", ident)
        if name:
            return name
        card, _, index = ident.partition(":")  # a card action may carry its number
        name = self._in("cards", card)
        if name:
            return f"{name} (action {index})" if index else name
        return ident

    def value(self, ident: str) -> str:
        for section in _VALUE_SECTIONS:
            name = self._in(section, ident)
            if name:
                return name
        return ident

    def feature(self, path: tuple) -> str:
        """A feature, or one key of a feature that gives an object (``Tags in play: space``)."""
        head = self._in("features", path[0]) or path[0]
        return ": ".join([head] + [self.value(k) for k in path[1:]])

    def rounds(self) -> str:
        """What the ruleset calls its rounds, in the plural ("Generations"); else "Rounds"."""
        single = self.rs.singles.get("rounds") if self.rs is not None else None
        name = single.get("name") if single is not None else None
        return f"{name}s" if isinstance(name, str) and name else "Rounds"

    def mod(self, m) -> str:
        """A mod as a results line lists it: its name when its file is still there."""
        file = m.get("file") if isinstance(m, dict) else str(m)
        if file and Path(file).is_file():
            return mod_name(file)
        return str((m.get("id") if isinstance(m, dict) else None) or file)

    def item(self, kind, ident: str) -> str:
        if kind in ("played", "gained", "card_actions"):
            return self.card(ident)
        if kind == "actions":
            return self.action(ident)
        return self.value(ident)


def for_results(res, ruleset_path: str | None, load) -> Names:
    """The names for a results file; ``load(path, mods)`` loads a ruleset or raises.

    ``ruleset_path`` is the ``--ruleset`` option, if given.
    """
    info = res.ruleset or {}
    where = ruleset_path or info.get("id")
    manifest = find_ruleset(where) if where else None
    if manifest is None:
        names = Names()
        names.notes.append(
            (f"ruleset '{ruleset_path}' not found" if ruleset_path else
             f"the ruleset '{info.get('id', '?')}' is not a shipped one") +
            "; showing ids instead of names (give the ruleset with --ruleset PATH)")
        return names
    mod_files = [m.get("file") for m in res.mods if isinstance(m, dict) and m.get("file")]
    if not mod_files:
        mod_files = [m for m in res.mods if isinstance(m, str)]
    found = [f for f in mod_files if Path(f).is_file()]
    rs = None
    for mods in ([found] if found else []) + [[]]:
        try:
            rs = load(str(manifest), mods)
            break
        except RulebookError:  # a mod that no longer loads: try the rules alone
            continue
    names = Names(rs)
    if rs is None:
        names.notes.append(f"the ruleset at {manifest.parent} does not load; showing ids "
                           "(see rulebook validate)")
    elif info.get("content_hash") and info["content_hash"] != rs.content_hash:
        names.notes.append(f"these games were played on other rules than {rs.name} as it is "
                           "now (another content hash); the names are still taken from it")
    return names


def mod_name(path) -> str:
    """A mod file's ``name:``, else its ``id:``, else the file's own name."""
    from ..errors import Diagnostics
    from ..yamlload import load_yaml
    doc = load_yaml(path, Diagnostics())
    data = getattr(doc, "data", None)
    if isinstance(data, dict):
        for key in ("name", "id"):
            if isinstance(data.get(key), str) and data[key]:
                return data[key]
    return Path(path).name
