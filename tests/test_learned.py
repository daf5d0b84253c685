"""Evaluations learned from a ruleset's own games (issue 29): features, weights files,
training, the agents that use them, and the lab saying who played.

Expectations come from the issue and docs/agents.md: a seat's features read
only what that seat may know; a weights file is data, checked on load (a
file of another ruleset refused at its 'ruleset' field, numbers out of bounds
refused, unknown features left out with a note); the same seed trains the
same weights; greedy and ismcts use the learned evaluation by default and the
hand-written one with eval=written or when there is no file; a mod without a
file of its own uses the base's, with a note; the lab names the agents and
warns when they are random.
"""

from __future__ import annotations

import json

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.features import Features
from rulebook_games.agents.learned import LearnedValue, check_learned, learned_value
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import NO_OWNER
from rulebook_games.errors import RulebookError
from rulebook_games.lab.who import who_played
from rulebook_games.load.learned import Learned, learned_path, read_learned
from rulebook_games.play.session import build_game

from learned_helpers import copy_ruleset, weights



_copy_ruleset = copy_ruleset
_weights = weights


# ---------------------------------------------------------------- features


class _Stop(Exception):
    pass


def _positions(name: str, seed: int, at=(20, 60, 120)):
    """Copies of a random game of ``name`` at some of its decisions, with the seat asked."""
    import random as _random
    from rulebook_games.agents.base import RandomAgent
    from rulebook_games.engine.infosets import copy_game
    from rulebook_games.play.session import run
    rs = load_ruleset(name)
    game = build_game(rs, 2, seed, ["random", "random"], ())
    game.keep_log = False
    found = []
    count = [0]

    class Watch(RandomAgent):
        def decide(self, decision, view, g):
            count[0] += 1
            if count[0] in at:
                found.append((copy_game(g), decision.player))
            return super().decide(decision, view, g)
    game.agents = [Watch(1), Watch(2)]
    run(game)
    return rs, found


@pytest.mark.parametrize("name", ["terraforming_mars", "legacy_gears_of_time", "timespan",
                                  "lantern_row"])
def test_a_seats_features_do_not_change_with_what_it_cannot_see(name):
    import random as _random
    from rulebook_games.engine.infosets import twin
    rs, found = _positions(name, 3)
    reader = Features(rs)
    changed = 0
    for game, seat in found:
        before = reader.of(FlowRunner(game), seat, [0.0, 0.0], [0.0, 0.0])
        other, moved = twin(game, seat, _random.Random(9))
        changed += moved
        assert reader.of(FlowRunner(other), seat, [0.0, 0.0], [0.0, 0.0]) == before
    assert found and changed  # (the twins did move hidden cards)


def test_a_seats_features_name_its_own_cards_by_id_and_zone():
    rs, found = _positions("terraforming_mars", 4)
    reader = Features(rs)
    for game, seat in found:
        st = game.state
        own = [(k, cards) for k, cards in st.zones.items() if k[1] == seat and cards
               and game.visible_to(k[0], seat, seat) == "all"]
        feats = reader.of(FlowRunner(game), seat, [1.0, 2.0], [3.0, 4.0])
        assert own
        for (zone, _), cards in own:
            for c in cards:
                assert feats[f"card:{zone}:{st.cards[c].def_id}"] >= 1
            assert feats[f"size:{zone}"] == len(cards)
        assert feats["evaluation"] == [1.0, 2.0][seat]
        assert feats["evaluation of the best other"] == [2.0, 1.0][seat]
        own_zones = {z for (z, _), _ in own}
        for name in feats:  # cards only of the seat's own zones, or of shared public ones
            if name.startswith("card:"):
                zone = name.split(":")[1]
                assert zone in own_zones or \
                    rs.sections["zones"][zone].data.get("scope", "shared") == "shared"


# ---------------------------------------------------------------- the weights file


