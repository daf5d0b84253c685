"""Stage 6: assemble a checked, compiled :class:`Ruleset` from its files.

This is the front door of the pipeline: it follows the manifest's includes,
loads and schema-checks every file, layers mods, builds the symbol table,
checks references between declarations, parses, type-checks and compiles
every effect and expression, and hands back an immutable Ruleset with a
content hash. All errors of the run are collected; if there are any, a
:class:`RulebookError` carries them and no Ruleset is produced.
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from . import loadcache
from .assemble import Assembler, display_path, hash_text  # noqa: F401  (display_path: for callers)
from .entries import (COMPONENT_LISTS, FLOW_LISTS, FLOW_SINGLES, Entry,  # noqa: F401
                      PatchedEntry)
from ..errors import Diagnostics, RulebookError, suggest, suggestion_budget
from ..lang import ast, unparse
from ..lang import types as T
from ..lang.builtins import AGGREGATES, BUILTINS
from ..lang.checker import RESERVED, Checker, Context
from ..lang.compiler import Compiler
from ..lang.implied import before_run, derive, raised, safe
from ..lang.parser import EffectSyntaxError, parse
from ..lang.symbols import Callable_, Symbol, SymbolTable
from .mods import Declarations, apply_mods
from .view import check_view
from ..paths import RULESET_FILE, find_ruleset, shipped_rulesets, shipped_rulesets_dir  # noqa: F401
from ..span import Span
from .yamlload import Document

# which symbol kind each simple declaration list produces
# a function's reason may say the sides of its comparison (docs/language.md)
_SIDES = re.compile(r"\{(?:left|right)\}")
_COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
SYMBOL_KIND = {"resources": "resource", "card_resources": "card_resource", "tags": "tag",
               "card_types": "card_type", "markers": "marker", "blocks": "block",
               "zones": "zone", "tiles": "tile"}
SYMBOL_TYPE = {"resource": T.RESOURCE, "card_resource": T.CARD_RESOURCE, "tag": T.TAG,
               "card_type": T.CARD_TYPE, "marker": T.MARKER, "block": T.BLOCK, "zone": T.ZONE,
               "tile": T.TILE, "space_type": T.SPACE_TYPE, "bonus": T.BONUS, "space": T.SPACE,
               "card": T.CARD_ID, "modifier": T.MODIFIER, "track": T.INT,
               "player_track": T.INT, "procedure": T.NONE, "function": T.ANY}



@dataclass
class Ruleset:
    """A checked, compiled ruleset: everything the engine needs, nothing to re-check."""

    id: str
    name: str
    version: str
    description: str
    min_players: int
    max_players: int
    root: Path
    files: list[str]
    mods: list[str]
    content_hash: str
    table: SymbolTable
    sections: dict[str, dict[str, Entry]]
    singles: dict[str, Entry]
    constants: dict[str, Any]
    adjacency: dict[str, list[str]]
    code: dict[tuple, Callable]
    asts: dict[tuple, Any] = field(repr=False, default_factory=dict)
    explainers: dict[tuple, Callable] = field(repr=False, default_factory=dict)
    # the checks the first statements of a card's play (key ("card", id)) or an action's
    # 'do' (the action's key) imply: [(Implied, compiled condition or None)], see
    # lang/implied.py; only entries with at least one check
    implied: dict[tuple, list] = field(repr=False, default_factory=dict)
    # each mod layered in: its id, its file as given and the hash of its text
    mod_info: list[dict] = field(default_factory=list)
    # what the engine reads once from the declarations and keeps with them: each phase's
    # action menu and each card's actions, made when first asked (engine/menus.py)
    menus: dict = field(repr=False, compare=False, default_factory=dict)

    @property
    def words(self):
        """The renderer of this ruleset's effects into words (see lang/words/)."""
        w = self.__dict__.get("_words")
        if w is None:
            from ..lang.words import Words
            compiled: dict[int, Callable] = {}

            def evaluate(node, frame):
                code = compiled.get(id(node))
                if code is None:
                    code = compiled[id(node)] = Compiler(self.table, self.code).expr(node)
                    keep.append(node)  # ids stay valid while the node lives
                return code(frame)
            keep: list = []
            w = self.__dict__["_words"] = Words(self, evaluate)
        return w

    def explainer(self, key: tuple) -> Callable:
        """A function of a frame that says why the condition at ``key`` fails."""
        if key not in self.explainers:
            tree = self.asts.get(key)
            if tree is None:
                self.explainers[key] = lambda f: "its condition does not hold"
            else:
                words = self.words
                self.explainers[key] = lambda f: words.why_not(tree, f)
        return self.explainers[key]

    @property
    def cards(self) -> dict[str, Entry]:
        return self.sections["cards"]

    @property
    def variants(self) -> list[str]:
        """The ids of the ruleset's variants."""
        return list(self.sections["variants"])

    def card_text(self, card: str) -> str:
        """A card's name and facts, then its text a part a line; ``card`` is its id or name.

        An unknown card is a ValueError that suggests the closest id or name."""
        from ..lang.words import catalogue_entry, facts_line
        entry = catalogue_entry(self, self._card_named(card))
        facts = facts_line(entry)
        return "\n".join([entry["name"] + (f" ({facts})" if facts else "")]
                         + [f"  {line}" for line in entry["lines"]])

    def _card_named(self, name: str) -> str:
        """The id of the card ``name`` names: its id or its printed name, in any case."""
        text = str(name)
        if text in self.cards:
            return text
        by_name: dict[str, str] = {}
        for cid, entry in self.cards.items():
            by_name.setdefault(cid.lower(), cid)
            by_name.setdefault(str(entry.get("name") or "").lower(), cid)
        found = by_name.get(text.strip().lower())
        if found is None:
            # ids for what looks like an id, printed names for the rest: one hint a card
            pool = list(self.cards) if "_" in text else \
                [str(e.get("name") or cid) for cid, e in self.cards.items()]
            hint = suggest(text, pool)
            raise ValueError(f"no card {_clip(text, 60)!r} in {self.id}"
                             + (f"; {hint}" if hint else ""))
        return found

    @property
    def players_words(self) -> str:
        """How many play it, as a sentence says it: '2 players', '1 player', '1–5 players'."""
        if self.min_players == self.max_players:
            return f"{self.min_players} player{'s' if self.min_players != 1 else ''}"
        return f"{self.min_players}–{self.max_players} players"

    def __repr__(self) -> str:
        # one line: the generated one printed every field, 85 million characters for a
        # large ruleset, and froze the notebook that showed it
        players = self.players_words
        parts = [players, f"{len(self.cards)} card{'s' if len(self.cards) != 1 else ''}"]
        variants = self.variants
        if variants:
            shown = [_clip(v, 24) for v in variants[:3]] + (["..."] if len(variants) > 3 else [])
            parts.append(f"{len(variants)} variant{'s' if len(variants) != 1 else ''} "
                         f"({', '.join(shown)})")
        if self.mods:
            parts.append(f"{len(self.mods)} mod{'s' if len(self.mods) != 1 else ''}")
        text = (f"<Ruleset {_clip(self.id, 40)} {_clip(self.version, 16)} "
                f"{_clip(self.name, 40)!r}: {', '.join(parts)}>")
        return text if len(text) < 200 else text[:197] + "…>"

    def summary(self) -> dict[str, int]:
        copies = sum(int(e.get("copies", 1) or 1) for e in self.cards.values())
        return {"cards": len(self.cards), "card_copies": copies,
                "effects": len(self.code), "files": len(self.files)}


