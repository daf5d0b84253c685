"""The language server itself: protocol messages in, Rulebook's checker and names out.

Open buffers are kept as an overlay over the files on disk. Each open file
belongs to a :class:`~.project.Project` (its ruleset, with the file itself
layered on when it is a mod), loaded once and kept. An edit is checked
after a short pause in typing (so a burst of keystrokes costs one check):
a card file's buffer is re-checked alone against the loaded ruleset
(:mod:`.recheck`), a scenario file alone against it, and any other file
(components, flow, the manifest, a mod) makes the whole project load again
in a worker thread, as does a card file whose card ids changed, later and
only once typing stops. Saving a file re-checks its project in full.
Completion, hover, definition, outline and quick fixes read the last load.
Any error inside a handler is logged to the client and the session goes on.

Every request is answered: a request whose parameters cannot be read (a
position with a negative line, say) gets an "invalid params" error, one that
comes after shutdown an "invalid request" error, a message that is not JSON
a "parse error", and a batch (a JSON array: LSP has none) or any other value
that is not one JSON-RPC 2.0 message an "invalid request" error with id null
(nothing in it is run), where pygls alone would drop them without a word or
print a traceback. Whatever is logged goes to standard error as one line. The
server reads from disk only what the loader would read, the way it reads it
(:mod:`rulebook_games.load.userfiles`: regular files, never blocking, bounded
in size), so no file in a workspace can make it wait or fill its memory. A
document whose URI names no usable file (a ``file:`` URI holding a NUL, or
not a ``file:`` URI at all, such as an unsaved buffer) is never read nor
checked, and requests on it get empty answers, while every other file goes
on being checked; a ``file:`` one gets a diagnostic saying why.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import json
import logging
import os
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.exceptions import (JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest,
                              JsonRpcParseError)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from ..version import __version__
from ..errors import Diagnostic
from ..load.userfiles import Unreadable, read_regular
from ..load.yamlload import MAX_FILE_BYTES
from ..span import SealedSpan, Span
from . import complete as completion
from . import lookup, outline, rename, tokens
from .convert import location, quick_fixes, to_lsp
from .project import Orphan, Project, head_value, norm, project_for, workspace_rulesets
from .recheck import recheck_cards

QUICK_DELAY = 0.12  # seconds of quiet before a changed buffer is checked
FULL_DELAY = 1.0  # and before its whole project is, when that is needed


def _reasons(exc: BaseException) -> str:
    """What was wrong with a message's parameters, in the validators' own words."""
    found = []
    todo = [exc]
    while todo:
        e = todo.pop()
        subs = list(getattr(e, "exceptions", ()))
        if e.__cause__ is not None:
            subs.append(e.__cause__)
        if not subs and isinstance(e, KeyError):
            found.append(f"{e} is missing")
        elif not subs and str(e):
            found.append(str(e))
        todo.extend(subs)
    return "; ".join(dict.fromkeys(found))[:500] or "they do not fit the protocol"


def _msg_id(message: dict):
    """A message's id when it is one JSON-RPC allows (a number or a text), else None."""
    found = message.get("id")
    if isinstance(found, str) or (isinstance(found, int) and not isinstance(found, bool)):
        return found
    return None


def _not_a_message(message) -> str | None:
    """Why a decoded message is not one JSON-RPC 2.0 message the server can take, or None."""
    if isinstance(message, list):
        return ("a batch (a JSON array of messages) is not part of the Language Server "
                "Protocol: send each message on its own")
    if not isinstance(message, dict):
        what = ("null" if message is None else "true or false" if isinstance(message, bool)
                else "a text" if isinstance(message, str) else "a number")
        return f"a message is a JSON object, not {what}"
    if message.get("jsonrpc") != "2.0":
        return "a message must say \"jsonrpc\": \"2.0\""
    if "method" in message:
        if not isinstance(message["method"], str):
            return "a message's method is a text"
        if "id" in message and message["id"] is not None and _msg_id(message) is None:
            return "a request's id is a number or a text"
        return None
    if "id" in message and ("result" in message or "error" in message):
        return None  # a response to a request of the server's
    return "a message is a request, a notification or a response, and this is none of them"


