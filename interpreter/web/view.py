"""The one adapter from the engine to the page: what a seat (or a spectator) may see, as data.

Everything the page draws of the table comes from :func:`table_view`, so
when views become data of their own (one view model per seat) this is the
one function to change. It takes the engine's view of a seat (``None``: the
public view, what every seat may see) and gives plain JSON-ready data with
every name already in words: the page never sees an id it would have to
name, and never builds a second picture of the game. Strings here come from
rule files: the page puts them in with ``textContent`` only.
"""

from __future__ import annotations

from ..lang.words import catalogue_entry, facts_line


def _name(decl: dict | None, key: str) -> str:
    return (decl or {}).get("name") or key.replace("_", " ")


def engine_view(game, seat: int | None) -> dict:
    """The engine's own view of ``seat`` (from 0); None: a seat that is nobody's (public)."""
    view = game.view(game.n if seat is None else seat)
    if seat is None:
        view["you"] = None
    return view


def card_text(game, def_id: str) -> dict:
    """A card's generated text: its name, a line of facts (cost, tags), its lines."""
    entry = catalogue_entry(game.rs, def_id)
    return {"name": entry["name"], "facts": facts_line(entry), "lines": list(entry["lines"])}


def _card(game, c: dict, texts: dict) -> dict:
    out = {"name": c["name"]}
    extra = []
    if c.get("markers"):
        extra += [str(m).replace("_", " ") for m in c["markers"]]
    if c.get("resources"):
        extra += [f"{v} {game.thing_name(k)}" for k, v in c["resources"].items()]
    if c.get("pieces"):
        extra += [f"{v} of player {k}" for k, v in c["pieces"].items()]
    if extra:
        out["on"] = extra
    if c["id"] not in texts:
        texts[c["id"]] = card_text(game, c["id"])
    out["text"] = c["id"]  # the key into the view's card texts
    return out


def table_view(game, seat: int | None) -> dict:
    """What ``seat`` (from 0, None for a spectator) sees, in words, as plain data."""
    view = engine_view(game, seat)
    players = view["players"]
    texts: dict[str, dict] = {}

    def player_name(owner: str) -> str:
        return players[int(owner) - 1]["name"]

    out_players = []
    for p in players:
        stocks = []
        for key, value in p["stock"].items():
            row = {"name": game.thing_name(key), "value": value}
            if key in p["production"]:
                row["production"] = p["production"][key]
            stocks.append(row)
        for key, value in p["production"].items():
            if key not in p["stock"]:
                stocks.append({"name": game.thing_name(key), "value": 0, "production": value})
        tracks = [{"name": _name(game.track_decl.get(k), k), "value": v}
                  for k, v in p["tracks"].items()]
        out_players.append({"seat": p["seat"], "name": p["name"], "stocks": stocks,
                            "tracks": tracks, "you": seat is not None and p["seat"] - 1 == seat})
    zones = []
    hand = []
    for key, cards in view["zones"].items():
        zone, _, owner = key.partition("@")
        decl = game.zone_decl.get(zone) or {}
        name = _name(decl, zone)
        entry = {"name": name, "owner": player_name(owner) if owner else None}
        if isinstance(cards, dict):
            entry["count"] = cards["count"]
            entry["hidden"] = True
        else:
            entry["cards"] = [_card(game, c, texts) for c in cards]
            entry["count"] = len(cards)
            own_hidden = owner and seat is not None and int(owner) - 1 == seat and \
                decl.get("visibility") == "owner"
            if own_hidden:
                entry["yours"] = True
                hand.append(entry)
                continue
        zones.append(entry)
    spaces = []
    for sid, live in view.get("spaces", {}).items():
        tile = live.get("tile")
        owner = live.get("owner")
        spaces.append({"space": game.space_label.get(sid, ""),
                       "tile": _name(game.tile_decl.get(tile), tile) if tile else None,
                       "owner": players[owner]["name"] if isinstance(owner, int)
                       and 0 <= owner < len(players) else None})
    return {
        "you": None if seat is None else seat + 1,
        "round": view["round"],
        "rounds_word": game.rs.words.rounds,
        "phase": game.phase_name(view["phase"]) if view["phase"] else "",
        "turn_order": [players[s - 1]["name"] for s in view["turn_order"]],
        "tracks": [{"name": _name(game.track_decl.get(k), k), "value": v,
                    "unit": (game.track_decl.get(k) or {}).get("unit") or ""}
                   for k, v in view["tracks"].items()],
        "players": out_players,
        "hand": hand,
        "zones": zones,
        "spaces": spaces,
        "cards": texts,
    }
