"""Terminal rendering of a player's view and of final scores (rich).

Every name shown here comes from a rule file, so each goes through
:func:`~rulebook_games.safe_text.visible` and into a rich ``Text`` (never into
markup), so neither escape sequences nor markup in a name reach the terminal.
"""

from __future__ import annotations

import textwrap

from rich import box
from rich.table import Table
from rich.text import Text

from ..engine.flow import deciding_tie_breaks
from ..safe_text import visible


def render_view(view: dict, game, parts: tuple[str, ...] = ("all",)):
    """The table one player sees, drawn from the view model (``game.view_model``).

    ``view`` is a view model (it has ``table``) or a plain :meth:`Game.view`,
    whose model is then built. ``parts`` picks what is drawn: ``all`` (the
    whole table, for ``state``), ``board`` (facts, tracks, boards, rows), ``map`` (the boards alone),
    ``me`` (your panel and your hidden cards), ``cards`` (your hidden cards, each
    with its text), ``players`` (every panel side by side) or ``standings``."""
    from rich.console import Group
    return Group(*view_parts(view, game, parts))


def view_parts(view: dict, game, parts: tuple[str, ...] = ("all",)) -> list:
    """What :func:`render_view` draws, part by part (the title first)."""
    if "table" not in view:
        view = game.view_model(view["you"])
    t = view["table"]
    want = set(parts)
    every = "all" in want
    out: list = [_title(t)]
    if every or "board" in want:
        out += _facts(t) + _tracks(t)
        out += _boards(t)
        out += _rows(t)
    elif "map" in want:
        out += _boards(t)
    if every or "players" in want:
        # (the whole table: your cards listed with their text under the panels are
        # counted in yours, as in the others', not named twice)
        out.append(_panels(t, counted=_with_text(t) if every else set()))
    if every or "me" in want:
        out += _own(t, full="me" in want)
    if "cards" in want and not every:
        out += _own(t, full=False) or [Text("You hold no cards now.")]
    if every or "standings" in want:
        # (the whole table leaves out a standing the panels already show row by row,
        # the same values; 'standings' shows it)
        out += _standings(t, panel_rows=_panel_rows(t) if every else None)
        if not t["standings"] and not every:
            out.append(Text("This game declares no standings (goals the players race for); "
                            "players shows each one's points so far."))
    if t.get("problems"):
        out += [Text(visible(f"(not shown: {p})"), style="red") for p in t["problems"]]
    return out


def state_pages(view: dict, game, console, room: int) -> list[list]:
    """``state`` a screen at a time when the whole table is taller than ``room`` lines
    (words7: 26 lines at 80x24, the title and the rules scrolled off): each
    page the parts that fit, whole and in order, the title on each, and under every page
    but the last a line that says ``state more`` shows the rest. A part taller than a
    page gets a page of its own; a table that fits is one page."""
    items = view_parts(view, game)
    title, rest = items[0], items[1:]

    def tall(part: list) -> int:
        return sum(len(console.render_lines(x, console.options, pad=False)) for x in part)
    if tall(items) <= room:
        return [items]
    pages: list[list] = []
    at = 0
    while at < len(rest):
        end = at + 1
        while end < len(rest) and tall([title] + rest[at:end + 1]) + 1 <= room:
            end += 1
        pages.append([title] + rest[at:end])
        at = end
    for n, page in enumerate(pages[:-1]):
        page.append(Text(f"(state more: page {n + 2} of {len(pages)}, the rest of the table)",
                         style="dim"))
    return pages


def _boards(t: dict) -> list:
    out: list = []
    players = [p["name"] for p in t["panels"]]
    for board in t["boards"]:
        out += _frames(board) if board["shape"] == "frames" else _spaces(board, players)
    return out


def _title(t: dict) -> "_Title":
    """The table's title: the game, the round, the phase, whose turn it is, the variants
    and who you are; one line at the console's width (:class:`_Title`)."""
    head = t["title"]
    # before the first round (setup) there is no round to count: the phase says it
    rnd = [f"{head['round_word']} {head['round']}"
           + (f" of {head['last_round']}" if head.get("last_round") else "")] \
        if head["round"] or not head.get("phase") else []
    # whose turn it is: the reader's own is 'your turn 11 (Ann)', which says who they are
    # too (one line at 80 columns, not 'turn 11 (Ann) · you are Ann' over two)
    mine = bool(head.get("turn")) and head["turn"] == head.get("you")
    whose = f" ({head['turn']})" if head.get("turn") else ""
    turn = ""
    if head.get("turn_round"):  # the turns come round again: which time round, of how many
        turn = (f"{'your ' if mine else ''}turn {head['turn_round']} of "
                f"{head['turns_each']}")
    elif head.get("turn_number"):
        turn = f"{'your ' if mine else ''}turn {head['turn_number']}"
    return _Title(head["game"], rnd, head.get("phase") or "", turn, whose,
                  "variants: " + ", ".join(head["variants"]) if head.get("variants") else "",
                  "" if mine else f"you are {head['you']}")


