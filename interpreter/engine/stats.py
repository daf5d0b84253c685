"""Summaries of simulated games: win rates, scores, lengths."""

from __future__ import annotations

import statistics

from rich.table import Table
from rich.text import Text

from ..safe_text import visible


def summary_tables(results, players: int, elapsed: float) -> list[Table]:
    done = [r for r in results if not r.error]
    overview = Table(title=f"{len(results)} games in {elapsed:.1f}s "
                           f"({len(results) / max(elapsed, 1e-9):.1f} games/s)",
                     title_justify="left")
    for col in ("games", "errors", "unfinished", "rounds (mean)", "decisions/game (mean)",
                "decisions/s"):
        overview.add_column(col, justify="right")
    decisions = sum(r.decisions for r in results)
    overview.add_row(str(len(results)), str(len(results) - len(done)),
                     str(sum(1 for r in done if not r.finished)),
                     f"{statistics.mean(r.rounds for r in done):.1f}" if done else "-",
                     f"{statistics.mean(r.decisions for r in done):.0f}" if done else "-",
                     f"{decisions / max(elapsed, 1e-9):.0f}")
    seats = Table(title="By seat", title_justify="left")
    for col in ("seat", "agent", "wins", "win rate", "score mean", "min", "max"):
        seats.add_column(col, justify="right" if col not in ("agent",) else "left")
    for seat in range(players):
        scores = [r.scores[seat] for r in done]
        wins = sum(1 / len(r.winners) for r in done if seat in r.winners)
        agent = done[0].agents[seat] if done else (results[0].agents[seat] if results else "")
        seats.add_row(str(seat + 1), agent, f"{wins:g}",
                      f"{100 * wins / len(done):.1f}%" if done else "-",
                      f"{statistics.mean(scores):.1f}" if scores else "-",
                      str(min(scores)) if scores else "-", str(max(scores)) if scores else "-")
    tables = [overview, seats]
    agents = sorted({a for r in done for a in r.agents})
    if len(agents) > 1:
        by_agent = Table(title="By agent", title_justify="left")
        for col in ("agent", "seats played", "wins", "win rate", "score mean"):
            by_agent.add_column(col, justify="right" if col != "agent" else "left")
        for a in agents:
            slots = [(r, s) for r in done for s in range(players) if r.agents[s] == a]
            wins = sum(1 / len(r.winners) for r, s in slots if s in r.winners)
            by_agent.add_row(a, str(len(slots)), f"{wins:g}",
                             f"{100 * wins / len(slots):.1f}%",
                             f"{statistics.mean(r.scores[s] for r, s in slots):.1f}")
        tables.append(by_agent)
    ranked = [rank for r in done for rank in (r.ranks or []) if rank]
    if ranked:
        from collections import Counter
        titles = Table(title="Titles earned", title_justify="left")
        titles.add_column("title")
        titles.add_column("times", justify="right")
        for name, times in Counter(ranked).most_common():
            titles.add_row(Text(visible(name)), str(times))  # a title from the rule files
        tables.append(titles)
    if done and done[0].solo_won is not None:
        solo = Table(title="Solo", title_justify="left")
        solo.add_column("won")
        solo.add_row(f"{sum(1 for r in done if r.solo_won)} / {len(done)}")
        tables.append(solo)
    return tables
