"""Replays in the browser (web/replays.py), through the app's JSON: open, step, jump, scrub.

A record is opened from the records folder by its file name, or uploaded; a
path is never taken. Each step is the view model of the viewer before that
decision, the decision as its player saw it and the record's answer; the
public view by default, hiding any question that shows cards out of sight; a
seat's own view only for the records folder of a server that listens on this
machine only. The browser itself is tested in test_web_browser.py.
"""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("starlette")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from rulebook_games.agents.registry import agent_seed, make_agent  # noqa: E402
from rulebook_games.load.ruleset import load_ruleset  # noqa: E402
from rulebook_games.paths import shipped_rulesets_dir  # noqa: E402
from rulebook_games.play.session import make_record  # noqa: E402
from rulebook_games.play.stream import DecisionStream  # noqa: E402
from rulebook_games.web.app import Server, make_app  # noqa: E402
from rulebook_games.web.lobby import Lobby  # noqa: E402
from test_web_view import hidden_words  # noqa: E402

BASE = "http://127.0.0.1"
SAME = {"origin": BASE, "host": "127.0.0.1"}


def record_of(folder, name="lantern_row", seed=3, stop=None, kinds=("human", "greedy")):
    """A game of agents saved as a record in ``folder`` (its first ``stop`` decisions, or
    all); the game itself, for comparing."""
    rs = load_ruleset(str(shipped_rulesets_dir() / name))
    agents = [make_agent("greedy", agent_seed(seed, s)) for s in range(len(kinds))]
    stream = DecisionStream(rs, len(kinds), seed, kinds=list(kinds), keep_log=True)
    while stream.current is not None and (stop is None or len(stream.game.record) < stop):
        d = stream.current
        stream.answer(agents[d.player].decide(d, stream.game.view(d.player), stream.game))
    path = folder / f"{name}-{seed}.json"
    make_record(stream.game, rs, list(kinds), stream.result, []).save(path)
    return path, stream


@pytest.fixture
def client(tmp_path):
    server = Server(Lobby(None, (), tmp_path), tmp_path)
    with TestClient(make_app(server), base_url=BASE) as c:
        c.server = server
        yield c
        server.close_all()


def opened(client, file) -> dict:
    r = client.post("/api/replays", json={"file": file}, headers=SAME)
    assert r.status_code == 200, r.text
    return r.json()


def at(client, head, number, seat=None) -> dict:
    r = client.post(f"/api/replays/{head['replay']}", json={"number": number, "seat": seat},
                    headers=SAME)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_saved_game_steps_decision_by_decision_to_its_end(client, tmp_path):
    path, stream = record_of(tmp_path)
    game = stream.game
    head = opened(client, path.name)
    assert head["count"] == len(game.record) and head["finished"] and head["own"]
    assert head["game"] == "Lantern Row" and head["seats"][0] == "Player 1 (human)"
    seen = 0
    for number in range(1, head["count"] + 1):
        step = at(client, head, number)
        assert step["number"] == number and step["problem"] is None
        d = step["decision"]
        assert d["number"] == number and d["who"].startswith("Player")
        if not d.get("hidden"):  # the question as asked, and the record's answer
            seen += 1
            answer = game.record[number - 1]
            assert d["given"] == answer
            assert d["answer"] == (str(answer) if d["range"] else
                                   next(o["label"] for o in d["options"]
                                        if o["index"] == answer))
    assert seen > head["count"] // 2  # most questions show nothing hidden
    end = at(client, head, head["count"] + 1)
    assert end["decision"] is None and end["result"]["same"] is True
    assert [s["score"] for s in end["result"]["scores"]] == stream.result.scores
    # the table at the end is the game's own, as the public sees it
    assert end["view"]["table"]["panels"][0]["stocks"] == \
        json.loads(json.dumps(game.view_model(1)["table"]["panels"][0]["stocks"]))
    assert end["log"][-1] == [line for line in game.log_lines if line][-1]
    stream.close()


def test_jumping_back_shows_the_same_as_coming_forward(client, tmp_path):
    path, stream = record_of(tmp_path, "legacy_gears_of_time", seed=5,
                             kinds=("greedy", "greedy", "greedy"), stop=60)
    stream.close()
    head = opened(client, path.name)
    assert not head["finished"]
    forward = at(client, head, 20)
    at(client, head, 55)
    back = at(client, head, 20)
    assert back == forward
    # a record of a game saved before its end: the end says so
    end = at(client, head, 999)
    assert end["number"] == head["count"] + 1 and end.get("unfinished") and not end["result"]


