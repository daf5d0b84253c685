"""Watching a game of agents only (issue 27, watch): the lobby's watch link, pace, pause.

The watch link opens the public view, as the spectators' link does, and may
also pace the agents, pause them and let one move through; a game of agents
only starts when its first page connects. Expectations come from the issue:
a watched game of agents reaches its end over the websocket, and the page
that watches never receives hidden information.
"""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("starlette")

from test_web import BASE, SAME, client, connect, start, state, token  # noqa: E402,F401


def agents_only(client, seats=("greedy", "greedy"), ruleset="lantern_row", seed=3, **more):
    return start(client, seats=seats, ruleset=ruleset, seed=seed, **more)


def until(socket, test, limit=5000) -> dict:
    for _ in range(limit):
        m = state(socket)
        if test(m):
            return m
    raise AssertionError("never came")


def test_a_game_of_agents_only_gives_a_watch_link_and_no_seat_links(client):
    links = agents_only(client)
    assert links["seats"] == []
    assert links["watch"].startswith(f"/watch/{links['game']}#")
    assert token(links["watch"]) != token(links["spectator"])
    # the watch page is the game page, with the watch controls
    page = client.get(links["watch"].split("#")[0])
    assert page.status_code == 200 and "/static/watch.js" in page.text
    assert client.get("/static/watch.js").status_code == 200
    # a game with a person in it has no watch link: its people set the pace
    assert "watch" not in start(client, seats=("human", "greedy"))


def test_a_watched_game_of_agents_reaches_its_end_over_the_websocket(client):
    links = agents_only(client)
    table = client.server.tables[links["game"]]
    time.sleep(0.3)
    assert table.decisions == 0  # nobody watches yet: the game waits for its first page
    ws, socket = connect(client, links["game"], token(links["watch"]))
    numbers = []
    m = until(socket, lambda m: numbers.append(m["number"]) or m["result"])
    assert m["result"]["finished"] and m["seat"] is None and m["decision"] is None
    assert len(set(numbers)) > 20  # the moves arrived one by one, as they happened
    assert any(line.startswith("— Hour 1") for line in m["log"])
    ws.__exit__(None, None, None)


def names_in(view) -> set[str]:
    return {c["name"] for cards in view["zones"].values() if isinstance(cards, list)
            for c in cards}


def test_the_watch_page_pauses_steps_and_never_receives_hidden_information(client):
    links = agents_only(client, delay=2)
    table = client.server.tables[links["game"]]
    ws, socket = connect(client, links["game"], token(links["watch"]))
    socket.send_text(json.dumps({"type": "pause"}))
    m = until(socket, lambda m: m["paused"])
    assert m["number"] == 1
    time.sleep(0.3)
    assert table.decisions == 0  # paused: no agent moves
    game = table._stream.game
    public = names_in(game.view(game.n))  # every card name the table has shown so far
    checked = leaked = 0
    while not m["result"]:
        number = m["number"]
        socket.send_text(json.dumps({"type": "step"}))
        m = until(socket, lambda m: m["number"] > number or m["result"])
        assert m["number"] == number + 1 or m["result"]  # one move a step
        assert m["paused"] or m["result"]
        game = table._stream.game  # still: the table waits for the next step
        public |= names_in(game.view(game.n))
        # what only a seat may see: cards in hands, never shown on the table
        hidden = set().union(*(names_in(game.view(s)) for s in range(game.n))) - public
        text = json.dumps(m)
        leaked += sum(1 for name in hidden if name in text)
        checked += bool(hidden)
        assert not any(p["you"] for p in m["view"]["table"]["panels"])  # nobody's seat
        assert m["decision"] is None
    assert checked > 20 and leaked == 0
    ws.__exit__(None, None, None)


def test_the_watch_page_sets_the_pace_and_resumes(client):
    links = agents_only(client, delay=2)
    ws, socket = connect(client, links["game"], token(links["watch"]))
    m = state(socket)
    assert m["delay"] == 2 and m["paused"] is False
    socket.send_text(json.dumps({"type": "pause"}))
    until(socket, lambda m: m["paused"])
    socket.send_text(json.dumps({"type": "pace", "delay": 0}))
    until(socket, lambda m: m["delay"] == 0)
    socket.send_text(json.dumps({"type": "resume"}))
    m = until(socket, lambda m: m["result"])
    assert m["result"]["finished"] and not m["paused"]
    ws.__exit__(None, None, None)


def test_the_spectators_link_only_watches(client):
    links = agents_only(client, delay=0.5)
    ws, socket = connect(client, links["game"], token(links["spectator"]))
    state(socket)
    for kind in ("pause", "pace", "step", "resume", "answer"):
        socket.send_text(json.dumps({"type": kind, "delay": 0}))
        while True:
            message = json.loads(socket.receive_text())
            if message["type"] == "problem":
                break
        assert "spectator" in message["text"]
    ws.__exit__(None, None, None)


def test_the_lobby_mods_apply_to_a_watched_game(client):
    lobby = client.get("/api/lobby").json()
    rs = next(r for r in lobby["rulesets"] if r["key"] == "lantern_row")
    rich = next(m["number"] for m in rs["mods"] if m["name"] == "Rich start")
    links = agents_only(client, mods=[rich], delay=2)
    table = client.server.tables[links["game"]]
    assert table.mods and table.mods[0].endswith("rich_start.yaml")
    ws, socket = connect(client, links["game"], token(links["watch"]))
    m = state(socket)  # before the first move (two seconds a move)
    assert m["number"] == 1
    coins = [s["amount"] for p in m["view"]["table"]["panels"] for s in p["stocks"]
             if s["name"].lower().startswith("coin")]
    assert coins == [6, 7]  # rich start: 6 coins and 7, not 3 and 4
    ws.__exit__(None, None, None)
