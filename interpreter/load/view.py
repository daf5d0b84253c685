"""The view section of a flow file: what the table shows, checked like scoring.

A ruleset may declare, under ``view:``, the facts, tracks, boards of frames,
shared rows, player panels and standings its table shows (the schema is in
``schemas/flow.schema.json``; docs/engine.md#the-view says what each part
means). Each expression is parsed and type-checked here against the ruleset's
symbols, with the variables its place gives it, and compiled under a key
``("view", part, i, field…)`` that the engine's view model
(:mod:`rulebook_games.engine.viewmodel`) runs.

Hidden information: a value shown to every player may not read the cards of a
zone that not everyone sees (a hand, a deck), directly or through the
ruleset's functions, except to count them (``size(cards_in(hand))``). A panel
value marked ``private: true`` is shown only to its own player and may read
them. Anything else is RB406, at the expression.
"""

from __future__ import annotations

from ..errors import suggest
from ..lang import ast
from ..lang import types as T
from ..lang.checker import Context


def check_view(b) -> None:
    """Check the view section of builder ``b`` (a :class:`~.ruleset._Builder`), if any."""
    e = b.singles.get("view")
    if e is None or not isinstance(e.data, dict):
        return
    you = {"you": T.PLAYER}
    data = e.data

    def expr(key, path, variables, expected, what, label):
        b._expr(("view",) + key, e, path, Context(f"view, {label}", False, False,
                                                  dict(variables)), expected, what)
        return b.asts.get(("view",) + key)

    def ref(value, kinds, what, path):
        if isinstance(value, str) and b.table.get(value, kinds) is None:
            b.diags.error("RB401", f"unknown {what} '{value}'", e.span(*path),
                          hint=suggest(value, b.table.of_kind(*kinds)), context="view")

    def values(items, path, variables, label, panel=False):
        for i, item in enumerate(items or []):
            if "value" in item:
                tree = expr(path + (i,), path + (i, "value"), variables, T.ANY,
                            "the value", f"{label} '{item.get('label')}'")
                if tree is not None and not (panel and item.get("private")):
                    _public(b, e, tree, path + (i, "value"))

    values(data.get("facts"), ("facts",), you, "fact")
    for i, item in enumerate(data.get("facts") or []):
        if "when" in item:  # a warning: shown only while it holds
            tree = expr(("facts", i, "when"), ("facts", i, "when"), you, T.BOOL,
                        "the condition", f"fact '{item.get('label')}'")
            if tree is not None:
                _public(b, e, tree, ("facts", i, "when"))
    if "card_price" in data:
        tree = expr(("card_price",), ("card_price",), dict(you, card=T.CARD), T.INT,
                    "the card's price", "card price")
        if tree is not None:
            _public(b, e, tree, ("card_price",))
    actions = b.sections.get("actions") or {}

    def action_ref(part: str, i: int) -> str:
        action = data[part][i].get("action")
        if isinstance(action, str) and action not in actions:
            b.diags.error("RB401", f"unknown action '{action}'", e.span(part, i, "action"),
                          hint=suggest(action, list(actions)), context="view")
        return str(action)
    for i, item in enumerate(data.get("actions") or []):
        action = action_ref("actions", i)
        if "value" in item:
            tree = expr(("actions", i), ("actions", i, "value"), you, T.INT, "the number",
                        f"the number beside '{action}'")
            if tree is not None:
                _public(b, e, tree, ("actions", i, "value"))
        if "card" in item:  # the one card the action would act on now, or none
            tree = expr(("actions", i, "card"), ("actions", i, "card"), you, T.CARD,
                        "the card", f"the card beside '{action}'")
            if tree is not None:
                _public(b, e, tree, ("actions", i, "card"))
        elif "value" not in item:
            b.diags.error("RB404", f"the entry for '{action}' shows nothing beside it: give "
                          "it a 'value' (a number) or a 'card'", e.span("actions", i),
                          context="view")
        fact = item.get("fact")
        if fact is not None and not any(fact in (c.data.get("fields") or {})
                                        for c in b.sections["cards"].values()
                                        if isinstance(c.data, dict)):
            b.diags.error("RB401", f"no card has a field '{fact}'",
                          e.span("actions", i, "fact"), context="view")
    for i, item in enumerate(data.get("alongside") or []):
        action = action_ref("alongside", i)
        # shown only to the player answering, and only the cards that player may see
        if "cards" in item:
            expr(("alongside", i), ("alongside", i, "cards"), you, T.list_of(T.CARD),
                 "the cards shown", f"cards alongside '{action}'")
        if "with_each" in item:  # the cards going with each card offered
            expr(("alongside", i, "with_each"), ("alongside", i, "with_each"),
                 dict(you, card=T.CARD), T.list_of(T.CARD), "the cards shown",
                 f"cards with each card offered by '{action}'")
        if item.get("idle") != "play":  # the effect whose idle steps a card offered notes
            ref(item.get("idle"), ("block",), "effect block", ("alongside", i, "idle"))
    for i, item in enumerate(data.get("tracks") or []):
        ref(item.get("track"), ("track", "player_track"), "track", ("tracks", i, "track"))
    for i, m in enumerate(data.get("maps") or []):
        _check_map(b, e, i, m)
    for i, board in enumerate(data.get("boards") or []):
        label = f"board '{board.get('id')}'"
        tree = expr(("boards", i, "each"), ("boards", i, "each"), you, T.list_of(T.ANY),
                    "the list of frames", label)
        if tree is not None:
            _public(b, e, tree, ("boards", i, "each"))
        elem = tree.type.elem if tree is not None and isinstance(tree.type, T.ListType) \
            else T.ANY
        variables = dict(you, **{board["as"]: elem})
        for field, typ, what in (("label", T.ANY, "the frame's label"),
                                 ("cards", T.list_of(T.CARD), "the frame's cards"),
                                 ("here", T.BOOL, "whether a player is here")):
            if field in board:
                tree = expr(("boards", i, field), ("boards", i, field), variables, typ, what,
                            label)
                if tree is not None and field != "cards":  # (cards are filtered when shown)
                    _public(b, e, tree, ("boards", i, field))
        values(board.get("values"), ("boards", i, "values"), variables, label)
    for i, row in enumerate(data.get("rows") or []):
        ref(row.get("zone"), ("zone",), "zone", ("rows", i, "zone"))
        if "price" in row:
            variables = dict(you, **{row.get("as", "card"): T.CARD})
            tree = expr(("rows", i, "price"), ("rows", i, "price"), variables, T.ANY,
                        "the price", f"row '{row.get('zone')}'")
            if tree is not None:
                _public(b, e, tree, ("rows", i, "price"))
    panels = data.get("panels") or {}
    for i, r in enumerate(panels.get("stocks") or []):
        ref(r, ("resource",), "resource", ("panels", "stocks", i))
    for i, t in enumerate(panels.get("tags") or []):
        ref(t, ("tag",), "tag", ("panels", "tags", i))
    if "tag_count" in panels:
        tree = expr(("panels", "tag_count"), ("panels", "tag_count"),
                    dict(you, tag=T.TAG), T.INT, "a tag's count", "panel tags")
        if tree is not None:
            _public(b, e, tree, ("panels", "tag_count"))
    if "colour" in panels:
        tree = expr(("panels", "colour"), ("panels", "colour"), you, T.STR,
                    "the player's colour", "panel colour")
        if tree is not None:
            _public(b, e, tree, ("panels", "colour"))
    for i, z in enumerate(panels.get("zones") or []):
        ref(z, ("zone",), "zone", ("panels", "zones", i))
        zone = b.sections["zones"].get(z)
        if zone is not None and zone.get("scope", "shared") != "player":
            b.diags.error("RB404", f"zone '{z}' is shared: a panel shows a player's own zones "
                          "(show a shared zone as a row)", e.span("panels", "zones", i),
                          context="view")
    values(panels.get("values"), ("panels", "values"), you, "panel value", panel=True)
    for i, goal in enumerate(data.get("standings") or []):
        label = f"standing '{goal.get('name')}'"
        variables = dict(you)
        if ("each" in goal) != ("as" in goal):
            b.diags.error("RB404", "'each' and 'as' go together: 'each' lists the goals, "
                          "'as' names one of them",
                          e.key_span("standings", i, "each" if "each" in goal else "as"),
                          context="view")
            continue
        if "each" in goal:
            tree = expr(("standings", i, "each"), ("standings", i, "each"), you,
                        T.list_of(T.ANY), "the list of goals", label)
            if tree is not None:
                _public(b, e, tree, ("standings", i, "each"))
            elem = tree.type.elem if tree is not None and isinstance(tree.type, T.ListType) \
                else T.ANY
            variables[goal["as"]] = elem
        for field, typ, what in (("value", T.ANY, "each player's value"),
                                 ("cost", T.INT, "the cost"),
                                 ("open", T.BOOL, "whether it can still be taken"),
                                 ("status", T.ANY, "how it stands now")):
            if field in goal:
                tree = expr(("standings", i, field), ("standings", i, field), variables, typ,
                            what, label)
                if tree is not None:
                    _public(b, e, tree, ("standings", i, field))