_JOINING = {"and", "or", "of", "the", "a", "an", "to", "with", "for", "in", "on", "at"}


class _Title:
    """The title, laid out when drawn: whole when it fits the width, else without its
    least useful parts, in this order until it fits: the variants (the same all game),
    the game's name (the player knows what they play), whose name 'your turn' is (it
    is yours), the phase cut at a word ('Choose a place…'); then cut at the end."""

    def __init__(self, game: str, rnd: list, phase: str, turn: str, whose: str,
                 variants: str, you: str):
        self.game, self.rnd, self.phase, self.turn = game, rnd, phase, turn
        self.whose, self.variants, self.you = whose, variants, you

    def text(self, width: int | None = None) -> Text:
        from rich.cells import cell_len
        game, variants, whose, phase = self.game, self.variants, self.whose, self.phase

        def line() -> str:
            parts = [game, *self.rnd, phase, self.turn + whose if self.turn else "",
                     variants, self.you]
            return visible(" · ".join(str(p) for p in parts if p))
        for step in ("", "variants", "game", "whose"):
            if step == "variants":
                variants = ""
            elif step == "game" and (self.rnd or phase or self.turn):
                game = ""
            elif step == "whose" and self.turn and not self.you:
                whose = ""
            if width is None or cell_len(line()) <= width:
                return Text(line(), style="bold")
        if phase:  # the phase cut at a word, to what the line leaves it
            over = cell_len(line()) - width
            keep = len(phase) - over - 1
            cut = phase.rfind(" ", 0, keep + 1) if keep > 0 else -1
            kept = phase[:cut].rstrip(" ,;:·—–-").split(" ") if cut > 0 else []
            while kept and kept[-1].lower() in _JOINING:  # ('a place…', not 'a place and…')
                kept.pop()
            phase = " ".join(kept) + "…" if kept else ""
        out = Text(line(), style="bold")
        if width is not None and out.cell_len > width:
            out.truncate(width, overflow="ellipsis")
        return out

    @property
    def plain(self) -> str:
        return self.text().plain

    def __rich_console__(self, console, options):
        yield self.text(options.max_width)

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement
        return Measurement.get(console, options, self.text(options.max_width))


def _value_text(item: dict) -> str:
    if item.get("hidden"):
        return f"{item['label']}: hidden"
    value = item.get("value")
    text = item.get("text")
    if value is None:
        return f"{item['label']}: {text}" if text else item["label"]
    return f"{item['label']}: {value}" + (f" ({text})" if text else "")


def _facts(t: dict) -> list:
    return [Text(visible(("! " if f.get("warning") else "") + _value_text(f)),
                 style="bold yellow" if f.get("warning") else "") for f in t["facts"]]


def warning_lines(game, seat: int, width: int | None = None) -> list[Text]:
    """The view's warnings that hold now (facts with ``when:``), for the screen before a
    decision: what a player must not miss, such as the game ending after this round.

    Each warning starts with '! '; with ``width``, one too long for a line goes on over
    more, broken between words and indented under its first word, so it reads as one
    warning and not as a line of the screen beneath it."""
    out = []
    for f in game.view_warnings(seat):
        text = visible(_value_text(f))
        rows = textwrap.wrap(text, max(20, width - 3)) if width else [text]
        out.extend(Text(("! " if i == 0 else "  ") + row, style="bold yellow")
                   for i, row in enumerate(rows or [""]))
    return out


def _tracks(t: dict) -> list:
    out = []
    for track in t["tracks"]:
        scale = ""
        if "min" in track and "max" in track:
            scale = f" (from {track['min']} to {track['max']})"
        unit = f" {track['unit']}" if track.get("unit") else ""
        if "values" in track:  # each player's own marker on it
            now = ", ".join(f"{v['player']} {v['value']}" for v in track["values"])
            line = f"{track['name']}{scale}: {now}"
            track = dict(track, value=min(v["value"] for v in track["values"]))
        else:
            line = f"{track['name']}: {track['value']}{unit}{scale}"
        every = track.get("marks", [])
        words = [m.get("reward", "") for m in every]
        common = max(set(words), key=words.count) if words else ""
        if words.count(common) * 4 < len(words) * 3 or not common:
            common = ""  # no reward three marks in four share
        ahead = [m for m in every if m["at"] > track["value"]
                 and (not common or m.get("reward") != common)]
        marks = [f"at {m['at']}{unit}: " + (m.get("text") or m.get("reward") or "a mark").rstrip(".")
                 + (" (taken)" if m.get("taken") else "") for m in ahead]
        out.append(Text(visible(line), style="cyan"))
        if common:
            out.append(Text(visible(f"  each step: {common}"), style="dim"))
        if marks:
            out.append(Text(visible("  ahead: " + "; ".join(marks[:8])
                                    + (" …" if len(marks) > 8 else "")), style="dim"))
        if track.get("text"):
            out.append(Text(visible("  " + track["text"]), style="dim"))
    return out


