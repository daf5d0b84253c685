"""How quickly the language server answers on a large card file, measured as an editor sees it.

Starts ``rulebook lsp`` as a subprocess, opens a card file (Terraforming
Mars' project cards by default), waits for the first diagnostics (the whole
ruleset loaded and checked) and for the background scenario check to end,
then repeatedly breaks and mends one effect and times each edit from the
didChange notification to the publishDiagnostics that reflects it (the
server's pause for typing included), and times completion requests inside
effect text, then semantic tokens of the whole file, references of the
resource that effect gains (every file of the ruleset and its mods) and
workspace symbols. Prints median and worst figures; asserts nothing.

    .venv/bin/python benchmarks/bench_lsp.py [CARD_FILE] [--edits 20] [--completions 30]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "rulesets" / "terraforming_mars" / "cards" / "base_project.yaml"


async def main(path: Path, edits: int, completions: int) -> None:
    client = LanguageClient("bench", "1")
    got: dict[str, tuple[float, list]] = {}
    arrived = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params):
        got[params.uri] = (time.perf_counter(), list(params.diagnostics or []))
        arrived.set()

    @client.feature(lsp.WINDOW_LOG_MESSAGE)
    def logged(params):
        print("server:", params.message, file=sys.stderr)

    async def wait(uri, test, timeout=120.0):
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            if uri in got and test(got[uri][1]):
                return got[uri][0]
            arrived.clear()
            try:
                await asyncio.wait_for(arrived.wait(), max(end - time.perf_counter(), 0.01))
            except asyncio.TimeoutError:
                pass
        raise SystemExit(f"timed out waiting for diagnostics on {uri}")

    await client.start_io(sys.executable, "-m", "rulebook_games", "lsp", cwd=str(ROOT))
    await client.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(ROOT))))
    client.initialized(lsp.InitializedParams())
    text = path.read_text(encoding="utf-8")
    uri = from_fs_path(str(path))
    start = time.perf_counter()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    first = await wait(uri, lambda d: True) - start
    print(f"open to first diagnostics (whole ruleset loaded and checked): {first:.2f} s")
    await asyncio.sleep(float(__import__("os").environ.get("BENCH_SETTLE", "8")))  # let the background scenario check finish

    # the first effect line that says 'gain': break its verb, then mend it
    lines = text.split("\n")
    line = next(i for i, ln in enumerate(lines) if ln.strip().startswith("gain "))
    col = lines[line].index("gain")
    version = 1
    latencies = []
    for n in range(edits):
        broken = n % 2 == 0
        version += 1
        sent = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=lsp.Position(line=line, character=col),
                                end=lsp.Position(line=line, character=col + 4)),
                text="gian" if broken else "gain")]))
        done = await wait(uri, (lambda d: len(d) > 0) if broken else (lambda d: not d))
        latencies.append(done - sent)
    print(f"didChange to publishDiagnostics on {path.name} ({len(lines)} lines), "
          f"{edits} edits: median {statistics.median(latencies) * 1000:.0f} ms, "
          f"worst {max(latencies) * 1000:.0f} ms (includes the 120 ms pause for typing)")

    # completion inside an effect: after 'gain ' on that line
    times = []
    for _ in range(completions):
        sent = time.perf_counter()
        res = await client.text_document_completion_async(lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            position=lsp.Position(line=line, character=col + 5)))
        times.append(time.perf_counter() - sent)
    count = len(res.items) if hasattr(res, "items") else len(res or [])
    print(f"completion in effect text ({count} items): median "
          f"{statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms")
    # the answers that read names across files, and the colours of the whole file
    name_col = col + 5 + len(lines[line][col + 5:].split(" ")[0]) + 1
    extra = [("semantic tokens (whole file)", lambda: client.text_document_semantic_tokens_full_async(
                 lsp.SemanticTokensParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))),
             (f"references of '{lines[line][name_col:].split()[0]}' (every file and mod)",
              lambda: client.text_document_references_async(lsp.ReferenceParams(
                  text_document=lsp.TextDocumentIdentifier(uri=uri),
                  position=lsp.Position(line=line, character=name_col),
                  context=lsp.ReferenceContext(include_declaration=True)))),
             ("workspace symbols ('a')", lambda: client.workspace_symbol_async(
                 lsp.WorkspaceSymbolParams(query="a")))]
    for label, ask in extra:
        times = []
        for _ in range(max(3, completions // 6)):
            sent = time.perf_counter()
            res = await ask()
            times.append(time.perf_counter() - sent)
        size = len(res.data) // 5 if hasattr(res, "data") else len(res or [])
        print(f"{label} ({size} items): median {statistics.median(times) * 1000:.0f} ms, "
              f"worst {max(times) * 1000:.0f} ms")
    inside = await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command="rulebook.timings"))
    for kind in ("cards", "completion", "full"):
        own = [t for k, t in inside or [] if k == kind]
        if own:
            print(f"  inside the server, {kind}: median {statistics.median(own) * 1000:.0f} ms "
                  f"over {len(own)}")
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("path", nargs="?", default=str(DEFAULT))
    ap.add_argument("--edits", type=int, default=20)
    ap.add_argument("--completions", type=int, default=30)
    args = ap.parse_args()
    asyncio.run(main(Path(args.path), args.edits, args.completions))
