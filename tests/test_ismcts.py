"""The ismcts agent, agent specs with parameters, and agents brought by users.

ismcts repeats its games for a seed and an iteration budget, finishes a game
of every shipped ruleset at every kind of player count (solo too), and
searches only determinisations: two games that differ only in what its seat
cannot see give it the very same search. Specs are checked with one-line
errors; a user's agent loads from ``MODULE:CLASS`` and from an entry point,
sees only the decision and its view, and a record naming one never makes
Rulebook import it.
"""

from __future__ import annotations

import json
import random
import sys
import textwrap
from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.cli import main
from rulebook_games.agents.specs import SpecError, build, check, check_recorded, parse
from rulebook_games.agents import make_agent
from rulebook_games.agents.ismcts import ISMCTSAgent
from rulebook_games.play.session import build_game, run
from rulebook_games.engine.state import NO_OWNER

ROOT = Path(__file__).resolve().parents[1]
RULESETS = sorted(p.parent.name for p in (ROOT / "rulesets").glob("*/ruleset.yaml"))
EXAMPLES = ROOT / "examples" / "agents"
SMALL = "ismcts:iterations=4:depth=1"


@pytest.fixture(scope="module")
def loaded():
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = load_ruleset(ROOT / "rulesets" / name)
        return cache[name]
    return get


def _play(rs, players, seed, kinds, variants=()):
    game = build_game(rs, players, seed, kinds, tuple(variants))
    game.keep_log = False
    return game, run(game)


# --------------------------------------------------------------- determinism

def test_the_same_seed_and_iterations_give_the_same_game(loaded):
    rs = loaded("legacy_gears_of_time")
    a_game, a = _play(rs, 2, 11, ["ismcts:iterations=6", "random"])
    b_game, b = _play(rs, 2, 11, ["ismcts:iterations=6", "random"])
    assert a_game.record == b_game.record and a.final_hash == b.final_hash
    _, c = _play(rs, 2, 11, ["ismcts:iterations=6:c=3", "random"])
    assert c.final_hash != a.final_hash  # the settings do reach the search


@pytest.mark.slow
def test_a_game_with_ismcts_replays_from_its_record(loaded, tmp_path, capsys):
    rs = loaded("timespan")
    game, result = _play(rs, 2, 5, [SMALL, "greedy"])
    from rulebook_games.play.session import make_record
    path = tmp_path / "game.json"
    make_record(game, rs, [SMALL, "greedy"], result, []).save(str(path))
    with pytest.raises(SystemExit) as info:
        main(["replay", str(path)])
    assert info.value.code == 0 and "final state matches" in capsys.readouterr().out


def _counts(rs):
    low, high = rs.min_players, rs.max_players
    return sorted({low, min(max(low, 2), high), high})


CASES = [(name, n, ()) for name in RULESETS
         for n in _counts(load_ruleset(ROOT / "rulesets" / name))]
CASES += [("terraforming_mars", 1, ("solo",)), ("timespan", 1, ("scenario_4",))]


@pytest.mark.parametrize("name, players, variants", CASES,
                         ids=[f"{c[0]}-{c[1]}{'-' + c[2][0] if c[2] else ''}" for c in CASES])
def test_ismcts_finishes_a_game(loaded, name, players, variants):
    rs = loaded(name)
    kinds = [SMALL] + ["random"] * (players - 1)
    game, result = _play(rs, players, 3, kinds, variants)
    assert result.decisions == len(game.record) > 0
    assert len(result.scores) == players
    searcher = game.agents[0]
    assert isinstance(searcher, ISMCTSAgent) and searcher.last_iterations == 4


# ----------------------------------------------------- the root is a world

class _Stop(Exception):
    pass