def _clip(text: str, most: int) -> str:
    text = str(text)
    return text if len(text) <= most else text[:most - 1] + "…"


def load_ruleset(path: str | os.PathLike, mods: list[str] | None = None) -> Ruleset:
    """Load, check and compile a ruleset; raise :class:`RulebookError` with every problem.

    A ruleset loaded before without errors, whose files have not changed since,
    comes from the per-user cache (see :mod:`rulebook_games.load.loadcache`) and is the
    same Ruleset a fresh load makes."""
    diags = Diagnostics()
    manifest_path = find_ruleset(path)
    if manifest_path is None:
        known = shipped_rulesets()
        diags.error("RB100", f"no ruleset at '{path}': give a ruleset directory, its "
                    f"{RULESET_FILE}, or a shipped ruleset name ({', '.join(known)})",
                    Span(str(path), 1, 1), hint=suggest(Path(str(path)).name, known))
        raise RulebookError(diags)
    mods = [str(m) for m in mods or []]
    collecting = gc.isenabled()
    gc.disable()  # loading makes many objects and little garbage: collecting would only slow it
    try:
        ruleset = _load(manifest_path, mods, diags)
        if not gc.get_freeze_count():
            # the first ruleset of a process usually lives as long as the process: leave
            # it (and what is loaded so far) out of every later collection, which would
            # otherwise scan it again and again; later loads are collected as usual,
            # so at most one ruleset's worth is kept from collection
            gc.freeze()
        return ruleset
    finally:
        if collecting:
            gc.enable()


def _load(manifest_path: Path, mods: list[str], diags: Diagnostics) -> Ruleset:
    ruleset = _load_cached(manifest_path, mods)
    if ruleset is not None:
        return ruleset
    asm = Assembler(diags, manifest_path.resolve().parent)
    asm.load_tree(manifest_path, "ruleset", [], None)
    for mod in mods:
        asm.load_mod(mod)
    if diags.errors:
        raise RulebookError(diags)
    builder = _Builder(asm, diags, manifest_path)
    ruleset = builder.build(asm.mod_docs)
    if diags.errors:
        raise RulebookError(diags)
    loadcache.save(asm, ruleset, manifest_path, mods)
    return ruleset


def _load_cached(manifest_path: Path, mods: list[str]) -> Ruleset | None:
    """The ruleset as a cached load gives it, or None when there is no usable entry."""
    found = loadcache.lookup(manifest_path, mods)
    if found is None:
        return None
    asm, cached = found
    diags = Diagnostics()
    try:
        ruleset = _Builder(asm, diags, manifest_path).build(asm.mod_docs, cached)
    except Exception:  # an entry that does not fit this code: load afresh
        return None
    return None if diags.errors else ruleset


class ImpliedChecks(dict):
    """{key: [(Implied, compiled condition or None)]}, the checks implied by a card's play
    or an action's effect (see :attr:`Ruleset.implied`), each worked out and compiled
    when first asked for rather than at load: a game's first question needs few of
    them, and TM's take a third of a warm load. Only keys with checks are in it (``get``
    gives None for the others, ``[]`` raises KeyError); iterating it, or
    :meth:`complete`, works out every one (in the order they were worked out, the rest
    in the order of the declarations). What each key holds does not depend on when or
    in which order it is asked for (what is memoised is per tree or per card facts).
    Safe to ask from several threads."""

    __slots__ = ("_make", "_work", "_order", "_keys", "_done", "_finish", "_lock")

    def __init__(self, make: Callable[[], Callable[[tuple], list | None]], keys: list[tuple],
                 finish: Callable[[], None]):
        super().__init__()
        import threading
        self._make = make  # makes what works out the checks of one key (None: none)
        self._work = None
        self._order = tuple(keys)  # every key that may have checks, in declaration order
        self._keys = frozenset(keys)
        self._done: set = set()
        self._finish = finish  # compiles the conditions made so far
        self._lock = threading.Lock()

    def get(self, key, default=None):
        found = dict.get(self, key)
        if found is not None or key in self._done or self._make is None:
            return default if found is None else found
        with self._lock:
            if key not in self._done and self._make is not None:
                checks = self._working()(key) if key in self._keys else None
                self._finish()
                if checks:
                    dict.__setitem__(self, key, checks)
                self._done.add(key)
        found = dict.get(self, key)
        return default if found is None else found

    def _working(self) -> Callable[[tuple], list | None]:
        if self._work is None:
            self._work = self._make()
        return self._work

    def __getitem__(self, key):
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def __bool__(self) -> bool:  # (without working anything out: any key may have checks)
        return bool(self._keys) or dict.__len__(self) > 0

    def complete(self) -> None:
        """Work out every key's checks now (then compile them, in one module)."""
        with self._lock:
            if self._make is None:
                return
            found = {}
            for key in self._order:
                if key not in self._done:
                    checks = self._working()(key)
                    if checks:
                        found[key] = checks
            self._finish()
            dict.update(self, found)  # (added, never removed: another thread may be reading)
            self._done.update(self._order)
            # nothing more to work out: let the builder go
            self._make = self._work = self._finish = None

    def __iter__(self):
        self.complete()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self.complete()
        return dict.__len__(self)

    def keys(self):
        self.complete()
        return dict.keys(self)

    def values(self):
        self.complete()
        return dict.values(self)

    def items(self):
        self.complete()
        return dict.items(self)

    def __eq__(self, other) -> bool:
        self.complete()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        self.complete()
        return dict.__repr__(self)


