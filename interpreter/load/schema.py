"""Stage 2: check each YAML document against its JSON Schema.

Schemas live in ``schemas/`` (Draft 2020-12) and refer to each other by
relative file name; a local referencing registry resolves those references,
so nothing is ever fetched over a network. Errors are translated into
positioned diagnostics: the path jsonschema reports is looked up in the
document's position table, so each error points at the offending key or value.

A ``pattern`` is matched as JSON Schema means it (ECMA-262, as editors and
other checkers read the same schemas): ``$`` is the end of the text, never
the place before a final line break as in Python's ``re``, so "foo" with a
line break after it is not an id; and character classes are ASCII.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from .. import paths
from ..errors import Diagnostics, suggest
from .yamlload import Document, path_text

KINDS = {
    "ruleset": "ruleset.schema.json",
    "components": "components.schema.json",
    "flow": "flow.schema.json",
    "cards": "cards.schema.json",
    "mod": "mod.schema.json",
    "scenarios": "scenarios.schema.json",
}


def schema_dir() -> Path:
    """The folder of the JSON Schemas (see :mod:`rulebook_games.paths`)."""
    return paths.schemas_dir()


@functools.lru_cache(maxsize=1)
def _schemas() -> dict[str, dict]:
    out = {}
    for path in sorted(schema_dir().glob("*.schema.json")):
        out[path.name] = json.loads(path.read_text(encoding="utf-8"))
    return out


# jsonschema is imported when a document is first validated, not with this module:
# a ruleset loaded from the cache is not validated again, and 'rulebook --help'
# validates nothing.
@functools.lru_cache(maxsize=1)
def registry():
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
    resources = [(name, Resource.from_contents(body, default_specification=DRAFT202012))
                 for name, body in _schemas().items()]
    return Registry().with_resources(resources)


@functools.lru_cache(maxsize=None)
def whole(pattern: str) -> re.Pattern:
    """A schema's pattern as ECMA-262 reads it: ``$`` ends the text, classes are ASCII."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "$":
            c = r"\Z"
        out.append(c)
        i += 1
    return re.compile("".join(out), re.ASCII)


def _pattern(validator, pattern, instance, schema):
    from jsonschema.exceptions import ValidationError
    if validator.is_type(instance, "string") and not whole(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator, patterns, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for k, v in instance.items():
            if whole(pattern).search(k):
                yield from validator.descend(v, subschema, path=k, schema_path=pattern)


@functools.lru_cache(maxsize=1)
def _validator_class():
    import jsonschema
    return jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        {"pattern": _pattern, "patternProperties": _pattern_properties})


@functools.lru_cache(maxsize=None)
def validator(kind: str):
    name = KINDS[kind]
    schema = dict(_schemas()[name])
    schema["$id"] = name  # so relative references resolve in the registry
    return _validator_class()(schema, registry=registry())


@functools.lru_cache(maxsize=None)
def sub_validator(reference: str):
    """A validator for one part of a schema, e.g. ``cards.schema.json#/$defs/card``."""
    return _validator_class()({"$ref": reference}, registry=registry())


def report_at(doc: Document, prefix: tuple, err, diags: Diagnostics) -> None:
    """Report an error found in a value that sits at ``prefix`` inside ``doc``."""
    err.path.extendleft(reversed(prefix))
    _report(doc, err, diags)


def schema_for(kind: str) -> dict:
    return _schemas()[KINDS[kind]]


_PY_TYPES = {dict: "a mapping", list: "a list", str: "text", int: "a number", float: "a number",
             bool: "true/false", type(None): "nothing (null)"}
_JSON_TYPES = {"object": "a mapping", "array": "a list", "string": "text",
               "integer": "a whole number", "number": "a number", "boolean": "true or false",
               "null": "null"}


def _describe_value(value: Any) -> str:
    kind = _PY_TYPES.get(type(value), type(value).__name__)
    if isinstance(value, (str, int, float, bool)):
        text = repr(value) if not isinstance(value, bool) else str(value).lower()
        if len(text) > 40:
            text = text[:37] + "…"
        return f"{kind} {text}"
    return kind