class _StopAt:
    """Plays at random and stops the game at seat 0's n-th choice of action."""

    wants_view = False
    scripted = False

    def __init__(self, n):
        self.n, self.rng, self.caught = n, random.Random(1), None

    def decide(self, decision, view, game):
        if decision.player == 0 and decision.kind == "action":
            self.n -= 1
            if self.n == 0:
                self.caught = decision
                raise _Stop
        return self.rng.randrange(decision.count()) + (decision.low or 0) \
            if decision.is_range else self.rng.randrange(len(decision.options))


def _paused(rs, players, seed, n):
    from rulebook_games.play.session import new_game
    stopper = _StopAt(n)
    game = new_game(rs, players, seed, [stopper] * players, (), None)
    from rulebook_games.engine.flow import FlowRunner
    with pytest.raises(_Stop):
        FlowRunner(game).play()
    return game, stopper.caught


def _hidden_twin(game, seat, seed):
    """The same game with the cards ``seat`` cannot see dealt again, and a new random source."""
    clone = game.__copy__()
    clone.state = st = game.state.clone()
    rng = random.Random(seed)
    moved = False
    groups = {}
    for key in st.zones:
        if game.visible_to(key[0], key[1], seat) == "count":
            groups.setdefault(key[0], []).append(key)
    for keys in groups.values():
        pool = [c for k in keys for c in st.zones[k]]
        before = list(pool)
        rng.shuffle(pool)
        moved |= pool != before
        i = 0
        for zone, owner in keys:
            size = len(st.zones[(zone, owner)])
            st.zones[(zone, owner)] = pool[i:i + size]
            for c in st.zones[(zone, owner)]:
                card = st.card_w(c)
                card.zone, card.zone_owner = zone, owner
                if owner != NO_OWNER:
                    card.owner = owner
            i += size
    st.rng = random.Random(seed)
    return clone, moved


def _tree(root, depth=2):
    out = []
    for key, child in sorted(root.children.items()):
        out.append((key, child.visits, child.avail, round(child.total, 9)))
        if depth > 1:
            out.extend(_tree(child, depth - 1))
    return out


@pytest.mark.parametrize("name, players", [("legacy_gears_of_time", 2),
                                           ("terraforming_mars", 2), ("timespan", 3)])
def test_the_search_sees_only_what_its_seat_may_see(loaded, name, players):
    rs = loaded(name)
    checked = 0
    for n in (2, 5):
        game, decision = _paused(rs, players, 7, n)
        twin, moved = _hidden_twin(game, 0, 99 + n)
        assert twin.view(0) == game.view(0)
        checked += moved
        trees, answers = [], []
        for world in (game, twin):
            agent = ISMCTSAgent(123, iterations=12)
            answers.append(agent.decide(decision, None, world))
            root = agent.search(world, decision)  # a second search, from the same agent state
            trees.append(_tree(root))
        assert answers[0] == answers[1] and trees[0] == trees[1]
        assert trees[0]  # the search did explore
    assert checked  # at least one pair really differed in its hidden cards


def test_a_peeking_search_would_be_caught(loaded):
    """The pair above tells a search that reads the true state from one that does not."""
    import rulebook_games.agents.lookahead as lookahead
    rs = loaded("legacy_gears_of_time")
    game, decision = _paused(rs, 2, 7, 2)
    twin, moved = _hidden_twin(game, 0, 101)
    assert moved
    real = lookahead.determinise

    def peeking(g, seat, rng, *search):  # the true state itself, hidden cards and all
        world = real(g, seat, rng, *search)
        world.state = g.state.clone()
        return world
    trees = []
    lookahead.determinise = peeking
    try:
        for world in (game, twin):
            trees.append(_tree(ISMCTSAgent(123, iterations=12).search(world, decision), 3))
    finally:
        lookahead.determinise = real
    assert trees[0] != trees[1]


# -------------------------------------------------------------------- specs

