"""Short keys: a few letters that name an option, the same from one decision to the next.

Options are listed with numbers, and the numbers follow the list: when an
option comes or goes, the ones after it move. A short key does not: it is
made from the option's own identity (an action's id, a card's id and copy, a
space's id), never from its place in a list, so a person can type ``mil``
for the Mill in every decision that offers it, and a script or a browser can keep
pointing at the same thing.

How a key is made, for a ruleset (:func:`ruleset_keys`, worked out once):

- every action, card and named thing of the ruleset (spaces, zones,
  resources, tracks, tags, tiles, markers…) proposes keys made from its id
  (a card: from its name, as a person reads it; an action whose id shares no
  word with its name: from the first word of its name, ``dra`` for "Draw a
  card unseen" whose id is ``scout``, then from its id):
  for ``stone_bridge_gate`` the initials ``sbg``, then longer ones (``stbg``,
  ``stobg``…); for a one-word id the start of it (``mil``, ``mill``), then its
  first two letters and a later one…, then longer starts; a word that is a
  number stays whole (``space_07`` → ``s07``); "the", "a", "of"… are
  skipped. No key is only digits (those are the options' numbers).
- in rounds, each proposes its next key, and a key not taken yet goes to the
  first of those proposing it: an action before a card before anything else,
  then the shorter id, then the id in alphabetical order ("mill" is ``mil``,
  "millpond" then ``milp``). Actions, cards and spaces are keyed first,
  the other names of the ruleset after them. One whose proposals are all
  taken gets its first proposal followed by 2, 3…
- words that commands use at the prompt (``help``, ``card``, ``log``…),
  ``end``, ``pass``, ``none``, ``y``, ``n`` and ``p1``…``p9`` are never made.

Then an option's key (:func:`short_keys`):

- an action: the action's key, then, when it is offered once per element,
  a dash and the key of the element it is offered for (``buy-rl2``);
- a card: the card's key, then its copy number when the game holds more
  than one copy of it (``rl2``: the second Red Lamp of the deck, always);
  another copy's key is no answer: it is refused with the keys the menu shows
  for the card (``decision.aliases``: the copy a person read of may be gone,
  and a key the menu did not show answering would hide a typo);
- an action printed on a card: the card's key, then a letter when the card
  has more than one action (``mila``, ``milb``);
- a space or another named thing: its key; a player: ``p1``, ``p2``… (the
  seat, from 1); one of the options of a "choose one": ``a``, ``b``… by its
  place in the rule (not in the list shown); yes and no: ``y``, ``n``;
  nothing: ``none``; ending the turn: ``end``; passing: ``pass``; a number
  offered as an option: the number.

Keys are made only when read (nothing here runs for agents that do not
look), depend on the ruleset, the game's cards and the option alone, and are
unique within a decision (should two options of a decision ever share one,
the later ones are told apart by 2, 3…, in the order of the options).
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict

from .state import CardRef

# never made from a name: what a person types at the prompt for something else
RESERVED = frozenset(
    ["end", "pass", "none", "yes", "no", "y", "n", "help", "state", "card", "cards", "log",
     "undo", "save", "quit", "exit", "map", "board", "me", "players", "standings", "why",
     "keys"] + [f"p{i}" for i in range(1, 10)])
_SKIPPED = frozenset(["the", "a", "an", "of", "and", "to", "in", "on", "for", "at", "by"])
_CATEGORY_ORDER = {"action": 0, "card": 1, "id": 2}


def _words(ident: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", ident).encode("ascii", "ignore").decode().lower()
    words = re.findall(r"[a-z]+|[0-9]+[a-z]*", plain)  # "1st" is one word
    kept = [w for w in words if w not in _SKIPPED]
    return kept or words or ["k"]


def candidates(ident: str) -> list[str]:
    """The keys an id proposes, best first (none of them only digits)."""
    words = _words(ident)
    out: list[str] = []

    def add(key: str) -> None:
        if key.isdigit():
            key = "k" + key
        if key not in out:
            out.append(key)

    def part(word: str, n: int) -> str:
        return word if word.isdigit() else word[:n]

    if len(words) == 1:
        word = words[0]
        add(word[:3])
        add(word[:4])
        for letter in word[3:]:  # the start and a later letter
            add(word[:2] + letter)
        for n in range(5, len(word) + 1):
            add(word[:n])
    else:
        add("".join(part(w, 1) for w in words))  # the initials
        for n in (2, 3, 4):  # more of the first word, then of each word
            add(part(words[0], n) + "".join(part(w, 1) for w in words[1:]))
        for n in (2, 3):
            add("".join(part(w, n) for w in words))
        add("".join(words))
    return out


def ruleset_keys(rs) -> dict[tuple[str, str], str]:
    """(category, id) → key for every action ('action'), card ('card') and named
    thing ('id') of the ruleset; worked out once per ruleset."""
    table = rs.__dict__.get("_short_keys")
    if table is None:
        names = {cid: str(e.data.get("name") or cid) for cid, e in rs.cards.items()}
        copies = {cid: int(e.data.get("copies", 1) or 1) for cid, e in rs.cards.items()}
        spoken = {aid: _spoken(aid, e.data.get("name")) for aid, e in
                  rs.sections["actions"].items()}
        table = rs.__dict__["_short_keys"] = _assign(
            _universe(rs), names, copies, {k: v for k, v in spoken.items() if v})
    return table


def _spoken(aid: str, name) -> list[str] | None:
    """The keys an action proposes from its name, when its id shares no word with the
    name a person reads ('scout' for 'Draw a card unseen': 'sco' meant nothing to a
    player): the start of the name's first word ('dra'), then the id's own keys. None
    when a word of the id is in the name (its first three letters), as most are."""
    if not name:
        return None
    said = _words(str(name))
    if {w[:3] for w in _words(aid)} & {w[:3] for w in said}:
        return None
    first = candidates(next((w for w in said if not w[0].isdigit()), said[0]))
    return first + [k for k in candidates(aid) if k not in first]


def _universe(rs) -> list[list[tuple[str, str]]]:
    """What is named, in two tiers: what people choose most (actions, cards,
    spaces) gets its key first; the rest of the ruleset's names then."""
    first = [("action", aid) for aid in rs.sections["actions"]]
    first += [("card", cid) for cid in rs.cards]
    spaces = {str(space["id"]) for board in rs.sections.get("boards", {}).values()
              for space in board.data.get("spaces", []) or []}
    names: set[str] = set()
    for section in ("resources", "card_resources", "tags", "card_types", "markers",
                    "tiles", "tracks", "zones"):
        names.update(str(k) for k in rs.sections.get(section, {}))
    return [first + [("id", s) for s in sorted(spaces)],
            [("id", name) for name in sorted(names - spaces)]]