def _card_words(card: dict, price: bool = False) -> str:
    extra = list(card.get("marks", []))
    extra += [f"{r['amount']} {r['name']}" for r in card.get("resources", [])]
    extra += [f"{p['player']} {p.get('what') or p['amount']}" for p in card.get("pieces", [])]
    extra += [f"used: {a}" for a in card.get("used", [])]
    head = card["name"]
    if price and card.get("price") is not None:
        head += f" ({card['price']})"
    return head + (f" [{', '.join(extra)}]" if extra else "")


def _frames(board: dict) -> list:
    """A line of frames: one column each, with its values, how many cards and who is there;
    then each frame's cards, a line a frame."""
    frames = board["frames"]
    out: list = [Text(visible(board["name"]), style="bold")]
    table = Table(box=box.SQUARE, show_header=True, pad_edge=False, padding=(0, 0),
                  collapse_padding=True)
    for i, f in enumerate(frames):
        table.add_column(Text(visible(str(f.get("label", i + 1)))), justify="center",
                         overflow="fold")
    labels = [v["label"] for v in (frames[0]["values"] if frames else [])]
    for j, label in enumerate(labels):
        table.add_row(*[Text(visible(_short(f["values"][j]))) for f in frames])
    if any("cards" in f for f in frames):
        table.add_row(*[Text(visible(f"{len(f.get('cards', []))}▪" if f.get("cards") else "·"))
                        for f in frames])
    if any("here" in f for f in frames):
        table.add_row(*[Text(visible(" ".join(_initials(n) for n in f.get("here", []))))
                        for f in frames], style="bold green")
    out.append(table)
    key = [f"{label} above" if j == 0 else label for j, label in enumerate(labels)]
    if any("cards" in f for f in frames):
        key.append("▪ cards in the frame")
    if any("here" in f for f in frames):
        key.append("players standing there by initials")
    out.append(Text(visible("  rows: " + "; ".join(key)), style="dim"))
    for i, f in enumerate(frames):
        if f.get("cards"):
            out.append(Text(visible(f"  {f.get('label', i + 1)}: "
                                    + "; ".join(_card_words(c) for c in f["cards"]))))
    if board.get("text"):
        out.append(Text(visible("  " + board["text"]), style="dim"))
    return out


def _short(item: dict) -> str:
    if item.get("hidden"):
        return "?"
    value = item.get("value")
    return "" if value is None else str(value)


def _initials(name: str) -> str:
    """'Player 2 (random)' → 'P2'; 'Ada' → 'Ad'."""
    words = name.split()
    if len(words) >= 2 and words[1][:1].isdigit():
        return words[0][:1] + words[1].rstrip(")")
    return name[:2]


SCREEN_WIDTH = 79  # what a drawing may use of an 80-column terminal
SEAT_STYLES = ("bold green", "bold yellow", "bold magenta", "bold cyan", "bold red",
               "bold blue")


