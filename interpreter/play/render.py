"""Terminal rendering of a player's view and of final scores (rich).

Every name shown here comes from a rule file, so each goes through
:func:`~rulebook_games.safe_text.visible` and into a rich ``Text`` (never into
markup), so neither escape sequences nor markup in a name reach the terminal.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from ..safe_text import visible


def render_view(view: dict, game) -> Table:
    """The state one player may see, compactly: tracks, players, visible zones."""
    seat = view["you"]
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False,
                  title=Text(f"{_first_up(game.rs.words.rounds)} {view['round']} · "
                             f"{visible(game.phase_name(view['phase']))} · you are "
                             f"{visible(view['players'][seat]['name'])}"),
                  title_justify="left")
    table.add_column("")
    for p in view["players"]:
        style = "bold green" if p["seat"] - 1 == seat else ""
        table.add_column(Text(visible(p["name"]), style=style), overflow="fold")
    rows: dict[str, list[str]] = {}
    blank = [""] * len(view["players"])
    for i, p in enumerate(view["players"]):
        for key, value in p["stock"].items():
            rows.setdefault(game.thing_name(key), list(blank))[i] = str(value)
        for key, value in p["production"].items():
            name = game.rs.words.thing("resource", key, 1)
            rows.setdefault(f"{name[:1].upper()}{name[1:]} production", list(blank))[i] = \
                str(value)
        for key, value in p["tracks"].items():
            rows.setdefault(_track_name(game, key), list(blank))[i] = str(value)
    for key, values in rows.items():
        table.add_row(Text(visible(key)), *values)
    out = Table.grid(padding=(0, 1))
    out.add_row(table)
    if view["tracks"]:
        out.add_row(Text(visible("  ".join(f"{_track_name(game, k)}: {v}{_unit(game, k)}"
                                           for k, v in view["tracks"].items())), style="cyan"))
    for line in board_lines(game, view):
        out.add_row(line)
    for key, cards in view["zones"].items():
        name = _zone_name(game, key, view)
        if isinstance(cards, dict):
            if cards["count"]:
                n = cards["count"]
                out.add_row(Text(visible(f"{name}: {n} card{'s' if n != 1 else ''}"),
                                 style="dim"))
            continue
        if not cards:
            continue
        zone_id, _, owner = key.partition("@")
        own = owner and int(owner) - 1 == seat and \
            (game.zone_decl.get(zone_id) or {}).get("visibility") == "owner"
        if own:  # your own hidden cards (hand, cards on offer): each with its text
            out.add_row(Text(visible(f"{name}:"), style="bold"))
            for c in cards:
                out.add_row(Text(visible(f"  {_card_text(c, game)}: {game.card_summary(c['card'])}")))
            continue
        shown = ", ".join(_card_text(c, game) for c in cards[:12])  # 'card NAME' tells the rest
        more = f" … (+{len(cards) - 12})" if len(cards) > 12 else ""
        out.add_row(Text(visible(f"{name}: {shown}{more}")))
    return out


def status_lines(view: dict, game) -> list[Text]:
    """What bears on most decisions, in two lines: your own stocks, then the shared tracks."""
    seat = view["you"]
    me = view["players"][seat]
    parts = []
    for key, value in me["stock"].items():
        prod = me["production"].get(key)
        if not value and not prod and len(me["stock"]) > 8:
            continue  # nothing of it, among many: 'state' still lists it
        extra = f" ({'+' if prod >= 0 else ''}{prod})" if prod is not None else ""
        parts.append(f"{game.amount_words(key, value)}{extra}")
    for key, value in me["production"].items():
        if key not in me["stock"]:
            parts.append(f"{game.thing_name(key)} production {value}")
    for key, value in me["tracks"].items():
        if _on_status(game, key):
            parts.append(f"{_track_name(game, key)} {value}")
    out = [Text(visible(f"You, {me['name']}: " + " · ".join(parts)), style="green")]
    rounds = game.rs.words.rounds
    head = f"{_first_up(rounds)} {view['round']}"
    # a track named like the rounds and at the same number would only say the head again
    shared = [f"{_track_name(game, k)} {v}{_unit(game, k)}" for k, v in view["tracks"].items()
              if _on_status(game, k)
              and not (v == view["round"] and _track_name(game, k).lower() == rounds.lower())]
    out.append(Text(visible(" · ".join([head, game.phase_name(view["phase"])] + shared)),
                    style="cyan"))
    return out


def _on_status(game, key: str) -> bool:
    """Whether the track is on the status line (``status: false`` keeps bookkeeping off)."""
    return (game.track_decl.get(key) or {}).get("status", True) is not False


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def _unit(game, key: str) -> str:
    unit = (game.track_decl.get(key) or {}).get("unit")
    return f" {unit}" if unit else ""


def _track_name(game, key: str) -> str:
    return (game.track_decl.get(key) or {}).get("name") or key.replace("_", " ")


def _zone_name(game, key: str, view: dict) -> str:
    zone, _, owner = key.partition("@")
    name = (game.zone_decl.get(zone) or {}).get("name") or zone.replace("_", " ")
    if owner:
        name += f" ({view['players'][int(owner) - 1]['name']})"
    return name


def board_lines(game, view: dict) -> list[Text]:
    """A text map of each board laid out in rows (hex rows or a grid).

    An occupied space shows its tile's symbol and its owner's seat ('C1'); a
    free one shows its label, the same label people see next to a space they
    may choose. Spaces off the map are listed after it.
    """
    lines: list[Text] = []
    occupied = view.get("spaces", {})
    for entry in game.rs.sections["boards"].values():
        board = entry.data
        layout = board.get("layout", "explicit")
        if layout not in ("hex_rows", "grid"):
            continue
        rows: dict[int, dict[int, str]] = {}
        off: list[str] = []
        width = max(len(game.space_label[s["id"]]) for s in board["spaces"]) + 1
        width = max(width, 3)
        for space in board["spaces"]:
            sid = space["id"]
            cell = _cell(game, sid, occupied.get(sid))
            if space.get("off_board"):
                off.append(f"{game.space_label[sid]} {space.get('name') or sid}: "
                           + (cell if sid in occupied else "free"))
                continue
            rows.setdefault(space["row"], {})[space["column"]] = cell
        if not rows:
            continue
        widest = max(len(r) for r in rows.values())
        lines.append(Text(visible(board.get("name") or board["id"]), style="bold"))
        for r in sorted(rows):
            cells = rows[r]
            indent = (widest - len(cells)) * (width + 1) // 2 if layout == "hex_rows" else 0
            text = Text(" " * (indent + 2))
            for c in range(max(cells) + 1):
                cell = cells.get(c, "")
                style = "dim" if cell and cell[0].isdigit() else "bold"
                text.append(visible(cell).ljust(width), style=style)
                text.append(" ")
            lines.append(text)
        if off:
            lines.append(Text(visible("  off the map: " + "; ".join(off))))
        symbols = [f"{_symbol(game, t)} {d.get('name') or t}" for t, d in game.tile_decl.items()]
        lines.append(Text(visible("  " + ", ".join(symbols) + "; a number is a free space"),
                          style="dim"))
    return lines


def _symbol(game, tile: str) -> str:
    decl = game.tile_decl.get(tile, {})
    return decl.get("symbol") or (decl.get("name") or tile)[0].upper()


def _cell(game, space: str, live: dict | None) -> str:
    if not live or live.get("tile") is None:
        return game.space_label[space]
    owner = live.get("owner")
    return _symbol(game, live["tile"]) + ("" if owner is None or owner < 0 else str(owner + 1))


def _marker_name(game, marker: str) -> str | None:
    """A marker as the rule files name it; one without a name is not shown."""
    entry = game.rs.sections.get("markers", {}).get(marker)
    name = (entry.data or {}).get("name") if entry is not None and \
        isinstance(entry.data, dict) else None
    return str(name) if name else None


def _card_text(card: dict, game) -> str:
    extra = []
    markers = [n for n in (_marker_name(game, m) for m in card.get("markers", ())) if n]
    if markers:  # (an id such as 'first_action_due' is never shown: issue 26)
        extra.append("/".join(markers))
    if card.get("resources"):
        extra += [f"{v} {game.rs.words.thing('card_resource', k, v)}"
                  for k, v in card["resources"].items()]
    if card.get("pieces"):
        extra += [f"P{k}:{v}" for k, v in card["pieces"].items()]
    return card["name"] + (f" [{', '.join(extra)}]" if extra else "")


def score_table(game, result) -> Table:
    """Final scores: one column per player, one row per scoring category."""
    table = Table(title="Final scores", title_justify="left")
    table.add_column("")
    for seat in range(len(result.scores)):
        table.add_column(Text(visible(game.state.players[seat].name)), justify="right",
                         overflow="fold")
    categories = list(result.breakdown[0]) if result.breakdown else []
    for cat in categories:
        table.add_row(Text(visible(cat)), *[str(result.breakdown[seat][cat])
                                            for seat in range(len(result.scores))])
    table.add_row("[bold]total[/bold]", *[f"[bold]{t}[/bold]" for t in result.scores])
    marks = []
    for seat in range(len(result.scores)):
        mark = "winner" if seat in result.winners else ""
        if result.ranks and result.ranks[seat]:
            mark = f"{mark} · {result.ranks[seat]}" if mark else result.ranks[seat]
        marks.append(Text(visible(mark)))
    if any(m.plain for m in marks):
        table.add_row("", *marks)
    return table