def test_a_weights_file_is_read_and_its_scaling_folded_in(tmp_path):
    folder = _copy_ruleset(tmp_path)
    rs = load_ruleset(str(folder))
    data = _weights(rs, {"round": 2.0, "evaluation": 1.0}, intercept=5.0,
                    late={"evaluation": 3.0})
    data["mean"] = [1.0, 0.0]
    data["scale"] = [2.0, 1.0]
    (folder / "learned.json").write_text(json.dumps(data))
    value = learned_value(rs)
    assert value is not None and not value.notes
    game = build_game(rs, 2, 1, ["random", "random"], ())
    runner = FlowRunner(game)
    priors = [runner.evaluate(p) for p in (0, 1)]  # the hand-written evaluation
    t = min(1.0, game.state.round / 10)
    expected = [5.0 + 2.0 * (game.state.round - 1.0) / 2.0 + priors[p] * (1.0 + 3.0 * t)
                for p in (0, 1)]
    assert value.values(runner, (0, 1)) == pytest.approx(expected)


def test_a_weights_file_of_another_ruleset_is_refused_at_its_ruleset_field(tmp_path):
    folder = _copy_ruleset(tmp_path)
    rs = load_ruleset(str(folder))
    data = _weights(rs, {"round": 1.0}, ruleset="terraforming_mars")
    path = folder / "learned.json"
    path.write_text(json.dumps(data, indent=1))
    with pytest.raises(RulebookError) as err:
        read_learned(path, rs)
    d = err.value.diagnostics[0]
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1)
                if '"ruleset"' in text)
    assert d.span.file == str(path) and d.span.line == line
    assert "terraforming_mars" in d.message and "rulebook train lantern_row" in d.message


@pytest.mark.parametrize("change, where", [
    ({"intercept": 1e300}, '"intercept"'),
    ({"weights": [1e12]}, "1000000000000.0"),  # the number itself
    ({"scale": [0.0]}, "0.0"),
    ({"format": 2}, '"format"'),
    ({"code": "import os"}, ""),
])
def test_a_weights_file_out_of_bounds_is_refused_with_its_place(tmp_path, change, where):
    folder = _copy_ruleset(tmp_path)
    rs = load_ruleset(str(folder))
    data = _weights(rs, {"round": 1.0})
    data.update(change)
    path = folder / "learned.json"
    path.write_text(json.dumps(data, indent=1))
    with pytest.raises(RulebookError) as err:
        read_learned(path, rs)
    d = err.value.diagnostics[0]
    assert d.span is not None and d.span.file == str(path) and d.span.line > 1
    if where:
        assert where in path.read_text().splitlines()[d.span.line - 1]


def test_nan_is_not_a_number_a_weights_file_may_hold(tmp_path):
    folder = _copy_ruleset(tmp_path)
    rs = load_ruleset(str(folder))
    path = folder / "learned.json"
    path.write_text(json.dumps(_weights(rs, {"round": 1.0}), indent=1)
                    .replace('"intercept": 0.0', '"intercept": NaN'))
    with pytest.raises(RulebookError):
        read_learned(path, rs)


def test_lists_that_do_not_match_the_features_are_refused(tmp_path):
    folder = _copy_ruleset(tmp_path)
    rs = load_ruleset(str(folder))
    data = _weights(rs, {"round": 1.0, "evaluation": 1.0})
    data["late_weights"] = [0.0]
    path = folder / "learned.json"
    path.write_text(json.dumps(data, indent=1))
    with pytest.raises(RulebookError) as err:
        read_learned(path, rs)
    assert "late_weights" in err.value.diagnostics[0].message


def test_unknown_features_are_left_out_with_a_note(tmp_path):
    folder = _copy_ruleset(tmp_path)
    rs = load_ruleset(str(folder))
    data = _weights(rs, {"round": 1.0, "card:nowhere:nothing": 5.0, "mystery": 1.0})
    (folder / "learned.json").write_text(json.dumps(data))
    value = learned_value(rs)
    assert set(value.pairs) == {"round"}
    assert any("2 of its features are not in this ruleset" in n for n in value.notes)


def test_a_ruleset_changed_since_training_is_noted(tmp_path):
    folder = _copy_ruleset(tmp_path)
    rs = load_ruleset(str(folder))
    data = _weights(rs, {"round": 1.0}, ruleset_hash="0" * 64)
    (folder / "learned.json").write_text(json.dumps(data))
    notes = check_learned(rs)
    # told in words that the weights predate the change, and how to train them again
    assert any("predate a change to Lantern Row's rule files" in n
               and "rulebook train lantern_row -n 0 --rounds 1 --seed 0" in n for n in notes)


