"""The one registry of builtins: names, parameters, result types and docs.

The checker reads signatures from here, the compiler binds implementations
from here, and ``docs/language.md`` is generated from here, so the three can
never disagree. Implementations receive the runtime (see
:mod:`rulebook_games.lang.runtime`) first; pure functions ignore it.

Kinds:
- ``function``: an expression that reads the state and changes nothing;
- ``choice``: an expression that asks the acting player (a Decision); only
  allowed where effects are, never in requirements or scoring;
- ``effect``: a statement that changes the state;
- aggregates: the ``name(x in list where cond : value)`` forms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import types as T


@dataclass(frozen=True)
class Param:
    name: str
    type: Any  # Type or tuple of Types
    default: str | None = None  # "you" or a literal rendered as text; None = required
    variadic: bool = False


@dataclass(frozen=True)
class Builtin:
    name: str
    params: tuple[Param, ...]
    result: Any  # Type, or a callable(list of arg types) -> Type
    doc: str
    kind: str = "function"  # function | choice | random | effect
    impl: Callable | None = None
    example: str = ""
    player_optional: bool = False  # the 'player' may be left out where nobody acts
    phrase: str = ""  # how people read a use of it (see interpreter/lang/words/)
    amount: str = ""  # for quantities: how '{n}' of it reads ('{n} {noun}')
    # for a list: how being related to some of its items reads ('{space} is next to
    # {some}': 'it is next to no tile', see words/conditions.py)
    near: str = ""

    def result_type(self, arg_types: list) -> T.Type:
        return self.result(arg_types) if callable(self.result) else self.result

    def signature(self) -> str:
        parts = []
        for p in self.params:
            s = f"{p.name}: {T.describe(p.type)}"
            if p.variadic:
                s = f"{p.name}…: {T.describe(p.type)}"
            elif p.default is not None:
                s += f" = {p.default}"
            parts.append(s)
        res = self.result if not callable(self.result) else "(depends on the arguments)"
        return f"{self.name}({', '.join(parts)}) -> {res}"


@dataclass(frozen=True)
class Aggregate:
    """``name(x in list [where cond] [: value])``."""

    name: str
    value: str  # "none" (no ': value'), "optional", "required"
    value_type: Any  # expected type of the value part, or None
    result: Callable  # (elem_type, value_type or None) -> Type
    doc: str
    kind: str = "function"
    impl: Callable | None = None
    example: str = ""
    phrase: str = ""  # fields: {source} {bare} {where} {value} {one} {noun}


BUILTINS: dict[str, Builtin] = {}
AGGREGATES: dict[str, Aggregate] = {}


def builtin(name, params, result, doc, kind="function", example="", player_optional=False,
            phrase="", amount="", near=""):
    def wrap(fn):
        BUILTINS[name] = Builtin(name, tuple(params), result, doc, kind, fn, example,
                                 player_optional, phrase, amount, near)
        return fn
    return wrap


def aggregate(name, value, value_type, result, doc, kind="function", example="", phrase=""):
    def wrap(fn):
        AGGREGATES[name] = Aggregate(name, value, value_type, result, doc, kind, fn, example,
                                     phrase)
        return fn
    return wrap


def _first_list_elem(types: list) -> T.Type:
    t = types[0] if types else T.ANY
    return t.elem if isinstance(t, T.ListType) else T.ANY


def _same_as_first(types: list) -> T.Type:
    return types[0] if types else T.ANY


# ------------------------------------------------------------------ arithmetic
@builtin("min", [Param("values", T.INT, variadic=True)], T.INT,
         "The smallest of the numbers.", example="min(3, stock(gold))",
         phrase='the smallest of {values}')
def _min(rt, *values):
    return min(values)


@builtin("max", [Param("values", T.INT, variadic=True)], T.INT,
         "The largest of the numbers.", example="max(0, production(gold) - 2)",
         phrase='the largest of {values}')
def _max(rt, *values):
    return max(values)


@builtin("abs", [Param("value", T.INT)], T.INT, "The distance of a number from zero.",
         phrase='the size of {value}')
def _abs(rt, value):
    return abs(value)


@builtin("clamp", [Param("value", T.INT), Param("low", T.INT), Param("high", T.INT)], T.INT,
         "The number limited to the range low..high.", example="clamp(x, 0, 10)",
         phrase='{value}, kept between {low} and {high}')
def _clamp(rt, value, low, high):
    return max(low, min(high, value))


@builtin("div_floor", [Param("value", T.INT), Param("divisor", T.INT)], T.INT,
         "Division rounded down, as in '1 per 3' or 'split, rounded down'; "
         "the same as value // divisor.", example="div_floor(points, count(leaders))",
         phrase='{value} divided by {divisor}, rounded down')
def _div_floor(rt, value, divisor):
    return value // divisor if divisor else 0


# ----------------------------------------------------------------------- lists
@builtin("size", [Param("items", T.list_of(T.ANY))], T.INT, "How many items the list holds.",
         example="size(cards_in(hand)) >= 3",
         phrase='the number of {items:bare}', amount='{n} of {items}')
def _size(rt, items):
    return len(items)


@builtin("occurrences", [Param("items", T.list_of(T.ANY)), Param("item", T.ANY)], T.INT,
         "How many times the item appears in the list (repeated tags count twice).",
         example="occurrences(card.tags, red)", phrase='how many times {item} is among {items}')
def _occurrences(rt, items, item):
    return sum(1 for x in items if x == item)


@builtin("position", [Param("items", T.list_of(T.ANY)), Param("item", T.ANY)], T.INT,
         "The 1-based position of the item in the list, or 0 when absent.",
         phrase='the place of {item} among {items}')
def _position(rt, items, item):
    for i, x in enumerate(items, 1):
        if x == item:
            return i
    return 0


@builtin("item", [Param("items", T.list_of(T.ANY)), Param("index", T.INT)], _first_list_elem,
         "The item at a 1-based position, or none past the end.", example="item(order, 1)",
         phrase='item {index} of {items}')
def _item(rt, items, index):
    return items[index - 1] if 0 < index <= len(items) else None


@builtin("reversed", [Param("items", T.list_of(T.ANY))], _same_as_first,
         "The list in reverse order.", phrase='{items} in reverse order')
def _reversed(rt, items):
    return list(reversed(items))


@builtin("range", [Param("low", T.INT), Param("high", T.INT)], T.list_of(T.INT),
         "The numbers low, low+1, …, high (empty when high < low).", example="range(1, 4)",
         phrase='the numbers {low} to {high}')
def _range(rt, low, high):
    if high - low > 10_000:
        raise rt.limit_error(f"range({low}, {high}) is longer than 10000")
    return list(range(low, high + 1))


@builtin("concat", [Param("lists", T.list_of(T.ANY), variadic=True)], _same_as_first,
         "The lists joined end to end.", example="concat(cards_in(row), cards_in(reserve))",
         phrase='{lists}')
def _concat(rt, *lists):
    out = []
    for items in lists:
        out.extend(items)
    return out


@builtin("without", [Param("items", T.list_of(T.ANY)), Param("item", T.ANY)], _same_as_first,
         "The list with every copy of the item left out.", phrase='{items} except {item}')
def _without(rt, items, item):
    return [x for x in items if x != item]


# --------------------------------------------------------------------- players
@builtin("players", [], T.list_of(T.PLAYER), "Every player, in seat order.", phrase='the players')
def _players(rt):
    return rt.players()


@builtin("opponents", [Param("player", T.PLAYER, "you")], T.list_of(T.PLAYER),
         "Every player except the given one.", phrase='{player:poss} opponents')
def _opponents(rt, player):
    return [p for p in rt.players() if p != player]


@builtin("turn_order", [], T.list_of(T.PLAYER), "The players in the current turn order.",
         phrase='the players in turn order')
def _turn_order(rt):
    return rt.turn_order()


@builtin("neighbours_of", [Param("player", T.PLAYER, "you")], T.list_of(T.PLAYER),
         "The players seated immediately left and right.", phrase='{player:poss} neighbours')
def _neighbours_of(rt, player):
    return rt.seat_neighbours(player)


@builtin("player", [Param("seat", T.INT)], T.PLAYER,
         "The player in a seat, counting from 1 (for scenarios and seat-based rules).",
         example="player(1)", phrase='the player in seat {seat}')
def _player(rt, seat):
    if not 1 <= seat <= len(rt.players()):
        raise rt.limit_error(f"there is no seat {seat}")
    return rt.players()[seat - 1]


@builtin("player_count", [], T.INT, "How many players are in the game.",
         phrase='the number of players')
def _player_count(rt):
    return len(rt.players())


# ------------------------------------------------------------------ resources
@builtin("stock", [Param("resource", (T.RESOURCE, T.BONUS)), Param("player", T.PLAYER, "you")],
         T.INT, "How many of a resource the player has.", example="stock(gold) >= 8",
         phrase='{player:poss} {resource}', amount='{n} {noun}')
def _stock(rt, resource, player):
    return rt.stock(player, resource)


@builtin("production", [Param("resource", T.RESOURCE), Param("player", T.PLAYER, "you")], T.INT,
         "The player's production of a resource.", example="production(wood) >= 1",
         phrase='{player:poss} {resource} production', amount='{n} {resource} production')
def _production(rt, resource, player):
    return rt.production(player, resource)


@builtin("track", [Param("track", T.TRACK), Param("player", T.PLAYER, "you")], T.INT,
         "The value of a track: the player's position on a per-player track, or the "
         "value of a global one.", example="track(fame, p)", phrase='{player:poss} {track}')
def _track(rt, track, player):
    return rt.track(track, player)


@builtin("resources_on", [Param("card", T.CARD), Param("resource", T.CARD_RESOURCE)], T.INT,
         "How many of a card resource sit on the card.", example="resources_on(this, token) // 3",
         phrase='the {resource:plural} on {card}', amount='{n} {noun} on {card}')
def _resources_on(rt, card, resource):
    return rt.resources_on(card, resource)


@builtin("capacity", [Param("resource", T.RESOURCE), Param("player", T.PLAYER, "you")], T.INT,
         "How many of the resource the player can store (the declared capacity after "
         "modifiers); a large number when unlimited.",
         phrase='the room for {resource} {player} has')
def _capacity(rt, resource, player):
    return rt.capacity(player, resource)


# ----------------------------------------------------------------------- cards
@builtin("cards_in", [Param("zone", T.ZONE), Param("player", T.PLAYER, "you")], T.list_of(T.CARD),
         "The cards in a zone, in order; for a per-player zone, that player's.",
         example="cards_in(hand)", player_optional=True, phrase='the cards in {zone@player}')
def _cards_in(rt, zone, player):
    return rt.cards_in(zone, player)


@builtin("all_cards_in", [Param("zone", T.ZONE)], T.list_of(T.CARD),
         "The cards in a zone for every player, in seat order (for a shared zone, its cards).",
         example="all_cards_in(tableau)", phrase='the cards in {zone@all}')
def _all_cards_in(rt, zone):
    return rt.all_cards_in(zone)


@builtin("top", [Param("zone", T.ZONE), Param("player", T.PLAYER, "you")], T.CARD,
         "The first card of a zone (the top of a deck), or none when it is empty.", player_optional=True,
         phrase='the top card of {zone@player}')
def _top(rt, zone, player):
    cards = rt.cards_in(zone, player)
    return cards[0] if cards else None


@builtin("zone_of", [Param("card", T.CARD)], T.ZONE, "The zone a card is in.",
         phrase='the place where {card} lies')
def _zone_of(rt, card):
    return rt.zone_of(card)


@builtin("slot_of", [Param("card", T.CARD)], T.INT,
         "The 1-based position of a card in its ordered zone (a slot in a row).",
         example="slot_of(this) == 1", phrase='the slot of {card}')
def _slot_of(rt, card):
    return rt.slot_of(card)


@builtin("meets_requirements", [Param("card", T.CARD), Param("player", T.PLAYER, "you")], T.BOOL,
         "Whether the player meets the card's printed requirement (true when it has none).",
         example="meets_requirements(c)", phrase='{card:poss} requirement is met')
def _meets_requirements(rt, card, player):
    return rt.meets_requirements(card, player)


@builtin("has_tag", [Param("card", T.CARD), Param("tag", T.TAG)], T.BOOL,
         "Whether the card carries the tag.", example="has_tag(event.card, red)",
         phrase='{card} has {tag:a} tag')
def _has_tag(rt, card, tag):
    return tag in rt.card_field(card, "tags")


@builtin("count_tags", [Param("card", T.CARD), Param("tags", T.TAG, variadic=True)], T.INT,
         "How many of the card's tags are among the given tags, repeats included.",
         example="count_tags(event.card, red, blue)",
         phrase='the number of {tags|or} tags of {card}', amount='{n} {tags|or} tag{s} on {card}')
def _count_tags(rt, card, *tags):
    return sum(1 for t in rt.card_field(card, "tags") if t in tags)


@builtin("is_marked", [Param("card", T.CARD), Param("marker", T.MARKER)], T.BOOL,
         "Whether the card carries the marker.", example="is_marked(c, exhausted)",
         phrase='{card} is marked {marker}')
def _is_marked(rt, card, marker):
    return rt.is_marked(card, marker)


@builtin("has_block", [Param("card", T.CARD), Param("block", T.BLOCK)], T.BOOL,
         "Whether the card declares the named effect block (`play` is the card's own `play` key).",
         example="has_block(c, income)", phrase='{card} has a {block}')
def _has_block(rt, card, block):
    return rt.has_block(card, block)


@builtin("can_run", [Param("card", T.CARD), Param("block", T.BLOCK),
                     Param("player", T.PLAYER, "you")], T.BOOL,
         "Whether carrying out the card's named effect block now, as the player, would go "
         "through to the end. It is tried on a copy of the game, so nothing changes; a "
         "choice inside it takes its first option. False when the card has no such block.",
         example="can_run(c, production)",
         phrase='{player:bare} can carry out {card:poss} {block}')
def _can_run(rt, card, block, player):
    return rt.can_run(card, block, player)


@builtin("vp_of", [Param("card", T.CARD)], T.INT,
         "The card's victory points for its owner (0 when it declares none).",
         example="sum(c in cards_in(tableau) : vp_of(c))", phrase='the victory points of {card}')
def _vp_of(rt, card):
    return rt.vp_of(card)


@builtin("cubes_on", [Param("card", T.CARD), Param("player", T.PLAYER, "you")], T.INT,
         "How many of the player's own pieces (cubes, workers) sit on the card. In text "
         "({pieces}) the pieces take the last word the names of the game's piece resources "
         "share ('Stored cubes', 'Supply cubes': cubes), else 'pieces'.",
         example="cubes_on(c, p)",
         phrase='{player:poss} {pieces} on {card}', amount='{n} of {player:poss} {pieces} on {card}')
def _cubes_on(rt, card, player):
    return rt.pieces_on(card, player)


@builtin("card_named", [Param("id", T.CARD_ID), Param("zone", T.ZONE), Param("player", T.PLAYER, "you")],
         T.CARD, "The first card with this id in the zone, or none.", player_optional=True,
         phrase='{id} in {zone@player}')
def _card_named(rt, id, zone, player):
    for c in rt.cards_in(zone, player):
        if rt.card_field(c, "id") == id:
            return c
    return None


# ---------------------------------------------------------------------- board
@builtin("spaces", [], T.list_of(T.SPACE), "Every space of every board, in declared order.",
         phrase='the spaces')
def _spaces(rt):
    return rt.spaces()


@builtin("neighbours", [Param("space", T.SPACE)], T.list_of(T.SPACE),
         "The spaces adjacent to a space.", example="neighbours(space_of(this))",
         phrase='the spaces next to {space}', near='{space} is next to {some}')
def _neighbours(rt, space):
    return rt.neighbours(space)


@builtin("space_of", [Param("card", T.CARD)], T.SPACE,
         "The space of the tile the card placed, or none.",
         phrase="the space of {card:poss} tile")
def _space_of(rt, card):
    return rt.space_of(card)


@builtin("can_place", [Param("tile", T.TILE), Param("player", T.PLAYER, "you")], T.BOOL,
         "Whether the player has at least one legal space for the tile.",
         phrase='there is a legal space for {tile}')
def _can_place(rt, tile, player):
    return rt.can_place(tile, player)


# ------------------------------------------------------------------ modifiers
@builtin("modifier", [Param("modifier", T.MODIFIER), Param("player", T.PLAYER, "you"),
                      Param("card", T.CARD, "none")], T.INT,
         "The sum of the player's active static modifiers of this kind that apply "
         "(for a card, if given).", example="modifier(card_discount, you, c)",
         phrase='{player:poss} {modifier}')
def _modifier(rt, modifier, player, card):
    return rt.modifier(modifier, player, card)


# ----------------------------------------------------------------- history
@builtin("count_history", [Param("event", T.STR), Param("player", T.PLAYER, "you"),
                           Param("scope", T.STR, '"round"')], T.INT,
         "How many times an event with this name happened to the player in the "
         'current "round", "turn" or "game".', example='count_history("fame_gained") > 0',
         phrase='how often {event} happened')
def _count_history(rt, event, player, scope):
    return rt.count_history(event, player, scope)


@builtin("score", [Param("player", T.PLAYER, "you")], T.INT,
         "The player's score so far: the sum of the ruleset's scoring categories.",
         example="score(p) >= 100", phrase='{player:poss} score')
def _score(rt, player):
    return rt.score(player)


@builtin("round_number", [], T.INT, "The current round (generation), from 1.",
         phrase='the {round} number')
def _round_number(rt):
    return rt.round_number()


@builtin("last_round", [], T.INT,
         "The last round the game can reach: the rounds' count, or their max when the game "
         "ends on a condition (a cap it may end before); 1000 (the engine's own cap) when the "
         "flow sets neither. With round_number(), it tells when the next round is the last.",
         phrase='the last {round} number')
def _last_round(rt):
    return rt.last_round()


@builtin("turns_left", [Param("player", T.PLAYER, "you")], T.INT,
         "The turns the player still has in the phase under way, the one under way counted: "
         "exact where the turns come round a fixed number of times, else 1 until the player "
         "passes; 0 outside a phase of turns and once its turns are over. 0 for every "
         "other player means the player "
         "has the last word in the phase.",
         example="any(q in opponents() where turns_left(q) > 0)",
         phrase='the turns {player} still has in this phase')
def _turns_left(rt, player):
    return rt.turns_left(player)


@builtin("variant", [Param("name", T.STR)], T.BOOL, "Whether the named variant is in play.",
         example='variant("advanced")', phrase='the {name} variant is in play')
def _variant(rt, name):
    return rt.variant_active(name)


# --------------------------------------------------------------------- chance
@builtin("random_number", [Param("low", T.INT), Param("high", T.INT)], T.INT,
         "A number from low to high, each equally likely, drawn from the game's seeded "
         "random source (a die roll, a random first player). Allowed where effects are.",
         kind="random", example="random_number(1, player_count())",
         phrase='a number from {low} to {high} drawn at random')
def _random_number(rt, low, high):
    if high < low:
        raise ValueError(f"there is no number from {low} to {high}")
    return rt.random_number(low, high)


# -------------------------------------------------------------------- choices
@builtin("choose_number", [Param("low", T.INT), Param("high", T.INT),
                            Param("facts", T.INT, variadic=True)], T.INT,
         "Ask the acting player for a number in low..high. Any further arguments are "
         "facts said with the question, each in its own words with its value now (a "
         "function's 'amount' text when it has one: what a unit is worth, what is left "
         "to pay).", kind="choice",
         example="choose_number(0, stock(gold), production(gold))",
         phrase='a number from {low} to {high}, as you choose')
def _choose_number(rt, low, high, *facts):
    return rt.choose_number(low, high, *facts)


@builtin("choose_order", [Param("items", T.list_of(T.ANY))], _same_as_first,
         "Ask the acting player to put the items in an order (one question per place, "
         "each listing the items left).", kind="choice",
         phrase='{items} in an order you choose')
def _choose_order(rt, items):
    # the questions list n-1, n-2, … items: that work (n(n-1)/2 steps) is charged to the
    # budget before the first is asked, so a long list stops at once, not after hours
    n = len(items)
    budget = getattr(rt, "budget", None)
    if budget is not None and n > 1:
        budget.charge(n * (n - 1) // 2, None)
    return rt.choose_order(items)


@builtin("choose_some", [Param("items", T.list_of(T.ANY)), Param("most", T.INT),
                          Param("facts", T.INT, variadic=True)],
         _same_as_first,
         "Ask the acting player to pick up to most of the items, each at most once (the "
         "cards to keep from an offer, chosen together): every item is listed before the "
         "first pick, one question per pick with 'done' last; the picks, in the order "
         "made. Further arguments are facts said with the question, as choose_number "
         "says them (what each costs, what there is to spend).", kind="choice",
         example="choose_some(cards_in(offer), stock(gold) // 3)",
         phrase='up to {most} of {items}, as you choose')
def _choose_some(rt, items, most, *facts):
    # each question lists the items left: n(n+1)/2 at most, charged before the first
    n = min(len(items), max(0, most))
    budget = getattr(rt, "budget", None)
    if budget is not None and n > 1:
        budget.charge(n * len(items), None)
    return rt.choose_some(items, max(0, most), *facts)


# --------------------------------------------------------------------- effects
@builtin("draw", [Param("count", T.INT), Param("from_zone", T.ZONE), Param("to_zone", T.ZONE),
                  Param("player", T.PLAYER, "you")], T.NONE,
         "Move cards from the top of one zone to another, reshuffling the declared "
         "discard zone into an empty deck.", kind="effect", example="draw(2, deck, hand)", player_optional=True,
         phrase='draw {count#card} from {from_zone@player} into {to_zone@player}')
def _draw(rt, count, from_zone, to_zone, player):
    rt.draw(count, from_zone, to_zone, player)


@builtin("put", [Param("card", T.CARD), Param("zone", T.ZONE), Param("player", T.PLAYER, "you"),
                 Param("slot", T.INT, "0")], T.NONE,
         "Move a card into a zone. Slot 0 appends; slot 1 inserts first and shifts the "
         "others, sending any overflow to the zone's declared overflow zone.",
         kind="effect", example="put(card, row, you, 1)", player_optional=True,
         phrase='put {card} into {zone@player}')
def _put(rt, card, zone, player, slot):
    rt.put(card, zone, player, slot)


@builtin("shuffle", [Param("zone", T.ZONE), Param("player", T.PLAYER, "you")], T.NONE,
         "Shuffle a zone with the game's seeded random source.", kind="effect", player_optional=True,
         phrase='shuffle {zone@player}')
def _shuffle(rt, zone, player):
    rt.shuffle(zone, player)


@builtin("mark", [Param("card", T.CARD), Param("marker", T.MARKER)], T.NONE,
         "Put a marker on a card (an exhausted action, a failed project…).", kind="effect",
         example="mark(this, used)", phrase='mark {card} {marker}')
def _mark(rt, card, marker):
    rt.set_marker(card, marker, True)


@builtin("unmark", [Param("card", T.CARD), Param("marker", T.MARKER)], T.NONE,
         "Take a marker off a card.", kind="effect", phrase='take the mark {marker} off {card}')
def _unmark(rt, card, marker):
    rt.set_marker(card, marker, False)


@builtin("place_pieces", [Param("count", T.INT), Param("card", T.CARD),
                          Param("player", T.PLAYER, "you"), Param("from_stock", T.RESOURCE, "none")],
         T.NONE, "Put the player's pieces (cubes, workers) on a card, taken from a stock "
         "resource, or from the general supply when none is given.", kind="effect",
         example="place_pieces(3, c, you)",
         phrase='put {count} of {player:poss} {pieces} on {card}{from_stock?, taken from %}')
def _place_pieces(rt, count, card, player, from_stock):
    rt.place_pieces(count, card, player, from_stock)


@builtin("take_pieces", [Param("count", T.INT), Param("card", T.CARD),
                         Param("player", T.PLAYER, "you"), Param("to_stock", T.RESOURCE, "none")],
         T.NONE, "Take the player's pieces off a card, into a stock resource or back to the "
         "general supply when none is given.", kind="effect",
         phrase='take {count} of {player:poss} {pieces} off {card}{to_stock?, back to %}')
def _take_pieces(rt, count, card, player, to_stock):
    rt.take_pieces(count, card, player, to_stock)


@builtin("claim", [Param("space", T.SPACE), Param("player", T.PLAYER, "you")], T.NONE,
         "Put the player's marker on a space (space.claimed_by); none takes it off.",
         kind="effect", example="claim(space, you)", phrase='put {player:poss} marker on {space}')
def _claim(rt, space, player):
    rt.claim(space, player)


@builtin("tiles_left", [Param("tile", T.TILE)], T.INT,
         "How many tiles of this type can still be placed (its declared supply minus those "
         "on the boards); a large number when the supply is unlimited.",
         phrase='the {tile} tiles left', amount='{n} {tile} tile{s} left')
def _tiles_left(rt, tile):
    return rt.tiles_left(tile)


@builtin("set_turn_order", [Param("order", T.list_of(T.PLAYER))], T.NONE,
         "Set the turn order for the following turns.", kind="effect",
         phrase='set the turn order to {order}')
def _set_turn_order(rt, order):
    rt.set_turn_order(order)


@builtin("log", [Param("message", T.STR), Param("values", T.ANY, variadic=True)], T.NONE,
         "Write a line to the game log. Each {} in the message is filled, in order, with one "
         "of the values in words: a card by its name (\"a card\" while not everyone may see "
         "it), a player by name, a number as a number, a list joined with \"and\" "
         "(log(\"{} scores {} for {}\", tech, points, leading)). Longer text costs more work "
         "(a step per 100 characters, each value counted as 40), a game's rules may log "
         "1,000,000 characters in all, and a line longer than 4,000 characters is shown cut.",
         kind="effect", phrase='')
def _log(rt, message, *values):
    log_typed(rt, message, (), *values)


LOG_VALUE_WORK = 40  # the characters a value of a log line is charged as, whatever it says


def log_typed(rt, message, types, *values):
    """'log' with the values' types (compiled code passes them: a player and a number are
    both whole numbers at run time). The work charged does not depend on the words a value
    makes, so a game whose log is not kept (a simulation) need not make them."""
    # charged whether or not the log is kept, so a game stops at the same place everywhere
    budget = getattr(rt, "budget", None)
    if budget is not None:
        budget.log_text(len(message) + LOG_VALUE_WORK * len(values), None)
    if values:
        if not getattr(rt, "logging", True):
            return  # nobody reads it: the words are not made
        parts = message.split("{}")
        said = [rt.log_value_words(v, types[i] if i < len(types) else None)
                for i, v in enumerate(values)]
        message = parts[0] + "".join(w + rest for w, rest in zip(said, parts[1:]))
    rt.log(message)


@builtin("end_game", [], T.NONE, "End the game after the current step; final scoring follows.",
         kind="effect", phrase='end the game')
def _end_game(rt):
    rt.end_game()


# ------------------------------------------------------------------ aggregates
def _int_result(elem, value):
    return T.INT


def _elem_result(elem, value):
    return elem


def _list_result(elem, value):
    return T.list_of(elem)


def _value_list_result(elem, value):
    return T.list_of(value or elem)


@aggregate("count", "none", None, _int_result, "How many items meet the condition.",
           example="count(c in cards_in(tableau) where has_tag(c, red))",
         phrase='the number of {bare}{where}')
def _agg_count(rt, items, keep, value):
    return sum(1 for x in items if keep(x))


@aggregate("sum", "required", T.INT, _int_result, "The total of the value over the items.",
           example="sum(p in players() : stock(gold, p))",
         phrase='the total of {value} over {bare}{where}')
def _agg_sum(rt, items, keep, value):
    return sum(value(x) for x in items if keep(x))


@aggregate("highest", "required", T.INT, _int_result,
           "The largest value over the items (0 when there are none).",
           example="highest(p in players() : track(fame, p))",
         phrase='the highest {value} among {bare}{where}')
def _agg_highest(rt, items, keep, value):
    vals = [value(x) for x in items if keep(x)]
    return max(vals) if vals else 0


@aggregate("lowest", "required", T.INT, _int_result,
           "The smallest value over the items (0 when there are none).",
         phrase='the lowest {value} among {bare}{where}')
def _agg_lowest(rt, items, keep, value):
    vals = [value(x) for x in items if keep(x)]
    return min(vals) if vals else 0


@aggregate("any", "none", None, lambda e, v: T.BOOL, "Whether some item meets the condition.",
           example="any(s in neighbours(space) where s.tile == tower)",
         phrase='at least one of {source}{where}')
def _agg_any(rt, items, keep, value):
    return any(keep(x) for x in items)


@aggregate("all", "none", None, lambda e, v: T.BOOL, "Whether every item meets the condition.",
         phrase='every one of {source}{where}')
def _agg_all(rt, items, keep, value):
    return all(keep(x) for x in items)


@aggregate("filter", "none", None, _list_result, "The items that meet the condition, in order.",
           example="filter(c in cards_in(tableau) where has_tag(c, red))", phrase='{source}{where}')
def _agg_filter(rt, items, keep, value):
    return [x for x in items if keep(x)]


@aggregate("map", "required", None, _value_list_result, "The value for each item, in order.",
         phrase='{value} for each of {bare}{where}')
def _agg_map(rt, items, keep, value):
    return [value(x) for x in items if keep(x)]


@aggregate("first", "none", None, _elem_result,
           "The first item that meets the condition, or none.", phrase='the first of {bare}{where}')
def _agg_first(rt, items, keep, value):
    for x in items:
        if keep(x):
            return x
    return None


@aggregate("last", "none", None, _elem_result,
           "The last item that meets the condition, or none.", phrase='the last of {bare}{where}')
def _agg_last(rt, items, keep, value):
    found = None
    for x in items:
        if keep(x):
            found = x
    return found


@aggregate("sort", "required", T.INT, _list_result,
           "The items in ascending order of the value; ties keep their order.",
           example="sort(p in players() : stock(cube, p))",
         phrase='{source}{where} in order of {value}')
def _agg_sort(rt, items, keep, value):
    return sorted((x for x in items if keep(x)), key=value)


@aggregate("leaders", "required", T.INT, _list_result,
           "The items sharing the largest value, in order; empty when that value is 0 "
           "or there are none.", example="leaders(p in players() : cubes_on(c, p))",
         phrase='those of {bare}{where} with the most {value}')
def _agg_leaders(rt, items, keep, value):
    scored = [(x, value(x)) for x in items if keep(x)]
    best = max((v for _, v in scored), default=0)
    return [x for x, v in scored if v == best and v > 0]


@aggregate("choose", "none", None, _elem_result,
           "Ask the acting player to pick one item that meets the condition.", kind="choice",
           example="choose(c in cards_in(tableau) where has_tag(c, red))",
         phrase='{one} of your choice among {source}{where}')
def _agg_choose(rt, items, keep, value):
    kept, left_out = _split(items, keep)
    return rt.choose_one(kept, optional=False, left_out=left_out)


def _split(items, keep) -> tuple[list, list]:
    """The items that meet the condition, and those that do not (listed as not available)."""
    kept, left_out = [], []
    for x in items:
        (kept if keep(x) else left_out).append(x)
    return kept, left_out


@aggregate("choose_optional", "none", None, _elem_result,
           "Like choose, but the player may pick nothing (the result is then none).",
           kind="choice", phrase='{one} of your choice among {source}{where}')
def _agg_choose_optional(rt, items, keep, value):
    kept, left_out = _split(items, keep)
    return rt.choose_one(kept, optional=True, left_out=left_out)


# ------------------------------------------------------- nouns for 'any NOUN'
# 'any player' asks the acting player to pick one member of the collection.
ANY_NOUNS: dict[str, tuple[T.Type, str]] = {
    "player": (T.PLAYER, "any player, you included"),
    "opponent": (T.PLAYER, "any player other than you"),
    "space": (T.SPACE, "any space on any board"),
}


# ------------------------------------------------------------------ statements
# What each statement of grammar/effects.lark does, for people: the one text that
# docs/language.md ("Each statement", generated by `rulebook docs --language`) and the
# language server's hover on a statement's keyword both show.
@dataclass(frozen=True)
class Statement:
    keyword: str  # the word a statement starts with
    form: str  # how it is written: words in upper case stand for what you put there
    doc: str
    example: str = ""


STATEMENTS: dict[str, Statement] = {s.keyword: s for s in [
    Statement("gain", "gain AMOUNT RESOURCE [production] [for PLAYER]",
              "Adds AMOUNT of a resource to a player's stock (you, unless `for` names "
              "someone else), or to its production with `production`. A stock stops at its "
              "capacity; an amount worked out below zero is a loss.",
              "gain 2 gold production for p"),
    Statement("lose", "lose AMOUNT RESOURCE [production] [for PLAYER]",
              "Takes AMOUNT of a resource from a player's stock, or from its production "
              "with `production`. A stock stops at its minimum; a production loss "
              "at the start of an effect is a requirement of it.",
              "lose 1 gold production"),
    Statement("pay", "pay AMOUNT RESOURCE [for PLAYER]",
              "Pays AMOUNT of a resource from a player's stock; the effect fails if the "
              "player cannot pay it all (at the start of an effect, a requirement of it).",
              "pay 8 gold"),
    Statement("raise", "raise TRACK [by STEPS] [for PLAYER]",
              "Moves a track up one step, or STEPS. A per-player track moves for you "
              "unless `for` names someone else; the track's rewards follow, each "
              "reward with a `description` said in the log before what it gives "
              "(\"Ann: 8 VP for the first to get here (Level 11)\").",
              "raise level by 2"),
    Statement("lower", "lower TRACK [by STEPS] [for PLAYER]",
              "Moves a track down one step, or STEPS.",
              "lower level for p"),
    Statement("place", "place TILE [on SPACE | where CONDITION | anywhere [where CONDITION]] "
              "[for PLAYER] [as NAME]",
              "Puts a tile on a space the player chooses under the tile's placement rule. "
              "`where` adds a condition to that rule, `on` places exactly there (the rule "
              "ignored), `anywhere` replaces the rule by the condition; `as NAME` keeps "
              "the space for the lines after.",
              "place marker anywhere where space.tile == none as claimed"),
    Statement("add", "add AMOUNT RESOURCE to CARD",
              "Puts AMOUNT of a card resource on a card.",
              "add 1 token to this"),
    Statement("remove", "remove [up to] AMOUNT RESOURCE from PLAYER-OR-CARD",
              "Takes AMOUNT of a resource away: from a player's stock, or a card resource "
              "from a card. With `up to` the player may take fewer, or none (the log then "
              "says that none was taken, so the choice reads as no attack).",
              "remove up to 3 gold from any player"),
    Statement("move", "move [up to] AMOUNT RESOURCE from CARD to CARD",
              "Moves card resources from one card to another.",
              "move 1 token from c to this"),
    Statement("steal", "steal [up to] AMOUNT RESOURCE from PLAYER",
              "Takes AMOUNT of a resource from another player's stock into yours.",
              "steal 2 gold from any opponent"),
    Statement("let", "let NAME = VALUE",
              "Names a value for the lines after it (a choice made once, a number worked "
              "out once).",
              "let x = choose_number(0, 3)"),
    Statement("set", "set NAME = VALUE [for PLAYER]",
              "Changes the value of a name bound by `let`, or of a value the ruleset "
              "declares.",
              "set x = x + 1"),
    Statement("return", "return [VALUE]",
              "Ends a procedure, or gives a function's result.",
              "return count(c in cards_in(hand))"),
    Statement("require", "require CONDITION [else \"REASON\"]",
              "Stops the effect, with the reason, unless the condition holds. At the start "
              "of an effect it is a requirement: the option is shown as not available, "
              "with the reason.",
              "require stock(gold) >= 8 else \"needs 8 gold\""),
    Statement("emit", "emit EVENT(VALUES)",
              "Announces an event; the triggers that answer it run.",
              "emit card_played(you, this)"),
    Statement("run", "run BLOCK of CARD",
              "Runs a card's named effect block (its `play`, or one of its `blocks`).",
              "run play of c"),
    Statement("pass", "pass", "Does nothing: a line where a statement must be.", "pass"),
    Statement("break", "break",
              "Leaves the innermost `for`, `repeat` or `while` of the same effect.", "break"),
    Statement("if", "if CONDITION: ... [elif CONDITION: ...] [else: ...]",
              "Runs the first block whose condition holds, or the `else` block.",
              "if x > 2: gain 1 gold"),
    Statement("for", "for NAME in LIST: ...",
              "Runs the block once for each item of a list, the item named NAME.",
              "for p in players(): gain 1 gold for p"),
    Statement("repeat", "repeat COUNT: ...",
              "Runs the block COUNT times; the count is worked out once, before the first "
              "turn.", "repeat 3: draw(1, deck, hand)"),
    Statement("while", "while CONDITION: ...",
              "Runs the block again and again as long as the condition holds, checked "
              "before every turn.", "while stock(gold) >= 8: pay 8 gold"),
    Statement("may", "may: ... [else: ...]",
              "The player decides whether to do the block; `else` runs when they say no.",
              "may: pay 2 gold"),
    Statement("as", "as PLAYER: ...",
              "Runs the block as another player: `you` inside it is that player.",
              "as p: gain 1 gold"),
    Statement("choose", "choose one: - OPTION - OPTION ...",
              "The player picks one of the options (one line each, a `-` before it, an "
              "optional quoted label and a colon). An option that cannot be carried out "
              "is not offered.",
              "choose one:\n    - gain 3 gold\n    - \"Rest\": pass"),
]}
