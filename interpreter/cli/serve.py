"""``rulebook serve``: games in the browser, on this machine (docs/web.md).

It needs the ``web`` extra; without it the command says how to install it in
one line (exit 2). It listens on 127.0.0.1 unless ``--host`` says otherwise
(and then says so loudly); port 0 picks a free port. Ctrl-C stops it after
saving every game in progress to the records folder. Imports click and the
options at the top; the server inside the command.
"""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path

import click

from .loading import check_mod_files, no_such_ruleset
from .options import NAME, UsablePath, UsageProblem, Whole

HINT = "rulebook serve needs the web extra: pip install 'rulebook-games[web]'"


def default_records() -> Path:
    """Where games are kept when --records does not say: the platform's user data folder
    (platformdirs: $XDG_DATA_HOME/rulebook/games, else ~/.local/share/rulebook/games on
    Linux; ~/Library/Application Support/rulebook/games on macOS;
    %LOCALAPPDATA%\\rulebook\\games on Windows)."""
    import platformdirs
    return Path(platformdirs.user_data_dir("rulebook", appauthor=False)) / "games"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@click.command("serve")
@click.argument("ruleset", type=NAME, required=False)
@click.option("--mod", "mods", multiple=True, type=UsablePath(dir_okay=False),
              help="A mod to offer with RULESET (repeatable).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than this machine's own lets other "
                   "machines in).")
@click.option("--port", type=Whole(min=0, max=65535), default=8000, show_default=True,
              help="The port (0: a free one).")
@click.option("--records", "records", type=UsablePath(file_okay=False), default=None,
              help="Where games are saved, resumed and replayed from (default: "
                   "~/.local/share/rulebook/games).")
@click.option("--no-open", is_flag=True, help="Do not open a browser.")
def serve_cmd(ruleset, mods, host, port, records, no_open):
    """Play, watch and share games in the browser (a local web server)."""
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        click.echo(HINT, err=True)
        sys.exit(2)
    import socket

    from ..paths import find_ruleset
    from ..web.app import Server, make_app
    from ..web.lobby import Lobby, LobbyProblem
    if mods and ruleset is None:
        raise UsageProblem("--mod needs the RULESET it changes")
    if ruleset is not None and find_ruleset(ruleset) is None:
        raise no_such_ruleset(ruleset)
    check_mod_files(mods)
    folder = Path(records) if records else default_records()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageProblem(f"--records: cannot make the folder '{folder}': "
                           f"{exc.strerror or exc}") from None
    try:
        lobby = Lobby(ruleset, mods, folder)
    except LobbyProblem as exc:
        raise UsageProblem(str(exc)) from None
    loopback = is_loopback(host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise UsageProblem(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    bound = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    address = f"http://{'127.0.0.1' if host == '0.0.0.0' else shown}:{bound}/"
    server = Server(lobby, folder)
    app = make_app(server, loopback=loopback)
    if not loopback:
        click.echo(f"WARNING: listening on {host}, not only on this machine: anyone who can "
                   "reach it can start games here (a seat's link is still its own secret)",
                   err=True)
    click.echo(f"Rulebook is serving at {address}  (Ctrl-C stops it; games are saved in "
               f"{folder})", err=False)
    sys.stdout.flush()
    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=2, ws="auto")
    web = uvicorn.Server(config)
    if not no_open:
        import threading
        import webbrowser
        threading.Timer(0.5, lambda: webbrowser.open(address)).start()
    try:
        web.run(sockets=[sock])
    finally:
        for what, path in server.close_all():
            click.echo(f"saved {what} to {path}" if path else what)
