"""Work-busting mods: the effect language ends every hostile rule within seconds.

The issue asks that nested repeat/for/count loops of 10,000 each, doubly
recursive procedures and repeated squaring all stop with a positioned rule
error naming the limit, never a hang, a memory blow-up or a traceback, and
that oversized literals and deep nesting are refused by ``validate``. Issue
24 (item 6) adds the work the budget did not count: reading a large deck in
a loop, putting 10,000 items in order, a game of endless decisions, turns or
work, loops with long bodies, and more cards than a game may hold. Each mod
in ``tests/attacks/budget/`` (or written here, when too big to keep as a
file) targets ``tests/fixtures/tiny`` and runs through the real command line
in its own process, all of them at once; every case must end (exit 1) well
within the timeout.

The audit after issue 24 found three more: an agent's lookahead played copies
of the game that nothing charged (greedy, play's default opponent, ran for
hours on a mod of 3,000 heavy actions), ``modifier()`` looked at every card
in play for one step, and ``log()`` cost one step whatever its size (one game
could print hundreds of gigabytes). A game whose rules are within every limit
but whose search is heavy ends within seconds (the agent answers with what
it found); text a rule logs is charged and bounded, the same in ``play`` and
``simulate``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_games.lang.runtime import (DECISION_STEPS, EFFECT_STEPS, GAME_STEPS, MAX_CALL_DEPTH,
                                      MAX_CARDS, MAX_DECISIONS)

HERE = Path(__file__).parent
ROOT = HERE.parent
CASES = Path("tests") / "attacks" / "budget"
TINY = "tests/fixtures/tiny"
TIMEOUT = 60  # CPU-seconds a case may use; each needs a few, most of it start-up
# The cases run all at once, beside the rest of the suite, so the limit is on each process's
# own CPU time (the kernel stops a process that passes it), not on the time on the clock; the
# clock only guards against a case that waits on nothing.
WALL = 20 * TIMEOUT


def _cpu_limited(seconds: int = TIMEOUT):
    """What the child runs before the command: stop it (SIGXCPU) once it has used ``seconds``
    CPU-seconds."""
    def limit() -> None:
        import resource
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
    return limit


def _ended(proc, limit: int) -> tuple[int | None, str]:
    """The exit code and output of a case, or None and why it did not end in time."""
    try:
        text, _ = proc.communicate(timeout=WALL)
    except subprocess.TimeoutExpired:
        proc.kill()
        return None, proc.communicate()[0] + f"\n(still running after {WALL} s on the clock)"
    if proc.returncode in (-24, -9):  # SIGXCPU, or SIGKILL at the hard limit
        return None, text + f"\n(stopped after {limit} CPU-seconds)"
    return proc.returncode, text
PLAY = ("play", TINY, "--players", "2", "--agents", "random,random", "--seed", "1")
PLAY_FIRST = ("play", TINY, "--players", "2", "--agents", "first,first", "--seed", "1")
SIMULATE = ("simulate", TINY, "-n", "1", "--players", "2", "--agents", "greedy")
VALIDATE = ("validate", TINY)

PER_EFFECT = f"this effect did more than {EFFECT_STEPS} steps (the limit per effect)"
PER_DECISION = (f"did more than {DECISION_STEPS} steps (the limit per decision)")
PER_GAME = f"the game did more than {GAME_STEPS:,} steps in all (the limit per game)"
DECISIONS = f"the game has asked more than {MAX_DECISIONS:,} decisions without ending " \
    "(the limit per game)"
CARDS = f"the ruleset's cards come to more than {MAX_CARDS:,} in one game"
NUMBER_BOUND = "beyond the limit of 1,000,000,000,000,000,000 (10^18)"
LOGGED = "the rules logged more than 1,000,000 characters in this game (the limit per game)"
LOG_LINE = 4000  # the longest log line shown, before the mark that says what was cut

# mod file -> (command, what the message must say, text on the line it points at)
EXPECTED = {
    "nested_repeat": (PLAY, PER_EFFECT, "repeat 10000:"),
    "nested_for": (PLAY, PER_EFFECT, "for k in range(1, 10000):"),
    "nested_count": (SIMULATE, PER_EFFECT, "count("),
    "double_recursion": (PLAY, PER_EFFECT, "fork(n - 1)"),
    "endless_recursion": (PLAY, f"calls nested deeper than {MAX_CALL_DEPTH}", "deeper(n + 1)"),
    "trigger_loop": (PLAY, f"effects nested deeper than {MAX_CALL_DEPTH}", "emit gadget_built"),
    "squaring": (PLAY, NUMBER_BOUND, "set x = x * x"),
    "doubling_list": (PLAY, PER_EFFECT, "concat(xs, xs)"),
    "endless_draw": (PLAY, PER_EFFECT, "draw(1000000000000000000"),
    "decision_budget": (PLAY, PER_DECISION, "if: \"count(i in range(1, 1000)"),
    "big_literal": (VALIDATE, "error[RB306]: the number 1000000000000000000000 is larger",
                    "1000000000000000000000"),
    # issue 24, item 6: work the budget did not count
    "deck_read_in_loop": (PLAY, PER_EFFECT, "all_cards_in(deck)"),
    "long_order": (PLAY, PER_EFFECT, "choose_order(range(1, 10000))"),
    "endless_decisions": (PLAY, DECISIONS, "count: 1000"),
    "endless_turns": (PLAY, PER_DECISION, "repeat: 1000000000"),
    "endless_work": (PLAY, PER_GAME, "repeat 1000:"),
    "endless_free_actions": (("play", TINY, "--players", "2", "--agents", "first,first",
                              "--seed", "1"),
                             "a turn went on for 500 actions past those it counts", "turns:"),
    "setup_needs_player": (VALIDATE, "error[RB304]: 'give' needs an acting player, but there "
                           "is none in setup", "value: give()"),
}


def _deep_mods(folder: Path) -> dict[str, Path]:
    """Deep nesting and a 5,000-digit number, too big to keep as readable files."""
    deep = 5000
    files = {
        "deep_parentheses": ("  - op: add\n    in: actions\n    value: {id: deep, do: \"let x = "
                             + "(" * deep + "1" + ")" * deep + "\"}\n"),
        "deep_negation": ("  - op: add\n    in: actions\n    value: {id: deep, do: \"let x = "
                          + "-" * deep + "1\"}\n"),
        "deep_yaml": ("  - op: add\n    in: actions\n    value: {id: deep, do: pass, name: "
                      + "[" * deep + "]" * deep + "}\n"),
        "long_yaml_number": ("  - op: add\n    in: actions\n    value: {id: deep, do: pass, "
                             "free: " + "9" * deep + "}\n"),
    }
    out = {}
    for name, change in files.items():
        path = folder / f"{name}.yaml"
        path.write_text(f"kind: mod\nid: {name}\ntarget: tiny\nchanges:\n{change}",
                        encoding="utf-8")
        out[name] = path
    return out


def _big_mods(folder: Path) -> dict[str, Path]:
    """A loop whose body is 1,000 statements long, 100 more cards of 100 copies each, and
    the audit's mods of 9,000 cards in play and of long log lines."""
    body = "".join("          let x = 1 + 2\n" for _ in range(1000))
    long_body = ("  - op: replace\n    in: flow\n    id: setup\n    value: |\n"
                 "      repeat 10000:\n        repeat 100:\n" + body)
    many_cards = "".join(f"  - {{op: add, in: cards, value: {{id: pebble{i}, name: Pebble {i}, "
                         "type: gadget, cost: 1, copies: 100}}\n" for i in range(1, 102))
    # 9,000 cards in play and 90,000 modifier() calls an action (the audit's F13: before,
    # each looked at every card in play, minutes an action)
    fillers = "".join(f"  - {{op: add, in: cards, value: {{id: filler{i}, name: Filler {i}, "
                      "type: gadget, copies: 100}}\n" for i in range(90))
    setup = ("  - op: replace\n    in: flow\n    id: setup\n    value: |\n"
             "      for p in players():\n          draw(4500, deck, tableau, p)\n")
    earn = "  - op: patch\n    in: actions\n    id: earn\n    value:\n      do: |\n"
    modifier_scan = (fillers + setup + earn + "        repeat 1000:\n            repeat 90:\n"
                     "                let m = modifier(price, you)\n")
    # cards moving between the calls (a shuffle of the nearly empty deck): the modifier
    # looks at every card in play again each time, a step each; and shuffling the 4,500
    # cards in play again and again, a step per card shuffled
    loop = earn + "        repeat 10000:\n            repeat 90:\n"
    modifier_moving = (fillers + setup + loop + "                shuffle(deck)\n"
                       "                let m = modifier(price, you)\n")
    shuffle_loop = fillers + setup + loop + "                shuffle(tableau)\n"
    # two 9,000-character lines logged 10,000 times an action (the audit's F12), and one
    log_flood = (earn + "        repeat 10000:\n"
                 f"            log(\"{'A' * 9000}\")\n            log(\"{'B' * 9000}\")\n"
                 "  - {op: patch, in: flow, id: rounds, value: {count: 40}}\n")
    long_line = earn + f"        log(\"{'x' * 9000}\")\n        gain 2 gold\n"
    out = {}
    for name, change in (("long_body", long_body), ("many_cards", many_cards),
                         ("modifier_scan", modifier_scan), ("modifier_moving", modifier_moving),
                         ("shuffle_loop", shuffle_loop), ("log_flood", log_flood),
                         ("log_long_line", long_line)):
        path = folder / f"{name}.yaml"
        path.write_text(f"kind: mod\nid: {name}\ntarget: tiny\nchanges:\n{change}",
                        encoding="utf-8")
        out[name] = path
    return out


