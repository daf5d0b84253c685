"""A person at a terminal, or a script of answers read like one: the terminal seat.

:class:`HumanAgent` shows a person what their seat may see before each
decision (the public log since their last one, their stocks, the shared
tracks), then the prompt and its numbered options; ``state``, ``card NAME``,
``log``, ``undo``, ``save`` and ``help`` may be typed at any prompt. It answers
decisions through the same interface as every agent.
"""

from __future__ import annotations

from ..numtext import NumberProblem, whole
from ..safe_text import visible
from ..agents.base import Agent
from ..engine.decisions import Decision
from ..engine.keys import short_keys


class UndoRequest(Exception):
    """A person asked to go back to their previous decision (the game is replayed to it)."""

    def __init__(self, at: int):
        super().__init__(at)
        self.at = at  # the length of the record to replay


HELP = """commands at any prompt:
  a number, a key or words        answer: the option's number, the key beside it
                                  (it stays with its option; numbers move), or
                                  the start of its words
  pass                            end your turn, or decline (no, none)
  state                           everything you may see now
  board                           the boards, tracks, shared rows and game facts
  map                             the boards alone (a map with its key)
  me                              your panel and your cards, with their text
  players                         every player's panel side by side
  standings                       the goals players race for, with each value
  card NAME                       the text of a card
  why                             the options not available now, and why
  log [N]                         the last N lines of the game log (default 30)
  undo                            back to your previous decision (see below)
  save                            save the game and stop (also: quit)
  help                            this list
undo goes back to your previous decision when nobody else has decided since and
nothing hidden or random has come out since (no card drawn, nothing shuffled).
Arrow keys edit the line and recall earlier answers; Tab completes commands,
keys, options and card names. What is typed before a question shows is ignored."""


# commands that show one part of the view model (play/render.py draws it)
PARTS = {"board": "board", "map": "map", "me": "me", "players": "players",
         "standings": "standings"}


