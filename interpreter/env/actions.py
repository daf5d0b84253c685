"""A fixed action space per ruleset: each action id means the same thing in every decision.

An :class:`ActionTable` is worked out once per ruleset and player count, from
the declarations only, in this order (``describe()`` gives each id's words):

- the answers every ruleset has: end the turn, pass, nothing (``none``), done
  (a set chosen item by item), yes, no;
- each action of the ruleset, by its id; for an action offered once per
  element (``each``), one id per card of the ruleset it may be offered for;
- each action printed on a card, by the card's id and the action's place;
- each card, by its id (any copy of it);
  (a card of several copies, and the actions offered for it or printed on
  it, have one id more for each further copy: the second copy offered in
  the same decision, the third…)
- each board space, by its id;
- each player, relative to the seat asked ("you", "the next player"…);
- the options of a "choose one", by their place in the rule (first, second…,
  up to ``CHOICES``);
- each other named thing of the ruleset (resources, tags, tiles, markers,
  tracks, zones…), for a choice among them;
- the numbers 0 to ``NUMBERS``;
- then the overflow range: ``overflow`` ids that mean "the first, second…
  answer of this decision that has no id above" (a number past ``NUMBERS``, a
  second copy of a card offered beside the first, an element no id names).
  Their meaning is only their place in the decision; ``infos`` says what
  each is. A decision with more such answers than the overflow range holds is
  never asked with some left out: the environment stops the game there
  (:class:`~.errors.ActionSpaceTooSmall`), as it does in the index mode.

:meth:`ActionTable.place` gives, for a decision, the action id of each of its
answers (an option's place, or a number of its range).
"""

from __future__ import annotations

from ..engine.state import CardRef

NUMBERS = 100  # the numbers 0..NUMBERS have an id of their own
CHOICES = 26  # the options of a "choose one" with an id of their own (by place in the rule)
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth"]
# the answers every ruleset has, and their words
COMMON = [(("end",), "end the turn"), (("pass",), "pass"), (("none",), "choose nothing"),
          (("done",), "done choosing"), (("yes",), "yes"), (("no",), "no")]
KIND_WORDS = {"card action": "a card's action", "item": "a thing of the game"}
_NAMED_SECTIONS = ("resources", "card_resources", "tags", "card_types", "markers", "tiles",
                   "tracks", "zones")


def words(ident) -> str:
    """An id as a person reads it (``area_03`` -> 'area 03')."""
    return str(ident).replace("_", " ").strip()


def _name(entry, ident) -> str:
    data = entry.data if isinstance(entry.data, dict) else {}
    return str(data.get("name") or words(ident))


def _nth(i: int) -> str:
    return ORDINALS[i] if i < len(ORDINALS) else f"number {i + 1}"


def _relative(r: int) -> str:
    if r == 0:
        return "you"
    if r == 1:
        return "the next player"
    return f"the player {r} seats after you"