class _Protocol(LanguageServerProtocol):
    """pygls' protocol, answering the messages it would drop without a word or with a trace.

    Every JSON object stays a plain dict while a message is decoded (pygls would
    turn any object inside it that looks like a message into one, and answer it);
    :meth:`handle_message` then takes the whole message, which it knows is the
    outermost value: a batch, a value that is not a JSON-RPC 2.0 message, or a
    request whose parameters do not fit is answered with an error, and nothing
    in it is run."""

    def structure_message(self, data):
        return data

    def handle_message(self, message):
        if not isinstance(message, dict):
            if hasattr(message, "jsonrpc") and not isinstance(message, list):
                return self._handle(message)  # structured already (pygls' own callers)
            return self._refuse(None, _not_a_message(message))
        problem = _not_a_message(message)
        if problem is not None:
            is_request = "method" in message and "id" in message
            return self._refuse(_msg_id(message) if is_request else None, problem,
                                answer=is_request or "method" not in message)
        try:
            structured = super().structure_message(message)
        except JsonRpcException as exc:
            msg_id = _msg_id(message)
            if "method" in message and msg_id is not None:
                self._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {
                    "code": JsonRpcInvalidParams.CODE,
                    "message": f"invalid params for {message['method'][:100]}: "
                               f"{_reasons(exc)}"}})
            else:  # a notification that does not fit: nothing to answer, one line said
                logging.getLogger("rulebook.lsp").warning(
                    "ignored %.100s: its params do not fit: %s", message.get("method"),
                    _reasons(exc))
            return None
        return self._handle(structured)

    def _handle(self, message):
        if self._shutdown and getattr(message, "method", "") != lsp.EXIT and \
                getattr(message, "id", None) is not None and hasattr(message, "params"):
            self._send_data({"jsonrpc": "2.0", "id": message.id, "error": {
                "code": JsonRpcInvalidRequest.CODE, "message": "the server is shutting down"}})
            return None
        return super().handle_message(message)

    def _refuse(self, msg_id, why: str, answer: bool = True) -> None:
        """Answer with 'invalid request' (JSON-RPC's id null when the id is unknown)."""
        if answer:
            self._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {
                "code": JsonRpcInvalidRequest.CODE, "message": f"invalid request: {why}"}})
        else:
            logging.getLogger("rulebook.lsp").warning("ignored a notification: %s", why)


def usable_path(uri: str) -> str | None:
    """The file a URI names, or None when it names no file Rulebook can use."""
    if not isinstance(uri, str) or "\x00" in uri:
        return None
    try:
        path = to_fs_path(uri)
        if not path or "\x00" in path:
            return None
        norm(path)  # a name the system refuses (a lone surrogate, say) raises here
        return path
    except (ValueError, OSError):
        return None


def _unusable(uri: str) -> Diagnostic:
    return Diagnostic("RB100", "this file's name cannot be used as a file on this system "
                      "(it holds a NUL or another character file names cannot have), so "
                      "Rulebook does not check it", Span(uri[:200], 1, 1))


