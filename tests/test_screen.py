"""The screen before a decision fits a terminal (issue 26 item 3).

Expectations from the issue: before each decision a person sees what changed
since their last one, the question and the options, within 80x24 for a
typical decision; everything else is one command away (`news`, `log`,
`why`, `more N`, `card NAME`); options that are not available collapse to one
line when there are more than a few. The news keeps hidden cards exactly as
hidden as the log lines the seat reads.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

from rich.console import Console
from rich.text import Text

import pytest

from rulebook_games import load_ruleset
from rulebook_games.agents import Agent
from rulebook_games.agents.registry import make_agent
from rulebook_games.engine.game import Game
from rulebook_games.play.news import NewsWords, news_lines, summarise
from rulebook_games.play.screen import FEW_REFUSED, layout, option_lines, refused_lines
from rulebook_games.play.session import build_game, run

WORDS = NewsWords(["Ann", "Bob (ai)"], {"Oak Mill", "Rain"},
                  {"coin": ("coin", "coins"), "coins": ("coin", "coins"),
                   "plant": ("plant", "plants"), "plants": ("plant", "plants")},
                  {"coin": ("coin", "coins"), "plant": ("plant", "plants")})


def test_a_players_stock_changes_fold_into_one_line_with_what_was_paid_and_gained():
    lines = ["Bob (ai): Buy cards",
             "  Bob (ai) pays 3 coins (now 9)", "  a card → Bob (ai)'s hand",
             "  Bob (ai) pays 3 coins (now 6)", "  a card → Bob (ai)'s hand",
             "  Bob (ai) gains 1 plant (now 1)",
             "  Bob (ai): coin production +1 (now 2)", "  Bob (ai): plant production −2 (now 0)"]
    assert news_lines(summarise(lines, WORDS)) == [
        "Bob (ai): Buy cards: 2 cards → Bob (ai)'s hand",
        "  Bob (ai): −6 coins (now 6); +1 plant (now 1); production +1 coin, −2 plant"]
    # (the cards moved are said once, in the headline)


def test_cards_moved_to_one_place_are_counted_and_named_only_where_the_line_names_them():
    lines = ["Ann: Draw", "  Oak Mill → your hand", "  Rain → your hand",
             "  a card → Discard pile (×3)", "  2 cards from Deck → Bob (ai)'s hand",
             "  3 cards from Deck → your cards on offer: Rain, Oak Mill, Rain"]
    assert news_lines(summarise(lines, WORDS)) == [
        "Ann: Draw: 2 cards → your hand: Oak Mill, Rain",
        "  3 cards → Discard pile",
        "  2 cards → Bob (ai)'s hand", "  3 cards → your cards on offer: Rain, Oak Mill, Rain"]


def test_steps_of_one_track_join_and_other_lines_are_kept_as_they_are():
    lines = ["· Production", "  Heat 2 °C → 4 °C", "  Ann: Rating 20 → 21",
             "  Heat 4 °C → 6 °C", "  Ann: Rating 21 → 22", "  Ann chooses Rain",
             "  Ann gains no coins: 3 coins would not fit (stays at 5)"]
    assert news_lines(summarise(lines, WORDS)) == [
        "· Production", "  Heat 2 °C → 6 °C", "  Ann: Rating 20 → 22", "  Ann chooses Rain",
        "  Ann gains no coins: 3 coins would not fit (stays at 5)"]


@pytest.mark.slow
def test_the_news_names_no_card_the_seats_own_log_lines_do_not_name():
    rs = load_ruleset("terraforming_mars")
    agents = [make_agent("greedy", 1), make_agent("greedy", 2)]
    game = build_game(rs, 2, 1, ["greedy", "greedy"], live_agents=agents)
    run(game)
    words = NewsWords.of(game)
    names = sorted(words.cards, key=len, reverse=True)
    for seat in (0, 1):
        lines = [game.log_line_for(i, seat) for i in range(len(game.log_lines))]
        told = "\n".join(lines)
        summary = "\n".join(news_lines(summarise(lines, words)))
        for name in names:
            if name in summary:
                assert name in told, (seat, name)
        assert len(summary.splitlines()) < 0.7 * len([x for x in lines if x])  # folded


def _rows(n: int, detail: str = "cost 3 · a long card text " * 4, refused: int = 0):
    return [(str(i), f"Card {i}", detail) for i in range(1, n + 1)] + \
        [("--", f"Locked {i}", "not now: needs 5 coins; you have 2") for i in range(refused)]


def _console(width: int = 80) -> Console:
    return Console(file=io.StringIO(), width=width, color_system=None)


def test_options_are_whole_when_they_fit_and_one_line_each_when_not():
    c = _console()
    head = [Text("Choose up to 4 cards")]
    few = layout(c, [["Ann: Draw"]], [Text("You: 3 coins")], head, _rows(4))
    assert len(few) > 4 + 3  # each card's text on lines of its own
    many = layout(c, [["Ann: Draw"]], [Text("You: 3 coins")], head, _rows(15))
    shown = [t.plain for t in many]
    assert all(len(line) <= 80 for line in shown)
    assert sum(bool(re.match(r"\s+\d+\. Card", line)) for line in shown) == 15
    assert len(shown) <= 24 - 2  # (the input line and the blank line above)


def test_many_short_options_go_in_columns_to_fit():
    c = _console()
    rows = [(str(i), f"#{i:02}", "Land") for i in range(1, 41)]
    lines = layout(c, [], [Text("You: 3 coins")], [Text("Where?")], rows)
    assert len(lines) <= 22 and all(len(t.plain) <= 80 for t in lines)
    text = "\n".join(t.plain for t in lines)
    assert all(f"#{i:02}" in text for i in range(1, 41))


def test_a_few_options_not_available_are_listed_and_more_collapse_to_one_line():
    few = refused_lines(_rows(2, refused=FEW_REFUSED), 80)
    assert len(few) == FEW_REFUSED and all("not now: needs 5 coins" in t.plain for t in few)
    many = refused_lines(_rows(2, refused=8), 80)
    assert [t.plain for t in many] == ["   --  8 more not available: type why"]


def test_a_reason_too_long_for_the_line_is_shortened_between_words():
    """Playtest 32 (Lantern Row): "--  Play a favour (not now: you have no favour in your
    hand that you can pla…": a line cut at the screen's edge ends at a word, with '…'."""
    reason = ("not now: you have no favour in your hand that you can play now, "
              "as each needs a lantern in the row")
    rows = [("--", "fav", "Play a favour", reason)]
    (line,) = refused_lines(rows, 80)
    text = line.plain
    assert len(text) <= 80 and text.endswith("…)")  # the bracket closed (words7)
    kept = text[:-2].rstrip()
    assert kept.split()[-1] in reason.split(), text  # a whole word before the '…'
    assert text.startswith("   --  Play a favour (not now: you have no favour in your hand")