class _Builder:
    def __init__(self, asm: Assembler, diags: Diagnostics, manifest_path: Path):
        self.asm = asm
        self.diags = diags
        self.manifest_path = manifest_path
        self.parsed: dict | None = None  # a cached load's parsed trees, by key
        self.sections: dict[str, dict[str, Entry]] = {k: {} for k in
                                                      COMPONENT_LISTS + FLOW_LISTS + ("cards",)}
        self.singles: dict[str, Entry] = {}
        self.constants: dict[str, Entry] = {}
        self.table = SymbolTable()
        self.code: dict[tuple, Callable] = {}
        self.asts: dict[tuple, Any] = {}
        self.compiler = Compiler(self.table, self.code)
        self.checker = Checker(self.table, diags)

    # ----------------------------------------------------------- collecting
    def _add(self, section: str, entry: Entry) -> None:
        entries = self.sections[section]
        if entry.id in entries:
            first = entries[entry.id]
            self.diags.error("RB400", f"duplicate id '{entry.id}' in {section} (first declared "
                             f"at {first.span('id') if isinstance(first.data, dict) else first.span()})",
                             entry.span("id") if isinstance(entry.data, dict) else entry.span())
            return
        entries[entry.id] = entry

    def collect(self) -> Document:
        manifest = None
        for doc, kind, _ in self.asm.docs:
            data = doc.data
            if kind == "ruleset":
                manifest = manifest or doc
            elif kind == "components":
                for section in COMPONENT_LISTS:
                    for i, item in enumerate(data.get(section, []) or []):
                        ident = item if isinstance(item, str) else item.get("id")
                        self._add(section, Entry(ident, item, doc, (section, i), section))
                for name, value in (data.get("constants") or {}).items():
                    if name in self.constants:
                        self.diags.error("RB400", f"constant '{name}' declared twice",
                                         doc.key_span(("constants", name)))
                    self.constants[name] = Entry(name, value, doc, ("constants", name),
                                                 "constants")
            elif kind == "flow":
                for section in FLOW_LISTS:
                    for i, item in enumerate(data.get(section, []) or []):
                        self._add(section, Entry(item.get("id", f"#{i}") if section != "triggers"
                                                 else f"{doc.file}#{i}", item, doc,
                                                 (section, i), section))
                for single in FLOW_SINGLES:
                    if single in data:
                        if single in self.singles:
                            first = self.singles[single]
                            self.diags.error("RB400", f"'{single}' is declared twice (first at "
                                             f"{first.key_span()})", doc.key_span((single,)))
                        self.singles[single] = Entry(single, data[single], doc, (single,), single)
            elif kind == "cards":
                for i, item in enumerate(data.get("cards", []) or []):
                    self._add("cards", Entry(item["id"], item, doc, ("cards", i), "cards"))
        return manifest

    # ------------------------------------------------------------- building
    def build(self, mod_docs: list[Document], cached: loadcache.Cached | None = None) -> Ruleset:
        """The Ruleset; from ``cached``, its trees come from the cache instead of the checker."""
        with suggestion_budget():  # hints for thousands of errors stay linear in their number
            return self._build(mod_docs, cached)

    def _build(self, mod_docs: list[Document], cached: loadcache.Cached | None) -> Ruleset:
        manifest = self.collect()
        if mod_docs:
            manifest_id = next((d.data["id"] for d, k, _ in self.asm.docs if k == "ruleset"),
                               None)
            apply_mods(Declarations(manifest_id, self.sections, self.singles, self.constants,
                                    checked=cached is None), mod_docs, self.diags)
        self.declare()
        # a cached load's trees are the parser's: checked here as a fresh load's are
        self.parsed = cached.trees() if cached is not None else None
        self.check_references()
        self.check_effects()
        implied = self.implied_requirements() if not self.diags.errors else {}  # (when used)
        self.compiler.finish()  # one Python module for the whole ruleset
        m = manifest.data
        players = m["players"]
        if players["min"] > players["max"]:
            self.diags.error("RB404", "players.min is larger than players.max",
                             manifest.span(("players",)))
        return Ruleset(
            id=m["id"], name=m["name"], version=str(m.get("version", "0")),
            description=m.get("description", ""), min_players=players["min"],
            max_players=players["max"], root=self.manifest_path.parent,
            files=list(self.asm.files), mods=[d.file for d in mod_docs],
            content_hash=self.asm.hasher.hexdigest(), table=self.table,
            sections=self.sections, singles=self.singles,
            constants={k: e.data for k, e in self.constants.items()},
            adjacency=self.adjacency, code=self.code, asts=self.asts, implied=implied,
            mod_info=[{"id": d.data.get("id") if isinstance(d.data, dict) else None,
                       "file": d.file,
                       "content_hash": hashlib.sha256(hash_text(d.text)).hexdigest()}
                      for d in mod_docs])

    def _declare(self, name: str, kind: str, entry: Entry, span: Span, typ=None,
                 canonical=None, data=None) -> None:
        sym = Symbol(name, kind, typ or SYMBOL_TYPE[kind], span, canonical, data)
        clash = self.table.add(sym)
        if clash is not None:
            where = f" (first at {clash.span})" if clash.span else ""
            self.diags.error("RB400", f"'{name}' is declared twice: as a "
                             f"{clash.kind.replace('_', ' ')}{where} and as a "
                             f"{kind.replace('_', ' ')}", span)

    def declare(self) -> None:
        for section, kind in SYMBOL_KIND.items():
            for ident, e in self.sections[section].items():
                data = e.data if isinstance(e.data, dict) else {"id": ident}
                span = e.span("id") if isinstance(e.data, dict) else e.span()
                self._declare(ident, kind, e, span, data=data)
                plural = data.get("plural")
                if plural and plural != ident:
                    self._declare(plural, kind, e, e.span("plural"), canonical=ident, data=data)
        if self.table.get("play", ("block",)) is None:
            # every card's own 'play' key is a block: 'run play of c', 'has_block(c, play)'
            self.table.add(Symbol("play", "block", T.BLOCK, None, None, {"id": "play"}))
        for ident, e in self.sections["tracks"].items():
            kind = "player_track" if e.get("scope", "global") == "player" else "track"
            self._declare(ident, kind, e, e.span("id"), data=e.data)
        for ident, e in self.sections["modifiers"].items():
            self._declare(ident, "modifier", e, e.span("id"), data=e.data)
            self.table.modifier_params[ident] = self._params(e, "params", variables=True)
        for ident, e in self.sections["events"].items():
            self.table.events[ident] = T.RecordType(ident, tuple(self._params(e, "params")))
        for ident, e in self.sections["card_fields"].items():
            t = T.parse_type(e.data["type"])
            if t is None:
                self.diags.error("RB204", f"unknown type '{e.data['type']}'", e.span("type"),
                                 hint=suggest(e.data["type"], T.TYPE_NAMES))
                t = T.ANY
            if ident in self.table.card_fields:
                self.diags.error("RB400", f"card field '{ident}' is built in", e.span("id"))
            self.table.card_fields[ident] = t
        self.adjacency: dict[str, list[str]] = {}
        for ident, e in self.sections["boards"].items():
            self._declare_board(e)
        for ident, e in self.sections["cards"].items():
            self._declare(ident, "card", e, e.span("id"))
        for name, e in self.constants.items():
            v = e.data
            t = T.BOOL if isinstance(v, bool) else T.INT if isinstance(v, int) else T.STR
            self._declare(name, "constant", e, e.doc.key_span(e.path), typ=t, data=v)
        for section, kind in (("procedures", "procedure"), ("functions", "function")):
            for ident, e in list(self.sections[section].items()):
                params = self._params(e, "params", variables=True)
                returns = T.NONE
                if kind == "function":
                    returns = T.parse_type(e.data["returns"]) or T.ANY
                    if returns is T.ANY:
                        self.diags.error("RB204", f"unknown type '{e.data['returns']}'",
                                         e.span("returns"),
                                         hint=suggest(e.data["returns"], T.TYPE_NAMES))
                if ident in BUILTINS or ident in AGGREGATES:
                    # calls name the declared one first: every use of the builtin, in the
                    # ruleset and in every mod, would silently call this one instead. It is
                    # left out, so the uses are checked against the builtin, not reported too
                    self.diags.error("RB400", f"'{ident}' is a builtin of the effect language; "
                                     f"a {kind} may not take its name", e.span("id"),
                                     hint=f"choose another name, such as 'my_{ident}'")
                    del self.sections[section][ident]
                    continue
                self._declare(ident, kind, e, e.span("id"))
                named = re.findall(r"\{(\w+)\}", str(e.get("prompt") or ""))
                unknown = [n for n in named if n not in {p for p, _ in params}]
                if unknown:
                    self.diags.error("RB401", f"the prompt of '{ident}' names '{unknown[0]}', "
                                     "which is not one of its parameters", e.span("prompt"),
                                     hint="its parameters: " + (", ".join(
                                         p for p, _ in params) or "none"))
                self.table.callables[ident] = Callable_(ident, kind,
                                                        [(n, t, None) for n, t in params],
                                                        returns, e.span("id"),
                                                        e.get("prompt"),
                                                        kind == "procedure" and
                                                        "price" in e.data)

    def _params(self, e: Entry, key: str, variables: bool = False) -> list[tuple[str, T.Type]]:
        """The declared parameters; ``variables`` when they become the body's variables
        (reported there, once: a parameter may not take a name the language binds)."""
        out = []
        for name, tname in (e.get(key) or {}).items():
            if variables and name in RESERVED:
                self.diags.error("RB305", f"'{name}' is reserved (the language gives it its own "
                                 "value); choose another parameter name",
                                 e.key_span(key, name))
            t = T.parse_type(str(tname))
            if t is None:
                self.diags.error("RB204", f"unknown type '{tname}' for parameter '{name}'",
                                 e.span(key, name), hint=suggest(str(tname), T.TYPE_NAMES))
                t = T.ANY
            out.append((name, t))
        return out

    def _declare_board(self, e: Entry) -> None:
        board = e.data
        for key, kind in (("space_types", "space_type"), ("bonuses", "bonus")):
            for i, item in enumerate(board.get(key, []) or []):
                ident = item if isinstance(item, str) else item["id"]
                self._declare(ident, kind, e, e.span(key, i))
        rows: dict[int, list[dict]] = {}
        for i, space in enumerate(board["spaces"]):
            self._declare(space["id"], "space", e, e.span("spaces", i, "id"), data=space)
            if space.get("off_board"):
                continue
            if board.get("layout", "explicit") in ("hex_rows", "grid"):
                if "row" not in space or "column" not in space:
                    self.diags.error("RB404", f"space '{space['id']}' needs 'row' and 'column' "
                                     f"on a {board.get('layout')} board", e.span("spaces", i))
                    continue
                rows.setdefault(space["row"], []).append(space)
        layout = board.get("layout", "explicit")
        for space in board["spaces"]:
            self.adjacency[space["id"]] = list(space.get("adjacent", []) or [])
        if layout == "hex_rows":
            self._hex_adjacency(rows)
        elif layout == "grid":
            where = {(s["row"], s["column"]): s["id"] for r in rows.values() for s in r}
            for (r, c), sid in where.items():
                self.adjacency[sid] = [where[p] for p in ((r - 1, c), (r, c - 1), (r, c + 1),
                                                          (r + 1, c)) if p in where]

    def _hex_adjacency(self, rows: dict[int, list[dict]]) -> None:
        """Centred rows of hexes: a row's neighbours depend on whether the next row is wider."""
        grid = {r: {s["column"]: s["id"] for s in spaces} for r, spaces in rows.items()}
        width = {r: len(cols) for r, cols in grid.items()}
        for r, cols in grid.items():
            for c, sid in cols.items():
                near = [(r, c - 1), (r, c + 1)]
                for other in (r - 1, r + 1):
                    if other not in grid:
                        continue
                    # a wider neighbouring row is offset half a hex to the left
                    if width[other] > width[r]:
                        near += [(other, c), (other, c + 1)]
                    else:
                        near += [(other, c - 1), (other, c)]
                self.adjacency[sid] = [grid[rr][cc] for rr, cc in near
                                       if rr in grid and cc in grid[rr]]

    # ------------------------------------------------------ references
    def _ref(self, entry: Entry, value: Any, kinds: tuple[str, ...], what: str,
             *path) -> None:
        if not isinstance(value, str):
            return
        if self.table.get(value, kinds) is None:
            self.diags.error("RB401", f"unknown {what} '{value}'", entry.span(*path),
                             hint=suggest(value, self.table.of_kind(*kinds)),
                             context=self._label(entry))

    def _label(self, e: Entry, part: str | None = None) -> str:
        noun = {"cards": "card", "actions": "action", "procedures": "procedure",
                "functions": "function", "phases": "phase", "scoring": "scoring",
                "features": "feature",
                "tracks": "track", "tiles": "tile", "resources": "resource",
                "triggers": "trigger", "variants": "variant", "zones": "zone",
                "boards": "board"}.get(e.section, e.section)
        base = f"{noun} '{e.id}'" if e.section not in ("triggers",) else "a flow trigger"
        return f"{base}, {part}" if part else base

    def check_references(self) -> None:
        for ident, e in self.sections["zones"].items():
            if isinstance(e.data, dict):
                for key in ("overflow", "refill_from"):
                    self._ref(e, e.get(key), ("zone",), "zone", key)
                if e.get("overflow") and not e.get("slots"):
                    self.diags.error("RB404", "'overflow' needs 'slots'", e.span("overflow"),
                                     context=self._label(e))
        for ident, e in self.sections["tracks"].items():
            event = e.get("emits")
            if event is None:
                continue
            record = self.table.events.get(event)
            if record is None:
                self.diags.error("RB401", f"unknown event '{event}'", e.span("emits"),
                                 hint=suggest(event, self.table.events), context=self._label(e))
            elif dict(record.fields) != {"player": T.PLAYER, "track": T.TRACK, "steps": T.INT}:
                self.diags.error("RB404", f"event '{event}' must have exactly the params "
                                 "player: player, track: track, steps: number to be emitted by "
                                 "a track", e.span("emits"), context=self._label(e))
        for ident, e in self.sections["boards"].items():
            for i, space in enumerate(e.data["spaces"]):
                self._ref(e, space["type"], ("space_type",), "space type", "spaces", i, "type")
                for j, b in enumerate(space.get("bonus", []) or []):
                    self._ref(e, b, ("resource", "bonus"), "resource or bonus", "spaces", i,
                              "bonus", j)
                for j, a in enumerate(space.get("adjacent", []) or []):
                    self._ref(e, a, ("space",), "space", "spaces", i, "adjacent", j)
        for ident, e in self.sections["cards"].items():
            self._ref(e, e.get("type"), ("card_type",), "card type", "type")
            self._ref(e, e.get("deck"), ("zone",), "zone", "deck")
            self._ref(e, e.get("holds"), ("card_resource",), "card resource", "holds")
            for i, tag in enumerate(e.get("tags", []) or []):
                self._ref(e, tag, ("tag",), "tag", "tags", i)
            for name in (e.get("blocks") or {}):
                if self.table.get(name, ("block",)) is None:
                    self.diags.error("RB401", f"unknown effect block '{name}'",
                                     e.key_span("blocks", name),
                                     hint=suggest(name, self.table.of_kind("block")) or
                                     "declare it under 'blocks' in the components",
                                     context=self._label(e))
            for name, value in (e.get("fields") or {}).items():
                self._check_field(e, name, value)
        for ident, e in self.sections["phases"].items():
            turns = e.get("turns") or {}
            for i, a in enumerate(turns.get("actions_from", []) or []):
                if a not in self.sections["actions"]:
                    self.diags.error("RB401", f"unknown action '{a}'",
                                     e.span("turns", "actions_from", i),
                                     hint=suggest(a, self.sections["actions"]))

    def _check_field(self, e: Entry, name: str, value: Any) -> None:
        t = self.table.card_fields.get(name)
        if t is None or name in ("id", "name", "cost", "tags", "type", "owner", "number", "holds"):
            self.diags.error("RB401", f"unknown card field '{name}'",
                             e.key_span("fields", name),
                             hint=suggest(name, self.table.card_fields) or
                             "declare it under 'card_fields' in the components",
                             context=self._label(e))
            return
        self._check_value(e, t, value, ("fields", name))

    def _check_value(self, e: Entry, t: T.Type, value: Any, path: tuple) -> None:
        if isinstance(t, T.ListType):
            if not isinstance(value, list):
                self.diags.error("RB203", f"must be a list, not {value!r}", e.span(*path),
                                 context=self._label(e))
                return
            for i, v in enumerate(value):
                self._check_value(e, t.elem, v, path + (i,))
            return
        ok = {T.INT: lambda v: isinstance(v, int) and not isinstance(v, bool),
              T.BOOL: lambda v: isinstance(v, bool),
              T.STR: lambda v: isinstance(v, str)}.get(t)
        if ok is not None:
            if not ok(value):
                self.diags.error("RB203", f"must be a {t}, not {value!r}", e.span(*path),
                                 context=self._label(e))
            return
        kinds = {v: (k,) for k, v in SYMBOL_TYPE.items()
                 if k not in ("track", "player_track", "procedure", "function")}
        kinds[T.TRACK] = ("track", "player_track")
        kinds[T.BONUS] = ("resource", "bonus")
        if t not in kinds:
            return
        if not isinstance(value, str):
            self.diags.error("RB203", f"must be the id of a {t}, not {value!r}", e.span(*path),
                             context=self._label(e))
            return
        self._ref(e, value, kinds[t], str(t), *path)

    # ------------------------------------------------------------ effects
    def _parse(self, e: Entry, path: tuple, start: str, label: str):
        value = e.data
        for p in path:
            value = value[p]
        if isinstance(value, bool) or isinstance(value, int):
            if start == "expression":
                return ast.Literal(e.span(*path), value)
            self.diags.error("RB203", "an effect must be text", e.span(*path), context=label)
            return None
        if not isinstance(value, str) or not value.strip():
            self.diags.error("RB300", f"empty {'effect' if start == 'effect' else 'expression'}",
                             e.span(*path), context=label)
            return None
        origin = e.origin(*path)
        try:
            return parse(value, origin, start=start)
        except EffectSyntaxError as exc:
            d = exc.diagnostic
            d.context = label
            self.diags.append(d)
            return None

    def _tree(self, key: tuple, e: Entry, path: tuple, start: str, label: str):
        """The parser's tree of one effect or expression: from a cached load's entry when
        there is one (already parsed, never checked), else parsed from the file."""
        if self.parsed is not None:
            tree = self.parsed.get(key)
            if not isinstance(tree, ast.Effect if start == "effect" else ast.Expr):
                raise loadcache.Stale(f"the entry has no {start} for {key}")
            return tree
        return self._parse(e, path, start, label)

    def _effect(self, key: tuple, e: Entry, path: tuple, ctx: Context) -> None:
        tree = self._tree(key, e, path, "effect", ctx.label)
        if tree is None:
            return
        before = len(self.diags)
        self.checker.effect(tree, ctx)
        self.asts[key] = tree
        if len(self.diags) == before:
            self.code[key] = self.compiler.effect(tree)

    def _expr(self, key: tuple, e: Entry, path: tuple, ctx: Context, expected: T.Type,
              what: str) -> None:
        tree = self._tree(key, e, path, "expression", ctx.label)
        if tree is None:
            return
        before = len(self.diags)
        self.checker.expect(tree, expected, ctx, what)
        self.asts[key] = tree
        if len(self.diags) == before:
            self.code[key] = self.compiler.expression(tree, number=expected is T.INT)

    def _trigger(self, key: tuple, e: Entry, path: tuple, trig: dict, base: dict,
                 label: str) -> None:
        record = self.table.events.get(trig["on"])
        if record is None:
            self.diags.error("RB401", f"unknown event '{trig['on']}'", e.span(*path, "on"),
                             hint=suggest(trig["on"], self.table.events), context=label)
            return
        variables = dict(base, event=record)
        if "you" not in variables and record.field("player") is T.PLAYER:
            variables["you"] = T.PLAYER
        if "if" in trig:
            self._expr(key + ("if",), e, path + ("if",),
                       Context(label + " condition", False, False, dict(variables)), T.BOOL,
                       "the trigger condition")
        self._effect(key + ("do",), e, path + ("do",), Context(label, variables=dict(variables)))

    def _action(self, key: tuple, e: Entry, path: tuple, action: dict, base: dict,
                label: str) -> None:
        if ("each" in action) != ("as" in action):
            self.diags.error("RB404", "'each' and 'as' go together: 'each' lists what the "
                             "action is offered for, 'as' names one of them",
                             e.key_span(*path, "each" if "each" in action else "as"),
                             context=label)
        elif "each" in action:
            self._expr(key + ("each",), e, path + ("each",),
                       Context(label + " list", False, False, dict(base)), T.list_of(T.ANY),
                       "the list of 'each'")
            tree = self.asts.get(key + ("each",))
            kind = getattr(tree, "type", None)
            base = dict(base)
            base[action["as"]] = kind.elem if isinstance(kind, T.ListType) else T.ANY
        if "if" in action:
            self._expr(key + ("if",), e, path + ("if",),
                       Context(label + " condition", False, False, dict(base)), T.BOOL,
                       "the action's condition")
        self._effect(key + ("do",), e, path + ("do",), Context(label, variables=dict(base)))

    def _feature(self, ident: str, e: Entry, base: dict) -> None:
        """A per-player value recorded at game end, once per element of 'each' if given."""
        label = self._label(e)
        if ("each" in e.data) != ("as" in e.data):
            self.diags.error("RB404", "'each' and 'as' go together: 'each' lists what the "
                             "feature is recorded for, 'as' names one of them",
                             e.key_span("each" if "each" in e.data else "as"), context=label)
            return
        if "each" in e.data:
            self._expr(("feature", ident, "each"), e, ("each",),
                       Context(label + " list", False, False, dict(base)), T.list_of(T.ANY),
                       "the list of 'each'")
            kind = getattr(self.asts.get(("feature", ident, "each")), "type", None)
            base[e.data["as"]] = kind.elem if isinstance(kind, T.ListType) else T.ANY
        self._expr(("feature", ident), e, ("value",), Context(label, False, False, dict(base)),
                   T.ANY, "the feature's value")

    def check_effects(self) -> None:
        you = {"you": T.PLAYER}
        for ident, e in self.sections["resources"].items():
            if isinstance(e.data, dict) and "capacity" in e.data:
                self._expr(("resource", ident, "capacity"), e, ("capacity",),
                           Context(self._label(e, "capacity"), False, False, dict(you)), T.INT,
                           "the capacity")
        for ident, e in self.sections["tracks"].items():
            scope_vars = dict(you)
            for i, reward in enumerate(e.get("rewards", []) or []):
                lo, hi = e.get("min"), e.get("max")
                if (lo is not None and reward["at"] < lo) or (hi is not None and reward["at"] > hi):
                    self.diags.error("RB204", f"reward at {reward['at']} is outside the track "
                                     f"({lo}..{hi})", e.span("rewards", i, "at"),
                                     context=self._label(e))
                # a global track's reward goes to whoever raised it, if anyone did
                runs_on_raise = (e.get("scope", "global") != "player"
                                 and reward.get("when", "immediate") != "end")
                self._effect(("track", ident, "reward", i), e, ("rewards", i, "do"),
                             Context(self._label(e, f"reward at {reward['at']}"),
                                     variables=dict(scope_vars),
                                     needs=f"track:{ident}" if runs_on_raise else None))
        for ident, e in self.sections["tiles"].items():
            if not isinstance(e.data, dict):
                continue
            variables = dict(you, space=T.SPACE)
            if "placement" in e.data:
                self._expr(("tile", ident, "placement"), e, ("placement",),
                           Context(self._label(e, "placement"), False, False, dict(variables)),
                           T.BOOL, "the placement rule")
            if "on_place" in e.data:
                self._effect(("tile", ident, "on_place"), e, ("on_place",),
                             Context(self._label(e, "on_place"), variables=dict(variables),
                                     needs=f"tile:{ident}"))
        # flow
        if "setup" in self.singles:
            self._effect(("flow", "setup"), self.singles["setup"], (), Context("setup"))
        if "rounds" in self.singles:
            e = self.singles["rounds"]
            if "until" in e.data:
                self._expr(("flow", "rounds", "until"), e, ("until",),
                           Context("rounds.until", False, False), T.BOOL, "the end condition")
            if not ("count" in e.data or "until" in e.data):
                self.diags.error("RB202", "rounds need 'count' or 'until'", e.key_span(),
                                 context="rounds")
        if "end" in self.singles:
            e = self.singles["end"]
            if "then" in e.data:
                self._effect(("flow", "end", "then"), e, ("then",), Context("end.then"))
            if "finished" in e.data:
                self._expr(("flow", "end", "finished"), e, ("finished",),
                           Context("end.finished", False, False), T.BOOL, "the finished condition")
            if "solo_win" in e.data:
                self._expr(("flow", "end", "solo_win"), e, ("solo_win",),
                           Context("end.solo_win", False, False, dict(you)), T.BOOL,
                           "the solo win condition")
            for i, rank in enumerate(e.data.get("ranks") or []):
                if isinstance(rank, dict) and "if" in rank:
                    self._expr(("flow", "end", "rank", i), e, ("ranks", i, "if"),
                               Context(f"end.ranks {i + 1}", False, False, dict(you)), T.BOOL,
                               "the title's condition")
        if "evaluation" in self.singles:
            self._expr(("flow", "evaluation"), self.singles["evaluation"], (),
                       Context("evaluation", False, False, dict(you)), T.INT, "the evaluation")
        if "tie_breaks" in self.singles:
            e = self.singles["tie_breaks"]
            for i, item in enumerate(e.data):
                self._expr(("flow", "tie_break", i), e,
                           (i, "value") if isinstance(item, dict) else (i,),
                           Context(f"tie-break {i + 1}", False, False, dict(you)), T.INT,
                           "a tie-break")
        for ident, e in self.sections["phases"].items():
            if "if" in e.data:
                self._expr(("phase", ident, "if"), e, ("if",),
                           Context(self._label(e, "condition"), False, False), T.BOOL,
                           "the phase condition")
            for part in ("do", "after"):
                if part in e.data:
                    self._effect(("phase", ident, part), e, (part,),
                                 Context(self._label(e, part)))
        for ident, e in self.sections["actions"].items():
            self._action(("action", ident), e, (), e.data, dict(you), self._label(e))
        for ident, e in self.sections["procedures"].items():
            variables = dict(you)
            variables.update(dict(self._params(e, "params")))
            self._effect(("procedure", ident), e, ("do",),
                         Context(self._label(e), variables=variables, needs=ident))
            if "price" in e.data:  # what each card its questions offer costs the chooser
                self._expr(("procedure", ident, "price"), e, ("price",),
                           Context(self._label(e, "price"), False, False,
                                   dict(variables, card=T.CARD)), T.INT, "the price")
        for ident, e in self.sections["functions"].items():
            variables = dict(you)
            variables.update(dict(self._params(e, "params")))
            returns = self.table.callables[ident].returns
            label = self._label(e)
            if "value" in e.data and "do" in e.data or not ("value" in e.data or "do" in e.data):
                self.diags.error("RB404", "a function needs exactly one of 'value' or 'do'",
                                 e.span("id"), context=label)
            elif "value" in e.data:
                self._expr(("function", ident), e, ("value",),
                           Context(label, False, False, variables, needs=ident), returns,
                           "the result")
                self._check_reason(e, self.asts.get(("function", ident)), label)
            else:
                self._effect(("function", ident), e, ("do",),
                             Context(label, False, False, variables, returns, ident))
        for ident, e in self.sections["triggers"].items():
            self._trigger(("trigger", ident), e, (), e.data, {}, self._label(e))
        for ident, e in self.sections["invariants"].items():
            self._expr(("invariant", ident), e, ("holds",),
                       Context(f"invariant '{ident}'", False, False), T.BOOL, "the invariant")
        for ident, e in self.sections["scoring"].items():
            self._expr(("scoring", ident), e, ("points",),
                       Context(self._label(e), False, False, dict(you)), T.INT, "the points")
        for ident, e in self.sections["features"].items():
            self._feature(ident, e, dict(you))
        for ident, e in self.sections["cards"].items():
            self._check_card(ident, e)
        check_view(self)
        self.checker.finish()  # what needs an acting player, run where there is none

    def _check_reason(self, e, tree, label: str) -> None:
        """A function's ``reason`` may say the two sides of the comparison its value is,
        as they stand when it fails: ``{left}`` and ``{right}`` (docs/language.md).
        Any other brace, or braces where the value is no comparison, is RB404."""
        reason = e.data.get("reason")
        if not isinstance(reason, str) or not ("{" in reason or "}" in reason):
            return
        rest = _SIDES.sub("", reason)
        if "{" in rest or "}" in rest:
            why = "a reason says a side of its comparison as '{left}' or '{right}', and " \
                  "has no other braces"
        elif not (isinstance(tree, ast.Binary) and tree.op in _COMPARISONS):
            why = "its value is no comparison, so it has no sides to say"
        else:
            return
        self.diags.error("RB404", f"the reason of this function cannot be said: {why}",
                         e.span("reason"), context=label)

    def implied_requirements(self) -> ImpliedChecks:
        """The requirements implied by each card's play and each action's effect (see
        :mod:`rulebook_games.lang.implied`), a condition compiled: each worked out when
        first asked for (:class:`ImpliedChecks`)."""
        keys = [("action", ident) for ident in self.sections["actions"]]
        for ident, e in self.sections["cards"].items():
            if ("card", ident, "play") in self.asts:
                keys.append(("card", ident))
            keys += [("card", ident, "action", i)
                     for i, _ in enumerate(e.data.get("actions", []) or [])]
        return ImpliedChecks(self._implied_work, keys, self.compiler.finish)

    def _implied_work(self) -> Callable[[tuple], list | None]:
        """What works out one key's implied checks (what every key shares, made first)."""
        constants = {k: e.data for k, e in self.constants.items()}
        # a card is chosen, then played by rules that may set off triggers (and run
        # other rules) before its effect: what those may change is not checked
        # beforehand. Only what runs before the card's block counts, and only the
        # triggers of the events emitted on the way. (Worked out when a card's checks
        # are first asked for: an action's need none of it.)
        shared: dict = {}

        def called(name: str):
            return self.asts.get(("procedure", name)) or self.asts.get(("function", name))

        def triggers(event: str):
            record = self.table.events.get(event)
            return ([n for n, _ in record.fields] if record is not None else [],
                    shared["listening"].get(event, []))

        def share() -> dict:
            if shared:
                return shared
            runs = {}  # what runs before a card's block, by the name the card has there
            for k, t in self.asts.items():
                if isinstance(t, ast.Effect) and k[-1] != "play":
                    run = next((n for n in ast.walk(t) if isinstance(n, ast.Run)
                                and n.block == "play"), None)
                    if run is not None:
                        name = run.card.id if isinstance(run.card, ast.Name) else ""
                        runs.setdefault(name, []).append(before_run(t.body))
            listening: dict[str, list] = {}
            for tid, e in self.sections["triggers"].items():
                listening.setdefault(str(e.data.get("on")), []).append(
                    (self.asts.get(("trigger", tid, "do")),
                     self.asts.get(("trigger", tid, "if"))))
            for ident, e in self.sections["cards"].items():
                for i, trig in enumerate(e.data.get("triggers", []) or []):
                    listening.setdefault(str(trig.get("on")), []).append(
                        (self.asts.get(("card", ident, "trigger", i, "do")),
                         self.asts.get(("card", ident, "trigger", i, "if"))))
            shared.update(
                runs=runs, listening=listening,
                track_events=tuple(sorted({str(e.data["emits"]) for e in self.sections.get(
                    "tracks", {}).values() if isinstance(e.data, dict)
                    and e.data.get("emits")})),
                tiles=[t for k, t in self.asts.items() if k[0] == "tile"],
                rewards=[t for k, t in self.asts.items() if k[0] == "track"],
                overflow={z: str(e.data["overflow"]) for z, e in self.sections["zones"].items()
                          if isinstance(e.data, dict) and e.data.get("overflow")})
            return shared
        unsafe_for: dict = {}
        walked: dict = {}  # what each tree called with no card in particular changes

        def unsafe(ident: str) -> set:
            """What may change between choosing this card and its effect: what the rules
            that play it do before, and the triggers that can fire for it."""
            data = self.sections["cards"][ident].data
            facts = {k: v for k, v in (data.get("fields") or {}).items()
                     if isinstance(v, (int, str, bool))}
            facts.update(type=data.get("type"), cost=data.get("cost", 0),
                         tags=tuple(data.get("tags") or ()))
            key = (facts["type"], facts["tags"], facts["cost"],
                   tuple(sorted(facts.items(), key=str)))
            if key not in unsafe_for:
                out: set = set()
                sh = share()
                for name, parts in sh["runs"].items():
                    out |= raised(parts, called, sh["tiles"], sh["rewards"], triggers,
                                  sh["track_events"], card=(name, facts),
                                  overflow=sh["overflow"], memo=walked)
                unsafe_for[key] = out
            return unsafe_for[key]

        def function(name: str):
            return self.asts.get(("function", name))

        def placement(tile: str):
            return self.asts.get(("tile", tile, "placement"))

        def procedure(name: str):
            entry = self.sections["procedures"].get(name)
            tree = self.asts.get(("procedure", name))
            if entry is None or not isinstance(tree, ast.Effect):
                return None
            return list((entry.data.get("params") or {}).keys()), tree.body

        def add(key: tuple, tree, card: str | None, gap: set, given=None) -> list | None:
            if not isinstance(tree, ast.Effect):
                return None

            def block(name: str):
                inner = self.asts.get(("card", card, "block", name)) if card else None
                return inner.body if isinstance(inner, ast.Effect) else None
            found = safe(derive(tree.body, block, constants, function, placement, procedure),
                         gap)
            if given is not None:  # what the option's own condition already asks, once
                asked = set(_conjuncts(given))
                found = [i for i in found if i.kind not in ("require", "choose")
                         or i.variables or _said(i) not in asked]
            return [self._implied_entry(i) for i in found] if found else None

        def work(key: tuple) -> list | None:
            """The checks of one key (None when there are none)."""
            if key[0] == "action":
                return add(key, self.asts.get(key + ("do",)), None, set(),
                           self.asts.get(key + ("if",)))
            if len(key) == 2:
                return add(key, self.asts.get(key + ("play",)), key[1], unsafe(key[1]))
            return add(key, self.asts.get(key + ("do",)), key[1], set())
        return work

    def _implied_entry(self, i) -> tuple:
        """An implied check with its compiled condition: a require's, a placement's (read
        with 'space'), or, for a choice, 'any' over the choice's list (which also
        becomes the check's ``cond``, for the words of a refusal)."""
        if i.kind == "require" or i.kind == "place" and i.cond is not None:
            return i, self.compiler.expression(i.cond)
        if i.kind == "choose":
            c = i.cond
            test = ast.Comprehension(c.span, "any", c.var, c.source, c.where, None,
                                     c.func_span)
            test.type = T.BOOL
            test.target = AGGREGATES["any"]
            return replace(i, cond=test), self.compiler.expression(test)
        return i, None

    def _check_card(self, ident: str, e: Entry) -> None:
        base = {"you": T.PLAYER, "this": T.CARD}
        label = self._label(e)
        card = e.data
        if "requires" in card:
            self._expr(("card", ident, "requires"), e, ("requires",),
                       Context(label + ", requirement", False, False, dict(base)), T.BOOL,
                       "the requirement")
        if "play" in card:
            self._effect(("card", ident, "play"), e, ("play",), Context(label + ", play",
                                                                       variables=dict(base)))
        for name in (card.get("blocks") or {}):
            self._effect(("card", ident, "block", name), e, ("blocks", name),
                         Context(f"{label}, {name}", variables=dict(base)))
        for i, action in enumerate(card.get("actions", []) or []):
            self._action(("card", ident, "action", i), e, ("actions", i), action, dict(base),
                         f"{label}, action {i + 1}")
        for i, trig in enumerate(card.get("triggers", []) or []):
            self._trigger(("card", ident, "trigger", i), e, ("triggers", i), trig, dict(base),
                          f"{label}, trigger {i + 1}")
        for i, mod in enumerate(card.get("modifiers", []) or []):
            kind = mod["modifier"]
            if self.table.get(kind, ("modifier",)) is None:
                self.diags.error("RB401", f"unknown modifier '{kind}'",
                                 e.span("modifiers", i, "modifier"),
                                 hint=suggest(kind, self.table.of_kind("modifier")),
                                 context=label)
                continue
            variables = dict(base)
            variables.update(dict(self.table.modifier_params.get(kind, [])))
            mlabel = f"{label}, modifier {i + 1}"
            self._expr(("card", ident, "modifier", i, "amount"), e, ("modifiers", i, "amount"),
                       Context(mlabel, False, False, dict(variables)), T.INT, "the amount")
            if "if" in mod:
                self._expr(("card", ident, "modifier", i, "if"), e, ("modifiers", i, "if"),
                           Context(mlabel, False, False, dict(variables)), T.BOOL,
                           "the condition")
        if "vp" in card:
            self._expr(("card", ident, "vp"), e, ("vp",),
                       Context(label + ", victory points", False, False, dict(base)), T.INT,
                       "the victory points")


def _conjuncts(e) -> list[str]:
    """The parts of a condition joined with 'and', each as effect text."""
    if isinstance(e, ast.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [unparse.expr(e)] if isinstance(e, ast.Expr) else []


def _said(i) -> str:
    """An implied check's condition as effect text; a choice as 'any' over its list."""
    if i.kind == "choose":
        c = i.cond
        return unparse.expr(ast.Comprehension(c.span, "any", c.var, c.source, c.where, None))
    return unparse.expr(i.cond)
