"""What tells options apart is never cut at the screen's edge (issue 29's TM playtest:
the city placement list was drawn in two columns and cut, "a46  #46  Land · next to
Greene…", so the neighbours, what a city is placed for, were hidden).

- many short options still go in columns, when that is shorter; one too long for
  its column wraps in it;
- when most do not fit a column, the list falls back to one column, and an option
  whose facts are longer than the line wraps under its label instead of being cut;
- a card's long text is still cut at the edge ('card NAME' and 'more N' show it).
"""

from __future__ import annotations

import io
import re

from rich.console import Console
from rich.text import Text

from rulebook_games.play.screen import Facts, layout


def _console(width: int = 80) -> Console:
    return Console(file=io.StringIO(), width=width, color_system=None)


def _spaces(detail):
    return [(str(i), f"a{i:02}", f"#{i:02}", Facts(detail(i))) for i in range(1, 43)]


def _flat(lines):
    return " ".join(" ".join(t.plain.split()) for t in lines)


def _pages(rows, news=(), status=("You: 3 coins",), question="Where?"):
    """Every page of the list as layout draws it, each page's lines (issue 30: a list
    too long for the screen is shown a page at a time)."""
    pages, at = [], 0
    while True:
        paged = []
        lines = layout(_console(), [list(g) for g in news], [Text(x) for x in status],
                       [Text(question)], rows, page=at, paged=paged)
        pages.append(lines)
        at += 1
        if at >= paged[0]:
            return pages


def test_short_spaces_go_in_columns_whole():
    lines = layout(_console(), [], [Text("You: 3 coins")], [Text("Where?")],
                   _spaces(lambda i: "Land · bonus 2 Plants"))
    text = [t.plain for t in lines]
    assert len(text) == 2 + 21 and all(len(line) <= 80 for line in text)  # two columns
    assert text.count("Where?") == 1  # it fits: the question once
    assert not any("…" in line for line in text)
    assert sum(line.count("Land · bonus 2 Plants") for line in text) == 42


def test_a_few_long_ones_wrap_in_their_column():
    """TM's map: the volcanic areas' names are long, the other spaces' short."""
    volcanic = "Volcanic area · bonus 1 Steel · next to Ocean"
    rows = [(str(i), f"a{i:02}", f"Tharsis Tholus #{i:02}" if i % 10 == 4 else f"#{i:02}",
             Facts(volcanic if i % 10 == 4 else "Land · bonus 2 Plants"))
            for i in range(1, 43)]
    pages = _pages(rows)
    text = [t.plain for lines in pages for t in lines]
    assert all(len(line) <= 80 for line in text) and not any("…" in x for x in text)
    assert len(text) < 2 * len(pages) + 42 + len(pages)  # in two columns
    flat = " ".join(_flat(lines) for lines in pages)
    # (two wrapped side by side interleave their lines here: their parts are counted)
    assert flat.count("Tharsis Tholus") == 4 and flat.count("Volcanic area") == 4
    assert flat.count("next to Ocean") == 4, flat


def test_spaces_whose_neighbours_do_not_fit_a_column_are_one_a_line_and_whole():
    near = "Land · next to Greenery (Player 1 (human)), City (Player 2 (greedy))"
    far = ("Land · bonus 1 Plants · next to Greenery (Player 1 (human)), Greenery "
           "(Player 1 (human)), Greenery (Player 1 (human)), Ocean")
    pages = _pages(_spaces(lambda i: far if i == 7 else near))
    text = [t.plain for lines in pages for t in lines]
    assert all(len(line) <= 80 for line in text)
    assert not any("…" in line for line in text)
    # one option a line (its number at the left), none beside another
    assert sum(bool(re.match(r"\s+\d+\. a\d\d ", line)) for line in text) == 42
    assert not any(len(re.findall(r"\d+\. a\d\d", line)) > 1 for line in text)
    flat = " ".join(_flat(lines) for lines in pages)
    assert flat.count(near) == 41 and far in flat  # the long one wrapped, whole
    # (issue 30) each page fits the screen, the question on it, and says what follows
    assert all(len(lines) <= 23 and lines[1].plain == "Where?" for lines in pages)
    assert "type next" in pages[0][-1].plain