def test_without_a_file_there_is_no_learned_value_and_agents_use_the_written_one(tmp_path):
    folder = _copy_ruleset(tmp_path)
    rs = load_ruleset(str(folder))
    assert learned_value(rs) is None
    from rulebook_games.agents.lookahead import evaluate
    game = build_game(rs, 2, 1, ["random", "random"], ())
    runner = FlowRunner(game)
    assert evaluate(runner, (0, 1), "learned") == evaluate(runner, (0, 1), "written")


def test_a_mod_uses_its_own_file_else_the_bases_with_a_note(tmp_path):
    folder = _copy_ruleset(tmp_path)
    base = load_ruleset(str(folder))
    (folder / "learned.json").write_text(json.dumps(_weights(base, {"round": 1.0})))
    mod = sorted((folder / "mods").glob("*.yaml"))[0]
    modded = load_ruleset(str(folder), [str(mod)])
    path, notes = learned_path(modded)
    assert path == folder / "learned.json"
    assert notes and mod.name in notes[0]
    own = mod.with_name(mod.stem + ".learned.json")
    own.write_text(json.dumps(_weights(modded, {"round": 2.0},
                                       mods=[m["id"] for m in modded.mod_info])))
    modded = load_ruleset(str(folder), [str(mod)])
    path, notes = learned_path(modded)
    assert path == own and not notes
    assert learned_value(modded).pairs["round"][0] == 2.0


# ---------------------------------------------------------------- the agents


def _play(rs, kinds, seed=7):
    from rulebook_games.play.session import run
    game = build_game(rs, 2, seed, kinds, ())
    game.keep_log = False
    result = run(game)
    return result.scores, [a for a in game.record]


def test_greedy_uses_the_learned_value_by_default_and_the_written_one_when_told(tmp_path):
    folder = _copy_ruleset(tmp_path)
    rs = load_ruleset(str(folder))
    written = _play(rs, ["greedy:eval=written", "greedy:eval=written"])
    assert _play(rs, ["greedy", "greedy"]) == written  # no file: the written evaluation
    # a value that wants the score as low as can be: greedy must now play otherwise
    (folder / "learned.json").write_text(json.dumps(_weights(rs, {"evaluation": -1.0})))
    rs = load_ruleset(str(folder))
    learned = _play(rs, ["greedy", "greedy"])
    assert learned != written
    assert _play(rs, ["greedy", "greedy"]) == learned  # same seed, same game
    assert _play(rs, ["greedy:eval=written", "greedy:eval=written"]) == written
    assert _play(rs, ["trained", "trained"]) == learned


def test_ismcts_uses_the_learned_value(tmp_path):
    folder = _copy_ruleset(tmp_path)
    rs = load_ruleset(str(folder))
    (folder / "learned.json").write_text(json.dumps(_weights(rs, {"evaluation": -1.0})))
    rs = load_ruleset(str(folder))
    a = _play(rs, ["ismcts:iterations=8", "ismcts:iterations=8"], seed=2)
    b = _play(rs, ["ismcts:iterations=8:eval=written", "ismcts:iterations=8:eval=written"],
              seed=2)
    assert a != b
    assert _play(rs, ["ismcts:iterations=8", "ismcts:iterations=8"], seed=2) == a


# ---------------------------------------------------------------- training


def test_training_is_reproducible_from_its_seed(tmp_path):
    from rulebook_games.lab.train import train
    rs = load_ruleset(str(_copy_ruleset(tmp_path)))
    a = train(rs, 2, 6, 11, rounds_of_play=2)
    b = train(rs, 2, 6, 11, rounds_of_play=2)
    assert a == b
    assert a["games"] == 6 and a["seed"] == 11 and a["ruleset"] == rs.id
    assert len(a["features"]) == len(a["weights"]) == len(a["late_weights"])
    # the data it writes reads back as a weights file of this ruleset
    path = tmp_path / "w.json"
    path.write_text(json.dumps(a))
    LearnedValue(read_learned(path, rs), rs)


