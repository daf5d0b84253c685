"""A finished game's result as the API hands it over: seats from 1, a one-line repr.

:class:`Result` holds what the engine's result says, as plain lists by seat
(seat 1 first) with winners named by seat number, the way a results file
line says them (docs/results.md).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, repr=False)
class Result:
    scores: list[int]
    winners: list[int]  # seats, from 1
    ranks: list
    score_parts: list[dict]  # per seat: scoring entry id -> points
    breakdown: list[dict]  # per seat: scoring entry name in words -> points
    rounds: int
    decisions: int
    finished: bool
    solo_won: bool | None
    final_hash: str

    @classmethod
    def of(cls, result) -> "Result":
        """The API's result for the engine's."""
        return cls(list(result.scores), [seat + 1 for seat in result.winners],
                   list(result.ranks), [dict(p) for p in result.score_parts],
                   [dict(p) for p in result.breakdown], result.rounds, result.decisions,
                   result.finished, result.solo_won, result.final_hash)

    def __repr__(self) -> str:
        scores = ", ".join(map(str, self.scores[:8])) + (", …" if len(self.scores) > 8 else "")
        if self.solo_won is not None:
            outcome = "won" if self.solo_won else "lost"
        elif not self.winners:
            outcome = "no winner"
        elif len(self.winners) == 1:
            outcome = f"winner seat {self.winners[0]}"
        else:
            outcome = "winners seats " + ", ".join(map(str, self.winners))
        end = "" if self.finished else " · unfinished"
        return (f"<Result scores {scores} · {outcome} · {self.rounds} rounds, "
                f"{self.decisions} decisions{end}>")
