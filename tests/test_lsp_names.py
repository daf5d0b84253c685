"""The language server on names across files: references, rename, workspace symbols,
hover on statements, completion by the slot's type, semantic tokens.

Driven as an editor drives it (``rulebook lsp`` over stdio, through pygls' client),
on a copy of the small fixture ruleset with a scenario file, a mod in the ruleset's
own ``mods/`` folder, a mod in another folder of the workspace, and a procedure
whose text holds look-alikes of a name (a quoted reason, a comment, a description,
a longer name) that a rename must leave alone.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from test_lsp import FIXTURE, MOD, ROOT, SCENARIOS, Session, lsp, run, where  # noqa: F401
from pygls.exceptions import JsonRpcException  # noqa: E402
from pygls.uris import from_fs_path, to_fs_path  # noqa: E402

COOL = """procedures:
  - id: cool
    description: takes heat away
    do: |
      require stock(heat) >= 1 else "needs heat"
      lose 1 heat  # heat goes
"""

INNER_MOD = """kind: mod
id: warmer
target: mini
changes:
  - {op: patch, in: cards, id: comet, value: {play: gain 3 heat}}
"""


@pytest.fixture
def work(tmp_path):
    ruleset = tmp_path / "mini"
    shutil.copytree(FIXTURE, ruleset)
    flow = (ruleset / "flow.yaml").read_text(encoding="utf-8")
    (ruleset / "flow.yaml").write_text(flow.replace("procedures:\n", COOL, 1), encoding="utf-8")
    (ruleset / "scenarios").mkdir()
    (ruleset / "scenarios" / "basics.yaml").write_text(SCENARIOS, encoding="utf-8")
    (ruleset / "mods").mkdir()
    (ruleset / "mods" / "warmer.yaml").write_text(INNER_MOD, encoding="utf-8")
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "cheap_comets.yaml").write_text(MOD, encoding="utf-8")
    return tmp_path


def apply(edit, base: Path) -> dict[str, str]:
    """Apply a WorkspaceEdit to the files on disk; the new texts by file."""
    out = {}
    for uri, edits in edit.changes.items():
        path = Path(to_fs_path(uri))
        lines = path.read_text(encoding="utf-8").split("\n")
        for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                        reverse=True):
            assert e.range.start.line == e.range.end.line
            ln = lines[e.range.start.line]
            lines[e.range.start.line] = (ln[:e.range.start.character] + e.new_text +
                                         ln[e.range.end.character:])
        path.write_text("\n".join(lines), encoding="utf-8")
        out[str(path.relative_to(base))] = "\n".join(lines)
    return out


async def started(work):
    s = Session(work)
    await s.start()
    flow = work / "mini" / "flow.yaml"
    uri = s.open(flow)
    await s.wait_for(uri, lambda d: d == [])
    return s, uri, flow.read_text(encoding="utf-8")


def test_references_and_rename_of_a_resource_across_every_file_and_mod(work):
    async def main():
        s, uri, text = await started(work)
        try:
            line, col = where(text, "lose 8 heat")
            pos = lsp.Position(line=line, character=col + len("lose 8 he"))
            doc = lsp.TextDocumentIdentifier(uri=uri)
            refs = await s.client.text_document_references_async(lsp.ReferenceParams(
                text_document=doc, position=pos,
                context=lsp.ReferenceContext(include_declaration=True)))
            per_file: dict[str, int] = {}
            for r in refs:
                name = str(Path(to_fs_path(r.uri)).relative_to(work))
                per_file[name] = per_file.get(name, 0) + 1
            # written from the files: the declaration and the track reward in the
            # components; the action, the procedure 'cool' (its require and its lose,
            # not its reason, comment or description) and warm_everyone in the flow; the
            # scenario's setup and expect; each mod's effect
            assert per_file == {"mini/components.yaml": 2, "mini/flow.yaml": 5,
                                "mini/scenarios/basics.yaml": 2, "mini/mods/warmer.yaml": 1,
                                "house/cheap_comets.yaml": 1}, per_file

            # without the declaration: the components' 'id: heat' is left out
            uses_only = await s.client.text_document_references_async(lsp.ReferenceParams(
                text_document=doc, position=pos,
                context=lsp.ReferenceContext(include_declaration=False)))
            assert len(uses_only) == len(refs) - 1
            comp = (work / "mini" / "components.yaml").read_text(encoding="utf-8")
            assert where(comp, "id: heat")[0] not in {
                r.range.start.line for r in uses_only if r.uri.endswith("components.yaml")}

            prep = await s.client.text_document_prepare_rename_async(lsp.PrepareRenameParams(
                text_document=doc, position=pos))
            assert prep.placeholder == "heat"
            assert (prep.range.start.line, prep.range.start.character) == (line, col + 7)

            edit = await s.client.text_document_rename_async(lsp.RenameParams(
                text_document=doc, position=pos, new_name="warmth"))
            new = apply(edit, work)
            assert sum(len(v) for v in edit.changes.values()) == 11
            flow = new["mini/flow.yaml"]
            assert "heat_up" in flow and '"needs heat"' in flow and "# heat goes" in flow
            assert "takes heat away" in flow and "lose 8 warmth" in flow
            assert "gain 3 warmth" in new["mini/mods/warmer.yaml"]
            assert "{id: warmth, production: true}" in new["mini/components.yaml"]
        finally:
            await s.stop()
        # the renamed ruleset, its scenarios and its mods check clean
        from rulebook_games.load.ruleset import load_ruleset
        load_ruleset(work / "mini")
        load_ruleset(work / "mini", mods=[str(work / "mini" / "mods" / "warmer.yaml")])
        load_ruleset(work / "mini", mods=[str(work / "house" / "cheap_comets.yaml")])
    run(main())


def test_rename_of_a_card_id_and_what_it_refuses(work):
    async def main():
        s, uri, text = await started(work)
        try:
            cards = work / "mini" / "cards.yaml"
            ctext = cards.read_text(encoding="utf-8")
            curi = s.open(cards)
            await s.wait_for(curi, lambda d: d == [])
            line, col = where(ctext, "id: comet")
            pos = lsp.Position(line=line, character=col + 5)
            doc = lsp.TextDocumentIdentifier(uri=curi)
            edit = await s.client.text_document_rename_async(lsp.RenameParams(
                text_document=doc, position=pos, new_name="meteor"))
            files = {str(Path(to_fs_path(u)).relative_to(work)): len(e)
                     for u, e in edit.changes.items()}
            # its id, and the id each mod's patch names; its name 'Comet' stays
            assert files == {"mini/cards.yaml": 1, "mini/mods/warmer.yaml": 1,
                             "house/cheap_comets.yaml": 1}

            async def refused(new_name, position=pos, document=doc):
                with pytest.raises(JsonRpcException) as got:
                    await s.client.text_document_rename_async(lsp.RenameParams(
                        text_document=document, position=position, new_name=new_name))
                return got.value.message
            assert "is not a name" in await refused("3 meteors")
            assert "already the name of a card" in await refused("decomposers")
            assert "already the name of a resource" in await refused("heat")
            assert "word of the effect language" in await refused("gain")
            assert "builtin" in await refused("stock")
            # 'plant' is a resource and a tag: found, not renamed
            line, col = where(ctext, "has plant or")
            msg = await refused("flora", lsp.Position(line=line, character=col + 5))
            assert "resource and a tag" in msg
            # a plural spelling is a name of its own: renamed where it is written, its
            # singular (also a tag) left as it is
            line, col = where(ctext, "microbes to this")
            edit = await s.client.text_document_rename_async(lsp.RenameParams(
                text_document=doc, position=lsp.Position(line=line, character=col + 2),
                new_name="germs"))
            spots = sorted((str(Path(to_fs_path(u)).relative_to(work)), e.range.start.line)
                           for u, edits in edit.changes.items() for e in edits)
            comp = (work / "mini" / "components.yaml").read_text(encoding="utf-8")
            assert spots == [("mini/cards.yaml", line),
                             ("mini/components.yaml", where(comp, "plural: microbes")[0])]
            # a statement's keyword is nothing to rename
            line, col = where(text, "lose 8 heat")
            with pytest.raises(JsonRpcException) as got:
                await s.client.text_document_prepare_rename_async(lsp.PrepareRenameParams(
                    text_document=lsp.TextDocumentIdentifier(uri=uri),
                    position=lsp.Position(line=line, character=col + 1)))
            assert "word of the effect language" in got.value.message
        finally:
            await s.stop()
    run(main())


def test_workspace_symbols(work):
    async def main():
        s, uri, text = await started(work)
        try:
            async def names(query):
                got = await s.client.workspace_symbol_async(lsp.WorkspaceSymbolParams(
                    query=query))
                return {(x.name, x.kind) for x in got}, got
            found, got = await names("comet")
            assert ("Comet", lsp.SymbolKind.Class) in found  # a card, by its name
            comet = next(x for x in got if x.name == "Comet")
            assert comet.location.uri == from_fs_path(str(work / "mini" / "cards.yaml"))
            assert "comet" in comet.container_name
            found, _ = await names("decompo")
            assert ("Decomposers", lsp.SymbolKind.Class) in found
            found, _ = await names("")
            assert {("heat", lsp.SymbolKind.Constant), ("warm_everyone", lsp.SymbolKind.Method),
                    ("heat_up", lsp.SymbolKind.Event), ("triangle", lsp.SymbolKind.Function),
                    ("temperature", lsp.SymbolKind.Variable)} <= found
            found, _ = await names("warm")
            assert ("warm_everyone", lsp.SymbolKind.Method) in found
            assert ("heat", lsp.SymbolKind.Constant) not in found
        finally:
            await s.stop()
    run(main())


def test_hover_on_a_statement_keyword_shows_the_guide_s_text(work):
    from rulebook_games.lang.builtins import STATEMENTS
    from rulebook_games.lang.docgen import statement_doc

    async def main():
        s, uri, text = await started(work)
        try:
            for needle, keyword in [("lose 8 heat", "lose"), ("raise temperature", "raise"),
                                    ("if n <= 0", "if"), ("for p in players", "for"),
                                    ("return n + ", "return"), ("require stock", "require")]:
                line, col = where(text, needle)
                h = await s.hover(uri, line, col + 1)
                assert h is not None, needle
                assert h.contents.value == statement_doc(STATEMENTS[keyword]), needle
            # 'for' that names a player is no statement: no statement's text there
            line, col = where(text, "heat for p")
            h = await s.hover(uri, line, col + len("heat f"))
            assert h is None or "`for NAME in LIST" not in h.contents.value
        finally:
            await s.stop()
    run(main())


def _grammar_statements() -> set[str]:
    grammar = (ROOT / "grammar" / "effects.lark").read_text(encoding="utf-8")
    rules = set()
    for block in ("_simple", "_compound"):
        m = re.search(rf"^{block}:(.*?)(?=^\S)", grammar, re.S | re.M)
        rules |= set(re.findall(r"[a-z_]+", m.group(1)))
    words = set()
    for rule in rules - {"call_stmt"}:
        m = re.search(rf"^{rule}:\s*\"([a-z]+)\"", grammar, re.M)
        assert m, rule
        words.add(m.group(1))
    return words


def test_every_statement_is_documented_once_for_the_guide_and_hover():
    from rulebook_games.lang.builtins import STATEMENTS
    from rulebook_games.lang.docgen import statement_reference, with_statements
    from rulebook_games.lang.parser import parse
    from rulebook_games.span import TextOrigin
    assert set(STATEMENTS) == _grammar_statements()
    guide = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert statement_reference() in guide, "run: rulebook docs --language docs/language.md"
    assert with_statements(guide) == guide
    for st in STATEMENTS.values():
        assert st.doc.endswith(".") and st.example, st.keyword
        parse(st.example + "\n", TextOrigin.at("STATEMENTS", 1, 1))


async def listed(s, uri, line, col) -> list:
    got = await s.client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        position=lsp.Position(line=line, character=col)))
    return list(got.items if hasattr(got, "items") else got or [])


def test_completion_puts_what_fits_the_slot_first(work):
    async def main():
        s, uri, text = await started(work)
        try:
            def first(items, n):
                ranked = sorted(items, key=lambda i: (i.sort_text or i.label))
                return [i.label for i in ranked[:n]]
            line, col = where(text, "lose 8 heat")
            # after 'lose 8': the resources (plural spellings too), before anything else
            items = await listed(s, uri, line, col + len("lose 8 "))
            assert set(first(items, 4)) == {"mc", "plant", "plants", "heat"}
            top = [i for i in items if i.preselect]
            assert len(top) == 1 and top[0].label in {"mc", "plant", "plants", "heat"}
            # after 'raise': the tracks
            line, col = where(text, "raise temperature")
            items = await listed(s, uri, line, col + len("raise "))
            assert set(first(items, 2)) == {"temperature", "tr"}
            # everything else is still offered, after them
            assert {"warm_everyone", "stock"} <= {i.label for i in items}
            # inside a builtin's argument that takes a resource: the resources
            line, col = where(text, "stock(heat) >= 8")
            items = await listed(s, uri, line, col + len("stock("))
            assert set(first(items, 4)) == {"mc", "plant", "plants", "heat"}
            # in a card file: after 'place', the tiles; where a card is expected, card ids
            cards = work / "mini" / "cards.yaml"
            ctext = cards.read_text(encoding="utf-8")
            curi = s.open(cards)
            await s.wait_for(curi, lambda d: d == [])
            line, col = where(ctext, "place ocean")
            items = await listed(s, curi, line, col + len("place "))
            assert first(items, 1) == ["ocean"]
            line, col = where(ctext, "resources_on(this")
            items = await listed(s, curi, line, col + len("resources_on("))
            assert set(first(items, 2)) == {"comet", "decomposers"}
            line, col = where(ctext, "microbes to this")
            items = await listed(s, curi, line, col + len("microbes to "))
            assert set(first(items, 2)) == {"comet", "decomposers"}
        finally:
            await s.stop()
    run(main())


def test_semantic_tokens_colour_the_effect_text_inside_yaml(work):
    async def main():
        s = Session(work)
        await s.client.start_io(sys.executable, "-m", "rulebook_games", "lsp", cwd=str(work))
        init = await s.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(text_document=lsp.TextDocumentClientCapabilities(
                rename=lsp.RenameClientCapabilities(prepare_support=True))),
            root_uri=from_fs_path(str(work)),
            workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(work)), name="w")]))
        s.client.initialized(lsp.InitializedParams())
        try:
            caps = init.capabilities
            legend = caps.semantic_tokens_provider.legend
            assert {"keyword", "number", "operator", "function", "class",
                    "enumMember"} <= set(legend.token_types)
            assert caps.rename_provider.prepare_provider is True
            assert caps.references_provider and caps.workspace_symbol_provider
            cards = work / "mini" / "cards.yaml"
            text = cards.read_text(encoding="utf-8")
            uri = s.open(cards)
            await s.wait_for(uri, lambda d: d == [])
            got = await s.client.text_document_semantic_tokens_full_async(
                lsp.SemanticTokensParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
            lines, found = text.split("\n"), {}
            line = col = 0
            data = got.data
            for i in range(0, len(data), 5):
                dl, dc, length, kind, mods = data[i:i + 5]
                line, col = line + dl, (col + dc if dl == 0 else dc)
                found[(line, col)] = (lines[line][col:col + length],
                                      legend.token_types[kind],
                                      {m for b, m in enumerate(legend.token_modifiers)
                                       if mods >> b & 1})

            def at(needle, offset=0, nth=0):
                ln, c = where(text, needle, nth)
                return found.get((ln, c + offset))
            # written from the card's text: statements' words are keywords, a resource
            # an enum member, numbers and operators as such, a builtin of the library
            assert at("raise temperature") == ("raise", "keyword", set())
            assert at("remove up to 3 plants", len("remove up to ")) == ("3", "number", set())
            assert at("3 plants from", 2) == ("plants", "enumMember", set())
            assert at("resources_on(this") == ("resources_on", "function", {"defaultLibrary"})
            assert at("// 3") == ("//", "operator", set())
            assert at(">= -20") == (">=", "operator", set())
            assert at("card.tags has", len("card.")) == ("tags", "property", set())
            # the YAML around it is not effect text: keys, ids, names, tags are left alone
            for needle in ("id: comet", "name: Comet", "Comet", "tags: [space", "type: active"):
                ln, c = where(text, needle)
                assert not [k for k in found if k[0] == ln and k[1] >= c and
                            k[1] < c + len(needle)], needle
        finally:
            await s.stop()
    run(main())
