"""The Python API as docs/api.md describes it: the examples there run as written.

The page's ``pycon`` blocks are run as doctests, in order, in one namespace
(in a fresh folder, since they save a record). The tests below hold the
promises the page makes in words: short reprs, the same seed giving the
same game whichever way it is played, answers in every form, hidden cards
staying hidden, threads ending, and rows equal to ``simulate --out`` lines.
"""

from __future__ import annotations

import doctest
import gc
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import rulebook_games as rb
from rulebook_games.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "api.md"


@pytest.fixture(scope="module")
def lantern():
    return rb.load_ruleset("lantern_row")


def game_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "rulebook-game" and t.is_alive())


# ------------------------------------------------------------------ the page itself
def test_the_pages_examples_run_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, re.S)
    assert len(blocks) >= 10
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "docs/api.md", str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
    assert (tmp_path / "lantern.record.json").is_file()


def test_the_readme_links_the_page():
    assert "(docs/api.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


# ------------------------------------------------------------------ loading
@pytest.mark.parametrize("name", ["lantern_row", "legacy_gears_of_time", "terraforming_mars",
                                  "timespan"])
def test_every_shipped_ruleset_prints_in_one_short_line(name):
    rs = rb.load_ruleset(name)
    text = repr(rs)
    assert len(text) < 200 and "\n" not in text, text
    assert rs.id in text and str(len(rs.cards)) in text
    card = next(iter(rs.cards.values()))  # a card's declaration prints short too
    assert len(repr(card)) < 200 and "\n" not in repr(card)
    assert str(rs) == text


def test_the_shipped_rulesets_are_listed():
    assert rb.shipped_rulesets() == sorted(rb.shipped_rulesets())
    assert "lantern_row" in rb.shipped_rulesets()


def test_a_ruleset_that_does_not_load_is_a_placed_error():
    with pytest.raises(rb.RulebookError) as info:
        rb.load_ruleset("no_such_game")
    d = info.value.diagnostics[0]
    assert d.code == "RB100" and d.span.line == 1


def test_a_mod_is_layered_on(tmp_path):
    mods = sorted((ROOT / "rulesets" / "lantern_row" / "mods").glob("*.yaml"))
    assert mods
    rs = rb.load_ruleset("lantern_row", mods=[mods[0]])
    assert [Path(m).resolve() for m in rs.mods] == [mods[0].resolve()]
    assert rs.content_hash != rb.load_ruleset("lantern_row").content_hash
    assert "mod" in repr(rs)


def test_ruleset_attributes(lantern):
    assert (lantern.id, lantern.name, lantern.min_players, lantern.max_players) == \
        ("lantern_row", "Lantern Row", 2, 2)
    assert rb.load_ruleset("terraforming_mars").variants == ["corporate_era", "draft", "solo"]
    assert lantern.variants == []


def test_card_text_by_id_or_name(lantern):
    text = rb.card_text(lantern, "red_dragon")
    assert text.splitlines()[0].startswith("Red Dragon")
    assert text == rb.card_text(lantern, "RED DRAGON") == lantern.card_text("Red Dragon")
    assert "red_dragon" not in text  # words, not ids
    with pytest.raises(ValueError, match="red_dragon"):
        rb.card_text(lantern, "red_dragn")


# ------------------------------------------------------------------ a game
def test_a_game_waits_on_your_seat(lantern):
    game = rb.new_game(lantern, seed=7, agents=["me", "greedy"])
    d = game.decision
    assert (d.number, d.seat, d.kind) == (1, 1, "action")
    assert game.players == 2 and game.seed == 7 and game.agents == ["me", "greedy"]
    assert d.options and all(o.index == i for i, o in enumerate(d.options))
    assert d.range is None
    assert "Play a favour" in d.refused
    text = str(d)
    o = d.options[0]
    assert f"0. {o.short_key}  {o.label}" in text and "not now" in text
    for shown in (repr(game), repr(d), repr(d.options[0])):
        assert "\n" not in shown and len(shown) < 200, shown
    game.close()


def test_without_agents_every_seat_is_yours(lantern):
    with rb.new_game(lantern, seed=3) as game:
        seats = set()
        for _ in range(40):
            seats.add(game.decision.seat)
            game.answer(len(game.decision.options) - 1 if game.decision.options
                        else game.decision.range[0])
        assert seats == {1, 2}
        assert game.agents == ["me", "me"]