def test_long_news_keeps_the_newest_and_says_where_the_rest_is():
    c = _console()
    news = [[f"Bob (ai): Action {i}", f"  Bob (ai): −{i} coins (now 1)"] for i in range(30)]
    lines = layout(c, news, [Text("You: 3 coins")], [Text("Your turn")], _rows(3, "short"))
    text = [t.plain for t in lines]
    assert len(text) <= 22
    assert text[0].startswith("… ") and "type news" in text[0]
    assert "Bob (ai): Action 29" in text  # the newest is there, with its effects
    assert "  Bob (ai): −29 coins (now 1)" in text
    assert "Bob (ai): Action 0" not in text


def test_the_status_lines_fit_the_width_and_keep_your_own_tracks():
    from rulebook_games.play.render import status_lines
    rs = load_ruleset("terraforming_mars")
    game = Game(rs, 2, 1, [Agent(), Agent()])
    me = game.state.players[0]
    game.state.round = game.state.tracks["generation"] = 14
    game.state.tracks["temperature"] = -10
    for key in me.stock:  # late in a game, rich
        me.stock[key], me.production[key] = 54, 15
    lines = [t.plain for t in status_lines(game.view(0), game, 80)]
    assert len(lines) <= 3 and all(len(line) <= 80 for line in lines)
    # your own track by its name, or the short name the ruleset declares for it
    assert "Terraform rating 20" in " ".join(lines) or "you: TR 20" in " ".join(lines)
    assert "-10 °C" in " ".join(lines)  # (issue 30) its unit kept
    # (issue 29) nothing cut: a line too long for the width goes on to the next
    assert "54 heat +15" in " ".join(lines) and not any("…" in x for x in lines)


