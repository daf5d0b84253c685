"""The learned evaluation's features against the other seats (``vs:``) and of the
game's last round (``last round``), and the declared features the shipped rulesets
give it (docs/agents.md, "What it is")."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulebook_games import load_ruleset
from rulebook_games.agents.base import RandomAgent
from rulebook_games.agents.features import Features
from rulebook_games.agents.learned import known
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.infosets import copy_game
from rulebook_games.lang.gensupport import reading
from rulebook_games.play.session import build_game, run

from learned_helpers import random_positions

ROOT = Path(__file__).resolve().parent.parent


def _positions(name: str, seed: int, players: int = 2, every: int = 7):
    """Copies of a random game at every ``every``-th decision, with the seat asked."""
    return random_positions(name, seed, players, every)


def _features(reader, game, seat):
    runner = FlowRunner(game)
    with reading(game):
        priors, common = reader.base(runner, range(game.n))
        return reader.of(runner, seat, priors, common)


@pytest.mark.parametrize("name", ["timespan", "lantern_row"])
def test_a_public_holding_is_read_against_the_most_another_seat_has(name):
    rs, found = _positions(name, 5)
    reader = Features(rs)
    seen = 0
    for game, seat in found:
        feats = _features(reader, game, seat)
        me, other = game.state.players[seat], game.state.players[1 - seat]
        for r in set(me.stock) | set(other.stock):
            assert feats.get("vs:stock:" + r, 0) == me.stock.get(r, 0) - other.stock.get(r, 0)
            seen += me.stock.get(r, 0) != other.stock.get(r, 0)
        for t in set(me.tracks) | set(other.tracks):
            assert feats.get("vs:track:" + t, 0) == me.tracks.get(t, 0) - other.tracks.get(t, 0)
        hand = len(game.state.zones.get(("hand", seat), ()))
        theirs = len(game.state.zones.get(("hand", 1 - seat), ()))
        assert feats.get("vs:size:hand", 0) == hand - theirs  # a count everyone sees
    assert seen


def test_against_the_best_of_several_others_and_none_alone():
    rs, found = _positions("timespan", 6, players=3, every=25)
    reader = Features(rs)
    for game, seat in found:
        feats = _features(reader, game, seat)
        players = game.state.players
        for r in ("food", "wood", "coin"):
            best = max(p.stock.get(r, 0) for p in players if p.seat != seat)
            assert feats.get("vs:stock:" + r, 0) == players[seat].stock.get(r, 0) - best
    rs, found = _positions("timespan", 6, players=1, every=25)
    for game, seat in found:
        assert not any(n.startswith("vs:") for n in _features(Features(rs), game, seat))


def test_the_last_round_of_a_game_of_so_many_rounds():
    """Legacy lasts four rounds: its fourth is the last (and only it)."""
    rs, found = _positions("legacy_gears_of_time", 3)
    reader = Features(rs)
    rounds = set()
    for game, seat in found:
        feats = _features(reader, game, seat)
        last = game.state.round == 4
        rounds.add(game.state.round)
        assert ("last round" in feats) == last
        if last:  # the seat's holdings again, not the board's or a card's
            for name, x in feats.items():
                if name.startswith(("stock:", "track:", "vs:", "declared:hopeful")):
                    assert feats["last round:" + name] == x
            assert not any(n.startswith(("last round:card:", "last round:global:"))
                           for n in feats)
    assert {3, 4} <= rounds


def test_the_last_round_of_a_game_that_ends_on_a_condition():
    """Lantern Row ends after the hour in which a stall holds six lanterns: from the
    sixth lantern on, that hour is the last."""
    rs, found = _positions("lantern_row", 2, every=2)
    reader = Features(rs)
    both = set()
    for game, seat in found:
        six = any(len(game.state.zones.get(("stall", p), ())) >= 6 for p in range(2))
        empty = not game.state.zones.get(("row", -1), ())
        feats = _features(reader, game, seat)
        assert ("last round" in feats) == (six or empty)
        both.add(six)
    assert both == {True, False}


def test_the_new_names_are_known_to_a_weights_file():
    rs = load_ruleset("legacy_gears_of_time")
    for name in ("last round", "vs:stock:stored_cube", "vs:size:hand",
                 "last round:stock:stored_cube", "last round:vs:track:score",
                 "declared:hopeless_leads", "last round:declared:contested_leads"):
        assert known(rs, name), name
    for name in ("vs:size:no_such_zone", "last round:declared:no_such_feature", "vs:"):
        assert not known(rs, name), name


def test_legacy_technologies_say_their_earliest_time_frame():
    """A technology succeeds only with a succeeding copy of each prerequisite in a
    strictly earlier frame: the leftmost frame where it can ever succeed is 1 for a
    fundamental one, else one right of its latest prerequisite's."""
    data = yaml.safe_load((ROOT / "rulesets/legacy_gears_of_time/cards/technologies.yaml")
                          .read_text())
    techs = {c["id"]: c.get("fields", {}) for c in data["cards"]}
    memo: dict = {}

    def earliest(i):
        if i not in memo:
            f = techs[i]
            memo[i] = 1 if f.get("fundamental") else \
                1 + max(earliest(p) for p in f["prerequisites"])
        return memo[i]
    for ident, fields in techs.items():
        assert fields.get("earliest_frame", 1) == earliest(ident), ident
    assert earliest("railroads") == 4 and earliest("fire") == 1