# issue 24, item 6: without a step per statement, the loop runs a billion statements;
# without a limit on cards, the game holds 10,106 (10,000 cards take 2.4 GB at 100 times)
BIG_EXPECTED = {
    "long_body": (PLAY, PER_EFFECT, "repeat 100:"),
    "many_cards": (PLAY, CARDS, "id: pebble100,"),
    # the audit after issue 24 (F13): a modifier looks at every card in play, a shuffle at
    # every card it shuffles, a step each (before, each was one step: minutes an action)
    "modifier_moving": (PLAY_FIRST, PER_EFFECT, "let m = modifier(price, you)"),
    "shuffle_loop": (PLAY_FIRST, PER_EFFECT, "shuffle(tableau)"),
    # the audit after issue 24 (F12): the same error at the same log() in play and simulate
    "log_flood": (PLAY_FIRST, LOGGED, "log(\""),
    "log_flood@simulate": (("simulate", TINY, "-n", "1", "--players", "2", "--agents", "first"),
                           LOGGED, "log(\""),
}

# cases that must finish (exit 0) well within the timeout: name -> (mod, command)
FINISHING = {
    # the audit's F13: 90,000 modifier() calls over 9,000 cards in play, no card moving
    "modifier_scan": ("modifier_scan", ("simulate", TINY, "-n", "1", "--players", "2",
                                        "--agents", "first")),
    # the audit's F12: one long line, shown cut
    "log_long_line": ("log_long_line", PLAY_FIRST),
}


