"""No agent peeks: two states its seat cannot tell apart get the same answer.

Real seeded games of every shipped ruleset, at several player counts (solo
too), are played by random agents. At each decision of the first rounds
(and at some later ones), the game is copied twice: once as it is, and once
as a twin (interpreter/engine/infosets.py) in which everything the deciding
seat cannot see is changed: the other players' hands dealt again among
themselves, face-down cards and decks reshuffled, the random source for the
draws to come replaced, the other seats' private log lines gone. The test
first checks that the seat sees exactly the same in both (its view, the log
as it reads it, the record), then asks a fresh agent of each registered
kind, with the same seed, to answer the decision in each copy: the answers
must be the same.

The agents come from the registry (every name it lists, so an agent added
later is checked too). They are checked fresh, with nothing kept from
earlier decisions, on games played at random; and playing every seat of a
game themselves, a copy of the seat's agent answering the twin, so what an
agent keeps between decisions (a plan, a search tree) is checked too. Agents that peek on purpose (the deck's top card, the
other players' hands, the random source) show that the machinery catches a
peeking agent.
"""

from __future__ import annotations

import random
from copy import deepcopy

import pytest

from rulebook_games import load_ruleset
from rulebook_games import agents as agent_registry
from rulebook_games.agents.base import Agent, RandomAgent
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.engine.game import Game
from rulebook_games.engine.infosets import copy_game, hidden_groups, hidden_of, seen_by, twin
from rulebook_games.paths import shipped_rulesets

FIRST = 30  # every decision up to this one is checked
EVERY = 6  # then every sixth
CHECKS = 45  # at most this many decisions per game
AGENT_SEED = 424242
# budgets that keep a searching agent quick here (its decisions are what is checked)
SMALL = {"ismcts": {"iterations": 12}}


def player_counts(rs) -> list[int]:
    counts = {rs.min_players, rs.max_players}
    if rs.min_players <= 2 <= rs.max_players:
        counts.add(2)
    return sorted(counts)


def games() -> list[tuple[str, int]]:
    out = []
    for name in shipped_rulesets():
        rs = load_ruleset(name)
        out += [(name, n) for n in player_counts(rs)]
    return out


GAMES = games()


def registered() -> list[str]:
    """Every agent name the registry knows (a person at a terminal is not an agent here)."""
    return sorted(name for name in agent_registry.AGENTS if name != "human")


def make(name: str, seed: int) -> Agent:
    """A fresh agent of this kind with its own seed (and a small budget when it searches)."""
    params = SMALL.get(name)
    if params:
        spec = name + ":" + ",".join(f"{k}={v}" for k, v in params.items())
        try:
            return agent_registry.make_agent(spec, seed)
        except (ValueError, TypeError):
            return agent_registry.AGENTS[name](seed, **params)
    return agent_registry.AGENTS[name](seed)


# ---------------------------------------------------------------- agents that peek
class TopCardPeeker(Agent):
    """Answers from the top card of each hidden pile, read from the true state."""

    name = "peeks at the decks"

    def decide(self, decision, view, game):
        st = game.state
        tops = [st.cards[st.zones[key][0]].def_id for keys in hidden_groups(game, decision.player)
                for key in keys if key[1] < 0 and st.zones[key]]
        return _pick(decision, "|".join(tops))


class HandPeeker(Agent):
    """Answers from the cards the other players hold, read from the true state."""

    name = "peeks at hands"

    def decide(self, decision, view, game):
        st = game.state
        seen = [st.cards[c].def_id for keys in hidden_groups(game, decision.player)
                for key in keys if key[1] >= 0 for c in st.zones[key]]
        return _pick(decision, "|".join(seen))


class FuturePeeker(Agent):
    """Answers from the game's own random source: the draws still to come."""

    name = "peeks at the future"

    def decide(self, decision, view, game):
        ahead = random.Random()
        ahead.setstate(game.state.rng.getstate())
        return _pick(decision, str(ahead.random()))


def _pick(decision, text: str) -> int:
    n = sum(map(ord, text)) * 2654435761 % (1 << 32)
    if decision.is_range:
        return decision.low + n % (decision.high - decision.low + 1)
    return n % len(decision.options)


PEEKERS = {"top card": TopCardPeeker, "hands": HandPeeker, "future": FuturePeeker}


# ---------------------------------------------------------------- the machinery
class _Enough(Exception):
    pass