def _assign(tiers: list[list[tuple[str, str]]], card_names: dict[str, str],
            copies: dict[str, int], spoken: dict[str, list[str]] | None = None
            ) -> dict[tuple[str, str], str]:
    taken = set(RESERVED)
    keys: dict[tuple[str, str], str] = {}

    def take(x, key):
        keys[x] = key
        taken.add(key)
        if x[0] == "card" and copies.get(x[1], 1) > 1:  # its copies' keys too
            joint = "-" if key[-1].isdigit() else ""
            taken.update(f"{key}{joint}{i}" for i in range(1, copies[x[1]] + 1))

    for universe in tiers:
        proposals = {x: (spoken[x[1]] if x[0] == "action" and spoken and x[1] in spoken
                         else candidates(card_names[x[1]] if x[0] == "card" else x[1]))
                     for x in universe}
        rank = {x: (_CATEGORY_ORDER[x[0]], len(x[1]), x[1]) for x in universe}
        pending = [x for x in universe if x not in keys]
        step = 0
        most = max((len(p) for p in proposals.values()), default=0)
        while pending and step < most:
            wanted = defaultdict(list)
            for x in pending:
                if step < len(proposals[x]) and proposals[x][step] not in taken:
                    wanted[proposals[x][step]].append(x)
            for key, who in wanted.items():  # the first by kind, then the shortest id
                take(min(who, key=rank.__getitem__), key)
            pending = [x for x in pending if x not in keys]
            step += 1
        for x in sorted(pending, key=rank.__getitem__):
            key = next((k for k in proposals[x] if k not in taken), None)
            if key is None:
                n = 2
                while f"{proposals[x][0]}{n}" in taken:
                    n += 1
                key = f"{proposals[x][0]}{n}"
            take(x, key)
    return keys


