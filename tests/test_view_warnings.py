"""Warnings a player must not miss, and log lines that name what they score (issue 26).

Expectations from the issue and the rules:
- Lantern Row: "The festival ends at the end of the hour in which a stall holds
  six lanterns, or the row is left empty, and after the twelfth hour at the
  latest" (README). A player must see before it happens that the game is about
  to end, so no one ends with a paid lantern in hand by surprise: a view fact
  with ``when:`` is shown only while its condition holds, on the screen before
  every decision and with the table.
- Legacy: "Technologies without cubes are discarded" when the timeline is
  clarified (phase II): the player is warned while there is still time to put a
  cube on one. Each line of the log that scores or discards a technology names
  it; a turn counter says which of the round's four turns it is.
- ``log`` fills each {} of its message with a value in words, never naming a
  card some seat may not see.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from rulebook_games.agents import Agent
from rulebook_games.errors import RulebookError
from rulebook_games.load.ruleset import load_ruleset
from rulebook_games.play.render import render_view, status_lines, warning_lines
from rulebook_games.play.session import build_game, run

ROOT = Path(__file__).resolve().parents[1]


class Looking(Agent):
    """A random player that calls ``look(game, seat)`` before every answer."""

    wants_view = False

    def __init__(self, seed: int, look):
        self.rng = random.Random(seed)
        self.look = look

    def decide(self, decision, view, game):
        self.look(game, decision.player)
        if decision.is_range:
            return self.rng.randint(decision.low, decision.high)
        return self.rng.randrange(len(decision.options))


def _labels(game, seat) -> set[str]:
    return {f["label"] for f in game.view_warnings(seat)}


def _lantern_end(game, lanterns: int, hours: int) -> tuple[bool, bool, bool]:
    """From the README's end rule: (this hour is the last, the next is, a stall is one
    lantern short), each read off the position."""
    st = game.state
    stalls = [len(st.zones[("stall", p)]) for p in range(game.n)]
    last = st.round >= hours or max(stalls) >= lanterns or not st.zones[("row", -1)]
    return last, not last and st.round == hours - 1, \
        not last and any(n == lanterns - 1 for n in stalls)


@pytest.mark.parametrize("mods,lanterns,hours", [
    ([], 6, 12), (["rulesets/lantern_row/mods/long_festival.yaml"], 8, 16)])
def test_lantern_row_warns_while_the_hour_is_the_last_and_before(mods, lanterns, hours):
    rs = load_ruleset("lantern_row", mods=[str(ROOT / m) for m in mods])
    seen = {"Last hour": 0, "The next hour is the last": 0, "One lantern from the end": 0}

    def look(game, seat):
        if game.action_start is not None:
            return  # (inside an action: the warnings of the position it started from)
        last, next_last, one_short = _lantern_end(game, lanterns, hours)
        labels = _labels(game, seat)
        assert ("Last hour" in labels) == last
        assert ("The next hour is the last" in labels) == next_last
        assert ("One lantern from the end" in labels) == one_short
        for label in labels:
            seen[label] += 1
    for seed in range(1, 13):
        game = build_game(rs, 2, seed, ["random"] * 2,
                          live_agents=[Looking(seed * 7 + i, look) for i in range(2)])
        run(game)
    assert seen["Last hour"] and seen["One lantern from the end"], seen
    # random games end early (the row runs out): the hours near the cap, set directly
    # at the first decision of a game (the row laid out, the stalls empty)
    checked = []

    def near_the_cap(game, seat):
        if checked:
            return
        real = game.state.round
        for hour, want in ((hours - 2, set()), (hours - 1, {"The next hour is the last"}),
                           (hours, {"Last hour"})):
            game.state.round = hour
            assert _labels(game, seat) == want
        game.state.round = real
        checked.append(True)
    run(build_game(rs, 2, 1, ["random"] * 2,
                   live_agents=[Looking(1, near_the_cap), Looking(2, near_the_cap)]))
    assert checked


def test_the_last_hour_is_on_the_screen_and_on_the_board():
    rs = load_ruleset("lantern_row")
    shown = []

    def look(game, seat):
        if _lantern_end(game, 6, 12)[0] and not shown:
            lines = [t.plain for t in warning_lines(game, seat)]
            assert lines and lines[0].startswith("! Last hour: the festival ends when this "
                                                 "hour is over")
            # on a narrow terminal the warning goes on over more lines, each inside the
            # width and indented under its first word, with no word lost or cut
            narrow = [t.plain for t in warning_lines(game, seat, 40)]
            assert len(narrow) > 1 and narrow[0].startswith("! Last hour:")
            assert all(len(x) <= 40 for x in narrow)
            assert all(x.startswith("  ") and not x.startswith("   ") for x in narrow[1:])
            assert " ".join(x[2:] for x in narrow).split() == " ".join(
                x[2:] for x in lines).split()
            from rich.console import Console
            console = Console(width=80, record=True, file=open("/dev/null", "w"))
            console.print(render_view(game.view_model(seat), game, ("board",)))
            assert "! Last hour" in console.export_text()
            shown.append(game.state.round)
    game = build_game(rs, 2, 3, ["random"] * 2,
                      live_agents=[Looking(5, look), Looking(6, look)])
    run(game)
    assert shown


def test_one_lantern_from_the_end_names_whose_stall():
    rs = load_ruleset("lantern_row")
    named = []

    def look(game, seat):
        for fact in game.view_warnings(seat):
            if fact["label"] == "One lantern from the end":
                short = [game.state.players[p].name for p in range(game.n)
                         if len(game.state.zones[("stall", p)]) == 5]
                assert fact["value"] == " and ".join(short)
                named.append(fact["value"])
    for seed in range(1, 6):
        run(build_game(rs, 2, seed, ["random"] * 2,
                       live_agents=[Looking(seed + i, look) for i in range(2)]))
    assert named


def _view_mod(tmp_path: Path, facts: str) -> str:
    path = tmp_path / "warn.yaml"
    path.write_text("kind: mod\nid: warn\ntarget: lantern_row\nchanges:\n"
                    "  - {op: replace, in: flow, id: view, value: {facts: " + facts + "}}\n",
                    encoding="utf-8")
    return str(path)


def test_a_warning_condition_is_a_truth_value(tmp_path):
    with pytest.raises(RulebookError) as err:
        load_ruleset("lantern_row", mods=[_view_mod(tmp_path, '[{label: Soon, when: "3"}]')])
    assert any(d.code == "RB302" and d.span.file.endswith("warn.yaml")
               for d in err.value.diagnostics)


def test_a_warning_may_not_read_a_hidden_hand(tmp_path):
    mod = _view_mod(tmp_path, '[{label: Rich, when: "size(filter(c in cards_in(hand, '
                              'player(2)) where c.cost > 3)) > 0"}]')
    with pytest.raises(RulebookError) as err:
        load_ruleset("lantern_row", mods=[mod])
    assert any(d.code == "RB406" for d in err.value.diagnostics)


def test_last_round_is_the_count_or_the_cap():
    legacy = build_game(load_ruleset("legacy_gears_of_time"), 3, 4, ["greedy"] * 3)
    assert legacy.last_round() == 4
    lantern = build_game(load_ruleset("lantern_row"), 2, 1, ["random"] * 2)
    assert lantern.last_round() == 12
    longer = load_ruleset("lantern_row",
                          mods=[str(ROOT / "rulesets/lantern_row/mods/long_festival.yaml")])
    assert build_game(longer, 2, 1, ["random"] * 2).last_round() == 16


# ------------------------------------------------------------------- Legacy
def _legacy(seed: int = 4, look=None):
    rs = load_ruleset("legacy_gears_of_time")
    agents = None if look is None else [Looking(seed * 3 + i, look) for i in range(3)]
    game = build_game(rs, 3, seed, ["random"] * 3, live_agents=agents)
    game.keep_log = True
    return game


@pytest.mark.slow
def test_legacy_warns_of_every_technology_the_clarification_will_discard():
    seen = []
    before = {}

    def look(game, seat):
        if game.action_start is not None:
            # inside an action (a technology placed, its cubes still to come) the screen
            # keeps the warnings of the position the action started from
            assert game.view_warnings(seat) == before[seat]
            return
        before[seat] = game.view_warnings(seat)
        cubeless = [game.card_name(c) for z in range(1, 11)
                    for c in game.state.zones[(f"frame_{z}", -1)]
                    if not any(game.state.cards[c].pieces.values())
                    and "secured" not in game.state.cards[c].markers]
        facts = {f["label"]: f for f in game.view_warnings(seat)}
        fact = facts.get("No cubes, discarded at the end of this round")
        assert (fact is not None) == bool(cubeless)
        if fact is not None:
            for name in cubeless:
                assert name in fact["value"]
            seen.append(fact["value"])
    for seed in (4, 5):
        run(_legacy(seed, look))
    assert seen


def test_legacy_warns_of_the_duplicates_the_clarification_will_discard():
    # seed: of duplicate technologies the clarification keeps the leftmost that succeeds
    # (the rightmost when all fail); a keen player must see the copy that will go. The
    # warning is read as the clarification starts (what the last screen of the round showed)
    checked = 0
    for seed in (4, 5, 6):
        game = _legacy(seed)
        warned = []

        def hear(line, game=game, warned=warned):
            if line.startswith("· II."):
                facts = {f["label"]: f for f in game.view_warnings(0)}
                fact = facts.get("Duplicates, discarded at the end of this round")
                warned.append(fact["value"] if fact is not None else "")
        game.listeners.append(hear)
        run(game)
        clarified = -1
        for line in game.log_lines:
            clarified += line.startswith("· II.")
            if "is discarded: the copy in time frame" in line:
                name = line.split(" (time frame")[0].strip()
                frame = line.split(" (time frame ")[1].split(")")[0]
                # the copy that goes says where it is: its twin is on the timeline too
                assert f"{name} (Time frame {frame})" in warned[clarified], (seed, line, warned)
                checked += 1
    assert checked


def test_legacy_log_names_each_technology_it_scores_or_discards():
    game = _legacy(4)
    run(game)
    lines = game.log_lines
    names = {str(e.data.get("name")) for e in game.rs.cards.values()}
    phase = ""
    heading = ""
    scored = 0
    for i, line in enumerate(lines):
        if line.startswith("· "):
            phase = line
            continue
        if not line.startswith(" "):
            heading = line
        if "III. Score" in phase and re.search(r": Points \d+ → \d+", line):
            # every change of points follows a line that names what scored
            assert any(heading.startswith(n + " (time frame") or heading.startswith(n + "'s crown")
                       for n in names), (line, heading)
            m = re.search(r"= (\d+) for (.+)$", heading)
            if m and " and " not in m.group(2):
                before, after = map(int, re.search(r"Points (\d+) → (\d+)", line).groups())
                assert after - before == int(m.group(1)) and line.strip().startswith(m.group(2))
            scored += 1
        if "II. Clarify" in phase and line.endswith("→ Discard pile"):
            tech = line.strip()[:-len(" → Discard pile")]
            assert heading.startswith(tech + " (time frame") and "discarded" in heading, \
                (line, heading)
    assert scored


def test_legacy_shows_which_of_the_rounds_four_turns_it_is():
    found = []

    def look(game, seat):
        if game.state.phase == "player_turns":
            title = game.view_model(seat)["table"]["title"]
            assert title["turns_each"] == 4 and 1 <= title["turn_round"] <= 4
            view = game.view(seat)
            status = " ".join(t.plain for t in status_lines(view, game, 80))
            assert f"turn {title['turn_round']} of 4" in status
            found.append(title["turn_round"])
        elif game.state.phase:
            assert "turn_round" not in game.view_model(seat)["table"]["title"]
    game = _legacy(4, look)
    game.check_actions = False
    try:
        run(game)
    finally:
        pass
    assert set(found) == {1, 2, 3, 4}


# ---------------------------------------------------------------------- log
def _tiny_log(tmp_path: Path, body: str) -> Path:
    import shutil
    work = tmp_path / "tiny"
    shutil.copytree(ROOT / "tests" / "fixtures" / "tiny", work)
    flow = work / "flow.yaml"
    lines = "".join(f"      {line}\n" for line in body.strip().splitlines())
    flow.write_text(flow.read_text().replace(
        "actions:\n  - id: earn\n",
        f"actions:\n  - id: tell\n    name: Tell\n    do: |\n{lines}  - id: earn\n"))
    return work


def test_log_places_must_match_its_values(tmp_path):
    with pytest.raises(RulebookError) as err:
        load_ruleset(_tiny_log(tmp_path, 'log("{} has {} gold", you)'))
    found = [d for d in err.value.diagnostics if d.code == "RB303"]
    assert found and "2 {} to fill but 1 value" in found[0].message
    assert found[0].span.file.endswith("flow.yaml")


def test_log_fills_its_places_in_words_and_keeps_hidden_cards_hidden(tmp_path):
    rs = load_ruleset(_tiny_log(tmp_path, 'log("{} has {} gold; holds {}; shows {}", you, '
                                          'stock(gold), top(hand), cards_in(tableau))'))
    from rulebook_games.agents import FirstAgent
    from rulebook_games.engine.flow import FlowRunner
    from rulebook_games.engine.game import Game
    game = Game(rs, 2, 1, [FirstAgent(), FirstAgent()], names=["Ann", "Bob"])
    game.keep_log = True
    game.state.round = 1
    hand = game.state.zones[("hand", 0)]
    deck = game.state.zones[("deck", -1)]
    if not hand:
        game.put(deck[0], "hand", 0, None)
    game.put(deck[0], "tableau", 0, None)
    runner = FlowRunner(game)
    assert runner.perform(runner.available("work", 0, {"card_actions": True}, True)
                          ["action:tell"], 0)
    shown = game.card_name(game.state.zones[("tableau", 0)][0])
    line = next(x for x in game.log_lines if x.startswith("Ann has"))
    assert line == f"Ann has 3 gold; holds a card; shows {shown}"
