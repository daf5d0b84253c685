"""The renderer: one :class:`Words` per ruleset, put together from its parts.

Each part renders one kind of thing and calls the others through ``self``:
:class:`.names.Names`, :class:`.statements.Statements`,
:class:`.expressions.Expressions`, :class:`.calls.Calls`,
:class:`.choices.Choices`, :class:`.conditions.Conditions` and
:class:`.reasons.Reasons`. What they share (the ruleset, its symbol table, the
evaluator for dynamic words, and the names of rounds, spaces and board items)
is set up here, once.

May import: the package's modules.
"""

from __future__ import annotations

from typing import Callable

from .calls import Calls
from .choices import Choices
from .conditions import Conditions
from .english import lower_name, words_of_id
from .expressions import Expressions
from .names import Names
from .reasons import Reasons
from .statements import Statements


class Words(Names, Statements, Expressions, Calls, Choices, Conditions, Reasons):
    """Renders a checked ruleset's effects; one per ruleset (see Ruleset.words)."""

    def __init__(self, rs, evaluate: Callable | None = None):
        self.rs = rs
        self.table = rs.table
        self.evaluate = evaluate  # (expr node, frame) -> value, for dynamic words
        self._filters: dict = {}  # a choice's node id -> the list it picks from (_only_choice)
        self._keep: list = []
        self.rounds = words_of_id("round")
        rounds = rs.singles.get("rounds")
        if rounds is not None and isinstance(rounds.data, dict) and rounds.data.get("name"):
            self.rounds = lower_name(str(rounds.data["name"]))
        self.spaces: dict[str, str] = {}  # space id -> how a person calls it
        for board in rs.sections.get("boards", {}).values():
            for i, space in enumerate(board.data.get("spaces", []) or [], 1):
                label = space.get("label")
                name = space.get("name")
                # a named space off the board is its name alone (no map to find it on)
                shown = label is not None and not (name and space.get("off_board"))
                self.spaces[space["id"]] = (f"{name} #{label}" if name and shown
                                            else name or f"#{label if label is not None else i}")
        self.board_items: dict[str, str] = {}  # space types and bonuses, by id
        for board in rs.sections.get("boards", {}).values():
            for key in ("space_types", "bonuses"):
                for item in board.data.get(key, []) or []:
                    if isinstance(item, dict):
                        self.board_items.setdefault(item["id"], item.get("name") or item["id"])