def _spaces(board: dict, players: list[str] | None = None) -> list:
    """A text map of a board laid out in rows (hex rows or a grid), two lines a row: each
    space's label between the marks of its kind ('~04~'), and under it the tile with its
    owner's seat ('[G1]') or, while it is free, the symbols of its printed bonus ('SS').
    Hex rows are centred, so a space touches the two nearest spaces of the rows above and
    below. Named spaces, spaces off the map and a key follow."""
    shape = board["shape"]
    if shape not in ("hex_rows", "grid"):
        return []
    on_map = [s for s in board["spaces"] if not s.get("off_board")]
    if not on_map:
        return []

    def top(s: dict) -> str:
        mark = s.get("mark", "")
        return f"{mark}{s['label']}{mark[::-1]}"

    def under(s: dict) -> str:
        if "tile" in s:
            return f"[{s['symbol']}{s.get('owner_seat', '')}]"
        return s.get("bonus_symbols", "")

    width = max(max(len(top(s)), len(under(s)), len(s.get("symbol", "")) + 3)
                for s in board["spaces"])
    step = width + 2
    rows: dict[int, dict[int, dict]] = {}
    for s in on_map:
        rows.setdefault(s.get("row", 0), {})[s.get("column", 0)] = s
    widest = max(max(r) + 1 for r in rows.values())
    def indent_of(cells: dict) -> int:
        return (widest - (max(cells) + 1)) * step // 2 if shape == "hex_rows" else 0
    name = visible(board["name"])
    cornered = len(name) + 1 < indent_of(rows[min(rows)])  # the name fits in the corner
    out: list = [] if cornered else [Text(name, style="bold")]
    for n, r in enumerate(sorted(rows)):
        cells = rows[r]
        indent = indent_of(cells)
        first, second = Text(), Text()
        first.append(name.ljust(indent) if n == 0 and cornered else " " * indent,
                     style="bold")
        second.append(" " * indent)
        for c in range(max(cells) + 1):
            s = cells.get(c)
            if s is None:
                first.append(" " * step)
                second.append(" " * step)
                continue
            first.append(visible(top(s)).center(width) + "  ",
                         style="blue" if "~" in s.get("mark", "") else "")
            seat = s.get("owner_seat")
            style = SEAT_STYLES[(seat - 1) % len(SEAT_STYLES)] if seat else \
                "bold blue" if "tile" in s else "dim"
            second.append(visible(under(s)).center(width) + "  ", style=style)
        first.rstrip()
        second.rstrip()
        out += [first, second]
    # the key: beside the map where it fits (a hex map leaves its corners empty), else under
    groups: list[tuple[list[str], str]] = []
    for m in board.get("marks", []):
        sample = next((top(s) for s in on_map if s.get("mark") == m["mark"]), m["mark"])
        groups.append(([f"{sample} {m['type']}"], "blue" if "~" in m["mark"] else ""))
    groups.append(([f"{b['symbol']} {b['name']}" for b in board.get("bonuses", [])], "dim"))
    present = {s["tile"] for s in board["spaces"] if "tile" in s}
    groups.append(([f"[{t['symbol']}] {t['name']}" for t in board["tiles"]
                    if t["name"] in present], ""))
    owners = sorted({(s["owner_seat"], s["owner"]) for s in board["spaces"]
                     if s.get("owner_seat")})
    groups += [([f"{seat} {name}"], SEAT_STYLES[(seat - 1) % len(SEAT_STYLES)])
               for seat, name in owners]
    groups += [([f"{s['label']} {s['name']}"], "") for s in on_map if s.get("name")]
    groups += [([f"{s['label']} {s['card']}"], "") for s in on_map if s.get("card")]
    groups += [([f"{s['label']} claimed by {s['claimed_by']}"], "") for s in on_map
               if s.get("claimed_by")]
    off = [f"{s['label']} {s.get('name', '')}".strip()
           + (f" [{s['symbol']}{s.get('owner_seat', '')}]" if "tile" in s else "")
           for s in board["spaces"] if s.get("off_board")]
    grid = out if cornered else out[1:]
    x = max(len(t.plain) for t in grid) + 3
    room = SCREEN_WIDTH - x
    notes: list[tuple[str, str]] = []
    under: list[str] = []
    for items, style in groups:
        packed = ""
        for item in map(visible, items):
            if len(item) > room:
                under.append(item)
            elif packed and len(packed) + 2 + len(item) <= room:
                packed += ", " + item
            else:
                if packed:
                    notes.append((packed, style))
                packed = item
        if packed:
            notes.append((packed, style))
    for line, (text, style) in enumerate(notes):
        if line >= len(grid):
            under.append(text)
            continue
        grid[line].append(" " * (x - len(grid[line].plain)))
        grid[line].append(text, style=style)
    if off:
        under.append("off the map: " + ", ".join(off))
    if under:
        out.append(Text("  " + "; ".join(under), style="dim"))
    if board.get("text"):
        out.append(Text(visible("  " + board["text"]), style="dim"))
    return out


def _rows(t: dict) -> list:
    out = []
    for row in t["rows"]:
        if "count" in row:
            out.append(Text(visible(f"{row['name']}: {_cards(row['count'])}"), style="dim"))
            continue
        priced = any("price" in c for c in row["cards"])
        if priced:
            out.append(Text(visible(f"{row['name']} (the price to you now, the card):"),
                            style="bold"))
            for c in row["cards"]:
                price = "" if c.get("price") is None else str(c["price"])
                if len(price) > 3:  # a price in words: on a line of its own
                    out.append(Text(visible(f"  {_card_words(c)} ({price}): "
                                            f"{c.get('text', '')}")))
                    continue
                out.append(Text(visible(f"  {price:>3}  {_card_words(c)}: {c.get('text', '')}")))
        else:  # (an empty row is named all the same: its words below are about it)
            shown = ", ".join(_card_words(c) for c in row["cards"][:12]) or "none"
            more = f" … (+{len(row['cards']) - 12})" if len(row["cards"]) > 12 else ""
            out.append(Text(visible(f"{row['name']}: {shown}{more}")))
        if row.get("text"):
            out.append(Text(visible("  " + row["text"]), style="dim"))
    if t["piles"]:
        piles = " · ".join(f"{p['name']}: {_cards(p['count'])}" for p in t["piles"])
        last = out[-1].plain if out and out[-1].style == "dim" else None
        if last is not None and last.startswith("  ") and \
                len(last) + 3 + len(piles) <= 80:  # (one short line: 'state' fits a screen)
            out[-1] = Text(visible(f"{last} · {piles}"), style="dim")
        else:
            out.append(Text(visible(piles), style="dim"))
    return out


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _with_text(t: dict) -> set[str]:
    """The names of your zones whose cards :func:`_own` lists with their text."""
    me = next((p for p in t["panels"] if p["you"]), None)
    return {z["name"] for z in (me or {}).get("zones", [])
            if any("text" in c for c in z.get("cards") or [])}