class RulebookServer(LanguageServer):
    def __init__(self):
        super().__init__("rulebook", __version__, protocol_cls=_Protocol)
        self.projects: dict[tuple, Project] = {}
        self.of_file: dict[str, Project | Orphan] = {}
        self.published: dict[str, list] = {}  # file -> what was last published there
        self.pending: dict[tuple, asyncio.Task] = {}
        self.timings: collections.deque = collections.deque(maxlen=10_000)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rulebook-check")

    def report_server_error(self, error: Exception, source) -> None:
        """A message that is not JSON is answered, as JSON-RPC asks, with a parse error."""
        try:  # called from pygls' reading loop: nothing may escape from here
            if isinstance(error, (json.JSONDecodeError, UnicodeDecodeError)):
                self.protocol._send_data({"jsonrpc": "2.0", "id": None, "error": {
                    "code": JsonRpcParseError.CODE, "message": f"not JSON: {error}"[:300]}})
                return
            super().report_server_error(error, source)
        except Exception:
            pass

    # ---------------------------------------------------------------- state
    def roots(self) -> list[str]:
        out = []
        for folder in (self.workspace.folders or {}).values():
            path = usable_path(folder.uri)
            if path:
                out.append(path)
        root = self.workspace.root_path
        if not out and root and "\x00" not in root:
            out.append(root)
        return out

    def overlay(self) -> dict[str, str]:
        out = {}
        for uri, doc in self.workspace.text_documents.items():
            path = usable_path(uri)
            if path:
                out[norm(path)] = doc.source
        return out

    def text_of(self, path: str) -> str:
        return self.overlay().get(norm(path)) or ""

    def project(self, path: str) -> Project | Orphan:
        key = norm(path)
        found = self.of_file.get(key)
        if found is None:
            got = project_for(path, self.text_of(path), self.roots())
            if isinstance(got, Orphan):
                found = got
            else:
                manifest, mods = got
                pkey = (norm(manifest), tuple(norm(m) for m in mods))
                found = self.projects.get(pkey)
                if found is None:
                    found = self.projects[pkey] = Project(manifest, tuple(norm(m) for m in mods))
            self.of_file[key] = found
        return found

    def log(self, message: str, kind=lsp.MessageType.Log) -> None:
        self.window_log_message(lsp.LogMessageParams(type=kind, message=message))

    # ----------------------------------------------------------- publishing
    def publish(self, path: str, diagnostics: list, lines: list[str] | None = None) -> None:
        sealed = any(isinstance(d.span, SealedSpan) for d in diagnostics)
        key = os.path.abspath(path) if sealed else norm(path)
        if lines is None:
            text = self.overlay().get(key)
            if text is None and (sealed or not any(p.owns(key) for p in self.projects.values())
                                 or os.path.islink(path)):
                text = ""  # never read a file outside the rulesets, nor one Rulebook refused
            if text is None:
                text = _read_lines(key)
            lines = text.split("\n")
        items = [to_lsp(d, lines) for d in diagnostics]
        if not items and not self.published.get(key) and key in self.published:
            return
        self.published[key] = items
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=from_fs_path(key) or key, diagnostics=items))

    def publish_project(self, project: Project, found: dict[str, list], files: set[str]
                        ) -> None:
        """Publish ``found`` for ``files`` (and clear what those files showed before)."""
        for f in sorted(files):
            self.publish(f, found.get(f, []))

    # -------------------------------------------------------------- checking
    def schedule(self, key: tuple, delay: float, work) -> None:
        old = self.pending.pop(key, None)
        if old is not None and not old.done():
            old.cancel()

        async def later():
            try:
                await asyncio.sleep(delay)
                await work()
            except asyncio.CancelledError:
                raise
            except Exception:
                self.log("rulebook: " + traceback.format_exc(), lsp.MessageType.Error)
        self.pending[key] = asyncio.get_running_loop().create_task(later())

    async def run(self, fn, *args):
        """Run checking work in the one worker thread: the parser keeps state while it parses."""
        return await asyncio.get_running_loop().run_in_executor(self.worker, fn, *args)

    async def full_check(self, project: Project, scenarios: bool = True) -> None:
        overlay = self.overlay()
        start = time.perf_counter()
        loaded = await self.run(project.load, overlay)
        found = dict(loaded.diagnostics)
        if project.mods:
            found = mod_findings(project, found)
            files = set(found) | set(project.mods)
        else:
            files = set(found) | set(loaded.documents)
            files |= {f for f, items in self.published.items() if items and project.owns(f)}
        files |= {f for f in overlay if self.of_file.get(f) is project}
        now = self.overlay()
        stale = {f for f in files if now.get(f) != overlay.get(f)}
        scenario_files = set(project.scenario_files(overlay))
        self.publish_project(project, found, files - stale - scenario_files)
        self.timings.append(("full", time.perf_counter() - start))
        open_here = {f for f in overlay if self.of_file.get(f) is project}
        for f in sorted(scenario_files, key=lambda f: f not in open_here):
            if not scenarios and f not in open_here and not self.published.get(f):
                continue
            # one file at a time, so an edit checked meanwhile waits for one file at most
            got = await self.run(project.check_scenarios, f, self.overlay().get(f))
            for g, items in got.items():
                if g not in self.overlay() or self.overlay().get(g) == overlay.get(g):
                    self.publish(g, items)
        for f in stale:  # edited while the load ran: check those again against it
            self.schedule(("quick", f), QUICK_DELAY, functools.partial(self.quick_check, f))

    async def quick_check(self, path: str) -> None:
        project = self.project(path)
        key = norm(path)
        if isinstance(project, Orphan):
            return await self.orphan_check(path, project)
        loaded = project.base
        if loaded is None:
            return self.schedule(("full", project.key), 0, functools.partial(
                self.full_check, project))
        text = self.overlay().get(key, "")
        start = time.perf_counter()
        got = await self.run(recheck_cards, loaded, path, text)
        if got is not None:
            if self.overlay().get(key) == text:
                self.publish(path, got.diagnostics, text.split("\n"))
                self.timings.append(("cards", time.perf_counter() - start))
            if got.ids_changed or (project.loaded is not loaded and not got.diagnostics):
                # other files may name its cards, or the last load stopped at its errors
                self.schedule(("full", project.key), FULL_DELAY, functools.partial(
                    self.full_check, project, False))
            return
        if head_value(text, "kind") == "scenarios" and loaded.clean_files and \
                loaded.ruleset is not None:
            found = await self.run(project.check_scenarios, key, text)
            if self.overlay().get(key) == text:
                self.publish(path, found.get(key, []), text.split("\n"))
                self.timings.append(("scenarios", time.perf_counter() - start))
            return
        self.schedule(("full", project.key), FULL_DELAY / 3, functools.partial(
            self.full_check, project, False))

    async def orphan_check(self, path: str, orphan: Orphan) -> None:
        """A file of no ruleset: its YAML (and, when it says what it is, its schema)."""
        from ..load import schema as schemas
        from ..load.assemble import display_path
        from ..errors import Diagnostics
        from ..load.yamlload import load_yaml
        from pathlib import Path
        diags = Diagnostics()
        text = self.text_of(path)
        if head_value(text, "kind") is None and orphan.diagnostic is None:
            return self.publish(path, [])
        doc = load_yaml(path, diags, display_path(Path(path)), text=text)
        if doc is not None:
            kind = schemas.check_kind(doc, diags)
            if kind is not None:
                schemas.validate(doc, kind, diags)
        if orphan.diagnostic is not None:
            diags.insert(0, orphan.diagnostic)
        self.publish(path, list(diags), text.split("\n"))

    # ------------------------------------------------------------- answers
    def ruleset_for(self, path: str):
        project = self.project(path)
        if isinstance(project, Orphan):
            return None
        loaded = project.base  # names from the last load that no file error cut short
        return loaded.ruleset if loaded is not None and loaded.ruleset is not None \
            else project.good