def test_a_long_status_line_keeps_the_units_of_its_tracks():
    """(issue 30) 'Temperature -18, Oxygen 10' drops what the numbers count: a track's
    unit is part of its value; the line is shortened elsewhere, or wrapped."""
    from rulebook_games.play.render import status_lines
    rs = load_ruleset("terraforming_mars")
    game = Game(rs, 2, 1, [Agent(), Agent()])
    game.state.round = game.state.tracks["generation"] = 7
    game.state.tracks.update({"temperature": -18, "oxygen": 10, "oceans": 6})
    game.state.players[0].tracks["tr"] = 37
    for width in (80, 60, 40):
        lines = [t.plain for t in status_lines(game.view(0), game, width)]
        text = " ".join(lines)
        assert "-18 °C" in text and "10 %" in text, (width, lines)
        assert all(len(line) <= width for line in lines) and "37" in text
        # shortened by the words the ruleset declares (tr: short: TR), not by a cut
        assert "Terraform rating 37" in text or "TR 37" in text


def test_card_texts_stay_when_the_question_is_about_a_few_cards():
    lines = option_lines([("", "Rain", "cost 3 · Gain 2 plants.")] + _rows(2, "cost 1 · x"),
                         _console(), compact=False)
    assert "Rain: cost 3 · Gain 2 plants." in [t.plain.strip() for t in lines]


def test_why_more_and_news_at_a_prompt(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "rulebook_games", "play",
                           "legacy_gears_of_time", "-p", "2", "--agents", "human,random",
                           "--seed", "3"], cwd=tmp_path, input="1\nwhy\nmore 1\nnews\nsave\n",
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, COLUMNS="80"))
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    # 'why': every option not available, with its reason (the travellers start in the
    # present day, so establishing needs a frame of the past)
    assert "Establish a technology in your time frame (not now: you are on the" \
        in out
    assert re.search(r"^1\. ", out, re.M)  # 'more 1': the first option, whole
    assert "saved after" in out


def test_the_status_line_shows_your_goods_first_then_your_tracks():
    """Timespan playtest (issue 26): a player must see their own goods before each
    decision; the panel's stocks come first, the tracks after them, in 80 columns."""
    from rulebook_games.play.render import status_lines
    game = Game(load_ruleset("timespan"), 2, 1, [Agent(), Agent()])
    me = game.state.players[0]
    me.stock.update(food=4, wood=2, stone=3, ore=1, coin=3, pottery=1)
    me.tracks.update(culture=3, ocean=2)
    lines = [t.plain for t in status_lines(game.view(0), game, 80)]
    assert len(lines) == 2 and all(len(line) <= 80 for line in lines)
    assert lines[0].startswith("You")
    for goods in ("4 food", "2 wood", "3 stone", "1 ore", "3 coins", "1 pottery"):
        assert goods in lines[0]
    assert "Culture 3" in " ".join(lines) and "Ocean" in " ".join(lines)


def test_your_own_results_stay_when_the_others_moves_fold():
    """Timespan playtest (issue 26): after your action the news showed only its
    headline; what you gained and lost stays when room allows, the others' moves fold
    first."""
    from rulebook_games.play.screen import fit_news
    news = [["Ann: Sun Temple: Inspire", "  Mausoleum → your hand",
             "  Ann: +1 population (now 4)"]]
    news += [[f"Bob (ai): Action {i}", f"  Bob (ai): −{i} coins (now 1)",
              f"  Bob (ai): +{i} plants (now 9)"] for i in range(4)]
    text = [t.plain for t in fit_news(_console(), news, 9, you="Ann")]
    assert len(text) <= 9
    assert "  Mausoleum → your hand" in text and "  Ann: +1 population (now 4)" in text
    assert "Bob (ai): Action 3" in text  # the newest, its effects folded before yours
    # your own action with the others' newest after it: yours keeps its effects
    news = [news[0], ["Bob (ai): Action 9", "  Bob (ai): −9 coins (now 1)",
                      "  Bob (ai): +9 plants (now 9)", "  Bob (ai): +1 card (now 3)"]]
    text = [t.plain for t in fit_news(_console(), news, 5, you="Ann")]
    assert "  Mausoleum → your hand" in text, text
    assert "Bob (ai): Action 9  (+3 lines: type news)" in text, text  # cut, and says so
    # a phase that changed your things (income) is yours too
    news = [["· Income", "  Ann: +3 food (now 4)", "  Bob (ai): +2 coins (now 5)"],
            news[1]]
    text = [t.plain for t in fit_news(_console(), news, 4, you="Ann")]
    assert "  Ann: +3 food (now 4)" in text, text