def check_kind(doc: Document, diags: Diagnostics, expected: str | None = None) -> str | None:
    """The document's ``kind``, or None after reporting why it has none."""
    data = doc.data
    if not isinstance(data, dict):
        diags.error("RB203", f"a rule file must be a mapping of keys, not {_describe_value(data)}",
                    doc.span(()))
        return None
    kind = data.get("kind")
    if kind is None:
        want = f" (here: kind: {expected})" if expected else ""
        diags.error("RB202", "missing required key 'kind': say what this file holds: "
                    f"{', '.join(KINDS)}{want}", doc.span(()))
        return None
    if kind not in KINDS:
        diags.error("RB204", f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}",
                    doc.span(("kind",)), hint=suggest(str(kind), KINDS))
        return None
    if expected and kind != expected:
        diags.error("RB204", f"this file is listed as a {expected} file but says kind: {kind}",
                    doc.span(("kind",)))
        return None
    return kind


def validate(doc: Document, kind: str, diags: Diagnostics) -> bool:
    """Validate a document of a known kind; report every error found."""
    before = len(diags)
    errors = sorted(validator(kind).iter_errors(doc.data),
                    key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    for err in errors:
        _report(doc, err, diags)
    return len(diags) == before


@functools.lru_cache(maxsize=None)
def file_validator(name: str):
    """A validator for a whole schema file of ``schemas/`` that is no rule file's kind
    (a learned evaluation's weights)."""
    schema = dict(_schemas()[name])
    schema["$id"] = name
    return _validator_class()(schema, registry=registry())


# What surely_valid knows: a schema with any other keyword is left to jsonschema.
_PLAIN = frozenset(("type", "const", "enum", "minimum", "maximum", "maxLength", "items",
                    "properties", "additionalProperties", "required", "description", "title",
                    "$schema"))
_IS = {"object": lambda v: type(v) is dict, "array": lambda v: type(v) is list,
       "string": lambda v: type(v) is str, "integer": lambda v: type(v) is int,
       "number": lambda v: type(v) is int or type(v) is float, "null": lambda v: v is None,
       "boolean": lambda v: type(v) is bool}


def surely_valid(instance: Any, name: str) -> bool:
    """True when ``instance`` (as json.loads reads it) surely satisfies the schema file
    ``name``, checked by hand without jsonschema; False when it may not, and the caller
    asks jsonschema (which says what is wrong, and where).

    It reads the schema's keywords itself, as JSON Schema means them, for the plain
    schemas data files have (types, bounds, lengths, lists, objects; :data:`_PLAIN`),
    and never says True for something jsonschema would refuse: a schema with another
    keyword, an integer written as 1.0 or a value that is a boolean where a number is
    asked are left to jsonschema. A weights file of thousands of numbers is checked in
    about a millisecond, where jsonschema takes a hundred and its import fifty more."""
    return _plain_valid(instance, _schemas()[name])


def _plain_valid(value: Any, schema: Any) -> bool:
    if schema is True:
        return True
    if type(schema) is not dict or not _PLAIN.issuperset(schema):
        return False
    kind = schema.get("type")
    if kind is not None:
        kinds = kind if type(kind) is list else [kind]
        if not any(_IS[k](value) if k in _IS else False for k in kinds):
            return False
    if "const" in schema:
        const = schema["const"]
        if type(value) is not type(const) or value != const:
            return False
    if "enum" in schema and not any(type(value) is type(e) and value == e
                                    for e in schema["enum"]):
        return False
    if type(value) is int or type(value) is float:
        if "minimum" in schema and not value >= schema["minimum"]:
            return False
        if "maximum" in schema and not value <= schema["maximum"]:
            return False
    elif type(value) is str:
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            return False
    elif type(value) is list:
        if "items" in schema:
            return _items_valid(value, schema["items"])
    elif type(value) is dict:
        props = schema.get("properties", {})
        if not all(key in value for key in schema.get("required", ())):
            return False
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            sub = props.get(key, extra)
            if sub is False or not _plain_valid(item, sub):
                return False
    return True


def _items_valid(values: list, schema: Any) -> bool:
    """Every item of a list valid: a list of bounded numbers (a weights file's thousands)
    in one pass, anything else item by item."""
    if type(schema) is dict and schema.get("type") == "number" \
            and {"type", "minimum", "maximum", "description"}.issuperset(schema):
        low = schema.get("minimum", float("-inf"))
        high = schema.get("maximum", float("inf"))
        return all((type(v) is float or type(v) is int) and low <= v <= high for v in values)
    return all(_plain_valid(v, schema) for v in values)


def validate_with(doc: Document, name: str, diags: Diagnostics) -> bool:
    """Validate a document against the schema file ``name``; report every error found."""
    before = len(diags)
    errors = sorted(file_validator(name).iter_errors(doc.data),
                    key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    for err in errors[:20]:
        _report(doc, err, diags)
    return len(diags) == before


def _leaf(err):
    """The most telling error of ``err`` (a jsonschema ValidationError) and its alternatives."""
    from jsonschema.exceptions import best_match
    while err.context:
        # prefer the alternative that got furthest into the document
        deeper = best_match(err.context)
        if deeper is None or deeper is err:
            break
        err = deeper
    return err


def _report(doc: Document, err, diags: Diagnostics) -> None:
    err = _leaf(err)
    path = tuple(err.absolute_path)
    where = path_text(path) if path else "the file"
    inside = f"in {where}" if path else "at the top of the file"
    v, schema, inst = err.validator, err.schema, err.instance
    if v == "additionalProperties" and isinstance(inst, dict):
        allowed = list(schema.get("properties", {}))
        extras = [k for k in inst if k not in allowed]
        for key in extras:
            hint = suggest(key, allowed) or ("allowed keys: " + ", ".join(allowed))
            diags.error("RB201", f"unknown key '{key}' {inside}", doc.key_span(path + (key,)),
                        hint=hint)
        return
    if v == "required":
        missing = [k for k in err.validator_value if isinstance(inst, dict) and k not in inst]
        for key in missing or err.validator_value:
            prop = schema.get("properties", {}).get(key, {})
            desc = prop.get("description", "")
            diags.error("RB202", f"missing required key '{key}' {inside}",
                        doc.key_span(path) if path else doc.span(path),
                        hint=desc or None)
        return
    if v == "type":
        want = err.validator_value
        wants = [want] if isinstance(want, str) else list(want)
        text = " or ".join(_JSON_TYPES.get(w, w) for w in wants)
        diags.error("RB203", f"{where} must be {text}, not {_describe_value(inst)}",
                    doc.span(path))
        return
    if v in ("enum", "const"):
        options = err.validator_value if v == "enum" else [err.validator_value]
        diags.error("RB204", f"{where} is {_describe_value(inst)}; expected "
                    + ", ".join(repr(o) for o in options), doc.span(path),
                    hint=suggest(str(inst), [str(o) for o in options]))
        return
    if v == "pattern":
        if "[1-9]" in str(err.validator_value):  # a key that names a seat
            diags.error("RB204", f"{where} has the key {str(inst)!r}, which is not a seat: "
                        "seats are numbered from 1", doc.span(path))
            return
        if str(err.validator_value).startswith("^#"):  # a colour (a map's, view: maps)
            diags.error("RB204", f"{where} is {_describe_value(inst)}, which is not a colour: "
                        "write '#rgb' or '#rrggbb' (e.g. '#3a7bd5')", doc.span(path))
            return
        diags.error("RB204", f"{where} is {_describe_value(inst)}, which is not a valid id: use "
                    "lower-case letters, digits and underscores, starting with a letter",
                    doc.span(path))
        return
    if v == "propertyNames":
        if "[1-9]" in str((err.validator_value or {}).get("pattern", "")):
            diags.error("RB204", f"key in {where} must be a seat number, counting from 1",
                        doc.span(path))
        else:
            diags.error("RB204", f"key in {where} is not a valid id: use lower-case letters, "
                        "digits and underscores", doc.span(path))
        return
    if v == "minLength" and err.validator_value == 1:
        diags.error("RB204", f"{where} must not be empty", doc.span(path))
        return
    if v in ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"):
        words = {"minimum": "at least", "maximum": "at most", "minLength": "at least",
                 "maxLength": "at most", "minItems": "at least", "maxItems": "at most"}
        unit = {"minLength": " characters", "maxLength": " characters", "minItems": " items",
                "maxItems": " items"}.get(v, "")
        diags.error("RB204", f"{where} must be {words[v]} {err.validator_value}{unit}, "
                    f"not {_describe_value(inst) if unit == '' else len(inst)}", doc.span(path))
        return
    diags.error("RB200", f"{where}: {err.message}", doc.span(path))
