"""Mods and house rules: overlays that add, replace, patch or remove entries.

A mod is a YAML file of ``changes`` applied in order to the assembled
declarations of a ruleset, before symbols are declared and effects checked,
so a mod's cards are checked exactly like the ruleset's own, and errors in
them point into the mod file. When several mods touch the same entry in ways
that cannot both hold, the conflict is reported with both places.
"""

from __future__ import annotations

import json

from . import schema as schemas
from .entries import FLOW_SINGLES, Entry, PatchedEntry
from ..errors import Diagnostics, suggest
from .yamlload import Document

# where each list's item schema lives
ITEM_SCHEMA = {"cards": "cards.schema.json#/$defs/card"}
for _s in ("resources", "card_resources", "tags", "card_types", "markers", "blocks", "tracks",
           "zones", "tiles", "boards", "events", "modifiers", "card_fields"):
    ITEM_SCHEMA[_s] = f"components.schema.json#/properties/{_s}/items"
for _s in ("actions", "procedures", "functions", "phases", "scoring", "variants", "triggers",
           "invariants", "features"):
    ITEM_SCHEMA[_s] = f"flow.schema.json#/properties/{_s}/items"


class Declarations:
    """What mods change: the entries by list and id, the flow's single parts, the constants.

    The loader hands its own dictionaries, which the mods change in place.
    ``checked`` says the mods' values are to be checked against the schemas; a
    load from the cache (of mods that were checked when it was made) skips that.
    """

    def __init__(self, manifest_id: str | None, sections: dict[str, dict[str, Entry]],
                 singles: dict[str, Entry], constants: dict[str, Entry], checked: bool = True):
        self.manifest_id = manifest_id
        self.sections = sections
        self.singles = singles
        self.constants = constants
        self.checked = checked


def _kind(value) -> str:
    """A constant's value with its kind, in words a rule author reads ("a whole number (10)")."""
    if isinstance(value, bool):
        return f"yes/no ({'true' if value else 'false'})"
    if isinstance(value, int):
        return f"a whole number ({value})"
    if isinstance(value, float):
        return f"a number with a fraction ({value:g})"
    if isinstance(value, str):
        return f"the text {value}" if len(value) <= 40 else f"the text {value[:37]}…"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a mapping of " + ", ".join(map(str, list(value)[:4])) + (", …" if len(value) > 4 else "")
    return "nothing" if value is None else "a value of another kind"


def _same(value) -> str:
    """A value as text that two equal values share (to tell changes apart at a glance)."""
    return json.dumps(value, sort_keys=True, default=str)


class _ModChanges:
    """What one mod did to one entry, kept so a later mod's change is checked in one look.

    Two changes of different mods clash when one removes the entry and the other
    changes it, when both replace, add or set it to different values, or when both
    set one of its keys (by a patch or a replace) to different values. Checking each
    change against every earlier one grew with the square of the changes; this keeps
    each kind of change and each key with the values given and where they were first
    given, so a check costs the size of the change alone."""

    def __init__(self, doc):
        self.doc = doc
        self.ops: dict[str, int] = {}  # op -> the first change that made it
        self.values: dict[str, dict[str, int]] = {}  # replace/add/set_constant -> value -> i
        self.keys: dict[str, dict[str, int]] = {}  # key a patch or replace set -> value -> i

    def note(self, i: int, op: str, keys: set, value) -> None:
        self.ops.setdefault(op, i)
        if op in ("replace", "add", "set_constant"):
            self.values.setdefault(op, {}).setdefault(_same(value), i)
        if op in ("patch", "replace"):
            for k in keys:
                self.keys.setdefault(k, {}).setdefault(_same((value or {}).get(k)), i)

    def clash(self, op: str, keys: set, value) -> tuple[str, int] | None:
        """(how this change clashes with the mod's, and where), or None."""
        if op == "remove":
            for other_op, j in self.ops.items():
                if other_op != "remove":
                    return (f"one removes it and the other "
                            f"{'patches' if other_op == 'patch' else 'changes'} it", j)
            return None
        if "remove" in self.ops:
            return (f"one removes it and the other {'patches' if op == 'patch' else 'changes'} "
                    "it", self.ops["remove"])
        if op in ("replace", "add", "set_constant") and op in self.values:
            mine = _same(value)
            for theirs, j in self.values[op].items():
                if theirs != mine:
                    if op == "set_constant":
                        return f"both set it, to {json.loads(theirs)!r} and {value!r}", j
                    return (f"both {'replace' if op == 'replace' else 'add'} it, "
                            "differently", j)
        if op in ("patch", "replace"):
            shared, where = [], None
            for k in keys:
                mine = _same((value or {}).get(k))
                for theirs, j in self.keys.get(k, {}).items():
                    if theirs != mine:
                        shared.append(k)
                        where = j if where is None else min(where, j)
                        break
            if shared:
                return "both change " + ", ".join(sorted(shared)), where
        return None


