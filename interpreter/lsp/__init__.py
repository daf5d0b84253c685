"""The language server: Rulebook's checker, names and words, served to editors.

``rulebook lsp`` starts :func:`interpreter.lsp.server.serve`, a Language
Server Protocol server over standard input and output (built on pygls, an
optional extra). The package is split by job: :mod:`.project` loads a
ruleset with the editor's unsaved buffers laid over the files on disk,
:mod:`.recheck` checks one changed card file against the loaded ruleset,
:mod:`.locate` reads what the cursor is on, :mod:`.complete`,
:mod:`.lookup` and :mod:`.outline` answer completion, hover, definition and
outline requests, and :mod:`.server` wires them to the protocol. Nothing
here imports pygls except :mod:`.server` and :mod:`.convert`, so the rest
is plain Rulebook code.
"""