def test_the_player_count(lantern):
    tm = rb.load_ruleset("terraforming_mars")
    with rb.new_game(tm, agents="me,random,random") as game:
        assert game.players == 3
    with rb.new_game(tm) as game:
        assert game.players == 1
    with pytest.raises(ValueError, match="1–5 players"):
        rb.new_game(tm, players=6)
    with pytest.raises(ValueError, match="lists 3 agents for 2 players"):
        rb.new_game(tm, players=2, agents="me,random,random")


def test_an_unknown_variant_suggests_one():
    with pytest.raises(ValueError, match="did you mean 'draft'"):
        rb.new_game("terraforming_mars", variants=["drfat"])


def test_answers_in_every_form(lantern):
    with rb.new_game(lantern, seed=7) as game:
        d = game.decision
        take = next(o for o in d.options if o.key == "action:collect")
        assert game.answer(take).number == 2  # an option
        assert game.answer(take.key).number == 3  # its key
        # the turn's two actions are taken: its free actions, and ending it
        labels = [o.label for o in game.decision.options]
        assert labels[-1] == "end turn"
        assert game.answer(labels[0].upper()).number == 4  # a label, in any case
        # which lantern to hang: cards, each with its id and summary
        cards = game.decision.options
        assert game.decision.kind == "card" and all(o.card and o.summary for o in cards)
        assert game.answer(cards[-1].label[:4]).number == 5  # the start of one label only
        game.answer(len(game.decision.options) - 1)  # an index
        assert game.decision.number == 6


def test_a_refused_answer_leaves_the_game_as_it_was(lantern):
    with rb.new_game(lantern, seed=7) as game:
        d = game.decision
        for bad, words in [(99, "from 0 to"), ("Play a favour", "not allowed now"),
                           ("nothing like it", "no option"), (True, "not True")]:
            with pytest.raises(ValueError, match=words):
                game.answer(bad)
            assert game.decision.number == 1
        game.answer(0)
        with pytest.raises(ValueError, match="decision 1"):
            game.answer(d.options[0])  # an option of an earlier decision


def test_a_number_is_answered_as_the_number():
    # tiny's build action pays: a number question comes from Terraforming Mars's
    # steel and titanium; look for any range in a few games played by 'first'
    tm = rb.load_ruleset("terraforming_mars")
    for seed in range(1, 30):
        with rb.new_game(tm, players=2, seed=seed, agents="me,first") as game:
            for _ in range(400):
                d = game.decision
                if d is None:
                    break
                if d.range is not None:
                    low, high = d.range
                    assert d.options == [] and low < high
                    with pytest.raises(ValueError, match=f"from {low} to {high}"):
                        game.answer(high + 1)
                    assert game.answer(high) is None or game.decision.number == d.number + 1
                    return
                game.answer(0)
    pytest.skip("no number question came up")


def test_stepping_with_the_first_answer_is_the_first_agents_game(lantern):
    # the same seed gives the same game, stepped here or played by agents
    game = rb.new_game(lantern, seed=11, agents=["me", "greedy"])
    while not game.over:
        d = game.decision
        game.answer(d.range[0] if d.range else 0)
    played = rb.play_game(lantern, seed=11, agents="first,greedy")
    assert game.result.final_hash == played.final_hash
    assert game.result.scores == played.scores


def test_play_game_is_the_game_simulate_plays(lantern):
    result = rb.play_game(lantern, seed=4, agents="greedy,random")
    (row,) = rb.simulate(lantern, games=1, seed=4, agents="greedy,random")
    assert row["final_hash"] == result.final_hash and row["scores"] == result.scores
    assert row["winners"] == result.winners


def test_views_keep_hidden_cards_hidden(lantern):
    with rb.new_game(lantern, seed=7) as game:
        mine, theirs = game.view(1), game.view(2)
        assert mine["you"] == 0 and theirs["you"] == 1
        assert mine["zones"]["hand@2"] == {"count": 2}
        assert isinstance(mine["zones"]["hand@1"], list)
        assert theirs["zones"]["hand@1"] == {"count": 2}
        assert game.view() == mine  # seat 1 decides
        with pytest.raises(ValueError, match="seat"):
            game.view(3)


