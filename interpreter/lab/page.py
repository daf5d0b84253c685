"""Write a lab run as one self-contained HTML page.

The page holds the same tables as the terminal, the verdicts and notes, and
every plot as a PNG inlined in base64; its CSS is inline and it runs no
script, so it can be mailed or archived as one file. A card's name in a
table shows the card's generated text when the pointer rests on it (its
``title``); only when the command is given the address of a ``rulebook
serve`` (``--gallery URL``) is the name also a link, to that card on the
server's cards gallery. Without it the page links to nothing.
Every string from a results file or a ruleset (card names come from rule
files strangers write) goes through :func:`html.escape`, after its control
and direction-changing characters are written as escapes, as the terminal
shows them (:func:`~rulebook_games.safe_text.visible`). A table shows at
most its bounded number of rows, and says how many it leaves out.
"""

from __future__ import annotations

import base64
import html

from ..safe_text import visible
from .names import CardName
from .table import Table, text_row

_CSS = """
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 70em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f0f0f0; }
p.note { color: #555; font-size: 0.9em; margin: 0.2em 0 1em; }
ul.verdicts li { margin: 0.2em 0; }
img { max-width: 100%; margin: 0.5em 0; display: block; }
.card { text-decoration: underline dotted #888; cursor: help; }
a.card { color: inherit; cursor: pointer; }
"""

_CAPTIONS = {
    "scores_by_seat": "Final score by seat: the box holds the middle half of the games, the "
                      "line inside is the median, the triangle the mean, the whiskers the "
                      "usual range and the dots the outliers.",
    "score_parts": "Points from each scoring entry, drawn the same way.",
    "lengths": "How many games lasted each number of rounds and of decisions.",
    "seat_rates": "Win rate of each seat: the dot is the rate, the bar its interval.",
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
    title = f' title="{_a(hover)}"' if hover else ""
    link = card_link(cell.card) if card_link else None
    if link:
        return f'<a class="card" href="{_a(link)}"{title}>{_e(text)}</a>'
    return f'<span class="card"{title}>{_e(text)}</span>' if title else _e(text)


def render(title: str, tables: list[Table], notes, verdicts, images,
           card_link=None) -> str:
    """The page; ``card_link(card id)`` is a card's address on the cards gallery, if any."""
    e = _e
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>{e(title)}</h1>"]
    if verdicts:
        out.append("<h2>Verdict</h2><ul class=\"verdicts\">")
        out += [f"<li>{e(v)}</li>" for v in verdicts]
        out.append("</ul>")
    for t in tables:
        out.append(f"<h2>{e(t.title)}</h2><table>")
        if any(t.columns):
            out.append("<tr>" + "".join(f"<th>{e(c)}</th>" for c in t.columns) + "</tr>")
        rows, left_out = t.shown_cells()
        for row in rows:
            out.append("<tr>" + "".join(f"<td>{_cell(c, text, card_link)}</td>"
                                        for c, text in zip(row, text_row(row))) + "</tr>")
        out.append("</table>")
        note = t.shown_note(left_out)
        if note:
            out.append(f'<p class="note">{e(note)}</p>')
    if images:
        out.append("<h2>Plots</h2>")
    for name, data in images:
        encoded = base64.b64encode(data).decode("ascii")
        caption = _CAPTIONS.get(name, "")
        out.append(f'<img alt="{e(caption or name)}" src="data:image/png;base64,{encoded}">')
        if caption:
            out.append(f'<p class="note">{e(caption)}</p>')
    for note in notes:
        out.append(f'<p class="note">{e(note)}</p>')
    out.append("</body></html>")
    return "\n".join(out) + "\n"
