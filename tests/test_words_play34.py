"""What players read, from the last keen players' findings (words7: Legacy's cut
options and crown line, Lantern Row's table, Terraforming Mars's turn's end)."""

from __future__ import annotations

import re

from rich.text import Text

from rulebook_games.play.screen import news_text, refused_lines
from test_words_play32 import _human_game  # a human seat of a game, its output kept


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def test_a_reason_cut_at_the_edge_keeps_its_brackets_closed():
    """Legacy, seed 3377: "--  Establish a technology in your time frame (not now: you
    are on the…" opened a bracket it never closed. A cut says so with '…' and closes
    what it opened, in the width."""
    rows = [("--", "Establish a technology in your time frame",
             "not now: you are on the present day, where no technology may be established")]
    for width in (80, 60, 45):
        [line] = refused_lines(rows, width)
        shown = line.plain
        assert len(shown) <= width, shown
        assert "…" in shown and _balanced(shown), shown
        assert shown.endswith("…)" if "(" in shown else "…"), shown  # or cut before it
        if width == 80:
            assert shown.startswith("   --  Establish a technology in your time frame (not now:")


def test_an_option_cut_at_the_edge_keeps_its_brackets_closed():
    """An option whose detail opens a bracket ('Player 2 (ismcts) 1 cube'): when the cut
    falls inside it, the bracket is closed after the '…', or the cut comes before it."""
    from rich.console import Console
    import io
    from rulebook_games.play.screen import option_lines
    detail = ("failed · Player 1 (human) 4 cubes, Player 2 (ismcts) 1 cube · cost 3 · "
              "technology · Needs Electricity (and a frame to the left)")
    for width in range(50, 100, 3):
        console = Console(file=io.StringIO(), width=width)
        lines = option_lines([("3", "ele2", "Electricity", detail)], console, True)
        for line in lines:
            assert len(line.plain) <= width, line.plain
            assert _balanced(line.plain), (width, line.plain)


def test_a_line_that_fits_is_not_touched():
    rows = [("--", "Travel", "not now: no earlier frame")]
    assert refused_lines(rows, 80)[0].plain == "   --  Travel (not now: no earlier frame)"


def _names_whole(lines: list[str]) -> bool:
    """No line breaks inside a bracket, or between a player's number and their bracket."""
    for line in lines[:-1]:
        if line.count("(") > line.count(")"):
            return False
    return not any(re.match(r"\s*\(", line) and not re.match(r"\s*\(\+\d", line)
                   for line in lines[1:])


def test_the_crown_line_keeps_a_players_name_and_the_fold_note_whole():
    """Legacy, seed 3388: "The Scholar's crown, for the most cubes on Printing Press: 4
    for Player 1" then "    (human)  (+2 lines: type news)": the player's name cut
    across the lines. A name in brackets, and the note of lines folded, stay whole."""
    line = ("The Scholar's crown, for the most cubes on Printing Press: 4 for Player 1 "
            "(human)  (+2 lines: type news)")
    shown = news_text(line, 80).plain.split("\n")
    assert len(shown) == 2 and all(len(x) <= 80 for x in shown), shown
    assert "Player 1 (human)" in "\n".join(shown), shown
    assert "(+2 lines: type news)" in shown[1], shown
    assert _names_whole(shown), shown
    assert " ".join(" ".join(shown).split()) == " ".join(line.split())  # every word, once


def test_a_line_wrapped_for_its_note_alone_is_not_left_dangling():
    """Legacy, seed 3377 at 80 columns: "The Engineer's crown, for the most cubes on
    Railroads: 5 for Player 2 (ismcts)" filled the line and the fold's note stood alone
    on a second line. The two lines share the words, so neither is a stub."""
    line = ("The Engineer's crown, for the most cubes on Railroads: 5 for Player 2 "
            "(ismcts)  (+2 lines: type news)")
    shown = news_text(line, 80).plain.split("\n")
    assert len(shown) == 2, shown
    assert len(shown[1].strip()) > len("(+2 lines: type news)"), shown
    assert _names_whole(shown), shown
    # and a note is never cut across lines ('(+4' then 'lines: type news)')
    line = ("Player 2 (ismcts): Establish a technology in their time frame: Mathematics  "
            "(+4 lines: type news)")
    shown = news_text(line, 80).plain.split("\n")
    assert any("(+4 lines: type news)" in x for x in shown), shown