def test_the_log(lantern):
    with rb.new_game(lantern, seed=7) as game:
        game.answer(0)
        assert game.log and all(isinstance(line, str) for line in game.log)
        assert any("Player 1" in line for line in game.log)
        assert len(game.log_for(1)) == len(game.log)


def test_play_to_the_end(lantern):
    game = rb.new_game(lantern, seed=7, agents=["me", "greedy"])
    with pytest.raises(ValueError, match="seat 1"):
        game.play()  # seat 1 is still yours: nothing is played
    assert game.decision.number == 1
    result = game.play(agents={1: "random"})
    assert game.over and game.decision is None and game.result is result
    assert game.agents == ["random", "greedy"]
    assert len(result.scores) == 2 and set(result.winners) <= {1, 2}
    assert len(result.score_parts) == 2 and result.finished
    assert result.rounds > 0 and result.decisions > 0
    assert "\n" not in repr(result) and len(repr(result)) < 200
    with pytest.raises(RuntimeError, match="over"):
        game.answer(0)
    assert game.play() is result  # nothing left to play


def test_a_game_of_agents_only_is_over_when_it_starts(lantern):
    before = game_threads()
    game = rb.new_game(lantern, seed=5, agents="greedy")
    assert game.over and game.decision is None
    assert game_threads() == before  # its thread has ended with the game


def test_your_own_agent_object(lantern):
    seen = []

    class Last:
        def decide(self, decision, view):
            seen.append(view["you"])
            return decision.high if decision.is_range else len(decision.options) - 1

    result = rb.play_game(lantern, seed=9, agents=[Last(), "last"])
    assert result.final_hash == rb.play_game(lantern, seed=9, agents="last").final_hash
    assert seen and set(seen) == {0}


def test_a_failing_agent_is_a_game_error(lantern):
    class Broken:
        def decide(self, decision, view):
            raise ZeroDivisionError("oops")

    with pytest.raises(rb.GameError, match="ZeroDivisionError: oops"):
        rb.play_game(lantern, agents=[Broken(), "random"])


@pytest.mark.parametrize("agents, words", [
    ("me,greedy", "yours"), ({3: "greedy"}, "seat 3"), ("greedy,nonsense", "nonsense"),
])
def test_agents_that_cannot_be_seated(lantern, agents, words):
    with pytest.raises(ValueError, match=words):
        rb.play_game(lantern, agents=agents)


def test_an_interrupted_agent_leaves_the_game_where_it_was(lantern):
    class Interrupted:
        calls = 0

        def decide(self, decision, view):
            Interrupted.calls += 1
            if Interrupted.calls == 1:
                raise KeyboardInterrupt
            return 0

    game = rb.new_game(lantern, seed=7, agents=["me", Interrupted()])
    while game.decision.seat == 1:
        try:
            game.answer(0)
        except KeyboardInterrupt:
            break
    d = game.decision
    assert d.seat == 2  # the decision the agent was answering
    result = game.play(agents={1: "random", 2: "random"})
    assert game.over and result is game.result


# ------------------------------------------------------------------ records
def test_a_saved_record_replays(lantern, tmp_path, capsys):
    game = rb.new_game(lantern, seed=6, agents=["me", "greedy"])
    for _ in range(3):
        game.answer(0)
    unfinished = game.save(tmp_path / "half.json")
    assert json.loads(unfinished.read_text())["agents"] == ["human", "greedy"]
    game.play(agents={1: "random"})
    path = game.save(tmp_path / "whole.json")
    with pytest.raises(SystemExit) as info:
        main(["replay", str(path)])
    assert info.value.code == 0 and "final state matches" in capsys.readouterr().out


