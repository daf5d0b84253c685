"""Write the JSON Schemas in schemas/ from the definitions below.

The schemas are data that editors and CI read directly; this script keeps
them consistent (every property described, no extra keys anywhere). Run it
after changing a definition: ``python tools/build_schemas.py``. A test checks
that the committed files match its output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "schemas"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
C = "common.schema.json#/$defs/"


def ref(name: str, description: str) -> dict:
    return {"$ref": C + name, "description": description}


def obj(description: str, properties: dict, required=(), **extra) -> dict:
    out = {"type": "object", "description": description, "additionalProperties": False,
           "properties": properties}
    if required:
        out["required"] = list(required)
    out.update(extra)
    return out


def arr(description: str, items: dict, **extra) -> dict:
    return {"type": "array", "description": description, "items": items, **extra}


def string(description: str, **extra) -> dict:
    return {"type": "string", "description": description, **extra}


def integer(description: str, **extra) -> dict:
    return {"type": "integer", "description": description, **extra}


def boolean(description: str) -> dict:
    return {"type": "boolean", "description": description}


ID_PATTERN = "^[a-z][a-z0-9_]*$"

COMMON = {
    "id": string("An identifier: lower case letters, digits and underscores, starting with a "
                 "letter. Effects refer to things by id.", pattern=ID_PATTERN, maxLength=64),
    "name": string("The name printed on the component, shown to players.", maxLength=200),
    "description": string("Free text for people: what this is and why.", maxLength=20000),
    "effect": string("Effect-language statements, one per line or separated by ';'. "
                     "See docs/language.md.", maxLength=20000),
    "expression": {"description": "An effect-language expression (a number, a condition…).",
                   "anyOf": [{"type": "string", "maxLength": 5000}, {"type": "integer"},
                             {"type": "boolean"}]},
    "type_name": string("A value type: number, bool, text, player, card, space, resource, "
                        "card_resource, tag, card_type, card_id, tile, space_type, zone, track, "
                        "marker, bonus, or 'list[T]'.", maxLength=100),
    "include": arr("Other files of the ruleset to load, relative to this file; '*' globs allowed.",
                   string("A path or glob relative to this file.", maxLength=500)),
    "simple_decl": {
        "description": "A declared name: either just its id, or an object with id, name and "
                       "description.",
        "anyOf": [
            {"$ref": "#/$defs/id"},
            obj("A declared name with details.", {
                "id": ref("id", "The id effects use."),
                "name": ref("name", "The printed name."),
                "plural": ref("id", "Another spelling effects may use, e.g. 'plants' for "
                              "'plant'."),
                "description": ref("description", "What it is."),
            }, required=["id"]),
        ],
    },
    "block_decl": {
        "description": "A named effect block: its id, or an object with id, name, description "
                       "and the phrase that leads its words in card text.",
        "anyOf": [
            {"$ref": "#/$defs/id"},
            obj("A named effect block with details.", {
                "id": ref("id", "The id effects use ('run ID of card')."),
                "name": ref("name", "The printed name; card text leads the block's words "
                            "with it ('Completion: draw 1 card.')."),
                "description": ref("description", "When it runs."),
                "phrase": string("How card text introduces the block, with {effect} its "
                                 "words, e.g. 'When you visit it: {effect}'."),
            }, required=["id"]),
        ],
    },
    "card_type_decl": {
        "description": "A card type: its id, or an object with id, name, description and how "
                       "its cards' requirement reads.",
        "anyOf": [
            {"$ref": "#/$defs/id"},
            obj("A card type with details.", {
                "id": ref("id", "The id effects use."),
                "name": ref("name", "The printed name."),
                "plural": ref("id", "Another spelling effects may use."),
                "description": ref("description", "What it is."),
                "requirement": string("How card text introduces the requirement of cards of "
                                      "this type (default 'Requires'), e.g. 'Goal at the end "
                                      "of the game'."),
            }, required=["id"]),
        ],
    },
    "params": {"type": "object", "description": "Named parameters and their types.",
               "additionalProperties": {"$ref": "#/$defs/type_name"},
               "propertyNames": {"pattern": ID_PATTERN}},
    "trigger": obj("A triggered ability: when an event happens, run an effect.", {
        "on": ref("id", "The event that triggers it, declared under 'events'."),
        "scope": string("Whose events count: 'you' (the owner's), 'anyone', or 'opponents'.",
                        enum=["you", "anyone", "opponents"]),
        "if": ref("expression", "A condition on the event (use event.field)."),
        "include_self": boolean("For card-played events: whether playing this very card "
                                "triggers it."),
        "do": ref("effect", "What happens."),
        "description": ref("description", "The printed text."),
        "text": string("Hand-written words for people, replacing the generated text. Use "
                       "rarely: generated words stay true when the effect changes."),
    }, required=["on", "do"]),
    "modifier": obj("A static modifier applied by the engine while its source is in play.", {
        "modifier": ref("id", "The kind of modifier, declared under 'modifiers'."),
        "amount": ref("expression", "How much it adds (negative for discounts)."),
        "if": ref("expression", "When it applies; the modifier's parameters are in scope "
                  "(e.g. 'card')."),
        "description": ref("description", "The printed text."),
        "text": string("Hand-written words for people, replacing the generated text. Use "
                       "rarely: generated words stay true when the effect changes."),
    }, required=["modifier", "amount"]),
    "action": obj("An action a player can take.", {
        "id": ref("id", "The action's id (cards: optional)."),
        "name": ref("name", "The label players see."),
        "description": ref("description", "The printed text."),
        "if": ref("expression", "When the action may be chosen."),
        "do": ref("effect", "What the action does."),
        "each": ref("expression", "Offer the action once for each element of this list (a "
                    "list expression, e.g. the cards on offer); with 'as'."),
        "as": ref("id", "With 'each': the name the element goes by in 'if' and 'do'; players "
                  "see the action's name followed by the element."),
        "free": boolean("A free action: it does not use one of the turn's actions."),
        "hide_when_not_allowed": boolean(
            "When the action cannot be chosen now, leave it out of the actions listed as "
            "not available (for an action few players or moments have, such as a "
            "first action printed on some cards); its reason is still given to whoever asks "
            "for that very action. Allowed, it is offered as any other."),
        "once_per": string("How often it may be used: 'round', 'turn', 'game' or 'any'.",
                           enum=["round", "turn", "game", "any"]),
        "text": string("Hand-written words for people, replacing the generated text. Use "
                       "rarely: generated words stay true when the effect changes."),
        "reason": string("Said instead of the generated reason when the action's 'if' "
                         "fails."),
        "prompt": string("Asked instead of the generated prompt at the action's first "
                         "decision, e.g. 'Which card do you play?'."),
    }, required=["do"]),
}

COMPONENTS = obj("Components: resources, tracks, tags, zones, boards, tiles, events and "
                 "everything else a game's effects name.", {
    "$schema": string("The schema this file follows (for editors)."),
    "kind": string("What this file holds.", const="components"),
    "include": ref("include", "More files to load."),
    "resources": arr("Resources players hold in stock.", obj(
        "A player resource.", {
            "id": ref("id", "The id effects use."),
            "name": ref("name", "The printed name."),
            "plural": ref("id", "The plural spelling effects may use."),
            "description": ref("description", "What it is."),
            "start": integer("How many each player starts with."),
            "min": integer("The lowest the stock may go (default 0)."),
            "capacity": ref("expression", "How many a player may hold (an expression; "
                            "default unlimited)."),
            "production": {"description": "Whether the resource has a production track: "
                                          "true, or an object with its minimum.",
                           "anyOf": [{"type": "boolean"}, obj(
                               "A production track.", {
                                   "min": integer("The lowest production (default 0)."),
                                   "start": integer("Starting production."),
                               })]},
            "piece": boolean("The resource is a player's physical pieces (cubes, workers) "
                             "that can be put on cards."),
        }, required=["id"])),
    "card_resources": arr("Resources that sit on cards (animals, microbes…).",
                          ref("simple_decl", "A card resource.")),
    "tags": arr("Card tags.", ref("simple_decl", "A tag.")),
    "card_types": arr("Card types.", ref("card_type_decl", "A card type.")),
    "markers": arr("Markers that can sit on cards (used, failed…).", {
        "description": "A marker: its id, or an object with id, name, description and the "
                       "words for a card with and without it.",
        "anyOf": [
            {"$ref": C + "id"},
            obj("A marker with details.", {
                "id": ref("id", "The id effects use."),
                "name": ref("name", "The printed name."),
                "description": ref("description", "What it is."),
                "adjective": string("What a card with the marker is, in card texts and "
                                    "reasons ('locked': 'Philosophy is locked'), instead of "
                                    "'is marked' and the marker's name."),
                "opposite": string("What a card without the marker is ('unlocked': 'while "
                                   "this card is unlocked'; a refusal: 'Philosophy is "
                                   "already unlocked')."),
            }, required=["id"]),
        ],
    }),
    "blocks": arr("Named effect blocks cards may declare besides 'play'.",
                  ref("block_decl", "An effect block name.")),
    "tracks": arr("Counters and tracks, global or per player.", obj(
        "A track.", {
            "id": ref("id", "The id effects use."),
            "name": ref("name", "The printed name."),
            "description": ref("description", "What it measures."),
            "scope": string("'global' (one value) or 'player' (one per player).",
                            enum=["global", "player"]),
            "min": integer("The lowest value."),
            "max": integer("The highest value; raising past it is ignored."),
            "start": integer("The starting value."),
            "step": integer("How much one step changes the value (default 1)."),
            "unit": string("How values are shown, e.g. '°C' or '%'.", maxLength=10),
            "short": string("A shorter name for the status line before each decision, used "
                            "when the line does not fit the screen with the whole name (e.g. "
                            "'TR' for 'Terraform rating'); elsewhere the name is whole.",
                            maxLength=12),
            "amount": string("How an amount of it reads, {n} the number and {s} an 's' "
                             "unless n is 1, e.g. '{n} culture' (default: with the unit, or "
                             "'your <name> is at least n')."),
            "status": boolean("Whether the status line shown before each decision includes "
                              "it (default true); 'state' always lists it. For bookkeeping "
                              "a player need not watch."),
            "logged": boolean("Whether its moves are written to the log ('Oxygen 3 % → "
                              "4 %'; default true). false for a marker whose number says "
                              "nothing to a player; the rules may say in their own words, "
                              "with log(...), what its move means."),
            "emits": ref("id", "An event fired after each move of at least one step, with "
                         "params player, track and steps (declare it under 'events')."),
            "rewards": arr("What reaching a value gives.", obj(
                "A reward space.", {
                    "at": integer("The value that triggers it."),
                    "do": ref("effect", "What the player who reaches it gets."),
                    "once": boolean("Only the first player to reach it gets it."),
                    "when": string("'immediate' (default) or 'end' of game.",
                                   enum=["immediate", "end"]),
                    "description": ref("description", "The printed text."),
                }, required=["at", "do"])),
        }, required=["id"])),
    "zones": arr("Places cards can be.", obj(
        "A zone.", {
            "id": ref("id", "The id effects use."),
            "name": ref("name", "The printed name."),
            "description": ref("description", "What it is."),
            "scope": string("'player' (one per player) or 'shared'.",
                            enum=["player", "shared"]),
            "visibility": string("Who sees the cards: 'public', 'owner', 'hidden' (nobody), "
                                 "or 'count' (everyone sees only how many).",
                                 enum=["public", "owner", "hidden", "count"]),
            "ordered": boolean("The order of the cards matters (decks, timelines)."),
            "slots": integer("How many cards fit; inserting past it overflows.", minimum=1),
            "overflow": ref("id", "The zone that receives cards pushed out of the last slot."),
            "refill_from": ref("id", "The zone shuffled in when this one runs out."),
            "in_play": boolean("Cards here are in play: their triggers, modifiers and "
                               "actions are active, and their victory points count."),
            "records": string("What simulation results record when a card moves in: "
                              "'played' (it entered play), 'gained' (it came into a "
                              "player's hands) or 'none'. A card is credited to the zone's "
                              "owner, or for a shared zone to the player whose effect moved "
                              "it. Default: 'played' for in_play zones, else 'none'.",
                              enum=["played", "gained", "none"]),
        }, required=["id"])),
    "tiles": arr("Tile types that can be placed on board spaces.", obj(
        "A tile type.", {
            "id": ref("id", "The id effects use."),
            "name": ref("name", "The printed name."),
            "description": ref("description", "What it is."),
            "owned": boolean("Placed tiles belong to the player who placed them."),
            "symbol": {"type": "string", "minLength": 1, "maxLength": 2,
                       "description": "How the tile shows on a text map (default the first "
                                      "letter of its name)."},
            "supply": integer("How many of these tiles exist; once all are on the boards, "
                              "placing one does nothing.", minimum=0),
            "placement": ref("expression", "Where it may normally go: a condition on 'space'."),
            "on_place": ref("effect", "What placing it does ('space' is the space)."),
        }, required=["id"])),
    "boards": arr("Boards made of spaces.", obj(
        "A board.", {
            "id": ref("id", "The board's id."),
            "name": ref("name", "The printed name."),
            "description": ref("description", "What it is."),
            "layout": string("How adjacency is derived: 'hex_rows' (centred rows of hexes, "
                             "widest in the middle), 'grid', or 'explicit'.",
                             enum=["hex_rows", "grid", "explicit"]),
            "space_types": arr("Kinds of spaces on this board.",
                               ref("simple_decl", "A space type.")),
            "bonuses": arr("Placement bonuses that are not resources (e.g. draw a card).",
                           ref("simple_decl", "A bonus kind.")),
            "spaces": arr("The spaces.", obj(
                "A space.", {
                    "id": ref("id", "The space's id."),
                    "name": ref("name", "Its printed name, if any."),
                    "label": {"type": "string", "minLength": 1, "maxLength": 4,
                              "description": "A short label shown on the text map and next to "
                                             "the space when people choose it (default its "
                                             "position in this list, from 1)."},
                    "type": ref("id", "Its space type."),
                    "row": integer("Row (from 0, top)."),
                    "column": integer("Position in the row (from 0, left)."),
                    "bonus": arr("What placing a tile here gives.",
                                 ref("id", "A resource or bonus id; repeat for 2.")),
                    "adjacent": arr("For 'explicit' layouts: adjacent space ids.",
                                    ref("id", "A space id.")),
                    "off_board": boolean("The space is not on the map (no neighbours); a "
                                         "named one is called by its name alone."),
                }, required=["id", "type"])),
        }, required=["id", "spaces"])),
    "events": arr("Events that rules emit and triggers listen to.", obj(
        "An event.", {
            "id": ref("id", "The event's id."),
            "description": ref("description", "When it happens."),
            "params": ref("params", "What it carries, e.g. {player: player, card: card}."),
            "phrase": string("How people read it after 'Whenever', {player} standing for whom "
                             "it happens to, e.g. '{player} places a tile'."),
        }, required=["id"])),
    "modifiers": arr("Kinds of static modifiers cards can carry.", obj(
        "A modifier kind.", {
            "id": ref("id", "The modifier's id."),
            "description": ref("description", "What it changes."),
            "params": ref("params", "What a modifier's condition can look at."),
            "phrase": string("How people read it on a card, {amount} its amount and {size} the "
                             "amount without its sign, e.g. 'cards cost you {size} M€ less'."),
        }, required=["id"])),
    "card_fields": arr("Extra fields cards of this game carry.", obj(
        "A card field.", {
            "id": ref("id", "The field's id (card.<id> in effects)."),
            "type": ref("type_name", "Its type."),
            "description": ref("description", "What it means."),
            "default": {"description": "The value when a card does not give one."},
            "name": ref("name", "How people call it ('points', 'price')."),
            "phrase": string("A sentence of card text for a card whose value is not the "
                             "default, {value} the value ('Needs {value}.'); for a truth "
                             "value the phrase is shown when it is true."),
        }, required=["id", "type"])),
    "constants": {"type": "object", "description": "Named numbers and texts rules refer to.",
                  "additionalProperties": {"description": "A constant's value.",
                                           "type": ["integer", "string", "boolean"]},
                  "propertyNames": {"pattern": ID_PATTERN}},
}, required=["kind"])

# the view section of a flow file (docs/engine.md#the-view)
def _E(desc: str) -> dict:
    return ref("expression", desc)


def _ID(desc: str) -> dict:
    return ref("id", desc)


def _NAME(desc: str) -> dict:
    return ref("name", desc)


def _TEXT(desc: str) -> dict:
    return ref("description", desc)


_value = obj("A number or fact shown with a label.", {
    "label": _NAME("What the value is called, in the game's words."),
    "value": _E("An expression: a number, a truth value, a name (a card, a zone, a tag, a player…) or a list of them. In a panel, 'you' is the panel's player; elsewhere 'you' is the player looking."),
    "text": _TEXT("Words shown with the value (or alone, when there is no value)."),
    "none": _NAME("Words shown where the value is none: 'at the top' for the next step of a track whose marker has reached its top (rather than a number that would read as a price)."),
    "private": {"type": "boolean", "description": "Shown to the panel's own player only (others see that it is hidden). Required when the value reads cards that not everyone may see."},
}, required=["label"])
_fact = obj("A number or fact shown with a label; with 'when', a warning shown only while it holds.", {
    **_value["properties"],
    "when": _E("A warning: the fact is shown only while this condition holds ('you' is the player looking), and then on the screen before every decision as well as with the table. For what a player must not miss: the game ends after this round, a card is about to be lost."),
}, required=["label"])
VIEW = obj("What the table shows a player: facts, tracks, maps, boards, shared rows, player panels and standings. Optional: a ruleset without it gets a generic table. See docs/engine.md#the-view.", {
    "last_round": {"type": "boolean", "description": "Whether the title shows the last round ('Generation 3 of 14'; default true). False where the rounds' max is only a safety cap and the game ends on a condition."},
    "card_price": _E("What a card costs the player looking ('you') now, after discounts ('card' is the card). Shown beside the printed cost wherever a card's text is shown to that player (options, hand, offers) when the two differ."),
    "alongside": arr("Cards shown with every question of an action, to the player answering (only the cards that player may see): e.g. the starting cards dealt while a corporation is chosen.",
        obj("The cards shown alongside one action's questions.", {
            "action": _ID("The action's id."),
            "cards": _E("A list of cards, for the player answering ('you')."),
            "with_each": _E("The cards that go with each card offered ('card'), named in its option with their text: an exploration set's discovery tile beside the set's card (for the player answering, 'you'; only the cards that player may see)."),
            "idle": _ID("An effect of the cards offered ('play', or a block's id): each card's option says which of its steps would do nothing now (a track already at its top, a tile with none left), as an action's option does; the card stays allowed."),
        }, required=["action"])),
    "actions": arr("What is shown beside an action wherever it is offered (what it costs the player looking now, say; the one card it would act on), so the player sees it before choosing it.",
        obj("What is shown beside one action: a number, a card, or both.", {
            "action": _ID("The action's id."),
            "value": _E("The number, for the player looking ('you')."),
            "text": _TEXT("Words after the number (e.g. its unit)."),
            "card": _E("The one card the action would act on now, for the player looking ('you'), or none (when it would choose among several, say): named beside the action, so an only choice taken for the player is seen before (an only technology to unlock, with its cost)."),
            "fact": _ID("A printed field of that card whose sentence follows its name (its cost, say)."),
        }, required=["action"])),
    "facts": arr("Game facts a player must know, in order: the end condition, counters, how scoring works, the solo goal, and warnings ('when').", _fact),
    "tracks": arr("Tracks to show with their scale, the present mark (each player's, for a track of each player) and the rewards printed on them (from the track's declaration). Without this list every shared track is shown.",
        obj("A track shown on the table.", {
            "track": _ID("The track's id."),
            "label": _NAME("What the table calls it (default: the track's name)."),
            "text": _TEXT("Words shown under it: what its marks mean."),
        }, required=["track"])),
    "maps": arr("How a board of the components (its spaces in rows: hex rows or a grid) is drawn: a mark for each kind of space, a short symbol for each printed bonus (and tile), and words under it. A board not listed is drawn all the same, with plain labels.",
        obj("One board of the components, drawn as a map.", {
            "board": _ID("The board's id (in the components' boards)."),
            "name": _NAME("Its name on the table (default: the board's name)."),
            "marks": {"type": "object", "description": "A mark (one or two characters, not a letter or a digit) drawn on both sides of the label of each space of a type: space type id → mark. Types without a mark are drawn plain.",
                      "additionalProperties": {"type": "string", "pattern": "^[^A-Za-z0-9\\s]{1,2}$"}},
            "symbols": {"type": "object", "description": "The short symbol (1 or 2 characters) a printed bonus or a tile is drawn with on this map (the terminal's and the browser's): bonus id (a resource or a board bonus) or tile id → symbol. Default: a bonus's first letter; a tile's own symbol (components' tiles), else its first letter. Give a tile its own when its symbol would read as a bonus's.",
                        "additionalProperties": {"type": "string", "pattern": "^\\S{1,2}$"}},
            "colours": {"type": "object", "description": "The colour a picture of the map (the browser's) fills a kind of space, a tile or a printed bonus with: space type, tile or bonus id → '#rgb' or '#rrggbb'. Default: a kind of space marked '~' is water, each other kind, tile and bonus a colour of its own.",
                        "additionalProperties": {"type": "string", "pattern": "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"}},
            "card_tiles": arr("Tiles shown with the name of the card that placed them (e.g. the special tiles of cards).", _ID("A tile id.")),
            "text": _TEXT("Words shown under the map: e.g. what a bonus gives."),
        }, required=["board"])),
    "boards": arr("Boards made of other things than the spaces of a board in the components (those are shown on their own): a line of frames (each a zone), with values, cards and who stands there.",
        obj("A board of frames: one frame per element of 'each'.", {
            "id": _ID("The board's id."),
            "name": _NAME("Its name on the table."),
            "shape": {"enum": ["frames"], "description": "'frames': a line of frames, left to right."},
            "each": _E("A list: the frames, left to right (zones, cards, numbers…)."),
            "as": _ID("The name 'label', 'cards', 'values' and 'here' give the frame."),
            "label": _E("The frame's label: a number or a name."),
            "cards": _E("The cards the frame holds (a list of cards); only cards the player looking may see are shown."),
            "values": arr("Numbers or facts of each frame, e.g. its capacity.", _value),
            "here": _E("A truth value for player 'you': whether that player's marker stands in this frame."),
            "text": _TEXT("Words shown under the board: e.g. which way travel may go."),
        }, required=["id", "each", "as"])),
    "rows": arr("Shared rows: the cards of a zone everyone sees, offered to the players, each with its price.",
        obj("A shared row of cards.", {
            "zone": _ID("The zone the row shows."),
            "name": _NAME("Its name on the table (default: the zone's name)."),
            "as": _ID("The name 'price' gives each card of the row (default: card)."),
            "price": _E("A card's price now, for the player looking ('you')."),
            "text": _TEXT("Words shown under the row."),
        }, required=["zone"])),
    "panels": obj("What each player's panel shows, in this order: stocks (with production), tags, values, the score so far by scoring category, and the cards of zones.", {
        "stocks": arr("The resources shown (default: every resource).", _ID("A resource id.")),
        "tags": arr("Tags counted on the cards the player has in play (in zones marked in_play).", _ID("A tag id.")),
        "colour": _E("The colour of the panel's player ('you') on the table: their cubes, tokens and panel, in the browser. A text: a colour word (red, blue, green, yellow, purple, orange, black, white, grey, brown, pink) or '#rgb' / '#rrggbb'; empty (or none) while the player has no colour yet. Default: a colour for each seat, in seat order. For a game where a player's colour comes with what they chose (a character, a faction), so the table agrees with its cards."),
        "tag_count": _E("How a tag is counted for the panel's player ('tag' is the tag, 'you' the player), where the rules count tags otherwise than on every card in play (e.g. events' tags stop counting once played). Default: the tags printed on the player's cards in zones marked in_play."),
        "values": arr("Numbers or facts of each player ('you' is the panel's player).", _value),
        "scoring": {"type": "boolean", "description": "Show the points so far by scoring category (default true)."},
        "zones": arr("The player's zones whose cards are shown, in order (default: every zone of a player); a zone the player looking may not see shows how many cards it holds.", _ID("A zone id.")),
    }),
    "standings": arr("Goals players race for (milestones, awards, majorities): a value per player, and what taking or funding it costs now.",
        obj("One goal, or one per element of 'each'.", {
            "name": _NAME("The goal's name (or the heading of the group, with 'each')."),
            "each": _E("A list: one standing per element, named by 'as' and labelled with its name."),
            "as": _ID("The name 'value' and 'cost' give the element of 'each'."),
            "value": _E("Each player's current value ('you' is that player)."),
            "cost": _E("What it costs now, for the player looking (a number)."),
            "open": _E("A truth value: whether it can still be taken or funded; when it cannot, no cost is shown."),
            "status": _E("How it stands now, shown in words in a column of its own (e.g. the player who claimed it, or none)."),
            "status_label": _NAME("The heading of the status column (default: 'now')."),
            "text": _TEXT("Words shown with it: what it rewards."),
        }, required=["name", "value"])),
})


FLOW = obj("Flow: setup, rounds, phases, turns, actions, procedures, scoring and the end "
           "of the game.", {
    "$schema": string("The schema this file follows (for editors)."),
    "kind": string("What this file holds.", const="flow"),
    "include": ref("include", "More files to load."),
    "setup": ref("effect", "What happens before the first round."),
    "rounds": obj("How many rounds are played.", {
        "count": integer("A fixed number of rounds.", minimum=1),
        "max": integer("The most rounds, when the game ends on a condition.", minimum=1),
        "until": ref("expression", "The game ends after the round in which this holds."),
        "name": ref("name", "What a round is called (generation, era…)."),
    }),
    "phases": arr("The phases of every round, in order.", obj(
        "A phase.", {
            "id": ref("id", "The phase's id."),
            "name": ref("name", "Its name."),
            "description": ref("description", "What happens."),
            "if": ref("expression", "Play this phase only when this holds."),
            "do": ref("effect", "What happens in this phase (besides turns)."),
            "turns": obj("Players take turns in this phase.", {
                "style": string("'fixed' (N actions per turn, M turns), 'action_rounds' "
                                "(take min..max actions or pass until all pass), or "
                                "'simultaneous' (everyone commits to an action unseen, then "
                                "the actions resolve in turn order; repeat until all end).",
                                enum=["fixed", "action_rounds", "simultaneous"]),
                "order": string("'turn_order' (default) or 'seat'.",
                                enum=["turn_order", "seat"]),
                "actions": integer("Actions per turn (fixed) or the most per turn "
                                   "(action_rounds).", minimum=1),
                "min_actions": integer("The fewest actions a turn must take before passing "
                                       "(action_rounds).", minimum=0),
                "repeat": integer("How many turns each player takes (fixed).", minimum=1),
                "actions_from": arr("Which actions are offered (default all).",
                                    ref("id", "An action id.")),
                "card_actions": boolean("Whether actions printed on cards in play are offered "
                                        "in this phase (default true)."),
                "count": boolean("Whether the prompt counts the actions ('action 2 of 3'; "
                                 "default true). false where something else limits a turn "
                                 "(workers, shown on the status line) and 'actions' is only "
                                 "a cap."),
            }),
            "after": ref("effect", "What happens after the turns."),
            "after_name": string("The log's heading for what 'after' does, so its effects "
                                 "are not read as the last action's (default 'End of' and "
                                 "the phase's name; written only when 'after' changes "
                                 "something)."),
        }, required=["id"])),
    "actions": arr("Actions players take in their turns.", ref("action", "An action.")),
    "procedures": arr("Named procedures rules call.", obj(
        "A procedure.", {
            "id": ref("id", "The procedure's id (call it as id(…))."),
            "description": ref("description", "What it does."),
            "params": ref("params", "Its parameters."),
            "do": ref("effect", "What it does."),
        "phrase": string("How people read a use of it, {param} filled in from the arguments, "
                         "e.g. 'lose {n} {r} production'. An empty phrase marks an adjustment "
                         "card text leaves out. See docs/words.md."),
            "prompt": string("Asked instead of the generated prompt at the first decision a "
                             "call of it makes, e.g. 'Travel how many time frames to the "
                             "left?'; {param} names the value of that parameter, e.g. "
                             "'Which technology in {era} fails?'."),
            "price": ref("expression", "What each card a question of it offers costs the "
                         "player choosing ('card' is the card, the parameters are in "
                         "scope), shown beside the printed cost: 'cost 3, 1 for you', e.g. "
                         "'max(0, card.cost - discount)'. See docs/engine.md."),
        }, required=["id", "do"])),
    "functions": arr("Named functions rules call; they compute a value and change nothing.", obj(
        "A function.", {
            "id": ref("id", "The function's id."),
            "description": ref("description", "What it computes."),
            "params": ref("params", "Its parameters."),
            "returns": ref("type_name", "The type of its result."),
            "value": ref("expression", "The result, as one expression."),
            "do": ref("effect", "The body, with 'return'."),
            "amount": string("For a number: how an amount of it reads in a requirement, {n} "
                             "the number, {s} an 's' unless n is 1, e.g. '{n} {t} tag{s}'."),
            "noun": string("For a list: what one element is called ('time frame')."),
            "choice": string("For a list: how a free choice of one of it reads in card "
                             "text ('any player': 'remove up to 3 plants from any player'), "
                             "{param} filled in. Prompts still list the options."),
        "phrase": string("How people read a use of it, {param} filled in from the arguments, "
                         "e.g. 'lose {n} {r} production'. An empty phrase marks an adjustment "
                         "card text leaves out. See docs/words.md."),
            "reason": string("Said instead of the generated reason when a condition "
                             "written with it fails, e.g. 'you have no city on Mars'. "
                             "Where the value is a comparison, '{left}' and '{right}' say "
                             "its two sides as they stand ('it holds {left} of {right} "
                             "technologies')."),
        }, required=["id", "returns"])),
    "triggers": arr("Rules that react to events.", ref("trigger", "A trigger.")),
    "scoring": arr("Final scoring, one entry per category.", obj(
        "A scoring category.", {
            "id": ref("id", "The category's id."),
            "name": ref("name", "Its name on the score sheet."),
            "description": ref("description", "How it scores."),
            "points": ref("expression", "The points of player 'you'."),
        }, required=["id", "points"])),
    "features": arr("What to record about each player at the end of every game, for "
                    "simulation results and balance reports (simulate --out, report, "
                    "compare).", obj(
        "A per-player feature recorded at game end.", {
            "id": ref("id", "The feature's id in the results file."),
            "name": ref("name", "Its name in reports."),
            "description": ref("description", "What it tells."),
            "each": ref("expression", "A list: the feature is recorded once for each "
                        "element (named by 'as'), as one value per element."),
            "as": ref("id", "The name 'value' gives the element of 'each'."),
            "value": ref("expression", "The value for player 'you' at the end of the game: "
                         "a card, an id, a list of them, a number, a truth value or a "
                         "player."),
        }, required=["id", "value"])),
    "end": obj("How the game ends.", {
        "then": ref("effect", "What happens after the last round, before scoring."),
        "winner": string("'highest' score (default) or 'lowest'.", enum=["highest", "lowest"]),
        "solo_win": ref("expression", "In a one-player game, whether the player wins."),
        "finished": ref("expression", "Whether the game reached its proper end (checked after "
                        "the last round; no acting player). A game that stopped at a round cap "
                        "without it is reported as unfinished."),
        "ranks": arr("Titles by final score (e.g. solo medals), lowest first; a player gets "
                     "the last title whose 'at' their score reaches.", obj(
                         "A title.", {
                             "at": integer("The lowest score that earns it."),
                             "name": ref("name", "The title, e.g. 'Gold medal'."),
                             "if": ref("expression", "Only a player for whom this also "
                                       "holds earns it (player 'you')."),
                         }, required=["at", "name"])),
    }),
    "evaluation": ref("expression", "How good the position is for player 'you' (higher is "
                      "better); greedy agents maximise it. Default: the final score so far."),
    "tie_breaks": arr("Tie-breaks in order: higher is better, for player 'you'.", {
        "description": "A tie-break: its value, or its name and value (the end screen shows "
                       "the name when it decided a tie).",
        "anyOf": [ref("expression", "A tie-break value."), obj(
            "A named tie-break.", {
                "name": ref("name", "What it is called on the end screen, e.g. 'Coins'."),
                "value": ref("expression", "The tie-break value for player 'you'."),
            }, required=["name", "value"])]}),
    "invariants": arr("Conditions that must hold before every decision of every game; "
                      "simulations check them and report the first one broken.", obj(
        "An invariant.", {
            "id": ref("id", "The invariant's id."),
            "description": ref("description", "What it guarantees."),
            "holds": ref("expression", "The condition (no acting player)."),
        }, required=["id", "holds"])),
    "variants": arr("Variants a game can be started with.", obj(
        "A variant.", {
            "id": ref("id", "The variant's id."),
            "name": ref("name", "Its name."),
            "description": ref("description", "What changes."),
            "players": arr("Player counts it applies to.", integer("A player count.")),
        }, required=["id"])),
    "view": VIEW,
}, required=["kind"])

CARD = obj("A card.", {
    "id": ref("id", "The card's id."),
    "name": ref("name", "The printed name."),
    "number": string("The printed number, if any.", maxLength=20),
    "type": ref("id", "The card type."),
    "deck": ref("id", "The zone the card starts in (default: the ruleset's deck)."),
    "copies": integer("How many copies are in the game (default 1).", minimum=1, maximum=100),
    "cost": integer("The printed cost."),
    "tags": arr("The printed tags; repeat a tag to count it twice.", ref("id", "A tag.")),
    "requires": ref("expression", "The play requirement: a condition."),
    "play": ref("effect", "What playing the card does."),
    "blocks": {"type": "object", "description": "Named effect blocks (e.g. production) other "
               "effects can run with 'run NAME of CARD'.",
               "additionalProperties": {"$ref": "#/$defs/effect_text"},
               "propertyNames": {"pattern": ID_PATTERN}},
    "actions": arr("Actions the card gives its owner.", ref("action", "An action.")),
    "triggers": arr("Triggered abilities.", ref("trigger", "A trigger.")),
    "modifiers": arr("Static modifiers while the card is in play.",
                     ref("modifier", "A modifier.")),
    "vp": ref("expression", "Victory points at the end of the game."),
    "holds": ref("id", "The card resource this card collects, if any."),
    "fields": {"type": "object", "description": "Values of the game's extra card fields.",
               "additionalProperties": {"description": "A field value."},
               "propertyNames": {"pattern": ID_PATTERN}},
    "text": ref("description", "The printed card text, for people."),
}, required=["id", "name"])

CARDS = obj("A file of cards.", {
    "$schema": string("The schema this file follows (for editors)."),
    "kind": string("What this file holds.", const="cards"),
    "include": ref("include", "More files to load."),
    "cards": arr("The cards.", {"$ref": "#/$defs/card"}),
}, required=["kind", "cards"])
CARDS["$defs"] = {"card": CARD, "effect_text": ref("effect", "An effect block.")}

MANIFEST = obj("A ruleset: the game's identity and the files it is made of.", {
    "$schema": string("The schema this file follows (for editors)."),
    "kind": string("What this file holds.", const="ruleset"),
    "id": ref("id", "The ruleset's id, e.g. terraforming_mars."),
    "name": ref("name", "The game's name."),
    "version": string("The ruleset's version; records from other versions are refused.",
                      maxLength=40),
    "description": ref("description", "What the ruleset covers."),
    "players": obj("Supported player counts.", {
        "min": integer("The fewest players.", minimum=1),
        "max": integer("The most players.", minimum=1),
    }, required=["min", "max"]),
    "include": ref("include", "The files of the ruleset."),
}, required=["kind", "id", "name", "players", "include"])

MOD = obj("A mod or house rule: changes layered over a ruleset.", {
    "$schema": string("The schema this file follows (for editors)."),
    "kind": string("What this file holds.", const="mod"),
    "id": ref("id", "The mod's id."),
    "name": ref("name", "The mod's name."),
    "description": ref("description", "What it changes and why."),
    "target": ref("id", "The id of the ruleset it applies to."),
    "changes": arr("The changes, applied in order.", obj(
        "One change.", {
            "op": string("'add' a new entry, 'replace' an entry, 'patch' some of its keys, "
                         "'remove' it, or 'set_constant'.",
                         enum=["add", "replace", "patch", "remove", "set_constant"]),
            "in": string("The list the entry belongs to, or 'flow' for one of the flow's "
                         "single parts (setup, rounds, end, tie_breaks, evaluation, view).",
                         enum=["cards", "resources", "card_resources", "tags", "card_types",
                               "markers", "blocks", "tracks", "zones", "tiles", "boards",
                               "events", "modifiers", "card_fields", "actions", "procedures",
                               "functions", "phases", "scoring", "variants", "triggers",
                               "invariants", "features", "flow"]),
            "id": ref("id", "The entry's id (for replace, patch, remove; set_constant: "
                      "the constant; in 'flow': setup, rounds, end, tie_breaks, "
                      "evaluation or view)."),
            "value": {"description": "The new entry (add, replace), the keys to change "
                                     "(patch), or the constant's value."},
        }, required=["op"])),
}, required=["kind", "id", "changes"])


ANSWER = {"description": "An answer: an option's label (or the start of it) as text; a "
                         "number only for a 'how many' question; yes or no for a yes-or-no "
                         "question.",
          "anyOf": [{"type": "string", "minLength": 1}, {"type": "integer"},
                    {"type": "boolean"}]}


BIG = 10 ** 18  # the effect language's limit on numbers


def counts(description: str, what: str) -> dict:
    return {"type": "object", "description": description,
            "propertyNames": {"pattern": ID_PATTERN},
            "additionalProperties": integer(f"The {what}.", minimum=-BIG, maximum=BIG)}


def by_seat(description: str, value: dict) -> dict:
    return {"type": "object", "description": description,
            "propertyNames": {"pattern": "^[1-9][0-9]*$"}, "additionalProperties": value}


CARD_ITEM = {"description": "A card by id, or a mapping giving its id and what is on it.",
             "anyOf": [ref("id", "A card id."), obj("A card and what is on it.", {
                 "card": ref("id", "The card's id."),
                 "owner": integer("The seat (from 1) that owns it, for a card in a shared "
                                  "zone.", minimum=1),
                 "resources": counts("Card resources on it, by id.", "number on the card"),
                 "markers": arr("Markers on it.", ref("id", "A marker id.")),
                 "pieces": by_seat("Players' pieces on it, by seat (from 1).",
                                   integer("How many of that player's pieces.", minimum=0,
                                           maximum=BIG)),
             }, required=["card"])]}

ZONES = {"type": "object", "description": "Zones, each listing exactly the cards it holds, "
                                          "in order (cards that were there go back to their "
                                          "deck).",
         "propertyNames": {"pattern": ID_PATTERN},
         "additionalProperties": arr("The cards the zone holds.", CARD_ITEM)}

POSITION = obj(
    "A position set directly, after the recorded decisions and before 'setup': nothing "
    "it sets is paid, rewarded or triggered.", {
        "round": integer("The round (generation) the game is in.", minimum=1, maximum=1000),
        "phase": ref("id", "The phase the game is in; 'advance' continues from there."),
        "turn": integer("The seat (from 1) whose turn it is; 'advance' starts with it.",
                        minimum=1),
        "turn_order": arr("The turn order, by seat (from 1).", integer("A seat.", minimum=1)),
        "passed": arr("Seats (from 1) that have passed in this phase.",
                      integer("A seat.", minimum=1)),
        "tracks": counts("Global tracks set to these values (no rewards).", "track's value"),
        "claimed": {"type": "object",
                    "description": "One-time track rewards already taken, by track: the "
                                   "values ('at') of those rewards.",
                    "propertyNames": {"pattern": ID_PATTERN},
                    "additionalProperties": arr("The 'at' values of rewards taken.",
                                                integer("A reward's 'at'."))},
        "players": by_seat("What each player has, by seat (from 1).", obj(
            "One player's stocks, production, tracks and cards.", {
                "used": arr("Actions the player has already used in their period (round, "
                            "turn or game): flow action ids, or ids of the player's cards "
                            "in play (all that card's actions).", ref("id", "An action or "
                                                                       "card id.")),
                "stock": counts("Resources in stock.", "amount"),
                "production": counts("Production.", "production"),
                "tracks": counts("The player's tracks set to these values (no rewards).",
                                 "track's value"),
                "cards": ZONES,
            })),
        "cards": ZONES,
        "tiles": arr("Tiles on spaces (no bonus, no reward, no trigger).", obj(
            "One tile.", {
                "tile": ref("id", "The tile type."),
                "space": string("The space: its id or its label.", minLength=1),
                "owner": integer("The seat (from 1) that owns it, for an owned tile.",
                                 minimum=1),
                "card": ref("id", "The card that placed it, if any."),
            }, required=["tile", "space"])),
    })

ADVANCE = {"description": "Run the flow onward from the position until a point: 'turn' (the "
                          "end of the current turn), 'round' (of the round or generation), "
                          "'game' (the end of the game, with final scoring), or {phase: ID} "
                          "(the end of that phase).",
           "anyOf": [string("turn, round or game.", enum=["turn", "round", "game"]),
                     obj("The end of a named phase.", {"phase": ref("id", "The phase.")},
                         required=["phase"])]}

AGENT = string("An agent that answers the decisions left: 'passive' (passes, ends turns, "
               "says no, takes the least), 'random', 'greedy', or 'random:SEED'.",
               minLength=1)

RESULT = obj("What the game's end must show (after 'advance: game').", {
    "winners": arr("The winning seats (from 1); empty when nobody wins (a lost solo game).",
                   integer("A seat.", minimum=1)),
    "scores": by_seat("Final scores by seat (from 1).", integer("The score.")),
    "ranks": by_seat("The rank or title each seat earned (null for none).",
                     {"description": "The rank's name, or null.",
                      "anyOf": [{"type": "string"}, {"type": "null"}]}),
    "parts": by_seat("Points by scoring part (its id or name), by seat (from 1); parts not "
                     "listed are not checked.",
                     {"type": "object", "description": "Points by scoring part.",
                      "additionalProperties": integer("The points.")}),
    "solo": string("The solo result.", enum=["won", "lost"]),
    "finished": boolean("Whether the game reached its end (false: stopped short, no winner)."),
})

SCENARIOS = obj("Rules tests as data: positions, steps and what must then be true.", {
    "$schema": string("The schema this file follows (for editors)."),
    "kind": string("What this file holds.", const="scenarios"),
    "scenarios": arr("The scenarios.", obj(
        "One scenario: a rule shown on a position.", {
            "id": ref("id", "The scenario's id."),
            "description": ref("description", "The rule it shows, in the rulebook's words."),
            "players": integer("How many players.", minimum=1),
            "seed": integer("The random seed (default 1)."),
            "variants": arr("Variants in play.", ref("id", "A variant id.")),
            "decisions": arr("Answers from the start of the game; the game stops at the "
                             "first decision after them.", ANSWER),
            "position": POSITION,
            "setup": ref("effect", "An effect that builds the position (no acting player; "
                         "use 'as p:' or 'for p'). It runs after 'position', and its "
                         "effects happen as in play."),
            "steps": arr("What happens, in order.", obj(
                "A step: run an effect, take an action, advance the flow, look at a "
                "decision, or check a condition or the result.", {
                    "as": integer("The seat (from 1) of the acting player (default 1).",
                                  minimum=1),
                    "run": ref("effect", "An effect the acting player carries out."),
                    "action": ref("id", "An action the acting player takes, with the same "
                                  "checks a player faces."),
                    "card_action": string("An action printed on a card the player has in "
                                          "play: the card's id."),
                    "which": {"description": "With card_action: which of the card's actions, "
                                             "by name or by number from 1 (default the first "
                                             "one available). With an action offered for "
                                             "each element of a list: which element, by its "
                                             "label or number from 1.",
                              "anyOf": [{"type": "string", "minLength": 1},
                                        {"type": "integer", "minimum": 1}]},
                    "advance": ADVANCE,
                    "agents": {"description": "With advance: who answers the decisions the "
                                              "answers do not cover, one agent for everyone "
                                              "or one per seat (from 1).",
                               "anyOf": [AGENT, by_seat("Agents by seat.", AGENT)]},
                    "answers": arr("Answers to the decisions this step asks, in order.",
                                   ANSWER),
                    "offers": arr("The exact options of the first decision the answers do "
                                  "not cover (labels, or the numbers of a 'how many' "
                                  "question); the step then stops there and the position is "
                                  "left as it was. Alone, it looks at the acting player's "
                                  "choice of action now.", ANSWER),
                    "refuses": {"type": "object",
                                "description": "Options that decision lists as not allowed, "
                                               "each with text its reason contains.",
                                "additionalProperties": string("Text the reason contains.",
                                                               minLength=1)},
                    "asks": string("Text the prompt of that decision contains.", minLength=1),
                    "decider": integer("The seat (from 1) that decision is put to.",
                                       minimum=1),
                    "refused": string("The step must be refused, with a reason containing "
                                      "this text; the position is left unchanged.",
                                      minLength=1),
                    "expect": ref("expression", "A condition that must hold."),
                    "result": RESULT,
                    "logged": string("Text a line of the game log contains, as the seat in "
                                     "'as' reads it (its own private lines too), among the "
                                     "lines written since the steps began.", minLength=1),
                    "description": ref("description", "What this step shows."),
                })),
        }, required=["id", "players", "steps"])),
}, required=["kind", "scenarios"])


def document(title: str, body: dict, defs: dict | None = None) -> dict:
    out = {"$schema": DRAFT, "title": title}
    out.update(body)
    if defs:
        out.setdefault("$defs", {}).update(defs)
    return out


def _number(description: str, low: float = -1e9, high: float = 1e9) -> dict:
    return {"type": "number", "description": description, "minimum": low, "maximum": high}


def _numbers(description: str, low: float = -1e9, high: float = 1e9) -> dict:
    return arr(description, {"type": "number", "minimum": low, "maximum": high})


# The weights 'rulebook train' writes (interpreter/load/learned.py reads them): data only,
# every number within bounds (JSON has no NaN or infinity; the bounds keep the rest sane).
# A file holds one fit at its top level and, in 'fits', fits trained at other player counts.
LEARNED_FIT = {
    "players": integer("Players per training game of the top level's fit (the main one).",
                       minimum=1, maximum=100),
    "games": integer("Games played to train.", minimum=0, maximum=100_000_000),
    "seed": integer("The training's seed.", minimum=-(2 ** 63 - 1), maximum=2 ** 63 - 1),
    "agent": string("Who played the training games, round by round.", maxLength=500),
    "rounds": _number("The rounds a training game lasted on average: the game's "
                      "progress is the round over this (at most 1).", 1e-6, 1e5),
    "intercept": _number("The value of a seat whose features are all at their mean."),
    "fit": {"type": "object", "description": "How well the value predicted the final "
            "margin of held-out games, and how the training went.",
            "additionalProperties": {"type": ["number", "string", "integer"]}},
    "features": arr("The features' names, as interpreter/agents/features.py reads them.",
                    {"type": "string", "maxLength": 500}),
    "weights": _numbers("The weight of each feature, on its scaled value."),
    "late_weights": _numbers("The weight of each feature times the game's progress, on "
                             "its scaled value."),
    "mean": _numbers("What is taken from each feature before it is scaled."),
    "scale": _numbers("What each feature less its mean is divided by.", 1e-12, 1e9),
    "late_mean": _numbers("What is taken from each feature times the progress before it "
                          "is scaled."),
    "late_scale": _numbers("What each feature times the progress, less its mean, is "
                           "divided by.", 1e-12, 1e9),
}
LEARNED = obj(
    "Weights of an evaluation learned from a ruleset's own games by 'rulebook train' "
    "(docs/agents.md): a linear value of the features the engine reads for one seat, "
    "predicting the seat's final margin. Data only: never code, never pickled.",
    {
        "format": {"const": 1, "description": "The file format's version."},
        "ruleset": string("The id of the ruleset the weights were trained for.",
                          maxLength=200),
        "ruleset_name": string("Its name, for people.", maxLength=200),
        "ruleset_hash": string("The ruleset's content hash (mods included) when trained.",
                               maxLength=200),
        "mods": arr("The mods layered in for the training, by id.",
                    {"type": ["string", "null"], "maxLength": 500}),
        "target": {"enum": ["margin", "evaluation"], "description": "What the value "
                   "predicts: margin, the seat's final score minus the best other seat's "
                   "(solo: its final score); evaluation, the same of the ruleset's "
                   "hand-written evaluation of the final position (solo: its own)."},
        "positions": {"enum": ["decisions", "turn-ends"], "description": "Which positions "
                      "of the training games were fitted: decisions, a share of the "
                      "decisions, every seat at each (a file without this field); turn-ends, "
                      "the end of each turn for the seat whose turn it was, and the final "
                      "position for every seat."},
        "prior": {"enum": ["zero", "evaluation"], "description": "What each stock's and "
                  "production's weight was held back toward in the fit: zero (a file "
                  "without this field); evaluation, the price of one unit to the "
                  "ruleset's hand-written evaluation, in points at the rate that "
                  "evaluation predicted the final margin on the training positions."},
        "card_prior": obj(
            "With 'rulebook train --card-prior ZONE:RESOURCE': the cards held in the zones "
            "were valued by what they do when played (their 'play' effect run on copies of "
            "the training positions: the hand-written evaluation's gain plus their 'vp' "
            "less their cost in the resource, in points), and the fit weighed the worth of "
            "the cards held; what it learned is folded into the card features' weights. A "
            "file without this field had no card prior.",
            {"zones": arr("The zones of the cards held, by id.",
                          {"type": "string", "maxLength": 200}),
             "cost": string("The resource a card's printed cost was priced in ('' for "
                            "none).", maxLength=200),
             "worth": {"type": "object", "description": "Each card measured, by id: its "
                       "mean worth played, in points.",
                       "additionalProperties": _number("A card's worth, in points.")},
             "uses": {"type": "boolean", "description": "With --card-uses: a card's worth "
                      "also counted what its actions and triggers bring a round once it "
                      "is played, for the rounds the training games had left."},
             "requirements": {"type": "boolean", "description": "With "
                              "--card-requirements: a card held whose requirements did "
                              "not hold was worth 0 at that position."}},
            required=("zones", "cost", "worth")),
        **LEARNED_FIT,
        "search": obj("Settings the ismcts agent searches with when it plays with this "
                      "file and its spec does not give them (written by 'rulebook train "
                      "--shrink' and '--search').",
                      {"shrink": _number("ismcts's shrink: an option's worth weighed "
                                         "against its node's mean as if it had this many "
                                         "more tries at that mean.", 0, 1_000_000),
                       "free": {"enum": ["count", "extra"], "description":
                                "ismcts's free: whether a free action counts as one of the "
                                "further actions of its horizon (count) or not (extra)."},
                       "turn_end": {"enum": ["past", "stop"], "description":
                                    "ismcts's turn_end: whether a search's further actions "
                                    "run past the real turn's end (past) or stop with the "
                                    "turn's actions (stop)."},
                       "backup": {"enum": ["mean", "max", "offered"], "description":
                                  "ismcts's backup: a node followed by the same seat's "
                                  "choice is worth the mean of its rewards, its best "
                                  "option, or the best of the options on offer, on average "
                                  "over the worlds (offered)."}}),
        "fits": arr("Fits trained at other player counts (rulebook train --players 2,3): a "
                    "game uses the fit of its player count, else the one of the nearest "
                    "count (the fewer players when two are as near).",
                    obj("A fit trained at another player count, with the same fields as "
                        "the top level's fit.", dict(LEARNED_FIT),
                        required=("players", "games", "seed", "agent", "rounds",
                                  "intercept", "features", "weights", "late_weights",
                                  "mean", "scale"))),
    },
    required=("format", "ruleset", "ruleset_hash", "mods", "target", "features", "weights",
              "late_weights", "intercept", "mean", "scale", "rounds", "games", "seed",
              "agent"))


def build() -> dict[str, dict]:
    common = {"$schema": DRAFT, "title": "Rulebook shared definitions",
              "description": "Definitions shared by the other Rulebook schemas.",
              "$defs": COMMON}
    return {
        "common.schema.json": common,
        "ruleset.schema.json": document("Rulebook ruleset manifest", MANIFEST),
        "components.schema.json": document("Rulebook components", COMPONENTS),
        "flow.schema.json": document("Rulebook flow", FLOW),
        "cards.schema.json": document("Rulebook cards", CARDS),
        "mod.schema.json": document("Rulebook mod", MOD),
        "scenarios.schema.json": document("Rulebook scenarios", SCENARIOS),
        "learned.schema.json": {"$schema": DRAFT, "title": "Rulebook learned evaluation",
                                **LEARNED},
    }


def render(schema: dict) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name, schema in build().items():
        path = OUT / name
        text = render(schema)
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print("out of date: " + ", ".join(stale) + " (run python tools/build_schemas.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
