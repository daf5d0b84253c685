"""The language server: Rulebook's checker, names and words, served to editors.

``rulebook lsp`` starts :func:`rulebook_games.lsp.server.serve`, a Language
Server Protocol server over standard input and output (built on pygls, an
optional extra). The package is split by job: :mod:`.project` loads a
ruleset with the editor's unsaved buffers laid over the files on disk,
:mod:`.recheck` checks one changed card file against the loaded ruleset
(reading it card by card with :mod:`.chunks`), :mod:`.locate` reads what the cursor is on, :mod:`.complete`,
:mod:`.lookup` and :mod:`.outline` answer completion, hover, definition and
outline requests, :mod:`.convert` turns Rulebook's diagnostics and places
into the protocol's, and :mod:`.server` wires it all to the protocol. Only
:mod:`.server` runs pygls; the answering modules build the protocol's types
(lsprotocol, which comes with pygls) from plain Rulebook data, and
:mod:`.project`, :mod:`.recheck`, :mod:`.chunks` and :mod:`.locate` need
neither. The package is imported only by ``rulebook lsp``.
"""