def test_what_a_move_did_to_a_card_stays_with_the_move_that_did_it():
    """Playtest 32 (Legacy): the other player's Not What We Hoped For on the player's
    Metallurgy was left out ("… 7 earlier lines") when a question was then taken for the
    player, while "Railroads (time frame 4) fails" stayed without its cause. A line about
    a card right after a move is what the move did: it goes with the move, and the move's
    headline (naming the card played) stays when the lines must fold."""
    from rulebook_games.play.screen import fit_news
    you, bob = "Ann", "Bob (ai)"
    words = NewsWords([you, bob], {"Oak Mill", "Rain", "Mill Race", "Surge", "Storm"})
    lines = [f"{you}: Influence", f"  {you}: 1 stored cube → Rain (now 3 of yours there)"]
    for _ in range(3):
        lines += [f"{bob}: Draw two, keep one", f"  2 cards from Deck → {bob}'s hand",
                  "  Oak Mill → Discard pile"]
    lines += [f"{bob}: Play a fate card", "  Storm → Fate cards in play",
              f"  {bob} chooses Rain",
              "Rain (time frame 2) fails until the end of the round, whatever it needs",
              "Mill Race (time frame 3) fails: it needs Rain to succeed in an earlier frame",
              "Surge (time frame 4) fails: it needs Mill Race to succeed in an earlier frame"]
    groups = [g.lines() for g in summarise(lines, words)]
    assert groups[-1][0] == f"{bob}: Play a fate card: Storm on Rain"
    assert groups[-1][-1].startswith("  Surge (time frame 4) fails")
    shown = [t.plain for t in fit_news(_console(), groups, 6, you)]
    assert len(shown) <= 6
    assert any(line.startswith(f"{bob}: Play a fate card: Storm on Rain") for line in shown), shown
    # a move of another's that names you stays over their older moves
    news = [[f"{bob}: Play a favour: Trick on {you}", "  Trick → Discard pile"]] + \
        [[f"{bob}: Draw two, keep one: Oak Mill → Discard pile"] for _ in range(8)]
    shown = [t.plain for t in fit_news(_console(), news, 5, you)]
    assert any(line.startswith(f"{bob}: Play a favour: Trick on {you}") for line in shown), shown
    # a phase's own lines about cards stay the phase's
    phase = summarise(["· Clarify", "Rain (time frame 1) is discarded"], words)
    assert [g.lines() for g in phase] == [["· Clarify"], ["Rain (time frame 1) is discarded"]]


def test_what_you_paid_stays_when_your_older_move_must_fold():
    """Issue 30: "Buy research cards: Cloud Seeding" was shown with no cost line, the
    move folded to its headline when a long action list left 5 lines of news. Your
    own move loses its other lines first; what you paid and gained goes last."""
    from rulebook_games.play.screen import fit_news
    you = "Player 1 (human)"
    news = [[f"{you}: Buy research cards: Cloud Seeding", f"  {you}: −3 M€ (now 33)",
             "  Cloud Seeding → your hand", "  3 cards → Discard pile"],
            ["Player 2 (ismcts): Buy research cards: 4 cards → Discard pile"], ["· Action"]]
    shown = [t.plain for t in fit_news(_console(), news, 5, you)]
    assert len(shown) <= 5 and f"  {you}: −3 M€ (now 33)" in shown, shown
    assert shown[0].startswith(f"{you}: Buy research cards: Cloud Seeding")
    assert "type news" in shown[0]  # what is left out is said
    shown = [t.plain for t in fit_news(_console(), news, 4, you)]
    assert len(shown) <= 4 and f"  {you}: −3 M€ (now 33)" in shown, shown


def test_a_track_keeps_one_name_and_the_phase_stays_or_goes_all_game():
    """Playtest 31 (TM): "…, you: Terraform rating 34" at one prompt, "Generation 6,
    Action, Temperature -26 °C, Oxygen 10 %, Oceans 5, you: TR 35" at another: the
    words of the status line chosen for the widest values its tracks can take, so
    they do not change with the numbers."""
    from rulebook_games.play.render import status_lines
    rs = load_ruleset("terraforming_mars")
    game = Game(rs, 2, 1, [Agent(), Agent()])
    forms = set()
    for gen, temp, oxygen, oceans, tr, phase in [(1, -30, 0, 0, 20, "research"),
                                                 (6, -26, 10, 5, 35, "action"),
                                                 (11, 8, 14, 9, 53, "action"),
                                                 (3, -8, 4, 2, 28, "production")]:
        game.state.round = game.state.tracks["generation"] = gen
        game.state.tracks.update({"temperature": temp, "oxygen": oxygen, "oceans": oceans})
        game.state.players[0].tracks["tr"] = tr
        game.state.phase = phase
        text = " | ".join(t.plain for t in status_lines(game.view(0), game, 80))
        text = re.sub(r"You: [^|]*", "", re.sub(r"-?\d+", "N", text))
        forms.add(re.sub(r"(Research|Action|Production), ", "PHASE, ", text))
    assert len(forms) == 1, forms