class _Checker(RandomAgent):
    """Plays at random; at chosen decisions first asks the agents under test about twins.

    With ``players`` (one agent per seat) those agents play the game instead,
    so they answer with what they kept from their earlier decisions (a plan,
    a search tree): at a checked decision a copy of the seat's agent answers
    the twin while the agent itself answers the game, and its answer is played."""

    def __init__(self, seed: int, kinds: dict, report: dict, players: list | None = None,
                 checks: int = CHECKS):
        super().__init__(seed)
        self.kinds = kinds  # label -> factory(seed) of the agents under test
        self.report = report
        self.players = players
        self.checks = checks
        self.count = 0
        self.twins = random.Random(seed + 1)

    def decide(self, decision, view, game):
        self.count += 1
        seat = decision.player
        if self.count > FIRST and (self.count - FIRST) % EVERY:
            if self.players is not None:
                return _ask(self.players[seat], decision, game)
            return super().decide(decision, view, game)
        if self.report["checked"] >= self.checks:
            raise _Enough
        real = copy_game(game)
        other, moved = twin(game, seat, self.twins)
        assert seen_by(real, seat) == seen_by(other, seat), \
            f"the twin at decision {self.count} looks different to seat {seat + 1}"
        self.report["checked"] += 1
        self.report["moved"] += moved
        for (key, cards), (_, others) in zip(hidden_of(real, seat), hidden_of(other, seat)):
            if cards != others:
                self.report["where"].add("hands" if key[1] >= 0 else "piles")
        if self.players is not None:
            label, agent = next(iter(self.kinds)), self.players[seat]
            copy = deepcopy(agent)  # what it kept so far, and its random source
            answers = [_ask(agent, decision, real), _ask(copy, decision, other)]
            self._compare(label, decision, answers)
            return answers[0]
        for label, factory in self.kinds.items():
            answers = [_ask(factory(AGENT_SEED + seat), decision, copy)
                       for copy in (real, other)]
            self._compare(label, decision, answers)
        return super().decide(decision, view, game)

    def _compare(self, label, decision, answers) -> None:
        if answers[0] != answers[1]:
            self.report["differ"].setdefault(label, []).append(
                (self.count, decision.kind, decision.prompt, answers))


def _ask(agent, decision, game):
    """The agent's answer, given the view as the engine would give it."""
    shown = game.view(decision.player) if getattr(agent, "wants_view", True) else None
    return agent.decide(decision, shown, game)


class _StopAt(RandomAgent):
    def __init__(self, seed: int, at: int):
        super().__init__(seed)
        self.left = at

    def decide(self, decision, view, game):
        self.left -= 1
        if self.left < 0:
            raise _Enough
        return super().decide(decision, view, game)


def check(name: str, players: int, kinds: dict, seed: int = 5, playing: bool = False,
          checks: int = CHECKS) -> dict:
    """Play a seeded game and compare each agent's answers on twins.

    The game is played at random, or with ``playing`` by the (one) agent under test."""
    rs = load_ruleset(name)
    report = {"checked": 0, "moved": 0, "differ": {}, "where": set()}
    seats = None
    if playing:
        factory = next(iter(kinds.values()))
        seats = [factory(AGENT_SEED + seat) for seat in range(players)]
    checker = _Checker(seed, kinds, report, seats, checks)
    game = Game(rs, players, seed, [checker] * players)
    try:
        FlowRunner(game).play()
    except _Enough:
        pass
    return report


# ---------------------------------------------------------------- the tests
@pytest.mark.slow
@pytest.mark.parametrize("agent", registered())
@pytest.mark.parametrize("name,players", GAMES, ids=[f"{g}-{n}p" for g, n in GAMES])
def test_an_agent_answers_alike_in_states_its_seat_cannot_tell_apart(agent, name, players):
    report = check(name, players, {agent: lambda seed: make(agent, seed)})
    assert report["checked"] >= 10, "too few decisions were checked to prove anything"
    assert report["moved"] * 2 >= report["checked"], \
        "most twins must really differ in what the seat cannot see"
    assert not report["differ"], report["differ"]


def played() -> list[tuple[str, int]]:
    """Per ruleset: solo when it has one, and its smallest game of several players."""
    out = []
    for name in dict.fromkeys(g for g, _ in GAMES):
        counts = [n for g, n in GAMES if g == name]
        several = min((n for n in counts if n > 1), default=None)
        out += [(name, n) for n in counts if n == 1 or n == several]
    return out


PLAYED = played()


@pytest.mark.slow
@pytest.mark.parametrize("agent", registered())
@pytest.mark.parametrize("name,players", PLAYED, ids=[f"{g}-{n}p" for g, n in PLAYED])
def test_an_agent_answers_alike_after_playing_the_game_so_far(agent, name, players):
    """The agent plays every seat, so what it kept between decisions is tested too."""
    report = check(name, players, {agent: lambda seed: make(agent, seed)}, seed=9,
                   playing=True, checks=24)
    assert report["checked"] >= 10
    assert report["moved"] * 2 >= report["checked"]
    assert not report["differ"], report["differ"]


def test_a_peeking_agent_is_caught_after_playing_too():
    report = check("legacy_gears_of_time", 2, {"hands": lambda seed: HandPeeker()},
                   playing=True, checks=30)
    assert "hands" in report["differ"]


