"""Hostile messages and files for the language server (issue 24, item 8).

An editor speaks to ``rulebook lsp`` over standard input and output, and the
files it opens are rule files from anywhere. Each case here sends what a
broken or hostile client, or a hostile rule file, would send, and checks the
promise: every request gets an answer (a result or a protocol error, never
silence), a file whose URI names no usable file (a ``%00`` in it) is refused
alone while every other file goes on being checked, hover text taken from
rule files is literal Markdown (no picture, no link), and memory stays flat
over 80 edits of a large flow file.

The protocol cases run the real server in a subprocess and speak raw JSON-RPC
to it, as pygls' own client refuses to send a negative position. The memory
case drives the same server object in this process, through its protocol's
message handler, with the pauses for typing set to zero so that each of the
80 edits is checked.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from pygls.uris import from_fs_path  # noqa: E402

MINI = Path(__file__).parent / "fixtures" / "mini"


SERVER_MEMORY_CAP = 3 << 30  # address space: a server that reads without bound dies, not the host


def _cap_memory() -> None:
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (SERVER_MEMORY_CAP, SERVER_MEMORY_CAP))
    except (ImportError, ValueError, OSError):
        pass


def _peak_mb(pid: int) -> float | None:
    """The most memory the process ``pid`` has held at once (Linux), in MB."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


class Raw:
    """``rulebook lsp`` in a subprocess, spoken to in raw JSON-RPC."""

    def __init__(self, cwd: Path, stderr=subprocess.DEVNULL):
        env = dict(os.environ)
        self.proc = subprocess.Popen([sys.executable, "-m", "rulebook_games", "lsp"], cwd=cwd,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, env=env,
                                     preexec_fn=_cap_memory if os.name == "posix" else None)
        self.buffer = b""
        self.messages: list[dict] = []
        self.last_id = 0

    def write(self, body: bytes) -> None:
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, message: dict) -> None:
        self.write(json.dumps(message).encode())

    def request(self, method: str, params) -> int:
        self.last_id += 1
        self.send({"jsonrpc": "2.0", "id": self.last_id, "method": method, "params": params})
        return self.last_id

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def _read(self, seconds: float) -> None:
        ready, _, _ = select.select([self.proc.stdout], [], [], seconds)
        if not ready:
            return
        chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
        if not chunk:
            raise AssertionError("the server closed its output")
        self.buffer += chunk
        while True:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if not sep:
                return
            length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length"))
            if len(rest) < length:
                return
            self.messages.append(json.loads(rest[:length]))
            self.buffer = rest[length:]

    def wait(self, test, seconds: float = 60.0) -> dict | None:
        end = time.monotonic() + seconds
        while True:
            for m in self.messages:
                if test(m):
                    return m
            left = end - time.monotonic()
            if left <= 0:
                return None
            self._read(min(left, 0.2))

    def answer(self, msg_id, seconds: float = 30.0) -> dict | None:
        return self.wait(lambda m: m.get("id") == msg_id and "method" not in m, seconds)

    def published(self, uri: str, test=lambda ds: True, seconds: float = 90.0) -> list | None:
        found = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri and test(m["params"]["diagnostics"]),
                          seconds)
        return None if found is None else found["params"]["diagnostics"]

    def start(self, root: Path) -> None:
        rid = self.request("initialize", {"processId": None, "rootUri": from_fs_path(str(root)),
                                          "capabilities": {}})
        assert self.answer(rid) is not None, "no answer to initialize"
        self.notify("initialized", {})

    def open(self, uri: str, text: str) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}})

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=30)


@pytest.fixture
def ruleset(tmp_path):
    root = tmp_path / "rule sets"  # a space, so URIs carry %20 as editors send them
    shutil.copytree(MINI, root / "mini")
    return root


@pytest.fixture
def server(ruleset):
    raw = Raw(ruleset)
    try:
        raw.start(ruleset)
        yield raw
    finally:
        raw.close()


def _position_request(method: str, uri: str, line, character) -> dict:
    params = {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}
    if method == "textDocument/completion":
        params["context"] = {"triggerKind": 1}
    return params


