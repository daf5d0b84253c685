"""What a Lantern Row player reads of the moves (the keen player's findings, play30).

Expectations from the playtest notes, written before the change:
- a favour's headline says what it did that is public: Haggling the card it took and
  what it paid ("Play a favour: Haggling: Red Dragon for 2 coins"), Gust of Wind that it
  is the favour played and the new row it laid out;
- one's own move reads "your stall", as the line under it says ("Willow Spirit → your
  stall"); the others read "their stall".
"""

from __future__ import annotations

from rulebook_games import load_ruleset
from rulebook_games.play.news import NewsWords, news_lines, summarise
from rulebook_games.play.session import build_game, run

P2 = "Player 2 (ismcts)"
WORDS = NewsWords(["Player 1 (human)", P2],
                  {"Haggling", "Gust of Wind", "Red Dragon", "Bamboo Cage", "Paper Globe",
                   "Rice-Paper Moon", "Lucky Coin", "Jade Carp", "Twin Flame", "Oak Mill",
                   "Rain", "Telephone", "Will Into Existence"},
                  {"coin": ("coin", "coins"), "coins": ("coin", "coins")})

HAGGLING_SEEN_BY_P1 = [f"{P2}: Play a favour", "  Haggling → Discard pile",
                       f"  {P2} chooses Red Dragon", f"  {P2} pays 2 coins (now 3)",
                       f"  Red Dragon → {P2}'s hand", "  Bamboo Cage → Lantern row"]
HAGGLING_OWN = [f"{P2}: Play a favour",
                "  Play a favour: Which favour do you play? → Haggling (the only choice, "
                "taken for you)", "  Haggling → Discard pile", f"  {P2} chooses Red Dragon",
                f"  {P2} pays 2 coins (now 3)", "  Red Dragon → your hand",
                "  Bamboo Cage → Lantern row"]
GUST = [f"{P2}: Play a favour", "  Gust of Wind → Discard pile",
        "  Rice-Paper Moon → Discard pile", "  Paper Globe → Discard pile",
        "  Lucky Coin → Lantern row", "  Jade Carp → Lantern row", "  Twin Flame → Lantern row"]


def test_haggling_says_the_card_it_took_and_what_it_paid():
    for lines in (HAGGLING_SEEN_BY_P1, HAGGLING_OWN):
        news = news_lines(summarise(lines, WORDS))
        assert news[0] == f"{P2}: Play a favour: Haggling: Red Dragon for 2 coins"
        # what it paid, what is left and the row refilled stay below; the choice once
        assert f"  {P2}: −2 coins (now 3)" in news
        assert "  Bamboo Cage → Lantern row" in news
        assert not any("chooses" in line for line in news)


def test_a_card_taken_for_nothing_says_where_it_went():
    lines = [f"{P2}: Play a favour", "  Haggling → Discard pile", f"  {P2} chooses Bamboo Cage",
             f"  Bamboo Cage → {P2}'s hand", "  Twin Flame → Lantern row"]
    assert news_lines(summarise(lines, WORDS))[0] == \
        f"{P2}: Play a favour: Haggling: Bamboo Cage → {P2}'s hand"


def test_gust_of_wind_is_named_as_the_favour_played_with_the_new_row():
    news = news_lines(summarise(GUST, WORDS))
    assert news[0] == (f"{P2}: Play a favour: Gust of Wind: 3 cards → Lantern row: "
                       "Lucky Coin, Jade Carp, Twin Flame")
    assert news[1:] == ["  Gust of Wind → Discard pile",
                        "  2 cards → Discard pile: Rice-Paper Moon, Paper Globe"]


def test_a_card_played_on_another_stays_on_it_and_cards_bought_stay_together():
    fate = [f"{P2}: Play a fate card", "  Will Into Existence → Discard pile",
            f"  {P2} chooses Telephone"]
    assert news_lines(summarise(fate, WORDS))[0] == \
        f"{P2}: Play a fate card: Will Into Existence on Telephone"
    bought = ["Player 1 (human): Buy cards", "  Oak Mill → your hand", "  Rain → your hand"]
    assert news_lines(summarise(bought, WORDS))[0] == \
        "Player 1 (human): Buy cards: 2 cards → your hand: Oak Mill, Rain"