def test_a_sample_learns_the_final_evaluation_when_told():
    # docs/agents.md: --target evaluation labels each position with the seat's
    # hand-written evaluation of the final position minus the best other seat's (a
    # solo seat's own), instead of the final score's margin
    from rulebook_games.lab.train import play_and_sample
    from rulebook_games.lang.gensupport import reading
    from rulebook_games.play.session import run
    rs = load_ruleset("lantern_row")
    taken, _, _ = play_and_sample(rs, 2, 5, "greedy:eval=written", 0, 0.5,
                                  target="evaluation")
    game = build_game(rs, 2, 5, ["greedy:eval=written"] * 2, ())
    game.keep_log = False
    result = run(game)
    runner = FlowRunner(game)
    with reading(game):
        ends = [runner.evaluate(p) for p in (0, 1)]
    margins = {ends[0] - ends[1], ends[1] - ends[0]}
    assert taken and {s.target for s in taken} == margins
    assert margins != {result.scores[0] - result.scores[1], result.scores[1] - result.scores[0]}
    scored, _, _ = play_and_sample(rs, 2, 5, "greedy:eval=written", 0, 0.5)
    assert {s.target for s in scored} == {result.scores[0] - result.scores[1],
                                         result.scores[1] - result.scores[0]}


def _cli(capsys, *args):
    from rulebook_games.cli import main
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out = capsys.readouterr()
    return info.value.code, out.out, out.err


def test_the_train_command_writes_a_file_the_agents_read(tmp_path, capsys):
    folder = _copy_ruleset(tmp_path)
    out = tmp_path / "out.json"
    code, text, err = _cli(capsys, "train", str(folder), "-n", "4", "--seed", "2",
                           "--out", str(out))
    assert code == 0, err
    assert "wrote" in text and "held-out" in text
    data = json.loads(out.read_text())
    assert data["agent"].startswith("2 games of greedy:eval=written")
    assert data["target"] == "margin"
    assert data["seed"] == 2 and data["games"] == 4
    # written again over its own file; never over another file
    code, text, err = _cli(capsys, "train", str(folder), "-n", "4", "--out", str(out),
                           "--target", "evaluation")
    assert code == 0, err
    assert json.loads(out.read_text())["target"] == "evaluation"
    from rulebook_games.load.learned import train_command
    assert train_command(json.loads(out.read_text())).endswith("--target evaluation")
    assert "--target" not in train_command(data)
    other = tmp_path / "notes.txt"
    other.write_text("mine")
    code, text, err = _cli(capsys, "train", str(folder), "-n", "4", "--out", str(other))
    assert code == 2 and other.read_text() == "mine"
    assert "is not a learned evaluation" in err
    # the default place is the ruleset's own learned.json, which the agents then read
    code, text, err = _cli(capsys, "train", str(folder), "-n", "4")
    assert code == 0, err
    assert (folder / "learned.json").is_file()
    assert learned_value(load_ruleset(str(folder))) is not None


def test_a_broken_weights_file_stops_a_command_with_its_place(tmp_path, capsys):
    folder = _copy_ruleset(tmp_path)
    (folder / "learned.json").write_text('{"format": 1,\n "ruleset": 3}\n')
    code, text, err = _cli(capsys, "simulate", str(folder), "-n", "1", "--agents", "greedy")
    assert code == 1
    assert f"{folder / 'learned.json'}:2:" in text and "Traceback" not in text + err


# ---------------------------------------------------------------- the lab says who played


def test_who_played_names_the_agents_and_warns_of_random_ones():
    lines = who_played(["random", "random"])
    assert lines[0] == "Played by random in every seat."
    assert any("answer without looking at the game" in line and "--agents trained" in line
               for line in lines)
    lines = who_played(["greedy", "random"])
    assert lines[0] == "Played by greedy (seat 1), random (seat 2)."
    assert any("do not play to win" in line for line in lines)
    lines = who_played(["greedy", "greedy"], load_ruleset("lantern_row"))
    assert not any("without looking" in line for line in lines)
    assert any("greedy played with" in line for line in lines)


def test_who_played_says_when_there_is_no_learned_evaluation(tmp_path):
    rs = load_ruleset(str(_copy_ruleset(tmp_path)))
    lines = who_played(["trained", "trained"], rs)
    assert any("hand-written evaluation (no evaluation has been trained" in line
               for line in lines)


