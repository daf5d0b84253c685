"""Print lab tables on a terminal, as rich tables.

Every cell comes from a results file or a ruleset, which strangers may
have written, so each goes through :func:`visible` and is printed as plain
text (never as rich markup). A table shows at most its bounded number of
rows (:meth:`~.table.Table.shown_rows`), and says how many it leaves out.
"""

from __future__ import annotations

from ..safe_text import visible


def show(console, tables, notes=(), verdicts=()) -> None:
    from rich.table import Table as RichTable
    from rich.text import Text
    for t in tables:
        table = RichTable(title=Text(visible(t.title)), title_justify="left",
                          show_header=any(c for c in t.columns))
        for i, col in enumerate(t.columns):
            table.add_column(Text(visible(col)), justify="left" if i == 0 else "right")
        rows, left_out = t.shown_rows()
        for row in rows:
            table.add_row(*(Text(visible(c)) for c in row))
        note = t.shown_note(left_out)
        if note:
            table.caption = Text(visible(note))
            table.caption_justify = "left"
        console.print(table)
    for line in verdicts:
        console.print(Text(visible(line)))
    for note in notes:
        console.print(Text(visible(note), style="dim"))
