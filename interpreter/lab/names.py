"""Names for people: turn the rule ids of a results file into the ruleset's own names.

A results file holds ids (a card's, a scoring entry's, a feature's). The
report shows the names the ruleset gives them, so it loads the ruleset. A
results file is untrusted and names its ruleset and mods the way a game
record does, so nothing it names is opened unless it is one of these: the
ruleset is the one given with ``--ruleset``, else the shipped ruleset whose
name the lines give (a name, never a path); each mod is one given with
``--mod``, else the file the lines name relative to the results file's own
folder (never outside it, links followed), else one of the ruleset's house
rules (its ``mods/`` folder) of that file name and content. A mod found is
layered in, so a card it adds has its name too. When the loaded rules are
not the ones the games were played with (another content hash), the names
are still used and one note says so; a ruleset or mod that is not found is
said once, with the line that names it, and ids are shown for what it
would have named. Nothing here executes anything but loading rules.
"""

from __future__ import annotations

import hashlib
from pathlib import Path, PurePosixPath

from ..load.assemble import hash_text
from ..play.record import shown
from ..errors import RulebookError
from ..paths import RULESET_FILE, find_ruleset, shipped_rulesets, shipped_rulesets_dir
from ..load.tree import OutsideTree, is_inside, resolve_in, tree_of

# where an id used as a value (a feature's category, an item) is looked up, in order
_VALUE_SECTIONS = ("cards", "tags", "resources", "card_types", "tracks", "markers", "zones",
                   "tiles", "boards", "variants", "actions", "scoring", "features")


class CardName(str):
    """A card's name as a table cell: text like any other, that also knows its card.

    The HTML page (:mod:`.page`) shows its generated text on hover, and links it
    to the cards gallery when asked; everywhere else it is the name."""

    card: str
    _rs = None

    def __new__(cls, name: str, card: str, rs=None):
        self = super().__new__(cls, name)
        self.card, self._rs = card, rs
        return self

    @property
    def text(self) -> str:
        """The card's generated text, as ``rulebook cards`` prints it, on one line."""
        if self._rs is None:
            return ""
        from ..lang.words import catalogue_entry, facts_line
        try:
            entry = catalogue_entry(self._rs, self.card)
        except Exception:  # a hover is a help, never a reason for the report to stop
            return ""
        return " · ".join(part for part in [facts_line(entry)] + list(entry["lines"]) if part)


def about_card(name, text: str) -> str:
    """``text`` (a label that begins with a card's name), still knowing the card if ``name``
    does: so "NAME: played by" links to the card NAME names, as the name would."""
    return CardName(text, name.card, name._rs) if isinstance(name, CardName) else text


class Names:
    """Look-ups from ids to names; every one falls back to the id itself."""

    def __init__(self, rs=None):
        self.rs = rs
        self.notes: list[str] = []
        self.mod_files: dict[int, Path] = {}  # the file found for each mod, by its place

    def _in(self, section: str, ident: str) -> str | None:
        if self.rs is None:
            return None
        entry = self.rs.sections.get(section, {}).get(ident)
        name = entry.get("name") if entry is not None else None
        return str(name) if name else None

    def ruleset(self, fallback: str) -> str:
        return self.rs.name if self.rs is not None else fallback

    def card(self, ident: str) -> str:
        """A card's name (a :class:`CardName`, which knows its card), else the id."""
        name = self._in("cards", ident)
        return CardName(name, ident, self.rs) if name else ident

    def ruleset_folder(self) -> str | None:
        """The name of the loaded ruleset's folder, as the cards gallery names it."""
        return Path(self.rs.root).name if self.rs is not None else None

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
            return CardName(f"{name} (action {index})" if index else name, card, self.rs)
        return ident

    def value(self, ident: str) -> str:
        for section in _VALUE_SECTIONS:
            name = self._in(section, ident)
            if name:
                return CardName(name, ident, self.rs) if section == "cards" else name
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

    def mods(self, mods: list) -> list[str]:
        """The mods of a results file for people: the name a found mod's file gives, else
        the id or file name the line gives (as text: such a file is never opened)."""
        out = []
        for i, m in enumerate(mods):
            if i in self.mod_files:
                out.append(mod_name(self.mod_files[i]))
            elif isinstance(m, dict):
                out.append(str(m.get("id") or m.get("file") or "?"))
            else:
                out.append(str(m))
        return out

    def item(self, kind, ident: str) -> str:
        if kind in ("played", "gained", "card_actions"):
            return self.card(ident)
        if kind == "actions":
            return self.action(ident)
        return self.value(ident)


