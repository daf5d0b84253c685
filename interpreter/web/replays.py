"""Replays in the browser: a record played again, shown decision by decision.

A record is opened from the records folder (by its file name there) or from
a file the person uploads, never from a path in a URL. The game is played
again from it on the play room's :class:`~rulebook_games.play.stream.DecisionStream`
(the same engine, the same answers: the same game), and each step is shown
as the game page shows a game: the view model of the viewer's seat, drawn by
the same page code, with the decision asked there (its question, its options,
the refused ones with their reasons) and the answer the record gives.

Who sees what. By default the public view: what a seat that is nobody's
sees (every hidden zone a count). A decision is shown only when nothing in it
is hidden from the viewer: a question whose options are cards the viewer may
not see, or whose words name such a card, is said as "Player 2 decides" with
how many options there were, and its answer is not shown. A seat's own view
(its hand, its questions in full) is offered only when the record is this
machine's own: a file of the records folder, on a server that listens on this
machine only (``127.0.0.1``). Anyone who can reach such a server sits at this
machine, and the folder holds its own games; an uploaded file may be anybody's,
and a server others can reach is not only this machine's user's, so there the
public view alone is shown (docs/web.md says the same).

Going forward answers one more decision; going back plays the record again
from its start (a whole game takes well under a second).
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path

from ..api.decisions import Decision
from ..engine.state import CardRef
from ..play.record import MAX_BYTES, Record, RecordError
from ..play.session import GameError, load_for_record
from ..play.stream import DecisionStream
from ..safe_text import visible
from .lobby import LobbyProblem
from .view import decision_data, result_data, seat_view

MAX_REPLAYS = 16  # replays kept open at once; the oldest is closed for a new one
MAX_UPLOAD = MAX_BYTES  # an uploaded record: as large as a record file may be
LOG_SHOWN = 200


def ruleset_for_record(lobby, rec: Record, path: Path):
    """The ruleset a record was played with, among those the lobby offers.

    A record names its mods by file: those of the ruleset's list are found by
    their names (never a path the record gives); the content hash checks they
    are the same."""
    try:
        choice = lobby.choice_for_record(rec)
        by_name = {p.name: p for p in choice.mods}
        mods = [str(by_name[Path(m).name]) for m in rec.mods if Path(m).name in by_name]
        if len(mods) != len(rec.mods):
            raise LobbyProblem("the saved game was played with mods this server does not "
                               "offer: give them with --mod")
        return load_for_record(rec, str(path), str(choice.path), mods)
    except RecordError as exc:
        raise LobbyProblem(visible(f"{exc.path}:{exc.line}:{exc.col}: {exc.message}")) \
            from None


def hidden_names(game, viewer: int) -> set[str]:
    """The names of the cards ``viewer`` may not see (no copy of them in sight), other than
    names of other things of the game (a tile, a space)."""
    seen, hidden = set(), set()
    for number, c in game.state.cards.items():
        (seen if game.card_visible_to(number, viewer) else hidden).add(c.def_id)
    cards = game.rs.cards

    def name(cid):
        data = cards[cid].data if isinstance(cards[cid].data, dict) else {}
        return str(data.get("name") or cid)
    return {name(c) for c in hidden - seen} - {name(c) for c in seen}


def hides(decision, game, viewer: int) -> bool:
    """Whether ``decision`` shows something ``viewer`` may not see: an option that is a card
    out of the viewer's sight, or words naming such a card."""
    if decision.player == viewer:
        return False
    for option in decision.options:
        value = option.value
        if isinstance(value, CardRef) and not game.card_visible_to(value, viewer):
            return True
    names = hidden_names(game, viewer)
    if not names:
        return False
    words = [decision.prompt] + [o.label for o in decision.options]
    words += [f"{k} {v}" for k, v in decision.refused.items()]
    text = "\n".join(words)
    return any(n in text for n in names)