def test_a_list_taller_than_the_screen_is_shown_a_page_at_a_time():
    """Issue 30 (Cupola City, 47 spaces): a list taller than 24 rows scrolled its first
    options off the top. Each page fits the screen with the question, every option is on
    one page, in order, and the last line says which are shown and how to see the next."""
    facts = ["Land", "Land · bonus 2 steel", "Land · next to an ocean",
             "Land · bonus 1 plant · next to a greenery of Player 2 (ismcts)"]
    rows = [(str(i), f"a{i:02}", f"Tharsis Tholus #{i:02}" if i % 9 == 4 else f"#{i:02}",
             Facts(facts[i % 4])) for i in range(1, 48)]
    news = [["Player 2 (ismcts): Fund an award: Banker", "  Player 2 (ismcts): −8 M€"]]
    status = ("You: 1 M€ +2, 0 steel +1, 1 titanium +1, 4 plants +1, 2 energy +3",
              "Generation 3, Temperature -28 °C, Oxygen 3 %, Oceans 3")
    pages = _pages(rows, news, status, "Play a card · Cupola City: where do you place a city?")
    assert len(pages) > 1
    seen = []
    for lines in pages:
        assert len(lines) + 1 <= 24  # and the answer line
        assert any(t.plain.startswith("Play a card · Cupola City") for t in lines)
        seen += [int(n) for t in lines for n in re.findall(r"(\d+)\. a\d\d", t.plain)]
    assert sorted(seen) == list(range(1, 48))  # each once (down the columns of a page)
    assert pages[0][-1].plain.strip().startswith("options 1–")
    assert "of 47: type next for" in pages[0][-1].plain
    assert "type next for 1–" in pages[-1][-1].plain  # the last one goes round


def test_a_cards_long_text_is_still_cut_at_the_edge():
    text = "cost 3 · a long card text " * 4
    rows = [(str(i), f"c{i}", f"Card {i}", text) for i in range(1, 16)]
    lines = layout(_console(), [["Ann: Draw"]], [Text("You: 3 coins")],
                   [Text("Choose up to 4 cards")], rows)
    shown = [t.plain for t in lines]
    assert sum(bool(re.match(r"\s+\d+\. c\d+\s+Card", line)) for line in shown) == 15
    assert len(shown) <= 22 and all(len(line) <= 80 for line in shown)


def _status(ruleset, stocks, tracks=(), round_=1, width=80):
    from rulebook_games import load_ruleset
    from rulebook_games.agents import Agent
    from rulebook_games.engine.game import Game
    from rulebook_games.play.render import status_lines
    game = Game(load_ruleset(ruleset), 2, 1, [Agent(), Agent()])
    me = game.state.players[0]
    me.stock.update(stocks)
    me.tracks.update(dict(tracks))
    game.state.round = round_
    return [t.plain for t in status_lines(game.view(0), game, width)]


def test_a_long_status_line_wraps_and_loses_nothing():
    """Timespan's playtest: "You: 1 food, 1 stone, 2 ore, 3 coins, 3 silk, 1 gem, 1 book,
    1 relic, 4 populat…" hid the workers left, the thing it is for late in a game."""
    lines = _status("timespan", dict(food=1, stone=1, ore=2, coin=3, silk=3, gem=1, book=1,
                                     relic=1, population=4, vp=10))
    assert all(len(line) <= 80 for line in lines) and not any("…" in x for x in lines)
    stocks = " ".join(" ".join(x.split()) for x in lines)
    for goods in ("1 food", "1 stone", "2 ore", "3 coins", "3 silk", "1 gem", "1 book",
                  "1 relic", "4 population", "10 victory"):
        assert goods in stocks, goods
    assert lines[0].startswith("You") and len(lines) <= 4
    # the stocks go on under the first one, broken between two of them
    more = lines[1:[i for i, x in enumerate(lines) if x.startswith("Round")][0]]
    assert more and all(re.match(r" +\d+ [a-z]", line) for line in more), lines


def test_the_status_separators_stay_the_same_from_prompt_to_prompt():
    """Timespan's playtest: "Round 1 · Era 1 · you:" at one prompt, "Round 4, Era 2, you:"
    at another; "You: 4 food · 1 wood" and "You: 6 food, 1 wood"."""
    few = _status("timespan", dict(food=4, wood=1))
    many = _status("timespan", dict(food=6, wood=1, stone=1, ore=2, coin=3, silk=3, gem=1,
                                    book=1, relic=1, population=4, vp=10),
                   tracks=dict(culture=12, science=10, ocean=8, air=6), round_=4)
    for lines in (few, many):
        you = [x for x in lines if x.startswith("You")][0]
        assert re.match(r"You(, [^:]*)?: \d+ food, \d+ wood", you), you
        assert "·" not in " ".join(lines)
        rnd = [x for x in lines if x.startswith("Round")][0]
        assert re.match(r"Round \d, Era", rnd), rnd


