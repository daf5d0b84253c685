"""Write a lab run as one self-contained HTML page.

The page opens with its contents (a link to each section); each table has
the plots that belong to it beside it. Every plot is a PNG inlined in
base64; the CSS is inline, and so is the one small script (no file, no
network), which makes the tables sort (click a header; again for the other
way) and filter (a text box, and for a table whose rows have sample sizes,
a minimum count). The page reads the same without the script: every row is
there, rows measured on fewer player-games than the run's minimum count
(:func:`~.table.min_count`)
already sorted last; the script only hides them at first (the minimum-count
box starts at that count, and says how many rows it hides). A plot stands
beside its table when the window is wide enough for both, else under it.

A card or action table holds every row (up to :data:`~.table.PAGE_ROWS`),
not only the ``--top`` rows the terminal prints. A card's name shows the
card's generated text when the pointer rests on it (or the keyboard's focus:
a CSS box, the text in a ``data-text`` attribute); only when the command is
given the address of a ``rulebook serve`` (``--gallery URL``) is the name
also a link, to that card on the server's cards gallery. Without it the page
links to nothing but its own sections.
Every string from a results file or a ruleset (card names come from rule
files strangers write) goes through :func:`html.escape`, after its control
and direction-changing characters are written as escapes, as the terminal
shows them (:func:`~rulebook_games.safe_text.visible`); the script reads the
page's text and never writes HTML (``textContent`` only). Section ids are
numbers, never names.
"""

from __future__ import annotations

import base64
import html

from ..safe_text import visible
from .names import CardName
from .table import Table, text_row

_CSS = """
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 110em; }
nav.toc { background: #f7f7f7; border: 1px solid #ddd; padding: 0.4em 1em; display: inline-block; }
nav.toc ol { margin: 0.3em 0; padding-left: 1.4em; columns: 2; column-gap: 3em; }
.pair { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.tablebox { flex: 0 1 auto; }
figure { flex: 1 1 30em; max-width: 44em; margin: 0; }
td { white-space: nowrap; }
figure img { margin: 0; }
.controls { margin: 0.3em 0; font-size: 0.9em; }
.controls label { margin-right: 1.2em; }
.controls input[type=number] { width: 5em; }
.controls .count { color: #555; }
table.lab th { cursor: pointer; user-select: none; white-space: nowrap; }
table.lab th[aria-sort=ascending]::after { content: " \\25B2"; font-size: 0.7em; }
table.lab th[aria-sort=descending]::after { content: " \\25BC"; font-size: 0.7em; }
tbody tr:nth-child(even) { background: #fafafa; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f0f0f0; }
.note { color: #555; font-size: 0.9em; margin: 0.2em 0 1em; }
ul.verdicts li { margin: 0.2em 0; }
img { max-width: 100%; margin: 0.5em 0; display: block; }
.card { text-decoration: underline dotted #888; cursor: help; position: relative; }
a.card { color: inherit; cursor: pointer; }
.card[data-text]:hover::after, .card[data-text]:focus::after {
  content: attr(data-text); position: absolute; left: 0; top: 1.4em; z-index: 10;
  width: 26em; white-space: normal; text-align: left; font-size: 0.9em;
  background: #fffef4; color: #222; border: 1px solid #b9b08a; border-radius: 4px;
  padding: 0.4em 0.6em; box-shadow: 0 2px 6px rgba(0, 0, 0, 0.2); }
"""

# the one script: sorts and filters every table.lab; reads text, never writes HTML
_SCRIPT = r"""
(function () {
  function key(td) {
    var v = td.getAttribute("data-v");
    if (v !== null) return +v;
    var s = td.textContent.trim().replace(/\u2212/g, "-");
    var m = s.match(/^[+-]?\d+(\.\d+)?/);
    if (m) return parseFloat(m[0]);
    return (s === "" || s === "\u2013") ? null : s.toLowerCase();
  }
  function order(x, y) {
    if (x === null || y === null) return x === y ? 0 : (x === null ? 1 : -1);
    if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.lab"), function (t) {
    var body = t.tBodies[0], box = t.parentNode;
    var rows = Array.prototype.slice.call(body.rows);
    var c = box.querySelector(".controls");
    var find = c && c.querySelector(".find"), least = c && c.querySelector(".least");
    var count = c && c.querySelector(".count"), col = t.getAttribute("data-size");
    function apply() {
      var q = find ? find.value.toLowerCase() : "", n = least ? (+least.value || 0) : 0;
      var shown = 0, few = 0;
      rows.forEach(function (r) {
        var enough = col === null || +r.cells[+col].getAttribute("data-v") >= n;
        var ok = enough && (!q || r.textContent.toLowerCase().indexOf(q) >= 0);
        if (!enough) few++;
        r.hidden = !ok;
        if (ok) shown++;
      });
      if (count) count.textContent = shown + " of " + rows.length + " rows shown" +
        (few ? "; " + few + " under the minimum count hidden" : "");
    }
    var heads = t.tHead ? t.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, i) {
      th.tabIndex = 0;
      th.title = "sort by this column";
      function sort() {
        var dir = th.getAttribute("aria-sort") === "descending" ? 1 : -1;
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
        rows.sort(function (a, b) {
          var x = key(a.cells[i]), y = key(b.cells[i]);
          return (x === null || y === null) ? order(x, y) : order(x, y) * dir;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); }
      });
    });
    if (c) {
      if (find) find.addEventListener("input", apply);
      if (least) least.addEventListener("input", apply);
      c.hidden = false;
      apply();
    }
  });
})();
"""

FILTER_ROWS = 8  # a table of more rows than this gets the filter box

