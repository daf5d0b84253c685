"""Terminal rendering of a player's view and of final scores (rich)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text


def render_view(view: dict, game) -> Table:
    """The state one player may see, compactly: tracks, players, visible zones."""
    seat = view["you"]
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False,
                  title=f"Round {view['round']} · {view['phase']} · you are "
                        f"{view['players'][seat]['name']}", title_justify="left")
    table.add_column("")
    for p in view["players"]:
        style = "bold green" if p["seat"] - 1 == seat else ""
        table.add_column(Text(p["name"], style=style), overflow="fold")
    rows: dict[str, list[str]] = {}
    for i, p in enumerate(view["players"]):
        for key, value in p["stock"].items():
            rows.setdefault(key, [""] * len(view["players"]))[i] = str(value)
        for key, value in p["production"].items():
            rows.setdefault(f"{key} production", [""] * len(view["players"]))[i] = str(value)
        for key, value in p["tracks"].items():
            rows.setdefault(key, [""] * len(view["players"]))[i] = str(value)
    for key, values in rows.items():
        table.add_row(key, *values)
    out = Table.grid(padding=(0, 1))
    out.add_row(table)
    if view["tracks"]:
        out.add_row(Text("  ".join(f"{k}: {v}" for k, v in view["tracks"].items()), style="cyan"))
    for name, cards in view["zones"].items():
        if isinstance(cards, dict):
            if cards["count"]:
                out.add_row(Text(f"{name}: {cards['count']} cards", style="dim"))
            continue
        if not cards:
            continue
        shown = ", ".join(_card_text(c) for c in cards[:30])
        more = f" … (+{len(cards) - 30})" if len(cards) > 30 else ""
        out.add_row(Text(f"{name}: {shown}{more}"))
    return out


def _card_text(card: dict) -> str:
    extra = []
    if card.get("markers"):
        extra.append("/".join(card["markers"]))
    if card.get("resources"):
        extra += [f"{v} {k}" for k, v in card["resources"].items()]
    if card.get("pieces"):
        extra += [f"P{k}:{v}" for k, v in card["pieces"].items()]
    return card["name"] + (f" [{', '.join(extra)}]" if extra else "")


def score_table(game, result) -> Table:
    """Final scores: one column per player, one row per scoring category."""
    table = Table(title="Final scores", title_justify="left")
    table.add_column("")
    for seat in range(len(result.scores)):
        table.add_column(game.state.players[seat].name, justify="right", overflow="fold")
    categories = list(result.breakdown[0]) if result.breakdown else []
    for cat in categories:
        table.add_row(cat, *[str(result.breakdown[seat][cat])
                             for seat in range(len(result.scores))])
    table.add_row("[bold]total[/bold]", *[f"[bold]{t}[/bold]" for t in result.scores])
    marks = []
    for seat in range(len(result.scores)):
        mark = "winner" if seat in result.winners else ""
        if result.ranks and result.ranks[seat]:
            mark = f"{mark} · {result.ranks[seat]}" if mark else result.ranks[seat]
        marks.append(mark)
    if any(marks):
        table.add_row("", *marks)
    return table
