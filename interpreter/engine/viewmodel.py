"""The view model: what one seat sees at the table, as plain data in words.

:meth:`ViewModelMixin.view_model` builds, for one seat, a JSON-serialisable
dict: the keys of :meth:`Game.view <rulebook_games.engine.game.Game.view>`
(what agents and the learning environment read, unchanged) and ``table``,
the picture a person reads. ``table`` holds every label already in words
(names from the rule files, never ids) and every number evaluated from the
ruleset's ``view:`` section (see docs/engine.md#the-view); a ruleset without
one gets a generic table from its declarations.

Hidden information follows the same rule as ``Game.view``: a card is shown
only where :meth:`visible_to` lets this seat see it, anywhere else it is a
count. Values the ruleset declares are checked when it loads never to read a
hidden zone's cards (RB406), except panel values marked ``private``, which
only their own player gets; scoring categories that read hidden cards are
left out of other players' panels.

The model is built only when someone asks for it (a person's screen, a
replay, the API): agents get :meth:`Game.view` at each decision, so games
between agents pay nothing for it. Building it changes nothing in the game:
its work is counted on a budget of its own and the random source is left as
it was.
"""

from __future__ import annotations

import re

from ..lang import types as T
from ..lang.runtime import Budget, Frame, RuleRuntimeError
from .state import NO_OWNER, CardRef

# The colour words a ruleset may give a player (view: panels: colour), as the browser
# draws them: the first six are its seat colours, so a seat keeps its look when named.
COLOUR_WORDS = {"red": "#c8553d", "blue": "#2e6fb5", "green": "#3c9a5f", "yellow": "#d9a21b",
                "purple": "#7d5ba6", "black": "#4a4a4a", "orange": "#e07b39",
                "white": "#f2f2f2", "grey": "#8a8f98", "gray": "#8a8f98", "brown": "#8b5a2b",
                "pink": "#d96ba0"}
_HEX_COLOUR = re.compile(r"#(?:[0-9a-f]{3}|[0-9a-f]{6})")