def test_legacy_hopeless_leads_count_a_technology_left_of_its_earliest_frame():
    rs, found = _positions("legacy_gears_of_time", 4)
    reader = Features(rs)
    checked = 0
    for game, seat in found:
        feats = _features(reader, game, seat)
        st = game.state
        expected = 0
        for n in range(1, 11):
            for c in st.zones.get((f"frame_{n}", -1), ()):
                card = st.cards[c]
                fields = game.rs.sections["cards"][card.def_id].data.get("fields", {})
                cubes = {p: card.pieces.get(p, 0) for p in range(game.n)}
                top = max(cubes.values())
                if n < fields.get("earliest_frame", 1) and top > 0 and cubes[seat] == top:
                    expected += fields.get("points", 0)
        assert feats.get("declared:hopeless_leads", 0) == expected
        checked += expected > 0
    assert checked


@pytest.mark.parametrize("seed", [3, 8, 5])
def test_timespan_income_lost_is_what_the_next_income_loses_at_the_limit(seed):
    """Timespan's ``income_lost``: when a seat ends its actions of a round, what the
    next income phase then loses of its goods and coins at the storage limit (the game's
    own news says it: "gains no coins: 1 coin would not fit", "(now 6; 2 more did not
    fit)"); in the last round no income follows, so nothing."""
    import re
    rs = load_ruleset("timespan")
    game = build_game(rs, 2, seed, ["random"] * 2, ())
    reader = Features(rs)
    seen: list = []  # (the news's length, seat, the feature) at each decision of the actions

    class Watch(RandomAgent):
        def decide(self, decision, view, g):
            answer = super().decide(decision, view, g)
            if g.state.phase == "actions" and decision.kind == "action" \
                    and decision.options[answer].key == "end":  # (its last of the round)
                value = _features(reader, copy_game(g), decision.player)
                seen.append((len(g.log_lines), decision.player,
                             value.get("declared:income_lost", 0)))
            return answer
    game.agents = [Watch(s + 1) for s in range(2)]
    run(game)
    lines = [game.log_line_for(i, 0) for i in range(len(game.log_lines))]
    incomes = [i for i, line in enumerate(lines) if line == "· Income"]
    assert len(incomes) == 4  # rounds 2 to 5
    checked = 0
    for start in incomes:
        end = next((j for j in range(start + 1, len(lines)) if lines[j].startswith(("· ", "—"))),
                   len(lines))
        for seat in range(2):
            lost = 0
            for line in lines[start + 1:end]:
                # ('… gains no food: 1 food would not fit', '…: +5 food (now 6; 1 more did not fit)')
                if line.strip().startswith((f"Player {seat + 1} (random) gains",
                                            f"Player {seat + 1} (random): +")):
                    m = re.search(r"gains no \w+: (\d+) \w+ would not fit", line) \
                        or re.search(r"(\d+) more did not fit", line)
                    lost += int(m.group(1)) if m else 0
            said = [(at, v) for at, p, v in seen if p == seat and at <= start]
            if not said or said[-1][0] < max(i for i in incomes + [0] if i < start):
                continue  # the seat did not end its actions itself (it had none left)
            assert said[-1][1] == lost, (start, seat, said[-1], lost)
            checked += lost > 0
    # the last round's actions: no income follows
    last = [v for at, p, v in seen if at > incomes[-1]]
    assert last and not any(last)
    assert checked


def _timeline(game):
    """(frame, card, its fields, cubes by seat) of every technology on Legacy's timeline."""
    st = game.state
    for n in range(1, 11):
        for c in st.zones.get((f"frame_{n}", -1), ()):
            card = st.cards[c]
            fields = game.rs.sections["cards"][card.def_id].data.get("fields", {})
            yield n, card, fields, {p: card.pieces.get(p, 0) for p in range(game.n)}