class ActionTable:
    """The action ids of one ruleset and player count, and what each means."""

    def __init__(self, rs, players: int, overflow: int):
        s = rs.sections
        self.n = players
        self.overflow = overflow
        self.entries: list[tuple] = []
        self.names: list[str] = []
        self.kinds: list[str] = []
        self.ids: dict[tuple, int] = {}

        def add(entry: tuple, name: str) -> None:
            if entry not in self.ids:
                self.ids[entry] = len(self.entries)
                self.entries.append(entry)
                self.names.append(name)
                self.kinds.append(entry[0])

        for entry, name in COMMON:
            add(entry, name)
        cards = {cid: _name(e, cid) for cid, e in rs.cards.items()}
        copies = {cid: max(1, int(e.data.get("copies", 1) or 1)) for cid, e in rs.cards.items()}

        def each_copy(entry: tuple, name: str, cid: str) -> None:
            """An id for the card, and one for each further copy offered beside it."""
            add(entry, name)
            for k in range(2, copies[cid] + 1):
                add(entry + (k,), f"{name}, {_nth(k - 1)} copy")

        for aid, e in s["actions"].items():
            name = _name(e, aid)
            add(("action", aid), name)
            if isinstance(e.data, dict) and e.data.get("each"):
                for cid, card in cards.items():
                    each_copy(("action", aid, cid), f"{name}: {card}", cid)
        for cid, e in rs.cards.items():
            for i, act in enumerate(e.data.get("actions") or []):
                act_name = (act or {}).get("name") if isinstance(act, dict) else None
                each_copy(("card action", cid, i), f"{cards[cid]}: " + (
                    str(act_name) if act_name else f"its {_nth(i)} action"), cid)
        for cid, name in cards.items():
            each_copy(("card", cid), name, cid)
        self.spaces = set()
        for b in s["boards"].values():
            for sp in b.data.get("spaces", []) or []:
                sid = str(sp["id"])
                self.spaces.add(sid)
                add(("space", sid), "space " + str(sp.get("name") or sp.get("label")
                                                   or words(sid)))
        for r in range(players):
            add(("player", r), "player: " + _relative(r))
        for i in range(CHOICES):
            add(("choice", i), f"the {_nth(i)} option of a choice")
        for section in _NAMED_SECTIONS:
            for ident, e in s.get(section, {}).items():
                if ("space", str(ident)) not in self.ids:
                    add(("item", str(ident)), _name(e, ident))
        for k in range(NUMBERS + 1):
            add(("number", k), f"the number {k}")
        self.fixed = len(self.entries)
        self._tell_apart()
        for j in range(overflow):
            add(("overflow", j), f"the {_nth(j)} answer with no id of its own")
        self.size = len(self.entries)

    def _tell_apart(self) -> None:
        """Ids whose words are the same (a card and a tile of one name, two cards of one
        name) get what they are in brackets ("Lamp (card)"), and then, if that is not
        enough, the words of their id ("Lamp (card: old lamp)")."""
        def repeated(names):
            count: dict[str, int] = {}
            for name in names:
                count[name] = count.get(name, 0) + 1
            return count
        base = list(self.names)
        count = repeated(base)
        kinds = [KIND_WORDS.get(e[0], e[0]) for e in self.entries]
        for i, name in enumerate(base):
            if count[name] > 1:
                self.names[i] = f"{name} ({kinds[i]})"
        count = repeated(self.names)
        for i, name in enumerate(list(self.names)):
            if count[name] > 1:
                self.names[i] = f"{base[i]} ({kinds[i]}: {words(self.entries[i][-1])})"

    def describe(self) -> list[str]:
        """The words of every action id, in order."""
        return list(self.names)

    # ------------------------------------------------------------ decisions
    def entry(self, game, decision, option) -> tuple | None:
        """What an option is in the table's terms (None: nothing has an id for it)."""
        value = option.value
        kind = decision.kind
        if value is None:
            key = option.key if option.key in ("none", "done") else "none"
            return (key,)
        if hasattr(value, "bind") and hasattr(value, "card"):  # an action (flow.ActionChoice)
            if value.key in ("end", "pass"):
                return (value.key,)
            if value.card is not None:
                if value.bind is not None:
                    return None
                return ("card action", game.state.cards[CardRef(value.card)].def_id,
                        value.index)
            aid = value.key.split(":")[1]
            if value.bind is None:
                return ("action", aid)
            element = value.bind[1]
            if isinstance(element, CardRef):
                return ("action", aid, game.state.cards[element].def_id)
            return None
        if isinstance(value, bool):
            return ("yes",) if value else ("no",)
        if isinstance(value, CardRef):
            return ("card", game.state.cards[value].def_id)
        if isinstance(value, int):
            if kind == "player":
                return ("player", (value - decision.player) % self.n)
            if kind == "number":
                return ("number", value)
            if kind == "option":
                return ("choice", value)
            return None
        if isinstance(value, str):
            if value in self.spaces:
                return ("space", value)
            return ("item", value)
        return None  # (a stretch of a long range, another kind of value)

    def place(self, game, decision) -> list[int]:
        """The action id of each answer of ``decision``, in order (an option's place, or
        low, low + 1… of a range); raises OverflowError when the answers without an id
        of their own are more than the overflow range holds."""
        out: list[int] = []
        taken: set[int] = set()
        spill = 0
        ids = self.ids
        if decision.is_range:
            answers = (("number", k) for k in range(decision.low, decision.high + 1))
        else:
            answers = (self.entry(game, decision, o) for o in decision.options)
        for entry in answers:
            i = ids.get(entry) if entry is not None and entry[0] != "overflow" else None
            k = 2
            while i is not None and i in taken:  # another copy of a card offered beside it
                i = ids.get(entry + (k,))
                k += 1
            if i is None:
                if spill >= self.overflow:
                    raise OverflowError(spill + 1)
                i = self.fixed + spill
                spill += 1
            taken.add(i)
            out.append(i)
        return out

    def spilled(self, game, decision) -> int:
        """How many answers of ``decision`` would go to the overflow range."""
        if decision.is_range:
            low, high = decision.low, decision.high
            inside = max(0, min(high, NUMBERS) - max(low, 0) + 1)
            return decision.count() - inside
        seen: dict[tuple, int] = {}
        spill = 0
        for o in decision.options:
            entry = self.entry(game, decision, o)
            if entry is None or entry not in self.ids:
                spill += 1
                continue
            k = seen[entry] = seen.get(entry, 0) + 1
            if k > 1 and entry + (k,) not in self.ids:
                spill += 1
        return spill