def for_results(res, ruleset_path: str | None, load, mod_paths=()) -> Names:
    """The names for a results file; ``load(path, mods)`` loads a ruleset or raises.

    ``ruleset_path`` and ``mod_paths`` are the ``--ruleset`` and ``--mod``
    options, if given (files a person named, used as given); without them,
    only what the module text allows is opened.
    """
    info = res.ruleset or {}
    place = f"{res.path}:{res.first_line or 1}"
    manifest = find_ruleset(ruleset_path) if ruleset_path else _shipped(info.get("id"))
    if manifest is None:
        names = Names()
        names.notes.append(
            (f"ruleset '{ruleset_path}' not found" if ruleset_path else
             f"{place}: the ruleset {shown(info.get('id'), 60)} is not a shipped one") +
            "; showing ids instead of names (give the ruleset with --ruleset PATH)")
        return names
    notes: list[str] = []
    if mod_paths:
        found = {i: Path(p) for i, p in enumerate(mod_paths)}
    else:
        found = _line_mods(res, manifest.parent, place, notes)
    rs = None
    files = [str(found[i]) for i in sorted(found)]
    for mods in ([files] if files else []) + [[]]:
        try:
            rs = load(str(manifest), mods)
            break
        except RulebookError:  # a mod that no longer loads: try the rules alone
            continue
    names = Names(rs)
    names.mod_files = found
    names.notes.extend(notes)
    if rs is None:
        names.notes.append(f"the ruleset at {manifest.parent} does not load; showing ids "
                           "(see rulebook validate)")
    elif info.get("content_hash") and info["content_hash"] != rs.content_hash:
        names.notes.append(f"these games were played on other rules than {rs.name} as it is "
                           "now (another content hash); the names are still taken from it")
    return names


def _shipped(ident) -> Path | None:
    """The manifest of the shipped ruleset called ``ident``: a name, never a path."""
    if not isinstance(ident, str) or ident not in shipped_rulesets():
        return None
    return shipped_rulesets_dir() / ident / RULESET_FILE


def _line_mods(res, root: Path, place: str, notes: list[str]) -> dict[int, Path]:
    """The files of the mods the results file names that may be opened, by their place."""
    folder = Path(res.path).parent
    found = {}
    for i, m in enumerate(res.mods):
        file = m.get("file") if isinstance(m, dict) else m
        if not file:
            continue
        digest = m.get("content_hash") if isinstance(m, dict) else None
        why = (f"the mod {shown(file, 60)} is neither in the results file's folder nor one "
               "of the ruleset's house rules")
        try:
            path = resolve_in(folder, tree_of(folder), file, "the mod",
                              "the results file's folder")
        except OutsideTree as exc:
            path, why = None, exc.message.replace(f"'{file}'", shown(file, 60))
        except (ValueError, OSError):  # a name no file system takes (a NUL, too long)
            path = None
        if path is None or not _is_file(path):
            path = _house_rule(root, file, digest)
        if path is None:
            notes.append(f"{place}: {why}; it is not read, and what it adds is shown by its "
                         "ids (give the mods with --mod)")
            continue
        found[i] = path
    return found


def _house_rule(root: Path, file: str, digest: str | None) -> Path | None:
    """The ruleset's own house rule of that file name, if its content is the one played."""
    name = PurePosixPath(file.replace("\\", "/")).name
    if not digest or not name or name in (".", ".."):
        return None
    candidate = root / "mods" / name
    try:
        if not _is_file(candidate) or not is_inside(candidate, tree_of(root)):
            return None
        text = candidate.read_bytes().decode("utf-8-sig")
    except (OSError, ValueError):  # ValueError: a NUL in the name, or not UTF-8
        return None
    return candidate if hashlib.sha256(hash_text(text)).hexdigest() == digest else None


def _is_file(path: Path) -> bool:
    """A regular file (links followed): never a pipe, which would make reading it wait."""
    import stat
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False


def mod_name(path) -> str:
    """A mod file's ``name:``, else its ``id:``, else the file's own name."""
    from ..errors import Diagnostics
    from ..load.yamlload import load_yaml
    doc = load_yaml(path, Diagnostics())
    data = getattr(doc, "data", None)
    if isinstance(data, dict):
        for key in ("name", "id"):
            if isinstance(data.get(key), str) and data[key]:
                return data[key]
    return Path(path).name
