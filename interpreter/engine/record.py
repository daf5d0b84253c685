"""Game records: everything needed to replay a game exactly, saved as JSON.

A record holds the ruleset id, version and content hash, the mods, the
player count, variants, agents, the seed and every decision's answer, and,
once the game is over, the final state hash. Replaying feeds the answers
back in order and checks the hash. A record made with a different ruleset
content is refused with a clear message rather than replayed wrongly.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

FORMAT = "rulebook-record/1"


class RecordError(Exception):
    def __init__(self, path: str, message: str, line: int = 1, col: int = 1):
        super().__init__(f"{path}:{line}:{col}: {message}")
        self.path, self.message, self.line, self.col = path, message, line, col


@dataclass
class Record:
    ruleset: str
    version: str
    content_hash: str
    players: int
    seed: int
    agents: list[str]
    decisions: list[int] = field(default_factory=list)
    mods: list[str] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)
    final_hash: str | None = None
    scores: list[int] | None = None
    format: str = FORMAT

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        p = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(p, f"cannot read the record: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise RecordError(p, "the record is not UTF-8 text") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(p, f"not a valid record (JSON: {exc.msg})", exc.lineno,
                              exc.colno) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(p, f"not a Rulebook game record (expected format {FORMAT})")
        problems = []
        types = {"ruleset": str, "version": str, "content_hash": str, "players": int,
                 "seed": int, "agents": list, "decisions": list, "mods": list,
                 "variants": list}
        for key, typ in types.items():
            if key not in data:
                problems.append(f"missing '{key}'")
            elif not isinstance(data[key], typ) or isinstance(data[key], bool):
                problems.append(f"'{key}' must be a {typ.__name__}")
        if not problems and not all(isinstance(d, int) and not isinstance(d, bool)
                                    for d in data["decisions"]):
            problems.append("'decisions' must be a list of whole numbers")
        unknown = set(data) - set(types) - {"final_hash", "scores", "format"}
        if unknown:
            problems.append("unknown keys: " + ", ".join(sorted(unknown)))
        if problems:
            raise RecordError(p, "; ".join(problems))
        return cls(**{k: data[k] for k in list(types) + ["final_hash", "scores", "format"]
                      if k in data})