class HumanAgent(Agent):
    """A person at a terminal, or a script of answers: shows the state and numbered options.

    Before each decision a person sees what happened since their last one (the
    public log), a line with their own stocks and the shared tracks, then the
    prompt and its numbered options, each card with its text. ``state``,
    ``card NAME``, ``log``, ``undo`` and ``help`` may be typed at any prompt.

    With ``script`` (a :class:`~.transcript.ScriptReader`) the answers come
    from a file or a pipe: each answer is echoed after the prompt so the
    transcript shows what was chosen, and an answer the decision refuses
    stops the game with :class:`~.transcript.ScriptAnswerRefused` naming the
    script's line, instead of asking again.
    """

    name = "human"
    MAX_NEWS = 40  # log lines shown before a decision; 'log' shows more
    MAX_REFUSED = 3  # options not available shown one a line; more: one line ('why')

    def __init__(self, console=None, input_fn=input, script=None):
        from rich.console import Console
        self.console = console or Console(highlight=False, emoji=False)
        self.input = input_fn
        self.script = script
        self.last_round = None
        self.seen = 0  # log lines already shown
        self.marks: list[tuple] = []  # (record length, rng state, reveals) at each answer
        self.helped = False
        self.terminal = None  # a LineInput when a person types at a terminal (lineinput.py)
        self.announced: list[str] = []  # answers taken for this seat, shown when taken

    def show(self, decision, view, game, full: bool = False):
        """Print what a person sees before answering: news, status, the prompt, the options."""
        from .render import render_view, status_lines
        from .transcript import option_rows
        c = self.console
        c.print()
        if full:
            c.print(render_view(game.view_model(view["you"]), game))
        else:
            self.news(game, view["you"])
            for line in status_lines(view, game):
                c.print(line)
        self.seen = len(game.log_lines)
        c.print(f"[bold]{_shown(decision.prompt)}[/bold]")
        numbers = decision.kind == "number" and not decision.is_range  # a range's numbers left
        if decision.is_range:
            c.print(f"  enter a number from {decision.low} to {decision.high}")
        elif numbers:
            c.print(f"  enter one of the numbers {', '.join(o.key for o in decision.options)}")
        rows = option_rows(decision, game)
        width = max((len(key) for mark, key, _, _ in rows if mark not in ("--", "")), default=0)
        hidden = sum(1 for mark, _, _, _ in rows if mark == "--")
        if hidden <= self.MAX_REFUSED:
            hidden = 0
        for mark, key, label, detail in rows:
            if numbers and mark not in ("--", ""):
                continue  # (typed as numbers, not by their place in a list)
            if mark == "--" and hidden:
                continue  # (one line for them all, below; 'why' lists them)
            if mark == "--":
                c.print(f"  [dim] --  {_shown(label)} ({_shown(detail)})[/dim]")
            elif not mark:  # a card the question is about
                c.print(f"  [bold]{_shown(label)}[/bold]: {_shown(detail)}")
            else:
                self.option_line(mark, key, width, label, detail)
        if hidden:
            c.print(f"  [dim] --  {hidden} more not available: type why[/dim]")
        if not self.helped and self.script is None:
            c.print("[dim]  (a number or a key answers; type help for commands, save to stop)"
                    "[/dim]")
            self.helped = True

    def option_line(self, mark: str, key: str, width: int, label: str, detail: str) -> None:
        """'  3. buy-rpm1  Buy: Rice-Paper Moon  (its text)': what wraps stays in the
        label's column, under the label, clear of the numbers and keys."""
        from rich.text import Text
        c = self.console
        indent = width + 8
        body = Text(visible(label))
        if detail:
            body.append(f"  ({visible(detail)})", style="dim")
        head = Text.assemble("  ", (f"{mark:>2}", "cyan"), ". ", (f"{key:<{width}}", "bold cyan"),
                             "  ")
        for i, line in enumerate(body.wrap(c, max(c.width - indent, 30))):
            line.rstrip()
            c.print(Text.assemble(head if i == 0 else " " * indent, line), soft_wrap=True)

    def news(self, game, seat: int) -> None:
        """Print the log lines since this person last looked, as their seat reads them."""
        from rich.text import Text
        c = self.console
        news = [line for line in (game.log_line_for(i, seat)
                                  for i in range(self.seen, len(game.log_lines))) if line]
        for line in [x for x in news if x in self.announced]:  # shown when it was taken
            self.announced.remove(line)
            news.remove(line)
        if len(news) > self.MAX_NEWS:
            c.print(Text(f"… {len(news) - self.MAX_NEWS} earlier lines (type 'log')",
                         style="dim"))
            news = news[-self.MAX_NEWS:]
        for line in news:
            c.print(Text(visible(line)))
        self.seen = len(game.log_lines)

    def taken(self, decision, game) -> None:
        """A question of this seat the engine answered by itself: shown now, in place,
        with its question (so nobody types an answer to it)."""
        from rich.text import Text
        self.news(game, decision.player)  # what came before it
        answer = str(decision.low) if decision.is_range else decision.options[0].label
        line = f"  {decision.prompt} → {answer} (the only choice, taken for you)"
        self.console.print(Text(visible(line), style="cyan"))
        self.announced = self.announced[-50:] + [line]  # (the log tells it later: once)

    def decide(self, decision, view, game):
        c = self.console
        self.show(decision, view, game)
        mark = (len(game.record), game.state.rng.getstate(), game.reveals)
        if self.terminal is not None:  # what was typed before this question: not for it
            ahead = self.terminal.discard_typed_ahead()
            if ahead:
                c.print(f"[yellow]  (typed before this question was shown, and ignored: "
                        f"{_shown(' / '.join(ahead.split()))})[/yellow]")
            self.terminal.words = lambda text: self.completions(text, decision, game)
        while True:
            if self.script is not None:
                c.print("> ", end="")  # a script's answer is echoed after it
            try:
                raw = self.input("> ").strip()
            except EOFError:
                raise KeyboardInterrupt from None
            if self.script is not None:
                c.print(_shown(raw))  # so the transcript shows what was answered
            if self.command(raw, decision, view, game):
                if raw.split()[0].lower() != "state":  # ('state' shows the question too)
                    c.print(f"[bold]{_shown(decision.prompt)}[/bold]")  # the question again
                continue
            answer, problem = self.parse(decision, raw, short_keys(game, decision),
                                         person=self.script is None)
            if self.script is not None:
                from .transcript import ScriptAnswerRefused
                if problem is not None:
                    raise ScriptAnswerRefused(self.script.line, len(game.record) + 1,
                                              decision, raw, problem)
                if not decision.is_range:
                    c.print(f"  [dim]→ {_shown(decision.options[answer].label)}[/dim]")
            if problem is None:
                self.marks.append(mark)
                return answer
            c.print(f"[red]{_shown(problem)}[/red]")

    def command(self, raw: str, decision, view, game) -> bool:
        """Carry out an in-game command; False when the text is an answer."""
        from rich.text import Text
        c = self.console
        word, _, rest = raw.partition(" ")
        word = word.lower()
        if word in ("help", "?") and not rest:
            c.print(Text(HELP))
            return True
        if word == "state" and not rest:
            self.show(decision, view, game, full=True)
            return True
        if word in PARTS and not rest:
            from .render import render_view
            c.print(render_view(game.view_model(decision.player), game, (PARTS[word],)))
            return True
        if word == "log" and (not rest or rest.strip().isdigit()):
            try:  # the digits 0 to 9 ('log ²' is a number to nobody)
                n = whole(rest.strip(), "the number of lines", 0) if rest.strip() else 30
            except NumberProblem as exc:
                c.print(f"[red]{_shown(exc.message)}[/red]")
                return True
            total = len(game.log_lines)
            lines = [game.log_line_for(i, decision.player) for i in range(total)]
            for line in [x for x in lines if x][-n:]:
                c.print(Text(visible(line)))
            return True
        if word == "why" and not rest:
            from .transcript import option_rows
            rows = [(label, detail) for mark, _, label, detail in option_rows(decision, game)
                    if mark == "--"]
            if not rows:
                c.print("every option is available now")
            for label, detail in rows:
                c.print(f"  [dim] --  {_shown(label)} ({_shown(detail)})[/dim]")
            return True
        if word == "card" and rest.strip():
            for line in card_text_for(game, rest.strip()).split("\n"):
                c.print(Text(visible(line)))
            return True
        if word == "undo" and not rest:
            problem = self.undo_problem(game)
            if problem:
                c.print(f"[red]undo is not possible now: {_shown(problem)}[/red]")
                return True
            at = self.marks.pop()[0]
            raise UndoRequest(at)
        return False

    def completions(self, text: str, decision, game) -> list[str]:
        """What the line may become: commands, this decision's keys and options, and
        'card NAME' for the cards this seat may see (never another seat's hidden card)."""
        from .lineinput import completions
        from ..engine.state import CardRef
        seat = decision.player
        keys = short_keys(game, decision)
        labels = [] if decision.is_range else [o.label for o in decision.options]
        cards = sorted({game.card_name(CardRef(n)) for n in game.state.cards
                        if game.card_visible_to(CardRef(n), seat)})
        commands = ["help", "state", "card ", "log", "undo", "save", "quit", "pass", "why",
                    *PARTS]
        return completions(text, commands, keys, labels, cards)

    def undo_problem(self, game) -> str | None:
        if not self.marks:
            return "this is your first decision"
        at, rng, reveals = self.marks[-1]
        seat = game.deciders[at] if at < len(game.deciders) else None
        if any(s != seat for s in game.deciders[at:]):
            return "another player has decided since"
        if reveals != game.reveals or rng != game.state.rng.getstate():
            return "a hidden card or a random draw has come out since"
        return None

    @staticmethod
    def parse(decision: Decision, raw: str, shorts: list[str] | None = None,
              person: bool = False) -> tuple[int | None, str | None]:
        """The answer typed: a number, an option's short key (``shorts``), 'pass',
        an option's key or words; or why it is not one.

        For a ``person``, a number that is also another option's name (a space
        called '#37' while option 37 is another space) is not taken: it could be
        either, and the person is told both keys."""
        if not raw:
            return None, "type the number of your choice (or help)"
        if raw.lstrip("-").isdigit():
            if not raw.isascii():  # '²' or '٣': Python reads some of those, or fails
                return None, "write the number with the digits 0 to 9"
            try:
                n = whole(raw)
            except NumberProblem:  # more digits than any number of the game
                n = -10 ** 40 if raw.startswith("-") else 10 ** 40
            if decision.is_range:
                problem = decision.check(n)
                return (n, None) if problem is None else (None, problem)
            if decision.kind == "number":  # the numbers left of a range: typed as numbers
                keys = [o.key for o in decision.options]
                if str(n) in keys:
                    return keys.index(str(n)), None
                reason = decision.refused.get(str(n))
                if reason is not None:
                    return None, f"{n} is not allowed now: {reason}"
                return None, f"choose one of the numbers {', '.join(keys)}"
            if person:
                named = [i for i, o in enumerate(decision.options) if _number_named(o.label) == n]
                if named and named != [n - 1]:
                    return None, _which_number(decision, raw, n, named[0], shorts)
            if 1 <= n <= len(decision.options):
                return n - 1, None
            return None, f"choose a number from 1 to {len(decision.options)}"
        index, problem = decision.find(raw, shorts if shorts is not None else [])
        return index, problem

    def refused(self, decision, reason):
        self.console.print(f"[red]{_shown(reason)}[/red]")

    def action_failed(self, label, reason):
        self.console.print(f"[red]{_shown(label)} could not be done: {_shown(reason)}. "
                           "Choose again.[/red]")


