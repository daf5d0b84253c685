"""The JSON Schemas: in sync with their source, editor-friendly, strict, described."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = sorted((ROOT / "schemas").glob("*.schema.json"))
# keywords yaml-language-server understands (draft 2020-12 subset we allow)
ALLOWED = {"$schema", "$id", "$ref", "$defs", "title", "description", "type", "properties",
           "additionalProperties", "required", "items", "enum", "const", "pattern", "minimum",
           "maximum", "minLength", "maxLength", "anyOf", "oneOf", "propertyNames", "default",
           "examples"}


def walk(node, path=()):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            if key in ("properties", "$defs"):
                for name, sub in value.items():
                    yield from walk(sub, path + (key, name))
            elif isinstance(value, (dict, list)):
                yield from walk(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from walk(item, path + (i,))


def test_schemas_exist():
    assert {p.name for p in SCHEMAS} >= {"ruleset.schema.json", "components.schema.json",
                                         "flow.schema.json", "cards.schema.json",
                                         "mod.schema.json", "common.schema.json"}


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_valid_2020_12(path):
    schema = json.loads(path.read_text())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_only_editor_supported_keywords_and_strict_objects(path):
    schema = json.loads(path.read_text())
    for where, node in walk(schema):
        unsupported = set(node) - ALLOWED
        assert not unsupported, f"{path.name} {where}: unsupported keywords {unsupported}"
        if node.get("type") == "object" and "properties" in node:
            assert node.get("additionalProperties") is False, f"{path.name} {where}"


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_property_has_a_description(path):
    schema = json.loads(path.read_text())
    for where, node in walk(schema):
        for name, prop in (node.get("properties") or {}).items():
            assert prop.get("description"), f"{path.name}: {where + (name,)} lacks a description"


def test_refs_are_local_files():
    for path in SCHEMAS:
        for _, node in walk(json.loads(path.read_text())):
            ref = node.get("$ref")
            if ref:
                assert "://" not in ref
                target = ref.split("#")[0]
                assert not target or (ROOT / "schemas" / target).is_file()


def test_schemas_match_their_source():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "build_schemas.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_shipped_rule_files_declare_their_schema():
    for path in (ROOT / "rulesets").rglob("*.yaml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), path
        target = (path.parent / first.split("=", 1)[1].strip()).resolve()
        assert target.is_file(), f"{path}: modeline points at {target}"


def test_a_key_at_the_top_of_a_file_is_said_in_words(tmp_path):
    """An unknown key at a file's top level says where in words, not a placeholder."""
    import shutil

    from rulebook_games import RulebookError, load_ruleset
    work = tmp_path / "rs"
    shutil.copytree(Path(__file__).parent / "fixtures" / "mini", work)
    flow = work / "flow.yaml"
    flow.write_text(flow.read_text(encoding="utf-8") + "frobnicate: 1\n", encoding="utf-8")
    with pytest.raises(RulebookError) as info:
        load_ruleset(work)
    messages = [d.message for d in info.value.diagnostics]
    assert "unknown key 'frobnicate' at the top of the file" in messages, messages