def _read_lines(path: str) -> str:
    """A rule file's text, to place a diagnostic's range: read as the loader reads it
    (a regular file only, never blocking, at most the size the loader accepts), else ''."""
    try:
        raw = read_regular(path, MAX_FILE_BYTES)
    except Unreadable:
        return ""
    return raw[:MAX_FILE_BYTES].decode("utf-8", errors="replace")


def mod_findings(project: Project, found: dict[str, list]) -> dict[str, list]:
    """What a mod's project shows: the mod's own findings, and a line on those elsewhere.

    The ruleset's own files are shown by their own project (without the mod), so
    errors the mod causes there are summed up on the mod's first line instead."""
    from ..errors import Diagnostic
    from ..span import Span
    mods = set(project.mods)
    out = {m: list(found.get(m, [])) for m in mods}
    elsewhere = [d for f, items in found.items() if f not in mods for d in items]
    if elsewhere:
        first = sorted(elsewhere, key=lambda d: (d.span.file, d.span.line, d.span.col))[0]
        where = f"{first.span}: " if first.span else ""
        many = f"{len(elsewhere)} errors" if len(elsewhere) > 1 else "an error"
        mod = sorted(mods)[0]
        out[mod].insert(0, Diagnostic(
            first.code, f"with this mod, the ruleset has {many} in its own files; the first: "
            f"{where}{first.message}", Span(mod, 1, 1), hint="rulebook validate --mod "
            "FILE lists them all"))
    return out


