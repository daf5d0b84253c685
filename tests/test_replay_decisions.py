"""`rulebook replay RECORD --decisions` and `--at N`: each decision as its player saw it.

Every record here is made by a real game of a shipped ruleset, and each
command runs in a folder outside the checkout by the ruleset's shipped name.
The expectations come from the record itself (how many answers it has, which
option each one chose) and from the game state at a decision, rebuilt here
through the engine, not from the transcript's own output.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.engine.game import NO_OWNER
from rulebook_games.play.session import new_game, run
from rulebook_games.load.ruleset import shipped_rulesets_dir

GAMES = [("legacy_gears_of_time", 2, 3), ("terraforming_mars", 2, 5), ("timespan", 1, 4)]


def rulebook(*args, cwd):
    return subprocess.run([sys.executable, "-m", "rulebook_games", *args], cwd=cwd,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module", params=GAMES, ids=[g[0] for g in GAMES])
def recorded(request, tmp_path_factory):
    """A whole random game of a shipped ruleset, saved as a record."""
    name, players, seed = request.param
    folder = tmp_path_factory.mktemp(name)
    proc = rulebook("play", name, "-p", str(players), "--seed", str(seed), "--agents", "random",
                    "--no-log", "--save", "game.json", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    record = json.loads((folder / "game.json").read_text())
    return name, folder, record


def _blocks(text: str) -> list[list[str]]:
    """The transcript split into one block of lines per 'decision N · seat' header."""
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if re.match(r"^decision \d+ · ", line):
            blocks.append([line])
        elif blocks and line.startswith("  "):
            blocks[-1].append(line)
    return blocks


def test_every_decision_is_printed_with_the_answer_the_record_gave(recorded):
    name, folder, record = recorded
    proc = rulebook("replay", "game.json", "--decisions", cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "final state matches" in proc.stdout
    blocks = _blocks(proc.stdout)
    assert len(blocks) == len(record["decisions"])
    for number, (block, given) in enumerate(zip(blocks, record["decisions"]), 1):
        assert block[0].startswith(f"decision {number} · Player ")
        answer = block[-1].strip()
        assert answer.startswith("answer: ")
        chosen = answer[len("answer: "):]
        picked = re.match(r"^(\d+)\. (\S+)  (.*)$", chosen)
        if picked:  # an option, numbered from 1 as a person sees it, with its short key
            assert int(picked.group(1)) == given + 1
            listed = [" ".join(l.split()) for l in block[1:-1]]
            shown = " ".join(f"{given + 1}. {picked.group(2)} {picked.group(3)}".split())
            assert any(l == shown or l.startswith(shown + " (") for l in listed)
        else:  # a number from a range
            assert int(chosen) == given
            assert any("a number from" in l for l in block)


def test_refused_options_are_listed_with_their_reason(recorded):
    name, folder, _ = recorded
    out = rulebook("replay", "game.json", "--decisions", cwd=folder).stdout
    refused = [l for l in out.splitlines() if l.startswith("    --  ")]
    assert refused  # every shipped game refuses some action in a whole game
    for line in refused:
        assert re.match(r"^    --  .+ \(not now: .+\)$", line), line
    if name == "legacy_gears_of_time":
        # at the start each marker stands on the present day, which no frame is before
        first = _blocks(out)[2]
        assert any(l.startswith("    --  Establish a technology in your time frame (not now: ")
                   for l in first)


class _StopAt(Agent):
    """Answers from the record and stops at decision ``at``, keeping that decision."""

    scripted = True
    wants_view = False

    def __init__(self, answers, at):
        self.answers, self.at, self.seen = answers, at, None

    def decide(self, decision, view, game):
        number = len(game.record) + 1
        if number == self.at:
            self.seen = decision
            raise _Reached
        return self.answers[number - 1]


class _Reached(Exception):
    pass


def _state_at(name: str, record: dict, at: int):
    rs = load_ruleset(shipped_rulesets_dir() / name)
    agent = _StopAt(record["decisions"], at)
    game = new_game(rs, record["players"], record["seed"], [agent] * record["players"],
                    tuple(record["variants"]),
                    [f"Player {i + 1} ({k})" for i, k in enumerate(record["agents"])])
    with pytest.raises(_Reached):
        run(game)
    return rs, game, agent.seen


def _hidden_cards(rs, game, seat: int) -> tuple[set[str], set[str]]:
    """Names of cards in owner-only zones: this seat's own, and the others' (seen nowhere else)."""
    own, others, public = set(), set(), set()
    for (zone, owner), cards in game.state.zones.items():
        vis = (rs.sections["zones"][zone].data.get("visibility") or "public")
        names = {game.card_name(c) for c in cards}
        if vis == "public":
            public |= names
        elif vis == "owner" and owner == seat:
            own |= names
        elif vis == "owner" and owner != NO_OWNER:
            others |= names
    return own, others - own - public


@pytest.mark.parametrize("fraction", [0.25, 0.6])
def test_at_shows_the_deciding_seats_view_and_nobody_elses_hidden_cards(recorded, fraction):
    name, folder, record = recorded
    at = max(1, int(len(record["decisions"]) * fraction))
    rs, game, decision = _state_at(name, record, at)
    proc = rulebook("replay", "game.json", "--at", str(at), cwd=folder)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    seat_name = game.state.players[decision.player].name
    assert out.splitlines()[0] == f"decision {at} · {seat_name}"
    flat = " ".join(out.split())  # the view wraps long lines
    # whose view it is: 'you are Ann', or on Ann's own turn 'your turn 4 (Ann)'
    assert f"you are {seat_name}" in flat or re.search(
        rf"your turn [\d of]+ \({re.escape(seat_name)}\)", flat), flat[:300]
    assert " ".join(decision.prompt.split()) in flat
    own, others = _hidden_cards(rs, game, decision.player)
    for card in own:
        assert card in flat
    # a name that other cards' names or printed text mention may be read there
    # (the texts of the cards this seat is shown: 'Needs Basic Tools' names a card)
    from rulebook_games.lang.words import catalogue_entry
    shown = {game.state.cards[c].def_id for (zone, owner), cards in game.state.zones.items()
             if game.visible_to(zone, owner, decision.player) == "all" for c in cards}
    mentioned = " ".join(" ".join(catalogue_entry(rs, cid)["lines"]) for cid in shown)
    # and a hidden name inside a name this seat sees ('Algae' in 'Arctic Algae') says nothing
    seen = own | {game.card_name(c) for (zone, owner), cards in game.state.zones.items()
                  if game.visible_to(zone, owner, decision.player) == "all" for c in cards}
    checked = [card for card in others if card not in mentioned
               and not any(card in name for name in seen)]
    assert checked or not others
    for card in checked:
        assert card not in flat, f"{card} is hidden from {seat_name}"
    # another seat's hidden place shows as a count in that seat's column of the panels:
    # the row of the place (its first line) holds the count of each such seat
    for (zone, owner), cards in game.state.zones.items():
        vis = rs.sections["zones"][zone].data.get("visibility") or "public"
        if vis == "owner" and owner not in (NO_OWNER, decision.player) and cards:
            n = len(cards)
            zone_name = rs.sections["zones"][zone].data.get("name") or zone.replace("_", " ")
            row = [line for line in out.splitlines() if line.startswith(zone_name + " ")]
            assert row, f"no row for {zone_name} in the panels"
            assert f"{n} card{'s' if n != 1 else ''}" in row[0]
    given = record["decisions"][at - 1]
    if not decision.is_range:
        from rulebook_games.engine.keys import short_keys
        key = short_keys(game, decision)[given]
    chosen = str(given) if decision.is_range else \
        f"{given + 1}. {key}  {decision.options[given].label}"
    assert out.rstrip().splitlines()[-1] == f"answer in the record: {chosen}"
    # it stops there: no later decision, no final scores
    assert f"decision {at + 1} " not in out and "Final scores" not in out


def test_at_out_of_range_is_a_usage_error_naming_the_range(recorded):
    name, folder, record = recorded
    n = len(record["decisions"])
    for bad in (0, n + 1):
        proc = rulebook("replay", "game.json", "--at", str(bad), cwd=folder)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert f"it has decisions 1 to {n}" in proc.stderr


def test_at_works_on_a_game_saved_before_its_end(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "play", "legacy_gears_of_time",
                           "-p", "2", "--seed", "3", "--agents", "human,random",
                           "--save", "part.json"], cwd=tmp_path, input="1\n1\n2\n",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    saved = json.loads((tmp_path / "part.json").read_text())
    assert saved["final_hash"] is None  # saved at the end of the input, before the end
    n = len(saved["decisions"])
    assert n >= 3
    last = rulebook("replay", "part.json", "--at", str(n), cwd=tmp_path)
    assert last.returncode == 0 and last.stdout.startswith(f"decision {n} · Player 1")
    beyond = rulebook("replay", "part.json", "--at", str(n + 1), cwd=tmp_path)
    assert beyond.returncode == 2 and f"1 to {n}" in beyond.stderr
    assert saved["final_hash"] is None  # saved at the end of the input, before the end