def test_a_long_news_line_wraps_between_names_under_itself():
    # the Lantern Row deal read "…, Firefly Jar, Sun" and "Wheel" at the start of the
    # next line, as if it were the next piece of news
    from rulebook_games.play.screen import news_text
    line = "  4 cards → Lantern row: Rice-Paper Moon, Rice-Paper Moon, Firefly Jar, Sun Wheel"
    shown = news_text(line, 80).plain.split("\n")
    assert len(shown) == 2 and all(len(x) <= 80 for x in shown)
    assert shown[1].startswith("      ") and "Sun Wheel" in shown[1]
    assert " ".join(x.strip() for x in shown) == line.strip()
    assert news_text("  Player 2: +1 coin (now 4)", 80).plain == "  Player 2: +1 coin (now 4)"


def test_a_few_options_beside_many_cards_are_whole_and_the_cards_named():
    """Issue 30 (the corporation screen): three corporations with ten starting cards
    beside them; the corporations' texts, what tells them apart, were cut at 80 columns.
    They are whole, the cards the question is about named (card NAME shows one)."""
    corp = ("corporation · building · Whenever a tile is placed by you, if the space's "
            "bonus includes steel or titanium: Gain 1 steel production. · Gain 30 M€; "
            "gain 5 steel; gain 1 steel production.")
    card = "cost 13 · active · building · Action (Process ore), once per generation: " * 2
    rows = [("", "", f"Card {i}", card) for i in range(1, 11)] + \
        [(str(i), f"co{i}", f"Corporation {i}", corp) for i in range(1, 4)]
    news = [["Player 2 (ismcts): Choose", "  10 cards → your cards on offer"]] * 3
    lines = layout(_console(), news, [Text("You: 0 M€"), Text("Generation 1")],
                   [Text("Which corporation do you take?")], rows)
    text = [t.plain for t in lines]
    assert len(text) + 1 <= 24 and not any("…" in x for x in text), text
    flat = _flat(lines)
    assert flat.count(corp) == 3  # each corporation whole
    assert all(f"Card {i}" in flat for i in range(1, 11))


def test_a_text_cut_at_the_edge_says_how_to_read_it_whole():
    """Issue 30: the ten starting cards cut at 80 columns; a new player must be told
    where the rest is."""
    text = "cost 3 · a long card text " * 4
    rows = [(str(i), f"c{i}", f"Card {i}", text) for i in range(1, 12)]
    lines = layout(_console(), [["Ann: Draw"]], [Text("You: 3 coins")],
                   [Text("Choose up to 10 cards")], rows)
    shown = [t.plain for t in lines]
    assert any("…" in x for x in shown) and len(shown) + 1 <= 24
    assert any("more N shows option N whole" in x for x in shown)


def test_next_turns_the_page_and_a_number_from_another_page_answers():
    """At the terminal (issue 30): 'next' shows the following options of a list too long
    for the screen, and any option's number answers, whichever page is shown."""
    from rulebook_games import load_ruleset
    from rulebook_games.agents import Agent
    from rulebook_games.engine.decisions import Decision, Option
    from rulebook_games.engine.game import Game
    from rulebook_games.play.terminal import HumanAgent
    game = Game(load_ruleset("terraforming_mars"), 2, 1, [Agent(), Agent()])
    spaces = [s for s, d in game.space_decl.items() if d.get("type") == "land"]
    assert len(spaces) > 40
    decision = Decision(0, "space", "Where do you place a city?",
                        [Option(game.space_name(s), s, s) for s in spaces])
    from rulebook_games.engine.keys import short_keys
    last = short_keys(game, decision)[-1]  # (its number is also a space's name: its key)
    out = io.StringIO()
    typed = ["next", last]
    human = HumanAgent(Console(file=out, width=80, color_system=None),
                       lambda prompt="": typed.pop(0))
    answer = human.decide(decision, game.view(0), game)
    assert answer == len(spaces) - 1 and typed == []
    shown = out.getvalue()
    first, second = shown.split("options 1–")[1].split("\n", 1)  # page 1, then page 2
    after = re.search(r"type next for (\d+)–", first).group(1)
    # (the pages stay the same from one showing to the next, the help line or not)
    assert f"options {after}–" in second and f" {len(spaces)}. {last} " in second
    assert f" {len(spaces)}. " not in shown.split("options 1–")[0]  # not on page 1