server = RulebookServer()


def guarded(default=None):
    """Run a handler; an error in it is logged to the client and answered with ``default``."""
    def wrap(f):
        if asyncio.iscoroutinefunction(f):
            @functools.wraps(f)
            async def run_async(ls, params):
                try:
                    return await f(ls, params)
                except JsonRpcException:
                    raise  # a refusal with its reason, answered as an error
                except Exception:
                    ls.log("rulebook: " + traceback.format_exc(), lsp.MessageType.Error)
                    return default
            return run_async

        @functools.wraps(f)
        def run(ls, params):
            try:
                return f(ls, params)
            except JsonRpcException:
                raise  # a refusal with its reason, answered as an error
            except Exception:
                ls.log("rulebook: " + traceback.format_exc(), lsp.MessageType.Error)
                return default
        return run
    return wrap


def _path(uri: str) -> str | None:
    """The file of a request's URI, or None (see :func:`usable_path`): nothing is done for it."""
    return usable_path(uri)


def _text(ls: RulebookServer, uri: str) -> str:
    """The open buffer's text ('' for a document that is not open: nothing is read from disk)."""
    doc = ls.workspace.text_documents.get(unquote(uri))  # pygls keys them unquoted
    return doc.source if doc is not None else ""


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
@guarded()
async def did_open(ls: RulebookServer, params: lsp.DidOpenTextDocumentParams):
    path = _path(params.text_document.uri)
    if path is None:
        uri = params.text_document.uri
        if uri.lower().startswith("file:"):  # an unsaved 'untitled:' buffer is left alone
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=uri, diagnostics=[to_lsp(_unusable(uri))]))
        return
    ls.of_file.pop(norm(path), None)
    project = ls.project(path)
    if isinstance(project, Project) and project.loaded is None:
        ls.schedule(("full", project.key), 0, functools.partial(ls.full_check, project))
    else:
        ls.schedule(("quick", norm(path)), 0, functools.partial(ls.quick_check, path))


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
@guarded()
def did_change(ls: RulebookServer, params: lsp.DidChangeTextDocumentParams):
    path = _path(params.text_document.uri)
    if path is None:
        return
    text = _text(ls, params.text_document.uri)
    old = ls.of_file.get(norm(path))
    if isinstance(old, Orphan) or (isinstance(old, Project) and old.mods and
                                   head_value(text, "target") is not None):
        ls.of_file.pop(norm(path), None)  # a mod's target may have been changed
    ls.schedule(("quick", norm(path)), QUICK_DELAY, functools.partial(ls.quick_check, path))


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
@guarded()
def did_save(ls: RulebookServer, params: lsp.DidSaveTextDocumentParams):
    path = _path(params.text_document.uri)
    if path is None:
        return
    project = ls.project(path)
    if isinstance(project, Project):
        ls.schedule(("full", project.key), FULL_DELAY / 3, functools.partial(
            ls.full_check, project, False))


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
@guarded()
def did_close(ls: RulebookServer, params: lsp.DidCloseTextDocumentParams):
    path = _path(params.text_document.uri)
    if path is None:
        return
    project = ls.of_file.pop(norm(path), None)
    if isinstance(project, Project) and project.loaded is not None and \
            project.loaded.texts.get(norm(path)) is not None:
        # its unsaved text was part of the load: the file on disk counts again
        ls.schedule(("full", project.key), FULL_DELAY, functools.partial(
            ls.full_check, project, False))


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                lsp.CompletionOptions(trigger_characters=["."]))
@guarded(default=None)
def completions(ls: RulebookServer, params: lsp.CompletionParams):
    path = _path(params.text_document.uri)
    if path is None:
        return lsp.CompletionList(is_incomplete=False, items=[])
    start = time.perf_counter()
    rs = ls.ruleset_for(path)
    roots = ls.roots()
    items = completion.complete(rs, _text(ls, params.text_document.uri),
                                params.position.line, params.position.character,
                                lambda: workspace_rulesets(roots))
    ls.timings.append(("completion", time.perf_counter() - start))
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@guarded(default=None)
def hover(ls: RulebookServer, params: lsp.HoverParams):
    path = _path(params.text_document.uri)
    if path is None:
        return None
    rs = ls.ruleset_for(path)
    text = lookup.hover_text(rs, _text(ls, params.text_document.uri), params.position.line,
                             params.position.character)
    if text is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
