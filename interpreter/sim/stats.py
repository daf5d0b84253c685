"""Summaries of simulated games: win rates, scores, lengths, fed one game at a time.

:class:`Tally` keeps running counts and exact sums (never the games
themselves), so a summary of a million games takes the memory of one. It
takes a game's summary as the engine makes it, or a line of a results file
(seats numbered from 1), so a resumed run can count the games already in its
file. The tables come out the same as from a list of every game.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from rich.table import Table
from rich.text import Text

from ..safe_text import visible


class _Mean:
    """An exact running sum (whole numbers stay whole), its count, and the extremes."""

    __slots__ = ("total", "count", "low", "high")

    def __init__(self):
        self.total, self.count, self.low, self.high = 0, 0, None, None

    def add(self, value) -> None:
        self.total += value if isinstance(value, int) else Fraction(value)
        self.count += 1
        self.low = value if self.low is None or value < self.low else self.low
        self.high = value if self.high is None or value > self.high else self.high

    def mean(self) -> float:
        return float(Fraction(self.total) / self.count)


def _fields(result) -> tuple:
    """What a tally reads from one game, from a summary or a results line."""
    if isinstance(result, dict):  # checked by engine.results_file when it was read
        winners = [seat - 1 for seat in result.get("winners") or []]
        return (result.get("error"), list(result.get("agents") or []),
                list(result.get("scores") or []), winners, result.get("rounds") or 0,
                result.get("decisions") or 0, result.get("finished") is not False,
                result.get("ranks") or [], result.get("solo_won"))
    return (result.error, result.agents, result.scores, result.winners, result.rounds,
            result.decisions, result.finished, result.ranks or [], result.solo_won)


class Tally:
    """Running totals of many games for the summary tables; see the module text."""

    def __init__(self, players: int):
        self.players = players
        self.games = self.fresh = self.errors = self.unfinished = 0
        self.decisions = self.fresh_decisions = 0
        self.rounds, self.lengths = _Mean(), _Mean()
        self.seat_scores = [_Mean() for _ in range(players)]
        self.seat_wins = [0.0] * players
        self.first_agents: list[str] | None = None  # of the first game without an error
        self.any_agents: list[str] | None = None  # of the first game at all
        self.agent_slots: dict[str, list] = {}  # agent -> [seats played, wins, score mean]
        self.titles: Counter = Counter()
        self.solo: bool | None = None  # whether the first finished game is a solo game
        self.solo_won = 0

    def add(self, result, fresh: bool = True) -> None:
        """Count one game; ``fresh`` when it was played in this run (for the speed figures)."""
        error, agents, scores, winners, rounds, decisions, finished, ranks, solo_won = \
            _fields(result)
        self.games += 1
        self.decisions += decisions
        if fresh:
            self.fresh += 1
            self.fresh_decisions += decisions
        if self.any_agents is None:
            self.any_agents = agents
        if error:
            self.errors += 1
            return
        if self.first_agents is None:
            self.first_agents = agents
            self.solo = solo_won is not None
        self.unfinished += not finished
        self.rounds.add(rounds)
        self.lengths.add(decisions)
        for seat in range(self.players):
            share = 1 / len(winners) if seat in winners else 0
            self.seat_wins[seat] += share
            self.seat_scores[seat].add(scores[seat])
            slot = self.agent_slots.setdefault(agents[seat], [0, 0.0, _Mean()])
            slot[0] += 1
            slot[1] += share
            slot[2].add(scores[seat])
        self.titles.update(rank for rank in ranks if rank)
        self.solo_won += bool(solo_won)

    def tables(self, elapsed: float) -> list[Table]:
        done = self.games - self.errors
        rate = self.fresh / max(elapsed, 1e-9)
        title = (f"{self.games} games in {elapsed:.1f}s ({rate:.1f} games/s)"
                 if self.fresh == self.games else
                 f"{self.games} games ({self.games - self.fresh} from before, {self.fresh} "
                 f"now in {elapsed:.1f}s, {rate:.1f} games/s)")
        overview = Table(title=title, title_justify="left")
        for col in ("games", "errors", "unfinished", "rounds (mean)", "decisions/game (mean)",
                    "decisions/s"):
            overview.add_column(col, justify="right")
        overview.add_row(str(self.games), str(self.errors), str(self.unfinished),
                         f"{self.rounds.mean():.1f}" if done else "-",
                         f"{self.lengths.mean():.0f}" if done else "-",
                         f"{self.fresh_decisions / max(elapsed, 1e-9):.0f}")
        seats = Table(title="By seat", title_justify="left")
        for col in ("seat", "agent", "wins", "win rate", "score mean", "min", "max"):
            seats.add_column(col, justify="right" if col not in ("agent",) else "left")
        agents = self.first_agents or self.any_agents or [""] * self.players
        for seat in range(self.players):
            scores, wins = self.seat_scores[seat], self.seat_wins[seat]
            seats.add_row(str(seat + 1), agents[seat], f"{wins:g}",
                          f"{100 * wins / done:.1f}%" if done else "-",
                          f"{scores.mean():.1f}" if scores.count else "-",
                          str(scores.low) if scores.count else "-",
                          str(scores.high) if scores.count else "-")
        tables = [overview, seats]
        if len(self.agent_slots) > 1:
            by_agent = Table(title="By agent", title_justify="left")
            for col in ("agent", "seats played", "wins", "win rate", "score mean"):
                by_agent.add_column(col, justify="right" if col != "agent" else "left")
            for agent in sorted(self.agent_slots):
                played, wins, scores = self.agent_slots[agent]
                by_agent.add_row(agent, str(played), f"{wins:g}",
                                 f"{100 * wins / played:.1f}%", f"{scores.mean():.1f}")
            tables.append(by_agent)
        if self.titles:
            titles = Table(title="Titles earned", title_justify="left")
            titles.add_column("title")
            titles.add_column("times", justify="right")
            for name, times in self.titles.most_common():
                titles.add_row(Text(visible(name)), str(times))  # a title from the rule files
            tables.append(titles)
        if done and self.solo:
            solo = Table(title="Solo", title_justify="left")
            solo.add_column("won")
            solo.add_row(f"{self.solo_won} / {done}")
            tables.append(solo)
        return tables

    def document(self, elapsed: float) -> dict:
        """The same figures as :meth:`tables`, as the JSON of ``simulate --format json``
        (docs/formats.md): exact counts, and means as plain numbers (null with no game)."""
        done = self.games - self.errors
        agents = self.first_agents or self.any_agents or [""] * self.players

        def mean(m: _Mean):
            return round(m.mean(), 6) if m.count else None
        seats = []
        for seat in range(self.players):
            scores, wins = self.seat_scores[seat], self.seat_wins[seat]
            seats.append({"seat": seat + 1, "agent": agents[seat], "wins": wins,
                          "win_rate": round(wins / done, 6) if done else None,
                          "score_mean": mean(scores), "score_min": scores.low,
                          "score_max": scores.high})
        by_agent = [{"agent": agent, "seats_played": played, "wins": wins,
                     "win_rate": round(wins / played, 6), "score_mean": mean(scores)}
                    for agent, (played, wins, scores) in sorted(self.agent_slots.items())]
        out = {"games": self.games, "played_now": self.fresh, "errors": self.errors,
               "unfinished": self.unfinished, "rounds_mean": mean(self.rounds),
               "decisions_mean": mean(self.lengths), "seconds": round(elapsed, 3),
               "games_per_second": round(self.fresh / max(elapsed, 1e-9), 3),
               "seats": seats, "agents": by_agent,
               "titles": dict(self.titles.most_common())}
        if done and self.solo:
            out["solo_won"] = self.solo_won
        return out


def summary_tables(results, players: int, elapsed: float) -> list[Table]:
    """The summary tables of a list (or any stream) of games."""
    tally = Tally(players)
    for result in results:
        tally.add(result)
    return tally.tables(elapsed)