DEEP_EXPECTED = {
    "deep_parentheses": "error[RB300]: brackets nested too deeply",
    "deep_negation": "error[RB300]: effect nested too deeply",
    "deep_yaml": "error[RB104]",
    "long_yaml_number": "error[RB104]: malformed YAML: this number is too long to read",
}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """Run every case at once, each in its own process; name -> (exit code, output, path)."""
    env = dict(os.environ, COLUMNS="400", NO_COLOR="1")
    env.pop("GITHUB_ACTIONS", None)
    jobs = {}
    for name, (command, _, _) in EXPECTED.items():
        path = CASES / f"{name}.yaml"
        jobs[name] = (path, [*command, "--mod", str(path)])
    for name, path in _deep_mods(tmp_path_factory.mktemp("deep")).items():
        jobs[name] = (path, [*VALIDATE, "--mod", str(path)])
    big = _big_mods(tmp_path_factory.mktemp("big"))
    for name, (command, _, _) in BIG_EXPECTED.items():
        path = big[name.partition("@")[0]]
        jobs[name] = (path, [*command, "--mod", str(path)])
    for name, (mod, command) in FINISHING.items():
        jobs[name] = (big[mod], [*command, "--mod", str(big[mod])])
    running = {name: subprocess.Popen([sys.executable, "-m", "rulebook_games", *args], cwd=ROOT,
                                      env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True,
                                      preexec_fn=_cpu_limited())
               for name, (_, args) in jobs.items()}
    return {name: (*_ended(proc, TIMEOUT), jobs[name][0]) for name, proc in running.items()}


