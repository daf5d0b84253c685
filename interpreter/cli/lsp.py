"""``rulebook lsp``: the language server, over stdio, for editors (docs/editors.md).

It needs the ``lsp`` extra; without it the command says how to install it
in one line (exit 2). Imports click only at the top; the server inside the
command.
"""

from __future__ import annotations

import sys

import click


@click.command("lsp")
def lsp_cmd():
    """Serve the language server over stdio (for editors; see docs/editors.md)."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        click.echo("rulebook lsp needs the language server extra: pip install 'rulebook-games[lsp]'",
                   err=True)
        sys.exit(2)
    from ..lsp.server import serve
    serve()
