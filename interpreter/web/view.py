"""The one adapter from the engine to the page: a seat's view model, and its decision, as data.

The page draws the engine's view model (:meth:`Game.view_model`, the table
one seat sees, every label in words; docs/engine.md#the-view) and nothing
else: no second picture of the game is built here. This module only adds
what a person at a browser needs beside it:

- the public view for spectators and public replays: the table of a seat
  that is nobody's (every hidden zone a count), :func:`public_model`;
- the generated text (facts and lines) of each card the seat holds hidden
  (its hand), keyed by the card's name, :func:`held_texts`;
- the colours a ruleset gives the kinds of space, tiles and bonuses of a map
  (``view: maps: colours``), in the words the model uses, :func:`map_colours`;
- a decision as the page shows it (:func:`decision_data`): the question,
  the cards it is about, the options with their keys (a card with its text
  and its price to the player, and the cards that go with it, a space with its label, so a map can be
  clicked, and what lies on each now, :func:`option_state`), the refused ones with their reasons, a range, and whether it is
  a set chosen one pick at a time (and how many more may be picked).

Strings here come from rule files: the page puts them in with textContent
(or SVG text nodes) only.
"""

from __future__ import annotations

from ..api.decisions import Decision
from ..engine.flow import deciding_tie_breaks
from ..engine.menus import ActionChoice
from ..engine.state import CardRef
from ..lang.words import catalogue_entry, facts_line
from ..safe_text import visible

DONE = "done"  # the key of the answer that ends a set chosen one pick at a time


def _entry(game, def_id: str) -> tuple[dict, dict]:
    """A card's catalogue entry and its generated text (made once for each card of a
    ruleset: the words depend on the ruleset alone)."""
    made = game.rs.__dict__.setdefault("_web_card_text", {})
    if def_id not in made:
        entry = catalogue_entry(game.rs, def_id)
        made[def_id] = (entry, {"name": entry["name"], "facts": facts_line(entry),
                                "lines": list(entry["lines"])})
    return made[def_id]


def card_text(game, def_id: str) -> dict:
    """A card's generated text: its name, a line of facts (cost, tags), its lines."""
    text = _entry(game, def_id)[1]
    return dict(text, lines=list(text["lines"]))


def card_face(game, card, seat: int | None = None) -> dict:
    """The text of one card of the game, with the price ``seat`` pays for it now beside the
    printed cost when the two differ ('cost 10, 7 for you'), as the terminal says it."""
    entry, _ = _entry(game, game.state.cards[card].def_id)
    out = card_text(game, game.state.cards[card].def_id)
    if seat is not None and seat < game.n and entry.get("cost") is not None:
        price = game.card_price(card, seat)
        if price is not None and price != entry["cost"]:
            out["facts"] = facts_line(entry, price)
    return out


# ------------------------------------------------------------ the table of a seat
def public_model(game) -> dict:
    """The view model of a seat that is nobody's: what every player may see.

    The seat after the last one sees every zone as a stranger does (each hidden
    zone a count), owns no card, and its title names nobody."""
    return game.view_model(game.n)


def card_texts(game, seat: int | None, table: dict) -> dict[str, dict]:
    """The generated text (facts and lines) of each card the table shows face up, by the
    card's name: the seat's hidden cards (with its prices), a row's offers, and every
    card named in a zone, a board's frames or a panel, which the page shows when the
    card is pointed at. Only names the table already shows are looked up, so nothing
    the seat may not see is named here."""
    out = held_texts(game, seat)
    named = game.rs.__dict__.get("_web_card_names")
    if named is None:
        named = {}
        for ident, entry in game.rs.cards.items():
            data = entry.data if isinstance(entry.data, dict) else {}
            named.setdefault(str(data.get("name") or ident), ident)
        game.rs.__dict__["_web_card_names"] = named

    def walk(node, card: bool = False):
        if isinstance(node, dict):
            name = node.get("name")
            if (card or "text" in node) and isinstance(name, str) and name not in out \
                    and name in named:
                out[name] = card_text(game, named[name])
            for key, value in node.items():
                walk(value, key == "cards")
        elif isinstance(node, list):
            for value in node:
                walk(value, card)  # (a list of cards: each item is one)
    for part in ("rows", "panels", "boards"):
        walk(table.get(part, []))
    return out


def held_texts(game, seat: int | None) -> dict[str, dict]:
    """The generated text of each card ``seat`` holds where others may not look, by name."""
    if seat is None:
        return {}
    out: dict[str, dict] = {}
    st = game.state
    for (zone, owner), cards in st.zones.items():
        if owner != seat or game.zone_decl[zone].get("visibility", "public") == "public":
            continue
        if game.visible_to(zone, owner, seat) != "all":
            continue
        for c in cards:
            name = game.card_name(c)
            if name not in out:
                out[name] = card_face(game, c, seat)
    return out


