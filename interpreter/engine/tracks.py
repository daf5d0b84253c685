"""Tracks: reading them, moving them step by step, and their rewards.

The part of :class:`~.game.Game` for global and per-player tracks: a move
goes one step at a time within the track's range, gives the rewards of each
step reached, and emits the track's event; setting a track clamps the value.
"""

from __future__ import annotations

from ..lang.runtime import MAX_INT, RuleRuntimeError, shown_number
from .state import BIG


class TracksMixin:
    """Tracks: reading them, moving them step by step, and their rewards."""

    def track(self, track, player):
        if track in self.player_tracks:
            if player is None:
                raise RuleRuntimeError(f"'{track}' is a per-player track and there is no "
                                       "acting player here")
            return self.state.players[player].tracks[track]
        return self.state.tracks[track]

    def move_track(self, track, steps, player):
        decl = self.track_decl[track]
        step = int(decl.get("step", 1))
        lo, hi = decl.get("min", -BIG), decl.get("max", BIG)
        per_player = decl.get("scope") == "player"
        if per_player and player is None:
            raise RuleRuntimeError(f"'{track}' is a per-player track and no player is "
                                   "acting here")
        st = self.state
        holder = st.players[player].tracks if per_player else st.tracks
        if self.logging:  # told first, so what the steps give follows the move itself
            target = holder[track]
            for _ in range(abs(steps)):
                nxt = target + (step if steps > 0 else -step)
                if nxt > hi or nxt < lo:
                    break
                target = nxt
            if target != holder[track]:
                self._log_track(track, holder[track], target, player)
        moved = 0
        for _ in range(abs(steps)):
            now = holder[track]
            nxt = now + (step if steps > 0 else -step)
            if nxt > hi or nxt < lo:
                break
            if per_player:
                st.set_player(player, "tracks", track, nxt)
            else:
                st.set_track(track, nxt)
            moved += 1 if steps > 0 else -1
            if steps > 0:
                self._rewards(track, nxt, player)
        if moved and decl.get("emits"):
            self.emit(decl["emits"], {"player": player, "track": track, "steps": moved})
        return moved

    def _rewards(self, track, value, player):
        for i, reward in enumerate(self.track_decl[track].get("rewards", []) or []):
            if reward["at"] != value or reward.get("when", "immediate") != "immediate":
                continue
            if reward.get("once"):
                key = (track, i)
                if key in self.state.claimed:
                    continue
                self.state.add_to("claimed", key)
            if self.logging and reward.get("description"):
                self._log_reward(track, value, player, reward["description"])
            self.run_code(("track", track, "reward", i), self.frame(player))

    def _log_reward(self, track, value, player, description):
        """A reward given, in the ruleset's words, before what it does: '8 VP for the
        first to get here (Science 11)', so the gain under it reads as that reward's."""
        whose, name, unit = self._track_words(track, player)
        self.log(f"  {whose}{str(description).rstrip('.')} ({name} {value}{unit})")

    def _track_words(self, track, player) -> tuple[str, str, str]:
        """How a log line names a track's move: whose it is ('Ann: ', for a player's own
        track), its name, and its unit (' °C', or '')."""
        decl = self.track_decl[track]
        name = decl.get("name") or track.replace("_", " ")
        unit = f" {decl['unit']}" if decl.get("unit") else ""
        whose = f"{self.state.players[player].name}: " if decl.get("scope") == "player" \
            and player is not None else ""
        return whose, name, unit

    def set_track(self, track, value, player):
        if value.__class__ is not int or not -MAX_INT <= value <= MAX_INT:
            name = self.track_decl[track].get("name") or track.replace("_", " ")
            if not isinstance(value, int):
                raise RuleRuntimeError(f"cannot set {name} to none: it is not a number")
            raise RuleRuntimeError(f"cannot set {name} to {shown_number(value)}: beyond the "
                                   f"limit of {MAX_INT:,} (10^18)")
        decl = self.track_decl[track]
        value = max(decl.get("min", -BIG), min(decl.get("max", BIG), value))
        per_player = decl.get("scope") == "player"
        holder = self.state.players[player].tracks if per_player else self.state.tracks
        before = holder[track]
        if per_player:
            self.state.set_player(player, "tracks", track, value)
        else:
            self.state.set_track(track, value)
        if before != value and self.logging:
            self._log_track(track, before, value, player)

    def _log_track(self, track, before, after, player):
        decl = self.track_decl[track]
        if decl.get("logged") is False:  # (a marker the rules tell in their own words)
            return
        whose, name, unit = self._track_words(track, player)
        self.log(f"  {whose}{name} {before}{unit} → {after}{unit}")