class ViewModelMixin:
    """``view_model(seat)``: the table one seat sees, in words."""

    def view_value(self, key: tuple, seat: int, **variables):
        """One value of the view section for ``seat`` (None: not declared, or it failed),
        worked out on a budget of its own and leaving the random source as it was."""
        code = self.rs.code.get(("view",) + key)
        if code is None:
            return None
        budget, rng = self.budget, self.state.rng.getstate()
        self.budget = Budget()
        try:
            return code(self.frame(seat, **variables))
        except RuleRuntimeError:
            return None
        finally:
            self.budget = budget
            self.state.rng.setstate(rng)

    def card_price(self, card, seat: int) -> int | None:
        """What ``card`` costs ``seat`` now, or None: while a procedure with a ``price:``
        asks ``seat`` to choose among cards, what it says each offered card costs
        (Haggling's lower price); else the view's ``card_price``."""
        offered = self.offered
        if offered is not None and offered[0] == seat and card in offered[2]:
            name, variables = offered[1]
            code = self.rs.code.get(("procedure", name, "price"))
            if code is not None:
                budget, rng = self.budget, self.state.rng.getstate()
                self.budget = Budget()
                try:
                    value = code(Frame(self, dict(variables, card=card), 0, self.budget))
                    if type(value) is int:
                        return value
                except RuleRuntimeError:
                    pass
                finally:
                    self.budget = budget
                    self.state.rng.setstate(rng)
        value = self.view_value(("card_price",), seat, card=card)
        return value if type(value) is int else None

    def action_note(self, action: str, seat: int) -> str:
        """What the view shows beside an action for ``seat``: a number ('8 coins'), the
        one card it would act on ('Temple Schools: Cost 1 wood'), or ''."""
        i = self.action_notes.get(action)
        if i is None:
            return ""
        entry = self.rs.singles["view"].data["actions"][i]
        notes = []
        if "value" in entry:
            value = self.view_value(("actions", i), seat)
            if type(value) is int:
                notes.append(f"{value} {entry.get('text') or ''}".strip())
        if "card" in entry:  # the one card it would act on now: named, with its fact
            # (playtest 32: an only technology was unlocked, its cost paid, unseen)
            card = self.view_value(("actions", i, "card"), seat)
            if isinstance(card, CardRef) and card in self.state.cards:
                fact = self.card_fact(card, entry["fact"]) if entry.get("fact") else None
                notes.append(self.card_name(card) + (f": {fact.rstrip('.')}" if fact else ""))
        return " · ".join(notes)

    def idle_steps(self, choice, seat: int) -> str:
        """What the steps an action always takes would not do now, in words, for the
        option's note ('the Heat step does nothing: Heat is at its maximum'); ''
        when each would do something. The rules let such an action be taken (its cost
        paid for nothing), so it stays on the menu: a person is told before choosing.

        Read off the action's own statements in order (a track raised at its top, a
        tile placed with none left), up to the first that branches or that the reading
        cannot follow (a condition, a choice, a loop: what follows may not run)."""
        card = getattr(choice, "card", None)
        key = getattr(choice, "key", "")
        if card is not None:
            copy = self.state.cards.get(CardRef(card))
            if copy is None or getattr(choice, "index", None) is None:
                return ""
            tree = self.rs.asts.get(("card", copy.def_id, "action", choice.index, "do"))
        elif key.startswith("action:"):
            tree = self.rs.asts.get(("action", key.split(":")[1], "do"))
        else:
            return ""
        return self._idle_notes(tree, seat)

    def idle_of_offered(self, card, seat: int) -> str:
        """:meth:`idle_steps` of a card offered by the action running now, read off the
        effect its view entry names (``alongside``'s ``idle``: 'play' or a block), for
        the card's option ('no tiles of that kind are left: none is placed'); ''."""
        i = self.showing
        if i is None:
            return ""
        entry = (self.rs.singles["view"].data.get("alongside") or [])[i]
        effect, copy = entry.get("idle"), self.state.cards.get(CardRef(card))
        if not effect or copy is None:
            return ""
        key = ("card", copy.def_id, "play") if effect == "play" else \
            ("card", copy.def_id, "block", effect)
        return self._idle_notes(self.rs.asts.get(key), seat)

    def _idle_notes(self, tree, seat: int) -> str:
        from ..lang import ast
        if not isinstance(tree, ast.Effect):
            return ""
        notes = []
        for s in tree.body:
            if isinstance(s, ast.Raise):
                decl = self.track_decl.get(s.track) or {}
                if s.verb != "raise" or s.player is not None or "max" not in decl:
                    continue
                value = (self.state.players[seat].tracks if decl.get("scope") == "player"
                         else self.state.tracks).get(s.track)
                if value is not None and value >= decl["max"]:
                    name = decl.get("name") or s.track.replace("_", " ")
                    # (the step, not the action: the action's other steps still count;
                    # playtest 32 read 'raising it does nothing' as the whole action)
                    notes.append(f"the {name} step does nothing: {name} is at its maximum")
            elif isinstance(s, ast.Place):
                tile = getattr(s, "tile_id", None)
                if isinstance(tile, str) and tile in self.tile_decl \
                        and self.tiles_left(tile) <= 0:
                    notes.append(f"no {self._tiles(tile)} are left: none is placed")
            elif not isinstance(s, (ast.Gain, ast.CallStmt, ast.Pass, ast.Require,
                                    ast.Transfer, ast.Emit)):
                break  # (what follows may not run, or may run otherwise)
        return "; ".join(notes)

    def alongside(self, seat: int, options=()) -> list:
        """The cards the view shows with the questions of the action running now (its
        ``alongside``): those ``seat`` may see, and not among the options."""
        i = self.showing
        if i is None:
            return []
        cards = self.view_value(("alongside", i), seat) or []
        offered = set(getattr(o, "value", None) for o in options)
        return [c for c in cards if c not in offered and self.card_visible_to(c, seat)]

    def with_each(self, seat: int, card) -> list:
        """The cards the view names with one card offered by the action running now (its
        ``alongside``'s ``with_each``): those ``seat`` may see."""
        i = self.showing
        if i is None:
            return []
        cards = self.view_value(("alongside", i, "with_each"), seat, card=card) or []
        return [c for c in cards if c != card and self.card_visible_to(c, seat)]

    def view_model(self, seat: int) -> dict:
        base = self.view(seat)
        budget, rng = self.budget, self.state.rng.getstate()
        self.budget = Budget()  # the view's work is not the game's
        try:
            base["table"] = _Table(self, seat).build()
        finally:
            self.budget = budget
            self.state.rng.setstate(rng)
        return base

    def view_warnings(self, seat: int) -> list[dict]:
        """The view's facts with a ``when:`` that holds now for this seat, as the model has
        them (``warning: true``): what the screen shows before every decision. Only those
        facts are worked out, so a person's screen pays for no more."""
        entry = self.rs.singles.get("view")
        facts = (entry.data or {}).get("facts") if entry is not None \
            and isinstance(entry.data, dict) else None
        if not facts or not any("when" in f for f in facts):
            return []
        # inside an action the position is half made (a technology placed, its cubes
        # still to come): the warnings stay those of the position the action started from
        shown = self.__dict__.setdefault("_warnings_shown", {})
        running = getattr(self, "action_start", None) is not None
        if running and seat in shown:
            return shown[seat]
        budget, rng = self.budget, self.state.rng.getstate()
        self.budget = Budget()
        try:
            table = _Table(self, seat)
            out = table.value_list(facts, ("facts",), seat, {}, warnings=True)
        finally:
            self.budget = budget
            self.state.rng.setstate(rng)
        if not running:
            shown[seat] = out
        return out


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