def apply_mods(builder: Declarations, docs: list[Document], diags: Diagnostics) -> None:
    manifest_id = builder.manifest_id
    touched: dict[tuple, dict[int, _ModChanges]] = {}  # (section, id) -> by mod

    def conflict(key, doc, i, op, keys, value) -> bool:
        """Report a clash of this change with another mod's change of the same entry."""
        by_mod = touched.setdefault(key, {})
        for other in by_mod.values():
            if other.doc is doc:
                continue
            found = other.clash(op, keys, value)
            if found:
                clash, j = found
                what = f"{key[0]} '{key[1]}'" if key[0] != "constants" else f"constant '{key[1]}'"
                diags.error("RB501", f"mods conflict on {what}: {clash} "
                            f"(other change at {other.doc.span(('changes', j))})",
                            doc.span(("changes", i)))
                return True
        return False

    def note(key, doc, i, op, keys, value) -> None:
        by_mod = touched.setdefault(key, {})
        mine = by_mod.get(id(doc))
        if mine is None:
            mine = by_mod[id(doc)] = _ModChanges(doc)
        mine.note(i, op, keys, value)

    for doc in docs:
        if manifest_id and doc.data.get("target") and doc.data["target"] != manifest_id:
            diags.error("RB502", f"this mod targets '{doc.data['target']}', not '{manifest_id}'",
                        doc.span(("target",)))
            continue
        for i, change in enumerate(doc.data["changes"]):
            op = change["op"]
            where = ("changes", i)
            if op == "set_constant":
                name = change.get("id")
                if name is None or "value" not in change:
                    diags.error("RB502", "set_constant needs 'id' and 'value'", doc.span(where))
                    continue
                if name not in builder.constants:
                    diags.error("RB500", f"no constant '{name}' to set", doc.span(where + ("id",)),
                                hint=suggest(name, builder.constants))
                    continue
                value = change["value"]
                if conflict(("constants", name), doc, i, op, set(), value):
                    continue
                note(("constants", name), doc, i, op, set(), value)
                old = builder.constants[name]
                if type(old.data) is not type(value):
                    diags.error("RB502", f"constant '{name}' is {_kind(old.data)}; "
                                f"the mod gives {_kind(value)}", doc.span(where + ("value",)))
                    continue
                builder.constants[name] = Entry(name, value, doc, where + ("value",), "constants")
                continue
            section = change.get("in")
            if section is None:
                diags.error("RB502", f"'{op}' needs 'in': the list the entry belongs to",
                            doc.span(where))
                continue
            if section == "flow":
                _flow_part(builder, doc, i, change, diags, conflict, note)
                continue
            entries = builder.sections[section]
            value = change.get("value")
            if op == "add":
                if value is None:
                    diags.error("RB502", "'add' needs a 'value': the new entry", doc.span(where))
                    continue
                ident = value if isinstance(value, str) else (value.get("id")
                                                              if isinstance(value, dict) else None)
                if not _valid(builder, doc, where + ("value",), section, value, diags):
                    continue
                if ident in entries:
                    diags.error("RB502", f"'{ident}' already exists in {section}; use 'replace' "
                                "or 'patch' to change it", doc.span(where + ("value",)))
                    continue
                keys = set(value) if isinstance(value, dict) else set()
                if conflict((section, ident), doc, i, op, keys, value):
                    continue
                note((section, ident), doc, i, op, keys, value)
                entries[ident] = Entry(ident, value, doc, where + ("value",), section)
                continue
            ident = change.get("id")
            if ident is None:
                diags.error("RB502", f"'{op}' needs 'id': which entry to change", doc.span(where))
                continue
            keys = set(value) if isinstance(value, dict) else set()
            if conflict((section, ident), doc, i, op, keys, value):
                continue
            if ident not in entries:
                diags.error("RB500", f"no entry '{ident}' in {section}", doc.span(where + ("id",)),
                            hint=suggest(ident, entries))
                continue
            note((section, ident), doc, i, op, keys, value)
            if op == "remove":
                del entries[ident]
            elif op == "replace":
                if value is None or not _valid(builder, doc, where + ("value",), section,
                                               value, diags):
                    if value is None:
                        diags.error("RB502", "'replace' needs a 'value'", doc.span(where))
                    continue
                if isinstance(value, dict) and value.get("id", ident) != ident:
                    diags.error("RB502", "'replace' keeps the id; use remove and add to rename",
                                doc.span(where + ("value", "id")))
                    continue
                entries[ident] = Entry(ident, value, doc, where + ("value",), section)
            elif op == "patch":
                old = entries[ident]
                if not isinstance(value, dict) or not isinstance(old.data, dict):
                    diags.error("RB502", "'patch' needs a mapping of keys to change",
                                doc.span(where + ("value",) if value is not None else where))
                    continue
                if "id" in value and value["id"] != ident:
                    diags.error("RB502", "'patch' cannot change the id",
                                doc.span(where + ("value", "id")))
                    continue
                merged = dict(old.data)
                merged.update(value)
                if not _valid(builder, doc, where + ("value",), section, merged, diags,
                              patch=value):
                    continue
                base = old.base if isinstance(old, PatchedEntry) and old.base else old
                patched = dict(old.patched) if isinstance(old, PatchedEntry) else {}
                for k in value:
                    patched[k] = (doc, where + ("value", k))
                entries[ident] = PatchedEntry(ident, merged, base.doc, base.path, section,
                                              base=base, patched=patched)