@guarded(default=None)
def definition(ls: RulebookServer, params: lsp.DefinitionParams):
    path = _path(params.text_document.uri)
    if path is None:
        return None
    rs = ls.ruleset_for(path)
    spans = lookup.definition(rs, _text(ls, params.text_document.uri), params.position.line,
                              params.position.character)
    return [location(s) for s in spans] or None


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded(default=None)
def document_symbols(ls: RulebookServer, params: lsp.DocumentSymbolParams):
    return outline.outline(_text(ls, params.text_document.uri))


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
@guarded(default=None)
def code_actions(ls: RulebookServer, params: lsp.CodeActionParams):
    return quick_fixes(params.text_document.uri, params.context.diagnostics) or None


class _RequestFailed(JsonRpcException):
    """A request that cannot be done, answered with the reason (LSP's RequestFailed)."""

    CODE = -32803


def _project_files(ls: RulebookServer, path: str):
    """The ruleset at ``path`` and every file of it and its mods (path -> text), or None."""
    project = ls.project(path)
    rs = ls.ruleset_for(path)
    if isinstance(project, Orphan) or rs is None:
        return None, {}
    return rs, rename.project_files(project, ls.overlay(), ls.roots(), getattr(rs, "id", None))


def _uses(ls: RulebookServer, path: str, uri: str, position, renaming: bool):
    rs = ls.ruleset_for(path)
    try:
        name, kinds, _start = rename.renamable(rs, _text(ls, uri), position.line,
                                               position.character)
        if renaming:
            rename.refuse_ambiguous(name, kinds)
    except rename.Refused as exc:
        raise _RequestFailed(str(exc))
    rs, files = _project_files(ls, path)
    return name, kinds, rename.uses(rs, files, name, kinds)


def _range(use) -> lsp.Range:
    return lsp.Range(lsp.Position(use.line, use.col), lsp.Position(use.line, use.col + use.length))


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
@guarded(default=None)
def references(ls: RulebookServer, params: lsp.ReferenceParams):
    path = _path(params.text_document.uri)
    if path is None:
        return None
    start = time.perf_counter()
    try:
        name, kinds, found = _uses(ls, path, params.text_document.uri, params.position, False)
    except _RequestFailed:
        return None
    if params.context is not None and not params.context.include_declaration:
        declared = {(norm(span.file), span.line - 1) for kind, span in
                    lookup.declarations(ls.ruleset_for(path), name) if kind in kinds}
        found = [u for u in found if (u.file, u.line) not in declared]
    ls.timings.append(("references", time.perf_counter() - start))
    return [lsp.Location(from_fs_path(u.file) or u.file, _range(u)) for u in found] or None


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
@guarded(default=None)
def prepare_rename(ls: RulebookServer, params: lsp.PrepareRenameParams):
    path = _path(params.text_document.uri)
    if path is None:
        return None
    text = _text(ls, params.text_document.uri)
    try:
        name, kinds, start = rename.renamable(ls.ruleset_for(path), text,
                                              params.position.line, params.position.character)
        rename.refuse_ambiguous(name, kinds)
    except rename.Refused as exc:
        raise _RequestFailed(str(exc))
    return lsp.PrepareRenamePlaceholder(
        range=lsp.Range(lsp.Position(params.position.line, start),
                        lsp.Position(params.position.line, start + len(name))),
        placeholder=name)


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
@guarded(default=None)
def rename_name(ls: RulebookServer, params: lsp.RenameParams):
    path = _path(params.text_document.uri)
    if path is None:
        return None
    start = time.perf_counter()
    name, kinds, found = _uses(ls, path, params.text_document.uri, params.position, True)
    try:
        rename.check_new_name(ls.ruleset_for(path), name, params.new_name)
    except rename.Refused as exc:
        raise _RequestFailed(str(exc))
    changes: dict[str, list] = {}
    for u in found:
        changes.setdefault(from_fs_path(u.file) or u.file, []).append(
            lsp.TextEdit(_range(u), params.new_name))
    ls.timings.append(("rename", time.perf_counter() - start))
    return lsp.WorkspaceEdit(changes=changes)