def test_the_public_view_hides_hands_and_questions_about_them(client, tmp_path):
    path, stream = record_of(tmp_path, kinds=("human", "human"))
    answers = list(stream.game.record)
    stream.close()
    head = opened(client, path.name)
    hidden_questions = 0
    again = DecisionStream(load_ruleset(str(shipped_rulesets_dir() / "lantern_row")), 2, 3)
    for number in range(1, head["count"] + 2):
        step = at(client, head, number)
        # no card that only a seat may see, by name, in the table or the question (the
        # public log says what everyone saw: a card bought from the row into a hand)
        text = json.dumps([step["view"], step["decision"]], ensure_ascii=False)
        for word in hidden_words(again.game, again.game.n):
            assert f'"{word}"' not in text and f" {word}" not in text, (number, word)
        if again.current is not None and number <= len(answers):
            again.answer(answers[number - 1])
        hands = [z for p in step["view"]["table"]["panels"] for z in p["zones"]
                 if z["name"] == "Hand"]
        assert all("cards" not in z for z in hands)  # counts only
        d = step["decision"]
        if d and d.get("hidden"):
            hidden_questions += 1
            assert d["options"] == [] and "given" not in d and "answer" not in d
            assert "hidden from this view" in d["prompt"]
    assert hidden_questions  # 'play a favour: which?' names the hand's cards
    # each seat's own view (this machine's own record): its hand, its questions in full
    mine = at(client, head, 1, seat=1)
    assert next(z for p in mine["view"]["table"]["panels"] if p["you"]
                for z in p["zones"] if z["name"] == "Hand")["cards"]
    again.close()


def test_a_seat_of_an_uploaded_record_or_of_a_server_others_reach_is_not_shown(tmp_path):
    path, stream = record_of(tmp_path)
    stream.close()
    raw = path.read_bytes()
    server = Server(Lobby(None, (), tmp_path), tmp_path)
    with TestClient(make_app(server), base_url=BASE) as c:
        r = c.post("/api/replays/upload", content=raw,
                   headers=dict(SAME, **{"content-type": "application/json",
                                         "x-rulebook-file": "../../friend's game.json"}))
        assert r.status_code == 200, r.text
        head = r.json()
        assert head["own"] is False and head["title"] == "friend's game.json"
        assert at(c, head, 2)["seat"] is None
        r = c.post(f"/api/replays/{head['replay']}", json={"number": 2, "seat": 1},
                   headers=SAME)
        assert r.status_code == 400 and "public view only" in r.json()["problem"]
        server.close_all()
    # a server that listens beyond this machine: its records are not the viewer's own
    server = Server(Lobby(None, (), tmp_path), tmp_path)
    with TestClient(make_app(server, loopback=False), base_url=BASE) as c:
        head = opened(c, path.name)
        assert head["own"] is False
        r = c.post(f"/api/replays/{head['replay']}", json={"number": 1, "seat": 1},
                   headers=SAME)
        assert r.status_code == 400
        server.close_all()


@pytest.mark.parametrize("name", ["../etc/passwd", "/etc/passwd", "a/b.json", "nope.json", 7])
def test_a_record_is_opened_only_by_its_name_in_the_records_folder(client, name):
    r = client.post("/api/replays", json={"file": name}, headers=SAME)
    assert r.status_code == 400 and "no such saved game" in r.json()["problem"]


def test_a_broken_upload_is_said_at_its_place_in_the_file(client):
    r = client.post("/api/replays/upload", content=b'{"format": "rulebook-record-2",\n "x": 1}',
                    headers=dict(SAME, **{"content-type": "application/json",
                                          "x-rulebook-file": "mine.json"}))
    assert r.status_code == 400
    problem = r.json()["problem"]
    assert problem.startswith("mine.json:") and "/tmp" not in problem


def test_replays_refuse_another_site_and_a_closed_or_guessed_replay(client, tmp_path):
    path, stream = record_of(tmp_path)
    stream.close()
    r = client.post("/api/replays", json={"file": path.name},
                    headers={"origin": "http://evil.example", "host": "127.0.0.1"})
    assert r.status_code == 400 and "another site" in r.json()["problem"]
    r = client.post("/api/replays/upload", content=path.read_bytes(),
                    headers={"origin": "http://evil.example", "host": "127.0.0.1"})
    assert r.status_code == 400
    head = opened(client, path.name)
    r = client.post(f"/api/replays/{head['replay']}x", json={"number": 1}, headers=SAME)
    assert r.status_code == 400 and "closed" in r.json()["problem"]
    assert client.get("/replays").status_code == 200
    assert client.get("/replay?record=" + path.name).status_code == 200  # the lobby's link