def _check_map(b, e, i: int, m: dict) -> None:
    """A map names a board of the components, marks only its space types, gives symbols
    only to tiles and things a space's bonus may hold, and colours only its space types,
    tiles and those things."""
    board_id = m.get("board")
    entry = b.sections["boards"].get(board_id) if isinstance(board_id, str) else None
    if entry is None or not isinstance(entry.data, dict):
        b.diags.error("RB401", f"unknown board '{board_id}'", e.span("maps", i, "board"),
                      hint=suggest(str(board_id), list(b.sections["boards"])), context="view")
        return
    board = entry.data
    if board.get("layout") not in ("hex_rows", "grid"):
        layout = board.get("layout", "explicit")
        b.diags.error("RB404", f"board '{board_id}' is laid out '{layout}': only a board in "
                      "rows (hex_rows or grid) is drawn as a map",
                      e.span("maps", i, "board"), context="view")
    types = [t["id"] if isinstance(t, dict) else t for t in board.get("space_types") or []]
    for t in (m.get("marks") or {}):
        if t not in types:
            b.diags.error("RB401", f"board '{board_id}' has no space type '{t}'",
                          e.key_span("maps", i, "marks", t), hint=suggest(t, types),
                          context="view")
    for j, t in enumerate(m.get("card_tiles") or []):
        if b.table.get(t, ("tile",)) is None:
            b.diags.error("RB401", f"unknown tile '{t}'", e.span("maps", i, "card_tiles", j),
                          hint=suggest(t, b.table.of_kind("tile")), context="view")
    bonuses = [x["id"] for x in board.get("bonuses") or [] if isinstance(x, dict)]
    known = bonuses + list(b.sections["resources"])
    tiles = b.table.of_kind("tile")
    for x in (m.get("symbols") or {}):
        if x not in known and b.table.get(x, ("tile",)) is None:
            b.diags.error("RB401", f"'{x}' is neither a tile, a resource nor a bonus of board "
                          f"'{board_id}'", e.key_span("maps", i, "symbols", x),
                          hint=suggest(x, known + list(tiles)), context="view")
    for x in (m.get("colours") or {}):
        if x not in types and x not in known and b.table.get(x, ("tile",)) is None:
            b.diags.error("RB401", f"'{x}' is neither a space type of board '{board_id}', "
                          "a tile, a resource nor a bonus of the board",
                          e.key_span("maps", i, "colours", x),
                          hint=suggest(x, types + list(tiles) + known), context="view")


