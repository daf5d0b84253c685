"""The language server, driven as editors drive it: a subprocess speaking LSP over stdio.

A pygls client starts ``rulebook lsp`` and talks to it: initialize, open a
card file, see its diagnostics at the right line and column with their code,
type into it and see them change, take the quick fix a 'did you mean' offers,
and ask for completion, hover, definition and the outline. The ruleset is a
copy of the small fixture ruleset with a scenario file, and a mod that lies
outside it; one test opens a shipped card file the way an editor would.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

lsp = pytest.importorskip("lsprotocol.types")
client_mod = pytest.importorskip("pygls.lsp.client")
from pygls.uris import from_fs_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "mini"

SCENARIOS = """kind: scenarios
scenarios:
  - id: warming
    players: 2
    setup: |
      gain 8 heat for player(1)
    steps:
      - expect: stock(heat) == 8
"""

MOD = """kind: mod
id: cheap_comets
target: mini
changes:
  - {op: patch, in: cards, id: comet, value: {cost: 18}}
  - op: add
    in: cards
    value: {id: heat_wave, name: Heat Wave, type: event, cost: 3, play: gain 2 heat}
"""


class Session:
    """A running server and what it has published, per file."""

    def __init__(self, cwd: Path):
        self.client = client_mod.LanguageClient("rulebook-test", "1")
        self.cwd = cwd
        self.diagnostics: dict[str, list] = {}
        self.logs: list[str] = []
        self.changed = asyncio.Event()
        self.versions: dict[str, int] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params):
            self.diagnostics[params.uri] = list(params.diagnostics or [])
            self.changed.set()

        @self.client.feature(lsp.WINDOW_LOG_MESSAGE)
        def logged(params):
            self.logs.append(params.message)

    async def start(self):
        await self.client.start_io(sys.executable, "-m", "rulebook_games", "lsp", cwd=str(self.cwd))
        await self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(self.cwd)),
            workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(self.cwd)), name="work")]))
        self.client.initialized(lsp.InitializedParams())

    async def stop(self):
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    def open(self, path: Path, text: str | None = None) -> str:
        uri = from_fs_path(str(path))
        self.versions[uri] = 1
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(
            uri=uri, language_id="yaml", version=1,
            text=text if text is not None else path.read_text(encoding="utf-8"))))
        return uri

    def replace_all(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))

    def edit(self, uri: str, line: int, start: int, end: int, new: str) -> None:
        self.versions[uri] += 1
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=lsp.Position(line=line, character=start),
                                end=lsp.Position(line=line, character=end)),
                text=new)]))

    async def wait_for(self, uri: str, test, timeout: float = 90.0):
        """Wait until what is published for ``uri`` passes ``test``; return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            got = self.diagnostics.get(uri)
            if got is not None and test(got):
                return got
            self.changed.clear()
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError(f"no such diagnostics for {uri}; last: {got}; "
                                     f"log: {self.logs[-3:]}")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def completion(self, uri, line, col) -> dict:
        got = await self.client.text_document_completion_async(lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=col)))
        items = got.items if hasattr(got, "items") else got
        return {i.label: i for i in items or []}

    async def hover(self, uri, line, col):
        return await self.client.text_document_hover_async(lsp.HoverParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=col)))

    async def definition(self, uri, line, col):
        return await self.client.text_document_definition_async(lsp.DefinitionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=col)))