def test_legacy_hopeless_cubes_count_a_seats_cubes_left_of_the_earliest_frame():
    """A cube on a technology that can never succeed where it stands scores nothing and
    goes back to the supply: the seat's cubes there, whoever leads."""
    rs, found = _positions("legacy_gears_of_time", 4)
    reader = Features(rs)
    checked = 0
    for game, seat in found:
        expected = sum(cubes[seat] for n, _, fields, cubes in _timeline(game)
                       if n < fields.get("earliest_frame", 1))
        assert _features(reader, game, seat).get("declared:hopeless_cubes", 0) == expected
        checked += expected > 0
    assert checked


def test_legacy_exposed_leads_are_those_another_seat_can_still_take_this_round():
    """A succeeding technology the seat leads is exposed when another player stands in
    its time frame or right of it (travel goes only left) with enough stored cubes to
    tie it: its cubes there and in storage at least the seat's."""
    rs, found = _positions("legacy_gears_of_time", 4, every=3)
    reader = Features(rs)
    exposed = safe = 0
    for game, seat in found:
        st = game.state
        expected = 0
        for n, card, fields, cubes in _timeline(game):
            if "failed" in card.markers or cubes[seat] == 0 or cubes[seat] < max(cubes.values()):
                continue
            for q in range(game.n):
                if q != seat and st.players[q].tracks.get("frame", 0) >= n and \
                        cubes[q] + st.players[q].stock.get("stored_cube", 0) >= cubes[seat]:
                    expected += fields.get("points", 0)
                    break
            else:
                safe += 1
        assert _features(reader, game, seat).get("declared:exposed_leads", 0) == expected
        exposed += expected > 0
    assert exposed and safe


def test_legacy_late_last_word_is_moving_last_in_round_3_or_4():
    rs, found = _positions("legacy_gears_of_time", 3)
    reader = Features(rs)
    seen = set()
    for game, seat in found:
        st = game.state
        last = st.round >= 3 and st.players[seat].tracks.get("turn_slot") == game.n
        assert _features(reader, game, seat).get("declared:late_last_word", 0) == last
        seen.add(last)
    assert seen == {True, False}


def _lantern_row_races(game, seat):
    """Each colour's lanterns in the seat's stall and the other's, and the lanterns in
    the seat's hand with their colours, read from the cards' tags (the rules: a lantern
    counts for each colour it shows; the most of a colour scores 3, a share 1)."""
    st, rs = game.state, game.rs
    colours = ("crimson", "amber", "jade")

    def tags(c):
        return rs.cards[st.cards[c].def_id].data.get("tags") or []

    def stall(p):
        return {t: sum(t in tags(c) for c in st.zones.get(("stall", p), ())) for t in colours}
    hand = [tags(c) for c in st.zones.get(("hand", seat), ())
            if rs.cards[st.cards[c].def_id].data.get("type") == "lantern"]
    return stall(seat), stall(1 - seat), hand


def test_lantern_row_races_are_read_colour_by_colour():
    """Lantern Row's README, 'Declared features': colours the seat leads by one lantern
    (lost to one), colours it shares the most of (with at least one), colours it trails
    by one, and the lanterns in its hand that would take or share a colour it does not
    lead outright."""
    rs, found = _positions("lantern_row", 8, every=2)
    reader = Features(rs)
    seen = {"narrow_leads": 0, "shared_colours": 0, "narrow_deficits": 0,
            "race_lanterns": 0}
    for game, seat in found:
        mine, theirs, hand = _lantern_row_races(game, seat)
        expected = {
            "narrow_leads": sum(mine[t] == theirs[t] + 1 for t in mine),
            "shared_colours": sum(mine[t] == theirs[t] > 0 for t in mine),
            "narrow_deficits": sum(mine[t] + 1 == theirs[t] for t in mine),
            "race_lanterns": sum(any(mine[t] <= theirs[t] and mine[t] + 1 >= theirs[t]
                                     for t in colours) for colours in hand)}
        feats = _features(reader, game, seat)
        for name, value in expected.items():
            assert feats.get("declared:" + name, 0) == value, (name, mine, theirs, hand)
            seen[name] += value > 0
    assert all(seen.values()), seen


def test_the_turn_ahead_is_read_again_in_the_last_round():
    """docs/agents.md: in the last round 'turn ahead' has a copy of its own (the seat
    that moved first there will be answered; the one that moved second ends the game)."""
    found = [pos for seed in range(3, 9) for pos in _positions("lantern_row", seed, every=1)[1]]
    reader = Features(load_ruleset("lantern_row"))
    reader.tempo = True  # (read for weights trained at turns' ends)
    seen = set()
    for game, seat in found:
        feats = _features(reader, game, seat)
        if feats.get("last round") and feats.get("turn ahead"):
            assert feats["last round:turn ahead"] == feats["turn ahead"]
            seen.add(feats["turn ahead"])
        else:
            assert "last round:turn ahead" not in feats
    assert seen