def test_a_long_line_above_an_answer_taken_for_you_is_not_shown_again():
    """Legacy (words7, finding B): in phase V a technology whose prerequisite went
    fails ("Printing Press (time frame 1) fails: it needs Writing and Metallurgy to
    succeed in an earlier time frame", two lines at 80 columns); the place in the turn
    order was then taken for the player, and the next screen printed the line again
    above the other player's place. A line on the screen is not shown twice."""
    from rulebook_games.engine.decisions import Decision, Option
    game, human, out = _human_game("legacy_gears_of_time")
    fails = ("Printing Press (time frame 1) fails: it needs Writing and Metallurgy to "
             "succeed in an earlier time frame")
    game.log("· V. Prepare the next round")
    game.log(fails)
    game.log("  Present day 5 → 6")
    only = Decision(0, "item", "Which place do you take in the next turn order?",
                    [Option("2nd", "2nd", "2nd")])
    assert game._ask(only) == 0
    game.log("  Player 2 (random): Place in turn order 2 → 1")
    game.log("— Round 2 —")
    human.news(game, 0)
    shown = out.getvalue()
    assert shown.count("Printing Press (time frame 1) fails") == 1, shown
    assert "Place in turn order 2 → 1" in shown and "Present day 5 → 6" in shown, shown


def test_nothing_else_can_be_done_is_said_once_until_the_player_acts_again():
    """Terraforming Mars (words7): "end turn (nothing else can be done)" was said to
    its player about 20 times a game, and then again on the pass that followed it
    ("pass (no more turns this generation; nothing else can be done)") with nothing
    chosen between. The reason is news once: the next turn ended or passed by itself
    before the player chooses again says what happened without it."""
    from rulebook_games import load_ruleset
    from rulebook_games.engine.flow import FlowRunner
    from rulebook_games.play.session import build_game
    game = build_game(load_ruleset("terraforming_mars"), 2, 5, ["random", "random"])
    game.keep_log = True
    FlowRunner(game).play()
    said = 0
    for seat in (0, 1):
        me = game.state.players[seat].name
        lines = [game.log_line_for(i, seat) for i in range(len(game.log_lines))]
        told = False  # said since this seat last chose
        for line in lines:
            if line.startswith(f"{me}: ") and "nothing else can be done" in line:
                assert not told, line
                told, said = True, said + 1
            elif line.startswith(f"{me}: ") and not line.startswith(
                    (f"{me}: end turn", f"{me}: pass")):
                told = False  # a move the seat chose
        automatic = [x for x in lines if x.startswith(f"{me}: pass (") or
                     x.startswith(f"{me}: end turn")]
        assert all(x in (f"{me}: end turn", f"{me}: pass (no more turns this generation)")
                   or x.endswith("nothing else can be done)") for x in automatic), automatic
    assert said  # (still said where it informs)


def test_lantern_rows_state_fits_the_screen_a_page_at_a_time():
    """Lantern Row (words7, 2 players, seeds 3301–3306): 'state' printed 26 lines, more
    than a 24-line console shows with the input line: the title and the rules scrolled
    off. Each 'state' and 'state more' fits with the question under it, and the pages
    together show everything the whole table does."""
    import io
    from rich.console import Console
    from rulebook_games import load_ruleset
    from rulebook_games.engine.flow import FlowRunner
    from rulebook_games.play.render import render_view
    from rulebook_games.play.session import build_game
    from rulebook_games.play.terminal import HumanAgent
    from rulebook_games.agents.base import RandomAgent
    rs = load_ruleset("lantern_row")
    for seed in range(3301, 3307):
        out = io.StringIO()
        person = HumanAgent(Console(file=out, width=80, highlight=False), lambda p: "1")
        game = build_game(rs, 2, seed, ["human", "random"],
                          live_agents=[person, RandomAgent(seed)])
        game.keep_log = True
        looked = []
        real = person.command

        def command(raw, decision, view, game_, _real=real):
            if raw == "1":  # before each answer: 'state', then its pages
                wanted = Console(file=io.StringIO(), width=80, highlight=False)
                wanted.print(render_view(game_.view_model(0), game_))
                shown = []
                for typed in ("state", "state more", "state more"):
                    at = len(out.getvalue())
                    assert _real(typed, decision, view, game_)
                    shown.append(out.getvalue()[at:])
                looked.append((wanted.file.getvalue(), shown))
            return _real(raw, decision, view, game_)
        person.command = command
        FlowRunner(game).play()
        assert len(looked) > 10
        for wanted, shown in looked:
            for text in shown:
                lines = text.rstrip("\n").split("\n")
                assert len(lines) + 1 <= 24, (seed, len(lines), text)  # (and the input line)
            pages = "".join(shown)
            for line in wanted.splitlines():  # nothing left out
                assert line.strip() in pages, (seed, line, pages)
