"""An example Rulebook agent: it always takes the first option, or the last one.

Seat it from the repository's root with
``--agents examples.agents.first_option:FirstOption`` (from this folder, or
with it on PYTHONPATH, ``first_option:FirstOption``), with a parameter as
``examples.agents.first_option:FirstOption:prefer=last``, or install a
package that names it in the ``rulebook.agents`` entry-point group (see
docs/agents.md)::

    rulebook simulate timespan -n 20 -p 2 --agents examples.agents.first_option:FirstOption,random
"""

from __future__ import annotations


class FirstOption:
    """Answers every decision with its first option (``prefer=last``: its last one)."""

    def __init__(self, rng, prefer: str = "first"):
        if prefer not in ("first", "last"):
            raise ValueError(f"prefer is first or last, not {prefer!r}")
        self.rng = rng  # this seat's own random source (unused here)
        self.last = prefer == "last"

    def decide(self, decision, view):
        """An option's index, or for a number range (decision.is_range) a number in it."""
        if decision.is_range:
            return decision.high if self.last else decision.low
        return len(decision.options) - 1 if self.last else 0