def _panel_rows(t: dict) -> dict[str, list]:
    """Each row of the panels by its label: the value per player (tags, tracks, values)."""
    rows: dict[str, list] = {}
    for i, p in enumerate(t["panels"]):
        for x in p.get("tags", []):
            rows.setdefault(x["name"], [None] * len(t["panels"]))[i] = x["count"]
        for x in p.get("tracks", []):
            rows.setdefault(x["name"], [None] * len(t["panels"]))[i] = x["value"]
        for x in p["values"]:
            rows.setdefault(x["label"], [None] * len(t["panels"]))[i] = x.get("value")
    return rows


def _panels(t: dict, counted: set[str] = frozenset()) -> Table:
    """Every player's panel side by side: one column per player, one row per thing;
    your zones named in ``counted`` by how many cards they hold."""
    return _panel_table(t, _panel_cells(t, counted))


def _panel_table(t: dict, rows: list[tuple[str, list[str]]]) -> Table:
    """The panels' table with these rows (a label and a value per player)."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("")
    for p in t["panels"]:
        table.add_column(Text(visible(p["name"]), style="bold green" if p["you"] else ""),
                         overflow="fold")
    for label, values in rows:
        table.add_row(Text(visible(label)), *[Text(visible(v)) for v in values])
    return table


def _panel_cells(t: dict, counted: set[str] = frozenset()) -> list[tuple[str, list[str]]]:
    """The panels' rows, in order: each a label and a value per player."""
    panels = t["panels"]
    rows: dict[str, list[str]] = {}
    blank = [""] * len(panels)

    def put(label: str, i: int, value) -> None:
        rows.setdefault(label, list(blank))[i] = str(value)
    for i, p in enumerate(panels):
        for s in p["stocks"]:
            prod = s.get("production")
            put(s["name"], i, f"{s['amount']}" + (f" ({'+' if prod >= 0 else ''}{prod})"
                                                  if prod is not None else ""))
        for tag in p.get("tags", []):
            put(tag["name"], i, tag["count"])
        for tr in p.get("tracks", []):
            put(tr["name"], i, tr["value"])
        for v in p["values"]:
            put(v["label"], i, "hidden" if v.get("hidden") else
                v.get("value") if v.get("value") is not None else "")
        score = p.get("score")
        if score:  # the total, then its parts under it (a short label: no wrapping)
            put("Points so far", i, f"{score['total']}" + ("+?" if score.get("partial") else ""))
            for part in score["parts"]:
                put(f"· {part['name']}", i, part["points"])
        for z in p["zones"]:
            if "count" in z:
                put(z["name"], i, _cards(z["count"]))
            elif p["you"] and z["name"] in counted:
                put(z["name"], i, _cards(len(z["cards"])) + " (below)")
            else:
                names = [_card_words(c) for c in z["cards"]]
                put(z["name"], i, ", ".join(names) if names else "none")
    return list(rows.items())


def players_pages(view: dict, game, console, room: int) -> list[list]:
    """``players`` a screen at a time: the title and the panels' rows that fit in
    ``room`` lines at the console's width, the header (whose column is whose) on each
    page, and under every page but the last a line naming what the next one shows
    (``players more``; playtest 32: the panels ran to 45 lines, the stocks scrolled
    off). A row is never cut across two pages."""
    if "table" not in view:
        view = game.view_model(view["you"])
    t = view["table"]
    rows = _panel_cells(t)
    title = _title(t)
    problems = [Text(visible(f"(not shown: {p})"), style="red") for p in t.get("problems") or []]

    def tall(part: list) -> int:
        return sum(len(console.render_lines(x, console.options, pad=False)) for x in part)

    pages: list[list] = []
    starts: list[int] = []  # the first row of each page
    at = 0
    while at < len(rows):
        end = at + 1  # (a row taller than a page still gets a page of its own)
        while end < len(rows) and tall([title, _panel_table(t, rows[at:end + 1])]) + 1 <= room:
            end += 1
        while end < len(rows) and rows[end][0].startswith("· ") and end - 1 > at:
            end -= 1  # (a total's parts stay on its page: 'Points so far', '· Cities')
        pages.append([title, _panel_table(t, rows[at:end])])
        starts.append(at)
        at = end
    for n, page in enumerate(pages[:-1]):
        page.append(_more_line([label for label, _ in rows[starts[n + 1]:]
                                if not label.startswith("· ")], console.width))
    if not pages:
        return [[title] + problems]
    pages[-1] += problems
    return pages


