"""The screen before a decision, laid out to fit a terminal.

:func:`layout` gets the parts of the screen a person sees before a decision
(the news since their last one, the status lines, the question, the options
and the options that are not available) and lays them out in a screen of
``height`` lines (24, a typical terminal) where it can, never much taller:

1. the options as they are, each card with its whole text, when everything
   fits (a question about cards, such as a set of cards to buy or keep, keeps
   its texts whenever they fit with a few lines of news);
1b. a few options beside many cards the question is about (a faction
   chosen with the cards dealt): the options whole, the cards by name;
2. otherwise one line an option, a card's text cut to the width at a word, a
   bracket it opened closed after the '…' (``card NAME``
   and ``more N`` show the whole text, a line under the options says so); what
   tells options apart (the label, and a detail that is :class:`Facts`, such as
   a space's neighbours) is never cut: it wraps under the label; many short options in columns, when that
   is shorter (an option too long for its column wraps in it);
   when even that is taller than the screen, a page at a time (``page``): each
   page fits with the question and at least :data:`MIN_NEWS_WHOLE` lines of
   news, the same pages at every showing, and a last line says which options
   are shown and that ``next`` shows the following ones (any option answers
   from any page);
3. options that are not available: a few, one line each; more, one line that
   says how many (``why`` lists them with their reasons);
4. the question again under the options when they run past the screen (it
   has scrolled away);
5. the news in the room left, at least :data:`MIN_NEWS` lines: the older
   groups cut to their headlines first (the other players' before your own,
   so what you gained and lost stays; your own lose their other lines before
   the line of what you paid and gained), then the oldest lines left out, with
   a line that says so (``news`` shows it all, ``log`` the whole log).

It measures each line as rich wraps it at the console's width. Nothing here
knows a game: the rows come from :func:`~.transcript.option_rows`, the news
from :func:`~.news.summarise`.
"""

from __future__ import annotations

import re
import textwrap

from rich.text import Text

from ..safe_text import visible
from .news import Shared

HEIGHT = 24  # a typical terminal
MIN_NEWS = 6  # news lines kept when the options need the room
MIN_NEWS_WHOLE = 3  # news lines kept when the options are shown whole (cards with their text)
FEW_REFUSED = 3  # options not available listed one a line; more collapse to one line


class Facts(str):
    """An option's detail that tells it from the others (a space's type, bonus and
    neighbours; a zone's contents; what an action costs): shown whole, wrapped under
    its label, never cut at the screen's edge. Any other detail (a card's text) may
    be cut there: ``card NAME`` and ``more N`` show it whole."""

    __slots__ = ()


class Note(Facts):
    """An action's note (what it pays now, which of its steps would do nothing): a
    sentence beside the label, so in brackets however the options are laid out."""

    __slots__ = ()


def news_text(line: str, width: int) -> Text:
    """A line of the news, wrapped at ``width`` between words with the lines after its
    first indented under it (a long list of cards reads as one item, not as the next
    line of the news)."""
    line = visible(line)
    if len(line) <= width:
        return Text(line)
    lead = " " * (len(line) - len(line.lstrip(" ")))
    if len(lead) + 8 >= width:
        return Text(line)
    note = _NOTE.search(line)  # the fold's '(+2 lines: type news)': one piece
    body = line[:note.start()] if note else line
    glued = _BRACKETED.sub(lambda m: m.group(0).replace(" ", _GLUE), _names_kept(body))
    if note:
        glued += "  " + note.group(1).replace(" ", _GLUE)
    indent = lead + "    "
    def wrap(w: int) -> list[str]:
        return textwrap.wrap(glued, w, subsequent_indent=indent, break_on_hyphens=False)
    wrapped = wrap(width)
    # a last line of a few words (often the note alone) takes the last words of the
    # line above, as few as it must, in as many lines (words7: a scoring line filled
    # the width and its note stood alone under it)
    if len(wrapped) > 1 and len(wrapped[-1]) - len(indent) < width // 3:
        for w in range(width - 1, len(indent) + 20, -1):
            trial = wrap(w)
            if len(trial) != len(wrapped):
                break
            if len(trial[-1]) > len(wrapped[-1]):
                wrapped = trial
                break
    return Text("\n".join(wrapped).replace(_GLUE, " "))


# the fold's note at the end of a headline (fit_news), kept on one line
_NOTE = re.compile(r"  (\(\+\d+ lines?: type news\))$")
# a word with a short bracket after it: a player's name ('Player 1 (human)', 'Ann (ai)')
# or a short aside ('Law (3)'), never cut across lines
_BRACKETED = re.compile(r"(?:\b\w+ \d+|\S+) \([^()\s]{1,12}\)")


