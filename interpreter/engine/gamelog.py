"""The game log: public lines, each seat's private version, and held lines.

The part of :class:`~.game.Game` that writes the log: a line for everyone,
optionally with some seats' own versions of it (cards only they may see),
repeated lines folded into one ('… (×3)'), and lines of a running action
held back until it succeeds (a card it moves twice told once, where it ended). Trials and unlogged simulations write nothing.
A line longer than :data:`MAX_LOG_LINE` is cut there, and says how much was cut;
once the log holds :data:`MAX_LOG_KEPT` characters, it says it stops there and
takes no more lines (the game goes on: the log is what people read, and a game
must play the same whether its log is kept or not).
"""

from __future__ import annotations

# The longest log line shown to people (the longest the shipped games write is 353
# characters: a hand drawn, named to its owner); a longer one is cut, and says so.
MAX_LOG_LINE = 4_000
# The most text one game's log keeps (the most real games write is some 70,000
# characters); past it, one last line says the log stops.
MAX_LOG_KEPT = 10_000_000


def _shown(line: str) -> str:
    """The line as the log keeps it: cut at MAX_LOG_LINE, with what was cut said."""
    if len(line) <= MAX_LOG_LINE:
        return line
    return f"{line[:MAX_LOG_LINE]}… ({len(line) - MAX_LOG_LINE:,} more characters cut)"


def _same_line(last: str, new: str) -> bool:
    return last == new or (last.endswith(")") and " (×" in last
                           and last[:last.rindex(" (×")] == new)


def _repeated(line: str) -> str:
    if line.endswith(")") and " (×" in line:
        head, n = line[:line.rindex(" (×")], int(line[line.rindex(" (×") + 3:-1])
        return f"{head} (×{n + 1})"
    return f"{line} (×2)"


class LogMixin:
    """The game log: public lines, each seat's private version, and held lines."""

    @property
    def logging(self) -> bool:
        """Whether log lines are worth making now (someone listens, and this is no trial)."""
        return not self.dry_run and (self.keep_log or bool(self.listeners))

    def log(self, message, private: dict | None = None):
        """Add a public line; ``private`` gives some seats their own version of it."""
        if not self.logging:
            return
        if self.pending_heading is not None:  # a flow step's heading, before its first effect
            heading, self.pending_heading = self.pending_heading, None
            effect = message.startswith(" ") if message else \
                any(line.startswith(" ") for line in (private or {}).values())
            if effect:
                self.log(heading)
        if self.held is not None:
            self.held.append((message, private))  # (cut when it is written)
            return
        if len(message) > MAX_LOG_LINE:
            message = _shown(message)
        if private and any(len(line) > MAX_LOG_LINE for line in private.values()):
            private = {seat: _shown(line) for seat, line in private.items()}
        kept = self.log_kept
        if kept >= MAX_LOG_KEPT:
            return
        kept += len(message) + (sum(map(len, private.values())) if private else 0)
        if kept >= MAX_LOG_KEPT:  # this line is not kept: one that says so is
            message, private = (f"(the log stops here: it holds {MAX_LOG_KEPT:,} "
                                "characters, the most one game's log keeps; the game goes "
                                "on)"), None
        self.log_kept = kept
        n = len(self.log_lines)
        if n and message and not private and n - 1 not in self.private_lines \
                and not self.listeners and _same_line(self.log_lines[-1], message):
            self.log_lines[-1] = _repeated(self.log_lines[-1])  # '… (×3)'
            return
        self.log_lines.append(message)  # '' is a line only the seats in 'private' see
        if private:
            self.private_lines[n] = dict(private)
        if message:
            for listener in self.listeners:
                listener(message)

    def log_heading(self, heading: str) -> None:
        """Give the effect lines that follow a heading of their own ('· End of the round'),
        written only if one comes before the next heading (a step that changes nothing
        leaves none); ``None`` forgets one not yet written."""
        self.pending_heading = heading if self.logging else None

    def log_value_words(self, value, typ) -> str:
        """A value the rules 'log', in words: a card by name only where every seat may see
        it (else 'a card'), a player by name, a list joined with 'and'."""
        from ..lang import types as T
        from ..lang.words.english import join_and
        from .state import CardRef
        if isinstance(value, list):
            elem = getattr(typ, "elem", None)
            return join_and([self.log_value_words(v, elem) for v in value]) or "none"
        if isinstance(value, CardRef):
            c = self.state.cards[value]
            if self.visible_to(c.zone, c.zone_owner, -2) != "all":  # (no seat is -2)
                return "a card"
        if typ is T.STR and isinstance(value, str):
            return value  # text the rules wrote
        return self.rs.words.value_words(value, typ, rt=self)

    def _last_line(self):
        if self.held is not None:
            return self.held[-1][0] if self.held else None
        return self.log_lines[-1] if self.log_lines else None

    def _replace_last_line(self, line: str) -> None:
        if self.held is not None:
            self.held[-1] = (line, self.held[-1][1])
        else:
            self.log_lines[-1] = _shown(line)

    def log_line_for(self, i: int, seat: int) -> str:
        """Line i of the log as this seat reads it (its own cards by name)."""
        return self.private_lines.get(i, {}).get(seat, self.log_lines[i])

    def hold_log(self) -> None:
        """Keep log lines back until the running action succeeds (or is undone)."""
        self.held = []
        self.held_moves = {}

    def log_move(self, card, message: str, private: dict | None = None) -> None:
        """A card's move, as :meth:`log`; a card moved again in the same running action is
        said once, where it first moved, with where it ended ('Oak Mill → Discard pile',
        not '→ Cards in play' and, after its effect, '→ Discard pile': a place it
        passed through for an instant is no news)."""
        held = self.held
        if held is None:
            self.log(message, private)
            return
        moves = self.held_moves
        at = moves.get(card)
        if at is not None and at < len(held):
            held[at] = (message, private)
            return
        self.log(message, private)
        if held and held[-1][0] == message:
            moves[card] = len(held) - 1

    def log_unmoved(self, card) -> None:
        """The card's next move is said on its own line (it was hidden on the way)."""
        if self.held is not None:
            self.held_moves.pop(card, None)

    def release_log(self, keep: bool) -> None:
        lines, self.held = self.held or [], None
        self.held_moves = {}
        if keep:
            for line, private in lines:
                self.log(line, private)