@pytest.mark.parametrize("name,players", GAMES, ids=[f"{g}-{n}p" for g, n in GAMES])
def test_an_agent_that_peeks_is_caught(name, players):
    report = check(name, players, {label: (lambda seed, k=k: k())
                                   for label, k in PEEKERS.items()})
    caught = set(report["differ"])
    assert "future" in caught  # the draws to come are never the seat's to know
    if "hands" in report["where"]:  # the twins dealt other players' hands differently
        assert "hands" in caught
    if "piles" in report["where"]:  # and face-down piles
        assert "top card" in caught
    assert report["where"], "the twins never differed in any hidden place"


def test_the_registry_is_what_is_checked():
    """Random and greedy are always checked; any agent added to the registry joins them."""
    assert {"random", "greedy"} <= set(registered())


def test_a_determinisation_deals_another_players_hand_from_the_deck_too():
    """Not only the order: in two players the other hand's cards are not always its own."""
    from collections import Counter

    from rulebook_games.agents.lookahead import determinise
    rs = load_ruleset("legacy_gears_of_time")
    game = Game(rs, 2, 3, [_StopAt(0, 20)] * 2)
    with pytest.raises(_Enough):
        FlowRunner(game).play()
    hand = [key for keys in hidden_groups(game, 0) for key in keys if key[1] == 1]
    assert any(game.state.zones[key] for key in hand), "the other player holds no cards"
    true = Counter(game.state.cards[c].def_id for key in hand for c in game.state.zones[key])
    dealt = [Counter(copy.state.cards[c].def_id for key in hand for c in copy.state.zones[key])
             for copy in (determinise(game, 0, random.Random(s)) for s in range(10))]
    assert any(d != true for d in dealt)
    assert all(sum(d.values()) == sum(true.values()) for d in dealt)


# ---------------------------------------------------------------- the learned evaluation
# greedy and ismcts play with the evaluation learned from the ruleset's games by default
# (docs/agents.md): a linear value of features read for one seat, which may read only what
# that seat can see. Here they play with weights on every card in every zone, hidden ones
# too (another player's hand, a deck): if a hidden card's identity reached what they
# choose by, the twins would get other answers. (The agents read the features on copies
# dealt again, never on the game itself; that the features of a seat do not move when
# what it cannot see changes is checked on the game itself in tests/test_learned.py.)
LEARNED = ["greedy:eval=learned", "ismcts:iterations=12:eval=learned", "trained"]
LEARNED_GAMES = [(name, 2 if load_ruleset(name).min_players <= 2 else
                  load_ruleset(name).min_players) for name in shipped_rulesets()]


def _weigh_everything(tmp_path, name: str) -> str:
    """A copy of the ruleset whose learned.json weighs every card of every zone."""
    import json
    import shutil
    import zlib
    from pathlib import Path
    src = Path(load_ruleset(name).root)
    dest = tmp_path / name
    shutil.copytree(src, dest)
    rs = load_ruleset(str(dest))
    names = ["evaluation", "evaluation of the best other", "round"]
    for zone in rs.sections["zones"]:
        names.append(f"size:{zone}")
        names += [f"card:{zone}:{card}" for card in rs.sections["cards"]]
    weights = [1.0, -1.0, 0.1] + [(zlib.crc32(n.encode()) % 2001 - 1000) / 100
                                  for n in names[3:]]
    data = {"format": 1, "ruleset": rs.id, "ruleset_hash": rs.content_hash, "mods": [],
            "target": "margin", "players": 2, "games": 0, "seed": 0, "agent": "test",
            "rounds": 10, "intercept": 0.0, "features": names, "weights": weights,
            "late_weights": [w / 2 for w in weights], "mean": [0.0] * len(names),
            "scale": [1.0] * len(names)}
    (dest / "learned.json").write_text(json.dumps(data))
    return str(dest)


@pytest.mark.slow
@pytest.mark.parametrize("spec", LEARNED)
@pytest.mark.parametrize("name,players", LEARNED_GAMES,
                         ids=[f"{g}-{n}p" for g, n in LEARNED_GAMES])
def test_agents_with_the_learned_evaluation_answer_alike_when_hidden_cards_differ(
        tmp_path, spec, name, players):
    from rulebook_games.agents.learned import learned_value
    folder = _weigh_everything(tmp_path, name)
    rs = load_ruleset(folder)
    value = learned_value(rs)
    assert value is not None and len(value.pairs) > 3  # the agents do play with it
    report = check(folder, players, {spec: lambda seed: agent_registry.make_agent(spec, seed)},
                   checks=20)
    assert report["checked"] >= 10
    assert report["moved"] * 2 >= report["checked"]
    assert not report["differ"], report["differ"]
    report = check(folder, players, {spec: lambda seed: agent_registry.make_agent(spec, seed)},
                   seed=9, playing=True, checks=12)
    assert report["checked"] >= 10 and not report["differ"], report["differ"]