_GLUE = "\x00"  # a space textwrap does not break at, put back after (visible() lets none in)


def _names_kept(line: str) -> str:
    """``line`` with the spaces inside each short item of a list ('A, B and C', after
    the last colon or arrow of a part) made unbreakable: 'Sun Wheel' stays on one line."""
    parts = line.split(", ")
    for i, part in enumerate(parts):
        cut = max(part.rfind(": ") + 2 if ": " in part else 0,
                  part.rfind("→ ") + 2 if "→ " in part else 0)
        if i == 0 and not cut:
            continue  # the start of the line, not an item of a list
        item = part[cut:]
        if len(item) <= 30:
            parts[i] = part[:cut] + item.replace(" ", _GLUE)
    return ", ".join(parts)


def height(console, lines: list[Text]) -> int:
    """Lines on the screen once rich wraps them at the console's width."""
    return sum(len(t.wrap(console, console.width)) for t in lines)


def _cut(text: Text, width: int) -> Text:
    """``text`` in ``width`` cells: when it is longer, shortened at the end of a word
    with '…' ('that you can…', never 'that you can pla…'); a word longer than the
    last third of the line is cut where it must be. A bracket the kept part opened is
    closed after the '…' ("(not now: you are on the…)", never an open "(not now: …":
    words7), in the same width."""
    text = text.copy()
    if text.cell_len <= width:
        return text
    for room in range(width, max(width - 6, 1), -1):
        cut = _cut_at_word(text, room)
        closers = _unclosed(cut.plain)
        if cut.cell_len + len(closers) <= width:
            cut.append(closers)
            return cut
    return _cut_at_word(text, width)


_CLOSE = {"(": ")", "[": "]", "{": "}"}