def test_item8_every_position_request_is_answered_whatever_its_position(ruleset, server):
    cards = ruleset / "mini" / "cards.yaml"
    uri = from_fs_path(str(cards))
    text = cards.read_text(encoding="utf-8")
    server.open(uri, text)
    assert server.published(uri) is not None
    last = text.count("\n")
    positions = [(-1, 0), (0, -5), (-2**31, -2**31), (2**31, 0), (0, 2**40), (2**31 - 1, 0),
                 (last + 1000, 0), (2, 10**6), (last, 0)]
    for method in ("textDocument/hover", "textDocument/completion",
                   "textDocument/definition"):
        for line, character in positions:
            rid = server.request(method, _position_request(method, uri, line, character))
            got = server.answer(rid)
            assert got is not None, f"{method} at ({line}, {character}) was never answered"
            if line < 0 or character < 0 or line >= 2**31 or character >= 2**31:
                assert got.get("error", {}).get("code") == -32602, got  # invalid params
                assert "Position" in got["error"]["message"], got
            else:
                assert "result" in got, got
    # a request with no position at all, and one with no params
    for params in ({"textDocument": {"uri": uri}}, None):
        rid = server.request("textDocument/hover", params)
        got = server.answer(rid)
        assert got is not None and got["error"]["code"] == -32602, got
    # and the session goes on: a good request is answered as before
    line = text.split("\n").index("  - id: comet")
    rid = server.request("textDocument/hover", _position_request("textDocument/hover", uri,
                                                                  line, 9))
    got = server.answer(rid)
    assert "Comet" in got["result"]["contents"]["value"]


def test_item8_messages_that_are_not_requests_as_sent_are_still_answered(ruleset, server):
    """Not JSON: a parse error (id null). After shutdown: 'invalid request', never silence."""
    server.write(b"{this is not json")
    got = server.wait(lambda m: m.get("error", {}).get("code") == -32700, 30)
    assert got is not None and got["id"] is None
    uri = from_fs_path(str(ruleset / "mini" / "cards.yaml"))
    rid = server.request("shutdown", None)
    assert server.answer(rid)["result"] is None
    rid = server.request("textDocument/hover", _position_request("textDocument/hover", uri, 0,
                                                                  0))
    got = server.answer(rid)
    assert got is not None and got["error"]["code"] == -32600, got


def test_item8_a_nul_in_a_uri_is_refused_alone_and_later_checks_go_on(ruleset, server):
    mini = ruleset / "mini"
    bad = from_fs_path(str(mini)) + "/x%00y.yaml"
    server.open(bad, "kind: cards\ncards: []\n")
    got = server.published(bad)
    assert got is not None and [d["code"] for d in got] == ["RB100"], got
    assert "NUL" in got[0]["message"]
    # requests on it are answered, with nothing
    for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
        rid = server.request(method, _position_request(method, bad, 0, 0))
        got = server.answer(rid)
        assert got is not None and "result" in got, got
    rid = server.request("textDocument/documentSymbol", {"textDocument": {"uri": bad}})
    assert server.answer(rid) is not None
    # every other file is still checked: break a card file, then mend it
    cards = mini / "cards.yaml"
    uri = from_fs_path(str(cards))
    text = cards.read_text(encoding="utf-8")
    server.open(uri, text)
    assert server.published(uri, lambda ds: ds == []) is not None
    server.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"text": text.replace("place ocean", "place oecan")}]})
    got = server.published(uri, lambda ds: len(ds) > 0)
    assert got is not None and "oecan" in got[0]["message"], got
    flow = mini / "flow.yaml"
    server.open(from_fs_path(str(flow)), flow.read_text(encoding="utf-8").replace(
        "lose 8 heat", "lose 8 haet"))
    got = server.published(from_fs_path(str(flow)), lambda ds: len(ds) > 0)
    assert got is not None and "haet" in got[0]["message"], got


IMAGE = "![x](http://127.0.0.1:9/p.png)"


