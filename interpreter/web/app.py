"""The web server's app: the lobby, the game pages, the websocket, the games at the table.

:func:`make_app` builds a Starlette (ASGI) app around a :class:`Server`,
which holds the lobby and the tables. Pages are plain files of the package
(``static/``, no build step, nothing from another site). A game page learns
its secret token from the link's fragment (``/play/GAME#TOKEN``), which a
browser never sends in a request, and hands it over as the websocket's first
message: so a token never appears in a URL the server sees or logs. The
websocket refuses a page from another origin, a game that is not there and a
token that opens no seat of it, all alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..play.record import Record, RecordError
from ..play.session import GameError
from ..safe_text import visible
from .lobby import Lobby, LobbyProblem, agent_list, seat_spec
from .replays import MAX_UPLOAD, Replays, ruleset_for_record
from .tables import MAX_DELAY, PERSON, Refused, Table

STATIC = Path(__file__).resolve().parent / "static"
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]
MAX_BODY = 64 * 1024
MAX_TABLES = 64
REFUSED = 4403  # the websocket's close code for a link that opens nothing


class Server:
    """The lobby and the games in progress, shared by every request."""

    def __init__(self, lobby: Lobby, records: Path):
        self.lobby = lobby
        self.records = records
        self.tables: dict[str, Table] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listeners: dict[tuple, set] = {}  # (game, seat) → the pages' queues
        self.replays = Replays(lobby, loopback=True)  # make_app says where it listens
        self._lock = threading.Lock()

    # ------------------------------------------------------------ tables
    def open_table(self, rs, players, seed, variants, kinds, mods, arg, prefix=(),
                   delay=0.0, save_to: Path | None = None) -> Table:
        with self._lock:
            live = [t for t in self.tables.values() if not t.over]
            if len(live) >= MAX_TABLES:
                raise LobbyProblem(f"this server already has {MAX_TABLES} games in progress")
        if save_to is None:
            save_to = self.records / f"{rs.id}-{seed}-{random.SystemRandom().randrange(16**6):06x}.json"
        table = Table(rs, players, seed, variants, kinds, mods, save_to, prefix=prefix,
                      delay=delay, publish=self.publish, ruleset_arg=arg)
        with self._lock:
            self.tables[table.id] = table
        return table

    def publish(self, table: Table, seat, message: dict) -> None:
        """From a table's thread: hand a message to the pages watching that seat."""
        if table.over and table.saved is False and message.get("type") == "state" \
                and table.problem is None:
            try:
                table.save()
            except OSError:
                pass
        loop = self.loop
        if loop is None:
            return
        text = json.dumps(message)
        loop.call_soon_threadsafe(self._deliver, (table.id, seat), text)

    def _deliver(self, key, text: str) -> None:
        for q in list(self.listeners.get(key, ())):
            q.put_nowait(text)

    def close_all(self) -> list[tuple[str, Path | None]]:
        """Stop every table, each game in progress saved first; where each went."""
        self.replays.close_all()
        out = []
        for table in list(self.tables.values()):
            if table.over and table.saved:
                table.close(save=False)
                continue
            try:
                path = table.close(save=True)
            except OSError as exc:
                out.append((f"{table.rs.name}: not saved ({exc})", None))
                continue
            out.append((f"{table.rs.name}, {table.decisions} decisions", path))
        return out

    def links(self, table: Table) -> dict:
        names = [f"Player {i + 1} ({k})" for i, k in enumerate(table.kinds)]
        out = {"game": table.id,
               "seats": [{"seat": s + 1, "name": names[s], "link": f"/play/{table.id}#{t}"}
                         for s, t in table.tokens.items()],
               "spectator": f"/play/{table.id}#{table.spectator_token}"}
        if table.watch_token is not None:  # agents only: the page that steers them
            out["watch"] = f"/watch/{table.id}#{table.watch_token}"
        return out


def _same_origin(headers) -> bool:
    """Whether the request comes from a page of this server (its Origin is its Host)."""
    origin = headers.get("origin")
    host = headers.get("host")
    if not origin or not host:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == host


async def _body(request: Request) -> dict:
    if not _same_origin(request.headers):
        raise LobbyProblem("a request from another site is refused")
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise LobbyProblem("send JSON")
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise LobbyProblem("that request is too large")
    try:
        data = json.loads(raw)
    except ValueError:
        raise LobbyProblem("send JSON") from None
    if not isinstance(data, dict):
        raise LobbyProblem("send a JSON object")
    return data


def _problem(text: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"problem": visible(str(text))}, status_code=status)