def _more_line(labels: list[str], width: int) -> Text:
    """'(players more: Points so far, Played cards, Hand)', cut to one line."""
    head, tail = "(players more: ", ")"
    shown: list[str] = []
    for i, label in enumerate(labels):
        rest = len(labels) - i - 1
        trial = ", ".join(shown + [label]) + (f" and {rest} more" if rest else "")
        if len(visible(head + trial + tail)) > width:
            break
        shown.append(label)
    rest = len(labels) - len(shown)
    words = ", ".join(shown) + (f" and {rest} more" if rest and shown else
                                f"{rest} more rows" if rest else "")
    return Text(visible(head + words + tail), style="dim")


def _own(t: dict, full: bool) -> list:
    """Your own hidden cards, each with its text (your panel too, for 'me')."""
    me = next(p for p in t["panels"] if p["you"])
    out: list = []
    if full:
        out.append(Text(visible(me["name"]), style="bold green"))
        for s in me["stocks"]:
            prod = s.get("production")
            out.append(Text(visible(f"  {s['name']}: {s['amount']}"
                                    + (f" (production {prod})" if prod is not None else ""))))
        if me.get("tags"):
            out.append(Text(visible("  " + ", ".join(f"{x['name']} {x['count']}"
                                                     for x in me["tags"]))))
        for v in me["values"]:
            out.append(Text(visible("  " + _value_text(v))))
        if me.get("score"):
            parts = ", ".join(f"{x['name']} {x['points']}" for x in me["score"]["parts"])
            out.append(Text(visible(f"  Points so far: {me['score']['total']} ({parts})")))
    for z in me["zones"]:
        cards = z.get("cards") or []
        with_text = [c for c in cards if "text" in c]
        if with_text:
            out.append(Text(visible(f"{z['name']}:"), style="bold"))
            for c in with_text:
                out.append(Text(visible(f"  {_card_words(c)}: {c['text']}")))
        elif full and cards:
            out.append(Text(visible(f"{z['name']}: " + ", ".join(_card_words(c)
                                                                  for c in cards))))
    return out


def _standings(t: dict, panel_rows: dict | None = None) -> list:
    """A table per standing: a row per goal, a column per player, then what taking it costs
    the player looking now and how it stands ('status'), where the ruleset says; one
    whose every goal is a row of ``panel_rows`` with the same values is left out."""
    if not t["standings"]:
        return []
    names = [p["name"] for p in t["panels"]]
    out: list = []
    for s in t["standings"]:
        goals = s.get("goals", [s])
        if panel_rows and all(g is not s and "cost" not in g and "status" not in g
                              and panel_rows.get(g["name"]) == list(g["values"])
                              for g in goals) and "status" not in s:
            continue
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False,
                      title=Text(visible(s["name"]), style="bold"), title_justify="left")
        table.add_column("")
        for n in names:
            table.add_column(Text(visible(_initials(n) if len(names) > 3 else n)),
                             justify="right", overflow="fold")
        costs = any("cost" in g or "open" in g for g in goals)
        if costs:
            table.add_column("cost now", justify="right")
        status = "status" in s or any("status" in g for g in goals)
        if status:
            table.add_column(Text(visible(s.get("status_label", "now"))), overflow="fold")
        for g in goals:
            label = g["name"] if g is not s else ""
            cells = [Text(visible("" if v is None else str(v))) for v in g["values"]]
            if costs:
                cells.append(Text(visible(str(g["cost"]) if g.get("cost") is not None
                                          else "—")))
            if status:
                value = g.get("status")
                cells.append(Text(visible("" if value in (None, "none") else str(value))))
            table.add_row(Text(visible(label)), *cells)
        out.append(table)
        if s.get("text"):
            out.append(Text(visible(f"  {s['text']}"), style="dim"))
    return out