FLOW_PARTS = FLOW_SINGLES


def _flow_part(builder: Declarations, doc: Document, i: int, change: dict, diags: Diagnostics,
               conflict, note) -> None:
    """A change to one of the flow's single parts: 'in: flow, id: rounds'."""
    op, where, ident = change["op"], ("changes", i), change.get("id")
    if ident not in FLOW_PARTS:
        diags.error("RB500", f"the flow has no part '{ident}'; a mod may change "
                    + ", ".join(FLOW_PARTS), doc.span(where + ("id",) if ident else where),
                    hint=suggest(str(ident), FLOW_PARTS) if ident else None)
        return
    value = change.get("value")
    keys = set(value) if isinstance(value, dict) else set()
    if conflict(("flow", ident), doc, i, op, keys, value):
        return
    have = builder.singles.get(ident)
    if op == "add" and have is not None:
        diags.error("RB502", f"the flow already has '{ident}'; use 'replace' or 'patch'",
                    doc.span(where + ("id",)))
        return
    if op in ("replace", "patch", "remove") and have is None:
        diags.error("RB500", f"the flow has no '{ident}' to {op}", doc.span(where + ("id",)))
        return
    note(("flow", ident), doc, i, op, keys, value)
    if op == "remove":
        del builder.singles[ident]
        return
    if value is None:
        diags.error("RB502", f"'{op}' needs a 'value'", doc.span(where))
        return
    path = where + ("value",)
    if op == "patch":
        if not isinstance(value, dict) or not isinstance(have.data, dict):
            diags.error("RB502", "'patch' needs a mapping of keys to change", doc.span(path))
            return
        merged = dict(have.data)
        merged.update(value)
        if _valid_part(builder, doc, path, ident, merged, diags, patch=value):
            base = have.base if isinstance(have, PatchedEntry) and have.base else have
            patched = dict(have.patched) if isinstance(have, PatchedEntry) else {}
            patched.update({k: (doc, path + (k,)) for k in value})
            builder.singles[ident] = PatchedEntry(ident, merged, base.doc, base.path, ident,
                                                  base=base, patched=patched)
        return
    if _valid_part(builder, doc, path, ident, value, diags):
        builder.singles[ident] = Entry(ident, value, doc, path, ident)


def _valid_part(builder: Declarations, doc, path, ident, value, diags, patch=None) -> bool:
    if not builder.checked:
        return True
    before = len(diags)
    for err in schemas.sub_validator(f"flow.schema.json#/properties/{ident}").iter_errors(value):
        err_path = tuple(err.absolute_path)
        if patch is not None and err_path and err_path[0] not in patch:
            continue
        schemas.report_at(doc, path, err, diags)
    return len(diags) == before


def _valid(builder: Declarations, doc: Document, path: tuple, section: str, value,
           diags: Diagnostics, patch: dict | None = None) -> bool:
    if not builder.checked:
        return True
    before = len(diags)
    for err in schemas.sub_validator(ITEM_SCHEMA[section]).iter_errors(value):
        err_path = tuple(err.absolute_path)
        if patch is not None and err_path and err_path[0] not in patch:
            # the problem is in the original entry, reported when it was loaded
            continue
        schemas.report_at(doc, path, err, diags)
    return len(diags) == before