_CAPTIONS = {
    "scores_by_seat": "Final score by seat: the box holds the middle half of the games, the "
                      "line inside is the median, the triangle the mean, the whiskers the "
                      "usual range and the dots the outliers.",
    "score_parts": "Points from each scoring entry, drawn the same way.",
    "lengths": "How many games lasted each number of rounds and of decisions.",
    "seat_rates": "Win rate of each seat: the dot is the rate, the bar its interval, the "
                  "dashed line an equal share.",
    "agent_rates": "Win rate of each agent, with its interval.",
    "top_items": "The largest effects: the win rate of players who had the item minus that "
                 "of those who did not, with its interval; a bar that crosses the grey line "
                 "is compatible with no effect.",
    "changes": "Each change with its interval; a bar that crosses the grey line is "
               "compatible with no change.",
}


def _e(text) -> str:
    return html.escape(visible(text, multiline=True))


def _a(text) -> str:
    """Text for an attribute's value: escaped, quotes too."""
    return html.escape(visible(text), quote=True)


def _cell(cell, text: str, card_link) -> str:
    """A table cell's content: its text, escaped; a card's name with its text on hover,
    and a link to it on the cards gallery when ``card_link`` gives one."""
    if not isinstance(cell, CardName):
        return _e(text)
    hover = cell.text
    data = f' data-text="{_a(hover)}" tabindex="0"' if hover else ""
    link = card_link(cell.card) if card_link else None
    if link:
        return f'<a class="card" href="{_a(link)}"{data}>{_e(text)}</a>'
    return f'<span class="card"{data}>{_e(text)}</span>' if data else _e(text)


def _figure(name: str, data: bytes) -> str:
    encoded = base64.b64encode(data).decode("ascii")
    caption = _CAPTIONS.get(name, "")
    out = f'<figure><img alt="{_a(caption or name)}" src="data:image/png;base64,{encoded}">'
    if caption:
        out += f"<figcaption class=\"note\">{_e(caption)}</figcaption>"
    return out + "</figure>"


def _table(t: Table, card_link) -> list[str]:
    """A table, its controls (hidden until the script shows them) and its note."""
    rows, left_out = t.shown_cells(t.page_rows)
    sizes = None
    if t.sizes is not None and len(t.sizes) == len(t.rows):
        where = {id(row): n for row, n in zip(t.rows, t.sizes)}
        sizes = [where.get(id(row)) for row in rows]
    col = t.size_column if sizes is not None else None
    out = []
    if len(rows) > FILTER_ROWS or col is not None:
        least = t.least if col is not None and max(sizes, default=0) >= t.least else 0
        controls = ['<div class="controls" hidden>',
                    '<label>Filter <input type="search" class="find" '
                    'placeholder="a name or a figure"></label>']
        if col is not None:
            controls.append(f'<label>At least <input type="number" class="least" min="0" '
                            f'value="{least}"> {_e(t.columns[col].lower())}</label>')
        controls.append('<span class="count"></span></div>')
        out.append("".join(controls))
    size_attr = f' data-size="{col}"' if col is not None else ""
    out.append(f'<table class="lab"{size_attr}>')
    if any(t.columns):
        out.append("<thead><tr>" + "".join(f"<th>{_e(c)}</th>" for c in t.columns)
                   + "</tr></thead>")
    out.append("<tbody>")
    for r, row in enumerate(rows):
        cells = []
        for i, (c, text) in enumerate(zip(row, text_row(row))):
            value = f' data-v="{int(sizes[r])}"' if i == col and sizes[r] is not None else ""
            cells.append(f"<td{value}>{_cell(c, text, card_link)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    note = t.shown_note(left_out, t.page_rows)
    if note:
        out.append(f'<p class="note">{_e(note)}</p>')
    return out


def render(title: str, tables: list[Table], notes, verdicts, images,
           card_link=None) -> str:
    """The page; ``card_link(card id)`` is a card's address on the cards gallery, if any."""
    e = _e
    drawn = dict(images)
    beside = {name for t in tables for name in t.plots if name in drawn}
    loose = [(name, data) for name, data in images if name not in beside]
    sections = []  # (id, heading)
    body = []
    if verdicts:
        sections.append(("verdict", "Verdict"))
        body.append('<section id="verdict"><h2>Verdict</h2><ul class="verdicts">')
        body += [f"<li>{e(v)}</li>" for v in verdicts]
        body.append("</ul></section>")
    placed = set()
    for n, t in enumerate(tables, 1):
        sections.append((f"s{n}", t.title))
        figures = [name for name in t.plots if name in drawn and name not in placed]
        placed.update(figures)
        body.append(f'<section id="s{n}"><h2>{e(t.title)}</h2><div class="pair">'
                    '<div class="tablebox">')
        body += _table(t, card_link)
        body.append("</div>")
        body += [_figure(name, drawn[name]) for name in figures]
        body.append("</div></section>")
    if loose:
        sections.append(("plots", "Plots"))
        body.append('<section id="plots"><h2>Plots</h2><div class="pair">')
        body += [_figure(name, data) for name, data in loose]
        body.append("</div></section>")
    if notes:
        sections.append(("notes", "Notes"))
        body.append('<section id="notes"><h2>Notes</h2>')
        body += [f'<p class="note">{e(note)}</p>' for note in notes]
        body.append("</section>")
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>{e(title)}</h1>",
           '<nav class="toc"><strong>Contents</strong><ol>']
    out += [f'<li><a href="#{ident}">{e(heading)}</a></li>' for ident, heading in sections]
    out.append("</ol></nav>")
    out += body
    out.append(f"<script>{_SCRIPT}</script>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