class _Keys:
    """The keys of one game: the ruleset's, and each card's copy number."""

    def __init__(self, game):
        self.game = game
        self.table = ruleset_keys(game.rs)
        self.copies: dict[str, list[int]] = {}
        self.made: dict[str, str] = {}  # keys of ids the ruleset does not name

    def of_id(self, ident: str) -> str:
        key = self.table.get(("id", ident))
        if key is None:
            key = self.made.get(ident)
            if key is None:
                key = self.made[ident] = candidates(ident)[0]
        return key

    def of_card(self, card: CardRef) -> str:
        state = self.game.state
        def_id = state.cards[card].def_id
        key = self.table.get(("card", def_id)) or candidates(def_id)[0]
        numbers = self.copies.get(def_id)
        if numbers is None or int(card) not in numbers:
            numbers = self.copies[def_id] = sorted(
                n for n, c in state.cards.items() if c.def_id == def_id)
        if len(numbers) > 1:
            key += ("-" if key[-1].isdigit() else "") + str(numbers.index(int(card)) + 1)
        return key

    def of_value(self, value) -> str:
        if isinstance(value, CardRef):
            return self.of_card(value)
        if isinstance(value, bool):
            return "y" if value else "n"
        if isinstance(value, int):
            return f"p{value + 1}" if 0 <= value < self.game.n else f"k{value}"
        if isinstance(value, str):
            return self.of_id(value)
        return ""

    def of_action(self, choice) -> str:
        """An action of the ruleset or on a card (flow.ActionChoice), by its own identity."""
        key = choice.key
        if key in ("end", "pass"):
            return key
        if choice.card is not None:
            out = self.of_card(CardRef(choice.card))
            actions = self.game.card_data(CardRef(choice.card)).get("actions") or []
            if len(actions) > 1 and choice.index is not None:
                out += chr(ord("a") + choice.index) if choice.index < 26 else str(choice.index)
        else:
            aid = key.split(":")[1] if key.startswith("action:") else key
            out = self.table.get(("action", aid)) or candidates(aid)[0]
        if choice.bind is not None:
            out += "-" + self.of_value(choice.bind[1])
        return out


def _keys_of(game) -> _Keys:
    keys = game.__dict__.get("_keys")
    if keys is None or keys.game is not game:
        keys = game.__dict__["_keys"] = _Keys(game)
    return keys


def short_keys(game, decision) -> list[str]:
    """The short key of each option of ``decision`` (empty for a range), made once."""
    if decision.shorts is not None:
        return decision.shorts
    if decision.is_range:
        decision.shorts = []
        return decision.shorts
    keys = _keys_of(game)
    out = []
    for option in decision.options:
        out.append(_option_key(keys, decision, option))
    seen: dict[str, int] = {}
    for i, key in enumerate(out):  # (never for the shipped rulesets: tests check it)
        if key in seen:
            n = 2
            while f"{key}{n}" in out:
                n += 1
            out[i] = f"{key}{n}"
        seen[out[i]] = i
    decision.shorts = out
    decision.aliases = _copy_aliases(keys, decision, out)
    return out


def _copy_aliases(keys: _Keys, decision, out: list[str]) -> dict[str, tuple[int, ...]]:
    """For each card the question offers: the keys of its copies not offered, each with
    the options that offer the card (a person who types one is told the keys shown:
    the copy they read of before may be gone)."""
    offered: dict[str, list[int]] = defaultdict(list)
    for i, option in enumerate(decision.options):
        if isinstance(option.value, CardRef):
            offered[keys.game.state.cards[option.value].def_id].append(i)
    aliases: dict[str, tuple[int, ...]] = {}
    for def_id, where in offered.items():
        base = keys.table.get(("card", def_id)) or candidates(def_id)[0]
        count = len(keys.copies.get(def_id) or ())
        joint = "-" if base[-1].isdigit() else ""
        for n in range(1, count + 1):
            alias = f"{base}{joint}{n}"
            if alias not in out:
                aliases[alias] = tuple(where)
    return aliases


def _option_key(keys: _Keys, decision, option) -> str:
    value = option.value
    if value is None:
        return option.key or "none"
    if hasattr(value, "bind") and hasattr(value, "card"):  # an action (flow.ActionChoice)
        return keys.of_action(value)
    if decision.kind == "number" and isinstance(value, int):
        return str(value)  # typed as the number it is
    if isinstance(value, tuple) and len(value) == 2:  # a stretch of a long range
        low, high = value
        return f"k{low}" if low == high else f"k{low}-{high}"
    if decision.kind == "option" and isinstance(value, int) and not isinstance(value, bool):
        return chr(ord("a") + value) if value < 26 else f"o{value + 1}"
    return keys.of_value(value) or f"o{decision.options.index(option) + 1}"