def status_lines(view: dict, game, width: int | None = None) -> list[Text]:
    """What bears on most decisions, in two lines: your own stocks, then the tracks.

    The rule, the same for every game: the first line is your stocks (what
    you can pay with), in the order the view's panel lists them (``view:
    panels: stocks``; the game's resources where it lists none), those at 0
    left out when there are many; the second is the round and the shared
    tracks, then your own tracks ('you: ...'). Your own tracks go on the
    first line instead when they fit there. With ``width``, each is one line
    of at most that many characters where it can: shorter words first (the
    phase left out, since the question names it; a
    track's name without its parenthesis, its declared ``short`` name, then
    each name's first word; never a unit, part of its value: '-18 °C'); where
    it cannot, it goes on over more lines, broken between two things, never
    cut. The things of a line are
    always parted by commas (:data:`SEP`), whatever their length, so the line
    reads the same from one prompt to the next."""
    seat = view["you"]
    me = view["players"][seat]
    parts, short = [], []
    for key in _status_stocks(game, me):
        value = me["stock"].get(key, 0)
        prod = me["production"].get(key)
        extra = f" ({'+' if prod >= 0 else ''}{prod})" if prod is not None else ""
        parts.append(f"{game.amount_words(key, value)}{extra}")
        short.append(f"{game.amount_words(key, value)}"
                     + (f" {'+' if prod >= 0 else ''}{prod}" if prod is not None else ""))
    for key, value in me["production"].items():
        if key not in me["stock"]:
            parts.append(f"{game.thing_name(key)} production {value}")
            short.append(parts[-1])
    own_keys = [k for k in me["tracks"] if _on_status(game, k)]

    def own(level: int, wide: bool = False) -> list[str]:
        return [f"{_track_name(game, k, level)} "
                f"{_widest(game, k, me['tracks'][k]) if wide else me['tracks'][k]}"
                for k in own_keys]
    rounds = game.rs.words.rounds
    head = f"{_first_up(rounds)} {view['round']}" + _turn_round(game)
    phase = game.phase_name(view["phase"])
    if not view["round"] and phase:  # setup, before the first round: no 'Round 0'
        head, phase = phase, ""
    # a track named like the rounds and at the same number would only say the head again
    shared_keys = [k for k, v in view["tracks"].items() if _on_status(game, k)
                   and not (v == view["round"] and _track_name(game, k).lower() == rounds.lower())]

    def shared(level: int, wide: bool = False) -> list[str]:  # (a unit: never left out)
        return [f"{_track_name(game, k, level)} "
                f"{_widest(game, k, view['tracks'][k]) if wide else view['tracks'][k]}"
                + _unit(game, k) for k in shared_keys]
    # one label at every prompt ('You:'; who you are is in the board's heading): a
    # label that flips with the width of the line reads as if something changed
    mine = ["You: " + SEP.join(parts), "You: " + SEP.join(short)]
    if width is None:
        tracks = SEP.join([head] + ([phase] if phase else []) + shared(0))
        return [_one_line([mine[0] + (SEP if parts else "") + SEP.join(own(0))
                           if own_keys else mine[0]], None, "green"),
                _one_line([tracks], None, "cyan")]

    def fits(text: str) -> bool:
        return len(visible(text)) <= width

    def yours(level: int, wide: bool = False) -> list[str]:  # at the end of the second line
        return ["you: " + ", ".join(own(level, wide))] if own_keys else []
    # the words (names whole, without parenthesis, short, first words; the phase or not)
    # are chosen once for the widest values the tracks can take, so that they stay the
    # same from prompt to prompt as the numbers change (play 31: a track by its whole name
    # at one prompt, by its short name and with the phase at another)
    wide_head = f"{_first_up(rounds)} {max(view['round'] or 0, 99)}" + _turn_round(game)
    def first(n: int) -> bool:  # your own tracks fit after your stocks
        return bool(own_keys) and fits(mine[1] + (SEP if parts else "")
                                       + SEP.join(own(n, True)))

    def second(n: int, with_phase: bool) -> bool:
        return fits(SEP.join([wide_head] + ([phase] if with_phase else []) + shared(n, True)
                             + ([] if first(n) else yours(n, True))))
    level = next((n for n in (0, 1, 2) if second(n, False)), 3)
    if phase and not second(level, True):
        phase = ""
    pairs = []
    for level in (level,):
        heads = [[head, phase] if phase else [head]]
        for m in mine:  # your own tracks on the first line, after the stocks
            with_own = (m + (SEP if parts else "") + SEP.join(own(level))) if own_keys \
                else m
            pairs += [(with_own, SEP.join(h + shared(level))) for h in heads]
        if own_keys:  # else at the end of the second
            for m in mine:
                pairs += [(m, SEP.join(h + shared(level) + yours(level))) for h in heads]
    for m, t in pairs:
        if fits(m) and fits(t):
            return [Text(visible(m), style="green"), Text(visible(t), style="cyan")]
    # none fits: each on more lines, nothing cut: the stocks in their short words, the
    # tracks in the first words that fit one line, else their shortest, wrapped
    stocks = _wrapped("You: ", short, width, "green")
    for level in range(level, 4):
        if fits(SEP.join([head] + shared(level) + yours(level))):
            return stocks + [Text(visible(SEP.join([head] + shared(level) + yours(level))),
                                  style="cyan")]
    return stocks + _wrapped("", [head] + shared(2) + yours(2), width, "cyan")