def _number_named(label: str) -> int | None:
    """The number an option is called by ('#37', '37'), if it is called by one."""
    import re
    m = re.fullmatch(r"#?\s*(\d{1,9})", label.strip())
    return int(m.group(1)) if m else None


def _which_number(decision: Decision, raw: str, n: int, named: int,
                  shorts: list[str] | None) -> str:
    """Why a number that is both an option's place and another option's name is
    not taken, with the keys that say which."""
    def key(i: int) -> str:
        return shorts[i] if shorts else decision.options[i].label
    other = decision.options[named]
    if 1 <= n <= len(decision.options):
        here = decision.options[n - 1]
        return (f"'{raw}' could be option {n} ({here.label}) or {other.label} (option "
                f"{named + 1}): type its key, {key(n - 1)} or {key(named)}")
    return (f"there is no option {n}; {other.label} is option {named + 1}: type "
            f"{key(named)} or {named + 1}")


def card_text_for(game, name: str) -> str:
    """'card NAME': the card's facts and text (any card of the game; texts are public)."""
    from ..lang.words import catalogue_entry, facts_line
    from ..errors import suggest
    rs = game.rs
    by_name = {str(e.data.get("name", cid)).lower(): cid for cid, e in rs.cards.items()}
    cid = by_name.get(name.lower()) or (name if name in rs.cards else None)
    if cid is None:
        matches = [n for n in by_name if n.startswith(name.lower())]
        if len(matches) == 1:
            cid = by_name[matches[0]]
    if cid is None:
        hint = suggest(name.lower(), list(by_name))
        return f"no card is called '{name}'" + (f"; {hint}" if hint else "")
    entry = catalogue_entry(rs, cid)
    facts = facts_line(entry)
    return "\n".join([entry["name"] + (f" ({facts})" if facts else "")]
                     + [f"  {line}" for line in entry["lines"]])


def _shown(text: str) -> str:
    """Rule-file text for a prompt: escapes made visible, then kept out of rich markup."""
    from rich.markup import escape
    return escape(visible(text))
