"""``simulate --records DIR``: each simulated game kept as a game record, named in its line.

A record is what ``rulebook play --save`` writes (:class:`~rulebook_games.
play.record.Record`): the ruleset, its mods and variants, the seed, the
agents and every answer, so ``rulebook replay`` and the replays of
``rulebook serve --records DIR`` play the game again decision by decision.
The worker that plays a game sends back only its answers (and whether it
remembered refusals); the run knows the rest and writes the file here.

A record's name says which game it is: the ruleset's id, the player count, a
short digest of the configuration (the content hash of the rules with every
mod layered in, the variants and the agents) and the seed, e.g.
``my_game-2p-3f9a0c1e-17.json``. So the same run (or its ``--resume``)
writes the same names, and runs of other configurations in the same folder
do not overwrite each other's games. A file already there is replaced only
when it is a record of that same seed; any other file is left as it was and
the run stops (exit 2), before the results line that would name it.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from ..outfiles import Replace, write_file
from ..play.record import FORMAT, OLD_FORMAT, Record

OPTION = "--records"
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def record_name(rs, variants, players: int, agents, seed: int) -> str:
    """The file name of a simulated game's record (see the module text)."""
    digest = hashlib.sha256(json.dumps(
        [rs.content_hash, sorted(variants), list(agents)]).encode()).hexdigest()[:8]
    ident = _SAFE.sub("_", str(rs.id))[:60] or "game"
    return f"{ident}-{players}p-{digest}-{seed}.json"


def _same_game(seed: int) -> Replace:
    marker = f'\n "seed": {seed},\n'.encode()
    return Replace(lambda path, head: head.startswith(b'{\n "format": "rulebook-record/')
                   and marker in head,
                   f"a record of the game of seed {seed}",
                   "give another folder, or move the file away")


def keep(folder, summary, rs, mods: list[str], variants, players: int,
         agents) -> str | None:
    """Write ``summary``'s game record into ``folder``; its file name (None: no record).

    Raises :class:`~rulebook_games.outfiles.OutputProblem` when the file cannot
    be written or would replace a file that is not this game's record."""
    if summary.record is None:
        return None
    name = record_name(rs, variants, players, agents, summary.seed)
    path = Path(folder) / name
    finished = bool(summary.final_hash)  # a game stopped by a rule error has none
    record = Record(rs.id, rs.version, rs.content_hash, players, summary.seed, list(agents),
                    list(summary.record["decisions"]), [str(m) for m in mods],
                    sorted(variants), summary.final_hash if finished else None,
                    list(summary.scores) if finished else None,
                    FORMAT if summary.record.get("remember", True) else OLD_FORMAT)
    write_file(path, record.text_for(path), OPTION, _same_game(summary.seed))
    return name
