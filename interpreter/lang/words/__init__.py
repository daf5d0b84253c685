"""Words for people: the one renderer from checked effect trees to English.

Card text, option labels, prompts, refusal reasons and the docs all come from
here, so a person never reads effect code. Each builtin carries a phrase
template next to its doc (:mod:`..builtins`); a ruleset's procedures,
functions, events and modifiers may declare a ``phrase`` of their own, and
every resource, track, tag, zone, tile and card is called by its declared
``name``. Rendering is *static* (no game: "gain 1 coin for each tower") or
*dynamic* (a frame of a running game: "gain 3 coins"), where every expression
that reads the state without asking anyone is replaced by its value.

The package is split by job: :mod:`.english` (running text that knows no
tree), :mod:`.context` (where words are rendered), :mod:`.trees` (what the
renderer needs to know of a tree), the parts of the renderer
(:mod:`.names`, :mod:`.statements`, :mod:`.expressions`, :mod:`.calls`,
:mod:`.choices`, :mod:`.conditions`, :mod:`.reasons`), :mod:`.renderer`
(:class:`Words`, put together from those parts) and :mod:`.cards` (a card's
text and its catalogue entry).

May import: :mod:`..ast`, :mod:`..types` and :mod:`..builtins` of the
language, and nothing else of Rulebook.
"""

from __future__ import annotations

from .cards import catalogue_entry, facts_line
from .context import ASK, Ctx
from .english import lower_name, sentence, told, words_of_id
from .renderer import Words

__all__ = ["ASK", "Ctx", "Words", "catalogue_entry", "facts_line", "lower_name", "sentence",
           "told", "words_of_id"]
