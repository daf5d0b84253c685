"""Numbers and stocks (issue 24, item 9): nothing the game keeps leaves its bounds.

Constants and negative ``lose``/``pay`` amounts pushed stocks past the 10^18
bound and past capacity while the log said "loses". The issue asks: negative
amounts are checker errors where they are written out (at the amount, a
declared constant included) and rule errors that name the amount where they
are worked out while the game runs; stocks never leave the bound. Each mod in
``tests/attacks/numbers/`` runs through the real command line in its own
process; then the runtime's own checks are tried directly on a game, for the
statements a mod of the small fixtures cannot reach (card resources, tracks, a
capacity beyond the bound).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents.base import RandomAgent
from rulebook_games.engine.game import Game
from rulebook_games.lang.runtime import MAX_INT, RuleRuntimeError

HERE = Path(__file__).parent
ROOT = HERE.parent
CASES = Path("tests") / "attacks" / "numbers"
TINY = "tests/fixtures/tiny"
LANTERN_FLOW = Path("rulesets") / "lantern_row" / "flow.yaml"
TIMEOUT = 60
PLAY = ("play", TINY, "--players", "2", "--agents", "random,random", "--seed", "1")
BOUND = "beyond the limit of 1,000,000,000,000,000,000 (10^18)"

# mod -> (command, exit code, what the output must say, the file it points into (None:
# the mod itself), the text at the line and column it points at)
EXPECTED = {
    "negative_lose": (("validate", TINY), 1,
                      "error[RB307]: 'lose' needs an amount of 0 or more, but this is -5",
                      None, "-5"),
    "negative_constant": (("validate", "lantern_row"), 1,
                          "error[RB307]: 'pay' needs an amount of 0 or more, but "
                          "'scout_price' is -3", LANTERN_FLOW, "scout_price"),
    "huge_constant": (("validate", "lantern_row"), 1,
                      "error[RB306]: the number 100000000000…(31 digits) is beyond the limit",
                      None, "1000000000000000000000000000000"),
    "negative_pay": (PLAY, 1, "error: cannot pay -5 gold: the amount is negative", None,
                     "pay cost_now gold"),
    "negative_production_loss": (PLAY, 1, "error: cannot lose -5 gold production: the amount "
                                 "is negative", None, "lose cut gold production"),
    "production_past_bound": (PLAY, 1, "gold production would be 2000000000000000000, "
                              + BOUND, None, "gain 1000000000000000000 gold production"),
    "start_past_bound": (PLAY, 1, "the number 100000000000…(31 digits) is beyond the limit",
                         None, "1000000000000000000000000000000"),
}


@pytest.fixture(scope="module")
def results():
    """Run every case at once, each in its own process; name -> (exit code, output)."""
    env = dict(os.environ, COLUMNS="400", NO_COLOR="1")
    env.pop("GITHUB_ACTIONS", None)
    names = [*EXPECTED, "negative_gain"]
    commands = {name: EXPECTED[name][0] if name in EXPECTED else PLAY for name in names}
    running = {name: subprocess.Popen(
        [sys.executable, "-m", "rulebook_games", *commands[name], "--mod",
         str(CASES / f"{name}.yaml")], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for name in names}
    out = {}
    for name, proc in running.items():
        try:
            text, _ = proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            text = proc.communicate()[0] + f"\n(still running after {TIMEOUT} s)"
        out[name] = (proc.returncode, text)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_amounts_and_numbers_out_of_bounds_are_positioned_errors(results, name):
    code, text = results[name]
    _, expected_code, message, where, pointed = EXPECTED[name]
    assert code == expected_code, text
    assert "Traceback" not in text and "internal error" not in text, text
    assert message in text, text
    path = where or CASES / f"{name}.yaml"
    found = re.search(re.escape(str(path)) + r":(\d+):(\d+): ", text)
    assert found, f"no position in {path}:\n{text}"
    line = (ROOT / path).read_text(encoding="utf-8").splitlines()[int(found.group(1)) - 1]
    # at the amount itself where it is written out; at the statement where it is worked out
    assert line[int(found.group(2)) - 1:].startswith(pointed), f"points at {line!r}:\n{text}"


def test_a_gain_worked_out_below_zero_is_a_loss_and_says_so(results):
    code, text = results["negative_gain"]
    assert code == 0, text
    # gold starts at 3; 'gain -2' twice for player 2 stops at the floor, 0
    assert "Player 1 (random): −2 gold (now 1)" in text, text
    assert "Player 2 (random): −2 gold (now 1)" in text, text
    assert "Player 2 (random): −1 gold (now 0)" in text, text
    assert "gains" not in text.split("— Round 1 —")[0], text


# ------------------------------------------------------- the runtime's own checks
@pytest.fixture(scope="module")
def tokens_ruleset(tmp_path_factory):
    """The tiny fixture, with tokens that cards can hold."""
    folder = tmp_path_factory.mktemp("tiny_tokens")
    for f in (HERE / "fixtures" / "tiny").iterdir():
        (folder / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    with open(folder / "components.yaml", "a", encoding="utf-8") as fh:
        fh.write("card_resources: [{id: token, name: token, plural: tokens}]\n")
    return load_ruleset(folder)


@pytest.fixture
def game(tokens_ruleset):
    return Game(tokens_ruleset, 2, 1, [RandomAgent(0), RandomAgent(1)])


def _a_card(game):
    return game.state.zones[("deck", -1)][0]


@pytest.mark.parametrize("verb", ["add", "remove", "move", "steal"])
def test_moving_a_negative_amount_of_resources_is_a_rule_error_naming_it(game, verb):
    g = game
    card = _a_card(g)
    source, dest = {"add": (None, card), "remove": (card, None), "move": (card, card),
                    "steal": (1, None)}[verb]
    resource = "gold" if verb == "steal" else "token"
    with pytest.raises(RuleRuntimeError) as info:
        g.transfer(verb, resource, -2, False, source, dest, 0)
    assert f"cannot {verb} -2 " in info.value.message
    assert "the amount is negative" in info.value.message


def test_a_card_never_holds_more_than_the_bound(game):
    g = game
    card = _a_card(g)
    g.transfer("add", "token", MAX_INT, False, None, card, 0)
    with pytest.raises(RuleRuntimeError) as info:
        g.transfer("add", "token", 1, False, None, card, 0)
    assert BOUND in info.value.message and "tokens on" in info.value.message
    assert g.resources_on(card, "token") == MAX_INT


def test_a_stock_never_passes_the_bound_even_where_the_room_does(game):
    g = game
    g.capacity = lambda player, resource: 10 ** 30  # room beyond the bound (a card field)
    g.change_stock(0, "gold", MAX_INT - g.stock(0, "gold"), "gain")  # up to the bound
    with pytest.raises(RuleRuntimeError) as info:
        g.change_stock(0, "gold", 1, "gain")
    assert BOUND in info.value.message and "gold" in info.value.message
    assert g.stock(0, "gold") == MAX_INT


@pytest.mark.parametrize("verb", ["gain", "lose", "pay"])
def test_an_amount_beyond_the_bound_is_a_rule_error_naming_it(game, verb):
    with pytest.raises(RuleRuntimeError) as info:
        game.change_stock(0, "gold", 10 ** 30, verb)
    assert info.value.message.startswith(f"cannot {verb} 100000000000…(31 digits) gold")


def test_a_track_is_never_set_beyond_the_bound(game):
    with pytest.raises(RuleRuntimeError) as info:
        game.set_track("fame", 10 ** 19, 0)
    assert "cannot set fame to 10000000000000000000" in info.value.message
    assert game.track("fame", 0) == 0