def map_colours(game) -> list[dict]:
    """For each board of the components, in the model's order, the colours the ruleset
    gives its kinds of space, its tiles and its printed bonuses, keyed by their words."""
    view = game.rs.singles.get("view")
    maps = (view.data.get("maps") or []) if view is not None and \
        isinstance(view.data, dict) else []
    given = {m["board"]: m.get("colours") or {} for m in maps if isinstance(m, dict)}
    out = []
    for entry in game.rs.sections["boards"].values():
        board = entry.data
        colours = given.get(board["id"], {})
        kinds = {}
        for it in board.get("space_types", []) or []:
            ident = it["id"] if isinstance(it, dict) else it
            kinds[ident] = (it.get("name") if isinstance(it, dict) else None) \
                or ident.replace("_", " ")
        tiles = {t: d.get("name") or t.replace("_", " ") for t, d in game.tile_decl.items()}
        one: dict = {"types": {}, "tiles": {}, "bonuses": {}}
        for ident, colour in colours.items():
            if ident in kinds:
                one["types"][kinds[ident]] = colour
            if ident in tiles:
                one["tiles"][tiles[ident]] = colour
            if ident not in kinds and ident not in tiles:
                one["bonuses"][game.thing_name(ident)] = colour
        out.append(one)
    return out


def seat_view(game, seat: int | None) -> dict:
    """What the page draws for ``seat`` (from 0; None: a spectator): the view model's table,
    the texts of the cards the seat holds hidden, and the maps' colours."""
    model = public_model(game) if seat is None else game.view_model(seat)
    table = model["table"]
    colours = map_colours(game)
    maps = [b for b in table["boards"] if "spaces" in b]
    for board, given in zip(maps, colours):
        if any(given.values()):
            board["colours"] = given
    return {"you": None if seat is None else seat + 1, "table": table,
            "texts": card_texts(game, seat, table)}


def result_data(game, result) -> dict:
    """A game's end as the page shows it: each player's score, the winners, by category."""
    names = [p.name for p in game.state.players]
    return {"scores": [{"name": names[s], "score": result.scores[s],
                        "winner": s in result.winners} for s in range(len(names))],
            "finished": result.finished,
            "breakdown": [{visible(str(k)): v for k, v in b.items()}
                          for b in (result.breakdown or [])],
            "tie_breaks": [{"name": visible(label), "values": values}
                           for label, values in deciding_tie_breaks(game.rs, result)]}


# ------------------------------------------------------------ a decision
def is_set(decision: Decision) -> bool:
    """Whether the question is one pick of a set (engine/asking.py, choose_some): the
    engine says how many more may be picked now (``some``), 'done' listed last."""
    return getattr(decision._source, "some", 0) > 0


def option_state(game, value, seat: int) -> str:
    """What lies on an option now, as the terminal says it beside the option: a card's
    marks, resources and each player's pieces ('failed · Ann 3 cubes') and what of its
    effect would do nothing now; a shared zone's cards with what lies on each ('Fire
    (Ann 1 cube); The Wheel'); for an action, what of it would do nothing now ('the
    Level step does nothing: Level is at its top'). '' when nothing does."""
    if isinstance(value, CardRef):
        return " · ".join(p for p in (game.card_state(value),
                                      game.idle_of_offered(value, seat)) if p)
    if isinstance(value, str) and value in game.zone_decl:
        return game.zone_state(value, seat)
    if isinstance(value, ActionChoice):  # what of the action would do nothing now
        return game.idle_steps(value, seat)
    return ""


def decision_data(decision: Decision) -> dict:
    """A decision as the page shows it: the question, the cards it is about (shown with it),
    options with keys (a card with its text and price to the player, a space with its label
    on the map), refused ones with reasons, a range, and a set's room."""
    game = decision._game
    source = decision._source
    out = {"number": decision.number, "kind": decision.kind,
           "prompt": visible(decision.prompt), "options": [],
           "refused": [{"label": visible(k), "reason": visible(v)}
                       for k, v in decision.refused.items()],
           "range": list(decision.range) if decision.range else None,
           "numbers": decision.kind == "number" and decision.range is None,
           "set": is_set(decision)}
    if out["set"]:
        out["some"] = source.some  # how many more may be picked now
    for o in decision.options:
        option = {"index": o.index, "label": visible(o.label), "key": o.key,
                  "short": o.short_key, "summary": visible(o.summary)}
        value = source.options[o.index].value
        if isinstance(value, CardRef):
            option["card"] = card_face(game, value, source.player)
            # the cards that go with it (a set's discovery tile), each with its text, as
            # the terminal names them ('with Newcomers (…)')
            along = [card_face(game, c, source.player)
                     for c in game.with_each(source.player, value)]
            if along:
                option["with"] = along
        elif isinstance(value, str) and value in game.space_decl:
            option["space"] = game.space_label.get(value, "")
        elif isinstance(value, ActionChoice) and value.bind is not None \
                and isinstance(value.bind[1], CardRef) and value.bind[1] in game.state.cards:
            # an action offered for each card ('Buy: Jade Carp'): the card, with its price
            option["card"] = card_face(game, value.bind[1], source.player)
        now = option_state(game, value, source.player)
        if now:
            option["state"] = visible(now)
        out["options"].append(option)
    about = [c for c in getattr(source, "about", None) or [] if isinstance(c, CardRef)
             and c in game.state.cards and game.card_visible_to(c, source.player)]
    if about:  # the cards the question is about, or shown alongside it
        out["shown"] = [{"label": "", "cards": [card_face(game, c, source.player)
                                                for c in about]}]
    return out