def test_a_long_reason_goes_on_under_itself_where_the_screen_has_room():
    """Playtest 32 (Lantern Row): the reason an option is not available was cut at the
    edge ('that you can…') with half the screen empty: it has no number for 'more N',
    so where the news leaves the room it is shown whole, under itself."""
    c = _console()
    reason = ("not now: you have no favour in your hand that you can play now, "
              "as each needs a lantern in the row")
    rows = [("1", "col", "Take 2 coins"), ("--", "fav", "Play a favour", reason)]
    lines = layout(c, [["Bob (ai): Take 2 coins"]], [Text("You: 3 coins")],
                   [Text("Choose an action")], rows)
    text = " ".join(t.plain.strip() for t in lines)
    assert "as each needs a lantern in the row)" in text
    assert all(len(t.plain) <= 80 for t in lines)
    assert any(t.plain.startswith("       ") and "lantern" in t.plain for t in lines)
    # no room to spare (the news fills the screen): cut at a word, as before
    news = [[f"Bob (ai): Action {i}", f"  Bob (ai): −{i} coins (now 1)"] for i in range(30)]
    lines = layout(c, news, [Text("You: 3 coins")], [Text("Choose an action")], rows)
    assert len(lines) <= 22
    assert any(t.plain.startswith("   --  Play a favour") and t.plain.endswith("…)")
               for t in lines)


def test_the_others_moves_after_yours_are_not_left_out_as_earlier():
    """Playtest 33 (Legacy): after the player's fate card, the screen said '… 3 earlier
    lines', then the player's move, then the other seat's last one: left out were the
    other seat's establish, draw and travel, made after the player's move. What the
    others did since you acted is the news; what goes first is older."""
    from rulebook_games.play.screen import fit_news
    you, bob = "Ann", "Bob (ai)"
    news = [["· III. Score technologies", "  Fire scores 3 for Ann"],
            [f"{bob}: Influence", f"  {bob}: 1 stored cube → Law"],
            [f"{you}: Play a fate card: Plans on Engine", "  Plans → Discard pile"],
            [f"{bob}: Establish a technology: Writing",
             "  Press (time frame 4) now succeeds"],
            [f"{bob}: Draw two, keep one"],
            [f"{bob}: Travel to the past: Time frame 2 → 1"],
            [f"{bob}: Play a fate card: Lost to History on {you}, Engine",
             f"  2 of {you}'s cubes → supply"]]
    shown = [t.plain for t in fit_news(_console(), news, 6, you)]
    assert len(shown) <= 6
    text = "\n".join(shown)
    for move in ("Establish a technology: Writing", "Draw two, keep one",
                 "Travel to the past", "Lost to History"):
        assert move in text, shown
    # what was left out is older than all that is shown, and said so
    assert shown[0].startswith("… ") and "earlier" in shown[0], shown
    assert "Influence" not in text


def test_moves_left_out_between_moves_shown_are_not_called_earlier():
    from rulebook_games.play.screen import fit_news
    you, bob = "Ann", "Bob (ai)"
    news = [[f"{you}: Influence", f"  {you}: 1 stored cube → Law"]] + \
        [[f"{bob}: Draw two, keep one"] for _ in range(6)] + \
        [[f"{you}: Travel to the past: Time frame 2 → 1", f"  {you}: −1 card"]]
    shown = [t.plain for t in fit_news(_console(), news, 5, you)]
    assert len(shown) <= 5 and any("Influence" in line for line in shown), shown
    assert shown[0].startswith("… ") and "left out" in shown[0] \
        and "earlier" not in shown[0], shown


def test_a_sentence_cut_at_its_end_shows_one_mark_not_a_full_stop_and_an_ellipsis():
    """A text cut just after a sentence's full stop read 'Gains 2 plants.…': the cut
    shows that more follows with one mark, the full stop left out."""
    reason = ("not now: Gains 2 plants. Then each other player loses 3 heat "
              "and you draw a card for each of them")
    rows = [("--", "abc", "Something", reason)]
    for width in range(40, 80):
        (line,) = refused_lines(rows, width)
        assert ".…" not in line.plain and len(line.plain) <= width