class _Table:
    def __init__(self, game, seat: int):
        self.g = game
        self.seat = seat
        self.rs = game.rs
        entry = game.rs.singles.get("view")
        self.decl = entry.data if entry is not None and isinstance(entry.data, dict) else None
        self.problems: list[str] = []
        self.framed: set[str] = set()  # zones shown as the frames of a board
        self._laid: set | None = None  # zones shown card by card (_laid_out)

    # ------------------------------------------------------------ helpers
    def run(self, key: tuple, you: int | None, **variables):
        code = self.rs.code.get(("view",) + key)
        if code is None:
            return None
        try:
            return code(self.g.frame(you, **variables))
        except RuleRuntimeError as exc:
            self.problems.append(str(exc))
            return None

    def words(self, key: tuple, value):
        """A value as people read it: numbers stay numbers, the rest in words."""
        if value is None or isinstance(value, bool):
            return None if value is None else ("yes" if value else "no")
        tree = self.rs.asts.get(("view",) + key)
        typ = getattr(tree, "type", None)
        if type(value) is int and typ in (T.INT, T.ANY, None):
            return value
        if isinstance(value, list) and value and all(isinstance(v, CardRef) for v in value):
            names = [self.g.card_name(v) for v in value]
            # a card with a copy in sight (in the list, or another in a public zone)
            # says where it is: 'Lamp (Stall 2)'
            twins = self._public_twins(value)
            if len(set(names)) < len(names) or twins:
                from ..lang.words.english import join_and
                return join_and([f"{n} ({self.zone_name(self.g.state.cards[v].zone)})"
                                 if names.count(n) > 1 or v in twins else n
                                 for n, v in zip(names, value)])
        return self.rs.words.value_words(value, typ, rt=self.g)

    def _public_twins(self, cards) -> set:
        """The cards among ``cards`` with another copy (same definition) in sight: in a
        zone everyone sees that the table lays out card by card (a pile, such as a
        discard pile, shows no card a name could be mistaken for)."""
        g = self.g
        wanted = {g.state.cards[v].def_id for v in cards}
        laid = self._laid_out()
        seen: dict = {}
        for (zone, _owner), held in g.state.zones.items():
            if g.zone_decl.get(zone, {}).get("visibility", "public") != "public" or \
                    laid is not None and zone not in laid:
                continue
            for c in held:
                d = g.state.cards[c].def_id
                if d in wanted:
                    seen.setdefault(d, set()).add(c)
        return {v for v in cards if seen.get(g.state.cards[v].def_id, set()) - {v}}

    def _laid_out(self) -> set | None:
        """The zones a declared view shows card by card: its rows, the zones of its
        panels and the frames of its boards (None: no view is declared, every public
        zone is a row)."""
        if self.decl is None:
            return None
        if self._laid is None:
            laid = {r["zone"] for r in self.decl.get("rows") or []}
            laid |= set((self.decl.get("panels") or {}).get("zones") or [])
            for i, _board in enumerate(self.decl.get("boards") or []):
                laid |= {z for z in self.run(("boards", i, "each"), self.seat) or []
                         if isinstance(z, str) and z in self.g.zone_decl}
            self._laid = laid
        return self._laid

    def name_of(self, kind: str, ident: str) -> str:
        sym = self.rs.table.get(ident, (kind,))
        data = sym.data if sym is not None and isinstance(sym.data, dict) else {}
        return str(data.get("name") or ident.replace("_", " "))

    def zone_name(self, zone: str) -> str:
        return str(self.g.zone_decl.get(zone, {}).get("name") or zone.replace("_", " "))

    def card(self, number: int, text: bool = False) -> dict:
        g = self.g
        c = g.state.cards[number]
        out: dict = {"name": g.card_name(number)}
        if c.markers:
            out["marks"] = sorted(self.name_of("marker", m) for m in c.markers)
        if c.resources:
            out["resources"] = [{"name": g.rs.words.thing("card_resource", k, v), "amount": v}
                                for k, v in c.resources.items() if v]
        if c.pieces:
            # 'what': the pieces by kind ('1 worker, 2 cubes'), as card options say them
            out["pieces"] = [{"player": g.state.players[s].name, "amount": v,
                              "what": g.pieces_words(c, s, v)}
                             for s, v in sorted(c.pieces.items()) if v]
        used = self.used_actions(number)
        if used:
            out["used"] = used
        if text:
            out["text"] = g.card_summary(number, self.seat)
        return out

    def used_actions(self, number: int) -> list[str]:
        """The names of the card's actions already used in their period (round, turn, game)."""
        g = self.g
        st = g.state
        actions = g.card_data(number).get("actions") or []
        if not actions or st.cards[number].owner is None:
            return []
        scopes = {"round": ("round", st.round), "turn": ("turn", st.turn_number),
                  "game": ("game", 0)}
        out = []
        for i, action in enumerate(actions):
            once = action.get("once_per", "round")
            if once in scopes and (f"card:{int(number)}:{i}", st.cards[number].owner,
                                   scopes[once]) in st.used:
                out.append(str(action.get("name") or "action"))
        return out

    def value_list(self, items, key: tuple, you: int | None, variables: dict,
                   shown: bool = True, warnings: bool = False) -> list[dict]:
        """Labelled values; an item with ``when:`` (a warning) only while its condition
        holds, marked ``warning``. With ``warnings``, only those."""
        out = []
        for i, item in enumerate(items or []):
            if "when" in item:
                if not self.run(key + (i, "when"), you, **variables):
                    continue
            elif warnings:
                continue
            entry: dict = {"label": item["label"]}
            if "when" in item:
                entry["warning"] = True
            if item.get("text"):
                entry["text"] = item["text"]
            if "value" in item:
                if shown:
                    entry["value"] = self.words(key + (i,), self.run(key + (i,), you,
                                                                     **variables))
                    if entry["value"] is None and item.get("none"):
                        entry["value"] = item["none"]  # the ruleset's words for no value
                else:
                    entry["hidden"] = True
            out.append(entry)
        return out

    # -------------------------------------------------------------- parts
    def build(self) -> dict:
        d = self.decl or {}
        out = {
            "title": self.title(),
            "facts": self.value_list(d.get("facts"), ("facts",), self.seat, {}),
            "tracks": self.tracks(),
            "boards": self.frame_boards() + self.space_boards(),
            "rows": self.rows(),
            "piles": [],
            "panels": [self.panel(p) for p in range(self.g.n)],
            "standings": self.standings(),
        }
        out["piles"] = self.piles(out)
        if self.problems:
            out["problems"] = self.problems
        return out

    def title(self) -> dict:
        g, st = self.g, self.g.state
        rounds = self.rs.singles.get("rounds")
        out = {"game": self.rs.name, "round_word": _first_up(self.rs.words.rounds),
               "round": st.round, "phase": g.phase_name(st.phase) if st.phase else "",
               "you": st.players[self.seat].name if self.seat < g.n else None,
               "turn_order": [st.players[p].name for p in st.turn_order]}
        if (self.decl or {}).get("last_round") is False:
            pass  # the rounds' max is only a cap: the game ends on a condition
        elif rounds is not None and isinstance(rounds.data, dict) and rounds.data.get("max"):
            out["last_round"] = rounds.data["max"]
        elif rounds is not None and isinstance(rounds.data, dict) \
                and isinstance(rounds.data.get("count"), int):
            out["last_round"] = rounds.data["count"]
        if 0 <= st.turn_seat < g.n:
            out["turn"] = st.players[st.turn_seat].name
        if st.turn_number:
            out["turn_number"] = st.turn_number
        phase = self.rs.sections["phases"].get(st.phase)
        turns = phase.data.get("turns") if phase is not None and isinstance(phase.data, dict) \
            else None
        if st.turn_round and isinstance(turns, dict):  # each player's turns come round again
            out["turn_round"] = st.turn_round
            out["turns_each"] = int(turns.get("repeat", 1))
        if g.variants:
            out["variants"] = sorted(str((self.rs.sections["variants"][v].data or {}).get(
                "name", v)) if isinstance(self.rs.sections["variants"][v].data, dict)
                else v for v in g.variants if v in self.rs.sections["variants"])
        return out

    def tracks(self) -> list[dict]:
        g = self.g
        d = self.decl
        chosen = [(t["track"], t) for t in d.get("tracks") or []] if d and "tracks" in d \
            else [(t, {}) for t, decl in g.track_decl.items()
                  if decl.get("scope", "global") == "global" and decl.get("status", True)]
        out = []
        for tid, shown in chosen:
            decl = g.track_decl.get(tid) or {}
            item = {"name": shown.get("label") or decl.get("name") or tid.replace("_", " ")}
            if decl.get("scope", "global") == "player":  # a track of each player's own
                item["values"] = [{"player": p.name, "value": p.tracks.get(tid, 0)}
                                  for p in g.state.players]
            else:
                item["value"] = g.state.tracks.get(tid, 0)
            for key in ("min", "max", "unit"):
                if key in decl:
                    item[key] = decl[key]
            marks = []
            for i, reward in enumerate(decl.get("rewards") or []):
                tree = self.rs.asts.get(("track", tid, "reward", i))
                try:
                    words = self.rs.words.block(tree.body) if tree is not None else ""
                except Exception:  # a reward the words cannot say: the mark alone
                    words = ""
                mark = {"at": reward["at"], "reward": words}
                if reward.get("description"):
                    mark["text"] = reward["description"]
                if reward.get("once") and (tid, i) in g.state.claimed:
                    mark["taken"] = True  # a one-time reward someone already has
                marks.append(mark)
            if marks:
                item["marks"] = marks
            if shown.get("text"):
                item["text"] = shown["text"]
            out.append(item)
        return out

    def frame_boards(self) -> list[dict]:
        g = self.g
        out = []
        for i, board in enumerate((self.decl or {}).get("boards") or []):
            key = ("boards", i)
            each = self.run(key + ("each",), self.seat) or []
            var = board["as"]
            frames = []
            for element in each:
                if isinstance(element, str) and element in g.zone_decl:
                    self.framed.add(element)  # a frame that is a zone: not a pile as well
                v = {var: element}
                frame: dict = {}
                if "label" in board:
                    frame["label"] = self.words(key + ("label",),
                                                self.run(key + ("label",), self.seat, **v))
                frame["values"] = self.value_list(board.get("values"), key + ("values",),
                                                  self.seat, v)
                if "cards" in board:
                    cards = self.run(key + ("cards",), self.seat, **v) or []
                    frame["cards"] = [self.card(c) for c in cards
                                      if g.card_visible_to(c, self.seat)]
                if "here" in board:
                    frame["here"] = [g.state.players[p].name for p in range(g.n)
                                     if self.run(key + ("here",), p, **v)]
                frames.append(frame)
            item = {"name": board.get("name") or board["id"].replace("_", " "),
                    "shape": board.get("shape", "frames"), "frames": frames}
            if board.get("text"):
                item["text"] = board["text"]
            out.append(item)
        return out

    def space_boards(self) -> list[dict]:
        """The boards of the components, each space with its place, kind, printed bonus and
        tile; a board the view lists under ``maps`` also with a mark for each kind of space
        and a short symbol for each bonus, and for a tile when it gives one (else the
        tile's own; see docs/engine.md#the-view)."""
        g = self.g
        drawn = {m["board"]: m for m in (self.decl or {}).get("maps") or []}
        out = []
        for entry in self.rs.sections["boards"].values():
            board = entry.data
            how = drawn.get(board["id"], {})
            kinds, about = {}, {}
            for it in board.get("space_types", []) or []:
                ident = it["id"] if isinstance(it, dict) else it
                kinds[ident] = (it.get("name") if isinstance(it, dict) else None) \
                    or ident.replace("_", " ")
                if isinstance(it, dict) and it.get("description"):
                    about[ident] = it["description"]
            marks = how.get("marks") or {}
            symbols = dict(how.get("symbols") or {})
            used_bonus: list[str] = []
            spaces = []
            for space in board["spaces"]:
                sid = space["id"]
                live = g.state.spaces.get(sid) or {}
                item = {"label": g.space_label[sid],
                        "type": kinds.get(space.get("type"), str(space.get("type", ""))
                                          .replace("_", " "))}
                if space.get("type") in marks:
                    item["mark"] = marks[space["type"]]
                for key in ("row", "column"):
                    if key in space:
                        item[key] = space[key]
                if space.get("name"):
                    item["name"] = space["name"]
                if space.get("off_board"):
                    item["off_board"] = True
                bonus = space.get("bonus") or []
                if bonus:
                    item["bonus"] = [g.thing_name(b) for b in bonus]
                    for b in bonus:
                        if b not in used_bonus:
                            used_bonus.append(b)
                        symbols.setdefault(b, g.thing_name(b)[:1].upper())
                    item["bonus_symbols"] = "".join(symbols[b] for b in bonus)
                if live.get("tile") is not None:
                    decl = g.tile_decl.get(live["tile"], {})
                    item["tile"] = decl.get("name") or live["tile"].replace("_", " ")
                    item["symbol"] = symbols.get(live["tile"]) or decl.get("symbol") \
                        or item["tile"][:1].upper()
                    owner = live.get("owner")
                    if owner is not None and owner >= 0:
                        item["owner"] = g.state.players[owner].name
                        item["owner_seat"] = owner + 1
                    card = live.get("card")
                    if card is not None and live["tile"] in (how.get("card_tiles") or ()) \
                            and card in g.state.cards \
                            and g.card_visible_to(card, self.seat):
                        item["card"] = g.card_name(card)
                claim = live.get("claim")
                if claim is not None and claim >= 0 and live.get("tile") is None:
                    item["claimed_by"] = g.state.players[claim].name
                spaces.append(item)
            one = {"name": how.get("name") or board.get("name")
                   or board["id"].replace("_", " "),
                   "shape": board.get("layout", "explicit"), "spaces": spaces,
                   "tiles": [{"name": d.get("name") or t.replace("_", " "),
                              "symbol": symbols.get(t) or d.get("symbol")
                              or (d.get("name") or t)[:1].upper()}
                             for t, d in g.tile_decl.items()]}
            if marks:
                one["marks"] = [dict({"mark": m, "type": kinds.get(t, t)},
                                     **({"text": about[t]} if t in about else {}))
                                for t, m in marks.items()]
            if used_bonus:
                one["bonuses"] = [{"symbol": symbols[b], "name": g.thing_name(b)}
                                  for b in used_bonus]
            if how.get("text"):
                one["text"] = how["text"]
            out.append(one)
        return out

    def rows(self) -> list[dict]:
        g = self.g
        d = self.decl
        declared = (d or {}).get("rows")
        if d is None:  # the generic table: every shared zone anyone may look into
            declared = [{"zone": z} for z, decl in g.zone_decl.items()
                        if decl.get("scope", "shared") == "shared"
                        and decl.get("visibility", "public") == "public"]
        out = []
        for i, row in enumerate(declared or []):
            zone = row["zone"]
            owner = NO_OWNER
            cards = g.state.zones.get((zone, owner), [])
            item: dict = {"name": row.get("name") or self.zone_name(zone)}
            if g.visible_to(zone, owner, self.seat) != "all":
                item["count"] = len(cards)
            else:
                shown = []
                for c in cards:
                    card = self.card(c, text="price" in row)
                    if "price" in row:
                        card["price"] = self.words(("rows", i, "price"), self.run(
                            ("rows", i, "price"), self.seat, **{row.get("as", "card"): c}))
                    shown.append(card)
                item["cards"] = shown
            if row.get("text"):
                item["text"] = row["text"]
            out.append(item)
        return out

    def piles(self, table: dict) -> list[dict]:
        """Shared zones not shown as a row: how many cards each holds (a deck, a discard)."""
        g = self.g
        if self.decl is None:
            shown = {z for z, decl in g.zone_decl.items()
                     if decl.get("visibility", "public") == "public"}
        else:  # the ruleset chose the public zones it shows: the others are piles
            shown = {r["zone"] for r in self.decl.get("rows") or []}
            shown |= {z for z, decl in g.zone_decl.items()
                      if decl.get("visibility", "public") == "public"}
        out = []
        for z, decl in g.zone_decl.items():
            if decl.get("scope", "shared") != "shared" or z in shown or z in self.framed:
                continue
            n = len(g.state.zones.get((z, NO_OWNER), []))
            if n:
                out.append({"name": self.zone_name(z), "count": n})
        return out

    def _public_scoring(self) -> dict:
        rs = self.rs
        known = rs.__dict__.get("_view_public_scoring")
        if known is None:
            from ..load.view import hidden_reads
            known = {sid: not hidden_reads(rs.sections, rs.asts, rs.asts[("scoring", sid)])
                     if ("scoring", sid) in rs.asts else True for sid in rs.sections["scoring"]}
            rs.__dict__["_view_public_scoring"] = known
        return known

    def panel(self, p: int) -> dict:
        g = self.g
        st = g.state
        player = st.players[p]
        panels = (self.decl or {}).get("panels") or {}
        own = p == self.seat
        out: dict = {"name": player.name, "seat": p + 1, "you": own}
        if "colour" in panels:
            colour = self.colour(self.run(("panels", "colour"), p))
            if colour:
                out["colour"] = colour
        stocks = panels.get("stocks") if "stocks" in panels else list(g.resource_decl)
        out["stocks"] = []
        for r in stocks:
            item = {"name": self.name_of("resource", r), "amount": player.stock.get(r, 0)}
            if r in player.production:
                item["production"] = player.production[r]
            out["stocks"].append(item)
        if panels.get("tags") and "tag_count" in panels:  # as the rules count them
            counts = {t: self.run(("panels", "tag_count"), p, tag=t) or 0
                      for t in panels["tags"]}
            out["tags"] = [{"name": self.name_of("tag", t), "count": n}
                           for t, n in counts.items()]
        elif panels.get("tags"):
            counts = {t: 0 for t in panels["tags"]}
            for z in g.in_play_zones:
                if g.zone_scope.get(z) != "player":
                    continue
                for c in st.zones.get((z, p), []):
                    for t in g.card_data(c).get("tags", []) or []:
                        if t in counts:
                            counts[t] += 1
            out["tags"] = [{"name": self.name_of("tag", t), "count": n}
                           for t, n in counts.items()]
        tracks = [{"name": (g.track_decl.get(t) or {}).get("name") or t.replace("_", " "),
                   "value": v} for t, v in player.tracks.items()
                  if (g.track_decl.get(t) or {}).get("status", True) is not False]
        if tracks and self.decl is None:
            out["tracks"] = tracks
        values = panels.get("values") or []
        out["values"] = []
        for i, item in enumerate(values):
            shown = own or not item.get("private")
            out["values"] += self._panel_value(item, i, p, shown)
        if panels.get("scoring", True) and self.rs.sections["scoring"]:
            public = self._public_scoring()
            parts, total, partial = [], 0, False
            for sid, e in self.rs.sections["scoring"].items():
                if not (own or public[sid]):
                    partial = True
                    continue
                try:
                    points = g.run_code(("scoring", sid), g.frame(p))
                except RuleRuntimeError as exc:
                    self.problems.append(str(exc))
                    continue
                total += points or 0
                parts.append({"name": e.get("name") or sid.replace("_", " "),
                              "points": points})
            out["score"] = {"total": total, "parts": parts}
            if partial:
                out["score"]["partial"] = True
        zones = panels.get("zones") if "zones" in panels else \
            [z for z, s in g.zone_scope.items() if s == "player"]
        out["zones"] = []
        for z in zones:
            cards = st.zones.get((z, p), [])
            item: dict = {"name": self.zone_name(z)}
            if g.visible_to(z, p, self.seat) == "all":
                hidden_zone = g.zone_decl[z].get("visibility", "public") != "public"
                item["cards"] = [self.card(c, text=hidden_zone) for c in cards]
            else:
                item["count"] = len(cards)
            out["zones"].append(item)
        return out

    def colour(self, value) -> str | None:
        """A player's colour (the panels' ``colour``) as '#rrggbb', or None: no colour yet
        (none, empty), or words that name none (said among the table's problems)."""
        if value is None or value == "":
            return None
        text = str(value).strip().lower()
        if text in COLOUR_WORDS:
            return COLOUR_WORDS[text]
        if _HEX_COLOUR.fullmatch(text):
            return text if len(text) == 7 else "#" + "".join(c * 2 for c in text[1:])
        self.problems.append(f"the panel's colour '{value}' is not a colour: give a colour "
                             f"word ({', '.join(COLOUR_WORDS)}) or '#rrggbb'")
        return None

    def _panel_value(self, item: dict, i: int, p: int, shown: bool) -> list[dict]:
        key = ("panels", "values", i)
        entry: dict = {"label": item["label"]}
        if item.get("text"):
            entry["text"] = item["text"]
        if "value" in item:
            if shown:
                entry["value"] = self.words(key, self.run(key, p))
                if entry["value"] is None and item.get("none"):
                    entry["value"] = item["none"]  # the ruleset's words for no value
            else:
                entry["hidden"] = True
        return [entry]

    def standings(self) -> list[dict]:
        g = self.g
        out = []
        for i, goal in enumerate((self.decl or {}).get("standings") or []):
            key = ("standings", i)
            item: dict = {"name": goal["name"]}
            if goal.get("text"):
                item["text"] = goal["text"]
            if "each" in goal:
                goals = []
                for element in self.run(key + ("each",), self.seat) or []:
                    v = {goal["as"]: element}
                    one = {"name": _first_up(self._element_words(key, element)),
                           "values": [self.words(key + ("value",),
                                                 self.run(key + ("value",), p, **v))
                                      for p in range(g.n)]}
                    self._goal_now(goal, key, one, v)
                    goals.append(one)
                item["goals"] = goals
            else:
                item["values"] = [self.words(key + ("value",), self.run(key + ("value",), p))
                                  for p in range(g.n)]
                self._goal_now(goal, key, item, {})
            if "status" in goal:
                item["status_label"] = goal.get("status_label", "now")
            out.append(item)
        return out

    def _goal_now(self, goal: dict, key: tuple, one: dict, v: dict) -> None:
        """What taking the goal costs the player looking (while it is open), how it stands."""
        is_open = self.run(key + ("open",), self.seat, **v) if "open" in goal else True
        if "open" in goal:
            one["open"] = bool(is_open)
        if "cost" in goal and is_open:
            one["cost"] = self.run(key + ("cost",), self.seat, **v)
        if "status" in goal:
            one["status"] = self.words(key + ("status",),
                                       self.run(key + ("status",), self.seat, **v))

    def _element_words(self, key: tuple, element) -> str:
        tree = self.rs.asts.get(("view",) + key + ("each",))
        typ = getattr(tree, "type", None)
        elem = typ.elem if isinstance(typ, T.ListType) else None
        return str(self.rs.words.value_words(element, elem, rt=self.g))