def _clean_failure(code, text):
    assert code == 1, text
    assert "Traceback" not in text and "internal error" not in text, text


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED) + sorted(BIG_EXPECTED))
def test_hostile_work_ends_with_a_positioned_error(results, name):
    code, text, path = results[name]
    _clean_failure(code, text)
    _, message, pointed = EXPECTED[name] if name in EXPECTED else BIG_EXPECTED[name]
    assert message in text, text
    found = re.search(re.escape(str(path)) + r":(\d+):(\d+): ", text)
    assert found, f"no position in {path}:\n{text}"
    line = path.read_text(encoding="utf-8").splitlines()[int(found.group(1)) - 1]
    assert pointed in line, f"points at {line!r}:\n{text}"


@pytest.mark.parametrize("name", sorted(DEEP_EXPECTED))
def test_deep_nesting_is_refused_by_validate(results, name):
    code, text, path = results[name]
    _clean_failure(code, text)
    assert DEEP_EXPECTED[name] in text, text
    assert re.search(re.escape(str(path)) + r":7:\d+: ", text), text


@pytest.mark.parametrize("name", sorted(FINISHING))
def test_heavy_but_bounded_work_finishes(results, name):
    code, text, _ = results[name]
    assert code == 0, text
    assert "Traceback" not in text and "internal error" not in text, text


def test_a_long_log_line_is_shown_cut_and_says_so(results):
    """(The terminal wraps long lines: the line is told by its characters and its mark.)"""
    _, text, _ = results["log_long_line"]
    cut = text.count("… (5,000 more characters cut)")
    assert cut == 8, text[-3000:]  # every 'Earn gold' of the game: 2 rounds, 2 seats, 2 each
    assert text.count("x") == cut * LOG_LINE


def test_a_log_flood_prints_little(results):
    """The game stops at its limit on logged text: ~1 MB printed at most, not gigabytes."""
    _, text, _ = results["log_flood"]
    assert len(text) < 1_200_000, len(text)
    cut = text.count("… (5,000 more characters cut)")
    assert cut and text.count("A") + text.count("B") == cut * LOG_LINE


# The audit's F11: the greedy agent (play's default opponent) on a mod whose every
# action is heavy. Before, the copies it played were charged to nothing: it ran for
# hours. These run after the cases above (they need the processor more), each must end
# well within the timeout, and the game is played to its end: the search stops at its
# allowance and the agent answers with what it found. (ismcts runs at most 200
# iterations, each bounded as a copy of the game is: its allowance per search, and
# every agent's per game, are tested below with smaller allowances.)
SEARCHING = {
    "greedy": ("simulate", TINY, "-n", "1", "--players", "2", "--agents", "greedy,random"),
    "play": ("play", TINY, "--players", "2", "--agents", "greedy,greedy", "--seed", "1"),
}


@pytest.fixture(scope="module")
def searching():
    env = dict(os.environ, COLUMNS="400", NO_COLOR="1")
    path = CASES / "search_heavy.yaml"
    running = {name: subprocess.Popen([sys.executable, "-m", "rulebook_games", *command,
                                       "--mod", str(path)], cwd=ROOT, env=env,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True,
                                      preexec_fn=_cpu_limited(TIMEOUT * 2))
               for name, command in SEARCHING.items()}
    return {name: _ended(proc, TIMEOUT * 2) for name, proc in running.items()}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SEARCHING))
def test_an_agent_search_on_heavy_actions_ends_within_its_allowance(searching, name):
    code, text = searching[name]
    assert code == 0, text[-3000:]
    assert "Traceback" not in text and "internal error" not in text, text[-3000:]