def test_item8_hover_shows_rule_text_literally_never_as_markdown(ruleset, server):
    """A card's name, a description and a phrase that hold Markdown are shown as written."""
    markdown_it = pytest.importorskip("markdown_it")
    mini = ruleset / "mini"
    cards = mini / "cards.yaml"
    text = cards.read_text(encoding="utf-8").replace(
        "name: Comet", f"name: \"{IMAGE} <img src=http://127.0.0.1:9/q.png> # Big\"")
    cards.write_text(text, encoding="utf-8")
    flow = mini / "flow.yaml"
    flow.write_text(flow.read_text(encoding="utf-8").replace(
        "  - id: warm_everyone\n",
        f"  - id: warm_everyone\n    description: \"{IMAGE} [link](http://127.0.0.1:9/)\"\n"),
        encoding="utf-8")
    uri = from_fs_path(str(cards))
    server.open(uri, text)
    assert server.published(uri, lambda ds: ds == []) is not None
    line = text.split("\n").index("  - id: comet")
    rid = server.request("textDocument/hover", _position_request("textDocument/hover", uri,
                                                                  line, 9))
    hover = server.answer(rid)["result"]["contents"]
    flow_uri = from_fs_path(str(flow))
    flow_text = flow.read_text(encoding="utf-8")
    server.open(flow_uri, flow_text)
    at = flow_text.split("\n").index("  - id: warm_everyone")
    rid = server.request("textDocument/hover", _position_request("textDocument/hover", flow_uri,
                                                                  at, 10))
    proc_hover = server.answer(rid)["result"]["contents"]
    md = markdown_it.MarkdownIt("commonmark")
    for shown in (hover, proc_hover):
        html = md.render(shown["value"]) if shown["kind"] == "markdown" else shown["value"]
        assert "<img" not in html and "<a " not in html and "<h1" not in html, html
    html = md.render(hover["value"])
    # the name is there, every character of it, as text
    assert "![x](http://127.0.0.1:9/p.png) &lt;img src=http://127.0.0.1:9/q.png&gt; # Big" \
        in html, html
    assert "![x](http://127.0.0.1:9/p.png) [link](http://127.0.0.1:9/)" in \
        md.render(proc_hover["value"])


# ----------------------------------------------------------------- memory
PROCEDURES = 400  # a flow file of 36 KB
EDITS = 80  # the first 20 warm up; before the fix the other 60 grew by about 19 MB
MAX_GROWTH_MB = 20


def _memory_mb() -> float:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import tracemalloc
    return tracemalloc.get_traced_memory()[0] / 2**20