def make_app(server: Server, loopback: bool = True) -> Starlette:
    """The ASGI app of ``server``: pages, the lobby's JSON, the websocket."""
    server.replays.loopback = loopback  # a seat's own view of a replay: this machine's only

    async def lobby_page(request):
        return FileResponse(STATIC / "lobby.html")

    async def game_page(request):
        return FileResponse(STATIC / "game.html")

    async def lobby_data(request):
        saved = await asyncio.to_thread(server.lobby.saved_listing)
        return JSONResponse({"rulesets": server.lobby.describe(), "agents": agent_list(),
                             "saved": saved["games"], "saved_count": saved["count"],
                             "records": str(server.records)})

    async def _seat_table(request, make):
        """A table made from the request's body by ``make``, answered with its links."""
        try:
            data = await _body(request)
            table = await asyncio.to_thread(make, server, data)
        except (LobbyProblem, Refused) as exc:
            return _problem(exc)
        except GameError as exc:
            return _problem(f"{exc.span}: {exc.message}" if exc.span else exc.message)
        return JSONResponse(server.links(table))

    async def new_game(request):
        return await _seat_table(request, _new_table)

    async def resume_game(request):
        return await _seat_table(request, _resume_table)

    async def socket(websocket: WebSocket):
        if not _same_origin(websocket.headers):
            await websocket.close(code=REFUSED)
            return
        await websocket.accept()
        try:
            first = await asyncio.wait_for(websocket.receive_text(), timeout=10)
            token = json.loads(first).get("token")
            table = server.tables.get(websocket.path_params["game"])
            if table is None:
                raise Refused("no game")
            seat = table.who(token)
            steer = table.steers(token)
        except (asyncio.TimeoutError, ValueError, AttributeError, Refused,
                WebSocketDisconnect):
            await websocket.send_text(json.dumps(
                {"type": "refused", "text": "this link does not open a seat of any game here"}))
            await websocket.close(code=REFUSED)
            return
        q: asyncio.Queue = asyncio.Queue()
        key = (table.id, seat)
        server.listeners.setdefault(key, set()).add(q)
        table.watch(seat, +1)

        async def pump():
            while True:
                await websocket.send_text(await q.get())

        sender = asyncio.create_task(pump())
        try:
            while True:
                raw = await websocket.receive_text()
                try:
                    message = json.loads(raw)
                    if not isinstance(message, dict):
                        raise ValueError
                    table.send(seat, message, steer)
                except (ValueError, Refused) as exc:
                    q.put_nowait(json.dumps({"type": "problem",
                                             "text": str(exc) if isinstance(exc, Refused)
                                             else "that message is not understood"}))
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()
            server.listeners.get(key, set()).discard(q)
            table.watch(seat, -1)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        server.loop = asyncio.get_running_loop()
        yield

    routes_more = more_routes(server)
    middleware = []
    if loopback:  # a page of another site that names this machine (DNS rebinding) is refused
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=LOOPBACK_NAMES))
    routes = [
        Route("/", lobby_page),
        *replay_routes(server),
        Route("/play/{game}", game_page),
        Route("/api/lobby", lobby_data),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/resume", resume_game, methods=["POST"]),
        WebSocketRoute("/ws/{game}", socket),
        *routes_more,
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)


# ------------------------------------------------------------ watch, cards, records
def more_routes(server: Server) -> list:
    """The pages beyond playing: watching a game of agents, the cards gallery."""

    async def watch_page(request):
        # the game page, and the controls that steer the agents (pace, pause, a step)
        page = (STATIC / "game.html").read_text(encoding="utf-8")
        style = '<link rel="stylesheet" href="/static/watch.css">\n'
        script = '<script src="/static/watch.js"></script>\n'
        page = page.replace("</head>", style + "</head>", 1) if "</head>" in page \
            else style + page
        page = page.replace("</body>", script + "</body>", 1) if "</body>" in page \
            else page + script
        return HTMLResponse(page)

    async def cards_page(request):
        return FileResponse(STATIC / "cards.html")

    async def cards_data(request):
        # the mods by their file names, among those the server offers: never a path
        mods = request.query_params.getlist("mod")
        try:
            data = await asyncio.to_thread(server.lobby.gallery,
                                           request.path_params["ruleset"], mods)
        except LobbyProblem as exc:
            return _problem(exc)
        return JSONResponse(data)

    return [
        Route("/watch/{game}", watch_page),
        Route("/cards", cards_page),
        Route("/cards/{ruleset}", cards_page),
        Route("/api/cards/{ruleset}", cards_data),
    ]