@pytest.mark.parametrize("spec, words", [
    ("ismtcs", "unknown agent 'ismtcs'; did you mean 'ismcts'?"),
    ("ismcts:iteration=40", "has no parameter 'iteration'; did you mean 'iterations'?"),
    ("ismcts:iterations=lots", "iterations must be a whole number, not 'lots'"),
    ("ismcts:iterations=0", "iterations must be at least 1"),
    ("ismcts:seconds=-1", "seconds must be at least"),
    ("ismcts:playout=clever", "playout is one of random, greedy-lite, not 'clever'"),
    ("ismcts:iterations=5:seconds=1", "give iterations or seconds, not both"),
    ("ismcts:depth", "parameter 'depth' must read KEY=VALUE"),
    ("ismcts:depth=1:depth=2", "parameter 'depth' is given twice"),
    ("greedy:rollouts=2.5", "rollouts must be a whole number"),
    ("random:speed=3", "agent 'random' has no parameter 'speed' (it takes none)"),
    ("no_such_module_xyz:Agent", "no module named 'no_such_module_xyz'"),
    ("json:Nothing", "module 'json' has no 'Nothing'"),
    ("json:JSONDecoder", "is not an agent: it needs a decide(decision, view) method"),
    ("a:b:c", "is not an agent spec"),
])
def test_a_bad_spec_is_one_clear_line(spec, words):
    with pytest.raises(SpecError) as info:
        check(spec)
    message = str(info.value)
    assert words in message and "\n" not in message


def test_parameters_reach_the_agent():
    agent = make_agent("ismcts:iterations=7:playout=greedy-lite:depth=0:c=1.5:reward=own", 1)
    assert (agent.iterations, agent.playout, agent.depth, agent.c, agent.reward) == \
        (7, "greedy-lite", 0, 1.5, "own")
    timed = make_agent("ismcts:seconds=0.5", 1)
    assert timed.iterations is None and timed.seconds == 0.5
    assert make_agent("greedy:rollouts=5", 1).rollouts == 5
    assert parse("ismcts").params == {} and make_agent("ismcts", 1).iterations == 200


def test_the_command_line_refuses_a_bad_spec_before_playing(capsys):
    with pytest.raises(SystemExit) as info:
        main(["simulate", "legacy_gears_of_time", "-n", "1", "-p", "2",
              "--agents", "ismcts:iteratons=4,greedy"])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert "--agents: agent 'ismcts' has no parameter 'iteratons'; did you mean 'iterations'?" \
        in err and "Traceback" not in err


def test_help_documents_the_specs(capsys):
    for command in ("play", "simulate"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "ismcts:iterations=400,greedy" in out and "MODULE:CLASS" in out


# ------------------------------------------------------------ users' agents

def test_a_python_agent_loads_from_module_and_class(loaded, monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES))
    rs = loaded("legacy_gears_of_time")
    spec = "first_option:FirstOption:prefer=last"
    check(spec)
    game, result = _play(rs, 2, 4, [spec, "random"])
    agent = game.agents[0]
    assert agent.name == spec and type(agent.inner).__name__ == "FirstOption"
    assert agent.inner.last
    assert result.decisions > 0 and game.record
    # it got the seat's view and nothing more, and always took the last option
    seen = []
    inner_decide = type(agent.inner).decide

    def spy(self, decision, view):
        seen.append((decision.player, view))
        answer = inner_decide(self, decision, view)
        assert answer == (decision.high if decision.is_range else len(decision.options) - 1)
        return answer
    monkeypatch.setattr(type(agent.inner), "decide", spy)
    game, _ = _play(rs, 2, 4, [spec, "random"])
    assert seen and all(view == view and view["you"] == seat == 0 for seat, view in seen)
    assert all(set(view) >= {"zones", "players", "you"} for _, view in seen)


def _install_entry_point(folder: Path) -> None:
    (folder / "my_rulebook_agents.py").write_text(
        (EXAMPLES / "first_option.py").read_text(encoding="utf-8"), encoding="utf-8")
    info = folder / "my_rulebook_agents-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-rulebook-agents\n"
                                   "Version: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[rulebook.agents]\nfirst-option = my_rulebook_agents:FirstOption\n", encoding="utf-8")