def hidden_reads(rs_sections, asts, tree, seen=None) -> list[tuple[str, object]]:
    """(zone, span) of each zone not everyone sees whose cards ``tree`` reads, other than
    to count them, following the ruleset's functions it calls."""
    seen = set() if seen is None else seen
    hidden = {z for z, e in rs_sections["zones"].items()
              if isinstance(e.data, dict) and e.data.get("visibility", "public") != "public"}
    if not hidden:
        return []
    counted: set[int] = set()
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.func == "size" and node.args \
                and isinstance(node.args[0], ast.Call) and node.args[0].func == "cards_in" \
                and node.args[0].args and isinstance(node.args[0].args[0], ast.Name):
            counted.add(id(node.args[0].args[0]))
        elif isinstance(node, ast.Name) and node.binding == "zone" and node.id in hidden \
                and id(node) not in counted:
            out.append((node.id, node.span))
        elif isinstance(node, ast.Call) and node.func in rs_sections["functions"] \
                and node.func not in seen:
            seen.add(node.func)
            body = asts.get(("function", node.func))
            if body is not None:
                out += [(z, node.span) for z, _ in hidden_reads(rs_sections, asts, body, seen)]
    return out


def _public(b, e, tree, path) -> None:
    found = hidden_reads(b.sections, b.asts, tree)
    if found:
        zone, span = found[0]
        b.diags.error("RB406", f"this value is shown to every player, but it reads the cards "
                      f"of '{zone}', which not everyone may see", span or e.span(*path),
                      hint="count them with size(cards_in(...)), or, in a panel, mark the "
                      "value 'private: true' so only its own player sees it", context="view")