def where(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """0-based (line, column) of the start of the ``nth`` occurrence of ``needle``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


@pytest.fixture
def work(tmp_path):
    ruleset = tmp_path / "mini"
    shutil.copytree(FIXTURE, ruleset)
    (ruleset / "scenarios").mkdir()
    (ruleset / "scenarios" / "basics.yaml").write_text(SCENARIOS, encoding="utf-8")
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "cheap_comets.yaml").write_text(MOD, encoding="utf-8")
    return tmp_path


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 300))  # generous: CI machines may be busy


def test_card_file_diagnostics_quick_fix_and_answers(work):
    async def main():
        s = Session(work)
        await s.start()
        try:
            cards = work / "mini" / "cards.yaml"
            text = cards.read_text(encoding="utf-8")
            uri = s.open(cards)
            await s.wait_for(uri, lambda d: d == [])

            # a misspelt resource: the diagnostic sits on the name, with its code
            line, col = where(text, "plants from any player")
            s.edit(uri, line, col, col + len("plants"), "plnats")
            bad = await s.wait_for(uri, lambda d: len(d) == 1)
            d = bad[0]
            assert d.code == "RB301" and "plnats" in d.message and "comet" in d.message
            assert (d.range.start.line, d.range.start.character) == (line, col)
            assert (d.range.end.line, d.range.end.character) == (line, col + len("plnats"))

            # the 'did you mean' is a quick fix that puts the right name in its place
            actions = await s.client.text_document_code_action_async(lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri), range=d.range,
                context=lsp.CodeActionContext(diagnostics=[d])))
            assert actions, "no quick fix offered"
            fix = actions[0]
            assert fix.kind == lsp.CodeActionKind.QuickFix and "plants" in fix.title
            (edit,) = fix.edit.changes[uri]
            assert edit.new_text == "plants" and edit.range == d.range
            s.edit(uri, line, col, col + len("plnats"), edit.new_text)
            await s.wait_for(uri, lambda d: d == [])

            # a half-typed document: a YAML error at its place, and the server carries on
            s.edit(uri, 1, 0, 0, "  - id: [broken\n")
            broken = await s.wait_for(uri, lambda d: len(d) >= 1 and d[0].code == "RB104")
            assert broken[0].range.start.line >= 1
            s.edit(uri, 1, 0, len("  - id: [broken") + 1, "")
            await s.wait_for(uri, lambda d: d == [])

            # a schema error, saved (the whole ruleset is loaded again and stops at it),
            # then mended: the mended buffer is checked all the same
            line, col = where(text, "cost: 21")
            s.edit(uri, line, col, col + 4, "costt")
            got = await s.wait_for(uri, lambda d: len(d) == 1 and d[0].code == "RB201")
            assert got[0].range.start == lsp.Position(line=line, character=col)
            assert got[0].data == {"replace": ["cost"]}
            s.client.text_document_did_save(lsp.DidSaveTextDocumentParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri)))
            await asyncio.sleep(1.5)
            s.edit(uri, line, col, col + 5, "cost")
            await s.wait_for(uri, lambda d: d == [])

            # completion inside effect text: declared names, builtins with signatures
            line, col = where(text, "raise temperature")
            items = await s.completion(uri, line, col + len("raise te"))
            assert items["temperature"].detail == "track"
            assert items["plants"].detail.startswith("resource")
            assert items["comet"].detail == "card: Comet"
            assert items["warm_everyone"].detail == "warm_everyone(amount: number)"
            assert "->" in items["resources_on"].detail
            assert items["resources_on"].documentation.value
            assert "for" in items and "gain" in items
            # fields after a dot: the trigger's event
            line, col = where(text, "event.card.tags has plant")
            items = await s.completion(uri, line, col + len("event."))
            assert set(items) == {"player", "card"}
            # a plain value: tags after 'tags:'
            line, col = where(text, "tags: [space, event]")
            items = await s.completion(uri, line, col + len("tags: [sp"))
            assert {"space", "plant", "microbe"} <= set(items) and "comet" not in items

            # hover: a builtin's signature and doc; a card id shows the card's text
            line, col = where(text, "resources_on")
            h = await s.hover(uri, line, col + 2)
            assert "resources_on(" in h.contents.value and "```" in h.contents.value
            line, col = where(text, "id: comet")
            h = await s.hover(uri, line, col + 5)
            assert "**Comet**" in h.contents.value and "cost 21" in h.contents.value

            # go to definition, into another file of the ruleset
            line, col = where(text, "raise temperature")
            locs = await s.definition(uri, line, col + len("raise t"))
            comp = (work / "mini" / "components.yaml").read_text(encoding="utf-8")
            assert locs and locs[0].uri == from_fs_path(str(work / "mini" / "components.yaml"))
            assert locs[0].range.start.line == where(comp, "id: temperature")[0]

            # the outline: the file's cards
            syms = await s.client.text_document_document_symbol_async(
                lsp.DocumentSymbolParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
            assert [x.name for x in syms] == ["comet", "decomposers"]
            assert syms[1].range.start.line == where(text, "- id: decomposers")[0]
        finally:
            await s.stop()
    run(main())


def test_components_change_reaches_other_files_and_mod_outside(work):
    async def main():
        s = Session(work)
        await s.start()
        try:
            comp = work / "mini" / "components.yaml"
            ctext = comp.read_text(encoding="utf-8")
            cards_uri = s.open(work / "mini" / "cards.yaml")
            await s.wait_for(cards_uri, lambda d: d == [])
            comp_uri = s.open(comp)
            # renaming a resource in the components (unsaved) breaks the flow that uses it
            s.replace_all(comp_uri, ctext.replace("{id: heat, production: true}",
                                                  "{id: warmth, production: true}"))
            flow = work / "mini" / "flow.yaml"
            flow_uri = from_fs_path(str(flow))  # not open: published all the same
            got = await s.wait_for(flow_uri, lambda d: any("heat" in x.message for x in d))
            assert all(x.code == "RB301" for x in got)
            ftext = flow.read_text(encoding="utf-8")
            assert got[0].range.start.line == where(ftext, "stock(heat)")[0]
            s.replace_all(comp_uri, ctext)
            await s.wait_for(flow_uri, lambda d: d == [])

            # a scenario file is checked against its ruleset
            scen = work / "mini" / "scenarios" / "basics.yaml"
            suri = s.open(scen)
            await s.wait_for(suri, lambda d: d == [])
            line, col = where(SCENARIOS, "stock(heat) == 8")
            s.edit(suri, line, col + 6, col + 10, "hat")
            got = await s.wait_for(suri, lambda d: len(d) == 1)
            assert got[0].code == "RB301" and got[0].range.start.line == line

            # a mod outside the ruleset is checked against its target, found by id
            mod = work / "house" / "cheap_comets.yaml"
            muri = s.open(mod)
            await s.wait_for(muri, lambda d: d == [])
            line, col = where(MOD, "gain 2 heat")
            s.edit(muri, line, col + 7, col + 11, "heet")
            got = await s.wait_for(muri, lambda d: len(d) == 1)
            assert got[0].code == "RB301" and got[0].range.start == lsp.Position(line=line, character=col + 7)
            # and goes to definition in the target ruleset
            line, col = where(MOD, "id: comet")
            locs = await s.definition(muri, line, col + len("id: co"))
            assert locs and locs[0].uri == from_fs_path(str(work / "mini" / "cards.yaml"))
            # what the mod breaks in the ruleset's own files is told on the mod, not there
            s.replace_all(muri, MOD.replace("gain 2 heat", "gain 2 plants") +
                          "  - {op: remove, in: resources, id: heat}\n")
            got = await s.wait_for(muri, lambda d: len(d) == 1 and d[0].range.start.line == 0)
            assert "with this mod" in got[0].message and "4 errors" in got[0].message
            assert "components.yaml" in got[0].message and "heat" in got[0].message
            assert s.diagnostics.get(flow_uri) == []
        finally:
            await s.stop()
    run(main())


def test_shipped_card_file_and_server_errors_do_not_end_the_session(tmp_path):
    async def main():
        s = Session(tmp_path)
        await s.start()
        try:
            cards = ROOT / "rulesets" / "legacy_gears_of_time" / "cards"
            path = sorted(cards.glob("*.yaml"))[0]
            uri = s.open(path)
            await s.wait_for(uri, lambda d: d == [], timeout=150)
            syms = await s.client.text_document_document_symbol_async(
                lsp.DocumentSymbolParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
            assert syms
            # a position far outside the document is answered, not a crash
            assert await s.hover(uri, 10_000, 3) is None
            items = await s.completion(uri, 10_000, 0)
            assert items == {}
            # the session still answers
            syms2 = await s.client.text_document_document_symbol_async(
                lsp.DocumentSymbolParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
            assert len(syms2) == len(syms)
        finally:
            await s.stop()
    run(main())


def test_lsp_without_pygls_says_which_extra(tmp_path):
    import subprocess
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "pygls.py").write_text("raise ImportError('not installed')\n", encoding="utf-8")
    env = {"PYTHONPATH": str(blocker), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "rulebook_games", "lsp"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip() == ("rulebook lsp needs the language server extra: "
                                  "pip install 'rulebook-games[lsp]'")
    assert "Traceback" not in out.stderr


def test_card_files_read_card_by_card_as_whole_files_read():
    """The server re-reads only the edited card; what it reads is what reading the file gives."""
    from rulebook_games.errors import Diagnostics
    from rulebook_games.lsp.chunks import parse_cards
    from rulebook_games.load.yamlload import parse_yaml
    files = sorted((ROOT / "rulesets").glob("*/cards/*.yaml"))
    assert files
    whole_only = {(), ("cards",)}  # the file and its list: the loader reports nothing there
    for path in files:
        text = path.read_text(encoding="utf-8")
        for variant in (text, "\n\n" + text.replace("cost: 1", "cost: 2", 1)):
            a = parse_yaml(variant, path.name, Diagnostics())
            b = parse_cards(variant, path.name, Diagnostics())
            assert b is not None and a.data == b.data, path
            assert {k: v for k, v in a.spans.items() if k not in whole_only} == \
                {k: v for k, v in b.spans.items() if k not in whole_only}, path
            assert a.key_spans == b.key_spans and a.scalars == b.scalars, path
    # a YAML error in one card is found at its place
    diags = Diagnostics()
    text = (FIXTURE / "cards.yaml").read_text(encoding="utf-8")
    assert parse_cards(text.replace("cost: 5", "cost: [5"), "cards.yaml", diags) is None
    assert diags[0].code == "RB104" and diags[0].span.line > text.count("\n", 0,
                                                                        text.index("cost: 5"))


def test_an_error_in_a_handler_is_logged_and_answered():
    """Whatever goes wrong inside a request, the client is told in its log and gets an answer."""
    from rulebook_games.lsp.server import guarded

    class Client:
        def __init__(self):
            self.logged = []

        def log(self, message, kind=None):
            self.logged.append((message, kind))

    @guarded(default="fallback")
    def broken(ls, params):
        raise ValueError("a bug inside the server")

    client = Client()
    assert broken(client, None) == "fallback"
    (message, kind), = client.logged
    assert "ValueError: a bug inside the server" in message and kind == lsp.MessageType.Error

    @guarded(default=None)
    async def broken_async(ls, params):
        raise KeyError("gone")

    assert asyncio.run(broken_async(client, None)) is None
    assert "KeyError" in client.logged[-1][0]


def test_a_rule_file_linked_from_outside_is_never_read(work):
    """A ruleset's file that is a link out of its folder is refused, as the loader refuses it."""
    outside = work / "outside"
    outside.mkdir()
    secret = outside / "cards.yaml"
    secret.write_text("kind: cards\ncards: [ {id: x, name: X, cost: [1 }\n", encoding="utf-8")
    cards = work / "mini" / "cards.yaml"
    cards.unlink()
    cards.symlink_to(secret)

    async def main():
        s = Session(work)
        await s.start()
        try:
            manifest_uri = from_fs_path(str(work / "mini" / "ruleset.yaml"))
            s.open(work / "mini" / "flow.yaml")
            got = await s.wait_for(manifest_uri, lambda d: len(d) >= 1)
            assert [d.code for d in got] == ["RB405"]
            await asyncio.sleep(1)
            assert from_fs_path(str(secret)) not in s.diagnostics
            assert not any("RB104" == d.code for ds in s.diagnostics.values() for d in ds)
        finally:
            await s.stop()
    run(main())


def test_parsed_effects_are_found_again_when_moved_and_kept_for_one_load_only(tmp_path):
    """The server keeps the trees of the last load: a file moved down by an edit reuses them
    with every place moved, exactly as parsing it there makes them, and loads after many
    such edits keep no more trees than one load uses."""
    from rulebook_games.lsp import project as P

    ruleset = tmp_path / "mini"
    shutil.copytree(FIXTURE, ruleset)
    files = sorted(ruleset.glob("*.yaml"))
    P._PARSED.clear()
    project = P.Project(ruleset / "ruleset.yaml")
    first = project.load({})
    assert first.ruleset is not None
    kept = sum(len(v) for v in P._PARSED.values())
    assert kept > 0
    for shift in range(1, 6):
        moved = {P.norm(f): "\n" * shift + "# moved\n" + f.read_text(encoding="utf-8")
                 for f in files}
        again = project.load(moved).ruleset
        assert sum(len(v) for v in P._PARSED.values()) == kept
    P._PARSED.clear()
    fresh = P.Project(ruleset / "ruleset.yaml").load(moved).ruleset
    assert set(again.asts) == set(fresh.asts)
    for key, tree in fresh.asts.items():
        assert repr(again.asts[key]) == repr(tree)  # spans included
    some = next(iter(fresh.asts.values()))
    assert some.span.line > first.ruleset.asts[next(iter(fresh.asts))].span.line


def test_a_mod_whose_target_is_the_id_of_two_workspace_rulesets_says_so(tmp_path):
    # as `rulebook validate` does: which ruleset is meant is not clear, so none is picked
    from rulebook_games.lsp.project import Orphan, project_for
    mini = Path(__file__).parent / "fixtures" / "mini"
    for name in ("one", "two"):
        shutil.copytree(mini, tmp_path / name)
    mods = tmp_path / "mods"
    mods.mkdir()
    text = "kind: mod\nid: m\ntarget: mini\nchanges: []\n"
    (mods / "m.yaml").write_text(text, encoding="utf-8")
    got = project_for(str(mods / "m.yaml"), text, [str(tmp_path)])
    assert isinstance(got, Orphan)
    d = got.diagnostic
    assert d.code == "RB500" and "the id of 2 rulesets" in d.message and d.span.line == 3
    assert "one" in d.message and "two" in d.message
    # with one of them gone, the mod is checked against the other
    shutil.rmtree(tmp_path / "two")
    manifest, found_mods = project_for(str(mods / "m.yaml"), text, [str(tmp_path)])
    assert manifest == tmp_path / "one" / "ruleset.yaml" and found_mods == (str(mods / "m.yaml"),)