SYMBOL_KIND = {"card": lsp.SymbolKind.Class, "resource": lsp.SymbolKind.Constant,
               "card_resource": lsp.SymbolKind.Constant, "procedure": lsp.SymbolKind.Method,
               "function": lsp.SymbolKind.Function, "action": lsp.SymbolKind.Event,
               "phase": lsp.SymbolKind.Namespace, "event": lsp.SymbolKind.Event,
               "track": lsp.SymbolKind.Variable, "tag": lsp.SymbolKind.EnumMember,
               "tile": lsp.SymbolKind.Struct, "zone": lsp.SymbolKind.Array,
               "constant": lsp.SymbolKind.Constant, "variant": lsp.SymbolKind.Enum}


@server.feature(lsp.WORKSPACE_SYMBOL)
@guarded(default=None)
def workspace_symbols(ls: RulebookServer, params: lsp.WorkspaceSymbolParams):
    """The declared names of every ruleset loaded so far (the open files' projects)."""
    out, seen = [], set()
    for project in list(ls.projects.values()):
        loaded = project.base
        rs = loaded.ruleset if loaded is not None and loaded.ruleset is not None else project.good
        if rs is None:
            continue
        for name, kind, detail, span in rename.symbols(rs, params.query or ""):
            if span is None or (name, kind, span.file, span.line) in seen:
                continue
            seen.add((name, kind, span.file, span.line))
            out.append(lsp.SymbolInformation(
                name=name, kind=SYMBOL_KIND.get(kind, lsp.SymbolKind.Key), location=location(span),
                container_name=f"{kind.replace('_', ' ')} {detail}" if kind == "card"
                else kind.replace("_", " ")))
    return out


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, lsp.SemanticTokensRegistrationOptions(
    legend=lsp.SemanticTokensLegend(token_types=tokens.TOKEN_TYPES,
                                    token_modifiers=tokens.TOKEN_MODIFIERS),
    full=True, document_selector=[lsp.TextDocumentFilterLanguage(language="yaml")]))
@guarded(default=None)
def semantic_tokens(ls: RulebookServer, params: lsp.SemanticTokensParams):
    """The effect text inside the file's YAML, as tokens (:mod:`.tokens`)."""
    path = _path(params.text_document.uri)
    if path is None:
        return lsp.SemanticTokens(data=[])
    start = time.perf_counter()
    text = _text(ls, params.text_document.uri)
    project = ls.project(path)
    rs = None if isinstance(project, Orphan) else ls.ruleset_for(path)
    if isinstance(project, Orphan) and head_value(text, "kind") is None:
        return lsp.SemanticTokens(data=[])  # a YAML file that is no rule file
    data = tokens.encode(tokens.semantic_tokens(rs, text), text.split("\n"))
    ls.timings.append(("tokens", time.perf_counter() - start))
    return lsp.SemanticTokens(data=data)


@server.command("rulebook.timings")
def timings(ls: RulebookServer, *args):
    """How long checks and completions took, for the benchmark (kind, seconds)."""
    return [[k, round(v, 4)] for k, v in ls.timings]


class _OneLine(logging.Formatter):
    """A log record as one line of words: never a traceback, whoever logs it (pygls too)."""

    def format(self, record: logging.LogRecord) -> str:
        try:
            text = record.getMessage()
        except Exception:  # a message whose arguments do not fit its format
            text = str(record.msg)
        first = (text.strip().splitlines() or [""])[0]
        return f"{record.levelname.lower()}: {record.name}: {first[:300]}"


def quiet_logging() -> None:
    """Everything logged goes to standard error as one line a record, warnings and up."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)


def serve() -> None:
    """Serve over standard input and output; anything printed goes to standard error."""
    out = sys.stdout.buffer
    sys.stdout = sys.stderr
    quiet_logging()
    server.start_io(sys.stdin.buffer, out)