def test_saving_never_replaces_a_file_the_user_had(lantern, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    game = rb.new_game(lantern, seed=6, agents=["me", "greedy"])
    with pytest.raises(ValueError, match="notes.txt"):
        game.save(notes)
    assert notes.read_text() == "my notes\n"
    # the game's own earlier save is replaced: it is the same game, further on
    path = game.save(tmp_path / "g.json")
    first = path.read_text()
    game.answer(0)
    game.save(path)
    assert path.read_text() != first
    # another game may not replace it
    other = rb.new_game(lantern, seed=7, agents=["me", "greedy"])
    with pytest.raises(ValueError):
        other.save(path)
    other.close()
    game.close()


# ------------------------------------------------------------------ threads
def test_closing_ends_the_thread(lantern):
    before = game_threads()
    game = rb.new_game(lantern, seed=2)
    assert game_threads() == before + 1
    game.close()
    game.close()  # twice is fine
    assert game_threads() == before
    assert game.decision is None and not game.over
    with pytest.raises(RuntimeError, match="closed"):
        game.answer(0)
    assert "closed" in repr(game)


def test_a_game_no_longer_referenced_ends_its_thread(lantern):
    gc.collect()  # games other tests left unreferenced end first
    before = game_threads()
    game = rb.new_game(lantern, seed=2)
    game.answer(0)
    decision = game.decision  # what a notebook keeps: its decision and options
    del game
    gc.collect()
    assert game_threads() == before
    assert decision.seat in (1, 2)


def test_games_left_open_at_exit_close_quietly():
    code = ("import rulebook_games as rb\n"
            "games = [rb.new_game('lantern_row', seed=s) for s in range(3)]\n"
            "games[0].answer(0)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stderr == ""


# ------------------------------------------------------------------ many games
def test_rows_are_the_lines_of_simulate_out(lantern, tmp_path, capsys):
    rows = rb.simulate(lantern, games=3, seed=5, agents="greedy,random")
    out = tmp_path / "r.jsonl"
    with pytest.raises(SystemExit):
        main(["simulate", "lantern_row", "-n", "3", "--seed", "5", "--agents",
              "greedy,random", "--out", str(out)])
    capsys.readouterr()
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows == lines
    assert [r["seed"] for r in rows] == [5, 6, 7]


def test_rows_are_the_same_on_two_workers(lantern):
    one = rb.simulate(lantern, games=4, agents="random", workers=1)
    two = rb.simulate(lantern, games=4, agents="random", workers=2)
    assert one == two


def test_simulate_plays_agents_only(lantern):
    with pytest.raises(ValueError, match="seat 1 is yours"):
        rb.simulate(lantern, games=2, agents="me,random")
    with pytest.raises(ValueError):
        rb.simulate(lantern, games=0)


def test_a_frame_needs_pandas_and_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError) as info:
        rb.to_frame([{"seed": 1}])
    message = str(info.value)
    assert "pip install pandas" in message and "\n" not in message


def test_a_frame_with_pandas(lantern):
    pd = pytest.importorskip("pandas")
    rows = rb.simulate(lantern, games=3, agents="random")
    df = rb.to_frame(rows)
    assert isinstance(df, pd.DataFrame) and len(df) == 3 and "scores" in df.columns
    assert rb.simulate(lantern, games=3, agents="random", frame=True).equals(df)


def test_a_frame_from_a_stand_in_pandas(monkeypatch):
    # CI has no pandas: the call is checked against a stand-in
    class Frame:
        def __init__(self, rows):
            self.rows = rows

    monkeypatch.setitem(sys.modules, "pandas", type(sys)("pandas"))
    sys.modules["pandas"].DataFrame = Frame
    frame = rb.to_frame(iter([{"seed": 1}, {"seed": 2}]))
    assert frame.rows == [{"seed": 1}, {"seed": 2}]


# ------------------------------------------------------------------ the package
def test_the_api_is_at_the_top_of_the_package():
    for name in ("load_ruleset", "shipped_rulesets", "card_text", "new_game", "play_game",
                 "simulate", "to_frame", "Ruleset", "Game", "Decision", "Option", "Result",
                 "RulebookError", "GameError"):
        assert name in rb.__all__ and name in dir(rb)
        assert getattr(rb, name) is not None


def test_importing_the_package_loads_no_engine():
    code = ("import sys, rulebook_games as rb; rb.__all__; "
            "print([m for m in sys.modules if m.startswith('rulebook_games.')])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    loaded = eval(done.stdout)
    assert not [m for m in loaded if m.split(".")[1] in ("engine", "api", "play", "sim")]


# ------------------------------------------------------------------ the examples
def notebook_cells(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in data["cells"] if c["cell_type"] == "code"]


@pytest.mark.slow
def test_the_notebook_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__main__"}
    cells = notebook_cells(ROOT / "examples" / "api_tour.ipynb")
    assert len(cells) >= 8
    for i, source in enumerate(cells):
        exec(compile(source, f"api_tour.ipynb cell {i + 1}", "exec"), namespace)
    for game in [v for v in namespace.values() if isinstance(v, rb.Game)]:
        game.close()