# ------------------------------------------------------------ from the lobby's forms
def _whole(value, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise LobbyProblem(f"{what} is a whole number from {low} to {high}")
    return value


def _delay(data: dict) -> float:
    delay = data.get("delay", 0)
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or \
            not 0 <= delay <= MAX_DELAY:
        raise LobbyProblem(f"the pace is a number of seconds from 0 to {MAX_DELAY:g}")
    return float(delay)


def _new_table(server: Server, data: dict) -> Table:
    lobby = server.lobby
    mods = data.get("mods") or []
    if not isinstance(mods, list) or len(mods) > 50:
        raise LobbyProblem("mods are listed by their numbers")
    rs = lobby.ruleset(data.get("ruleset"), tuple(mods))
    choice = lobby.choices[data["ruleset"]]
    players = data.get("players", rs.min_players)
    if isinstance(players, int) and not isinstance(players, bool) and \
            not rs.min_players <= players <= rs.max_players:
        raise LobbyProblem(f"{rs.name} is for {rs.players_words}, not {players}")
    players = _whole(players, "the player count", rs.min_players, rs.max_players)
    variants = data.get("variants") or []
    if not isinstance(variants, list) or any(v not in rs.sections["variants"]
                                             for v in variants):
        raise LobbyProblem("choose variants from the list")
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        raise LobbyProblem(f"say who plays each of the {players} seats")
    kinds = [PERSON if s == PERSON else seat_spec(s) for s in seats]
    seed = data.get("seed")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10 ** 9)
    seed = _whole(seed, "the seed", 0, 2 ** 63 - 1)
    return server.open_table(rs, players, seed, tuple(sorted(set(variants))), kinds,
                             [str(choice.mods[m]) for m in mods], choice.arg,
                             delay=_delay(data))


def _resume_table(server: Server, data: dict) -> Table:
    lobby = server.lobby
    path = lobby.record_path(data.get("file"))
    try:
        rec = Record.load(path)
    except RecordError as exc:
        raise LobbyProblem(visible(f"{exc.path}:{exc.line}:{exc.col}: {exc.message}")) \
            from None
    choice = lobby.choice_for_record(rec)
    rs = ruleset_for_record(lobby, rec, path)
    if rec.final_hash is not None:
        raise LobbyProblem("that game is over: there is nothing to resume")
    if not rec.remembers_refusals:
        raise LobbyProblem("that record is of an older format: resume it with rulebook play")
    seats = data.get("seats")
    if seats is None:  # the record's own players: a person stays a person
        kinds = [PERSON if k == PERSON else seat_spec(k) for k in rec.agents]
    else:
        if not isinstance(seats, list) or len(seats) != rec.players:
            raise LobbyProblem(f"say who plays each of the {rec.players} seats")
        kinds = [PERSON if s == PERSON else seat_spec(s) for s in seats]
    # the game goes on in the same file
    return server.open_table(rs, rec.players, rec.seed, tuple(rec.variants), kinds,
                             list(rec.mods), choice.arg, prefix=list(rec.decisions),
                             delay=_delay(data), save_to=path)


# ------------------------------------------------------------ replays
def replay_routes(server: Server) -> list:
    """The replay page and its JSON: open a record of the records folder (by its file name)
    or an uploaded one, then ask for the table before any of its decisions."""

    async def replay_page(request):
        return FileResponse(STATIC / "replay.html")

    async def open_saved(request):
        try:
            data = await _body(request)
            replay = await asyncio.to_thread(server.replays.saved, data.get("file"))
        except LobbyProblem as exc:
            return _problem(exc)
        return JSONResponse(_replay_head(replay))

    async def open_upload(request):
        try:
            if not _same_origin(request.headers):
                raise LobbyProblem("a request from another site is refused")
            raw = b""
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > MAX_UPLOAD:
                    raise LobbyProblem("that file is far larger than any game's record")
            name = request.headers.get("x-rulebook-file", "record.json")
            replay = await asyncio.to_thread(server.replays.uploaded, name, raw)
        except LobbyProblem as exc:
            return _problem(exc)
        return JSONResponse(_replay_head(replay))

    async def replay_at(request):
        try:
            data = await _body(request)
            replay = server.replays.get(request.path_params["replay"])
            number = _whole(data.get("number", 1), "the decision", 0, 10 ** 9)
            seat = data.get("seat")
            if seat is not None:
                seat = _whole(seat, "the seat", 1, 100) - 1
            state = await asyncio.to_thread(replay.at, number, seat)
        except LobbyProblem as exc:
            return _problem(exc)
        return JSONResponse(state)

    return [
        Route("/replays", replay_page),
        Route("/replay", replay_page),  # ?record=NAME: a record of the folder, by its name
        Route("/api/replays", open_saved, methods=["POST"]),
        Route("/api/replays/upload", open_upload, methods=["POST"]),
        Route("/api/replays/{replay}", replay_at, methods=["POST"]),
    ]


def _replay_head(replay) -> dict:
    return {"replay": replay.id, "title": replay.title, "game": replay.rs.name,
            "count": replay.count, "own": replay.own, "seats": replay.seats(),
            "finished": replay.rec.final_hash is not None}
