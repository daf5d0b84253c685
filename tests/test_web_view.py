"""The page's data (web/view.py): the engine's view model as it is, the public view, a decision.

The game page and the replay page draw the engine's view model
(``Game.view_model``) and nothing else of the table: these tests check the
adapter hands it over unchanged for a seat, builds the public view of a seat
that is nobody's (every hidden zone a count, as a stranger sees it), adds
only the generated text of the cards shown with text and a map's colours,
and says a decision (a set chosen one pick at a time, the spaces of a map,
notes and cards shown) in the words the page draws.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")

from rulebook_games.agents.registry import agent_seed, make_agent  # noqa: E402
from rulebook_games.api.decisions import Decision  # noqa: E402
from rulebook_games.load.ruleset import load_ruleset  # noqa: E402
from rulebook_games.paths import shipped_rulesets_dir  # noqa: E402
from rulebook_games.play.stream import DecisionStream  # noqa: E402
from rulebook_games.web.view import decision_data, public_model, seat_view  # noqa: E402

GAMES = ["terraforming_mars", "legacy_gears_of_time", "timespan", "lantern_row"]
_LOADED: dict = {}


def ruleset(name):
    if name not in _LOADED:
        _LOADED[name] = load_ruleset(str(shipped_rulesets_dir() / name))
    return _LOADED[name]


def played(name, decisions, seed=7, players=2):
    """A game of ``name`` after about ``decisions`` answers of greedy agents."""
    stream = DecisionStream(ruleset(name), players, seed)
    agents = [make_agent("greedy", agent_seed(seed, s)) for s in range(players)]
    for _ in range(decisions):
        d = stream.current
        if d is None:
            break
        stream.answer(agents[d.player].decide(d, stream.game.view(d.player), stream.game))
    return stream


def hidden_words(game, seat: int) -> set[str]:
    """Names and ids of the cards ``seat`` may not see (and sees no copy of), other than the
    names of other things of the game (a tile 'Capital')."""
    seen, hidden = set(), set()
    for number, c in game.state.cards.items():
        (seen if game.card_visible_to(number, seat) else hidden).add(c.def_id)
    names = {str(game.rs.cards[cid].data.get("name", cid)) for cid in seen}
    out = {str(game.rs.cards[cid].data.get("name", cid)) for cid in hidden - seen} - names
    others = {str(e.data.get("name")) for section, entries in game.rs.sections.items()
              if section != "cards" for e in entries.values()
              if isinstance(e.data, dict) and e.data.get("name")}
    others |= {str(sp.get("name")) for b in game.rs.sections["boards"].values()
               for sp in b.data["spaces"] if sp.get("name")}
    return {w for w in out if len(w) > 3 and w not in others}


def without_colours(table: dict) -> dict:
    out = json.loads(json.dumps(table))
    for board in out["boards"]:
        board.pop("colours", None)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_gets_the_engines_view_model_and_the_public_view_is_a_strangers(name):
    stream = played(name, 60)
    game = stream.game
    try:
        for seat in range(game.n):
            page = seat_view(game, seat)
            # no second picture: the table is the engine's own, a map's colours added
            assert without_colours(page["table"]) == json.loads(json.dumps(
                game.view_model(seat)["table"]))
            assert page["you"] == seat + 1
        public = seat_view(game, None)
        assert public["you"] is None and public["table"]["title"]["you"] is None
        assert not any(p["you"] for p in public["table"]["panels"])
        json.dumps(public)
        # each player's panel is as any other player sees it: hidden zones are counts
        for p in range(game.n):
            other = (p + 1) % game.n
            seen = game.view_model(other)["table"]["panels"][p]
            assert public["table"]["panels"][p] == seen
        # and the public view names no card that only some seat may see
        text = json.dumps(public["table"], ensure_ascii=False)
        for word in hidden_words(game, game.n):
            assert f'"{word}"' not in text, word
    finally:
        stream.close()


def test_the_public_view_leaves_the_game_as_it_was():
    stream = played("timespan", 40)
    game = stream.game
    try:
        state = game.state.rng.getstate(), len(game.record)
        public_model(game)
        assert (game.state.rng.getstate(), len(game.record)) == state
    finally:
        stream.close()


def test_the_hand_comes_with_each_cards_generated_text_and_only_its_own_seats():
    stream = played("lantern_row", 0, seed=3)
    game = stream.game
    try:
        mine = seat_view(game, 0)
        hand = next(z for p in mine["table"]["panels"] if p["you"] for z in p["zones"]
                    if z["name"] == "Hand")
        for card in hand["cards"]:
            text = mine["texts"][card["name"]]
            assert text["name"] == card["name"] and text["facts"].startswith("cost")
        theirs = {c["name"] for p in seat_view(game, 1)["table"]["panels"] if p["you"]
                  for z in p["zones"] if z["name"] == "Hand" for c in z["cards"]}
        row = {c["name"] for c in mine["table"]["rows"][0]["cards"]}
        assert not (theirs - row - {c["name"] for c in hand["cards"]}) & set(mine["texts"])
    finally:
        stream.close()


def _card_names_shown(table: dict) -> set[str]:
    """The names of the cards a table draws: every item of a list of cards, anywhere."""
    out: set[str] = set()

    def walk(node, cards=False):
        if isinstance(node, dict):
            if cards and isinstance(node.get("name"), str):
                out.add(node["name"])
            for key, value in node.items():
                walk(value, key == "cards")
        elif isinstance(node, list):
            for value in node:
                walk(value, cards)
    walk(table)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_card_on_the_table_comes_with_its_text_and_no_hidden_card_is_named(name):
    """Playtest (Timespan, browser): wonders, visions, timeline cards and the boards'
    cards were names alone, with nothing on pointing at them; a player had to read
    'rulebook cards' to play. Every card the table shows by name now has its generated
    text in the page's data, for the seat and for a spectator, and the texts name no
    card the seat may not see."""
    stream = played(name, 60)
    game = stream.game
    try:
        for seat in list(range(game.n)) + [None]:
            page = seat_view(game, seat)
            shown = {n for n in _card_names_shown(page["table"])
                     if any(str(e.data.get("name") or cid) == n
                            for cid, e in game.rs.cards.items())}
            assert shown, name
            for card in shown:
                text = page["texts"][card]
                assert text["name"] == card and (text["lines"] or text["facts"]), card
            looker = game.n if seat is None else seat
            for word in hidden_words(game, looker):
                assert word not in page["texts"], word
    finally:
        stream.close()


def test_a_map_carries_the_colours_its_ruleset_gives_in_the_models_words():
    stream = played("terraforming_mars", 0, seed=1)
    try:
        board = next(b for b in seat_view(stream.game, 0)["table"]["boards"] if "spaces" in b)
        types_ = {s["type"] for s in board["spaces"]}
        tiles = {t["name"] for t in board["tiles"]}
        bonuses = {b["name"] for b in board["bonuses"]}
        colours = board["colours"]
        assert set(colours["types"]) <= types_ and "Ocean area" in colours["types"]
        assert set(colours["tiles"]) <= tiles and set(colours["bonuses"]) <= bonuses
        assert all(c.startswith("#") for part in colours.values() for c in part.values())
    finally:
        stream.close()


def first(stream, wanted, most=400, pick=None):
    """Answer the first option until a decision ``wanted(data)`` is asked; that decision."""
    for _ in range(most):
        d = stream.current
        assert d is not None, "the game ended first"
        data = decision_data(Decision(d, stream.game, len(stream.game.record) + 1))
        if wanted(data):
            return data
        stream.answer(pick(d) if pick else 0)
    raise AssertionError("never asked")


def test_a_set_chosen_one_pick_a_question_is_marked_and_keeps_its_keys():
    stream = DecisionStream(ruleset("terraforming_mars"), 2, 1)
    try:
        # the corporation first (one card), then the starting cards: a set, 'done' last
        corp = first(stream, lambda d: d["kind"] == "card")
        assert not corp["set"]
        stream.answer(0)
        data = first(stream, lambda d: d["set"])
        assert data["options"][-1]["key"] == "done" and data["some"] == 10
        assert all(o["card"]["lines"] or o["card"]["facts"] for o in data["options"][:-1])
        shorts = [o["short"] for o in data["options"][:-1]]
        stream.answer(1)  # the second card: the next question lists the others, same keys
        after = decision_data(Decision(stream.current, stream.game, len(stream.game.record) + 1))
        assert after["set"] and [o["short"] for o in after["options"][:-1]] == \
            shorts[:1] + shorts[2:]
        assert after["some"] == 9  # one fewer may be picked now
    finally:
        stream.close()


def test_an_option_that_is_a_space_names_its_label_on_the_map():
    stream = DecisionStream(ruleset("terraforming_mars"), 2, 1)
    try:
        data = first(stream, lambda d: any("space" in o for o in d["options"]),
                     pick=lambda d: 0)
        labels = {s["label"] for b in seat_view(stream.game, 0)["table"]["boards"]
                  if "spaces" in b for s in b["spaces"]}
        assert {o["space"] for o in data["options"]} <= labels
        assert all(o["label"].endswith("#" + o["space"]) for o in data["options"])
    finally:
        stream.close()


def test_the_cards_a_question_is_about_are_shown_with_it_and_cards_with_their_price():
    stream = DecisionStream(ruleset("terraforming_mars"), 2, 1)
    try:
        # choosing a corporation, the player sees the ten cards dealt with it (alongside)
        corp = first(stream, lambda d: d["kind"] == "card")
        seat = stream.current.player
        dealt = [c for c in stream.current.about]
        assert corp["shown"] and len(corp["shown"][0]["cards"]) == len(dealt) == 10
        assert {c["name"] for c in corp["shown"][0]["cards"]} == \
            {stream.game.card_name(c) for c in dealt}
        assert all(stream.game.card_visible_to(c, seat) for c in dealt)
        # an option that is a card: its text, its facts with the price to the player
        for o in corp["options"]:
            assert o["card"]["name"] == o["label"] and o["card"]["lines"]
        plain = decision_data(Decision(stream.current, stream.game, 1))
        assert plain == corp  # the same question, said the same way twice
    finally:
        stream.close()


def test_a_run_of_instant_agent_moves_reaches_the_page_as_its_end_not_move_by_move():
    import threading
    from pathlib import Path
    from rulebook_games.web.tables import Table
    states, asked = [], threading.Event()

    def publish(table, seat, message):
        if message["type"] == "state":
            states.append(message)
            if message["decision"] or message["result"]:
                asked.set()
    table = Table(ruleset("terraforming_mars"), 2, 12, (), ["human", "first"], [],
                  Path("unused.json"), publish=publish)
    try:
        table.watch(0, +1)
        answers = 0
        while asked.wait(30) and not states[-1]["result"] and answers < 40:
            asked.clear()
            d = states[-1]["decision"]
            # the last option (passing, where the question is what to do): the agent
            # then plays on alone, a run of moves between two questions of the person
            table.send(0, {"type": "answer", "decision": d["number"],
                           "choice": d["range"][0] if d["range"] else len(d["options"]) - 1})
            answers += 1
        decisions = table.decisions
    finally:
        table.close(save=False)
    assert answers >= 30, answers  # (40, or the game's end)
    # every answer was followed by the next question; the agents' many moves between
    # them came as far fewer pictures than moves
    assert len(states) < decisions - answers


def test_a_cards_price_to_the_player_is_said_beside_its_printed_cost(monkeypatch):
    from rulebook_games.web.view import card_face
    stream = played("lantern_row", 0, seed=3)
    game = stream.game
    try:
        number = next(c for c in game.state.cards if game.rs.cards[
            game.state.cards[c].def_id].data.get("cost") == 3)
        assert card_face(game, number, 0)["facts"].startswith("cost 3 ·")
        monkeypatch.setattr(type(game), "card_price", lambda self, card, seat: 1)
        assert card_face(game, number, 0)["facts"].startswith("cost 3, 1 for you ·")
        assert card_face(game, number, None)["facts"].startswith("cost 3 ·")  # nobody's
    finally:
        stream.close()


def test_an_option_that_is_a_card_says_what_lies_on_it_as_the_terminal_does():
    # playtest (Legacy in the browser): "Influence which technology?" showed each card's
    # printed text but not the cubes already on it, which is what the choice turns on
    from rulebook_games.agents.registry import make_agent as agent
    stream = DecisionStream(ruleset("legacy_gears_of_time"), 2, 5)
    players = [agent("random", 11), agent("random", 12)]
    try:
        found = None
        for _ in range(3000):
            d = stream.current
            if d is None:
                break
            if d.options and "Influence which technology" in (Decision(d, stream.game, 1)
                                                            .prompt):
                data = decision_data(Decision(d, stream.game, 1))
                if any(stream.game.state.cards[o.value].pieces for o in d.options):
                    found = (d, data)
                    break
            stream.answer(players[d.player].decide(d, stream.game.view(d.player), stream.game))
        assert found, "no influence question with cubes on a technology came"
        d, data = found
        names = [p.name for p in stream.game.state.players]
        for o, shown in zip(d.options, data["options"]):
            card = stream.game.state.cards[o.value]
            for seat, n in card.pieces.items():  # each player's cubes on it, in words
                if n:
                    assert f"{names[seat]} {n} cube{'s' if n > 1 else ''}" in shown["state"]
            if "failed" in card.markers:
                assert shown["state"].startswith("failed")
            if not card.pieces and not card.markers:
                assert "state" not in shown or "cube" not in shown["state"]
    finally:
        stream.close()


def test_an_option_comes_with_the_cards_that_go_with_it_each_with_its_text():
    """Playtest (Timespan, browser): 'the exploration question names only each set's
    face-up card, not its discovery tile' — Newcomers, worth a population, was
    invisible, where the terminal says 'with Newcomers (discovery tile · …)'. Each
    set offered now carries its tile with the tile's own text."""
    stream = DecisionStream(ruleset("timespan"), 2, 2911)
    try:
        game = stream.game
        data = first(stream, lambda d: "exploration set" in d["prompt"])
        seat = stream.current.player
        for o, opt in zip(data["options"], stream.current.options):
            tiles = list(game.with_each(seat, opt.value))
            assert tiles and len(o["with"]) == len(tiles)
            for face, tile in zip(o["with"], tiles):
                assert face["name"] == game.card_name(tile) != o["card"]["name"]
                assert face["facts"].startswith("discovery tile") and face["lines"]
    finally:
        stream.close()


def test_an_action_that_would_do_nothing_now_says_so_as_in_the_terminal():
    """Playtest (Timespan, browser): with culture and science at their tops, Study,
    Inspire and Sanctuary were offered with no word that a worker there gains nothing;
    the terminal says it beside the option. The page's option now says it too."""
    from rulebook_games.engine.menus import ActionChoice
    rs = ruleset("timespan")
    for seed in range(1, 8):
        stream = DecisionStream(rs, 2, seed)
        agents = [make_agent("greedy", agent_seed(seed, s)) for s in range(2)]
        try:
            while stream.current is not None:
                d, game = stream.current, stream.game
                idle = [(i, game.idle_steps(o.value, d.player))
                        for i, o in enumerate(d.options) if isinstance(o.value, ActionChoice)]
                idle = [(i, w) for i, w in idle if w]
                if idle:
                    data = decision_data(Decision(d, game, len(game.record) + 1))
                    for i, words in idle:
                        assert words in data["options"][i]["state"]
                        assert "_" not in words and "(" not in words.split(" ")[0]
                    return
                stream.answer(agents[d.player].decide(d, game.view(d.player), game))
        finally:
            stream.close()
    raise AssertionError("no action that would do nothing in seven games")