# ------------------------------------------------ points scored count as points

def _fitted(samples, lowest=False):
    from rulebook_games.lab.train import fit
    names, w, v, b, m, s, lm, ls = fit(samples, 10.0, 1.0, 1.0, lowest)
    return {n: (w[i] / s[i], v[i] / ls[i]) for i, n in enumerate(names)}


def _samples(points_from_stock: float):
    """Positions where the final margin is the score margin now plus what the stock
    ``x`` still brings (``points_from_stock`` a unit), and a hand-written evaluation
    that prices the score and the stock both (as a ruleset's may)."""
    import random
    from rulebook_games.lab.train import Sample
    rng = random.Random(5)
    out = []
    for g in range(60):
        for r in range(1, 9):
            score, other, x = rng.randint(0, 40), rng.randint(0, 40), rng.randint(0, 20)
            margin = score - other + points_from_stock * x + rng.gauss(0, 1)
            feats = {"score": score, "score of the best other": other, "stock:x": x,
                     "evaluation": 8 * score + 3 * x, "evaluation of the best other": 8 * other,
                     "round": r}
            out.append(Sample(g, r, feats, margin))
    return out


def test_a_point_scored_is_worth_one_point_at_any_time():
    """The value is the score margin now (weight 1, early and late) plus what the fit
    expects still to come: a point scored now is never worth less than the stock that
    could have bought it, as a free fit of the score and the stock together allows."""
    pairs = _fitted(_samples(0.25))
    assert pairs["score"] == pytest.approx((1.0, 0.0))
    assert pairs["score of the best other"] == pytest.approx((-1.0, 0.0))
    # what the stock brings is learned on top: a quarter of a point a unit
    early, late = pairs["stock:x"]
    evaluation = pairs["evaluation"]
    assert 3 * (evaluation[0] + evaluation[1] * 0.5) + early + late * 0.5 == \
        pytest.approx(0.25, abs=0.05)


def test_where_the_lowest_score_wins_a_point_counts_against():
    samples = _samples(0.0)
    for s in samples:
        s.target = -s.target
    pairs = _fitted(samples, lowest=True)
    assert pairs["score"] == pytest.approx((-1.0, 0.0))
    assert pairs["score of the best other"] == pytest.approx((1.0, 0.0))


def test_turn_end_positions_are_each_turns_end_and_the_final_position():
    # docs/agents.md: --positions turn-ends samples the end of each turn, for the seat
    # whose turn it was, and the final position for every seat: there the margin still
    # to come is nothing, so the label is the score margin itself
    from rulebook_games.lab.train import play_and_sample
    rs = load_ruleset("lantern_row")
    taken, last_round, _ = play_and_sample(rs, 2, 5, "greedy:eval=written", 0, 1.0,
                                           positions="turn-ends")
    *turns, end_a, end_b = taken
    for s in (end_a, end_b):
        assert s.target == s.features["score"] - s.features["score of the best other"]
    # two turns an hour; the last turn's end is the final position
    assert len(turns) == 2 * last_round - 1
    # the same game sampled at decisions labels the same margins
    scored, _, _ = play_and_sample(rs, 2, 5, "greedy:eval=written", 0, 0.5)
    assert {s.target for s in scored} == {s.target for s in taken}


def test_the_seat_moving_first_in_a_round_is_a_turn_ahead_until_the_other_moves():
    # docs/agents.md: 'turn ahead' is the seat's turns begun this round minus the most
    # any other seat has begun: at two players 1 for the first seat in its turn (the
    # other -1), nothing once both have begun
    from rulebook_games.agents.features import Features
    rs, found = _positions("lantern_row", 3, at=tuple(range(1, 40)))
    reader = Features(rs)
    reader.tempo = True  # (read for weights that have it, as those trained at turns' ends)
    seen = set()
    for game, seat in found:
        runner = FlowRunner(game)
        priors, shared = reader.base(runner, range(2))
        first, second = (reader.of(runner, p, priors, shared).get("turn ahead", 0)
                         for p in (0, 1))
        mover = game.state.turn_seat
        assert (first, second) == ((1, -1) if mover == game.state.turn_order[0] else (0, 0))
        seen.add(mover)
    assert seen == {0, 1}
