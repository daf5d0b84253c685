"""What changed since a seat's last decision: the log folded into a short summary.

The log says everything, a line a change: every stock change of every
player, every card moved. Before a decision a person wants what changed:
:func:`summarise` turns the log lines one seat may read (``log_line_for``,
so hidden cards stay exactly as hidden as in the log) into groups, one per
headline (an unindented line: an action, a phase, a round), each with its
effects folded:

- a player's stock and production changes in one line, netted per resource
  ('Ann: −9 coins (now 3); +2 wood (now 5); production +1 stone'; what was
  gained and what was lost of one resource both said, in the order they
  came: '+3 coins, then −1 (now 10)');
- cards moved to the same place counted, named where this seat may read the
  names ('6 cards → your hand: …', '4 cards → Bob's hand'), and only counted
  when more than :data:`NAMES_LISTED` go anywhere but the reader's own places
  ('42 cards → Out of the game');
- any other line kept as it is (repeated lines once, with '(×N)');
- an unindented line about a card right after a player's move ('Rain (frame 2)
  fails: …') goes with the move: what the move did (a screen that folds the
  move to its headline still names what did it).

A player's move names in its headline what it was about, so that a screen
that cuts a group to its headline still says it: the first thing its effects
tell, when that is cards moved ('Bob: Play a card: Oak Mill'; a card drawn from
a deck, gained and not aimed at, with where it went: 'Bob: Trade: Rain → your
reserve'; and the cards the
mover then chose, 'Bob: Play a card: Oak Mill on Rain', and the players, 'Oak
Mill on Ann, Rain'; a card chosen that then moved was taken, with what the mover
paid for it, 'Oak Mill: Rain for 2 coins', or where it went, 'Oak Mill: Rain →
Bob's hand'; the card played is the first card moved, kept apart from cards its
effect sends the same way, and when there are such, the cards it then moved
elsewhere by name are what it did: 'Storm: 4 cards → Market: …'; 'Ann: Buy cards:
2 cards → your hand: Oak Mill, Rain', and to the others 'Ann: Buy cards: 2
cards → Ann's hand'), a choice of the mover's, asked or the only one ('Bob:
Hire a guide: Ada'; what the mover then put on it says more: 'Bob: Influence:
2 cubes → Rain (now 4 there)'; the choice is not said again below it; and so
does a card the mover chose after a kind of thing: 'Bob: Visit a site: Old
Mill', not 'a public site'), an answer taken for the seat reading ('… →
Rain (the only choice, taken for you)'), or a marker or track of the mover's
that moved before anything else did ('Bob: Climb: Height 5 → 2'; not a
worker put where the move is made). Hidden cards moved are counted only
when no line after them says more: 'Bob: Draw two, keep one: Rain → Discard
pile' (the card let go, where it went; not the one kept). Nothing is
guessed: a move that tells none of these keeps its headline as it is, and a
number is no answer without its question.

The summariser reads the lines the engine writes and knows only their
shape; it is given the players' names, the card names and the resources'
words (:class:`NewsWords`, built from a game by :meth:`NewsWords.of`), and
names nothing of any game. A line it does not recognise is kept as it is, so
nothing is ever lost, only not folded. The terminal shows the summary before
each decision; the browser can show the same groups.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MINUS = "−"  # the engine's minus sign in log lines
# the most cards a news line names when they go anywhere but the reader's own places
# (a deck's undealt cards leaving the game are counted: '42 cards → Out of the game')
NAMES_LISTED = 8

_TIMES = re.compile(r"^(.*) \(×(\d+)\)$")
_PROD = re.compile(r"^(?P<what>.+) production (?P<sign>[+−-])(?P<n>\d+) \(now (?P<now>-?\d+)\)$")
_STOCK = re.compile(r"^(?P<verb>gains|pays|loses) (?P<n>\d+) (?P<what>.+) \(now (?P<now>-?\d+)\)$")
# the same, as the engine writes it after the player's name and a colon: '+2 coins (now 5)'
_SIGNED = re.compile(r"^(?P<sign>[+−])(?P<n>\d+) (?P<what>.+) \(now (?P<now>-?\d+)\)$")
_CHOSE = re.compile(r"^(?:chooses|takes):? (.+?)(?: \(the only choice\))?$")
# your own answer taken for you: 'Unlock a technology: Which one? → Rain (the only …)'
_TAKEN = re.compile(r"^.+ → (.+) \(the only choice, taken for you\)$")
_DRAW = re.compile(r"^(?P<n>\d+) cards? from (?P<src>.+?) → (?P<to>.+?)(?:: (?P<names>.+))?$")


@dataclass
class NewsWords:
    """What the summariser must know of a game: names of players, cards and resources.

    ``units`` maps a resource's words as the log writes them (singular and
    plural) to ``(singular, plural)``; ``production`` maps the word before
    'production' in a production line to the same pair.
    """

    players: list[str]
    cards: set[str] = field(default_factory=set)
    units: dict[str, tuple[str, str]] = field(default_factory=dict)
    production: dict[str, tuple[str, str]] = field(default_factory=dict)
    # the piles a deck is refilled from, as the log names them ('Discard pile'): a card
    # sent there by a move is what the move cost, not what it did
    piles: set[str] = field(default_factory=set)
    # the rows the view declares (shared offers everyone sees), as the log names them
    # ('Market'): a card that arrives there is news to every player (:class:`Shared`)
    shared: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, game) -> "NewsWords":
        words = game.rs.words
        units, production = {}, {}
        for key in game.resource_decl:
            pair = (words.thing("resource", key, 1), words.thing("resource", key, 2))
            for w in pair:
                units.setdefault(w, pair)
            production.setdefault(pair[0], pair)
        cards = {str(e.data.get("name", cid)) for cid, e in game.rs.cards.items()}
        decl = game.zone_decl
        piles = {str(decl.get(r, {}).get("name") or r.replace("_", " "))
                 for z in decl for r in [decl[z].get("refill_from")] if r}
        view = game.rs.singles.get("view")
        rows = (view.data.get("rows") if view is not None and isinstance(view.data, dict)
                else None) or []
        shared = {str(decl.get(r["zone"], {}).get("name") or r["zone"].replace("_", " "))
                  for r in rows if isinstance(r, dict) and r.get("zone") in decl
                  and decl[r["zone"]].get("visibility", "public") == "public"} - piles
        return cls([p.name for p in game.state.players], cards, units, production, piles,
                   shared)


class Shared(str):
    """A line of the news that is news to every player: a card that arrived in a shared
    place all see (the row refilled after a buy). A screen that folds a move to its
    headline keeps it (screen.fit_news)."""

    __slots__ = ()


@dataclass
class NewsGroup:
    """One headline of the news (None for effects before any headline) and its effects."""

    headline: str | None
    effects: list[str]

    def lines(self) -> list[str]:
        return ([self.headline] if self.headline is not None else []) + \
            [Shared(f"  {e}") if isinstance(e, Shared) else f"  {e}" for e in self.effects]


def summarise(lines: list[str], words: NewsWords) -> list[NewsGroup]:
    """The news, in groups: each headline with its effects folded (see the module)."""
    groups: list[NewsGroup] = []
    folder = _Folder(words)
    headline: str | None = None
    started = False
    for raw in lines:
        if not raw:
            continue
        if not raw.startswith(" ") and _after_move(headline, raw, words):
            folder.add(raw)  # what the move did to a card: the move's (see below)
            continue
        if not raw.startswith(" "):
            if started:
                named = folder.named(headline)  # (before its lines: what it says, once)
                groups.append(NewsGroup(named, folder.lines()))
            headline, started = raw, True
            folder = _Folder(words, headline)
            continue
        started = True
        folder.add(raw.strip())
    if started:
        named = folder.named(headline)
        groups.append(NewsGroup(named, folder.lines()))
    return groups


def _after_move(headline: str | None, line: str, words: NewsWords) -> bool:
    """Whether an unindented ``line`` about a card ('Rain (frame 2) fails: …') comes under
    a player's move (``headline``, 'Bob: Play a card'): what the move did to the card,
    kept with the move, so a screen that folds the move to its headline still says what
    did it (playtest 32: a card played on the reader's technology left out, what it made
    fail shown alone). A line after a phase's headline stays its own."""
    if headline is None or not any(headline.startswith(f"{p}: ") for p in words.players):
        return False
    return any(line.startswith(name) and line[len(name):len(name) + 1] in ("", " ", ":")
               for name in words.cards)