@pytest.mark.slow
def test_item8_memory_stays_flat_over_80_edits_of_a_large_flow_file(ruleset, monkeypatch):
    """Each edit moves every effect a line further down and breaks or mends one. Before the
    fix every load kept another copy of all the file's parsed effects, keyed by where they
    sat: 58 MB over 180 edits of this file, about 0.3 MB an edit (18 MB an edit on the
    audit's 1.9 MB file); now 60 edits grow it by less than 5 MB."""
    import tracemalloc

    from rulebook_games.lsp import server as srv
    monkeypatch.setattr(srv, "QUICK_DELAY", 0)
    monkeypatch.setattr(srv, "FULL_DELAY", 0)
    if not os.path.exists("/proc/self/status"):
        tracemalloc.start()
    ls = srv.server
    sent: list[dict] = []

    class Writer:
        def write(self, data):
            sent.append(json.loads(data))

        def close(self):
            pass

    flow = ruleset / "mini" / "flow.yaml"
    text = flow.read_text(encoding="utf-8") + "".join(
        f"  - id: step_{i}\n    do: |\n      gain 1 heat\n      if stock(heat) > {i % 7}:\n"
        f"        lose 1 heat\n" for i in range(PROCEDURES))
    uri = from_fs_path(str(flow))

    async def main():
        ls.protocol.set_writer(Writer(), include_headers=False)

        def feed(message):
            ls.protocol.handle_message(json.loads(json.dumps(message),
                                                  object_hook=ls.protocol.structure_message))

        async def until(broken: bool):
            end = time.monotonic() + 60
            while time.monotonic() < end:
                for m in sent:
                    if m.get("method") == "textDocument/publishDiagnostics" and \
                            m["params"]["uri"] == uri and broken == any(
                                "heet" in d["message"] for d in m["params"]["diagnostics"]):
                        return
                await asyncio.sleep(0.01)
            raise AssertionError(f"no diagnostics for the edit; sent: {sent[-3:]}")

        feed({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": from_fs_path(str(ruleset)), "capabilities": {}}})
        feed({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        feed({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
        await until(False)
        start = None
        for n in range(EDITS):
            broken = n % 2 == 0
            body = "\n" * n + (text.replace("gain 1 heat", "gain 1 heet", 1) if broken
                                      else text)
            sent.clear()
            feed({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": n + 2},
                "contentChanges": [{"text": body}]}})
            await until(broken)
            if n == 19:
                gc.collect()
                start = _memory_mb()
        gc.collect()
        return start, _memory_mb()

    start, end = asyncio.run(main())
    assert end - start < MAX_GROWTH_MB, (
        f"memory grew {end - start:.0f} MB over {EDITS - 20} edits of a {len(text) // 1024} KB "
        "flow file")


# ------------------------------------------- F10: what the server reads from disk
HUGE = 512 << 20  # a sparse file: no disk space, but reading it whole takes this much memory


def _ruleset_named(src: Path, dest: Path, rid: str) -> None:
    shutil.copytree(src, dest)
    manifest = dest / "ruleset.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("id: mini", f"id: {rid}"),
                        encoding="utf-8")


def _huge(path: Path, head: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(head.encode())
        fh.truncate(HUGE)


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"),
                    reason="needs named pipes and /dev/zero")
def test_f10_workspace_rulesets_are_read_safely_and_every_request_is_answered(tmp_path):
    """A cloned repository holds, where the server looks for rulesets a mod may target, a
    link to /dev/zero, a named pipe, a huge file, and links out of the workspace folder.
    The server's memory stays bounded, nothing outside the folder is read, each mod gets
    its diagnostics, and hover, outline and completion are answered within seconds."""
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copytree(MINI, ws / "mini")
    (ws / "a").mkdir()
    (ws / "a" / "ruleset.yaml").symlink_to("/dev/zero")
    (ws / "b").mkdir()
    os.mkfifo(ws / "b" / "ruleset.yaml")
    _huge(ws / "c" / "ruleset.yaml", "kind: ruleset\nid: huge\nname: Huge\n")
    _ruleset_named(MINI, tmp_path / "outside", "far")  # reached through a folder link
    (ws / "out").symlink_to(tmp_path / "outside", target_is_directory=True)
    _ruleset_named(MINI, tmp_path / "outside2", "far2")  # reached through a file link
    (ws / "d").mkdir()
    (ws / "d" / "ruleset.yaml").symlink_to(tmp_path / "outside2" / "ruleset.yaml")
    _huge(ws / "big" / "ruleset.yaml", "kind: ruleset\nid: big\nname: Big\n")
    mod = "kind: mod\nid: m\ntarget: {}\nchanges:\n  - {{op: patch, in: cards, id: comet, " \
          "value: {{cost: 18}}}}\n"
    (ws / "mods").mkdir()
    files = {"good": ws / "mods" / "good.yaml", "far": ws / "mods" / "far.yaml",
             "far2": ws / "mods" / "far2.yaml", "big": ws / "big" / "mod.yaml"}
    targets = {"good": "mini", "far": "far", "far2": "far2", "big": "big"}
    for key, path in files.items():
        path.write_text(mod.format(targets[key]), encoding="utf-8")

    server = Raw(ws)
    try:
        server.start(ws)
        before = _peak_mb(server.proc.pid)
        uris = {k: from_fs_path(str(p)) for k, p in files.items()}
        for key, path in files.items():
            server.open(uris[key], path.read_text(encoding="utf-8"))
        for key in files:
            for method, params in (
                    ("textDocument/hover", _position_request("textDocument/hover",
                                                             uris[key], 0, 1)),
                    ("textDocument/documentSymbol", {"textDocument": {"uri": uris[key]}}),
                    ("textDocument/completion", _position_request(
                        "textDocument/completion", uris[key], 2, 8))):
                start = time.monotonic()
                got = server.answer(server.request(method, params), 10)
                assert got is not None, f"{method} on the {key} mod was never answered"
                assert time.monotonic() - start < 10
        # the mod on the ruleset in the folder is checked against it, and is fine
        assert server.published(uris["good"], lambda ds: ds == [], 60) is not None
        # rulesets reached through links out of the folder are not found, so not read
        for key in ("far", "far2"):
            got = server.published(uris[key], lambda ds: len(ds) > 0, 30)
            assert got is not None and got[0]["code"] == "RB500", got
            assert f"targets '{key}'" in got[0]["message"], got
        # the huge manifest above the mod: its size is an error, not a read
        got = server.published(uris["big"], lambda ds: len(ds) > 0, 60)
        assert got is not None and "larger than" in got[0]["message"], got
        # completion of a mod's target offers the rulesets in the folder, none outside
        got = server.answer(server.request("textDocument/completion", _position_request(
            "textDocument/completion", uris["good"], 2, 8)), 10)
        labels = {item["label"] for item in (got["result"] or {}).get("items", [])}
        assert {"mini", "huge"} <= labels and not {"far", "far2"} & labels, labels
        after = _peak_mb(server.proc.pid)
        if before is not None and after is not None:
            assert after - before < 150, f"the server's peak memory grew {after - before:.0f} MB"
        assert server.proc.poll() is None, "the server died"
    finally:
        server.close()


def test_f10_a_batch_or_a_message_that_is_no_request_is_answered_never_a_traceback(
        ruleset, tmp_path):
    """LSP has no batches: a JSON array, a number, null or an object that is not a
    JSON-RPC message is answered with 'invalid request' (id null, or the request's id
    when it has one), nothing in a batch is run, and nothing is printed but lines."""
    log = tmp_path / "stderr.txt"
    with open(log, "wb") as err:
        server = Raw(ruleset, stderr=err)
        try:
            server.start(ruleset)
            cards = ruleset / "mini" / "cards.yaml"
            uri = from_fs_path(str(cards))
            text = cards.read_text(encoding="utf-8")
            server.open(uri, text)
            assert server.published(uri) is not None
            line = text.split("\n").index("  - id: comet")
            hover = {"jsonrpc": "2.0", "id": 900, "method": "textDocument/hover",
                     "params": _position_request("textDocument/hover", uri, line, 9)}
            bad_hover = dict(hover, id=901, params=_position_request(
                "textDocument/hover", uri, -1, 0))
            for body in (json.dumps([hover, bad_hover]), "[]", "5", "null", '"hover"', "{}",
                         '{"id": 902, "method": "textDocument/hover"}',
                         '{"jsonrpc": "1.0", "id": 903, "method": "shutdown"}',
                         '{"jsonrpc": "2.0", "id": [904], "method": "shutdown"}',
                         '{"jsonrpc": "2.0", "id": 905, "method": 5}'):
                server.messages.clear()
                server.write(body.encode())
                got = server.wait(lambda m: "error" in m, 10)
                assert got is not None, f"{body[:60]} was not answered"
                assert got["error"]["code"] == -32600, (body, got)
                expect = {"902": 902, "903": 903, "905": 905}
                assert got["id"] == next((v for k, v in expect.items() if k in body), None), \
                    (body, got)
                server.wait(lambda m: False, 0.3)
                assert not any(m.get("id") in (900, 901, 904) for m in server.messages), \
                    server.messages  # nothing in a batch (nor a bad id) was run
            # a request whose params do not fit is answered too, and the session goes on
            rid = server.request("textDocument/hover", _position_request(
                "textDocument/hover", uri, -1, 0))
            assert server.answer(rid)["error"]["code"] == -32602
            rid = server.request("textDocument/hover", hover["params"])
            assert "Comet" in server.answer(rid)["result"]["contents"]["value"]
        finally:
            server.close()
    printed = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in printed and "File \"" not in printed, printed[-2000:]