def test_an_installed_agent_loads_from_its_entry_point(loaded, tmp_path, monkeypatch, capsys):
    _install_entry_point(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    from rulebook_games.agents.specs import known_names
    assert "first-option" in known_names()
    agent = build("first-option:prefer=last", 3, {})
    assert type(agent.inner).__module__ == "my_rulebook_agents" and agent.inner.last
    with pytest.raises(SpecError, match="has no parameter 'colour'"):
        check("first-option:colour=red")
    with pytest.raises(SystemExit) as info:
        main(["simulate", "timespan", "-n", "2", "-p", "2", "--agents", "first-option,random",
              "--no-check"])
    out = capsys.readouterr().out
    assert info.value.code == 0 and "first-option" in out


def test_a_faulty_agent_stops_the_game_with_one_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "faulty_agent.py").write_text(textwrap.dedent("""
        class Wrong:
            def __init__(self, rng):
                pass
            def decide(self, decision, view):
                return 10 ** 6
    """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(SystemExit) as info:
        main(["play", "legacy_gears_of_time", "-p", "2", "--seed", "2", "--agents",
              "faulty_agent:Wrong,random", "--save", str(tmp_path / "g.json")])
    out = capsys.readouterr().out
    assert info.value.code == 1
    line = next(x for x in out.splitlines() if "error" in x)
    assert "agent 'faulty_agent:Wrong' at decision 1" in line and "answered 1000000" in line


def test_a_record_never_makes_rulebook_import_a_module(tmp_path, capsys, monkeypatch):
    marker = tmp_path / "imported"
    (tmp_path / "record_named_agent.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n"
        "class Agent:\n    def __init__(self, rng):\n        pass\n"
        "    def decide(self, decision, view):\n        return 0\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "game.json"
    with pytest.raises(SystemExit) as info:
        main(["play", "legacy_gears_of_time", "-p", "2", "--seed", "3", "--agents",
              "random", "--save", str(path)])
    assert info.value.code == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    data["agents"] = ["record_named_agent:Agent", "random"]
    path.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:  # replaying builds no agents at all
        main(["replay", str(path)])
    assert info.value.code == 0 and "final state matches" in capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        main(["play", "legacy_gears_of_time", "--resume", str(path)])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert "seat 1 of the record was played by 'record_named_agent:Agent'" in err
    assert "--agents" in err and not marker.exists()
    assert "record_named_agent" not in sys.modules


def test_a_record_reads_agent_specs_as_text():
    assert check_recorded("ismcts:iterations=400") is None
    assert check_recorded("some_module:SomeAgent") is None  # text only: nothing imported
    assert "some_module" not in sys.modules
    assert "is not an agent" in check_recorded("robot")
    assert "is not a usable agent spec" in check_recorded("ismcts:iterations=zero")


def test_a_time_budget_searches_at_least_once(loaded):
    game, decision = _paused(loaded("legacy_gears_of_time"), 2, 7, 2)
    agent = make_agent("ismcts:seconds=0.001", 5)
    answer = agent.decide(decision, None, game)
    assert decision.check(answer) is None and agent.last_iterations >= 1


# ------------------------------------------------- beyond the seat's turn

class _Watcher:
    """Plays at random and notes where each turn says the flow goes on after it."""

    wants_view = False
    scripted = False

    def __init__(self, seed):
        self.rng, self.seen = random.Random(seed), []

    def decide(self, decision, view, game):
        if decision.kind == "action":
            self.seen.append(game.after_turn)
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))


@pytest.mark.parametrize("name, players", [("legacy_gears_of_time", 3),
                                           ("terraforming_mars", 2), ("timespan", 2),
                                           ("lantern_row", 2)])
def test_a_turn_knows_where_the_flow_goes_on_after_it(loaded, name, players):
    """The place a search plays a copy on from is where the flow itself goes on.

    The game is stopped at the end of every turn and picked up again from the
    place the flow gives there; every choice of action made during that turn
    must have named the same place (or none, in a simultaneous phase), and the
    game pieced together turn by turn ends as the same game played straight."""
    from rulebook_games.engine.flow import FlowRunner, StopFlow
    from rulebook_games.play.session import new_game
    rs = loaded(name)
    straight = new_game(rs, players, 5, [_Watcher(9)] * players, (), None)
    whole = FlowRunner(straight).play()
    watcher = _Watcher(9)
    game = new_game(rs, players, 5, [watcher] * players, (), None)
    runner = FlowRunner(game)
    runner.stop_at = lambda kind, _name: kind == "turn"
    cursor, turns, asked = None, 0, 0
    while True:
        try:
            result = runner.play(cursor)
            break
        except StopFlow as stop:
            cursor, turns = stop.cursor, turns + 1
            expected = stop.cursor if stop.cursor.stage == "turns" else None
            assert all(c == expected for c in watcher.seen), (turns, watcher.seen, stop.cursor)
            asked += bool(watcher.seen)  # (a seat with nothing to do is not asked)
            watcher.seen = []
    assert asked > 5
    assert result.final_hash == whole.final_hash and result.scores == whole.scores


def test_a_search_with_turns_plays_the_other_seats_replies(loaded, monkeypatch):
    """With ``turns`` the copies are played past the seat's turn: other seats answer
    in them, and the search's choices differ from a search that stops at its turn."""
    from rulebook_games.agents import ismcts
    movers = []
    real = ismcts._Walker.decide

    def noting(self, decision, view, game):
        movers.append((self.search.agent.turns, decision.player))
        return real(self, decision, view, game)
    monkeypatch.setattr(ismcts._Walker, "decide", noting)
    rs = loaded("legacy_gears_of_time")
    _play(rs, 2, 4, ["ismcts:iterations=5:turns=2", "random"])
    assert any(player == 1 for turns, player in movers if turns == 2)
    movers.clear()
    _play(rs, 2, 4, ["ismcts:iterations=5", "random"])
    assert movers and {player for _, player in movers} == {0}


def test_a_choice_inside_an_action_taken_without_asking_is_searched(loaded):
    """A choice inside an action nobody chose (the only one there was) is searched
    from the action's start, not answered at random; ``inner=random`` keeps it random."""
    from rulebook_games.engine.decisions import Decision
    rs = loaded("terraforming_mars")  # its research phase offers only 'buy research cards'
    searched = {}
    for inner in ("search", "random"):
        sets = "rank" if inner == "search" else "pick"  # (a set is weighed as a set else)
        agent = make_agent(f"ismcts:iterations=6:inner={inner}:sets={sets}", 3)
        seen = []
        real = agent.decide

        def decide(decision: Decision, view, game, real=real, agent=agent, seen=seen):
            before = agent.last_iterations = 0
            answer = real(decision, view, game)
            if game.state.phase == "research" and game.action_start is not None:
                seen.append(agent.last_iterations != before)
            return answer
        agent.decide = decide
        game = build_game(rs, 2, 3, ["random", "random"], ())
        game.agents[0] = agent
        game.keep_log = False
        from rulebook_games.engine.flow import FlowRunner
        runner = FlowRunner(game)
        runner.stop_at = lambda kind, name: kind == "round" and name >= 3
        from rulebook_games.engine.flow import StopFlow
        with pytest.raises(StopFlow):
            runner.play()
        searched[inner] = seen
    assert searched["search"] and any(searched["search"])
    assert searched["random"] and not any(searched["random"])


# ------------------------------------------------------------------- backup

def _backed_up(mode: str):
    """A tree where the seat's action leads to its own choice of a good or a poor
    answer (tried once and three times), and another action leads to another
    seat's choice of the same two answers."""
    from rulebook_games.agents.ismcts import Node, Search
    search = Search(ISMCTSAgent(seed=1, backup=mode), 2)
    root, mine, theirs = Node(), Node(), Node()
    root.children = {"0|action|a": mine, "0|action|b": theirs}
    good, poor, their_good, their_poor = Node(), Node(), Node(), Node()
    mine.children = {"0|option|good": good, "0|option|poor": poor}
    theirs.children = {"1|option|good": their_good, "1|option|poor": their_poor}
    for child, reward in ((good, 10.0), (poor, 0.0), (poor, 0.0), (poor, 0.0)):
        search.backup([(0, mine), (0, child)], [reward, -reward])
    for child, reward in ((their_good, 10.0), (their_poor, 0.0), (their_poor, 0.0),
                          (their_poor, 0.0)):
        search.backup([(0, theirs), (1, child)], [reward, -reward])
    return mine, theirs


def test_with_max_backup_an_action_is_worth_the_best_of_its_own_choices():
    mine, theirs = _backed_up("max")
    # the seat makes its own next choice: the action is worth its best answer
    assert mine.value == 10.0 and mine.visits == 4
    # another seat answers next: what that seat will do is not the seat's to pick
    assert theirs.value == 2.5


def test_with_max_backup_another_seats_answers_are_never_the_best_option():
    from rulebook_games.agents.ismcts import Node, Search
    search = Search(ISMCTSAgent(seed=1, backup="max"), 2)
    mine, own, other = Node(), Node(), Node()
    mine.children = {"0|option|own": own, "1|option|other": other}
    # in most worlds the seat answers next; in one, the other seat did (and did well)
    for _ in range(3):
        search.backup([(0, mine), (0, own)], [2.0, -2.0])
    search.backup([(0, mine), (1, other)], [-8.0, 8.0])
    search.backup([(0, mine), (0, own)], [2.0, -2.0])
    # the other seat's 8 is its own reward, not the seat's: the best of its own is 2
    assert mine.value == 2.0


def test_with_mean_backup_an_action_is_worth_the_average_of_its_tries():
    mine, theirs = _backed_up("mean")
    assert mine.value == 2.5 and theirs.value == 2.5


def test_an_option_that_fails_is_worth_less_than_any_carried_out():
    from rulebook_games.agents.ismcts import Node, Search
    search = Search(ISMCTSAgent(seed=1), 2)
    ok, poor, failing = Node(), Node(), Node()
    search.backup([(0, ok)], [10.0, -10.0])
    search.backup([(0, poor)], [0.0, 0.0])
    search.backup([(0, failing)], None)  # the rules refused it in this copy
    assert failing.value < poor.value < ok.value


def test_an_action_the_real_game_refuses_is_not_chosen_again_there(tmp_path):
    # the search may believe an action works that the real game refuses (what the
    # seat cannot see decides it); asked again at the same point, the agent
    # chooses something else, and may try it again once the position has changed
    from rulebook_games.engine.decisions import Decision, Option
    from rulebook_games.engine.flow import FlowRunner
    from rulebook_games.engine.game import Game
    from rulebook_games.agents.ismcts import Node
    tiny = ROOT / "tests" / "fixtures" / "tiny"
    rs = load_ruleset(tiny)
    game = Game(rs, 2, 1, [])
    choices = FlowRunner(game).available("work", 0, {"card_actions": False}, True)
    choices.pop("__refused__")
    opts = [Option(c.label, c, c.key) for c in choices.values()]
    decision = Decision(0, "action", "choose an action", opts)
    keys = [o.key for o in opts]
    root = Node()
    for rank, key in enumerate(keys):  # the search likes the first option best
        child = root.children[f"0|action|{key}"] = Node()
        child.visits, child.total = 10 - rank, 0.0
    agent = ISMCTSAgent(seed=1)
    agent.search = lambda game, decision, inside=None: root
    assert agent.decide(decision, None, game) == 0
    agent.action_failed(opts[0].label, "refused")
    assert agent.decide(decision, None, game) == 1
    agent.action_failed(opts[1].label, "refused")
    assert agent.decide(decision, None, game) == 2
    game.state.players[0].stock["gold"] = 5  # the position changes
    assert agent.decide(decision, None, game) == 0


# ------------------------------------------------------------------- sets

TINY = Path(__file__).parent / "fixtures" / "tiny"

# keep any of the cards in hand at 1 gold each; keeping all three of them pays 6 gold: each
# card alone loses, the whole set wins
KEEP_ALL = """  - id: keep
    name: Keep some
    do: |
      let kept = choose_some(cards_in(hand), 3)
      for k in kept:
        put(k, tableau)
        pay 1 gold
      if size(cards_in(tableau)) == 3:
        gain 6 gold
"""


def _keep_all(tmp_path, agent):
    """One seat keeps a set of its hand of 3 with ``agent``: the cards it kept."""
    import shutil
    from rulebook_games.engine.flow import FlowRunner
    from rulebook_games.engine.game import Game
    work = tmp_path / "tiny"
    shutil.copytree(TINY, work)
    flow = work / "flow.yaml"
    text = flow.read_text().replace("actions:\n  - id: earn\n",
                                    "actions:\n" + KEEP_ALL + "  - id: earn\n")
    flow.write_text(text.replace("draw(2, deck, hand, p)", "draw(3, deck, hand, p)"))
    rs = load_ruleset(work)
    game = Game(rs, 1, 1, [agent])
    game.keep_log = False
    game.state.phase = "setup"
    game.run_code(("flow", "setup"), game.frame(None))  # the hand is dealt
    game.state.round = 1
    runner = FlowRunner(game)
    choice = runner.available("work", 0, {"card_actions": False}, True)["action:keep"]
    assert runner.perform(choice, 0)
    return game.state.zones[("tableau", 0)]


def test_a_set_is_weighed_as_a_set_not_one_item_at_a_time(tmp_path):
    """Each card kept alone costs 1 gold; the three together bring 6 more: the best set
    is all three, though no single pick looks good on its own (the brief of issue 29:
    candidate sets ranked by what they come to, not independent yes/no)."""
    kept = _keep_all(tmp_path, ISMCTSAgent(5, iterations=40))
    assert len(kept) == 3


def test_a_set_is_picked_the_same_for_the_same_seed(tmp_path):
    runs = [_keep_all(tmp_path / str(i), ISMCTSAgent(9, iterations=40)) for i in range(2)]
    assert runs[0] == runs[1]


# ------------------------------------------------------------------ priors

def _first_picks(prior: str, seed: int) -> list[str]:
    """A new node's first three picks among 12 spaces, after the same action elsewhere in
    the search found s7 best, s4 fair and s2 poor."""
    from rulebook_games.agents.ismcts import Node, Search
    search = Search(ISMCTSAgent(seed=seed, prior=prior), 2)
    action = "0|action|action:play"
    spaces = [f"0|item|s{i}" for i in range(12)]
    for key, reward in (("s7", 9.0), ("s2", -9.0), ("s4", 1.0)):
        search.backup([(0, Node(), action), (0, Node(), f"{action}>0|item|{key}")],
                      [reward, -reward])
    node, picks = Node(), []
    for _ in range(3):  # the node's first visits: each time an option not tried yet
        key = spaces[search.select(node, spaces, action)]
        picks.append(key.rsplit("|", 1)[1])
        node.visits += 1
        node.children[key].visits += 1
    return picks


def test_a_long_list_is_widened_most_promising_first():
    """Of many options, a new node first lets in (and tries) the one that was worth most
    in the same action elsewhere in the search; an option never taken counts as the
    average of those that were, so the poor one comes after them."""
    for seed in range(6):
        picks = _first_picks("history", seed)
        assert picks[:2] == ["s7", "s4"] and "s2" not in picks
    # without the prior the order is drawn at random
    assert len({_first_picks("none", seed)[0] for seed in range(6)}) > 1