class Replay:
    """One record, played again as far as the viewer asks."""

    def __init__(self, rec: Record, rs, title: str, own: bool):
        if not rec.remembers_refusals:
            raise LobbyProblem("that record is of an older format: replay it with "
                               "rulebook replay")
        self.id = secrets.token_urlsafe(12)
        self.rec = rec
        self.rs = rs
        self.title = title  # the file's name, as the page lists it
        self.own = own  # a seat's own view may be shown
        self.count = len(rec.decisions)
        self._stream: DecisionStream | None = None
        self._given = 0  # answers of the record given to the stream
        self._broken: tuple[int, str] | None = None  # (decision, why) the record stops at
        self._lock = threading.Lock()

    # ------------------------------------------------------------ playing it again
    def _restart(self) -> None:
        if self._stream is not None:
            self._stream.close()
        rec = self.rec
        self._stream = None
        try:
            self._stream = DecisionStream(self.rs, rec.players, rec.seed, tuple(rec.variants),
                                          kinds=list(rec.agents), keep_log=True)
        except GameError as exc:
            raise LobbyProblem(visible(f"the game does not start: {exc.message}")) from None
        self._given = 0

    def _go(self, answers: int) -> None:
        """The game after the record's first ``answers`` answers (or where it broke)."""
        if self._stream is None or self._given > answers:
            self._restart()
        stream = self._stream
        while self._given < answers and stream.current is not None:
            answer = self.rec.decisions[self._given]
            problem = stream.current.check(answer) if isinstance(answer, int) else \
                "it is not a number"
            if problem is not None:
                self._broken = (self._given + 1, f"the record's answer {answer!r} is refused: "
                                                 f"{problem}")
                return
            try:
                stream.answer(answer)
            except GameError as exc:
                self._broken = (self._given + 1, exc.message)
                return
            self._given += 1

    def close(self) -> None:
        with self._lock:
            if self._stream is not None:
                self._stream.close()
                self._stream = None

    # ------------------------------------------------------------ what a step shows
    def seats(self) -> list[str]:
        return [f"Player {i + 1} ({k})" for i, k in enumerate(self.rec.agents)]

    def at(self, number: int, seat: int | None) -> dict:
        """The table before decision ``number`` (from 1; one past the last: the end), as
        ``seat`` (from 0; None: the public view) sees it, with that decision and its answer."""
        if seat is not None and not self.own:
            raise LobbyProblem("a seat's own view is shown only for this machine's own "
                               "records: here the public view only")
        if seat is not None and not 0 <= seat < self.rec.players:
            raise LobbyProblem("there is no such seat in this game")
        number = max(1, min(int(number), self.count + 1))
        with self._lock:
            self._go(number - 1)
            stream = self._stream
            game = stream.game
            viewer = game.n if seat is None else seat
            n = len(game.log_lines)
            lines = game.log_lines if seat is None else \
                [game.log_line_for(i, seat) for i in range(n)]
            out = {
                "type": "replay", "replay": self.id, "title": self.title,
                "game": self.rs.name, "count": self.count, "own": self.own,
                "seats": self.seats(), "seat": None if seat is None else seat + 1,
                "number": self._given + 1, "view": seat_view(game, seat),
                "log": [visible(line) for line in lines if line][-LOG_SHOWN:],
                "decision": None, "result": None, "problem": None,
            }
            current = stream.current
            if self._broken is not None and self._given + 1 >= self._broken[0]:
                out["problem"] = visible(f"decision {self._broken[0]}: {self._broken[1]}")
            elif current is not None and self._given < self.count:
                out["decision"] = self._decision(current, game, viewer)
            elif current is not None:
                out["unfinished"] = True  # the record stops before the game's end
            elif self._given < self.count:
                out["problem"] = visible(f"the game ended after {self._given} decisions but "
                                         f"the record has {self.count}")
            if stream.result is not None:
                out["result"] = result_data(game, stream.result)
                if self.rec.final_hash is not None:
                    out["result"]["same"] = stream.result.final_hash == self.rec.final_hash
            return out

    def _decision(self, current, game, viewer: int) -> dict:
        decision = Decision(current, game, self._given + 1)
        who = game.state.players[current.player].name
        answer = self.rec.decisions[self._given]
        if hides(current, game, viewer):
            return {"number": decision.number, "who": visible(who), "hidden": True,
                    "prompt": visible(f"{who} decides: hidden from this view"),
                    "count": len(current.options) if not current.is_range else None,
                    "options": [], "refused": [], "range": None, "numbers": False,
                    "set": False, "kind": current.kind}
        data = decision_data(decision)
        data["who"] = visible(who)
        data["given"] = answer
        options = decision.options
        if current.is_range:
            data["answer"] = str(answer)
        elif 0 <= answer < len(options):
            data["answer"] = visible(options[answer].label)
        return data


class Replays:
    """The replays open on this server (a few, the oldest closed first)."""

    def __init__(self, lobby, loopback: bool):
        self.lobby = lobby
        self.loopback = loopback
        self._open: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def _keep(self, replay: Replay) -> Replay:
        with self._lock:
            self._open[replay.id] = replay
            while len(self._open) > MAX_REPLAYS:
                _, old = self._open.popitem(last=False)
                old.close()
        return replay

    def get(self, ident) -> Replay:
        with self._lock:
            replay = self._open.get(ident) if isinstance(ident, str) else None
            if replay is not None:
                self._open.move_to_end(ident)
        if replay is None:
            raise LobbyProblem("this replay is closed: open its record again")
        return replay

    def saved(self, name) -> Replay:
        """A record of the records folder, by its file name: this machine's own when the
        server listens on this machine only."""
        path = self.lobby.record_path(name)
        try:
            rec = Record.load(path)
        except RecordError as exc:
            raise LobbyProblem(visible(f"{path.name}:{exc.line}:{exc.col}: {exc.message}")) \
                from None
        rs = ruleset_for_record(self.lobby, rec, path)
        return self._keep(Replay(rec, rs, path.name, own=self.loopback))

    def uploaded(self, name: str, raw: bytes) -> Replay:
        """A record the person sent (anybody's file): the public view only."""
        shown = Path(str(name or "record.json")).name[:120] or "record.json"
        folder = Path(tempfile.mkdtemp(prefix="rulebook-upload-"))
        try:
            path = folder / "record.json"
            path.write_bytes(raw)
            try:
                rec = Record.load(path)
                rs = ruleset_for_record(self.lobby, rec, path)
            except RecordError as exc:
                raise LobbyProblem(visible(f"{shown}:{exc.line}:{exc.col}: {exc.message}")) \
                    from None
            except LobbyProblem as exc:
                raise LobbyProblem(str(exc).replace(str(path), shown)) from None
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        rec.path = shown
        return self._keep(Replay(rec, rs, shown, own=False))

    def close_all(self) -> None:
        with self._lock:
            replays, self._open = list(self._open.values()), OrderedDict()
        for replay in replays:
            replay.close()