SEP = ", "  # between the things of a status line, the same at every prompt (the
# shortest: a line of six stocks with their production fits 80 columns)


def _wrapped(prefix: str, items: list[str], width: int, style: str) -> list[Text]:
    """``prefix`` and the items joined by :data:`SEP`, on as many lines of at most
    ``width`` as they need: a line breaks only between two items (the next lines
    indented under the first item); an item longer than a line is cut."""
    indent = " " * min(len(prefix), 8) if prefix else "  "
    lines, line = [], prefix
    for item in items:
        if line in (prefix, indent):
            joined = line + item
        else:
            joined = line + SEP + item
            if len(visible(joined)) > width:
                lines.append(line)
                joined = indent + item
        line = joined
    lines.append(line)
    out = []
    for text in lines:
        t = Text(visible(text), style=style)
        t.truncate(width, overflow="ellipsis")
        out.append(t)
    return out


def _status_stocks(game, me: dict) -> list[str]:
    """The stocks on the status line: the view panel's, in its order (else every
    resource), those at 0 with no production left out when there are more than 8."""
    entry = game.rs.singles.get("view")
    panels = (entry.data.get("panels") if entry is not None and isinstance(entry.data, dict)
              else None) or {}
    keys = [k for k in panels.get("stocks") or me["stock"] if k in me["stock"]]
    if len(keys) <= 8:
        return keys
    return [k for k in keys if me["stock"].get(k) or me["production"].get(k)]


def _turn_round(game) -> str:
    """', turn 3 of 4' where each player's turns come round again in this phase."""
    st = game.state
    phase = game.rs.sections["phases"].get(st.phase)
    turns = phase.data.get("turns") if phase is not None and isinstance(phase.data, dict) \
        else None
    if not st.turn_round or not isinstance(turns, dict):
        return ""
    return f", turn {st.turn_round} of {int(turns.get('repeat', 1))}"


def _one_line(forms: list[str], width: int | None, style: str) -> Text:
    """The first of ``forms`` that fits in ``width`` (all of the first without one), or the
    last cut to the width."""
    if width is None:
        return Text(visible(forms[0]), style=style)
    for form in forms:
        if len(visible(form)) <= width:
            return Text(visible(form), style=style)
    text = Text(visible(forms[-1]), style=style)
    text.truncate(width, overflow="ellipsis")
    return text


def _on_status(game, key: str) -> bool:
    """Whether the track is on the status line (``status: false`` keeps bookkeeping off)."""
    return (game.track_decl.get(key) or {}).get("status", True) is not False


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def _widest(game, key: str, value: int) -> str:
    """The widest value a track can show: of its bounds and its value now, and at least
    two digits where it has no upper bound (a round, a score)."""
    decl = game.track_decl.get(key) or {}
    values = [value, decl.get("min"), decl.get("max") if decl.get("max") is not None else 99]
    return max((str(v) for v in values if isinstance(v, int)), key=len)


def _unit(game, key: str) -> str:
    unit = (game.track_decl.get(key) or {}).get("unit")
    return f" {unit}" if unit else ""


def _track_name(game, key: str, level: int = 0) -> str:
    """A track's name: whole (level 0), without its parenthesis (1), its declared
    ``short`` name, else as at 1 (2), its short name or first word (3)."""
    decl = game.track_decl.get(key) or {}
    name = decl.get("name") or key.replace("_", " ")
    if level >= 2 and decl.get("short"):
        return decl["short"]
    if level >= 1 and " (" in name:
        name = name[:name.index(" (")]
    if level >= 3:
        name = name.split(" ")[0]
    return name


def _zone_name(game, key: str, view: dict) -> str:
    zone, _, owner = key.partition("@")
    name = (game.zone_decl.get(zone) or {}).get("name") or zone.replace("_", " ")
    if owner:
        name += f" ({view['players'][int(owner) - 1]['name']})"
    return name


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
    for label, values in deciding_tie_breaks(game.rs, result):  # a tie on points, broken
        table.add_row(Text(visible(f"tie-break: {label}")), *[str(v) for v in values])
    marks = []
    for seat in range(len(result.scores)):
        mark = "winner" if seat in result.winners else ""
        if result.ranks and result.ranks[seat]:
            mark = f"{mark} · {result.ranks[seat]}" if mark else result.ranks[seat]
        marks.append(Text(visible(mark)))
    if any(m.plain for m in marks):
        table.add_row("", *marks)
    return table