def _unclosed(line: str) -> str:
    """What closes the brackets ``line`` opened and left open, innermost first."""
    stack = []
    for ch in line:
        if ch in _CLOSE:
            stack.append(_CLOSE[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
    return "".join(reversed(stack))


def _cut_at_word(text: Text, width: int) -> Text:
    text = text.copy()
    whole = text.plain
    text.truncate(width, overflow="ellipsis")
    fits = len(text.plain) - 1  # the characters kept before rich's '…'
    if fits < len(whole) and whole[fits] != " ":  # the cut falls inside a word
        space = whole.rfind(" ", 0, fits + 1)
        if space > fits * 2 // 3:
            end = len(whole[:space].rstrip(" ,;:.(·—–-"))
            text.right_crop(len(text.plain) - end)
            text.append("…")
    return text


def _rows(rows):
    """(mark, key, label, detail) from rows with or without a short key."""
    for row in rows:
        yield (row[0], "", row[1], row[2]) if len(row) == 3 else tuple(row)


def option_lines(rows, console, compact: bool, numbers: bool = False,
                 columns: int = 1) -> list[Text]:
    """The options, and the cards the question is about, as lines: whole (what wraps
    stays in the label's column, clear of the numbers and keys), or one a line."""
    width = console.width
    rows = list(_rows(rows))
    keyw = max((len(k) for m, k, _, _ in rows if m not in ("--", "")), default=0)
    out, cells = [], []
    for mark, key, label, detail in rows:
        if mark == "--" or (numbers and mark):
            continue  # (not available: refused_lines; numbers: typed as numbers)
        if not mark:  # a card the question is about
            line = Text.assemble(("  " + visible(label), "bold"), ": " + visible(detail))
            out.append(_cut(line, width) if compact else line)
            continue
        head = Text.assemble("  ", (f"{mark:>2}", "cyan"), ". ",
                             (f"{key:<{keyw}}  " if keyw else "", "bold cyan"))
        if compact:
            whole = _whole(label, detail)  # the part never cut
            line = head + whole
            if detail and not isinstance(detail, Facts):
                line += Text(f"  {visible(detail)}", style="dim")
            if columns > 1:
                cells.append((head, whole, line))
            else:
                out += _cell(console, head, whole, line, width)
            continue
        indent = head.cell_len
        body = Text(visible(label))
        if detail:
            body.append(f"  ({visible(detail)})", style="dim")
        for i, part in enumerate(body.wrap(console, max(width - indent, 30))):
            part.rstrip()
            out.append(Text.assemble(head if i == 0 else " " * indent, part))
    if cells:  # down the columns; an option too long for its column wraps in it
        colw = (width - 1) // columns
        down = -(-len(cells) // columns)
        for r in range(down):
            parts = [_cell(console, *cells[c * down + r], colw - 1)
                     for c in range(columns) if c * down + r < len(cells)]
            for k in range(max(len(p) for p in parts)):
                line = Text()
                for p in parts:
                    cell = p[k] if k < len(p) else Text()
                    cell.pad_right(colw - cell.cell_len)
                    line += cell
                line.rstrip()
                out.append(line)
    return out


def _cell(console, head: Text, whole: Text, line: Text, width: int) -> list[Text]:
    """An option in ``width`` columns: its line (a card's text cut at the edge), or, when
    its label and facts do not fit, those wrapped under the label, clear of the number."""
    if (head + whole).cell_len <= width:
        return [_cut(line, width)]
    indent = head.cell_len
    out = []
    for i, part in enumerate(whole.wrap(console, max(width - indent, 8))):
        part.rstrip()
        out.append(_cut(Text.assemble(head if i == 0 else " " * indent, part), width))
    return out


def _whole(label: str, detail: str) -> Text:
    """An option's label, and its detail when that is :class:`Facts`: what is never cut."""
    text = Text(visible(label))
    if detail and isinstance(detail, Note):  # (in brackets, as when whole: not read as
        # part of the label, playtest 32's 'Bard: Inspire  Culture is at its …')
        text.append(f"  ({visible(detail)})", style="dim")
    elif detail and isinstance(detail, Facts):
        text.append(f"  {visible(detail)}", style="dim")
    return text


def refused_lines(rows, width: int, whole: bool = False) -> list[Text]:
    """The options not available now: a few one a line, more as one line ('why' lists them).

    A reason too long for its line is cut at a word; with ``whole`` it goes on under
    itself, indented (:func:`layout` does that where the screen has the room)."""
    refused = [(label, detail) for mark, _, label, detail in _rows(rows) if mark == "--"]
    if len(refused) > FEW_REFUSED:
        return [Text(f"   --  {len(refused)} more not available: type why", style="dim")]
    if not whole:
        return [_cut(Text(f"   --  {visible(label)} ({visible(detail)})", style="dim"), width)
                for label, detail in refused]
    out = []
    for label, detail in refused:
        parts = textwrap.wrap(f"{visible(label)} ({visible(detail)})", max(width - 7, 20),
                              break_on_hyphens=False) or [""]
        out += [Text(("   --  " if i == 0 else " " * 7) + part, style="dim")
                for i, part in enumerate(parts)]
    return out


def fit_news(console, news: list[list[str]], room: int, you: str | None = None) -> list[Text]:
    """The news in ``room`` lines: what the others did folded first, what you did last.

    ``news`` is a list of groups, each its lines (the headline first, then the
    effects, indented). With ``you`` (the name of the player looking), the groups
    that are that player's own action, or that changed their things (an income
    phase: a line of theirs, or one that says 'your'), keep their effects longest (what
    you gained and lost stays on the screen): first the others' groups are cut to
    their headlines (the newest too), then your own older ones, each headline saying
    how many lines ``news`` shows under it; then the oldest lines are left out, the
    others' before yours, with a line that says so. A move of another player that names
    you ('Bob: Play a favour: Trick on Ann') is yours here: what was done to you stays."""
    groups = [list(g) for g in news]

    def mine(g: list[str]) -> bool:  # your action, a phase that changed your things, or
        return bool(you) and bool(g) and any(  # a move of another's that names you
            line.strip().startswith((f"{you}:", f"{you} ")) or " your " in f" {line} "
            or f" {you}" in line for line in g)

    def lines():
        return [news_text(line, console.width) for g in groups for line in g]
    if height(console, lines()) <= room:
        return lines()
    older = groups[:-1]
    # the others' groups first, the newest too when you are looking (your own results
    # matter more to you than their latest effects); then your own older ones
    theirs = [g for g in (groups if you else older) if not mine(g)]
    def fold(g: list[str], keep: list[str]) -> None:  # the headline, keep, and a count
        # (a card arriving in a shared place stays: news to every player, news.Shared)
        keep = [x for x in g[1:] if x in keep or isinstance(x, Shared)]
        more = len(g) - 1 - len(keep)
        g[1:] = keep
        if more:
            g[0] += f"  (+{more} line{'s' if more != 1 else ''}: type news)"
    for g in theirs + [g for g in older if mine(g)]:
        if len(g) > 1 and not g[0].startswith(" ") and \
                not all(isinstance(x, Shared) for x in g[1:]):  # their headlines alone
            if mine(g):  # your own: what you paid and gained is the last to go
                paid = [x for x in g[1:] if x.strip().startswith(f"{you}:")]
                rest = [x for x in g[1:] if x not in paid]
                while rest and paid:
                    rest.pop()
                    trial = [list(x) for x in groups]
                    fold(trial[groups.index(g)], [x for x in g[1:] if x in paid or x in rest])
                    if height(console, [news_text(line, console.width)
                                        for t in trial for line in t]) <= room:
                        fold(g, [x for x in g[1:] if x in paid or x in rest])
                        return lines()
            fold(g, [])
            if height(console, lines()) <= room:
                return lines()
    left = 0
    # whole older groups of the others' next, oldest first; then the oldest lines
    def kept(g: list[str]) -> bool:  # your move (or its lines after your answer), or
        first = g[0].strip()  # another's move that names you: what was done to you
        return first.startswith((f"{you}:", f"{you} ")) or (
            g[0].startswith(" ") and " your " in f" {first} ") or (
            not g[0].startswith(" ") and ": " in first and f" {you}" in first)

    def news_to_all(g: list[str]) -> bool:  # a move that brought a card into a row
        return not g[0].startswith(("·", " ")) and any(isinstance(x, Shared) for x in g)
    # the oldest first, a phase or the set-up as a move (play32: the first screen kept
    # the set-up's lines and left out the opponent's first hang); a move that brought
    # news to every player last
    # (never the others' moves after your newest: what happened since you acted, which
    # the oldest lines' cut below leaves longest; playtest 33: the other seat's three
    # moves after the player's were left out as 'earlier')
    last = max((i for i, g in enumerate(groups)
                if you and g[0].startswith((f"{you}:", f"{you} "))), default=len(groups))
    where = {id(g): i for i, g in enumerate(groups)}
    gone = []  # where the groups left out were
    for g in sorted([g for g in older[:last] if not (you and kept(g))], key=news_to_all):
        if height(console, lines()) <= max(room - 1, 1):
            break
        left += len(g)
        gone.append(where[id(g)])
        groups.remove(g)
    # all before what is shown ('earlier'), or some between the lines shown
    between = bool(groups) and any(i > where[id(groups[0])] for i in gone)
    # then the oldest lines; a group cut at the top keeps its headline (what the lines
    # under it belong to: play32, a phase's effects shown without it were headed again
    # on the next screen)
    flat = [(line, g[0] if k and not g[0].startswith(" ") else None)
            for g in groups for k, line in enumerate(g)]
    while flat and height(console, [news_text(x, console.width) for x, _ in flat]) > \
            max(room - 1, 1):
        line, head = flat.pop(0)
        left += 1
        if head is None and flat and flat[0][1] == line and len(flat) > 1:
            flat.pop(0)  # the headline stays, its oldest effect goes instead
            flat.insert(0, (line, None))
    shown = [news_text(x, console.width) for x, _ in flat]
    if not left:
        return shown
    note = Text(f"… {left} {'' if between else 'earlier '}line{'s' if left != 1 else ''}"
                f"{' left out' if between else ''} (type news, or log)", style="dim")
    return [note] + shown


def _compact(console, rows, numbers: bool, fits=None) -> list[Text]:
    """The options one a line, or in 2 or 3 columns when that is shorter (and the one
    column does not ``fits``)."""
    options = option_lines(rows, console, True, numbers)
    for columns in (2, 3):  # columns when they are shorter, nothing cut in them
        if fits is not None and fits(len(options)):
            break
        side = option_lines(rows, console, True, numbers, columns)
        if len(side) < len(options):
            options = side
    return options


def _pages(console, rows, numbers: bool, room: int) -> list[list]:
    """The numbered options in pages that each fit ``room`` lines, in the order listed
    (each page as :func:`_compact` draws it); the cards the question is about go
    with the first page."""
    about = [r for r in rows if r[0] == ""]
    opts = [r for r in rows if r[0] not in ("--", "")]
    pages, start = [], 0
    while start < len(opts):
        extra = about if not pages else []
        good, low, high = 1, 1, len(opts) - start  # the most that fit, found by halving
        while low <= high:
            mid = (low + high) // 2
            if len(_compact(console, extra + opts[start:start + mid], numbers)) <= room:
                good, low = mid, mid + 1
            else:
                high = mid - 1
        pages.append(extra + opts[start:start + good])
        start += good
    return pages


def layout(console, news: list[list[str]], status: list[Text], head: list[Text], rows,
           numbers: bool = False, tail: list[Text] = (), screen: int = HEIGHT,
           you: str | None = None, page: int = 0, paged: list | None = None) -> list[Text]:
    """The screen before a decision: news, status, question (``head``), options, ``tail``.

    ``screen`` is the height to fit; one line more is the input line, one the
    blank line above the news. ``you``: the name of the player looking, whose own
    results the news keeps longest (:func:`fit_news`). Options too many for the
    screen even in columns are shown a page at a time (``page``, from 0), with a
    line saying which and how to see the next; every option answers from any
    page. How many pages there are is appended to ``paged`` when given."""
    width = console.width
    tail = list(tail)
    fixed = height(console, status + head + tail) + refused_h(console, rows, width) + 2
    news_h = height(console, [news_text(x, width) for g in news for x in g])
    full = option_lines(rows, console, False, numbers)
    options = full
    pages = 1
    about = [r for r in _rows(rows) if r[0] == ""]
    least = MIN_NEWS_WHOLE  # the news lines kept when the options are whole
    if about and fixed + height(console, full) + min(news_h, MIN_NEWS_WHOLE) > screen:
        # the cards the question is about cut to a line each, the options whole: what
        # tells the options apart (a faction's text) before what is shown beside them
        # (by name, on as few lines as they take: 'card NAME' shows one)
        named = news_text("  " + ", ".join(r[2] for r in about), width)
        named.stylize("bold")
        mixed = [named] + option_lines([r for r in _rows(rows) if r[0] != ""], console,
                                       False, numbers)
        # (the news then down to a line that says where it is, when it must)
        if fixed - 1 + height(console, mixed) + min(news_h, 1) <= screen:
            full = options = mixed
            least = 1
    if fixed - (least < MIN_NEWS_WHOLE) + height(console, full) + min(news_h, least) > screen:
        options = _compact(console, rows, numbers,
                           lambda n: fixed + n + min(news_h, MIN_NEWS) <= screen)
        # (the blank line above the news may scroll away; nothing else)
        if fixed - 1 + len(options) + min(news_h, MIN_NEWS_WHOLE) > screen and not numbers:
            # too many even in columns: a page at a time, the same pages at every
            # showing (their room hangs neither on the news nor on a tail shown once:
            # a line is kept for it), the last line saying so
            steady = fixed - height(console, tail) + 1
            split = _pages(console, rows, numbers, screen - steady - MIN_NEWS_WHOLE - 1)
            if len(split) > 1:
                pages = len(split)
                at = page % pages
                options = _compact(console, split[at], numbers) + [
                    _pager_line(split, at, width)]
    whole = options is full
    if any(t.plain.endswith("…") for t in options):  # where the rest of a text is
        options = options + [Text("  (a text ending in … goes on: more N shows option N "
                                  "whole, card NAME any card)", style="dim")]
    if paged is not None:
        paged.append(pages)
    room = max(screen - fixed + (least < MIN_NEWS_WHOLE) - height(console, options),
               least if whole else MIN_NEWS_WHOLE if pages > 1 else MIN_NEWS)
    refused = refused_lines(rows, width)
    spread = refused_lines(rows, width, whole=True)
    if len(spread) > len(refused) and news_h + len(spread) - len(refused) <= room:
        # the room the news does not need shows why an option is not available whole
        room -= len(spread) - len(refused)
        refused = spread
    lines = fit_news(console, news, room, you) + status + head + options + refused
    if head and height(console, lines + tail) + 1 > screen:  # the question scrolled away:
        lines.append(head[0].copy())  # said again above the answer line
    return lines + tail


def _pager_line(split: list[list], at: int, width: int) -> Text:
    """Which options a page shows, how to see the next ones, and that any answers."""
    def span(rows) -> str:
        marks = [r[0] for r in rows if r[0] not in ("--", "")]
        return f"{marks[0]}–{marks[-1]}" if len(marks) > 1 else marks[0]
    total = sum(1 for rows in split for r in rows if r[0] not in ("--", ""))
    after = split[(at + 1) % len(split)]
    line = (f"  options {span(split[at])} of {total}: type next for {span(after)}; "
            "any number or key answers")
    return _cut(Text(line, style="bold"), width)


def refused_h(console, rows, width: int) -> int:
    return height(console, refused_lines(rows, width))