# The allowance per game of one seat's searches, lowered so the test takes seconds: an
# evaluation of some 300,000 steps makes every try of an action costly, in a game of a
# thousand rounds of cheap actions. Each search stays within its own allowance, but the
# seat's searches run out for the game: a positioned error at the rule the copy was
# running, naming the agent and the seat, instead of hours.
COSTLY_EVALUATION = """\
kind: mod
id: costly_evaluation
target: tiny
changes:
  - op: add
    in: flow
    id: evaluation
    value: "stock(gold) + sum(i in range(0, 300) : count(j in range(0, 300) where j > i))"
  - {op: replace, in: flow, id: rounds, value: {count: 1000}}
"""


@pytest.mark.parametrize("agent", ["greedy", "ismcts"])
def test_a_seat_out_of_lookahead_for_the_game_stops_it_at_the_costly_rule(
        tmp_path, monkeypatch, agent):
    from rulebook_games.agents import ismcts, lookahead
    from rulebook_games.load.ruleset import load_ruleset
    from rulebook_games.play.session import GameError, build_game, run
    monkeypatch.setattr(lookahead, "GREEDY_GAME_STEPS", 20_000_000)
    monkeypatch.setattr(ismcts, "ISMCTS_SEARCH_STEPS", 5_000_000)
    monkeypatch.setattr(ismcts, "ISMCTS_GAME_STEPS", 20_000_000)
    mod = tmp_path / "costly_evaluation.yaml"
    mod.write_text(COSTLY_EVALUATION, encoding="utf-8")
    game = build_game(load_ruleset(ROOT / TINY, [str(mod)]), 2, 1, ["random", agent])
    with pytest.raises(GameError) as info:
        run(game)
    assert info.value.message.startswith(
        f"the {agent} agent of player 2 looked ahead for more than 20,000,000 steps in this "
        "game (the limit per game for an agent's search)"), info.value.message
    span = info.value.span
    assert span is not None and Path(span.file).name == "costly_evaluation.yaml", span
    assert "sum(i in range(0, 300)" in mod.read_text().splitlines()[span.line - 1]
    assert 20_000_000 < game.budget.searched[1] < 30_000_000


def test_a_game_log_stops_at_its_limit_and_the_game_plays_the_same(monkeypatch):
    """The engine's own lines (a stock, a card) are bounded by what the log keeps: past
    it, one line says the log stops, and the game plays on as it does with no log."""
    from rulebook_games.engine import gamelog
    from rulebook_games.load.ruleset import load_ruleset
    from rulebook_games.play.session import build_game, run
    monkeypatch.setattr(gamelog, "MAX_LOG_KEPT", 600)
    rs = load_ruleset(ROOT / TINY)
    kept, printed = build_game(rs, 2, 5, ["random", "random"]), []
    kept.listeners.append(printed.append)
    quiet = build_game(rs, 2, 5, ["random", "random"])
    quiet.keep_log = False
    assert run(kept).final_hash == run(quiet).final_hash
    assert printed[-1].startswith("(the log stops here: it holds 600 characters")
    assert sum(map(len, printed[:-1])) < 600
    assert kept.log_lines[-1] == printed[-1] and quiet.log_lines == []


def test_an_ismcts_search_stops_at_its_allowance_and_answers(monkeypatch):
    """On the audit's heavy actions, with the allowance per search lowered to 4,000,000
    steps: each search stops within it (and a copy's last charge), the agent answers
    from the iterations it finished, and the game ends."""
    from rulebook_games.agents import ismcts
    from rulebook_games.load.ruleset import load_ruleset
    from rulebook_games.play.session import build_game, run
    monkeypatch.setattr(ismcts, "ISMCTS_SEARCH_STEPS", 4_000_000)
    rs = load_ruleset(ROOT / TINY, [str(ROOT / CASES / "search_heavy.yaml")])
    game = build_game(rs, 2, 1, ["ismcts", "random"])
    agent, searches = game.agents[0], []
    inner = agent.search

    def search(*args, **kwargs):
        before = game.budget.searched.get(0, 0)
        root = inner(*args, **kwargs)
        searches.append((game.budget.searched[0] - before, agent.last_iterations))
        return root
    monkeypatch.setattr(agent, "search", search)
    assert run(game).final_hash
    assert searches and all(4_000_000 < steps < 5_000_000 and iterations < 200
                            for steps, iterations in searches), searches