def news_lines(groups: list[NewsGroup]) -> list[str]:
    return [line for g in groups for line in g.lines()]


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"{MINUS}{-n}"


class _Folder:
    """The effects under one headline, folded into buckets kept in first-seen order."""

    def __init__(self, words: NewsWords, headline: str | None = None):
        self.w = words
        self.order: list[tuple] = []
        # who -> (singular, plural) -> [gained, paid or lost, now]
        self.stock: dict[str, dict[tuple, list[int]]] = {}
        self.prod: dict[str, dict[tuple, int]] = {}  # who -> (sing, plur) -> delta
        self.moves: dict[str, list] = {}  # to -> [count, names]
        self.drawn: set[str] = set()  # the places cards were drawn to from a deck
        self.other: dict[str, int] = {}  # line -> times
        self.told: set = set()  # (kind, key) of the lines the headline says (named)
        names = sorted(words.players, key=len, reverse=True)
        self.who = re.compile("^(" + "|".join(re.escape(n) for n in names) + ")(:)? (.*)$") \
            if names else None
        m = self.who.match(headline) if self.who and headline else None
        self.moving = bool(m and m.group(2))  # a player's move (not a phase, a round)
        # the card the move played: the first card it moved, by name, alone, anywhere but
        # the reader's own places (kept apart from the cards its effect then moves there:
        # 'Storm → Discard pile', then '4 cards → Discard pile: …')
        self.played: tuple[str, str] | None = None

    def _bucket(self, key: tuple) -> None:
        if key not in self.order:
            self.order.append(key)

    def add(self, line: str) -> None:
        times = 1
        m = _TIMES.match(line)
        if m:
            line, times = m.group(1), int(m.group(2))
        if self._player_line(line, times) or self._move(line, times):
            return
        if times == 1 and self._step(line):
            return
        self._bucket(("other", line))
        self.other[line] = self.other.get(line, 0) + times

    def _step(self, line: str) -> bool:
        """'Heat 3 °C → 4 °C' after 'Heat 2 °C → 3 °C': one line, 'Heat 2 °C → 4 °C'."""
        left, arrow, right = line.partition(" → ")
        if not arrow:
            return False
        for i, (kind, before) in enumerate(self.order):
            if kind != "other" or self.other[before] != 1:
                continue
            b_left, _, b_right = before.partition(" → ")
            head = left[:-len(b_right)]
            if left.endswith(" " + b_right) and head.strip() and b_left.startswith(head):
                joined = f"{b_left} → {right}"
                del self.other[before]
                self.order[i] = ("other", joined)
                self.other[joined] = 1
                return True
        return False

    def _player_line(self, line: str, times: int) -> bool:
        m = self.who.match(line) if self.who else None
        if not m:
            return False
        who, colon, rest = m.groups()
        if colon:
            signed = _SIGNED.match(rest)
            if signed and signed.group("what") in self.w.units:
                verb = "gains" if signed.group("sign") == "+" else "pays"
                return self._stock(who, verb, signed, times)
            p = _PROD.match(rest)
            if not p or p.group("what") not in self.w.production:
                return False
            pair = self.w.production[p.group("what")]
            n = int(p.group("n")) * (-1 if p.group("sign") != "+" else 1)
            self._bucket(("player", who))
            mine = self.prod.setdefault(who, {})
            mine[pair] = mine.get(pair, 0) + n * times
            return True
        s = _STOCK.match(rest)
        if not s or s.group("what") not in self.w.units:
            return False
        return self._stock(who, s.group("verb"), s, times)

    def _stock(self, who: str, verb: str, s: re.Match, times: int) -> bool:
        pair = self.w.units[s.group("what")]
        n = int(s.group("n")) * times
        self._bucket(("player", who))
        moved = self.stock.setdefault(who, {}).setdefault(pair, [0, 0, 0, None])
        gained = verb == "gains"
        moved[0 if gained else 1] += n
        moved[2] = int(s.group("now"))
        if moved[3] is None:
            moved[3] = gained  # which came first: '+3 coins, then −1'
        return True

    def _move(self, line: str, times: int) -> bool:
        if " → " not in line:
            return False
        d = _DRAW.match(line)
        if d:
            n, to = int(d.group("n")) * times, d.group("to")
            names = d.group("names").split(", ") if d.group("names") else []
        else:
            what, _, to = line.partition(" → ")
            if what == "a card":
                n, names = times, []
            elif what in self.w.cards:
                n, names = times, [what] * times
            else:
                return False
        if self.moving and self.played is None and not d and n == 1 and names \
                and not to.startswith("your ") and not any(k in ("move", "played")
                                                           for k, _ in self.order):
            self.played = (names[0], to)
            self._bucket(("played", to))
            return True
        self._bucket(("move", to))
        if d:
            self.drawn.add(to)
        bucket = self.moves.setdefault(to, [0, []])
        bucket[0] += n
        bucket[1].extend(names)
        return True

    def named(self, headline: str | None) -> str | None:
        """The headline of a player's move with what it was about (see the module)."""
        m = self.who.match(headline) if self.who and headline else None
        if not m or not m.group(2):
            return headline  # (a phase, a round, a pass: no move of a player's)
        mover, move = m.group(1), m.group(3)
        settled = False  # a change of the world's came first: the mover's own are effects
        hidden = hidden_key = None  # hidden cards moved: how many went where, unless a
        # line after them says more
        for i, (kind, key) in enumerate(self.order):
            if kind == "move":
                n, names = self.moves[key]
                if not names:
                    if hidden is None:
                        hidden, hidden_key = self._move_line(key), key
                    continue
                # one card: its name (after hidden ones, where it went: 'Rain → Discard
                # pile', not as if it were the card kept); several: how many went where,
                # by name where this seat may read them ('2 cards → your hand: …')
                # (a card drawn was gained, not aimed at: where it went, 'Rain → your
                # reserve'; play 32 read an action's drawn card as its target)
                subject = names[0] if n == 1 and hidden is None and key not in self.drawn \
                    else self._move_line(key)
                if subject == names[0]:  # the card played: the cards the mover then chose
                    subject += self._targets(i, mover)  # are what it was played on
            elif kind == "played":  # the card played, and what it did that is public
                subject = self.played[0]
                if subject not in move:  # ('Buy: Rain': the card is the move's own)
                    subject += self._did(i, mover)
            elif kind == "other":
                subject, chosen = self._said(key, mover)
                if subject is None or not chosen and settled:
                    # (an answer taken for you that names nothing, a number, changes
                    # nothing of the world's: the mover's own line after it still counts)
                    if not _TAKEN.match(key):
                        settled = settled or not self._movers(key, mover)
                    continue
                said_key = key
                if chosen and subject not in self.w.cards:
                    # a kind of thing chosen ('a public site, for 1 coin'; 'deliver 1
                    # gem onto …'), then the card: the card says more ('Old Mill'; the
                    # kind, with its price, stays below)
                    card = next(((said, k) for kind2, k in self.order[i + 1:]
                                 if kind2 == "other"
                                 for said, was_chosen in [self._said(k, mover)]
                                 if was_chosen and said in self.w.cards), None)
                    if card is not None:
                        subject, said_key = card
                if chosen:  # what the mover then did with it says more: '2 cubes → Rain'
                    named = re.compile(rf"(?<!\w){re.escape(subject)}(?!\w)")
                    later = (self._said(k, mover, pieces=True)
                             for kind2, k in self.order[i + 1:] if kind2 == "other")
                    did = next((did for did, was_chosen in later
                                if did and not was_chosen and named.search(did)), None)
                    if i + 1 < len(self.order) and self.order[i + 1][0] == "played" \
                            and self.played[0] == subject:  # (a card chosen and played:
                        # where it went says more than what was then put on it (a keen
                        # player read '1 piece → X' above 'X → its zone')
                        subject += self._did(i + 1, mover)
                    elif did is not None:
                        subject = did
                    self.told.add(("other", said_key))  # (said in the headline: not again)
            else:
                continue
            if not subject or subject in move:
                return headline
            if f"{mover}: {subject}" in self.other:  # said in the headline: not again below
                self.told.add(("other", f"{mover}: {subject}"))
            elif kind == "move" and subject == self._move_line(key):
                self.told.add(("move", key))
            return f"{headline}: {subject}"
        if hidden is None:
            return headline
        self.told.add(("move", hidden_key))
        return f"{headline}: {hidden}"

    def _targets(self, i: int, mover: str) -> str:
        """' on Rain': the cards (and players: ' on Ann, Rain') the mover chose after the
        card they played (at ``i`` in the order), told in the headline and so not again
        below it; a card chosen that
        then moved was taken, not played on: ': Rain for 2 coins' (what the mover paid
        after choosing it), ': Rain → Bob's hand' (nothing paid); '' when none."""
        on, taken = [], []
        for j, (kind, key) in enumerate(self.order[i + 1:], i + 1):
            said, was_chosen = self._said(key, mover) if kind == "other" else (None, False)
            if was_chosen and said in self.w.players and said != mover:
                on.append(said)  # a player chosen: whom it was played on ('on Ann, Rain')
                self.told.add(("other", key))
                continue
            if not (was_chosen and said in self.w.cards):
                continue
            self.told.add(("other", key))
            to = next((k for kind2, k in self.order[j + 1:]
                       if kind2 == "move" and said in self.moves[k][1]), None)
            if to is None and any(kind2 == "move" and said in self.moves[k][1]
                                  for kind2, k in self.order[i + 1:j]):
                # moved with cards alike already put there (a person's own first answer is
                # not in the log, only the one taken for them after it): told in that line
                continue
            if to is None:
                on.append(said)
                continue
            price = self._paid(j, mover)
            if price:
                taken.append(f"{said} for {price}")
            else:
                taken.append(f"{said} → {to}")
                if self.moves[to][0] == 1:
                    self.told.add(("move", to))
        return (f" on {', '.join(on)}" if on else "") + \
            (f": {', '.join(taken)}" if taken else "")

    def _paid(self, j: int, mover: str) -> str:
        """What the mover paid after the choice at ``j`` ('2 coins'): one resource, lost
        only, first seen after it; '' when not so."""
        if ("player", mover) not in self.order[j + 1:]:
            return ""
        paid = [(one, many, lost) for (one, many), (gained, lost, _, _)
                in self.stock.get(mover, {}).items() if lost]
        if len(paid) != 1 or any(g for g, *_ in self.stock[mover].values()):
            return ""
        one, many, lost = paid[0]
        return f"{lost} {one if lost == 1 else many}"

    def _did(self, i: int, mover: str) -> str:
        """What the card played (at ``i`` in the order) did that the reader may see: the
        cards the mover then chose (:meth:`_targets`), else, when it sent other cards
        where it went itself, the first cards it then moved by name elsewhere ('Storm:
        4 cards → Market: …', after 4 more cards → Discard pile), told in the
        headline and not again below; '' when none."""
        targets = self._targets(i, mover)
        if targets:
            return targets
        if self.played[1] not in self.moves:  # the first card it then put somewhere, when
            # that is one card alone, by name ('Storm: Rain → Market'; play 31: the card it
            # put in play was only in the folded lines); not a card sent to a pile a deck
            # is refilled from, which is what the move cost ('The Wheel' paid with
            # 'Computers → Discard pile', play 32: not what it did)
            first = next((key for kind, key in self.order[i + 1:] if kind == "move"), None)
            if first is not None and self.moves[first][1] == [self.played[0]]:
                # the card itself moved on (turned up, then discarded): where it went, in
                # the order it went there ('Rain → Revealed cards → Discard pile'; play 32
                # said the discard first), once
                self.told.update({("played", self.played[1]), ("move", first)})
                return f" → {self.played[1]} → {first}"
            if first is not None and first not in self.w.piles and self.moves[first][0] == 1 \
                    and len(self.moves[first][1]) == 1 and not first.startswith("your "):
                self.told.add(("move", first))
                return f": {self._move_line(first)}"
            return ""
        for kind, key in self.order[i + 1:]:
            if kind != "move" or key == self.played[1]:
                continue
            n, names = self.moves[key]
            if names and len(names) == n:
                self.told.add(("move", key))
                return f": {self._move_line(key)}"
            return ""  # (hidden cards first: what they were is not said)
        return ""

    def _movers(self, line: str, mover: str) -> bool:
        """Whether a line is the mover's own ('Bob: …', 'Bob's only choice: …')."""
        c = self.who.match(line)
        return bool(c and c.group(1) == mover) or line.startswith(f"{mover}'s ")

    def _said(self, line: str, mover: str, pieces: bool = False) -> tuple[str | None, bool]:
        """What an effect line says the mover chose (and True), or did to their own marker
        or track ('Height 5 → 2') (and False); with ``pieces``, also the pieces they
        put somewhere ('2 cubes → Rain (now 4 there)'); None for a line of anything else
        (a worker put on a card says where the move was made, not what it did)."""
        taken = _TAKEN.match(line)
        if taken:  # your own answer, taken for you: only you read this line (a number
            # says nothing without its question)
            return (None, False) if taken.group(1).isdigit() else (taken.group(1), True)
        if line.startswith(f"{mover}'s only choice: "):
            return line[len(mover) + len("'s only choice: "):], True
        c = self.who.match(line)
        if c is None or c.group(1) != mover:
            return None, False
        if not c.group(2):
            chose = _CHOSE.match(c.group(3))
            return (chose.group(1), True) if chose else (None, False)
        did = c.group(3)
        _, arrow, target = did.partition(" → ")
        if not arrow or " (now " in target and not pieces:
            return None, False  # (pieces put somewhere say what was done with a choice)
        return did, False

    def _move_line(self, to: str) -> str:
        """The cards moved to one place, folded: 'Oak Mill → your hand', '2 cards → your
        hand: Oak Mill, Rain', '3 cards → Bob's hand'."""
        n, names = self.moves[to]
        if n == 1 and names:
            return f"{names[0]} → {to}"
        text = f"{n} card{'s' if n != 1 else ''} → {to}"
        if names and (len(names) <= NAMES_LISTED or to.startswith("your ")):
            unnamed = n - len(names)
            text += ": " + ", ".join(names) + (f" and {unnamed} more" if unnamed > 0 else "")
        return text

    def lines(self) -> list[str]:
        out = []
        for kind, key in self.order:
            if (kind, key) in self.told and (kind != "other" or self.other[key] == 1):
                continue
            if kind == "other":
                n = self.other[key]
                out.append(key if n == 1 else f"{key} (×{n})")
            elif kind == "move":
                line = self._move_line(key)
                out.append(Shared(line) if key in self.w.shared else line)
            elif kind == "played":
                out.append(f"{self.played[0]} → {key}")
            else:
                parts = []
                for (one, many), (gained, lost, now, first) in self.stock.get(key, {}).items():
                    if gained and lost:  # both: each with its sign, in the order they came
                        a, b = (f"+{gained}", f"{MINUS}{lost}") if first else \
                            (f"{MINUS}{lost}", f"+{gained}")
                        n = gained if first else lost
                        parts.append(f"{a} {one if n == 1 else many}, then {b} (now {now})")
                        continue
                    moved = f"+{gained}" if gained else f"{MINUS}{lost}" if lost else "+0"
                    unit = one if gained + lost == 1 else many
                    parts.append(f"{moved} {unit} (now {now})")
                prod = [f"{_signed(d)} {one}" for (one, _), d in self.prod.get(key, {}).items()
                        if d]
                if prod:
                    parts.append("production " + ", ".join(prod))
                if parts:
                    out.append(f"{key}: " + "; ".join(parts))
        return out
