"""rulebook serve: the lobby, games at the table, secret seats, untrusted input, Ctrl-C.

The app is driven through Starlette's test client (HTTP and the websocket),
and once as the real command, on a free port, stopped with Ctrl-C. The
browser itself is tested in test_web_browser.py.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
import warnings  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from rulebook_games.web.app import Server, make_app  # noqa: E402
from rulebook_games.web.lobby import Lobby  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "interpreter" / "web" / "static"
BASE = "http://127.0.0.1"
SAME = {"origin": BASE, "host": "127.0.0.1"}


@pytest.fixture
def client(tmp_path):
    server = Server(Lobby(None, (), tmp_path), tmp_path)
    with TestClient(make_app(server), base_url=BASE) as c:
        c.server = server
        c.sockets = []
        try:
            yield c
        finally:  # an open websocket would keep the client from closing
            for ws in c.sockets:
                try:
                    ws.__exit__(None, None, None)
                except Exception:
                    pass
            server.close_all()


def start(client, seats=("human", "greedy"), ruleset="lantern_row", seed=3, **more):
    r = client.post("/api/games", json={"ruleset": ruleset, "players": len(seats),
                                        "seats": list(seats), "seed": seed, "delay": 0,
                                        **more}, headers=SAME)
    assert r.status_code == 200, r.text
    return r.json()


def token(link: str) -> str:
    return link.split("#", 1)[1]


def connect(client, game, secret, headers=SAME):
    ws = client.websocket_connect(f"/ws/{game}", headers=headers)
    socket = ws.__enter__()
    if hasattr(client, "sockets"):
        client.sockets.append(ws)
    socket.send_text(json.dumps({"token": secret}))
    return ws, socket


def state(socket) -> dict:
    """The next state message (problems skipped)."""
    while True:
        message = json.loads(socket.receive_text())
        if message["type"] == "state":
            return message
        if message["type"] == "refused":
            return message


def until_decision(socket) -> dict:
    while True:
        m = state(socket)
        if m.get("decision") or m.get("result"):
            return m


# ------------------------------------------------------------ the lobby
def test_the_lobby_lists_the_shipped_rulesets_their_variants_mods_and_agents(client):
    data = client.get("/api/lobby").json()
    by_key = {r["key"]: r for r in data["rulesets"]}
    assert {"lantern_row", "terraforming_mars", "timespan", "legacy_gears_of_time"} <= set(by_key)
    tm = by_key["terraforming_mars"]
    assert "Draft" in [v["name"] for v in tm["variants"]]
    mods = {m["name"]: m for m in by_key["lantern_row"]["mods"]}
    # each mod with what it changes and its author's comment (the house rule in words)
    assert "Every player starts with 3 more coins." == mods["Rich start"]["description"]
    assert mods["Rich start"]["comment"].startswith("Each player starts with 6 coins")
    # the lobby prints the description beside the comment: the comment does not say it again
    for rs in data["rulesets"]:
        for mod in rs.get("mods", []):
            assert "House rule:" not in mod["comment"], mod
            assert mod["description"] not in mod["comment"], mod
    tm_mods = {m["name"]: m for m in tm["mods"]}
    predators = tm_mods["Costlier Predators"]
    assert predators["description"] == "Predators costs 17 M€ instead of 14."
    assert predators["comment"].startswith("It scores 1 VP per animal")
    assert {"random", "greedy", "ismcts"} <= {a["name"] for a in data["agents"]}
    assert "human" not in {a["name"] for a in data["agents"]}


def test_the_pages_and_their_files_are_served_from_the_package(client):
    for path in ("/", "/play/anything", "/static/game.js", "/static/lobby.js",
                 "/static/common.js", "/static/style.css"):
        assert client.get(path).status_code == 200, path
    # nothing is fetched from another site: no scheme in any src or href
    for page in STATIC.glob("*.html"):
        assert not re.search(r'(src|href)="(https?:)?//', page.read_text()), page


def test_a_request_from_another_site_or_host_is_refused(client):
    body = {"ruleset": "lantern_row", "players": 2, "seats": ["human", "greedy"]}
    r = client.post("/api/games", json=body, headers={"origin": "http://evil.example"})
    assert r.status_code == 400 and "another site" in r.json()["problem"]
    r = client.post("/api/games", json=body)  # no Origin at all
    assert r.status_code == 400
    # a page of another site that names this machine (DNS rebinding)
    assert client.get("/api/lobby", headers={"host": "evil.example"}).status_code == 400


@pytest.mark.parametrize("body, words", [
    ({"ruleset": "nope", "players": 2, "seats": ["human", "greedy"]}, "no such ruleset"),
    ({"ruleset": "lantern_row", "players": 9, "seats": ["human"] * 9},
     "Lantern Row is for 2 players, not 9"),
    ({"ruleset": "lantern_row", "players": "2", "seats": ["human"] * 2}, "player count"),
    ({"ruleset": "lantern_row", "players": 2, "seats": ["human"]}, "each of the 2 seats"),
    ({"ruleset": "lantern_row", "players": 2, "seats": ["human", "os:system"]},
     "not an agent here"),
    ({"ruleset": "lantern_row", "players": 2, "seats": ["human", "ismcts:seconds=3600"]},
     "more than a record may ask"),
    ({"ruleset": "lantern_row", "players": 2, "seats": ["human", "greedy"], "mods": [99]},
     "no such mod"),
    ({"ruleset": "lantern_row", "players": 2, "seats": ["human", "greedy"],
      "variants": ["../x"]}, "variants from the list"),
])
def test_a_new_game_the_lobby_cannot_start_is_said_in_words(client, body, words):
    r = client.post("/api/games", json=body, headers=SAME)
    assert r.status_code == 400
    assert words in r.json()["problem"]


# ------------------------------------------------------------ a game at the table
def test_a_whole_game_against_an_agent_then_its_record_is_kept(client, tmp_path):
    links = start(client)
    ws, socket = connect(client, links["game"], token(links["seats"][0]["link"]))
    m = until_decision(socket)
    d = m["decision"]
    assert d["prompt"].startswith("Player 1 (human): choose an action")
    assert {"label": "Buy: Red Dragon",
            "reason": "needs at least 4 coins; you have 3 coins"} in d["refused"]
    assert d["options"][0]["key"] == "action:collect"
    # the page's table is the engine's view model, and the hand comes with each card's
    # generated text, in words
    table = m["view"]["table"]
    assert table["title"]["game"] == "Lantern Row" and table["title"]["you"] == "Player 1 (human)"
    assert table["rows"][0]["name"] == "Lantern row" and table["rows"][0]["cards"]
    hand = hand_zone(m)
    assert [c["name"] for c in hand["cards"]] == ["Twin Flame", "Sleight of Hand"]
    assert all(m["view"]["texts"][c["name"]]["lines"] for c in hand["cards"])
    answered = 0
    while not m["result"]:
        # answered by key as well as by place: the options' stable keys
        choice = m["decision"]["options"][0]["key"] if answered % 2 else 0
        socket.send_text(json.dumps({"type": "answer", "number": 0, "choice": choice,
                                     "decision": m["decision"]["number"]}))
        answered += 1
        m = until_decision(socket)
        assert answered < 500
    ws.__exit__(None, None, None)
    assert m["result"]["finished"]
    assert any(line.startswith("— Hour 1") for line in m["log"])
    time.sleep(0.2)
    saved = client.get("/api/lobby").json()["saved"]
    assert len(saved) == 1 and saved[0]["over"] and saved[0]["ruleset"] == "lantern_row"


def test_an_answer_out_of_turn_for_another_decision_or_not_allowed_is_refused(client):
    links = start(client, seats=("human", "human"))
    ws1, s1 = connect(client, links["game"], token(links["seats"][0]["link"]))
    ws2, s2 = connect(client, links["game"], token(links["seats"][1]["link"]))
    m1 = until_decision(s1)
    s2.send_text(json.dumps({"type": "answer", "decision": m1["decision"]["number"],
                             "choice": 0}))
    assert next_problem(s2) == "it is not your turn"
    s1.send_text(json.dumps({"type": "answer", "decision": 99, "choice": 0}))
    assert next_problem(s1) == "that answer was for an earlier decision"
    s1.send_text(json.dumps({"type": "answer", "decision": m1["decision"]["number"],
                             "choice": "Buy: Red Dragon"}))
    assert "needs at least 4 coins" in next_problem(s1)
    ws1.__exit__(None, None, None)
    ws2.__exit__(None, None, None)


def next_problem(socket) -> str:
    while True:
        message = json.loads(socket.receive_text())
        if message["type"] == "problem":
            return message["text"]


def test_undo_goes_back_to_your_previous_decision_as_at_the_terminal(client):
    links = start(client)
    ws, socket = connect(client, links["game"], token(links["seats"][0]["link"]))
    m = until_decision(socket)
    assert m["undo"] == "this is your first decision"
    first = m["decision"]
    socket.send_text(json.dumps({"type": "answer", "decision": first["number"],
                                 "choice": "action:collect"}))
    m = until_decision(socket)
    assert m["decision"]["prompt"].endswith("(action 2 of 2)")
    assert m["undo"] == "yes"
    socket.send_text(json.dumps({"type": "undo"}))
    m = until_decision(socket)
    assert m["decision"]["number"] == first["number"]
    assert m["decision"]["prompt"] == first["prompt"]
    # a card drawn unseen is a hidden card come out: no undo past it
    scout = next(o for o in m["decision"]["options"] if o["key"] == "action:scout")
    socket.send_text(json.dumps({"type": "answer", "decision": m["decision"]["number"],
                                 "choice": scout["index"]}))
    m = until_decision(socket)
    assert m["undo"] == "a hidden card or a random draw has come out since"
    socket.send_text(json.dumps({"type": "undo"}))
    assert next_problem(socket).startswith("undo is not possible now")
    ws.__exit__(None, None, None)


def test_no_undo_once_the_game_has_ended_the_record_stays_the_one_shown(client, tmp_path):
    # the person decides last (the agent moves first): before, undo reopened the final
    # question, and the page could show another ending than the record saved
    links = start(client, seats=("greedy", "human"), seed=1)
    ws, socket = connect(client, links["game"], token(links["seats"][0]["link"]))
    m = until_decision(socket)
    while not m["result"]:
        socket.send_text(json.dumps({"type": "answer", "decision": m["decision"]["number"],
                                     "choice": 0}))
        m = until_decision(socket)
    assert m["undo"] == "the game is over"
    socket.send_text(json.dumps({"type": "undo"}))  # the page's button is off; the server says no
    assert next_problem(socket) == "undo is not possible now: the game is over"
    table = client.server.tables[links["game"]]
    assert table.over and table.decisions == m["number"] - 1
    ws.__exit__(None, None, None)


def test_a_question_with_one_answer_is_shown_to_its_seat_with_its_answer(client):
    # as at the terminal: a question the engine answers for a person (it has one possible
    # answer) is shown to them, with its question, until they answer again; to them only
    links = start(client, seed=2)
    ws, socket = connect(client, links["game"], token(links["seats"][0]["link"]))
    ws2, watcher = connect(client, links["game"], token(links["spectator"]))
    m = until_decision(socket)
    n = 0
    while not m["taken"]:
        options = m["decision"]["options"]
        socket.send_text(json.dumps({"type": "answer", "decision": m["decision"]["number"],
                                     "choice": n % 3 if len(options) > 2 else 0}))
        m = until_decision(socket)
        n += 1
        assert n < 80 and not m["result"], "no question with one answer came"
    # (which favour it is depends on how the agents played: the words around it do not)
    (taken,) = m["taken"]
    found = re.fullmatch(r"Play a favour: Which favour do you play\? → (.+) \(the only "
                         r"choice, taken for you\)", taken)
    assert found, taken
    card = found.group(1)
    # (the log tells it only once the action is done: the question after it comes first)
    seen = state(watcher)
    while seen["number"] != m["number"]:
        seen = state(watcher)
    assert seen["taken"] == [] and not any(f"{card} (the only" in x for x in seen["log"])
    socket.send_text(json.dumps({"type": "answer", "decision": m["decision"]["number"],
                                 "choice": 0}))
    after = until_decision(socket)
    assert taken not in after["taken"]
    ws.__exit__(None, None, None)
    ws2.__exit__(None, None, None)


def test_what_the_other_player_did_since_your_last_answer_is_shown_with_your_question(client):
    # playtest (Legacy in the browser): the agent's moves were only in the log, below the
    # fold; a person must see, beside their next question, what the others did meanwhile
    links = start(client, seed=4)
    ws, socket = connect(client, links["game"], token(links["seats"][0]["link"]))
    m = until_decision(socket)
    me = own_panel(m)["name"]
    other = next(p["name"] for p in m["view"]["table"]["panels"] if not p["you"])
    for _ in range(30):  # to the first question after the other player's turn
        socket.send_text(json.dumps({"type": "answer", "decision": m["decision"]["number"],
                                     "choice": 0}))
        m = until_decision(socket)
        if any(line.startswith(f"{other}: ") for line in m["news"]):
            break
    # the other's move, named by its headline, and the person's own last move before it
    assert any(line.startswith(f"{other}: ") for line in m["news"]), m["news"]
    assert any(line.startswith(f"{me}: ") for line in m["news"]), m["news"]
    # nothing this seat was not told: a card now out of its sight is named in the news only
    # where its own log names it (a card bought from the open row), never one it never saw
    game = client.server.tables[links["game"]]._stream.game
    seen = {game.card_name(c) for c in game.state.cards if game.card_visible_to(c, 0)}
    hidden = {game.card_name(c) for c in game.state.cards} - seen  # (no copy in sight)
    log = "\n".join(game.log_line_for(i, 0) or "" for i in range(len(game.log_lines)))
    assert hidden - {n for n in hidden if n in log}  # (some it was never told)
    assert not [(name, line) for line in m["news"] for name in hidden
                if name in line and name not in log]
    # the news is since the last answer: undone to this question, the same news again
    before = m["news"]
    socket.send_text(json.dumps({"type": "answer", "decision": m["decision"]["number"],
                                 "choice": 0}))
    until_decision(socket)
    socket.send_text(json.dumps({"type": "undo"}))
    back = until_decision(socket)
    while back["number"] != m["number"]:
        back = until_decision(socket)
    assert back["news"] == before
    ws.__exit__(None, None, None)


# ------------------------------------------------------------ several people, one table
def own_panel(message) -> dict | None:
    return next((p for p in message["view"]["table"]["panels"] if p["you"]), None)


def hand_zone(message) -> dict:
    return next(z for z in own_panel(message)["zones"] if z["name"] == "Hand")


def hand_names(message) -> list[str]:
    return [c["name"] for c in hand_zone(message)["cards"]]


def public_names(message) -> set[str]:
    """The names of the cards every player sees: the rows' and the panels' public zones."""
    t = message["view"]["table"]
    names = {c["name"] for r in t["rows"] for c in r.get("cards", [])}
    names |= {c["name"] for p in t["panels"] for z in p["zones"] if z["name"] != "Hand"
              for c in z.get("cards", [])}
    return names


def test_each_seat_sees_its_own_hand_only_and_the_spectators_none(client):
    links = start(client, seats=("human", "human"))
    one, two = (token(s["link"]) for s in links["seats"])
    ws1, s1 = connect(client, links["game"], one)
    ws2, s2 = connect(client, links["game"], two)
    ws3, s3 = connect(client, links["game"], token(links["spectator"]))
    m1, m2, m3 = state(s1), state(s2), state(s3)
    mine, theirs = hand_names(m1), hand_names(m2)
    assert mine and theirs and m1["seat"] == 1 and m2["seat"] == 2
    text1, text2, text3 = (json.dumps(m) for m in (m1, m2, m3))
    public = public_names(m3)
    # the other seat's hidden cards are not anywhere in a seat's messages: only counts
    assert set(theirs) - set(mine) - public and set(mine) - set(theirs) - public
    for name in set(theirs) - set(mine) - public:
        assert name not in text1
    for name in set(mine) - set(theirs) - public:
        assert name not in text2
    assert m3["seat"] is None and own_panel(m3) is None and m3["decision"] is None
    assert m3["view"]["table"]["title"]["you"] is None
    assert set(m3["view"]["texts"]) <= public  # the row's offers, with their text
    for name in (set(mine) | set(theirs)) - public:
        assert name not in text3
    # the spectators see each hand as a count, as each seat sees the other's
    hands = [z for p in m3["view"]["table"]["panels"] for z in p["zones"] if z["name"] == "Hand"]
    assert hands == [{"name": "Hand", "count": 2}] * 2
    assert [z for z in own_panel(m1)["zones"] if z["name"] == "Hand"][0]["cards"]
    assert {"name": "Hand", "count": 2} in [z for p in m1["view"]["table"]["panels"]
                                              if not p["you"] for z in p["zones"]]
    # only the deciding seat gets the decision
    assert m1["decision"] and m2["decision"] is None
    # a spectator does not play
    s3.send_text(json.dumps({"type": "answer", "decision": 1, "choice": 0}))
    assert "spectator" in next_problem(s3)
    for ws in (ws1, ws2, ws3):
        ws.__exit__(None, None, None)


@pytest.mark.parametrize("how", ["wrong token", "missing token", "guessed game",
                                 "another game's token", "not json"])
def test_a_link_that_opens_no_seat_is_refused(client, how):
    links = start(client, seats=("human", "human"))
    other = start(client, seats=("human", "greedy"), seed=4)
    game, secret = links["game"], token(links["seats"][1]["link"])
    if how == "wrong token":
        secret = secret[:-2] + ("AA" if not secret.endswith("AA") else "BB")
    elif how == "missing token":
        secret = None
    elif how == "guessed game":
        game = game[:-1] + ("x" if game[-1] != "x" else "y")
    elif how == "another game's token":
        secret = token(other["seats"][0]["link"])
    with client.websocket_connect(f"/ws/{game}", headers=SAME) as socket:
        if how == "not json":
            socket.send_text("{")
        else:
            socket.send_text(json.dumps({"token": secret}))
        message = json.loads(socket.receive_text())
        assert message["type"] == "refused"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_text()
        assert closed.value.code == 4403


def test_the_websocket_refuses_a_page_of_another_origin(client):
    links = start(client)
    secret = token(links["seats"][0]["link"])
    for headers in ({"origin": "http://evil.example", "host": "127.0.0.1"},
                    {"host": "127.0.0.1"}):
        with pytest.raises(WebSocketDisconnect) as closed:
            with client.websocket_connect(f"/ws/{links['game']}", headers=headers) as socket:
                socket.send_text(json.dumps({"token": secret}))
                socket.receive_text()
        assert closed.value.code == 4403


# ------------------------------------------------------------ untrusted input
@pytest.mark.parametrize("name", ["../etc/passwd", "/etc/passwd", "..json", ".hidden.json",
                                  "a/b.json", "nope.json", 5])
def test_a_record_is_opened_only_by_its_name_in_the_records_folder(client, name):
    r = client.post("/api/resume", json={"file": name}, headers=SAME)
    assert r.status_code == 400
    assert "no such saved game" in r.json()["problem"]


def test_the_pages_never_put_text_in_as_markup():
    for script in STATIC.glob("*.js"):
        text = script.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                     "eval(", "new Function"):
            assert sink not in text, f"{script.name} uses {sink}"


def test_a_name_with_markup_from_a_rule_file_arrives_as_plain_text(client, tmp_path):
    import shutil
    folder = tmp_path / "lr"
    shutil.copytree(ROOT / "rulesets" / "lantern_row", folder)
    manifest = folder / "ruleset.yaml"
    text = manifest.read_text()
    manifest.write_text(re.sub(r"(?m)^name: .*$", 'name: "<img src=x onerror=alert(1)>"',
                               text, count=1))
    server = Server(Lobby(str(folder), (), tmp_path), tmp_path)
    with TestClient(make_app(server), base_url=BASE) as c:
        rulesets = c.get("/api/lobby").json()["rulesets"]
        assert rulesets[0]["name"] == "<img src=x onerror=alert(1)>"  # data, drawn as text
        server.close_all()


# ------------------------------------------------------------ resuming
def test_a_game_saved_when_the_server_stops_is_listed_and_resumed(tmp_path):
    server = Server(Lobby(None, (), tmp_path), tmp_path)
    with TestClient(make_app(server), base_url=BASE) as c:
        links = start(c)
        ws, socket = connect(c, links["game"], token(links["seats"][0]["link"]))
        m = until_decision(socket)
        socket.send_text(json.dumps({"type": "answer", "decision": m["decision"]["number"],
                                     "choice": "action:collect"}))
        m = until_decision(socket)
        number, prompt = m["decision"]["number"], m["decision"]["prompt"]
        ws.__exit__(None, None, None)
    saved = server.close_all()
    assert len(saved) == 1 and saved[0][1].is_file()
    server = Server(Lobby(None, (), tmp_path), tmp_path)
    with TestClient(make_app(server), base_url=BASE) as c:
        listed = c.get("/api/lobby").json()["saved"]
        assert [s["over"] for s in listed] == [False]
        r = c.post("/api/resume", json={"file": listed[0]["file"]}, headers=SAME)
        assert r.status_code == 200, r.text
        links = r.json()
        ws, socket = connect(c, links["game"], token(links["seats"][0]["link"]))
        m = until_decision(socket)
        assert (m["decision"]["number"], m["decision"]["prompt"]) == (number, prompt)
        ws.__exit__(None, None, None)
        server.close_all()


# ------------------------------------------------------------ the command
def test_serve_on_a_free_port_then_ctrl_c_saves_the_game_in_progress(tmp_path):
    import httpx
    records = tmp_path / "records"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "rulebook_games", "serve", "--port", "0",
                             "--no-open", "--records", str(records)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env)
    try:
        line = proc.stdout.readline()
        address = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert address, line
        base = address.group(0).rstrip("/")
        for _ in range(100):
            try:
                httpx.get(base + "/api/lobby", timeout=5)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        r = httpx.post(base + "/api/games", json={
            "ruleset": "lantern_row", "players": 2, "seats": ["human", "greedy"], "seed": 5},
            headers={"origin": base}, timeout=30)
        assert r.status_code == 200, r.text
        links = r.json()
        assert httpx.get(base + links["seats"][0]["link"].split("#")[0]).status_code == 200
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    out = line + out
    files = list(records.glob("*.json"))
    assert len(files) == 1, out
    assert f"saved Lantern Row, 0 decisions to {files[0]}" in out
    # tokens never appear in what the server prints (no access log, no URL holds one)
    for secret in [token(s["link"]) for s in links["seats"]] + [token(links["spectator"])]:
        assert secret not in out


def test_serve_says_loudly_when_it_listens_beyond_this_machine():
    from rulebook_games.cli.serve import is_loopback
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


def test_without_the_web_extra_serve_names_it(monkeypatch):
    from click.testing import CliRunner
    from rulebook_games.cli import cli
    monkeypatch.setitem(sys.modules, "starlette", None)
    result = CliRunner().invoke(cli, ["serve", "--no-open"])
    assert result.exit_code == 2
    assert "pip install 'rulebook-games[web]'" in result.output