def test_ones_own_move_says_your_and_the_others_read_their():
    rs = load_ruleset("lantern_row")
    game = build_game(rs, 2, 1, ["random", "random"])
    run(game)
    n = len(game.log_lines)
    hangs = [i for i in range(n) if game.log_lines[i].endswith(": Hang a lantern in their stall")]
    assert hangs
    for i in hangs:
        mover = 0 if game.log_lines[i].startswith("Player 1") else 1
        assert game.log_line_for(i, mover).endswith(": Hang a lantern in your stall")
        assert game.log_line_for(i, 1 - mover).endswith(": Hang a lantern in their stall")


def _state(game, seat, parts=("all",)) -> list[str]:
    import io

    from rich.console import Console

    from rulebook_games.play.render import render_view
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(render_view(game.view_model(seat), game, parts))
    return console.file.getvalue().splitlines()


def test_lantern_rows_state_says_each_thing_once():
    """'state' was about 40 lines at 80x24, its top scrolled off: the colours in the
    panels and again as a standing, the deck's count as a fact and as the deck's line,
    the hand named in the panel and again with its text. Each is said once now, nothing
    a player needs left out ('standings' still shows the colours on their own)."""
    rs = load_ruleset("lantern_row")
    game = build_game(rs, 2, 3001, ["random", "random"])
    run(game)
    lines = _state(game, 0)
    text = "\n".join(lines)
    assert text.count("Lantern deck") == 1 and "Cards left in the deck" not in text
    assert [ln.split()[0] for ln in lines if ln.split()[:1] == ["Crimson"]] == ["Crimson"]
    assert "Brightest colours" in text  # (the panel's score part)
    assert "3 points for the most lanterns" not in text  # (the scoring fact says it)
    me = next(p for p in game.view_model(0)["table"]["panels"] if p["you"])
    hand = next(z for z in me["zones"] if z["name"] == "Hand")["cards"]
    for card in hand:  # named once: with its text
        assert text.count(f"{card['name']}:") >= 1
    assert any(ln.startswith("Hand ") and f"{len(hand)} card" in ln for ln in lines)
    standings = "\n".join(_state(game, 0, ("standings",)))
    assert "Brightest colours" in standings and "3 points for the most" in standings


def test_a_player_chosen_after_the_card_played_is_named_with_it():
    """Legacy's leftover (wordslt3): 'Lost to History on Fire' said not whose cubes went;
    Lantern Row's Sleight of Hand said not whom it stole from."""
    lost = [f"{P2}: Play a fate card", "  Will Into Existence → Fate cards in play",
            f"  {P2} chooses Player 1 (human)", f"  {P2} chooses time frame 2",
            f"  {P2} chooses Telephone"]
    news = news_lines(summarise(lost, WORDS))
    assert news[0] == f"{P2}: Play a fate card: Will Into Existence on Player 1 (human), " \
        "Telephone"
    assert f"  {P2} chooses time frame 2" in news  # (not a card nor a player: stays below)
    sleight = ["Player 1 (human): Play a favour", "  Gust of Wind → Discard pile",
               f"  Player 1 (human)'s only choice: {P2}", f"  {P2}: −2 coins (now 2)"]
    assert news_lines(summarise(sleight, WORDS))[0] == \
        f"Player 1 (human): Play a favour: Gust of Wind on {P2}"


def test_ones_own_answer_is_not_said_back_under_a_phase():
    """Legacy's leftover (wordslt3): under '· V. Prepare the next round' the news said
    back 'Player 1 (human) chooses 1st', the answer the person had just typed; the
    others still read it, and a move's headline still names what its mover chose."""
    import io

    from rich.console import Console

    from rulebook_games.engine.decisions import Decision, Option
    from rulebook_games.play.terminal import HumanAgent
    out = io.StringIO()
    human = HumanAgent(Console(file=out, width=100), lambda prompt: "1")
    game = build_game(load_ruleset("legacy_gears_of_time"), 2, 3, ["human", "random"])
    game.agents[0] = human
    game.keep_log = True
    human.news(game, 0)  # everything before is seen
    game.log("· V. Prepare the next round")
    game.log("  Present day 5 → 6")
    two = Decision(0, "item", "Which place do you take?",
                   [Option("1st", "1st", "1st"), Option("2nd", "2nd", "2nd")])
    assert game._ask(two) == 0
    game.log("  Player 1 (human): Place in turn order 2 → 1")
    before = len(out.getvalue())
    human.news(game, 0)
    shown = out.getvalue()[before:]
    assert "Place in turn order 2 → 1" in shown
    assert "chooses 1st" not in shown, shown
    assert any("chooses 1st" in game.log_line_for(i, 1) for i in range(len(game.log_lines)))
